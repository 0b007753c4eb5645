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
 * DequeueAt takes out the packet at any position, given as the Position that Latest() returned
 * when it was enqueued (a list position stays valid until its own packet leaves, so the owner
 * reaches any packet without walking the list). Every operation goes through the Queue base
 * class, so its traces fire and the owning queue disc's statistics stay exact. The buffer holds
 * no scheduling state; PfabricQueueDisc decides which position to take.
 */
class PfabricBuffer : public Queue<QueueDiscItem>
{
  public:
    /// Where a packet sits in the buffer; valid until that packet is dequeued or removed.
    using Position = Queue<QueueDiscItem>::ConstIterator;

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
     * @brief The position of the latest buffered packet, the one Enqueue has just appended.
     * @return its position; the buffer must not be empty
     */
    Position Latest() const;

    /**
     * @brief Dequeue the packet at a given position.
     * @param position a buffered packet's position, from Latest()
     * @return the packet
     */
    Ptr<QueueDiscItem> DequeueAt(Position position);

  private:
    /**
     * @brief The first buffered position, on every supported ns-3 release.
     *
     * Queue exposes its container through GetContainer() from ns-3.37 and through protected
     * begin()/end() before; overload resolution picks the one that exists.
     *
     * @param queue this buffer
     * @return the position of the earliest packet
     */
    template <typename Q>
    static auto First(const Q& queue, int) -> decltype(queue.GetContainer().begin())
    {
        return queue.GetContainer().begin();
    }

    /// @copydoc First
    template <typename Q>
    static auto First(const Q& queue, long) -> decltype(queue.begin())
    {
        return queue.begin();
    }

    /**
     * @brief The position past the last buffered packet, on every supported ns-3 release.
     * @param queue this buffer
     * @return the end position
     */
    template <typename Q>
    static auto End(const Q& queue, int) -> decltype(queue.GetContainer().end())
    {
        return queue.GetContainer().end();
    }

    /// @copydoc End
    template <typename Q>
    static auto End(const Q& queue, long) -> decltype(queue.end())
    {
        return queue.end();
    }

    NS_LOG_TEMPLATE_DECLARE; //!< this class's log component, hiding the base class's
};

} // namespace ns3

#endif /* PFABRIC_BUFFER_H */
