/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricQueueDiscHelper on a real point-to-point link: it must limit the device transmit queue
// (or pFabric degenerates into a FIFO), replace ns-3's default queue disc, and the packets that
// then cross the link must leave in pFabric order, but for those already committed to the device;
// and no queue a packet waits in takes DropTailQueue<QueueDiscItem>'s default size, which the
// programs therefore refuse.

#include "pfabric-test-cases.h"

#include "ns3/config.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/pfabric-priority-tag.h"
#include "ns3/pfabric-queue-disc-helper.h"
#include "ns3/pfabric-queue-disc.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/pointer.h"
#include "ns3/queue-disc-container.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-item.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/udp-socket-factory.h"

#include <algorithm>
#include <vector>

namespace ns3
{
namespace pfabric
{
namespace tests
{
namespace
{

/**
 * @param device a point-to-point device
 * @return the maximum size of its transmit queue
 */
QueueSize
DeviceQueueSize(Ptr<NetDevice> device)
{
    PointerValue txQueue;
    device->GetAttribute("TxQueue", txQueue);
    return txQueue.Get<QueueBase>()->GetMaxSize();
}

/**
 * @brief Socket receive callback: note the priority of every packet, in arrival order.
 * @param received where to note them
 * @param socket the receiving socket
 */
void
RecordPriorities(std::vector<uint64_t>* received, Ptr<Socket> socket)
{
    while (Ptr<Packet> packet = socket->Recv())
    {
        PfabricPriorityTag tag;
        received->push_back(packet->PeekPacketTag(tag) ? tag.GetPriority() : 0);
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
        Ptr<Packet> packet = Create<Packet>(1000);
        PfabricPriorityTag::Set(packet, priority);
        source->Send(packet);
    }
}

/**
 * @brief Two nodes on one 10 Gb/s point-to-point link, with IPv4 addresses (and so ns-3's
 * default queue disc, which PfabricQueueDiscHelper::Install replaces).
 * @param nodes where to put the two nodes
 * @param interfaces where to put their interfaces
 * @return the two devices
 */
NetDeviceContainer
MakeLink(NodeContainer* nodes, Ipv4InterfaceContainer* interfaces)
{
    nodes->Create(2);
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
    link.SetChannelAttribute("Delay", StringValue("1us"));
    NetDeviceContainer devices = link.Install(*nodes);
    InternetStackHelper().Install(*nodes);
    Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.0");
    *interfaces = addresses.Assign(devices);
    return devices;
}

/**
 * @ingroup pfabric-tests
 * @brief The helper limits device queues and replaces the default queue disc; a burst then
 * leaves in pFabric order, which a 100-packet device queue would turn into FIFO order.
 */
class DeviceQueueTest : public TestCase
{
  public:
    DeviceQueueTest()
        : TestCase("PfabricQueueDiscHelper: device queue of 1 packet, pFabric order on the wire")
    {
    }

  private:
    static constexpr uint32_t BURST = 20; //!< packets sent at once

    void DoRun() override
    {
        std::vector<uint64_t> pfabric = RunBurst(true);
        std::vector<uint64_t> fifo = RunBurst(false);
        NS_TEST_ASSERT_MSG_EQ(pfabric.size(), BURST, "every packet arrives");
        NS_TEST_ASSERT_MSG_EQ(fifo.size(), BURST, "every packet arrives (control)");
        // Priorities BURST..1 are sent least urgent first. Only the packet on the wire and those
        // in the device queue are beyond pFabric's choice: at most 1 + DEVICE_QUEUE_SIZE leave
        // in arrival order (at a burst's start ns-3.37 keeps one waiting in the device queue,
        // ns-3.44 none; a busy port keeps one on both), then
        // every packet leaves most urgent first.
        const uint32_t maxCommitted = 1 + PfabricQueueDiscHelper::DEVICE_QUEUE_SIZE.GetValue();
        NS_TEST_ASSERT_MSG_LT(CommittedInArrivalOrder(pfabric),
                              maxCommitted + 1,
                              "device queue limit");
        NS_TEST_ASSERT_MSG_EQ(
            std::is_sorted(pfabric.begin() + CommittedInArrivalOrder(pfabric), pfabric.end()),
            true,
            "after the committed packets, pFabric order on the wire");
        NS_TEST_ASSERT_MSG_EQ(CommittedInArrivalOrder(fifo),
                              BURST,
                              "control: through a 100-packet device queue, FIFO order");
    }

    /**
     * @param received priorities in the order they arrived
     * @return how many leading packets left in the order they were sent (BURST, BURST-1, ...)
     */
    static uint32_t CommittedInArrivalOrder(const std::vector<uint64_t>& received)
    {
        uint32_t n = 0;
        while (n < received.size() && received[n] == BURST - n)
        {
            ++n;
        }
        return n;
    }

    /**
     * @brief Send a burst over one 10 Gb/s link with a pFabric queue disc at the sender.
     * @param useHelper install with PfabricQueueDiscHelper (else: TrafficControlHelper, which
     *        leaves the 100-packet device queue in place)
     * @return the priorities in the order the receiver got them
     */
    std::vector<uint64_t> RunBurst(bool useHelper)
    {
        NodeContainer nodes;
        Ipv4InterfaceContainer interfaces;
        NetDeviceContainer devices = MakeLink(&nodes, &interfaces);
        NS_TEST_EXPECT_MSG_EQ(DeviceQueueSize(devices.Get(0)),
                              QueueSize("100p"),
                              "point-to-point default before installation");

        if (useHelper)
        {
            PfabricQueueDiscHelper().Install(devices);
            NS_TEST_EXPECT_MSG_EQ(DeviceQueueSize(devices.Get(0)),
                                  PfabricQueueDiscHelper::DEVICE_QUEUE_SIZE,
                                  "device queue limited");
            NS_TEST_EXPECT_MSG_EQ(PfabricQueueDiscHelper::DEVICE_QUEUE_SIZE,
                                  QueueSize("1p"),
                                  "one packet");
        }
        else
        {
            for (uint32_t i = 0; i < devices.GetN(); ++i)
            {
                nodes.Get(i)->GetObject<TrafficControlLayer>()->DeleteRootQueueDiscOnDevice(
                    devices.Get(i));
            }
            TrafficControlHelper tch;
            tch.SetRootQueueDisc("ns3::PfabricQueueDisc");
            tch.Install(devices);
        }
        for (uint32_t i = 0; i < devices.GetN(); ++i)
        {
            Ptr<QueueDisc> root =
                nodes.Get(i)->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(
                    devices.Get(i));
            NS_TEST_EXPECT_MSG_NE(DynamicCast<PfabricQueueDisc>(root),
                                  nullptr,
                                  "PfabricQueueDisc is the root queue disc");
        }

        const uint16_t port = 9;
        std::vector<uint64_t> received;
        Ptr<Socket> sink = Socket::CreateSocket(nodes.Get(1), UdpSocketFactory::GetTypeId());
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        sink->SetRecvCallback(MakeBoundCallback(&RecordPriorities, &received));
        Ptr<Socket> source = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
        source->Connect(InetSocketAddress(interfaces.GetAddress(1), port));
        Simulator::Schedule(MicroSeconds(1), &SendBurst, source, BURST);
        Simulator::Run();
        Simulator::Destroy();
        return received;
    }
};

/**
 * @param queueDisc a queue disc
 * @param sizes where to add the maximum size of each of its internal queues, and of its
 *        classes' queue discs', recursively
 */
void
CollectInternalQueueSizes(Ptr<QueueDisc> queueDisc, std::vector<QueueSize>* sizes)
{
    for (std::size_t i = 0; i < queueDisc->GetNInternalQueues(); ++i)
    {
        sizes->push_back(queueDisc->GetInternalQueue(i)->GetMaxSize());
    }
    for (std::size_t i = 0; i < queueDisc->GetNQueueDiscClasses(); ++i)
    {
        CollectInternalQueueSizes(queueDisc->GetQueueDiscClass(i)->GetQueueDisc(), sizes);
    }
}

/**
 * @ingroup pfabric-tests
 * @brief Every queue disc this build can install, ns-3's and the module's, sizes the internal
 * queues it makes itself: with DropTailQueue<QueueDiscItem>::MaxSize's default set to an odd
 * size, none of their queues has it after traffic has crossed them (FqCoDel, FqPie and FqCobalt
 * make a queue disc per flow on its first packet). The programs refuse that default as one that
 * changes nothing (PfabricQueueDiscHelper::GetPortDefaultsWithoutEffect); a queue disc that
 * took it would fail here.
 */
class InternalQueueSizeTest : public TestCase
{
  public:
    InternalQueueSizeTest()
        : TestCase("PfabricQueueDiscHelper: every queue disc sizes its internal queues itself, "
                   "so DropTailQueue<QueueDiscItem>::MaxSize's default reaches none")
    {
    }

  private:
    void DoRun() override
    {
        const std::string path = DropTailQueue<QueueDiscItem>::GetTypeId().GetName() + "::MaxSize";
        const QueueSize odd("7777p");
        Config::SetDefault(path, QueueSizeValue(odd));
        NS_TEST_EXPECT_MSG_EQ(CreateObject<DropTailQueue<QueueDiscItem>>()->GetMaxSize(),
                              odd,
                              "control: the default sizes a queue made without a size");
        uint32_t queueDiscs = 0;
        std::vector<std::string> names;
        for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
        {
            const TypeId tid = TypeId::GetRegistered(i);
            // MqQueueDisc needs a device of several transmission queues (the programs refuse
            // it on theirs).
            if (!tid.IsChildOf(QueueDisc::GetTypeId()) || !tid.HasConstructor() ||
                tid.GetName() == "ns3::MqQueueDisc")
            {
                continue;
            }
            std::vector<QueueSize> sizes = RunThrough(tid);
            NS_TEST_EXPECT_MSG_GT(sizes.size(), 0, tid.GetName() << ": a queue to look at");
            ++queueDiscs;
            names.push_back(tid.GetName());
            for (const QueueSize& size : sizes)
            {
                // (QueueSize's == stops the program on two units)
                const bool took =
                    size.GetUnit() == odd.GetUnit() && size.GetValue() == odd.GetValue();
                NS_TEST_EXPECT_MSG_EQ(took, false, tid.GetName() << " took the default");
            }
        }
        // (SetDefault of the old value would still count as configured: a new value object)
        Config::Reset();
        // ns-3's Fifo, PfifoFast, Prio, Red, Tbf, CoDel, FqCoDel, Pie, FqPie, Cobalt, FqCobalt
        // and the module's three.
        NS_TEST_EXPECT_MSG_GT(queueDiscs, 13, "queue disc types tried");
        NS_TEST_EXPECT_MSG_EQ(std::count(names.begin(), names.end(), "ns3::PfabricQueueDisc"),
                              1,
                              "PfabricQueueDisc among them");
    }

    /**
     * @brief Carry a few packets of several flows through a queue disc of type tid on one
     * point-to-point link.
     * @param tid a queue disc type
     * @return the maximum sizes of its internal queues, and its classes', after the traffic
     */
    static std::vector<QueueSize> RunThrough(TypeId tid)
    {
        NodeContainer nodes;
        Ipv4InterfaceContainer interfaces;
        NetDeviceContainer devices = MakeLink(&nodes, &interfaces);
        PfabricQueueDiscHelper helper;
        helper.SetQueueDiscType(tid.GetName());
        QueueDiscContainer queueDiscs = helper.Install(devices);

        const uint16_t port = 9;
        for (uint16_t flow = 0; flow < 3; ++flow)
        {
            Ptr<Socket> source = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
            source->Bind(InetSocketAddress(Ipv4Address::GetAny(), port + 1 + flow));
            source->Connect(InetSocketAddress(interfaces.GetAddress(1), port));
            Simulator::Schedule(MicroSeconds(1), &SendBurst, source, 4);
        }
        // PIE's and Cobalt's periodic events never end a simulation by themselves.
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        std::vector<QueueSize> sizes;
        CollectInternalQueueSizes(queueDiscs.Get(0), &sizes);
        Simulator::Destroy();
        return sizes;
    }
};

} // namespace

std::vector<TestCase*>
MakeQueueDiscHelperTestCases()
{
    return {new DeviceQueueTest, new InternalQueueSizeTest};
}

} // namespace tests
} // namespace pfabric
} // namespace ns3
