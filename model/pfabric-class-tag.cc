/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricClassTag: the traffic class of a packet.

#include "pfabric-class-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfabricClassTag);

TypeId
PfabricClassTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfabricClassTag")
                            .SetParent<Tag>()
                            .SetGroupName("Pfabric")
                            .AddConstructor<PfabricClassTag>();
    return tid;
}

TypeId
PfabricClassTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

PfabricClassTag::PfabricClassTag()
    : m_class(0)
{
}

PfabricClassTag::PfabricClassTag(uint8_t trafficClass)
    : m_class(trafficClass)
{
}

uint8_t
PfabricClassTag::GetClass() const
{
    return m_class;
}

void
PfabricClassTag::Set(Ptr<Packet> packet, uint8_t trafficClass)
{
    PfabricClassTag tag(trafficClass);
    packet->ReplacePacketTag(tag); // adds the tag when the packet has none
}

uint32_t
PfabricClassTag::Get(Ptr<const Packet> packet, uint32_t untagged)
{
    std::optional<uint8_t> trafficClass = Find(packet);
    return trafficClass ? *trafficClass : untagged;
}

std::optional<uint8_t>
PfabricClassTag::Find(Ptr<const Packet> packet)
{
    PfabricClassTag tag;
    if (packet->PeekPacketTag(tag))
    {
        return tag.GetClass();
    }
    return std::nullopt;
}

uint32_t
PfabricClassTag::GetSerializedSize() const
{
    return sizeof(m_class);
}

void
PfabricClassTag::Serialize(TagBuffer buffer) const
{
    buffer.WriteU8(m_class);
}

void
PfabricClassTag::Deserialize(TagBuffer buffer)
{
    m_class = buffer.ReadU8();
}

void
PfabricClassTag::Print(std::ostream& os) const
{
    os << "pFabric class=" << unsigned(m_class);
}

} // namespace ns3
