/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricSettingsTrial: steps run in a child process, the failing one named with its options and
// ns-3's message; and PfabricExperiment::Prepare's trial refusing what ns-3 stops on before the
// run directory exists. (The programs' lines: test/python/test_example_errors.py.)

#include "pfabric-test-cases.h"

#include "ns3/abort.h"
#include "ns3/nstime.h"
#include "ns3/pfabric-settings-trial.h"
#include "ns3/simulator.h"

#include <csignal>
#include <cstring>
#include <ctime>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace ns3
{
namespace pfabric
{
namespace tests
{
namespace
{

/**
 * @param text a text
 * @param start what it should start with
 * @return whether it does
 */
bool
StartsWith(const std::string& text, const std::string& start)
{
    return text.rfind(start, 0) == 0;
}

/// An event that reschedules itself at the same instant, for ever (as PIE's update with
/// Tupdate=0): simulated time stands still.
void
RescheduleAtOnce()
{
    Simulator::ScheduleNow(&RescheduleAtOnce);
}

/**
 * @brief An event every microsecond that keeps the processor busy for a millisecond of its own
 * time: a slow simulation whose simulated time moves.
 * @param until the last one's time
 */
void
SpinAndMove(Time until)
{
    const std::clock_t start = std::clock();
    while (std::clock() - start < CLOCKS_PER_SEC / 1000)
    {
    }
    if (Simulator::Now() < until)
    {
        Simulator::Schedule(MicroSeconds(1), &SpinAndMove, until);
    }
}

/// ns-3's abort lines as the PyPI wheel's 3.44 writes them (the probe of issue 54).
class TrialMessageTestCase : public TestCase
{
  public:
    TrialMessageTestCase()
        : TestCase("settings trial: ns-3's message in a child's stderr")
    {
    }

  private:
    void DoRun() override
    {
        const std::string tail = "NS_FATAL, terminating\nterminate called without an active "
                                 "exception\n";
        NS_TEST_EXPECT_MSG_EQ(PfabricSettingsTrial::ExtractMessage(
                                  "aborted. msg=\"Can't Parse Time abc\", +0.000000000s 0 "
                                  "file=/gcl-builds/src/core/model/time.cc, line=171\n" +
                                  tail),
                              "Can't Parse Time abc (time.cc:171)",
                              "NS_ABORT_MSG: its message and where");
        NS_TEST_EXPECT_MSG_EQ(
            PfabricSettingsTrial::ExtractMessage(
                "a log line\nNS_ASSERT failed, cond=\"m_minTh <= m_maxTh\", +0.000000000s 0 "
                "file=/gcl-builds/src/traffic-control/model/red-queue-disc.cc, line=491\n" +
                tail),
            "assertion m_minTh <= m_maxTh failed (red-queue-disc.cc:491)",
            "NS_ASSERT without a message: its condition");
        NS_TEST_EXPECT_MSG_EQ(
            PfabricSettingsTrial::ExtractMessage(
                "NS_ASSERT failed, cond=\"uid\", msg=\"Assert in TypeId::LookupByName: "
                "ns3::Bogus not found\", file=/gcl-builds/src/core/model/type-id.cc, line=876\n" +
                tail),
            "Assert in TypeId::LookupByName: ns3::Bogus not found (type-id.cc:876)",
            "NS_ASSERT with a message: the message");
        NS_TEST_EXPECT_MSG_EQ(
            PfabricSettingsTrial::ExtractMessage("terminate called after throwing an instance of "
                                                 "'std::out_of_range'\n  what():  vector\n"),
            "terminate called after throwing an instance of 'std::out_of_range' (what():  "
            "vector)",
            "an exception");
        NS_TEST_EXPECT_MSG_EQ(PfabricSettingsTrial::ExtractMessage("a log line\n"),
                              "",
                              "a log line is not a message");
        NS_TEST_EXPECT_MSG_EQ(PfabricSettingsTrial::DescribeSignal(SIGFPE).substr(0, 8),
                              "SIGFPE, ",
                              "a signal's name");
    }
};

/// Steps in a child: the failing one named, the parent untouched, what is not a failure passed.
class TrialStepsTestCase : public TestCase
{
  public:
    TrialStepsTestCase()
        : TestCase("settings trial: the failing step named with its options, the parent untouched")
    {
    }

  private:
    void DoRun() override
    {
        int touched = 0;
        PfabricSettingsTrial passing;
        passing.AddStep("counting", {"--a=1"}, [&touched]() { touched = 1; });
        NS_TEST_EXPECT_MSG_EQ(passing.Run(), "", "every step ran");
        NS_TEST_EXPECT_MSG_EQ(touched, 0, "what the child changes stays in the child");

        PfabricSettingsTrial signalled;
        signalled.AddStep("counting", {"--a=1"}, []() {});
        signalled.AddStep("dividing", {"--b=0", "--c=2"}, []() { raise(SIGFPE); });
        NS_TEST_EXPECT_MSG_EQ(signalled.Run(),
                              "--b=0 --c=2: dividing stops ns-3 (tried before the run): signal "
                              "SIGFPE, " +
                                  std::string(strsignal(SIGFPE)),
                              "the second step, by its signal");

        PfabricSettingsTrial aborted;
        aborted.AddStep("checking", {"--d=x"}, []() { NS_FATAL_ERROR("d cannot be x"); });
        const std::string line = aborted.Run();
        NS_TEST_EXPECT_MSG_EQ(
            StartsWith(line, "--d=x: checking stops ns-3 (tried before the run): d cannot be x ("),
            true,
            "ns-3's message: " + line);
        NS_TEST_EXPECT_MSG_EQ((line.find("(pfabric-settings-trial-test.cc:") != std::string::npos),
                              true,
                              "and where it stopped: " + line);

        PfabricSettingsTrial exited;
        exited.AddStep("exiting", {}, []() { _exit(3); });
        NS_TEST_EXPECT_MSG_EQ(exited.Run(),
                              "ns-3's defaults: exiting stops ns-3 (tried before the run): exit "
                              "status 3",
                              "an exit status; no option given");

        // Busy past its second of processor time, simulating nothing: stopped (SIGXCPU), no
        // refusal.
        PfabricSettingsTrial slow;
        slow.SetTimeLimit(1);
        slow.AddStep("computing", {"--g=1"}, []() {
            while (std::clock() < 100 * CLOCKS_PER_SEC) // the limit stops it long before
            {
            }
        });
        NS_TEST_EXPECT_MSG_EQ(slow.Run(), "", "past the time limit: no refusal");

        // Simulated time standing still at 5 us (the simulator step's heartbeat beats up to
        // there) is a loop, refused after seconds of processor time, not after the time limit:
        // a limit of minutes, so that a loaded machine's share of a core (the default 30 s gave
        // the child under 3 s of processor time beside four busy processes) cannot end it first.
        PfabricSettingsTrial looping;
        looping.SetTimeLimit(600);
        looping.AddSimulatorStep(std::vector<std::string>{});
        looping.AddStep("looping", {"--h=0"}, []() {
            Simulator::Schedule(MicroSeconds(5), &RescheduleAtOnce);
            Simulator::Run();
        });
        const std::string loop = looping.Run();
        NS_TEST_EXPECT_MSG_EQ(loop,
                              "--h=0: looping hangs ns-3 (tried before the run): simulated time "
                              "stood still at 5 us for at least 2 s of processor time (an event "
                              "that reschedules itself at once or never returns)",
                              "a loop at one instant");

        // The limit is processor time: a child kept waiting past it in wall-clock time (11 s
        // asleep, as a loaded machine's share of a core leaves it) still gets to show its loop.
        // A wall-clock limit gave up there (issue 54's third probe: PIE's Tupdate=0 then hung
        // the run). The limit leaves the loop's few seconds of processor time room under the
        // sanitizers on a loaded machine (5 s did not, beside four busy processes).
        PfabricSettingsTrial waited;
        waited.SetTimeLimit(10);
        waited.AddSimulatorStep(std::vector<std::string>{});
        waited.AddStep("looping after a wait", {"--j=0"}, []() {
            sleep(11);
            Simulator::Schedule(MicroSeconds(5), &RescheduleAtOnce);
            Simulator::Run();
        });
        // (Each Run() once: the macro would run a second trial to print what failed.)
        const std::string afterWait = waited.Run();
        NS_TEST_EXPECT_MSG_EQ(afterWait,
                              "--j=0: looping after a wait hangs ns-3 (tried before the run): "
                              "simulated time stood still at 5 us for at least 2 s of processor "
                              "time (an event that reschedules itself at once or never returns)",
                              "a loop after a wait longer than the limit");

        // 3.5 s of processor time in events a microsecond apart: slow, but moving.
        PfabricSettingsTrial moving;
        moving.SetTimeLimit(600);
        moving.AddSimulatorStep(std::vector<std::string>{});
        moving.AddStep("moving slowly", {"--i=1"}, []() {
            Simulator::ScheduleNow(&SpinAndMove, MicroSeconds(3500));
            Simulator::Run();
        });
        NS_TEST_EXPECT_MSG_EQ(moving.Run(), "", "a slow simulation is no loop");
    }
};

/// PfabricExperiment::Prepare refuses what ns-3 stops on, in one line, with no run directory.
class TrialPrepareTestCase : public TestCase
{
  public:
    TrialPrepareTestCase()
        : TestCase("settings trial: Prepare refuses FqCoDel's Flows=0 before the run directory")
    {
    }

  private:
    void DoRun() override
    {
        const std::string dir = CreateTempDirFilename("fq0");
        PfabricExperiment experiment("websearch");
        PfabricExperiment::Parameters& p = experiment.GetParameters();
        SetSmallStar(p, dir, 5);
        p.scheme = PfabricSchemeHelper::CUSTOM;
        experiment.GetCustomScheme().SetPortQueueDisc("ns3::FqCoDelQueueDisc", "Flows=0");
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(experiment.Prepare(&error), false, "refused");
        NS_TEST_EXPECT_MSG_EQ(
            StartsWith(error,
                       "--portQueueDisc=ns3::FqCoDelQueueDisc "
                       "--portQueueDiscAttributes=Flows=0: carrying a flow of "
                       "scheme fqcodel-newreno between two hosts (one segment lost) "
                       "stops ns-3"),
            true,
            "the options of the failing part: " + error);
        NS_TEST_EXPECT_MSG_EQ((error.find("SIGFPE") != std::string::npos), true, error);
        struct stat status;
        NS_TEST_EXPECT_MSG_EQ(stat(dir.c_str(), &status), -1, "no run directory");

        // With Flows=1 the same scheme is tried and taken.
        PfabricExperiment good("websearch");
        good.GetParameters() = p;
        good.GetCustomScheme().SetPortQueueDisc("ns3::FqCoDelQueueDisc", "Flows=1");
        NS_TEST_EXPECT_MSG_EQ(good.Prepare(&error), true, error);
        good.AbandonRunDirectory();
        Simulator::Destroy(); // the fabric Prepare built, never run
    }
};

} // namespace

std::vector<TestCase*>
MakeSettingsTrialTestCases()
{
    return {new TrialMessageTestCase, new TrialStepsTestCase, new TrialPrepareTestCase};
}

} // namespace tests
} // namespace pfabric
} // namespace ns3
