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
#include "ns3/log.h"
#include "ns3/loopback-net-device.h"
#include "ns3/nstime.h"
#include "ns3/pfabric-queue-disc.h"
#include "ns3/pfabric-tcp-socket-factory.h"
#include "ns3/queue-size.h"
#include "ns3/red-queue-disc.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricSchemeHelper");

namespace
{

/// A scheme: its transport and how it is shown.
struct Scheme
{
    const char* name;        //!< command-line name
    const char* transport;   //!< PfabricTcpSocketFactory::Transport value
    const char* displayName; //!< the paper's name
};

constexpr Scheme SCHEMES[] = {
    {"pfabric", "MinTcp", "MinTCP+pFabric"},
    {"linerate", "LineRate", "LineRate+pFabric"},
    {"tcp", "Tcp", "TCP-DropTail"},
    {"dctcp", "Dctcp", "DCTCP"},
};

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

std::string
PfabricSchemeHelper::GetDisplayName() const
{
    return FindScheme(m_scheme).displayName;
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

    ObjectFactory socketFactory("ns3::PfabricTcpSocketFactory");
    socketFactory.Set("Transport", StringValue(FindScheme(m_scheme).transport));
    socketFactory.Set("SegmentSize", UintegerValue(p.segmentSize));
    socketFactory.Set("HeaderBytes", UintegerValue(p.headerBytes + p.linkHeaderBytes));
    socketFactory.Set("InitialWindow", UintegerValue(p.initialWindow));
    socketFactory.Set("MaxWindow", UintegerValue(p.minTcpMaxWindow));
    socketFactory.Set("Rto", TimeValue(p.minTcpRto));
    socketFactory.Set("ProbeAfterTimeouts", UintegerValue(p.probeAfterTimeouts));
    socketFactory.Set("PriorityOffset", UintegerValue(p.priorityOffset));
    socketFactory.Set("MinRto", TimeValue(p.baselineMinRto));
    socketFactory.Set("ClockGranularity", TimeValue(p.clockGranularity));
    socketFactory.Set("FastRetransmit", BooleanValue(p.baselineFastRetransmit));
    socketFactory.Set("DupAckThreshold", UintegerValue(p.dupAckThreshold));
    socketFactory.Set("DupAckWindowFraction", DoubleValue(p.dupAckWindowFraction));
    socketFactory.Set("DctcpG", DoubleValue(p.dctcpG));
    for (const auto& [name, value] : m_socketOverrides)
    {
        socketFactory.Set(name, *value);
    }

    PfabricQueueDiscHelper ports;
    if (UsesPfabricQueues(m_scheme))
    {
        ports.SetQueueDiscAttribute("MaxSize", QueueSizeValue(p.pfabricBuffer));
        ports.SetQueueDiscAttribute("DequeueMode", StringValue(p.pfabricDequeueMode));
    }
    else if (m_scheme == "tcp")
    {
        ports.SetQueueDiscType("ns3::FifoQueueDisc");
        ports.SetQueueDiscAttribute("MaxSize", QueueSizeValue(p.baselineBuffer));
    }
    else
    {
        // DCTCP's switch: mark every packet that arrives to K or more packets, never drop early
        // (ns-3's dctcp example; Alizadeh et al., SIGCOMM 2010).
        ports.SetQueueDiscType("ns3::RedQueueDisc");
        ports.SetQueueDiscAttribute("MaxSize", QueueSizeValue(p.baselineBuffer));
        ports.SetQueueDiscAttribute("MinTh", DoubleValue(p.dctcpMarkingThreshold));
        ports.SetQueueDiscAttribute("MaxTh", DoubleValue(p.dctcpMarkingThreshold));
        ports.SetQueueDiscAttribute("QW", DoubleValue(1));
        ports.SetQueueDiscAttribute("UseEcn", BooleanValue(true));
        ports.SetQueueDiscAttribute("UseHardDrop", BooleanValue(false));
        ports.SetQueueDiscAttribute("Gentle", BooleanValue(false));
        ports.SetQueueDiscAttribute("MeanPktSize", UintegerValue(p.segmentSize + p.headerBytes));
    }
    for (const auto& [name, value] : m_queueDiscOverrides)
    {
        ports.SetQueueDiscAttribute(name, *value);
    }

    QueueDiscContainer queueDiscs;
    for (auto node = nodes.Begin(); node != nodes.End(); ++node)
    {
        NS_ABORT_MSG_IF((*node)->GetObject<PfabricTcpSocketFactory>(),
                        "PfabricSchemeHelper: node " << (*node)->GetId()
                                                     << " already has a scheme installed");
        (*node)->AggregateObject(socketFactory.Create<PfabricTcpSocketFactory>());
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
