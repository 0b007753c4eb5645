/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The fabric helpers, PfabricSwitch and PfabricFabricRouting: shapes, reachability, load
// balancing, and the documented idle-fabric timing against what the simulator does, with lean
// and with IP switches; both modes make the same forwarding decisions.

#include "pfabric-test-cases.h"

#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/config.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pfabric-fat-tree-helper.h"
#include "ns3/pfabric-leaf-spine-helper.h"
#include "ns3/pfabric-single-switch-helper.h"
#include "ns3/pfabric-switch.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <vector>

namespace ns3
{
namespace pfabric
{
namespace tests
{
namespace
{

/// UDP payload that makes a 1500-byte IP packet, and one that makes a 40-byte "ACK".
constexpr uint32_t FULL_PAYLOAD = 1472;
constexpr uint32_t ACK_PAYLOAD = 12;
constexpr uint16_t PORT = 9;

/// What arrived where.
struct Deliveries
{
    std::map<uint32_t, std::vector<Ipv4Address>> sourcesAt; //!< sources heard, by host index
};

/**
 * @brief Receive callback: note the source of every packet.
 * @param deliveries where to note it
 * @param host the receiving host index
 * @param socket the socket
 */
void
NoteSources(Deliveries* deliveries, uint32_t host, Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> packet = socket->RecvFrom(from))
    {
        deliveries->sourcesAt[host].push_back(InetSocketAddress::ConvertFrom(from).GetIpv4());
    }
}

/**
 * @brief Open a UDP socket on every host, noting what arrives.
 * @param fabric a built fabric
 * @param deliveries where to note arrivals
 */
void
ListenEverywhere(const PfabricFabricHelper& fabric, Deliveries* deliveries)
{
    for (uint32_t host = 0; host < fabric.GetNHosts(); ++host)
    {
        Ptr<Socket> sink =
            Socket::CreateSocket(fabric.GetHosts().Get(host), UdpSocketFactory::GetTypeId());
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), PORT));
        sink->SetRecvCallback(MakeBoundCallback(&NoteSources, deliveries, host));
    }
}

/**
 * @brief Send packets from one host to another now.
 * @param source a socket of the sender
 * @param to the destination
 * @param count how many
 * @param payload UDP payload bytes each
 */
void
SendPackets(Ptr<Socket> source, Ipv4Address to, uint32_t count, uint32_t payload)
{
    for (uint32_t i = 0; i < count; ++i)
    {
        source->SendTo(Create<Packet>(payload), 0, InetSocketAddress(to, PORT));
    }
}

/**
 * @brief Schedule packets one microsecond apart, so that none waits long at the sender's NIC.
 * @param source a socket of the sender
 * @param to the destination
 * @param count how many
 * @param payload UDP payload bytes each
 */
void
SendPaced(Ptr<Socket> source, Ipv4Address to, uint32_t count, uint32_t payload)
{
    for (uint32_t i = 0; i < count; ++i)
    {
        Simulator::Schedule(MicroSeconds(1 + i), &SendPackets, source, to, 1, payload);
    }
}

/**
 * @param fabric a built fabric
 * @param host a host index
 * @param sourcePort local port, or 0 for any
 * @return a UDP socket on that host
 */
Ptr<Socket>
SocketOn(const PfabricFabricHelper& fabric, uint32_t host, uint16_t sourcePort = 0)
{
    Ptr<Socket> socket =
        Socket::CreateSocket(fabric.GetHosts().Get(host), UdpSocketFactory::GetTypeId());
    socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), sourcePort));
    return socket;
}

/// Forwarding decisions: per switch node id, the node id of the neighbour each packet was sent
/// to, in order (the same in both switch modes, whose port numbers differ by the IP node's
/// loopback device).
using Decisions = std::map<uint32_t, std::vector<uint32_t>>;

/**
 * @brief Forward trace sink.
 * @param decisions where to note the decision
 * @param node the switch's node (not owned)
 * @param port the port chosen
 */
void
NoteDecision(Decisions* decisions,
             Node* node,
             Ptr<const Packet> /* packet */,
             const Ipv4Header& /* header */,
             uint32_t port)
{
    Ptr<NetDevice> device = node->GetDevice(port);
    Ptr<Channel> link = device->GetChannel();
    Ptr<NetDevice> peer = link->GetDevice(0) == device ? link->GetDevice(1) : link->GetDevice(0);
    (*decisions)[node->GetId()].push_back(peer->GetNode()->GetId());
}

/**
 * @brief Record every switch's forwarding decisions.
 * @param fabric a built fabric
 * @param decisions where to note them
 */
void
WatchSwitches(const PfabricFabricHelper& fabric, Decisions* decisions)
{
    for (uint32_t i = 0; i < fabric.GetSwitches().GetN(); ++i)
    {
        Ptr<Node> node = fabric.GetSwitches().Get(i);
        node->GetObject<PfabricSwitch>()->TraceConnectWithoutContext(
            "Forward",
            // A raw pointer: a Ptr bound into the switch's own trace would keep the node alive.
            MakeBoundCallback(&NoteDecision, decisions, PeekPointer(node)));
    }
}

/**
 * @param mode a switch mode
 * @return its name, for test names and messages
 */
std::string
ModeName(PfabricFabricHelper::SwitchMode mode)
{
    return mode == PfabricFabricHelper::LEAN ? "lean" : "IP";
}

/**
 * @ingroup pfabric-tests
 * @brief Node, link and host counts of the three fabrics.
 */
class FabricShapeTest : public TestCase
{
  public:
    FabricShapeTest()
        : TestCase("Fabrics: node, link and host counts")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t k : {4, 6, 8})
        {
            PfabricFatTreeHelper fatTree(k);
            fatTree.Build();
            NS_TEST_ASSERT_MSG_EQ(fatTree.GetNHosts(), k * k * k / 4, "fat-tree hosts, k=" << k);
            NS_TEST_ASSERT_MSG_EQ(fatTree.GetSwitches().GetN(),
                                  k * k / 2 + k * k / 2 + k * k / 4,
                                  "edge + aggregation + core switches, k=" << k);
            NS_TEST_ASSERT_MSG_EQ(fatTree.GetNLinks(), 3 * k * k * k / 4, "links, k=" << k);
            NS_TEST_ASSERT_MSG_EQ(fatTree.GetPod(fatTree.GetNHosts() - 1), k - 1, "last pod");
            NS_TEST_ASSERT_MSG_EQ(fatTree.GetRack(fatTree.GetNHosts() - 1), k / 2 - 1, "rack");
            Simulator::Destroy();
        }

        struct Shape
        {
            uint32_t leaves, hostsPerLeaf, spines;
        };

        for (Shape shape : {Shape{9, 16, 4}, Shape{2, 4, 2}, Shape{4, 4, 1}, Shape{3, 6, 3}})
        {
            PfabricLeafSpineHelper leafSpine(shape.leaves, shape.hostsPerLeaf, shape.spines);
            leafSpine.Build();
            NS_TEST_ASSERT_MSG_EQ(leafSpine.GetNHosts(), shape.leaves * shape.hostsPerLeaf, "");
            NS_TEST_ASSERT_MSG_EQ(leafSpine.GetSwitches().GetN(), shape.leaves + shape.spines, "");
            NS_TEST_ASSERT_MSG_EQ(leafSpine.GetNLinks(),
                                  shape.leaves * (shape.hostsPerLeaf + shape.spines),
                                  "host links + leaf-spine links");
            NS_TEST_ASSERT_MSG_EQ(leafSpine.GetHopCount(0, shape.hostsPerLeaf - 1), 2, "rack");
            if (shape.leaves > 1)
            {
                NS_TEST_ASSERT_MSG_EQ(leafSpine.GetHopCount(0, shape.hostsPerLeaf), 4, "racks");
                // Three data packets (the last one byte) and an ACK each, over four links.
                const uint64_t threePackets = 2 * uint64_t{leafSpine.GetMss()} + 1;
                NS_TEST_ASSERT_MSG_EQ(leafSpine.GetPacketHops(0, shape.hostsPerLeaf, threePackets),
                                      2 * 3 * 4,
                                      "packet hops between racks");
            }
            // Pairs in a rack cross 2 links, the others 4.
            const double hosts = shape.leaves * shape.hostsPerLeaf;
            const double inRack = shape.leaves * shape.hostsPerLeaf * (shape.hostsPerLeaf - 1.0);
            const double pairs = hosts * (hosts - 1);
            NS_TEST_ASSERT_MSG_EQ_TOL(leafSpine.GetMeanHopCount(),
                                      (2 * inRack + 4 * (pairs - inRack)) / pairs,
                                      1e-12,
                                      "mean hop count");
            // An empty flow still sends a packet.
            NS_TEST_ASSERT_MSG_EQ(leafSpine.GetPacketCount(0), 1, "empty flow");
            NS_TEST_ASSERT_MSG_EQ(leafSpine.GetPacketHops(0, 1, leafSpine.GetMss()),
                                  2 * 1 * 2,
                                  "one full packet in a rack");
            Simulator::Destroy();
        }
        PfabricSingleSwitchHelper single(5);
        single.Build();
        NS_TEST_ASSERT_MSG_EQ(single.GetNHosts(), 5, "hosts");
        NS_TEST_ASSERT_MSG_EQ(single.GetSwitches().GetN(), 1, "one switch");
        NS_TEST_ASSERT_MSG_EQ(single.GetNLinks(), 5, "one link per host");
        Simulator::Destroy();
    }
};

/**
 * @ingroup pfabric-tests
 * @brief SetPreset reaches the links and the switches, with the precedence of the Presets
 * section: SetSwitchAttribute beats a configured default, which beats the preset's
 * LoadBalancing, whatever the order of the calls.
 */
class FabricPresetTest : public TestCase
{
  public:
    FabricPresetTest()
        : TestCase("Fabrics: SetPreset, the precedence over the switches' attributes, the link "
                   "defaults it overrides, the IP defaults no node has")
    {
    }

  private:
    /**
     * @brief Build a sigcomm13 star, SetSwitchAttribute called first if asked.
     * @param loadBalancing the LoadBalancing to set through the helper; "": none
     * @return the switch's LoadBalancing
     */
    static std::string BuiltLoadBalancing(const std::string& loadBalancing)
    {
        PfabricSingleSwitchHelper fabric(2);
        if (!loadBalancing.empty())
        {
            fabric.SetSwitchAttribute("LoadBalancing", StringValue(loadBalancing));
        }
        fabric.SetPreset("sigcomm13");
        fabric.Build();
        StringValue value;
        fabric.GetSwitches().Get(0)->GetObject<PfabricSwitch>()->GetAttribute("LoadBalancing",
                                                                              value);
        Simulator::Destroy();
        return value.Get();
    }

    void DoRun() override
    {
        PfabricSingleSwitchHelper fabric(2);
        fabric.SetPreset("sigcomm13");
        fabric.Build();
        TimeValue delay;
        fabric.GetDevices().Get(0)->GetChannel()->GetAttribute("Delay", delay);
        NS_TEST_ASSERT_MSG_EQ(delay.Get(),
                              NanoSeconds(2700),
                              "sigcomm13's host link: 0.2 us + 2.5 us of host delay");
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(BuiltLoadBalancing(""), "Spray", "the preset's");
        NS_TEST_ASSERT_MSG_EQ(BuiltLoadBalancing("Random"), "Random", "helper > preset");
        Config::SetDefault("ns3::PfabricSwitch::LoadBalancing", StringValue("Ecmp"));
        NS_TEST_ASSERT_MSG_EQ(BuiltLoadBalancing(""), "Ecmp", "configured default > preset");
        NS_TEST_ASSERT_MSG_EQ(BuiltLoadBalancing("Flowcell"),
                              "Flowcell",
                              "helper > configured default, also when set before SetPreset");
        Config::Reset();

        // What the fabric sets on every link itself: a configured default of it (to any value,
        // the declared one too) would be recorded and not had, so GetLinkDefaultsItOverrides
        // names it, by the link type in use.
        PfabricSingleSwitchHelper links(2);
        NS_TEST_ASSERT_MSG_EQ(links.GetLinkDefaultsItOverrides().empty(), true, "none configured");
        Config::SetDefault("ns3::PfabricLinkChannel::Delay", TimeValue(MicroSeconds(3)));
        Config::SetDefault("ns3::PointToPointNetDevice::DataRate", StringValue("32768bps"));
        NS_TEST_ASSERT_MSG_EQ(Joined(links.GetLinkDefaultsItOverrides()),
                              "ns3::PfabricLinkChannel::Delay",
                              "the pFabric link's delay");
        links.SetLinkType(PfabricFabricHelper::POINT_TO_POINT_LINK);
        NS_TEST_ASSERT_MSG_EQ(Joined(links.GetLinkDefaultsItOverrides()),
                              "ns3::PointToPointNetDevice::DataRate",
                              "the point-to-point device's rate, at its declared value");
        Config::Reset();
        NS_TEST_ASSERT_MSG_EQ(links.GetLinkDefaultsItOverrides().empty(), true, "reset");

        // ns-3's IP stack reaches a run only through a node that has it: a configured default
        // of it (a parent's attribute, IPv6's, an interface's cache's) is named when the hosts
        // and the switches are lean, and only then.
        PfabricSingleSwitchHelper lean(2);
        lean.SetHostStack(PfabricFabricHelper::LEAN_HOST);
        NS_TEST_ASSERT_MSG_EQ(lean.GetIpDefaultsNoNodeHas().empty(), true, "none configured");
        Config::SetDefault("ns3::Ipv4L3Protocol::DefaultTtl", UintegerValue(5));
        Config::SetDefault("ns3::Ipv4::IpForward", BooleanValue(true));
        Config::SetDefault("ns3::ArpCache::MaxRetries", UintegerValue(2));
        Config::SetDefault("ns3::Icmpv6L4Protocol::DAD", BooleanValue(false));
        Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                           TypeIdValue(TypeId::LookupByName("ns3::TcpPrrRecovery")));
        NS_TEST_ASSERT_MSG_EQ(Joined(lean.GetIpDefaultsNoNodeHas()),
                              "ns3::Ipv4L3Protocol::DefaultTtl ns3::Ipv4::IpForward "
                              "ns3::ArpCache::MaxRetries ns3::Icmpv6L4Protocol::DAD",
                              "IPv4, its parent at its declared value, ARP's cache, ICMPv6; "
                              "TCP's are the socket factory's to judge");
        lean.SetSwitchMode(PfabricFabricHelper::IP);
        NS_TEST_ASSERT_MSG_EQ(lean.GetIpDefaultsNoNodeHas().empty(), true, "IP switches");
        PfabricSingleSwitchHelper ipHosts(2);
        NS_TEST_ASSERT_MSG_EQ(ipHosts.GetIpDefaultsNoNodeHas().empty(), true, "IP hosts");
        // The TTL IP hosts write is read only by IP forwarding; lean hosts write their own.
        NS_TEST_ASSERT_MSG_EQ(Joined(ipHosts.GetTtlDefaultsNothingReads()),
                              "ns3::Ipv4L3Protocol::DefaultTtl",
                              "IP hosts, lean switches");
        NS_TEST_ASSERT_MSG_EQ(Joined(lean.GetTtlDefaultsNothingReads()),
                              "ns3::Ipv4L3Protocol::DefaultTtl",
                              "lean hosts, IP switches");
        lean.SetSwitchMode(PfabricFabricHelper::LEAN);
        NS_TEST_ASSERT_MSG_EQ(lean.GetTtlDefaultsNothingReads().empty(),
                              true,
                              "lean hosts and switches: GetIpDefaultsNoNodeHas's");
        ipHosts.SetSwitchMode(PfabricFabricHelper::IP);
        NS_TEST_ASSERT_MSG_EQ(ipHosts.GetTtlDefaultsNothingReads().empty(), true, "IP switches");
        Config::Reset();
    }

    /// @param paths attribute paths @return them, separated by spaces
    static std::string Joined(const std::vector<std::string>& paths)
    {
        std::string joined;
        for (const std::string& path : paths)
        {
            joined += (joined.empty() ? "" : " ") + path;
        }
        return joined;
    }
};

/**
 * @ingroup pfabric-tests
 * @brief Every host reaches every other host, and only it.
 */
class FabricReachabilityTest : public TestCase
{
  public:
    /// @param mode the switch mode to test
    explicit FabricReachabilityTest(PfabricFabricHelper::SwitchMode mode)
        : TestCase("Fabrics: every host reaches every other host (" + ModeName(mode) +
                   " switches)"),
          m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        PfabricFatTreeHelper fatTree(4);
        Check(fatTree, "fat-tree k=4");
        PfabricLeafSpineHelper leafSpine(3, 4, 2);
        Check(leafSpine, "leaf-spine 3x4, 2 spines");
        PfabricSingleSwitchHelper single(6);
        Check(single, "single switch, 6 hosts");
    }

    /**
     * @brief Send one packet between every ordered pair and check where they arrive.
     * @param fabric an unbuilt fabric
     * @param name for messages
     */
    void Check(PfabricFabricHelper& fabric, const std::string& name)
    {
        fabric.SetSwitchMode(m_mode);
        fabric.Build();
        Deliveries deliveries;
        ListenEverywhere(fabric, &deliveries);
        const uint32_t n = fabric.GetNHosts();
        for (uint32_t from = 0; from < n; ++from)
        {
            Ptr<Socket> source = SocketOn(fabric, from);
            for (uint32_t to = 0; to < n; ++to)
            {
                if (to != from)
                {
                    Simulator::Schedule(MicroSeconds(10 * from + 1),
                                        &SendPackets,
                                        source,
                                        fabric.GetHostAddress(to),
                                        1,
                                        100);
                }
            }
        }
        Simulator::Run();
        for (uint32_t to = 0; to < n; ++to)
        {
            std::multiset<Ipv4Address> heard(deliveries.sourcesAt[to].begin(),
                                             deliveries.sourcesAt[to].end());
            NS_TEST_ASSERT_MSG_EQ(heard.size(), n - 1, name << ": packets at host " << to);
            for (uint32_t from = 0; from < n; ++from)
            {
                NS_TEST_ASSERT_MSG_EQ(heard.count(fabric.GetHostAddress(from)),
                                      (from == to ? 0U : 1U),
                                      name << ": from host " << from << " at host " << to);
            }
        }
        Simulator::Destroy();
    }

    PfabricFabricHelper::SwitchMode m_mode; //!< the switch mode under test
};

/**
 * @ingroup pfabric-tests
 * @brief Spray spreads one flow evenly; ECMP pins a flow and spreads many; flowcells move on
 * exactly at cell boundaries; random spreads and is reproducible per stream.
 */
class LoadBalancingTest : public TestCase
{
  public:
    /// @param mode the switch mode to test
    explicit LoadBalancingTest(PfabricFabricHelper::SwitchMode mode)
        : TestCase("Fabrics: spray, ECMP, flowcell and random load balancing (" + ModeName(mode) +
                   " switches)"),
          m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        CheckSpray();
        CheckEcmp();
        CheckFlowcell();
        CheckRandom();
    }

    /**
     * @param loadBalancing the LoadBalancing attribute value
     * @return a built k = 4 fat-tree with it, every host listening (no ICMP replies)
     */
    std::unique_ptr<PfabricFatTreeHelper> FatTree(const std::string& loadBalancing)
    {
        auto fatTree = std::make_unique<PfabricFatTreeHelper>(4);
        fatTree->SetSwitchMode(m_mode);
        fatTree->SetSwitchAttribute("LoadBalancing", StringValue(loadBalancing));
        fatTree->SetSwitchAttribute("FlowcellBytes", UintegerValue(10 * 1028));
        fatTree->Build();
        m_deliveries = Deliveries();
        ListenEverywhere(*fatTree, &m_deliveries);
        return fatTree;
    }

    /**
     * @param stream the first random stream of the switches
     * @return the up port chosen by the source edge switch for each of 1000 packets
     */
    std::vector<uint32_t> RandomChoices(int64_t stream)
    {
        auto fatTree = FatTree("Random");
        NS_TEST_EXPECT_MSG_EQ(fatTree->AssignStreams(stream),
                              fatTree->GetSwitches().GetN(),
                              "one stream per switch");
        Decisions decisions;
        WatchSwitches(*fatTree, &decisions);
        SendPaced(SocketOn(*fatTree, 0), fatTree->GetHostAddress(15), 1000, 100);
        Simulator::Run();
        std::vector<uint32_t> edge = decisions[fatTree->GetSwitches().Get(0)->GetId()];
        Simulator::Destroy();
        return edge;
    }

    void CheckRandom()
    {
        std::vector<uint32_t> choices = RandomChoices(100);
        NS_TEST_ASSERT_MSG_EQ(choices.size(), 1000, "the whole flow crossed the source edge");
        std::map<uint32_t, uint32_t> count;
        for (uint32_t interface : choices)
        {
            ++count[interface];
        }
        NS_TEST_ASSERT_MSG_EQ(count.size(), 2, "random uses both up ports");
        for (const auto& [interface, packets] : count)
        {
            // Binomial(1000, 1/2): 500 +- 16; outside 400..600 is a 1e-9 event.
            NS_TEST_ASSERT_MSG_GT(packets, 400, "packets on interface " << interface);
        }
        NS_TEST_ASSERT_MSG_EQ((RandomChoices(100) == choices), true, "AssignStreams: reproducible");
        NS_TEST_ASSERT_MSG_EQ((RandomChoices(200) != choices), true, "another stream differs");
    }

    Deliveries m_deliveries;                //!< what the hosts of the current fabric received
    PfabricFabricHelper::SwitchMode m_mode; //!< the switch mode under test

    void CheckSpray()
    {
        auto fatTree = FatTree("Spray");
        Decisions decisions;
        WatchSwitches(*fatTree, &decisions);
        // 1001 packets from pod 0 to pod 3: 2 up ports at the edge and at each aggregation.
        SendPaced(SocketOn(*fatTree, 0), fatTree->GetHostAddress(15), 1001, 100);
        Simulator::Run();
        uint32_t spreading = 0;
        for (const auto& [node, interfaces] : decisions)
        {
            std::map<uint32_t, uint32_t> count;
            for (uint32_t interface : interfaces)
            {
                ++count[interface];
            }
            if (count.size() > 1)
            {
                ++spreading;
                auto [least, most] = std::minmax_element(
                    count.begin(),
                    count.end(),
                    [](const auto& a, const auto& b) { return a.second < b.second; });
                NS_TEST_ASSERT_MSG_LT(most->second - least->second,
                                      2,
                                      "round-robin counts differ by at most one at node " << node);
                NS_TEST_ASSERT_MSG_EQ(count.size(), 2, "both up ports used at node " << node);
            }
        }
        // The source edge and both aggregation switches of pod 0 spread the flow.
        NS_TEST_ASSERT_MSG_EQ(spreading, 3, "switches with a choice");
        NS_TEST_ASSERT_MSG_EQ(decisions[fatTree->GetSwitches().Get(0)->GetId()].size(),
                              1001,
                              "the whole flow crossed the source edge");
        Simulator::Destroy();
    }

    void CheckEcmp()
    {
        auto fatTree = FatTree("Ecmp");
        Decisions decisions;
        WatchSwitches(*fatTree, &decisions);
        SendPaced(SocketOn(*fatTree, 0, 5000), fatTree->GetHostAddress(15), 200, 100);
        Simulator::Run();
        for (const auto& [node, interfaces] : decisions)
        {
            NS_TEST_ASSERT_MSG_EQ(std::set<uint32_t>(interfaces.begin(), interfaces.end()).size(),
                                  1,
                                  "one flow keeps one path at node " << node);
        }
        Simulator::Destroy();

        // Many flows (source ports) from one host: its edge switch uses both up ports.
        auto many = FatTree("Ecmp");
        Decisions manyDecisions;
        WatchSwitches(*many, &manyDecisions);
        for (uint16_t port = 6000; port < 6064; ++port)
        {
            Simulator::Schedule(MicroSeconds(1),
                                &SendPackets,
                                SocketOn(*many, 0, port),
                                many->GetHostAddress(15),
                                1,
                                100);
        }
        Simulator::Run();
        uint32_t sourceEdge = many->GetSwitches().Get(0)->GetId();
        const auto& chosen = manyDecisions[sourceEdge];
        std::map<uint32_t, uint32_t> count;
        for (uint32_t interface : chosen)
        {
            ++count[interface];
        }
        NS_TEST_ASSERT_MSG_EQ(count.size(), 2, "64 flows use both up ports");
        for (const auto& [interface, flows] : count)
        {
            // Binomial(64, 1/2): 32 +- 4; below 16 is a 1e-5 event for a fair hash.
            NS_TEST_ASSERT_MSG_GT(flows, 15, "flows on interface " << interface);
        }
        Simulator::Destroy();
    }

    void CheckFlowcell()
    {
        // 1000 B UDP payloads make 1028 B IP packets; a cell holds 10 of them.
        auto fatTree = FatTree("Flowcell");
        Decisions decisions;
        WatchSwitches(*fatTree, &decisions);
        SendPaced(SocketOn(*fatTree, 0, 7000), fatTree->GetHostAddress(15), 95, 1000);
        Simulator::Run();
        const auto& edge = decisions[fatTree->GetSwitches().Get(0)->GetId()];
        NS_TEST_ASSERT_MSG_EQ(edge.size(), 95, "every packet forwarded by the source edge");
        for (std::size_t i = 1; i < edge.size(); ++i)
        {
            bool boundary = i % 10 == 0;
            NS_TEST_ASSERT_MSG_EQ((edge[i] != edge[i - 1]),
                                  boundary,
                                  "path changes exactly at cell boundaries (packet " << i << ")");
        }
        Simulator::Destroy();
    }
};

/// Times of a ping-pong or a lone flow.
struct Exchange
{
    Time sent;     //!< first packet handed to the socket
    Time answered; //!< reply received
};

/**
 * @brief Receive callback of the destination: when the count is complete, reply with an ACK.
 * @param remaining packets still to come
 * @param socket the destination's socket
 */
void
ReplyAfter(uint32_t* remaining, Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> packet = socket->RecvFrom(from))
    {
        if (--*remaining == 0)
        {
            socket->SendTo(Create<Packet>(ACK_PAYLOAD), 0, from);
        }
    }
}

/**
 * @brief Receive callback of the source: note when the reply arrives.
 * @param exchange where to note it
 * @param socket the source's socket
 */
void
NoteReply(Exchange* exchange, Ptr<Socket> socket)
{
    while (socket->Recv())
    {
        exchange->answered = Simulator::Now();
    }
}

/**
 * @ingroup pfabric-tests
 * @brief A ping-pong and a lone flow in an idle fabric take the documented base RTT and ideal
 * FCT, within 1%, inside a rack, inside a pod and between pods.
 */
class IdleTimingTest : public TestCase
{
  public:
    /// @param mode the switch mode to test
    explicit IdleTimingTest(PfabricFabricHelper::SwitchMode mode)
        : TestCase("Fabrics: base RTT and ideal FCT match the simulator within 1% (" +
                   ModeName(mode) + " switches)"),
          m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        constexpr double TOLERANCE = 0.01;
        // fat-tree k = 4: host 1 shares host 0's rack, host 2 its pod, host 15 is in pod 3.
        for (uint32_t to : {1, 2, 15})
        {
            for (uint32_t packets : {1, 50})
            {
                PfabricFatTreeHelper fatTree(4);
                Compare(fatTree, to, packets, TOLERANCE, "fat-tree");
            }
        }
        // leaf-spine defaults (10/40 Gb/s, 0.2 us + 2.5 us host delay), 2 leaves of 4 hosts.
        for (uint32_t to : {1, 4})
        {
            for (uint32_t packets : {1, 50})
            {
                PfabricLeafSpineHelper leafSpine(2, 4, 2);
                Compare(leafSpine, to, packets, TOLERANCE, "leaf-spine");
            }
        }
    }

    /**
     * @brief Send packets full packets from host 0 to a host, which answers the last with an
     * ACK, and compare the time with GetIdealFct.
     * @param fabric an unbuilt fabric
     * @param to the destination host
     * @param packets how many full packets
     * @param tolerance relative tolerance
     * @param name for messages
     */
    void Compare(PfabricFabricHelper& fabric,
                 uint32_t to,
                 uint32_t packets,
                 double tolerance,
                 const std::string& name)
    {
        fabric.SetSwitchMode(m_mode);
        fabric.Build();
        uint32_t remaining = packets;
        Exchange exchange;
        Ptr<Socket> sink = SocketOn(fabric, to, PORT);
        sink->SetRecvCallback(MakeBoundCallback(&ReplyAfter, &remaining));
        Ptr<Socket> source = SocketOn(fabric, 0);
        source->SetRecvCallback(MakeBoundCallback(&NoteReply, &exchange));
        exchange.sent = MicroSeconds(1);
        Simulator::Schedule(exchange.sent,
                            &SendPackets,
                            source,
                            fabric.GetHostAddress(to),
                            packets,
                            FULL_PAYLOAD);
        Simulator::Run();
        Time measured = exchange.answered - exchange.sent;
        // A full UDP packet (1472 + 8 + 20 B) is as long on the wire as a full TCP one.
        Time ideal = packets == 1 ? fabric.GetBaseRtt(0, to)
                                  : fabric.GetIdealFct(0, to, uint64_t{packets} * 1460);
        NS_TEST_ASSERT_MSG_EQ_TOL(measured.GetSeconds(),
                                  ideal.GetSeconds(),
                                  tolerance * ideal.GetSeconds(),
                                  name << ", host 0 to " << to << ", " << packets
                                       << " packets: measured " << measured.As(Time::US)
                                       << ", documented " << ideal.As(Time::US));
        Simulator::Destroy();
    }

    PfabricFabricHelper::SwitchMode m_mode; //!< the switch mode under test
};

/**
 * @ingroup pfabric-tests
 * @brief The ideal FCT follows the store-and-forward recursion where a closed form "the slowest
 * link takes every packet" comes out short: host links of 10 Gb/s, two fabric links of 1 Gb/s,
 * two full packets and a last one of 1 byte; and a lone flow takes that time.
 */
class IdealFctRecursionTest : public TestCase
{
  public:
    IdealFctRecursionTest()
        : TestCase("Fabrics: the ideal FCT is the store-and-forward recursion (10, 1, 1, 10 Gbps)")
    {
    }

  private:
    void DoRun() override
    {
        // One spine: spraying over two would carry the packets side by side, off the model's
        // single path.
        PfabricLeafSpineHelper leafSpine(2, 4, 1);
        leafSpine.SetFabricLinkRate(DataRate("1Gbps"));
        leafSpine.Build();
        const uint32_t to = 4; // the other leaf: host link, leaf-spine, spine-leaf, host link
        const uint64_t bytes = 2 * 1460 + 1;

        // By hand: serialisation of a full (1460 + 40 + 2 B) and the last (1 + 40 + 2 B) packet
        // on each link, a(n, k) = s(n, k) + max(a(n - 1, k), a(n, k - 1)), then propagation
        // and the 40-byte ACK back.
        const DataRate fast("10Gbps");
        const DataRate slow("1Gbps");
        const std::vector<DataRate> rates{fast, slow, slow, fast};
        const uint32_t full = 1502;
        const uint32_t last = 43;
        std::vector<Time> previous(rates.size() + 1);
        for (uint32_t size : {full, full, last})
        {
            std::vector<Time> current(rates.size() + 1);
            for (std::size_t k = 0; k < rates.size(); ++k)
            {
                current[k + 1] =
                    rates[k].CalculateBytesTxTime(size) + std::max(previous[k + 1], current[k]);
            }
            previous = current;
        }
        const Time delays = 4 * NanoSeconds(200) + 2 * NanoSeconds(2500);
        Time ack;
        for (const DataRate& rate : rates)
        {
            ack += rate.CalculateBytesTxTime(40 + 2);
        }
        const Time byHand = previous.back() + 2 * delays + ack;
        NS_TEST_ASSERT_MSG_EQ(leafSpine.GetIdealFct(0, to, bytes),
                              byHand,
                              "the recursion, to the nanosecond");
        // The closed form's best turn (the second slow link) misses the last full packet's wait
        // at it: 12.016 us of serialisation at 1 Gb/s counted once too few, less the 1-byte
        // packet's 0.344 us, 0.86 us in all.
        Time closedForm;
        for (std::size_t j = 0; j < rates.size(); ++j)
        {
            Time t = rates[j].CalculateBytesTxTime(full) * 2;
            for (std::size_t h = 0; h < rates.size(); ++h)
            {
                t += rates[h].CalculateBytesTxTime(h < j ? full : last);
            }
            closedForm = std::max(closedForm, t);
        }
        NS_TEST_ASSERT_MSG_GT(previous.back() - closedForm, NanoSeconds(800), "the case differs");

        // A lone flow of those packets (UDP payloads giving the same IP sizes) takes it.
        Exchange exchange;
        uint32_t remaining = 3;
        Ptr<Socket> sink = SocketOn(leafSpine, to, PORT);
        sink->SetRecvCallback(MakeBoundCallback(&ReplyAfter, &remaining));
        Ptr<Socket> source = SocketOn(leafSpine, 0);
        source->SetRecvCallback(MakeBoundCallback(&NoteReply, &exchange));
        exchange.sent = MicroSeconds(1);
        const Ipv4Address address = leafSpine.GetHostAddress(to);
        Simulator::Schedule(exchange.sent, &SendPackets, source, address, 2, FULL_PAYLOAD);
        Simulator::Schedule(exchange.sent, &SendPackets, source, address, 1, 1 + 20 - 8);
        Simulator::Run();
        Simulator::Destroy();
        const Time measured = exchange.answered - exchange.sent;
        NS_TEST_ASSERT_MSG_EQ_TOL(measured.GetSeconds(),
                                  byHand.GetSeconds(),
                                  NanoSeconds(100).GetSeconds(),
                                  "measured " << measured.As(Time::US) << ", by hand "
                                              << byHand.As(Time::US));
    }
};

/**
 * @ingroup pfabric-tests
 * @brief Lean and IP switches send every packet to the same neighbour, in every load-balancing
 * mode, on traffic of many flows between every pair of pods.
 */
class SwitchModesAgreeTest : public TestCase
{
  public:
    SwitchModesAgreeTest()
        : TestCase("Fabrics: lean and IP switches make the same forwarding decisions")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* loadBalancing : {"Spray", "Ecmp", "Flowcell", "Random"})
        {
            Decisions lean = Run(PfabricFabricHelper::LEAN, loadBalancing);
            Decisions ip = Run(PfabricFabricHelper::IP, loadBalancing);
            std::size_t decisions = 0;
            for (const auto& [node, peers] : ip)
            {
                decisions += peers.size();
            }
            // 16 hosts x 8 destinations x 3 packets; each crosses 1, 3 or 5 switches.
            NS_TEST_ASSERT_MSG_GT(decisions, 16 * 8 * 3, loadBalancing << ": traffic crossed");
            NS_TEST_ASSERT_MSG_EQ((lean == ip), true, loadBalancing << ": the same decisions");
        }
    }

    /**
     * @param mode the switch mode
     * @param loadBalancing the LoadBalancing attribute
     * @return every switch's decisions on the same traffic
     */
    Decisions Run(PfabricFabricHelper::SwitchMode mode, const std::string& loadBalancing)
    {
        PfabricFatTreeHelper fatTree(4);
        fatTree.SetSwitchMode(mode);
        fatTree.SetSwitchAttribute("LoadBalancing", StringValue(loadBalancing));
        fatTree.SetSwitchAttribute("FlowcellBytes", UintegerValue(2 * 1028));
        fatTree.Build();
        fatTree.AssignStreams(7);
        Deliveries deliveries;
        ListenEverywhere(fatTree, &deliveries);
        Decisions decisions;
        WatchSwitches(fatTree, &decisions);
        for (uint32_t from = 0; from < fatTree.GetNHosts(); ++from)
        {
            for (uint32_t i = 1; i <= 8; ++i)
            {
                uint32_t to = (from + 2 * i - 1) % fatTree.GetNHosts();
                Ptr<Socket> source = SocketOn(fatTree, from, uint16_t(1000 + 16 * from + i));
                Simulator::Schedule(MicroSeconds(3 * i + from),
                                    &SendPackets,
                                    source,
                                    fatTree.GetHostAddress(to),
                                    3,
                                    1000);
            }
        }
        Simulator::Run();
        Simulator::Destroy();
        return decisions;
    }
};

} // namespace

std::vector<TestCase*>
MakeFabricTestCases()
{
    std::vector<TestCase*> cases{new FabricShapeTest,
                                 new FabricPresetTest,
                                 new SwitchModesAgreeTest,
                                 new IdealFctRecursionTest};
    for (auto mode : {PfabricFabricHelper::LEAN, PfabricFabricHelper::IP})
    {
        cases.push_back(new FabricReachabilityTest(mode));
        cases.push_back(new LoadBalancingTest(mode));
        cases.push_back(new IdleTimingTest(mode));
    }
    return cases;
}

} // namespace tests
} // namespace pfabric
} // namespace ns3
