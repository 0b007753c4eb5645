/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricMinTcpSocket: MinTCP, pFabric's end host, on ns-3's TCP (and LineRate's base).

#include "pfabric-min-tcp-socket.h"

#include "pfabric-host-transport.h"
#include "pfabric-lean-min-tcp-sender.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-tx-buffer.h"
#include "ns3/uinteger.h"

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
            .AddAttribute("Rto",
                          "The fixed retransmission timeout (no RTT estimation, no back-off). "
                          "The default, 40 us, is about three round trips of an idle 10 Gb/s "
                          "fat-tree (HotNets 2012).",
                          TimeValue(MicroSeconds(40)),
                          MakeTimeAccessor(&PfabricMinTcpSocket::m_fixedRto),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MaxWindow",
                          "MinTCP: largest congestion window, in segments; 0 (the default): no "
                          "cap. LineRate's window is fixed (PfabricLineRateTcpSocket::Window) and "
                          "has no cap.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PfabricMinTcpSocket::m_maxWindow),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ProbeMode",
                          "After ProbeAfterTimeouts consecutive timeouts send one-byte probes "
                          "until an ACK advances (SIGCOMM 2013); off by default, as in HotNets "
                          "2012.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&PfabricMinTcpSocket::m_probeMode),
                          MakeBooleanChecker())
            .AddAttribute("ProbeAfterTimeouts",
                          "Probe mode: the consecutive timeouts after which probing starts "
                          "(default 5, SIGCOMM 2013's).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&PfabricMinTcpSocket::m_probeAfterTimeouts),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "PriorityPolicy",
                "What a data segment's priority ranks its flow by (a PfabricPriorityPolicy with "
                "its attributes, e.g. ns3::PfabricBytesSentPriority[Thresholds=10000,100000]): "
                "PfabricRemainingSizePriority (pFabric's), PfabricFlowSizePriority, "
                "PfabricBytesSentPriority or PfabricDeadlinePriority.",
                // Named through GetTypeId, which registers the type: this TypeId may be made
                // first (files are initialised in no set order).
                ObjectFactoryValue(
                    ObjectFactory(PfabricRemainingSizePriority::GetTypeId().GetName())),
                MakeObjectFactoryAccessor(&PfabricMinTcpSocket::m_priorityPolicyFactory),
                MakeObjectFactoryChecker())
            .AddAttribute("PriorityOffset",
                          "Added to a data segment's rank, so that data never ties with ACKs "
                          "(priority 0). The default, 10, is the original ns-2 code's constant.",
                          UintegerValue(10),
                          MakeUintegerAccessor(&PfabricMinTcpSocket::m_rankOffset),
                          MakeUintegerChecker<uint64_t>(1))
            .AddTraceSource("ProbeMode",
                            "Probe mode begins (true: ProbeAfterTimeouts "
                            "consecutive timeouts) or ends (false: an ACK "
                            "advanced, or the next flow starts).",
                            MakeTraceSourceAccessor(&PfabricMinTcpSocket::m_probeModeTrace),
                            "ns3::PfabricMinTcpSocket::ProbeModeCallback");
    return tid;
}

// The attributes' defaults replace these initial values on construction.
PfabricMinTcpSocket::PfabricMinTcpSocket()
    : PfabricTcpSocket(),
      m_fixedRto(MicroSeconds(40)),
      m_maxWindow(0),
      m_probeMode(false),
      m_probeAfterTimeouts(5),
      m_rankOffset(10),
      m_consecutiveTimeouts(0),
      m_probing(false)
{
    NS_LOG_FUNCTION(this);
}

PfabricMinTcpSocket::PfabricMinTcpSocket(const PfabricMinTcpSocket& sock)
    : PfabricTcpSocket(sock),
      m_fixedRto(sock.m_fixedRto),
      m_maxWindow(sock.m_maxWindow),
      m_probeMode(sock.m_probeMode),
      m_probeAfterTimeouts(sock.m_probeAfterTimeouts),
      m_priorityPolicyFactory(sock.m_priorityPolicyFactory),
      m_rankOffset(sock.m_rankOffset),
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
    m_probeMode = timeouts > 0;
    if (m_probeMode)
    {
        m_probeAfterTimeouts = timeouts;
    }
}

uint32_t
PfabricMinTcpSocket::GetProbeThreshold() const
{
    return m_probeMode ? m_probeAfterTimeouts : 0;
}

Ptr<PfabricPriorityPolicy>
PfabricMinTcpSocket::CreatePriorityPolicy() const
{
    Ptr<PfabricPriorityPolicy> policy = m_priorityPolicyFactory.Create<PfabricPriorityPolicy>();
    NS_ABORT_MSG_IF(!policy,
                    "PfabricMinTcpSocket: PriorityPolicy "
                        << m_priorityPolicyFactory.GetTypeId().GetName()
                        << " is not a PfabricPriorityPolicy");
    return policy;
}

Time
PfabricMinTcpSocket::GetInitialRtt() const
{
    return m_fixedRto;
}

bool
PfabricMinTcpSocket::IsRtoFromRttEstimate() const
{
    return false;
}

Ptr<TcpCongestionOps>
PfabricMinTcpSocket::CreateCongestionOps() const
{
    return CreateObject<TcpNewReno>();
}

void
PfabricMinTcpSocket::ConfigureTransport(const FactorySettings& settings)
{
    NS_LOG_FUNCTION(this);
    SetAttribute("ReTxThreshold", UintegerValue(NO_FAST_RETRANSMIT));
    // The estimate is never used for the timer, but keep ns-3's RTO arithmetic tame.
    SetAttribute(MIN_RTO_ATTRIBUTE, TimeValue(m_fixedRto));
    SetAttribute(CLOCK_GRANULARITY_ATTRIBUTE, TimeValue(NanoSeconds(1)));
    SetPriorityPolicy(CreatePriorityPolicy(), m_rankOffset);
    if (IsPacedAtLineRate(settings))
    {
        SetPacingLineRate(settings.lineRate(), settings.headerBytes);
    }
}

Ptr<PfabricLeanSender>
PfabricMinTcpSocket::CreateLeanSender(Ptr<PfabricHostTransport> transport,
                                      const FactorySettings& settings) const
{
    return CreateLeanMinTcpSender(transport, settings, false);
}

Ptr<PfabricLeanSender>
PfabricMinTcpSocket::CreateLeanMinTcpSender(Ptr<PfabricHostTransport> transport,
                                            const FactorySettings& settings,
                                            bool lineRate) const
{
    auto sender = CreateObject<PfabricLeanMinTcpSender>();
    sender->Configure(transport,
                      settings.segmentSize,
                      GetInitialWindow(settings),
                      CreateCongestionOps());
    sender->SetMinTcp(m_fixedRto, lineRate ? 0 : m_maxWindow, GetProbeThreshold(), lineRate);
    sender->SetPriorityPolicy(CreatePriorityPolicy(), m_rankOffset);
    if (IsPacedAtLineRate(settings))
    {
        sender->SetPacingLineRate(settings.lineRate(), settings.headerBytes);
    }
    return sender;
}

PfabricLeanReceiver::Settings
PfabricMinTcpSocket::GetLeanReceiverSettings() const
{
    return PfabricLeanReceiver::Settings(); // ranked senders: ACKs tagged, no ECN
}

std::vector<std::string>
PfabricMinTcpSocket::GetLeanHonouredAttributes() const
{
    return {};
}

std::vector<std::pair<std::string, std::string>>
PfabricMinTcpSocket::GetAttributesItsModeIgnores() const
{
    if (m_probeMode)
    {
        return {};
    }
    return {{"ProbeAfterTimeouts", "ProbeMode=false"}};
}

std::vector<std::string>
PfabricMinTcpSocket::GetTransportSocketAttributes() const
{
    return {MIN_RTO_ATTRIBUTE, CLOCK_GRANULARITY_ATTRIBUTE};
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
PfabricMinTcpSocket::TagsEverySegment() const
{
    return true;
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
    const uint32_t probeThreshold = GetProbeThreshold();
    if (probeThreshold > 0 && m_consecutiveTimeouts >= probeThreshold)
    {
        SetProbing(true);
        SendProbe();
    }
    else
    {
        LossTimeout();
    }
}

void
PfabricMinTcpSocket::LossTimeout()
{
    PfabricTcpSocket::DataTimeout();
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
