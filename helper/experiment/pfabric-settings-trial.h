/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_SETTINGS_TRIAL_H
#define PFABRIC_SETTINGS_TRIAL_H

#include "pfabric-command-line.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief Try what a configuration makes in a child process before a run makes it, so that what
 * ns-3 would stop the program on is refused in one line naming the options that configure it.
 *
 * Some settings pass every check that ns-3 offers before use and stop the program only when the
 * object that holds them is built or used: an attribute that ns-3 keeps as text and reads later
 * (FqCoDel's Interval), a value its attribute checker takes but the object cannot use (FqCoDel's
 * Flows=0 divides by zero; RED's MinTh above MaxTh; a queue size of 0), a part that does not
 * fit the devices (MqQueueDisc on a device of one queue), a global value kept as text
 * (SimulatorImplementationType). ns-3 then aborts (SIGABRT, a message of its own on stderr) or
 * dies of a signal (SIGFPE), after the run directory exists. Building the same parts first, in a
 * child, turns that into a refusal: the child runs each step (AddStep) in order and exits 0;
 * how it ended and the step it was in, told through a pipe, say what failed, and the child's
 * stderr, kept in an unnamed temporary file, gives ns-3's message (ExtractMessage).
 *
 * The child is a copy of the process (fork): whatever it builds, draws or schedules is its own,
 * and the parent's objects, random streams and simulation are left as they were. It writes
 * nothing (its stdout goes to /dev/null, no core file) and ends with _exit, flushing nothing
 * of the parent's.
 *
 * Some settings make ns-3 loop instead: an event that reschedules itself at once (PIE's update
 * with Tupdate=0) holds simulated time at one instant for ever. The simulator step schedules a
 * heartbeat, an event every microsecond of simulated time while others are pending, and the child
 * checks it each second of its processor time: when the beats have stopped for two seconds or
 * more, simulated time stands still while the processor keeps busy, and the trial refuses the
 * step as one that hangs ns-3. A step that is merely slow still beats (a few hosts handle some
 * hundreds of events per microsecond of simulated time, which take milliseconds even under
 * sanitizers), so the rule does not depend on the machine's speed. A child that uses more
 * processor time than its limit (SetTimeLimit) for any other reason, or waits for many times that
 * in wall-clock time, is stopped and counts as no refusal: the trial refuses only what it saw fail
 * or loop. So does a trial that cannot be made (fork
 * fails): the run then goes on as it would have without it.
 */
class PfabricSettingsTrial
{
  public:
    PfabricSettingsTrial();

    /**
     * @brief Add a step: what it builds or does, and the options that configure it.
     * @param doing what the step does, for the refusal, e.g. "installing scheme dctcp on two
     *        hosts and a switch"
     * @param options the options that configure it, as given (e.g.
     *        --portQueueDiscAttributes=Flows=0): the refusal names them
     * @param step the work, run in the child only (it must read no input of the run's: a pipe
     *        such as --cdf=<(...) is read once)
     */
    void AddStep(const std::string& doing,
                 const std::vector<std::string>& options,
                 std::function<void()> step);

    /**
     * @brief Add the step every run begins with: ns-3's simulator created from the global values
     * as they are now (SimulatorImplementationType and SchedulerType are kept as text or a TypeId
     * and used only then: an unknown or unfit one stops the program), with the heartbeat that
     * tells a loop at one instant (first, so that the later steps' simulations carry it).
     * @param globals the global values given, as typed (--SchedulerType=...); with none,
     *        NS_GLOBAL_VALUE as set names the step
     */
    void AddSimulatorStep(const std::vector<std::string>& globals);

    /**
     * @brief AddSimulatorStep for a program without PfabricExperiment.
     * @param cmd its command line, parsed
     */
    void AddSimulatorStep(const PfabricCommandLine& cmd);

    /**
     * @param cmd a command line, parsed
     * @param attributePaths true: its attribute paths (--ns3::Type::Attribute=...); false: its
     *        global values (--SchedulerType=...)
     * @return those of ns-3's settings given on it, as typed (--name=value): what a step names
     */
    static std::vector<std::string> GivenNs3Options(const PfabricCommandLine& cmd,
                                                    bool attributePaths);

    /**
     * @param given the options given that configure a step
     * @param variable an environment variable of ns-3's that also sets what they set
     *        (NS_ATTRIBUTE_DEFAULT, NS_GLOBAL_VALUE)
     * @return the options, then the variable as set (NS_ATTRIBUTE_DEFAULT=...), if it is: a
     *         default it sets can be what stops the step (FqCoDel's Flows=0 under a custom
     *         scheme's --portQueueDisc was named by that option alone)
     */
    static std::vector<std::string> WithVariable(const std::vector<std::string>& given,
                                                 const char* variable);

    /// @param seconds the child's processor-time limit (default 30 s), past which the trial is
    ///        given up (and a wall-clock limit of 20 times that)
    void SetTimeLimit(unsigned seconds);

    /**
     * @brief Run every step in a child process.
     * @return "" if every step ran (or the trial could not be made, or ran past its time limit);
     *         else one line: the options of the step that failed, what it was doing and how the
     *         child ended (ns-3's message, ExtractMessage; else the signal or exit status; or the
     *         simulated time it stood still at, when it looped), e.g.
     *         "--portQueueDiscAttributes=Flows=0: carrying a flow of scheme fqcodel-newreno
     *         stops ns-3 (tried before the run): signal SIGFPE, Floating point exception"
     */
    std::string Run() const;

    /**
     * @brief ns-3's message in what a child wrote to stderr before it stopped: the line before
     * "NS_FATAL, terminating" (NS_ABORT_MSG's, NS_FATAL_ERROR's, NS_ASSERT's), or where ns-3
     * does not print that line (3.37) the last line naming a file= and line=; its msg="..." text,
     * else its cond="..." as a failed assertion, and the source file and line it names.
     * @param text the child's stderr (its end)
     * @return e.g. "Can't Parse Time abc (time.cc:171)", or "" if the text has no line
     */
    static std::string ExtractMessage(const std::string& text);

    /**
     * @param signal a signal number
     * @return its name and description, e.g. "SIGFPE, Floating point exception"
     */
    static std::string DescribeSignal(int signal);

  private:
    /// A step of the trial.
    struct Step
    {
        std::string doing;                //!< what it does
        std::vector<std::string> options; //!< the options that configure it
        std::function<void()> work;       //!< the work
    };

    /**
     * @brief In the child: run the steps, telling each one's index before it starts; never
     * returns.
     * @param status the pipe's end to tell the step on
     */
    [[noreturn]] void RunChild(int status) const;

    std::vector<Step> m_steps; //!< the steps, in order
    unsigned m_timeLimit;      //!< the child's processor-time limit, seconds
};

} // namespace ns3

#endif /* PFABRIC_SETTINGS_TRIAL_H */
