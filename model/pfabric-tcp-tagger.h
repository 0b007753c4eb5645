/*
 * Copyright (c) 2026 The pfabric authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_TCP_TAGGER_H
#define PFABRIC_TCP_TAGGER_H

#include "ns3/ip-l4-protocol.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <optional>

namespace ns3
{

class Node;

/**
 * @ingroup pfabric
 * @brief Writes the priority (PfabricPriorityTag) and traffic class (PfabricClassTag) that a
 * sending socket gives into the segment it sends, on its way from the node's TcpL4Protocol to
 * IPv4.
 *
 * ns-3's TCP offers its socket subclasses no hook between building a segment and sending it,
 * and an observer must not write into a packet it sees through a const pointer. So the tagger
 * takes the place of TCP's down target (IPv4's Send): a socket that is about to send a segment
 * opens a Stamp with the segment's priority and its connection's class; the next segment TCP
 * hands down is tagged with them (once: a second segment in the same Stamp goes down unchanged)
 * and passed to IPv4. Segments sent without a Stamp go down unchanged. This is the one place a
 * priority or a class is written into a packet of ns-3's TCP, on the packet that travels.
 *
 * Finding the socket of an arriving segment is another job: PfabricTcpDemux.
 */
class PfabricTcpTagger : public Object
{
  public:
    /**
     * @brief While a Stamp lives, the segment TCP hands to its down target is tagged.
     *
     * Stamps nest (a send inside a send, e.g. an ACK sent while a segment is being built): the
     * inner one is in force until it ends, then the outer one again.
     */
    class Stamp
    {
      public:
        /**
         * @param tagger the sending node's tagger
         * @param priority the priority of the segment about to be sent
         * @param trafficClass its connection's class, if it has one
         */
        Stamp(PfabricTcpTagger& tagger, uint64_t priority, std::optional<uint8_t> trafficClass);
        ~Stamp();
        Stamp(const Stamp&) = delete;
        Stamp& operator=(const Stamp&) = delete;

      private:
        PfabricTcpTagger& m_tagger;          //!< the node's tagger
        bool m_outer;                        //!< an enclosing send's stamp was pending
        uint64_t m_outerPriority;            //!< and its priority
        std::optional<uint8_t> m_outerClass; //!< and its class
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricTcpTagger();
    ~PfabricTcpTagger() override;

    /**
     * @brief Make the tagger TCP's down target, in front of IPv4, or find the one already there.
     * @param node a node with an Ipv4 stack and TcpL4Protocol
     * @return the node's tagger (aggregated to the node)
     */
    static Ptr<PfabricTcpTagger> Install(Ptr<Node> node);

    /**
     * @brief TCP's down target: tag the segment if a Stamp is pending, then hand it to IPv4.
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

  protected:
    void DoDispose() override;

  private:
    IpL4Protocol::DownTargetCallback m_down; //!< IPv4's Send, TCP's down target before
    bool m_pending;                          //!< a socket gave the priority of its next segment
    uint64_t m_priority;                     //!< that priority
    std::optional<uint8_t> m_class;          //!< and its class, if the socket has one
};

} // namespace ns3

#endif /* PFABRIC_TCP_TAGGER_H */
