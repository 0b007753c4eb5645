/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricBaselineTcpSocket: the TCP of the TCP-DropTail and DCTCP baselines on ns-3's TCP.

#include "pfabric-baseline-tcp-socket.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricBaselineTcpSocket");

NS_OBJECT_ENSURE_REGISTERED(PfabricBaselineTcpSocket);

TypeId
PfabricBaselineTcpSocket::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfabricBaselineTcpSocket")
                            .SetParent<PfabricTcpSocket>()
                            .SetGroupName("Pfabric")
                            .AddConstructor<PfabricBaselineTcpSocket>();
    return tid;
}

PfabricBaselineTcpSocket::PfabricBaselineTcpSocket()
    : PfabricTcpSocket(),
      m_minDupAckThreshold(3),
      m_dupAckWindowFraction(0)
{
    NS_LOG_FUNCTION(this);
}

PfabricBaselineTcpSocket::PfabricBaselineTcpSocket(const PfabricBaselineTcpSocket& sock)
    : PfabricTcpSocket(sock),
      m_minDupAckThreshold(sock.m_minDupAckThreshold),
      m_dupAckWindowFraction(sock.m_dupAckWindowFraction)
{
    NS_LOG_FUNCTION(this);
}

PfabricBaselineTcpSocket::~PfabricBaselineTcpSocket()
{
    NS_LOG_FUNCTION(this);
}

void
PfabricBaselineTcpSocket::SetAdaptiveDupAckThreshold(uint32_t minThreshold, double windowFraction)
{
    NS_ABORT_MSG_IF(minThreshold == 0 || windowFraction < 0,
                    "PfabricBaselineTcpSocket: the duplicate-ACK threshold needs a minimum of at "
                    "least 1 and a non-negative window fraction");
    m_minDupAckThreshold = minThreshold;
    m_dupAckWindowFraction = windowFraction;
}

uint32_t
PfabricBaselineTcpSocket::GetAdaptiveDupAckThreshold(uint32_t minThreshold,
                                                     double windowFraction,
                                                     uint32_t cwnd,
                                                     uint32_t segmentSize)
{
    const double windowSegments = static_cast<double>(cwnd) / static_cast<double>(segmentSize);
    return std::max(minThreshold, static_cast<uint32_t>(windowFraction * windowSegments));
}

Ptr<TcpSocketBase>
PfabricBaselineTcpSocket::Fork()
{
    return CopyObject<PfabricBaselineTcpSocket>(this);
}

void
PfabricBaselineTcpSocket::ReceivedAck(Ptr<Packet> packet, const TcpHeader& tcpHeader)
{
    // ns-3 counts duplicate ACKs in CA_CWR (after an ECN echo) without leaving that state. The ACK
    // that ends CWR puts the socket back in CA_OPEN with that count; if it also carries new SACK
    // blocks it is one more duplicate ACK, and ns-3 asserts "From OPEN->DISORDER but with N dup
    // ACKs" (release builds skip straight towards fast retransmit). Sprayed DCTCP meets this
    // within milliseconds: count afresh when CWR ends, as when recovery ends.
    if (m_tcb->m_congState == TcpSocketState::CA_CWR && tcpHeader.GetAckNumber() > m_recover)
    {
        m_dupAckCount = 0;
    }
    if (m_dupAckWindowFraction > 0)
    {
        const uint32_t threshold = GetAdaptiveDupAckThreshold(m_minDupAckThreshold,
                                                              m_dupAckWindowFraction,
                                                              m_tcb->m_cWnd.Get(),
                                                              m_tcb->m_segmentSize);
        if (threshold != GetRetxThresh())
        {
            SetRetxThresh(threshold);
        }
    }
    PfabricTcpSocket::ReceivedAck(packet, tcpHeader);
}

} // namespace ns3
