/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_BASELINE_TCP_SOCKET_H
#define PFABRIC_BASELINE_TCP_SOCKET_H

#include "ns3/pfabric-tcp-socket.h"

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
 * The next flow on a reused connection (StartFlow) restarts from the initial window, as
 * PfabricTcpSocket does; kept, as on any persistent connection: the RTT estimate and the RTO
 * derived from it (ns-3 undoes a timeout's back-off at the next new ACK), DCTCP's estimate
 * alpha of the marked fraction and the ECN echo state.
 *
 * Created and configured by PfabricTcpSocketFactory (see there for why the attributes live on
 * the factory).
 */
class PfabricBaselineTcpSocket : public PfabricTcpSocket
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

    /**
     * @brief The adaptive duplicate-ACK threshold, max(minThreshold, windowFraction * cwnd in
     * segments), for this socket and the lean host's PfabricLeanBaselineSender.
     * @param minThreshold the smallest threshold, in duplicate ACKs
     * @param windowFraction the fraction of the congestion window
     * @param cwnd the congestion window, bytes
     * @param segmentSize bytes per segment
     * @return the threshold
     */
    static uint32_t GetAdaptiveDupAckThreshold(uint32_t minThreshold,
                                               double windowFraction,
                                               uint32_t cwnd,
                                               uint32_t segmentSize);

  protected:
    Ptr<TcpSocketBase> Fork() override;
    void ReceivedAck(Ptr<Packet> packet, const TcpHeader& tcpHeader) override;

  private:
    uint32_t m_minDupAckThreshold; //!< smallest adaptive threshold
    double m_dupAckWindowFraction; //!< fraction of cwnd, 0: fixed threshold
};

} // namespace ns3

#endif /* PFABRIC_BASELINE_TCP_SOCKET_H */
