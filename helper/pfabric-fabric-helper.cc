/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricFabricHelper: what every fabric shares (links, addresses, switches, hosts and the idle-
// fabric timing).

#include "pfabric-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/loopback-net-device.h"
#include "ns3/pfabric-configured-defaults.h"
#include "ns3/pfabric-fabric-routing.h"
#include "ns3/pfabric-host-transport.h"
#include "ns3/pfabric-link-channel.h"
#include "ns3/pfabric-link-helper.h"
#include "ns3/pfabric-link-net-device.h"
#include "ns3/pfabric-preset.h"
#include "ns3/pfabric-switch.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue.h"
#include "ns3/string.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricFabricHelper");

namespace
{
/// The framing bytes PointToPointNetDevice adds to every packet (its PPP header).
constexpr uint32_t POINT_TO_POINT_FRAMING = 2;

/// What Connect sets on every link: the devices' rate and framing, the channels' delay.
constexpr const char* LINK_RATE = "DataRate";
constexpr const char* LINK_FRAMING = "FramingBytes";
constexpr const char* LINK_DELAY = "Delay";
} // namespace

PfabricFabricHelper::PfabricFabricHelper()
    : m_switchFactory("ns3::PfabricSwitch"),
      m_switchAttributes("ns3::PfabricSwitch"),
      m_switchMode(LEAN),
      m_hostStack(NS3_TCP),
      m_linkType(PFABRIC_LINK),
      m_built(false)
{
    SetPreset("hotnets12");
}

void
PfabricFabricHelper::SetPreset(const std::string& name)
{
    const PfabricPreset& preset = PfabricPreset::Get(name);
    SetHostLinkRate(preset.hostLinkRate);
    SetFabricLinkRate(preset.fabricLinkRate);
    SetLinkDelay(preset.linkDelay);
    SetHostDelay(preset.hostDelay);
    // A pure ACK is a data packet's headers without payload (no TCP options).
    SetPacketSizes(preset.segmentSize,
                   preset.headerBytes,
                   preset.headerBytes,
                   preset.linkHeaderBytes);
    m_switchAttributes.SetPresetValue("LoadBalancing", StringValue(preset.loadBalancing));
}

PfabricFabricHelper::~PfabricFabricHelper() = default;

void
PfabricFabricHelper::SetHostLinkRate(DataRate rate)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "fabric: the host link rate must be positive");
    m_hostLinkRate = rate;
}

void
PfabricFabricHelper::SetFabricLinkRate(DataRate rate)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "fabric: the fabric link rate must be positive");
    m_fabricLinkRate = rate;
}

void
PfabricFabricHelper::SetLinkDelay(Time delay)
{
    NS_ABORT_MSG_IF(delay.IsStrictlyNegative(), "fabric: the link delay must not be negative");
    m_linkDelay = delay;
}

void
PfabricFabricHelper::SetHostDelay(Time delay)
{
    NS_ABORT_MSG_IF(delay.IsStrictlyNegative(), "fabric: the host delay must not be negative");
    m_hostDelay = delay;
}

void
PfabricFabricHelper::SetPacketSizes(uint32_t mss,
                                    uint32_t headerBytes,
                                    uint32_t ackBytes,
                                    uint32_t linkHeaderBytes)
{
    NS_ABORT_MSG_IF(mss == 0, "fabric: the MSS must be positive");
    m_mss = mss;
    m_headerBytes = headerBytes;
    m_ackBytes = ackBytes;
    m_linkHeaderBytes = linkHeaderBytes;
}

void
PfabricFabricHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchAttributes.SetValue(name, value);
}

void
PfabricFabricHelper::SetSwitchMode(SwitchMode mode)
{
    NS_ABORT_MSG_IF(m_built, "fabric: SetSwitchMode after Build()");
    m_switchMode = mode;
}

PfabricFabricHelper::SwitchMode
PfabricFabricHelper::GetSwitchMode() const
{
    return m_switchMode;
}

void
PfabricFabricHelper::SetHostStack(HostStack stack)
{
    NS_ABORT_MSG_IF(m_built, "fabric: SetHostStack after Build()");
    m_hostStack = stack;
}

PfabricFabricHelper::HostStack
PfabricFabricHelper::GetHostStack() const
{
    return m_hostStack;
}

void
PfabricFabricHelper::SetLinkType(LinkType type)
{
    NS_ABORT_MSG_IF(m_built, "fabric: SetLinkType after Build()");
    m_linkType = type;
}

PfabricFabricHelper::LinkType
PfabricFabricHelper::GetLinkType() const
{
    return m_linkType;
}

std::vector<std::string>
PfabricFabricHelper::GetLinkDefaultsItOverrides() const
{
    const bool pfabricLink = m_linkType == PFABRIC_LINK;
    std::vector<std::string> overridden = PfabricConfiguredDefaults::ListConfigured(
        pfabricLink ? PfabricLinkNetDevice::GetTypeId() : PointToPointNetDevice::GetTypeId(),
        pfabricLink ? std::vector<std::string>{LINK_RATE, LINK_FRAMING}
                    : std::vector<std::string>{LINK_RATE});
    const std::vector<std::string> delay = PfabricConfiguredDefaults::ListConfigured(
        pfabricLink ? PfabricLinkChannel::GetTypeId() : PointToPointChannel::GetTypeId(),
        {LINK_DELAY});
    overridden.insert(overridden.end(), delay.begin(), delay.end());
    return overridden;
}

std::string
PfabricFabricHelper::FindUnusedLinkTypeDefault(std::string* why) const
{
    const bool pfabricLink = m_linkType == PFABRIC_LINK;
    std::vector<TypeId> made{
        pfabricLink ? PfabricLinkNetDevice::GetTypeId() : PointToPointNetDevice::GetTypeId(),
        pfabricLink ? PfabricLinkChannel::GetTypeId() : PointToPointChannel::GetTypeId()};
    if (m_hostStack == NS3_TCP || m_switchMode == IP)
    {
        made.push_back(LoopbackNetDevice::GetTypeId()); // InternetStackHelper's, one a node
    }
    const std::string device =
        PfabricConfiguredDefaults::FindUnmadeTypeDefault(NetDevice::GetTypeId(),
                                                         "net devices",
                                                         made,
                                                         why);
    return device.empty() ? PfabricConfiguredDefaults::FindUnmadeTypeDefault(Channel::GetTypeId(),
                                                                             "channels",
                                                                             made,
                                                                             why)
                          : device;
}

std::vector<std::string>
PfabricFabricHelper::GetIpDefaultsNoNodeHas() const
{
    if (m_hostStack != LEAN_HOST || m_switchMode != LEAN)
    {
        return {};
    }
    // InternetStackHelper::Install's objects (ns-3 3.36 to 3.48) and the interfaces and caches
    // they make per device; a name an ns-3 release lacks is skipped.
    static const char* const ipTypes[] = {"ns3::Ipv4L3Protocol",
                                          "ns3::ArpL3Protocol",
                                          "ns3::ArpCache",
                                          "ns3::Ipv4Interface",
                                          "ns3::Icmpv4L4Protocol",
                                          "ns3::Ipv6L3Protocol",
                                          "ns3::Ipv6Interface",
                                          "ns3::NdiscCache",
                                          "ns3::Ipv6PmtuCache",
                                          "ns3::Icmpv6L4Protocol",
                                          "ns3::Ipv6ListRouting",
                                          "ns3::Ipv6StaticRouting",
                                          "ns3::UdpL4Protocol"};
    std::vector<TypeId> declaring;
    for (const char* name : ipTypes)
    {
        TypeId tid;
        for (bool found = TypeId::LookupByNameFailSafe(name, &tid);
             found && tid != Object::GetTypeId();
             tid = tid.GetParent())
        {
            // Ipv4 and Ipv6 declare IpForward and the like; IpL4Protocol is shared.
            if (std::find(declaring.begin(), declaring.end(), tid) == declaring.end())
            {
                declaring.push_back(tid);
            }
        }
    }
    std::vector<std::string> configured;
    for (TypeId tid : declaring)
    {
        const std::vector<std::string> own = PfabricConfiguredDefaults::ListConfigured(tid);
        configured.insert(configured.end(), own.begin(), own.end());
    }
    return configured;
}

std::vector<std::string>
PfabricFabricHelper::GetTtlDefaultsNothingReads() const
{
    if ((m_hostStack == NS3_TCP) == (m_switchMode == IP))
    {
        return {}; // read, or no node has IP (GetIpDefaultsNoNodeHas)
    }
    std::vector<std::string> configured =
        PfabricConfiguredDefaults::ListConfigured(Ipv4L3Protocol::GetTypeId(), {"DefaultTtl"});
    const std::vector<std::string> v6 =
        PfabricConfiguredDefaults::ListConfigured(Ipv6L3Protocol::GetTypeId(), {"DefaultTtl"});
    configured.insert(configured.end(), v6.begin(), v6.end());
    return configured;
}

uint32_t
PfabricFabricHelper::GetLongestPathSwitches() const
{
    uint32_t longestPath = 0; // links
    for (uint32_t from = 0; from < GetNHosts(); ++from)
    {
        for (uint32_t to = 0; to < GetNHosts(); ++to)
        {
            longestPath = from == to ? longestPath : std::max(longestPath, GetHopCount(from, to));
        }
    }
    return longestPath > 0 ? longestPath - 1 : 0; // one host: no path
}

std::string
PfabricFabricHelper::FindIpSettingNoPacketCrosses(std::string* why) const
{
    NS_ABORT_MSG_UNLESS(m_built, "fabric: FindIpSettingNoPacketCrosses before Build()");
    // The IP packet of a full segment, as the ideal FCT and the packet counts take it.
    const uint32_t packetBytes = m_mss + m_headerBytes;
    for (auto device = m_devices.Begin(); device != m_devices.End(); ++device)
    {
        const uint16_t mtu = (*device)->GetMtu();
        if ((*device)->GetNode()->GetObject<Ipv4L3Protocol>() && mtu < packetBytes)
        {
            std::ostringstream reason;
            reason << "an MTU of " << mtu << " B is below the fabric's full packet of "
                   << packetBytes << " B (a " << m_mss << "-byte segment and " << m_headerBytes
                   << " B of TCP/IP headers): ns-3's IP would fragment every full segment, "
                   << "which the module's switches, ideal FCTs and packet counts do not model, "
                   << "and an MTU below the IP header carries nothing; give at least "
                   << packetBytes << " B, or leave it unset";
            *why = reason.str();
            return (*device)->GetInstanceTypeId().GetName() + "::Mtu";
        }
    }
    if (m_switchMode != IP || m_hostStack != NS3_TCP)
    {
        return ""; // a lean host writes its own TTL; a lean switch reads none
    }
    const uint32_t switches = GetLongestPathSwitches();
    for (auto host = m_hosts.Begin(); host != m_hosts.End() && switches > 0; ++host)
    {
        UintegerValue ttl;
        (*host)->GetObject<Ipv4L3Protocol>()->GetAttribute("DefaultTtl", ttl);
        if (ttl.Get() <= switches)
        {
            std::ostringstream reason;
            reason << "a TTL of " << ttl.Get() << " does not outlast the " << switches
                   << (switches == 1 ? " IP switch" : " IP switches")
                   << " of the fabric's longest path (each forwards a packet with "
                   << "one less and drops it at 0; ns-3 forwards a TTL of 0 as 255, which IP "
                   << "never does); give at least " << switches + 1 << ", or leave it unset";
            *why = reason.str();
            return "ns3::Ipv4L3Protocol::DefaultTtl";
        }
    }
    return "";
}

std::string
PfabricFabricHelper::FindIpDefaultNoFabricReads(std::string* why)
{
    const std::string arp = FindArpDefault(why);
    if (!arp.empty())
    {
        return arp;
    }

    // IP forwarding is one attribute of Ipv4, whose others the hosts of ns-3's TCP/IP and IP
    // switches read; ns-3's global routing is never built, so none of its attributes is read.
    // By name: ns-3.47 replaced ipv4-global-routing.h by a template (the TypeId's name stayed).
    struct Part
    {
        const char* type;
        std::vector<std::string> attributes; ///< none: every attribute it declares
        const char* why;
    };

    const Part parts[] = {
        {"ns3::Ipv4",
         {"IpForward"},
         "the fabric's routing forwards at every switch and at no host"},
        {"ns3::Ipv4GlobalRouting",
         {},
         "the fabric routes every packet by its own routing (PfabricFabricRouting), and ns-3's "
         "global routing is never built"}};
    for (const Part& part : parts)
    {
        TypeId tid;
        const std::vector<std::string> set =
            !TypeId::LookupByNameFailSafe(part.type, &tid) ? std::vector<std::string>{}
            : part.attributes.empty()
                ? PfabricConfiguredDefaults::ListConfigured(tid)
                : PfabricConfiguredDefaults::ListConfigured(tid, part.attributes);
        if (!set.empty())
        {
            *why = part.why;
            return set.front();
        }
    }
    return "";
}

std::string
PfabricFabricHelper::FindArpDefault(std::string* why)
{
    for (const char* name : {"ns3::ArpCache", "ns3::ArpL3Protocol"})
    {
        TypeId tid;
        const std::vector<std::string> set = TypeId::LookupByNameFailSafe(name, &tid)
                                                 ? PfabricConfiguredDefaults::ListConfigured(tid)
                                                 : std::vector<std::string>{};
        if (!set.empty())
        {
            *why = "no device of the fabric resolves addresses (the module's links and ns-3's "
                   "point-to-point ones need no ARP)";
            return set.front();
        }
    }
    return "";
}

std::string
PfabricFabricHelper::RefuseUnreadIpDefault(const std::string& given,
                                           const std::string& path,
                                           const std::string& why)
{
    return given + ": " + why + ", so " + path + " changes nothing; leave it unset";
}

std::string
PfabricFabricHelper::RefuseLinkDefault(const std::string& given,
                                       const std::string& path,
                                       const std::string& links)
{
    return (given.empty() ? path : given) + ": the fabric sets " + path +
           " on every link itself, so ns-3's default never reaches a link (" + links +
           "); leave it unset";
}

int64_t
PfabricFabricHelper::AssignStreams(int64_t stream)
{
    int64_t assigned = 0;
    for (auto node = m_switches.Begin(); node != m_switches.End(); ++node)
    {
        assigned += SwitchOf(*node)->AssignStreams(stream + assigned);
    }
    return assigned;
}

void
PfabricFabricHelper::Build()
{
    NS_ABORT_MSG_IF(m_built, "fabric: Build() was already called");
    std::string shapeError = GetShapeError();
    NS_ABORT_MSG_IF(!shapeError.empty(), shapeError);
    NS_ABORT_MSG_IF(m_linkType == POINT_TO_POINT_LINK &&
                        m_linkHeaderBytes != POINT_TO_POINT_FRAMING,
                    "fabric: point-to-point links frame every packet with "
                        << POINT_TO_POINT_FRAMING << " bytes, not " << m_linkHeaderBytes);
    m_switchAttributes.Apply(m_switchFactory);
    DoBuild();
    if (m_switchMode == LEAN)
    {
        for (auto node = m_switches.Begin(); node != m_switches.End(); ++node)
        {
            SwitchOf(*node)->EnableLeanForwarding();
        }
    }
    m_built = true;
    NS_LOG_INFO("Built a fabric of " << m_hosts.GetN() << " hosts, " << m_switches.GetN()
                                     << " switches and " << GetNLinks() << " links");
}

Ptr<Node>
PfabricFabricHelper::AddHost(uint32_t pod, uint32_t rack, uint32_t host)
{
    Ptr<Node> node = CreateObject<Node>();
    if (m_hostStack == NS3_TCP)
    {
        InternetStackHelper stack;
        stack.SetRoutingHelper(m_routing);
        stack.Install(node);
    }
    else
    {
        // The port's queue disc lives in traffic control, as on an IP host; Connect binds the
        // transport to the port.
        node->AggregateObject(CreateObject<TrafficControlLayer>());
        node->AggregateObject(CreateObject<PfabricHostTransport>());
    }
    m_hostOfNode[node->GetId()] = m_hosts.GetN();
    m_hosts.Add(node);
    m_addresses.push_back(PfabricFabricRouting::HostAddress(pod, rack, host));
    return node;
}

Ptr<Node>
PfabricFabricHelper::AddSwitch()
{
    Ptr<Node> node = CreateObject<Node>();
    if (m_switchMode == IP)
    {
        InternetStackHelper stack;
        stack.SetRoutingHelper(m_routing);
        stack.Install(node);
    }
    else
    {
        // The ports' queue discs live in traffic control, as on an IP node.
        node->AggregateObject(CreateObject<TrafficControlLayer>());
    }
    node->AggregateObject(m_switchFactory.Create<PfabricSwitch>());
    m_switches.Add(node);
    return node;
}

std::pair<uint32_t, uint32_t>
PfabricFabricHelper::Connect(Ptr<Node> a, Ptr<Node> b)
{
    auto hostIndex = [this](Ptr<Node> node) -> int64_t {
        auto it = m_hostOfNode.find(node->GetId());
        return it == m_hostOfNode.end() ? -1 : int64_t{it->second};
    };
    const int64_t hostA = hostIndex(a);
    const int64_t hostB = hostIndex(b);
    const bool hostLink = hostA >= 0 || hostB >= 0;

    const DataRateValue rate(hostLink ? m_hostLinkRate : m_fabricLinkRate);
    const TimeValue delay(hostLink ? m_linkDelay + m_hostDelay : m_linkDelay);
    NetDeviceContainer devices;
    if (m_linkType == PFABRIC_LINK)
    {
        PfabricLinkHelper link;
        link.SetDeviceAttribute(LINK_RATE, rate);
        link.SetDeviceAttribute(LINK_FRAMING, UintegerValue(m_linkHeaderBytes));
        link.SetChannelAttribute(LINK_DELAY, delay);
        devices = link.Install(a, b);
    }
    else
    {
        PointToPointHelper link;
        link.SetDeviceAttribute(LINK_RATE, rate);
        link.SetChannelAttribute(LINK_DELAY, delay);
        devices = link.Install(a, b);
    }
    m_devices.Add(devices);

    for (uint32_t side = 0; side < 2; ++side)
    {
        Ptr<Node> node = side == 0 ? a : b;
        int64_t host = side == 0 ? hostA : hostB;
        Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
        if (!ipv4)
        {
            // A lean switch's device is its port; a lean host's is its transport's.
            if (Ptr<PfabricHostTransport> lean = node->GetObject<PfabricHostTransport>())
            {
                lean->Setup(m_addresses[host], devices.Get(side));
            }
            continue;
        }
        uint32_t interface = ipv4->AddInterface(devices.Get(side));
        if (host >= 0)
        {
            ipv4->AddAddress(interface, Ipv4InterfaceAddress(m_addresses[host], "255.0.0.0"));
            DynamicCast<PfabricFabricRouting>(ipv4->GetRoutingProtocol())
                ->SetHost(m_addresses[host], interface);
        }
        ipv4->SetUp(interface);
    }
    return {devices.Get(0)->GetIfIndex(), devices.Get(1)->GetIfIndex()};
}

Ptr<PfabricSwitch>
PfabricFabricHelper::SwitchOf(Ptr<Node> node)
{
    Ptr<PfabricSwitch> sw = node->GetObject<PfabricSwitch>();
    NS_ASSERT_MSG(sw, "fabric: node " << node->GetId() << " has no PfabricSwitch");
    return sw;
}

uint64_t
PfabricFabricHelper::CountTransmissions(const NetDeviceContainer& devices)
{
    uint64_t transmissions = 0;
    for (auto device = devices.Begin(); device != devices.End(); ++device)
    {
        if (Ptr<PfabricLinkNetDevice> link = DynamicCast<PfabricLinkNetDevice>(*device))
        {
            transmissions += link->GetTransmittedPackets();
            continue;
        }
        Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(*device);
        NS_ABORT_MSG_UNLESS(p2p,
                            "fabric: CountTransmissions of a device that is neither a "
                            "PfabricLinkNetDevice nor point-to-point");
        Ptr<Queue<Packet>> queue = p2p->GetQueue();
        transmissions += queue->GetTotalReceivedPackets() - queue->GetNPackets();
    }
    return transmissions;
}

NodeContainer
PfabricFabricHelper::GetHosts() const
{
    return m_hosts;
}

NodeContainer
PfabricFabricHelper::GetSwitches() const
{
    return m_switches;
}

NetDeviceContainer
PfabricFabricHelper::GetDevices() const
{
    return m_devices;
}

uint32_t
PfabricFabricHelper::GetNHosts() const
{
    return m_hosts.GetN();
}

uint32_t
PfabricFabricHelper::GetNLinks() const
{
    return m_devices.GetN() / 2;
}

Ipv4Address
PfabricFabricHelper::GetHostAddress(uint32_t host) const
{
    NS_ABORT_MSG_UNLESS(host < m_addresses.size(), "fabric: no host " << host);
    return m_addresses[host];
}

uint32_t
PfabricFabricHelper::GetPod(uint32_t host) const
{
    return (GetHostAddress(host).Get() >> 16) & 0xff;
}

uint32_t
PfabricFabricHelper::GetRack(uint32_t host) const
{
    return (GetHostAddress(host).Get() >> 8) & 0xff;
}

uint32_t
PfabricFabricHelper::GetHopCount(uint32_t from, uint32_t to) const
{
    NS_ABORT_MSG_UNLESS(from < GetNHosts() && to < GetNHosts(),
                        "fabric: no host " << std::max(from, to));
    return from == to ? 0 : DoGetHopCount(from, to);
}

uint64_t
PfabricFabricHelper::GetPacketCount(uint64_t bytes) const
{
    return bytes == 0 ? 1 : (bytes + m_mss - 1) / m_mss;
}

uint64_t
PfabricFabricHelper::GetPacketHops(uint32_t from, uint32_t to, uint64_t bytes) const
{
    return 2 * GetPacketCount(bytes) * GetHopCount(from, to);
}

double
PfabricFabricHelper::GetMeanHopCount() const
{
    const uint32_t hosts = GetNHosts();
    if (hosts < 2)
    {
        return 0;
    }
    uint64_t sum = 0;
    for (uint32_t from = 0; from < hosts; ++from)
    {
        for (uint32_t to = 0; to < hosts; ++to)
        {
            sum += GetHopCount(from, to); // 0 from a host to itself
        }
    }
    return double(sum) / (double(hosts) * (hosts - 1));
}

DataRate
PfabricFabricHelper::GetHostLinkRate() const
{
    return m_hostLinkRate;
}

DataRate
PfabricFabricHelper::GetFabricLinkRate() const
{
    return m_fabricLinkRate;
}

Time
PfabricFabricHelper::GetLinkDelay() const
{
    return m_linkDelay;
}

Time
PfabricFabricHelper::GetHostDelay() const
{
    return m_hostDelay;
}

uint32_t
PfabricFabricHelper::GetMss() const
{
    return m_mss;
}

uint32_t
PfabricFabricHelper::GetPacketOverheadBytes() const
{
    return m_headerBytes + m_linkHeaderBytes;
}

Time
PfabricFabricHelper::GetBaseRtt(uint32_t from, uint32_t to) const
{
    return GetIdealFct(from, to, m_mss);
}

Time
PfabricFabricHelper::GetIdealFct(uint32_t from, uint32_t to, uint64_t bytes) const
{
    const uint32_t hops = GetHopCount(from, to);
    NS_ABORT_MSG_IF(hops < 2, "fabric: no path from host " << from << " to itself");

    // The path: a host link, hops - 2 fabric links, a host link.
    struct Link
    {
        DataRate rate;
        Time delay;
    };

    std::vector<Link> path{{m_hostLinkRate, m_linkDelay + m_hostDelay}};
    path.insert(path.end(), hops - 2, Link{m_fabricLinkRate, m_linkDelay});
    path.push_back({m_hostLinkRate, m_linkDelay + m_hostDelay});

    const uint64_t packets = GetPacketCount(bytes);
    const uint32_t fullBytes = m_mss + m_headerBytes + m_linkHeaderBytes;
    const uint32_t lastBytes =
        uint32_t(bytes - (packets - 1) * m_mss) + m_headerBytes + m_linkHeaderBytes;
    // The same rounding as the point-to-point device: DataRate::CalculateBytesTxTime.
    auto serialise = [](const Link& link, uint32_t wireBytes) {
        return link.rate.CalculateBytesTxTime(wireBytes);
    };

    // Store and forward: packet n leaves link k at a(n, k) = s(n, k) + max(a(n - 1, k),
    // a(n, k - 1)), without propagation (every packet crosses every link once, so the delays add
    // the same to all). The packets before the last are alike, and for alike packets the
    // recursion has a closed form: the first m leave link k at
    // sum over h <= k of s_full(h) + (m - 1) max over h <= k of s_full(h).
    // The last packet then follows the recursion link by link. (A closed form over the last
    // packet too, "the slowest link takes every packet", is short when the path has two equally
    // slow links and a short last packet: the last full packet's wait at the second one counts.)
    Time sumFull;
    Time maxFull;
    Time lastArrival; // a(packets, k), along the links
    for (const Link& link : path)
    {
        sumFull += serialise(link, fullBytes);
        maxFull = std::max(maxFull, serialise(link, fullBytes));
        const Time beforeLast = packets > 1 ? sumFull + maxFull * int64_t(packets - 2) : Time();
        lastArrival = serialise(link, lastBytes) + std::max(beforeLast, lastArrival);
    }
    Time ack;
    for (const Link& link : path)
    {
        lastArrival += link.delay;
        ack += serialise(link, m_ackBytes + m_linkHeaderBytes) + link.delay;
    }
    return lastArrival + ack;
}

Time
PfabricFabricHelper::GetHostLinkSerialisation(uint64_t bytes) const
{
    const uint64_t packets = GetPacketCount(bytes);
    const uint32_t fullBytes = m_mss + m_headerBytes + m_linkHeaderBytes;
    const uint32_t lastBytes =
        uint32_t(bytes - (packets - 1) * m_mss) + m_headerBytes + m_linkHeaderBytes;
    // Packet by packet, with the device's rounding (as GetIdealFct).
    return m_hostLinkRate.CalculateBytesTxTime(fullBytes) * int64_t(packets - 1) +
           m_hostLinkRate.CalculateBytesTxTime(lastBytes);
}

Time
PfabricFabricHelper::GetIdealIncastTime(const std::vector<uint32_t>& senders,
                                        uint32_t to,
                                        uint64_t bytes) const
{
    NS_ABORT_MSG_IF(senders.empty(), "fabric: an incast needs at least one sender");
    Time fastest = Time::Max();
    for (uint32_t from : senders)
    {
        fastest = std::min(fastest, GetIdealFct(from, to, bytes));
    }
    return fastest + GetHostLinkSerialisation(bytes) * int64_t(senders.size() - 1);
}

} // namespace ns3
