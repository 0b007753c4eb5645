/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricFlowApplication: a host's flows, sent over connections of its own, received, and reported
// when complete.

#include "pfabric-flow-application.h"

#include "pfabric-flow-sender.h"
#include "pfabric-host-transport.h"
#include "pfabric-tcp-socket-factory.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricFlowApplication");

NS_OBJECT_ENSURE_REGISTERED(PfabricFlowApplication);

namespace
{
/**
 * ConnectionPool: how long before a flow's start its connection is chosen among the idle ones.
 * The original ns-2 scripts (tcp-common-opt.tcl, Agent_Aggr_pair::schedule and check_if_behind)
 * open a new connection for the next arrival when no connection has become free 0.1 us before
 * it; a connection freed later serves a later arrival.
 */
constexpr int64_t POOL_CLAIM_MARGIN_NS = 100;
} // namespace

/// A flow in progress.
struct PfabricFlowApplication::FlowState
{
    Flow flow;                        //!< the flow
    Connection* connection = nullptr; //!< its connection, from Connect on
    bool started = false;             //!< handed to the socket
    bool claimed = false;             //!< ConnectionPool: the idle connections were looked at
    SequenceNumber32 firstSeq;        //!< sequence number of its first byte
    uint64_t timeoutsAtStart = 0;     //!< the connection's timeouts before the flow
    Time lastProgress;                //!< when an ACK last advanced within the flow
    bool finished = false;            //!< completed, or terminated at its deadline
};

/// A connection to one destination, carrying one flow at a time.
struct PfabricFlowApplication::Connection
{
    Ptr<PfabricFlowSender> sender;           //!< the sending end
    Ipv4Address destination;                 //!< the receiving host
    bool connected = false;                  //!< the handshake completed
    FlowState* flow = nullptr;               //!< the flow it carries or is reserved for
    SequenceNumber32 nextSeq{1};             //!< where the next flow's first byte goes
    PfabricFlowApplication* owner = nullptr; //!< the application
};

TypeId
PfabricFlowApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfabricFlowApplication")
            .SetParent<Application>()
            .SetGroupName("Pfabric")
            .AddConstructor<PfabricFlowApplication>()
            .AddAttribute("Port",
                          "The port every host's application listens on and flows are sent to.",
                          UintegerValue(5000),
                          MakeUintegerAccessor(&PfabricFlowApplication::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("ReuseConnections",
                          "Give a flow an idle connection to its destination (its earlier flow "
                          "completed) when there is one; false: a new connection for every flow.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PfabricFlowApplication::m_reuseConnections),
                          MakeBooleanChecker())
            .AddAttribute("ConnectionPool",
                          "0: connections as ReuseConnections says. N > 0 (with "
                          "ReuseConnections): the original ns-2 scripts' connections: N per "
                          "destination opened ahead (ConnectLead before the destination's first N "
                          "flows, one each); a later flow takes, at its start, the connection idle "
                          "longest, or else a new one opened at its start, with the handshake "
                          "inside its completion time.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PfabricFlowApplication::m_connectionPool),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ConnectLead",
                          "A flow's connection is opened (or an idle one reserved) this long "
                          "before the flow starts, so that no handshake is inside its "
                          "completion time.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&PfabricFlowApplication::m_connectLead),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("FlowCompleted",
                            "A flow's last byte was acknowledged: the flow, its completion "
                            "time and the timeouts of its connection during it.",
                            MakeTraceSourceAccessor(&PfabricFlowApplication::m_flowCompletedTrace),
                            "ns3::PfabricFlowApplication::FlowCompletedCallback")
            .AddAttribute("TerminateAtDeadline",
                          "Give up a flow that is not complete at its deadline: its socket "
                          "stops sending it (PfabricTcpSocket::StopFlow), FlowTerminated reports "
                          "it and its connection is never reused. False: a late flow carries on "
                          "to completion.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&PfabricFlowApplication::m_terminateAtDeadline),
                          MakeBooleanChecker())
            .AddTraceSource("FlowTerminated",
                            "A flow was given up at its deadline (TerminateAtDeadline): the flow, "
                            "the time from its start to its deadline (as fct) and the timeouts "
                            "of its connection during it.",
                            MakeTraceSourceAccessor(&PfabricFlowApplication::m_flowTerminatedTrace),
                            "ns3::PfabricFlowApplication::FlowCompletedCallback")
            .AddAttribute("MaxConnections",
                          "How many connections the host opens in a run at most: ns-3's ephemeral "
                          "ports (49152 to 65535), each held by its connection to the run's end "
                          "(the lean host frees none, ns-3's TCP/IP one only 2 MSL, 240 s by "
                          "default, after its connection closed). A flow that needs one more is "
                          "not started and ConnectionRefused reports it; with nothing connected "
                          "there, the run aborts naming the host.",
                          UintegerValue(PfabricHostTransport::EPHEMERAL_PORTS),
                          MakeUintegerAccessor(&PfabricFlowApplication::m_maxConnections),
                          MakeUintegerChecker<uint32_t>(1, PfabricHostTransport::EPHEMERAL_PORTS))
            .AddTraceSource(
                "ConnectionRefused",
                "A flow needed a new connection and the host had opened "
                "MaxConnections: the flow, which is never started.",
                MakeTraceSourceAccessor(&PfabricFlowApplication::m_connectionRefusedTrace),
                "ns3::PfabricFlowApplication::ConnectionRefusedCallback");
    return tid;
}

PfabricFlowApplication::PfabricFlowApplication()
    : m_port(5000),
      m_reuseConnections(true),
      m_connectLead(MilliSeconds(1)),
      m_connectionPool(0),
      m_bytesReceived(0),
      m_completed(0),
      m_startedBeforeConnected(0),
      m_terminateAtDeadline(false),
      m_terminated(0),
      m_maxConnections(PfabricHostTransport::EPHEMERAL_PORTS)
{
    NS_LOG_FUNCTION(this);
}

PfabricFlowApplication::~PfabricFlowApplication()
{
    NS_LOG_FUNCTION(this);
}

void
PfabricFlowApplication::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_idle.clear();
    m_opened.clear();
    m_connections.clear();
    m_flows.clear();
    Application::DoDispose();
}

void
PfabricFlowApplication::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_connectionPool > 0 && !m_reuseConnections,
                    "PfabricFlowApplication: ConnectionPool needs ReuseConnections");
    auto factory = GetNode()->GetObject<PfabricTcpSocketFactory>();
    NS_ABORT_MSG_UNLESS(factory,
                        "PfabricFlowApplication: node " << GetNode()->GetId()
                                                        << " has no PfabricTcpSocketFactory "
                                                           "(install a scheme first)");
    factory->ListenForFlows(m_port, MakeCallback(&PfabricFlowApplication::Received, this));
}

void
PfabricFlowApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
}

void
PfabricFlowApplication::Received(uint32_t bytes)
{
    m_bytesReceived += bytes;
}

void
PfabricFlowApplication::AddFlow(uint32_t id,
                                Ipv4Address destination,
                                uint64_t bytes,
                                Time start,
                                Time deadline,
                                std::optional<uint8_t> trafficClass)
{
    NS_LOG_FUNCTION(this << id << destination << bytes << start << deadline);
    const Time now = Simulator::Now();
    NS_ABORT_MSG_IF(start < now,
                    "PfabricFlowApplication::AddFlow: flow " << id << " starts at " << start
                                                             << ", in the past");
    NS_ABORT_MSG_IF(bytes == 0, "PfabricFlowApplication::AddFlow: flow " << id << " is empty");
    m_flows.push_back(std::make_unique<FlowState>());
    FlowState* state = m_flows.back().get();
    state->flow = Flow{id, destination, bytes, start, deadline, trafficClass};
    Time connectAt = start - now > m_connectLead ? start - m_connectLead : now;
    Simulator::Schedule(connectAt - now, &PfabricFlowApplication::Connect, this, state);
    Simulator::Schedule(start - now, &PfabricFlowApplication::Start, this, state);
}

void
PfabricFlowApplication::Connect(FlowState* state)
{
    if (m_connectionPool > 0)
    {
        ConnectPooled(state);
        return;
    }
    Connection* connection = nullptr;
    if (m_reuseConnections)
    {
        auto idle = m_idle.find(state->flow.destination.Get());
        if (idle != m_idle.end() && !idle->second.empty())
        {
            // Reserved from now on: a later flow to the destination cannot take it too.
            connection = idle->second.back();
            idle->second.pop_back();
        }
    }
    if (!connection)
    {
        connection = OpenConnection(state);
    }
    Attach(state, connection);
}

void
PfabricFlowApplication::ConnectPooled(FlowState* state)
{
    uint32_t& opened = m_opened[state->flow.destination.Get()];
    if (opened < m_connectionPool)
    {
        // The original opens the pool before any flow, and the first N arrivals take its
        // connections in turn whether or not an earlier one is idle again.
        ++opened;
        Attach(state, OpenConnection(state));
        return;
    }
    const Time now = Simulator::Now();
    const Time margin = NanoSeconds(POOL_CLAIM_MARGIN_NS);
    const Time claimAt = state->flow.start - now > margin ? state->flow.start - margin : now;
    Simulator::Schedule(claimAt - now, &PfabricFlowApplication::ClaimIdle, this, state);
}

void
PfabricFlowApplication::ClaimIdle(FlowState* state)
{
    if (state->claimed)
    {
        return; // Start came first and chose
    }
    state->claimed = true;
    auto idle = m_idle.find(state->flow.destination.Get());
    if (idle != m_idle.end() && !idle->second.empty())
    {
        // Idle longest first: the original hands each arrival to the connection that became
        // free first (each freed connection claims the next arrival at once).
        Attach(state, idle->second.front());
        idle->second.pop_front();
    }
}

void
PfabricFlowApplication::Attach(FlowState* state, Connection* connection)
{
    if (!connection)
    {
        return; // refused (OpenConnection)
    }
    connection->flow = state;
    state->connection = connection;
}

PfabricFlowApplication::Connection*
PfabricFlowApplication::OpenConnection(const FlowState* state)
{
    if (m_connections.size() >= m_maxConnections)
    {
        // A port reused in the run would reach the receiver of the connection that had it.
        NS_ABORT_MSG_IF(m_connectionRefusedTrace.IsEmpty(),
                        "PfabricFlowApplication: node "
                            << GetNode()->GetId() << " needs a connection more than its "
                            << m_maxConnections << " (MaxConnections) for flow " << state->flow.id);
        m_connectionRefusedTrace(state->flow);
        return nullptr;
    }
    const Ipv4Address destination = state->flow.destination;
    m_connections.push_back(std::make_unique<Connection>());
    Connection* connection = m_connections.back().get();
    connection->destination = destination;
    connection->owner = this;
    connection->sender = GetNode()->GetObject<PfabricTcpSocketFactory>()->CreateFlowSender();
    connection->sender->SetCallbacks(
        MakeBoundCallback(&PfabricFlowApplication::Connected, connection),
        MakeBoundCallback(&PfabricFlowApplication::AckTrace, connection));
    connection->sender->Connect(destination, m_port);
    return connection;
}

void
PfabricFlowApplication::Connected(Connection* connection)
{
    connection->connected = true;
}

void
PfabricFlowApplication::AckTrace(Connection* connection, SequenceNumber32 newValue)
{
    connection->owner->AckAdvanced(connection, newValue);
}

void
PfabricFlowApplication::Start(FlowState* state)
{
    if (!state->connection)
    {
        // ConnectionPool, every connection of the destination busy: a new one, opened now, as
        // the original's check_if_behind does; its handshake is inside the flow's FCT.
        ClaimIdle(state);
        if (!state->connection)
        {
            Attach(state, OpenConnection(state));
        }
        if (!state->connection)
        {
            return; // refused: ConnectionRefused reported it
        }
    }
    Connection* connection = state->connection;
    if (!connection->connected)
    {
        ++m_startedBeforeConnected;
    }
    // ns-3's initial sequence number is 0 and the SYN takes it: a new connection's first byte
    // is 1; a reused one continues where its previous flow ended.
    state->firstSeq = connection->nextSeq;
    connection->nextSeq =
        SequenceNumber32(connection->nextSeq.GetValue() + static_cast<uint32_t>(state->flow.bytes));
    state->timeoutsAtStart = connection->sender->GetTimeouts();
    // On a reused connection the previous flow grew (or cut) the window: StartFlow starts this
    // one from the initial window, as on a new connection, so that reuse does not change how a
    // flow starts.
    connection->sender->StartFlow(state->flow.deadline);
    if (state->flow.trafficClass)
    {
        connection->sender->SetTrafficClass(*state->flow.trafficClass);
    }
    state->started = true;
    connection->sender->SendFlowBytes(state->flow.bytes);
    if (m_terminateAtDeadline && state->flow.deadline != Time::Max())
    {
        Time left = state->flow.deadline - Simulator::Now();
        Simulator::Schedule(left.IsNegative() ? Time(0) : left,
                            &PfabricFlowApplication::DeadlineReached,
                            this,
                            state);
    }
}

void
PfabricFlowApplication::DeadlineReached(FlowState* state)
{
    if (state->finished)
    {
        return;
    }
    NS_LOG_INFO("flow " << state->flow.id << " missed its deadline " << state->flow.deadline
                        << ": terminated");
    state->finished = true;
    Connection* connection = state->connection;
    connection->sender->StopFlow();
    // Not put back among the idle connections: its unacknowledged bytes stay in the socket.
    connection->flow = nullptr;
    ++m_terminated;
    m_flowTerminatedTrace(
        CompletedFlow{state->flow,
                      Simulator::Now() - state->flow.start,
                      connection->sender->GetTimeouts() - state->timeoutsAtStart});
}

void
PfabricFlowApplication::AckAdvanced(Connection* connection, SequenceNumber32 newValue)
{
    FlowState* state = connection->flow;
    if (!state || !state->started)
    {
        return; // idle, or the handshake's ACK before the flow is handed over
    }
    // A SYN-ACK resent into the connection moves the highest ACK back to the handshake's
    // (TcpSocketBase::DoForwardUp, and the lean host as it), which on a reused connection is
    // before this flow's first byte: no progress, not a difference that wraps to "all of it".
    if (newValue < state->firstSeq)
    {
        return;
    }
    // Bytes of this flow acknowledged, modulo 2^32: the sequence numbers of a reused
    // connection wrap after 4 GiB. The highest ACK only moves past a flow's first byte once
    // that flow is handed over, its predecessor having been acknowledged in full.
    uint32_t acked = newValue.GetValue() - state->firstSeq.GetValue();
    if (acked < state->flow.bytes)
    {
        state->lastProgress = Simulator::Now();
        return;
    }
    connection->flow = nullptr;
    state->finished = true;
    if (m_reuseConnections)
    {
        m_idle[connection->destination.Get()].push_back(connection);
    }
    ++m_completed;
    m_flowCompletedTrace(CompletedFlow{state->flow,
                                       Simulator::Now() - state->flow.start,
                                       connection->sender->GetTimeouts() - state->timeoutsAtStart});
}

std::vector<PfabricFlowApplication::FlowInProgress>
PfabricFlowApplication::GetFlowsInProgress() const
{
    std::vector<FlowInProgress> flows;
    for (const auto& state : m_flows)
    {
        if (state->finished)
        {
            continue;
        }
        const Connection* connection = state->connection;
        const bool started = state->started;
        flows.push_back(
            FlowInProgress{state->flow,
                           started,
                           connection && connection->connected,
                           started ? connection->sender->GetRemainingBytes() : state->flow.bytes,
                           started ? connection->sender->GetTimeouts() - state->timeoutsAtStart : 0,
                           started && connection->sender->IsProbing(),
                           state->lastProgress.IsZero() ? state->flow.start : state->lastProgress});
    }
    return flows;
}

uint32_t
PfabricFlowApplication::GetFlowsTerminated() const
{
    return m_terminated;
}

uint64_t
PfabricFlowApplication::GetBytesReceived() const
{
    return m_bytesReceived;
}

uint32_t
PfabricFlowApplication::GetFlowsAdded() const
{
    return m_flows.size();
}

uint32_t
PfabricFlowApplication::GetFlowsCompleted() const
{
    return m_completed;
}

uint32_t
PfabricFlowApplication::GetConnectionsOpened() const
{
    return m_connections.size();
}

uint32_t
PfabricFlowApplication::GetFlowsStartedBeforeConnected() const
{
    return m_startedBeforeConnected;
}

} // namespace ns3
