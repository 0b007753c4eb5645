/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricTcpSocketFactory: the configured senders and receivers of every scheme's end hosts.

#include "pfabric-tcp-socket-factory.h"

#include "pfabric-configured-defaults.h"
#include "pfabric-flow-sender.h"
#include "pfabric-host-transport.h"
#include "pfabric-lean-sender.h"
#include "pfabric-min-tcp-socket.h"
#include "pfabric-socket-flow-sender.h"
#include "pfabric-tcp-demux.h"
#include "pfabric-tcp-tagger.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/callback.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/loopback-net-device.h"
#include "ns3/node.h"
#include "ns3/object-ptr-container.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/rtt-estimator.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-recovery-ops.h"
#include "ns3/tcp-socket-state.h"
#include "ns3/uinteger.h"

#include <algorithm>
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
                "SocketType",
                "The sockets this factory creates: a PfabricTcpSocket with its attributes, e.g. "
                "ns3::PfabricMinTcpSocket[Rto=45us]. PfabricMinTcpSocket (MinTCP, the "
                "default), PfabricLineRateTcpSocket (LineRate) or PfabricBaselineTcpSocket (TCP "
                "with its CongestionControl: TCP-DropTail, DCTCP, the custom scheme). The "
                "factory's own attributes are what every transport shares.",
                // Named through GetTypeId, which registers the type: this TypeId may be made
                // first (files are initialised in no set order).
                ObjectFactoryValue(ObjectFactory(PfabricMinTcpSocket::GetTypeId().GetName())),
                MakeObjectFactoryAccessor(&PfabricTcpSocketFactory::m_socketType),
                MakeObjectFactoryChecker())
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
                          "LineRate's is its fixed window, PfabricLineRateTcpSocket::Window). The "
                          "default, 12, is about one bandwidth-delay product of a 10 Gb/s "
                          "fat-tree (HotNets 2012).",
                          UintegerValue(12),
                          MakeUintegerAccessor(&PfabricTcpSocketFactory::m_initialWindow),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "HostPacing",
                "Window-based senders (MinTCP, TCP, DCTCP): pace them at LineRate, so "
                "that a window burst waits in the socket rather than overflowing its "
                "own NIC's queue (LineRate senders are always paced). On by default: real "
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
    m_leanPrototype = nullptr;
    SocketFactory::DoDispose();
}

const std::vector<std::string>&
PfabricTcpSocketFactory::GetCommonSocketAttributes()
{
    // ConfigureCommon's, in its order, and the duplicate-ACK threshold every transport sets.
    static const std::vector<std::string> names{"SegmentSize",
                                                "InitialCwnd",
                                                "DelAckCount",
                                                "TcpNoDelay",
                                                "Sack",
                                                "Timestamp",
                                                "LimitedTransmit",
                                                "DataRetries",
                                                "ConnTimeout",
                                                "ConnCount",
                                                "SndBufSize",
                                                "RcvBufSize",
                                                "ReTxThreshold"};
    return names;
}

std::vector<std::pair<TypeId, std::string>>
PfabricTcpSocketFactory::GetChangedNs3Attributes(Ptr<const PfabricTcpSocket> socket)
{
    const std::string moduleGroup = PfabricTcpSocket::GetTypeId().GetGroupName();
    std::vector<std::pair<TypeId, std::string>> changed;
    for (TypeId tid = socket->GetInstanceTypeId(); tid != tid.GetParent(); tid = tid.GetParent())
    {
        if (tid.GetGroupName() == moduleGroup)
        {
            continue; // the transport's own attributes, which it and its lean twin read
        }
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = tid.GetAttribute(i);
            if (!DynamicCast<const PointerChecker>(info.checker) &&
                !DynamicCast<const ObjectPtrContainerChecker>(info.checker) &&
                !DynamicCast<const CallbackChecker>(info.checker) &&
                socket->GetAttributeText(info) !=
                    info.originalInitialValue->SerializeToString(info.checker))
            {
                changed.emplace_back(tid, info.name);
            }
        }
    }
    return changed;
}

std::vector<std::string>
PfabricTcpSocketFactory::GetAttributesLeanHostIgnores() const
{
    Ptr<PfabricTcpSocket> socket = CreateSocketOfType();
    const std::vector<std::string> honoured = socket->GetLeanHonouredAttributes();
    std::vector<std::string> ignored;
    for (const auto& [tid, name] : GetChangedNs3Attributes(socket))
    {
        if (std::find(honoured.begin(), honoured.end(), name) == honoured.end())
        {
            ignored.push_back(tid.GetName() + "::" + name);
        }
    }
    const std::vector<std::string> state =
        PfabricConfiguredDefaults::ListConfigured(TcpSocketState::GetTypeId());
    ignored.insert(ignored.end(), state.begin(), state.end());
    return ignored;
}

std::vector<std::string>
PfabricTcpSocketFactory::GetAttributesSocketsOverwrite() const
{
    std::vector<std::string> overwritten;
    for (const auto& [tid, name] : GetChangedNs3Attributes(CreateSocketOfType()))
    {
        if (IsSetOnEverySocket(name))
        {
            overwritten.push_back(tid.GetName() + "::" + name);
        }
    }
    return overwritten;
}

std::string
PfabricTcpSocketFactory::FindSettingEverySocketLoses(std::string* why) const
{
    const std::vector<std::string> overwritten = GetAttributesSocketsOverwrite();
    if (!overwritten.empty())
    {
        *why = "the scheme's sockets set " + overwritten.front() +
               " themselves, on every host stack (from the attributes of " + GetTypeId().GetName() +
               " and of its SocketType)";
        return overwritten.front();
    }
    const std::vector<std::string> pacing =
        PfabricConfiguredDefaults::ListConfigured(TcpSocketState::GetTypeId());
    if (!pacing.empty() && CreateSocketOfType()->IsPacedAtLineRate(GetSettings()))
    {
        *why = "the scheme's sockets pace themselves at their NIC's line rate (" +
               GetTypeId().GetName() + "::HostPacing, on in both presets; LineRate always), " +
               "on every host stack, so " + pacing.front() + " never reaches one";
        return pacing.front();
    }
    // A transport that paces whatever HostPacing says (LineRate) reads no default of it.
    const std::vector<std::string> hostPacing =
        PfabricConfiguredDefaults::ListConfigured(GetTypeId(), {"HostPacing"});
    if (!hostPacing.empty())
    {
        Ptr<PfabricTcpSocket> socket = CreateSocketOfType();
        PfabricTcpSocket::FactorySettings paced = GetSettings();
        PfabricTcpSocket::FactorySettings unpaced = paced;
        paced.hostPacing = true;
        unpaced.hostPacing = false;
        if (socket->IsPacedAtLineRate(paced) == socket->IsPacedAtLineRate(unpaced))
        {
            *why = "whether the scheme's sockets (" + m_socketType.GetTypeId().GetName() +
                   ") pace at their NIC's line rate does not depend on it (LineRate's always " +
                   "do), on every host stack";
            return hostPacing.front();
        }
    }
    // DelAckCount 1 on every socket (GetCommonSocketAttributes): each data segment is
    // acknowledged at once, and the delayed-ACK timer is never armed.
    for (const auto& [tid, name] : GetChangedNs3Attributes(CreateSocketOfType()))
    {
        if (name == "DelAckTimeout")
        {
            *why = "the scheme's sockets acknowledge every data segment at once (DelAckCount 1, "
                   "set on every socket), on every host stack, so their delayed-ACK timer is "
                   "never armed";
            return tid.GetName() + "::" + name;
        }
    }
    std::vector<std::string> chosen =
        PfabricConfiguredDefaults::ListConfigured(TcpL4Protocol::GetTypeId());
    const std::vector<std::string> estimate =
        PfabricConfiguredDefaults::ListConfigured(RttEstimator::GetTypeId(), {"InitialEstimation"});
    chosen.insert(chosen.end(), estimate.begin(), estimate.end());
    // The socket's own pointers to its congestion control and recovery (attributes in newer
    // ns-3 releases only; the eleventh probe: RecoveryOps=ns3::TcpPrrRecovery was taken).
    for (const char* part : {"CongestionOps", "RecoveryOps"})
    {
        TypeId::AttributeInformation info;
        if (TcpSocketBase::GetTypeId().LookupAttributeByName(part, &info))
        {
            const std::vector<std::string> its =
                PfabricConfiguredDefaults::ListConfigured(TcpSocketBase::GetTypeId(), {part});
            chosen.insert(chosen.end(), its.begin(), its.end());
        }
    }
    if (!chosen.empty())
    {
        *why = "the scheme's socket factory makes every socket itself, with its own RTT "
               "estimator (ns3::RttMeanDeviation from the scheme's initial RTT) and recovery "
               "(ns3::TcpClassicRecovery), on every host stack, so " +
               chosen.front() + " never reaches one";
        return chosen.front();
    }
    // The estimator's other settings (RttMeanDeviation's gains) shape only the RTO.
    std::vector<std::string> estimator =
        PfabricConfiguredDefaults::ListConfigured(RttEstimator::GetTypeId());
    const std::vector<std::string> gains =
        PfabricConfiguredDefaults::ListConfigured(RttMeanDeviation::GetTypeId());
    estimator.insert(estimator.end(), gains.begin(), gains.end());
    if (estimator.empty() || CreateSocketOfType()->IsRtoFromRttEstimate())
    {
        return "";
    }
    *why = "the scheme's sockets (" + m_socketType.GetTypeId().GetName() +
           ") keep a fixed retransmission timeout (their Rto), whatever the RTT estimate, on "
           "every host stack";
    return estimator.front();
}

std::string
PfabricTcpSocketFactory::FindSettingNoConnectionCarries(std::string* why) const
{
    Ptr<PfabricTcpSocket> socket = CreateSocketOfType();
    UintegerValue window;
    socket->GetAttribute("MaxWindowSize", window);
    if (window.Get() == 0)
    {
        *why = "a receive window of 0 bytes carries no data, and ns-3's persist timer stops the "
               "run on it (TcpSocketBase::PersistTimeout); give a positive number of bytes";
        return "ns3::TcpSocketBase::MaxWindowSize";
    }
    // The first RTT estimate is also the SYN's timer (ConnTimeout, ConfigureCommon): at 0 every
    // SYN is resent in the same nanosecond, SYN_RETRIES times, and the connection gives up.
    if (!socket->GetInitialRtt().IsStrictlyPositive())
    {
        *why = "a minimum RTO of 0 is also the first RTT estimate and the SYN's timeout, so "
               "every SYN is resent at once until the connection gives up and no flow starts; "
               "give a positive time";
        return std::string("ns3::TcpSocketBase::") + PfabricTcpSocket::MIN_RTO_ATTRIBUTE;
    }
    return "";
}

bool
PfabricTcpSocketFactory::IsSetOnEverySocket(const std::string& attribute) const
{
    const std::vector<std::string>& common = GetCommonSocketAttributes();
    const std::vector<std::string> transport = CreateSocketOfType()->GetTransportSocketAttributes();
    return std::find(common.begin(), common.end(), attribute) != common.end() ||
           std::find(transport.begin(), transport.end(), attribute) != transport.end();
}

PfabricTcpSocket::FactorySettings
PfabricTcpSocketFactory::GetSettings() const
{
    return PfabricTcpSocket::FactorySettings{m_segmentSize,
                                             m_headerBytes,
                                             m_initialWindow,
                                             m_hostPacing,
                                             [this]() { return GetPacingLineRate(); }};
}

Ptr<PfabricTcpSocket>
PfabricTcpSocketFactory::CreateSocketOfType() const
{
    Ptr<PfabricTcpSocket> socket = m_socketType.Create<PfabricTcpSocket>();
    NS_ABORT_MSG_IF(!socket,
                    "PfabricTcpSocketFactory: SocketType " << m_socketType.GetTypeId().GetName()
                                                           << " is not a PfabricTcpSocket");
    return socket;
}

Ptr<PfabricTcpSocket>
PfabricTcpSocketFactory::GetLeanPrototype()
{
    if (!m_leanPrototype)
    {
        m_leanPrototype = CreateSocketOfType();
    }
    return m_leanPrototype;
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
    Ptr<PfabricLeanSender> sender = GetLeanPrototype()->CreateLeanSender(lean, GetSettings());
    sender->SetRestartSsThresh(m_restartSsThresh);
    m_flowSenderCreatedTrace(sender);
    return sender;
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
        lean->SetReceiverSettings(GetLeanPrototype()->GetLeanReceiverSettings());
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
    // GetCommonSocketAttributes names these.
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
    socket->SetAttribute("ConnCount", UintegerValue(PfabricTcpSocket::SYN_RETRIES));
    socket->SetAttribute("SndBufSize", UintegerValue(std::numeric_limits<uint32_t>::max()));
    socket->SetAttribute("RcvBufSize", UintegerValue(PfabricFlowSender::RECEIVE_BUFFER_BYTES));
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
    Ptr<PfabricTcpSocket> socket = CreateSocketOfType();
    const PfabricTcpSocket::FactorySettings settings = GetSettings();
    // The order of TcpSocketBase's calls matters: SetCongestionControlAlgorithm initialises
    // the congestion control on the socket state the common settings gave.
    ConfigureCommon(socket, socket->GetInitialWindow(settings), socket->GetInitialRtt());
    socket->SetCongestionControlAlgorithm(socket->CreateCongestionOps());
    AttachToNode(socket);
    socket->ConfigureTransport(settings);
    socket->SetRestartSsThresh(m_restartSsThresh);
    m_socketCreatedTrace(socket);
    return socket;
}

} // namespace ns3
