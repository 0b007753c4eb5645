/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_LEVEL_QUEUE_DISC_H
#define PFABRIC_LEVEL_QUEUE_DISC_H

#include "ns3/queue-disc.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief A commodity switch port with a few hardware priority queues: Levels strict-priority
 * FIFO queues sharing one drop-tail buffer of MaxSize, the packet's queue chosen by its
 * PfabricPriorityTag.
 *
 * What it models is the port a switch without pFabric's priority queue would offer to senders
 * that quantise their priority into Levels levels (PfabricPriorityPolicy::Thresholds):
 *
 * - Classification: a packet whose tag carries p goes to queue min(p - PriorityOffset,
 *   Levels - 1), queue 0 the most urgent; a packet with p <= PriorityOffset (ACKs and handshakes
 *   carry 0) or without a tag goes to queue 0, with the most urgent data.
 * - Admission: drop-tail over the whole port. An arrival that does not fit in what is left of
 *   MaxSize (the sum over every queue, in packets or bytes) is dropped before enqueue, whatever
 *   its level; nothing buffered is ever evicted.
 * - Dequeue: the head of the most urgent non-empty queue.
 *
 * With Levels = 1 the port is a FIFO drop-tail queue of MaxSize (FifoQueueDisc). With one level
 * per distinct priority it sends in pFabric's order (PfabricQueueDisc with TieBreak
 * FirstArrived) but, unlike pFabric, admits by space only: a full buffer drops an urgent arrival
 * instead of evicting a less urgent buffered packet. Sharing one buffer of the port's size
 * (rather than splitting it into Levels parts) keeps the comparison with pFabric at the same
 * buffer per port.
 *
 * Drops use ns-3's accounting: reason LIMIT_EXCEEDED_DROP, before enqueue.
 */
class PfabricLevelQueueDisc : public QueueDisc
{
  public:
    /// Drop reason of an arrival that does not fit in the shared buffer.
    static constexpr const char* LIMIT_EXCEEDED_DROP = "Queue disc limit exceeded";

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricLevelQueueDisc();
    ~PfabricLevelQueueDisc() override;

    /**
     * @brief Set the shared buffer's size; stops the simulation with a message if it is zero.
     * @param size the buffer size, in packets or bytes
     */
    void SetBufferSize(QueueSize size);

    /**
     * @brief The queue a packet goes to.
     * @param priority the packet's PfabricPriorityTag value
     * @return its queue, 0 (most urgent) to Levels - 1
     */
    uint32_t GetLevel(uint64_t priority) const;

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    Ptr<const QueueDiscItem> DoPeek() override;
    bool CheckConfig() override;
    void InitializeParams() override;

    uint32_t m_levels;         //!< number of strict-priority queues
    uint64_t m_priorityOffset; //!< the senders' PriorityOffset: data level 0's priority
};

} // namespace ns3

#endif /* PFABRIC_LEVEL_QUEUE_DISC_H */
