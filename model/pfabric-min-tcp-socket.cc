/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricMinTcpSocket: MinTCP and LineRate, pFabric's end hosts, on ns-3's TCP.

#include "pfabric-min-tcp-socket.h"

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
    static TypeId tid =
        TypeId("ns3::PfabricMinTcpSocket")
            .SetParent<PfabricTcpSocket>()
            .SetGroupName("Pfabric")
            .AddConstructor<PfabricMinTcpSocket>()
            .AddTraceSource("ProbeMode",
                            "Probe mode begins (true: ProbeAfterTimeouts "
                            "consecutive timeouts) or ends (false: an ACK "
                            "advanced, or the next flow starts).",
                            MakeTraceSourceAccessor(&PfabricMinTcpSocket::m_probeModeTrace),
                            "ns3::PfabricMinTcpSocket::ProbeModeCallback");
    return tid;
}

PfabricMinTcpSocket::PfabricMinTcpSocket()
    : PfabricTcpSocket(),
      m_fixedRto(MicroSeconds(40)),
      m_maxWindow(0),
      m_probeAfterTimeouts(0),
      m_lineRate(false),
      m_consecutiveTimeouts(0),
      m_probing(false)
{
    NS_LOG_FUNCTION(this);
}

PfabricMinTcpSocket::PfabricMinTcpSocket(const PfabricMinTcpSocket& sock)
    : PfabricTcpSocket(sock),
      m_fixedRto(sock.m_fixedRto),
      m_maxWindow(sock.m_maxWindow),
      m_probeAfterTimeouts(sock.m_probeAfterTimeouts),
      m_lineRate(sock.m_lineRate),
      m_consecutiveTimeouts(0),
      m_probing(false)
{
    NS_LOG_FUNCTION(this);
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
PfabricMinTcpSocket::SetLineRate(DataRate rate, uint32_t overheadBytes)
{
    NS_LOG_FUNCTION(this << rate << overheadBytes);
    m_lineRate = true;
    SetPacingLineRate(rate, overheadBytes);
}

void
PfabricMinTcpSocket::RestartForFlow()
{
    NS_LOG_FUNCTION(this);
    PfabricTcpSocket::RestartForFlow();
    m_consecutiveTimeouts = 0;
    SetProbing(false);
    m_rto = m_fixedRto;
}

void
PfabricMinTcpSocket::SetProbing(bool probing)
{
    if (probing != m_probing)
    {
        m_probing = probing;
        m_probeModeTrace(probing);
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

Ptr<TcpSocketBase>
PfabricMinTcpSocket::Fork()
{
    return CopyObject<PfabricMinTcpSocket>(this);
}

uint32_t
PfabricMinTcpSocket::SendDataPacket(SequenceNumber32 seq, uint32_t maxSize, bool withAck)
{
    // ns-3 doubles m_rto on a timeout before it resends; the resend arms the timer from m_rto.
    m_rto = m_fixedRto;
    return PfabricTcpSocket::SendDataPacket(seq, maxSize, withAck);
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
    SetProbing(false);
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
PfabricMinTcpSocket::DataTimeout()
{
    NS_LOG_FUNCTION(this);
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
        PfabricTcpSocket::DataTimeout();
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
    return m_probing ? 0 : PfabricTcpSocket::AvailableWindow();
}

} // namespace ns3
