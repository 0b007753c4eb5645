/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricSwitch: a fabric switch that picks the output port in O(1) and, in lean mode, forwards
// without IP.

#include "pfabric-switch.h"

#include "pfabric-compat.h"
#include "pfabric-transport-ports.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/string.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricSwitch");

NS_OBJECT_ENSURE_REGISTERED(PfabricSwitch);

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
PfabricSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfabricSwitch")
            .SetParent<Object>()
            .SetGroupName("Pfabric")
            .AddConstructor<PfabricSwitch>()
            .AddAttribute(
                "LoadBalancing",
                "How a switch picks one of its equally short up ports: Spray "
                "(per-packet round-robin, the pFabric papers' setting), Ecmp (5-tuple "
                "hash), Flowcell (Presto: a flow moves on after FlowcellBytes) or "
                "Random (per packet).",
                EnumValue(SPRAY),
                pfabric::MakeEnumAccessorCompat<LoadBalancing>(&PfabricSwitch::m_loadBalancing),
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
                          MakeUintegerAccessor(&PfabricSwitch::m_flowcellBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddTraceSource("Forward",
                            "A packet is forwarded, with the port (device index) it leaves by.",
                            MakeTraceSourceAccessor(&PfabricSwitch::m_forwardTrace),
                            "ns3::PfabricSwitch::ForwardTracedCallback")
            .AddTraceSource("NoRoute",
                            "Lean mode: a packet is dropped because this switch has no port "
                            "towards its destination.",
                            MakeTraceSourceAccessor(&PfabricSwitch::m_noRouteTrace),
                            "ns3::PfabricSwitch::NoRouteTracedCallback");
    return tid;
}

PfabricSwitch::PfabricSwitch()
    : m_role(UNCONFIGURED),
      m_pod(0),
      m_rack(0),
      m_loadBalancing(SPRAY),
      m_flowcellBytes(65536),
      m_nextUp(0),
      m_salt(Mix(0)),
      m_random(CreateObject<UniformRandomVariable>()),
      m_checksum(Node::ChecksumEnabled())
{
    NS_LOG_FUNCTION(this);
}

PfabricSwitch::~PfabricSwitch()
{
    NS_LOG_FUNCTION(this);
}

std::vector<std::pair<std::string, std::string>>
PfabricSwitch::GetAttributesItsModeIgnores() const
{
    if (m_loadBalancing == FLOWCELL)
    {
        return {};
    }
    StringValue mode;
    GetAttribute("LoadBalancing", mode);
    return {{"FlowcellBytes", "LoadBalancing=" + mode.Get()}};
}

void
PfabricSwitch::SetRackSwitch(uint32_t pod,
                             uint32_t rack,
                             std::vector<uint32_t> hostPorts,
                             std::vector<uint32_t> upPorts)
{
    m_role = RACK_SWITCH;
    m_pod = pod;
    m_rack = rack;
    m_down = std::move(hostPorts);
    m_up = std::move(upPorts);
}

void
PfabricSwitch::SetPodSwitch(uint32_t pod,
                            std::vector<uint32_t> rackPorts,
                            std::vector<uint32_t> upPorts)
{
    m_role = POD_SWITCH;
    m_pod = pod;
    m_down = std::move(rackPorts);
    m_up = std::move(upPorts);
}

void
PfabricSwitch::SetTopSwitch(std::vector<uint32_t> podPorts)
{
    m_role = TOP_SWITCH;
    m_down = std::move(podPorts);
    m_up.clear();
}

PfabricSwitch::Role
PfabricSwitch::GetRole() const
{
    return m_role;
}

int64_t
PfabricSwitch::AssignStreams(int64_t stream)
{
    m_random->SetStream(stream);
    return 1;
}

void
PfabricSwitch::NotifyNewAggregate()
{
    if (!m_node)
    {
        if (Ptr<Node> node = GetObject<Node>())
        {
            m_node = node;
            // Salting the flow hash with the node id keeps successive switches from making
            // correlated choices; computed once here, not per packet.
            m_salt = Mix(node->GetId());
        }
    }
    Object::NotifyNewAggregate();
}

void
PfabricSwitch::EnableLeanForwarding()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_UNLESS(m_node, "PfabricSwitch: aggregate it to its node first");
    NS_ABORT_MSG_IF(m_node->GetObject<Ipv4>(),
                    "PfabricSwitch: node " << m_node->GetId()
                                           << " has an IP stack; lean forwarding is for switches "
                                              "without one");
    Ptr<TrafficControlLayer> tc = m_node->GetObject<TrafficControlLayer>();
    NS_ABORT_MSG_UNLESS(tc,
                        "PfabricSwitch: node " << m_node->GetId()
                                               << " has no TrafficControlLayer for its ports");
    // The ports deliver straight here: Node::ReceiveFromDevice would walk the node's handler
    // list and build the receiver's address for every packet, for one handler.
    m_ports.clear();
    for (uint32_t i = 0; i < m_node->GetNDevices(); ++i)
    {
        Ptr<NetDevice> device = m_node->GetDevice(i);
        m_ports.emplace_back(tc, device);
        device->SetReceiveCallback(MakeCallback(&PfabricSwitch::Receive, this));
    }
}

uint64_t
PfabricSwitch::FlowHash(Ptr<const Packet> p, const Ipv4Header& header) const
{
    uint64_t ports = pfabric::TransportPorts(p, header);
    uint64_t addresses = (uint64_t{header.GetSource().Get()} << 32) | header.GetDestination().Get();
    return Mix(Mix(addresses ^ m_salt) ^ ((ports << 8) | header.GetProtocol()));
}

uint32_t
PfabricSwitch::PickUp(Ptr<const Packet> p, const Ipv4Header& header)
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
    NS_FATAL_ERROR("PfabricSwitch: unknown LoadBalancing " << m_loadBalancing);
}

int64_t
PfabricSwitch::SelectPort(Ptr<const Packet> p, const Ipv4Header& header)
{
    uint32_t destination = header.GetDestination().Get();
    if ((destination >> 24) != 10)
    {
        return -1;
    }
    uint32_t pod = (destination >> 16) & 0xff;
    uint32_t rack = (destination >> 8) & 0xff;
    uint32_t host = (destination & 0xff) - 1;
    // Down by the destination's host, rack or pod; up when it is outside this switch's rack
    // (rack switch) or pod (pod switch).
    bool up = false;
    std::size_t down = 0;
    switch (m_role)
    {
    case RACK_SWITCH:
        up = pod != m_pod || rack != m_rack;
        down = host;
        break;
    case POD_SWITCH:
        up = pod != m_pod;
        down = rack;
        break;
    case TOP_SWITCH:
        down = pod;
        break;
    default:
        return -1;
    }
    if (up ? m_up.empty() : down >= m_down.size())
    {
        return -1;
    }
    uint32_t port = up ? PickUp(p, header) : m_down[down];
    m_forwardTrace(p, header, port);
    return port;
}

bool
PfabricSwitch::Receive(Ptr<NetDevice> device,
                       Ptr<const Packet> packet,
                       uint16_t protocol,
                       const Address& /* from */)
{
    NS_LOG_FUNCTION(this << device << packet << protocol);
    if (protocol != Ipv4L3Protocol::PROT_NUMBER)
    {
        return false;
    }
    // As Ipv4L3Protocol::Receive: the header travels beside the packet in the queue disc item,
    // where queue discs that read or mark it (RED's ECN) find it, and goes back on at dequeue.
    Ptr<Packet> p = packet->Copy();
    Ipv4Header header;
    p->RemoveHeader(header);
    // The header goes back on at dequeue: with ns-3's checksums on, the receiving host's
    // Ipv4L3Protocol drops a header whose checksum was not written (as its own forwarding does).
    if (m_checksum)
    {
        header.EnableChecksum();
    }
    int64_t port = SelectPort(p, header);
    if (port < 0)
    {
        NS_LOG_LOGIC("No route to " << header.GetDestination());
        m_noRouteTrace(p, header);
        return true;
    }
    PfabricQueueDiscPort& out = m_ports[port];
    out.Send(Create<Ipv4QueueDiscItem>(p, out.GetBroadcast(), Ipv4L3Protocol::PROT_NUMBER, header));
    return true;
}

void
PfabricSwitch::DoDispose()
{
    m_node = nullptr;
    m_ports.clear();
    m_random = nullptr;
    Object::DoDispose();
}

} // namespace ns3
