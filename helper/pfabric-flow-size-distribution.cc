/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricFlowSizeDistribution: a flow-size distribution read from an empirical CDF file and sampled
// as the ns-2 scripts did.

#include "pfabric-flow-size-distribution.h"

#include "pfabric-atomic-file.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricFlowSizeDistribution");

const std::vector<std::string> PfabricFlowSizeDistribution::SHIPPED{"websearch", "datamining"};

namespace
{

/**
 * @brief Parse a whole token as a finite decimal number.
 * @param token the text
 * @param[out] value the number
 * @return true if the whole token is a finite decimal number (not hexadecimal, inf or nan, and
 *         with no NUL byte after it, where strtod would stop)
 */
bool
ParseNumber(const std::string& token, double* value)
{
    if (token.find_first_not_of("0123456789.eE+-") != std::string::npos)
    {
        return false;
    }
    const char* begin = token.c_str();
    char* end = nullptr;
    errno = 0;
    *value = std::strtod(begin, &end);
    return end != begin && end == begin + token.size() && errno == 0 && std::isfinite(*value);
}

/// The integral of ceil(x) from 0 to t >= 0.
double
IntegralOfCeil(double t)
{
    double n = std::floor(t);
    return n * (n + 1) / 2 + (t - n) * (n + 1);
}

/**
 * The mean of ceil(X) for X uniform on [a, b], 0 <= a <= b. Taken from floor(a) (ceil(x + n) =
 * ceil(x) + n for a whole n): the integrals from 0 grow as the square of the size, and their
 * difference over a narrow segment far from 0 would cancel every digit (a 0.3-byte segment at
 * 13.7 GB gave a mean outside the segment).
 */
double
MeanOfCeil(double a, double b)
{
    if (b <= a)
    {
        return std::ceil(a);
    }
    const double base = std::floor(a);
    return base + (IntegralOfCeil(b - base) - IntegralOfCeil(a - base)) / ((b - base) - (a - base));
}

} // namespace

PfabricFlowSizeDistribution::PfabricFlowSizeDistribution()
    : m_packetPayload(1460),
      m_interpolation(PACKETS),
      m_mean(0)
{
}

std::string
PfabricFlowSizeDistribution::FindShipped(const std::string& name)
{
    std::vector<std::string> directories;
    if (const char* fromEnvironment = std::getenv("PFABRIC_WORKLOADS_DIR"))
    {
        directories.emplace_back(fromEnvironment);
    }
#ifdef PFABRIC_SOURCE_WORKLOADS_DIR
    directories.emplace_back(PFABRIC_SOURCE_WORKLOADS_DIR);
#endif
    for (const char* relative : {"contrib/pfabric/workloads", "src/pfabric/workloads", "workloads"})
    {
        directories.emplace_back(relative);
    }
    for (const auto& directory : directories)
    {
        std::string path = directory + "/" + name + ".cdf";
        if (std::ifstream(path).good())
        {
            return path;
        }
    }
    return "";
}

bool
PfabricFlowSizeDistribution::Load(const std::string& path,
                                  uint32_t packetPayload,
                                  Interpolation interpolation,
                                  std::string* error)
{
    NS_LOG_FUNCTION(this << path << packetPayload << interpolation);
    NS_ABORT_MSG_IF(packetPayload == 0, "PfabricFlowSizeDistribution: zero packet payload");
    std::string file = path;
    if (std::find(SHIPPED.begin(), SHIPPED.end(), path) != SHIPPED.end())
    {
        file = FindShipped(path);
        if (file.empty())
        {
            *error = path + ": the shipped workload's file " + path +
                     ".cdf was not found (set PFABRIC_WORKLOADS_DIR)";
            return false;
        }
    }
    // Read whole first, in one pass: a pipe (--cdf=<(...)) can be read only once, and cannot
    // seek back past a missing byte-order mark.
    std::string contents;
    if (!pfabric::ReadWholeFile(file, &contents))
    {
        *error = file + ": cannot read the file";
        return false;
    }
    std::istringstream in(contents);

    pfabric::SkipByteOrderMark(in);
    std::vector<std::pair<double, double>> points;
    std::size_t columns = 0;
    std::string line;
    for (uint32_t lineNumber = 1; std::getline(in, line); ++lineNumber)
    {
        auto where = [&file, lineNumber]() {
            return file + ":" + std::to_string(lineNumber) + ": ";
        };
        line = line.substr(0, line.find('#'));
        std::istringstream fields(line);
        std::vector<std::string> tokens;
        for (std::string token; fields >> token;)
        {
            tokens.push_back(token);
        }
        if (tokens.empty())
        {
            continue;
        }
        if (tokens.size() != 2 && tokens.size() != 3)
        {
            *error = where() +
                     "expected 2 columns (size_bytes cumulative_probability) or 3 (packets 1 "
                     "cumulative_probability), got " +
                     std::to_string(tokens.size());
            return false;
        }
        if (columns != 0 && tokens.size() != columns)
        {
            *error = where() + std::to_string(tokens.size()) + " columns, but earlier lines have " +
                     std::to_string(columns);
            return false;
        }
        columns = tokens.size();
        std::vector<double> values(tokens.size());
        for (std::size_t i = 0; i < tokens.size(); ++i)
        {
            if (!ParseNumber(tokens[i], &values[i]))
            {
                *error = where() + "'" + tokens[i] + "' is not a number";
                return false;
            }
        }
        double size = columns == 2 ? values[0] : values[0] * packetPayload;
        double probability = values.back();
        std::ostringstream what;
        if (probability < 0 || probability > 1)
        {
            what << "probability " << probability << " is outside [0, 1]";
        }
        else if (!points.empty() && probability < points.back().second)
        {
            what << "probability " << probability << " is below the previous one ("
                 << points.back().second << ")";
        }
        else if (size <= 0)
        {
            what << "size " << tokens[0] << " is not positive";
        }
        else if (size > MAX_BYTES)
        {
            what << "size " << tokens[0] << (columns == 3 ? " packets" : "")
                 << " is more than a flow's " << PfabricFlowApplication::MAX_FLOW_BYTES << " bytes";
        }
        else if (interpolation == PACKETS &&
                 std::ceil(size / packetPayload) * packetPayload > MAX_BYTES)
        {
            // Draws are whole packets: this size's is one more than the senders can send.
            what << "size " << tokens[0] << " rounds up to "
                 << static_cast<uint64_t>(std::ceil(size / packetPayload)) * packetPayload
                 << " bytes (whole packets of " << packetPayload << " bytes), more than a flow's "
                 << PfabricFlowApplication::MAX_FLOW_BYTES << " bytes";
        }
        else if (!points.empty() && size < points.back().first)
        {
            what << "size " << tokens[0] << " is below the previous one";
        }
        if (!what.str().empty())
        {
            *error = where() + what.str();
            return false;
        }
        points.emplace_back(size, probability);
    }
    if (points.empty())
    {
        *error = file + ": no points";
        return false;
    }
    if (points.back().second != 1)
    {
        std::ostringstream what;
        what << file << ": the last probability is " << points.back().second << ", not 1";
        *error = what.str();
        return false;
    }

    m_path = file;
    m_packetPayload = packetPayload;
    m_interpolation = interpolation;
    m_points = points;
    double unit = interpolation == PACKETS ? packetPayload : 1;
    m_mean = points.front().second * unit * std::ceil(points.front().first / unit);
    for (std::size_t i = 1; i < points.size(); ++i)
    {
        double weight = points[i].second - points[i - 1].second;
        m_mean += weight * unit * MeanOfCeil(points[i - 1].first / unit, points[i].first / unit);
    }
    NS_LOG_INFO(file << ": " << points.size() << " points, mean " << m_mean << " B");
    return true;
}

std::string
PfabricFlowSizeDistribution::GetPath() const
{
    return m_path;
}

int64_t
PfabricFlowSizeDistribution::AssignStreams(int64_t stream)
{
    GetUniform()->SetStream(stream);
    return 1;
}

Ptr<UniformRandomVariable>
PfabricFlowSizeDistribution::GetUniform() const
{
    // Made at first use, not with the distribution: a program makes its workload before it
    // reads its command line, and ns-3 seeds a random variable as it is made (RngSeed 0, from
    // NS_GLOBAL_VALUE, aborted there before the program could refuse it as --seed's value).
    if (!m_uniform)
    {
        m_uniform = CreateObject<UniformRandomVariable>();
    }
    return m_uniform;
}

uint64_t
PfabricFlowSizeDistribution::Quantile(double u) const
{
    NS_ASSERT_MSG(!m_points.empty(), "PfabricFlowSizeDistribution: nothing loaded");
    auto it = std::lower_bound(
        m_points.begin(),
        m_points.end(),
        u,
        [](const std::pair<double, double>& point, double value) { return point.second < value; });
    if (it == m_points.end())
    {
        it = std::prev(m_points.end());
    }
    double size = it->first;
    if (it != m_points.begin() && it->second > std::prev(it)->second)
    {
        auto previous = std::prev(it);
        double fraction = (u - previous->second) / (it->second - previous->second);
        size = previous->first + fraction * (it->first - previous->first);
    }
    double unit = m_interpolation == PACKETS ? m_packetPayload : 1;
    return static_cast<uint64_t>(std::ceil(size / unit) * unit);
}

uint64_t
PfabricFlowSizeDistribution::Sample() const
{
    return Quantile(1 - GetUniform()->GetValue(0, 1));
}

double
PfabricFlowSizeDistribution::GetMean() const
{
    return m_mean;
}

const std::vector<std::pair<double, double>>&
PfabricFlowSizeDistribution::GetPoints() const
{
    return m_points;
}

} // namespace ns3
