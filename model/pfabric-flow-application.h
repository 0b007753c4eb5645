/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_FLOW_APPLICATION_H
#define PFABRIC_FLOW_APPLICATION_H

#include "ns3/application.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/sequence-number.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief A host's flows: sends the flows handed to it (AddFlow) over connections of its own, one
 * flow at a time per connection, receives every flow sent to it, and reports each flow's
 * completion through the FlowCompleted trace.
 *
 * Install one on every host of a fabric whose nodes have a PfabricTcpSocketFactory (a scheme,
 * PfabricSchemeHelper). A flow gets its connection ConnectLead before it starts, so no
 * handshake is inside its completion time: with ReuseConnections an idle connection to the same
 * destination (one whose flow has completed, all its bytes acknowledged) if there is one, else a
 * new one (persistent connections, as in the original simulations). Concurrent flows to the same
 * destination never share a connection, so a connection's priorities are exactly its flow's.
 * A reused connection starts its flow as a new one would (PfabricTcpSocket::StartFlow) and
 * continues its sequence numbers. Connections stay open to the end of the simulation: closing
 * one lets a late, reordered ACK with SACK blocks reach ns-3's TcpTxBuffer::Update in FIN_WAIT,
 * which crashes (ns-3.44); without reuse, finished connections are held to the end.
 *
 * A flow's completion time runs from its start, when the whole flow is handed to the socket, to
 * the moment the sender sees its last byte acknowledged.
 *
 * ConnectionPool N > 0 runs flows over connections the way the original ns-2 scripts do
 * (tcp-common-opt.tcl's Agent_Aggr_pair): each destination has N connections opened ahead (the
 * original's pre-opened pool, opened here ConnectLead before the destination's first N flows, which
 * take one each in turn); every later flow takes, at its start, the connection idle longest (the
 * original assigns arrivals to connections in the order they become free) or, when all are busy, a
 * new connection opened at its start, whose handshake is then inside its completion time (the
 * original's check_if_behind). No flow waits for another.
 *
 * Every host also listens on Port and reads whatever arrives (GetBytesReceived), from the
 * application's start.
 *
 * Deadlines: a flow may carry one (AddFlow), which the socket's priority policy may rank by
 * (PfabricDeadlinePriority). With TerminateAtDeadline, a flow not complete at its deadline is
 * given up: its socket stops sending it (PfabricTcpSocket::StopFlow), FlowTerminated reports it
 * (never FlowCompleted), and its connection is never reused (its unacknowledged bytes stay in
 * the send buffer). Its segments already in the network travel on and are read by the receiver.
 */
class PfabricFlowApplication : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricFlowApplication();
    ~PfabricFlowApplication() override;

    /// The most payload bytes one flow has: its end is its first byte's sequence number plus its
    /// size, and TCP (ns-3's SequenceNumber32, the lean host's too) orders sequence numbers
    /// within half of their 32-bit space, so a flow of 2^31 bytes or more would end "before" it
    /// began and never send a byte (issue 54's tenth probe).
    static constexpr uint64_t MAX_FLOW_BYTES = std::numeric_limits<int32_t>::max();

    /// A flow as handed to AddFlow.
    struct Flow
    {
        uint32_t id;                         //!< the caller's flow id
        Ipv4Address destination;             //!< the receiving host
        uint64_t bytes;                      //!< payload bytes
        Time start;                          //!< when the whole flow is handed to the transport
        Time deadline;                       //!< simulation time; Time::Max(): none
        std::optional<uint8_t> trafficClass; //!< its class (PfabricClassTag), if any
    };

    /// A completed flow, as FlowCompleted reports it.
    struct CompletedFlow
    {
        Flow flow;         //!< the flow
        Time fct;          //!< its completion time
        uint64_t timeouts; //!< retransmission timeouts of its connection during the flow
    };

    /// A flow neither completed nor terminated, as it stands (GetFlowsInProgress): what a run
    /// that stopped early left unfinished, and why.
    struct FlowInProgress
    {
        Flow flow;               //!< the flow
        bool started;            //!< handed to its connection (false: before its start time)
        bool connected;          //!< its connection's handshake completed
        uint64_t remainingBytes; //!< not acknowledged, cumulatively or selectively
        uint64_t timeouts;       //!< retransmission timeouts of its connection during the flow
        bool probing;            //!< its sender is in MinTCP's probe mode
        Time lastProgress;       //!< when an ACK last advanced within it (its start if never)
    };

    /**
     * TracedCallback signature of FlowCompleted.
     * @param flow the completed flow
     */
    typedef void (*FlowCompletedCallback)(const CompletedFlow& flow);

    /**
     * TracedCallback signature of ConnectionRefused.
     * @param flow the flow that found no connection
     */
    typedef void (*ConnectionRefusedCallback)(const Flow& flow);

    /**
     * @brief Send a flow: connect ConnectLead before start (at once if that is past), hand it
     * to the connection at start. Flows may be added before or during the simulation; a flow's
     * start must not be in the past.
     * @param id the caller's flow id, reported back
     * @param destination the receiving host (its PfabricFlowApplication listens on Port)
     * @param bytes payload bytes, at least 1
     * @param start simulation time
     * @param deadline simulation time (the socket's priority policy may rank by it);
     *        Time::Max(): none
     * @param trafficClass the flow's traffic class: its connection's segments carry it
     *        (PfabricTcpSocket::SetTrafficClass) from the flow's start; none: the connection
     *        keeps what it had
     */
    void AddFlow(uint32_t id,
                 Ipv4Address destination,
                 uint64_t bytes,
                 Time start,
                 Time deadline = Time::Max(),
                 std::optional<uint8_t> trafficClass = std::nullopt);

    /// @return the flows given up at their deadline (TerminateAtDeadline)
    uint32_t GetFlowsTerminated() const;
    /// @return the bytes received by this host's listener so far
    uint64_t GetBytesReceived() const;
    /// @return the flows added (AddFlow)
    uint32_t GetFlowsAdded() const;
    /// @return the flows completed
    uint32_t GetFlowsCompleted() const;
    /// @return the flows added and neither completed nor terminated, in the order added
    std::vector<FlowInProgress> GetFlowsInProgress() const;
    /// @return the connections opened so far
    uint32_t GetConnectionsOpened() const;
    /// @return the flows handed to a connection whose handshake had not yet completed
    uint32_t GetFlowsStartedBeforeConnected() const;

  protected:
    void DoDispose() override;

  private:
    /// A flow in progress.
    struct FlowState;
    /// A connection to one destination, carrying one flow at a time.
    struct Connection;

    void StartApplication() override;
    void StopApplication() override;

    /**
     * @brief Give a flow its connection: an idle one to its destination or a new one.
     * @param state the flow
     */
    void Connect(FlowState* state);
    /**
     * @brief ConnectionPool: the destination's next pool connection, opened now, while it has
     * fewer than ConnectionPool; otherwise the choice waits for ClaimIdle near the flow's start.
     * @param state the flow
     */
    void ConnectPooled(FlowState* state);
    /**
     * @brief ConnectionPool: give a flow the connection to its destination idle longest, if there
     * is one (otherwise Start opens a new one).
     * @param state the flow
     */
    void ClaimIdle(FlowState* state);
    /**
     * @brief Let a connection carry a flow.
     * @param state the flow
     * @param connection the connection; nullptr (refused): none, the flow stays unconnected
     */
    static void Attach(FlowState* state, Connection* connection);
    /**
     * @brief Open a new connection to a flow's destination, unless the host has opened
     * MaxConnections (then ConnectionRefused reports the flow).
     * @param state the flow
     * @return the connection; nullptr: refused
     */
    Connection* OpenConnection(const FlowState* state);
    /**
     * @brief Hand a flow to its connection's socket.
     * @param state the flow
     */
    void Start(FlowState* state);
    /**
     * @brief A connection's highest acknowledgement moved: its flow may be complete.
     * @param connection the connection
     * @param newValue new highest ACK
     */
    void AckAdvanced(Connection* connection, SequenceNumber32 newValue);
    /**
     * @brief A flow's deadline has come (TerminateAtDeadline): give it up unless complete.
     * @param state the flow
     */
    void DeadlineReached(FlowState* state);

    /**
     * @brief Sender callback: a connection is open.
     * @param connection the connection
     */
    static void Connected(Connection* connection);
    /**
     * @brief Sender callback: a connection's highest cumulative ACK advanced.
     * @param connection the connection
     * @param newValue the new highest ACK
     */
    static void AckTrace(Connection* connection, SequenceNumber32 newValue);
    /**
     * @brief The host's listener read bytes of a flow sent to it.
     * @param bytes the bytes read
     */
    void Received(uint32_t bytes);

    uint16_t m_port;                   //!< where hosts listen
    bool m_reuseConnections;           //!< hand idle connections to later flows
    Time m_connectLead;                //!< connections open this long before their flow
    uint32_t m_connectionPool;         //!< 0, or connections opened ahead per destination
    uint64_t m_bytesReceived;          //!< bytes read from accepted sockets
    uint32_t m_completed;              //!< flows completed
    uint32_t m_startedBeforeConnected; //!< flows handed over before their handshake completed
    std::vector<std::unique_ptr<FlowState>> m_flows;        //!< every flow added
    std::vector<std::unique_ptr<Connection>> m_connections; //!< every connection opened
    /// Idle connections by destination address, in the order they became idle.
    std::unordered_map<uint32_t, std::deque<Connection*>> m_idle;
    std::unordered_map<uint32_t, uint32_t> m_opened; //!< ConnectionPool: opened per destination
    TracedCallback<const CompletedFlow&> m_flowCompletedTrace;  //!< FlowCompleted
    bool m_terminateAtDeadline;                                 //!< give up missed flows
    uint32_t m_terminated;                                      //!< flows given up
    TracedCallback<const CompletedFlow&> m_flowTerminatedTrace; //!< FlowTerminated
    uint32_t m_maxConnections;                                  //!< ports for connections
    TracedCallback<const Flow&> m_connectionRefusedTrace;       //!< ConnectionRefused
};

} // namespace ns3

#endif /* PFABRIC_FLOW_APPLICATION_H */
