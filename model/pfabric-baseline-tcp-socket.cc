/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricBaselineTcpSocket: the TCP of the TCP-DropTail and DCTCP baselines (and of the custom
// scheme) on ns-3's TCP.

#include "pfabric-baseline-tcp-socket.h"

#include "pfabric-host-transport.h"
#include "pfabric-lean-baseline-sender.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-socket-state.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricBaselineTcpSocket");

NS_OBJECT_ENSURE_REGISTERED(PfabricBaselineTcpSocket);

TypeId
PfabricBaselineTcpSocket::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfabricBaselineTcpSocket")
            .SetParent<PfabricTcpSocket>()
            .SetGroupName("Pfabric")
            .AddConstructor<PfabricBaselineTcpSocket>()
            // Not "CongestionOps": TcpSocketBase's attribute of that name points to one
            // instance, where every socket (and lean sender) needs its own.
            .AddAttribute(
                "CongestionControl",
                "The congestion control of every socket, a TcpCongestionOps with its "
                "attributes, e.g. ns3::TcpCubic[Beta=0.8]. The default, "
                "ns3::TcpNewReno, is TCP-DropTail's; DCTCP's is ns3::PfabricDctcp.",
                ObjectFactoryValue(ObjectFactory(TcpNewReno::GetTypeId().GetName())),
                MakeObjectFactoryAccessor(&PfabricBaselineTcpSocket::m_congestionControlFactory),
                MakeObjectFactoryChecker())
            .AddAttribute("FastRetransmit",
                          "Retransmit on duplicate ACKs. Off by default, as in HotNets 2012: "
                          "per-packet spraying reorders segments.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&PfabricBaselineTcpSocket::m_fastRetransmit),
                          MakeBooleanChecker())
            .AddAttribute("DupAckThreshold",
                          "With FastRetransmit: the (smallest) duplicate-ACK threshold, in ACKs "
                          "(default 3, TCP's).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&PfabricBaselineTcpSocket::m_minDupAckThreshold),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "DupAckWindowFraction",
                "With FastRetransmit: the threshold is max(DupAckThreshold, fraction * cwnd in "
                "segments), re-evaluated on every ACK; 0 (the default): fixed.",
                DoubleValue(0),
                MakeDoubleAccessor(&PfabricBaselineTcpSocket::m_dupAckWindowFraction),
                MakeDoubleChecker<double>(0));
    return tid;
}

// The attributes' defaults replace these initial values on construction.
PfabricBaselineTcpSocket::PfabricBaselineTcpSocket()
    : PfabricTcpSocket(),
      m_fastRetransmit(false),
      m_minDupAckThreshold(3),
      m_dupAckWindowFraction(0)
{
    NS_LOG_FUNCTION(this);
}

PfabricBaselineTcpSocket::PfabricBaselineTcpSocket(const PfabricBaselineTcpSocket& sock)
    : PfabricTcpSocket(sock),
      m_congestionControlFactory(sock.m_congestionControlFactory),
      m_fastRetransmit(sock.m_fastRetransmit),
      m_minDupAckThreshold(sock.m_minDupAckThreshold),
      m_dupAckWindowFraction(sock.m_dupAckWindowFraction)
{
    NS_LOG_FUNCTION(this);
}

PfabricBaselineTcpSocket::~PfabricBaselineTcpSocket()
{
    NS_LOG_FUNCTION(this);
}

Ptr<TcpCongestionOps>
PfabricBaselineTcpSocket::CreateCongestionOps() const
{
    // DynamicCast, not Create<TcpCongestionOps> (which asks the TypeId): ns-3.37's TcpCubic names
    // TcpSocketBase as its TypeId's parent, though it is a congestion ops.
    auto ops = DynamicCast<TcpCongestionOps>(m_congestionControlFactory.Create());
    NS_ABORT_MSG_IF(!ops,
                    "PfabricBaselineTcpSocket: CongestionControl "
                        << m_congestionControlFactory.GetTypeId().GetName()
                        << " is not a TcpCongestionOps");
    return ops;
}

bool
PfabricBaselineTcpSocket::UsesEcn() const
{
    // UseEcn has no getter: its setter writes the socket state.
    return m_tcb->m_useEcn == TcpSocketState::On;
}

void
PfabricBaselineTcpSocket::ConfigureTransport(const FactorySettings& settings)
{
    NS_LOG_FUNCTION(this);
    SetAttribute("ReTxThreshold",
                 UintegerValue(m_fastRetransmit ? m_minDupAckThreshold : NO_FAST_RETRANSMIT));
    if (IsPacedAtLineRate(settings))
    {
        SetPacingLineRate(settings.lineRate(), settings.headerBytes);
    }
}

Ptr<PfabricLeanSender>
PfabricBaselineTcpSocket::CreateLeanSender(Ptr<PfabricHostTransport> transport,
                                           const FactorySettings& settings) const
{
    auto sender = CreateObject<PfabricLeanBaselineSender>();
    sender->Configure(transport,
                      settings.segmentSize,
                      GetInitialWindow(settings),
                      CreateCongestionOps());
    if (UsesEcn())
    {
        sender->EnableEcn();
    }
    sender->SetRetransmissionTimer(GetMinRto(), GetClockGranularity());
    // Its SYN's round trip is the RTT estimator's first sample, as on ns-3's sockets.
    sender->SetHandshake(GetInitialRtt(), SYN_RETRIES);
    if (m_fastRetransmit)
    {
        sender->SetDupAckThreshold(m_minDupAckThreshold);
        if (m_dupAckWindowFraction > 0)
        {
            sender->SetAdaptiveDupAckThreshold(m_minDupAckThreshold, m_dupAckWindowFraction);
        }
    }
    if (IsPacedAtLineRate(settings))
    {
        sender->SetPacingLineRate(settings.lineRate(), settings.headerBytes);
    }
    return sender;
}

PfabricLeanReceiver::Settings
PfabricBaselineTcpSocket::GetLeanReceiverSettings() const
{
    PfabricLeanReceiver::Settings settings;
    settings.tagAcks = false;
    // The lean senders make ns-3's handshake (CreateLeanSender), and the listening socket's
    // SYN-ACK timer is its ConnTimeout, the initial RTT (PfabricTcpSocketFactory).
    settings.synAckTimeout = GetInitialRtt();
    settings.synRetries = SYN_RETRIES;
    // The receiving socket's ECN mode is its congestion control's (TcpDctcp asks for DCTCP's).
    auto state = CreateObject<TcpSocketState>();
    CreateCongestionOps()->Init(state);
    if (UsesEcn() || state->m_useEcn == TcpSocketState::On)
    {
        if (state->m_ecnMode == TcpSocketState::DctcpEcn)
        {
            settings.echo = PfabricLeanReceiver::DCTCP_ECN;
            settings.ackEcn = static_cast<Ipv4Header::EcnType>(state->m_ectCodePoint);
        }
        else
        {
            settings.echo = PfabricLeanReceiver::CLASSIC_ECN;
        }
    }
    return settings;
}

std::vector<std::string>
PfabricBaselineTcpSocket::GetLeanHonouredAttributes() const
{
    // What CreateLeanSender and GetLeanReceiverSettings read: GetMinRto, GetClockGranularity
    // (also through GetInitialRtt) and UsesEcn.
    return {MIN_RTO_ATTRIBUTE, CLOCK_GRANULARITY_ATTRIBUTE, USE_ECN_ATTRIBUTE};
}

std::vector<std::pair<std::string, std::string>>
PfabricBaselineTcpSocket::GetAttributesItsModeIgnores() const
{
    if (m_fastRetransmit)
    {
        return {};
    }
    return {{"DupAckThreshold", "FastRetransmit=false"},
            {"DupAckWindowFraction", "FastRetransmit=false"}};
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
    if (m_fastRetransmit && m_dupAckWindowFraction > 0)
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
