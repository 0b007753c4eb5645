/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Fuzz target: the settings a user passes through the experiment programs to ns-3 itself:
// attribute paths (--ns3::Type::Attribute=value), global values (--SchedulerType=...), and the
// custom scheme's parts and attribute lists (--portQueueDisc, --portQueueDiscAttributes, ...,
// --tcpAttributes), with the options that choose what they configure (--scheme, --buffer, --rto,
// --hostStack, ...). Each line of the input is one argument; the others (the options target's)
// are left out, and the run is fixed small: one flow of ten segments between the two hosts of a
// star, at most 500 us simulated (the trial's too: a valid setting such as a 1 ns RTO makes
// events at every nanosecond, which libFuzzer would report as a hang). The contract (issue 54):
// a refusal is one line; what PfabricCommandLine::Parse, PfabricExperiment::CheckChoices and
// Prepare (its checks, then its trial in a child process) accept, ns-3 takes: the run itself, in
// this process, builds, installs and simulates without an abort, a failed assertion, a signal or
// an exit (libFuzzer reports each).

#include "fuzz-common.h"

#include "ns3/config.h"
#include "ns3/pfabric-command-line.h"
#include "ns3/pfabric-experiment.h"
#include "ns3/simulator.h"

#include <set>
#include <sstream>

using namespace ns3;

namespace
{

/// The custom scheme's options: its parts and their attribute lists (they need --scheme=custom).
const std::set<std::string> CUSTOM_OPTIONS = {"schemeLabel",
                                              "portQueueDisc",
                                              "portQueueDiscAttributes",
                                              "hostQueueDisc",
                                              "hostQueueDiscAttributes",
                                              "tcpCongestionOps",
                                              "tcpCongestionOpsAttributes",
                                              "tcpAttributes"};

/// The programs' other options that choose or configure what reaches ns-3 (the rest stay as set
/// below).
const std::set<std::string> SETTINGS_OPTIONS = {"preset",
                                                "scheme",
                                                "buffer",
                                                "rto",
                                                "linkDelay",
                                                "lb",
                                                "hostStack",
                                                "switchMode",
                                                "linkType",
                                                "priorityLevels"};

/// The option's name in an argument (--name=value), or "".
std::string
OptionName(const std::string& argument)
{
    if (argument.rfind("--", 0) != 0)
    {
        return "";
    }
    return argument.substr(2, argument.find('=') - 2);
}

/// Whether an argument of the input is one this target tries.
bool
IsSetting(const std::string& argument)
{
    const std::string name = OptionName(argument);
    if (argument.find('\0') != std::string::npos || name.empty() || name.rfind("Print", 0) == 0)
    {
        return false; // not an argument, or ns-3's --Print... (they print and exit, by design)
    }
    return CUSTOM_OPTIONS.count(name) > 0 || SETTINGS_OPTIONS.count(name) > 0 ||
           PfabricCommandLine::IsNs3Option(name);
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const std::string flowFile = [] {
        const std::string list = "src,dst,size_bytes,start_s\n0,1,14600,0\n";
        return pfabric_fuzz::WriteInput("flow.csv",
                                        reinterpret_cast<const uint8_t*>(list.data()),
                                        list.size());
    }();
    const std::string out = (pfabric_fuzz::Directory() / "run").string();

    std::vector<std::string> words{"pfabric-websearch",
                                   "--topology=star",
                                   "--hosts=2",
                                   "--flowFile=" + flowFile,
                                   "--maxSimTime=500us",
                                   "--out=" + out};
    std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
    bool custom = false;
    for (std::string line; std::getline(lines, line) && words.size() < 24;)
    {
        if (IsSetting(line))
        {
            words.push_back(line);
            custom = custom || CUSTOM_OPTIONS.count(OptionName(line)) > 0;
        }
    }
    if (custom)
    {
        // The custom scheme's parts need --scheme=custom: put it first, so that a --scheme given
        // later still wins and its refusal is tried too.
        words.insert(words.begin() + 1, "--scheme=custom");
    }
    std::vector<char*> argv;
    for (auto& word : words)
    {
        argv.push_back(word.data());
    }

    {
        PfabricExperiment experiment("websearch");
        PfabricCommandLine cmd;
        experiment.AddCommandLineOptions(cmd);
        std::string error;
        if (!cmd.Parse(static_cast<int>(argv.size()), argv.data(), &error))
        {
            pfabric_fuzz::RequireErrorLine(error, "");
        }
        else if (error = experiment.CheckChoices(); !error.empty())
        {
            pfabric_fuzz::RequireErrorLine(error, "--");
        }
        else if (!experiment.Prepare(&error))
        {
            pfabric_fuzz::RequireErrorLine(error, "");
        }
        else
        {
            // Accepted: ns-3 must take it here as it did in the trial's child.
            experiment.Install();
            experiment.Run();
        }
        Simulator::Destroy();
    }
    Config::Reset(); // the attribute paths' and global values' defaults, for the next input
    std::error_code ignored;
    std::filesystem::remove_all(out, ignored);
    return 0;
}
