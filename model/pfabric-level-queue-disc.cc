/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricLevelQueueDisc: a few strict-priority FIFO queues sharing one drop-tail buffer (finite
// priority levels).

#include "pfabric-level-queue-disc.h"

#include "pfabric-priority-tag.h"

#include "ns3/drop-tail-queue.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/queue-size.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricLevelQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(PfabricLevelQueueDisc);

TypeId
PfabricLevelQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfabricLevelQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("Pfabric")
            .AddConstructor<PfabricLevelQueueDisc>()
            .AddAttribute(
                "MaxSize",
                "The port's buffer, shared by every level, in packets (\"15p\") or "
                "bytes (\"22500B\", IP packets with headers). The default is "
                "PfabricQueueDisc's, HotNets 2012's 22.5 KB.",
                QueueSizeValue(QueueSize("22500B")),
                MakeQueueSizeAccessor(&PfabricLevelQueueDisc::SetBufferSize,
                                      static_cast<QueueSize (PfabricLevelQueueDisc::*)() const>(
                                          &QueueDisc::GetMaxSize)),
                MakeQueueSizeChecker())
            .AddAttribute("Levels",
                          "The number of strict-priority FIFO queues (1 to 64); 1 is a FIFO "
                          "drop-tail port.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&PfabricLevelQueueDisc::m_levels),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("PriorityOffset",
                          "The senders' PfabricMinTcpSocket::PriorityOffset: data of level "
                          "k carries PriorityOffset + k. Default 10, the socket's.",
                          UintegerValue(10),
                          MakeUintegerAccessor(&PfabricLevelQueueDisc::m_priorityOffset),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

PfabricLevelQueueDisc::PfabricLevelQueueDisc()
    // No unit fixed: ns-3 ignores a size in another unit than a fixed one, and a buffer in
    // packets (a custom scheme's 150p) left 0 bytes, every packet dropped.
    : QueueDisc(QueueDiscSizePolicy::MULTIPLE_QUEUES),
      m_levels(8),
      m_priorityOffset(10)
{
    NS_LOG_FUNCTION(this);
}

PfabricLevelQueueDisc::~PfabricLevelQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
PfabricLevelQueueDisc::GetLevel(uint64_t priority) const
{
    if (priority <= m_priorityOffset)
    {
        return 0;
    }
    return static_cast<uint32_t>(std::min<uint64_t>(priority - m_priorityOffset, m_levels - 1));
}

void
PfabricLevelQueueDisc::SetBufferSize(QueueSize size)
{
    NS_LOG_FUNCTION(this << size);
    NS_ABORT_MSG_IF(size.GetValue() == 0,
                    "PfabricLevelQueueDisc: MaxSize must hold at least one packet or byte, got "
                        << size);
    QueueDisc::SetMaxSize(size);
}

bool
PfabricLevelQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    const QueueSize maxSize = GetMaxSize();
    const bool fits = maxSize.GetUnit() == QueueSizeUnit::PACKETS
                          ? GetNPackets() + 1 <= maxSize.GetValue()
                          : GetNBytes() + item->GetSize() <= maxSize.GetValue();
    if (!fits)
    {
        NS_LOG_LOGIC("Shared buffer full, dropping the arrival");
        DropBeforeEnqueue(item, LIMIT_EXCEEDED_DROP);
        return false;
    }
    // Untagged packets (none from this module's sockets) go with ACKs, to the first queue.
    uint64_t priority = PfabricPriorityTag::Get(item->GetPacket(), 0);
    uint32_t level = GetLevel(priority);
    NS_LOG_LOGIC("Priority " << priority << " to queue " << level);
    return GetInternalQueue(level)->Enqueue(item);
}

Ptr<QueueDiscItem>
PfabricLevelQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    for (std::size_t i = 0; i < GetNInternalQueues(); ++i)
    {
        if (Ptr<QueueDiscItem> item = GetInternalQueue(i)->Dequeue())
        {
            NS_LOG_LOGIC("Sending from queue " << i);
            return item;
        }
    }
    return nullptr;
}

Ptr<const QueueDiscItem>
PfabricLevelQueueDisc::DoPeek()
{
    NS_LOG_FUNCTION(this);
    for (std::size_t i = 0; i < GetNInternalQueues(); ++i)
    {
        if (Ptr<const QueueDiscItem> item = GetInternalQueue(i)->Peek())
        {
            return item;
        }
    }
    return nullptr;
}

bool
PfabricLevelQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    if (GetNQueueDiscClasses() > 0 || GetNPacketFilters() > 0)
    {
        NS_LOG_ERROR("PfabricLevelQueueDisc has neither classes nor packet filters");
        return false;
    }
    if (GetNInternalQueues() == 0)
    {
        // The one limit is the port's, checked on enqueue over every queue; the queues
        // themselves never refuse.
        ObjectFactory factory;
        factory.SetTypeId("ns3::DropTailQueue<QueueDiscItem>");
        factory.Set("MaxSize",
                    QueueSizeValue(
                        QueueSize(GetMaxSize().GetUnit(), std::numeric_limits<uint32_t>::max())));
        for (uint32_t i = 0; i < m_levels; ++i)
        {
            AddInternalQueue(factory.Create<InternalQueue>());
        }
    }
    if (GetNInternalQueues() != m_levels)
    {
        NS_LOG_ERROR("PfabricLevelQueueDisc needs Levels internal queues");
        return false;
    }
    return true;
}

void
PfabricLevelQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
}

} // namespace ns3
