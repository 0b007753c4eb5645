/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_SOCKET_FLOW_SENDER_H
#define PFABRIC_SOCKET_FLOW_SENDER_H

#include "pfabric-flow-sender.h"

namespace ns3
{

class PfabricTcpSocket;
class Socket;

/**
 * @ingroup pfabric
 *
 * @brief A PfabricFlowSender over ns-3's TCP/IP: one PfabricTcpSocket, connected through the
 * node's internet stack with a handshake, its highest ACK taken from its HighestRxAck trace.
 */
class PfabricSocketFlowSender : public PfabricFlowSender
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    PfabricSocketFlowSender();
    ~PfabricSocketFlowSender() override;

    /**
     * @brief The socket to drive; set before Connect.
     * @param socket a new, unconnected socket
     */
    void SetSocket(Ptr<PfabricTcpSocket> socket);
    /// @return the socket
    Ptr<PfabricTcpSocket> GetSocket() const;

    void Connect(Ipv4Address destination, uint16_t port) override;
    void StartFlow(Time deadline) override;
    void SetTrafficClass(uint8_t trafficClass) override;
    void SendFlowBytes(uint64_t bytes) override;
    void StopFlow() override;
    uint64_t GetTimeouts() const override;
    uint64_t GetRemainingBytes() const override;
    bool IsProbing() const override;

  protected:
    void DoDispose() override;

  private:
    /// The socket's connect callback.
    void Connected(Ptr<Socket>);
    /**
     * @brief The socket's HighestRxAck trace.
     * @param oldValue previous highest ACK
     * @param newValue new highest ACK
     */
    void AckTrace(SequenceNumber32 oldValue, SequenceNumber32 newValue);

    Ptr<PfabricTcpSocket> m_socket; //!< the socket
};

} // namespace ns3

#endif /* PFABRIC_SOCKET_FLOW_SENDER_H */
