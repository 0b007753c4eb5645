/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricSchemeHelper: one of the packet-level schemes (or a custom one) on a set of nodes, every
// number from a preset.

#include "pfabric-scheme-helper.h"

#include "pfabric-queue-disc-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/loopback-net-device.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/pfabric-class-queue-disc.h"
#include "ns3/pfabric-host-transport.h"
#include "ns3/pfabric-line-rate-tcp-socket.h"
#include "ns3/pfabric-min-tcp-socket.h"
#include "ns3/pfabric-priority-levels.h"
#include "ns3/pfabric-priority-policy.h"
#include "ns3/pfabric-queue-disc.h"
#include "ns3/pfabric-tcp-socket-factory.h"
#include "ns3/queue-size.h"
#include "ns3/red-queue-disc.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>
#include <utility>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricSchemeHelper");

namespace
{

/// A scheme and its end hosts' sockets.
struct Scheme
{
    const char* name;       //!< command-line name
    const char* socketType; //!< the PfabricTcpSocketFactory's SocketType
};

constexpr const char* BASELINE_SOCKET = "ns3::PfabricBaselineTcpSocket";

constexpr Scheme SCHEMES[] = {
    {"pfabric", "ns3::PfabricMinTcpSocket"},
    {"linerate", "ns3::PfabricLineRateTcpSocket"},
    {"tcp", BASELINE_SOCKET},
    {"dctcp", BASELINE_SOCKET},
    {PfabricSchemeHelper::CUSTOM, BASELINE_SOCKET},
};

/// DCTCP's marked-fraction estimate of a new connection: the original ns-2 code's
/// ecnhat_alpha_ (ns-3's TcpDctcp and Linux start at 1, halving a new flow's window at its
/// first marks).
constexpr double DCTCP_INITIAL_ALPHA = 0;

/// @return whether a TypeId is a class or one of its subclasses
bool
IsA(TypeId tid, TypeId base)
{
    return tid == base || tid.IsChildOf(base);
}

/// @return whether a TypeId (or a parent) has an attribute of that name
bool
HasAttribute(const std::string& type, const std::string& name)
{
    TypeId::AttributeInformation info;
    return TypeId::LookupByName(type).LookupAttributeByName(name, &info);
}

/// @return the names as "a, b or c"
std::string
JoinNames(const std::vector<std::string>& names)
{
    std::string joined;
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        joined += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    }
    return joined;
}

const Scheme&
FindScheme(const std::string& name)
{
    for (const auto& scheme : SCHEMES)
    {
        if (name == scheme.name)
        {
            return scheme;
        }
    }
    std::ostringstream known;
    for (const auto& scheme : SCHEMES)
    {
        known << " " << scheme.name;
    }
    NS_ABORT_MSG("unknown scheme '" << name << "'; known:" << known.str());
    return SCHEMES[0];
}

} // namespace

bool
PfabricSchemeHelper::UsesPfabricQueues(const std::string& scheme)
{
    return scheme == "pfabric" || scheme == "linerate";
}

PfabricSchemeHelper::PfabricSchemeHelper(const std::string& scheme, const std::string& preset)
    : m_preset(nullptr),
      m_socketFactoryAttributes("ns3::PfabricTcpSocketFactory"),
      m_socketAttributes(SCHEMES[0].socketType),
      m_queueDiscAttributes("ns3::PfabricQueueDisc"),
      m_customQueueDisc(CUSTOM_QUEUE_DISC),
      m_hostQueueDiscAttributes(CUSTOM_QUEUE_DISC),
      m_levels(0),
      m_classScheduler("Drr")
{
    SetScheme(scheme);
    SetPreset(preset);
}

void
PfabricSchemeHelper::SetScheme(const std::string& scheme)
{
    m_scheme = FindScheme(scheme).name;
}

void
PfabricSchemeHelper::SetPreset(const std::string& preset)
{
    m_preset = &PfabricPreset::Get(preset);
}

std::string
PfabricSchemeHelper::GetScheme() const
{
    return m_scheme;
}

const PfabricPreset&
PfabricSchemeHelper::GetPreset() const
{
    return *m_preset;
}

void
PfabricSchemeHelper::SetSocketFactoryAttribute(const std::string& name, const AttributeValue& value)
{
    m_socketFactoryAttributes.SetValue(name, value);
}

void
PfabricSchemeHelper::SetSocketAttribute(const std::string& name, const AttributeValue& value)
{
    m_socketAttributes.SetValue(name, value);
}

void
PfabricSchemeHelper::SetSocketType(const std::string& type)
{
    NS_ABORT_MSG_UNLESS(m_scheme == CUSTOM,
                        "PfabricSchemeHelper: SetSocketType needs the custom scheme, not "
                            << m_scheme);
    m_customSocketType = type;
}

std::string
PfabricSchemeHelper::GetSocketTypeName() const
{
    return m_scheme == CUSTOM && !m_customSocketType.empty() ? m_customSocketType
                                                             : FindScheme(m_scheme).socketType;
}

void
PfabricSchemeHelper::SetQueueDiscAttribute(const std::string& name, const AttributeValue& value)
{
    m_queueDiscAttributes.SetValue(name, value);
}

void
PfabricSchemeHelper::SetQueueDisc(const std::string& type)
{
    NS_ABORT_MSG_UNLESS(m_scheme == CUSTOM,
                        "PfabricSchemeHelper: SetQueueDisc needs the custom scheme, not "
                            << m_scheme);
    m_customQueueDisc = type;
}

void
PfabricSchemeHelper::SetHostQueueDisc(const std::string& type)
{
    NS_ABORT_MSG_UNLESS(m_scheme == CUSTOM,
                        "PfabricSchemeHelper: SetHostQueueDisc needs the custom scheme, not "
                            << m_scheme);
    m_customHostQueueDisc = type;
    m_hostQueueDiscAttributes.SetTypeId(type);
}

void
PfabricSchemeHelper::SetHostQueueDiscAttribute(const std::string& name, const AttributeValue& value)
{
    m_hostQueueDiscAttributes.SetValue(name, value);
}

void
PfabricSchemeHelper::SetPriorityLevels(const std::vector<uint64_t>& thresholds)
{
    NS_ABORT_MSG_UNLESS(UsesPfabricQueues(m_scheme),
                        "PfabricSchemeHelper: priority levels need the pfabric or linerate "
                        "scheme, not "
                            << m_scheme);
    m_levels = thresholds.size() + 1;
    ObjectFactory policy("ns3::PfabricRemainingSizePriority");
    policy.Set("Thresholds", StringValue(PfabricPriorityPolicy::FormatThresholds(thresholds)));
    m_socketAttributes.SetValue("PriorityPolicy", ObjectFactoryValue(policy));
}

uint32_t
PfabricSchemeHelper::GetPriorityLevels() const
{
    return m_levels;
}

void
PfabricSchemeHelper::SetTrafficClasses(const std::string& scheduler,
                                       const std::vector<uint32_t>& weights)
{
    NS_ABORT_MSG_UNLESS(UsesPfabricQueues(m_scheme),
                        "PfabricSchemeHelper: traffic classes need the pfabric or linerate "
                        "scheme, not "
                            << m_scheme);
    NS_ABORT_MSG_IF(weights.empty(), "PfabricSchemeHelper: traffic classes need a weight each");
    NS_ABORT_MSG_IF(scheduler != "Strict" && scheduler != "Drr",
                    "PfabricSchemeHelper: the scheduler between classes is Strict or Drr, not "
                        << scheduler);
    m_classScheduler = scheduler;
    m_classWeights = weights;
}

uint32_t
PfabricSchemeHelper::GetTrafficClasses() const
{
    return m_classWeights.size();
}

TypeId
PfabricSchemeHelper::GetSocketFactoryType()
{
    return PfabricTcpSocketFactory::GetTypeId();
}

std::string
PfabricSchemeHelper::CheckChoice(const std::string& scheme, const std::string& preset, bool custom)
{
    auto schemes = GetSchemes();
    if (!custom)
    {
        schemes.erase(std::find(schemes.begin(), schemes.end(), CUSTOM));
    }
    if (std::find(schemes.begin(), schemes.end(), scheme) == schemes.end())
    {
        return "--scheme=" + scheme + ": expected " + JoinNames(schemes);
    }
    auto presets = PfabricPreset::GetNames();
    if (std::find(presets.begin(), presets.end(), preset) == presets.end())
    {
        return "--preset=" + preset + ": expected " + JoinNames(presets);
    }
    return "";
}

std::vector<std::string>
PfabricSchemeHelper::GetSchemes()
{
    std::vector<std::string> names;
    for (const auto& scheme : SCHEMES)
    {
        names.emplace_back(scheme.name);
    }
    return names;
}

ObjectFactory
PfabricSchemeHelper::GetSocketFactoryFactory() const
{
    const PfabricPreset& p = *m_preset;
    PfabricPresetAttributes transport = m_socketFactoryAttributes;
    transport.SetPresetValue("SegmentSize", UintegerValue(p.segmentSize))
        .SetPresetValue("HeaderBytes", UintegerValue(p.headerBytes + p.linkHeaderBytes))
        .SetPresetValue("InitialWindow", UintegerValue(p.initialWindow))
        .SetPresetValue("HostPacing", BooleanValue(p.hostPacing));
    ObjectFactory socketFactory("ns3::PfabricTcpSocketFactory");
    // The scheme's sockets, whatever SocketType's configured default.
    socketFactory.Set("SocketType", ObjectFactoryValue(GetSocketTypeFactory()));
    transport.Apply(socketFactory);
    return socketFactory;
}

ObjectFactory
PfabricSchemeHelper::GetSocketTypeFactory() const
{
    const PfabricPreset& p = *m_preset;
    const std::string type = GetSocketTypeName();
    const TypeId tid = TypeId::LookupByName(type);
    PfabricPresetAttributes socket = m_socketAttributes;
    socket.SetTypeId(type);
    // The preset's numbers of the transport the socket class is.
    if (IsA(tid, PfabricMinTcpSocket::GetTypeId()))
    {
        socket.SetPresetValue("Rto", TimeValue(p.minTcpRto))
            .SetPresetValue("ProbeMode", BooleanValue(p.probeMode))
            .SetPresetValue("ProbeAfterTimeouts", UintegerValue(p.probeAfterTimeouts))
            .SetPresetValue("PriorityOffset", UintegerValue(p.priorityOffset));
        if (IsA(tid, PfabricLineRateTcpSocket::GetTypeId()))
        {
            socket.SetPresetValue("Window", UintegerValue(p.lineRateWindow));
        }
        else
        {
            socket.SetPresetValue("MaxWindow", UintegerValue(p.minTcpMaxWindow));
        }
    }
    else
    {
        socket.SetPresetValue("MinRto", TimeValue(p.baselineMinRto))
            .SetPresetValue("ClockGranularity", TimeValue(p.clockGranularity))
            .SetPresetValue("FastRetransmit", BooleanValue(p.baselineFastRetransmit))
            .SetPresetValue("DupAckThreshold", UintegerValue(p.dupAckThreshold))
            .SetPresetValue("DupAckWindowFraction", DoubleValue(p.dupAckWindowFraction));
    }
    ObjectFactory factory(type);
    if (m_scheme == "dctcp")
    {
        // What makes the baseline DCTCP, whatever the configured defaults: ns-3's DCTCP with a
        // floor under its cut, and ECN. Its numbers are TcpDctcp's own attributes, the preset's
        // gain and the original code's initial alpha, unless configured.
        PfabricPresetAttributes dctcp("ns3::PfabricDctcp");
        dctcp.SetPresetValue("DctcpShiftG", DoubleValue(p.dctcpG))
            .SetPresetValue("DctcpAlphaOnInit", DoubleValue(DCTCP_INITIAL_ALPHA));
        ObjectFactory congestionControl("ns3::PfabricDctcp");
        dctcp.Apply(congestionControl);
        factory.Set("CongestionControl", ObjectFactoryValue(congestionControl));
        factory.Set("UseEcn", StringValue("On"));
    }
    socket.Apply(factory);
    return factory;
}

PfabricPresetAttributes
PfabricSchemeHelper::GetPortAttributes() const
{
    const PfabricPreset& p = *m_preset;
    std::string queueDiscType = m_levels > 0                  ? "ns3::PfabricLevelQueueDisc"
                                : UsesPfabricQueues(m_scheme) ? "ns3::PfabricQueueDisc"
                                : m_scheme == "tcp"           ? "ns3::FifoQueueDisc"
                                : m_scheme == CUSTOM          ? m_customQueueDisc
                                                              : "ns3::RedQueueDisc";
    PfabricPresetAttributes port = m_queueDiscAttributes;
    port.SetTypeId(queueDiscType);
    if (m_levels > 0)
    {
        port.SetPresetValue("MaxSize", QueueSizeValue(p.pfabricBuffer));
    }
    else if (UsesPfabricQueues(m_scheme))
    {
        port.SetPresetValue("MaxSize", QueueSizeValue(p.pfabricBuffer))
            .SetPresetValue("DequeueMode", StringValue(p.pfabricDequeueMode))
            .SetPresetValue("AdmissionMode", StringValue(p.pfabricAdmissionMode));
    }
    else if (m_scheme == "tcp" || (m_scheme == CUSTOM && HasAttribute(queueDiscType, "MaxSize")))
    {
        port.SetPresetValue("MaxSize", QueueSizeValue(p.baselineBuffer));
    }
    else if (m_scheme == "dctcp")
    {
        // DCTCP's switch: mark every packet that arrives to K or more packets, never drop early
        // (ns-3's dctcp example; Alizadeh et al., SIGCOMM 2010).
        port.SetPresetValue("MaxSize", QueueSizeValue(p.baselineBuffer))
            .SetPresetValue("MinTh", DoubleValue(p.dctcpMarkingThreshold))
            .SetPresetValue("MaxTh", DoubleValue(p.dctcpMarkingThreshold))
            .SetPresetValue("QW", DoubleValue(1))
            .SetPresetValue("UseEcn", BooleanValue(true))
            .SetPresetValue("UseHardDrop", BooleanValue(false))
            .SetPresetValue("Gentle", BooleanValue(false))
            .SetPresetValue("MeanPktSize", UintegerValue(p.segmentSize + p.headerBytes));
    }
    return port;
}

PfabricPresetAttributes
PfabricSchemeHelper::GetHostPortAttributes() const
{
    if (m_customHostQueueDisc.empty())
    {
        return GetPortAttributes();
    }
    PfabricPresetAttributes host = m_hostQueueDiscAttributes;
    if (HasAttribute(m_customHostQueueDisc, "MaxSize"))
    {
        host.SetPresetValue("MaxSize", QueueSizeValue(m_preset->baselineBuffer));
    }
    return host;
}

ObjectFactory
PfabricSchemeHelper::GetQueueDiscFactory(bool host) const
{
    PfabricPresetAttributes attributes = host ? GetHostPortAttributes() : GetPortAttributes();
    ObjectFactory factory(attributes.GetTypeName());
    attributes.Apply(factory);
    if (m_levels > 0)
    {
        factory.Set("Levels", UintegerValue(m_levels));
        factory.Set("PriorityOffset", GetSenderPriorityOffset());
    }
    return factory;
}

UintegerValue
PfabricSchemeHelper::GetSenderPriorityOffset() const
{
    // The ports find a segment's level by the offset its sender added: take the senders' own,
    // whichever of preset, configured default or override set it.
    UintegerValue offset;
    GetSocketTypeFactory().Create()->GetAttribute("PriorityOffset", offset);
    return offset;
}

QueueDiscContainer
PfabricSchemeHelper::Install(NodeContainer nodes) const
{
    return Install(NodeContainer(), nodes);
}

QueueDiscContainer
PfabricSchemeHelper::Install(NodeContainer hosts, NodeContainer switches) const
{
    NS_LOG_FUNCTION(this << m_scheme << m_preset->name);
    ObjectFactory socketFactory = GetSocketFactoryFactory();
    const bool classes = !m_classWeights.empty();
    NS_ABORT_MSG_IF(classes && m_levels > 0,
                    "PfabricSchemeHelper: traffic classes and priority levels do not combine");
    // With classes, the port is a PfabricClassQueueDisc and every class a pFabric port.
    ObjectFactory classPort = GetQueueDiscFactory();
    PfabricQueueDiscHelper ports;
    if (classes)
    {
        std::ostringstream weights;
        for (std::size_t i = 0; i < m_classWeights.size(); ++i)
        {
            weights << (i ? "," : "") << m_classWeights[i];
        }
        ports.SetQueueDiscType("ns3::PfabricClassQueueDisc");
        ports.SetQueueDiscAttribute("Classes", UintegerValue(m_classWeights.size()));
        ports.SetQueueDiscAttribute("Scheduler", StringValue(m_classScheduler));
        ports.SetQueueDiscAttribute("Weights", StringValue(weights.str()));
    }
    else
    {
        ports.SetQueueDiscFactory(classPort);
    }
    PfabricQueueDiscHelper hostPorts = ports;
    if (!m_customHostQueueDisc.empty())
    {
        hostPorts.SetQueueDiscFactory(GetQueueDiscFactory(true));
    }

    QueueDiscContainer queueDiscs;
    NodeContainer nodes(hosts, switches);
    for (uint32_t n = 0; n < nodes.GetN(); ++n)
    {
        Ptr<Node> node = nodes.Get(n);
        const bool leanHost = node->GetObject<PfabricHostTransport>() != nullptr;
        if (node->GetObject<Ipv4>() || leanHost)
        {
            // a lean switch has no transport to configure, only its ports
            NS_ABORT_MSG_IF(node->GetObject<PfabricTcpSocketFactory>(),
                            "PfabricSchemeHelper: node " << node->GetId()
                                                         << " already has a scheme installed");
            node->AggregateObject(socketFactory.Create<PfabricTcpSocketFactory>());
        }
        const PfabricQueueDiscHelper& nodePorts = n < hosts.GetN() ? hostPorts : ports;
        for (uint32_t i = 0; i < node->GetNDevices(); ++i)
        {
            Ptr<NetDevice> device = node->GetDevice(i);
            if (DynamicCast<LoopbackNetDevice>(device))
            {
                continue;
            }
            if (m_scheme == "dctcp")
            {
                DataRateValue rate;
                if (device->GetAttributeFailSafe("DataRate", rate))
                {
                    PfabricQueueDiscHelper port = nodePorts;
                    port.SetQueueDiscAttribute("LinkBandwidth", rate);
                    queueDiscs.Add(port.Install(NetDeviceContainer(device)));
                    continue;
                }
            }
            QueueDiscContainer installed = nodePorts.Install(NetDeviceContainer(device));
            for (std::size_t c = 0; classes && c < m_classWeights.size(); ++c)
            {
                auto qdClass = CreateObject<QueueDiscClass>();
                qdClass->SetQueueDisc(classPort.Create<QueueDisc>());
                installed.Get(0)->AddQueueDiscClass(qdClass);
            }
            queueDiscs.Add(installed);
        }
    }
    return queueDiscs;
}

int64_t
PfabricSchemeHelper::AssignStreams(const QueueDiscContainer& queueDiscs, int64_t stream)
{
    int64_t assigned = 0;
    for (auto it = queueDiscs.Begin(); it != queueDiscs.End(); ++it)
    {
        assigned += AssignStreams(*it, stream + assigned);
    }
    return assigned;
}

int64_t
PfabricSchemeHelper::AssignStreams(Ptr<QueueDisc> queueDisc, int64_t stream)
{
    // The random variables are in the pFabric queues (tie-breaking) and RED, wherever they sit:
    // a port's root or the children of a hierarchical one (PfabricClassQueueDisc), in order.
    int64_t assigned = 0;
    if (auto pfabric = DynamicCast<PfabricQueueDisc>(queueDisc))
    {
        assigned += pfabric->AssignStreams(stream);
    }
    else if (auto red = DynamicCast<RedQueueDisc>(queueDisc))
    {
        assigned += red->AssignStreams(stream);
    }
    for (std::size_t i = 0; i < queueDisc->GetNQueueDiscClasses(); ++i)
    {
        assigned +=
            AssignStreams(queueDisc->GetQueueDiscClass(i)->GetQueueDisc(), stream + assigned);
    }
    return assigned;
}

} // namespace ns3
