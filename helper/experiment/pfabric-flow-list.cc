/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A run's flow list: generated from a workload's arrival and size processes (PfabricFlowGenerator),
// given deadlines, read from and written to CSV (PfabricFlowList).

#include "pfabric-flow-list.h"

#include "pfabric-command-line.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pfabric-atomic-file.h"
#include "ns3/pfabric-flow-application.h"
#include "ns3/pfabric-flow-size-distribution.h"
#include "ns3/random-variable-stream.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricFlowList");

const std::string PfabricFlowList::CSV_HEADER = "src,dst,size_bytes,start_s";
const std::string PfabricFlowList::CSV_HEADER_DEADLINES = CSV_HEADER + ",deadline_s";

namespace
{

/**
 * @brief Parse a whole token as a non-negative integer.
 * @param token the text
 * @param[out] value the number
 * @return true on success
 */
bool
ParseCount(const std::string& token, uint64_t* value)
{
    if (token.empty() || token.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    errno = 0;
    *value = std::strtoull(token.c_str(), nullptr, 10);
    return errno == 0;
}

/// Nanoseconds per second.
constexpr int64_t NS_PER_S = 1000000000;

/// The latest time a list holds, seconds: its nanoseconds fit in Time's 64 bits, short of
/// Time::Max(), which stands for "no deadline".
constexpr int64_t MAX_SECONDS = INT64_MAX / NS_PER_S - 1;

/// What ParseSeconds says of a token that is not a number of seconds.
const std::string NOT_SECONDS = "is not a non-negative number";

/**
 * @brief Parse a whole token as a non-negative number of seconds, at most MAX_SECONDS.
 *
 * The form Write prints (digits, a point and at most 9 decimals) is read exactly, so that a list
 * reads back as it was written at any time (through a double, times from about 10^6 s on came
 * back nanoseconds off); other decimal forms (an exponent, more decimals) to the nearest
 * nanosecond. Not hexadecimal, inf or nan, nor blanks or a NUL byte around the number.
 *
 * @param token the text
 * @param[out] value the time
 * @return "" on success, else what is wrong: NOT_SECONDS, or that it is too late
 */
std::string
ParseSeconds(const std::string& token, Time* value)
{
    const std::string tooLate =
        "is later than " + std::to_string(MAX_SECONDS) + " s (the latest time a simulation holds)";
    const std::string digits = "0123456789";
    const std::size_t point = token.find('.');
    const std::string whole = token.substr(0, point);
    const std::string decimals = point == std::string::npos ? "" : token.substr(point + 1);
    if (whole.find_first_not_of(digits) == std::string::npos &&
        decimals.find_first_not_of(digits) == std::string::npos && whole.size() <= 10 &&
        decimals.size() <= 9 && whole.size() + decimals.size() > 0)
    {
        const int64_t seconds = whole.empty() ? 0 : std::stoll(whole);
        if (seconds > MAX_SECONDS)
        {
            return tooLate;
        }
        *value = NanoSeconds(seconds * NS_PER_S +
                             std::stoll(decimals + std::string(9 - decimals.size(), '0')));
        return "";
    }
    if (token.empty() || token.find_first_not_of(digits + ".eE+-") != std::string::npos)
    {
        return NOT_SECONDS;
    }
    char* end = nullptr;
    errno = 0;
    const double seconds = std::strtod(token.c_str(), &end);
    if (end != token.c_str() + token.size() || errno != 0 || !(seconds >= 0))
    {
        return errno == ERANGE && seconds > MAX_SECONDS ? tooLate : NOT_SECONDS;
    }
    if (!(seconds <= MAX_SECONDS))
    {
        return tooLate;
    }
    *value = NanoSeconds(std::llround(seconds * 1e9));
    return "";
}

/// @return a time as Write prints it: seconds with 9 decimals, exactly
std::string
FormatSeconds(Time time)
{
    const int64_t ns = time.GetNanoSeconds();
    std::ostringstream text;
    text << ns / NS_PER_S << '.' << std::setw(9) << std::setfill('0') << ns % NS_PER_S;
    return text.str();
}

} // namespace

double
PfabricFlowList::ArrivalRate(double meanPayloadBytes,
                             DataRate hostRate,
                             double load,
                             double wireBytesPerPayloadByte)
{
    return load * static_cast<double>(hostRate.GetBitRate()) /
           (8 * meanPayloadBytes * wireBytesPerPayloadByte);
}

PfabricFlowGenerator::PfabricFlowGenerator(const PfabricFlowSizeDistribution& sizes,
                                           uint32_t hosts,
                                           DataRate hostRate,
                                           double load,
                                           double wireBytesPerPayloadByte,
                                           int64_t stream)
    : m_sizes(&sizes),
      m_hosts(hosts),
      m_now(0),
      m_drawn(0)
{
    NS_LOG_FUNCTION(hosts << hostRate << load << stream);
    NS_ABORT_MSG_IF(hosts < 2, "PfabricFlowList: at least 2 hosts");
    NS_ABORT_MSG_IF(load <= 0 || load >= 1, "PfabricFlowList: load must be in (0, 1)");
    double perHost =
        PfabricFlowList::ArrivalRate(sizes.GetMean(), hostRate, load, wireBytesPerPayloadByte);
    m_gap = CreateObject<ExponentialRandomVariable>();
    m_gap->SetAttribute("Mean", DoubleValue(1 / (perHost * hosts)));
    m_gap->SetAttribute("Bound", DoubleValue(0));
    m_gap->SetStream(stream);
    m_pick = CreateObject<UniformRandomVariable>();
    m_pick->SetStream(stream + 1);
}

PfabricFlow
PfabricFlowGenerator::Next()
{
    m_now += m_gap->GetValue();
    auto src = m_pick->GetInteger(0, m_hosts - 1);
    auto dst = m_pick->GetInteger(0, m_hosts - 2);
    dst += dst >= src ? 1 : 0;
    // A load so low (--load=1e-15) that flows arrive past ns-3's times starts them at its last
    // (an overflow assertion stopped the program): beyond every --maxSimTime, so the run stops
    // at the safety limit and says its flows did not start.
    const double most = PfabricCommandLine::MAX_TIME_NS / 1e9;
    return {m_drawn++, src, dst, m_sizes->Sample(), Seconds(std::min(m_now, most))};
}

std::vector<PfabricFlow>
PfabricFlowSource::Next(uint32_t flows)
{
    std::vector<PfabricFlow> list;
    list.reserve(flows);
    for (uint32_t i = 0; i < flows; ++i)
    {
        list.push_back(Next());
    }
    return list;
}

uint32_t
PfabricFlowGenerator::GetDrawn() const
{
    return m_drawn;
}

double
PfabricFlowGenerator::GetMeanBytes() const
{
    return m_sizes->GetMean();
}

std::vector<PfabricFlow>
PfabricFlowList::Generate(const PfabricFlowSizeDistribution& sizes,
                          uint32_t hosts,
                          DataRate hostRate,
                          double load,
                          uint32_t flows,
                          double wireBytesPerPayloadByte,
                          int64_t stream)
{
    NS_LOG_FUNCTION(hosts << hostRate << load << flows << stream);
    return PfabricFlowGenerator(sizes, hosts, hostRate, load, wireBytesPerPayloadByte, stream)
        .Next(flows);
}

std::size_t
PfabricFlowList::AssignDeadlines(std::vector<PfabricFlow>* flows,
                                 const std::vector<Time>& floors,
                                 Time mean,
                                 double fraction,
                                 int64_t stream)
{
    NS_LOG_FUNCTION(mean << fraction << stream);
    NS_ABORT_MSG_IF(floors.size() != flows->size(),
                    "PfabricFlowList::AssignDeadlines: one floor per flow");
    NS_ABORT_MSG_IF(!mean.IsStrictlyPositive(),
                    "PfabricFlowList::AssignDeadlines: the mean must be positive");
    NS_ABORT_MSG_IF(!(fraction >= 0 && fraction <= 1),
                    "PfabricFlowList::AssignDeadlines: the fraction must be in [0, 1]");
    auto has = CreateObject<UniformRandomVariable>();
    has->SetStream(stream);
    auto slack = CreateObject<ExponentialRandomVariable>();
    slack->SetAttribute("Mean", DoubleValue(mean.GetSeconds()));
    slack->SetAttribute("Bound", DoubleValue(0));
    slack->SetStream(stream + 1);
    for (std::size_t i = 0; i < flows->size(); ++i)
    {
        PfabricFlow& flow = (*flows)[i];
        // Both draws for every flow: a flow's X does not depend on the fraction.
        // Bounds given: a configured default of UniformRandomVariable's Min or Max would change
        // the share (the twelfth probe: Max=0.5 gave all 40 flows a deadline at fraction 0.7).
        bool hasDeadline = has->GetValue(0, 1) < fraction;
        const double xNs = slack->GetValue() * 1e9;
        // Checked in floating point first: ns-3's Time arithmetic would wrap (the tenth probe:
        // a mean of 9e9 s gave deadlines before their flows' starts).
        const double deadlineNs = static_cast<double>(flow.start.GetNanoSeconds()) +
                                  std::max(static_cast<double>(floors[i].GetNanoSeconds()), xNs);
        if (!hasDeadline)
        {
            flow.deadline = Time::Max();
            continue;
        }
        if (deadlineNs > PfabricCommandLine::MAX_TIME_NS)
        {
            for (std::size_t j = i; j < flows->size(); ++j)
            {
                (*flows)[j].deadline = Time::Max();
            }
            return i;
        }
        flow.deadline = flow.start + std::max(floors[i], NanoSeconds(std::llround(xNs)));
    }
    return flows->size();
}

bool
PfabricFlowList::Read(const std::string& path,
                      uint32_t hosts,
                      std::vector<PfabricFlow>* flows,
                      std::string* error)
{
    // Read whole first, in one pass: a pipe (--flowFile=<(...)) can be read only once, and
    // cannot seek back past a missing byte-order mark.
    std::string contents;
    if (!pfabric::ReadWholeFile(path, &contents))
    {
        *error = path + ": cannot read the file";
        return false;
    }
    std::istringstream in(contents);
    pfabric::SkipByteOrderMark(in);
    std::string line;
    if (std::getline(in, line) && !line.empty() && line.back() == '\r')
    {
        line.pop_back();
    }
    if (!in || (line != CSV_HEADER && line != CSV_HEADER_DEADLINES))
    {
        *error = path + ":1: the header must be " + CSV_HEADER + " or " + CSV_HEADER_DEADLINES;
        return false;
    }
    const std::size_t columns = line == CSV_HEADER ? 4 : 5;
    flows->clear();
    for (uint32_t lineNumber = 2; std::getline(in, line); ++lineNumber)
    {
        if (!line.empty() && line.back() == '\r')
        {
            line.pop_back();
        }
        if (line.empty())
        {
            continue;
        }
        std::vector<std::string> fields;
        std::istringstream text(line);
        for (std::string field; std::getline(text, field, ',');)
        {
            fields.push_back(field);
        }
        if (line.back() == ',')
        {
            // getline drops a last empty field: an empty deadline_s (no deadline) in a list
            // with deadlines, one field too many in a list without (0,1,30000,0.0002, was read
            // as four fields and taken)
            fields.emplace_back();
        }
        std::string where = path + ":" + std::to_string(lineNumber) + ": ";
        if (fields.size() != columns)
        {
            *error = where + "expected " + std::to_string(columns) + " fields (" +
                     (columns == 4 ? CSV_HEADER : CSV_HEADER_DEADLINES) + "), got " +
                     std::to_string(fields.size());
            return false;
        }
        uint64_t src;
        uint64_t dst;
        uint64_t bytes;
        if (!ParseCount(fields[0], &src) || !ParseCount(fields[1], &dst))
        {
            *error = where + "hosts must be non-negative integers";
            return false;
        }
        if (src >= hosts || dst >= hosts)
        {
            *error = where + "host " + std::to_string(src >= hosts ? src : dst) +
                     " is outside the fabric (hosts 0 to " + std::to_string(hosts - 1) + ")";
            return false;
        }
        if (src == dst)
        {
            *error = where + "a flow from host " + std::to_string(src) + " to itself";
            return false;
        }
        if (!ParseCount(fields[2], &bytes) || bytes == 0)
        {
            *error = where + "size_bytes '" + fields[2] + "' is not a positive integer";
            return false;
        }
        if (bytes > PfabricFlowApplication::MAX_FLOW_BYTES)
        {
            // The hosts' senders stopped the run on it, after its directory was made.
            *error = where + "size_bytes '" + fields[2] + "' is more than a flow's " +
                     std::to_string(PfabricFlowApplication::MAX_FLOW_BYTES) + " bytes";
            return false;
        }
        Time start;
        std::string wrong = ParseSeconds(fields[3], &start);
        if (!wrong.empty())
        {
            *error = where + "start_s '" + fields[3] + "' " + wrong;
            return false;
        }
        Time deadline = Time::Max();
        if (columns == 5 && !fields[4].empty())
        {
            wrong = ParseSeconds(fields[4], &deadline);
            if (wrong.empty() && deadline <= start)
            {
                wrong = NOT_SECONDS;
            }
            if (!wrong.empty())
            {
                *error = where + "deadline_s '" + fields[4] + "' " +
                         (wrong == NOT_SECONDS ? "is not a time after start_s (or empty: no "
                                                 "deadline)"
                                               : wrong);
                return false;
            }
        }
        flows->push_back({static_cast<uint32_t>(flows->size()),
                          static_cast<uint32_t>(src),
                          static_cast<uint32_t>(dst),
                          bytes,
                          start,
                          deadline});
    }
    return true;
}

bool
PfabricFlowList::Write(const std::string& path,
                       const std::vector<PfabricFlow>& flows,
                       std::string* error)
{
    bool deadlines = std::any_of(flows.begin(), flows.end(), [](const PfabricFlow& flow) {
        return flow.deadline != Time::Max();
    });
    std::ostringstream out;
    out << (deadlines ? CSV_HEADER_DEADLINES : CSV_HEADER) << "\n";
    for (const auto& flow : flows)
    {
        out << flow.src << "," << flow.dst << "," << flow.bytes << "," << FormatSeconds(flow.start);
        if (deadlines)
        {
            out << ",";
            if (flow.deadline != Time::Max())
            {
                out << FormatSeconds(flow.deadline);
            }
        }
        out << "\n";
    }
    return pfabric::WriteFileAtomically(path, out.str(), error);
}

} // namespace ns3
