/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricLeanSender: MinTCP and LineRate on the lean host, the same decisions as
// PfabricMinTcpSocket.

#include "pfabric-lean-sender.h"

#include "pfabric-class-tag.h"
#include "pfabric-host-transport.h"
#include "pfabric-line-rate-congestion-ops.h"
#include "pfabric-priority-tag.h"
#include "pfabric-tcp-socket-factory.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-option-sack.h"
#include "ns3/tcp-socket-state.h"
#include "ns3/tcp-tx-buffer.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricLeanSender");

NS_OBJECT_ENSURE_REGISTERED(PfabricLeanSender);

TypeId
PfabricLeanSender::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfabricLeanSender")
                            .SetParent<PfabricFlowSender>()
                            .SetGroupName("Pfabric")
                            .AddConstructor<PfabricLeanSender>();
    return tid;
}

PfabricLeanSender::PfabricLeanSender()
    : m_port(0),
      m_peerPort(0),
      m_maxWindow(0),
      m_rto(MicroSeconds(40)),
      m_probeAfterTimeouts(0),
      m_lineRate(false),
      m_pacing(false),
      m_priorityOffset(1),
      m_restartSsThresh(true),
      m_nextTxSequence(1),
      m_highTxMark(1),
      m_highRxAckMark(1),
      m_recover(1),
      m_recoverActive(false),
      m_dupAckCount(0),
      m_bytesAckedNotProcessed(0),
      m_retxDeadline(Time::Max()),
      m_timeouts(0),
      m_consecutiveTimeouts(0),
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
    m_retxEvent.Cancel();
    m_pacingEvent.Cancel();
    m_transport = nullptr;
    m_txBuffer = nullptr;
    m_tcb = nullptr;
    m_congestionControl = nullptr;
    m_priorityPolicy = nullptr;
    PfabricFlowSender::DoDispose();
}

void
PfabricLeanSender::Configure(Ptr<PfabricHostTransport> transport,
                             uint32_t segmentSize,
                             uint32_t initialWindow,
                             uint32_t maxWindow,
                             Time rto,
                             uint32_t probeAfterTimeouts,
                             bool lineRate)
{
    NS_LOG_FUNCTION(this << segmentSize << initialWindow << maxWindow << rto << probeAfterTimeouts
                         << lineRate);
    NS_ABORT_MSG_UNLESS(rto.IsStrictlyPositive(), "PfabricLeanSender: the RTO must be positive");
    m_transport = transport;
    m_maxWindow = maxWindow;
    m_rto = rto;
    m_probeAfterTimeouts = probeAfterTimeouts;
    m_lineRate = lineRate;
    m_tcb = CreateObject<TcpSocketState>();
    m_tcb->m_segmentSize = segmentSize;
    m_tcb->m_initialCWnd = initialWindow;
    m_tcb->m_cWnd = initialWindow * segmentSize;
    m_tcb->m_cWndInfl = m_tcb->m_cWnd;
    m_tcb->m_initialSsThresh = std::numeric_limits<uint32_t>::max();
    m_tcb->m_ssThresh = m_tcb->m_initialSsThresh;
    m_congestionControl = lineRate
                              ? Ptr<TcpCongestionOps>(CreateObject<PfabricLineRateCongestionOps>())
                              : Ptr<TcpCongestionOps>(CreateObject<TcpNewReno>());
    m_txBuffer = CreateObject<TcpTxBuffer>();
    m_txBuffer->SetSackEnabled(true);
    m_txBuffer->SetSegmentSize(segmentSize);
    m_txBuffer->SetDupAckThresh(PfabricTcpSocketFactory::NO_FAST_RETRANSMIT);
    m_txBuffer->SetMaxBufferSize(std::numeric_limits<uint32_t>::max());
    m_txBuffer->SetRWndCallback(MakeCallback(+[]() { return RECEIVE_WINDOW; }));
}

void
PfabricLeanSender::SetPacingLineRate(DataRate rate, uint32_t overheadBytes)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "PfabricLeanSender: the pacing rate must be positive");
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
PfabricLeanSender::Connect(Ipv4Address destination, uint16_t port)
{
    NS_LOG_FUNCTION(this << destination << port);
    NS_ABORT_MSG_UNLESS(m_transport, "PfabricLeanSender: Configure first");
    m_destination = destination;
    m_peerPort = port;
    m_port = m_transport->Register(this);
    m_txBuffer->SetHeadSequence(SequenceNumber32(1));
    NotifyConnected();
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
        // PfabricTcpSocket::RestartForFlow and PfabricMinTcpSocket's.
        m_tcb->m_congState = TcpSocketState::CA_OPEN;
        m_tcb->m_cWnd = m_tcb->m_initialCWnd * m_tcb->m_segmentSize;
        m_tcb->m_cWndInfl = m_tcb->m_cWnd;
        if (m_restartSsThresh)
        {
            m_tcb->m_ssThresh = m_tcb->m_initialSsThresh;
        }
        m_dupAckCount = 0;
        m_recoverActive = false;
        StopRetxTimer();
        m_consecutiveTimeouts = 0;
        SetProbing(false);
    }
    m_flowBytes = 0;
    m_flowDeadline = deadline;
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
    NS_ABORT_MSG_IF(bytes == 0 || bytes > std::numeric_limits<uint32_t>::max(),
                    "PfabricLeanSender: a flow has 1 to 4294967295 bytes");
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
    uint64_t unsent = m_txBuffer->SizeFromSequence(m_highTxMark);
    return PfabricFlowProgress{m_flowBytes,
                               m_flowBytes > unsent ? m_flowBytes - unsent : 0,
                               GetRemainingBytes(),
                               m_flowDeadline,
                               Simulator::Now()};
}

void
PfabricLeanSender::ReceiveAck(const TcpHeader& header)
{
    const SequenceNumber32 ack = header.GetAckNumber();
    // TcpSocketBase::UpdateWindowSize traces the highest ACK before the ACK is processed.
    if (ack > m_highRxAckMark)
    {
        m_highRxAckMark = ack;
        NotifyAckAdvanced(ack);
    }
    // TcpSocketBase::ProcessEstablished: an ACK below the cumulative ACK is a duplicate and is
    // ignored, SACK blocks and all (RFC 793); one above what was sent is ignored too. Only the
    // others reach ReceivedAck, where a stopped flow ignores them (PfabricTcpSocket).
    if (ack < m_txBuffer->HeadSequence() || ack > m_highTxMark || m_flowStopped)
    {
        return;
    }
    uint32_t bytesSacked = 0;
    if (Ptr<const TcpOption> option = header.GetOption(TcpOption::SACK))
    {
        bytesSacked = m_txBuffer->Update(DynamicCast<const TcpOptionSack>(option)->GetSackList());
    }
    const SequenceNumber32 oldHead = m_txBuffer->HeadSequence();
    m_txBuffer->DiscardUpTo(ack);
    ProcessAck(ack, bytesSacked > 0, oldHead);
    SendPendingData();
}

void
PfabricLeanSender::ProcessAck(SequenceNumber32 ack, bool sacked, SequenceNumber32 oldHead)
{
    const uint32_t segmentSize = m_tcb->m_segmentSize;
    // With SACK, an ACK is a duplicate when it SACKs new bytes (RFC 6675), as in ns-3.
    if (sacked)
    {
        DupAck();
    }
    if (ack == oldHead && ack == m_highTxMark)
    {
        return;
    }
    if (ack <= oldHead)
    {
        return; // a duplicate: NewReno counts nothing
    }
    uint32_t bytesAcked = ack - oldHead;
    uint32_t segsAcked = bytesAcked / segmentSize;
    m_bytesAckedNotProcessed += bytesAcked % segmentSize;
    if (m_bytesAckedNotProcessed >= segmentSize)
    {
        segsAcked += 1;
        m_bytesAckedNotProcessed -= segmentSize;
    }
    if (!sacked)
    {
        m_dupAckCount = 0;
    }
    auto& state = m_tcb->m_congState;
    if (ack < m_recover && state == TcpSocketState::CA_LOSS)
    {
        m_congestionControl->IncreaseWindow(m_tcb, segsAcked);
        NewAck(ack);
        return;
    }
    if (state == TcpSocketState::CA_DISORDER)
    {
        if (!sacked)
        {
            // Reordering, not loss: ns-3 goes back to Open.
            state = TcpSocketState::CA_OPEN;
        }
    }
    else if (state == TcpSocketState::CA_LOSS)
    {
        segsAcked = (ack - m_recover) / segmentSize;
        state = TcpSocketState::CA_OPEN;
    }
    if (ack >= m_recover)
    {
        m_recoverActive = false;
    }
    if (state == TcpSocketState::CA_OPEN)
    {
        m_congestionControl->IncreaseWindow(m_tcb, segsAcked);
        m_tcb->m_cWndInfl = m_tcb->m_cWnd;
        NewAck(ack);
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
    ++m_dupAckCount;
    if (state == TcpSocketState::CA_OPEN)
    {
        state = TcpSocketState::CA_DISORDER;
    }
    // Without fast retransmit ns-3 never enters recovery from Disorder: the threshold is never
    // met, and the scoreboard never calls a segment lost (TcpTxBuffer::IsLost with the same
    // threshold).
}

void
PfabricLeanSender::NewAck(SequenceNumber32 ack)
{
    // PfabricMinTcpSocket: an advancing ACK ends probe mode and the run of timeouts.
    m_consecutiveTimeouts = 0;
    SetProbing(false);
    if (ack > m_nextTxSequence)
    {
        m_nextTxSequence = ack;
    }
    if (m_txBuffer->Size() == 0)
    {
        StopRetxTimer();
    }
    else
    {
        StartRetxTimer();
    }
}

uint32_t
PfabricLeanSender::AvailableWindow() const
{
    if (m_probing || m_flowStopped)
    {
        return 0;
    }
    uint32_t window = std::min(RECEIVE_WINDOW, m_tcb->m_cWnd.Get());
    if (m_maxWindow > 0)
    {
        window = std::min(window, m_maxWindow * m_tcb->m_segmentSize);
    }
    uint32_t inFlight = m_txBuffer->BytesInFlight();
    return inFlight > window ? 0 : window - inFlight;
}

void
PfabricLeanSender::SendPendingData()
{
    if (m_txBuffer->Size() == 0)
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
        if (!m_txBuffer->NextSeg(&next, &nextHigh, false))
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
        m_nextTxSequence = next;
        uint32_t sent = SendDataPacket(m_nextTxSequence, size);
        m_nextTxSequence += sent;
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
    TcpTxItem* item = m_txBuffer->CopyFromSequence(maxSize, seq);
    Ptr<Packet> segment = item->GetPacketCopy();
    const uint32_t size = segment->GetSize();
    if (m_pacing && m_pacingEvent.IsExpired())
    {
        m_pacingEvent = Simulator::Schedule(m_pacingRate.CalculateBytesTxTime(size),
                                            &PfabricLeanSender::PacingDone,
                                            this);
    }
    TcpHeader header;
    header.SetFlags(TcpHeader::ACK);
    header.SetSequenceNumber(seq);
    header.SetAckNumber(SequenceNumber32(1));
    header.SetSourcePort(m_port);
    header.SetDestinationPort(m_peerPort);
    header.SetWindowSize(ADVERTISED_WINDOW);
    if (m_retxDeadline == Time::Max())
    {
        StartRetxTimer();
    }
    if (m_priorityPolicy)
    {
        PfabricPriorityTag::Set(segment, priority);
    }
    if (m_trafficClass)
    {
        PfabricClassTag::Set(segment, *m_trafficClass);
    }
    m_transport->Send(segment, header, m_destination);
    if (seq + size > m_highTxMark)
    {
        m_highTxMark = seq + size;
    }
    return size;
}

void
PfabricLeanSender::PacingDone()
{
    SendPendingData();
}

void
PfabricLeanSender::StartRetxTimer()
{
    // The timer is (re)started on every advancing ACK: rather than cancel and schedule an event
    // each time, as TcpSocketBase does, the deadline moves and the pending event, which fires
    // no later, schedules itself again for it (RetxTimerFired).
    m_retxDeadline = Simulator::Now() + m_rto;
    if (m_retxEvent.IsExpired())
    {
        m_retxEvent = Simulator::Schedule(m_rto, &PfabricLeanSender::RetxTimerFired, this);
    }
}

void
PfabricLeanSender::StopRetxTimer()
{
    m_retxDeadline = Time::Max();
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
    ++m_consecutiveTimeouts;
    NS_LOG_INFO("Timeout " << m_consecutiveTimeouts << " in a row, head "
                           << m_txBuffer->HeadSequence());
    if (m_probeAfterTimeouts > 0 && m_consecutiveTimeouts >= m_probeAfterTimeouts)
    {
        SetProbing(true);
        SendProbe();
    }
    else if (m_lineRate)
    {
        LineRateTimeout();
    }
    else
    {
        WindowTimeout();
    }
}

void
PfabricLeanSender::WindowTimeout()
{
    uint32_t inFlightBeforeRto = m_txBuffer->BytesInFlight();
    m_dupAckCount = 0;
    m_txBuffer->SetSentListLost(false);
    m_recover = m_highTxMark;
    m_recoverActive = true;
    auto& state = m_tcb->m_congState;
    if (state != TcpSocketState::CA_LOSS || !m_txBuffer->IsHeadRetransmitted())
    {
        m_tcb->m_ssThresh = m_congestionControl->GetSsThresh(m_tcb, inFlightBeforeRto);
    }
    state = TcpSocketState::CA_LOSS;
    m_tcb->m_cWnd = m_tcb->m_segmentSize;
    m_tcb->m_cWndInfl = m_tcb->m_cWnd;
    m_pacingEvent.Cancel();
    SendPendingData();
}

void
PfabricLeanSender::LineRateTimeout()
{
    // PfabricMinTcpSocket::LineRateTimeout: ns-3's scoreboard after a timeout, the window kept.
    m_dupAckCount = 0;
    m_txBuffer->SetSentListLost(false);
    m_recover = m_highTxMark;
    m_recoverActive = true;
    m_tcb->m_congState = TcpSocketState::CA_LOSS;
    SendPendingData();
}

void
PfabricLeanSender::SendProbe()
{
    m_txBuffer->SetSentListLost(false);
    SendDataPacket(m_txBuffer->HeadSequence(), 1);
}

} // namespace ns3
