/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RunWatchdog: a run that dies or hangs inside ns-3 ends with one line naming the settings given
// to ns-3, and leaves no directory it created. Compiled only into the experiment programs
// (through pfabric-experiment-program.h): it installs signal handlers and a timer, which the
// library's code never does.

#ifndef PFABRIC_RUN_WATCHDOG_H
#define PFABRIC_RUN_WATCHDOG_H

#include "ns3/nstime.h"
#include "ns3/pfabric-command-line.h"
#include "ns3/pfabric-results-writer.h"
#include "ns3/simulator.h"

#include <array>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <string>
#include <sys/time.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace ns3
{
namespace pfabric
{

/**
 * @brief Watches a run's Simulator::Run for what the settings trial (PfabricSettingsTrial) cannot
 * see before it: settings of ns-3's own that fail only later in a run, at a flow's state the
 * trial's one flow never reaches (issue 54's eighth probe: TcpYeah's Gamma=0 divides by zero,
 * TcpHybla's RRTT below a round trip fails an assertion, TcpCubic's Beta=1 loops for ever inside
 * one event).
 *
 * - A fatal signal (SIGFPE, SIGSEGV, SIGBUS, SIGILL, SIGABRT: ns-3's NS_ASSERT and NS_FATAL_ERROR
 *   abort after their message) or an interruption (SIGINT, SIGTERM, SIGHUP, and the others whose
 *   default ends the process: SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGXFSZ; one that the
 * program was started ignoring, as under nohup, stays ignored): one line on stderr, "PROGRAM:
 * error: ns-3 died of SIGFPE (floating-point exception) after 4 ms of simulated time, with
 * --tcpCongestionOpsAttributes=Gamma=0; no results written", the directories the run created
 *   removed (PfabricResultsWriter::GetCreatedDirectories, while empty), and the signal raised
 *   again under the handler that was there before (the process ends by it, or a sanitizer
 *   reports it).
 * - A hang: simulated time standing still (a beat every millisecond of it) for the stall limit
 *   of processor time: one line, the directories removed, exit status 1.
 *
 * The beat is an event every millisecond of simulated time while other events are pending: it
 * changes no other event's order (ties go by insertion) and adds one to meta.json's events per
 * simulated millisecond. Only async-signal-safe calls in the handlers (write, rmdir, sigaction,
 * raise, _exit): their texts are made at Start.
 */
class RunWatchdog
{
  public:
    /**
     * @param program the program's name, the line's prefix
     * @param settings the options given to ns-3 (PfabricExperiment::GetSettingsGivenToNs3)
     * @param stallLimit processor time without a millisecond of simulated time passing that is
     *        a hang; zero: never
     */
    RunWatchdog(const std::string& program,
                const std::vector<std::string>& settings,
                Time stallLimit)
    {
        State& state = GetState();
        state.prefix = program + ": error: ns-3 ";
        std::string given;
        for (const std::string& setting : settings)
        {
            given += (given.empty() ? "" : " ") + setting;
        }
        state.given = given.empty() ? ", with no ns-3 setting given (a fault of the module or of "
                                      "ns-3: please report it)"
                                    : ", with " + given;
        state.interrupted = given.empty() ? "" : ", with " + given;
        state.stallSeconds = stallLimit.IsStrictlyPositive()
                                 ? static_cast<long>(std::ceil(stallLimit.GetSeconds()))
                                 : 0;
        state.stallText = ": " + std::to_string(state.stallSeconds) +
                          " s of processor time passed without a millisecond of simulated time "
                          "(an event that never returns, or that reschedules itself at once; "
                          "--stallLimit)";
        for (const auto& [signal, name] : HANDLED)
        {
            state.names[signal] = name;
        }
    }

    ~RunWatchdog()
    {
        Stop();
    }

    /// @return --stallLimit's default: 300 s of processor time (the published fabrics take at
    /// most seconds per simulated millisecond; doc/experiments.rst, "Experiments")
    static Time GetDefaultStallLimit()
    {
        return Seconds(300);
    }

    /**
     * @brief Add --stallLimit to a program's command line.
     * @param cmd the command line
     * @param limit where its value goes; its value now is the default shown
     */
    static void AddStallLimitOption(PfabricCommandLine& cmd, Time& limit)
    {
        cmd.AddTime("stallLimit",
                    "processor time without a millisecond of simulated time passing after which "
                    "the run is taken as hung inside ns-3 (a setting such as TcpCubic's Beta=1 "
                    "loops for ever) and stopped: one line naming the settings given to ns-3, no "
                    "results written, exit status 1; whole seconds; 0s: never. The published "
                    "fabrics take seconds per simulated millisecond: raise it for much larger "
                    "ones or under valgrind",
                    limit);
    }

    /**
     * @param cmd the command line, parsed
     * @param limit --stallLimit's value
     * @return "" or the refusal of a limit that is not whole seconds (the watchdog looks once a
     *         second of processor time; issue 54's ninth probe: 1ns acted as 1 s)
     */
    static std::string CheckStallLimit(const PfabricCommandLine& cmd, Time limit)
    {
        return limit == Seconds(std::round(limit.GetSeconds()))
                   ? ""
                   : cmd.DescribeGiven("stallLimit") +
                         ": expected whole seconds, e.g. 300s (the watchdog looks once a second "
                         "of processor time), or 0s";
    }

    RunWatchdog(const RunWatchdog&) = delete;
    RunWatchdog& operator=(const RunWatchdog&) = delete;

    /// Handle the signals, start the processor-time ticks, schedule the first beat (before
    /// Simulator::Run).
    void Start()
    {
        State& state = GetState();
        state.beats = 0;
        state.lastBeatMs = 0;
        state.stalled = 0;
        state.seen = 0;
        for (const auto& entry : HANDLED)
        {
            struct sigaction action = {};
            action.sa_handler = &RunWatchdog::OnSignal;
            sigemptyset(&action.sa_mask);
            sigaction(entry.first, &action, &state.before[entry.first]);
            if (state.before[entry.first].sa_handler == SIG_IGN)
            {
                // Ignored by whoever started the program (nohup's SIGHUP, a script's background
                // job's SIGINT): it stays ignored, and the run goes on (issue 54's ninth probe).
                sigaction(entry.first, &state.before[entry.first], nullptr);
            }
        }
        if (state.stallSeconds > 0)
        {
            struct sigaction action = {};
            action.sa_handler = &RunWatchdog::OnProcessorTick;
            sigemptyset(&action.sa_mask);
            action.sa_flags = SA_RESTART;
            sigaction(SIGVTALRM, &action, &state.tickBefore);
            struct itimerval tick = {{1, 0}, {1, 0}};
            setitimer(ITIMER_VIRTUAL, &tick, nullptr);
        }
        state.started = true;
        Simulator::ScheduleNow(&RunWatchdog::Beat);
    }

    /// Put the handlers back and stop the ticks (after Simulator::Run; also at destruction).
    void Stop()
    {
        State& state = GetState();
        if (!state.started)
        {
            return;
        }
        state.started = false;
        if (state.stallSeconds > 0)
        {
            struct itimerval off = {};
            setitimer(ITIMER_VIRTUAL, &off, nullptr);
            sigaction(SIGVTALRM, &state.tickBefore, nullptr);
        }
        for (const auto& entry : HANDLED)
        {
            sigaction(entry.first, &state.before[entry.first], nullptr);
        }
    }

  private:
    /// The signals handled, and how the line names them.
    static constexpr std::array<std::pair<int, const char*>, 14> HANDLED{{
        {SIGFPE, "died of SIGFPE (floating-point exception)"},
        {SIGSEGV, "died of SIGSEGV (invalid memory access)"},
        {SIGBUS, "died of SIGBUS (bus error)"},
        {SIGILL, "died of SIGILL (illegal instruction)"},
        {SIGABRT, "aborted (SIGABRT; ns-3's message, if any, is above)"},
        {SIGINT, "was interrupted (SIGINT)"},
        {SIGTERM, "was stopped (SIGTERM)"},
        {SIGHUP, "was stopped (SIGHUP)"},
        // Whose default action also ends the process (the tenth probe: each left an empty run
        // directory), sent by a user, a batch system's limits or a shell's timer.
        {SIGQUIT, "was stopped (SIGQUIT)"},
        {SIGUSR1, "was stopped (SIGUSR1)"},
        {SIGUSR2, "was stopped (SIGUSR2)"},
        {SIGALRM, "was stopped (SIGALRM)"},
        {SIGXCPU, "was stopped (SIGXCPU: the processor time limit)"},
        {SIGXFSZ, "was stopped (SIGXFSZ: the file size limit)"},
    }};

    /// What the handlers read: made before they can run.
    struct State
    {
        std::string prefix;                          //!< "PROGRAM: error: ns-3 "
        std::string given;                           //!< ", with SETTINGS" (or a plea to report)
        std::string interrupted;                     //!< ", with SETTINGS", or ""
        std::string stallText;                       //!< ": 300 s of processor time passed ..."
        long stallSeconds = 0;                       //!< the stall limit, whole seconds; 0: none
        std::array<const char*, NSIG> names = {};    //!< HANDLED's texts by signal
        std::array<struct sigaction, NSIG> before{}; //!< the handlers replaced
        struct sigaction tickBefore = {};            //!< SIGVTALRM's handler replaced
        volatile std::sig_atomic_t beats = 0;        //!< beats so far
        volatile std::sig_atomic_t seen = 0;         //!< beats at the last tick
        volatile long stalled = 0;                   //!< ticks since the beats last moved
        volatile int64_t lastBeatMs = 0;             //!< simulated time of the last beat, ms
        bool started = false;                        //!< Start called, Stop not yet
    };

    /// @return the state the handlers read (one run per process)
    static State& GetState()
    {
        static State state;
        return state;
    }

    /// The beat: every millisecond of simulated time while other events are pending.
    static void Beat()
    {
        State& state = GetState();
        state.beats = state.beats + 1;
        state.lastBeatMs = Simulator::Now().GetMilliSeconds();
        if (!Simulator::IsFinished())
        {
            Simulator::Schedule(MilliSeconds(1), &RunWatchdog::Beat);
        }
    }

    /**
     * @brief Write a text to stderr (async-signal-safe).
     * @param text the text
     */
    static void Write(const char* text)
    {
        for (std::size_t left = std::strlen(text); left > 0;)
        {
            const ssize_t written = write(STDERR_FILENO, text, left);
            if (written <= 0)
            {
                return;
            }
            text += written;
            left -= static_cast<std::size_t>(written);
        }
    }

    /**
     * @brief Write a number to stderr (async-signal-safe).
     * @param number the number
     */
    static void WriteNumber(int64_t number)
    {
        char digits[24];
        int at = sizeof(digits) - 1;
        digits[at] = '\0';
        uint64_t left = number < 0 ? 0 : static_cast<uint64_t>(number);
        do
        {
            digits[--at] = static_cast<char>('0' + left % 10);
            left /= 10;
        } while (left > 0 && at > 0);
        Write(digits + at);
    }

    /**
     * @brief The line: "PROGRAM: error: ns-3 HOW after N ms of simulated time, with SETTINGS;
     * no results written", and the directories the run made removed.
     * @param how what happened
     * @param also what else to say before the settings, or ""
     * @param settings ", with SETTINGS", or what stands for none
     */
    static void Report(const char* how, const char* also, const std::string& settings)
    {
        State& state = GetState();
        Write(state.prefix.c_str());
        Write(how);
        Write(" after ");
        WriteNumber(state.lastBeatMs);
        Write(" ms of simulated time");
        Write(also);
        Write(settings.c_str());
        Write("; no results written\n");
        // The run directory first; a level holding a file stays (rmdir removes only an empty
        // one), and the levels above it with it.
        for (const std::string& level : PfabricResultsWriter::GetCreatedDirectories())
        {
            if (rmdir(level.c_str()) != 0)
            {
                break;
            }
        }
    }

    /**
     * @brief A fatal signal or an interruption: the line, then the signal again under the
     * handler that was there before.
     * @param signal the signal
     */
    static void OnSignal(int signal)
    {
        State& state = GetState();
        // An interruption is the user's, no fault to report; the settings are named still.
        const bool interruption = signal != SIGFPE && signal != SIGSEGV && signal != SIGBUS &&
                                  signal != SIGILL && signal != SIGABRT;
        Report(state.names[signal] ? state.names[signal] : "died of a signal",
               "",
               interruption ? state.interrupted : state.given);
        sigaction(signal, &state.before[signal], nullptr);
        // Delivered when this handler returns (the signal is blocked while it runs); a fault
        // that came from an instruction would also come again from it.
        raise(signal);
    }

    /// SIGVTALRM, each second of processor time: past the stall limit without a beat, a hang.
    static void OnProcessorTick(int)
    {
        State& state = GetState();
        if (state.beats != state.seen)
        {
            state.seen = state.beats;
            state.stalled = 0;
            return;
        }
        state.stalled = state.stalled + 1;
        if (state.stalled < state.stallSeconds)
        {
            return;
        }
        Report("hung", state.stallText.c_str(), state.given);
        _exit(1);
    }
};

} // namespace pfabric
} // namespace ns3

#endif /* PFABRIC_RUN_WATCHDOG_H */
