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
#include <optional>
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
 * On the way down the demux is TCP's down target, in front of IPv4: a member that is sending a
 * segment gives the demux the segment's priority first (Connection::Stamp), and the demux puts
 * it in the segment's PfabricPriorityTag, and the connection's traffic class, if it has one
 * (SetTrafficClass), in its PfabricClassTag, before handing it to IPv4. This is the one place a
 * priority or a class is written into a packet, on the packet that travels (ns-3's TCP offers its
 * socket subclasses no hook between building a segment and sending it). Segments sent without a
 * stamp go down unchanged.
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
         * @brief Join this demux; a forked (accepted) socket joins its listener's.
         * @param demux the node's demux, or nullptr
         * @param hashTable whether arriving segments find the socket through the demux's table
         *        (else through ns-3's search); the demux stamps priorities either way
         */
        void SetDemux(Ptr<PfabricTcpDemux> demux, bool hashTable = true);

        /// @return whether the socket has a demux to stamp its segments' priorities
        bool HasDemux() const;

        /**
         * @brief The traffic class (PfabricClassTag) of the segments this connection sends from
         * now on, beside their priority. A connection has none until set; a forked (accepted)
         * one starts without.
         * @param trafficClass the class, 0 first
         */
        void SetTrafficClass(uint8_t trafficClass);

        /// @return the connection's traffic class, if it has one
        std::optional<uint8_t> GetTrafficClass() const;

      protected:
        /// @return the socket's IPv4 endpoint, nullptr when it has none
        virtual Ipv4EndPoint* GetDemuxEndPoint() const = 0;

        /**
         * @brief While a Stamp lives, the segment its socket hands to TCP's down target is
         * tagged with its priority (once: a second segment goes down unchanged).
         */
        class Stamp
        {
          public:
            /**
             * @param connection the sending socket (with a demux)
             * @param priority the priority of the segment it is about to send
             */
            Stamp(const Connection& connection, uint64_t priority);
            ~Stamp();
            Stamp(const Stamp&) = delete;
            Stamp& operator=(const Stamp&) = delete;

          private:
            PfabricTcpDemux* m_demux;            //!< the socket's demux
            bool m_outer;                        //!< an enclosing send's stamp was pending
            uint64_t m_outerPriority;            //!< and its priority
            std::optional<uint8_t> m_outerClass; //!< and its class
        };

      private:
        friend class PfabricTcpDemux;
        Ptr<PfabricTcpDemux> m_demux;          //!< where the socket is registered, if anywhere
        bool m_hashTable = true;               //!< found through the demux's table
        std::optional<uint8_t> m_trafficClass; //!< the class of its segments, if any
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

    /**
     * @brief TCP's down target: stamp the segment's priority if its socket gave one, then hand
     * the segment to IPv4.
     * @param packet the segment, TCP header included
     * @param source source address
     * @param destination destination address
     * @param protocol the protocol number (6)
     * @param route the route, if known
     */
    void SendDown(Ptr<Packet> packet,
                  Ipv4Address source,
                  Ipv4Address destination,
                  uint8_t protocol,
                  Ptr<Ipv4Route> route);

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

    Ptr<TcpL4Protocol> m_tcp;  //!< the node's TCP, for everything not in the table
    DownTargetCallback m_down; //!< IPv4's Send, TCP's down target before the demux took it
    bool m_stampPending;       //!< a socket gave the priority of the segment it is sending
    uint64_t m_stampPriority;  //!< that priority
    std::optional<uint8_t> m_stampClass; //!< and its class, if the socket has one
    std::unordered_map<Key, Connection*, KeyHash> m_connections; //!< by key
    std::unordered_map<Connection*, Key> m_keys;                 //!< key of each filed member
    std::unordered_set<Connection*> m_waiting;                   //!< members not (yet) filed
    uint64_t m_tableDeliveries; //!< segments delivered through the table
    uint64_t m_tcpDeliveries;   //!< segments passed to TcpL4Protocol
};

} // namespace ns3

#endif /* PFABRIC_TCP_DEMUX_H */
