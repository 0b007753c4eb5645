/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricLeanSender: the sending end of a TCP connection on the lean host, the same decisions as
// TcpSocketBase on an established connection.

#include "pfabric-lean-sender.h"

#include "pfabric-class-tag.h"
#include "pfabric-compat.h"
#include "pfabric-flow-application.h"
#include "pfabric-host-transport.h"
#include "pfabric-priority-tag.h"
#include "pfabric-tcp-socket.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-option-sack-permitted.h"
#include "ns3/tcp-option-sack.h"
#include "ns3/tcp-option-winscale.h"
#include "ns3/tcp-rate-ops.h"
#include "ns3/tcp-recovery-ops.h"
#include "ns3/tcp-rx-buffer.h"
#include "ns3/tcp-socket-state.h"
#include "ns3/tcp-tx-buffer.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricLeanSender");

NS_OBJECT_ENSURE_REGISTERED(PfabricLeanSender);

TypeId
PfabricLeanSender::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfabricLeanSender").SetParent<PfabricFlowSender>().SetGroupName("Pfabric");
    return tid;
}

PfabricLeanSender::PfabricLeanSender()
    : m_dupAckCount(0),
      m_recover(1),
      m_recoverActive(false),
      m_handshake(false),
      m_synRetries(0),
      m_synCount(0),
      m_connected(false),
      m_port(0),
      m_peerPort(0),
      m_dupAckThreshold(PfabricTcpSocket::NO_FAST_RETRANSMIT),
      m_rto(0),
      m_pacing(false),
      m_priorityOffset(1),
      m_restartSsThresh(true),
      m_highRxAckMark(1),
      m_rWnd(RECEIVE_WINDOW),
      m_bytesAckedNotProcessed(0),
      m_isFirstPartialAck(true),
      m_ecnCeSeq(0),
      m_ecnEchoSeq(0),
      m_ecnCwrSeq(0),
      m_retxDeadline(Time::Max()),
      m_retxTimerAsNs3(false),
      m_timeouts(0),
      m_probing(false),
      m_carriedFlow(false),
      m_flowBytes(0),
      m_flowDeadline(Time::Max()),
      m_flowStopped(false)
{
    NS_LOG_FUNCTION(this);
}

PfabricLeanSender::~PfabricLeanSender()
{
    NS_LOG_FUNCTION(this);
}

void
PfabricLeanSender::DoDispose()
{
    m_synEvent.Cancel();
    m_retxEvent.Cancel();
    m_pacingEvent.Cancel();
    m_transport = nullptr;
    m_txBuffer = nullptr;
    m_tcb = nullptr;
    m_congestionControl = nullptr;
    m_recoveryOps = nullptr;
    m_rateOps = nullptr;
    m_priorityPolicy = nullptr;
    PfabricFlowSender::DoDispose();
}

void
PfabricLeanSender::Configure(Ptr<PfabricHostTransport> transport,
                             uint32_t segmentSize,
                             uint32_t initialWindow,
                             Ptr<TcpCongestionOps> congestionControl)
{
    NS_LOG_FUNCTION(this << segmentSize << initialWindow << congestionControl);
    NS_ABORT_MSG_UNLESS(transport && congestionControl,
                        "PfabricLeanSender: a transport and a congestion control are needed");
    m_transport = transport;
    m_tcb = CreateObject<TcpSocketState>();
    m_tcb->m_segmentSize = segmentSize;
    m_tcb->m_initialCWnd = initialWindow;
    m_tcb->m_cWnd = initialWindow * segmentSize;
    m_tcb->m_cWndInfl = m_tcb->m_cWnd;
    m_tcb->m_initialSsThresh = std::numeric_limits<uint32_t>::max();
    m_tcb->m_ssThresh = m_tcb->m_initialSsThresh;
    m_tcb->m_nextTxSequence = SequenceNumber32(1);
    m_tcb->m_highTxMark = SequenceNumber32(1);
    // Nothing is received here, but DCTCP reads the receive buffer when an ACK is CE-marked.
    m_tcb->m_rxBuffer = CreateObject<TcpRxBuffer>();
    m_tcb->m_rxBuffer->SetNextRxSequence(SequenceNumber32(1));
    m_congestionControl = congestionControl;
    m_congestionControl->Init(m_tcb);
    m_recoveryOps = CreateObject<TcpClassicRecovery>();
    if (pfabric::TCP_RECOVERY_COUNTS_DELIVERED)
    {
        m_rateOps = CreateObject<TcpRateLinux>();
    }
    m_txBuffer = CreateObject<TcpTxBuffer>();
    m_txBuffer->SetSackEnabled(true);
    m_txBuffer->SetSegmentSize(segmentSize);
    m_txBuffer->SetDupAckThresh(m_dupAckThreshold);
    m_txBuffer->SetMaxBufferSize(std::numeric_limits<uint32_t>::max());
    m_txBuffer->SetRWndCallback(MakeCallback(&PfabricLeanSender::GetReceiverWindow, this));
}

void
PfabricLeanSender::EnableEcn()
{
    NS_ABORT_MSG_UNLESS(m_tcb, "PfabricLeanSender: Configure first");
    m_tcb->m_useEcn = TcpSocketState::On;
}

void
PfabricLeanSender::SetHandshake(Time connectionTimeout, uint32_t synRetries)
{
    NS_ABORT_MSG_UNLESS(connectionTimeout.IsStrictlyPositive() && synRetries > 0,
                        "PfabricLeanSender: a handshake needs a positive connection timeout and "
                        "at least one SYN");
    m_handshake = true;
    m_connectionTimeout = connectionTimeout;
    m_synRetries = synRetries;
}

void
PfabricLeanSender::SetDupAckThreshold(uint32_t threshold)
{
    NS_ABORT_MSG_IF(threshold == 0, "PfabricLeanSender: the duplicate-ACK threshold is at least 1");
    m_dupAckThreshold = threshold;
    if (m_txBuffer)
    {
        m_txBuffer->SetDupAckThresh(threshold);
    }
}

uint32_t
PfabricLeanSender::GetDupAckThreshold() const
{
    return m_dupAckThreshold;
}

void
PfabricLeanSender::SetPacingLineRate(DataRate rate, uint32_t overheadBytes)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "PfabricLeanSender: the pacing rate must be positive");
    NS_ABORT_MSG_UNLESS(m_tcb, "PfabricLeanSender: Configure first");
    m_pacingRate = GetPayloadRate(rate, m_tcb->m_segmentSize, overheadBytes);
    m_pacing = true;
}

void
PfabricLeanSender::SetPriorityPolicy(Ptr<PfabricPriorityPolicy> policy, uint64_t offset)
{
    NS_ABORT_MSG_IF(offset == 0, "PfabricLeanSender: the priority offset must be at least 1");
    m_priorityPolicy = policy;
    m_priorityOffset = offset;
}

void
PfabricLeanSender::SetRestartSsThresh(bool restart)
{
    m_restartSsThresh = restart;
}

void
PfabricLeanSender::SetRto(Time rto)
{
    NS_ABORT_MSG_UNLESS(rto.IsStrictlyPositive(), "PfabricLeanSender: the RTO must be positive");
    m_rto = rto;
}

Time
PfabricLeanSender::GetRto() const
{
    return m_rto;
}

void
PfabricLeanSender::Connect(Ipv4Address destination, uint16_t port)
{
    NS_LOG_FUNCTION(this << destination << port);
    NS_ABORT_MSG_UNLESS(m_transport, "PfabricLeanSender: Configure first");
    m_destination = destination;
    m_peerPort = port;
    m_port = m_transport->Register(this);
    m_txBuffer->SetHeadSequence(SequenceNumber32(1));
    if (m_handshake)
    {
        m_synCount = m_synRetries;
        SendSyn();
        return;
    }
    // Both ends use the same scheme, so ns-3's handshake would have agreed on ECN.
    m_tcb->m_ecnState = m_tcb->m_useEcn == TcpSocketState::On ? TcpSocketState::ECN_IDLE
                                                              : TcpSocketState::ECN_DISABLED;
    m_connected = true;
    NotifyConnected();
}

void
PfabricLeanSender::SendSyn()
{
    if (m_synCount == 0)
    {
        NS_LOG_WARN("no SYN left to send: the connection never opens");
        return;
    }
    const Time timeout = TakeSynTimeout(m_connectionTimeout, m_synRetries, m_synCount);
    // The first SYN starts the RTT history; a resent one changes nothing there (ns-3 marks a
    // zero-length entry, which no sequence number falls in).
    SegmentSent(SequenceNumber32(0), 0, m_synRetries - 1 != m_synCount);
    TcpHeader header;
    const bool ecn = m_tcb->m_useEcn == TcpSocketState::On;
    header.SetFlags(ecn ? TcpHeader::SYN | TcpHeader::ECE | TcpHeader::CWR : TcpHeader::SYN);
    header.SetSequenceNumber(SequenceNumber32(0));
    header.SetAckNumber(SequenceNumber32(0));
    header.SetSourcePort(m_port);
    header.SetDestinationPort(m_peerPort);
    header.SetWindowSize(ADVERTISED_WINDOW);
    AddSynOptions(header);
    m_transport->Send(Create<Packet>(), header, m_destination, GetEmptySegmentEcn());
    if (m_synEvent.IsExpired())
    {
        m_synEvent = Simulator::Schedule(timeout, &PfabricLeanSender::SendSyn, this);
    }
}

void
PfabricLeanSender::CompleteHandshake(const TcpHeader& header)
{
    NS_LOG_FUNCTION(this);
    AckArrived(header.GetAckNumber());
    // TcpSocketBase::DoForwardUp: the SYN-ACK's window field, unscaled, until the first ACK.
    m_rWnd = header.GetWindowSize();
    m_synEvent.Cancel();
    m_congestionControl->CongestionStateSet(m_tcb, TcpSocketState::CA_OPEN);
    m_tcb->m_congState = TcpSocketState::CA_OPEN;
    m_connected = true;
    TcpHeader ack;
    ack.SetFlags(TcpHeader::ACK);
    ack.SetSequenceNumber(SequenceNumber32(1));
    ack.SetAckNumber(header.GetSequenceNumber() + SequenceNumber32(1));
    ack.SetSourcePort(m_port);
    ack.SetDestinationPort(m_peerPort);
    ack.SetWindowSize(ADVERTISED_WINDOW);
    m_transport->Send(Create<Packet>(), ack, m_destination, GetEmptySegmentEcn());
    const uint8_t echo = header.GetFlags() & (TcpHeader::CWR | TcpHeader::ECE);
    m_tcb->m_ecnState = m_tcb->m_useEcn == TcpSocketState::On && echo == TcpHeader::ECE
                            ? TcpSocketState::ECN_IDLE
                            : TcpSocketState::ECN_DISABLED;
    SendPendingData();
    Simulator::ScheduleNow(&PfabricLeanSender::NotifyConnected, this);
}

Ipv4Header::EcnType
PfabricLeanSender::GetEmptySegmentEcn() const
{
    // TcpSocketBase::AddSocketTags: DCTCP's mode makes every segment ECN-capable, classic ECN
    // only those with data.
    return m_tcb->m_ecnMode == TcpSocketState::DctcpEcn
               ? static_cast<Ipv4Header::EcnType>(m_tcb->m_ectCodePoint)
               : Ipv4Header::ECN_NotECT;
}

Time
PfabricLeanSender::TakeSynTimeout(Time connectionTimeout, uint32_t retries, uint32_t& left)
{
    NS_ASSERT(left > 0 && left <= retries);
    const Time timeout = connectionTimeout * (int64_t{1} << (retries - left));
    --left;
    return timeout;
}

void
PfabricLeanSender::AddSynOptions(TcpHeader& header)
{
    // TcpSocketBase::SendEmptyPacket on a SYN: window scaling and SACK permitted.
    auto scale = CreateObject<TcpOptionWinScale>();
    scale->SetScale(WINDOW_SCALE);
    header.AppendOption(scale);
    header.AppendOption(CreateObject<TcpOptionSackPermitted>());
}

void
PfabricLeanSender::StartFlow(Time deadline)
{
    NS_LOG_FUNCTION(this << deadline);
    NS_ABORT_MSG_IF(m_txBuffer->Size() > 0,
                    "PfabricLeanSender::StartFlow: the previous flow is not fully acknowledged; "
                    "a connection carries one flow at a time");
    if (m_carriedFlow)
    {
        RestartForFlow();
    }
    m_flowBytes = 0;
    m_flowDeadline = deadline;
}

void
PfabricLeanSender::RestartForFlow()
{
    if (m_tcb->m_congState != TcpSocketState::CA_OPEN)
    {
        m_congestionControl->CongestionStateSet(m_tcb, TcpSocketState::CA_OPEN);
        m_tcb->m_congState = TcpSocketState::CA_OPEN;
    }
    m_tcb->m_cWnd = m_tcb->m_initialCWnd * m_tcb->m_segmentSize;
    m_tcb->m_cWndInfl = m_tcb->m_cWnd;
    if (m_restartSsThresh)
    {
        m_tcb->m_ssThresh = m_tcb->m_initialSsThresh;
    }
    m_dupAckCount = 0;
    m_recoverActive = false;
    StopRetxTimer();
}

void
PfabricLeanSender::SetProbing(bool probing)
{
    if (probing != m_probing)
    {
        m_probing = probing;
        NotifyProbeMode(probing);
    }
}

void
PfabricLeanSender::SetTrafficClass(uint8_t trafficClass)
{
    m_trafficClass = trafficClass;
}

void
PfabricLeanSender::SendFlowBytes(uint64_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    NS_ABORT_MSG_IF(bytes == 0 || bytes > PfabricFlowApplication::MAX_FLOW_BYTES,
                    "PfabricLeanSender: a flow has 1 to " << PfabricFlowApplication::MAX_FLOW_BYTES
                                                          << " bytes");
    m_txBuffer->Add(Create<Packet>(static_cast<uint32_t>(bytes)));
    m_flowBytes += bytes;
    m_carriedFlow = true;
    // As TcpSocketBase::Send: the segments go one time step later.
    Simulator::Schedule(TimeStep(1), &PfabricLeanSender::SendPendingData, this);
}

void
PfabricLeanSender::StopFlow()
{
    NS_LOG_FUNCTION(this);
    m_flowStopped = true;
    StopRetxTimer();
    m_retxEvent.Cancel();
    m_pacingEvent.Cancel();
}

uint64_t
PfabricLeanSender::GetTimeouts() const
{
    return m_timeouts;
}

uint64_t
PfabricLeanSender::GetRemainingBytes() const
{
    return m_txBuffer->Size() - m_txBuffer->GetSacked();
}

bool
PfabricLeanSender::IsProbing() const
{
    return m_probing;
}

PfabricFlowProgress
PfabricLeanSender::GetFlowProgress() const
{
    uint64_t unsent = m_txBuffer->SizeFromSequence(m_tcb->m_highTxMark);
    return PfabricFlowProgress{m_flowBytes,
                               m_flowBytes > unsent ? m_flowBytes - unsent : 0,
                               GetRemainingBytes(),
                               m_flowDeadline,
                               Simulator::Now()};
}

void
PfabricLeanSender::AckArrived(SequenceNumber32 /* ack */)
{
}

void
PfabricLeanSender::AckAccepted(SequenceNumber32 /* ack */)
{
}

void
PfabricLeanSender::AckAdvanced(bool /* resetRto */)
{
}

void
PfabricLeanSender::SegmentSent(SequenceNumber32 /* seq */,
                               uint32_t /* size */,
                               bool /* retransmission */)
{
}

void
PfabricLeanSender::ReceiveAck(const TcpHeader& header, Ipv4Header::EcnType ecn)
{
    const SequenceNumber32 ack = header.GetAckNumber();
    // TcpSocketBase::ForwardUp: a CE mark on the ACK itself. DCTCP sends its ACKs ECN-capable
    // too, and an ACK's sequence number never grows, so only the first marked one counts.
    if (ecn == Ipv4Header::ECN_CE && m_ecnCeSeq < header.GetSequenceNumber())
    {
        m_ecnCeSeq = header.GetSequenceNumber();
        m_tcb->m_ecnState = TcpSocketState::ECN_CE_RCVD;
        m_congestionControl->CwndEvent(m_tcb, TcpSocketState::CA_EVENT_ECN_IS_CE);
    }
    else if (ecn != Ipv4Header::ECN_NotECT && m_tcb->m_ecnState != TcpSocketState::ECN_DISABLED)
    {
        m_congestionControl->CwndEvent(m_tcb, TcpSocketState::CA_EVENT_ECN_NO_CE);
    }
    if (!m_connected)
    {
        // SYN_SENT: only the SYN-ACK of this connection's SYN counts.
        const uint8_t synAck = TcpHeader::SYN | TcpHeader::ACK;
        if ((header.GetFlags() & synAck) == synAck && ack == SequenceNumber32(1))
        {
            CompleteHandshake(header);
        }
        return;
    }
    if (header.GetFlags() & TcpHeader::SYN)
    {
        ReceiveSynAck(header);
        return;
    }
    AckArrived(ack);
    // TcpSocketBase::UpdateWindowSize, before the ACK is processed: the receiver's window
    // (after a SYN-ACK, the first ACK always restores the scaled one), and the highest ACK,
    // traced. The receiver's sequence number, its third condition, never changes after its
    // first ACK, which meets one of the others.
    const uint32_t window = uint32_t{header.GetWindowSize()} << WINDOW_SCALE;
    if ((ack == m_highRxAckMark && window > m_rWnd) || ack > m_highRxAckMark)
    {
        m_rWnd = window;
    }
    if (ack > m_highRxAckMark)
    {
        m_highRxAckMark = ack;
        NotifyAckAdvanced(ack);
    }
    // TcpSocketBase::ProcessEstablished: an ACK below the cumulative ACK is a duplicate and is
    // ignored, SACK blocks and all (RFC 793); one above what was sent is ignored too. Only the
    // others reach ReceivedAck, where a stopped flow ignores them (PfabricTcpSocket).
    if (ack < m_txBuffer->HeadSequence() || ack > m_tcb->m_highTxMark || m_flowStopped)
    {
        return;
    }
    AckAccepted(ack);
    // TcpSocketBase::ReceivedAck.
    // From ns-3.43 the window grows by the bytes an ACK delivered, as ns-3's rate sampling
    // counts them (each segment once, when first SACKed or wholly acknowledged).
    Callback<void, TcpTxItem*> delivered;
    uint64_t deliveredBefore = 0;
    if (m_rateOps)
    {
        delivered = MakeCallback(&TcpRateOps::SkbDelivered, m_rateOps);
        deliveredBefore = m_rateOps->GetConnectionRate().m_delivered;
    }
    uint32_t bytesSacked = 0;
    if (Ptr<const TcpOption> option = header.GetOption(TcpOption::SACK))
    {
        bytesSacked =
            m_txBuffer->Update(DynamicCast<const TcpOptionSack>(option)->GetSackList(), delivered);
    }
    const SequenceNumber32 oldHead = m_txBuffer->HeadSequence();
    m_txBuffer->DiscardUpTo(ack, delivered);
    const uint64_t currentDelivered =
        m_rateOps ? m_rateOps->GetConnectionRate().m_delivered - deliveredBefore : 0;
    auto& state = m_tcb->m_congState;
    if (state == TcpSocketState::CA_CWR && ack > m_recover)
    {
        state = TcpSocketState::CA_OPEN;
        m_tcb->m_cWnd = m_tcb->m_ssThresh.Get();
        m_recoveryOps->ExitRecovery(m_tcb);
        m_congestionControl->CwndEvent(m_tcb, TcpSocketState::CA_EVENT_COMPLETE_CWR);
    }
    if (ack > oldHead && m_tcb->m_ecnState != TcpSocketState::ECN_DISABLED &&
        (header.GetFlags() & TcpHeader::ECE))
    {
        if (m_ecnEchoSeq < ack)
        {
            m_ecnEchoSeq = ack;
            m_tcb->m_ecnState = TcpSocketState::ECN_ECE_RCVD;
            if (state != TcpSocketState::CA_CWR)
            {
                EnterCwr();
            }
        }
    }
    else if (m_tcb->m_ecnState == TcpSocketState::ECN_ECE_RCVD &&
             !(header.GetFlags() & TcpHeader::ECE))
    {
        m_tcb->m_ecnState = TcpSocketState::ECN_IDLE;
    }
    ProcessAck(ack, bytesSacked > 0, oldHead, currentDelivered);
    SendPendingData();
}

void
PfabricLeanSender::ReceiveSynAck(const TcpHeader& header)
{
    NS_LOG_FUNCTION(this << header);
    // The receiver resent its SYN-ACK (its timer fired while this sender's handshake ACK and
    // data were lost) or answered a resent SYN, and the duplicate can arrive in the middle of
    // the flow, after a timeout. TcpSocketBase::DoForwardUp acts on any SYN before its state
    // machine ignores it (ProcessEstablished): the window and ssthresh restart from their
    // initial values, the congestion state staying as it is; the SYN's window field, unscaled,
    // is the receiver's window until the next ACK; the RTT is estimated from its ACK number
    // and that number becomes the highest ACK, traced (the flow's progress) even though it
    // moves back.
    m_tcb->m_cWnd = m_tcb->m_initialCWnd * m_tcb->m_segmentSize;
    m_tcb->m_cWndInfl = m_tcb->m_cWnd;
    m_tcb->m_ssThresh = m_tcb->m_initialSsThresh;
    m_rWnd = header.GetWindowSize();
    const SequenceNumber32 ack = header.GetAckNumber();
    AckArrived(ack);
    if (ack != m_highRxAckMark)
    {
        m_highRxAckMark = ack;
        NotifyAckAdvanced(ack);
    }
}

void
PfabricLeanSender::ProcessAck(SequenceNumber32 ack,
                              bool sacked,
                              SequenceNumber32 oldHead,
                              uint64_t delivered)
{
    const uint32_t segmentSize = m_tcb->m_segmentSize;
    const uint32_t oldDupAckCount = m_dupAckCount;
    bool exitedFastRecovery = false;
    m_tcb->m_lastAckedSeq = ack;
    // With SACK, an ACK is a duplicate when it SACKs new bytes (RFC 6675), as in ns-3.
    if (sacked)
    {
        DupAck();
    }
    if (ack == oldHead && ack == m_tcb->m_highTxMark)
    {
        return;
    }
    if (ack == oldHead)
    {
        // ns-3: after all, one segment left the network.
        m_congestionControl->PktsAcked(m_tcb, 1, m_tcb->m_lastRtt);
        return;
    }
    uint32_t bytesAcked =
        pfabric::TCP_RECOVERY_COUNTS_DELIVERED ? static_cast<uint32_t>(delivered) : ack - oldHead;
    uint32_t segsAcked = bytesAcked / segmentSize;
    m_bytesAckedNotProcessed += bytesAcked % segmentSize;
    bytesAcked -= bytesAcked % segmentSize;
    if (m_bytesAckedNotProcessed >= segmentSize)
    {
        segsAcked += 1;
        bytesAcked += segmentSize;
        m_bytesAckedNotProcessed -= segmentSize;
    }
    if (!sacked)
    {
        m_dupAckCount = 0;
    }
    auto& state = m_tcb->m_congState;
    if (ack < m_recover && state == TcpSocketState::CA_RECOVERY)
    {
        // A partial ACK (RFC 6675 (B)): resend the next hole unless it went again already.
        if (segsAcked >= 1)
        {
            pfabric::DoRecoveryCompat(*m_recoveryOps, m_tcb, 0, false);
        }
        if (!m_txBuffer->IsRetransmittedDataAcked(ack + segmentSize))
        {
            DoRetransmit();
            const uint32_t inflated = m_tcb->m_cWndInfl.Get();
            m_tcb->m_cWndInfl = inflated > bytesAcked ? inflated - bytesAcked : 0;
        }
        m_congestionControl->PktsAcked(m_tcb, 1, m_tcb->m_lastRtt);
        NewAck(ack, m_isFirstPartialAck);
        m_isFirstPartialAck = false;
        return;
    }
    if (ack < m_recover && state == TcpSocketState::CA_LOSS)
    {
        m_congestionControl->PktsAcked(m_tcb, segsAcked, m_tcb->m_lastRtt);
        m_congestionControl->IncreaseWindow(m_tcb, segsAcked);
        NewAck(ack, true);
        return;
    }
    if (state == TcpSocketState::CA_CWR)
    {
        m_congestionControl->PktsAcked(m_tcb, segsAcked, m_tcb->m_lastRtt);
        if (segsAcked >= 1)
        {
            pfabric::DoRecoveryCompat(*m_recoveryOps, m_tcb, 0, false);
        }
        NewAck(ack, true);
        return;
    }
    if (state == TcpSocketState::CA_OPEN)
    {
        m_congestionControl->PktsAcked(m_tcb, segsAcked, m_tcb->m_lastRtt);
    }
    else if (state == TcpSocketState::CA_DISORDER)
    {
        if (segsAcked >= oldDupAckCount)
        {
            m_congestionControl->PktsAcked(m_tcb, segsAcked - oldDupAckCount, m_tcb->m_lastRtt);
        }
        if (!sacked)
        {
            // Reordering, not loss: ns-3 goes back to Open.
            m_congestionControl->CongestionStateSet(m_tcb, TcpSocketState::CA_OPEN);
            state = TcpSocketState::CA_OPEN;
        }
    }
    else if (state == TcpSocketState::CA_RECOVERY)
    {
        m_isFirstPartialAck = true;
        segsAcked = (ack - oldHead) / segmentSize;
        m_congestionControl->PktsAcked(m_tcb, segsAcked, m_tcb->m_lastRtt);
        m_congestionControl->CwndEvent(m_tcb, TcpSocketState::CA_EVENT_COMPLETE_CWR);
        m_congestionControl->CongestionStateSet(m_tcb, TcpSocketState::CA_OPEN);
        state = TcpSocketState::CA_OPEN;
        exitedFastRecovery = true;
        m_dupAckCount = 0;
    }
    else if (state == TcpSocketState::CA_LOSS)
    {
        m_isFirstPartialAck = true;
        segsAcked = (ack - m_recover) / segmentSize;
        m_congestionControl->PktsAcked(m_tcb, segsAcked, m_tcb->m_lastRtt);
        m_congestionControl->CongestionStateSet(m_tcb, TcpSocketState::CA_OPEN);
        state = TcpSocketState::CA_OPEN;
    }
    if (ack >= m_recover)
    {
        m_recoverActive = false;
    }
    if (exitedFastRecovery)
    {
        NewAck(ack, true);
        m_tcb->m_cWnd = m_tcb->m_ssThresh.Get();
        m_recoveryOps->ExitRecovery(m_tcb);
    }
    if (state == TcpSocketState::CA_OPEN)
    {
        m_congestionControl->IncreaseWindow(m_tcb, segsAcked);
        m_tcb->m_cWndInfl = m_tcb->m_cWnd;
        NewAck(ack, true);
    }
}

void
PfabricLeanSender::DupAck()
{
    auto& state = m_tcb->m_congState;
    if (state == TcpSocketState::CA_LOSS)
    {
        return;
    }
    if (state != TcpSocketState::CA_RECOVERY)
    {
        ++m_dupAckCount;
    }
    if (state == TcpSocketState::CA_OPEN)
    {
        m_congestionControl->CongestionStateSet(m_tcb, TcpSocketState::CA_DISORDER);
        state = TcpSocketState::CA_DISORDER;
    }
    if (state == TcpSocketState::CA_RECOVERY)
    {
        pfabric::DoRecoveryCompat(*m_recoveryOps, m_tcb, 0, true);
    }
    else if (state == TcpSocketState::CA_DISORDER)
    {
        // RFC 6675 (1) and (2); without fast retransmit neither can hold: the threshold is never
        // met, and the scoreboard never calls a segment lost (IsLost uses the same threshold).
        if (m_dupAckCount == m_dupAckThreshold &&
            (m_highRxAckMark >= m_recover || !m_recoverActive))
        {
            EnterRecovery();
        }
        else if (m_txBuffer->IsLost(pfabric::TCP_RECOVERY_COUNTS_DELIVERED
                                        ? m_highRxAckMark
                                        : m_highRxAckMark + m_tcb->m_segmentSize))
        {
            EnterRecovery();
        }
    }
}

void
PfabricLeanSender::EnterRecovery()
{
    NS_LOG_FUNCTION(this);
    if (!m_txBuffer->IsLost(m_txBuffer->HeadSequence()))
    {
        m_txBuffer->MarkHeadAsLost();
    }
    m_recover = m_tcb->m_highTxMark;
    m_recoverActive = true;
    m_congestionControl->CongestionStateSet(m_tcb, TcpSocketState::CA_RECOVERY);
    m_tcb->m_congState = TcpSocketState::CA_RECOVERY;
    m_tcb->m_ssThresh = m_congestionControl->GetSsThresh(m_tcb, m_txBuffer->BytesInFlight());
    m_recoveryOps->EnterRecovery(m_tcb,
                                 m_dupAckCount,
                                 m_tcb->m_highTxMark - m_txBuffer->HeadSequence(),
                                 0);
    if (pfabric::TCP_RECOVERY_COUNTS_DELIVERED)
    {
        SendDataPacket(m_highRxAckMark, m_tcb->m_segmentSize);
    }
    else
    {
        DoRetransmit();
    }
}

void
PfabricLeanSender::EnterCwr()
{
    NS_LOG_FUNCTION(this);
    m_tcb->m_ssThresh = m_congestionControl->GetSsThresh(m_tcb, m_txBuffer->BytesInFlight());
    m_tcb->m_cWndInfl = m_tcb->m_ssThresh;
    m_tcb->m_congState = TcpSocketState::CA_CWR;
    m_recover = m_tcb->m_highTxMark;
    m_recoveryOps->EnterRecovery(m_tcb,
                                 m_dupAckCount,
                                 m_tcb->m_highTxMark - m_txBuffer->HeadSequence(),
                                 0);
}

void
PfabricLeanSender::DoRetransmit()
{
    SequenceNumber32 seq;
    SequenceNumber32 seqHigh;
    uint32_t maxSize = m_tcb->m_segmentSize;
    if (m_txBuffer->NextSeg(&seq, &seqHigh, false))
    {
        maxSize = static_cast<uint32_t>(seqHigh - seq);
    }
    else
    {
        seq = m_txBuffer->HeadSequence();
    }
    m_tcb->m_nextTxSequence = seq;
    SendDataPacket(seq, maxSize);
}

void
PfabricLeanSender::NewAck(SequenceNumber32 ack, bool resetRto)
{
    AckAdvanced(resetRto);
    if (resetRto)
    {
        StartRetxTimer();
    }
    if (ack > m_tcb->m_nextTxSequence)
    {
        m_tcb->m_nextTxSequence = ack;
    }
    if (m_txBuffer->Size() == 0)
    {
        StopRetxTimer();
    }
}

uint32_t
PfabricLeanSender::Window() const
{
    return std::min(m_rWnd, m_tcb->m_cWnd.Get());
}

uint32_t
PfabricLeanSender::GetReceiverWindow() const
{
    return m_rWnd;
}

uint32_t
PfabricLeanSender::AvailableWindow() const
{
    if (m_flowStopped)
    {
        return 0;
    }
    const uint32_t window = Window();
    const uint32_t inFlight = m_txBuffer->BytesInFlight();
    return inFlight > window ? 0 : window - inFlight;
}

void
PfabricLeanSender::SendPendingData()
{
    if (m_txBuffer->Size() == 0 || !m_connected)
    {
        return;
    }
    const uint32_t segmentSize = m_tcb->m_segmentSize;
    uint32_t available = AvailableWindow();
    while (available > 0)
    {
        if (m_pacing && !m_pacingEvent.IsExpired())
        {
            break;
        }
        SequenceNumber32 next;
        SequenceNumber32 nextHigh;
        const bool rule3 = m_tcb->m_congState == TcpSocketState::CA_RECOVERY;
        if (!m_txBuffer->NextSeg(&next, &nextHigh, rule3))
        {
            break;
        }
        uint32_t availableData = m_txBuffer->SizeFromSequence(next);
        // Silly window avoidance, as ns-3: a segment smaller than the window allows waits,
        // unless it is the last of the data.
        if (available < segmentSize && availableData > available)
        {
            break;
        }
        uint32_t size = std::min({available, segmentSize, static_cast<uint32_t>(nextHigh - next)});
        m_tcb->m_nextTxSequence = next;
        if (m_txBuffer->BytesInFlight() == 0)
        {
            m_congestionControl->CwndEvent(m_tcb, TcpSocketState::CA_EVENT_TX_START);
        }
        uint32_t sent = SendDataPacket(next, size);
        m_tcb->m_nextTxSequence += sent;
        available = AvailableWindow();
    }
}

uint32_t
PfabricLeanSender::SendDataPacket(SequenceNumber32 seq, uint32_t maxSize)
{
    uint64_t priority = 0;
    if (m_priorityPolicy)
    {
        priority = m_priorityPolicy->GetSegmentPriority(GetFlowProgress(), m_priorityOffset);
    }
    const bool startOfTransmission = m_rateOps && m_txBuffer->BytesInFlight() == 0;
    TcpTxItem* item = m_txBuffer->CopyFromSequence(maxSize, seq);
    if (m_rateOps)
    {
        m_rateOps->SkbSent(item, startOfTransmission);
    }
    const bool retransmission = item->IsRetrans();
    Ptr<Packet> segment = item->GetPacketCopy();
    const uint32_t size = segment->GetSize();
    if (m_pacing && m_pacingEvent.IsExpired())
    {
        m_pacingEvent = Simulator::Schedule(m_pacingRate.CalculateBytesTxTime(size),
                                            &PfabricLeanSender::PacingDone,
                                            this);
    }
    uint8_t flags = TcpHeader::ACK;
    if (m_tcb->m_ecnState == TcpSocketState::ECN_ECE_RCVD && m_ecnEchoSeq > m_ecnCwrSeq &&
        !retransmission)
    {
        m_tcb->m_ecnState = TcpSocketState::ECN_CWR_SENT;
        m_ecnCwrSeq = seq;
        flags |= TcpHeader::CWR;
    }
    TcpHeader header;
    header.SetFlags(flags);
    header.SetSequenceNumber(seq);
    header.SetAckNumber(SequenceNumber32(1));
    header.SetSourcePort(m_port);
    header.SetDestinationPort(m_peerPort);
    header.SetWindowSize(ADVERTISED_WINDOW);
    if (m_retxDeadline == Time::Max())
    {
        StartRetxTimer();
    }
    // As PfabricTcpSocket: a sender that ranks nothing tags nothing, its class included.
    if (m_priorityPolicy)
    {
        PfabricPriorityTag::Set(segment, priority);
        if (m_trafficClass)
        {
            PfabricClassTag::Set(segment, *m_trafficClass);
        }
    }
    // From ns-3.43 classic ECN leaves retransmissions not ECN-capable; DCTCP marks them all.
    const bool ect = m_tcb->m_ecnState != TcpSocketState::ECN_DISABLED &&
                     (!retransmission || !pfabric::TCP_RECOVERY_COUNTS_DELIVERED ||
                      m_tcb->m_ecnMode == TcpSocketState::DctcpEcn);
    const auto ecn =
        ect ? static_cast<Ipv4Header::EcnType>(m_tcb->m_ectCodePoint) : Ipv4Header::ECN_NotECT;
    m_transport->Send(segment, header, m_destination, ecn);
    SegmentSent(seq, size, retransmission);
    if (seq + size > m_tcb->m_highTxMark)
    {
        m_tcb->m_highTxMark = seq + size;
    }
    pfabric::SetCwndLimitedCompat(*m_tcb,
                                  m_tcb->m_cWnd <
                                      m_txBuffer->BytesInFlight() + m_tcb->m_segmentSize);
    return size;
}

void
PfabricLeanSender::PacingDone()
{
    SendPendingData();
}

void
PfabricLeanSender::SetRetxTimerAsNs3(bool asNs3)
{
    m_retxTimerAsNs3 = asNs3;
}

void
PfabricLeanSender::StartRetxTimer()
{
    // The timer is (re)started on every advancing ACK. With SetRetxTimerAsNs3, as
    // TcpSocketBase::NewAck does, the pending event is cancelled and a new one scheduled every
    // time. Otherwise the deadline moves and the pending event, which fires no later, schedules
    // itself again for it (RetxTimerFired); only a timer that would now fire too late (the RTO
    // shrank) is scheduled afresh. That saves an event per ACK, but the event that times out then
    // takes another place than ns-3's among the events of its nanosecond (the simulator runs them
    // in the order they were scheduled), and a timeout in the same nanosecond as another host's NIC
    // finishing a segment can come after it instead of before: their next segments then reach
    // a switch in the other order and take each other's sprayed paths.
    NS_ASSERT_MSG(m_rto.IsStrictlyPositive(), "PfabricLeanSender: a subclass sets the RTO");
    m_retxDeadline = Simulator::Now() + m_rto;
    if (m_retxTimerAsNs3 || m_retxEvent.IsExpired() ||
        static_cast<int64_t>(m_retxEvent.GetTs()) > m_retxDeadline.GetTimeStep())
    {
        m_retxEvent.Cancel();
        m_retxEvent = Simulator::Schedule(m_rto, &PfabricLeanSender::RetxTimerFired, this);
    }
}

void
PfabricLeanSender::StopRetxTimer()
{
    m_retxDeadline = Time::Max();
    if (m_retxTimerAsNs3)
    {
        m_retxEvent.Cancel();
    }
}

void
PfabricLeanSender::RetxTimerFired()
{
    if (m_retxDeadline == Time::Max())
    {
        return;
    }
    const Time now = Simulator::Now();
    if (now < m_retxDeadline)
    {
        m_retxEvent =
            Simulator::Schedule(m_retxDeadline - now, &PfabricLeanSender::RetxTimerFired, this);
        return;
    }
    m_retxDeadline = Time::Max();
    ReTxTimeout();
}

void
PfabricLeanSender::ReTxTimeout()
{
    NS_LOG_FUNCTION(this);
    if (m_flowStopped || m_txBuffer->Size() == 0)
    {
        return;
    }
    ++m_timeouts;
    NotifyTimeout(m_timeouts);
    DataTimeout();
}

void
PfabricLeanSender::LossTimeout()
{
    const uint32_t inFlightBeforeRto = m_txBuffer->BytesInFlight();
    m_dupAckCount = 0;
    m_txBuffer->SetSentListLost(false);
    m_recover = m_tcb->m_highTxMark;
    m_recoverActive = true;
    auto& state = m_tcb->m_congState;
    if (state != TcpSocketState::CA_LOSS || !m_txBuffer->IsHeadRetransmitted())
    {
        m_tcb->m_ssThresh = m_congestionControl->GetSsThresh(m_tcb, inFlightBeforeRto);
    }
    m_congestionControl->CwndEvent(m_tcb, TcpSocketState::CA_EVENT_LOSS);
    m_congestionControl->CongestionStateSet(m_tcb, TcpSocketState::CA_LOSS);
    state = TcpSocketState::CA_LOSS;
    m_tcb->m_cWnd = m_tcb->m_segmentSize;
    m_tcb->m_cWndInfl = m_tcb->m_cWnd;
    m_pacingEvent.Cancel();
    SendPendingData();
}

} // namespace ns3
