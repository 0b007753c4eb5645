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
#include "ns3/pfabric-configured-defaults.h"
#include "ns3/pfabric-host-transport.h"
#include "ns3/pfabric-line-rate-tcp-socket.h"
#include "ns3/pfabric-min-tcp-socket.h"
#include "ns3/pfabric-mode-attributes.h"
#include "ns3/pfabric-priority-levels.h"
#include "ns3/pfabric-priority-policy.h"
#include "ns3/pfabric-queue-disc.h"
#include "ns3/pfabric-tcp-socket-factory.h"
#include "ns3/pfabric-tcp-socket.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/red-queue-disc.h"
#include "ns3/string.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-socket-base.h"
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

/// A scheme's part.
using Part = PfabricSchemeRecipe::Part;

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

/**
 * @brief Add the values set through a helper after a part's own (they win).
 * @param attributes the part's values
 * @param overrides the helper's
 */
void
AddOverrides(PfabricPresetAttributes& attributes, const PfabricPresetAttributes& overrides)
{
    for (const auto& [name, value] : overrides.GetValues())
    {
        attributes.SetValue(name, *value);
    }
}

/// @return the registered schemes of pFabric's queues, as "a or b"
std::string
PfabricQueueSchemes()
{
    std::vector<std::string> names;
    for (const std::string& name : PfabricSchemeRegistry::List())
    {
        if (PfabricSchemeRegistry::Get(name).UsesPfabricQueues())
        {
            names.push_back(name);
        }
    }
    return JoinNames(names);
}

} // namespace

bool
PfabricSchemeHelper::UsesPfabricQueues(const std::string& scheme)
{
    const PfabricSchemeRecipe* recipe = PfabricSchemeRegistry::Find(scheme);
    return recipe && recipe->UsesPfabricQueues();
}

void
PfabricSchemeHelper::PrintSchemes(std::ostream& os)
{
    for (const std::string& name : PfabricSchemeRegistry::List())
    {
        const PfabricSchemeRecipe& recipe = PfabricSchemeRegistry::Get(name);
        os << name << "\t" << (recipe.UsesPfabricQueues() ? 1 : 0) << "\t"
           << recipe.GetDescription() << "\n";
    }
    os << CUSTOM << "\t0\t"
       << "ns-3 parts by name (PfabricCustomScheme), from " << CUSTOM_BASE << "'s\n";
}

PfabricSchemeHelper::PfabricSchemeHelper(const std::string& scheme, const std::string& preset)
    : m_preset(nullptr),
      m_socketFactoryAttributes("ns3::PfabricTcpSocketFactory"),
      m_socketAttributes("ns3::PfabricTcpSocket"),
      m_queueDiscAttributes("ns3::QueueDisc"),
      m_hostQueueDiscAttributes("ns3::QueueDisc"),
      m_levels(0),
      m_classScheduler("Drr")
{
    SetScheme(scheme);
    SetPreset(preset);
}

void
PfabricSchemeHelper::SetScheme(const std::string& scheme)
{
    if (scheme == CUSTOM)
    {
        // Until SetRecipe: TCP-DropTail's parts.
        m_recipe = PfabricSchemeRegistry::Get(CUSTOM_BASE);
        m_recipe.SetName(CUSTOM);
    }
    else
    {
        m_recipe = PfabricSchemeRegistry::Get(scheme);
    }
    m_scheme = scheme;
}

void
PfabricSchemeHelper::SetRecipe(const PfabricSchemeRecipe& recipe)
{
    m_recipe = recipe;
}

const PfabricSchemeRecipe&
PfabricSchemeHelper::GetRecipe() const
{
    return m_recipe;
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

std::string
PfabricSchemeHelper::GetSocketTypeName() const
{
    return m_recipe.GetType(PfabricSchemeRecipe::SOCKET);
}

void
PfabricSchemeHelper::SetQueueDiscAttribute(const std::string& name, const AttributeValue& value)
{
    m_queueDiscAttributes.SetValue(name, value);
}

void
PfabricSchemeHelper::SetHostQueueDiscAttribute(const std::string& name, const AttributeValue& value)
{
    m_hostQueueDiscAttributes.SetValue(name, value);
}

void
PfabricSchemeHelper::SetPriorityLevels(const std::vector<uint64_t>& thresholds)
{
    NS_ABORT_MSG_UNLESS(m_recipe.UsesPfabricQueues(),
                        "PfabricSchemeHelper: priority levels need a scheme of pFabric's queues ("
                            << PfabricQueueSchemes() << "), not " << m_scheme);
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
    NS_ABORT_MSG_UNLESS(m_recipe.UsesPfabricQueues(),
                        "PfabricSchemeHelper: traffic classes need a scheme of pFabric's queues ("
                            << PfabricQueueSchemes() << "), not " << m_scheme);
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
        return "--scheme=" + scheme + ": expected " + DescribeSchemes(custom);
    }
    auto presets = PfabricPreset::GetNames();
    if (std::find(presets.begin(), presets.end(), preset) == presets.end())
    {
        return "--preset=" + preset + ": expected " + DescribePresets();
    }
    return "";
}

std::string
PfabricSchemeHelper::DescribeSchemes(bool custom)
{
    std::vector<std::string> schemes = GetSchemes();
    if (!custom)
    {
        schemes.erase(std::find(schemes.begin(), schemes.end(), CUSTOM));
    }
    return JoinNames(schemes);
}

std::string
PfabricSchemeHelper::DescribePresets()
{
    return JoinNames(PfabricPreset::GetNames());
}

std::vector<std::string>
PfabricSchemeHelper::GetSchemes()
{
    std::vector<std::string> names = PfabricSchemeRegistry::List();
    names.emplace_back(CUSTOM);
    return names;
}

ObjectFactory
PfabricSchemeHelper::GetSocketFactoryFactory() const
{
    PfabricPresetAttributes transport =
        m_recipe.GetAttributes(PfabricSchemeRecipe::SOCKET_FACTORY, *m_preset);
    AddOverrides(transport, m_socketFactoryAttributes);
    ObjectFactory socketFactory(transport.GetTypeName());
    // The scheme's sockets, whatever SocketType's configured default.
    socketFactory.Set("SocketType", ObjectFactoryValue(GetSocketTypeFactory()));
    transport.Apply(socketFactory);
    return socketFactory;
}

ObjectFactory
PfabricSchemeHelper::GetSocketTypeFactory() const
{
    PfabricPresetAttributes socket = m_recipe.GetAttributes(PfabricSchemeRecipe::SOCKET, *m_preset);
    const std::string& congestionControl =
        m_recipe.GetType(PfabricSchemeRecipe::CONGESTION_CONTROL);
    if (!congestionControl.empty())
    {
        // The recipe's congestion control, whatever the configured default.
        ObjectFactory ops(congestionControl);
        m_recipe.GetAttributes(PfabricSchemeRecipe::CONGESTION_CONTROL, *m_preset).Apply(ops);
        socket.SetValue("CongestionControl", ObjectFactoryValue(ops));
    }
    AddOverrides(socket, m_socketAttributes);
    ObjectFactory factory(socket.GetTypeName());
    socket.Apply(factory);
    return factory;
}

PfabricPresetAttributes
PfabricSchemeHelper::GetPortAttributes() const
{
    PfabricPresetAttributes port =
        m_recipe.GetAttributes(PfabricSchemeRecipe::PORT_QUEUE_DISC, *m_preset);
    if (m_levels > 0)
    {
        // K strict-priority FIFO queues sharing the recipe's pFabric buffer.
        Ptr<AttributeValue> buffer =
            m_recipe.GetPresetValue(PfabricSchemeRecipe::PORT_QUEUE_DISC, "MaxSize", *m_preset);
        port = PfabricPresetAttributes("ns3::PfabricLevelQueueDisc");
        if (buffer)
        {
            port.SetPresetValue("MaxSize", *buffer);
        }
    }
    AddOverrides(port, m_queueDiscAttributes);
    return port;
}

PfabricPresetAttributes
PfabricSchemeHelper::GetHostPortAttributes() const
{
    if (m_recipe.GetType(PfabricSchemeRecipe::HOST_QUEUE_DISC).empty())
    {
        return GetPortAttributes();
    }
    PfabricPresetAttributes host =
        m_recipe.GetAttributes(PfabricSchemeRecipe::HOST_QUEUE_DISC, *m_preset);
    AddOverrides(host, m_hostQueueDiscAttributes);
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

ObjectFactory
PfabricSchemeHelper::GetPortQueueDiscFactory(bool host) const
{
    if (host && !m_recipe.GetType(PfabricSchemeRecipe::HOST_QUEUE_DISC).empty())
    {
        return GetQueueDiscFactory(true); // the recipe's own, classes or not
    }
    if (!m_classWeights.empty())
    {
        std::ostringstream weights;
        for (std::size_t i = 0; i < m_classWeights.size(); ++i)
        {
            weights << (i ? "," : "") << m_classWeights[i];
        }
        ObjectFactory factory("ns3::PfabricClassQueueDisc");
        factory.Set("Classes", UintegerValue(m_classWeights.size()));
        factory.Set("Scheduler", StringValue(m_classScheduler));
        factory.Set("Weights", StringValue(weights.str()));
        return factory;
    }
    return GetQueueDiscFactory();
}

std::vector<PfabricSchemeHelper::IdleModeAttribute>
PfabricSchemeHelper::GetIdleModeAttributes() const
{
    // Each part made once as the run makes it: the switch ports' and host NICs' queue discs,
    // a class scheduler's children (the tenth probe: pfabric-classes took a TieBreak its
    // children never read; without classes the port's own, counted once), then a socket.
    const std::vector<Ptr<Object>> parts{GetPortQueueDiscFactory(false).Create<Object>(),
                                         GetPortQueueDiscFactory(true).Create<Object>(),
                                         GetQueueDiscFactory(false).Create<Object>(),
                                         GetQueueDiscFactory(true).Create<Object>(),
                                         GetSocketTypeFactory().Create<Object>()};
    std::vector<IdleModeAttribute> idle;
    for (const Ptr<Object>& part : parts)
    {
        AddIdleModeAttributes(part, &idle);
    }
    return idle;
}

void
PfabricSchemeHelper::AddIdleModeAttributes(const Ptr<Object>& part,
                                           std::vector<IdleModeAttribute>* idle)
{
    const auto* modal = dynamic_cast<const PfabricModeAttributes*>(PeekPointer(part));
    if (modal == nullptr)
    {
        return; // none of its attributes depends on a mode of its
    }
    const TypeId tid = part->GetInstanceTypeId();
    for (const auto& ignored : modal->GetAttributesItsModeIgnores())
    {
        // Named, not a structured binding: clang before 16 cannot capture those in lambdas.
        const std::string& attribute = ignored.first;
        TypeId::AttributeInformation info;
        tid.LookupAttributeByName(attribute, &info);
        const Ptr<AttributeValue> held = info.checker->Create();
        part->GetAttribute(attribute, *held);
        const std::string value = held->SerializeToString(info.checker);
        const bool known = std::any_of(idle->begin(), idle->end(), [&](const auto& other) {
            return other.part == tid && other.attribute == attribute;
        });
        // ns-3's own default is taken, as every option at its default.
        if (!known && value != info.originalInitialValue->SerializeToString(info.checker))
        {
            idle->push_back({tid, attribute, value, ignored.second});
        }
    }
}

std::string
PfabricSchemeHelper::FindUnusedTypeDefault(std::string* why) const
{
    const Ptr<PfabricTcpSocket> socket = GetSocketTypeFactory().Create<PfabricTcpSocket>();
    const std::vector<TypeId> made{GetPortQueueDiscFactory(false).GetTypeId(),
                                   GetPortQueueDiscFactory(true).GetTypeId(),
                                   GetQueueDiscFactory(false).GetTypeId(),
                                   GetQueueDiscFactory(true).GetTypeId(),
                                   socket->GetInstanceTypeId(),
                                   socket->CreateCongestionOps()->GetInstanceTypeId()};
    for (const auto& [role, name] :
         {std::pair{QueueDisc::GetTypeId(), "queue discs"},
          std::pair{TcpCongestionOps::GetTypeId(), "congestion controls"},
          std::pair{TcpSocketBase::GetTypeId(), "TCP sockets"}})
    {
        const std::string unmade =
            PfabricConfiguredDefaults::FindUnmadeTypeDefault(role, name, made, why);
        if (!unmade.empty())
        {
            return unmade;
        }
    }
    return "";
}

std::string
PfabricSchemeHelper::RefuseIdleModeAttribute(const std::string& given,
                                             const IdleModeAttribute& idle)
{
    return given + ": " + idle.part.GetName() + " with " + idle.mode +
           " (this run's) never reads " + idle.attribute + ", so it changes nothing; leave it " +
           "unset";
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
    NS_LOG_FUNCTION(this << m_recipe.GetName() << m_preset->name);
    ObjectFactory socketFactory = GetSocketFactoryFactory();
    const bool classes = !m_classWeights.empty();
    NS_ABORT_MSG_IF(classes && m_levels > 0,
                    "PfabricSchemeHelper: traffic classes and priority levels do not combine");
    // With classes, the port is a PfabricClassQueueDisc and every class a pFabric port.
    ObjectFactory classPort = GetQueueDiscFactory();
    PfabricQueueDiscHelper ports;
    ports.SetQueueDiscFactory(GetPortQueueDiscFactory(false));
    PfabricQueueDiscHelper hostPorts;
    hostPorts.SetQueueDiscFactory(GetPortQueueDiscFactory(true));

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
            // A port's attribute that takes its device's rate (DCTCP's RED: LinkBandwidth).
            const std::string& rateAttribute = m_recipe.GetDeviceRateAttribute();
            if (!rateAttribute.empty())
            {
                DataRateValue rate;
                if (device->GetAttributeFailSafe("DataRate", rate))
                {
                    PfabricQueueDiscHelper port = nodePorts;
                    port.SetQueueDiscAttribute(rateAttribute, rate);
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
