/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The program around a PfabricExperiment, shared by pfabric-websearch, pfabric-datamining,
// pfabric-deadlines and pfabric-classes: the command line, the event scheduler, progress lines
// with an ETA, memory samples, what the program adds to meta.json, and the summary on stdout. The
// library prints nothing and sets no globals; this file does both, for these programs.

#ifndef PFABRIC_EXPERIMENT_PROGRAM_H
#define PFABRIC_EXPERIMENT_PROGRAM_H

#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/map-scheduler.h"
#include "ns3/pfabric-experiment.h"
#include "ns3/pfabric-flow-application.h"
#include "ns3/priority-queue-scheduler.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <vector>

// mimalloc's version query (MI_MALLOC_VERSION: 30403 for 3.4.3, 217 for 2.1.7 before 3.0). Weak:
// defined only when mimalloc is loaded, as the module's runners preload it
// (pfabric_analysis/allocator.py); otherwise its address is null and the programs run on the system
// allocator.
extern "C" int mi_version() __attribute__((weak));

namespace ns3
{
namespace pfabric
{

/// @return the memory allocator serving this process, for meta.json: "mimalloc 3.4.3" when
/// mimalloc is loaded (LD_PRELOAD), else "system". Results do not depend on it; speed does.
inline std::string
AllocatorName()
{
    if (mi_version == nullptr)
    {
        return "system";
    }
    const int version = mi_version();
    const int digits = version >= 10000 ? 100 : 10; // per minor and patch number
    std::ostringstream name;
    name << "mimalloc " << version / (digits * digits) << '.' << version / digits % digits << '.'
         << version % digits;
    return name.str();
}

/// The exit status under --strict of a run that stopped before its flows were done: not 1, which
/// means that the run could not be made (bad input, a file not written).
constexpr int EXIT_STOPPED_EARLY = 3;

/// @return the peak resident set size of this process so far, bytes
inline uint64_t
PeakRssBytes()
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return uint64_t(usage.ru_maxrss) * 1024; // Linux: kilobytes
}

/// @return the processor time (user and system) of this process so far, seconds: what a run
/// costs, whatever else the machine is doing (meta.json's cpu_time_s; core-hours in figures)
inline double
ProcessorSeconds()
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    auto seconds = [](const struct timeval& t) { return double(t.tv_sec) + 1e-6 * t.tv_usec; };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// @return a monotonic wall clock, seconds
inline double
WallSeconds()
{
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

/**
 * @brief Watches a running experiment: a progress line on stderr now and then, with an ETA from
 * the bytes done (PfabricExperiment::EstimateSecondsLeft), and the peak resident memory each
 * time another hundredth of the flows has completed (meta.json's rss_samples, as
 * [simulated_s, flows_done, rss_bytes, wall_s]; wall_s since Start).
 *
 * Flows and bytes are PfabricExperiment::GetProgress's: every flow and the bytes received, or,
 * with the measurement window, the measured flows and the payload bytes of those completed (the
 * run ends with the last measured flow, and the flows arriving after them have no fixed total).
 */
class ExperimentMonitor
{
  public:
    /**
     * @param experiment the experiment, installed and not yet run
     * @param program the program's name, for the progress lines
     * @param quiet no progress lines
     */
    ExperimentMonitor(const PfabricExperiment& experiment, std::string program, bool quiet)
        : m_experiment(experiment),
          m_program(std::move(program)),
          m_quiet(quiet),
          m_flowsLabel(experiment.GetWindow().IsOn() ? "measured flows done " : "flows done "),
          m_bytesLabel(experiment.GetWindow().IsOn() ? ", measured bytes done " : ", bytes done "),
          m_flows(experiment.GetProgress().flows),
          m_rssEvery(std::max<uint32_t>(1, (m_flows + RSS_SAMPLES - 1) / RSS_SAMPLES)),
          m_done(0),
          m_wallStart(WallSeconds()),
          m_lastProgressWall(m_wallStart)
    {
    }

    /// Take the first memory sample, listen to every flow's completion, schedule the progress.
    void Start()
    {
        Sample(Seconds(0));
        Config::ConnectWithoutContext(
            "/NodeList/*/ApplicationList/*/$ns3::PfabricFlowApplication/FlowCompleted",
            MakeCallback(&ExperimentMonitor::FlowCompleted, this));
        Simulator::Schedule(MicroSeconds(PROGRESS_CHECK_US), &ExperimentMonitor::Progress, this);
    }

    /**
     * @brief After the run: a last memory sample if the safety limit stopped it early.
     * @param end the simulated time at the end
     */
    void Finish(Time end)
    {
        if (m_done < m_flows)
        {
            Sample(end);
        }
    }

    /// @return the memory samples as a JSON array
    std::string GetRssSamplesJson() const
    {
        std::ostringstream out;
        out << "[";
        for (std::size_t i = 0; i < m_samples.size(); ++i)
        {
            out << (i ? ", " : "") << m_samples[i];
        }
        out << "]";
        return out.str();
    }

  private:
    /// A host's application completed a flow.
    void FlowCompleted(const PfabricFlowApplication::CompletedFlow&)
    {
        // The experiment counted the flow first (it listens from Install on).
        const uint32_t done = m_experiment.GetProgress().flowsDone;
        if (done == m_done)
        {
            return; // with the window: a flow not measured
        }
        m_done = done;
        if (m_done % m_rssEvery == 0 || m_done == m_flows)
        {
            Sample(Simulator::Now());
        }
    }

    /**
     * @brief Append the peak resident memory so far.
     * @param now the simulated time
     */
    void Sample(Time now)
    {
        std::ostringstream sample;
        sample << "[" << PfabricJsonObject::FormatNumber(now.GetSeconds()) << ", " << m_done << ", "
               << PeakRssBytes() << ", "
               << PfabricJsonObject::FormatNumber(WallSeconds() - m_wallStart) << "]";
        m_samples.push_back(sample.str());
    }

    /// Print progress now and then.
    void Progress()
    {
        double now = WallSeconds();
        if (!m_quiet && now - m_lastProgressWall >= PROGRESS_EVERY_WALL_S)
        {
            m_lastProgressWall = now;
            double elapsed = now - m_wallStart;
            const PfabricExperiment::Progress progress = m_experiment.GetProgress();
            uint64_t done = progress.bytesDone;
            uint64_t total = progress.bytes;
            std::cerr << m_program << ": simulated " << std::fixed << std::setprecision(4)
                      << Simulator::Now().GetSeconds() << " s, " << m_flowsLabel << m_done << "/"
                      << m_flows << m_bytesLabel << std::setprecision(1)
                      << 100.0 * done / std::max<uint64_t>(total, 1) << "%, wall "
                      << std::setprecision(0) << elapsed << " s";
            double left = PfabricExperiment::EstimateSecondsLeft(elapsed, done, total);
            if (left >= 0)
            {
                std::cerr << ", ETA ~" << left << " s";
            }
            std::cerr << std::defaultfloat << std::endl;
        }
        Simulator::Schedule(MicroSeconds(PROGRESS_CHECK_US), &ExperimentMonitor::Progress, this);
    }

    /// A progress line at most this often (wall clock), looked for this often (simulated).
    static constexpr double PROGRESS_EVERY_WALL_S = 5;
    static constexpr int64_t PROGRESS_CHECK_US = 1000;
    /// Memory: sampled each time another 1/RSS_SAMPLES of the flows has completed.
    static constexpr uint32_t RSS_SAMPLES = 100;

    const PfabricExperiment& m_experiment; //!< the experiment
    std::string m_program;                 //!< the program's name
    bool m_quiet;                          //!< no progress lines
    std::string m_flowsLabel;              //!< what the flows counted are
    std::string m_bytesLabel;              //!< what the bytes counted are
    uint32_t m_flows;                      //!< flows to complete (GetProgress)
    uint32_t m_rssEvery;                   //!< flows completed between memory samples
    uint32_t m_done;                       //!< flows completed
    double m_wallStart;                    //!< wall clock at Start
    double m_lastProgressWall;             //!< wall clock of the last progress line
    std::vector<std::string> m_samples;    //!< memory samples, as JSON arrays
};

/**
 * @brief Parse the command line; on success print its notices (old spellings taken) on stderr,
 * on failure the error, one line each, prefixed with the program's name.
 * @param cmd the command line, every option added
 * @param program the program's name
 * @param argc argument count
 * @param argv arguments
 * @return whether it parsed
 */
inline bool
ParseCommandLine(PfabricCommandLine& cmd, const std::string& program, int argc, char* argv[])
{
    std::string error;
    if (!cmd.Parse(argc, argv, &error))
    {
        std::cerr << program << ": error: " << error << std::endl;
        return false;
    }
    for (const std::string& notice : cmd.GetNotices())
    {
        std::cerr << program << ": notice: " << notice << std::endl;
    }
    return true;
}

/**
 * @brief Run on ns3::PriorityQueueScheduler unless NS_GLOBAL_VALUE names another event
 * scheduler than ns-3's default MapScheduler (call before CommandLine::Parse, so that
 * --SchedulerType still wins).
 */
inline void
PreferPriorityQueueScheduler()
{
    TypeIdValue scheduler;
    GlobalValue::GetValueByName("SchedulerType", scheduler);
    if (scheduler.Get() == MapScheduler::GetTypeId())
    {
        GlobalValue::Bind("SchedulerType", TypeIdValue(PriorityQueueScheduler::GetTypeId()));
    }
}

/**
 * @param argc argument count
 * @param argv arguments
 * @return the command line as one text (meta.json's command_line)
 */
inline std::string
JoinCommandLine(int argc, char* argv[])
{
    std::string commandLine;
    for (int i = 0; i < argc; ++i)
    {
        commandLine += (i ? " " : "") + std::string(argv[i]);
    }
    return commandLine;
}

/**
 * @brief The whole program of pfabric-websearch, pfabric-datamining, pfabric-deadlines and
 * pfabric-classes.
 *
 * Unless the command line (--SchedulerType) or NS_GLOBAL_VALUE names another event scheduler,
 * the program runs on ns3::PriorityQueueScheduler instead of ns-3's default MapScheduler: the
 * same events in the same order (ties go by insertion on every ns-3 scheduler), in less time (a
 * binary heap of pending events costs less per insertion than MapScheduler's tree when a long
 * run keeps tens of thousands of flow starts pending; measured in the doc's benchmarks).
 *
 * @param argc argument count
 * @param argv arguments
 * @param workload websearch, datamining or classes
 * @param deadlines flows with deadlines (PfabricExperiment::EnableDeadlines): the program is
 *        pfabric-deadlines
 * @return the exit status
 */
inline int
RunExperimentProgram(int argc, char* argv[], const std::string& workload, bool deadlines = false)
{
    const std::string program =
        deadlines ? std::string("pfabric-deadlines") : "pfabric-" + workload;
    PfabricExperiment experiment(workload);
    if (deadlines)
    {
        experiment.EnableDeadlines();
    }
    bool quiet = false;
    bool strict = false;
    PfabricCommandLine cmd(program + ".cc");
    experiment.AddCommandLineOptions(cmd);
    cmd.AddValue("quiet", "no progress on stderr", quiet);
    cmd.AddValue("strict",
                 "exit with status " + std::to_string(EXIT_STOPPED_EARLY) +
                     " when the run stops before its flows are done (the safety limit "
                     "--maxSimTime, or nothing left to simulate); the files are written either "
                     "way and meta.json's stop says why",
                 strict);
    PreferPriorityQueueScheduler();
    if (!ParseCommandLine(cmd, program, argc, argv))
    {
        return 1;
    }
    std::string error;
    TypeIdValue scheduler;
    GlobalValue::GetValueByName("SchedulerType", scheduler);
    const std::string commandLine = JoinCommandLine(argc, argv);
    const PfabricExperiment::Parameters& p = experiment.GetParameters();
    if (!experiment.Prepare(&error))
    {
        std::cerr << program << ": error: " << error << std::endl;
        return 1;
    }
    if (p.flowsOnly)
    {
        std::cout << "flows: " << p.dumpFlows << " (" << experiment.GetFlows().size() << ")"
                  << std::endl;
        return 0;
    }
    PfabricJsonObject meta;
    meta.AddString("program", program).AddString("command_line", commandLine);
    const std::string out = experiment.GetOutputDirectory();
    if (p.idealOnly)
    {
        double wallStart = WallSeconds();
        double cpuStart = ProcessorSeconds();
        experiment.AddProvenance(meta);
        meta.AddNumber("wall_time_s", WallSeconds() - wallStart)
            .AddNumber("cpu_time_s", ProcessorSeconds() - cpuStart)
            .AddString("scheduler", scheduler.Get().GetName())
            .AddString("allocator", AllocatorName())
            .AddInteger("peak_rss_bytes", PeakRssBytes())
            .AddRaw("rss_samples", "[]");
        if (!experiment.WriteIdealFcts(meta, &error))
        {
            std::cerr << program << ": error: " << error << std::endl;
            return 1;
        }
        std::cout << "files: " << out << "/ideal_fct.csv, " << out << "/meta.json" << std::endl;
        return 0;
    }
    const PfabricMeasurementWindow& window = experiment.GetWindow();
    if (!quiet && window.IsOn())
    {
        std::cerr << program << ": flows " << window.GetWarmupFlows() << " to "
                  << window.GetWarmupFlows() + window.GetMeasureFlows() - 1
                  << " measured, flows arriving until they complete, " << experiment.GetSchemeName()
                  << " on " << experiment.GetFabric().GetNHosts() << " hosts (" << p.preset
                  << "), output in " << out << std::endl;
    }
    else if (!quiet)
    {
        std::cerr << program << ": " << experiment.GetFlows().size() << " flows, "
                  << experiment.GetSchemeName() << " on " << experiment.GetFabric().GetNHosts()
                  << " hosts (" << p.preset << "), output in " << out << std::endl;
    }
    double wallStart = WallSeconds();
    double cpuStart = ProcessorSeconds();
    experiment.Install();
    ExperimentMonitor monitor(experiment, program, quiet);
    monitor.Start();
    experiment.Run();
    monitor.Finish(experiment.GetEndTime());
    if (!experiment.GetArrivalsThroughEnd())
    {
        std::cerr << program << ": warning: " << p.flowFile
                  << " ran out of flows before the measured flows completed (meta.json: "
                     "arrivals_through_end false)"
                  << std::endl;
    }
    experiment.AddProvenance(meta);
    meta.AddNumber("wall_time_s", WallSeconds() - wallStart)
        .AddNumber("cpu_time_s", ProcessorSeconds() - cpuStart)
        .AddString("scheduler", scheduler.Get().GetName())
        .AddString("allocator", AllocatorName())
        .AddInteger("peak_rss_bytes", PeakRssBytes())
        .AddRaw("rss_samples", monitor.GetRssSamplesJson());
    if (!experiment.WriteResults(meta, &error))
    {
        std::cerr << program << ": error: " << error << std::endl;
        return 1;
    }
    std::cout << experiment.Summarize();
    std::cout << "files: " << out << "/fct.csv, " << out << "/meta.json" << std::endl;
    const PfabricStopReport& stop = experiment.GetStopReport();
    if (stop.IsEarly())
    {
        // Also under --quiet: fct.csv's empty FCTs alone would read as results.
        std::cerr << program << ": warning: " << stop.Describe() << " (meta.json: stop)"
                  << std::endl;
        return strict ? EXIT_STOPPED_EARLY : 0;
    }
    return 0;
}

} // namespace pfabric
} // namespace ns3

#endif /* PFABRIC_EXPERIMENT_PROGRAM_H */
