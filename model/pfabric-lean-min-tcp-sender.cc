/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricLeanMinTcpSender: MinTCP and LineRate on the lean host, the same decisions as
// PfabricMinTcpSocket.

#include "pfabric-lean-min-tcp-sender.h"

#include "ns3/log.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-socket-state.h"
#include "ns3/tcp-tx-buffer.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricLeanMinTcpSender");

NS_OBJECT_ENSURE_REGISTERED(PfabricLeanMinTcpSender);

TypeId
PfabricLeanMinTcpSender::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfabricLeanMinTcpSender")
                            .SetParent<PfabricLeanSender>()
                            .SetGroupName("Pfabric")
                            .AddConstructor<PfabricLeanMinTcpSender>();
    return tid;
}

PfabricLeanMinTcpSender::PfabricLeanMinTcpSender()
    : m_maxWindow(0),
      m_probeAfterTimeouts(0),
      m_lineRate(false),
      m_consecutiveTimeouts(0)
{
    NS_LOG_FUNCTION(this);
}

PfabricLeanMinTcpSender::~PfabricLeanMinTcpSender()
{
    NS_LOG_FUNCTION(this);
}

void
PfabricLeanMinTcpSender::SetMinTcp(Time rto,
                                   uint32_t maxWindow,
                                   uint32_t probeAfterTimeouts,
                                   bool lineRate)
{
    NS_LOG_FUNCTION(this << rto << maxWindow << probeAfterTimeouts << lineRate);
    SetRto(rto);
    m_maxWindow = maxWindow;
    m_probeAfterTimeouts = probeAfterTimeouts;
    m_lineRate = lineRate;
}

void
PfabricLeanMinTcpSender::AckAdvanced(bool /* resetRto */)
{
    // PfabricMinTcpSocket: an advancing ACK ends probe mode and the run of timeouts.
    m_consecutiveTimeouts = 0;
    SetProbing(false);
}

void
PfabricLeanMinTcpSender::RestartForFlow()
{
    PfabricLeanSender::RestartForFlow();
    m_consecutiveTimeouts = 0;
    SetProbing(false);
}

uint32_t
PfabricLeanMinTcpSender::Window() const
{
    uint32_t window = PfabricLeanSender::Window();
    if (m_maxWindow > 0)
    {
        window = std::min(window, m_maxWindow * m_tcb->m_segmentSize);
    }
    return window;
}

uint32_t
PfabricLeanMinTcpSender::AvailableWindow() const
{
    return IsProbing() ? 0 : PfabricLeanSender::AvailableWindow();
}

void
PfabricLeanMinTcpSender::DataTimeout()
{
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
        // MinTCP's timeout: slow start from one segment, the timer's length unchanged.
        LossTimeout();
    }
}

void
PfabricLeanMinTcpSender::LineRateTimeout()
{
    // PfabricLineRateTcpSocket::LossTimeout: ns-3's scoreboard after a timeout, the window kept.
    m_dupAckCount = 0;
    m_txBuffer->SetSentListLost(false);
    m_recover = m_tcb->m_highTxMark;
    m_recoverActive = true;
    m_congestionControl->CongestionStateSet(m_tcb, TcpSocketState::CA_LOSS);
    m_tcb->m_congState = TcpSocketState::CA_LOSS;
    SendPendingData();
}

void
PfabricLeanMinTcpSender::SendProbe()
{
    m_txBuffer->SetSentListLost(false);
    SendDataPacket(m_txBuffer->HeadSequence(), 1);
}

} // namespace ns3
