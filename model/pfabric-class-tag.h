/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_CLASS_TAG_H
#define PFABRIC_CLASS_TAG_H

#include "ns3/packet.h"
#include "ns3/tag.h"

#include <cstdint>
#include <optional>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief The traffic class of a packet (0, 1, ...): which class of PfabricClassQueueDisc it
 * belongs to, under the operator's policy between classes; within its class the packet is
 * scheduled and dropped by its PfabricPriorityTag.
 *
 * A tag of its own beside PfabricPriorityTag, rather than a field in it, so that a run without
 * classes carries and reads exactly what it did before, and a class can be set on packets
 * whatever their priority (ACKs included). Like the priority, it is a packet tag of this module
 * because ns-3 strips its own carriers (the IP TOS tag, SocketPriorityTag) on the way; DSCP bits
 * in the IP header would survive, but a lean switch would then parse the header of every packet.
 * The sending socket's class is written by PfabricTcpTagger, beside the priority.
 */
class PfabricClassTag : public Tag
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    PfabricClassTag();

    /**
     * @brief Construct a tag carrying the given class.
     * @param trafficClass the class, 0 first
     */
    explicit PfabricClassTag(uint8_t trafficClass);

    /// @return the class
    uint8_t GetClass() const;

    /**
     * @brief Tag a packet, replacing any class it already carries (a retransmission carries
     * the class of its connection now).
     * @param packet the packet to tag
     * @param trafficClass the class
     */
    static void Set(Ptr<Packet> packet, uint8_t trafficClass);

    /**
     * @brief The class a packet carries.
     * @param packet the packet
     * @param untagged what a packet without the tag counts as
     * @return its tag's class, or untagged
     */
    static uint32_t Get(Ptr<const Packet> packet, uint32_t untagged);

    /**
     * @brief The class a packet carries, if any.
     * @param packet the packet
     * @return its tag's class, or nothing for a packet without the tag
     */
    static std::optional<uint8_t> Find(Ptr<const Packet> packet);

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer buffer) const override;
    void Deserialize(TagBuffer buffer) override;
    void Print(std::ostream& os) const override;

  private:
    uint8_t m_class; //!< the class
};

} // namespace ns3

#endif /* PFABRIC_CLASS_TAG_H */
