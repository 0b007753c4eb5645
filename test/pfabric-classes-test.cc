/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Traffic classes (PfabricClassQueueDisc): DRR weights hold with both classes backlogged, on the
// queue disc and on a fabric's bottleneck; within a class pFabric's order and dropping hold, and
// never across classes; strict priority starves the lower class; a flow's class survives the
// send path to the switch, and its ACKs come back in it.

#include "pfabric-test-cases.h"

#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/packet.h"
#include "ns3/pfabric-class-queue-disc.h"
#include "ns3/pfabric-class-tag.h"
#include "ns3/pfabric-flow-application.h"
#include "ns3/pfabric-priority-tag.h"
#include "ns3/pfabric-queue-disc.h"
#include "ns3/pfabric-scheme-helper.h"
#include "ns3/pfabric-single-switch-helper.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <map>
#include <string>
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
 * @brief An IPv4 queue disc item of a class.
 * @param ipBytes its size, headers included
 * @param priority its PfabricPriorityTag
 * @param trafficClass its PfabricClassTag
 * @return the item
 */
Ptr<QueueDiscItem>
ClassItem(uint32_t ipBytes, uint64_t priority, uint8_t trafficClass)
{
    Ptr<Packet> packet = Create<Packet>(ipBytes - 20);
    PfabricPriorityTag::Set(packet, priority);
    PfabricClassTag::Set(packet, trafficClass);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.0.2"));
    ip.SetProtocol(6);
    ip.SetPayloadSize(packet->GetSize());
    return Create<Ipv4QueueDiscItem>(packet, Address(), Ipv4L3Protocol::PROT_NUMBER, ip);
}

/**
 * @param scheduler "Strict" or "Drr"
 * @param weights the Weights attribute
 * @param classMaxSize each class's PfabricQueueDisc MaxSize
 * @return an initialized two-class queue disc
 */
Ptr<PfabricClassQueueDisc>
MakeClasses(const std::string& scheduler,
            const std::string& weights,
            const std::string& classMaxSize)
{
    auto queueDisc = CreateObjectWithAttributes<PfabricClassQueueDisc>("Classes",
                                                                       UintegerValue(2),
                                                                       "Scheduler",
                                                                       StringValue(scheduler),
                                                                       "Weights",
                                                                       StringValue(weights));
    for (int i = 0; i < 2; ++i)
    {
        auto qdClass = CreateObject<QueueDiscClass>();
        qdClass->SetQueueDisc(
            CreateObjectWithAttributes<PfabricQueueDisc>("MaxSize",
                                                         QueueSizeValue(QueueSize(classMaxSize))));
        queueDisc->AddQueueDiscClass(qdClass);
    }
    queueDisc->Initialize();
    return queueDisc;
}

/// @return an item's class tag
uint32_t
ClassOf(Ptr<const QueueDiscItem> item)
{
    return PfabricClassTag::Get(item->GetPacket(), 99);
}

/// @return an item's priority tag
uint64_t
PriorityOf(Ptr<const QueueDiscItem> item)
{
    return PfabricPriorityTag::Get(item->GetPacket(), UINT64_MAX);
}

/**
 * @brief Keep both classes backlogged and count the bytes each is sent.
 *
 * Before every dequeue each class is topped up to `backlog` packets. Class 0's packets cycle
 * through 1500, 1000, 500 and 1200 B (mean 1050), class 1's through 200, 700 and 1500 B (mean
 * 800), so that serving packets in turn instead of bytes would show; priorities fall, so that
 * arrivals overtake buffered packets within a class.
 * @param queueDisc the queue disc
 * @param dequeues how many packets to send
 * @param backlogClass1 whether class 1 is kept backlogged too
 * @return bytes sent per class
 */
std::vector<uint64_t>
ServeBacklogged(Ptr<PfabricClassQueueDisc> queueDisc, uint32_t dequeues, bool backlogClass1 = true)
{
    const std::vector<std::vector<uint32_t>> sizes{{1500, 1000, 500, 1200}, {200, 700, 1500}};
    const uint32_t backlog = 6;
    std::vector<uint32_t> arrivals{0, 0};
    std::vector<uint64_t> sent{0, 0};
    uint64_t priority = 1000000;
    Ptr<QueueDisc> children[] = {queueDisc->GetQueueDiscClass(0)->GetQueueDisc(),
                                 queueDisc->GetQueueDiscClass(1)->GetQueueDisc()};
    for (uint32_t i = 0; i < dequeues; ++i)
    {
        for (uint8_t c = 0; c < 2; ++c)
        {
            // Bounded, so that a queue disc that misfiles arrivals fails the test, not hangs it.
            for (uint32_t k = 0;
                 k < backlog && (c == 0 || backlogClass1) && children[c]->GetNPackets() < backlog;
                 ++k)
            {
                const auto& cycle = sizes[c];
                queueDisc->Enqueue(ClassItem(cycle[arrivals[c]++ % cycle.size()], --priority, c));
            }
        }
        Ptr<QueueDiscItem> item = queueDisc->Dequeue();
        if (!item)
        {
            break;
        }
        sent.at(ClassOf(item)) += item->GetSize();
    }
    return sent;
}

/**
 * With both classes backlogged, DRR sends the classes' bytes in the ratio of their weights
 * (within 5%), whatever their packet sizes; the statistics of the queue disc stay those of
 * its classes.
 */
class DrrWeightsTest : public TestCase
{
  public:
    /**
     * @param weight0 class 0's weight
     * @param weight1 class 1's weight
     */
    DrrWeightsTest(uint32_t weight0, uint32_t weight1)
        : TestCase("PfabricClassQueueDisc: DRR " + std::to_string(weight0) + ":" +
                   std::to_string(weight1) +
                   " with both classes backlogged sends bytes in "
                   "the ratio of the weights, within 5%"),
          m_weight0(weight0),
          m_weight1(weight1)
    {
    }

  private:
    void DoRun() override
    {
        auto queueDisc = MakeClasses("Drr",
                                     std::to_string(m_weight0) + "," + std::to_string(m_weight1),
                                     "22500B");
        std::vector<uint64_t> sent = ServeBacklogged(queueDisc, 4000);
        NS_TEST_ASSERT_MSG_GT(sent[1], 0, "class 1 is served");
        const double ratio = double(sent[0]) / double(sent[1]);
        const double expected = double(m_weight0) / m_weight1;
        NS_TEST_ASSERT_MSG_EQ_TOL(ratio / expected,
                                  1.0,
                                  0.05,
                                  "bytes of class 0 / class 1 = " << ratio << ", weights "
                                                                  << expected);
        // The parent's counters are its children's.
        const uint32_t buffered = queueDisc->GetQueueDiscClass(0)->GetQueueDisc()->GetNPackets() +
                                  queueDisc->GetQueueDiscClass(1)->GetQueueDisc()->GetNPackets();
        NS_TEST_ASSERT_MSG_EQ(queueDisc->GetNPackets(), buffered, "packets of both classes");
        NS_TEST_ASSERT_MSG_EQ(queueDisc->GetStats().nTotalSentBytes,
                              sent[0] + sent[1],
                              "bytes sent");
    }

    uint32_t m_weight0; //!< class 0's weight
    uint32_t m_weight1; //!< class 1's weight
};

/**
 * Within a class, pFabric's order and dropping, and only within it: each class has a buffer of
 * three packets; an arrival that finds its class full evicts that class's least urgent packet
 * or is dropped, whatever the other class holds; each class sends in priority order.
 */
class WithinClassSrptTest : public TestCase
{
  public:
    /// @param scheduler "Strict" or "Drr"
    explicit WithinClassSrptTest(const std::string& scheduler)
        : TestCase("PfabricClassQueueDisc (" + scheduler +
                   "): within a class pFabric's order and dropping, never across classes"),
          m_scheduler(scheduler)
    {
    }

  private:
    void DoRun() override
    {
        auto queueDisc = MakeClasses(m_scheduler, "1,1", "3p");
        std::vector<std::pair<uint32_t, uint64_t>> dropped;
        for (auto [priority, trafficClass] : std::vector<std::pair<uint64_t, uint8_t>>{
                 {7, 1},
                 {3, 1},
                 {5, 1}, // class 1 full: 3, 5, 7
                 {40, 0},
                 {60, 0},
                 {80, 0}, // class 0 full: 40, 60, 80
                 {50, 0}, // evicts 80, its class's least urgent
                 {9, 1},  // dropped: class 1 holds only more urgent packets (class 0's 60 stays)
                 {1, 1}}) // evicts 7
        {
            queueDisc->Enqueue(ClassItem(1500, priority, trafficClass));
        }
        // The children's drops reach the parent's statistics, under ns-3's prefix for a
        // child's reason.
        const QueueDisc::Stats& stats = queueDisc->GetStats();
        const std::string child = QueueDisc::CHILD_QUEUE_DISC_DROP;
        NS_TEST_ASSERT_MSG_EQ(stats.GetNDroppedPackets(child + PfabricQueueDisc::EVICTED_DROP),
                              2,
                              "80 and 7 evicted, through the parent's accounting");
        NS_TEST_ASSERT_MSG_EQ(stats.GetNDroppedPackets(child + PfabricQueueDisc::ARRIVAL_DROP),
                              1,
                              "9 dropped on arrival");
        NS_TEST_ASSERT_MSG_EQ(
            queueDisc->GetQueueDiscClass(1)->GetQueueDisc()->GetStats().GetNDroppedPackets(
                PfabricQueueDisc::ARRIVAL_DROP),
            1,
            "by class 1's pFabric queue");
        NS_TEST_ASSERT_MSG_EQ(queueDisc->GetNPackets(), 6, "three packets per class");
        std::map<uint32_t, std::vector<uint64_t>> order;
        while (Ptr<QueueDiscItem> item = queueDisc->Dequeue())
        {
            order[ClassOf(item)].push_back(PriorityOf(item));
        }
        NS_TEST_ASSERT_MSG_EQ((order[0] == std::vector<uint64_t>{40, 50, 60}),
                              true,
                              "class 0 sends 40, 50, 60 in priority order");
        NS_TEST_ASSERT_MSG_EQ((order[1] == std::vector<uint64_t>{1, 3, 5}),
                              true,
                              "class 1 sends 1, 3, 5 in priority order");
    }

    std::string m_scheduler; //!< the policy between classes
};

/**
 * Strict priority: while class 0 is backlogged class 1 gets nothing, even with priorities more
 * urgent than class 0's; once class 0 empties, class 1 is sent.
 */
class StrictStarvesTest : public TestCase
{
  public:
    StrictStarvesTest()
        : TestCase("PfabricClassQueueDisc: strict priority starves class 1 while class 0 is "
                   "backlogged, and serves it once class 0 is empty")
    {
    }

  private:
    void DoRun() override
    {
        auto queueDisc = MakeClasses("Strict", "", "22500B");
        // Class 1's packets carry priority 0 to 5, more urgent than anything of class 0.
        for (uint64_t p = 0; p < 6; ++p)
        {
            queueDisc->Enqueue(ClassItem(1000, p, 1));
        }
        std::vector<uint64_t> sent = ServeBacklogged(queueDisc, 1000, false);
        NS_TEST_ASSERT_MSG_GT(sent[0], 1000 * 500, "class 0 sent 1000 packets");
        NS_TEST_ASSERT_MSG_EQ(sent[1], 0, "class 1 sent nothing while class 0 was backlogged");
        uint32_t class0Left = queueDisc->GetQueueDiscClass(0)->GetQueueDisc()->GetNPackets();
        std::vector<uint32_t> classes;
        while (Ptr<QueueDiscItem> item = queueDisc->Dequeue())
        {
            classes.push_back(ClassOf(item));
        }
        NS_TEST_ASSERT_MSG_EQ(classes.size(), class0Left + 6, "everything is sent in the end");
        for (std::size_t i = 0; i < classes.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(classes[i],
                                  (i < class0Left ? 0 : 1),
                                  "class 0 drains first, then class 1");
        }
    }
};

/// Packets the classes of switch ports took in: per (source, destination) address, per kind
/// (class * 2, plus 1 for data).
using Seen = std::map<std::pair<uint32_t, uint32_t>, std::map<uint32_t, uint32_t>>;

/**
 * @brief Enqueue trace sink of a class's child queue disc: count the packet under its (source,
 * destination) addresses, its class and whether it carries data.
 * @param seen the record
 * @param trafficClass the class whose queue took the packet
 * @param item the packet
 */
void
NoteClass(Seen* seen, uint32_t trafficClass, Ptr<const QueueDiscItem> item)
{
    auto ip = DynamicCast<const Ipv4QueueDiscItem>(item);
    if (!ip)
    {
        return;
    }
    // Data segments carry their priority (PriorityOffset and up); ACKs and handshakes 0.
    const bool data = PfabricPriorityTag::Get(item->GetPacket(), 0) > 0;
    ++(*seen)[{ip->GetHeader().GetSource().Get(), ip->GetHeader().GetDestination().Get()}]
             [trafficClass * 2 + (data ? 1 : 0)];
}

/**
 * @brief The class ports of a fabric's switch.
 * @param sw the switch
 * @return its ports' queue discs that are PfabricClassQueueDisc
 */
std::vector<Ptr<PfabricClassQueueDisc>>
ClassPorts(Ptr<Node> sw)
{
    std::vector<Ptr<PfabricClassQueueDisc>> ports;
    Ptr<TrafficControlLayer> tc = sw->GetObject<TrafficControlLayer>();
    for (uint32_t i = 0; i < sw->GetNDevices(); ++i)
    {
        if (auto port =
                DynamicCast<PfabricClassQueueDisc>(tc->GetRootQueueDiscOnDevice(sw->GetDevice(i))))
        {
            ports.push_back(port);
        }
    }
    return ports;
}

/**
 * A star under MinTCP+pFabric with two classes, strict: a flow of class 1 (host 0 to host 3) and
 * one of class 0 (host 1 to host 3). At the switch every data segment of each flow is in its
 * class's queue, and the receiver's ACKs to host 0 come back in class 1; only the handshake
 * reply, before the connection is told its class, is untagged (UntaggedClass 0).
 */
class ClassEndToEndTest : public TestCase
{
  public:
    ClassEndToEndTest()
        : TestCase("Traffic classes end to end: a flow's class reaches the switch on its data "
                   "and comes back on its ACKs")
    {
    }

  private:
    void DoRun() override
    {
        PfabricSingleSwitchHelper fabric(4);
        fabric.Build();
        PfabricSchemeHelper scheme("pfabric", "hotnets12");
        scheme.SetTrafficClasses("Strict", {1, 1});
        NS_TEST_ASSERT_MSG_EQ(scheme.GetTrafficClasses(), 2, "two classes");
        scheme.Install(NodeContainer(fabric.GetHosts(), fabric.GetSwitches()));

        Seen seen;
        std::vector<Ptr<PfabricClassQueueDisc>> ports = ClassPorts(fabric.GetSwitches().Get(0));
        NS_TEST_ASSERT_MSG_EQ(ports.size(), 4, "a class queue disc on every switch port");
        for (auto port : ports)
        {
            NS_TEST_ASSERT_MSG_EQ(port->GetNQueueDiscClasses(), 2, "two classes per port");
            for (uint32_t c = 0; c < 2; ++c)
            {
                Ptr<QueueDisc> child = port->GetQueueDiscClass(c)->GetQueueDisc();
                NS_TEST_ASSERT_MSG_EQ(child->GetInstanceTypeId(),
                                      PfabricQueueDisc::GetTypeId(),
                                      "each class a pFabric queue");
                NS_TEST_ASSERT_MSG_EQ(child->GetMaxSize(),
                                      scheme.GetPreset().pfabricBuffer,
                                      "with the preset's pFabric buffer");
                child->TraceConnectWithoutContext("Enqueue",
                                                  MakeBoundCallback(&NoteClass, &seen, c));
            }
        }

        std::vector<Ptr<PfabricFlowApplication>> apps;
        for (uint32_t i = 0; i < 4; ++i)
        {
            auto app = CreateObject<PfabricFlowApplication>();
            fabric.GetHosts().Get(i)->AddApplication(app);
            apps.push_back(app);
        }
        const Ipv4Address sink = fabric.GetHostAddress(3);
        apps[0]->AddFlow(1, sink, 30000, MilliSeconds(2), Time::Max(), 1);
        apps[1]->AddFlow(2, sink, 20000, MilliSeconds(2), Time::Max(), 0);
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(apps[0]->GetFlowsCompleted() + apps[1]->GetFlowsCompleted(),
                              2,
                              "both flows complete");
        const uint32_t h0 = fabric.GetHostAddress(0).Get();
        const uint32_t h1 = fabric.GetHostAddress(1).Get();
        const uint32_t h3 = sink.Get();
        auto& fromH0 = seen[{h0, h3}];
        auto& fromH1 = seen[{h1, h3}];
        auto& toH0 = seen[{h3, h0}];
        auto& toH1 = seen[{h3, h1}];
        // Index: class * 2 + data.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(fromH0[3], 21, "the 30000 B flow's data in class 1");
        NS_TEST_ASSERT_MSG_EQ(fromH0[1], 0, "none of it in class 0");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(fromH1[1], 14, "the 20000 B flow's data in class 0");
        NS_TEST_ASSERT_MSG_EQ(fromH1[3], 0, "none of it in class 1");
        NS_TEST_ASSERT_MSG_GT(toH0[2], 5, "the receiver's ACKs of the class 1 flow in class 1");
        NS_TEST_ASSERT_MSG_EQ(toH0[0], 1, "only the handshake reply (no class yet) in class 0");
        NS_TEST_ASSERT_MSG_EQ(toH1[2], 0, "the class 0 flow's ACKs not in class 1");
    }
};

/**
 * @brief Scheduled: record each class's sent bytes.
 * @param port the port
 * @param out where to write them
 */
void
SnapshotClassBytes(Ptr<PfabricClassQueueDisc> port, std::vector<uint64_t>* out)
{
    out->clear();
    for (uint32_t c = 0; c < port->GetNQueueDiscClasses(); ++c)
    {
        out->push_back(port->GetQueueDiscClass(c)->GetQueueDisc()->GetStats().nTotalSentBytes);
    }
}

/**
 * A bottleneck under LineRate+pFabric (senders never slow down, so both classes stay
 * backlogged): host 0 sends class 0 and host 1 class 1 to host 2, 3 MB each from 0.5 ms, with
 * DRR weights w0:w1 at every port. Over 1-2.5 ms the switch port to host 2 sends the classes' bytes
 * in the ratio of the weights, within 5%.
 */
class DrrBottleneckTest : public TestCase
{
  public:
    /**
     * @param weight0 class 0's weight
     * @param weight1 class 1's weight
     */
    DrrBottleneckTest(uint32_t weight0, uint32_t weight1)
        : TestCase("Traffic classes on a bottleneck: DRR " + std::to_string(weight0) + ":" +
                   std::to_string(weight1) + " shares the port's bytes by weight, within 5%"),
          m_weight0(weight0),
          m_weight1(weight1)
    {
    }

  private:
    void DoRun() override
    {
        PfabricSingleSwitchHelper fabric(3);
        fabric.Build();
        PfabricSchemeHelper scheme("linerate", "hotnets12");
        scheme.SetTrafficClasses("Drr", {m_weight0, m_weight1});
        scheme.Install(NodeContainer(fabric.GetHosts(), fabric.GetSwitches()));
        std::vector<Ptr<PfabricClassQueueDisc>> ports = ClassPorts(fabric.GetSwitches().Get(0));

        std::vector<Ptr<PfabricFlowApplication>> apps;
        for (uint32_t i = 0; i < 3; ++i)
        {
            auto app = CreateObject<PfabricFlowApplication>();
            fabric.GetHosts().Get(i)->AddApplication(app);
            apps.push_back(app);
        }
        const Ipv4Address sink = fabric.GetHostAddress(2);
        apps[0]->AddFlow(1, sink, 3000000, MicroSeconds(500), Time::Max(), 0);
        apps[1]->AddFlow(2, sink, 3000000, MicroSeconds(500), Time::Max(), 1);
        std::vector<std::vector<uint64_t>> first(ports.size());
        std::vector<std::vector<uint64_t>> second(ports.size());
        for (std::size_t i = 0; i < ports.size(); ++i)
        {
            Simulator::Schedule(MilliSeconds(1), &SnapshotClassBytes, ports[i], &first[i]);
            Simulator::Schedule(MicroSeconds(2500), &SnapshotClassBytes, ports[i], &second[i]);
        }
        Simulator::Stop(MicroSeconds(2600));
        Simulator::Run();
        Simulator::Destroy();

        // The bottleneck: the port that sent the most.
        std::size_t bottleneck = 0;
        uint64_t most = 0;
        for (std::size_t i = 0; i < ports.size(); ++i)
        {
            uint64_t total = second[i][0] + second[i][1] - first[i][0] - first[i][1];
            if (total > most)
            {
                most = total;
                bottleneck = i;
            }
        }
        const double class0 = double(second[bottleneck][0] - first[bottleneck][0]);
        const double class1 = double(second[bottleneck][1] - first[bottleneck][1]);
        // 1.5 ms at 10 Gb/s is 1.875 MB; neither flow is done by 2.5 ms.
        NS_TEST_ASSERT_MSG_GT(most, 1800000, "the port to host 2 is busy throughout");
        NS_TEST_ASSERT_MSG_GT(class1, 0, "class 1 is served");
        NS_TEST_ASSERT_MSG_EQ_TOL((class0 / class1) / (double(m_weight0) / m_weight1),
                                  1.0,
                                  0.05,
                                  "bytes of class 0 / class 1 = " << class0 / class1);
    }

    uint32_t m_weight0; //!< class 0's weight
    uint32_t m_weight1; //!< class 1's weight
};

} // namespace

std::vector<TestCase*>
MakeClassesTestCases()
{
    return {new DrrWeightsTest(3, 1),
            new DrrWeightsTest(1, 1),
            new WithinClassSrptTest("Strict"),
            new WithinClassSrptTest("Drr"),
            new StrictStarvesTest,
            new ClassEndToEndTest,
            new DrrBottleneckTest(3, 1),
            new DrrBottleneckTest(1, 1)};
}

} // namespace tests
} // namespace pfabric
} // namespace ns3
