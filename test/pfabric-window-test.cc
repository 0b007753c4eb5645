/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The steady-state measurement window (PfabricMeasurementWindow in PfabricExperiment): off it
// changes nothing; on, the measured flows are the list's flows, the run stops when they have
// completed, the flows after them keep arriving (and change a large flow's FCT by what they
// take of its bottleneck), a size limit measures and awaits only the window's smaller flows,
// and the options are checked.

#include "pfabric-test-cases.h"

#include "ns3/pfabric-experiment.h"
#include "ns3/pfabric-flow-list.h"
#include "ns3/pfabric-flow-size-distribution.h"
#include "ns3/pfabric-preset.h"
#include "ns3/pfabric-size-bins.h"
#include "ns3/rng-seed-manager.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <sstream>
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

/// What a test reads back from one experiment run.
struct RunOutcome
{
    std::vector<PfabricExperiment::Result> results; //!< GetResults
    std::vector<std::string> header;                //!< fct.csv's columns
    std::vector<std::vector<std::string>> rows;     //!< fct.csv's rows, split
    std::string meta;                               //!< meta.json's text
    std::string summary;                            //!< Summarize
    Time end;                                       //!< GetEndTime
    bool arrivalsThroughEnd;                        //!< GetArrivalsThroughEnd
    uint32_t hosts;                                 //!< hosts of the fabric
    DataRate hostRate;                              //!< host link rate
    uint32_t overheadBytes;                         //!< header bytes of every packet on the wire
};

/**
 * @param line a CSV line
 * @return its fields
 */
std::vector<std::string>
SplitCsv(const std::string& line)
{
    std::vector<std::string> fields;
    std::istringstream in(line);
    for (std::string field; std::getline(in, field, ',');)
    {
        fields.push_back(field);
    }
    if (!line.empty() && line.back() == ',')
    {
        fields.emplace_back();
    }
    return fields;
}

/**
 * @brief Run pfabric-websearch's experiment (Prepare, Install, Run, WriteResults) and read its
 * outputs back.
 * @param dir the run directory
 * @param setup sets the parameters and the window
 * @return the outcome
 */
RunOutcome
RunExperiment(const std::string& dir, const std::function<void(PfabricExperiment&)>& setup)
{
    PfabricExperiment experiment("websearch");
    PfabricExperiment::Parameters& p = experiment.GetParameters();
    p.out = dir;
    setup(experiment);
    RunToCompletion(experiment);

    RunOutcome outcome;
    outcome.results = experiment.GetResults();
    outcome.summary = experiment.Summarize();
    outcome.end = experiment.GetEndTime();
    outcome.arrivalsThroughEnd = experiment.GetArrivalsThroughEnd();
    outcome.hosts = experiment.GetFabric().GetNHosts();
    outcome.hostRate = experiment.GetFabric().GetHostLinkRate();
    outcome.overheadBytes = experiment.GetFabric().GetPacketOverheadBytes();
    std::ifstream fct(dir + "/fct.csv");
    std::string line;
    std::getline(fct, line);
    outcome.header = SplitCsv(line);
    while (std::getline(fct, line))
    {
        outcome.rows.push_back(SplitCsv(line));
    }
    std::ostringstream meta_text;
    meta_text << std::ifstream(dir + "/meta.json").rdbuf();
    outcome.meta = meta_text.str();
    return outcome;
}

/**
 * @param flow a flow
 * @return its first five fct.csv fields as the writer prints them: id,src,dst,size,start
 */
std::string
FlowFields(const PfabricFlow& flow)
{
    std::ostringstream fields;
    fields << flow.id << "," << flow.src << "," << flow.dst << "," << flow.bytes << ","
           << std::fixed << std::setprecision(9) << flow.start.GetSeconds();
    return fields.str();
}

/**
 * @param row a row of fct.csv, split
 * @return its first five fields, joined again
 */
std::string
FlowFields(const std::vector<std::string>& row)
{
    std::string fields;
    for (std::size_t i = 0; i < 5 && i < row.size(); ++i)
    {
        fields += (i ? "," : "") + row[i];
    }
    return fields;
}

/**
 * @brief The experiments' generated flows (PfabricExperiment::GenerateFlows), as pfabric-websearch
 * draws them for seed 1, run 1.
 * @param hosts hosts
 * @param load load
 * @param flows how many
 * @return the flows
 */
std::vector<PfabricFlow>
WebSearchFlows(uint32_t hosts, double load, uint32_t flows)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    PfabricFlowSizeDistribution sizes;
    std::string error;
    bool loaded = sizes.Load("websearch",
                             PfabricPreset::Get("hotnets12").segmentSize,
                             PfabricFlowSizeDistribution::PACKETS,
                             &error);
    NS_ABORT_MSG_UNLESS(loaded, error);
    return PfabricExperiment::GenerateFlows(sizes, "hotnets12", hosts, load, flows);
}

/// The small fabric of these tests: a 4-host star, web search at load 0.5.
void
SmallStar(PfabricExperiment& experiment)
{
    PfabricExperiment::Parameters& p = experiment.GetParameters();
    p.topology = PfabricExperiment::Parameters::STAR;
    p.hosts = 4;
    p.load = 0.5;
}

/// The window's test flows: 20 warm-up flows, then 30 measured.
constexpr uint32_t WARMUP = 20;
constexpr uint32_t MEASURE = 30;

/**
 * The window off: fct.csv has no measured column, its rows are the flows of GenerateFlows,
 * every one completed, and meta.json has warmupFlows and measureFlows 0 and no window object.
 */
class WindowOffTest : public TestCase
{
  public:
    WindowOffTest()
        : TestCase("Window off: fct.csv without a measured column, every flow of the list")
    {
    }

  private:
    void DoRun() override
    {
        const std::string dir = CreateTempDirFilename("pfabric-window-off");
        const uint32_t flows = 40;
        RunOutcome run = RunExperiment(dir, [flows](PfabricExperiment& experiment) {
            SmallStar(experiment);
            experiment.GetParameters().flows = flows;
        });
        NS_TEST_ASSERT_MSG_EQ(run.header.back(), "completed", "no column after completed");
        std::vector<PfabricFlow> list = WebSearchFlows(4, 0.5, flows);
        NS_TEST_ASSERT_MSG_EQ(run.rows.size(), list.size(), "one row per flow of the list");
        if (run.rows.size() != list.size())
        {
            return; // (the runner goes on after a failed assertion)
        }
        for (std::size_t i = 0; i < list.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(FlowFields(run.rows[i]),
                                  FlowFields(list[i]),
                                  "row " << i << ": the list's flow");
            NS_TEST_ASSERT_MSG_EQ(run.rows[i].at(8), "1", "row " << i << " completed");
        }
        NS_TEST_ASSERT_MSG_NE(run.meta.find("\"warmupFlows\": 0,"), std::string::npos, "W");
        NS_TEST_ASSERT_MSG_NE(run.meta.find("\"measureFlows\": 0,"), std::string::npos, "N");
        NS_TEST_ASSERT_MSG_EQ(run.meta.find("\"window\""), std::string::npos, "no window");
        NS_TEST_ASSERT_MSG_EQ(run.arrivalsThroughEnd, true, "nothing to say");
        std::filesystem::remove_all(dir);
    }
};

/**
 * The window on, generated flows: every row is the flow of the same id of GenerateFlows (so the
 * measured flows are the list's W .. W + N - 1, also those of a --flows=W+N experiment), the
 * measured column marks exactly them, every measured flow completed and the last one's
 * completion ended the run; every flow started by then has a row and the next flow of the
 * process starts after it; meta.json's window object counts the rows.
 */
class WindowSameFlowsTest : public TestCase
{
  public:
    WindowSameFlowsTest()
        : TestCase("Window on: the list's flows, measured ones marked, the run stops when they "
                   "complete")
    {
    }

  private:
    void DoRun() override
    {
        const std::string dir = CreateTempDirFilename("pfabric-window-on");
        RunOutcome run = RunExperiment(dir, [](PfabricExperiment& experiment) {
            SmallStar(experiment);
            experiment.GetWindow().SetFlows(WARMUP, MEASURE);
        });
        NS_TEST_ASSERT_MSG_EQ(run.header.back(), "measured", "a last column measured");
        const uint32_t simulated = run.rows.size();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(simulated, WARMUP + MEASURE, "every measured flow has a row");
        NS_TEST_ASSERT_MSG_EQ(run.results.size(), simulated, "GetResults: the rows");
        if (run.results.size() != simulated || simulated < WARMUP + MEASURE)
        {
            return; // (the runner goes on after a failed assertion)
        }

        // The flows of a --flows=W+N experiment (what Prepare generates) and of GenerateFlows.
        PfabricExperiment fixed("websearch");
        SmallStar(fixed);
        fixed.GetParameters().flows = WARMUP + MEASURE;
        fixed.GetParameters().flowsOnly = true;
        fixed.GetParameters().dumpFlows = dir + "/list.csv";
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(fixed.Prepare(&error), true, error);
        const std::vector<PfabricFlow> fixedFlows = fixed.GetFlows();
        Simulator::Destroy();
        const std::vector<PfabricFlow> list = WebSearchFlows(4, 0.5, simulated + 1);

        Time lastMeasured;
        uint32_t unmeasured = 0;
        uint32_t unfinished = 0;
        for (uint32_t i = 0; i < simulated; ++i)
        {
            const std::vector<std::string>& row = run.rows[i];
            const std::string fields = FlowFields(row);
            NS_TEST_ASSERT_MSG_EQ(fields, FlowFields(list[i]), "row " << i << ": GenerateFlows'");
            const bool measured = i >= WARMUP && i < WARMUP + MEASURE;
            // A named value: ns-3.37's macro streams its limit unparenthesised.
            const std::string expected = measured ? "1" : "0";
            NS_TEST_ASSERT_MSG_EQ(row.back(), expected, "row " << i << " measured");
            if (measured)
            {
                NS_TEST_ASSERT_MSG_EQ(fields,
                                      FlowFields(fixedFlows.at(i)),
                                      "measured flow " << i << ": the --flows=W+N run's");
                NS_TEST_ASSERT_MSG_EQ(row.at(8), "1", "measured flow " << i << " completed");
                const PfabricExperiment::Result& r = run.results[i];
                lastMeasured = std::max(lastMeasured, r.flow.start + r.fct);
            }
            else
            {
                ++unmeasured;
                unfinished += row.at(8) == "0" ? 1 : 0;
            }
            NS_TEST_ASSERT_MSG_LT_OR_EQ(list[i].start, run.end, "row " << i << " started");
        }
        // The run stopped at the last measured flow's completion, with arrivals going on: the
        // process's next flow, not simulated, would have started after it.
        NS_TEST_ASSERT_MSG_EQ(run.end, lastMeasured, "ended by the last measured flow");
        NS_TEST_ASSERT_MSG_GT(list[simulated].start, run.end, "the next flow was not due");
        NS_TEST_ASSERT_MSG_GT(simulated, WARMUP + MEASURE, "flows arrived after the measured");
        NS_TEST_ASSERT_MSG_EQ(unmeasured, simulated - MEASURE, "the others are not measured");
        NS_TEST_ASSERT_MSG_GT(unfinished, 0, "some unmeasured flows were still running");
        std::ostringstream window;
        window << "\"window\": {\n    \"warmup_flows\": " << WARMUP
               << ",\n    \"measure_flows\": " << MEASURE
               << ",\n    \"flows_simulated\": " << simulated << ",\n    \"measure_max_bytes\": 0"
               << ",\n    \"arrivals_through_end\": true\n  }";
        NS_TEST_ASSERT_MSG_NE(run.meta.find(window.str()), std::string::npos, run.meta);
        NS_TEST_ASSERT_MSG_NE(run.summary.find("measured flows 20 to 49 of " +
                                               std::to_string(simulated) + " simulated"),
                              std::string::npos,
                              run.summary);
        std::filesystem::remove_all(dir);
    }
};

/**
 * A large flow measured inside the arrivals: on a 3-host star (hotnets12, MinTCP+pFabric), flow 0
 * (1000 full packets, host 0 to host 2, from 1 ms) runs alone when it is the whole list (what a
 * --flows list ending with it gives: the arrivals stop, it drains alone) and completes in its
 * ideal FCT; with the window (W = 0, N = 1) on a list where a 10-packet flow from host 1 to
 * host 2 arrives at 1.5 ms, while it runs, the port to host 2 serves the small flow first and
 * the large flow completes later by the small flow's time on that link,
 * 10 x (1460 + 42 header bytes) x 8 / 10 Gb/s = 12.016 us. Tolerance 0.1 us (measured: 4 ns
 * more, of the order of the small flow's ACKs on the large flow's ACK link, 34 ns each). No
 * packet is lost: the large flow's 12-packet window and the small flow's packets fit in the
 * 15-packet buffer. (A small flow of 20 packets or more holds the large flow's oldest packet
 * past MinTCP's 40 us RTO, and the spurious retransmission adds about 4.6 us: hence 10.)
 * A third flow, starting after everything, is never simulated (the run stops with the measured
 * flow); a list that ends before the measured flow completes is recorded
 * (arrivals_through_end false).
 */
class WindowLargeFlowTest : public TestCase
{
  public:
    WindowLargeFlowTest()
        : TestCase("Window on: a large measured flow yields to a later small flow (FCT + its "
                   "transmission time)")
    {
    }

  private:
    /**
     * @param dir the run directory and where the flow file goes
     * @param flows the flow file's lines, after the header
     * @param window whether the window is on (W = 0, N = 1)
     * @return the outcome
     */
    RunOutcome Run(const std::string& dir, const std::string& flows, bool window)
    {
        std::filesystem::create_directories(dir);
        const std::string file = dir + "/flows.csv";
        std::ofstream(file) << PfabricFlowList::CSV_HEADER << "\n" << flows;
        return RunExperiment(dir + "/run", [&file, window](PfabricExperiment& experiment) {
            PfabricExperiment::Parameters& p = experiment.GetParameters();
            p.topology = PfabricExperiment::Parameters::STAR;
            p.hosts = 3;
            p.flowFile = file;
            experiment.GetWindow().SetFlows(0, window ? 1 : 0);
        });
    }

    void DoRun() override
    {
        const std::string dir = CreateTempDirFilename("pfabric-window-large");
        const uint32_t mss = PfabricPreset::Get("hotnets12").segmentSize;
        const std::string large = "0,2," + std::to_string(1000 * mss) + ",0.001\n";
        const uint32_t smallPackets = 10;
        const std::string small = "1,2," + std::to_string(smallPackets * mss) + ",0.0015\n";
        const std::string late = "0,1," + std::to_string(mss) + ",0.010\n";

        RunOutcome alone = Run(dir + "/alone", large, false);
        RunOutcome windowed = Run(dir + "/windowed", large + small + late, true);
        const Time fctAlone = alone.results.at(0).fct;
        const Time fctWindowed = windowed.results.at(0).fct;
        NS_TEST_ASSERT_MSG_EQ(fctAlone.IsStrictlyPositive(), true, "completed alone");
        NS_TEST_ASSERT_MSG_EQ(fctWindowed.IsStrictlyPositive(), true, "completed, windowed");
        NS_TEST_ASSERT_MSG_EQ(windowed.results.at(0).timeouts, 0, "no loss, no timeout");
        const double smallOnWire = static_cast<double>(smallPackets) *
                                   (mss + windowed.overheadBytes) * 8 /
                                   windowed.hostRate.GetBitRate();
        NS_TEST_ASSERT_MSG_EQ_TOL((fctWindowed - fctAlone).GetSeconds(),
                                  smallOnWire,
                                  1e-7,
                                  "the large flow waits for the small one's transmission");
        NS_TEST_ASSERT_MSG_EQ_TOL(fctAlone.GetSeconds(),
                                  alone.results.at(0).idealFct.GetSeconds(),
                                  1e-8,
                                  "alone: the ideal FCT");
        // The small flow completed before it; the late flow never started.
        NS_TEST_ASSERT_MSG_EQ(windowed.rows.size(), 2, "rows: the flows started by the end");
        if (windowed.rows.size() != 2)
        {
            return; // (the runner goes on after a failed assertion)
        }
        NS_TEST_ASSERT_MSG_EQ(windowed.rows.at(1).at(8), "1", "the small flow completed");
        NS_TEST_ASSERT_MSG_EQ(windowed.rows.at(0).back(), "1", "flow 0 measured");
        NS_TEST_ASSERT_MSG_EQ(windowed.rows.at(1).back(), "0", "flow 1 not measured");
        NS_TEST_ASSERT_MSG_EQ(windowed.arrivalsThroughEnd, true, "the late flow still to come");

        // Without the late flow the file runs out before the measured flow completes.
        RunOutcome short_list = Run(dir + "/short", large + small, true);
        NS_TEST_ASSERT_MSG_EQ(short_list.arrivalsThroughEnd, false, "the file ran out");
        NS_TEST_ASSERT_MSG_NE(short_list.meta.find("\"arrivals_through_end\": false"),
                              std::string::npos,
                              short_list.meta);
        std::filesystem::remove_all(dir);
    }
};

/**
 * The options: warm-up without measured flows, the window with deadlines, classes, added flows
 * or a flow dump, and a flow file shorter than W + N are refused in one line naming the option
 * (and the file); the windowed run directory's name says so.
 */
class WindowOptionsTest : public TestCase
{
  public:
    WindowOptionsTest()
        : TestCase("Window options: bad combinations refused in one line")
    {
    }

  private:
    /**
     * @param workload websearch or classes
     * @param setup sets the experiment up
     * @return Prepare's error
     */
    std::string Refusal(const std::string& workload,
                        const std::function<void(PfabricExperiment&)>& setup)
    {
        PfabricExperiment experiment(workload);
        SmallStar(experiment);
        experiment.GetParameters().out = m_dir + "/never";
        setup(experiment);
        std::string error;
        NS_TEST_EXPECT_MSG_EQ(experiment.Prepare(&error), false, "refused");
        NS_TEST_EXPECT_MSG_EQ(std::filesystem::exists(m_dir + "/never"), false, "nothing made");
        Simulator::Destroy();
        return error;
    }

    void DoRun() override
    {
        m_dir = CreateTempDirFilename("pfabric-window-options");
        std::filesystem::create_directories(m_dir);
        auto window = [](uint32_t w, uint32_t n) {
            return [w, n](PfabricExperiment& e) { e.GetWindow().SetFlows(w, n); };
        };
        NS_TEST_ASSERT_MSG_EQ(Refusal("websearch", window(10, 0)),
                              "--warmupFlows=10: needs --measureFlows",
                              "warm-up alone");
        NS_TEST_ASSERT_MSG_EQ(
            Refusal("websearch",
                    [](PfabricExperiment& e) { e.GetWindow().SetMeasureMaxBytes(1000); }),
            "--measureMaxBytes=1000: needs --measureFlows",
            "a size limit alone");
        NS_TEST_ASSERT_MSG_EQ(Refusal("classes", window(0, 10)),
                              "--measureFlows: not with pfabric-classes (two classes' flow lists)",
                              "classes");
        NS_TEST_ASSERT_MSG_EQ(Refusal("websearch",
                                      [](PfabricExperiment& e) {
                                          e.EnableDeadlines();
                                          e.GetWindow().SetFlows(0, 10);
                                      }),
                              "--measureFlows: not with deadlines (pfabric-deadlines)",
                              "deadlines");
        NS_TEST_ASSERT_MSG_EQ(Refusal("websearch",
                                      [](PfabricExperiment& e) {
                                          e.GetParameters().addedFlows = true;
                                          e.GetWindow().SetFlows(0, 10);
                                      }),
                              "--measureFlows: not with a program's added flows (pfabric-incast)",
                              "added flows");
        NS_TEST_ASSERT_MSG_EQ(Refusal("websearch",
                                      [this](PfabricExperiment& e) {
                                          e.GetParameters().dumpFlows = m_dir + "/flows.csv";
                                          e.GetWindow().SetFlows(0, 10);
                                      })
                                  .rfind("--measureFlows: not with --dumpFlows", 0),
                              0,
                              "a flow dump");
        const std::string file = m_dir + "/three.csv";
        std::ofstream(file) << PfabricFlowList::CSV_HEADER << "\n0,1,1460,0.001\n"
                            << "1,2,1460,0.002\n2,3,1460,0.003\n";
        NS_TEST_ASSERT_MSG_EQ(Refusal("websearch",
                                      [&file](PfabricExperiment& e) {
                                          e.GetParameters().flowFile = file;
                                          e.GetWindow().SetFlows(2, 2);
                                      }),
                              file + ": fewer flows (3) than --warmupFlows + --measureFlows (4)",
                              "a short flow file");

        // The run directory's name: the window instead of the flow count.
        PfabricExperiment named("datamining");
        named.GetParameters().out = "";
        named.GetParameters().flowsOnly = false;
        named.GetWindow().SetFlows(100, 300);
        PfabricExperiment::Parameters& p = named.GetParameters();
        p.load = 0.8;
        std::string error;
        const std::string cwd = std::filesystem::current_path();
        std::filesystem::current_path(m_dir);
        NS_TEST_ASSERT_MSG_EQ(named.Prepare(&error), true, error);
        std::filesystem::current_path(cwd);
        NS_TEST_ASSERT_MSG_EQ(named.GetOutputDirectory(),
                              "results/datamining-hotnets12-pfabric-load0.8-warmup100-measure300-"
                              "seed1-run1",
                              "named after the window");
        Simulator::Destroy();
        std::filesystem::remove_all(m_dir);
    }

    std::string m_dir; //!< scratch directory
};

/// @return the size limit of the size-limited test: the upper edge of the first size bin
uint64_t
FirstBinEdge()
{
    return pfabric::SizeBins().front().high;
}

/**
 * The window with a size limit (--measureMaxBytes=S): only the window's flows of at most S
 * bytes are measured (column 1) and every one of them completed; the run stopped at the last of
 * them to complete; the window's larger flows have column 0, at least one of them still running
 * at the end (on these flows: so the limit shortened the run, against the same window without
 * it, which ran on until they finished); meta.json records S.
 */
class WindowMaxBytesTest : public TestCase
{
  public:
    WindowMaxBytesTest()
        : TestCase("Window with --measureMaxBytes: the window's small flows measured and awaited, "
                   "its larger ones not")
    {
    }

  private:
    void DoRun() override
    {
        const std::string dir = CreateTempDirFilename("pfabric-window-maxbytes");
        RunOutcome run = RunExperiment(dir, [](PfabricExperiment& experiment) {
            SmallStar(experiment);
            experiment.GetWindow().SetFlows(WARMUP, MEASURE);
            experiment.GetWindow().SetMeasureMaxBytes(FirstBinEdge());
        });
        const std::string fullDir = CreateTempDirFilename("pfabric-window-maxbytes-full");
        RunOutcome full = RunExperiment(fullDir, [](PfabricExperiment& experiment) {
            SmallStar(experiment);
            experiment.GetWindow().SetFlows(WARMUP, MEASURE);
        });
        const uint32_t simulated = run.rows.size();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(simulated, WARMUP + MEASURE, "every window flow has a row");
        NS_TEST_ASSERT_MSG_EQ(run.results.size(), simulated, "GetResults: the rows");
        if (run.results.size() != simulated || simulated < WARMUP + MEASURE)
        {
            return;
        }
        Time lastAwaited;
        uint32_t awaited = 0;
        uint32_t largeUnfinished = 0;
        for (uint32_t i = 0; i < simulated; ++i)
        {
            const std::vector<std::string>& row = run.rows[i];
            const PfabricExperiment::Result& r = run.results[i];
            const bool inWindow = i >= WARMUP && i < WARMUP + MEASURE;
            const bool small = r.flow.bytes <= FirstBinEdge();
            const std::string expected = inWindow && small ? "1" : "0";
            NS_TEST_ASSERT_MSG_EQ(row.back(), expected, "row " << i << " measured");
            if (inWindow && small)
            {
                ++awaited;
                NS_TEST_ASSERT_MSG_EQ(row.at(8), "1", "measured flow " << i << " completed");
                lastAwaited = std::max(lastAwaited, r.flow.start + r.fct);
            }
            else if (inWindow)
            {
                largeUnfinished += row.at(8) == "0" ? 1 : 0;
            }
        }
        NS_TEST_ASSERT_MSG_GT(awaited, 0, "some small flows in the window");
        NS_TEST_ASSERT_MSG_LT(awaited, MEASURE, "some larger flows in the window");
        NS_TEST_ASSERT_MSG_EQ(run.end, lastAwaited, "ended by the last small measured flow");
        NS_TEST_ASSERT_MSG_GT(largeUnfinished, 0, "a larger window flow still running");
        NS_TEST_ASSERT_MSG_LT(run.end, full.end, "the limit shortened the run");
        const std::string edge = std::to_string(FirstBinEdge());
        NS_TEST_ASSERT_MSG_NE(run.meta.find("\"measure_max_bytes\": " + edge),
                              std::string::npos,
                              run.meta);
        NS_TEST_ASSERT_MSG_NE(run.meta.find("\"measureMaxBytes\": " + edge),
                              std::string::npos,
                              run.meta);
        std::filesystem::remove_all(dir);
        std::filesystem::remove_all(fullDir);
    }
};

/**
 * The window's own accounting with a size limit, without a simulation: a window of two flows
 * whose last one is too large to be awaited completes when that flow is handed over, if the
 * small one has completed by then (the run stops there), and not before; progress counts the
 * large flow as settled once handed over.
 */
class WindowMaxBytesAccountingTest : public TestCase
{
  public:
    WindowMaxBytesAccountingTest()
        : TestCase("Window with --measureMaxBytes: complete when the last flow, too large to "
                   "await, is handed over")
    {
    }

  private:
    void DoRun() override
    {
        PfabricMeasurementWindow window;
        window.SetFlows(1, 2);
        window.SetMeasureMaxBytes(1000);
        PfabricFlow warmup;
        warmup.id = 0;
        warmup.bytes = 500;
        PfabricFlow small;
        small.id = 1;
        small.bytes = 1000;
        PfabricFlow large;
        large.id = 2;
        large.bytes = 1001;
        NS_TEST_ASSERT_MSG_EQ(window.IsAwaited(warmup), false, "warm-up flow");
        NS_TEST_ASSERT_MSG_EQ(window.IsAwaited(small), true, "a flow of S bytes");
        NS_TEST_ASSERT_MSG_EQ(window.IsAwaited(large), false, "a flow of S + 1 bytes");
        NS_TEST_ASSERT_MSG_EQ(window.FlowHandedOver(warmup), false, "warm-up handed over");
        NS_TEST_ASSERT_MSG_EQ(window.FlowHandedOver(small), false, "small handed over");
        NS_TEST_ASSERT_MSG_EQ(window.FlowCompleted(warmup), false, "warm-up completed");
        NS_TEST_ASSERT_MSG_EQ(window.FlowCompleted(small), false, "the large one not handed yet");
        NS_TEST_ASSERT_MSG_EQ(window.GetMeasuredCompleted(), 1, "settled: the small one");
        NS_TEST_ASSERT_MSG_EQ(window.IsComplete(), false, "not complete");
        NS_TEST_ASSERT_MSG_EQ(window.FlowHandedOver(large), true, "complete on the hand-over");
        NS_TEST_ASSERT_MSG_EQ(window.GetMeasuredCompleted(), 2, "settled: both");
        NS_TEST_ASSERT_MSG_EQ(window.GetMeasuredBytesCompleted(), 2001, "their bytes");
        NS_TEST_ASSERT_MSG_EQ(window.FlowCompleted(large), false, "a large one is not awaited");
    }
};

} // namespace

std::vector<TestCase*>
MakeWindowTestCases()
{
    return {new WindowLargeFlowTest, new WindowMaxBytesAccountingTest, new WindowOptionsTest};
}

std::vector<TestCase*>
MakeWindowExtensiveTestCases()
{
    return {new WindowOffTest, new WindowSameFlowsTest, new WindowMaxBytesTest};
}

} // namespace tests
} // namespace pfabric
} // namespace ns3
