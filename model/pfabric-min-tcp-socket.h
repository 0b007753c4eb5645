/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_MIN_TCP_SOCKET_H
#define PFABRIC_MIN_TCP_SOCKET_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/pfabric-tcp-socket.h"

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
 * Every segment is tagged with its priority through PfabricTcpSocket's priority policy:
 * pFabric's is the flow's remaining bytes (PfabricRemainingSizePriority) + PriorityOffset for
 * data segments, first transmissions and retransmissions alike, and 0 for segments without
 * payload.
 *
 * Create these sockets with PfabricTcpSocketFactory, which holds the attributes (ns-3 up to
 * 3.44 reports a TcpSocketBase subclass's TypeId as TcpSocketBase's, hiding its attributes, and
 * from 3.45 that cannot be overridden) and configures each socket through the setters below.
 */
class PfabricMinTcpSocket : public PfabricTcpSocket
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * @brief TracedCallback signature of "ProbeMode".
     * @param probing true when probe mode begins, false when it ends
     */
    typedef void (*ProbeModeCallback)(bool probing);

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

    /// @return true while the socket sends one-byte probes
    bool IsProbing() const override;

    /// @return the timeouts since an ACK last advanced
    uint32_t GetConsecutiveTimeouts() const;

  protected:
    /**
     * @brief What PfabricTcpSocket restarts, and: the retransmission timer is the fixed RTO, and
     * the count of consecutive timeouts and probe mode start afresh.
     */
    void RestartForFlow() override;
    /// Probe, resend at line rate, or MinTCP's (ns-3's) timeout, counting consecutive ones.
    void DataTimeout() override;
    Ptr<TcpSocketBase> Fork() override;
    uint32_t SendDataPacket(SequenceNumber32 seq, uint32_t maxSize, bool withAck) override;
    void EstimateRtt(const TcpHeader& tcpHeader) override;
    void NewAck(const SequenceNumber32& seq, bool resetRTO) override;
    uint32_t Window() const override;
    uint32_t AvailableWindow() const override;

  private:
    /**
     * @brief Enter or leave probe mode, reporting a change on "ProbeMode".
     * @param probing whether the sender probes from now on
     */
    void SetProbing(bool probing);

    /// Re-arm a retransmission timer that ns-3 armed with an estimated timeout.
    void RearmFixedRto();

    /// LineRate's timeout: resend what is not acknowledged, keep the window.
    void LineRateTimeout();

    /// Probe mode's timeout: send one byte at the head of the unacknowledged data.
    void SendProbe();

    Time m_fixedRto;                       //!< the retransmission timeout
    uint32_t m_maxWindow;                  //!< congestion window cap in segments, 0: none
    uint32_t m_probeAfterTimeouts;         //!< consecutive timeouts before probing, 0: never
    bool m_lineRate;                       //!< LineRate sender
    uint32_t m_consecutiveTimeouts;        //!< timeouts since an ACK last advanced
    bool m_probing;                        //!< sending one-byte probes
    TracedCallback<bool> m_probeModeTrace; //!< "ProbeMode"
};

} // namespace ns3

#endif /* PFABRIC_MIN_TCP_SOCKET_H */
