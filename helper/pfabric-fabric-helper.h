/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_FABRIC_HELPER_H
#define PFABRIC_FABRIC_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/pfabric-fabric-routing-helper.h"
#include "ns3/pfabric-preset.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

class PfabricSwitch;

/**
 * @ingroup pfabric
 *
 * @brief What every fabric helper shares: links, addresses, switches, and the idle-fabric timing.
 *
 * A subclass (PfabricFatTreeHelper, PfabricLeafSpineHelper, PfabricSingleSwitchHelper) lays out
 * nodes and links in DoBuild() with AddHost(), AddSwitch() and Connect(), and tells how many links
 * separate two hosts. Build() then has a complete fabric: links (host links at the host rate with
 * the link delay plus the host delay, switch-to-switch links at the fabric rate;
 * PfabricLinkNetDevice or, SetLinkType, ns-3's point-to-point devices), hosts with ns-3's internet
 * stack and PfabricFabricRouting at addresses 10.<pod>.<rack>.<host + 1>, and a PfabricSwitch on
 * every switch. No queue disc is installed: the transport schemes install theirs on GetDevices().
 *
 * Switches come in two modes (SetSwitchMode), which give the same results:
 * - LEAN (the default): a switch has no IP stack, only a TrafficControlLayer for its ports'
 *   queue discs; its PfabricSwitch takes every packet from the devices and hands it to the
 *   chosen port's queue disc.
 * - IP: a switch has ns-3's whole internet stack, and every packet crosses
 *   TrafficControlLayer::Receive, Ipv4L3Protocol (Receive, routing, IpForward) and Ipv4Interface
 *   on its way to the queue disc; PfabricFabricRouting asks the PfabricSwitch for the port. The
 *   reference for the lean switch, and the way to use ns-3's IP features at switches.
 *
 * Hosts are numbered in the order the subclass adds them (pod, then rack, then host): that index
 * is what workloads and flow files use.
 *
 * Idle-fabric timing (GetIdealFct): a flow of n payload bytes is ceil(n / Mss) packets, each of
 * Mss payload bytes but the last, plus HeaderBytes of TCP/IP headers and LinkHeaderBytes of
 * framing on the wire. Every link stores and forwards whole packets: packet n leaves link k at
 * a(n, k) = s(n, k) + max(a(n - 1, k), a(n, k - 1)), where s is its serialisation time on the
 * link, and the last packet arrives at a(packets, last link) plus the propagation delays; then
 * the ACK (AckBytes) returns over the same links. The base RTT (GetBaseRtt) is the ideal FCT of
 * one full packet.
 */
class PfabricFabricHelper
{
  public:
    /// Rates, delays, packet sizes and load balancing of the hotnets12 preset (SetPreset).
    PfabricFabricHelper();
    virtual ~PfabricFabricHelper();

    /**
     * @brief Take rates, delays, packet sizes and load balancing from a preset.
     *
     * The rates, delays and packet sizes are this helper's settings (a later SetHostLinkRate,
     * SetPacketSizes, ... replaces them); the load balancing is the switches' LoadBalancing
     * attribute, with the precedence of doc/pfabric.rst, "Presets" (PfabricPresetAttributes).
     * @param name hotnets12 or sigcomm13 (PfabricPreset)
     */
    void SetPreset(const std::string& name);

    /// @param rate the rate of host links
    void SetHostLinkRate(DataRate rate);
    /// @param rate the rate of switch-to-switch links
    void SetFabricLinkRate(DataRate rate);
    /// @param delay the propagation delay of every link
    void SetLinkDelay(Time delay);
    /// @param delay extra delay on host links (the host stack and NIC)
    void SetHostDelay(Time delay);
    /**
     * @brief Set the packet sizes that GetIdealFct() assumes.
     * @param mss payload bytes of a full packet
     * @param headerBytes TCP/IP header bytes of a data packet
     * @param ackBytes IP bytes of an ACK
     * @param linkHeaderBytes framing bytes the link serialises with each packet (the
     *        PfabricLinkNetDevice's FramingBytes; point-to-point links add 2 and nothing else)
     */
    void SetPacketSizes(uint32_t mss,
                        uint32_t headerBytes,
                        uint32_t ackBytes,
                        uint32_t linkHeaderBytes);
    /**
     * @brief Set an attribute of every switch's PfabricSwitch, e.g. "LoadBalancing" (precedence:
     * doc/pfabric.rst, "Presets").
     * @param name the attribute name
     * @param value its value
     */
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);

    /// How switches forward.
    enum SwitchMode
    {
        LEAN, //!< without an IP stack: PfabricSwitch hands packets to the port's queue disc
        IP    //!< through ns-3's internet stack, routed by PfabricFabricRouting
    };

    /// @param mode how switches forward (before Build; default LEAN)
    void SetSwitchMode(SwitchMode mode);
    /// @return how switches forward
    SwitchMode GetSwitchMode() const;

    /// What carries a host's flows.
    enum HostStack
    {
        NS3_TCP,  //!< ns-3's internet stack and TCP (PfabricTcpSocket): every scheme
        LEAN_HOST //!< no IP stack, PfabricHostTransport: every scheme's senders
    };

    /// @param stack the hosts' stack (before Build; default NS3_TCP)
    void SetHostStack(HostStack stack);
    /// @return the hosts' stack
    HostStack GetHostStack() const;

    /// What joins two nodes.
    enum LinkType
    {
        PFABRIC_LINK,       //!< PfabricLinkNetDevice: only the packet on the wire is past the
                            //!< queue disc; one or two events per packet hop
        POINT_TO_POINT_LINK //!< ns-3's PointToPointNetDevice (a one-packet device queue under
                            //!< the queue disc; three events per hop); the reference
    };

    /// @param type what joins two nodes (before Build; default PFABRIC_LINK)
    void SetLinkType(LinkType type);
    /// @return what joins two nodes
    LinkType GetLinkType() const;

    /**
     * @brief The attributes the fabric sets itself on every link of its link type (rate, delay,
     * framing) whose ns-3 default has been changed (Config::SetDefault: a --ns3::Type::Name
     * path, NS_ATTRIBUTE_DEFAULT). Such a default never reaches a link, so a run would record it
     * in meta.json and not have it; a program refuses it (the fabric's own options and the
     * preset say what the links are).
     * @return their attribute paths, e.g. ns3::PfabricLinkNetDevice::DataRate; none: empty
     */
    std::vector<std::string> GetLinkDefaultsItOverrides() const;

    /**
     * @brief A configured default of a net device or channel type the fabric never creates:
     * ns3::PointToPointNetDevice::Mtu under PFABRIC_LINK, any of ns3::CsmaNetDevice's. The
     * fabric creates its link type's device and channel, and a loopback device on each node
     * with an IP stack. Such a default changes nothing; a program refuses it.
     * @param why set to why it changes nothing, when one is found
     * @return its attribute path; none: empty
     */
    std::string FindUnusedLinkTypeDefault(std::string* why) const;

    /**
     * @brief The defaults of ns-3's IP stack that have been configured (a --ns3::Type::Name
     * path, NS_ATTRIBUTE_DEFAULT) when no node of the fabric will have that stack: lean hosts
     * (LEAN_HOST) and lean switches (LEAN). The types are what InternetStackHelper::Install
     * builds on a node besides traffic control and TCP (IPv4 and IPv6 with ARP, ICMP, UDP,
     * their interfaces, caches and IPv6 routing), and the parents that declare their
     * attributes. Such a default reaches no object, so a run would record it in meta.json and
     * not have it; a program refuses it. TCP's own types are the socket factory's to judge
     * (PfabricTcpSocketFactory::FindSettingEverySocketLoses).
     * @return their attribute paths, e.g. ns3::Ipv4L3Protocol::DefaultTtl; none, or a node with
     *         an IP stack: empty
     */
    std::vector<std::string> GetIpDefaultsNoNodeHas() const;

    /**
     * @brief The configured defaults of the TTL (IPv4's DefaultTtl, IPv6's hop limit) when
     * one side of the fabric has ns-3's IP stack and the other is lean: only hosts of ns-3's
     * TCP/IP (NS3_TCP) write it and only IP switches (IP) read it, so with lean switches (LEAN)
     * or lean hosts (LEAN_HOST, which write a TTL of their own) a run would record it and
     * forward as without it (a TTL of 1 drops every packet at an IP switch). With both lean,
     * GetIpDefaultsNoNodeHas names it.
     * @return their attribute paths, e.g. ns3::Ipv4L3Protocol::DefaultTtl; none: empty
     */
    std::vector<std::string> GetTtlDefaultsNothingReads() const;

    /**
     * @brief A value of ns-3's IP stack, read from the built fabric, that keeps data packets
     * from crossing it: on a node with ns-3's IP stack (hosts of NS3_TCP, switches of IP), a
     * device's MTU below a full segment with its TCP/IP headers (ns-3 fragments every segment,
     * or, below the IP header, sends nothing), and, with IP hosts and IP switches, a TTL
     * (Ipv4L3Protocol::DefaultTtl, which the hosts write) that the switches of the fabric's
     * longest path count down to 0. A run would go on to its safety limit with the flows
     * unfinished; a program refuses it before the run.
     * @param[out] why why, with the least value that carries packets
     * @return its attribute path, e.g. ns3::PfabricLinkNetDevice::Mtu; "": none
     */
    std::string FindIpSettingNoPacketCrosses(std::string* why) const;

    /**
     * @brief A configured default (a --ns3::Type::Name path, NS_ATTRIBUTE_DEFAULT) of a part of
     * ns-3's IP stack that no fabric of this helper builds or reads, whatever its host stack and
     * switch mode: IP forwarding (PfabricFabricRouting forwards at every switch and at no host),
     * ARP (no device of the fabric resolves addresses: neither the module's links nor ns-3's
     * point-to-point ones) and ns-3's global routing (never built: PfabricFabricRouting routes
     * every packet). A run would record it in meta.json and not have it; a program refuses it.
     * @param[out] why why it changes nothing
     * @return its attribute path, e.g. ns3::ArpCache::AliveTimeout; "": none
     */
    static std::string FindIpDefaultNoFabricReads(std::string* why);

    /**
     * @brief A configured default of ns-3's ARP (ArpCache, ArpL3Protocol): no device of a fabric
     * of this helper, nor any of ns-3's point-to-point devices, resolves addresses
     * (FindIpDefaultNoFabricReads names it among the others).
     * @param[out] why why it changes nothing
     * @return its attribute path, e.g. ns3::ArpCache::AliveTimeout; "": none
     */
    static std::string FindArpDefault(std::string* why);

    /**
     * @brief A program's refusal of a default FindIpDefaultNoFabricReads or FindArpDefault found,
     * one line.
     * @param given how it was set, as typed (PfabricCommandLine::DescribeNs3Setting)
     * @param path its attribute path
     * @param why why it changes nothing, as the finder gave it
     * @return the line
     */
    static std::string RefuseUnreadIpDefault(const std::string& given,
                                             const std::string& path,
                                             const std::string& why);

    /**
     * @brief A program's refusal of a default of GetLinkDefaultsItOverrides, one line.
     * @param given how it was set, as typed (PfabricCommandLine::DescribeNs3Setting); "": the
     *        path names it
     * @param path its attribute path
     * @param links what sets the links in the program, e.g. "the scenario's links are fixed"
     * @return e.g. "--ns3::PfabricLinkNetDevice::DataRate=1Gbps: the fabric sets
     *         ns3::PfabricLinkNetDevice::DataRate on every link itself, so ns-3's default never
     *         reaches a link (the scenario's links are fixed); leave it unset"
     */
    static std::string RefuseLinkDefault(const std::string& given,
                                         const std::string& path,
                                         const std::string& links);

    /**
     * @brief Fix the random streams of the switches (Random load balancing).
     * @param stream the first stream index
     * @return the number of streams assigned (one per switch)
     */
    int64_t AssignStreams(int64_t stream);

    /// @brief Create the fabric; stops with a message if a parameter is invalid.
    void Build();

    /// @return the hosts, in host-index order
    NodeContainer GetHosts() const;
    /// @return the switches
    NodeContainer GetSwitches() const;
    /// @return every network device of the fabric, host NICs included
    NetDeviceContainer GetDevices() const;
    /**
     * @brief Count the packets that the devices have started to transmit.
     *
     * A PfabricLinkNetDevice counts them; every transmission of a PointToPointNetDevice leaves
     * its transmit queue, so there it is what entered the queue minus what is still in it. The
     * packet hops of a run, with no callback on the per-packet path (a PhyTxBegin sink added
     * 0.6% to the instructions of a web search run).
     *
     * @param devices devices of either link type (any other kind is a configuration error)
     * @return transmissions started since the devices were created
     */
    static uint64_t CountTransmissions(const NetDeviceContainer& devices);
    /// @return the number of hosts
    uint32_t GetNHosts() const;
    /// @return the number of links
    uint32_t GetNLinks() const;
    /// @return the rate of host links
    DataRate GetHostLinkRate() const;
    /// @return the switch-to-switch link rate
    DataRate GetFabricLinkRate() const;
    /// @return the propagation delay of every link
    Time GetLinkDelay() const;
    /// @return the extra delay of host links
    Time GetHostDelay() const;
    /// @return payload bytes of a full packet (SetPacketSizes)
    uint32_t GetMss() const;
    /// @return the bytes a data packet carries on the wire beyond its payload (headers, framing)
    uint32_t GetPacketOverheadBytes() const;

    /**
     * @param host a host index
     * @return its address
     */
    Ipv4Address GetHostAddress(uint32_t host) const;
    /**
     * @param host a host index
     * @return its pod
     */
    uint32_t GetPod(uint32_t host) const;
    /**
     * @param host a host index
     * @return its rack within its pod
     */
    uint32_t GetRack(uint32_t host) const;
    /**
     * @param from a host index
     * @param to another host index
     * @return the number of links a packet crosses from one to the other
     */
    uint32_t GetHopCount(uint32_t from, uint32_t to) const;

    /// @return the switches on the fabric's longest host-to-host path (GetHopCount less one;
    /// 0 with one host): what a TTL must outlast
    uint32_t GetLongestPathSwitches() const;
    /**
     * @param bytes a flow's payload bytes
     * @return the data packets that carry it (at least one: an empty flow still sends one)
     */
    uint64_t GetPacketCount(uint64_t bytes) const;
    /**
     * @brief What a flow costs the simulator at least: the transmissions of its data packets and
     * of an ACK for each (the module's sockets acknowledge every segment), on every link of the
     * path, without losses, retransmissions or a handshake. The unit of the experiment's
     * packet_hops.
     * @param from the sending host
     * @param to the receiving host
     * @param bytes the flow's payload bytes
     * @return packet transmissions
     */
    uint64_t GetPacketHops(uint32_t from, uint32_t to, uint64_t bytes) const;
    /// @return the mean of GetHopCount over every ordered pair of distinct hosts
    double GetMeanHopCount() const;
    /**
     * @param from a host index
     * @param to another host index
     * @return one full packet there and its ACK back in the idle fabric
     */
    Time GetBaseRtt(uint32_t from, uint32_t to) const;
    /**
     * @param from the sending host
     * @param to the receiving host
     * @param bytes the flow's payload bytes
     * @return the flow's completion time alone in the idle fabric, ACK included
     */
    Time GetIdealFct(uint32_t from, uint32_t to, uint64_t bytes) const;
    /**
     * @brief The ideal completion time of an incast: every sender hands a flow of the same size
     * to the same receiver at the same moment, and the last of them completes.
     *
     * The receiver's host link must carry every flow's packets; at best it starts with the
     * first packet of the nearest sender and never idles until the last packet has crossed it.
     * So the ideal is the fastest sender's lone-flow time (GetIdealFct, which counts one flow's
     * packets on that link, the path's store-and-forward and propagation, and the last ACK's
     * return) plus the other senders' flows serialised on the receiver's link. It is a lower
     * bound, reached when the receiver's link is the slowest on every path (as in every fabric
     * of this module: host links are never faster than fabric links) and the nearest sender's
     * flow is served last; otherwise it is short of the achievable time by at most the
     * difference of two paths' base RTTs. A sender's own link carries only its own flows, never
     * more than the receiver's, so it adds nothing.
     *
     * @param senders the sending host of every flow (a host may send several)
     * @param to the receiving host
     * @param bytes every flow's payload bytes
     * @return the time from the common start to the last flow's last ACK, in the idle fabric
     */
    Time GetIdealIncastTime(const std::vector<uint32_t>& senders,
                            uint32_t to,
                            uint64_t bytes) const;
    /**
     * @param bytes a flow's payload bytes
     * @return the time a host link takes to serialise the flow's packets, headers and framing
     *         included
     */
    Time GetHostLinkSerialisation(uint64_t bytes) const;

    /**
     * @brief What is wrong with the shape, checked without building anything.
     * @return one line naming the parameter, or "" if the shape is valid
     */
    virtual std::string GetShapeError() const = 0;

  protected:
    /// @brief Add the nodes and links (AddHost, AddSwitch, Connect) and configure the switches.
    virtual void DoBuild() = 0;
    /**
     * @param from a host index
     * @param to another host index, not equal
     * @return the number of links between them
     */
    virtual uint32_t DoGetHopCount(uint32_t from, uint32_t to) const = 0;

    /**
     * @brief Add a host; its index is the number of hosts added before it.
     * @param pod its pod
     * @param rack its rack in the pod
     * @param host its index in the rack
     * @return the node
     */
    Ptr<Node> AddHost(uint32_t pod, uint32_t rack, uint32_t host);
    /// @return a new switch
    Ptr<Node> AddSwitch();
    /**
     * @brief Link two nodes (a host link if either is a host).
     * @param a a node
     * @param b another node
     * @return the port of the link on a and on b: its device index on each node
     */
    std::pair<uint32_t, uint32_t> Connect(Ptr<Node> a, Ptr<Node> b);
    /**
     * @param node a switch of this fabric
     * @return its PfabricSwitch
     */
    static Ptr<PfabricSwitch> SwitchOf(Ptr<Node> node);

  private:
    DataRate m_hostLinkRate;                             //!< host link rate
    DataRate m_fabricLinkRate;                           //!< switch-to-switch link rate
    Time m_linkDelay;                                    //!< propagation delay of every link
    Time m_hostDelay;                                    //!< extra delay of host links
    uint32_t m_mss;                                      //!< payload bytes of a full packet
    uint32_t m_headerBytes;                              //!< TCP/IP header bytes
    uint32_t m_ackBytes;                                 //!< IP bytes of an ACK
    uint32_t m_linkHeaderBytes;                          //!< framing bytes per packet
    PfabricFabricRoutingHelper m_routing;                //!< creates the IP nodes' routing
    ObjectFactory m_switchFactory;                       //!< creates every PfabricSwitch
    PfabricPresetAttributes m_switchAttributes;          //!< the switches' attributes
    SwitchMode m_switchMode;                             //!< how switches forward
    HostStack m_hostStack;                               //!< what carries the hosts' flows
    LinkType m_linkType;                                 //!< what joins two nodes
    NodeContainer m_hosts;                               //!< hosts, by index
    NodeContainer m_switches;                            //!< switches
    NetDeviceContainer m_devices;                        //!< every device
    std::vector<Ipv4Address> m_addresses;                //!< host addresses, by index
    std::unordered_map<uint32_t, uint32_t> m_hostOfNode; //!< host index by node id
    bool m_built;                                        //!< Build() has run
};

} // namespace ns3

#endif /* PFABRIC_FABRIC_HELPER_H */
