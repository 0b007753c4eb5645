/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_FABRIC_ROUTING_H
#define PFABRIC_FABRIC_ROUTING_H

#include "pfabric-compat.h"

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-route.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

class Ipv4;

/**
 * @ingroup pfabric
 *
 * @brief O(1) forwarding in a datacenter fabric whose addresses encode the host's position.
 *
 * Every host has the address 10.<pod>.<rack>.<host + 1>, so a switch finds the next hop from the
 * destination address and its own place in the fabric, with no table lookup:
 *
 * - a rack switch (fat-tree edge, leaf, the single switch) sends a packet for one of its own hosts
 *   down that host's port, anything else up;
 * - a pod switch (fat-tree aggregation, spine) sends a packet for its own pod down the port of the
 *   destination's rack, anything else up;
 * - a top switch (fat-tree core) sends every packet down the port of the destination's pod;
 * - a host sends everything through its one interface and delivers what is addressed to it.
 *
 * "Up" means any of several equally short next hops; LoadBalancing picks one per packet:
 * Spray (round-robin over the up ports, per switch), Ecmp (hash of the 5-tuple, salted per
 * switch: one path per flow), Flowcell (as Ecmp, but a flow moves to the next up port after each
 * FlowcellBytes of IP bytes, Presto-style), or Random (uniform per packet). The fabric helpers
 * configure every node; this protocol knows nothing of topologies.
 */
class PfabricFabricRouting : public pfabric::Ipv4RoutingProtocolCompat
{
  public:
    /// How a switch picks one of its up ports.
    enum LoadBalancing
    {
        SPRAY,    //!< per-packet round-robin over the up ports (the pFabric paper's default)
        ECMP,     //!< a 5-tuple hash: one path per flow
        FLOWCELL, //!< a flow changes path after every FlowcellBytes (Presto)
        RANDOM    //!< uniform per packet (what ns-3's global routing offers)
    };

    /// Where a node sits in the fabric.
    enum Role
    {
        UNCONFIGURED, //!< not set up by a fabric helper yet
        HOST,         //!< an end host
        RACK_SWITCH,  //!< connects hosts (edge, leaf, single switch)
        POD_SWITCH,   //!< connects the racks of one pod (aggregation, spine)
        TOP_SWITCH    //!< connects pods (core)
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricFabricRouting();
    ~PfabricFabricRouting() override;

    /**
     * @param pod the host's pod (0 to 255)
     * @param rack the host's rack in its pod (0 to 255)
     * @param host the host's index in its rack (0 to 253)
     * @return the host's address, 10.pod.rack.(host + 1)
     */
    static Ipv4Address HostAddress(uint32_t pod, uint32_t rack, uint32_t host);

    /**
     * @brief Make this node a host.
     * @param address its address (HostAddress)
     * @param interface its interface into the fabric
     */
    void SetHost(Ipv4Address address, uint32_t interface);

    /**
     * @brief Make this node a rack switch.
     * @param pod its pod
     * @param rack its rack
     * @param hostInterfaces the interface to each of its hosts, by host index
     * @param upInterfaces its interfaces towards the rest of the fabric (may be empty)
     */
    void SetRackSwitch(uint32_t pod,
                       uint32_t rack,
                       std::vector<uint32_t> hostInterfaces,
                       std::vector<uint32_t> upInterfaces);

    /**
     * @brief Make this node a pod switch.
     * @param pod its pod
     * @param rackInterfaces the interface to each rack switch of the pod, by rack index
     * @param upInterfaces its interfaces towards other pods (may be empty)
     */
    void SetPodSwitch(uint32_t pod,
                      std::vector<uint32_t> rackInterfaces,
                      std::vector<uint32_t> upInterfaces);

    /**
     * @brief Make this node a top switch.
     * @param podInterfaces the interface to each pod, by pod index
     */
    void SetTopSwitch(std::vector<uint32_t> podInterfaces);

    /// @return this node's role
    Role GetRole() const;

    /**
     * @brief Assign fixed random variable streams (Random load balancing).
     * @param stream first stream index to use
     * @return the number of stream indices assigned (1)
     */
    int64_t AssignStreams(int64_t stream);

    Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p,
                               const Ipv4Header& header,
                               Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr) override;
    void NotifyInterfaceUp(uint32_t interface) override;
    void NotifyInterfaceDown(uint32_t interface) override;
    void NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void SetIpv4(Ptr<Ipv4> ipv4) override;
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit unit) const override;

    /**
     * TracedCallback signature for a forwarding decision.
     * @param [in] packet the packet
     * @param [in] header its IPv4 header
     * @param [in] interface the interface it leaves by
     */
    typedef void (*ForwardTracedCallback)(Ptr<const Packet> packet,
                                          const Ipv4Header& header,
                                          uint32_t interface);

  protected:
    bool DoRouteInput(Ptr<const Packet> p,
                      const Ipv4Header& header,
                      Ptr<const NetDevice> idev,
                      const UnicastForwardCallback& ucb,
                      const MulticastForwardCallback& mcb,
                      const LocalDeliverCallback& lcb,
                      const ErrorCallback& ecb) override;
    void DoDispose() override;

  private:
    /// A flow's place in its current flowcell.
    struct Flowcell
    {
        uint32_t path;  //!< index into m_up
        uint64_t bytes; //!< IP bytes of the flow sent in the current cell
    };

    /**
     * @param p a packet whose transport header is at its start
     * @param header its IPv4 header
     * @return a hash of its 5-tuple, salted with this node's id (m_salt)
     */
    uint64_t FlowHash(Ptr<const Packet> p, const Ipv4Header& header) const;

    /**
     * @param p the packet
     * @param header its IPv4 header
     * @return the interface a packet for another place in the fabric leaves by
     */
    uint32_t PickUp(Ptr<const Packet> p, const Ipv4Header& header);

    /**
     * @param p a packet whose transport header is at its start
     * @param header its IPv4 header
     * @return the interface it leaves by, or -1 if this node has no route for it
     */
    int64_t NextInterface(Ptr<const Packet> p, const Ipv4Header& header);

    /**
     * @param interface an interface
     * @return a route out of it, made once
     */
    Ptr<Ipv4Route> RouteVia(uint32_t interface);

    Ptr<Ipv4> m_ipv4;                     //!< this node's IPv4 stack
    Role m_role;                          //!< where this node sits
    uint32_t m_pod;                       //!< its pod (switches and hosts)
    uint32_t m_rack;                      //!< its rack (rack switches and hosts)
    Ipv4Address m_address;                //!< a host's address
    std::vector<uint32_t> m_down;         //!< down interfaces: by host, rack or pod
    std::vector<uint32_t> m_up;           //!< equally good up interfaces
    std::vector<Ptr<Ipv4Route>> m_routes; //!< one route per interface, made on first use
    LoadBalancing m_loadBalancing;        //!< how an up port is chosen
    uint64_t m_flowcellBytes;             //!< Flowcell: IP bytes per cell
    uint32_t m_nextUp;                    //!< Spray: the next up port
    uint64_t m_salt;                      //!< Ecmp, Flowcell: the mixed node id
    std::unordered_map<uint64_t, Flowcell> m_flowcells; //!< Flowcell: state per flow hash
    Ptr<UniformRandomVariable> m_random;                //!< Random: the generator
    TracedCallback<Ptr<const Packet>, const Ipv4Header&, uint32_t> m_forwardTrace; //!< Forward
};

} // namespace ns3

#endif /* PFABRIC_FABRIC_ROUTING_H */
