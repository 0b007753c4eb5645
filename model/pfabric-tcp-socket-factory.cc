/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricTcpSocketFactory: the configured senders and receivers of every scheme's end hosts.

#include "pfabric-tcp-socket-factory.h"

#include "pfabric-baseline-tcp-socket.h"
#include "pfabric-compat.h"
#include "pfabric-dctcp.h"
#include "pfabric-flow-sender.h"
#include "pfabric-host-transport.h"
#include "pfabric-lean-baseline-sender.h"
#include "pfabric-lean-min-tcp-sender.h"
#include "pfabric-line-rate-congestion-ops.h"
#include "pfabric-min-tcp-socket.h"
#include "pfabric-priority-policy.h"
#include "pfabric-socket-flow-sender.h"
#include "pfabric-tcp-demux.h"
#include "pfabric-tcp-tagger.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/loopback-net-device.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/rtt-estimator.h"
#include "ns3/string.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-dctcp.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-recovery-ops.h"
#include "ns3/tcp-socket-state.h"
#include "ns3/uinteger.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricTcpSocketFactory");

NS_OBJECT_ENSURE_REGISTERED(PfabricTcpSocketFactory);

TypeId
PfabricTcpSocketFactory::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfabricTcpSocketFactory")
            .SetParent<SocketFactory>()
            .SetGroupName("Pfabric")
            .AddConstructor<PfabricTcpSocketFactory>()
            .AddAttribute(
                "Transport",
                "The end-host transport of the sockets this factory creates: MinTcp, "
                "LineRate, Tcp (CongestionOps, TcpNewReno by default) or Dctcp (PfabricDctcp, "
                "ns-3's TcpDctcp with a floor under its cut, with ECN).",
                EnumValue(MIN_TCP),
                pfabric::MakeEnumAccessorCompat<Transport>(&PfabricTcpSocketFactory::m_transport),
                MakeEnumChecker(MIN_TCP,
                                "MinTcp",
                                LINE_RATE,
                                "LineRate",
                                TCP,
                                "Tcp",
                                DCTCP,
                                "Dctcp"))
            .AddAttribute(
                "SegmentSize",
                "TCP payload bytes per full segment. The default, 1460, makes 1500-byte IP "
                "packets (40 bytes of TCP/IP headers, no options).",
                UintegerValue(1460),
                MakeUintegerAccessor(&PfabricTcpSocketFactory::m_segmentSize),
                MakeUintegerChecker<uint32_t>(1, 65495))
            .AddAttribute("HeaderBytes",
                          "Bytes the network adds to a segment's payload (TCP, IP and link "
                          "headers); senders pace by payload + HeaderBytes. The default, 42, "
                          "is 40 bytes of TCP/IP headers and the 2 bytes of framing of the "
                          "fabric's links.",
                          UintegerValue(42),
                          MakeUintegerAccessor(&PfabricTcpSocketFactory::m_headerBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("InitialWindow",
                          "Initial congestion window, in segments (MinTCP and the baselines; "
                          "LineRate's window exceeds any flow). The default, 12, is about one "
                          "bandwidth-delay product of a 10 Gb/s fat-tree (HotNets 2012).",
                          UintegerValue(12),
                          MakeUintegerAccessor(&PfabricTcpSocketFactory::m_initialWindow),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "MaxWindow",
                "MinTCP: largest congestion window, in segments; 0 (the default): no cap.",
                UintegerValue(0),
                MakeUintegerAccessor(&PfabricTcpSocketFactory::m_maxWindow),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "LineRateWindow",
                "LineRate: its fixed window, in segments; 0: larger than any flow. A window of "
                "at least a path's bandwidth-delay product still sends a lone flow at line rate, "
                "but stops a flow whose packets are dropped downstream from filling its NIC with "
                "more of them. HotNets 2012 does not say whether its LineRate had a window; the "
                "default, 14, is the original scripts' rule, the buffer in packets less one, for "
                "its 15-packet buffer (doc, \"LineRate\").",
                UintegerValue(14),
                MakeUintegerAccessor(&PfabricTcpSocketFactory::m_lineRateWindow),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute("Rto",
                          "MinTCP and LineRate: the fixed retransmission timeout (no RTT "
                          "estimation, no back-off). The default, 40 us, is about three "
                          "round trips of an idle 10 Gb/s fat-tree (HotNets 2012).",
                          TimeValue(MicroSeconds(40)),
                          MakeTimeAccessor(&PfabricTcpSocketFactory::m_rto),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ProbeMode",
                          "MinTCP and LineRate: after ProbeAfterTimeouts consecutive timeouts "
                          "send one-byte probes until an ACK advances (SIGCOMM 2013); off by "
                          "default, as in HotNets 2012.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&PfabricTcpSocketFactory::m_probeMode),
                          MakeBooleanChecker())
            .AddAttribute("ProbeAfterTimeouts",
                          "Probe mode: the consecutive timeouts after which probing starts "
                          "(default 5, SIGCOMM 2013's).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&PfabricTcpSocketFactory::m_probeAfterTimeouts),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "PriorityPolicy",
                "MinTCP and LineRate: what a data segment's priority ranks its flow by "
                "(a PfabricPriorityPolicy with its attributes, e.g. "
                "ns3::PfabricBytesSentPriority[Thresholds=10000,100000]): "
                "PfabricRemainingSizePriority (pFabric's), PfabricFlowSizePriority, "
                "PfabricBytesSentPriority or PfabricDeadlinePriority.",
                ObjectFactoryValue(ObjectFactory("ns3::PfabricRemainingSizePriority")),
                MakeObjectFactoryAccessor(&PfabricTcpSocketFactory::m_priorityPolicyFactory),
                MakeObjectFactoryChecker())
            .AddAttribute("PriorityOffset",
                          "MinTCP and LineRate: added to a data segment's rank, so that data "
                          "never ties with ACKs (priority 0). The default, 10, is the original "
                          "ns-2 code's constant.",
                          UintegerValue(10),
                          MakeUintegerAccessor(&PfabricTcpSocketFactory::m_priorityOffset),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("HostPacing",
                          "MinTCP, TCP and DCTCP: pace senders at LineRate, so that a window "
                          "burst waits in the socket rather than overflowing its own NIC's "
                          "queue (LineRate senders are always paced). On by default: real "
                          "stacks make a socket wait for its NIC. A congestion control that "
                          "sets the pacing rate itself (BBR) keeps it, capped at LineRate.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PfabricTcpSocketFactory::m_hostPacing),
                          MakeBooleanChecker())
            .AddAttribute("RestartSsThresh",
                          "A reused connection starts its next flow from the initial ssthresh, "
                          "as a new connection would (PfabricTcpSocket::StartFlow). False: it "
                          "keeps the ssthresh its earlier flows left (a timeout or a mark lowers "
                          "it), as the original ns-2 code, which restarts only the window.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PfabricTcpSocketFactory::m_restartSsThresh),
                          MakeBooleanChecker())
            .AddAttribute("HashDemux",
                          "Find the socket of an arriving segment of a connected socket in a "
                          "hash table (PfabricTcpDemux) instead of ns-3's linear search over "
                          "every endpoint of the node: the same socket, found in constant time "
                          "(the demux tags segments with their priorities either way).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PfabricTcpSocketFactory::m_hashDemux),
                          MakeBooleanChecker())
            .AddAttribute("LineRate",
                          "The rate senders are paced at; 0 bps: the DataRate of the node's "
                          "first NIC.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&PfabricTcpSocketFactory::m_lineRate),
                          MakeDataRateChecker())
            .AddAttribute("MinRto",
                          "TCP and DCTCP: the minimum retransmission timeout. The default, "
                          "200 us, is HotNets 2012's for the baselines.",
                          TimeValue(MicroSeconds(200)),
                          MakeTimeAccessor(&PfabricTcpSocketFactory::m_minRto),
                          MakeTimeChecker())
            .AddAttribute("ClockGranularity",
                          "TCP and DCTCP: the RTO calculation's clock granularity (default "
                          "1 us, fine enough for a 200 us minimum RTO).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&PfabricTcpSocketFactory::m_clockGranularity),
                          MakeTimeChecker())
            .AddAttribute("FastRetransmit",
                          "TCP and DCTCP: retransmit on duplicate ACKs. Off by default, as in "
                          "HotNets 2012: per-packet spraying reorders segments.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&PfabricTcpSocketFactory::m_fastRetransmit),
                          MakeBooleanChecker())
            .AddAttribute("DupAckThreshold",
                          "TCP and DCTCP with FastRetransmit: the (smallest) duplicate-ACK "
                          "threshold, in ACKs (default 3, TCP's).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&PfabricTcpSocketFactory::m_dupAckThreshold),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("DupAckWindowFraction",
                          "TCP and DCTCP with FastRetransmit: the threshold is max("
                          "DupAckThreshold, fraction * cwnd in segments); 0 (the default): "
                          "fixed.",
                          DoubleValue(0),
                          MakeDoubleAccessor(&PfabricTcpSocketFactory::m_dupAckWindowFraction),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("CongestionOps",
                          "Tcp: the sockets' congestion control, a TcpCongestionOps with its "
                          "attributes, e.g. ns3::TcpCubic[Beta=0.8]. The default, "
                          "ns3::TcpNewReno, is TCP-DropTail's (MinTcp and LineRate have their "
                          "own, Dctcp PfabricDctcp).",
                          ObjectFactoryValue(ObjectFactory("ns3::TcpNewReno")),
                          MakeObjectFactoryAccessor(&PfabricTcpSocketFactory::m_congestionOps),
                          MakeObjectFactoryChecker())
            .AddAttribute("Ecn",
                          "Tcp: the sockets negotiate ECN (TcpSocketBase's UseEcn On) and "
                          "answer marks as their CongestionOps does. Off by default, as "
                          "TCP-DropTail; Dctcp always uses ECN.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&PfabricTcpSocketFactory::m_ecn),
                          MakeBooleanChecker())
            .AddAttribute("DctcpG",
                          "DCTCP: the gain g of the marked-fraction estimate (default 1/16, "
                          "DCTCP's recommended gain).",
                          DoubleValue(1.0 / 16),
                          MakeDoubleAccessor(&PfabricTcpSocketFactory::m_dctcpG),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("DctcpInitialAlpha",
                          "DCTCP: the marked-fraction estimate alpha of a new connection, before "
                          "its first window of ACKs (default 0, the original ns-2 code's "
                          "ecnhat_alpha_: a new flow's first marks barely cut its window; ns-3's "
                          "TcpDctcp and Linux start at 1, halving it).",
                          DoubleValue(0),
                          MakeDoubleAccessor(&PfabricTcpSocketFactory::m_dctcpInitialAlpha),
                          MakeDoubleChecker<double>(0, 1))
            .AddTraceSource("SocketCreated",
                            "A socket was created and configured (accepted connections are "
                            "forks of their listening socket and are not reported).",
                            MakeTraceSourceAccessor(&PfabricTcpSocketFactory::m_socketCreatedTrace),
                            "ns3::PfabricTcpSocketFactory::SocketCreatedCallback")
            .AddTraceSource(
                "FlowSenderCreated",
                "A flow sender was created (CreateFlowSender), on either host stack: "
                "its Timeout and ProbeMode sources are the same on both.",
                MakeTraceSourceAccessor(&PfabricTcpSocketFactory::m_flowSenderCreatedTrace),
                "ns3::PfabricTcpSocketFactory::FlowSenderCreatedCallback");
    return tid;
}

PfabricTcpSocketFactory::PfabricTcpSocketFactory()
{
    NS_LOG_FUNCTION(this);
}

PfabricTcpSocketFactory::~PfabricTcpSocketFactory()
{
    NS_LOG_FUNCTION(this);
}

void
PfabricTcpSocketFactory::DoDispose()
{
    m_listener = nullptr;
    m_received = MakeNullCallback<void, uint32_t>();
    m_priorityPolicy = nullptr;
    SocketFactory::DoDispose();
}

PfabricTcpSocketFactory::Transport
PfabricTcpSocketFactory::GetTransport() const
{
    return m_transport;
}

PfabricTcpSocketFactory::MinTcpSettings
PfabricTcpSocketFactory::GetMinTcpSettings() const
{
    const bool lineRate = m_transport == LINE_RATE;
    uint32_t window = m_initialWindow;
    if (lineRate)
    {
        window = m_lineRateWindow > 0 ? m_lineRateWindow
                                      : PfabricFlowSender::RECEIVE_BUFFER_BYTES / m_segmentSize;
    }
    return MinTcpSettings{lineRate,
                          window,
                          lineRate ? 0 : m_maxWindow,
                          m_probeMode ? m_probeAfterTimeouts : 0,
                          lineRate || m_hostPacing};
}

Ptr<PfabricFlowSender>
PfabricTcpSocketFactory::CreateFlowSender()
{
    NS_LOG_FUNCTION(this);
    Ptr<Node> node = GetObject<Node>();
    NS_ABORT_MSG_IF(node == nullptr,
                    "PfabricTcpSocketFactory: aggregate the factory to a node before use");
    Ptr<PfabricHostTransport> lean = node->GetObject<PfabricHostTransport>();
    if (!lean)
    {
        auto sender = CreateObject<PfabricSocketFlowSender>();
        sender->SetSocket(CreateTcpSocket());
        m_flowSenderCreatedTrace(sender);
        return sender;
    }
    Ptr<PfabricLeanSender> sender = m_transport == MIN_TCP || m_transport == LINE_RATE
                                        ? CreateLeanMinTcpSender(lean)
                                        : CreateLeanBaselineSender(lean);
    sender->SetRestartSsThresh(m_restartSsThresh);
    m_flowSenderCreatedTrace(sender);
    return sender;
}

Ptr<PfabricLeanSender>
PfabricTcpSocketFactory::CreateLeanMinTcpSender(Ptr<PfabricHostTransport> transport)
{
    const MinTcpSettings settings = GetMinTcpSettings();
    auto sender = CreateObject<PfabricLeanMinTcpSender>();
    sender->Configure(transport,
                      m_segmentSize,
                      settings.initialWindow,
                      settings.lineRate
                          ? Ptr<TcpCongestionOps>(CreateObject<PfabricLineRateCongestionOps>())
                          : Ptr<TcpCongestionOps>(CreateObject<TcpNewReno>()));
    sender->SetMinTcp(m_rto, settings.maxWindow, settings.probeAfterTimeouts, settings.lineRate);
    sender->SetPriorityPolicy(GetPriorityPolicy(), m_priorityOffset);
    if (settings.paced)
    {
        sender->SetPacingLineRate(GetPacingLineRate(), m_headerBytes);
    }
    return sender;
}

Ptr<PfabricLeanSender>
PfabricTcpSocketFactory::CreateLeanBaselineSender(Ptr<PfabricHostTransport> transport) const
{
    auto sender = CreateObject<PfabricLeanBaselineSender>();
    sender->Configure(transport, m_segmentSize, m_initialWindow, CreateBaselineCongestionOps());
    if (BaselineUsesEcn())
    {
        sender->EnableEcn();
    }
    sender->SetRetransmissionTimer(m_minRto, m_clockGranularity);
    // Its SYN's round trip is the RTT estimator's first sample, as on ns-3's sockets.
    sender->SetHandshake(m_minRto, SYN_RETRIES);
    if (m_fastRetransmit)
    {
        sender->SetDupAckThreshold(m_dupAckThreshold);
        if (m_dupAckWindowFraction > 0)
        {
            sender->SetAdaptiveDupAckThreshold(m_dupAckThreshold, m_dupAckWindowFraction);
        }
    }
    if (m_hostPacing)
    {
        sender->SetPacingLineRate(GetPacingLineRate(), m_headerBytes);
    }
    return sender;
}

PfabricLeanReceiver::Settings
PfabricTcpSocketFactory::GetLeanReceiverSettings() const
{
    PfabricLeanReceiver::Settings settings;
    if (m_transport == MIN_TCP || m_transport == LINE_RATE)
    {
        return settings; // ranked senders: ACKs tagged, no ECN
    }
    settings.tagAcks = false;
    // The baselines' lean senders make ns-3's handshake (CreateLeanBaselineSender), and the
    // listening socket's SYN-ACK timer is ConfigureCommon's.
    settings.synAckTimeout = m_minRto;
    settings.synRetries = SYN_RETRIES;
    // The receiving socket's ECN mode is its congestion control's (TcpDctcp asks for DCTCP's).
    auto state = CreateObject<TcpSocketState>();
    CreateBaselineCongestionOps()->Init(state);
    if (BaselineUsesEcn() || state->m_useEcn == TcpSocketState::On)
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

void
PfabricTcpSocketFactory::ListenForFlows(uint16_t port, Callback<void, uint32_t> received)
{
    NS_LOG_FUNCTION(this << port);
    Ptr<Node> node = GetObject<Node>();
    NS_ABORT_MSG_IF(node == nullptr,
                    "PfabricTcpSocketFactory: aggregate the factory to a node before use");
    if (Ptr<PfabricHostTransport> lean = node->GetObject<PfabricHostTransport>())
    {
        lean->SetReceiverSettings(GetLeanReceiverSettings());
        lean->Listen(port, received);
        return;
    }
    NS_ABORT_MSG_IF(m_listener, "PfabricTcpSocketFactory: ListenForFlows was already called");
    m_received = received;
    m_listener = CreateSocket();
    m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
    m_listener->Listen();
    m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&PfabricTcpSocketFactory::Accepted, this));
}

void
PfabricTcpSocketFactory::Accepted(Ptr<Socket> socket, const Address&)
{
    socket->SetRecvCallback(MakeCallback(&PfabricTcpSocketFactory::Drain, this));
}

void
PfabricTcpSocketFactory::Drain(Ptr<Socket> socket)
{
    while (Ptr<Packet> packet = socket->Recv())
    {
        if (!m_received.IsNull())
        {
            m_received(packet->GetSize());
        }
    }
}

DataRate
PfabricTcpSocketFactory::GetPacingLineRate() const
{
    if (m_lineRate.GetBitRate() > 0)
    {
        return m_lineRate;
    }
    Ptr<Node> node = GetObject<Node>();
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        Ptr<NetDevice> device = node->GetDevice(i);
        DataRateValue rate;
        if (!DynamicCast<LoopbackNetDevice>(device) &&
            device->GetAttributeFailSafe("DataRate", rate))
        {
            return rate.Get();
        }
    }
    NS_ABORT_MSG("PfabricTcpSocketFactory: node " << node->GetId()
                                                  << " has no NIC with a DataRate; set LineRate");
    return DataRate(0);
}

void
PfabricTcpSocketFactory::AttachToNode(Ptr<PfabricTcpSocket> socket) const
{
    Ptr<Node> node = GetObject<Node>();
    if (m_hashDemux)
    {
        socket->SetDemux(PfabricTcpDemux::Install(node));
    }
    socket->SetTagger(PfabricTcpTagger::Install(node));
}

Ptr<PfabricPriorityPolicy>
PfabricTcpSocketFactory::GetPriorityPolicy()
{
    if (!m_priorityPolicy)
    {
        m_priorityPolicy = m_priorityPolicyFactory.Create<PfabricPriorityPolicy>();
        NS_ABORT_MSG_IF(!m_priorityPolicy,
                        "PfabricTcpSocketFactory: PriorityPolicy "
                            << m_priorityPolicyFactory.GetTypeId().GetName()
                            << " is not a PfabricPriorityPolicy");
    }
    return m_priorityPolicy;
}

void
PfabricTcpSocketFactory::ConfigureCommon(Ptr<TcpSocketBase> socket,
                                         uint32_t initialWindow,
                                         Time initialRtt) const
{
    Ptr<Node> node = GetObject<Node>();
    NS_ABORT_MSG_IF(node == nullptr,
                    "PfabricTcpSocketFactory: aggregate the factory to a node before use");
    Ptr<TcpL4Protocol> tcp = node->GetObject<TcpL4Protocol>();
    NS_ABORT_MSG_IF(tcp == nullptr,
                    "PfabricTcpSocketFactory: node " << node->GetId() << " has no TCP; install "
                                                     << "the Internet stack first");
    socket->SetNode(node);
    socket->SetTcp(tcp);
    socket->SetRtt(
        CreateObjectWithAttributes<RttMeanDeviation>("InitialEstimation", TimeValue(initialRtt)));
    socket->SetRecoveryAlgorithm(CreateObject<TcpClassicRecovery>());
    socket->SetAttribute("SegmentSize", UintegerValue(m_segmentSize));
    socket->SetAttribute("InitialCwnd", UintegerValue(initialWindow));
    socket->SetAttribute("DelAckCount", UintegerValue(1));
    socket->SetAttribute("TcpNoDelay", BooleanValue(true));
    socket->SetAttribute("Sack", BooleanValue(true));
    socket->SetAttribute("Timestamp", BooleanValue(false));
    socket->SetAttribute("LimitedTransmit", BooleanValue(false));
    socket->SetAttribute("DataRetries", UintegerValue(std::numeric_limits<uint32_t>::max()));
    // A lost SYN is resent after the data timeout, not ns-3's 3 s.
    socket->SetAttribute("ConnTimeout", TimeValue(initialRtt));
    socket->SetAttribute("ConnCount", UintegerValue(SYN_RETRIES));
    socket->SetAttribute("SndBufSize", UintegerValue(std::numeric_limits<uint32_t>::max()));
    socket->SetAttribute("RcvBufSize", UintegerValue(PfabricFlowSender::RECEIVE_BUFFER_BYTES));
}

Ptr<TcpCongestionOps>
PfabricTcpSocketFactory::CreateBaselineCongestionOps() const
{
    if (m_transport == DCTCP)
    {
        auto dctcp = CreateObject<PfabricDctcp>();
        dctcp->SetAttribute("DctcpShiftG", DoubleValue(m_dctcpG));
        dctcp->SetAttribute("DctcpAlphaOnInit", DoubleValue(m_dctcpInitialAlpha));
        return dctcp;
    }
    // DynamicCast, not Create<TcpCongestionOps> (which asks the TypeId): ns-3.37's TcpCubic names
    // TcpSocketBase as its TypeId's parent, though it is a congestion ops.
    auto ops = DynamicCast<TcpCongestionOps>(m_congestionOps.Create());
    NS_ABORT_MSG_IF(!ops,
                    "PfabricTcpSocketFactory: CongestionOps "
                        << m_congestionOps.GetTypeId().GetName() << " is not a TcpCongestionOps");
    return ops;
}

bool
PfabricTcpSocketFactory::BaselineUsesEcn() const
{
    return m_transport == DCTCP || m_ecn;
}

Ptr<Socket>
PfabricTcpSocketFactory::CreateSocket()
{
    return CreateTcpSocket();
}

Ptr<PfabricTcpSocket>
PfabricTcpSocketFactory::CreateTcpSocket()
{
    NS_LOG_FUNCTION(this);
    Ptr<PfabricTcpSocket> socket;
    if (m_transport == MIN_TCP || m_transport == LINE_RATE)
    {
        auto minTcp = CreateObject<PfabricMinTcpSocket>();
        const MinTcpSettings settings = GetMinTcpSettings();
        const bool lineRate = settings.lineRate;
        ConfigureCommon(minTcp, settings.initialWindow, m_rto);
        minTcp->SetCongestionControlAlgorithm(
            lineRate ? Ptr<TcpCongestionOps>(CreateObject<PfabricLineRateCongestionOps>())
                     : Ptr<TcpCongestionOps>(CreateObject<TcpNewReno>()));
        minTcp->SetAttribute("ReTxThreshold", UintegerValue(NO_FAST_RETRANSMIT));
        // The estimate is never used for the timer, but keep ns-3's RTO arithmetic tame.
        minTcp->SetAttribute("MinRto", TimeValue(m_rto));
        minTcp->SetAttribute("ClockGranularity", TimeValue(NanoSeconds(1)));
        minTcp->SetFixedRto(m_rto);
        minTcp->SetMaxWindow(settings.maxWindow);
        minTcp->SetProbeAfterTimeouts(settings.probeAfterTimeouts);
        AttachToNode(minTcp);
        minTcp->SetPriorityPolicy(GetPriorityPolicy(), m_priorityOffset);
        if (lineRate)
        {
            minTcp->SetLineRate(GetPacingLineRate(), m_headerBytes);
        }
        else if (m_hostPacing)
        {
            minTcp->SetPacingLineRate(GetPacingLineRate(), m_headerBytes);
        }
        socket = minTcp;
    }
    else
    {
        auto baseline = CreateObject<PfabricBaselineTcpSocket>();
        // ns-2 started the estimate at the minimum RTO (rtxcur_init_), not at ns-3's 1 s.
        ConfigureCommon(baseline, m_initialWindow, m_minRto);
        baseline->SetCongestionControlAlgorithm(CreateBaselineCongestionOps());
        if (BaselineUsesEcn())
        {
            baseline->SetAttribute("UseEcn", StringValue("On"));
        }
        baseline->SetAttribute("MinRto", TimeValue(m_minRto));
        baseline->SetAttribute("ClockGranularity", TimeValue(m_clockGranularity));
        if (m_fastRetransmit)
        {
            baseline->SetAttribute("ReTxThreshold", UintegerValue(m_dupAckThreshold));
            if (m_dupAckWindowFraction > 0)
            {
                baseline->SetAdaptiveDupAckThreshold(m_dupAckThreshold, m_dupAckWindowFraction);
            }
        }
        else
        {
            baseline->SetAttribute("ReTxThreshold", UintegerValue(NO_FAST_RETRANSMIT));
        }
        if (m_hostPacing)
        {
            baseline->SetPacingLineRate(GetPacingLineRate(), m_headerBytes);
        }
        AttachToNode(baseline);
        socket = baseline;
    }
    socket->SetRestartSsThresh(m_restartSsThresh);
    m_socketCreatedTrace(socket);
    return socket;
}

} // namespace ns3
