/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_BASELINE_TCP_SOCKET_H
#define PFABRIC_BASELINE_TCP_SOCKET_H

#include "ns3/data-rate.h"
#include "ns3/pfabric-tcp-demux.h"
#include "ns3/tcp-socket-base.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief The TCP of the TCP-DropTail and DCTCP baselines: ns-3's TCP whose duplicate-ACK
 * threshold can follow the congestion window.
 *
 * Per-packet spraying reorders segments, and a fixed threshold of 3 duplicate ACKs then fires
 * spurious fast retransmissions. HotNets 2012 turns fast retransmit off; the SIGCOMM 2013 runs
 * use a threshold of max(MinThreshold, WindowFraction * cwnd) segments, re-evaluated on every
 * ACK. With WindowFraction 0 this socket is ns-3's TcpSocketBase with its ReTxThreshold.
 *
 * Created and configured by PfabricTcpSocketFactory (see there for why the attributes live on
 * the factory).
 */
class PfabricBaselineTcpSocket : public TcpSocketBase, public PfabricTcpDemux::Connection
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricBaselineTcpSocket();

    /**
     * @brief Copy constructor, used by Fork.
     * @param sock the socket to copy
     */
    PfabricBaselineTcpSocket(const PfabricBaselineTcpSocket& sock);

    ~PfabricBaselineTcpSocket() override;

    /**
     * @brief Make the duplicate-ACK threshold max(minThreshold, windowFraction * cwnd).
     * @param minThreshold the smallest threshold, in duplicate ACKs
     * @param windowFraction the fraction of the congestion window (in segments); 0 keeps the
     *        threshold fixed at ReTxThreshold
     */
    void SetAdaptiveDupAckThreshold(uint32_t minThreshold, double windowFraction);

    /// @return every retransmission timeout of this connection with data outstanding
    uint64_t GetTimeouts() const;

    /**
     * @brief Start the next flow on this idle, reused connection with the window of a new
     * connection; call just before handing the flow to the socket (Send).
     *
     * The congestion window goes back to the initial window and ssthresh to its initial value,
     * in congestion state Open: a DCTCP flow whose last ACKs echoed a mark ends in CWR, which
     * ns-3 would leave at the next flow's first ACK by setting the window to ssthresh, by then
     * the initial value (no limit).
     * Kept, as on any persistent connection: the RTT estimate and the RTO derived from it
     * (ns-3 undoes a timeout's back-off at the next new ACK, so the previous flow's last ACK
     * left the estimate's RTO), DCTCP's estimate alpha of the marked fraction, the ECN echo
     * state, and the total of timeouts (GetTimeouts).
     *
     * Aborts if a byte of the previous flow is still unacknowledged: a connection carries one
     * flow at a time.
     */
    void StartFlow();

    /**
     * @brief Pace this sender at its NIC's line rate (pfabric::PaceAtLineRate): window bursts
     * wait in the socket, not in the NIC's queue.
     * @param rate the NIC's line rate
     * @param overheadBytes the bytes the network adds to a segment's payload
     */
    void SetPacingLineRate(DataRate rate, uint32_t overheadBytes);

  protected:
    Ptr<TcpSocketBase> Fork() override;
    Ipv4EndPoint* GetDemuxEndPoint() const override;
    void ReceivedAck(Ptr<Packet> packet, const TcpHeader& tcpHeader) override;
    void ReTxTimeout() override;
    uint32_t SendDataPacket(SequenceNumber32 seq, uint32_t maxSize, bool withAck) override;

  private:
    uint32_t m_minDupAckThreshold; //!< smallest adaptive threshold
    double m_dupAckWindowFraction; //!< fraction of cwnd, 0: fixed threshold
    uint64_t m_timeouts;           //!< timeouts with data outstanding
};

} // namespace ns3

#endif /* PFABRIC_BASELINE_TCP_SOCKET_H */
