/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_QUEUE_DISC_H
#define PFABRIC_QUEUE_DISC_H

#include "pfabric-buffer.h"
#include "pfabric-mode-attributes.h"

#include "ns3/queue-disc.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief The pFabric switch port: priority scheduling and priority dropping in a tiny buffer.
 *
 * Every packet carries one number, its priority (PfabricPriorityTag; smaller is more urgent;
 * untagged packets get UntaggedPriority). The buffer holds about one bandwidth-delay product.
 *
 * - Enqueue: a packet that fits is accepted. Otherwise, by AdmissionMode: STRICT makes room only
 *   by evicting packets strictly less urgent than the arrival, least urgent first and the latest
 *   among equals; if those cannot free enough room (in byte mode several packets may be needed),
 *   the arrival is dropped and nothing is evicted. NS2 does what the original ns-2 code
 *   (queue/drop-tail.cc of the pFabric patch) does: of the buffered packets and the arrival,
 *   those whose removal alone brings the buffer back within its limit are candidates, and
 *   exactly one is dropped, the least urgent, the latest among equals (so the arrival among
 *   equals); the arrival always qualifies, so a less urgent packet too small to make room is
 *   never evicted. With packets of one size the two modes agree. Either way an arrival no more
 *   urgent than everything buffered loses.
 * - Dequeue, by DequeueMode: MOST_URGENT sends the most urgent packet, ties going to the earliest
 *   buffered (TieBreak FIRST_ARRIVED, the original code) or uniformly at random (RANDOM, the text
 *   of Alizadeh et al., HotNets 2012); EARLIEST_OF_MOST_URGENT_FLOW finds the most urgent
 *   packet (the earliest among equals) and sends the earliest buffered packet of its flow, the
 *   starvation and reordering guard of the SIGCOMM 2013 design. A flow is an IPv4 5-tuple.
 *
 * Drops use ns-3's accounting: a rejected arrival is dropped before enqueue with reason
 * ARRIVAL_DROP, an evicted packet is dequeued and dropped after dequeue with reason EVICTED_DROP.
 */
class PfabricQueueDisc : public QueueDisc, public PfabricModeAttributes
{
  public:
    /// Which buffered packet a dequeue sends.
    enum DequeueMode
    {
        MOST_URGENT,                 //!< the most urgent packet, ties by TieBreak (HotNets 2012)
        EARLIEST_OF_MOST_URGENT_FLOW //!< earliest packet of the most urgent one's flow (SIGCOMM
                                     //!< 2013)
    };

    /// Which of several equally urgent packets MostUrgent mode sends.
    enum TieBreak
    {
        FIRST_ARRIVED, //!< the earliest buffered (the original ns-2 code)
        RANDOM         //!< uniformly at random (HotNets 2012's text)
    };

    /// What an arrival that does not fit may displace.
    enum AdmissionMode
    {
        STRICT, //!< evict strictly less urgent packets, least urgent first, as many as it takes
        NS2     //!< drop exactly one packet, as the original ns-2 code does (see the class doc)
    };

    /// Drop reason of an arrival that is no more urgent than the packets it would displace.
    static constexpr const char* ARRIVAL_DROP = "Arrival not more urgent than buffered packets";
    /// Drop reason of a buffered packet evicted to make room for a more urgent arrival.
    static constexpr const char* EVICTED_DROP = "Evicted by a more urgent arrival";

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricQueueDisc();
    ~PfabricQueueDisc() override;

    /// @return TieBreak under EarliestOfMostUrgentFlow, which always takes the earliest packet
    std::vector<std::pair<std::string, std::string>> GetAttributesItsModeIgnores() const override;

    /**
     * @brief Set the buffer size; stops the simulation with a message if it is zero.
     * @param size the buffer size, in packets or bytes
     */
    void SetBufferSize(QueueSize size);

    /**
     * @brief The priority this queue disc uses for a packet.
     * @param item the packet
     * @return its PfabricPriorityTag value, or UntaggedPriority if it carries none
     */
    uint64_t GetPriority(Ptr<const QueueDiscItem> item) const;

    /**
     * @brief Assign a fixed random variable stream number to the tie-breaking generator.
     * @param stream first stream index to use
     * @return the number of stream indices assigned (1)
     */
    int64_t AssignStreams(int64_t stream);

  private:
    /// The exact identity of a packet's flow.
    struct FlowKey
    {
        uint64_t addresses;        //!< IPv4 source (high 32 bits) and destination (low 32 bits)
        uint64_t portsAndProtocol; //!< source port, destination port, protocol; or a hash
        /**
         * @param other another key
         * @return whether both keys name the same flow
         */
        bool operator==(const FlowKey& other) const;
    };

    /// What the scheduler needs of a buffered packet, read once when it arrives.
    struct Entry
    {
        uint64_t priority;  //!< smaller is more urgent
        uint64_t footprint; //!< room it takes: 1 in packet mode, its size in byte mode
        FlowKey flow;       //!< its flow, when flowKnown
        bool flowKnown; //!< read at arrival in EARLIEST_OF_MOST_URGENT_FLOW mode, else on demand
        PfabricBuffer::Position position; //!< where it sits in m_buffer
    };

    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    /**
     * @brief The packet the next dequeue sends, left in the buffer (ns-3's default would take it
     * out and hold it, beyond the reach of a more urgent arrival).
     *
     * The choice (with its random tie-break, if any) is kept for that dequeue; an arrival or an
     * eviction cancels it, since a more urgent packet may have come.
     * @return the packet, or null if the buffer is empty
     */
    Ptr<const QueueDiscItem> DoPeek() override;
    /// @return the index of the packet a dequeue sends now, by DequeueMode
    std::size_t NextIndex();
    bool CheckConfig() override;
    void InitializeParams() override;
    void DoDispose() override;

    /**
     * @param item a packet
     * @return its flow
     */
    static FlowKey GetFlowKey(Ptr<const QueueDiscItem> item);
    /// @return the position of the least urgent buffered packet, the latest among equals
    std::size_t LeastUrgentIndex() const;
    /// @return the position of a most urgent buffered packet, chosen among equals by TieBreak
    std::size_t MostUrgentIndex() const;
    /// @return the position of the earliest packet of the most urgent packet's flow
    std::size_t EarliestOfMostUrgentFlowIndex();
    /**
     * @param index a buffered packet's index
     * @return its flow, read from the packet if not read at arrival (DequeueMode changed)
     */
    const FlowKey& FlowOf(std::size_t index);
    /**
     * @brief Take a packet out of the buffer.
     * @param index its position
     * @return the packet
     */
    Ptr<QueueDiscItem> TakeAt(std::size_t index);

    /**
     * @brief Ns2 admission: the one packet to drop when an arrival does not fit.
     * @param arrival the arrival, not yet buffered
     * @param excess how much the buffer would exceed its limit with the arrival
     * @return the index of the buffered packet to evict, or m_entries.size() for the arrival
     */
    std::size_t Ns2VictimIndex(const Entry& arrival, uint64_t excess) const;

    DequeueMode m_dequeueMode;               //!< which packet a dequeue sends
    AdmissionMode m_admissionMode;           //!< what an arrival that does not fit displaces
    TieBreak m_tieBreak;                     //!< MostUrgent's choice among equals
    uint64_t m_untaggedPriority;             //!< priority of packets without a PfabricPriorityTag
    Ptr<PfabricBuffer> m_buffer;             //!< the packets, in arrival order
    std::vector<Entry> m_entries;            //!< m_entries[i] describes the i-th buffered packet
    Ptr<UniformRandomVariable> m_tieBreaker; //!< picks among equally urgent packets
    std::optional<std::size_t> m_peeked;     //!< the index DoPeek chose, for the next dequeue
};

} // namespace ns3

#endif /* PFABRIC_QUEUE_DISC_H */
