/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricHostTransport: the lean host's transport, segments to and from the host's port without
// ns-3's IP stack.

#include "pfabric-host-transport.h"

#include "pfabric-lean-receiver.h"
#include "pfabric-lean-sender.h"

#include "ns3/abort.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/traffic-control-layer.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricHostTransport");

NS_OBJECT_ENSURE_REGISTERED(PfabricHostTransport);

namespace
{
/// ns-3's IPv4 default TTL (Ipv4L3Protocol's DefaultTtl).
constexpr uint8_t DEFAULT_TTL = 64;
} // namespace

TypeId
PfabricHostTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfabricHostTransport")
            .SetParent<Object>()
            .SetGroupName("Pfabric")
            .AddConstructor<PfabricHostTransport>()
            .AddTraceSource("Drop",
                            "A segment arrived that no connection of this host takes.",
                            MakeTraceSourceAccessor(&PfabricHostTransport::m_dropTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

PfabricHostTransport::PfabricHostTransport()
    : m_listenPort(0),
      m_identification(0)
{
    NS_LOG_FUNCTION(this);
}

PfabricHostTransport::~PfabricHostTransport()
{
    NS_LOG_FUNCTION(this);
}

void
PfabricHostTransport::DoDispose()
{
    m_port = PfabricQueueDiscPort();
    m_received = MakeNullCallback<void, uint32_t>();
    for (auto& sender : m_senders)
    {
        sender->Dispose();
    }
    m_senders.clear();
    m_receivers.clear();
    Object::DoDispose();
}

void
PfabricHostTransport::Setup(Ipv4Address address, Ptr<NetDevice> device)
{
    NS_LOG_FUNCTION(this << address << device);
    NS_ABORT_MSG_IF(m_port.GetDevice(), "PfabricHostTransport: Setup was already called");
    Ptr<Node> node = GetObject<Node>();
    NS_ABORT_MSG_UNLESS(node, "PfabricHostTransport: aggregate it to its node first");
    NS_ABORT_MSG_IF(node->GetObject<Ipv4>(),
                    "PfabricHostTransport: node " << node->GetId()
                                                  << " has an IP stack; the lean host is for "
                                                     "hosts without one");
    Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
    NS_ABORT_MSG_UNLESS(tc,
                        "PfabricHostTransport: node " << node->GetId()
                                                      << " has no TrafficControlLayer");
    m_address = address;
    m_port = PfabricQueueDiscPort(tc, device);
    // Straight from the device, as on a lean switch: no walk of the node's handlers.
    device->SetReceiveCallback(MakeCallback(&PfabricHostTransport::Receive, this));
}

Ipv4Address
PfabricHostTransport::GetAddress() const
{
    return m_address;
}

Ptr<NetDevice>
PfabricHostTransport::GetDevice() const
{
    return m_port.GetDevice();
}

void
PfabricHostTransport::Listen(uint16_t port, Callback<void, uint32_t> received)
{
    NS_LOG_FUNCTION(this << port);
    NS_ABORT_MSG_IF(m_listenPort != 0, "PfabricHostTransport: one listening port per host");
    NS_ABORT_MSG_IF(port == 0 || port >= FIRST_EPHEMERAL_PORT,
                    "PfabricHostTransport: listen on a port in [1, " << FIRST_EPHEMERAL_PORT
                                                                     << ")");
    m_listenPort = port;
    m_received = received;
}

void
PfabricHostTransport::SetReceiverSettings(const PfabricLeanReceiver::Settings& settings)
{
    NS_ABORT_MSG_UNLESS(m_receivers.empty(),
                        "PfabricHostTransport: SetReceiverSettings before the first segment "
                        "arrives");
    m_receiverSettings = settings;
}

uint16_t
PfabricHostTransport::Register(Ptr<PfabricLeanSender> sender)
{
    // A port is never freed: a reused one would reach the receiver of the connection it had.
    NS_ABORT_MSG_IF(m_senders.size() >= EPHEMERAL_PORTS,
                    "PfabricHostTransport: host "
                        << m_address << " opens its " << EPHEMERAL_PORTS + 1
                        << "th connection, and the lean host has a port for " << EPHEMERAL_PORTS
                        << " (ns-3's ephemeral range, 49152 to 65535, none freed in a run); "
                           "give it fewer flows at once or keep --reuseConnections");
    m_senders.push_back(sender);
    return static_cast<uint16_t>(FIRST_EPHEMERAL_PORT + m_senders.size() - 1);
}

void
PfabricHostTransport::Send(Ptr<Packet> segment,
                           const TcpHeader& header,
                           Ipv4Address destination,
                           Ipv4Header::EcnType ecn)
{
    NS_ABORT_MSG_UNLESS(m_port.GetDevice(), "PfabricHostTransport: Setup first");
    segment->AddHeader(header);
    // The header Ipv4L3Protocol would write; it travels beside the packet in the queue disc
    // item and goes on at dequeue, as on an IP host.
    Ipv4Header ip;
    ip.SetSource(m_address);
    ip.SetDestination(destination);
    ip.SetProtocol(TcpL4Protocol::PROT_NUMBER);
    ip.SetPayloadSize(segment->GetSize());
    ip.SetTtl(DEFAULT_TTL);
    ip.SetIdentification(m_identification++);
    ip.SetEcn(ecn);
    m_port.Send(
        Create<Ipv4QueueDiscItem>(segment, m_port.GetBroadcast(), Ipv4L3Protocol::PROT_NUMBER, ip));
}

bool
PfabricHostTransport::Receive(Ptr<NetDevice> /* device */,
                              Ptr<const Packet> packet,
                              uint16_t protocol,
                              const Address& /* from */)
{
    if (protocol != Ipv4L3Protocol::PROT_NUMBER)
    {
        return false;
    }
    Ptr<Packet> p = packet->Copy();
    Ipv4Header ip;
    p->RemoveHeader(ip);
    TcpHeader tcp;
    p->RemoveHeader(tcp);
    const uint16_t port = tcp.GetDestinationPort();
    if (port == m_listenPort && m_listenPort != 0)
    {
        const uint64_t key = (uint64_t{ip.GetSource().Get()} << 16) | tcp.GetSourcePort();
        auto& receiver = m_receivers[key];
        const bool fork = !receiver;
        if (fork)
        {
            receiver = std::make_unique<PfabricLeanReceiver>(this,
                                                             ip.GetSource(),
                                                             tcp.GetSourcePort(),
                                                             port,
                                                             m_receiverSettings);
        }
        if (tcp.GetFlags() & TcpHeader::SYN)
        {
            if (fork)
            {
                // As ns-3's listening socket, which completes its fork (and answers) in an
                // event of its own at the same time.
                Simulator::ScheduleNow(&PfabricLeanReceiver::ReceiveSyn, receiver.get(), tcp);
            }
            else
            {
                receiver->ReceiveSyn(tcp); // the forked socket answers a resent SYN at once
            }
            return true;
        }
        if (p->GetSize() == 0)
        {
            receiver->ReceiveEmpty(tcp, ip.GetEcn()); // the handshake's last ACK
            return true;
        }
        uint32_t delivered = receiver->Receive(p, tcp, ip.GetEcn());
        if (delivered > 0 && !m_received.IsNull())
        {
            m_received(delivered);
        }
        return true;
    }
    if (port >= FIRST_EPHEMERAL_PORT &&
        static_cast<std::size_t>(port - FIRST_EPHEMERAL_PORT) < m_senders.size())
    {
        m_senders[port - FIRST_EPHEMERAL_PORT]->ReceiveAck(tcp, ip.GetEcn());
        return true;
    }
    NS_LOG_LOGIC("no connection for port " << port);
    m_dropTrace(packet);
    return true;
}

} // namespace ns3
