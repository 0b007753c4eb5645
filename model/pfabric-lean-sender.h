/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_LEAN_SENDER_H
#define PFABRIC_LEAN_SENDER_H

#include "pfabric-flow-sender.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/pfabric-priority-policy.h"

#include <cstdint>
#include <optional>

namespace ns3
{

class PfabricHostTransport;
class TcpCongestionOps;
class TcpHeader;
class TcpSocketState;
class TcpTxBuffer;

/**
 * @ingroup pfabric
 *
 * @brief MinTCP and LineRate on the lean host (PfabricHostTransport): the sender of
 * PfabricMinTcpSocket without ns-3's TCP/IP stack, making the same decisions.
 *
 * It keeps ns-3's own pieces where they decide what is sent: the send buffer and its SACK
 * scoreboard (TcpTxBuffer: which bytes are in flight, lost, or next), and the congestion window's
 * arithmetic (TcpNewReno for MinTCP, PfabricLineRateCongestionOps for LineRate). Around them it
 * does what TcpSocketBase does for the module's MinTCP configuration (SACK on, no fast
 * retransmit, no timestamps, no delayed ACKs, no Nagle, pacing at the NIC's rate) and what
 * PfabricMinTcpSocket changes: a fixed retransmission timeout without back-off, slow start from
 * one segment after a timeout (MinTCP) or a resend of everything unacknowledged with the window
 * kept (LineRate), one-byte probes after ProbeAfterTimeouts consecutive timeouts, a window cap,
 * and segments tagged with their flow's priority (PfabricPriorityPolicy) and class. There is no
 * handshake: a connection is open when Connect returns, and its first byte is 1, as after ns-3's
 * SYN.
 */
class PfabricLeanSender : public PfabricFlowSender
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    PfabricLeanSender();
    ~PfabricLeanSender() override;

    /**
     * @brief Configure the sender before Connect, as PfabricTcpSocketFactory configures a
     * PfabricMinTcpSocket.
     * @param transport the host's transport
     * @param segmentSize payload bytes per segment
     * @param initialWindow the initial window, segments
     * @param maxWindow the window cap, segments; 0: none
     * @param rto the fixed retransmission timeout
     * @param probeAfterTimeouts consecutive timeouts before probing; 0: never
     * @param lineRate LineRate (true) or MinTCP
     */
    void Configure(Ptr<PfabricHostTransport> transport,
                   uint32_t segmentSize,
                   uint32_t initialWindow,
                   uint32_t maxWindow,
                   Time rto,
                   uint32_t probeAfterTimeouts,
                   bool lineRate);
    /**
     * @brief Leave segments no faster than the NIC serialises them (PfabricTcpSocket's
     * SetPacingLineRate).
     * @param rate the NIC's line rate
     * @param overheadBytes the bytes the network adds to a segment's payload
     */
    void SetPacingLineRate(DataRate rate, uint32_t overheadBytes);
    /**
     * @brief Tag data segments with their flow's rank plus offset (PfabricTcpSocket's).
     * @param policy ranks the flow of each data segment
     * @param offset added to the rank, at least 1
     */
    void SetPriorityPolicy(Ptr<PfabricPriorityPolicy> policy, uint64_t offset);
    /**
     * @brief Whether a reused connection's next flow starts from the initial ssthresh
     * (PfabricTcpSocket::SetRestartSsThresh).
     * @param restart whether to restart it
     */
    void SetRestartSsThresh(bool restart);

    void Connect(Ipv4Address destination, uint16_t port) override;
    void StartFlow(Time deadline) override;
    void SetTrafficClass(uint8_t trafficClass) override;
    void SendFlowBytes(uint64_t bytes) override;
    void StopFlow() override;
    uint64_t GetTimeouts() const override;
    uint64_t GetRemainingBytes() const override;
    bool IsProbing() const override;

    /**
     * @brief An ACK for this sender arrived (PfabricHostTransport).
     * @param header its TCP header
     */
    void ReceiveAck(const TcpHeader& header);

  protected:
    void DoDispose() override;

  private:
    /// TcpSocketBase::ProcessAck for this configuration.
    void ProcessAck(SequenceNumber32 ack, bool sacked, SequenceNumber32 oldHead);
    /// TcpSocketBase::DupAck for this configuration (no recovery without fast retransmit).
    void DupAck();
    /**
     * @brief Enter or leave probe mode, reporting a change ("ProbeMode").
     * @param probing whether one-byte probes are sent
     */
    void SetProbing(bool probing);
    /**
     * @brief A cumulative ACK advanced (TcpSocketBase and PfabricMinTcpSocket's NewAck).
     * @param ack the ACK
     */
    void NewAck(SequenceNumber32 ack);
    /// Send what the window and the pacing timer allow (TcpSocketBase::SendPendingData).
    void SendPendingData();
    /**
     * @brief Send one data segment (TcpSocketBase::SendDataPacket).
     * @param seq its first byte
     * @param maxSize its largest payload
     * @return its payload bytes
     */
    uint32_t SendDataPacket(SequenceNumber32 seq, uint32_t maxSize);
    /// @return the window less the bytes in flight; 0 while probing or stopped
    uint32_t AvailableWindow() const;
    /// (Re)start the retransmission timer: it expires one Rto from now.
    void StartRetxTimer();
    /// Stop the retransmission timer.
    void StopRetxTimer();
    /// The timer's event: reschedule for a later deadline, or time out.
    void RetxTimerFired();
    /// The retransmission timer expired.
    void ReTxTimeout();
    /// MinTCP's timeout: slow start from one segment (TcpSocketBase::ReTxTimeout).
    void WindowTimeout();
    /// LineRate's timeout: resend what is not acknowledged, keep the window.
    void LineRateTimeout();
    /// Probe mode's timeout: one byte at the head of the unacknowledged data.
    void SendProbe();
    /// The pacing timer expired.
    void PacingDone();
    /// @return where the current flow stands, for the priority policy
    PfabricFlowProgress GetFlowProgress() const;

    Ptr<PfabricHostTransport> m_transport;       //!< the host's transport
    Ipv4Address m_destination;                   //!< the receiving host
    uint16_t m_port;                             //!< this sender's port
    uint16_t m_peerPort;                         //!< the listener's port
    Ptr<TcpTxBuffer> m_txBuffer;                 //!< send buffer and scoreboard
    Ptr<TcpSocketState> m_tcb;                   //!< window, ssthresh, congestion state
    Ptr<TcpCongestionOps> m_congestionControl;   //!< the window's arithmetic
    uint32_t m_maxWindow;                        //!< window cap, segments; 0: none
    Time m_rto;                                  //!< the fixed retransmission timeout
    uint32_t m_probeAfterTimeouts;               //!< consecutive timeouts before probing; 0: never
    bool m_lineRate;                             //!< LineRate sender
    bool m_pacing;                               //!< paced at m_pacingRate
    DataRate m_pacingRate;                       //!< the payload rate of the NIC's line rate
    Ptr<PfabricPriorityPolicy> m_priorityPolicy; //!< ranks data segments; nullptr: none
    uint64_t m_priorityOffset;                   //!< added to a data segment's rank
    bool m_restartSsThresh;                      //!< a reused connection's ssthresh restarts
    std::optional<uint8_t> m_trafficClass;       //!< the class of its segments, if any
    SequenceNumber32 m_nextTxSequence;           //!< the next byte to send
    SequenceNumber32 m_highTxMark;               //!< one past the highest byte sent
    SequenceNumber32 m_highRxAckMark;            //!< the highest cumulative ACK
    SequenceNumber32 m_recover;                  //!< the recovery point after a timeout
    bool m_recoverActive;                        //!< m_recover is set
    uint32_t m_dupAckCount;                      //!< duplicate ACKs in a row
    uint32_t m_bytesAckedNotProcessed;           //!< ACKed bytes short of a segment
    EventId m_retxEvent;                         //!< the retransmission timer's event
    Time m_retxDeadline;                         //!< when it expires; Time::Max(): stopped
    EventId m_pacingEvent;                       //!< the pacing timer
    uint64_t m_timeouts;                         //!< timeouts with data outstanding
    uint32_t m_consecutiveTimeouts;              //!< timeouts since an ACK last advanced
    bool m_probing;                              //!< sending one-byte probes
    bool m_carriedFlow;                          //!< a flow was handed over before
    uint64_t m_flowBytes;                        //!< bytes of the current flow
    Time m_flowDeadline;                         //!< its deadline; Time::Max(): none
    bool m_flowStopped;                          //!< StopFlow was called
};

} // namespace ns3

#endif /* PFABRIC_LEAN_SENDER_H */
