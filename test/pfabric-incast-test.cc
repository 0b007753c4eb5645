/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Incast (PfabricIncast, pfabric-incast): the ideal query completion time by hand, the workers'
// placement, the per-query bookkeeping, and the paper's claim end to end: under pFabric a
// synchronised burst that overflows the port buffer completes close to its ideal, while
// TCP-DropTail on the same burst times out.

#include "pfabric-test-cases.h"

#include "ns3/pfabric-fat-tree-helper.h"
#include "ns3/pfabric-incast.h"
#include "ns3/pfabric-single-switch-helper.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdint>
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

/**
 * The ideal QCT by hand, hotnets12 numbers (10 Gb/s links, 400 ns per link, 1460 B segments,
 * 40 B TCP/IP headers, 2 B framing, 40 B ACKs), each serialisation rounded to the simulator's
 * nanosecond as the links round it (DataRate::CalculateBytesTxTime): a full packet is 1502 B on
 * the wire, 1201.6 ns, i.e. 1202 ns; an ACK 42 B, 33.6 ns, i.e. 34 ns; a 1000 B packet 1042 B,
 * 834 ns. A lone 2920 B flow over the two links of a star: its second packet leaves the switch at
 * 3 x 1202 ns, arrives 2 x 400 ns later (4406 ns), and its ACK takes 2 x (34 + 400) ns more:
 * 5274 ns. Two workers: the aggregator's link carries the other response's two packets as well,
 * 2404 ns more: 7678 ns; three workers 10082 ns. On a fat-tree the nearest worker sets the
 * pipeline: workers in the aggregator's rack and in another pod give the rack's time.
 */
class IncastIdealTest : public TestCase
{
  public:
    IncastIdealTest()
        : TestCase("Incast: the ideal query completion time by hand, star and fat-tree")
    {
    }

  private:
    void DoRun() override
    {
        PfabricSingleSwitchHelper star(4);
        star.SetPreset("hotnets12");
        star.Build();
        NS_TEST_ASSERT_MSG_EQ(star.GetIdealFct(1, 0, 2920), NanoSeconds(5274), "a lone flow");
        NS_TEST_ASSERT_MSG_EQ(star.GetHostLinkSerialisation(2920),
                              NanoSeconds(2404),
                              "two full packets on a host link");
        NS_TEST_ASSERT_MSG_EQ(star.GetHostLinkSerialisation(1000),
                              NanoSeconds(834),
                              "one short packet: its own bytes and the headers");
        NS_TEST_ASSERT_MSG_EQ(star.GetIdealIncastTime({1, 2}, 0, 2920),
                              NanoSeconds(7678),
                              "two workers");
        NS_TEST_ASSERT_MSG_EQ(star.GetIdealIncastTime({1, 2, 3}, 0, 2920),
                              NanoSeconds(10082),
                              "three workers");
        NS_TEST_ASSERT_MSG_EQ(star.GetIdealIncastTime({1, 1, 1}, 0, 2920),
                              NanoSeconds(10082),
                              "three workers on one host: the aggregator's link still counts");

        PfabricFatTreeHelper tree(4); // 16 hosts, 2 per rack, 4 per pod
        tree.SetPreset("hotnets12");
        tree.Build();
        NS_TEST_ASSERT_MSG_EQ(tree.GetHopCount(1, 0), 2u, "host 1 shares host 0's rack");
        NS_TEST_ASSERT_MSG_EQ(tree.GetHopCount(15, 0), 6u, "host 15 is in another pod");
        NS_TEST_ASSERT_MSG_EQ(tree.GetIdealIncastTime({15, 1}, 0, 2920),
                              NanoSeconds(7678),
                              "the nearest worker sets the pipeline");
        NS_TEST_ASSERT_MSG_EQ(tree.GetIdealIncastTime({15, 14}, 0, 2920),
                              tree.GetIdealFct(15, 0, 2920) + NanoSeconds(2404),
                              "two far workers");
        Simulator::Destroy();
    }
};

/// Workers go round-robin over the other hosts, starting after the aggregator.
class IncastPlacementTest : public TestCase
{
  public:
    IncastPlacementTest()
        : TestCase("Incast: workers round-robin over the hosts other than the aggregator")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<uint32_t> expected{3, 4, 0, 1, 3, 4, 0};
        NS_TEST_ASSERT_MSG_EQ((PfabricIncast::MapWorkers(5, 2, 7) == expected),
                              true,
                              "5 hosts, aggregator 2, 7 workers");
        expected = {1, 2};
        NS_TEST_ASSERT_MSG_EQ((PfabricIncast::MapWorkers(54, 0, 2) == expected),
                              true,
                              "fewer workers than hosts: one per host");
    }
};

/**
 * Queries from hand-made flow results: QCT = the last response's end minus the query's start;
 * timeouts summed; an unfinished response leaves the query unfinished, and the next query
 * overlaps it.
 */
class IncastCollectTest : public TestCase
{
  public:
    IncastCollectTest()
        : TestCase("Incast: per-query QCT, timeouts and overlap from the flows' outcomes")
    {
    }

  private:
    void DoRun() override
    {
        using Result = PfabricResultsWriter::FlowResult;
        auto flow = [](uint32_t id, double startUs, double fctUs, uint64_t timeouts) {
            return Result{{id, 1, 0, 1000, MicroSeconds(startUs)},
                          fctUs < 0 ? Seconds(-1) : MicroSeconds(fctUs),
                          MicroSeconds(1),
                          timeouts};
        };
        // One background flow (id 0), then three queries of two responses, 100 us apart.
        std::vector<Result> results{flow(0, 0, 5, 0),
                                    flow(1, 100, 30, 0),
                                    flow(2, 100, 120, 2), // ends at 220: overlaps query 1
                                    flow(3, 200, 10, 0),
                                    flow(4, 200, 15, 1),
                                    flow(5, 300, -1, 0), // unfinished
                                    flow(6, 300, 5, 0)};
        auto queries = PfabricIncast::CollectQueries(results, 1, 2, 3, MicroSeconds(7));
        NS_TEST_ASSERT_MSG_EQ(queries.size(), 3u, "three queries");
        NS_TEST_ASSERT_MSG_EQ(queries[0].qct, MicroSeconds(120), "query 0: its slowest response");
        NS_TEST_ASSERT_MSG_EQ(queries[0].timeouts, 2u, "query 0: timeouts");
        NS_TEST_ASSERT_MSG_EQ(queries[0].responsesWithTimeouts, 1u, "query 0: one response");
        NS_TEST_ASSERT_MSG_EQ(queries[0].overlapsPrevious, false, "query 0: first");
        NS_TEST_ASSERT_MSG_EQ(queries[0].firstFlowId, 1u, "query 0: first flow");
        NS_TEST_ASSERT_MSG_EQ(queries[1].qct, MicroSeconds(15), "query 1");
        NS_TEST_ASSERT_MSG_EQ(queries[1].overlapsPrevious, true, "query 0 ended at 220 us");
        NS_TEST_ASSERT_MSG_EQ(queries[1].idealQct, MicroSeconds(7), "the ideal, as given");
        NS_TEST_ASSERT_MSG_EQ(queries[2].qct.IsNegative(), true, "query 2: unfinished");
        NS_TEST_ASSERT_MSG_EQ(queries[2].responsesCompleted, 1u, "query 2: one response");
        NS_TEST_ASSERT_MSG_EQ(queries[2].overlapsPrevious, false, "query 1 ended at 215 us");
    }
};

/// What an end-to-end incast gives a test.
struct IncastOutcome
{
    Time ideal;                                //!< the ideal QCT
    std::vector<PfabricIncast::QueryResult> q; //!< every query
    double meanRatio;                          //!< mean QCT / ideal over completed queries
    double maxRatio;                           //!< largest QCT / ideal
    uint32_t unfinished;                       //!< queries that did not complete
};

/**
 * @brief Run 10 queries of 32 workers x 10,000 B on a hotnets12 star of 33 hosts (one worker
 * per host, the aggregator host 0), 1 ms apart.
 * @param scheme pfabric, linerate, tcp or dctcp
 * @param background web search load on every host; 0: none
 * @param directory the run directory
 * @return the outcome
 */
IncastOutcome
RunIncast(const std::string& scheme, double background, const std::string& directory)
{
    PfabricIncast incast;
    PfabricIncast::Parameters& p = incast.GetParameters();
    p.workers = 32;
    p.responseBytes = 10000;
    p.queries = 10;
    p.interval = MicroSeconds(1000);
    p.background = background;
    PfabricExperiment::Parameters& e = incast.GetExperimentParameters();
    e.preset = "hotnets12";
    e.scheme = scheme;
    e.topology = PfabricExperiment::Parameters::STAR;
    e.hosts = 33;
    e.out = directory;
    std::string error;
    bool prepared = incast.Prepare(&error);
    NS_ABORT_MSG_UNLESS(prepared, error);
    incast.Install();
    incast.Run();
    IncastOutcome out{incast.GetIdealQct(), incast.GetQueryResults(), 0, 0, 0};
    uint32_t completed = 0;
    for (const PfabricIncast::QueryResult& r : out.q)
    {
        if (r.qct.IsNegative())
        {
            ++out.unfinished;
            continue;
        }
        double ratio = r.qct.GetSeconds() / r.idealQct.GetSeconds();
        out.meanRatio += ratio;
        out.maxRatio = std::max(out.maxRatio, ratio);
        ++completed;
    }
    out.meanRatio /= std::max<uint32_t>(1, completed);
    return out;
}

/**
 * The paper's claim (sections 2.3-2.4) on a burst that overflows every buffer: 32 workers answer
 * 10,000 B (7 packets, within MinTCP's and TCP's initial window of 12) at once, 224 packets
 * towards one port: 15 times the pFabric buffer (22.5 KB) and 1.5 times TCP-DropTail's (150
 * packets). Ideal QCT 266 us.
 *
 * - MinTCP+pFabric completes every query within 25% of the ideal, with and without web search
 *   background at load 0.5. Measured: 1.186 to 1.187 alone, mean 1.172 and max 1.200 over the
 *   background. The bound is the top of the paper's range for pFabric's small flows (mean
 *   FCT / ideal 1.04-1.25, data mining): the burst's hundred-odd timeouts per query (about
 *   three per response) cost no more than a small flow loses to other traffic. Seen failing
 *   when PfabricQueueDisc drops the arrival instead of evicting less urgent packets (max 2.77
 *   over the background: the background's buffered packets keep the responses out; alone it
 *   passes, 1.12, since every packet of a lone query is as useful as another), and when
 *   MinTCP's fixed RTO is raised to TCP-DropTail's 200 us (1.999 alone, 2.35 over the
 *   background: the dropped packets are no longer back before the buffer drains).
 * - TCP-DropTail on the same queries: every query has a timeout (31 or 32 of its 32 responses),
 *   and its QCT is at least 1.5 times the ideal (measured 1.66 to 2.22): the drops are repaired
 *   only after the 200 us minimum RTO, three quarters of the ideal.
 */
class IncastSchemesTest : public TestCase
{
  public:
    IncastSchemesTest()
        : TestCase("Incast: MinTCP+pFabric within 1.25 x ideal, TCP-DropTail times out "
                   "(32 x 10 KB on a star)")
    {
    }

  private:
    void DoRun() override
    {
        IncastOutcome alone = RunIncast("pfabric", 0, CreateTempDirFilename("pfabric"));
        // By hand: a response is 6 full packets (1202 ns each) and one of 1240 B (1282 B on the
        // wire, 1026 ns), 8238 ns on a link; alone it completes when its last packet leaves the
        // switch at 7 x 1202 + 1026 ns, plus 800 ns of propagation and 868 ns of ACK: 11108 ns;
        // the other 31 responses add 31 x 8238 ns.
        NS_TEST_ASSERT_MSG_EQ(alone.ideal,
                              NanoSeconds(11108 + 31 * 8238),
                              "ideal: the other 31 responses after a lone one");
        NS_TEST_ASSERT_MSG_EQ(alone.unfinished, 0u, "pFabric: every query completes");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(alone.maxRatio, 1.25, "pFabric: every query near ideal");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(alone.maxRatio, 1.0, "no query beats the ideal");
        uint64_t timeouts = 0;
        for (const auto& r : alone.q)
        {
            timeouts += r.timeouts;
        }
        NS_TEST_ASSERT_MSG_GT(timeouts, 0u, "pFabric: the burst overflowed the buffer");

        IncastOutcome loaded = RunIncast("pfabric", 0.5, CreateTempDirFilename("pfabric-bg"));
        NS_TEST_ASSERT_MSG_EQ(loaded.unfinished, 0u, "pFabric, background: every query completes");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(loaded.maxRatio,
                                    1.25,
                                    "pFabric, background: every query near ideal");

        IncastOutcome tcp = RunIncast("tcp", 0, CreateTempDirFilename("tcp"));
        NS_TEST_ASSERT_MSG_EQ(tcp.unfinished, 0u, "TCP: every query completes");
        for (const auto& r : tcp.q)
        {
            NS_TEST_ASSERT_MSG_GT(r.timeouts, 0u, "TCP: query " << r.id << " times out");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(r.qct.GetSeconds() / r.idealQct.GetSeconds(),
                                        1.5,
                                        "TCP: query " << r.id << " far above ideal");
        }
    }
};

} // namespace

std::vector<TestCase*>
MakeIncastTestCases()
{
    return {new IncastIdealTest, new IncastPlacementTest, new IncastCollectTest};
}

std::vector<TestCase*>
MakeIncastExtensiveTestCases()
{
    return {new IncastSchemesTest};
}

} // namespace tests
} // namespace pfabric
} // namespace ns3
