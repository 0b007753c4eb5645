/*
 * Copyright (c) 2026 The pfabric authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricTcpDemux: the socket of an arriving TCP segment, found through a hash table.

#include "pfabric-tcp-demux.h"

#include "pfabric-transport-ports.h"

#include "ns3/abort.h"
#include "ns3/ipv4-end-point.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-interface.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-interface.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/tcp-l4-protocol.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricTcpDemux");

NS_OBJECT_ENSURE_REGISTERED(PfabricTcpDemux);

PfabricTcpDemux::Connection::~Connection()
{
    if (m_demux)
    {
        m_demux->Remove(this);
    }
}

PfabricTcpDemux::Connection::Connection(const Connection& other)
{
    SetDemux(other.m_demux);
}

void
PfabricTcpDemux::Connection::SetDemux(Ptr<PfabricTcpDemux> demux)
{
    if (m_demux)
    {
        m_demux->Remove(this);
    }
    m_demux = demux;
    if (m_demux)
    {
        m_demux->m_waiting.insert(this);
    }
}

TypeId
PfabricTcpDemux::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfabricTcpDemux")
                            .SetParent<IpL4Protocol>()
                            .SetGroupName("Pfabric")
                            .AddConstructor<PfabricTcpDemux>();
    return tid;
}

PfabricTcpDemux::PfabricTcpDemux()
    : m_tableDeliveries(0),
      m_tcpDeliveries(0)
{
    NS_LOG_FUNCTION(this);
}

PfabricTcpDemux::~PfabricTcpDemux()
{
    NS_LOG_FUNCTION(this);
}

Ptr<PfabricTcpDemux>
PfabricTcpDemux::Install(Ptr<Node> node)
{
    if (Ptr<PfabricTcpDemux> existing = node->GetObject<PfabricTcpDemux>())
    {
        return existing;
    }
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    Ptr<TcpL4Protocol> tcp = node->GetObject<TcpL4Protocol>();
    NS_ABORT_MSG_UNLESS(ipv4 && tcp,
                        "PfabricTcpDemux: node " << node->GetId() << " has no IPv4 TCP stack");
    Ptr<PfabricTcpDemux> demux = CreateObject<PfabricTcpDemux>();
    demux->m_tcp = tcp;
    ipv4->Insert(demux); // replaces TcpL4Protocol as the receiver of protocol 6
    node->AggregateObject(demux);
    return demux;
}

std::size_t
PfabricTcpDemux::GetNConnections() const
{
    return m_connections.size();
}

uint64_t
PfabricTcpDemux::GetTableDeliveries() const
{
    return m_tableDeliveries;
}

uint64_t
PfabricTcpDemux::GetTcpDeliveries() const
{
    return m_tcpDeliveries;
}

bool
PfabricTcpDemux::Key::operator==(const Key& other) const
{
    return localAddress == other.localAddress && peerAddress == other.peerAddress &&
           localPort == other.localPort && peerPort == other.peerPort;
}

std::size_t
PfabricTcpDemux::KeyHash::operator()(const Key& key) const
{
    // splitmix64's finaliser over the 96 bits: hosts share addresses, ports differ in low bits
    uint64_t x = (uint64_t{key.peerAddress} << 32 | key.localAddress) ^
                 (uint64_t{key.peerPort} << 16 | key.localPort) * 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<std::size_t>(x ^ (x >> 31));
}

PfabricTcpDemux::Key
PfabricTcpDemux::KeyOf(Ipv4EndPoint& endPoint)
{
    return Key{endPoint.GetLocalAddress().Get(),
               endPoint.GetPeerAddress().Get(),
               endPoint.GetLocalPort(),
               endPoint.GetPeerPort()};
}

void
PfabricTcpDemux::FileConnected()
{
    for (auto waiting = m_waiting.begin(); waiting != m_waiting.end();)
    {
        Ipv4EndPoint* endPoint = (*waiting)->GetDemuxEndPoint();
        if (!endPoint || endPoint->GetLocalAddress() == Ipv4Address::GetAny() ||
            endPoint->GetPeerAddress() == Ipv4Address::GetAny() || endPoint->GetPeerPort() == 0)
        {
            ++waiting; // not (yet) a connection: a listener, or not connected
            continue;
        }
        Key key = KeyOf(*endPoint);
        m_connections[key] = *waiting; // a newer connection of the same four numbers wins
        m_keys[*waiting] = key;
        waiting = m_waiting.erase(waiting);
    }
}

void
PfabricTcpDemux::Remove(Connection* connection)
{
    m_waiting.erase(connection);
    auto known = m_keys.find(connection);
    if (known == m_keys.end())
    {
        return;
    }
    auto entry = m_connections.find(known->second);
    if (entry != m_connections.end() && entry->second == connection)
    {
        m_connections.erase(entry);
    }
    m_keys.erase(known);
}

int
PfabricTcpDemux::GetProtocolNumber() const
{
    return TcpL4Protocol::PROT_NUMBER;
}

IpL4Protocol::RxStatus
PfabricTcpDemux::Receive(Ptr<Packet> p,
                         const Ipv4Header& header,
                         Ptr<Ipv4Interface> incomingInterface)
{
    NS_LOG_FUNCTION(this << p << header);
    // With checksums on, TcpL4Protocol must verify them first.
    if (!Node::ChecksumEnabled())
    {
        uint32_t ports = pfabric::TransportPorts(p, header);
        uint16_t sourcePort = ports >> 16;
        Key key{header.GetDestination().Get(),
                header.GetSource().Get(),
                static_cast<uint16_t>(ports & 0xffff),
                sourcePort};
        auto entry = m_connections.find(key);
        if (entry == m_connections.end() && !m_waiting.empty())
        {
            FileConnected(); // the first segment of a new connection, or none of ours
            entry = m_connections.find(key);
        }
        if (entry != m_connections.end())
        {
            Ipv4EndPoint* endPoint = entry->second->GetDemuxEndPoint();
            if (!endPoint || !(KeyOf(*endPoint) == key))
            {
                // The socket closed (or moved): it waits again, ns-3's search decides.
                m_waiting.insert(entry->second);
                m_keys.erase(entry->second);
                m_connections.erase(entry);
            }
            else if (endPoint->IsRxEnabled() &&
                     (!endPoint->GetBoundNetDevice() ||
                      endPoint->GetBoundNetDevice() == incomingInterface->GetDevice()))
            {
                // What TcpL4Protocol::Receive does once its search has found the endpoint.
                ++m_tableDeliveries;
                endPoint->ForwardUp(p, header, sourcePort, incomingInterface);
                return IpL4Protocol::RX_OK;
            }
        }
    }
    ++m_tcpDeliveries;
    return m_tcp->Receive(p, header, incomingInterface);
}

IpL4Protocol::RxStatus
PfabricTcpDemux::Receive(Ptr<Packet> p,
                         const Ipv6Header& header,
                         Ptr<Ipv6Interface> incomingInterface)
{
    ++m_tcpDeliveries;
    return m_tcp->Receive(p, header, incomingInterface);
}

void
PfabricTcpDemux::ReceiveIcmp(Ipv4Address icmpSource,
                             uint8_t icmpTtl,
                             uint8_t icmpType,
                             uint8_t icmpCode,
                             uint32_t icmpInfo,
                             Ipv4Address payloadSource,
                             Ipv4Address payloadDestination,
                             const uint8_t payload[8])
{
    m_tcp->ReceiveIcmp(icmpSource,
                       icmpTtl,
                       icmpType,
                       icmpCode,
                       icmpInfo,
                       payloadSource,
                       payloadDestination,
                       payload);
}

void
PfabricTcpDemux::ReceiveIcmp(Ipv6Address icmpSource,
                             uint8_t icmpTtl,
                             uint8_t icmpType,
                             uint8_t icmpCode,
                             uint32_t icmpInfo,
                             Ipv6Address payloadSource,
                             Ipv6Address payloadDestination,
                             const uint8_t payload[8])
{
    m_tcp->ReceiveIcmp(icmpSource,
                       icmpTtl,
                       icmpType,
                       icmpCode,
                       icmpInfo,
                       payloadSource,
                       payloadDestination,
                       payload);
}

// The way down is TCP's own (and its tagger's, PfabricTcpTagger): the demux only receives.
void
PfabricTcpDemux::SetDownTarget(DownTargetCallback cb)
{
    m_tcp->SetDownTarget(cb);
}

void
PfabricTcpDemux::SetDownTarget6(DownTargetCallback6 cb)
{
    m_tcp->SetDownTarget6(cb);
}

IpL4Protocol::DownTargetCallback
PfabricTcpDemux::GetDownTarget() const
{
    return m_tcp->GetDownTarget();
}

IpL4Protocol::DownTargetCallback6
PfabricTcpDemux::GetDownTarget6() const
{
    return m_tcp->GetDownTarget6();
}

void
PfabricTcpDemux::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& [connection, key] : m_keys)
    {
        connection->m_demux = nullptr; // the sockets may outlive the node
    }
    for (Connection* connection : m_waiting)
    {
        connection->m_demux = nullptr;
    }
    m_connections.clear();
    m_keys.clear();
    m_waiting.clear();
    m_tcp = nullptr;
    IpL4Protocol::DoDispose();
}

} // namespace ns3
