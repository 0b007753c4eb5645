/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfabric-min-tcp-socket.h"

#include "pfabric-priority-tag.h"
#include "pfabric-socket-state.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-tx-buffer.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricMinTcpSocket");

NS_OBJECT_ENSURE_REGISTERED(PfabricMinTcpSocket);

TypeId
PfabricMinTcpSocket::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfabricMinTcpSocket")
                            .SetParent<TcpSocketBase>()
                            .SetGroupName("Pfabric")
                            .AddConstructor<PfabricMinTcpSocket>();
    return tid;
}

PfabricMinTcpSocket::PfabricMinTcpSocket()
    : TcpSocketBase(),
      m_fixedRto(MicroSeconds(40)),
      m_maxWindow(0),
      m_probeAfterTimeouts(0),
      m_priorityOffset(1),
      m_lineRate(false),
      m_consecutiveTimeouts(0),
      m_timeouts(0),
      m_probing(false)
{
    NS_LOG_FUNCTION(this);
    m_txTrace.ConnectWithoutContext(MakeCallback(&PfabricMinTcpSocket::TagSegment));
}

PfabricMinTcpSocket::PfabricMinTcpSocket(const PfabricMinTcpSocket& sock)
    : TcpSocketBase(sock),
      PfabricTcpDemux::Connection(sock),
      m_fixedRto(sock.m_fixedRto),
      m_maxWindow(sock.m_maxWindow),
      m_probeAfterTimeouts(sock.m_probeAfterTimeouts),
      m_priorityOffset(sock.m_priorityOffset),
      m_lineRate(sock.m_lineRate),
      m_consecutiveTimeouts(0),
      m_timeouts(0),
      m_probing(false)
{
    NS_LOG_FUNCTION(this);
    // Some ns-3 releases copy the "Tx" trace with the socket, others do not: connect exactly once.
    m_txTrace.DisconnectWithoutContext(MakeCallback(&PfabricMinTcpSocket::TagSegment));
    m_txTrace.ConnectWithoutContext(MakeCallback(&PfabricMinTcpSocket::TagSegment));
}

PfabricMinTcpSocket::~PfabricMinTcpSocket()
{
    NS_LOG_FUNCTION(this);
}

void
PfabricMinTcpSocket::SetFixedRto(Time rto)
{
    NS_ABORT_MSG_UNLESS(rto.IsStrictlyPositive(), "PfabricMinTcpSocket: the RTO must be positive");
    m_fixedRto = rto;
}

Time
PfabricMinTcpSocket::GetFixedRto() const
{
    return m_fixedRto;
}

void
PfabricMinTcpSocket::SetMaxWindow(uint32_t segments)
{
    m_maxWindow = segments;
}

void
PfabricMinTcpSocket::SetProbeAfterTimeouts(uint32_t timeouts)
{
    m_probeAfterTimeouts = timeouts;
}

void
PfabricMinTcpSocket::SetPriorityOffset(uint64_t offset)
{
    NS_ABORT_MSG_IF(offset == 0,
                    "PfabricMinTcpSocket: the priority offset must be at least 1, or data "
                    "could tie with ACKs");
    m_priorityOffset = offset;
}

void
PfabricMinTcpSocket::SetLineRate(DataRate rate, uint32_t overheadBytes)
{
    NS_LOG_FUNCTION(this << rate << overheadBytes);
    m_lineRate = true;
    SetPacingLineRate(rate, overheadBytes);
}

void
PfabricMinTcpSocket::SetPacingLineRate(DataRate rate, uint32_t overheadBytes)
{
    NS_LOG_FUNCTION(this << rate << overheadBytes);
    pfabric::PaceAtLineRate(m_tcb, rate, overheadBytes);
}

void
PfabricMinTcpSocket::StartFlow()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_txBuffer->Size() > 0,
                    "PfabricMinTcpSocket::StartFlow: the previous flow is not fully "
                    "acknowledged; a connection carries one flow at a time");
    pfabric::RestartWindow(m_tcb, m_congestionControl);
    m_dupAckCount = 0;
    m_recoverActive = false;
    m_consecutiveTimeouts = 0;
    m_probing = false;
    // Nothing is outstanding, so no timer should run; one left over would fire into the new
    // flow before its first RTO.
    m_rto = m_fixedRto;
    if (!m_retxEvent.IsExpired())
    {
        m_retxEvent.Cancel();
    }
}

bool
PfabricMinTcpSocket::IsProbing() const
{
    return m_probing;
}

uint32_t
PfabricMinTcpSocket::GetConsecutiveTimeouts() const
{
    return m_consecutiveTimeouts;
}

uint64_t
PfabricMinTcpSocket::GetTimeouts() const
{
    return m_timeouts;
}

uint64_t
PfabricMinTcpSocket::GetRemainingBytes() const
{
    // The buffer holds every byte handed to the socket and not yet cumulatively acknowledged;
    // the application hands it the whole flow, so the buffer's tail is the flow's last byte.
    return m_txBuffer->Size() - m_txBuffer->GetSacked();
}

uint64_t
PfabricMinTcpSocket::GetSegmentPriority(uint32_t payloadBytes) const
{
    return payloadBytes == 0 ? 0 : GetRemainingBytes() + m_priorityOffset;
}

void
PfabricMinTcpSocket::TagSegment(Ptr<const Packet> packet,
                                const TcpHeader& /* header */,
                                Ptr<const TcpSocketBase> socket)
{
    // Connected only to this class's own trace (constructor, copy constructor): no check needed
    // on this per-segment path.
    Ptr<const PfabricMinTcpSocket> self = StaticCast<const PfabricMinTcpSocket>(socket);
    PfabricPriorityTag::Set(ConstCast<Packet>(packet), self->GetSegmentPriority(packet->GetSize()));
}

Ptr<TcpSocketBase>
PfabricMinTcpSocket::Fork()
{
    return CopyObject<PfabricMinTcpSocket>(this);
}

Ipv4EndPoint*
PfabricMinTcpSocket::GetDemuxEndPoint() const
{
    return m_endPoint;
}

uint32_t
PfabricMinTcpSocket::SendDataPacket(SequenceNumber32 seq, uint32_t maxSize, bool withAck)
{
    // ns-3 doubles m_rto on a timeout before it resends; the resend arms the timer from m_rto.
    m_rto = m_fixedRto;
    pfabric::KeepLineRatePacing(*m_tcb);
    return TcpSocketBase::SendDataPacket(seq, maxSize, withAck);
}

void
PfabricMinTcpSocket::EstimateRtt(const TcpHeader& tcpHeader)
{
    TcpSocketBase::EstimateRtt(tcpHeader);
    m_rto = m_fixedRto;
}

void
PfabricMinTcpSocket::NewAck(const SequenceNumber32& seq, bool resetRTO)
{
    NS_LOG_FUNCTION(this << seq << resetRTO);
    if (m_probing)
    {
        NS_LOG_INFO("ACK " << seq << " advanced: probe mode ends");
    }
    m_consecutiveTimeouts = 0;
    m_probing = false;
    TcpSocketBase::NewAck(seq, resetRTO);
    RearmFixedRto();
}

void
PfabricMinTcpSocket::RearmFixedRto()
{
    // ns-3 arms the timer with its RTT estimate in NewAck; the timer was armed just now.
    if (m_rto.Get() != m_fixedRto)
    {
        m_rto = m_fixedRto;
        if (!m_retxEvent.IsExpired())
        {
            m_retxEvent.Cancel();
            m_retxEvent = Simulator::Schedule(m_fixedRto, &PfabricMinTcpSocket::ReTxTimeout, this);
        }
    }
}

void
PfabricMinTcpSocket::ReTxTimeout()
{
    NS_LOG_FUNCTION(this);
    bool dataOutstanding =
        m_state != CLOSED && m_state != TIME_WAIT && m_state != SYN_SENT && m_txBuffer->Size() > 0;
    if (!dataOutstanding)
    {
        TcpSocketBase::ReTxTimeout();
        return;
    }
    ++m_consecutiveTimeouts;
    ++m_timeouts;
    NS_LOG_INFO("Timeout " << m_consecutiveTimeouts << " in a row, head "
                           << m_txBuffer->HeadSequence());
    if (m_probeAfterTimeouts > 0 && m_consecutiveTimeouts >= m_probeAfterTimeouts)
    {
        m_probing = true;
        SendProbe();
    }
    else if (m_lineRate)
    {
        LineRateTimeout();
    }
    else
    {
        TcpSocketBase::ReTxTimeout();
    }
}

void
PfabricMinTcpSocket::SendProbe()
{
    NS_LOG_FUNCTION(this);
    // Nothing but the probe is in flight: once it is acknowledged, the window (one segment
    // after the timeouts that led here) resends what is missing straight away.
    m_txBuffer->SetSentListLost(false);
    SendDataPacket(m_txBuffer->HeadSequence(), 1, m_connected);
}

void
PfabricMinTcpSocket::LineRateTimeout()
{
    NS_LOG_FUNCTION(this);
    // What ns-3's timeout does to the scoreboard (everything sent and not selectively
    // acknowledged is lost and goes again, first), without touching the window.
    m_dupAckCount = 0;
    m_txBuffer->SetSentListLost(false);
    m_recover = m_tcb->m_highTxMark;
    m_recoverActive = true;
    m_congestionControl->CongestionStateSet(m_tcb, TcpSocketState::CA_LOSS);
    m_tcb->m_congState = TcpSocketState::CA_LOSS;
    SendPendingData(m_connected);
}

uint32_t
PfabricMinTcpSocket::Window() const
{
    uint32_t window = TcpSocketBase::Window();
    if (m_maxWindow > 0)
    {
        window = std::min(window, m_maxWindow * m_tcb->m_segmentSize);
    }
    return window;
}

uint32_t
PfabricMinTcpSocket::AvailableWindow() const
{
    return m_probing ? 0 : TcpSocketBase::AvailableWindow();
}

} // namespace ns3
