/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricPriorityTag: the pFabric priority of a packet.

#include "pfabric-priority-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfabricPriorityTag);

TypeId
PfabricPriorityTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfabricPriorityTag")
                            .SetParent<Tag>()
                            .SetGroupName("Pfabric")
                            .AddConstructor<PfabricPriorityTag>();
    return tid;
}

TypeId
PfabricPriorityTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

PfabricPriorityTag::PfabricPriorityTag()
    : m_priority(0)
{
}

PfabricPriorityTag::PfabricPriorityTag(uint64_t priority)
    : m_priority(priority)
{
}

void
PfabricPriorityTag::SetPriority(uint64_t priority)
{
    m_priority = priority;
}

uint64_t
PfabricPriorityTag::GetPriority() const
{
    return m_priority;
}

void
PfabricPriorityTag::Set(Ptr<Packet> packet, uint64_t priority)
{
    PfabricPriorityTag tag(priority);
    packet->ReplacePacketTag(tag); // adds the tag when the packet has none
}

uint64_t
PfabricPriorityTag::Get(Ptr<const Packet> packet, uint64_t untagged)
{
    PfabricPriorityTag tag;
    return packet->PeekPacketTag(tag) ? tag.GetPriority() : untagged;
}

uint32_t
PfabricPriorityTag::GetSerializedSize() const
{
    return sizeof(m_priority);
}

void
PfabricPriorityTag::Serialize(TagBuffer buffer) const
{
    buffer.WriteU64(m_priority);
}

void
PfabricPriorityTag::Deserialize(TagBuffer buffer)
{
    m_priority = buffer.ReadU64();
}

void
PfabricPriorityTag::Print(std::ostream& os) const
{
    os << "pFabric priority=" << m_priority;
}

} // namespace ns3
