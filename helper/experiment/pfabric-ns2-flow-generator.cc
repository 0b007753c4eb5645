/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The original pFabric ns-2 scripts' workload (--arrivals=ns2): ns-2's RNG as the scripts seed it
// (PfabricNs2Rng) and their per-host-pair arrival and size processes (PfabricNs2FlowGenerator).

#include "pfabric-ns2-flow-generator.h"

#include "pfabric-command-line.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/pfabric-flow-size-distribution.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricNs2FlowGenerator");

namespace
{

// MRG32k3a's constants (L'Ecuyer, "Good parameters and implementations for combined multiple
// recursive random number generators", Operations Research 47(1), 1999; as in ns-2.34
// tools/rng.cc).
constexpr double M1 = 4294967087.0;     //!< modulus of the first recurrence
constexpr double M2 = 4294944443.0;     //!< modulus of the second recurrence
constexpr double NORM = 1.0 / (M1 + 1); //!< scales the combination into (0, 1)
constexpr double A12 = 1403580.0;       //!< first recurrence, x_{n-2} coefficient
constexpr double A13N = 810728.0;       //!< first recurrence, -x_{n-3} coefficient
constexpr double A21 = 527612.0;        //!< second recurrence, x_{n-1} coefficient
constexpr double A23N = 1370589.0;      //!< second recurrence, -x_{n-3} coefficient

/**
 * @brief One step of a recurrence: (a * newer - b * oldest) mod m, as ns-2 computes it (the
 * products are exact in a double; the quotient truncated toward zero, then made non-negative).
 */
double
Step(double a, double newer, double b, double oldest, double m)
{
    double p = a * newer - b * oldest;
    const auto k = static_cast<long long>(p / m);
    p -= static_cast<double>(k) * m;
    return p < 0 ? p + m : p;
}

} // namespace

PfabricNs2Rng::PfabricNs2Rng(uint64_t seed)
{
    NS_ABORT_MSG_IF(seed == 0 || seed > MAX_SEED,
                    "PfabricNs2Rng: seed " << seed << " outside [1, " << MAX_SEED << "]");
    std::fill(m_state, m_state + 6, static_cast<double>(seed));
}

double
PfabricNs2Rng::Uniform()
{
    const double p1 = Step(A12, m_state[1], A13N, m_state[0], M1);
    m_state[0] = m_state[1];
    m_state[1] = m_state[2];
    m_state[2] = p1;
    const double p2 = Step(A21, m_state[5], A23N, m_state[3], M2);
    m_state[3] = m_state[4];
    m_state[4] = m_state[5];
    m_state[5] = p2;
    return (p1 > p2 ? p1 - p2 : p1 - p2 + M1) * NORM;
}

double
PfabricNs2Rng::Exponential(double mean)
{
    return mean * -std::log(Uniform());
}

PfabricNs2FlowGenerator::PfabricNs2FlowGenerator(const PfabricFlowSizeDistribution& sizes,
                                                 uint32_t hosts,
                                                 DataRate hostRate,
                                                 double load,
                                                 uint32_t packetPayload,
                                                 uint32_t packetBytes,
                                                 double meanBytes)
    : m_sizes(&sizes),
      m_packetPayload(packetPayload),
      m_drawn(0),
      m_lastArrival(0)
{
    NS_LOG_FUNCTION(hosts << hostRate << load << meanBytes);
    NS_ABORT_MSG_IF(hosts < 2, "PfabricNs2FlowGenerator: at least 2 hosts");
    NS_ABORT_MSG_IF(load <= 0 || load >= 1, "PfabricNs2FlowGenerator: load must be in (0, 1)");
    NS_ABORT_MSG_IF(!(meanBytes > 0), "PfabricNs2FlowGenerator: the mean must be positive");
    NS_ABORT_MSG_IF(SizeSeed(hosts - 1, hosts - 1) > PfabricNs2Rng::MAX_SEED,
                    "PfabricNs2FlowGenerator: " << hosts << " hosts give seeds above ns-2's");
    for (const auto& [bytes, probability] : sizes.GetPoints())
    {
        m_cdf.emplace_back(bytes / packetPayload, probability);
    }
    // empirical_search_pfabric.tcl line 230, in its order of operations:
    // lambda = (link_rate * load * 1e9) / (meanFlowSize * 8.0 / 1460 * 1500), link_rate in Gb/s;
    // each pair: lambda / (S - 1) (line 251), avg_ = 1.0 / that (tcp-common-opt.tcl line 492).
    const double gbps = static_cast<double>(hostRate.GetBitRate()) / 1e9;
    const double lambda =
        (gbps * load * 1000000000) / (meanBytes * 8.0 / packetPayload * packetBytes);
    m_gapMean = 1.0 / (lambda / (hosts - 1));

    // The pairs in the scripts' order (destination j outer, source i inner), each with its
    // first gap drawn at init_schedule (1 s).
    m_pairs.reserve(std::size_t(hosts) * (hosts - 1));
    for (uint32_t j = 0; j < hosts; ++j)
    {
        for (uint32_t i = 0; i < hosts; ++i)
        {
            if (i == j)
            {
                continue;
            }
            Pair pair{i, j, PfabricNs2Rng(ArrivalSeed(i, j)), PfabricNs2Rng(SizeSeed(i, j)), 0};
            pair.next = ORIGIN_S + TclValue(pair.arrivals.Exponential(m_gapMean));
            m_queue.emplace(pair.next, static_cast<uint32_t>(m_pairs.size()));
            m_pairs.push_back(pair);
        }
    }
}

double
PfabricNs2FlowGenerator::OriginalMeanBytes(const std::string& cdf, uint32_t packetPayload)
{
    if (cdf == "websearch")
    {
        return 1138.0 * packetPayload;
    }
    if (cdf == "datamining")
    {
        return 5117.0 * packetPayload;
    }
    return 0;
}

uint64_t
PfabricNs2FlowGenerator::ArrivalSeed(uint32_t src, uint32_t dst)
{
    return 17 * uint64_t(src) + 1244 * uint64_t(dst);
}

uint64_t
PfabricNs2FlowGenerator::SizeSeed(uint32_t src, uint32_t dst)
{
    return 33 * uint64_t(src) + 4369 * uint64_t(dst);
}

double
PfabricNs2FlowGenerator::TclValue(double value)
{
    // ns-2 tools/ranvar.cc, RandomVariable::command "value": tcl.resultf("%6e", value()).
    char text[64];
    std::snprintf(text, sizeof(text), "%6e", value);
    return std::strtod(text, nullptr);
}

double
PfabricNs2FlowGenerator::GetPairMeanGap() const
{
    return m_gapMean;
}

double
PfabricNs2FlowGenerator::DrawPackets(PfabricNs2Rng& rng) const
{
    // ns-2 tools/ranvar.cc, EmpiricalRandomVariable::value, lookup and interpolate
    // (minCDF_ 0, maxCDF_ 1: u = 0 + 1 * U01).
    const double u = rng.Uniform();
    std::size_t mid = 0;
    if (u > m_cdf.front().second)
    {
        std::size_t lo = 1;
        std::size_t hi = m_cdf.size() - 1;
        while (lo < hi)
        {
            const std::size_t middle = (lo + hi) / 2;
            if (u > m_cdf[middle].second)
            {
                lo = middle + 1;
            }
            else
            {
                hi = middle;
            }
        }
        mid = lo;
    }
    if (mid != 0 && u < m_cdf[mid].second)
    {
        const auto& [y1, x1] = m_cdf[mid - 1];
        const auto& [y2, x2] = m_cdf[mid];
        return std::ceil(y1 + (u - x1) * (y2 - y1) / (x2 - x1)); // INTER_INTEGRAL: round up
    }
    return m_cdf[mid].first;
}

PfabricFlow
PfabricNs2FlowGenerator::Next()
{
    const auto [start, index] = m_queue.top();
    m_queue.pop();
    Pair& pair = m_pairs[index];
    // Agent_Aggr_pair::schedule (tcp-common-opt.tcl lines 636-641): the flow's size, rounded
    // up to packets of 1460 B, then the pair's next gap.
    const double packets = std::ceil(TclValue(DrawPackets(pair.sizes)));
    const auto bytes = static_cast<uint64_t>(packets) * m_packetPayload;
    pair.next = start + TclValue(pair.arrivals.Exponential(m_gapMean));
    m_queue.emplace(pair.next, index);
    m_lastArrival = start;
    // As PfabricFlowGenerator: no later than ns-3's last time.
    const double most = PfabricCommandLine::MAX_TIME_NS / 1e9;
    const double seconds = std::min(start - ORIGIN_S, most);
    return {m_drawn++,
            pair.src,
            pair.dst,
            bytes,
            NanoSeconds(static_cast<int64_t>(std::llround(seconds * 1e9)))};
}

double
PfabricNs2FlowGenerator::GetLastArrival() const
{
    return m_lastArrival;
}

uint32_t
PfabricNs2FlowGenerator::GetDrawn() const
{
    return m_drawn;
}

double
PfabricNs2FlowGenerator::GetMeanBytes() const
{
    return m_sizes->GetMean();
}

} // namespace ns3
