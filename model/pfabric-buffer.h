/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_BUFFER_H
#define PFABRIC_BUFFER_H

#include "ns3/log.h"
#include "ns3/queue-item.h"
#include "ns3/queue.h"

#include <cstddef>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief The internal queue of PfabricQueueDisc: packets in arrival order, removable anywhere.
 *
 * Enqueue appends, Dequeue/Remove/Peek act on the earliest packet as in DropTailQueue, and
 * DequeueAt takes out the packet at any position. Every operation goes through the Queue base
 * class, so its traces fire and the owning queue disc's statistics stay exact. The buffer holds
 * no scheduling state; PfabricQueueDisc decides which position to take.
 */
class PfabricBuffer : public Queue<QueueDiscItem>
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricBuffer();
    ~PfabricBuffer() override;

    bool Enqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> Dequeue() override;
    Ptr<QueueDiscItem> Remove() override;
    Ptr<const QueueDiscItem> Peek() const override;

    /**
     * @brief Dequeue the packet at a given position.
     * @param index 0 for the earliest buffered packet; must be less than GetNPackets()
     * @return the packet
     */
    Ptr<QueueDiscItem> DequeueAt(std::size_t index);

  private:
    NS_LOG_TEMPLATE_DECLARE; //!< this class's log component, hiding the base class's
};

} // namespace ns3

#endif /* PFABRIC_BUFFER_H */
