/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The program around a PfabricExperiment: the shell every experiment program shares
// (ProgramShell: the command line, the event scheduler, what the program adds to meta.json; also
// pfabric-incast's), and the whole program of pfabric-websearch, pfabric-datamining,
// pfabric-deadlines and pfabric-classes (RunExperimentProgram: progress lines with an ETA, memory
// samples, the summary on stdout). The library's compiled code prints nothing and sets no
// globals; this header, compiled only into the programs that include it, does both.

#ifndef PFABRIC_EXPERIMENT_PROGRAM_H
#define PFABRIC_EXPERIMENT_PROGRAM_H

#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/map-scheduler.h"
#include "ns3/pfabric-experiment.h"
#include "ns3/pfabric-flow-application.h"
#include "ns3/pfabric-results-writer.h"
#include "ns3/pfabric-run-watchdog.h"
#include "ns3/pfabric-seeding-variable-check.h"
#include "ns3/priority-queue-scheduler.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <unistd.h>
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

/**
 * @brief The summary's last line of a run that stopped before its flows were done, e.g.
 * "unfinished: 17 of 20 flows, stopped at the safety limit (--maxSimTime=0.001 s); exit status 0
 * (3 with --strict)". The counts are meta.json's flows_unfinished and flows_total.
 * @param experiment the experiment, after Run
 * @param strict the program's --strict
 * @return the line, without a newline
 */
inline std::string
DescribeUnfinished(const PfabricExperiment& experiment, bool strict)
{
    const std::size_t flows = experiment.GetResults().size();
    std::ostringstream text;
    text << "unfinished: " << flows - experiment.GetFlowsCompleted() << " of " << flows
         << " flows, " << experiment.GetStopReport().DescribeReason() << "; exit status "
         << (strict ? std::to_string(EXIT_STOPPED_EARLY) + " (--strict)"
                    : "0 (" + std::to_string(EXIT_STOPPED_EARLY) + " with --strict)");
    return text.str();
}

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
 * @brief The processor time of one packet hop (PfabricExperiment::EstimatePacketHops' unit) with
 * the module's standalone build, as measured on the two kinds of machine the doc's run times
 * come from: 4.1 us on a 2-core Intel Xeon (10,000 data mining flows on sigcomm13 at load 0.8,
 * doc/performance.rst "Data mining at 10,000 flows"; smaller fabrics cost less per hop) and about
 * 14 us on a 2-core AMD EPYC VM (2,000 web search flows, the speed issue's measurement). Only for
 * the estimate a run prints at its start: its progress lines then give the ETA measured on the
 * machine it runs on.
 */
struct ReferenceHopCost
{
    static constexpr double XEON_US = 4.1; //!< microseconds per hop, Intel Xeon
    static constexpr double AMD_US = 14;   //!< microseconds per hop, AMD EPYC VM
};

/**
 * @param seconds a duration
 * @return it for a person: "40 s", "12 min", "3.4 h"
 */
inline std::string
FormatDuration(double seconds)
{
    std::ostringstream text;
    if (seconds < 90)
    {
        text << std::max(1L, std::lround(seconds)) << " s";
    }
    else if (seconds < 90 * 60)
    {
        text << std::lround(seconds / 60) << " min";
    }
    else
    {
        text << std::fixed << std::setprecision(1) << seconds / 3600 << " h";
    }
    return text.str();
}

/**
 * @param program the program's name
 * @param hops PfabricExperiment::EstimatePacketHops
 * @return the line a run prints at its start to say how long it will take, e.g. "pfabric-classes:
 *         at least 5.8e+07 packet hops: about 4 min of processor time on an Intel Xeon, 13 min on
 *         an AMD EPYC VM (the progress lines give this machine's ETA)"
 */
inline std::string
DescribeRunCost(const std::string& program, uint64_t hops)
{
    auto seconds = [hops](double usPerHop) { return double(hops) * usPerHop * 1e-6; };
    std::ostringstream text;
    text << program << ": at least " << std::setprecision(2) << double(hops)
         << " packet hops: about " << FormatDuration(seconds(ReferenceHopCost::XEON_US))
         << " of processor time on an Intel Xeon, "
         << FormatDuration(seconds(ReferenceHopCost::AMD_US))
         << " on an AMD EPYC VM (the progress lines give this machine's ETA)";
    return text.str();
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
 * @brief The shell of every experiment program (RunExperimentProgram's and pfabric-incast's):
 * the command line (parsed strictly, notices of old spellings and errors on stderr in one line
 * prefixed with the program's name, no help dump), the event scheduler (PriorityQueueScheduler
 * unless another is named: the same events in the same order, in less time than ns-3's default
 * MapScheduler), the clocks, and what every program's meta.json has around the experiment's
 * provenance (program, command_line; wall_time_s, cpu_time_s, scheduler, allocator,
 * peak_rss_bytes).
 */
class ProgramShell
{
  public:
    /**
     * @param program the program's name, e.g. pfabric-websearch
     * @param argc argument count
     * @param argv arguments
     */
    ProgramShell(std::string program, int argc, char* argv[])
        : m_program(std::move(program)),
          m_argc(argc),
          m_argv(argv),
          m_cmd(m_program + ".cc"),
          m_stallLimit(RunWatchdog::GetDefaultStallLimit()),
          m_wallStart(0),
          m_cpuStart(0)
    {
        RunWatchdog::AddStallLimitOption(m_cmd, m_stallLimit);
        // A count beyond the machine's memory (--flows=4294967295) fails an allocation: one line
        // quoting the command line, as every error, instead of std::bad_alloc's abort. Made now:
        // the handler must not allocate.
        static std::string outOfMemory;
        outOfMemory = m_program + ": error: out of memory:";
        for (int i = 1; i < argc; ++i)
        {
            outOfMemory += std::string(" ") + argv[i];
        }
        outOfMemory += " (a count such as --flows, --workers or --queries too large for this "
                       "machine)\n";
        std::set_new_handler([]() {
            std::fputs(outOfMemory.c_str(), stderr);
            // Nothing left behind: the directories this run made, still empty, the run
            // directory first (rmdir allocates nothing; a level not empty stays).
            for (const std::string& level : PfabricResultsWriter::GetCreatedDirectories())
            {
                rmdir(level.c_str());
            }
            std::_Exit(1);
        });
    }

    /// @return the command line, to add the program's options to before Parse
    PfabricCommandLine& GetCommandLine()
    {
        return m_cmd;
    }

    /// @return the program's name
    const std::string& GetProgram() const
    {
        return m_program;
    }

    /**
     * @brief Parse the command line (after the options are added): the scheduler preferred, the
     * notices of old spellings printed, an error printed in one line.
     * @return whether it parsed
     */
    bool Parse()
    {
        PreferPriorityQueueScheduler();
        std::string error;
        if (!m_cmd.Parse(m_argc, m_argv, &error))
        {
            Fail(error);
            return false;
        }
        for (const std::string& notice : m_cmd.GetNotices())
        {
            std::cerr << m_program << ": notice: " << notice << std::endl;
        }
        const std::string stallLimit = RunWatchdog::CheckStallLimit(m_cmd, m_stallLimit);
        if (!stallLimit.empty())
        {
            Fail(stallLimit);
            return false;
        }
        return true;
    }

    /**
     * @brief The watchdog of the run (RunWatchdog), for Start before the run's Install and Stop
     * after its Run.
     * @param experiment the experiment, prepared
     * @return the watchdog, with --stallLimit
     */
    std::unique_ptr<RunWatchdog> MakeWatchdog(const PfabricExperiment& experiment) const
    {
        return std::make_unique<RunWatchdog>(m_program,
                                             experiment.GetSettingsGivenToNs3(),
                                             m_stallLimit);
    }

    /**
     * @brief Report an error in one line.
     * @param error what went wrong
     * @return the exit status: 1
     */
    int Fail(const std::string& error) const
    {
        std::cerr << m_program << ": error: " << error << std::endl;
        return 1;
    }

    /**
     * @brief The program's last step: its summary on stdout must have been written (the tenth
     * probe: to a full device it was lost and the exit status was 0).
     * @param status the exit status otherwise
     * @return status, or Fail's 1 when stdout could not be written
     */
    int Finish(int status) const
    {
        std::cout.flush();
        if (!std::cout.fail())
        {
            return status;
        }
        return Fail(std::string("standard output: cannot write the summary (") +
                    std::strerror(errno) + "); the run's files are written");
    }

    /**
     * @return meta.json's first members: program, command_line, and the settings of ns-3's own
     * that the run was given, which change it as its parameters do: ns3_settings (attribute paths
     * and global values on the command line, PfabricCommandLine::GetNs3Settings) and
     * ns3_environment (ns-3's variables that set them, NS_ATTRIBUTE_DEFAULT and NS_GLOBAL_VALUE,
     * those set); both objects, empty when none
     */
    PfabricJsonObject StartMeta() const
    {
        PfabricJsonObject settings;
        for (const auto& setting : m_cmd.GetNs3Settings())
        {
            settings.AddString(setting.first, setting.second);
        }
        PfabricJsonObject environment;
        for (const char* variable : {"NS_ATTRIBUTE_DEFAULT", "NS_GLOBAL_VALUE"})
        {
            if (const char* value = std::getenv(variable))
            {
                environment.AddString(variable, value);
            }
        }
        PfabricJsonObject meta;
        meta.AddString("program", m_program)
            .AddString("command_line", JoinCommandLine())
            .AddObject("ns3_settings", settings)
            .AddObject("ns3_environment", environment);
        return meta;
    }

    /// @brief Start the wall and processor clocks of the run (FinishMeta's times).
    void StartClocks()
    {
        m_wallStart = WallSeconds();
        m_cpuStart = ProcessorSeconds();
    }

    /**
     * @brief Add the run's costs and environment: wall_time_s and cpu_time_s since StartClocks,
     * scheduler, allocator and peak_rss_bytes.
     * @param meta the run's meta.json object
     */
    void FinishMeta(PfabricJsonObject& meta) const
    {
        TypeIdValue scheduler;
        GlobalValue::GetValueByName("SchedulerType", scheduler);
        meta.AddNumber("wall_time_s", WallSeconds() - m_wallStart)
            .AddNumber("cpu_time_s", ProcessorSeconds() - m_cpuStart)
            .AddString("scheduler", scheduler.Get().GetName())
            .AddString("allocator", AllocatorName())
            .AddInteger("peak_rss_bytes", PeakRssBytes());
    }

    /**
     * @brief Print the files written, on stdout.
     * @param directory the run directory
     * @param files their names in it
     */
    static void PrintFiles(const std::string& directory, const std::vector<std::string>& files)
    {
        std::cout << "files: ";
        for (std::size_t i = 0; i < files.size(); ++i)
        {
            std::cout << (i ? ", " : "") << directory << "/" << files[i];
        }
        std::cout << std::endl;
    }

  private:
    /**
     * @brief Run on ns3::PriorityQueueScheduler unless NS_GLOBAL_VALUE names another event
     * scheduler than ns-3's default MapScheduler (before parsing, so that --SchedulerType still
     * wins).
     */
    static void PreferPriorityQueueScheduler()
    {
        TypeIdValue scheduler;
        GlobalValue::GetValueByName("SchedulerType", scheduler);
        if (scheduler.Get() == MapScheduler::GetTypeId())
        {
            GlobalValue::Bind("SchedulerType", TypeIdValue(PriorityQueueScheduler::GetTypeId()));
        }
    }

    /// @return the command line as one text (meta.json's command_line)
    std::string JoinCommandLine() const
    {
        std::string commandLine;
        for (int i = 0; i < m_argc; ++i)
        {
            commandLine += (i ? " " : "") + std::string(m_argv[i]);
        }
        return commandLine;
    }

    std::string m_program;    //!< the program's name
    int m_argc;               //!< argument count
    char** m_argv;            //!< arguments
    PfabricCommandLine m_cmd; //!< the command line
    Time m_stallLimit;        //!< --stallLimit
    double m_wallStart;       //!< wall clock at StartClocks
    double m_cpuStart;        //!< processor time at StartClocks
};

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
    ProgramShell shell(deadlines ? std::string("pfabric-deadlines") : "pfabric-" + workload,
                       argc,
                       argv);
    const std::string& program = shell.GetProgram();
    PfabricExperiment experiment(workload);
    if (deadlines)
    {
        experiment.EnableDeadlines();
    }
    bool quiet = false;
    bool strict = false;
    PfabricCommandLine& cmd = shell.GetCommandLine();
    experiment.AddCommandLineOptions(cmd);
    cmd.AddValue("quiet", "no progress on stderr", quiet);
    cmd.AddValue("strict",
                 "exit with status " + std::to_string(EXIT_STOPPED_EARLY) +
                     " when the run stops before its flows are done (the safety limit "
                     "--maxSimTime, or nothing left to simulate), instead of 0; either way the "
                     "files are written, the summary and a warning say how many flows are "
                     "unfinished, and meta.json's stop says why",
                 strict);
    bool listSchemes = false;
    cmd.AddValue("listSchemes",
                 "print the schemes --scheme takes, one a line (name, 1 if it runs pFabric's "
                 "queues else 0, description; tab-separated), and exit",
                 listSchemes);
    if (!shell.Parse())
    {
        return 1;
    }
    if (listSchemes)
    {
        PfabricSchemeHelper::PrintSchemes(std::cout);
        return 0;
    }
    const PfabricExperiment::Parameters& p = experiment.GetParameters();
    std::string error;
    if (!experiment.Prepare(&error))
    {
        return shell.Fail(error);
    }
    if (p.flowsOnly)
    {
        std::cout << "flows: " << p.dumpFlows << " (" << experiment.GetFlows().size() << ")"
                  << std::endl;
        return shell.Finish(0);
    }
    PfabricJsonObject meta = shell.StartMeta();
    const std::string out = experiment.GetOutputDirectory();
    if (p.idealOnly)
    {
        shell.StartClocks();
        experiment.AddProvenance(meta);
        shell.FinishMeta(meta);
        meta.AddRaw("rss_samples", "[]");
        if (!experiment.WriteIdealFcts(meta, &error))
        {
            return shell.Fail(error);
        }
        ProgramShell::PrintFiles(out, {"ideal_fct.csv", "meta.json"});
        return shell.Finish(0);
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
    if (!quiet)
    {
        std::cerr << DescribeRunCost(program, experiment.EstimatePacketHops()) << std::endl;
    }
    shell.StartClocks();
    const std::unique_ptr<RunWatchdog> watchdog = shell.MakeWatchdog(experiment);
    watchdog->Start();
    experiment.Install();
    ExperimentMonitor monitor(experiment, program, quiet);
    monitor.Start();
    experiment.Run();
    watchdog->Stop();
    monitor.Finish(experiment.GetEndTime());
    if (!experiment.GetRunError().empty())
    {
        experiment.AbandonRunDirectory();
        return shell.Fail(experiment.GetRunError() + "; no results written");
    }
    if (!experiment.GetArrivalsThroughEnd())
    {
        std::cerr << program << ": warning: " << p.flowFile
                  << " ran out of flows before the measured flows completed (meta.json: "
                     "arrivals_through_end false)"
                  << std::endl;
    }
    experiment.AddProvenance(meta);
    shell.FinishMeta(meta);
    meta.AddRaw("rss_samples", monitor.GetRssSamplesJson());
    if (!experiment.WriteResults(meta, &error))
    {
        return shell.Fail(error);
    }
    std::cout << experiment.Summarize();
    const PfabricStopReport& stop = experiment.GetStopReport();
    if (stop.IsEarly())
    {
        // The summary says it too: its table alone would read as a run's results.
        std::cout << DescribeUnfinished(experiment, strict) << std::endl;
    }
    ProgramShell::PrintFiles(out, {"fct.csv", "meta.json"});
    if (stop.IsEarly())
    {
        // Also under --quiet: fct.csv's empty FCTs alone would read as results.
        std::cerr << program << ": warning: " << stop.Describe() << " (meta.json: stop)"
                  << std::endl;
        return shell.Finish(strict ? EXIT_STOPPED_EARLY : 0);
    }
    return shell.Finish(0);
}

} // namespace pfabric
} // namespace ns3

#endif /* PFABRIC_EXPERIMENT_PROGRAM_H */
