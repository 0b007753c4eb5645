/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_PRIORITY_LEVELS_H
#define PFABRIC_PRIORITY_LEVELS_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief The rule that quantises a remaining-size priority into K levels for a switch with K
 * priority queues (PfabricLevelQueueDisc): equal load per level.
 *
 * A flow of size S sends one byte at every remaining size r in (0, S], so the bytes a workload
 * sends with remaining size at most x are, per flow, E[min(S, x)] = integral from 0 to x of
 * (1 - F(s)) ds, rising from 0 to the mean E[S]. The thresholds t1 < ... < t(K-1) are the sizes
 * with E[min(S, tk)] = k / K * E[S]: each level carries one K-th of the bytes. The same holds
 * for the bytes already sent (PfabricBytesSentPriority, least attained service), whose bytes
 * below x are the same E[min(S, x)].
 *
 * The CDF is read as PfabricFlowSizeDistribution's points with sizes linear in bytes between
 * points (a first point with probability p > 0 is a point mass), ignoring the rounding to whole
 * packets of its PACKETS sampling; thresholds are rounded to whole bytes, and raised by one byte
 * where rounding would repeat one (tiny CDFs only).
 */
class PfabricPriorityLevels
{
  public:
    /// A CDF: (size in bytes, cumulative probability), as PfabricFlowSizeDistribution::GetPoints
    using Cdf = std::vector<std::pair<double, double>>;

    /**
     * @brief The bytes a flow sends with remaining size at most x, on average.
     * @param cdf the flow-size CDF
     * @param x a size in bytes
     * @return E[min(S, x)] in bytes
     */
    static double BytesBelow(const Cdf& cdf, double x);

    /**
     * @brief The equal-load thresholds.
     * @param cdf the flow-size CDF
     * @param levels K, at least 1
     * @return K - 1 strictly increasing thresholds in bytes (none for K = 1)
     */
    static std::vector<uint64_t> EqualLoadThresholds(const Cdf& cdf, uint32_t levels);
};

} // namespace ns3

#endif /* PFABRIC_PRIORITY_LEVELS_H */
