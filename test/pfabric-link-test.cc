/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricLinkNetDevice: under a pFabric queue disc only the packet on the wire is beyond the
// queue disc's choice, packets are timed as on a point-to-point link, a hop costs one or two
// events, and without a queue disc the device is a FIFO of bounded size.

#include "pfabric-test-cases.h"

#include "ns3/error-model.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/pcap-file.h"
#include "ns3/pfabric-link-helper.h"
#include "ns3/pfabric-link-net-device.h"
#include "ns3/pfabric-priority-tag.h"
#include "ns3/pfabric-queue-disc-helper.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/pointer.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <vector>

namespace ns3
{
namespace pfabric
{
namespace tests
{
namespace
{

const DataRate RATE("10Gbps");                  //!< link rate of every case
const Time DELAY = MicroSeconds(1);             //!< link delay of every case
constexpr uint32_t PAYLOAD = 1000;              //!< UDP payload of every packet
constexpr uint32_t IP_BYTES = PAYLOAD + 8 + 20; //!< its size at the device

/// One packet's arrival at the receiving socket.
struct Arrival
{
    Time at;           //!< when
    uint64_t priority; //!< its pFabric priority
};

/**
 * @brief Socket receive callback: note each packet's arrival and priority.
 * @param arrivals where to note them
 * @param socket the receiving socket
 */
void
RecordArrivals(std::vector<Arrival>* arrivals, Ptr<Socket> socket)
{
    while (Ptr<Packet> packet = socket->Recv())
    {
        PfabricPriorityTag tag;
        arrivals->push_back({Simulator::Now(), packet->PeekPacketTag(tag) ? tag.GetPriority() : 0});
    }
}

/**
 * @brief Send priorities count, count-1, ..., 1 at once, least urgent first.
 * @param source a connected UDP socket
 * @param count the number of packets
 */
void
SendBurst(Ptr<Socket> source, uint32_t count)
{
    for (uint64_t priority = count; priority >= 1; --priority)
    {
        Ptr<Packet> packet = Create<Packet>(PAYLOAD);
        PfabricPriorityTag::Set(packet, priority);
        source->Send(packet);
    }
}

/**
 * @brief Hand a device an IPv4 frame directly (scheduled as a function, not a lambda: ns-3.35's
 * Simulator::Schedule takes no lambdas).
 * @param device the sending device
 * @param packet the frame's payload
 */
void
SendFrame(Ptr<NetDevice> device, Ptr<Packet> packet)
{
    device->Send(packet, Address(), 0x0800);
}

/**
 * @brief Hand a device frames of the given sizes at once.
 * @param device the sending device
 * @param sizes the payload sizes, in order
 */
void
SendFrames(Ptr<NetDevice> device, std::vector<uint32_t> sizes)
{
    for (uint32_t size : sizes)
    {
        SendFrame(device, Create<Packet>(size));
    }
}

/**
 * @brief Change a device's DataRate attribute.
 * @param device the device
 * @param rate the new rate
 */
void
SetDataRate(Ptr<NetDevice> device, DataRate rate)
{
    device->SetAttribute("DataRate", DataRateValue(rate));
}

/// What a burst over one link gave.
struct BurstRun
{
    std::vector<Arrival> arrivals; //!< at the receiver, in order
    uint64_t events;               //!< simulator events of the whole run
};

/**
 * @brief Send a burst of UDP packets over one 10 Gb/s link with pFabric queue discs.
 * @param pfabricLink PfabricLinkHelper (else ns-3's PointToPointHelper)
 * @param count packets in the burst
 * @param pcap if not empty, the pcap file of the sender's device
 * @return the arrivals and the number of events
 */
BurstRun
RunBurst(bool pfabricLink, uint32_t count, const std::string& pcap = "")
{
    NodeContainer nodes;
    nodes.Create(2);
    NetDeviceContainer devices;
    PfabricLinkHelper link;
    if (pfabricLink)
    {
        link.SetDeviceAttribute("DataRate", DataRateValue(RATE));
        link.SetChannelAttribute("Delay", TimeValue(DELAY));
        devices = link.Install(nodes.Get(0), nodes.Get(1));
    }
    else
    {
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", DataRateValue(RATE));
        p2p.SetChannelAttribute("Delay", TimeValue(DELAY));
        devices = p2p.Install(nodes);
    }
    InternetStackHelper().Install(nodes);
    Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.0");
    Ipv4InterfaceContainer interfaces = addresses.Assign(devices);
    PfabricQueueDiscHelper().Install(devices);
    if (!pcap.empty())
    {
        link.EnablePcap(pcap, devices.Get(0), false, true);
    }

    const uint16_t port = 9;
    BurstRun run;
    Ptr<Socket> sink = Socket::CreateSocket(nodes.Get(1), UdpSocketFactory::GetTypeId());
    sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
    sink->SetRecvCallback(MakeBoundCallback(&RecordArrivals, &run.arrivals));
    Ptr<Socket> source = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
    source->Connect(InetSocketAddress(interfaces.GetAddress(1), port));
    Simulator::Schedule(MicroSeconds(1), &SendBurst, source, count);
    Simulator::Run();
    run.events = Simulator::GetEventCount();
    Simulator::Destroy();
    return run;
}

/**
 * @ingroup pfabric-tests
 * @brief Under a pFabric queue disc a burst leaves most urgent first but for the packet
 * already on the wire, back to back at the link rate, with one event per packet and one per
 * hand-over from the queue disc.
 */
class LinkBurstTest : public TestCase
{
  public:
    LinkBurstTest()
        : TestCase("PfabricLinkNetDevice: only the packet on the wire escapes pFabric's order")
    {
    }

  private:
    static constexpr uint32_t BURST = 20; //!< packets sent at once

    void DoRun() override
    {
        const BurstRun link = RunBurst(true, BURST);
        NS_TEST_ASSERT_MSG_EQ(link.arrivals.size(), BURST, "every packet arrives");
        // Priorities BURST..1 sent least urgent first: the first goes on the wire at once, the
        // other BURST - 1 wait in the queue disc and leave most urgent first.
        NS_TEST_EXPECT_MSG_EQ(link.arrivals[0].priority, BURST, "the first is on the wire");
        for (uint32_t i = 1; i < BURST; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(link.arrivals[i].priority, i, "then most urgent first");
        }
        // Back to back: (IP bytes + 2 B of framing) at 10 Gb/s, then the delay, exactly.
        const Time serialise = RATE.CalculateBytesTxTime(IP_BYTES + 2);
        for (uint32_t i = 0; i < BURST; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(link.arrivals[i].at,
                                  MicroSeconds(1) + serialise * int64_t(i + 1) + DELAY,
                                  "arrival " << i);
        }

        // The same burst over ns-3's point-to-point link: the same timing, one more packet
        // committed to the device queue at a busy port.
        const BurstRun p2p = RunBurst(false, BURST);
        NS_TEST_ASSERT_MSG_EQ(p2p.arrivals.size(), BURST, "every packet arrives (p2p)");
        for (uint32_t i = 0; i < BURST; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(p2p.arrivals[i].at, link.arrivals[i].at, "same timing " << i);
        }

        // Events: both runs share the set-up and the socket's events; the difference is the
        // links' per packet. Point-to-point: end of transmission, delivery and the flow
        // control's wake-up, 3 per packet. This link: the delivery, plus a hand-over for each
        // of the BURST - 1 packets that waited in the queue disc.
        const uint64_t perPacketDifference = 3 * BURST - (BURST + (BURST - 1));
        NS_TEST_EXPECT_MSG_EQ(p2p.events - link.events,
                              perPacketDifference,
                              "events: point-to-point " << p2p.events << ", link " << link.events);
    }
};

/**
 * @ingroup pfabric-tests
 * @brief A lone packet costs one event; a paced stream that never queues, one per packet.
 */
class LinkEventsPerHopTest : public TestCase
{
  public:
    LinkEventsPerHopTest()
        : TestCase("PfabricLinkNetDevice: a packet that finds the port idle costs one event")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t one = RunBurst(true, 1).events;
        const uint64_t two = RunBurst(true, 2).events;
        // The second packet of a burst waits in the queue disc: its delivery and its hand-over.
        NS_TEST_EXPECT_MSG_EQ(two - one, 2, "a queued packet: two events");
        const uint64_t p2pOne = RunBurst(false, 1).events;
        NS_TEST_EXPECT_MSG_EQ(p2pOne - one, 2, "a point-to-point hop costs two more");
    }
};

/**
 * @brief Record a device's arrival of a raw packet.
 * @param arrivals where to note the time and size
 * @param packet the packet
 */
void
NoteRx(std::vector<std::pair<Time, uint32_t>>* arrivals,
       Ptr<NetDevice> /* device */,
       Ptr<const Packet> packet,
       uint16_t /* protocol */,
       const Address& /* from */,
       const Address& /* to */,
       NetDevice::PacketType /* type */)
{
    arrivals->emplace_back(Simulator::Now(), packet->GetSize());
}

/**
 * @brief Count a trace's packets.
 * @param count the counter
 * @param packet the packet
 */
void
Count(uint32_t* count, Ptr<const Packet> /* packet */)
{
    ++*count;
}

/**
 * @ingroup pfabric-tests
 * @brief Without a queue disc the device queues in TxQueue, FIFO, and drops what does not fit;
 * the ReceiveErrorModel drops on arrival.
 */
class LinkWithoutQueueDiscTest : public TestCase
{
  public:
    LinkWithoutQueueDiscTest()
        : TestCase("PfabricLinkNetDevice: without a queue disc, a FIFO of TxQueue's size")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        PfabricLinkHelper link;
        link.SetDeviceAttribute("DataRate", DataRateValue(RATE));
        link.SetChannelAttribute("Delay", TimeValue(DELAY));
        NetDeviceContainer devices = link.Install(nodes.Get(0), nodes.Get(1));
        Ptr<PfabricLinkNetDevice> sender = DynamicCast<PfabricLinkNetDevice>(devices.Get(0));
        sender->GetQueue()->SetMaxSize(QueueSize("3p"));
        std::vector<std::pair<Time, uint32_t>> arrivals;
        nodes.Get(1)->RegisterProtocolHandler(MakeBoundCallback(&NoteRx, &arrivals),
                                              0x0800,
                                              devices.Get(1));
        uint32_t drops = 0;
        uint32_t corrupt = 0;
        sender->TraceConnectWithoutContext("MacTxDrop", MakeBoundCallback(&Count, &drops));
        devices.Get(1)->TraceConnectWithoutContext("PhyRxDrop",
                                                   MakeBoundCallback(&Count, &corrupt));
        // The receiver loses the third packet to arrive (ReceiveListErrorModel counts from 0).
        std::vector<Ptr<Packet>> packets;
        for (uint32_t i = 0; i < 6; ++i)
        {
            packets.push_back(Create<Packet>(100 * (i + 1)));
        }
        Ptr<ReceiveListErrorModel> loss = CreateObject<ReceiveListErrorModel>();
        loss->SetList({2});
        devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(loss));
        for (const Ptr<Packet>& packet : packets)
        {
            Simulator::Schedule(MicroSeconds(1), &SendFrame, sender, packet);
        }
        Simulator::Run();
        Simulator::Destroy();

        // Sent at once: one on the wire, three queued, two dropped; the third lost on arrival.
        NS_TEST_EXPECT_MSG_EQ(drops, 2, "TxQueue holds 3");
        NS_TEST_EXPECT_MSG_EQ(corrupt, 1, "the error model dropped one");
        NS_TEST_ASSERT_MSG_EQ(arrivals.size(), 3, "1 + 3 - 1 arrive");
        const std::vector<uint32_t> sizes{100, 200, 400};
        Time end = MicroSeconds(1);
        std::vector<Time> expected;
        for (uint32_t i = 0; i < 4; ++i)
        {
            end += RATE.CalculateBytesTxTime(100 * (i + 1) + 2);
            if (i != 2)
            {
                expected.push_back(end + DELAY);
            }
        }
        for (uint32_t i = 0; i < arrivals.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(arrivals[i].second, sizes[i], "FIFO order");
            NS_TEST_EXPECT_MSG_EQ(arrivals[i].first, expected[i], "back to back " << i);
        }
    }
};

/**
 * @ingroup pfabric-tests
 * @brief Frames of many sizes, in any order, and a change of DataRate between them, take
 * DataRate::CalculateBytesTxTime's time exactly (the device keeps the last two results).
 */
class LinkTimingTest : public TestCase
{
  public:
    LinkTimingTest()
        : TestCase("PfabricLinkNetDevice: every frame takes its time at the current rate")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        PfabricLinkHelper link;
        link.SetDeviceAttribute("DataRate", DataRateValue(RATE));
        link.SetChannelAttribute("Delay", TimeValue(DELAY));
        NetDeviceContainer devices = link.Install(nodes.Get(0), nodes.Get(1));
        Ptr<NetDevice> sender = devices.Get(0);
        sender->GetObject<PfabricLinkNetDevice>()->GetQueue()->SetMaxSize(QueueSize("100p"));
        std::vector<std::pair<Time, uint32_t>> arrivals;
        nodes.Get(1)->RegisterProtocolHandler(MakeBoundCallback(&NoteRx, &arrivals),
                                              0x0800,
                                              devices.Get(1));
        // Three sizes in turn defeat a two-entry memory; repeats hit it.
        const std::vector<uint32_t> first{100, 1000, 1400, 100, 1000, 1400, 1400, 100, 100, 40};
        // The second burst opens with the first's last two sizes, remembered at the old rate.
        const std::vector<uint32_t> second{40, 100, 1000, 40, 1400};
        const Time secondAt = MicroSeconds(50);
        const DataRate slower("1Gbps");
        Simulator::Schedule(MicroSeconds(1), &SendFrames, sender, first);
        Simulator::Schedule(secondAt - NanoSeconds(1), &SetDataRate, sender, slower);
        Simulator::Schedule(secondAt, &SendFrames, sender, second);
        Simulator::Run();
        Simulator::Destroy();

        std::vector<Time> expected;
        Time end = MicroSeconds(1);
        for (uint32_t size : first)
        {
            end += RATE.CalculateBytesTxTime(size + 2);
            expected.push_back(end + DELAY);
        }
        NS_TEST_ASSERT_MSG_LT(end + DELAY, secondAt, "the first burst is over before the second");
        end = secondAt;
        for (uint32_t size : second)
        {
            end += slower.CalculateBytesTxTime(size + 2);
            expected.push_back(end + DELAY);
        }
        NS_TEST_ASSERT_MSG_EQ(arrivals.size(), expected.size(), "every frame arrives");
        for (uint32_t i = 0; i < arrivals.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(arrivals[i].first, expected[i], "frame " << i);
        }
    }
};

/**
 * @ingroup pfabric-tests
 * @brief PfabricLinkHelper::EnablePcap writes the device's packets as raw IP.
 */
class LinkPcapTest : public TestCase
{
  public:
    LinkPcapTest()
        : TestCase("PfabricLinkHelper: pcap of a device, raw IP, one record per packet")
    {
    }

  private:
    void DoRun() override
    {
        const std::string file = CreateTempDirFilename("pfabric-link.pcap");
        RunBurst(true, 5, file);
        PcapFile pcap;
        pcap.Open(file, std::ios::in);
        NS_TEST_ASSERT_MSG_EQ(pcap.Fail(), false, "the file opens");
        NS_TEST_EXPECT_MSG_EQ(pcap.GetDataLinkType(), 101, "raw IP (LINKTYPE_RAW)");
        uint32_t records = 0;
        uint8_t data[2048];
        uint32_t tsSec;
        uint32_t tsUsec;
        uint32_t inclLen;
        uint32_t origLen;
        uint32_t readLen;
        while (true)
        {
            pcap.Read(data, sizeof(data), tsSec, tsUsec, inclLen, origLen, readLen);
            if (pcap.Fail() || pcap.Eof())
            {
                break;
            }
            ++records;
            NS_TEST_EXPECT_MSG_EQ(origLen, IP_BYTES, "an IP packet without link header");
            const uint32_t version = data[0] >> 4;
            NS_TEST_EXPECT_MSG_EQ(version, 4, "starting with an IPv4 header");
        }
        pcap.Close();
        NS_TEST_EXPECT_MSG_EQ(records, 5, "the five packets sent");
        std::remove(file.c_str());
    }
};

} // namespace

std::vector<TestCase*>
MakeLinkTestCases()
{
    return {new LinkBurstTest,
            new LinkEventsPerHopTest,
            new LinkWithoutQueueDiscTest,
            new LinkTimingTest,
            new LinkPcapTest};
}

} // namespace tests
} // namespace pfabric
} // namespace ns3
