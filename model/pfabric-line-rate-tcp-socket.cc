/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricLineRateTcpSocket: LineRate, no rate control, on ns-3's TCP.

#include "pfabric-line-rate-tcp-socket.h"

#include "pfabric-flow-sender.h"
#include "pfabric-host-transport.h"
#include "pfabric-lean-sender.h"
#include "pfabric-line-rate-congestion-ops.h"

#include "ns3/log.h"
#include "ns3/tcp-tx-buffer.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricLineRateTcpSocket");

NS_OBJECT_ENSURE_REGISTERED(PfabricLineRateTcpSocket);

TypeId
PfabricLineRateTcpSocket::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfabricLineRateTcpSocket")
            .SetParent<PfabricMinTcpSocket>()
            .SetGroupName("Pfabric")
            .AddConstructor<PfabricLineRateTcpSocket>()
            .AddAttribute(
                "Window",
                "The fixed window, in segments; 0: larger than any flow. A window of at least a "
                "path's bandwidth-delay product still sends a lone flow at line rate, but stops "
                "a flow whose packets are dropped downstream from filling its NIC with more of "
                "them. HotNets 2012 does not say whether its LineRate had a window; the "
                "default, 14, is the original scripts' rule, the buffer in packets less one, for "
                "its 15-packet buffer (doc, \"LineRate\").",
                UintegerValue(14),
                MakeUintegerAccessor(&PfabricLineRateTcpSocket::m_window),
                MakeUintegerChecker<uint32_t>());
    return tid;
}

PfabricLineRateTcpSocket::PfabricLineRateTcpSocket()
    : PfabricMinTcpSocket(),
      m_window(14) // the attribute's default replaces it on construction
{
    NS_LOG_FUNCTION(this);
}

PfabricLineRateTcpSocket::PfabricLineRateTcpSocket(const PfabricLineRateTcpSocket& sock)
    : PfabricMinTcpSocket(sock),
      m_window(sock.m_window)
{
    NS_LOG_FUNCTION(this);
}

PfabricLineRateTcpSocket::~PfabricLineRateTcpSocket()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
PfabricLineRateTcpSocket::GetInitialWindow(const FactorySettings& settings) const
{
    return m_window > 0 ? m_window : PfabricFlowSender::RECEIVE_BUFFER_BYTES / settings.segmentSize;
}

Ptr<TcpCongestionOps>
PfabricLineRateTcpSocket::CreateCongestionOps() const
{
    return CreateObject<PfabricLineRateCongestionOps>();
}

bool
PfabricLineRateTcpSocket::IsPacedAtLineRate(const FactorySettings& /* settings */) const
{
    return true;
}

bool
PfabricLineRateTcpSocket::HasSlowStart() const
{
    return false;
}

Ptr<PfabricLeanSender>
PfabricLineRateTcpSocket::CreateLeanSender(Ptr<PfabricHostTransport> transport,
                                           const FactorySettings& settings) const
{
    return CreateLeanMinTcpSender(transport, settings, true);
}

Ptr<TcpSocketBase>
PfabricLineRateTcpSocket::Fork()
{
    return CopyObject<PfabricLineRateTcpSocket>(this);
}

void
PfabricLineRateTcpSocket::LossTimeout()
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
PfabricLineRateTcpSocket::Window() const
{
    return TcpSocketBase::Window();
}

std::vector<std::pair<std::string, std::string>>
PfabricLineRateTcpSocket::GetAttributesItsModeIgnores() const
{
    auto ignored = PfabricMinTcpSocket::GetAttributesItsModeIgnores();
    ignored.emplace_back("MaxWindow", "Window=" + std::to_string(m_window));
    return ignored;
}

} // namespace ns3
