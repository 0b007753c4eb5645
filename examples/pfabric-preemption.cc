/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// pfabric-preemption: pFabric's core effect on one bottleneck (scenario and diagram in
// pfabric-preemption-scenario.h). A long flow runs; a short flow starts later. The example runs
// the short flow alone and then with the long one, and prints both flows' completion times and
// the short flow's slowdown. A flow that has not completed by --stopS has no completion time: the
// example says so, and with a warning on stderr exits with status 0, or 3 with --strict (as the
// FCT programs, pfabric::EXIT_STOPPED_EARLY).
//
//   ./pfabric run pfabric-preemption -- --scheme=tcp
//   ./ns3 run "pfabric-preemption --scheme=linerate --preset=sigcomm13 --shortBytes=50000"

#include "ns3/application.h"
#include "ns3/bulk-send-application.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/packet-sink.h"
#include "ns3/pfabric-command-line.h"
#include "ns3/pfabric-configured-defaults.h"
#include "ns3/pfabric-experiment-program.h"
#include "ns3/pfabric-flow-application.h"
#include "ns3/pfabric-preemption-scenario.h"
#include "ns3/pfabric-queue-disc-helper.h"
#include "ns3/pfabric-scheme-helper.h"
#include "ns3/pfabric-settings-trial.h"
#include "ns3/pfabric-single-switch-helper.h"
#include "ns3/pfabric-switch.h"
#include "ns3/pfabric-tcp-socket-factory.h"
#include "ns3/queue-size.h"
#include "ns3/random-variable-stream.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("PfabricPreemption");

namespace
{

/// The simulated time of the settings' trial, seconds: both flows have started and sent.
constexpr double TRIAL_STOP_S = 1e-3;

/// Stop with one line naming the bad parameter.
[[noreturn]] void
Fail(const std::string& message)
{
    std::cerr << "pfabric-preemption: error: " << message << std::endl;
    std::exit(1);
}

/**
 * @param fct a flow's completion time; negative: it did not complete
 * @param stopS the simulated-time limit, seconds
 * @return "completed in <fct>", or that it did not complete by the limit
 */
std::string
DescribeCompletion(Time fct, double stopS)
{
    std::ostringstream text;
    if (fct.IsNegative())
    {
        text << "unfinished at --stopS=" << stopS << " s";
    }
    else
    {
        text << "completed in " << fct.As(Time::US);
    }
    return text.str();
}

} // namespace

int
main(int argc, char* argv[])
{
    pfabric::PreemptionParameters p;
    PfabricCommandLine cmd(__FILE__);
    const std::string schemes = PfabricSchemeHelper::DescribeSchemes(false);
    const std::string presets = PfabricSchemeHelper::DescribePresets();
    cmd.AddValue("scheme", schemes, p.scheme);
    cmd.AddValue("preset", presets + ": every number of the scheme", p.preset);
    cmd.AddValue("buffer",
                 "Queue size of every port, e.g. 22500B or 15p (default: the preset's)",
                 p.buffer);
    cmd.AddValue("longBytes", "Size of the long flow, bytes", p.longBytes);
    cmd.AddValue("shortBytes", "Size of the short flow, bytes", p.shortBytes);
    cmd.AddValue("shortStartUs", "Start of the short flow, microseconds", p.shortStartUs);
    cmd.AddValue("stopS", "Simulated-time limit, seconds", p.stopS);
    Time stallLimit = pfabric::RunWatchdog::GetDefaultStallLimit();
    pfabric::RunWatchdog::AddStallLimitOption(cmd, stallLimit);
    bool strict = false;
    cmd.AddValue("strict",
                 "exit with status " + std::to_string(pfabric::EXIT_STOPPED_EARLY) +
                     " when a flow has not completed by --stopS, instead of 0",
                 strict);
    std::string parseError;
    if (!cmd.Parse(argc, argv, &parseError))
    {
        std::cerr << "pfabric-preemption: error: " << parseError << std::endl;
        return 1;
    }
    const std::string stallLimitError = pfabric::RunWatchdog::CheckStallLimit(cmd, stallLimit);
    if (!stallLimitError.empty())
    {
        Fail(stallLimitError);
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
    const std::string bufferUnits =
        p.buffer.empty() ? "" : PfabricCommandLine::CheckUnits(MakeQueueSizeChecker(), p.buffer);
    if (!bufferUnits.empty())
    {
        Fail("--buffer=" + p.buffer + ": " + bufferUnits);
    }
    if (p.longBytes == 0 || p.shortBytes == 0)
    {
        Fail("--longBytes and --shortBytes must be positive");
    }
    // TCP orders sequence numbers within half their 32-bit space (the twelfth probe: 2^31 bytes
    // crashed the trial run, SIGSEGV, blamed on --scheme).
    for (const auto& [name, bytes] :
         {std::pair<std::string, uint64_t>{"longBytes", p.longBytes}, {"shortBytes", p.shortBytes}})
    {
        if (bytes > PfabricFlowApplication::MAX_FLOW_BYTES)
        {
            Fail("--" + name + "=" + cmd.GetText(name) + ": more than a flow's " +
                 std::to_string(PfabricFlowApplication::MAX_FLOW_BYTES) + " bytes");
        }
    }
    if (p.shortStartUs < 0)
    {
        Fail("--shortStartUs=" + cmd.GetText("shortStartUs") + ": must not be negative");
    }
    if (p.stopS <= 0)
    {
        Fail("--stopS=" + cmd.GetText("stopS") + ": expected a positive number of seconds");
    }
    // ns-3 keeps times in whole nanoseconds: a fraction of one was rounded away (issue 54's
    // ninth probe), and past its range MicroSeconds and Seconds overflow (a short flow of
    // 1.8e19 us ran at once, a limit of 1e300 s stopped the run before either flow finished).
    for (const auto& [name, unit] :
         {std::pair<std::string, std::string>{"shortStartUs", "us"}, {"stopS", "s"}})
    {
        const std::string time = cmd.GetText(name) + unit;
        const std::string error = PfabricCommandLine::TimeNanoseconds(time) < 0
                                      ? "expected a plain decimal number"
                                      : PfabricCommandLine::CheckNanoseconds(time);
        if (!error.empty())
        {
            Fail("--" + name + "=" + cmd.GetText(name) + ": " + error);
        }
    }

    // What the run would take and not have: a default of ns-3's for what the scenario's fabric
    // sets on every link (its link type is the default, whatever the number of hosts), a TTL its
    // lean switch does not read, a value every socket loses.
    const std::vector<std::string> overridden =
        PfabricSingleSwitchHelper(1).GetLinkDefaultsItOverrides();
    if (!overridden.empty())
    {
        Fail(PfabricFabricHelper::RefuseLinkDefault(cmd.DescribeNs3Setting(overridden.front()),
                                                    overridden.front(),
                                                    "the scenario's links are fixed"));
    }
    const std::vector<std::string> ttl = PfabricSingleSwitchHelper(1).GetTtlDefaultsNothingReads();
    if (!ttl.empty())
    {
        Fail(cmd.DescribeNs3Setting(ttl.front()) +
             ": the scenario's lean switch forwards without IP and reads no TTL, so " +
             ttl.front() + " changes nothing; leave it unset");
    }
    std::string why;
    const std::string unread = PfabricFabricHelper::FindIpDefaultNoFabricReads(&why);
    if (!unread.empty())
    {
        Fail(PfabricFabricHelper::RefuseUnreadIpDefault(cmd.DescribeNs3Setting(unread),
                                                        unread,
                                                        why));
    }
    const PfabricSchemeHelper scheme(p.scheme, p.preset);
    const std::vector<std::string> deviceQueue =
        PfabricQueueDiscHelper::GetPortDefaultsWithoutEffect();
    if (!deviceQueue.empty())
    {
        Fail(PfabricQueueDiscHelper::RefusePortDefault(cmd.DescribeNs3Setting(deviceQueue.front()),
                                                       deviceQueue.front()));
    }
    Ptr<PfabricTcpSocketFactory> factory =
        scheme.GetSocketFactoryFactory().Create<PfabricTcpSocketFactory>();
    const std::string lost = factory->FindSettingEverySocketLoses(&why);
    if (!lost.empty())
    {
        Fail(cmd.DescribeNs3Setting(lost) + ": " + why + "; leave it unset");
    }
    const std::string unusedType = scheme.FindUnusedTypeDefault(&why);
    if (!unusedType.empty())
    {
        Fail(cmd.DescribeNs3Setting(unusedType) + ": " + why + "; leave it unset");
    }
    // What a reused connection keeps: the scenario's two flows each open a connection of their
    // own (the tenth probe: RestartSsThresh=false was taken and changed nothing).
    const std::vector<std::string> restart =
        PfabricConfiguredDefaults::ListConfigured(PfabricTcpSocketFactory::GetTypeId(),
                                                  {"RestartSsThresh"});
    if (!restart.empty())
    {
        Fail(cmd.DescribeNs3Setting(restart.front()) +
             ": what a reused connection keeps of its ssthresh, and the scenario's two flows each "
             "have a connection of their own, so it changes nothing; leave it unset");
    }
    // Defaults the scenario never lets reach a run as given (the FCT programs refuse the same;
    // the twelfth probe: StartTime=3ms held the sinks back and the times counted from 0).
    for (const auto& [type, attribute, why] :
         {std::tuple{Application::GetTypeId(),
                     "StartTime",
                     "the scenario starts its flows at 0 and at --shortStartUs, from which their "
                     "times count, so it would only hold them back; give --shortStartUs instead"},
          std::tuple{Application::GetTypeId(),
                     "StopTime",
                     "the scenario runs its flows until --stopS, so it would only cut them short; "
                     "give --stopS instead"},
          std::tuple{RandomVariableStream::GetTypeId(),
                     "Stream",
                     "the scenario assigns its random variables' streams itself, so it changes "
                     "nothing"}})
    {
        const std::vector<std::string> configured =
            PfabricConfiguredDefaults::ListConfigured(type, {attribute});
        if (!configured.empty())
        {
            Fail(cmd.DescribeNs3Setting(configured.front()) + ": " + why);
        }
    }
    // A receive window of 0 bytes: ns-3's persist timer crashes the run (SIGSEGV).
    const std::string stalled = factory->FindSettingNoConnectionCarries(&why);
    if (!stalled.empty())
    {
        Fail(cmd.DescribeNs3Setting(stalled) + ": " + why);
    }

    // What ns-3 stops on only when the objects are built or used (a global value kept as text,
    // a queue size PfabricQueueDisc refuses) is tried first in a child, as the FCT programs' is.
    PfabricSettingsTrial trial;
    trial.AddSimulatorStep(cmd);
    std::vector<std::string> given = PfabricSettingsTrial::GivenNs3Options(cmd, true);
    if (!p.buffer.empty())
    {
        given.insert(given.begin(), "--buffer=" + p.buffer);
    }
    given = PfabricSettingsTrial::WithVariable(given, "NS_ATTRIBUTE_DEFAULT");
    given.insert(given.begin(), "--scheme=" + p.scheme);
    trial.AddStep("running the scenario for 1 ms", given, [&p]() {
        pfabric::PreemptionParameters brief = p;
        brief.stopS = std::min(p.stopS, TRIAL_STOP_S);
        pfabric::RunPreemption(brief, true);
    });
    const std::string refused = trial.Run();
    if (!refused.empty())
    {
        Fail(refused);
    }
    // What only the built fabric tells, built once: the switch's mode values it never reads (the
    // twelfth probe: FlowcellBytes was taken under spraying), an MTU or TTL of ns-3's IP that no
    // packet crosses it with, a default of a device or channel type it does not have. After the
    // trial: a queue size the queue disc refuses stops ns-3 when it is made.
    std::vector<PfabricSchemeHelper::IdleModeAttribute> idles = scheme.GetIdleModeAttributes();
    std::string unreachable;
    std::string unreachableWhy;
    std::string unusedLink;
    std::string unusedLinkWhy;
    {
        PfabricSingleSwitchHelper fabric(3);
        pfabric::BuildPreemptionFabric(fabric);
        PfabricSchemeHelper::AddIdleModeAttributes(
            fabric.GetSwitches().Get(0)->GetObject<PfabricSwitch>(),
            &idles);
        unreachable = fabric.FindIpSettingNoPacketCrosses(&unreachableWhy);
        unusedLink = fabric.FindUnusedLinkTypeDefault(&unusedLinkWhy);
        Simulator::Destroy();
    }
    for (const auto& idle : idles)
    {
        const std::vector<std::string> configured =
            PfabricConfiguredDefaults::ListConfigured(idle.part, {idle.attribute});
        if (!configured.empty())
        {
            Fail(PfabricSchemeHelper::RefuseIdleModeAttribute(
                cmd.DescribeNs3Setting(configured.front()),
                idle));
        }
    }
    if (!unreachable.empty())
    {
        Fail(cmd.DescribeNs3Setting(unreachable) + ": " + unreachableWhy);
    }
    if (!unusedLink.empty())
    {
        Fail(cmd.DescribeNs3Setting(unusedLink) + ": " + unusedLinkWhy + "; leave it unset");
    }
    // Its applications are ns-3's BulkSendApplication and PacketSink (the twelfth probe:
    // PfabricFlowApplication's TerminateAtDeadline, Port, ... were taken).
    const std::string unusedApplication = PfabricConfiguredDefaults::FindUnmadeTypeDefault(
        Application::GetTypeId(),
        "applications",
        {BulkSendApplication::GetTypeId(), PacketSink::GetTypeId()},
        &why);
    if (!unusedApplication.empty())
    {
        Fail(cmd.DescribeNs3Setting(unusedApplication) + ": " + why + "; leave it unset");
    }

    // Each run watched: a crash or hang inside ns-3 past the trial's millisecond becomes one line
    // naming the settings (issue 54's ninth probe: TcpCubic's Beta=1 hung it for ever).
    std::vector<std::string> settings = PfabricSettingsTrial::GivenNs3Options(cmd, false);
    settings.insert(settings.end(), given.begin() + 1, given.end()); // not --scheme
    auto watched = [&](bool withLongFlow) {
        pfabric::RunWatchdog watchdog("pfabric-preemption", settings, stallLimit);
        watchdog.Start();
        const std::pair<Time, Time> fcts = pfabric::RunPreemption(p, withLongFlow);
        watchdog.Stop();
        return fcts;
    };
    Time alone = watched(false).first;
    auto [shortFct, longFct] = watched(true);
    const Time shortStart = MicroSeconds(p.shortStartUs);
    std::cout << "scheme=" << p.scheme << " preset=" << p.preset
              << " buffer=" << (p.buffer.empty() ? "preset" : p.buffer) << "\n"
              << "long flow:  " << p.longBytes << " B from 0 us, "
              << DescribeCompletion(longFct, p.stopS) << "\n"
              << "short flow: " << p.shortBytes << " B from " << p.shortStartUs << " us, "
              << DescribeCompletion(shortFct, p.stopS) << " (alone: ";
    // A time only for a flow that completed (an unfinished one's was -1 s, printed as a result).
    if (alone.IsNegative())
    {
        std::cout << "unfinished";
    }
    else
    {
        std::cout << alone.As(Time::US);
    }
    if (!shortFct.IsNegative() && !alone.IsNegative())
    {
        std::cout << ", slowdown " << shortFct.GetSeconds() / alone.GetSeconds();
    }
    std::cout << ")\n"
              << "short flow finished first: ";
    if (shortFct.IsNegative() && longFct.IsNegative())
    {
        std::cout << "neither flow finished";
    }
    else
    {
        std::cout << (!shortFct.IsNegative() &&
                              (longFct.IsNegative() || shortStart + shortFct < longFct)
                          ? "yes"
                          : "no");
    }
    std::cout << std::endl;
    const int unfinished =
        int(alone.IsNegative()) + int(shortFct.IsNegative()) + int(longFct.IsNegative());
    if (unfinished > 0)
    {
        std::cout << "unfinished: " << unfinished << " of 3 flows (the short flow alone, then "
                  << "both), stopped at --stopS=" << p.stopS << " s; exit status "
                  << (strict
                          ? std::to_string(pfabric::EXIT_STOPPED_EARLY) + " (--strict)"
                          : "0 (" + std::to_string(pfabric::EXIT_STOPPED_EARLY) + " with --strict)")
                  << std::endl;
        std::cerr << "pfabric-preemption: warning: " << unfinished << " of 3 flows unfinished at "
                  << "--stopS=" << p.stopS << " s: no completion time for "
                  << (unfinished == 1 ? "it" : "them") << std::endl;
        return strict ? pfabric::EXIT_STOPPED_EARLY : 0;
    }
    return 0;
}
