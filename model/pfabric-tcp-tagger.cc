/*
 * Copyright (c) 2026 The pfabric authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricTcpTagger: the priority and class tags of a sending socket's segments, on the way from TCP
// to IPv4.

#include "pfabric-tcp-tagger.h"

#include "pfabric-class-tag.h"
#include "pfabric-priority-tag.h"

#include "ns3/abort.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/tcp-l4-protocol.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricTcpTagger");

NS_OBJECT_ENSURE_REGISTERED(PfabricTcpTagger);

PfabricTcpTagger::Stamp::Stamp(PfabricTcpTagger& tagger,
                               uint64_t priority,
                               std::optional<uint8_t> trafficClass)
    : m_tagger(tagger),
      m_outer(tagger.m_pending),
      m_outerPriority(tagger.m_priority),
      m_outerClass(tagger.m_class)
{
    m_tagger.m_pending = true;
    m_tagger.m_priority = priority;
    m_tagger.m_class = trafficClass;
}

PfabricTcpTagger::Stamp::~Stamp()
{
    m_tagger.m_pending = m_outer;
    m_tagger.m_priority = m_outerPriority;
    m_tagger.m_class = m_outerClass;
}

TypeId
PfabricTcpTagger::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfabricTcpTagger")
                            .SetParent<Object>()
                            .SetGroupName("Pfabric")
                            .AddConstructor<PfabricTcpTagger>();
    return tid;
}

PfabricTcpTagger::PfabricTcpTagger()
    : m_pending(false),
      m_priority(0)
{
    NS_LOG_FUNCTION(this);
}

PfabricTcpTagger::~PfabricTcpTagger()
{
    NS_LOG_FUNCTION(this);
}

Ptr<PfabricTcpTagger>
PfabricTcpTagger::Install(Ptr<Node> node)
{
    if (Ptr<PfabricTcpTagger> existing = node->GetObject<PfabricTcpTagger>())
    {
        return existing;
    }
    Ptr<TcpL4Protocol> tcp = node->GetObject<TcpL4Protocol>();
    NS_ABORT_MSG_UNLESS(node->GetObject<Ipv4>() && tcp,
                        "PfabricTcpTagger: node " << node->GetId() << " has no IPv4 TCP stack");
    Ptr<PfabricTcpTagger> tagger = CreateObject<PfabricTcpTagger>();
    tagger->m_down = tcp->GetDownTarget();
    // A raw pointer: the node holds both, and TCP must not keep its tagger alive.
    tcp->SetDownTarget(MakeCallback(&PfabricTcpTagger::SendDown, PeekPointer(tagger)));
    node->AggregateObject(tagger);
    return tagger;
}

void
PfabricTcpTagger::SendDown(Ptr<Packet> packet,
                           Ipv4Address source,
                           Ipv4Address destination,
                           uint8_t protocol,
                           Ptr<Ipv4Route> route)
{
    if (m_pending)
    {
        m_pending = false;
        PfabricPriorityTag::Set(packet, m_priority);
        if (m_class)
        {
            PfabricClassTag::Set(packet, *m_class);
        }
    }
    m_down(packet, source, destination, protocol, route);
}

void
PfabricTcpTagger::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_down =
        MakeNullCallback<void, Ptr<Packet>, Ipv4Address, Ipv4Address, uint8_t, Ptr<Ipv4Route>>();
    Object::DoDispose();
}

} // namespace ns3
