/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricPriorityLevels: the thresholds that quantise a remaining-size priority into K levels of
// equal load.

#include "pfabric-priority-levels.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/pfabric-priority-policy.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricPriorityLevels");

double
PfabricPriorityLevels::BytesBelow(const Cdf& cdf, double x)
{
    NS_ABORT_MSG_IF(cdf.empty(), "PfabricPriorityLevels: empty CDF");
    // Up to the first point every flow is still sending: 1 - F = 1.
    double bytes = std::min(x, cdf.front().first);
    for (std::size_t i = 1; i < cdf.size(); ++i)
    {
        const double a = cdf[i - 1].first;
        const double b = cdf[i].first;
        if (x <= a || b <= a)
        {
            continue;
        }
        const double pa = cdf[i - 1].second;
        const double pb = cdf[i].second;
        const double y = std::min(x, b) - a;
        // Integral over (a, a + y] of 1 - F, F linear from pa at a to pb at b.
        bytes += y * (1 - pa) - (pb - pa) * y * y / (2 * (b - a));
    }
    return bytes;
}

std::vector<uint64_t>
PfabricPriorityLevels::EqualLoadThresholds(const Cdf& cdf, uint32_t levels)
{
    NS_ABORT_MSG_IF(levels == 0, "PfabricPriorityLevels: levels must be at least 1");
    const double largest = cdf.back().first;
    const double mean = BytesBelow(cdf, largest);
    std::vector<uint64_t> thresholds;
    for (uint32_t k = 1; k < levels; ++k)
    {
        const double target = mean * k / levels;
        double low = 0;
        double high = largest;
        for (int i = 0; i < 200 && high - low > 1e-6; ++i)
        {
            const double mid = (low + high) / 2;
            (BytesBelow(cdf, mid) < target ? low : high) = mid;
        }
        uint64_t threshold = static_cast<uint64_t>(std::llround(high));
        if (!thresholds.empty() && threshold <= thresholds.back())
        {
            threshold = thresholds.back() + 1;
        }
        thresholds.push_back(threshold);
    }
    NS_LOG_INFO(levels << " levels: " << PfabricPriorityPolicy::FormatThresholds(thresholds));
    return thresholds;
}

} // namespace ns3
