/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricTcpSocket: what every scheme's ns-3 TCP socket shares (flows on reused connections,
// timeouts, pacing, tags).

#include "pfabric-tcp-socket.h"

#include "pfabric-class-tag.h"
#include "pfabric-flow-sender.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-tx-buffer.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricTcpSocket");

NS_OBJECT_ENSURE_REGISTERED(PfabricTcpSocket);

TypeId
PfabricTcpSocket::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfabricTcpSocket")
            .SetParent<TcpSocketBase>()
            .SetGroupName("Pfabric")
            .AddTraceSource("Timeout",
                            "A retransmission timeout with data outstanding (a loss, as "
                            "GetTimeouts counts them), with the connection's count so far.",
                            MakeTraceSourceAccessor(&PfabricTcpSocket::m_timeoutTrace),
                            "ns3::PfabricTcpSocket::TimeoutCallback");
    return tid;
}

PfabricTcpSocket::PfabricTcpSocket()
    : pfabric::TcpSocketBaseCompat(),
      m_priorityOffset(1),
      m_timeouts(0),
      m_carriedFlow(false),
      m_flowBytes(0),
      m_flowDeadline(Time::Max()),
      m_flowStopped(false),
      m_restartSsThresh(true)
{
    NS_LOG_FUNCTION(this);
}

PfabricTcpSocket::PfabricTcpSocket(const PfabricTcpSocket& sock)
    : pfabric::TcpSocketBaseCompat(sock),
      PfabricTcpDemux::Connection(sock),
      m_tagger(sock.m_tagger),
      m_priorityPolicy(sock.m_priorityPolicy),
      m_priorityOffset(sock.m_priorityOffset),
      m_timeouts(0),
      m_carriedFlow(false),
      m_flowBytes(0),
      m_flowDeadline(Time::Max()),
      m_flowStopped(false),
      m_restartSsThresh(sock.m_restartSsThresh)
{
    NS_LOG_FUNCTION(this);
}

PfabricTcpSocket::~PfabricTcpSocket()
{
    NS_LOG_FUNCTION(this);
}

void
PfabricTcpSocket::StartFlow(Time deadline)
{
    NS_LOG_FUNCTION(this << deadline);
    NS_ABORT_MSG_IF(m_txBuffer->Size() > 0,
                    "PfabricTcpSocket::StartFlow: the previous flow is not fully acknowledged; "
                    "a connection carries one flow at a time");
    if (m_carriedFlow)
    {
        RestartForFlow();
    }
    m_flowBytes = 0;
    m_flowDeadline = deadline;
}

void
PfabricTcpSocket::StopFlow()
{
    NS_LOG_FUNCTION(this);
    m_flowStopped = true;
    // Nothing may fire into the stopped flow: no retransmission, no paced send, no window probe.
    if (!m_retxEvent.IsExpired())
    {
        m_retxEvent.Cancel();
    }
    if (!m_persistEvent.IsExpired())
    {
        m_persistEvent.Cancel();
    }
    m_pacingTimer.Cancel();
}

bool
PfabricTcpSocket::IsFlowStopped() const
{
    return m_flowStopped;
}

uint32_t
PfabricTcpSocket::AvailableWindow() const
{
    return m_flowStopped ? 0 : TcpSocketBase::AvailableWindow();
}

void
PfabricTcpSocket::ReceivedAck(Ptr<Packet> packet, const TcpHeader& tcpHeader)
{
    // An ACK could advance the window, start recovery or re-arm the timer: all of them send.
    if (m_flowStopped)
    {
        NS_LOG_LOGIC("flow stopped: ACK " << tcpHeader.GetAckNumber() << " ignored");
        return;
    }
    TcpSocketBase::ReceivedAck(packet, tcpHeader);
}

void
PfabricTcpSocket::RestartForFlow()
{
    NS_LOG_FUNCTION(this);
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
    // Nothing is outstanding, so no timer should run; one left over would fire into the new
    // flow.
    if (!m_retxEvent.IsExpired())
    {
        m_retxEvent.Cancel();
    }
}

void
PfabricTcpSocket::SetRestartSsThresh(bool restart)
{
    m_restartSsThresh = restart;
}

void
PfabricTcpSocket::SetTagger(Ptr<PfabricTcpTagger> tagger)
{
    m_tagger = tagger;
}

void
PfabricTcpSocket::SetTrafficClass(uint8_t trafficClass)
{
    m_trafficClass = trafficClass;
}

std::optional<uint8_t>
PfabricTcpSocket::GetTrafficClass() const
{
    return m_trafficClass;
}

void
PfabricTcpSocket::SetPriorityPolicy(Ptr<PfabricPriorityPolicy> policy, uint64_t offset)
{
    NS_ABORT_MSG_IF(offset == 0,
                    "PfabricTcpSocket: the priority offset must be at least 1, or data could "
                    "tie with ACKs");
    NS_ABORT_MSG_IF(policy && !m_tagger,
                    "PfabricTcpSocket: a priority policy needs the node's PfabricTcpTagger "
                    "(SetTagger) to tag segments");
    m_priorityPolicy = policy;
    m_priorityOffset = offset;
}

Ptr<PfabricPriorityPolicy>
PfabricTcpSocket::GetPriorityPolicy() const
{
    return m_priorityPolicy;
}

uint64_t
PfabricTcpSocket::GetSegmentPriority(uint32_t payloadBytes) const
{
    if (payloadBytes == 0)
    {
        return 0;
    }
    return m_priorityPolicy->GetSegmentPriority(GetFlowProgress(), m_priorityOffset);
}

PfabricFlowProgress
PfabricTcpSocket::GetFlowProgress() const
{
    // The bytes above the highest sequence sent are the ones never sent.
    uint64_t unsent = m_txBuffer->SizeFromSequence(m_tcb->m_highTxMark);
    return PfabricFlowProgress{m_flowBytes,
                               m_flowBytes > unsent ? m_flowBytes - unsent : 0,
                               GetRemainingBytes(),
                               m_flowDeadline,
                               Simulator::Now()};
}

uint64_t
PfabricTcpSocket::GetRemainingBytes() const
{
    // The buffer holds every byte handed to the socket and not yet cumulatively acknowledged;
    // the application hands it the whole flow, so the buffer's tail is the flow's last byte.
    return m_txBuffer->Size() - m_txBuffer->GetSacked();
}

uint64_t
PfabricTcpSocket::GetTimeouts() const
{
    return m_timeouts;
}

bool
PfabricTcpSocket::IsProbing() const
{
    return false;
}

uint32_t
PfabricTcpSocket::GetInitialWindow(const FactorySettings& settings) const
{
    return settings.initialWindow;
}

Time
PfabricTcpSocket::GetInitialRtt() const
{
    return GetMinRto();
}

bool
PfabricTcpSocket::IsRtoFromRttEstimate() const
{
    return true;
}

bool
PfabricTcpSocket::HasSlowStart() const
{
    return true;
}

bool
PfabricTcpSocket::TagsEverySegment() const
{
    return false;
}

bool
PfabricTcpSocket::IsPacedAtLineRate(const FactorySettings& settings) const
{
    return settings.hostPacing;
}

std::vector<std::string>
PfabricTcpSocket::GetTransportSocketAttributes() const
{
    return {};
}

std::string
PfabricTcpSocket::GetAttributeText(const TypeId::AttributeInformation& info) const
{
    if (info.accessor->HasGetter())
    {
        Ptr<AttributeValue> value = info.checker->Create();
        GetAttribute(info.name, *value);
        return value->SerializeToString(info.checker);
    }
    if (info.name == USE_ECN_ATTRIBUTE)
    {
        // EnumValue(mode): the class template's deduction since ns-3.41, an int before.
        return EnumValue(m_tcb->m_useEcn).SerializeToString(info.checker);
    }
    return info.initialValue->SerializeToString(info.checker);
}

void
PfabricTcpSocket::SetPacingLineRate(DataRate rate, uint32_t overheadBytes)
{
    NS_LOG_FUNCTION(this << rate << overheadBytes);
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0,
                    "PfabricTcpSocket: the pacing line rate must be "
                    "positive");
    const DataRate payloadRate =
        PfabricFlowSender::GetPayloadRate(rate, m_tcb->m_segmentSize, overheadBytes);
    m_tcb->m_pacing = true;
    m_tcb->m_paceInitialWindow = true;
    m_tcb->m_maxPacingRate = payloadRate;
    m_tcb->m_pacingRate = payloadRate;
}

int
PfabricTcpSocket::Send(Ptr<Packet> p, uint32_t flags)
{
    int handed = TcpSocketBase::Send(p, flags);
    if (handed > 0)
    {
        m_flowBytes += static_cast<uint64_t>(handed);
        m_carriedFlow = true;
    }
    return handed;
}

bool
PfabricTcpSocket::IsDataOutstanding() const
{
    return m_state != CLOSED && m_state != TIME_WAIT && m_state != SYN_SENT &&
           m_txBuffer->Size() > 0;
}

void
PfabricTcpSocket::ReTxTimeout()
{
    NS_LOG_FUNCTION(this);
    if (m_flowStopped)
    {
        return; // cancelled by StopFlow; a timer armed in the same instant lands here
    }
    if (!IsDataOutstanding())
    {
        TcpSocketBase::ReTxTimeout();
        return;
    }
    ++m_timeouts;
    m_timeoutTrace(m_timeouts);
    DataTimeout();
}

void
PfabricTcpSocket::DataTimeout()
{
    TcpSocketBase::ReTxTimeout();
}

uint32_t
PfabricTcpSocket::SendDataPacket(SequenceNumber32 seq, uint32_t maxSize, bool withAck)
{
    // Undo ns-3's cwnd/RTT update of the pacing rate, which would pace a small window below
    // line rate (SetPacingLineRate). A congestion control that sets the pacing rate itself
    // (HasCongControl: BBR) keeps its own, capped at line rate by m_maxPacingRate, as ns-3's
    // UpdatePacingRate leaves it.
    if (m_tcb->m_pacing && !m_congestionControl->HasCongControl())
    {
        m_tcb->m_pacingRate = m_tcb->m_maxPacingRate;
    }
    if (!m_priorityPolicy)
    {
        return TcpSocketBase::SendDataPacket(seq, maxSize, withAck);
    }
    // A data segment: maxSize is at least one byte, and the buffer holds data at seq.
    PfabricTcpTagger::Stamp stamp(*m_tagger, GetSegmentPriority(maxSize), m_trafficClass);
    return TcpSocketBase::SendDataPacket(seq, maxSize, withAck);
}

void
PfabricTcpSocket::SendEmptyPacket(uint8_t flags)
{
    if (!m_priorityPolicy)
    {
        TcpSocketBase::SendEmptyPacket(flags);
        return;
    }
    PfabricTcpTagger::Stamp stamp(*m_tagger, GetSegmentPriority(0), m_trafficClass);
    TcpSocketBase::SendEmptyPacket(flags);
}

void
PfabricTcpSocket::ReceivedData(Ptr<Packet> packet, const TcpHeader& tcpHeader)
{
    if (std::optional<uint8_t> trafficClass = PfabricClassTag::Find(packet))
    {
        SetTrafficClass(*trafficClass);
    }
    TcpSocketBase::ReceivedData(packet, tcpHeader);
}

Ipv4EndPoint*
PfabricTcpSocket::GetDemuxEndPoint() const
{
    return m_endPoint;
}

} // namespace ns3
