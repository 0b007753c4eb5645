/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Finite priority levels: the equal-load threshold rule (PfabricPriorityLevels) on hand-made
// CDFs, PfabricLevelQueueDisc against FifoQueueDisc (one level) and PfabricQueueDisc (one level
// per priority) on hand cases, and the tags of a quantised fabric's flows at the switch.

#include "pfabric-test-cases.h"

#include "ns3/boolean.h"
#include "ns3/fifo-queue-disc.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/packet.h"
#include "ns3/pfabric-flow-application.h"
#include "ns3/pfabric-level-queue-disc.h"
#include "ns3/pfabric-priority-levels.h"
#include "ns3/pfabric-priority-policy.h"
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
#include <set>
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
 * @brief An IPv4 queue disc item.
 * @param ipBytes its size, headers included
 * @param priority its PfabricPriorityTag
 * @return the item
 */
Ptr<QueueDiscItem>
Item(uint32_t ipBytes, uint64_t priority)
{
    Ptr<Packet> packet = Create<Packet>(ipBytes - 20);
    PfabricPriorityTag::Set(packet, priority);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.0.2"));
    ip.SetProtocol(6);
    ip.SetPayloadSize(packet->GetSize());
    return Create<Ipv4QueueDiscItem>(packet, Address(), Ipv4L3Protocol::PROT_NUMBER, ip);
}

/// @return an item's tag
uint64_t
TagOf(Ptr<const QueueDiscItem> item)
{
    PfabricPriorityTag tag;
    NS_ABORT_UNLESS(item->GetPacket()->PeekPacketTag(tag));
    return tag.GetPriority();
}

/**
 * @brief An element, safe to read after a failed size check (the runner may go on).
 * @param values the values
 * @param i an index
 * @return values[i], or UINT64_MAX past the end
 */
uint64_t
At(const std::vector<uint64_t>& values, std::size_t i)
{
    return i < values.size() ? values[i] : UINT64_MAX;
}

/// One step of a hand case: an arrival (size > 0) or a dequeue (size 0).
struct Step
{
    uint32_t bytes;    //!< arrival's IP bytes; 0: dequeue
    uint64_t priority; //!< arrival's tag, unique per arrival so that it names the packet
};

/// What a queue disc did with a hand case.
struct Outcome
{
    std::vector<uint64_t> sent;    //!< tags dequeued, in order
    std::vector<uint64_t> dropped; //!< tags dropped (any reason), in order
};

/// @brief Drop trace sink: note the tag.
void
NoteDrop(std::vector<uint64_t>* dropped, Ptr<const QueueDiscItem> item, const char* /* reason */)
{
    dropped->push_back(TagOf(item));
}

/**
 * @brief Run a hand case through a queue disc, then drain it.
 * @param queueDisc an initialized queue disc
 * @param steps the arrivals and dequeues
 * @return what it sent and dropped
 */
Outcome
Play(Ptr<QueueDisc> queueDisc, const std::vector<Step>& steps)
{
    Outcome outcome;
    queueDisc->TraceConnectWithoutContext("DropBeforeEnqueue",
                                          MakeBoundCallback(&NoteDrop, &outcome.dropped));
    queueDisc->TraceConnectWithoutContext("DropAfterDequeue",
                                          MakeBoundCallback(&NoteDrop, &outcome.dropped));
    for (const Step& step : steps)
    {
        if (step.bytes > 0)
        {
            queueDisc->Enqueue(Item(step.bytes, step.priority));
        }
        else if (Ptr<QueueDiscItem> item = queueDisc->Dequeue())
        {
            outcome.sent.push_back(TagOf(item));
        }
    }
    while (Ptr<QueueDiscItem> item = queueDisc->Dequeue())
    {
        outcome.sent.push_back(TagOf(item));
    }
    return outcome;
}

/**
 * @param levels Levels
 * @param maxSize MaxSize
 * @return an initialized PfabricLevelQueueDisc (PriorityOffset 10)
 */
Ptr<PfabricLevelQueueDisc>
MakeLevels(uint32_t levels, const std::string& maxSize)
{
    auto queueDisc =
        CreateObjectWithAttributes<PfabricLevelQueueDisc>("Levels",
                                                          UintegerValue(levels),
                                                          "MaxSize",
                                                          QueueSizeValue(QueueSize(maxSize)),
                                                          "PriorityOffset",
                                                          UintegerValue(10));
    queueDisc->Initialize();
    return queueDisc;
}

/// The equal-load thresholds of hand-made CDFs, computed by hand.
class EqualLoadThresholdsTest : public TestCase
{
  public:
    EqualLoadThresholdsTest()
        : TestCase("PfabricPriorityLevels: equal-load thresholds of hand-made CDFs")
    {
    }

  private:
    void DoRun() override
    {
        // Uniform on [0, 1000]: E[min(S, x)] = x - x^2 / 2000, mean 500; k/4 of it at
        // x = 1000 - sqrt(1e6 - 2000 * 125 k): 133.97, 292.89, 500.
        PfabricPriorityLevels::Cdf uniform{{0, 0}, {1000, 1}};
        NS_TEST_ASSERT_MSG_EQ_TOL(PfabricPriorityLevels::BytesBelow(uniform, 1000),
                                  500,
                                  1e-9,
                                  "the mean");
        NS_TEST_ASSERT_MSG_EQ_TOL(PfabricPriorityLevels::BytesBelow(uniform, 400),
                                  320,
                                  1e-9,
                                  "400 - 400^2 / 2000");
        auto four = PfabricPriorityLevels::EqualLoadThresholds(uniform, 4);
        NS_TEST_ASSERT_MSG_EQ(PfabricPriorityPolicy::FormatThresholds(four),
                              "134,293,500",
                              "K = 4");
        NS_TEST_ASSERT_MSG_EQ(PfabricPriorityLevels::EqualLoadThresholds(uniform, 1).size(),
                              0,
                              "K = 1: no thresholds");
        // Half the flows 1000 B, half 3000 B (point masses): E[min(S, x)] = min(x, 1000) +
        // 0.5 max(0, min(x, 3000) - 1000), mean 2000; quarters at 500, 1000, 2000.
        PfabricPriorityLevels::Cdf twoSizes{{1000, 0.5}, {3000, 0.5}, {3000, 1}};
        NS_TEST_ASSERT_MSG_EQ_TOL(PfabricPriorityLevels::BytesBelow(twoSizes, 5000),
                                  2000,
                                  1e-9,
                                  "the mean");
        NS_TEST_ASSERT_MSG_EQ(PfabricPriorityPolicy::FormatThresholds(
                                  PfabricPriorityLevels::EqualLoadThresholds(twoSizes, 4)),
                              "500,1000,2000",
                              "K = 4");
        NS_TEST_ASSERT_MSG_EQ(PfabricPriorityPolicy::FormatThresholds(
                                  PfabricPriorityLevels::EqualLoadThresholds(twoSizes, 2)),
                              "1000",
                              "K = 2");
    }
};

/// One level: the same departures and drops as a FifoQueueDisc of the same size.
class OneLevelIsFifoTest : public TestCase
{
  public:
    OneLevelIsFifoTest()
        : TestCase("PfabricLevelQueueDisc: one level is FIFO drop-tail (as FifoQueueDisc)")
    {
    }

  private:
    void DoRun() override
    {
        // Mixed sizes and priorities (each tag names its packet), a 4000 B buffer: byte
        // admission matters (a 1500 B packet does not fit where a 500 B one does).
        const std::vector<Step> steps{{1500, 17},
                                      {1500, 12},
                                      {500, 30},
                                      {1500, 11},
                                      {400, 25},
                                      {100, 13},
                                      {0, 0},
                                      {1500, 14},
                                      {1500, 15},
                                      {0, 0},
                                      {0, 0},
                                      {60, 16},
                                      {1500, 18},
                                      {1500, 19},
                                      {400, 20}};
        Outcome levels = Play(MakeLevels(1, "4000B"), steps);
        auto fifo = CreateObjectWithAttributes<FifoQueueDisc>("MaxSize",
                                                              QueueSizeValue(QueueSize("4000B")));
        fifo->Initialize();
        Outcome reference = Play(fifo, steps);
        NS_TEST_ASSERT_MSG_EQ(levels.sent.size(), reference.sent.size(), "as many sent");
        for (std::size_t i = 0; i < reference.sent.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(At(levels.sent, i), At(reference.sent, i), "departure " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(levels.dropped.size(), reference.dropped.size(), "as many drops");
        for (std::size_t i = 0; i < reference.dropped.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(At(levels.dropped, i), At(reference.dropped, i), "drop " << i);
        }
        // What FIFO drop-tail gives here, by hand: 1500+1500+500 fit, 1500 (11) does not, 400
        // fits (3900), 100 fits (4000); 17 leaves, 1500 fits (4000), 1500 (15) does not; 12 and
        // 30 leave (2000), 60 and 1500 fit (3560), 1500 (19) does not, 400 fits (3960).
        const std::vector<uint64_t> dropped{11, 15, 19};
        NS_TEST_ASSERT_MSG_EQ(levels.dropped.size(), dropped.size(), "drops by hand");
        for (std::size_t i = 0; i < dropped.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(At(levels.dropped, i), dropped[i], "drop " << i << " by hand");
        }
        const std::vector<uint64_t> sent{17, 12, 30, 25, 13, 14, 16, 18, 20};
        for (std::size_t i = 0; i < sent.size() && i < levels.sent.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(At(levels.sent, i), sent[i], "departure " << i << " by hand");
        }
    }
};

/**
 * One level per priority: pFabric's order (PfabricQueueDisc, TieBreak FirstArrived) while the
 * buffer has room; with a full buffer an urgent arrival is dropped where pFabric evicts.
 */
class LevelPerPriorityTest : public TestCase
{
  public:
    LevelPerPriorityTest()
        : TestCase("PfabricLevelQueueDisc: one level per priority sends in pFabric's order; "
                   "a full buffer drops instead of evicting")
    {
    }

  private:
    void DoRun() override
    {
        auto pfabric = [](const std::string& maxSize) {
            auto queueDisc =
                CreateObjectWithAttributes<PfabricQueueDisc>("MaxSize",
                                                             QueueSizeValue(QueueSize(maxSize)),
                                                             "TieBreak",
                                                             StringValue("FirstArrived"));
            queueDisc->Initialize();
            return queueDisc;
        };
        // Priorities 10..14 (levels 0..4 of offset 10) and an ACK (0), with ties (FIFO in
        // both): the sequences of priorities sent must agree.
        const std::vector<Step> roomy{{1500, 13},
                                      {1500, 11},
                                      {1500, 14},
                                      {100, 0},
                                      {1500, 11},
                                      {0, 0},
                                      {1500, 12},
                                      {1500, 10},
                                      {0, 0},
                                      {1500, 13}};
        Outcome levels = Play(MakeLevels(5, "100000B"), roomy);
        Outcome reference = Play(pfabric("100000B"), roomy);
        const std::vector<uint64_t> expected{0, 10, 11, 11, 12, 13, 13, 14};
        NS_TEST_ASSERT_MSG_EQ(levels.sent.size(), expected.size(), "everything sent");
        NS_TEST_ASSERT_MSG_EQ(reference.sent.size(), expected.size(), "pFabric: everything");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(At(levels.sent, i), At(reference.sent, i), "as pFabric, " << i);
        }
        // By hand: 0 leaves (13, 11, 14, 0 buffered), 10 leaves (13, 11, 14, 11, 12, 10), then
        // the drain: 11, 11, 12, 13, 13, 14.
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(At(levels.sent, i), expected[i], "departure " << i << " by hand");
        }

        // Full buffer of three 1500 B packets of priority 14; an arrival of priority 10.
        const std::vector<Step> full{{1500, 14}, {1500, 14}, {1500, 14}, {1500, 10}};
        Outcome levelsFull = Play(MakeLevels(5, "4500B"), full);
        Outcome pfabricFull = Play(pfabric("4500B"), full);
        NS_TEST_ASSERT_MSG_EQ(pfabricFull.dropped.size(), 1, "pFabric drops one");
        NS_TEST_ASSERT_MSG_EQ(At(pfabricFull.dropped, 0), 14, "pFabric evicts a 14");
        NS_TEST_ASSERT_MSG_EQ(At(pfabricFull.sent, 0), 10, "pFabric sends the 10 first");
        NS_TEST_ASSERT_MSG_EQ(levelsFull.dropped.size(), 1, "levels drop one");
        NS_TEST_ASSERT_MSG_EQ(At(levelsFull.dropped, 0), 10, "levels drop the urgent arrival");
        NS_TEST_ASSERT_MSG_EQ(levelsFull.sent.size(), 3, "the three 14s sent");

        // One buffer for every level: 1500 B at level 0, 1500 B at level 4 fill 3000 B, and a
        // further 1500 B of level 0 is dropped (split or per-level limits would admit it).
        const std::vector<Step> shared{{1500, 10}, {1500, 14}, {1500, 11}, {0, 0}, {1500, 12}};
        Outcome levelsShared = Play(MakeLevels(5, "3000B"), shared);
        NS_TEST_ASSERT_MSG_EQ(levelsShared.dropped.size(), 1, "one arrival does not fit");
        NS_TEST_ASSERT_MSG_EQ(At(levelsShared.dropped, 0), 11, "the third 1500 B");
        NS_TEST_ASSERT_MSG_EQ(levelsShared.sent.size(), 3, "10, then 12 before 14");
        NS_TEST_ASSERT_MSG_EQ(At(levelsShared.sent, 1), 12, "12 before 14");

        // Classification: ACKs and untagged-like priorities at or below the offset to level 0,
        // beyond the last level to the last.
        Ptr<PfabricLevelQueueDisc> four = MakeLevels(4, "22500B");
        NS_TEST_ASSERT_MSG_EQ(four->GetLevel(0), 0, "ACK");
        NS_TEST_ASSERT_MSG_EQ(four->GetLevel(10), 0, "level 0");
        NS_TEST_ASSERT_MSG_EQ(four->GetLevel(12), 2, "level 2");
        NS_TEST_ASSERT_MSG_EQ(four->GetLevel(13), 3, "level 3");
        NS_TEST_ASSERT_MSG_EQ(four->GetLevel(1000000), 3, "beyond: the last level");
    }
};

/// @brief Enqueue trace sink: note (source address, tag).
void
NoteTag(std::map<uint32_t, std::vector<uint64_t>>* tags, Ptr<const QueueDiscItem> item)
{
    auto ip = DynamicCast<const Ipv4QueueDiscItem>(item);
    PfabricPriorityTag tag;
    if (ip && item->GetPacket()->PeekPacketTag(tag) && tag.GetPriority() != 0)
    {
        (*tags)[ip->GetHeader().GetSource().Get()].push_back(tag.GetPriority());
    }
}

/**
 * A star under MinTCP with three levels (thresholds 1000 and 100000 B): at the switch, a 500 B
 * flow's data carries 10 (level 0 + offset), a 20000 B flow's 11 (its remaining size stays in
 * (1000, 100000]), a 300000 B flow's starts at 12 and steps down to 11 once its remaining size
 * is 100000 B or less.
 */
class LevelTagsEndToEndTest : public TestCase
{
  public:
    LevelTagsEndToEndTest()
        : TestCase("Priority levels end to end: a flow's tag at the switch is its level + "
                   "PriorityOffset")
    {
    }

  private:
    void DoRun() override
    {
        PfabricSingleSwitchHelper fabric(4);
        fabric.Build();
        PfabricSchemeHelper scheme("pfabric", "hotnets12");
        scheme.SetPriorityLevels({1000, 100000});
        NS_TEST_ASSERT_MSG_EQ(scheme.GetPriorityLevels(), 3, "three levels");
        scheme.Install(NodeContainer(fabric.GetHosts(), fabric.GetSwitches()));

        std::map<uint32_t, std::vector<uint64_t>> tags;
        Ptr<Node> sw = fabric.GetSwitches().Get(0);
        Ptr<TrafficControlLayer> tc = sw->GetObject<TrafficControlLayer>();
        uint32_t ports = 0;
        for (uint32_t i = 0; i < sw->GetNDevices(); ++i)
        {
            auto port =
                DynamicCast<PfabricLevelQueueDisc>(tc->GetRootQueueDiscOnDevice(sw->GetDevice(i)));
            if (!port)
            {
                continue;
            }
            UintegerValue levels;
            port->GetAttribute("Levels", levels);
            NS_TEST_ASSERT_MSG_EQ(levels.Get(), 3, "every port has three queues");
            port->TraceConnectWithoutContext("Enqueue", MakeBoundCallback(&NoteTag, &tags));
            ++ports;
        }
        NS_TEST_ASSERT_MSG_EQ(ports, 4, "a level queue disc on every switch port");

        std::vector<Ptr<PfabricFlowApplication>> apps;
        for (uint32_t i = 0; i < 4; ++i)
        {
            auto app = CreateObject<PfabricFlowApplication>();
            fabric.GetHosts().Get(i)->AddApplication(app);
            apps.push_back(app);
        }
        const Ipv4Address sink = fabric.GetHostAddress(3);
        apps[0]->AddFlow(1, sink, 500, MilliSeconds(2));
        apps[1]->AddFlow(2, sink, 20000, MilliSeconds(2));
        apps[2]->AddFlow(3, sink, 300000, MilliSeconds(2));
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        Simulator::Destroy();

        const auto& small = tags[fabric.GetHostAddress(0).Get()];
        const auto& medium = tags[fabric.GetHostAddress(1).Get()];
        const auto& large = tags[fabric.GetHostAddress(2).Get()];
        NS_TEST_ASSERT_MSG_EQ(small.size(), 1, "the 500 B flow: one data segment");
        NS_TEST_ASSERT_MSG_EQ(At(small, 0), 10, "level 0 + 10");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(medium.size(), 14, "the 20000 B flow: 14 segments or more");
        for (uint64_t tag : medium)
        {
            NS_TEST_ASSERT_MSG_EQ(tag, 11, "level 1 + 10");
        }
        NS_TEST_ASSERT_MSG_GT_OR_EQ(large.size(), 206, "the 300000 B flow: 206 segments or more");
        NS_TEST_ASSERT_MSG_EQ(At(large, 0), 12, "starts at level 2 + 10");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(At(large, large.size() - 1),
                                    11,
                                    "ends at level 1 + 10 or below");
        std::set<uint64_t> seen(large.begin(), large.end());
        NS_TEST_ASSERT_MSG_EQ(seen.count(11), 1, "the large flow passes through level 1");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(*seen.begin(), 10, "nothing below level 0 + 10");
        NS_TEST_ASSERT_MSG_EQ(*seen.rbegin(), 12, "nothing beyond level 2 + 10");
    }
};

} // namespace

std::vector<TestCase*>
MakeLevelsTestCases()
{
    return {new EqualLoadThresholdsTest,
            new OneLevelIsFifoTest,
            new LevelPerPriorityTest,
            new LevelTagsEndToEndTest};
}

} // namespace tests
} // namespace pfabric
} // namespace ns3
