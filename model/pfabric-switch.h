/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_SWITCH_H
#define PFABRIC_SWITCH_H

#include "pfabric-mode-attributes.h"
#include "pfabric-queue-disc-port.h"

#include "ns3/ipv4-header.h"
#include "ns3/net-device.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

class Node;
class Packet;
class TrafficControlLayer;

/**
 * @ingroup pfabric
 *
 * @brief A switch of a datacenter fabric whose addresses encode the host's position: picks the
 * port a packet leaves by in O(1), and (lean mode) forwards without an IP stack.
 *
 * Every host has the address 10.<pod>.<rack>.<host + 1>, so a switch finds the next hop from the
 * destination address and its own place in the fabric, with no table lookup:
 *
 * - a rack switch (fat-tree edge, leaf, the single switch) sends a packet for one of its own hosts
 *   down that host's port, anything else up;
 * - a pod switch (fat-tree aggregation, spine) sends a packet for its own pod down the port of the
 *   destination's rack, anything else up;
 * - a top switch (fat-tree core) sends every packet down the port of the destination's pod.
 *
 * "Up" means any of several equally short next hops; LoadBalancing picks one per packet:
 * Spray (round-robin over the up ports, per switch), Ecmp (hash of the 5-tuple, salted per
 * switch: one path per flow), Flowcell (as Ecmp, but a flow moves to the next up port after each
 * FlowcellBytes of IP bytes, Presto-style), or Random (uniform per packet). A port is the index
 * of a device on the switch's node (Node::GetDevice).
 *
 * The object is aggregated to the switch's node, and the fabric helpers configure it. It serves
 * both switch modes:
 * - lean (EnableLeanForwarding): the node has no IP stack. Every IPv4 packet a device of the node
 *   receives comes here; its IPv4 header is taken off into an Ipv4QueueDiscItem, as IP
 *   forwarding does, and the item goes to the chosen port's queue disc (any ns-3 QueueDisc),
 *   which schedules, drops and marks it with its usual accounting and traces and puts the
 *   header back on the wire. A PfabricQueueDiscPort drives the queue disc as the node's
 *   TrafficControlLayer would, without the layer's per-packet lookups.
 * - IP: the node has ns-3's internet stack, and its PfabricFabricRouting asks SelectPort() for
 *   every packet it forwards.
 * Both make the same choices from the same state, so a run gives the same results in either.
 */
class PfabricSwitch : public Object, public PfabricModeAttributes
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

    /// Where a switch sits in the fabric.
    enum Role
    {
        UNCONFIGURED, //!< not set up by a fabric helper yet
        RACK_SWITCH,  //!< connects hosts (edge, leaf, single switch)
        POD_SWITCH,   //!< connects the racks of one pod (aggregation, spine)
        TOP_SWITCH    //!< connects pods (core)
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricSwitch();
    ~PfabricSwitch() override;

    /// @return FlowcellBytes, unless LoadBalancing is Flowcell
    std::vector<std::pair<std::string, std::string>> GetAttributesItsModeIgnores() const override;

    /**
     * @brief Make this a rack switch.
     * @param pod its pod
     * @param rack its rack
     * @param hostPorts the port to each of its hosts, by host index
     * @param upPorts its ports towards the rest of the fabric (may be empty)
     */
    void SetRackSwitch(uint32_t pod,
                       uint32_t rack,
                       std::vector<uint32_t> hostPorts,
                       std::vector<uint32_t> upPorts);

    /**
     * @brief Make this a pod switch.
     * @param pod its pod
     * @param rackPorts the port to each rack switch of the pod, by rack index
     * @param upPorts its ports towards other pods (may be empty)
     */
    void SetPodSwitch(uint32_t pod, std::vector<uint32_t> rackPorts, std::vector<uint32_t> upPorts);

    /**
     * @brief Make this a top switch.
     * @param podPorts the port to each pod, by pod index
     */
    void SetTopSwitch(std::vector<uint32_t> podPorts);

    /// @return this switch's role
    Role GetRole() const;

    /**
     * @brief Forward every IPv4 packet the node's devices receive, without an IP stack (lean
     * mode). The node must have a TrafficControlLayer and no Ipv4; its devices, all added by
     * now, become the ports: their receive callback is this switch (protocol handlers
     * registered on the node see nothing of them).
     */
    void EnableLeanForwarding();

    /**
     * @brief Choose the port a packet leaves by, and fire Forward.
     * @param p the packet after its IPv4 header, i.e. starting with the transport header
     * @param header its IPv4 header
     * @return the port, or -1 if this switch has no way to the destination
     */
    int64_t SelectPort(Ptr<const Packet> p, const Ipv4Header& header);

    /**
     * @brief Assign fixed random variable streams (Random load balancing).
     * @param stream first stream index to use
     * @return the number of stream indices assigned (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * TracedCallback signature for a forwarding decision.
     * @param [in] packet the packet, after its IPv4 header
     * @param [in] header its IPv4 header
     * @param [in] port the port it leaves by
     */
    typedef void (*ForwardTracedCallback)(Ptr<const Packet> packet,
                                          const Ipv4Header& header,
                                          uint32_t port);

    /**
     * TracedCallback signature for a packet dropped for want of a route.
     * @param [in] packet the packet, after its IPv4 header
     * @param [in] header its IPv4 header
     */
    typedef void (*NoRouteTracedCallback)(Ptr<const Packet> packet, const Ipv4Header& header);

  protected:
    void NotifyNewAggregate() override;
    void DoDispose() override;

  private:
    /// A flow's place in its current flowcell.
    struct Flowcell
    {
        uint32_t path;  //!< index into m_up
        uint64_t bytes; //!< IP bytes of the flow sent in the current cell
    };

    /**
     * @brief Lean mode: forward a packet a port received (the port's receive callback).
     * @param device the device it arrived on
     * @param packet the packet, starting with its IPv4 header
     * @param protocol its protocol number (only IPv4 is forwarded)
     * @param from the sender's link address
     * @return true if the packet was IPv4
     */
    bool Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from);

    /**
     * @param p a packet whose transport header is at its start
     * @param header its IPv4 header
     * @return a hash of its 5-tuple, salted with this node's id (m_salt)
     */
    uint64_t FlowHash(Ptr<const Packet> p, const Ipv4Header& header) const;

    /**
     * @param p the packet
     * @param header its IPv4 header
     * @return the port a packet for another place in the fabric leaves by
     */
    uint32_t PickUp(Ptr<const Packet> p, const Ipv4Header& header);

    Ptr<Node> m_node;                                   //!< the node this switch is aggregated to
    std::vector<PfabricQueueDiscPort> m_ports;          //!< lean mode: the ports, by device index
    Role m_role;                                        //!< where this switch sits
    uint32_t m_pod;                                     //!< its pod (rack and pod switches)
    uint32_t m_rack;                                    //!< its rack (rack switches)
    std::vector<uint32_t> m_down;                       //!< down ports: by host, rack or pod
    std::vector<uint32_t> m_up;                         //!< equally good up ports
    LoadBalancing m_loadBalancing;                      //!< how an up port is chosen
    uint64_t m_flowcellBytes;                           //!< Flowcell: IP bytes per cell
    uint32_t m_nextUp;                                  //!< Spray: the next up port
    uint64_t m_salt;                                    //!< Ecmp, Flowcell: the mixed node id
    std::unordered_map<uint64_t, Flowcell> m_flowcells; //!< Flowcell: state per flow hash
    Ptr<UniformRandomVariable> m_random;                //!< Random: the generator
    bool m_checksum; //!< ns-3's ChecksumEnabled when made: the IPv4 header's checksum is written
    TracedCallback<Ptr<const Packet>, const Ipv4Header&, uint32_t> m_forwardTrace; //!< Forward
    TracedCallback<Ptr<const Packet>, const Ipv4Header&> m_noRouteTrace;           //!< NoRoute
};

} // namespace ns3

#endif /* PFABRIC_SWITCH_H */
