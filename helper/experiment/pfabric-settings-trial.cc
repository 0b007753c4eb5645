/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricSettingsTrial: what a configuration makes, built first in a child process, whose failure
// becomes one line naming the options.

#include "pfabric-settings-trial.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <sstream>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

namespace ns3
{

namespace
{

/// The end of the child's stderr read for ns-3's message: its abort is the last thing it wrote,
/// and logging (NS_LOG) may have written much before it.
constexpr long STDERR_TAIL_BYTES = 16384;

/// The line ns-3 writes after the message of NS_ABORT_MSG, NS_FATAL_ERROR and NS_ASSERT.
constexpr const char* NS_FATAL_LINE = "NS_FATAL, terminating";

/// The line the C++ runtime writes when an exception ends the program; "  what():" follows.
constexpr const char* UNCAUGHT_LINE = "terminate called after throwing";

/// The heartbeat's period in simulated time: a trial's flow takes tens of microseconds, and
/// between two beats a run of a few hosts handles some hundreds of events at most.
constexpr int64_t BEAT_PERIOD_NS = 1000;

/// Processor time without a heartbeat, after one, past which the child has looped at one instant
/// of simulated time: seconds, in ticks of one second (the first tick may come at once after the
/// last beat, so the stall lasted at least LOOP_TICKS - 1 s). Some hundreds of events take
/// microseconds, under sanitizers or valgrind milliseconds: seconds are no slow machine.
constexpr int LOOP_TICKS = 3;

/// The child's wall-clock limit, in its processor-time limit (SetTimeLimit): a backstop for a
/// child that waits instead of computing. A busy machine's share of a core (a fifth or more
/// beside the sweeps and tests these programs run among) stays within it.
constexpr unsigned WALL_PER_PROCESSOR_SECOND = 20;

/// The byte the child writes, after the index of the step it was in, when it looped; the time it
/// stood still at, in nanoseconds, follows in 8 bytes. No step's index (at most 254).
constexpr unsigned char LOOPED = 255;

/// The child's heartbeats so far, and the simulated time of the last one (ns); read by OnCpuTick.
volatile std::sig_atomic_t g_beats = 0;
volatile int64_t g_lastBeatNs = 0;

/// The pipe's end the child tells the parent on, for OnCpuTick.
int g_statusPipe = -1;

/// A heartbeat of the child's simulation, every BEAT_PERIOD_NS while it has other events: where
/// simulated time stands still (an event that reschedules itself at once, such as PIE's update
/// with Tupdate=0), the beats stop while the processor keeps busy.
void
Beat()
{
    g_beats = g_beats + 1;
    g_lastBeatNs = Simulator::Now().GetNanoSeconds();
    if (!Simulator::IsFinished())
    {
        Simulator::Schedule(NanoSeconds(BEAT_PERIOD_NS), &Beat);
    }
}

/**
 * @brief SIGVTALRM, each second of the child's processor time: after LOOP_TICKS ticks without a
 * beat (and at least one beat before: the simulation has run), tell the parent it looped and end.
 * Only what a signal handler may call (write, _exit).
 */
void
OnCpuTick(int)
{
    static std::sig_atomic_t seen = 0;
    static int stalled = 0;
    if (g_beats == 0 || g_beats != seen)
    {
        seen = g_beats;
        stalled = 0;
        return;
    }
    if (++stalled < LOOP_TICKS)
    {
        return;
    }
    unsigned char told[9] = {LOOPED};
    const int64_t at = g_lastBeatNs;
    std::memcpy(told + 1, &at, sizeof(at));
    if (write(g_statusPipe, told, sizeof(told)) != sizeof(told))
    {
        _exit(0); // nothing to name: not refused
    }
    _exit(1);
}

/**
 * @brief The text of a key="..." field of ns-3's abort line, e.g. msg="Can't Parse Time abc".
 * @param line the line
 * @param key the field's name, e.g. msg
 * @return the text between the quotes ("" if the line has no such field): up to the quote
 *         before the next field ns-3 writes (", +" the time, ", file=", ", msg="), so that a
 *         message with quotes of its own is whole
 */
std::string
Field(const std::string& line, const std::string& key)
{
    const std::string open = key + "=\"";
    const std::size_t at = line.find(open);
    if (at == std::string::npos)
    {
        return "";
    }
    const std::size_t start = at + open.size();
    std::size_t end = std::string::npos;
    for (const char* next : {"\", +", "\", file=", "\", msg="})
    {
        end = std::min(end, line.find(next, start));
    }
    if (end == std::string::npos)
    {
        end = line.rfind('"');
        end = end == std::string::npos || end < start ? line.size() : end;
    }
    return line.substr(start, end - start);
}

/**
 * @param line ns-3's abort line
 * @return the source file (its name alone) and line it names, e.g. "time.cc:171", or ""
 */
std::string
Location(const std::string& line)
{
    const std::size_t file = line.find("file=");
    const std::size_t number = line.find("line=");
    if (file == std::string::npos || number == std::string::npos)
    {
        return "";
    }
    std::string path = line.substr(file + 5, line.find(',', file) - file - 5);
    path = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
    std::string digits = line.substr(number + 5);
    digits = digits.substr(0, digits.find_first_not_of("0123456789"));
    return path.empty() || digits.empty() ? "" : path + ":" + digits;
}

/**
 * @param options options as given
 * @return them separated by spaces, or what stands for none
 */
std::string
JoinOptions(const std::vector<std::string>& options)
{
    if (options.empty())
    {
        return "ns-3's defaults";
    }
    std::string joined;
    for (const std::string& option : options)
    {
        joined += (joined.empty() ? "" : " ") + option;
    }
    return joined;
}

} // namespace

PfabricSettingsTrial::PfabricSettingsTrial()
    : m_timeLimit(30)
{
}

void
PfabricSettingsTrial::AddStep(const std::string& doing,
                              const std::vector<std::string>& options,
                              std::function<void()> step)
{
    // A step's index is one byte on the pipe (RunChild).
    NS_ABORT_MSG_IF(m_steps.size() >= 255, "PfabricSettingsTrial: at most 255 steps");
    m_steps.push_back({doing, options, std::move(step)});
}

std::vector<std::string>
PfabricSettingsTrial::GivenNs3Options(const PfabricCommandLine& cmd, bool attributePaths)
{
    std::vector<std::string> options;
    for (const auto& [name, value] : cmd.GetNs3Settings())
    {
        if ((name.find("::") != std::string::npos) == attributePaths)
        {
            options.push_back("--" + name + "=" + value);
        }
    }
    return options;
}

std::vector<std::string>
PfabricSettingsTrial::WithVariable(const std::vector<std::string>& given, const char* variable)
{
    const char* value = std::getenv(variable);
    std::vector<std::string> options = given;
    if (value != nullptr)
    {
        options.push_back(std::string(variable) + "=" + value);
    }
    return options;
}

void
PfabricSettingsTrial::AddSimulatorStep(const std::vector<std::string>& globals)
{
    AddStep("creating the simulator", WithVariable(globals, "NS_GLOBAL_VALUE"), []() {
        // From the global values as they are now (what the process had scheduled is not the
        // trial's), as Simulator::Run would create it.
        Simulator::Destroy();
        Simulator::Now();
        // First at time 0, before any event a later step schedules there (RunChild watches it).
        Simulator::ScheduleNow(&Beat);
    });
}

void
PfabricSettingsTrial::AddSimulatorStep(const PfabricCommandLine& cmd)
{
    AddSimulatorStep(GivenNs3Options(cmd, false));
}

void
PfabricSettingsTrial::SetTimeLimit(unsigned seconds)
{
    m_timeLimit = seconds;
}

std::string
PfabricSettingsTrial::Run() const
{
    if (m_steps.empty())
    {
        return "";
    }
    int status[2];
    if (pipe(status) != 0)
    {
        return ""; // no trial: the run goes on as it would have without one
    }
    // The child's stderr: unnamed, gone when closed; without it the child's abort says only its
    // signal.
    std::FILE* errors = std::tmpfile();
    // Nothing the parent buffered is written twice (the child ends with _exit, flushing nothing).
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    const pid_t child = fork();
    if (child == 0)
    {
        close(status[0]);
        struct rlimit noCore = {0, 0};
        setrlimit(RLIMIT_CORE, &noCore);
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        dup2(errors ? fileno(errors) : null, STDERR_FILENO);
        // A signal ends the child as the run would end: not a sanitizer's report (ASan handles
        // SIGFPE and SIGSEGV and exits with status 1) that would hide which signal it was.
        for (int fault : {SIGFPE, SIGSEGV, SIGBUS, SIGILL})
        {
            signal(fault, SIG_DFL);
        }
        // Processor time, not wall-clock time: on a loaded machine a wall limit of 30 s gave
        // the child under 2 s of processor time, too little to see PIE's Tupdate=0 loop (issue
        // 54's third probe), and the run then hung.
        struct rlimit processor = {m_timeLimit, m_timeLimit + 1};
        setrlimit(RLIMIT_CPU, &processor);
        alarm(m_timeLimit * WALL_PER_PROCESSOR_SECOND);
        // Each second of processor time, whether the simulation still moves (OnCpuTick).
        g_statusPipe = status[1];
        signal(SIGVTALRM, &OnCpuTick);
        struct itimerval tick = {{1, 0}, {1, 0}};
        setitimer(ITIMER_VIRTUAL, &tick, nullptr);
        RunChild(status[1]);
    }
    close(status[1]);
    int ended = 0;
    while (child > 0 && waitpid(child, &ended, 0) < 0 && errno == EINTR)
    {
    }
    // The steps begun, a byte each, and LOOPED with a time if the child looped: a few bytes,
    // which the pipe holds after the child has ended.
    std::size_t begun = 0;
    unsigned char index = 0;
    bool looped = false;
    int64_t stoodAtNs = 0;
    for (unsigned char byte; !looped && read(status[0], &byte, 1) == 1; ++begun)
    {
        looped = byte == LOOPED;
        index = looped ? index : byte;
    }
    looped = looped && read(status[0], &stoodAtNs, sizeof(stoodAtNs)) == sizeof(stoodAtNs);
    close(status[0]);
    std::string text;
    if (errors)
    {
        std::fseek(errors, 0, SEEK_END);
        const long size = std::ftell(errors);
        std::fseek(errors, std::max(0L, size - STDERR_TAIL_BYTES), SEEK_SET);
        text.resize(static_cast<std::size_t>(std::min(size, STDERR_TAIL_BYTES)));
        text.resize(std::fread(text.data(), 1, text.size(), errors));
        std::fclose(errors);
    }
    const bool passed = WIFEXITED(ended) && WEXITSTATUS(ended) == 0;
    // Past the time limit: not seen to fail, so not refused (a slow machine is no reason).
    const bool timedOut =
        WIFSIGNALED(ended) &&
        (WTERMSIG(ended) == SIGXCPU || WTERMSIG(ended) == SIGKILL || WTERMSIG(ended) == SIGALRM);
    if (child < 0 || passed || timedOut || begun == 0 || index >= m_steps.size())
    {
        return "";
    }
    const Step& failed = m_steps[index];
    if (looped)
    {
        std::ostringstream how;
        how << JoinOptions(failed.options) << ": " << failed.doing
            << " hangs ns-3 (tried before the run): simulated time stood still at "
            << stoodAtNs / 1000.0 << " us for at least " << LOOP_TICKS - 1
            << " s of processor time (an event that reschedules itself at once or never returns)";
        return how.str();
    }
    const std::string message = ExtractMessage(text);
    std::string how;
    if (WIFSIGNALED(ended))
    {
        how = message.empty() ? "signal " + DescribeSignal(WTERMSIG(ended)) : message;
    }
    else
    {
        how = "exit status " + std::to_string(WEXITSTATUS(ended)) +
              (message.empty() ? "" : ", " + message);
    }
    return JoinOptions(failed.options) + ": " + failed.doing +
           " stops ns-3 (tried before the run): " + how;
}

void
PfabricSettingsTrial::RunChild(int status) const
{
    for (std::size_t i = 0; i < m_steps.size(); ++i)
    {
        const auto index = static_cast<unsigned char>(i);
        if (write(status, &index, 1) != 1)
        {
            _exit(0); // no step to name: nothing refused
        }
        m_steps[i].work();
    }
    _exit(0);
}

std::string
PfabricSettingsTrial::ExtractMessage(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream stream(text);
    for (std::string line; std::getline(stream, line);)
    {
        lines.push_back(line.substr(0, line.find_last_not_of("\r") + 1));
    }
    for (std::size_t i = lines.size(); i-- > 0;)
    {
        if (lines[i].rfind(UNCAUGHT_LINE, 0) == 0)
        {
            // An exception: its type, and what() on the next line.
            std::string what = i + 1 < lines.size() ? lines[i + 1] : "";
            what = what.substr(std::min(what.size(), what.find_first_not_of(' ')));
            return lines[i] + (what.empty() ? "" : " (" + what + ")");
        }
        // ns-3's message is the line before its "NS_FATAL, terminating"; releases that do not
        // print that line (3.37) end the message's own line with the file and line.
        const bool fatalLine = lines[i].rfind(NS_FATAL_LINE, 0) == 0 && i > 0;
        const bool located = lines[i].find(", file=") != std::string::npos &&
                             lines[i].find(", line=") != std::string::npos;
        if (!fatalLine && !located)
        {
            continue;
        }
        const std::string& line = fatalLine ? lines[i - 1] : lines[i];
        const std::string message = Field(line, "msg");
        const std::string condition = Field(line, "cond");
        std::string said = message;
        if (said.empty() && !condition.empty())
        {
            said = "assertion " + condition + " failed";
        }
        if (said.empty())
        {
            said = line.substr(0, line.find(", file="));
        }
        const std::string location = Location(line);
        return said + (location.empty() ? "" : " (" + location + ")");
    }
    return "";
}

std::string
PfabricSettingsTrial::DescribeSignal(int signal)
{
    static const std::vector<std::pair<int, const char*>> names{{SIGFPE, "SIGFPE"},
                                                                {SIGSEGV, "SIGSEGV"},
                                                                {SIGABRT, "SIGABRT"},
                                                                {SIGBUS, "SIGBUS"},
                                                                {SIGILL, "SIGILL"},
                                                                {SIGKILL, "SIGKILL"},
                                                                {SIGTERM, "SIGTERM"}};
    std::string name = std::to_string(signal);
    for (const auto& [number, known] : names)
    {
        name = number == signal ? known : name;
    }
    return name + ", " + strsignal(signal);
}

} // namespace ns3
