/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// pfabric-routing-cost: the cost per forwarded packet of this module's fabric against ns-3's
// global routing, on the same k-ary fat-tree and the same packets.
//
// (a) PfabricFatTreeHelper: addresses encode pod/rack/host, every switch forwards in O(1) (spray);
//     --switchMode=lean (default: PfabricSwitch, no IP stack at switches) or ip (the switches'
//     own internet stack, routed by PfabricFabricRouting); --linkType=pfabric (default:
//     PfabricLinkNetDevice) or p2p (ns-3's point-to-point links, as (b) has).
// (b) plain ns-3: the same nodes and links, a /30 subnet per link (Ipv4AddressHelper), global
//     routing with RandomEcmpRouting (per-packet random over equal-cost routes, found by a scan
//     of the routing table on every packet).
// By default neither has a queue disc (ns-3's default one is removed from (b)), so the runs
// differ only in routing (and links, unless --linkType=p2p). With --queueDiscs, each gets what
// it would have in a real run: (a) PfabricQueueDisc on every device (PfabricQueueDiscHelper) and
// a PfabricPriorityTag on every packet (the bytes its host has left to send), (b) ns-3's
// FifoQueueDisc on every device with ns-3's defaults (1000 packets, a 100-packet device queue).
// Every host sends packetsPerHost UDP packets to uniformly random other hosts, one every
// 5 us on average (about 1.6 Gb/s per host; the same list for both). Each host schedules its
// next send when it sends, so the event queue stays small. The example prints, for each, the
// wall-clock time of Simulator::Run (best of --repeat), the switch hops, and the time per hop,
// and the packet hops (every transmission by every device, hosts' included: what left the
// devices' transmit queues), the events and the time per packet hop; --json prints the same, with
// the processor time of Simulator::Run (least of --repeat, less sensitive to a busy machine), as
// one JSON object.
//
//   ./pfabric run pfabric-routing-cost -- --k=8 --packetsPerHost=1000
//   ./pfabric run pfabric-routing-cost -- --k=8 --queueDiscs --json

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/error-model.h"
#include "ns3/internet-module.h"
#include "ns3/pfabric-module.h"
#include "ns3/pfabric-seeding-variable-check.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <type_traits>
#include <vector>

using namespace ns3;

namespace
{

/// One packet of the traffic.
struct Send
{
    uint32_t from;  //!< source host index
    uint32_t to;    //!< destination host index
    double startUs; //!< when, in microseconds
};

/// A fat-tree built the ordinary ns-3 way.
struct PlainFatTree
{
    NodeContainer hosts;                //!< hosts, in PfabricFatTreeHelper's order
    std::vector<Ipv4Address> addresses; //!< their addresses
    NetDeviceContainer devices;         //!< every device
};

/**
 * @param k ports per switch
 * @param queueDiscs whether every device gets a FifoQueueDisc (else none)
 * @return the fat-tree of PfabricFatTreeHelper, with /30 links and global routing
 */
PlainFatTree
BuildPlainFatTree(uint32_t k, bool queueDiscs)
{
    const uint32_t half = k / 2;
    PlainFatTree tree;
    NodeContainer edges;
    NodeContainer aggregations;
    NodeContainer cores;
    tree.hosts.Create(k * half * half);
    edges.Create(k * half);
    aggregations.Create(k * half);
    cores.Create(half * half);
    InternetStackHelper stack;
    stack.Install(tree.hosts);
    stack.Install(edges);
    stack.Install(aggregations);
    stack.Install(cores);
    tree.addresses.resize(tree.hosts.GetN());

    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
    link.SetChannelAttribute("Delay", StringValue("1us"));
    Ipv4AddressHelper subnets("10.0.0.0", "255.255.255.252");
    TrafficControlHelper trafficControl;
    TrafficControlHelper fifo;
    fifo.SetRootQueueDisc("ns3::FifoQueueDisc");
    auto connect = [&](Ptr<Node> a, Ptr<Node> b) {
        NetDeviceContainer devices = link.Install(a, b);
        Ipv4InterfaceContainer interfaces = subnets.Assign(devices);
        subnets.NewNetwork();
        trafficControl.Uninstall(devices);
        if (queueDiscs)
        {
            fifo.Install(devices);
        }
        tree.devices.Add(devices);
        return interfaces.GetAddress(0);
    };
    for (uint32_t host = 0; host < tree.hosts.GetN(); ++host)
    {
        tree.addresses[host] = connect(tree.hosts.Get(host), edges.Get(host / half));
    }
    for (uint32_t pod = 0; pod < k; ++pod)
    {
        for (uint32_t e = 0; e < half; ++e)
        {
            for (uint32_t a = 0; a < half; ++a)
            {
                connect(edges.Get(pod * half + e), aggregations.Get(pod * half + a));
            }
        }
        for (uint32_t a = 0; a < half; ++a)
        {
            for (uint32_t j = 0; j < half; ++j)
            {
                connect(aggregations.Get(pod * half + a), cores.Get(a * half + j));
            }
        }
    }
    return tree;
}

/**
 * @brief Count a received packet.
 * @param received the counter
 * @param socket the receiving socket
 */
void
CountReceived(uint64_t* received, Ptr<Socket> socket)
{
    while (socket->Recv())
    {
        ++*received;
    }
}

/// UDP payload of every packet.
constexpr uint32_t PAYLOAD_BYTES = 1000;
/// The UDP and IPv4 headers around each packet's payload.
constexpr uint32_t UDP_IP_HEADER_BYTES = 8 + 20;

/// One host's part of the traffic, in time order.
struct Sender
{
    Ptr<Socket> socket;                //!< its socket
    std::vector<InetSocketAddress> to; //!< destinations
    std::vector<Time> at;              //!< send times
    std::size_t next = 0;              //!< the next packet
    bool tag = false;                  //!< tag each packet with the bytes left to send
};

/**
 * @brief Send a host's next packet and schedule the one after.
 * @param sender the host's traffic
 */
void
SendNext(Sender* sender)
{
    Ptr<Packet> packet = Create<Packet>(PAYLOAD_BYTES);
    if (sender->tag)
    {
        PfabricPriorityTag::Set(packet, (sender->at.size() - sender->next) * PAYLOAD_BYTES);
    }
    sender->socket->SendTo(packet, 0, sender->to[sender->next]);
    if (++sender->next < sender->at.size())
    {
        Simulator::Schedule(sender->at[sender->next] - Simulator::Now(), &SendNext, sender);
    }
}

/// What one run of the traffic measured.
struct Measured
{
    double wallS = 1e9;      //!< wall-clock seconds of Simulator::Run
    double cpuS = 1e9;       //!< processor seconds of Simulator::Run
    double simulatedS = 0;   //!< simulated seconds at the end
    uint64_t events = 0;     //!< events executed
    uint64_t packetHops = 0; //!< transmissions by every device
    uint64_t received = 0;   //!< packets delivered
};

/**
 * @brief Run the traffic over built hosts.
 * @param hosts the hosts
 * @param addresses their addresses
 * @param devices every device, whose transmissions are counted
 * @param traffic the packets
 * @param tag whether every packet gets a PfabricPriorityTag
 * @return what the run measured
 */
Measured
RunTraffic(const NodeContainer& hosts,
           const std::vector<Ipv4Address>& addresses,
           const NetDeviceContainer& devices,
           const std::vector<Send>& traffic,
           bool tag)
{
    Measured measured;
    const uint16_t port = 9;
    std::vector<Sender> senders(hosts.GetN());
    for (uint32_t host = 0; host < hosts.GetN(); ++host)
    {
        Ptr<Socket> socket = Socket::CreateSocket(hosts.Get(host), UdpSocketFactory::GetTypeId());
        socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        socket->SetRecvCallback(MakeBoundCallback(&CountReceived, &measured.received));
        senders[host].socket = socket;
        senders[host].tag = tag;
    }
    const uint64_t transmissionsBefore = PfabricFabricHelper::CountTransmissions(devices);
    for (const Send& send : traffic) // in time order per host
    {
        senders[send.from].to.emplace_back(addresses[send.to], port);
        senders[send.from].at.push_back(MicroSeconds(send.startUs));
    }
    for (Sender& sender : senders)
    {
        if (!sender.at.empty())
        {
            Simulator::Schedule(sender.at[0], &SendNext, &sender);
        }
    }
    auto start = std::chrono::steady_clock::now();
    std::clock_t cpuStart = std::clock();
    Simulator::Run();
    measured.cpuS = double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
    measured.wallS = wall.count();
    measured.simulatedS = Simulator::Now().GetSeconds();
    measured.events = Simulator::GetEventCount();
    measured.packetHops = PfabricFabricHelper::CountTransmissions(devices) - transmissionsBefore;
    Simulator::Destroy();
    return measured;
}

/**
 * @param name the variant
 * @param m what it measured
 * @return a JSON object of the measurements
 */
std::string
MeasuredJson(const std::string& name, const Measured& m)
{
    std::ostringstream out;
    out << std::setprecision(9) << "{\"name\": \"" << name << "\", \"wall_time_s\": " << m.wallS
        << ", \"simulated_time_s\": " << m.simulatedS << ", \"events\": " << m.events
        << ", \"packet_hops\": " << m.packetHops << ", \"received\": " << m.received
        << ", \"ns_per_packet_hop\": " << m.wallS / m.packetHops * 1e9
        << ", \"cpu_time_s\": " << m.cpuS
        << ", \"cpu_ns_per_packet_hop\": " << m.cpuS / m.packetHops * 1e9 << "}";
    return out.str();
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t k = 8;
    uint32_t packetsPerHost = 1000;
    uint32_t repeat = 3;
    bool queueDiscs = false;
    PfabricFabricHelper::SwitchMode switchMode = PfabricFabricHelper::LEAN;
    PfabricFabricHelper::LinkType linkType = PfabricFabricHelper::PFABRIC_LINK;
    using Names = PfabricExperimentParameters; // the choices' names, as the experiments take them
    bool json = false;
    PfabricCommandLine cmd(__FILE__);
    cmd.AddValue("k", "fat-tree ports per switch (even)", k);
    cmd.AddValue("packetsPerHost", "packets each host sends", packetsPerHost);
    cmd.AddValue("repeat", "runs of each variant; the fastest counts", repeat);
    cmd.AddValue("queueDiscs",
                 "also queue discs: PfabricQueueDisc and a priority tag on every packet against "
                 "ns-3's FifoQueueDisc",
                 queueDiscs);
    cmd.AddValue("json", "print the results as one JSON object", json);
    cmd.AddChoice("switchMode",
                  "(a)'s switches: lean (no IP stack) or ip",
                  switchMode,
                  Names::SWITCH_MODES);
    cmd.AddChoice("linkType",
                  "(a)'s links: pfabric (PfabricLinkNetDevice) or p2p",
                  linkType,
                  Names::LINK_TYPES);
    std::string parseError;
    if (!cmd.Parse(argc, argv, &parseError))
    {
        std::cerr << "pfabric-routing-cost: error: " << parseError << std::endl;
        return 1;
    }
    // A global value ns-3 keeps as text and reads when it creates the simulator is tried first;
    // with --queueDiscs, the run's PfabricQueueDisc too (a size of 0 stops ns-3 as it is made).
    PfabricSettingsTrial trial;
    trial.AddSimulatorStep(cmd);
    std::unique_ptr<PfabricSingleSwitchHelper> pair;
    if (queueDiscs)
    {
        trial.AddStep(
            "installing PfabricQueueDisc on two hosts and a switch",
            PfabricSettingsTrial::WithVariable(PfabricSettingsTrial::GivenNs3Options(cmd, true),
                                               "NS_ATTRIBUTE_DEFAULT"),
            [&pair, switchMode, linkType]() {
                pair = std::make_unique<PfabricSingleSwitchHelper>(2);
                pair->SetSwitchMode(switchMode);
                pair->SetLinkType(linkType);
                pair->Build();
                PfabricQueueDiscHelper().Install(pair->GetDevices());
                NodeContainer nodes(pair->GetHosts(), pair->GetSwitches());
                for (uint32_t i = 0; i < nodes.GetN(); ++i)
                {
                    nodes.Get(i)->Initialize();
                }
            });
    }
    const std::string refused = trial.Run();
    if (!refused.empty())
    {
        std::cerr << "pfabric-routing-cost: error: " << refused << std::endl;
        return 1;
    }
    // Both variants' queue discs size their internal queues themselves (PfabricQueueDisc keeps
    // none), so ns-3's default for those never reaches a queue.
    const std::vector<std::string> internalQueue =
        PfabricConfiguredDefaults::ListConfigured(DropTailQueue<QueueDiscItem>::GetTypeId(),
                                                  {"MaxSize"});
    if (queueDiscs && !internalQueue.empty())
    {
        std::cerr << "pfabric-routing-cost: error: "
                  << PfabricQueueDiscHelper::RefusePortDefault(
                         cmd.DescribeNs3Setting(internalQueue.front()),
                         internalQueue.front())
                  << std::endl;
        return 1;
    }
    // (b)'s FifoQueueDisc, as its configured defaults make it.
    const std::string unkept =
        queueDiscs ? PfabricQueueDiscHelper::FindSizeNotKept(ObjectFactory("ns3::FifoQueueDisc"))
                   : "";
    if (!unkept.empty())
    {
        std::cerr << "pfabric-routing-cost: error: " << unkept << std::endl;
        return 1;
    }
    // (b) is ns-3's global routing with random ECMP, which this program sets for it.
    const std::vector<std::string> ecmp =
        PfabricConfiguredDefaults::ListConfigured(Ipv4GlobalRouting::GetTypeId(),
                                                  {"RandomEcmpRouting"});
    if (!ecmp.empty())
    {
        std::cerr << "pfabric-routing-cost: error: " << cmd.DescribeNs3Setting(ecmp.front())
                  << ": this program sets " << ecmp.front()
                  << " itself ((b) is ns-3's global routing with random ECMP); leave it unset"
                  << std::endl;
        return 1;
    }
    // Both variants' links are fixed: (a)'s by its fabric, (b)'s point-to-point ones by
    // BuildPlainFatTree, at the same rate and delay; no device of either resolves addresses or
    // has an error model.
    for (PfabricFabricHelper::LinkType type : {linkType, PfabricFabricHelper::POINT_TO_POINT_LINK})
    {
        PfabricFatTreeHelper links(k);
        links.SetLinkType(type);
        const std::vector<std::string> overridden = links.GetLinkDefaultsItOverrides();
        if (!overridden.empty())
        {
            std::cerr << "pfabric-routing-cost: error: "
                      << PfabricFabricHelper::RefuseLinkDefault(
                             cmd.DescribeNs3Setting(overridden.front()),
                             overridden.front(),
                             "(a)'s links are its preset's, (b)'s this program's")
                      << std::endl;
            return 1;
        }
    }
    std::string why;
    const std::string arp = PfabricFabricHelper::FindArpDefault(&why);
    if (!arp.empty())
    {
        std::cerr << "pfabric-routing-cost: error: "
                  << PfabricFabricHelper::RefuseUnreadIpDefault(cmd.DescribeNs3Setting(arp),
                                                                arp,
                                                                why)
                  << std::endl;
        return 1;
    }
    const auto types = TypeId::GetRegisteredN(); // uint16_t or uint32_t, by ns-3 release
    for (std::remove_const_t<decltype(types)> i = 0; i < types; ++i)
    {
        const TypeId model = TypeId::GetRegistered(i);
        const std::vector<std::string> set =
            model == ErrorModel::GetTypeId() || model.IsChildOf(ErrorModel::GetTypeId())
                ? PfabricConfiguredDefaults::ListConfigured(model)
                : std::vector<std::string>{};
        if (!set.empty())
        {
            std::cerr << "pfabric-routing-cost: error: " << cmd.DescribeNs3Setting(set.front())
                      << ": neither variant's devices have an error model, so " << set.front()
                      << " changes nothing; leave it unset" << std::endl;
            return 1;
        }
    }
    // Every packet is PAYLOAD_BYTES of UDP in IP: a smaller MTU makes ns-3's IP fragment it (at
    // the hosts, and at (b)'s routers), which neither variant's per-hop figures count.
    const uint32_t packetBytes = PAYLOAD_BYTES + UDP_IP_HEADER_BYTES;
    for (TypeId device : {PfabricLinkNetDevice::GetTypeId(), PointToPointNetDevice::GetTypeId()})
    {
        TypeId::AttributeInformation mtu;
        device.LookupAttributeByName("Mtu", &mtu);
        const std::vector<std::string> set =
            PfabricConfiguredDefaults::ListConfigured(device, {"Mtu"});
        UintegerValue value;
        value.DeserializeFromString(mtu.initialValue->SerializeToString(mtu.checker), mtu.checker);
        if (!set.empty() && value.Get() < packetBytes)
        {
            std::cerr << "pfabric-routing-cost: error: " << cmd.DescribeNs3Setting(set.front())
                      << ": an MTU below the traffic's " << packetBytes << "-byte IP packets ("
                      << PAYLOAD_BYTES << " B of UDP payload): ns-3's IP would fragment every "
                      << "one, which the per-hop figures do not count; give at least "
                      << packetBytes << ", or leave it unset" << std::endl;
            return 1;
        }
    }
    if (packetsPerHost == 0 || repeat == 0)
    {
        std::cerr << "pfabric-routing-cost: error: --packetsPerHost and --repeat must be positive"
                  << std::endl;
        return 1;
    }

    // The traffic, and its switch hops, from the pFabric fat-tree's structure.
    PfabricFatTreeHelper shape(k);
    // Build() would stop on a bad shape.
    const std::string shapeError = static_cast<const PfabricFabricHelper&>(shape).GetShapeError();
    if (!shapeError.empty())
    {
        std::cerr << "pfabric-routing-cost: error: " << shapeError << std::endl;
        return 1;
    }
    shape.Build();
    const uint32_t hosts = shape.GetNHosts();
    // (b)'s routers (and (a)'s IP switches) forward a packet with one less TTL and drop it at 0:
    // a TTL must outlast the switches of the longest path.
    const std::vector<std::string> ttl =
        PfabricConfiguredDefaults::ListConfigured(Ipv4L3Protocol::GetTypeId(), {"DefaultTtl"});
    const uint32_t longestPath = shape.GetLongestPathSwitches();
    UintegerValue defaultTtl;
    TypeId::AttributeInformation ttlInfo;
    Ipv4L3Protocol::GetTypeId().LookupAttributeByName("DefaultTtl", &ttlInfo);
    defaultTtl.DeserializeFromString(ttlInfo.initialValue->SerializeToString(ttlInfo.checker),
                                     ttlInfo.checker);
    if (!ttl.empty() && defaultTtl.Get() <= longestPath)
    {
        std::cerr << "pfabric-routing-cost: error: " << cmd.DescribeNs3Setting(ttl.front())
                  << ": a TTL of " << defaultTtl.Get() << " does not outlast the " << longestPath
                  << " switches of the fat-tree's longest path ((b)'s routers drop a packet at 0); "
                  << "give at least " << longestPath + 1 << ", or leave it unset" << std::endl;
        return 1;
    }
    std::mt19937 rng(1);
    std::vector<Send> traffic;
    uint64_t switchHops = 0;
    for (uint32_t from = 0; from < hosts; ++from)
    {
        double startUs = 1;
        for (uint32_t i = 0; i < packetsPerHost; ++i)
        {
            uint32_t to = (from + 1 + rng() % (hosts - 1)) % hosts;
            startUs += 1 + (rng() % 8000) / 1000.0; // 1 to 9 us apart: 5 us on average
            traffic.push_back({from, to, startUs});
            switchHops += shape.GetHopCount(from, to) - 1;
        }
    }
    Simulator::Destroy();

    // Once, for every run: Config::Reset after each run also undid the given defaults, so that
    // runs after the first had none of them.
    Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(true));
    Measured pfabric;
    Measured plain;
    double populateWall = 0;
    for (uint32_t run = 0; run < repeat; ++run)
    {
        PfabricFatTreeHelper fatTree(k);
        fatTree.SetSwitchMode(switchMode);
        fatTree.SetLinkType(linkType);
        fatTree.Build();
        std::vector<Ipv4Address> addresses;
        for (uint32_t host = 0; host < hosts; ++host)
        {
            addresses.push_back(fatTree.GetHostAddress(host));
        }
        if (queueDiscs)
        {
            PfabricQueueDiscHelper::AssignStreams(
                PfabricQueueDiscHelper().Install(fatTree.GetDevices()),
                1);
        }
        Measured measured =
            RunTraffic(fatTree.GetHosts(), addresses, fatTree.GetDevices(), traffic, queueDiscs);
        measured.cpuS = std::min(measured.cpuS, pfabric.cpuS);
        pfabric = measured.wallS < pfabric.wallS ? measured : pfabric;
        pfabric.cpuS = measured.cpuS;

        PlainFatTree tree = BuildPlainFatTree(k, queueDiscs);
        auto start = std::chrono::steady_clock::now();
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        populateWall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        measured = RunTraffic(tree.hosts, tree.addresses, tree.devices, traffic, false);
        measured.cpuS = std::min(measured.cpuS, plain.cpuS);
        plain = measured.wallS < plain.wallS ? measured : plain;
        plain.cpuS = measured.cpuS;
    }
    // Without queue discs nothing can be lost; with them, a burst may overflow a pFabric buffer
    // (22.5 KB by default), which the per-packet-hop figures take into account.
    if (!queueDiscs && (pfabric.received != traffic.size() || plain.received != traffic.size()))
    {
        std::cerr << "pfabric-routing-cost: error: packets lost without queue discs (delivered: "
                  << "pfabric " << pfabric.received << ", global " << plain.received << " of "
                  << traffic.size() << ")" << std::endl;
        return 1;
    }
    auto perHop = [switchHops](double wall) { return wall / switchHops * 1e9; };
    auto perPacketHop = [](const Measured& m) { return m.wallS / m.packetHops * 1e9; };
    const double ratio = perPacketHop(pfabric) / perPacketHop(plain);
    if (json)
    {
        struct rusage usage;
        getrusage(RUSAGE_SELF, &usage);
        std::cout << std::setprecision(9) << "{\"k\": " << k << ", \"hosts\": " << hosts
                  << ", \"packets\": " << traffic.size() << ", \"switch_hops\": " << switchHops
                  << ", \"repeat\": " << repeat
                  << ", \"queue_discs\": " << (queueDiscs ? "true" : "false")
                  << ", \"switch_mode\": \"" << PfabricChoiceName(Names::SWITCH_MODES, switchMode)
                  << "\""
                  << ", \"link_type\": \"" << PfabricChoiceName(Names::LINK_TYPES, linkType) << "\""
                  << ", \"populate_wall_s\": " << populateWall
                  << ", \"peak_rss_bytes\": " << uint64_t(usage.ru_maxrss) * 1024
                  << ", \"pfabric\": " << MeasuredJson("pfabric", pfabric)
                  << ", \"ns3\": " << MeasuredJson("ns3", plain)
                  << ", \"pfabric_over_ns3_per_packet_hop\": " << ratio
                  << ", \"pfabric_over_ns3_per_packet_hop_cpu\": "
                  << pfabric.cpuS / pfabric.packetHops / (plain.cpuS / plain.packetHops) << "}"
                  << std::endl;
        return 0;
    }
    std::cout << "fat-tree k=" << k << ": " << hosts << " hosts, " << traffic.size() << " packets, "
              << switchHops << " switch hops, best of " << repeat << " runs"
              << (queueDiscs ? ", with queue discs" : "") << "\n"
              << "pfabric fabric (spray, " << PfabricChoiceName(Names::SWITCH_MODES, switchMode)
              << " switches, " << PfabricChoiceName(Names::LINK_TYPES, linkType) << " links)"
              << (queueDiscs ? " + PfabricQueueDisc + priority tags" : "") << ": " << pfabric.wallS
              << " s, " << perHop(pfabric.wallS) << " ns per switch hop\n"
              << "ns-3 global routing (random ECMP)" << (queueDiscs ? " + FifoQueueDisc" : "")
              << ": " << plain.wallS << " s, " << perHop(plain.wallS) << " ns per switch hop (+ "
              << populateWall << " s to populate the tables)\n"
              << "global / pfabric: " << plain.wallS / pfabric.wallS << "; difference "
              << perHop(plain.wallS - pfabric.wallS) << " ns per switch hop\n"
              << "packet hops (every device's transmissions): pfabric " << pfabric.packetHops
              << " (" << pfabric.events << " events, " << perPacketHop(pfabric)
              << " ns per packet hop), global " << plain.packetHops << " (" << plain.events
              << " events, " << perPacketHop(plain) << " ns per packet hop); delivered "
              << pfabric.received << " and " << plain.received << " of " << traffic.size() << "\n"
              << "pfabric / global per packet hop: " << ratio << std::endl;
    return 0;
}
