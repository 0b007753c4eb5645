/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricStopReport: why a run stopped, from how it ended and the flows left in progress, and
// the line and meta.json object that say so. (End to end, on a fabric whose buffer holds no
// full segment: test/python/test_experiment.py.)

#include "pfabric-test-cases.h"

#include "ns3/pfabric-results-writer.h"
#include "ns3/pfabric-stop-report.h"

#include <string>
#include <vector>

namespace ns3
{
namespace pfabric
{
namespace tests
{
namespace
{

using InProgress = PfabricFlowApplication::FlowInProgress;

/**
 * @param id the flow's id
 * @param bytes its size
 * @param started handed to its connection
 * @param connected handshake completed
 * @param remaining bytes not acknowledged
 * @param timeouts its timeouts
 * @param probing in probe mode
 * @param lastProgress when it last progressed
 * @return a flow in progress
 */
InProgress
Flow(uint32_t id,
     uint64_t bytes,
     bool started,
     bool connected,
     uint64_t remaining,
     uint64_t timeouts,
     bool probing,
     Time lastProgress)
{
    PfabricFlowApplication::Flow flow{id,
                                      Ipv4Address("10.0.0.1"),
                                      bytes,
                                      MicroSeconds(id),
                                      Time::Max(),
                                      std::nullopt};
    return InProgress{flow, started, connected, remaining, timeouts, probing, lastProgress};
}

/// Reasons, counts, the line and meta.json's object, on flows made by hand.
class StopReportTestCase : public TestCase
{
  public:
    StopReportTestCase()
        : TestCase("stop report: reason, counts of stalled flows, line and meta.json")
    {
    }

  private:
    void DoRun() override
    {
        // Not started; started without a connection; connected, nothing acknowledged, probing;
        // connected, half acknowledged.
        const std::vector<InProgress> flows = {
            Flow(0, 1000, false, false, 1000, 0, false, MicroSeconds(0)),
            Flow(1, 2000, true, false, 2000, 3, false, MicroSeconds(1)),
            Flow(2, 3000, true, true, 3000, 7, true, MicroSeconds(2)),
            Flow(3, 4000, true, true, 2000, 1, false, MicroSeconds(250)),
        };
        PfabricStopReport report;
        // Run returned before the limit, not stopped by the experiment: nothing left to do.
        report.Record(false, false, MilliSeconds(3), Seconds(100), flows);
        NS_TEST_EXPECT_MSG_EQ((report.GetReason() == PfabricStopReport::Reason::NO_EVENTS),
                              true,
                              "no events left");
        NS_TEST_EXPECT_MSG_EQ(report.IsEarly(), true, "early");
        NS_TEST_EXPECT_MSG_EQ(report.Describe(),
                              "stopped at 0.003 s with nothing left to simulate (no sender has a "
                              "timer running) with 4 flows unfinished: 1 not started, 1 without "
                              "a connection, 2 with no byte acknowledged, 1 in probe mode; 11 "
                              "timeouts and 8000 bytes unacknowledged among them, last progress "
                              "at 0.00025 s",
                              "the line");
        PfabricJsonObject meta;
        report.AddProvenance(meta);
        NS_TEST_EXPECT_MSG_EQ(meta.Format(0),
                              "{\n\"stop\": {\n  \"reason\": \"no events left\",\n"
                              "  \"early\": true,\n  \"end_s\": 0.003,\n"
                              "  \"flows_in_progress\": 4,\n  \"not_started\": 1,\n"
                              "  \"not_connected\": 1,\n  \"no_bytes_acknowledged\": 2,\n"
                              "  \"probing\": 1,\n  \"timeouts\": 11,\n"
                              "  \"bytes_unacknowledged\": 8000,\n"
                              "  \"last_progress_s\": 0.00025\n}\n}",
                              "meta.json's stop");

        report.Record(false, false, Seconds(100), Seconds(100), flows);
        NS_TEST_EXPECT_MSG_EQ((report.GetReason() == PfabricStopReport::Reason::SAFETY_LIMIT),
                              true,
                              "at the limit");
        NS_TEST_EXPECT_MSG_EQ(report.Describe().substr(0, 58),
                              "stopped at the safety limit (--maxSimTime=100 s) with 4 fl",
                              "the limit's line");

        // Stopped by the experiment: not early, whatever is still open (the window's later
        // flows); nothing open at all: completed, however the simulator returned.
        report.Record(true, true, Seconds(1), Seconds(100), flows);
        NS_TEST_EXPECT_MSG_EQ((report.GetReason() == PfabricStopReport::Reason::MEASURED_COMPLETED),
                              true,
                              "window");
        NS_TEST_EXPECT_MSG_EQ(report.IsEarly(), false, "window: not early");
        report.Record(false, false, Seconds(1), Seconds(100), {});
        NS_TEST_EXPECT_MSG_EQ((report.GetReason() == PfabricStopReport::Reason::COMPLETED),
                              true,
                              "nothing open");
        NS_TEST_EXPECT_MSG_EQ(report.Describe(),
                              "stopped when its flows were done with 0 flows unfinished",
                              "completed line");
    }
};

} // namespace

std::vector<TestCase*>
MakeStopReportTestCases()
{
    return {new StopReportTestCase};
}

} // namespace tests
} // namespace pfabric
} // namespace ns3
