/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// pfabric-routing-cost: the cost per forwarded packet of PfabricFabricRouting against ns-3's
// global routing, on the same k-ary fat-tree and the same packets.
//
// (a) FatTreeHelper: addresses encode pod/rack/host, every switch forwards in O(1) (spray).
// (b) plain ns-3: the same nodes and links, a /30 subnet per link (Ipv4AddressHelper), global
//     routing with RandomEcmpRouting (per-packet random over equal-cost routes, found by a scan
//     of the routing table on every packet).
// Neither has a queue disc (ns-3's default one is removed from (b)), so the runs differ only in
// routing. Every host sends packetsPerHost UDP packets to uniformly random other hosts, one every
// 5 us on average (about 1.6 Gb/s per host; the same list for both). Each host schedules its
// next send when it sends, so the event queue stays small. The example prints, for each, the
// wall-clock time of Simulator::Run (best of --repeat), the switch hops, and the time per hop.
//
//   ./pfabric run pfabric-routing-cost -- --k=8 --packetsPerHost=1000

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/pfabric-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <random>
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
    NodeContainer hosts;                //!< hosts, in FatTreeHelper's order
    std::vector<Ipv4Address> addresses; //!< their addresses
};

/**
 * @param k ports per switch
 * @return the fat-tree of FatTreeHelper, with /30 links and global routing
 */
PlainFatTree
BuildPlainFatTree(uint32_t k)
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
    auto connect = [&](Ptr<Node> a, Ptr<Node> b) {
        NetDeviceContainer devices = link.Install(a, b);
        Ipv4InterfaceContainer interfaces = subnets.Assign(devices);
        subnets.NewNetwork();
        trafficControl.Uninstall(devices);
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

/// One host's part of the traffic, in time order.
struct Sender
{
    Ptr<Socket> socket;                //!< its socket
    std::vector<InetSocketAddress> to; //!< destinations
    std::vector<Time> at;              //!< send times
    std::size_t next = 0;              //!< the next packet
};

/**
 * @brief Send a host's next packet and schedule the one after.
 * @param sender the host's traffic
 */
void
SendNext(Sender* sender)
{
    sender->socket->SendTo(Create<Packet>(1000), 0, sender->to[sender->next]);
    if (++sender->next < sender->at.size())
    {
        Simulator::Schedule(sender->at[sender->next] - Simulator::Now(), &SendNext, sender);
    }
}

/**
 * @brief Run the traffic over built hosts.
 * @param hosts the hosts
 * @param addresses their addresses
 * @param traffic the packets
 * @param received set to the number of packets delivered
 * @return the wall-clock seconds of Simulator::Run
 */
double
RunTraffic(const NodeContainer& hosts,
           const std::vector<Ipv4Address>& addresses,
           const std::vector<Send>& traffic,
           uint64_t* received)
{
    const uint16_t port = 9;
    std::vector<Sender> senders(hosts.GetN());
    for (uint32_t host = 0; host < hosts.GetN(); ++host)
    {
        Ptr<Socket> socket = Socket::CreateSocket(hosts.Get(host), UdpSocketFactory::GetTypeId());
        socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        socket->SetRecvCallback(MakeBoundCallback(&CountReceived, received));
        senders[host].socket = socket;
    }
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
    Simulator::Run();
    std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
    Simulator::Destroy();
    return wall.count();
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t k = 8;
    uint32_t packetsPerHost = 1000;
    uint32_t repeat = 3;
    CommandLine cmd(__FILE__);
    cmd.AddValue("k", "fat-tree ports per switch (even)", k);
    cmd.AddValue("packetsPerHost", "packets each host sends", packetsPerHost);
    cmd.AddValue("repeat", "runs of each variant; the fastest counts", repeat);
    cmd.Parse(argc, argv);
    if (packetsPerHost == 0 || repeat == 0)
    {
        std::cerr << "pfabric-routing-cost: error: --packetsPerHost and --repeat must be positive"
                  << std::endl;
        return 1;
    }

    // The traffic, and its switch hops, from the pFabric fat-tree's structure.
    FatTreeHelper shape(k);
    shape.Build();
    const uint32_t hosts = shape.GetNHosts();
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

    double pfabricWall = 1e9;
    double plainWall = 1e9;
    double populateWall = 0;
    uint64_t pfabricReceived = 0;
    uint64_t plainReceived = 0;
    for (uint32_t run = 0; run < repeat; ++run)
    {
        FatTreeHelper fatTree(k);
        fatTree.Build();
        std::vector<Ipv4Address> addresses;
        for (uint32_t host = 0; host < hosts; ++host)
        {
            addresses.push_back(fatTree.GetHostAddress(host));
        }
        pfabricReceived = 0;
        pfabricWall =
            std::min(pfabricWall,
                     RunTraffic(fatTree.GetHosts(), addresses, traffic, &pfabricReceived));

        Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(true));
        PlainFatTree plain = BuildPlainFatTree(k);
        auto start = std::chrono::steady_clock::now();
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        populateWall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        plainReceived = 0;
        plainWall =
            std::min(plainWall, RunTraffic(plain.hosts, plain.addresses, traffic, &plainReceived));
        Config::Reset();
    }
    if (pfabricReceived != traffic.size() || plainReceived != traffic.size())
    {
        std::cerr << "pfabric-routing-cost: error: packets lost (pfabric " << pfabricReceived
                  << ", global " << plainReceived << " of " << traffic.size() << ")" << std::endl;
        return 1;
    }
    auto perHop = [switchHops](double wall) { return wall / switchHops * 1e9; };
    std::cout << "fat-tree k=" << k << ": " << hosts << " hosts, " << traffic.size() << " packets, "
              << switchHops << " switch hops, best of " << repeat << " runs\n"
              << "PfabricFabricRouting (spray): " << pfabricWall << " s, " << perHop(pfabricWall)
              << " ns per switch hop\n"
              << "ns-3 global routing (random ECMP): " << plainWall << " s, " << perHop(plainWall)
              << " ns per switch hop (+ " << populateWall << " s to populate the tables)\n"
              << "global / pfabric: " << plainWall / pfabricWall << "; difference "
              << perHop(plainWall - pfabricWall) << " ns per switch hop" << std::endl;
    return 0;
}
