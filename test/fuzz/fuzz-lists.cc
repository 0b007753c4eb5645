/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Fuzz target: the comma-separated lists of the attributes and options. Each line of the input
// is one list, given to each parser: the priority thresholds (PfabricPriorityPolicy::Thresholds,
// ParseThresholds), the class weights (PfabricClassQueueDisc::Weights and --classWeights,
// ParseWeights) and the class loads (--classLoads, PfabricClassFeature::ParseClassLoads).

#include "fuzz-common.h"

#include "ns3/pfabric-class-feature.h"
#include "ns3/pfabric-class-queue-disc.h"
#include "ns3/pfabric-experiment.h"
#include "ns3/pfabric-priority-policy.h"

#include <cmath>
#include <regex>
#include <sstream>

using namespace ns3;
using pfabric_fuzz::Require;

namespace
{

void
Thresholds(const std::string& text)
{
    std::vector<uint64_t> thresholds{7}; // left alone on a refusal
    std::string error = PfabricPriorityPolicy::ParseThresholds(text, thresholds);
    if (!error.empty())
    {
        pfabric_fuzz::RequireErrorLine(error, "");
        Require(thresholds == std::vector<uint64_t>{7}, "thresholds: changed by a refusal");
        return;
    }
    static const std::regex integers("([0-9]+(,[0-9]+)*)?");
    Require(std::regex_match(text, integers), "thresholds: accepted '" + text + "'");
    for (std::size_t i = 1; i < thresholds.size(); ++i)
    {
        Require(thresholds[i] > thresholds[i - 1], "thresholds: accepted, not increasing");
    }
    // What FormatThresholds writes (meta.json, the Thresholds attribute) reads back the same.
    std::vector<uint64_t> again;
    Require(
        PfabricPriorityPolicy::ParseThresholds(PfabricPriorityPolicy::FormatThresholds(thresholds),
                                               again)
            .empty(),
        "thresholds: the formatted list is refused");
    Require(again == thresholds, "thresholds: the formatted list reads back different");
}

void
Weights(const std::string& text)
{
    std::vector<uint32_t> weights;
    std::string error = PfabricClassQueueDisc::ParseWeights(text, &weights);
    if (!error.empty())
    {
        pfabric_fuzz::RequireErrorLine(error, "weights ");
        return;
    }
    static const std::regex integers("[0-9]+(,[0-9]+)*");
    Require(std::regex_match(text, integers), "weights: accepted '" + text + "'");
    Require(!weights.empty(), "weights: accepted, none");
    for (uint32_t weight : weights)
    {
        Require(weight > 0, "weights: accepted a weight of 0");
    }
}

void
ClassLoads(const std::string& text)
{
    std::vector<double> loads;
    std::string error = PfabricClassFeature::ParseClassLoads(text, &loads);
    if (!error.empty())
    {
        pfabric_fuzz::RequireErrorLine(error, "--classLoads=");
        return;
    }
    static const std::regex decimals("[0-9]*\\.?[0-9]*,[0-9]*\\.?[0-9]*");
    Require(std::regex_match(text, decimals), "class loads: accepted '" + text + "'");
    Require(loads.size() == 2, "class loads: accepted, not two");
    Require(std::isfinite(loads[0] + loads[1]) && loads[0] > 0 && loads[1] > 0 &&
                loads[0] + loads[1] < 1,
            "class loads: accepted, outside (0, 1)");
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
    for (std::string line; std::getline(lines, line);)
    {
        Thresholds(line);
        Weights(line);
        ClassLoads(line);
    }
    return 0;
}
