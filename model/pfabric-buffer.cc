/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricBuffer: PfabricQueueDisc's internal queue, in arrival order, removable anywhere.

#include "pfabric-buffer.h"

#include "ns3/log.h"

#include <iterator>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricBuffer");

NS_OBJECT_ENSURE_REGISTERED(PfabricBuffer);

TypeId
PfabricBuffer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfabricBuffer")
                            .SetParent<Queue<QueueDiscItem>>()
                            .SetGroupName("Pfabric")
                            .AddConstructor<PfabricBuffer>();
    return tid;
}

PfabricBuffer::PfabricBuffer()
    : NS_LOG_TEMPLATE_DEFINE("PfabricBuffer")
{
    NS_LOG_FUNCTION(this);
}

PfabricBuffer::~PfabricBuffer()
{
    NS_LOG_FUNCTION(this);
}

bool
PfabricBuffer::Enqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    return DoEnqueue(End(*this, 0), item);
}

Ptr<QueueDiscItem>
PfabricBuffer::Dequeue()
{
    NS_LOG_FUNCTION(this);
    return DoDequeue(First(*this, 0));
}

Ptr<QueueDiscItem>
PfabricBuffer::Remove()
{
    NS_LOG_FUNCTION(this);
    return DoRemove(First(*this, 0));
}

Ptr<const QueueDiscItem>
PfabricBuffer::Peek() const
{
    NS_LOG_FUNCTION(this);
    return DoPeek(First(*this, 0));
}

PfabricBuffer::Position
PfabricBuffer::Latest() const
{
    NS_ASSERT_MSG(!IsEmpty(), "PfabricBuffer: no latest packet in an empty buffer");
    return std::prev(End(*this, 0));
}

Ptr<QueueDiscItem>
PfabricBuffer::DequeueAt(Position position)
{
    NS_LOG_FUNCTION(this << *position);
    return DoDequeue(position);
}

} // namespace ns3
