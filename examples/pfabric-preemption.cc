/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// pfabric-preemption: pFabric's core effect on one bottleneck (scenario and diagram in
// pfabric-preemption-scenario.h). A long flow runs; a short flow starts later. The example runs
// the short flow alone and then with the long one, and prints both flows' completion times and
// the short flow's slowdown.
//
//   ./pfabric run pfabric-preemption -- --scheme=tcp
//   ./ns3 run "pfabric-preemption --scheme=linerate --preset=sigcomm13 --shortBytes=50000"

#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/pfabric-command-line.h"
#include "ns3/pfabric-preemption-scenario.h"
#include "ns3/pfabric-scheme-helper.h"
#include "ns3/queue-size.h"

#include <cstdlib>
#include <iostream>
#include <string>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("PfabricPreemption");

namespace
{

/// Stop with one line naming the bad parameter.
[[noreturn]] void
Fail(const std::string& message)
{
    std::cerr << "pfabric-preemption: error: " << message << std::endl;
    std::exit(1);
}

} // namespace

int
main(int argc, char* argv[])
{
    pfabric::PreemptionParameters p;
    PfabricCommandLine cmd(__FILE__);
    cmd.AddValue("scheme", "pfabric, linerate, tcp or dctcp", p.scheme);
    cmd.AddValue("preset", "hotnets12 or sigcomm13: every number of the scheme", p.preset);
    cmd.AddValue("buffer",
                 "Queue size of every port, e.g. 22500B or 15p (default: the preset's)",
                 p.buffer);
    cmd.AddValue("longBytes", "Size of the long flow, bytes", p.longBytes);
    cmd.AddValue("shortBytes", "Size of the short flow, bytes", p.shortBytes);
    cmd.AddValue("shortStartUs", "Start of the short flow, microseconds", p.shortStartUs);
    cmd.AddValue("stopS", "Simulated-time limit, seconds", p.stopS);
    std::string parseError;
    if (!cmd.Parse(argc, argv, &parseError))
    {
        std::cerr << "pfabric-preemption: error: " << parseError << std::endl;
        return 1;
    }

    // The custom scheme's parts are options of the FCT programs (PfabricCustomScheme) only.
    std::string choice = PfabricSchemeHelper::CheckChoice(p.scheme, p.preset, false);
    if (!choice.empty())
    {
        Fail(choice);
    }
    // A size ns-3 cannot read stops the program in QueueSize's parser; 0 in the queue disc.
    if (!p.buffer.empty() && (!PfabricCommandLine::TakesValue(MakeQueueSizeChecker(), p.buffer) ||
                              QueueSize(p.buffer).GetValue() == 0))
    {
        Fail("--buffer=" + p.buffer + ": expected a positive size such as 22500B or 15p");
    }
    if (p.longBytes == 0 || p.shortBytes == 0)
    {
        Fail("--longBytes and --shortBytes must be positive");
    }
    if (p.shortStartUs < 0)
    {
        Fail("--shortStartUs=" + cmd.GetText("shortStartUs") + ": must not be negative");
    }
    if (p.stopS <= 0)
    {
        Fail("--stopS=" + cmd.GetText("stopS") + ": expected a positive number of seconds");
    }

    Time alone = pfabric::RunPreemption(p, false).first;
    auto [shortFct, longFct] = pfabric::RunPreemption(p, true);
    std::cout << "scheme=" << p.scheme << " preset=" << p.preset
              << " buffer=" << (p.buffer.empty() ? "preset" : p.buffer) << "\n"
              << "long flow:  " << p.longBytes << " B from 0 us, completed in "
              << longFct.As(Time::US) << "\n"
              << "short flow: " << p.shortBytes << " B from " << p.shortStartUs
              << " us, completed in " << shortFct.As(Time::US) << " (alone: " << alone.As(Time::US)
              << ", slowdown " << shortFct.GetSeconds() / alone.GetSeconds() << ")\n"
              << "short flow finished first: "
              << (shortFct + MicroSeconds(p.shortStartUs) < longFct ? "yes" : "no") << std::endl;
    return 0;
}
