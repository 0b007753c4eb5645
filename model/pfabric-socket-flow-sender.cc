/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricSocketFlowSender: a PfabricFlowSender over ns-3's TCP/IP (one PfabricTcpSocket).

#include "pfabric-socket-flow-sender.h"

#include "pfabric-flow-application.h"
#include "pfabric-host-transport.h"
#include "pfabric-tcp-socket.h"

#include "ns3/abort.h"
#include "ns3/inet-socket-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"

#include <limits>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfabricSocketFlowSender);

TypeId
PfabricSocketFlowSender::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfabricSocketFlowSender")
                            .SetParent<PfabricFlowSender>()
                            .SetGroupName("Pfabric")
                            .AddConstructor<PfabricSocketFlowSender>();
    return tid;
}

PfabricSocketFlowSender::PfabricSocketFlowSender() = default;

PfabricSocketFlowSender::~PfabricSocketFlowSender() = default;

void
PfabricSocketFlowSender::DoDispose()
{
    m_socket = nullptr;
    PfabricFlowSender::DoDispose();
}

void
PfabricSocketFlowSender::SetSocket(Ptr<PfabricTcpSocket> socket)
{
    m_socket = socket;
}

Ptr<PfabricTcpSocket>
PfabricSocketFlowSender::GetSocket() const
{
    return m_socket;
}

void
PfabricSocketFlowSender::Connect(Ipv4Address destination, uint16_t port)
{
    NS_ABORT_MSG_UNLESS(m_socket, "PfabricSocketFlowSender: SetSocket first");
    m_socket->SetConnectCallback(MakeCallback(&PfabricSocketFlowSender::Connected, this),
                                 MakeNullCallback<void, Ptr<Socket>>());
    m_socket->TraceConnectWithoutContext("HighestRxAck",
                                         MakeCallback(&PfabricSocketFlowSender::AckTrace, this));
    m_socket->TraceConnectWithoutContext(
        "Timeout",
        MakeCallback(&PfabricSocketFlowSender::NotifyTimeout, this));
    // Only MinTCP's sockets probe; the baselines' have no such source.
    m_socket->TraceConnectWithoutContext(
        "ProbeMode",
        MakeCallback(&PfabricSocketFlowSender::NotifyProbeMode, this));
    // ns-3 frees a port 2 MSL (240 s by default) after its connection closed: in a run, a host
    // has as many connections as its ephemeral range holds, and a failed Bind left the flow
    // waiting for ever.
    NS_ABORT_MSG_IF(m_socket->Bind() != 0,
                    "PfabricSocketFlowSender: node "
                        << m_socket->GetNode()->GetId()
                        << " has no port for a new connection: ns-3's ephemeral range holds "
                        << PfabricHostTransport::EPHEMERAL_PORTS
                        << " ports, freed 2 MSL after their connection closed; give it fewer "
                           "flows or keep --reuseConnections");
    m_socket->Connect(InetSocketAddress(destination, port));
}

void
PfabricSocketFlowSender::Connected(Ptr<Socket>)
{
    NotifyConnected();
}

void
PfabricSocketFlowSender::AckTrace(SequenceNumber32, SequenceNumber32 newValue)
{
    NotifyAckAdvanced(newValue);
}

void
PfabricSocketFlowSender::StartFlow(Time deadline)
{
    m_socket->StartFlow(deadline);
}

void
PfabricSocketFlowSender::SetTrafficClass(uint8_t trafficClass)
{
    m_socket->SetTrafficClass(trafficClass);
}

void
PfabricSocketFlowSender::SendFlowBytes(uint64_t bytes)
{
    NS_ABORT_MSG_IF(bytes > PfabricFlowApplication::MAX_FLOW_BYTES,
                    "PfabricSocketFlowSender: a flow has at most "
                        << PfabricFlowApplication::MAX_FLOW_BYTES << " bytes");
    m_socket->Send(Create<Packet>(static_cast<uint32_t>(bytes)));
}

void
PfabricSocketFlowSender::StopFlow()
{
    m_socket->StopFlow();
}

uint64_t
PfabricSocketFlowSender::GetTimeouts() const
{
    return m_socket->GetTimeouts();
}

uint64_t
PfabricSocketFlowSender::GetRemainingBytes() const
{
    return m_socket->GetRemainingBytes();
}

bool
PfabricSocketFlowSender::IsProbing() const
{
    return m_socket->IsProbing();
}

} // namespace ns3
