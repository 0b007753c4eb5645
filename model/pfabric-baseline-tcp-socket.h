/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_BASELINE_TCP_SOCKET_H
#define PFABRIC_BASELINE_TCP_SOCKET_H

#include "ns3/object-factory.h"
#include "ns3/pfabric-mode-attributes.h"
#include "ns3/pfabric-tcp-socket.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief The TCP of the TCP-DropTail and DCTCP baselines and of the custom scheme: ns-3's TCP
 * with any congestion control (CongestionControl), whose duplicate-ACK threshold can follow the
 * congestion window.
 *
 * Per-packet spraying reorders segments, and a fixed threshold of 3 duplicate ACKs then fires
 * spurious fast retransmissions. HotNets 2012 turns fast retransmit off (FastRetransmit false);
 * the SIGCOMM 2013 runs use a threshold of max(DupAckThreshold, DupAckWindowFraction * cwnd)
 * segments, re-evaluated on every ACK. With DupAckWindowFraction 0 the threshold is
 * DupAckThreshold.
 *
 * TcpSocketBase's own attributes set the rest: the minimum RTO (MinRto, also the RTT estimate
 * before the first sample, as ns-2's rtxcur_init_, and the time before a lost SYN is resent),
 * the RTO's clock granularity (ClockGranularity) and ECN (UseEcn: On makes the senders
 * ECN-capable; a congestion control that needs ECN, as TcpDctcp, turns it on itself). DCTCP is
 * this socket with CongestionControl ns3::PfabricDctcp, its numbers TcpDctcp's own attributes
 * (DctcpShiftG, DctcpAlphaOnInit), and UseEcn On.
 *
 * The next flow on a reused connection (StartFlow) restarts from the initial window, as
 * PfabricTcpSocket does; kept, as on any persistent connection: the RTT estimate and the RTO
 * derived from it (ns-3 undoes a timeout's back-off at the next new ACK), DCTCP's estimate
 * alpha of the marked fraction and the ECN echo state.
 *
 * A PfabricTcpSocketFactory with SocketType ns3::PfabricBaselineTcpSocket creates these sockets.
 */
class PfabricBaselineTcpSocket : public PfabricTcpSocket, public PfabricModeAttributes
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

    /// @return a new congestion control of the CongestionControl attribute
    Ptr<TcpCongestionOps> CreateCongestionOps() const override;
    /**
     * @brief The duplicate-ACK threshold (or none), and pacing at the line rate with the
     * factory's HostPacing.
     * @param settings the factory's settings
     */
    void ConfigureTransport(const FactorySettings& settings) override;
    /// @return a PfabricLeanBaselineSender with this socket's settings
    Ptr<PfabricLeanSender> CreateLeanSender(Ptr<PfabricHostTransport> transport,
                                            const FactorySettings& settings) const override;
    /// @return receivers that answer the SYN as this socket would and echo ECN as it asks
    PfabricLeanReceiver::Settings GetLeanReceiverSettings() const override;
    /// @return MinRto and ClockGranularity (the retransmission timer; MinRto is also the
    /// initial RTT) and UseEcn (ECN negotiated, and echoed by the receivers)
    std::vector<std::string> GetLeanHonouredAttributes() const override;

    /// @return DupAckThreshold and DupAckWindowFraction without FastRetransmit
    std::vector<std::pair<std::string, std::string>> GetAttributesItsModeIgnores() const override;

  protected:
    Ptr<TcpSocketBase> Fork() override;
    void ReceivedAck(Ptr<Packet> packet, const TcpHeader& tcpHeader) override;

  private:
    /// @return whether the socket negotiates ECN (UseEcn On)
    bool UsesEcn() const;

    ObjectFactory m_congestionControlFactory; //!< the CongestionControl attribute
    bool m_fastRetransmit;                    //!< fast retransmit on
    uint32_t m_minDupAckThreshold;            //!< the (smallest) duplicate-ACK threshold
    double m_dupAckWindowFraction;            //!< fraction of cwnd, 0: fixed threshold
};

} // namespace ns3

#endif /* PFABRIC_BASELINE_TCP_SOCKET_H */
