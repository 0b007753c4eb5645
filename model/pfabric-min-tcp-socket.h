/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_MIN_TCP_SOCKET_H
#define PFABRIC_MIN_TCP_SOCKET_H

#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/pfabric-mode-attributes.h"
#include "ns3/pfabric-tcp-socket.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief MinTCP, the end host of pFabric (Alizadeh et al., HotNets 2012), on ns-3's TCP; the
 * base of LineRate (PfabricLineRateTcpSocket).
 *
 * MinTCP is TCP "returned to its roots": a large initial window, additive increase per round
 * trip, and one congestion signal, the retransmission timeout. The timeout is fixed (Rto: no RTT
 * estimation, no back-off); on a timeout the window falls to one segment and slow start resumes
 * with ssthresh halved. Duplicate ACKs are never acted on (the socket is configured with a
 * fast-retransmit threshold no flow reaches). An optional maximum window (MaxWindow) caps the
 * congestion window, and an optional probe mode (ProbeMode, SIGCOMM 2013) sends one-byte probes
 * after ProbeAfterTimeouts consecutive timeouts, until an ACK advances.
 *
 * Every segment is tagged with its priority through PfabricTcpSocket's priority policy, made
 * from PriorityPolicy: pFabric's is the flow's remaining bytes (PfabricRemainingSizePriority) +
 * PriorityOffset for data segments, first transmissions and retransmissions alike, and 0 for
 * segments without payload.
 *
 * The attributes are this class's (a PfabricTcpSocketFactory with SocketType
 * ns3::PfabricMinTcpSocket creates these sockets); the setters below set the same values for
 * programmatic use, before the factory configures the socket.
 */
class PfabricMinTcpSocket : public PfabricTcpSocket, public PfabricModeAttributes
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
     * @brief Fix the retransmission timeout (the Rto attribute).
     * @param rto the timeout, strictly positive
     */
    void SetFixedRto(Time rto);

    /// @return the fixed retransmission timeout
    Time GetFixedRto() const;

    /**
     * @brief Cap the congestion window (the MaxWindow attribute).
     * @param segments the largest window, in segments; 0 leaves it uncapped
     */
    void SetMaxWindow(uint32_t segments);

    /**
     * @brief Enable probe mode (the ProbeMode and ProbeAfterTimeouts attributes).
     * @param timeouts consecutive timeouts after which one-byte probes replace retransmissions;
     *        0 disables probe mode
     */
    void SetProbeAfterTimeouts(uint32_t timeouts);

    /// @return true while the socket sends one-byte probes
    bool IsProbing() const override;
    /// @return true: its priority policy (ConfigureTransport, CreateLeanMinTcpSender) tags
    /// every segment, 0 on those without data
    bool TagsEverySegment() const override;

    /// @return the timeouts since an ACK last advanced
    uint32_t GetConsecutiveTimeouts() const;

    /// @return the fixed RTO: the estimate is never used for the timer
    Time GetInitialRtt() const override;
    /// @return false: the timer is the fixed RTO (Rto), whatever the estimate
    bool IsRtoFromRttEstimate() const override;
    /// @return TcpNewReno: MinTCP's window grows as TCP's, and falls only on a timeout
    Ptr<TcpCongestionOps> CreateCongestionOps() const override;
    /**
     * @brief The fixed RTO, no fast retransmit, the priority policy, and pacing at the line rate
     * where IsPacedAtLineRate (the factory's HostPacing; LineRate always).
     * @param settings the factory's settings
     */
    void ConfigureTransport(const FactorySettings& settings) override;
    /// @return a PfabricLeanMinTcpSender with this socket's settings
    Ptr<PfabricLeanSender> CreateLeanSender(Ptr<PfabricHostTransport> transport,
                                            const FactorySettings& settings) const override;
    /// @return receivers that tag their ACKs (priority 0, the flow's class), without ECN
    PfabricLeanReceiver::Settings GetLeanReceiverSettings() const override;
    /// @return none: MinTCP's lean twin reads its own attributes and its factory's only (its
    /// fixed Rto is also its initial RTT)
    std::vector<std::string> GetLeanHonouredAttributes() const override;

    /// @return ProbeAfterTimeouts without ProbeMode
    std::vector<std::pair<std::string, std::string>> GetAttributesItsModeIgnores() const override;
    /// @return MinRto and ClockGranularity, which ConfigureTransport sets from the fixed RTO
    std::vector<std::string> GetTransportSocketAttributes() const override;

  protected:
    /**
     * @brief What PfabricTcpSocket restarts, and: the retransmission timer is the fixed RTO, and
     * the count of consecutive timeouts and probe mode start afresh.
     */
    void RestartForFlow() override;
    /// Count consecutive timeouts; probe once ProbeAfterTimeouts of them, else LossTimeout.
    void DataTimeout() override;
    /// MinTCP's timeout without probing: ns-3's (window to one segment, slow start).
    virtual void LossTimeout();
    /**
     * @brief The lean sender CreateLeanSender makes, its LineRate-ness told.
     * @param transport the node's lean host transport
     * @param settings the factory's settings
     * @param lineRate whether the sender is LineRate's: no window cap, its timeout
     * @return the sender, not yet connected
     */
    Ptr<PfabricLeanSender> CreateLeanMinTcpSender(Ptr<PfabricHostTransport> transport,
                                                  const FactorySettings& settings,
                                                  bool lineRate) const;
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

    /// Probe mode's timeout: send one byte at the head of the unacknowledged data.
    void SendProbe();

    /// @return the consecutive timeouts after which it probes; 0: never
    uint32_t GetProbeThreshold() const;

    /// @return a new priority policy of the PriorityPolicy attribute
    Ptr<PfabricPriorityPolicy> CreatePriorityPolicy() const;

    Time m_fixedRto;                       //!< the retransmission timeout
    uint32_t m_maxWindow;                  //!< congestion window cap in segments, 0: none
    bool m_probeMode;                      //!< probe mode on
    uint32_t m_probeAfterTimeouts;         //!< consecutive timeouts before probing
    ObjectFactory m_priorityPolicyFactory; //!< the PriorityPolicy attribute
    uint64_t m_rankOffset;                 //!< the PriorityOffset attribute
    uint32_t m_consecutiveTimeouts;        //!< timeouts since an ACK last advanced
    bool m_probing;                        //!< sending one-byte probes
    TracedCallback<bool> m_probeModeTrace; //!< "ProbeMode"
};

} // namespace ns3

#endif /* PFABRIC_MIN_TCP_SOCKET_H */
