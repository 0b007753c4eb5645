/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_MIN_TCP_SOCKET_H
#define PFABRIC_MIN_TCP_SOCKET_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/pfabric-tcp-demux.h"
#include "ns3/tcp-socket-base.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief MinTCP and LineRate, the end hosts of pFabric (Alizadeh et al., HotNets 2012), on ns-3's
 * TCP.
 *
 * MinTCP is TCP "returned to its roots": a large initial window, additive increase per round
 * trip, and one congestion signal, the retransmission timeout. The timeout is fixed (no RTT
 * estimation, no back-off); on a timeout the window falls to one segment and slow start resumes
 * with ssthresh halved. Duplicate ACKs are never acted on (the socket is configured with a
 * fast-retransmit threshold no flow reaches). An optional maximum window caps the congestion
 * window, and an optional probe mode (SIGCOMM 2013) sends one-byte probes after a number of
 * consecutive timeouts, until an ACK advances.
 *
 * LineRate (SetLineRate) has no rate control: the window never changes, the sender is paced at
 * the NIC's line rate, and lost segments are resent at the same fixed timeout.
 *
 * Every segment this socket sends is tagged with a PfabricPriorityTag: data segments, first
 * transmissions and retransmissions alike, carry the flow's remaining bytes at the moment of
 * sending, GetRemainingBytes() + PriorityOffset; segments without payload (pure ACKs, SYN, FIN)
 * carry 0, the most urgent priority.
 *
 * Create these sockets with PfabricTcpSocketFactory, which holds the attributes (ns-3 up to
 * 3.44 reports a TcpSocketBase subclass's TypeId as TcpSocketBase's, hiding its attributes, and
 * from 3.45 that cannot be overridden) and configures each socket through the setters below.
 */
class PfabricMinTcpSocket : public TcpSocketBase, public PfabricTcpDemux::Connection
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricMinTcpSocket();

    /**
     * @brief Copy constructor, used by Fork (an accepted connection keeps the sender's rules).
     * @param sock the socket to copy
     */
    PfabricMinTcpSocket(const PfabricMinTcpSocket& sock);

    ~PfabricMinTcpSocket() override;

    /**
     * @brief Fix the retransmission timeout.
     * @param rto the timeout, strictly positive
     */
    void SetFixedRto(Time rto);

    /// @return the fixed retransmission timeout
    Time GetFixedRto() const;

    /**
     * @brief Cap the congestion window.
     * @param segments the largest window, in segments; 0 leaves it uncapped
     */
    void SetMaxWindow(uint32_t segments);

    /**
     * @brief Enable probe mode.
     * @param timeouts consecutive timeouts after which one-byte probes replace retransmissions;
     *        0 disables probe mode
     */
    void SetProbeAfterTimeouts(uint32_t timeouts);

    /**
     * @brief Set the constant added to the remaining bytes of a data segment's priority.
     * @param offset the constant; at least 1, so that data never ties with control segments
     */
    void SetPriorityOffset(uint64_t offset);

    /**
     * @brief Turn this socket into a LineRate sender: no rate control, paced at line rate.
     *
     * Each segment of payload P leaves the socket every (P + overhead) * 8 / rate seconds, the
     * time the NIC needs to serialise it, so that a lone flow keeps its NIC exactly busy.
     *
     * @param rate the NIC's line rate
     * @param overheadBytes the bytes the network adds to a segment's payload (TCP, IP and link
     *        headers)
     */
    void SetLineRate(DataRate rate, uint32_t overheadBytes);

    /**
     * @brief Pace this MinTCP sender at its NIC's line rate (pfabric::PaceAtLineRate): window
     * bursts wait in the socket, not in the NIC's queue. LineRate senders are always paced.
     *
     * @param rate the NIC's line rate
     * @param overheadBytes the bytes the network adds to a segment's payload
     */
    void SetPacingLineRate(DataRate rate, uint32_t overheadBytes);

    /**
     * @brief Start the next flow on this idle, reused connection as a new connection would
     * start it; call just before handing the flow to the socket (Send).
     *
     * The congestion window goes back to the initial window (InitialWindow; LineRate's window
     * exceeds any flow anyway) and ssthresh to its initial value, in congestion state Open (a
     * flow whose last ACKs ended a recovery leaves none behind, but nothing of the previous
     * flow's congestion episode may carry over); the count of consecutive timeouts and probe
     * mode start afresh; the retransmission timer is the fixed RTO and, nothing being
     * outstanding, not running. The send buffer is empty, so the priority of the next flow's
     * first segment is its size + PriorityOffset. The RTT estimate (never used for the timer)
     * and the connection's total of timeouts (GetTimeouts) are kept.
     *
     * Aborts if a byte of the previous flow is still unacknowledged: a connection carries one
     * flow at a time.
     */
    void StartFlow();

    /// @return true while the socket sends one-byte probes
    bool IsProbing() const;

    /// @return the timeouts since an ACK last advanced
    uint32_t GetConsecutiveTimeouts() const;

    /// @return every retransmission timeout of this connection
    uint64_t GetTimeouts() const;

    /**
     * @brief The flow's remaining bytes: the end of the data handed to the socket, less the
     * cumulative ACK, less the bytes selectively acknowledged above it.
     * @return the remaining bytes
     */
    uint64_t GetRemainingBytes() const;

    /**
     * @brief The priority of a segment this socket sends now.
     * @param payloadBytes the segment's payload
     * @return 0 for a segment without payload, else GetRemainingBytes() + PriorityOffset
     */
    uint64_t GetSegmentPriority(uint32_t payloadBytes) const;

  protected:
    Ptr<TcpSocketBase> Fork() override;
    Ipv4EndPoint* GetDemuxEndPoint() const override;
    uint32_t SendDataPacket(SequenceNumber32 seq, uint32_t maxSize, bool withAck) override;
    void EstimateRtt(const TcpHeader& tcpHeader) override;
    void NewAck(const SequenceNumber32& seq, bool resetRTO) override;
    void ReTxTimeout() override;
    uint32_t Window() const override;
    uint32_t AvailableWindow() const override;

  private:
    /**
     * @brief The socket's own "Tx" trace: tag the segment with its priority.
     * @param packet the segment's payload, about to be handed to IP
     * @param header its TCP header
     * @param socket the sending socket (a PfabricMinTcpSocket)
     */
    static void TagSegment(Ptr<const Packet> packet,
                           const TcpHeader& header,
                           Ptr<const TcpSocketBase> socket);

    /// Re-arm a retransmission timer that ns-3 armed with an estimated timeout.
    void RearmFixedRto();

    /// LineRate's timeout: resend what is not acknowledged, keep the window.
    void LineRateTimeout();

    /// Probe mode's timeout: send one byte at the head of the unacknowledged data.
    void SendProbe();

    Time m_fixedRto;                //!< the retransmission timeout
    uint32_t m_maxWindow;           //!< congestion window cap in segments, 0: none
    uint32_t m_probeAfterTimeouts;  //!< consecutive timeouts before probing, 0: never
    uint64_t m_priorityOffset;      //!< added to a data segment's remaining bytes
    bool m_lineRate;                //!< LineRate sender
    uint32_t m_consecutiveTimeouts; //!< timeouts since an ACK last advanced
    uint64_t m_timeouts;            //!< every timeout
    bool m_probing;                 //!< sending one-byte probes
};

} // namespace ns3

#endif /* PFABRIC_MIN_TCP_SOCKET_H */
