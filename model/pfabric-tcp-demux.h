/*
 * Copyright (c) 2026 The pfabric authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_TCP_DEMUX_H
#define PFABRIC_TCP_DEMUX_H

#include "ns3/ip-l4-protocol.h"
#include "ns3/ipv4-address.h"
#include "ns3/ptr.h"

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>

namespace ns3
{

class Ipv4EndPoint;
class Ipv4Route;
class Node;
class TcpL4Protocol;

/**
 * @ingroup pfabric
 * @brief Hands each TCP segment of a connected socket to its endpoint through a hash table of
 * the connection's addresses and ports, in front of ns-3's TcpL4Protocol.
 *
 * ns-3 finds the socket of an arriving segment by a linear search over every endpoint of the
 * node (Ipv4EndPointDemux::Lookup). Experiments never close a connection (see
 * PfabricFlowApplication), so a host of a long run holds hundreds of endpoints and the search
 * dominates the run. This protocol takes TCP's place in the node's Ipv4 (protocol number 6):
 * a segment whose destination address and port and source address and port are exactly those
 * of a registered connection goes straight to that connection's endpoint, the one ns-3's
 * search would choose (an exact match on all four ranks first); every other segment (a SYN for
 * a listening socket, an unregistered or closed connection, checksums enabled) and all ICMP go
 * to TcpL4Protocol unchanged. Delivery, and hence every result, is identical; only the cost of
 * finding the socket changes, from linear in the endpoints to constant.
 *
 * Sockets join the demux when created (SetDemux) or forked (an accepted socket is a copy of its
 * listener); the demux files a member under its connection's four numbers once its endpoint
 * names both ends, checked when a segment finds no entry, so the first segment of a new
 * connection files it. A filed socket that has lost its endpoint (closed) is dropped at its
 * next segment; a socket leaves the demux when destroyed.
 *
 * Only the way up: TCP's way down (and the tags its segments get there) is PfabricTcpTagger's.
 */
class PfabricTcpDemux : public IpL4Protocol
{
  public:
    /**
     * @brief A TCP socket that the demux can deliver to; PfabricMinTcpSocket and
     * PfabricBaselineTcpSocket are.
     */
    class Connection
    {
      public:
        Connection() = default;
        /**
         * @brief A copy (a forked socket) joins its original's demux.
         * @param other the socket copied
         */
        Connection(const Connection& other);
        /// Leaves the demux.
        virtual ~Connection();

        /**
         * @brief Join this demux (arriving segments find the socket through its table); a
         * forked (accepted) socket joins its listener's.
         * @param demux the node's demux, or nullptr: ns-3's search finds the socket
         */
        void SetDemux(Ptr<PfabricTcpDemux> demux);

      protected:
        /// @return the socket's IPv4 endpoint, nullptr when it has none
        virtual Ipv4EndPoint* GetDemuxEndPoint() const = 0;

      private:
        friend class PfabricTcpDemux;
        Ptr<PfabricTcpDemux> m_demux; //!< where the socket is registered, if anywhere
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricTcpDemux();
    ~PfabricTcpDemux() override;

    /**
     * @brief Put a demux in front of the node's TCP, or find the one already there.
     * @param node a node with an Ipv4 stack and TcpL4Protocol
     * @return the node's demux (aggregated to the node)
     */
    static Ptr<PfabricTcpDemux> Install(Ptr<Node> node);

    /// @return connections in the table
    std::size_t GetNConnections() const;
    /// @return segments delivered through the table
    uint64_t GetTableDeliveries() const;
    /// @return segments passed to TcpL4Protocol
    uint64_t GetTcpDeliveries() const;

    int GetProtocolNumber() const override;
    RxStatus Receive(Ptr<Packet> p,
                     const Ipv4Header& header,
                     Ptr<Ipv4Interface> incomingInterface) override;
    RxStatus Receive(Ptr<Packet> p,
                     const Ipv6Header& header,
                     Ptr<Ipv6Interface> incomingInterface) override;
    void ReceiveIcmp(Ipv4Address icmpSource,
                     uint8_t icmpTtl,
                     uint8_t icmpType,
                     uint8_t icmpCode,
                     uint32_t icmpInfo,
                     Ipv4Address payloadSource,
                     Ipv4Address payloadDestination,
                     const uint8_t payload[8]) override;
    void ReceiveIcmp(Ipv6Address icmpSource,
                     uint8_t icmpTtl,
                     uint8_t icmpType,
                     uint8_t icmpCode,
                     uint32_t icmpInfo,
                     Ipv6Address payloadSource,
                     Ipv6Address payloadDestination,
                     const uint8_t payload[8]) override;
    void SetDownTarget(DownTargetCallback cb) override;
    void SetDownTarget6(DownTargetCallback6 cb) override;
    DownTargetCallback GetDownTarget() const override;
    DownTargetCallback6 GetDownTarget6() const override;

  protected:
    void DoDispose() override;

  private:
    /// The four numbers that name a connection, from the local host's side.
    struct Key
    {
        uint32_t localAddress; //!< local IPv4 address
        uint32_t peerAddress;  //!< peer IPv4 address
        uint16_t localPort;    //!< local port
        uint16_t peerPort;     //!< peer port

        /**
         * @param other another key
         * @return whether both name the same connection
         */
        bool operator==(const Key& other) const;
    };

    /// Hash of a Key.
    struct KeyHash
    {
        /**
         * @param key a key
         * @return its hash
         */
        std::size_t operator()(const Key& key) const;
    };

    /**
     * @param endPoint an endpoint (non-const: so are Ipv4EndPoint's getters)
     * @return the key of its connection
     */
    static Key KeyOf(Ipv4EndPoint& endPoint);

    /**
     * @brief File every waiting member whose endpoint now names both ends under its key.
     */
    void FileConnected();

    /**
     * @brief Forget a member.
     * @param connection the socket
     */
    void Remove(Connection* connection);

    Ptr<TcpL4Protocol> m_tcp; //!< the node's TCP, for everything not in the table
    std::unordered_map<Key, Connection*, KeyHash> m_connections; //!< by key
    std::unordered_map<Connection*, Key> m_keys;                 //!< key of each filed member
    std::unordered_set<Connection*> m_waiting;                   //!< members not (yet) filed
    uint64_t m_tableDeliveries; //!< segments delivered through the table
    uint64_t m_tcpDeliveries;   //!< segments passed to TcpL4Protocol
};

} // namespace ns3

#endif /* PFABRIC_TCP_DEMUX_H */
