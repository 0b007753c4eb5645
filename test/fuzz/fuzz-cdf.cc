/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Fuzz target: the flow-size CDF reader (PfabricFlowSizeDistribution::Load, --cdf=FILE) and what
// is computed from a CDF it accepts: the sampled sizes (Quantile), their mean, and the equal-load
// priority thresholds (PfabricPriorityLevels, --priorityLevels).

#include "fuzz-common.h"

#include "ns3/pfabric-atomic-file.h"
#include "ns3/pfabric-flow-size-distribution.h"
#include "ns3/pfabric-priority-levels.h"

#include <cmath>
#include <sstream>

using namespace ns3;
using pfabric_fuzz::Require;

namespace
{

/// The segment payload of both presets.
constexpr uint32_t PAYLOAD = 1460;

void
CheckAccepted(const PfabricFlowSizeDistribution& sizes,
              PfabricFlowSizeDistribution::Interpolation interpolation)
{
    const auto& points = sizes.GetPoints();
    Require(!points.empty() && points.back().second == 1, "accepted: the last probability not 1");
    for (std::size_t i = 0; i < points.size(); ++i)
    {
        Require(points[i].first > 0 && std::isfinite(points[i].first), "accepted: a bad size");
        Require(points[i].second >= 0 && points[i].second <= 1, "accepted: a bad probability");
        Require(i == 0 || (points[i].first >= points[i - 1].first &&
                           points[i].second >= points[i - 1].second),
                "accepted: a falling point");
    }
    const double mean = sizes.GetMean();
    Require(std::isfinite(mean) && mean > 0, "accepted: the mean is not a positive number");
    uint64_t previous = 0;
    for (double u : {1e-12, 1e-6, 0.01, 0.25, 0.5, 0.75, 0.99, 1 - 1e-12, 1.0})
    {
        const uint64_t size = sizes.Quantile(u);
        Require(size > 0, "accepted: a sampled size of 0");
        Require(size >= previous, "accepted: sizes fall as the probability rises");
        Require(interpolation == PfabricFlowSizeDistribution::BYTES || size % PAYLOAD == 0,
                "accepted: a size not in whole packets");
        previous = size;
    }
    // The mean lies between the smallest and the largest size drawn (small relative slack for
    // the rounding of a sum).
    Require(mean >= 0.999999 * static_cast<double>(sizes.Quantile(1e-300)) &&
                mean <= 1.000001 * static_cast<double>(sizes.Quantile(1)),
            "accepted: the mean outside the sizes drawn");
}

/// The equal-load thresholds of the CDF (its points whatever the interpolation), for one level,
/// two and the most --priorityLevels takes.
void
CheckThresholds(const PfabricPriorityLevels::Cdf& points)
{
    for (uint32_t levels : {1u, 2u, 64u})
    {
        auto thresholds = PfabricPriorityLevels::EqualLoadThresholds(points, levels);
        Require(thresholds.size() == levels - 1, "thresholds: not K - 1 of them");
        for (std::size_t i = 1; i < thresholds.size(); ++i)
        {
            Require(thresholds[i] > thresholds[i - 1], "thresholds: not strictly increasing");
        }
    }
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = pfabric_fuzz::WriteInput("flows.cdf", data, size);
    for (auto interpolation :
         {PfabricFlowSizeDistribution::PACKETS, PfabricFlowSizeDistribution::BYTES})
    {
        PfabricFlowSizeDistribution sizes;
        std::string error;
        if (!sizes.Load(path, PAYLOAD, interpolation, &error))
        {
            pfabric_fuzz::RequireErrorLine(error, path + ":");
            return 0;
        }
        CheckAccepted(sizes, interpolation);
        // Outside its comments, an accepted CDF is decimal numbers and blanks (no NUL byte,
        // where strtod stops; no hexadecimal, inf or nan), after the UTF-8 byte order mark an
        // editor may put first (the reader skips it: pfabric::SkipByteOrderMark).
        std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
        pfabric::SkipByteOrderMark(lines);
        for (std::string line; std::getline(lines, line);)
        {
            Require(line.substr(0, line.find('#')).find_first_not_of("0123456789.eE+- \t\r\v\f") ==
                        std::string::npos,
                    "accepted a CDF line that is not decimal numbers: " + line);
        }
        if (interpolation == PfabricFlowSizeDistribution::BYTES)
        {
            CheckThresholds(sizes.GetPoints());
        }
    }
    return 0;
}
