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
#include "ns3/ipv4-header.h"
#include "ns3/pfabric-priority-policy.h"

#include <cstdint>
#include <optional>

namespace ns3
{

class PfabricHostTransport;
class TcpCongestionOps;
class TcpHeader;
class TcpRateOps;
class TcpRecoveryOps;
class TcpSocketState;
class TcpTxBuffer;

/**
 * @ingroup pfabric
 *
 * @brief The sending end of a TCP connection on the lean host (PfabricHostTransport): what
 * TcpSocketBase does with an established connection's ACKs, without ns-3's TCP/IP stack.
 *
 * It keeps ns-3's own pieces where they decide what is sent: the send buffer and its SACK
 * scoreboard (TcpTxBuffer: which bytes are in flight, lost, or next), the congestion window's
 * arithmetic (any TcpCongestionOps, driven through a TcpSocketState as TcpSocketBase drives
 * it: IncreaseWindow, PktsAcked, GetSsThresh, CongestionStateSet, CwndEvent) and loss recovery
 * (TcpClassicRecovery, as PfabricTcpSocketFactory gives ns-3's sockets). Around them it does
 * what TcpSocketBase does in the module's configuration: SACK on, no timestamps, no delayed
 * ACKs, no Nagle, no limited transmit, duplicate ACKs as RFC 6675 counts them with fast
 * retransmit at a threshold (SetDupAckThreshold), ECN as negotiated when the congestion control
 * asks for it (classic or DCTCP's), pacing at the NIC's rate when set, segments tagged with
 * their flow's priority (PfabricPriorityPolicy) and class. A connection's first byte is 1, as
 * after ns-3's SYN. Without SetHandshake a connection is open when Connect returns; with it,
 * Connect sends ns-3's SYN (its options, flags and ECN field, resent after the connection
 * timeout, doubled at each retry) and the connection opens at the SYN-ACK, which gives the RTT
 * estimator of PfabricLeanBaselineSender its first sample, as ns-3's handshake does. A SYN-ACK
 * resent into the open connection restarts the window and ssthresh, as any SYN does on ns-3's
 * sockets.
 *
 * What a retransmission timeout does, and how long the timer runs, is each transport's own:
 * PfabricLeanMinTcpSender (a fixed timeout) and PfabricLeanBaselineSender (RTT estimation with
 * back-off).
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
     * @brief Configure the sender before Connect.
     * @param transport the host's transport
     * @param segmentSize payload bytes per segment
     * @param initialWindow the initial window, segments
     * @param congestionControl the window's arithmetic; its Init sees this sender's
     *        TcpSocketState, as in TcpSocketBase::SetCongestionControlAlgorithm
     */
    void Configure(Ptr<PfabricHostTransport> transport,
                   uint32_t segmentSize,
                   uint32_t initialWindow,
                   Ptr<TcpCongestionOps> congestionControl);
    /**
     * @brief Negotiate ECN (TcpSocketBase's UseEcn On); a congestion control that needs it
     * (DCTCP) turns it on itself.
     */
    void EnableEcn();
    /**
     * @brief Open connections with ns-3's handshake (TcpSocketBase's ConnTimeout and
     * ConnCount).
     * @param connectionTimeout the time before the first SYN is resent
     * @param synRetries the SYNs sent at most
     */
    void SetHandshake(Time connectionTimeout, uint32_t synRetries);
    /**
     * @brief The duplicate ACKs that start fast retransmit (TcpSocketBase's ReTxThreshold).
     * @param threshold the threshold; PfabricTcpSocket::NO_FAST_RETRANSMIT: never
     */
    void SetDupAckThreshold(uint32_t threshold);
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
     * @param ecn the ECN field of its IP header
     */
    void ReceiveAck(const TcpHeader& header, Ipv4Header::EcnType ecn);

    /**
     * @brief Add the options of ns-3's SYN and SYN-ACK (window scale, SACK permitted).
     * @param header the SYN's or SYN-ACK's header
     */
    static void AddSynOptions(TcpHeader& header);

    /**
     * @brief Count one more SYN or SYN-ACK sent and give the timeout before it is resent, as
     * TcpSocketBase::SendEmptyPacket backs off: the connection timeout doubled for each one sent
     * before it.
     * @param connectionTimeout the first timeout (ns-3's ConnTimeout)
     * @param retries how many may be sent in all (ns-3's ConnCount)
     * @param left how many may still be sent, at least 1; decremented
     * @return the timeout after this one
     */
    static Time TakeSynTimeout(Time connectionTimeout, uint32_t retries, uint32_t& left);

  protected:
    void DoDispose() override;

    /**
     * @brief An ACK arrived, before anything else looks at it (where TcpSocketBase estimates
     * the RTT). Nothing by default.
     * @param ack its acknowledgement number
     */
    virtual void AckArrived(SequenceNumber32 ack);
    /**
     * @brief An ACK of a running flow passed the checks of an established connection and is
     * about to be processed. Nothing by default.
     * @param ack its acknowledgement number
     */
    virtual void AckAccepted(SequenceNumber32 ack);
    /**
     * @brief The cumulative ACK advanced (TcpSocketBase::NewAck), before the timer restarts.
     * Nothing by default.
     * @param resetRto whether the timer restarts
     */
    virtual void AckAdvanced(bool resetRto);
    /**
     * @brief A data segment left. Nothing by default.
     * @param seq its first byte
     * @param size its payload bytes
     * @param retransmission whether it carries bytes sent before
     */
    virtual void SegmentSent(SequenceNumber32 seq, uint32_t size, bool retransmission);
    /// The retransmission timer expired with data outstanding; GetTimeouts counts it already.
    virtual void DataTimeout() = 0;
    /// A connection that carried a flow starts the next one as a new connection would
    /// (PfabricTcpSocket::RestartForFlow).
    virtual void RestartForFlow();
    /// @return the window: the congestion window and the receiver's, the smaller
    virtual uint32_t Window() const;
    /// @return the window less the bytes in flight; 0 when the flow is stopped
    virtual uint32_t AvailableWindow() const;
    /**
     * @brief Enter probe mode or leave it, reporting a change ("ProbeMode").
     * @param probing whether one-byte probes are sent
     */
    void SetProbing(bool probing);

    /// What TcpSocketBase::ReTxTimeout does to the window and the scoreboard, then send.
    void LossTimeout();
    /// Send what the window and the pacing timer allow (TcpSocketBase::SendPendingData).
    void SendPendingData();
    /**
     * @brief Send one data segment (TcpSocketBase::SendDataPacket).
     * @param seq its first byte
     * @param maxSize its largest payload
     * @return its payload bytes
     */
    uint32_t SendDataPacket(SequenceNumber32 seq, uint32_t maxSize);
    /**
     * @brief Set the retransmission timer's length (TcpSocketBase's m_rto); a running timer
     * keeps its expiry until it restarts.
     * @param rto the length
     */
    void SetRto(Time rto);
    /// @return the retransmission timer's length
    Time GetRto() const;
    /// @return the duplicate-ACK threshold
    uint32_t GetDupAckThreshold() const;
    /**
     * @brief Restart the retransmission timer as TcpSocketBase does, cancelling its event and
     * scheduling a new one on every restart, so that a timeout keeps ns-3's place among the
     * events of its nanosecond; otherwise (the default) a restart moves the deadline of the
     * pending event, an event fewer per ACK (StartRetxTimer).
     * @param asNs3 whether to schedule anew on every restart
     */
    void SetRetxTimerAsNs3(bool asNs3);

    Ptr<TcpTxBuffer> m_txBuffer;               //!< send buffer and scoreboard
    Ptr<TcpSocketState> m_tcb;                 //!< window, ssthresh, congestion and ECN state
    Ptr<TcpCongestionOps> m_congestionControl; //!< the window's arithmetic
    uint32_t m_dupAckCount;                    //!< duplicate ACKs in a row
    SequenceNumber32 m_recover;                //!< the recovery point
    bool m_recoverActive;                      //!< m_recover is set after a loss

  private:
    /// Send (or resend) the SYN: TcpSocketBase::SendEmptyPacket(SYN).
    void SendSyn();
    /**
     * @brief The SYN-ACK arrived: TcpSocketBase::ProcessSynSent's completed handshake.
     * @param header its TCP header
     */
    void CompleteHandshake(const TcpHeader& header);
    /// @return the ECN field of a segment without data
    Ipv4Header::EcnType GetEmptySegmentEcn() const;
    /**
     * @brief A SYN-ACK arrived on the open connection: what TcpSocketBase::DoForwardUp does on
     * any SYN.
     * @param header its TCP header
     */
    void ReceiveSynAck(const TcpHeader& header);
    /// @return the receiver's window (TcpSocketBase::GetRWnd, for the send buffer)
    uint32_t GetReceiverWindow() const;

    /**
     * @brief TcpSocketBase::ProcessAck for this configuration.
     * @param ack the ACK
     * @param sacked whether it selectively acknowledged new bytes
     * @param oldHead the first unacknowledged byte before it
     * @param delivered the bytes it newly delivered, SACKed ones included (used from ns-3.43)
     */
    void ProcessAck(SequenceNumber32 ack,
                    bool sacked,
                    SequenceNumber32 oldHead,
                    uint64_t delivered);
    /// TcpSocketBase::DupAck.
    void DupAck();
    /// TcpSocketBase::EnterRecovery: fast retransmit.
    void EnterRecovery();
    /// TcpSocketBase::EnterCwr: the once-a-window response to an ECN echo.
    void EnterCwr();
    /// TcpSocketBase::DoRetransmit: resend the first lost segment, or the head.
    void DoRetransmit();
    /**
     * @brief A cumulative ACK advanced (TcpSocketBase::NewAck).
     * @param ack the ACK
     * @param resetRto whether the retransmission timer restarts
     */
    void NewAck(SequenceNumber32 ack, bool resetRto);
    /// (Re)start the retransmission timer: it expires one RTO from now.
    void StartRetxTimer();
    /// Stop the retransmission timer.
    void StopRetxTimer();
    /// The timer's event: reschedule for a later deadline, or time out.
    void RetxTimerFired();
    /// The retransmission timer expired.
    void ReTxTimeout();
    /// The pacing timer expired.
    void PacingDone();
    /// @return where the current flow stands, for the priority policy
    PfabricFlowProgress GetFlowProgress() const;

    Ptr<PfabricHostTransport> m_transport;       //!< the host's transport
    Ptr<TcpRecoveryOps> m_recoveryOps;           //!< loss recovery (TcpClassicRecovery)
    Ptr<TcpRateOps> m_rateOps;                   //!< delivered bytes (from ns-3.43)
    bool m_handshake;                            //!< connections open with a handshake
    Time m_connectionTimeout;                    //!< before the first SYN is resent
    uint32_t m_synRetries;                       //!< SYNs sent at most
    uint32_t m_synCount;                         //!< SYNs left to send
    EventId m_synEvent;                          //!< the SYN's retransmission
    bool m_connected;                            //!< the connection is open
    Ipv4Address m_destination;                   //!< the receiving host
    uint16_t m_port;                             //!< this sender's port
    uint16_t m_peerPort;                         //!< the listener's port
    uint32_t m_dupAckThreshold;                  //!< duplicate ACKs for fast retransmit
    Time m_rto;                                  //!< the retransmission timer's length
    bool m_pacing;                               //!< paced at m_pacingRate
    DataRate m_pacingRate;                       //!< the payload rate of the NIC's line rate
    Ptr<PfabricPriorityPolicy> m_priorityPolicy; //!< ranks data segments; nullptr: none
    uint64_t m_priorityOffset;                   //!< added to a data segment's rank
    bool m_restartSsThresh;                      //!< a reused connection's ssthresh restarts
    std::optional<uint8_t> m_trafficClass;       //!< the class of its segments, if any
    SequenceNumber32 m_highRxAckMark;            //!< the highest cumulative ACK
    uint32_t m_rWnd;                             //!< the receiver's window (ns-3's m_rWnd)
    uint32_t m_bytesAckedNotProcessed;           //!< ACKed bytes short of a segment
    bool m_isFirstPartialAck;                    //!< the next partial ACK restarts the timer
    SequenceNumber32 m_ecnCeSeq;                 //!< the last ACK counted as CE-marked
    SequenceNumber32 m_ecnEchoSeq;               //!< the last ACK with a valid ECN echo
    SequenceNumber32 m_ecnCwrSeq;                //!< the last segment sent with CWR
    EventId m_retxEvent;                         //!< the retransmission timer's event
    Time m_retxDeadline;                         //!< when it expires; Time::Max(): stopped
    bool m_retxTimerAsNs3;                       //!< a new event on every restart
    EventId m_pacingEvent;                       //!< the pacing timer
    uint64_t m_timeouts;                         //!< timeouts with data outstanding
    bool m_probing;                              //!< sending one-byte probes
    bool m_carriedFlow;                          //!< a flow was handed over before
    uint64_t m_flowBytes;                        //!< bytes of the current flow
    Time m_flowDeadline;                         //!< its deadline; Time::Max(): none
    bool m_flowStopped;                          //!< StopFlow was called
};

} // namespace ns3

#endif /* PFABRIC_LEAN_SENDER_H */
