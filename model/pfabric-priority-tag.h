/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_PRIORITY_TAG_H
#define PFABRIC_PRIORITY_TAG_H

#include "ns3/packet.h"
#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief The pFabric priority of a packet: one unsigned 64-bit number, smaller is more urgent.
 *
 * End hosts put the flow's remaining size (or any other urgency, e.g. the time to a deadline)
 * into this tag; PfabricQueueDisc schedules and drops by it. It is a packet tag of this module's
 * own because ns-3 strips its own priority carriers on the way (the IP TOS tag in
 * Ipv4L3Protocol::Send, the SocketPriorityTag when a single-queue device transmits), while packet
 * tags of other types travel unchanged over every hop of a point-to-point fabric.
 */
class PfabricPriorityTag : public Tag
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    PfabricPriorityTag();

    /**
     * @brief Construct a tag carrying the given priority.
     * @param priority smaller is more urgent
     */
    explicit PfabricPriorityTag(uint64_t priority);

    /**
     * @brief Set the priority.
     * @param priority smaller is more urgent
     */
    void SetPriority(uint64_t priority);

    /**
     * @brief Get the priority.
     * @return the priority, smaller is more urgent
     */
    uint64_t GetPriority() const;

    /**
     * @brief Tag a packet, replacing any pFabric priority it already carries.
     *
     * A retransmitted segment may carry the tag of its first transmission; replacing it keeps
     * exactly one, current, priority per packet.
     *
     * @param packet the packet to tag
     * @param priority smaller is more urgent
     */
    static void Set(Ptr<Packet> packet, uint64_t priority);

    /**
     * @brief The priority a packet carries.
     * @param packet the packet
     * @param untagged what a packet without the tag counts as
     * @return its tag's priority, or untagged
     */
    static uint64_t Get(Ptr<const Packet> packet, uint64_t untagged);

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer buffer) const override;
    void Deserialize(TagBuffer buffer) override;
    void Print(std::ostream& os) const override;

  private:
    uint64_t m_priority; //!< smaller is more urgent
};

} // namespace ns3

#endif /* PFABRIC_PRIORITY_TAG_H */
