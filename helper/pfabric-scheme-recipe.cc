/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricSchemeRecipe: a scheme as data; PfabricSchemeRegistry: the built-in schemes, the one home
// of what each is.

#include "pfabric-scheme-recipe.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

PfabricSchemeRecipe::PfabricSchemeRecipe(const std::string& name)
    : m_name(name),
      m_pfabricQueues(false)
{
    m_parts[SOCKET_FACTORY].type = "ns3::PfabricTcpSocketFactory";
}

const std::string&
PfabricSchemeRecipe::GetName() const
{
    return m_name;
}

void
PfabricSchemeRecipe::SetName(const std::string& name)
{
    m_name = name;
}

void
PfabricSchemeRecipe::SetDescription(const std::string& description)
{
    m_description = description;
}

const std::string&
PfabricSchemeRecipe::GetDescription() const
{
    return m_description;
}

void
PfabricSchemeRecipe::SetType(Part part, const std::string& type)
{
    m_parts.at(part).type = type;
}

const std::string&
PfabricSchemeRecipe::GetType(Part part) const
{
    return m_parts.at(part).type;
}

PfabricSchemeRecipe&
PfabricSchemeRecipe::SetAttribute(Part part, const std::string& name, const AttributeValue& value)
{
    Ptr<AttributeValue> copy = value.Copy();
    m_parts.at(part).values.push_back(
        {name, true, [copy](const PfabricPreset&) { return copy->Copy(); }});
    return *this;
}

PfabricSchemeRecipe&
PfabricSchemeRecipe::SetPresetAttribute(Part part,
                                        const std::string& name,
                                        const AttributeValue& value)
{
    Ptr<AttributeValue> copy = value.Copy();
    return SetPresetAttribute(part, name, [copy](const PfabricPreset&) { return copy->Copy(); });
}

PfabricSchemeRecipe&
PfabricSchemeRecipe::SetPresetAttribute(Part part,
                                        const std::string& name,
                                        const PresetValue& value)
{
    m_parts.at(part).values.push_back({name, false, value});
    return *this;
}

void
PfabricSchemeRecipe::CopyPart(Part part, const PfabricSchemeRecipe& other)
{
    m_parts.at(part) = other.m_parts.at(part);
}

PfabricPresetAttributes
PfabricSchemeRecipe::GetAttributes(Part part, const PfabricPreset& preset) const
{
    const PartRecipe& recipe = m_parts.at(part);
    PfabricPresetAttributes attributes(recipe.type);
    for (const Value& value : recipe.values)
    {
        if (value.fixed)
        {
            attributes.SetValue(value.name, *value.value(preset));
        }
        else
        {
            attributes.SetPresetValue(value.name, *value.value(preset));
        }
    }
    return attributes;
}

std::vector<std::string>
PfabricSchemeRecipe::GetFixedAttributes(Part part) const
{
    std::vector<std::string> names;
    for (const Value& value : m_parts.at(part).values)
    {
        if (value.fixed)
        {
            names.push_back(value.name);
        }
    }
    return names;
}

Ptr<AttributeValue>
PfabricSchemeRecipe::GetPresetValue(Part part,
                                    const std::string& name,
                                    const PfabricPreset& preset) const
{
    Ptr<AttributeValue> found;
    for (const Value& value : m_parts.at(part).values)
    {
        if (!value.fixed && value.name == name)
        {
            found = value.value(preset);
        }
    }
    return found;
}

void
PfabricSchemeRecipe::SetPfabricQueues(bool pfabricQueues)
{
    m_pfabricQueues = pfabricQueues;
}

bool
PfabricSchemeRecipe::UsesPfabricQueues() const
{
    return m_pfabricQueues;
}

void
PfabricSchemeRecipe::SetDeviceRateAttribute(const std::string& name)
{
    m_deviceRateAttribute = name;
}

const std::string&
PfabricSchemeRecipe::GetDeviceRateAttribute() const
{
    return m_deviceRateAttribute;
}

std::string
PfabricSchemeRecipe::GetPartName(Part part)
{
    static const char* const NAMES[PART_COUNT] = {"port_queue_disc",
                                                  "host_queue_disc",
                                                  "tcp_socket_factory",
                                                  "tcp",
                                                  "tcp_congestion_ops"};
    return NAMES[part];
}

namespace
{

using R = PfabricSchemeRecipe;
using P = PfabricPreset;

/// DCTCP's marked-fraction estimate of a new connection: the original ns-2 code's
/// ecnhat_alpha_ (ns-3's TcpDctcp and Linux start at 1, halving a new flow's window at its
/// first marks).
constexpr double DCTCP_INITIAL_ALPHA = 0;

/// @return a recipe with what every scheme's hosts share: the factory's common settings
PfabricSchemeRecipe
MakeRecipe(const std::string& name, const std::string& description)
{
    PfabricSchemeRecipe r(name);
    r.SetDescription(description);
    r.SetPresetAttribute(R::SOCKET_FACTORY,
                         "SegmentSize",
                         R::FromPreset<UintegerValue>(&P::segmentSize))
        .SetPresetAttribute(
            R::SOCKET_FACTORY,
            "HeaderBytes",
            [](const P& p) { return UintegerValue(p.headerBytes + p.linkHeaderBytes).Copy(); })
        .SetPresetAttribute(R::SOCKET_FACTORY,
                            "InitialWindow",
                            R::FromPreset<UintegerValue>(&P::initialWindow))
        .SetPresetAttribute(R::SOCKET_FACTORY,
                            "HostPacing",
                            R::FromPreset<BooleanValue>(&P::hostPacing));
    return r;
}

/// @return a pFabric scheme's ports and MinTCP's settings on sockets of a class
PfabricSchemeRecipe
MakePfabricRecipe(const std::string& name,
                  const std::string& description,
                  const std::string& socketType)
{
    PfabricSchemeRecipe r = MakeRecipe(name, description);
    r.SetPfabricQueues(true);
    r.SetType(R::PORT_QUEUE_DISC, "ns3::PfabricQueueDisc");
    r.SetPresetAttribute(R::PORT_QUEUE_DISC,
                         "MaxSize",
                         R::FromPreset<QueueSizeValue>(&P::pfabricBuffer))
        .SetPresetAttribute(R::PORT_QUEUE_DISC,
                            "DequeueMode",
                            R::FromPreset<StringValue>(&P::pfabricDequeueMode))
        .SetPresetAttribute(R::PORT_QUEUE_DISC,
                            "AdmissionMode",
                            R::FromPreset<StringValue>(&P::pfabricAdmissionMode));
    r.SetType(R::SOCKET, socketType);
    r.SetPresetAttribute(R::SOCKET, "Rto", R::FromPreset<TimeValue>(&P::minTcpRto))
        .SetPresetAttribute(R::SOCKET, "ProbeMode", R::FromPreset<BooleanValue>(&P::probeMode))
        .SetPresetAttribute(R::SOCKET,
                            "ProbeAfterTimeouts",
                            R::FromPreset<UintegerValue>(&P::probeAfterTimeouts))
        .SetPresetAttribute(R::SOCKET,
                            "PriorityOffset",
                            R::FromPreset<UintegerValue>(&P::priorityOffset));
    return r;
}

/// @return a baseline's sockets, TCP-DropTail's settings
PfabricSchemeRecipe
MakeBaselineRecipe(const std::string& name, const std::string& description)
{
    PfabricSchemeRecipe r = MakeRecipe(name, description);
    r.SetType(R::SOCKET, "ns3::PfabricBaselineTcpSocket");
    r.SetPresetAttribute(R::SOCKET, "MinRto", R::FromPreset<TimeValue>(&P::baselineMinRto))
        .SetPresetAttribute(R::SOCKET,
                            "ClockGranularity",
                            R::FromPreset<TimeValue>(&P::clockGranularity))
        .SetPresetAttribute(R::SOCKET,
                            "FastRetransmit",
                            R::FromPreset<BooleanValue>(&P::baselineFastRetransmit))
        .SetPresetAttribute(R::SOCKET,
                            "DupAckThreshold",
                            R::FromPreset<UintegerValue>(&P::dupAckThreshold))
        .SetPresetAttribute(R::SOCKET,
                            "DupAckWindowFraction",
                            R::FromPreset<DoubleValue>(&P::dupAckWindowFraction));
    return r;
}

/// @return the built-in schemes of the pFabric comparison
std::vector<PfabricSchemeRecipe>
MakeBuiltIns()
{
    PfabricSchemeRecipe pfabric =
        MakePfabricRecipe("pfabric", "MinTCP over pFabric's switches", "ns3::PfabricMinTcpSocket");
    pfabric.SetPresetAttribute(R::SOCKET,
                               "MaxWindow",
                               R::FromPreset<UintegerValue>(&P::minTcpMaxWindow));

    PfabricSchemeRecipe linerate =
        MakePfabricRecipe("linerate",
                          "LineRate (a fixed window, no rate control) over pFabric's switches",
                          "ns3::PfabricLineRateTcpSocket");
    linerate.SetPresetAttribute(R::SOCKET,
                                "Window",
                                R::FromPreset<UintegerValue>(&P::lineRateWindow));

    PfabricSchemeRecipe tcp = MakeBaselineRecipe("tcp", "TCP (NewReno) over drop-tail FIFO ports");
    tcp.SetType(R::PORT_QUEUE_DISC, "ns3::FifoQueueDisc");
    tcp.SetPresetAttribute(R::PORT_QUEUE_DISC,
                           "MaxSize",
                           R::FromPreset<QueueSizeValue>(&P::baselineBuffer));

    PfabricSchemeRecipe dctcp =
        MakeBaselineRecipe("dctcp", "DCTCP over RED ports marking at K packets");
    // DCTCP's switch: mark every packet that arrives to K or more packets, never drop early
    // (ns-3's dctcp example; Alizadeh et al., SIGCOMM 2010).
    dctcp.SetType(R::PORT_QUEUE_DISC, "ns3::RedQueueDisc");
    dctcp.SetDeviceRateAttribute("LinkBandwidth");
    dctcp
        .SetPresetAttribute(R::PORT_QUEUE_DISC,
                            "MaxSize",
                            R::FromPreset<QueueSizeValue>(&P::baselineBuffer))
        .SetPresetAttribute(R::PORT_QUEUE_DISC,
                            "MinTh",
                            R::FromPreset<DoubleValue>(&P::dctcpMarkingThreshold))
        .SetPresetAttribute(R::PORT_QUEUE_DISC,
                            "MaxTh",
                            R::FromPreset<DoubleValue>(&P::dctcpMarkingThreshold))
        .SetPresetAttribute(R::PORT_QUEUE_DISC, "QW", DoubleValue(1))
        .SetPresetAttribute(R::PORT_QUEUE_DISC, "UseEcn", BooleanValue(true))
        .SetPresetAttribute(R::PORT_QUEUE_DISC, "UseHardDrop", BooleanValue(false))
        .SetPresetAttribute(R::PORT_QUEUE_DISC, "Gentle", BooleanValue(false))
        .SetPresetAttribute(R::PORT_QUEUE_DISC, "MeanPktSize", [](const P& p) {
            return UintegerValue(p.segmentSize + p.headerBytes).Copy();
        });
    // What makes the baseline DCTCP, whatever the configured defaults: ns-3's DCTCP with a floor
    // under its cut, and ECN. Its numbers are TcpDctcp's own attributes, the preset's gain and
    // the original code's initial alpha, unless configured.
    dctcp.SetAttribute(R::SOCKET, "UseEcn", StringValue("On"));
    dctcp.SetType(R::CONGESTION_CONTROL, "ns3::PfabricDctcp");
    dctcp
        .SetPresetAttribute(R::CONGESTION_CONTROL,
                            "DctcpShiftG",
                            R::FromPreset<DoubleValue>(&P::dctcpG))
        .SetPresetAttribute(R::CONGESTION_CONTROL,
                            "DctcpAlphaOnInit",
                            DoubleValue(DCTCP_INITIAL_ALPHA));

    return {pfabric, linerate, tcp, dctcp};
}

} // namespace

std::vector<PfabricSchemeRecipe>&
PfabricSchemeRegistry::GetRecipes()
{
    static std::vector<PfabricSchemeRecipe> recipes = MakeBuiltIns();
    return recipes;
}

const PfabricSchemeRecipe*
PfabricSchemeRegistry::Find(const std::string& name)
{
    for (const PfabricSchemeRecipe& recipe : GetRecipes())
    {
        if (recipe.GetName() == name)
        {
            return &recipe;
        }
    }
    return nullptr;
}

const PfabricSchemeRecipe&
PfabricSchemeRegistry::Get(const std::string& name)
{
    const PfabricSchemeRecipe* recipe = Find(name);
    if (!recipe)
    {
        std::ostringstream known;
        for (const std::string& scheme : List())
        {
            known << " " << scheme;
        }
        NS_ABORT_MSG("unknown scheme '" << name << "'; known:" << known.str());
    }
    return *recipe;
}

std::vector<std::string>
PfabricSchemeRegistry::List()
{
    std::vector<std::string> names;
    for (const PfabricSchemeRecipe& recipe : GetRecipes())
    {
        names.push_back(recipe.GetName());
    }
    return names;
}

void
PfabricSchemeRegistry::Register(const PfabricSchemeRecipe& recipe)
{
    NS_ABORT_MSG_IF(recipe.GetName().empty(), "PfabricSchemeRegistry: a recipe needs a name");
    auto& recipes = GetRecipes();
    auto known = std::find_if(recipes.begin(), recipes.end(), [&recipe](const auto& r) {
        return r.GetName() == recipe.GetName();
    });
    if (known == recipes.end())
    {
        recipes.push_back(recipe);
    }
    else
    {
        *known = recipe;
    }
}

const PfabricSchemeRecipe*
PfabricSchemeRegistry::FindBySocketType(const std::string& type)
{
    const TypeId tid = TypeId::LookupByName(type);
    const PfabricSchemeRecipe* best = nullptr;
    for (const PfabricSchemeRecipe& recipe : GetRecipes())
    {
        const TypeId socket = TypeId::LookupByName(recipe.GetType(PfabricSchemeRecipe::SOCKET));
        if (!(tid == socket || tid.IsChildOf(socket)))
        {
            continue;
        }
        const TypeId bestSocket =
            best ? TypeId::LookupByName(best->GetType(PfabricSchemeRecipe::SOCKET)) : TypeId();
        // The nearest class wins; of two recipes of one class, the first.
        if (!best || (socket != bestSocket && socket.IsChildOf(bestSocket)))
        {
            best = &recipe;
        }
    }
    return best;
}

} // namespace ns3
