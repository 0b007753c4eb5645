/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_FLOW_SENDER_H
#define PFABRIC_FLOW_SENDER_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/sequence-number.h"
#include "ns3/traced-callback.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief The sending end of one connection, as PfabricFlowApplication drives it: one flow at a
 * time, each started (StartFlow), handed over whole (SendFlowBytes) and watched through the
 * highest cumulative acknowledgement.
 *
 * Two host stacks implement it: ns-3's TCP/IP (PfabricSocketFlowSender, over a
 * PfabricTcpSocket) and the lean host (PfabricLeanSender, on a PfabricHostTransport). Sequence
 * numbers are TCP's in both: a connection's first byte is 1 (the handshake's SYN takes 0) and a
 * reused connection continues where its previous flow ended.
 *
 * Its "Timeout" and "ProbeMode" trace sources report the same events on both stacks (on ns-3's
 * they relay the socket's own sources of those names), so that an observer needs no stack of its
 * own: PfabricTcpSocketFactory's "FlowSenderCreated" hands over every sender.
 */
class PfabricFlowSender : public Object
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    ~PfabricFlowSender() override;

    /**
     * @brief Called once the connection can carry data (the handshake completed).
     */
    typedef Callback<void> ConnectedCallback;
    /**
     * @brief Called each time the highest cumulative acknowledgement advances, with its new
     * value.
     */
    typedef Callback<void, SequenceNumber32> AckCallback;

    /// The receive buffer of every connection's receiver, larger than any flow: a sender is
    /// never limited by the receiver (ns-3's RcvBufSize on the sockets, the lean receiver's).
    static constexpr uint32_t RECEIVE_BUFFER_BYTES = 1U << 30;
    /// ns-3's window scale for that buffer (its largest, 14) and the window field it advertises.
    static constexpr uint32_t WINDOW_SCALE = 14;
    /// The window field of every segment (the buffer shifted by the scale, capped at 16 bits).
    static constexpr uint16_t ADVERTISED_WINDOW = 65535;
    /// The receive window a sender sees: the advertised field, scaled back.
    static constexpr uint32_t RECEIVE_WINDOW = uint32_t{ADVERTISED_WINDOW} << WINDOW_SCALE;

    /**
     * @brief The payload rate at which a segment of segmentSize payload bytes leaves every
     * (segmentSize + overheadBytes) * 8 / lineRate seconds, its wire time: pacing at it keeps a
     * sender exactly at line rate (rounded up, so the gap is never longer).
     * @param lineRate the NIC's line rate, strictly positive
     * @param segmentSize payload bytes per segment
     * @param overheadBytes the bytes the network adds to a segment's payload
     * @return the payload rate
     */
    static DataRate GetPayloadRate(DataRate lineRate, uint32_t segmentSize, uint32_t overheadBytes);

    /**
     * @brief Set the callbacks before Connect.
     * @param connected the connection is open
     * @param ackAdvanced the highest cumulative ACK advanced
     */
    void SetCallbacks(ConnectedCallback connected, AckCallback ackAdvanced);

    /**
     * @brief Open the connection to a host's listener.
     * @param destination the receiving host
     * @param port its listening port
     */
    virtual void Connect(Ipv4Address destination, uint16_t port) = 0;
    /**
     * @brief Begin a flow (PfabricTcpSocket::StartFlow): on a connection that carried a flow
     * before, the flow starts as on a new connection.
     * @param deadline the flow's deadline, a simulation time; Time::Max() for none
     */
    virtual void StartFlow(Time deadline) = 0;
    /**
     * @brief The traffic class of the segments sent from now on (PfabricClassTag).
     * @param trafficClass the class, 0 first
     */
    virtual void SetTrafficClass(uint8_t trafficClass) = 0;
    /**
     * @brief Hand the whole flow to the sender.
     * @param bytes the flow's payload bytes, at least 1
     */
    virtual void SendFlowBytes(uint64_t bytes) = 0;
    /**
     * @brief Give up the current flow for good (PfabricTcpSocket::StopFlow): nothing more of it
     * is sent, and its ACKs are ignored.
     */
    virtual void StopFlow() = 0;
    /// @return every retransmission timeout of this connection with data outstanding
    virtual uint64_t GetTimeouts() const = 0;
    /// @return the current flow's bytes neither cumulatively nor selectively acknowledged
    virtual uint64_t GetRemainingBytes() const = 0;
    /// @return whether the sender is in MinTCP's probe mode
    virtual bool IsProbing() const = 0;

  protected:
    void DoDispose() override;
    /// Report that the connection is open.
    void NotifyConnected();
    /**
     * @brief Report that the highest cumulative ACK advanced.
     * @param ack its new value
     */
    void NotifyAckAdvanced(SequenceNumber32 ack);
    /**
     * @brief Report a retransmission timeout with data outstanding ("Timeout").
     * @param timeouts this connection's timeouts so far, this one included
     */
    void NotifyTimeout(uint64_t timeouts);
    /**
     * @brief Report that probe mode begins or ends ("ProbeMode").
     * @param probing true when it begins
     */
    void NotifyProbeMode(bool probing);

  private:
    ConnectedCallback m_connected;           //!< the connection is open
    AckCallback m_ackAdvanced;               //!< the highest cumulative ACK advanced
    TracedCallback<uint64_t> m_timeoutTrace; //!< "Timeout"
    TracedCallback<bool> m_probeModeTrace;   //!< "ProbeMode"
};

} // namespace ns3

#endif /* PFABRIC_FLOW_SENDER_H */
