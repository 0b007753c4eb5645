/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfabric-fabric-routing.h"

#include "pfabric-transport-ports.h"

#include "ns3/abort.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricFabricRouting");

NS_OBJECT_ENSURE_REGISTERED(PfabricFabricRouting);

namespace
{

/**
 * @param x a 64-bit value
 * @return a well-mixed hash of it (SplitMix64's finalizer)
 */
uint64_t
Mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

} // namespace

TypeId
PfabricFabricRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfabricFabricRouting")
            .SetParent<Ipv4RoutingProtocol>()
            .SetGroupName("Pfabric")
            .AddConstructor<PfabricFabricRouting>()
            .AddAttribute("LoadBalancing",
                          "How a switch picks one of its equally short up ports: Spray "
                          "(per-packet round-robin, the pFabric papers' setting), Ecmp (5-tuple "
                          "hash), Flowcell (Presto: a flow moves on after FlowcellBytes) or "
                          "Random (per packet).",
                          EnumValue(SPRAY),
                          pfabric::MakeEnumAccessorCompat<LoadBalancing>(
                              &PfabricFabricRouting::m_loadBalancing),
                          MakeEnumChecker(SPRAY,
                                          "Spray",
                                          ECMP,
                                          "Ecmp",
                                          FLOWCELL,
                                          "Flowcell",
                                          RANDOM,
                                          "Random"))
            .AddAttribute("FlowcellBytes",
                          "Flowcell: IP bytes of a flow sent on one path before it moves to the "
                          "next (Presto's 64 KB).",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&PfabricFabricRouting::m_flowcellBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddTraceSource("Forward",
                            "A packet is forwarded, with the interface it leaves by.",
                            MakeTraceSourceAccessor(&PfabricFabricRouting::m_forwardTrace),
                            "ns3::PfabricFabricRouting::ForwardTracedCallback");
    return tid;
}

PfabricFabricRouting::PfabricFabricRouting()
    : m_role(UNCONFIGURED),
      m_pod(0),
      m_rack(0),
      m_loadBalancing(SPRAY),
      m_flowcellBytes(65536),
      m_nextUp(0),
      m_salt(Mix(0)),
      m_random(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

PfabricFabricRouting::~PfabricFabricRouting()
{
    NS_LOG_FUNCTION(this);
}

Ipv4Address
PfabricFabricRouting::HostAddress(uint32_t pod, uint32_t rack, uint32_t host)
{
    NS_ABORT_MSG_IF(pod > 255 || rack > 255 || host > 253,
                    "PfabricFabricRouting: no address for pod " << pod << ", rack " << rack
                                                                << ", host " << host
                                                                << " (at most 256 pods, 256 "
                                                                   "racks per pod, 254 hosts "
                                                                   "per rack)");
    return Ipv4Address((10U << 24) | (pod << 16) | (rack << 8) | (host + 1));
}

void
PfabricFabricRouting::SetHost(Ipv4Address address, uint32_t interface)
{
    m_role = HOST;
    m_address = address;
    m_pod = (address.Get() >> 16) & 0xff;
    m_rack = (address.Get() >> 8) & 0xff;
    m_down.clear();
    m_up = {interface};
}

void
PfabricFabricRouting::SetRackSwitch(uint32_t pod,
                                    uint32_t rack,
                                    std::vector<uint32_t> hostInterfaces,
                                    std::vector<uint32_t> upInterfaces)
{
    m_role = RACK_SWITCH;
    m_pod = pod;
    m_rack = rack;
    m_down = std::move(hostInterfaces);
    m_up = std::move(upInterfaces);
}

void
PfabricFabricRouting::SetPodSwitch(uint32_t pod,
                                   std::vector<uint32_t> rackInterfaces,
                                   std::vector<uint32_t> upInterfaces)
{
    m_role = POD_SWITCH;
    m_pod = pod;
    m_down = std::move(rackInterfaces);
    m_up = std::move(upInterfaces);
}

void
PfabricFabricRouting::SetTopSwitch(std::vector<uint32_t> podInterfaces)
{
    m_role = TOP_SWITCH;
    m_down = std::move(podInterfaces);
    m_up.clear();
}

PfabricFabricRouting::Role
PfabricFabricRouting::GetRole() const
{
    return m_role;
}

int64_t
PfabricFabricRouting::AssignStreams(int64_t stream)
{
    m_random->SetStream(stream);
    return 1;
}

uint64_t
PfabricFabricRouting::FlowHash(Ptr<const Packet> p, const Ipv4Header& header) const
{
    uint64_t ports = pfabric::TransportPorts(p, header);
    uint64_t addresses = (uint64_t{header.GetSource().Get()} << 32) | header.GetDestination().Get();
    return Mix(Mix(addresses ^ m_salt) ^ ((ports << 8) | header.GetProtocol()));
}

uint32_t
PfabricFabricRouting::PickUp(Ptr<const Packet> p, const Ipv4Header& header)
{
    const uint32_t n = m_up.size();
    switch (m_loadBalancing)
    {
    case SPRAY: {
        uint32_t pick = m_nextUp;
        m_nextUp = (m_nextUp + 1 == n) ? 0 : m_nextUp + 1;
        return m_up[pick];
    }
    case ECMP:
        return m_up[FlowHash(p, header) % n];
    case FLOWCELL: {
        uint64_t flow = FlowHash(p, header);
        uint64_t bytes = header.GetPayloadSize() + header.GetSerializedSize();
        auto [it, isNew] = m_flowcells.try_emplace(flow, Flowcell{uint32_t(flow % n), 0});
        Flowcell& cell = it->second;
        if (!isNew && cell.bytes + bytes > m_flowcellBytes)
        {
            cell.path = (cell.path + 1 == n) ? 0 : cell.path + 1;
            cell.bytes = 0;
        }
        cell.bytes += bytes;
        return m_up[cell.path];
    }
    case RANDOM:
        return m_up[m_random->GetInteger(0, n - 1)];
    }
    NS_FATAL_ERROR("PfabricFabricRouting: unknown LoadBalancing " << m_loadBalancing);
}

int64_t
PfabricFabricRouting::NextInterface(Ptr<const Packet> p, const Ipv4Header& header)
{
    uint32_t destination = header.GetDestination().Get();
    uint32_t pod = (destination >> 16) & 0xff;
    uint32_t rack = (destination >> 8) & 0xff;
    uint32_t host = (destination & 0xff) - 1;
    if ((destination >> 24) != 10)
    {
        return -1;
    }
    std::size_t down;
    switch (m_role)
    {
    case HOST:
        return m_up[0];
    case RACK_SWITCH:
        if (pod != m_pod || rack != m_rack)
        {
            return m_up.empty() ? -1 : PickUp(p, header);
        }
        down = host;
        break;
    case POD_SWITCH:
        if (pod != m_pod)
        {
            return m_up.empty() ? -1 : PickUp(p, header);
        }
        down = rack;
        break;
    case TOP_SWITCH:
        down = pod;
        break;
    default:
        return -1;
    }
    return down < m_down.size() ? int64_t{m_down[down]} : -1;
}

Ptr<Ipv4Route>
PfabricFabricRouting::RouteVia(uint32_t interface)
{
    if (interface >= m_routes.size())
    {
        m_routes.resize(interface + 1);
    }
    if (!m_routes[interface])
    {
        Ptr<Ipv4Route> route = Create<Ipv4Route>();
        route->SetGateway(Ipv4Address::GetZero()); // point-to-point: the link is the next hop
        route->SetOutputDevice(m_ipv4->GetNetDevice(interface));
        route->SetSource(m_address);
        m_routes[interface] = route;
    }
    return m_routes[interface];
}

bool
PfabricFabricRouting::DoRouteInput(Ptr<const Packet> p,
                                   const Ipv4Header& header,
                                   Ptr<const NetDevice> idev,
                                   const UnicastForwardCallback& ucb,
                                   const MulticastForwardCallback& /* mcb */,
                                   const LocalDeliverCallback& lcb,
                                   const ErrorCallback& /* ecb */)
{
    NS_LOG_FUNCTION(this << p << header << idev);
    if (m_role == HOST)
    {
        if (header.GetDestination() == m_address)
        {
            lcb(p, header, m_ipv4->GetInterfaceForDevice(idev));
            return true;
        }
        return false; // hosts do not forward
    }
    int64_t interface = NextInterface(p, header);
    if (interface < 0)
    {
        // Like ns-3's own protocols: not handled, so Ipv4L3Protocol drops it once (DROP_NO_ROUTE).
        NS_LOG_LOGIC("No route to " << header.GetDestination());
        return false;
    }
    m_forwardTrace(p, header, interface);
    ucb(RouteVia(interface), p, header);
    return true;
}

Ptr<Ipv4Route>
PfabricFabricRouting::RouteOutput(Ptr<Packet> p,
                                  const Ipv4Header& header,
                                  Ptr<NetDevice> /* oif */,
                                  Socket::SocketErrno& sockerr)
{
    NS_LOG_FUNCTION(this << p << header);
    if (m_role != HOST)
    {
        sockerr = Socket::ERROR_NOROUTETOHOST;
        return nullptr;
    }
    sockerr = Socket::ERROR_NOTERROR;
    return RouteVia(m_up[0]);
}

void
PfabricFabricRouting::NotifyInterfaceUp(uint32_t /* interface */)
{
}

void
PfabricFabricRouting::NotifyInterfaceDown(uint32_t /* interface */)
{
}

void
PfabricFabricRouting::NotifyAddAddress(uint32_t /* interface */, Ipv4InterfaceAddress /* address */)
{
}

void
PfabricFabricRouting::NotifyRemoveAddress(uint32_t /* interface */,
                                          Ipv4InterfaceAddress /* address */)
{
}

void
PfabricFabricRouting::SetIpv4(Ptr<Ipv4> ipv4)
{
    m_ipv4 = ipv4;
    // Salting the flow hash with the node id keeps successive switches from making correlated
    // choices; computed once here, not per packet. The stack is aggregated to its node by now.
    Ptr<Node> node = ipv4->GetObject<Node>();
    m_salt = Mix(node ? node->GetId() : 0);
}

void
PfabricFabricRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                                        Time::Unit /* unit */) const
{
    static const char* roles[] = {"unconfigured",
                                  "host",
                                  "rack switch",
                                  "pod switch",
                                  "top switch"};
    std::ostream& os = *stream->GetStream();
    os << "PfabricFabricRouting: " << roles[m_role] << ", pod " << m_pod << ", rack " << m_rack
       << ", " << m_down.size() << " down and " << m_up.size() << " up interfaces" << std::endl;
}

void
PfabricFabricRouting::DoDispose()
{
    m_ipv4 = nullptr;
    m_routes.clear();
    m_random = nullptr;
    Ipv4RoutingProtocol::DoDispose();
}

} // namespace ns3
