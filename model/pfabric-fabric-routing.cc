/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricFabricRouting: routing of a fabric's IP nodes by the position their addresses encode.

#include "pfabric-fabric-routing.h"

#include "pfabric-switch.h"

#include "ns3/abort.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricFabricRouting");

NS_OBJECT_ENSURE_REGISTERED(PfabricFabricRouting);

TypeId
PfabricFabricRouting::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfabricFabricRouting")
                            .SetParent<Ipv4RoutingProtocol>()
                            .SetGroupName("Pfabric")
                            .AddConstructor<PfabricFabricRouting>();
    return tid;
}

PfabricFabricRouting::PfabricFabricRouting()
    : m_isHost(false),
      m_hostPort(0)
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
    m_isHost = true;
    m_address = address;
    m_hostPort = m_ipv4->GetNetDevice(interface)->GetIfIndex();
}

bool
PfabricFabricRouting::IsHost() const
{
    return m_isHost;
}

Ptr<Ipv4Route>
PfabricFabricRouting::RouteVia(uint32_t port)
{
    if (port >= m_routes.size())
    {
        m_routes.resize(port + 1);
    }
    if (!m_routes[port])
    {
        Ptr<Ipv4Route> route = Create<Ipv4Route>();
        route->SetGateway(Ipv4Address::GetZero()); // point-to-point: the link is the next hop
        route->SetOutputDevice(m_ipv4->GetObject<Node>()->GetDevice(port));
        route->SetSource(m_address);
        m_routes[port] = route;
    }
    return m_routes[port];
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
    if (m_isHost)
    {
        if (header.GetDestination() == m_address)
        {
            lcb(p, header, m_ipv4->GetInterfaceForDevice(idev));
            return true;
        }
        return false; // hosts do not forward
    }
    if (!m_switch)
    {
        m_switch = m_ipv4->GetObject<PfabricSwitch>();
        if (!m_switch)
        {
            return false; // not configured by a fabric helper
        }
    }
    int64_t port = m_switch->SelectPort(p, header);
    if (port < 0)
    {
        // Like ns-3's own protocols: not handled, so Ipv4L3Protocol drops it once (DROP_NO_ROUTE).
        NS_LOG_LOGIC("No route to " << header.GetDestination());
        return false;
    }
    ucb(RouteVia(port), p, header);
    return true;
}

Ptr<Ipv4Route>
PfabricFabricRouting::RouteOutput(Ptr<Packet> p,
                                  const Ipv4Header& header,
                                  Ptr<NetDevice> /* oif */,
                                  Socket::SocketErrno& sockerr)
{
    NS_LOG_FUNCTION(this << p << header);
    if (!m_isHost)
    {
        sockerr = Socket::ERROR_NOROUTETOHOST;
        return nullptr;
    }
    sockerr = Socket::ERROR_NOTERROR;
    return RouteVia(m_hostPort);
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
}

void
PfabricFabricRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                                        Time::Unit /* unit */) const
{
    std::ostream& os = *stream->GetStream();
    if (m_isHost)
    {
        os << "PfabricFabricRouting: host " << m_address << ", device " << m_hostPort << std::endl;
    }
    else
    {
        os << "PfabricFabricRouting: switch, ports chosen by its PfabricSwitch" << std::endl;
    }
}

void
PfabricFabricRouting::DoDispose()
{
    m_ipv4 = nullptr;
    m_switch = nullptr;
    m_routes.clear();
    Ipv4RoutingProtocol::DoDispose();
}

} // namespace ns3
