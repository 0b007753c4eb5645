/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricPriorityPolicy and its policies: the rank of a flow that a data segment carries.

#include "pfabric-priority-policy.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/string.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricPriorityPolicy");

NS_OBJECT_ENSURE_REGISTERED(PfabricPriorityPolicy);
NS_OBJECT_ENSURE_REGISTERED(PfabricRemainingSizePriority);
NS_OBJECT_ENSURE_REGISTERED(PfabricFlowSizePriority);
NS_OBJECT_ENSURE_REGISTERED(PfabricBytesSentPriority);
NS_OBJECT_ENSURE_REGISTERED(PfabricDeadlinePriority);

TypeId
PfabricPriorityPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfabricPriorityPolicy")
            .SetParent<Object>()
            .SetGroupName("Pfabric")
            .AddAttribute("Thresholds",
                          "Quantise ranks into levels: strictly increasing non-negative "
                          "integers separated by commas, t1,...,t(K-1) making K levels; a rank "
                          "gets the number of thresholds below it. Empty: ranks unquantised.",
                          StringValue(""),
                          MakeStringAccessor(&PfabricPriorityPolicy::SetThresholdsText,
                                             &PfabricPriorityPolicy::GetThresholdsText),
                          MakeStringChecker());
    return tid;
}

PfabricPriorityPolicy::PfabricPriorityPolicy()
{
    NS_LOG_FUNCTION(this);
}

PfabricPriorityPolicy::~PfabricPriorityPolicy()
{
    NS_LOG_FUNCTION(this);
}

uint64_t
PfabricPriorityPolicy::GetRank(const PfabricFlowProgress& flow) const
{
    return Quantise(DoGetRank(flow));
}

uint64_t
PfabricPriorityPolicy::GetSegmentPriority(const PfabricFlowProgress& flow, uint64_t offset) const
{
    uint64_t rank = GetRank(flow);
    return rank > UINT64_MAX - offset ? UINT64_MAX : rank + offset;
}

uint64_t
PfabricPriorityPolicy::Quantise(uint64_t rank) const
{
    if (m_thresholds.empty())
    {
        return rank;
    }
    return std::lower_bound(m_thresholds.begin(), m_thresholds.end(), rank) - m_thresholds.begin();
}

void
PfabricPriorityPolicy::SetThresholds(const std::vector<uint64_t>& thresholds)
{
    NS_ABORT_MSG_UNLESS(std::adjacent_find(thresholds.begin(),
                                           thresholds.end(),
                                           std::greater_equal<uint64_t>()) == thresholds.end(),
                        "PfabricPriorityPolicy: thresholds must be strictly increasing");
    m_thresholds = thresholds;
}

const std::vector<uint64_t>&
PfabricPriorityPolicy::GetThresholds() const
{
    return m_thresholds;
}

std::string
PfabricPriorityPolicy::ParseThresholds(const std::string& text, std::vector<uint64_t>& thresholds)
{
    std::vector<uint64_t> parsed;
    std::istringstream fields(text);
    std::string field;
    while (!text.empty() && std::getline(fields, field, ','))
    {
        // Digits only: strtoull would skip blanks and stop at a NUL byte.
        errno = 0;
        unsigned long long value = std::strtoull(field.c_str(), nullptr, 10);
        if (field.empty() || field.find_first_not_of("0123456789") != std::string::npos ||
            errno == ERANGE)
        {
            return "'" + field + "' is not a non-negative integer";
        }
        if (!parsed.empty() && value <= parsed.back())
        {
            return "thresholds must be strictly increasing ('" + field + "')";
        }
        parsed.push_back(value);
    }
    if (!text.empty() && text.back() == ',')
    {
        return "'' is not a non-negative integer";
    }
    thresholds = parsed;
    return "";
}

void
PfabricPriorityPolicy::SetThresholdsText(std::string text)
{
    std::vector<uint64_t> thresholds;
    std::string error = ParseThresholds(text, thresholds);
    NS_ABORT_MSG_UNLESS(error.empty(),
                        "PfabricPriorityPolicy::Thresholds=" << text << ": " << error);
    m_thresholds = thresholds;
}

std::string
PfabricPriorityPolicy::FormatThresholds(const std::vector<uint64_t>& thresholds)
{
    std::ostringstream text;
    for (std::size_t i = 0; i < thresholds.size(); ++i)
    {
        text << (i > 0 ? "," : "") << thresholds[i];
    }
    return text.str();
}

std::string
PfabricPriorityPolicy::GetThresholdsText() const
{
    return FormatThresholds(m_thresholds);
}

TypeId
PfabricRemainingSizePriority::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfabricRemainingSizePriority")
                            .SetParent<PfabricPriorityPolicy>()
                            .SetGroupName("Pfabric")
                            .AddConstructor<PfabricRemainingSizePriority>();
    return tid;
}

uint64_t
PfabricRemainingSizePriority::DoGetRank(const PfabricFlowProgress& flow) const
{
    return flow.remaining;
}

TypeId
PfabricFlowSizePriority::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfabricFlowSizePriority")
                            .SetParent<PfabricPriorityPolicy>()
                            .SetGroupName("Pfabric")
                            .AddConstructor<PfabricFlowSizePriority>();
    return tid;
}

uint64_t
PfabricFlowSizePriority::DoGetRank(const PfabricFlowProgress& flow) const
{
    return flow.size;
}

TypeId
PfabricBytesSentPriority::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfabricBytesSentPriority")
                            .SetParent<PfabricPriorityPolicy>()
                            .SetGroupName("Pfabric")
                            .AddConstructor<PfabricBytesSentPriority>();
    return tid;
}

uint64_t
PfabricBytesSentPriority::DoGetRank(const PfabricFlowProgress& flow) const
{
    return flow.sent;
}

TypeId
PfabricDeadlinePriority::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfabricDeadlinePriority")
            .SetParent<PfabricPriorityPolicy>()
            .SetGroupName("Pfabric")
            .AddConstructor<PfabricDeadlinePriority>()
            .AddAttribute("Unit",
                          "The unit of the rank, the time left to the deadline rounded up to "
                          "whole units (and of Thresholds).",
                          TimeValue(NanoSeconds(1)),
                          MakeTimeAccessor(&PfabricDeadlinePriority::m_unit),
                          MakeTimeChecker(NanoSeconds(1)));
    return tid;
}

PfabricDeadlinePriority::PfabricDeadlinePriority()
    : m_unit(NanoSeconds(1))
{
}

uint64_t
PfabricDeadlinePriority::DoGetRank(const PfabricFlowProgress& flow) const
{
    if (flow.deadline == Time::Max())
    {
        return std::numeric_limits<uint64_t>::max();
    }
    if (flow.deadline <= flow.now)
    {
        return 0;
    }
    int64_t left = (flow.deadline - flow.now).GetTimeStep();
    int64_t unit = m_unit.GetTimeStep();
    return static_cast<uint64_t>(left / unit + (left % unit != 0 ? 1 : 0));
}

} // namespace ns3
