/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Fuzz target: the experiment programs' command line, where every --set KEY=VALUE of
// pfabric-analysis ends up: PfabricCommandLine::Parse (unknown options, values of bools and
// numbers) over every option of PfabricExperiment, then PfabricExperiment::CheckChoices, what
// Prepare checks before it reads a file (choices, ranges, --buffer, --rto, --classLoads, the
// deadline options). Each line of the input is one argument; the options are those of
// pfabric-websearch, pfabric-deadlines and pfabric-classes in turn. A refusal is one line and
// nothing else: the ns-3 parser never gets a value it would answer with its help and exit(1),
// which libFuzzer reports. ns-3's own options (--Print..., attribute paths, global values) are
// left out: they go to ns-3 unchecked, by design (PfabricCommandLine::IsNs3Option).

#include "fuzz-common.h"

#include "ns3/pfabric-command-line.h"
#include "ns3/pfabric-experiment.h"
#include "ns3/queue-size.h"

#include <sstream>

using namespace ns3;
using pfabric_fuzz::Require;

namespace
{

void
Check(const std::vector<std::string>& arguments, const std::string& workload, bool deadlines)
{
    PfabricExperiment experiment(workload);
    if (deadlines)
    {
        experiment.EnableDeadlines();
    }
    PfabricCommandLine cmd;
    experiment.AddCommandLineOptions(cmd);
    std::vector<std::string> words{"pfabric-" + workload};
    words.insert(words.end(), arguments.begin(), arguments.end());
    std::vector<char*> argv;
    for (auto& word : words)
    {
        argv.push_back(word.data());
    }
    std::string error;
    if (!cmd.Parse(static_cast<int>(argv.size()), argv.data(), &error))
    {
        pfabric_fuzz::RequireErrorLine(error, "");
        return;
    }
    error = experiment.CheckChoices();
    if (!error.empty())
    {
        pfabric_fuzz::RequireErrorLine(error, "--");
        return;
    }
    // What CheckChoices accepts, Prepare hands to ns-3 as it is.
    const auto& p = experiment.GetParameters();
    Require(p.buffer.empty() || QueueSize(p.buffer).GetValue() > 0,
            "accepted --buffer=" + p.buffer + ", which ns-3 reads as nothing");
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
    std::vector<std::string> arguments;
    for (std::string line; std::getline(lines, line) && arguments.size() < 32;)
    {
        std::string name = line.substr(line.rfind("--", 0) == 0 ? 2 : line.rfind('-', 0) == 0);
        name = name.substr(0, name.find('='));
        if (line.find('\0') != std::string::npos ||
            (line.rfind('-', 0) == 0 && PfabricCommandLine::IsNs3Option(name)))
        {
            continue; // not an argument (NUL), or ns-3's own
        }
        arguments.push_back(line);
    }
    Check(arguments, "websearch", false);
    Check(arguments, "websearch", true);
    Check(arguments, "classes", false);
    return 0;
}
