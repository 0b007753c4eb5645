/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

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

/// A scheme and its end-host transport.
struct Scheme
{
    const char* name;      //!< command-line name
    const char* transport; //!< PfabricTcpSocketFactory::Transport value
};

constexpr Scheme SCHEMES[] = {
    {"pfabric", "MinTcp"},
    {"linerate", "LineRate"},
    {"tcp", "Tcp"},
    {"dctcp", "Dctcp"},
};

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

/**
 * @brief Whether the user configured an attribute's default (Config::SetDefault, or
 * --ns3::Type::Name on the command line); such a default wins over the preset.
 * @param type the type
 * @param name the attribute
 * @return true if its default differs from the one the type declares
 */
bool
IsConfigured(const std::string& type, const std::string& name)
{
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_UNLESS(TypeId::LookupByName(type).LookupAttributeByName(name, &info),
                        "PfabricSchemeHelper: " << type << " has no attribute " << name);
    return info.initialValue->SerializeToString(info.checker) !=
           info.originalInitialValue->SerializeToString(info.checker);
}

/// Preset values for one type's attributes; the user's configured defaults win.
class PresetValues
{
  public:
    /// @param type the TypeId name of the objects the values are for
    explicit PresetValues(std::string type)
        : m_type(std::move(type))
    {
    }

    /**
     * @brief Add a preset value.
     * @param name the attribute
     * @param value the preset's value
     * @return this
     */
    PresetValues& Add(const std::string& name, const AttributeValue& value)
    {
        if (!IsConfigured(m_type, name))
        {
            m_values.emplace_back(name, value.Copy());
        }
        return *this;
    }

    /// @return the values to apply
    const std::vector<std::pair<std::string, Ptr<AttributeValue>>>& Get() const
    {
        return m_values;
    }

  private:
    std::string m_type;                                                //!< the type
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_values; //!< what to set
};

bool
UsesPfabricQueues(const std::string& scheme)
{
    return scheme == "pfabric" || scheme == "linerate";
}

} // namespace

PfabricSchemeHelper::PfabricSchemeHelper(const std::string& scheme, const std::string& preset)
    : m_preset(nullptr)
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
    m_socketOverrides.emplace_back(name, value.Copy());
}

void
PfabricSchemeHelper::SetQueueDiscAttribute(const std::string& name, const AttributeValue& value)
{
    m_queueDiscOverrides.emplace_back(name, value.Copy());
}

TypeId
PfabricSchemeHelper::GetSocketFactoryType()
{
    return PfabricTcpSocketFactory::GetTypeId();
}

std::string
PfabricSchemeHelper::CheckChoice(const std::string& scheme, const std::string& preset)
{
    auto schemes = GetSchemes();
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

QueueDiscContainer
PfabricSchemeHelper::Install(NodeContainer nodes) const
{
    NS_LOG_FUNCTION(this << m_scheme << m_preset->name);
    const PfabricPreset& p = *m_preset;

    PresetValues transport("ns3::PfabricTcpSocketFactory");
    transport.Add("SegmentSize", UintegerValue(p.segmentSize))
        .Add("HeaderBytes", UintegerValue(p.headerBytes + p.linkHeaderBytes))
        .Add("InitialWindow", UintegerValue(p.initialWindow))
        .Add("MaxWindow", UintegerValue(p.minTcpMaxWindow))
        .Add("Rto", TimeValue(p.minTcpRto))
        .Add("ProbeMode", BooleanValue(p.probeMode))
        .Add("ProbeAfterTimeouts", UintegerValue(p.probeAfterTimeouts))
        .Add("PriorityOffset", UintegerValue(p.priorityOffset))
        .Add("HostPacing", BooleanValue(p.hostPacing))
        .Add("MinRto", TimeValue(p.baselineMinRto))
        .Add("ClockGranularity", TimeValue(p.clockGranularity))
        .Add("FastRetransmit", BooleanValue(p.baselineFastRetransmit))
        .Add("DupAckThreshold", UintegerValue(p.dupAckThreshold))
        .Add("DupAckWindowFraction", DoubleValue(p.dupAckWindowFraction))
        .Add("DctcpG", DoubleValue(p.dctcpG));
    ObjectFactory socketFactory("ns3::PfabricTcpSocketFactory");
    socketFactory.Set("Transport", StringValue(FindScheme(m_scheme).transport));
    for (const auto& [name, value] : transport.Get())
    {
        socketFactory.Set(name, *value);
    }
    for (const auto& [name, value] : m_socketOverrides)
    {
        socketFactory.Set(name, *value);
    }

    std::string queueDiscType = UsesPfabricQueues(m_scheme) ? "ns3::PfabricQueueDisc"
                                : m_scheme == "tcp"         ? "ns3::FifoQueueDisc"
                                                            : "ns3::RedQueueDisc";
    PresetValues port(queueDiscType);
    if (UsesPfabricQueues(m_scheme))
    {
        port.Add("MaxSize", QueueSizeValue(p.pfabricBuffer))
            .Add("DequeueMode", StringValue(p.pfabricDequeueMode));
    }
    else if (m_scheme == "tcp")
    {
        port.Add("MaxSize", QueueSizeValue(p.baselineBuffer));
    }
    else
    {
        // DCTCP's switch: mark every packet that arrives to K or more packets, never drop early
        // (ns-3's dctcp example; Alizadeh et al., SIGCOMM 2010).
        port.Add("MaxSize", QueueSizeValue(p.baselineBuffer))
            .Add("MinTh", DoubleValue(p.dctcpMarkingThreshold))
            .Add("MaxTh", DoubleValue(p.dctcpMarkingThreshold))
            .Add("QW", DoubleValue(1))
            .Add("UseEcn", BooleanValue(true))
            .Add("UseHardDrop", BooleanValue(false))
            .Add("Gentle", BooleanValue(false))
            .Add("MeanPktSize", UintegerValue(p.segmentSize + p.headerBytes));
    }
    PfabricQueueDiscHelper ports;
    ports.SetQueueDiscType(queueDiscType);
    for (const auto& [name, value] : port.Get())
    {
        ports.SetQueueDiscAttribute(name, *value);
    }
    for (const auto& [name, value] : m_queueDiscOverrides)
    {
        ports.SetQueueDiscAttribute(name, *value);
    }

    QueueDiscContainer queueDiscs;
    for (auto node = nodes.Begin(); node != nodes.End(); ++node)
    {
        if ((*node)->GetObject<Ipv4>())
        {
            // a lean switch has no transport to configure, only its ports
            NS_ABORT_MSG_IF((*node)->GetObject<PfabricTcpSocketFactory>(),
                            "PfabricSchemeHelper: node " << (*node)->GetId()
                                                         << " already has a scheme installed");
            (*node)->AggregateObject(socketFactory.Create<PfabricTcpSocketFactory>());
        }
        for (uint32_t i = 0; i < (*node)->GetNDevices(); ++i)
        {
            Ptr<NetDevice> device = (*node)->GetDevice(i);
            if (DynamicCast<LoopbackNetDevice>(device))
            {
                continue;
            }
            if (m_scheme == "dctcp")
            {
                DataRateValue rate;
                if (device->GetAttributeFailSafe("DataRate", rate))
                {
                    PfabricQueueDiscHelper port = ports;
                    port.SetQueueDiscAttribute("LinkBandwidth", rate);
                    queueDiscs.Add(port.Install(NetDeviceContainer(device)));
                    continue;
                }
            }
            queueDiscs.Add(ports.Install(NetDeviceContainer(device)));
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
        if (auto pfabric = DynamicCast<PfabricQueueDisc>(*it))
        {
            assigned += pfabric->AssignStreams(stream + assigned);
        }
        else if (auto red = DynamicCast<RedQueueDisc>(*it))
        {
            assigned += red->AssignStreams(stream + assigned);
        }
    }
    return assigned;
}

} // namespace ns3
