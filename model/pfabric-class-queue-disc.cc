/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricClassQueueDisc: pFabric within traffic classes, a policy between classes.

#include "pfabric-class-queue-disc.h"

#include "pfabric-class-tag.h"
#include "pfabric-compat.h"
#include "pfabric-queue-disc.h"

#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricClassQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(PfabricClassQueueDisc);

TypeId
PfabricClassQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfabricClassQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("Pfabric")
            .AddConstructor<PfabricClassQueueDisc>()
            .AddAttribute("Classes",
                          "The number of traffic classes (1 to 16), each with a pFabric queue "
                          "disc and buffer of its own; a packet's class is its PfabricClassTag.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&PfabricClassQueueDisc::m_classes),
                          MakeUintegerChecker<uint32_t>(1, 16))
            .AddAttribute(
                "Scheduler",
                "The policy between classes: Strict (the lowest-numbered class with packets "
                "sends; class 0 starves the others while backlogged) or Drr (deficit round "
                "robin: backlogged classes share the port's bytes in proportion to Weights).",
                EnumValue(DRR),
                pfabric::MakeEnumAccessorCompat<Scheduler>(&PfabricClassQueueDisc::m_scheduler),
                MakeEnumChecker(STRICT, "Strict", DRR, "Drr"))
            .AddAttribute("Weights",
                          "Drr: each class's weight, positive integers separated by commas, "
                          "one per class (\"3,1\"); empty: every class weighs 1.",
                          StringValue(""),
                          MakeStringAccessor(&PfabricClassQueueDisc::m_weightsText),
                          MakeStringChecker())
            .AddAttribute("Quantum",
                          "Drr: the credit a class gains per unit of weight on each visit of "
                          "the round, bytes. The default, a full 1500-byte IP packet, lets "
                          "every backlogged class send at least one packet per visit.",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&PfabricClassQueueDisc::m_quantum),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("UntaggedClass",
                          "The class of packets without a PfabricClassTag (handshakes of "
                          "connections not yet told their class). Default 0.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PfabricClassQueueDisc::m_untaggedClass),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

PfabricClassQueueDisc::PfabricClassQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::NO_LIMITS),
      m_classes(2),
      m_scheduler(DRR),
      m_quantum(1500),
      m_untaggedClass(0)
{
    NS_LOG_FUNCTION(this);
}

PfabricClassQueueDisc::~PfabricClassQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

std::vector<std::pair<std::string, std::string>>
PfabricClassQueueDisc::GetAttributesItsModeIgnores() const
{
    if (m_scheduler != STRICT)
    {
        return {};
    }
    return {{"Weights", "Scheduler=Strict"}, {"Quantum", "Scheduler=Strict"}};
}

std::string
PfabricClassQueueDisc::ParseWeights(const std::string& text, std::vector<uint32_t>* weights)
{
    weights->clear();
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        if (item.empty() || item.size() > 6 ||
            item.find_first_not_of("0123456789") != std::string::npos || std::stoul(item) == 0)
        {
            return "weights \"" + text + "\": expected positive integers separated by commas";
        }
        weights->push_back(static_cast<uint32_t>(std::stoul(item)));
    }
    if (weights->empty() || text.back() == ',')
    {
        return "weights \"" + text + "\": expected positive integers separated by commas";
    }
    return "";
}

std::vector<uint32_t>
PfabricClassQueueDisc::GetWeights() const
{
    if (!m_weights.empty())
    {
        return m_weights;
    }
    std::vector<uint32_t> weights(m_classes, 1);
    if (!m_weightsText.empty())
    {
        ParseWeights(m_weightsText, &weights);
    }
    return weights;
}

uint32_t
PfabricClassQueueDisc::GetClass(Ptr<const QueueDiscItem> item) const
{
    uint32_t trafficClass = PfabricClassTag::Get(item->GetPacket(), m_untaggedClass);
    return std::min(trafficClass, m_classes - 1);
}

Ptr<QueueDisc>
PfabricClassQueueDisc::Child(uint32_t index) const
{
    return GetQueueDiscClass(index)->GetQueueDisc();
}

bool
PfabricClassQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    const uint32_t trafficClass = GetClass(item);
    NS_LOG_LOGIC("Class " << trafficClass);
    // The child admits or drops by pFabric's rule within the class; a drop there reaches this
    // queue disc's statistics through the base class's child accounting.
    const bool accepted = Child(trafficClass)->Enqueue(item);
    if (m_scheduler == DRR && !m_isActive[trafficClass] && Child(trafficClass)->GetNPackets() > 0)
    {
        m_active.push_back(trafficClass);
        m_isActive[trafficClass] = true;
        m_deficit[trafficClass] = int64_t{m_quantum} * m_weights[trafficClass];
    }
    return accepted;
}

uint32_t
PfabricClassQueueDisc::SelectClass(std::deque<uint32_t>& active,
                                   std::vector<int64_t>& deficit) const
{
    if (m_scheduler == STRICT)
    {
        for (uint32_t i = 0; i < m_classes; ++i)
        {
            if (Child(i)->GetNPackets() > 0)
            {
                return i;
            }
        }
        return m_classes;
    }
    // Every visit adds at least m_quantum bytes, so the loop ends within a few rounds.
    while (!active.empty())
    {
        const uint32_t head = active.front();
        Ptr<const QueueDiscItem> next = Child(head)->Peek();
        NS_ASSERT_MSG(next, "PfabricClassQueueDisc: an active class has no packet");
        if (int64_t{next->GetSize()} <= deficit[head])
        {
            return head;
        }
        deficit[head] += int64_t{m_quantum} * m_weights[head];
        active.pop_front();
        active.push_back(head);
    }
    return m_classes;
}

Ptr<QueueDiscItem>
PfabricClassQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    const uint32_t trafficClass = SelectClass(m_active, m_deficit);
    if (trafficClass == m_classes)
    {
        return nullptr;
    }
    Ptr<QueueDiscItem> item = Child(trafficClass)->Dequeue();
    NS_LOG_LOGIC("Sending from class " << trafficClass);
    if (m_scheduler == DRR)
    {
        m_deficit[trafficClass] -= item->GetSize();
        if (Child(trafficClass)->GetNPackets() == 0)
        {
            // A class that empties leaves the round and keeps no credit (DRR's rule: credit
            // is not saved up while idle).
            m_active.pop_front();
            m_isActive[trafficClass] = false;
            m_deficit[trafficClass] = 0;
        }
    }
    return item;
}

Ptr<const QueueDiscItem>
PfabricClassQueueDisc::DoPeek()
{
    NS_LOG_FUNCTION(this);
    std::deque<uint32_t> active = m_active;
    std::vector<int64_t> deficit = m_deficit;
    const uint32_t trafficClass = SelectClass(active, deficit);
    return trafficClass == m_classes ? nullptr : Child(trafficClass)->Peek();
}

bool
PfabricClassQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    if (GetNPacketFilters() > 0 || GetNInternalQueues() > 0)
    {
        NS_LOG_ERROR("PfabricClassQueueDisc has neither packet filters nor internal queues");
        return false;
    }
    m_weights.assign(m_classes, 1);
    if (!m_weightsText.empty())
    {
        std::string error = ParseWeights(m_weightsText, &m_weights);
        if (!error.empty() || m_weights.size() != m_classes)
        {
            NS_LOG_ERROR("PfabricClassQueueDisc: Weights must give one positive integer per "
                         "class, got \""
                         << m_weightsText << "\" for " << m_classes << " classes");
            return false;
        }
    }
    if (m_untaggedClass >= m_classes)
    {
        NS_LOG_ERROR("PfabricClassQueueDisc: UntaggedClass must name a class");
        return false;
    }
    if (GetNQueueDiscClasses() == 0)
    {
        for (uint32_t i = 0; i < m_classes; ++i)
        {
            auto qdClass = CreateObject<QueueDiscClass>();
            qdClass->SetQueueDisc(CreateObject<PfabricQueueDisc>());
            AddQueueDiscClass(qdClass);
        }
    }
    if (GetNQueueDiscClasses() != m_classes)
    {
        NS_LOG_ERROR("PfabricClassQueueDisc needs one child queue disc per class");
        return false;
    }
    return true;
}

void
PfabricClassQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    m_active.clear();
    m_isActive.assign(m_classes, false);
    m_deficit.assign(m_classes, 0);
}

} // namespace ns3
