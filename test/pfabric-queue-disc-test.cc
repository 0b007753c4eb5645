/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Unit tests of PfabricQueueDisc, driven directly through Enqueue/Dequeue with hand-made IPv4
// packets: scheduling, dropping, eviction, the per-flow rule, tie-breaking, untagged packets,
// and the exactness of ns-3's statistics and traces against an independent reference model.

#include "pfabric-test-cases.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-header.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/packet.h"
#include "ns3/pfabric-priority-tag.h"
#include "ns3/pfabric-queue-disc-helper.h"
#include "ns3/pfabric-queue-disc.h"
#include "ns3/string.h"
#include "ns3/tcp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
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

/// Size of the IPv4 plus TCP headers of every test packet, in bytes.
constexpr uint32_t HEADER_BYTES = 40;

/**
 * @brief Make an IPv4 queue disc item carrying a TCP segment.
 * @param ipBytes the IP packet size (at least HEADER_BYTES), what a byte-mode queue counts
 * @param priority its pFabric priority, or none for an untagged packet
 * @param srcPort TCP source port; the flow is (10.0.0.1, 10.0.0.2, srcPort, dstPort, TCP)
 * @param dstPort TCP destination port
 * @return the item
 */
Ptr<QueueDiscItem>
MakeItem(uint32_t ipBytes,
         std::optional<uint64_t> priority,
         uint16_t srcPort = 1000,
         uint16_t dstPort = 80)
{
    NS_ASSERT(ipBytes >= HEADER_BYTES);
    TcpHeader tcp;
    tcp.SetSourcePort(srcPort);
    tcp.SetDestinationPort(dstPort);
    Ptr<Packet> packet = Create<Packet>(ipBytes - HEADER_BYTES);
    packet->AddHeader(tcp);
    if (priority)
    {
        PfabricPriorityTag::Set(packet, *priority);
    }
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.0.2"));
    ip.SetProtocol(6);
    ip.SetPayloadSize(packet->GetSize());
    return Create<Ipv4QueueDiscItem>(packet, Address(), Ipv4L3Protocol::PROT_NUMBER, ip);
}

/**
 * @brief A full-size (1500 B) tagged packet.
 * @param priority its priority
 * @param srcPort its flow's source port
 * @return the item
 */
Ptr<QueueDiscItem>
Tagged(uint64_t priority, uint16_t srcPort = 1000)
{
    return MakeItem(1500, priority, srcPort);
}

/**
 * @brief Make and initialize a queue disc.
 * @param maxSize e.g. "4p" or "3000B"
 * @param mode "MostUrgent" or "EarliestOfMostUrgentFlow"
 * @param admission "Strict" or "Ns2"
 * @return the queue disc
 */
Ptr<PfabricQueueDisc>
MakeQueueDisc(const std::string& maxSize,
              const std::string& mode = "MostUrgent",
              const std::string& admission = "Strict")
{
    Ptr<PfabricQueueDisc> queueDisc =
        CreateObjectWithAttributes<PfabricQueueDisc>("MaxSize",
                                                     QueueSizeValue(QueueSize(maxSize)),
                                                     "DequeueMode",
                                                     StringValue(mode),
                                                     "AdmissionMode",
                                                     StringValue(admission));
    queueDisc->Initialize();
    return queueDisc;
}

/**
 * @param item a tagged item
 * @return its priority tag value
 */
uint64_t
TagOf(Ptr<const QueueDiscItem> item)
{
    PfabricPriorityTag tag;
    NS_ABORT_UNLESS(item->GetPacket()->PeekPacketTag(tag));
    return tag.GetPriority();
}

/**
 * @brief Dequeue everything.
 * @param queueDisc the queue disc
 * @return the items in dequeue order
 */
std::vector<Ptr<QueueDiscItem>>
Drain(Ptr<QueueDisc> queueDisc)
{
    std::vector<Ptr<QueueDiscItem>> items;
    while (Ptr<QueueDiscItem> item = queueDisc->Dequeue())
    {
        items.push_back(item);
    }
    return items;
}

/**
 * @brief Dequeue everything.
 * @param queueDisc the queue disc
 * @return the priorities in dequeue order
 */
std::vector<uint64_t>
DrainPriorities(Ptr<QueueDisc> queueDisc)
{
    std::vector<uint64_t> priorities;
    for (const auto& item : Drain(queueDisc))
    {
        priorities.push_back(TagOf(item));
    }
    return priorities;
}

/// Records what a queue disc's trace sources report.
struct TraceLog
{
    std::vector<Ptr<const QueueDiscItem>> enqueued;      //!< Enqueue
    std::vector<Ptr<const QueueDiscItem>> dequeued;      //!< Dequeue
    std::vector<Ptr<const QueueDiscItem>> droppedBefore; //!< DropBeforeEnqueue
    std::vector<Ptr<const QueueDiscItem>> droppedAfter;  //!< DropAfterDequeue
    std::vector<std::string> reasonsBefore;              //!< DropBeforeEnqueue reasons
    std::vector<std::string> reasonsAfter;               //!< DropAfterDequeue reasons

    /**
     * @brief Connect to every trace source above.
     * @param queueDisc the queue disc
     */
    void Connect(Ptr<QueueDisc> queueDisc)
    {
        queueDisc->TraceConnectWithoutContext("Enqueue", MakeCallback(&TraceLog::OnEnqueue, this));
        queueDisc->TraceConnectWithoutContext("Dequeue", MakeCallback(&TraceLog::OnDequeue, this));
        queueDisc->TraceConnectWithoutContext("DropBeforeEnqueue",
                                              MakeCallback(&TraceLog::OnDropBefore, this));
        queueDisc->TraceConnectWithoutContext("DropAfterDequeue",
                                              MakeCallback(&TraceLog::OnDropAfter, this));
    }

    /// @param item the item
    void OnEnqueue(Ptr<const QueueDiscItem> item)
    {
        enqueued.push_back(item);
    }

    /// @param item the item
    void OnDequeue(Ptr<const QueueDiscItem> item)
    {
        dequeued.push_back(item);
    }

    /// @param item the item @param reason why
    void OnDropBefore(Ptr<const QueueDiscItem> item, const char* reason)
    {
        droppedBefore.push_back(item);
        reasonsBefore.emplace_back(reason);
    }

    /// @param item the item @param reason why
    void OnDropAfter(Ptr<const QueueDiscItem> item, const char* reason)
    {
        droppedAfter.push_back(item);
        reasonsAfter.emplace_back(reason);
    }
};

/**
 * @ingroup pfabric-tests
 * @brief The most urgent packet leaves first, in byte and packet mode, in both dequeue modes.
 */
class StrictPriorityOrderTest : public TestCase
{
  public:
    StrictPriorityOrderTest()
        : TestCase("PfabricQueueDisc: packets leave in strict priority order")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<uint64_t> arrivals{5, 3, 9, 1, 7, 2, 8};
        const std::vector<uint64_t> expected{1, 2, 3, 5, 7, 8, 9};
        for (const std::string size : {"10p", "15000B"})
        {
            for (const std::string mode : {"MostUrgent", "EarliestOfMostUrgentFlow"})
            {
                Ptr<PfabricQueueDisc> queueDisc = MakeQueueDisc(size, mode);
                uint16_t port = 1000;
                for (uint64_t priority : arrivals)
                {
                    // One flow per packet, so the per-flow rule does not apply.
                    NS_TEST_ASSERT_MSG_EQ(queueDisc->Enqueue(Tagged(priority, port++)),
                                          true,
                                          "a packet that fits is accepted");
                }
                NS_TEST_ASSERT_MSG_EQ((DrainPriorities(queueDisc) == expected),
                                      true,
                                      "most urgent first (" << size << ", " << mode << ")");
            }
        }
    }
};

/**
 * @ingroup pfabric-tests
 * @brief A full buffer drops an arrival that is no more urgent than every buffered packet.
 */
class ArrivalDropTest : public TestCase
{
  public:
    ArrivalDropTest()
        : TestCase("PfabricQueueDisc: the least urgent arrival is dropped, ties included")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<PfabricQueueDisc> queueDisc = MakeQueueDisc("3p");
        TraceLog log;
        log.Connect(queueDisc);
        for (uint64_t priority : {4, 5, 6})
        {
            queueDisc->Enqueue(Tagged(priority));
        }
        Ptr<QueueDiscItem> lessUrgent = Tagged(7);
        Ptr<QueueDiscItem> tie = Tagged(6);
        NS_TEST_ASSERT_MSG_EQ(queueDisc->Enqueue(lessUrgent), false, "less urgent arrival");
        NS_TEST_ASSERT_MSG_EQ(queueDisc->Enqueue(tie), false, "a tie with the least urgent loses");

        NS_TEST_ASSERT_MSG_EQ(log.droppedBefore.size(), 2, "two drops before enqueue");
        NS_TEST_ASSERT_MSG_EQ(log.droppedBefore[0], lessUrgent, "first drop is the arrival");
        NS_TEST_ASSERT_MSG_EQ(log.droppedBefore[1], tie, "second drop is the tied arrival");
        NS_TEST_ASSERT_MSG_EQ(log.reasonsBefore[0],
                              std::string(PfabricQueueDisc::ARRIVAL_DROP),
                              "drop reason");
        NS_TEST_ASSERT_MSG_EQ(log.droppedAfter.size(), 0, "nothing evicted");
        const QueueDisc::Stats& stats = queueDisc->GetStats();
        NS_TEST_ASSERT_MSG_EQ(stats.GetNDroppedPackets(PfabricQueueDisc::ARRIVAL_DROP),
                              2,
                              "drops counted under their reason");
        NS_TEST_ASSERT_MSG_EQ(queueDisc->GetNPackets(), 3, "buffer unchanged");
        NS_TEST_ASSERT_MSG_EQ((DrainPriorities(queueDisc) == std::vector<uint64_t>{4, 5, 6}),
                              true,
                              "the buffered packets are the original ones");
    }
};

/**
 * @ingroup pfabric-tests
 * @brief A more urgent arrival evicts the least urgent packet, the latest among equals.
 */
class EvictionTest : public TestCase
{
  public:
    EvictionTest()
        : TestCase("PfabricQueueDisc: a more urgent arrival evicts the least urgent (latest tie)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<PfabricQueueDisc> queueDisc = MakeQueueDisc("4p");
        TraceLog log;
        log.Connect(queueDisc);
        Ptr<QueueDiscItem> earlierSix = Tagged(6);
        Ptr<QueueDiscItem> laterSix = Tagged(6);
        queueDisc->Enqueue(Tagged(4));
        queueDisc->Enqueue(earlierSix);
        queueDisc->Enqueue(Tagged(5));
        queueDisc->Enqueue(laterSix);

        NS_TEST_ASSERT_MSG_EQ(queueDisc->Enqueue(Tagged(2)), true, "more urgent arrival accepted");
        NS_TEST_ASSERT_MSG_EQ(log.droppedAfter.size(), 1, "exactly one eviction");
        NS_TEST_ASSERT_MSG_EQ(log.droppedAfter[0], laterSix, "the later of the two 6s goes");
        NS_TEST_ASSERT_MSG_EQ(log.reasonsAfter[0],
                              std::string(PfabricQueueDisc::EVICTED_DROP),
                              "drop reason");
        NS_TEST_ASSERT_MSG_EQ(log.droppedBefore.size(), 0, "the arrival is not dropped");
        const QueueDisc::Stats& stats = queueDisc->GetStats();
        NS_TEST_ASSERT_MSG_EQ(stats.GetNDroppedPackets(PfabricQueueDisc::EVICTED_DROP),
                              1,
                              "eviction counted under its reason");
        std::vector<Ptr<QueueDiscItem>> left = Drain(queueDisc);
        NS_TEST_ASSERT_MSG_EQ(left.size(), 4, "buffer stays full");
        NS_TEST_ASSERT_MSG_EQ(left[3], earlierSix, "the earlier 6 stayed");
    }
};

/**
 * @ingroup pfabric-tests
 * @brief In byte mode an arrival may need several evictions, and only less urgent packets go.
 */
class ByteModeEvictionTest : public TestCase
{
  public:
    ByteModeEvictionTest()
        : TestCase("PfabricQueueDisc: byte mode evicts as many packets as needed, or none")
    {
    }

  private:
    void DoRun() override
    {
        // 1000 + 500 + 500 + 1000 = 3000 B: full. A 1400 B arrival of priority 5 needs 1400 B,
        // and the packets less urgent than 5 hold 2000 B: 9, then 8, then 7 must go.
        Ptr<PfabricQueueDisc> queueDisc = MakeQueueDisc("3000B");
        TraceLog log;
        log.Connect(queueDisc);
        queueDisc->Enqueue(MakeItem(1000, 1));
        Ptr<QueueDiscItem> nine = MakeItem(500, 9);
        Ptr<QueueDiscItem> eight = MakeItem(500, 8);
        Ptr<QueueDiscItem> seven = MakeItem(1000, 7);
        queueDisc->Enqueue(nine);
        queueDisc->Enqueue(eight);
        queueDisc->Enqueue(seven);
        NS_TEST_ASSERT_MSG_EQ(queueDisc->GetNBytes(), 3000, "buffer full");

        NS_TEST_ASSERT_MSG_EQ(queueDisc->Enqueue(MakeItem(1400, 5)), true, "arrival accepted");
        NS_TEST_ASSERT_MSG_EQ(log.droppedAfter.size(), 3, "three evictions");
        NS_TEST_ASSERT_MSG_EQ(log.droppedAfter[0], nine, "least urgent first");
        NS_TEST_ASSERT_MSG_EQ(log.droppedAfter[1], eight, "then the next");
        NS_TEST_ASSERT_MSG_EQ(log.droppedAfter[2], seven, "then the next");
        NS_TEST_ASSERT_MSG_EQ(queueDisc->GetNBytes(), 2400, "1000 B + 1400 B buffered");
        NS_TEST_ASSERT_MSG_EQ(queueDisc->GetStats().nTotalDroppedBytesAfterDequeue,
                              2000,
                              "evicted bytes counted");

        // Only 500 B is less urgent than the arrival: not enough for 1400 B, so the arrival
        // is dropped and the less urgent packet is not sacrificed for nothing.
        Ptr<PfabricQueueDisc> tight = MakeQueueDisc("3000B");
        TraceLog tightLog;
        tightLog.Connect(tight);
        tight->Enqueue(MakeItem(2000, 1));
        tight->Enqueue(MakeItem(500, 9));
        tight->Enqueue(MakeItem(500, 2));
        NS_TEST_ASSERT_MSG_EQ(tight->Enqueue(MakeItem(1400, 5)), false, "arrival dropped");
        NS_TEST_ASSERT_MSG_EQ(tightLog.droppedAfter.size(), 0, "nothing evicted");
        NS_TEST_ASSERT_MSG_EQ(tight->GetNBytes(), 3000, "buffer unchanged");

        // A packet larger than the whole buffer never fits, however urgent.
        NS_TEST_ASSERT_MSG_EQ(tight->Enqueue(MakeItem(3001, 0)), false, "oversized arrival");
        NS_TEST_ASSERT_MSG_EQ(tightLog.droppedAfter.size(), 0, "nothing evicted for it");
        NS_TEST_ASSERT_MSG_EQ(tightLog.droppedBefore.size(), 2, "both arrivals dropped");
    }
};

/**
 * @ingroup pfabric-tests
 * @brief Ns2 admission drops exactly one packet, the least urgent of those whose removal alone
 * makes room, the arrival included; Strict evicts as many less urgent packets as it takes.
 */
class Ns2AdmissionTest : public TestCase
{
  public:
    Ns2AdmissionTest()
        : TestCase("PfabricQueueDisc: Ns2 admission drops exactly one packet, as ns-2 does")
    {
    }

  private:
    /**
     * @brief Buffer 1000 B at priority 1, 300 B at 9, 300 B at 8 and 900 B at 7 (2500 B).
     * @param maxSize the limit
     * @param admission the admission mode
     * @param log connected to the queue disc
     * @return the queue disc
     */
    static Ptr<PfabricQueueDisc> Filled(const std::string& maxSize,
                                        const std::string& admission,
                                        TraceLog& log)
    {
        Ptr<PfabricQueueDisc> queueDisc = MakeQueueDisc(maxSize, "MostUrgent", admission);
        log.Connect(queueDisc);
        for (auto [bytes, priority] :
             {std::pair<uint32_t, uint64_t>{1000, 1}, {300, 9}, {300, 8}, {900, 7}})
        {
            queueDisc->Enqueue(MakeItem(bytes, priority));
        }
        return queueDisc;
    }

    void DoRun() override
    {
        // ns-2 admits while the buffer stays below its limit: its 3000 B is 2999B here, as the
        // sigcomm13 preset's 36000 B is 35999B. A 1400 B arrival at priority 5 makes 3900 B, 901
        // over: only the 1000 B packet (priority 1) and the arrival itself make room alone, and
        // of those the arrival is less urgent.
        TraceLog ns2Log;
        Ptr<PfabricQueueDisc> ns2 = Filled("2999B", "Ns2", ns2Log);
        NS_TEST_ASSERT_MSG_EQ(ns2->Enqueue(MakeItem(1400, 5)), false, "Ns2 drops the arrival");
        NS_TEST_ASSERT_MSG_EQ(ns2Log.droppedAfter.size(), 0, "nothing evicted");
        NS_TEST_ASSERT_MSG_EQ(ns2->GetNBytes(), 2500, "buffer unchanged");
        TraceLog strictLog;
        Ptr<PfabricQueueDisc> strict = Filled("2999B", "Strict", strictLog);
        NS_TEST_ASSERT_MSG_EQ(strict->Enqueue(MakeItem(1400, 5)), true, "Strict admits it");
        NS_TEST_ASSERT_MSG_EQ(strictLog.droppedAfter.size(), 3, "evicting 9, 8 and 7");
        std::vector<uint64_t> evicted;
        for (const auto& item : strictLog.droppedAfter)
        {
            evicted.push_back(TagOf(item));
        }
        NS_TEST_ASSERT_MSG_EQ((evicted == std::vector<uint64_t>{9, 8, 7}), true, "in that order");

        // One byte more room and the 900 B packet at priority 7 makes room alone: it is the one
        // dropped, and only it.
        TraceLog roomLog;
        Ptr<PfabricQueueDisc> room = Filled("3000B", "Ns2", roomLog);
        NS_TEST_ASSERT_MSG_EQ(room->Enqueue(MakeItem(1400, 5)), true, "admitted");
        NS_TEST_ASSERT_MSG_EQ(roomLog.droppedAfter.size(), 1, "exactly one packet dropped");
        NS_TEST_ASSERT_MSG_EQ(TagOf(roomLog.droppedAfter[0]), 7, "the 900 B one");
        NS_TEST_ASSERT_MSG_EQ(room->GetNBytes(), 3000, "1000 + 300 + 300 + 1400 B");

        // Among equally urgent candidates the latest goes: the arrival, over a buffered packet.
        TraceLog tieLog;
        Ptr<PfabricQueueDisc> tie = MakeQueueDisc("3000B", "MostUrgent", "Ns2");
        tie->Enqueue(MakeItem(1500, 4));
        tie->Enqueue(MakeItem(1500, 6));
        tieLog.Connect(tie);
        NS_TEST_ASSERT_MSG_EQ(tie->Enqueue(MakeItem(1500, 6)), false, "the later 6 goes");
        // ... and between buffered ones, the later of two equals.
        Ptr<PfabricQueueDisc> twins = MakeQueueDisc("4500B", "MostUrgent", "Ns2");
        TraceLog twinsLog;
        twinsLog.Connect(twins);
        Ptr<QueueDiscItem> earlier = MakeItem(1500, 8);
        Ptr<QueueDiscItem> later = MakeItem(1500, 8);
        twins->Enqueue(earlier);
        twins->Enqueue(MakeItem(1500, 2));
        twins->Enqueue(later);
        NS_TEST_ASSERT_MSG_EQ(twins->Enqueue(MakeItem(1500, 3)), true, "admitted");
        NS_TEST_ASSERT_MSG_EQ(twinsLog.droppedAfter.size(), 1, "one eviction");
        NS_TEST_ASSERT_MSG_EQ(twinsLog.droppedAfter[0], later, "the later of the two 8s");
    }
};

/**
 * @ingroup pfabric-tests
 * @brief A peek shows the packet the next dequeue sends and leaves it under priority control;
 * switching DequeueMode with packets buffered keeps the per-flow rule right.
 */
class PeekAndModeSwitchTest : public TestCase
{
  public:
    PeekAndModeSwitchTest()
        : TestCase("PfabricQueueDisc: peeks stay under priority control; DequeueMode may change")
    {
    }

  private:
    void DoRun() override
    {
        // Ties at random: whatever a peek chooses, the dequeue sends, and the buffer keeps it.
        for (int64_t stream = 0; stream < 20; ++stream)
        {
            Ptr<PfabricQueueDisc> queueDisc = MakeQueueDisc("10p");
            queueDisc->SetAttribute("TieBreak", StringValue("Random"));
            queueDisc->AssignStreams(stream);
            for (uint64_t priority : {5, 3, 3, 3, 7})
            {
                queueDisc->Enqueue(Tagged(priority));
            }
            Ptr<const QueueDiscItem> peeked = queueDisc->Peek();
            NS_TEST_ASSERT_MSG_EQ(TagOf(peeked), 3, "the most urgent");
            NS_TEST_ASSERT_MSG_EQ(queueDisc->Peek(), peeked, "the same packet twice");
            NS_TEST_ASSERT_MSG_EQ(queueDisc->GetNPackets(), 5, "still buffered");
            NS_TEST_ASSERT_MSG_EQ(Ptr<const QueueDiscItem>(queueDisc->Dequeue()),
                                  peeked,
                                  "the dequeue sends the peeked packet");
        }
        // A more urgent arrival after a peek goes first (ns-3's default peek would have taken
        // the peeked packet out of the buffer and sent it next whatever came).
        Ptr<PfabricQueueDisc> queueDisc = MakeQueueDisc("10p");
        queueDisc->Enqueue(Tagged(5));
        NS_TEST_ASSERT_MSG_EQ(TagOf(queueDisc->Peek()), 5, "peeked");
        queueDisc->Enqueue(Tagged(2));
        NS_TEST_ASSERT_MSG_EQ((DrainPriorities(queueDisc) == std::vector<uint64_t>{2, 5}),
                              true,
                              "the later, more urgent packet first");

        // Packets buffered under MostUrgent, then the mode changed: the per-flow rule still sees
        // each packet's flow (read from the packet when it was not read at arrival).
        auto a = [](uint64_t priority) { return MakeItem(1500, priority, 1000, 80); };
        auto b = [](uint64_t priority) { return MakeItem(1500, priority, 2000, 80); };
        Ptr<PfabricQueueDisc> switched = MakeQueueDisc("10p", "MostUrgent");
        for (const auto& item : {b(11), a(10), b(9), a(3)})
        {
            switched->Enqueue(item);
        }
        switched->SetAttribute("DequeueMode", StringValue("EarliestOfMostUrgentFlow"));
        NS_TEST_ASSERT_MSG_EQ((DrainPriorities(switched) == std::vector<uint64_t>{10, 3, 11, 9}),
                              true,
                              "A's earliest first, then B's");
    }
};

/**
 * @ingroup pfabric-tests
 * @brief EarliestOfMostUrgentFlow sends the earliest packet of the most urgent packet's flow.
 */
class FlowEarliestTest : public TestCase
{
  public:
    FlowEarliestTest()
        : TestCase("PfabricQueueDisc: EarliestOfMostUrgentFlow sends the flow's earliest packet")
    {
    }

  private:
    void DoRun() override
    {
        // Flow A: source port 1000; B: 2000; C: same addresses as A, destination port 81.
        auto a = [](uint64_t priority) { return MakeItem(1500, priority, 1000, 80); };
        auto b = [](uint64_t priority) { return MakeItem(1500, priority, 2000, 80); };
        auto c = [](uint64_t priority) { return MakeItem(1500, priority, 1000, 81); };
        for (const std::string mode : {"EarliestOfMostUrgentFlow", "MostUrgent"})
        {
            Ptr<PfabricQueueDisc> queueDisc = MakeQueueDisc("10p", mode);
            queueDisc->Enqueue(c(11)); // C1
            queueDisc->Enqueue(a(10)); // A1
            queueDisc->Enqueue(b(9));  // B1
            queueDisc->Enqueue(a(8));  // A2
            queueDisc->Enqueue(a(3));  // A3
            // Per-flow rule: A3 is the most urgent, so A's earliest packets go first, in order;
            // C1 is a different flow although only its destination port differs.
            std::vector<uint64_t> expected = mode == "MostUrgent"
                                                 ? std::vector<uint64_t>{3, 8, 9, 10, 11}
                                                 : std::vector<uint64_t>{10, 8, 3, 9, 11};
            NS_TEST_ASSERT_MSG_EQ((DrainPriorities(queueDisc) == expected), true, mode);
        }

        // IPv6 packets are told apart by ns-3's 5-tuple hash.
        auto ipv6 = [](uint64_t priority, uint16_t srcPort) {
            TcpHeader tcp;
            tcp.SetSourcePort(srcPort);
            tcp.SetDestinationPort(80);
            Ptr<Packet> packet = Create<Packet>(1000);
            packet->AddHeader(tcp);
            PfabricPriorityTag::Set(packet, priority);
            Ipv6Header ip;
            ip.SetSource(Ipv6Address("2001:db8::1"));
            ip.SetDestination(Ipv6Address("2001:db8::2"));
            ip.SetNextHeader(6);
            ip.SetPayloadLength(packet->GetSize());
            return Create<Ipv6QueueDiscItem>(packet, Address(), Ipv6L3Protocol::PROT_NUMBER, ip);
        };
        Ptr<PfabricQueueDisc> queueDisc = MakeQueueDisc("10p", "EarliestOfMostUrgentFlow");
        queueDisc->Enqueue(ipv6(9, 2000));  // B1
        queueDisc->Enqueue(ipv6(10, 1000)); // A1
        queueDisc->Enqueue(ipv6(3, 1000));  // A2
        NS_TEST_ASSERT_MSG_EQ((DrainPriorities(queueDisc) == std::vector<uint64_t>{10, 3, 9}),
                              true,
                              "IPv6 flows");
    }
};

/**
 * @ingroup pfabric-tests
 * @brief MostUrgent breaks ties uniformly at random; EarliestOfMostUrgentFlow takes the earliest.
 */
class RandomTieBreakTest : public TestCase
{
  public:
    RandomTieBreakTest()
        : TestCase(
              "PfabricQueueDisc: ties are broken uniformly at random (chi-square), or by arrival")
    {
    }

  private:
    void DoRun() override
    {
        constexpr uint32_t TIED = 4;
        constexpr uint32_t TRIALS = 40000;
        // Chi-square with TIED - 1 = 3 degrees of freedom: a fair choice exceeds 16.27 with
        // probability 0.001. An always-first choice scores 3 * TRIALS = 120000.
        constexpr double CRITICAL_CHI_SQUARE = 16.27;

        for (const std::string mode : {"MostUrgent", "FirstArrived", "EarliestOfMostUrgentFlow"})
        {
            // FirstArrived: MostUrgent mode with TieBreak=FirstArrived.
            Ptr<PfabricQueueDisc> queueDisc =
                MakeQueueDisc("10p", mode == "FirstArrived" ? "MostUrgent" : mode);
            queueDisc->SetAttribute("TieBreak",
                                    StringValue(mode == "MostUrgent" ? "Random" : "FirstArrived"));
            queueDisc->AssignStreams(7);
            std::vector<uint32_t> firstOut(TIED, 0);
            for (uint32_t trial = 0; trial < TRIALS; ++trial)
            {
                std::vector<Ptr<QueueDiscItem>> tied;
                queueDisc->Enqueue(Tagged(9, 999)); // a less urgent packet in the way
                for (uint32_t i = 0; i < TIED; ++i)
                {
                    tied.push_back(Tagged(7, 1000 + i));
                    queueDisc->Enqueue(tied.back());
                }
                Ptr<QueueDiscItem> first = queueDisc->Dequeue();
                for (uint32_t i = 0; i < TIED; ++i)
                {
                    firstOut[i] += first == tied[i] ? 1 : 0;
                }
                Drain(queueDisc);
            }
            if (mode == "MostUrgent")
            {
                double expected = double(TRIALS) / TIED;
                double chiSquare = 0;
                for (uint32_t count : firstOut)
                {
                    chiSquare += (count - expected) * (count - expected) / expected;
                }
                NS_TEST_ASSERT_MSG_LT(chiSquare,
                                      CRITICAL_CHI_SQUARE,
                                      "tie-breaking is biased: counts "
                                          << firstOut[0] << " " << firstOut[1] << " " << firstOut[2]
                                          << " " << firstOut[3]);
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(firstOut[0], TRIALS, "the earliest of equals goes first");
            }
        }
        // The default is the original code's rule.
        Ptr<PfabricQueueDisc> byDefault = MakeQueueDisc("10p");
        Ptr<QueueDiscItem> earliest = Tagged(7, 1000);
        byDefault->Enqueue(earliest);
        for (uint16_t port = 1001; port < 1001 + TIED - 1; ++port)
        {
            byDefault->Enqueue(Tagged(7, port));
        }
        NS_TEST_ASSERT_MSG_EQ(byDefault->Dequeue(), earliest, "TieBreak defaults to FirstArrived");
    }
};

/**
 * @ingroup pfabric-tests
 * @brief AssignStreams makes tie-breaking reproducible: the same stream, the same choices.
 */
class TieBreakStreamTest : public TestCase
{
  public:
    TieBreakStreamTest()
        : TestCase("PfabricQueueDisc: AssignStreams fixes the tie-breaking sequence")
    {
    }

  private:
    /**
     * @param stream the stream to assign, or -1 for none
     * @return which of 8 tied packets left first, in each of 200 rounds
     */
    static std::vector<uint32_t> Choices(int64_t stream)
    {
        Ptr<PfabricQueueDisc> queueDisc = MakeQueueDisc("10p");
        queueDisc->SetAttribute("TieBreak", StringValue("Random"));
        if (stream >= 0)
        {
            QueueDiscContainer container;
            container.Add(queueDisc);
            NS_ABORT_UNLESS(PfabricQueueDiscHelper::AssignStreams(container, stream) == 1);
        }
        std::vector<uint32_t> choices;
        for (int round = 0; round < 200; ++round)
        {
            std::vector<Ptr<QueueDiscItem>> tied;
            for (uint16_t i = 0; i < 8; ++i)
            {
                tied.push_back(Tagged(7, 1000 + i));
                queueDisc->Enqueue(tied.back());
            }
            Ptr<QueueDiscItem> first = queueDisc->Dequeue();
            choices.push_back(std::find(tied.begin(), tied.end(), first) - tied.begin());
            Drain(queueDisc);
        }
        return choices;
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ((Choices(3) == Choices(3)), true, "same stream, same choices");
        NS_TEST_ASSERT_MSG_EQ((Choices(3) != Choices(4)), true, "another stream, other choices");
        Choices(-1); // an unassigned generator takes the next automatic stream...
        NS_TEST_ASSERT_MSG_EQ((Choices(3) == Choices(3)),
                              true,
                              "...and does not disturb assigned ones");
    }
};

/**
 * @ingroup pfabric-tests
 * @brief Untagged packets get UntaggedPriority: by default the most urgent.
 */
class UntaggedPacketTest : public TestCase
{
  public:
    UntaggedPacketTest()
        : TestCase("PfabricQueueDisc: untagged packets get UntaggedPriority")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<PfabricQueueDisc> queueDisc = MakeQueueDisc("2p");
        TraceLog log;
        log.Connect(queueDisc);
        Ptr<QueueDiscItem> untagged = MakeItem(40, std::nullopt);
        NS_TEST_ASSERT_MSG_EQ(queueDisc->GetPriority(untagged), 0, "default is most urgent");
        queueDisc->Enqueue(Tagged(5));
        queueDisc->Enqueue(Tagged(3));
        NS_TEST_ASSERT_MSG_EQ(queueDisc->Enqueue(untagged), true, "an ACK enters a full buffer");
        NS_TEST_ASSERT_MSG_EQ(TagOf(log.droppedAfter.at(0)), 5, "by evicting the least urgent");
        NS_TEST_ASSERT_MSG_EQ(queueDisc->Dequeue(), untagged, "and leaves first");

        Ptr<PfabricQueueDisc> patient = MakeQueueDisc("10p");
        patient->SetAttribute("UntaggedPriority", UintegerValue(100));
        Ptr<QueueDiscItem> late = MakeItem(40, std::nullopt);
        patient->Enqueue(late);
        patient->Enqueue(Tagged(5));
        patient->Enqueue(Tagged(99));
        std::vector<Ptr<QueueDiscItem>> order = Drain(patient);
        NS_TEST_ASSERT_MSG_EQ(order.back(), late, "UntaggedPriority 100 is the least urgent");
    }
};

/**
 * @ingroup pfabric-tests
 * @brief Random operations against an independent reference model of the pFabric rules.
 *
 * Every enqueue result, every eviction, every dequeued packet, the trace sources and the
 * queue disc's statistics must match the model, for packet and byte mode and both dequeue
 * modes. Priorities are distinct, so MostUrgent involves no random tie-breaking.
 */
class ReferenceModelTest : public TestCase
{
  public:
    ReferenceModelTest()
        : TestCase("PfabricQueueDisc: decisions, traces and statistics match a reference model")
    {
    }

  private:
    /// A packet as the model sees it.
    struct ModelPacket
    {
        uint32_t id;       //!< index of its enqueue operation
        uint64_t priority; //!< smaller is more urgent
        uint32_t bytes;    //!< IP packet size
        uint16_t flow;     //!< source port: the flow
    };

    void DoRun() override
    {
        for (const std::string size : {"8p", "6000B"})
        {
            for (const std::string mode : {"MostUrgent", "EarliestOfMostUrgentFlow"})
            {
                for (const std::string admission : {"Strict", "Ns2"})
                {
                    RunOnce(size, mode, admission);
                }
            }
        }
    }

    /**
     * @param size the buffer size
     * @param mode the dequeue mode
     * @param admission the admission mode
     */
    void RunOnce(const std::string& size, const std::string& mode, const std::string& admission)
    {
        const QueueSize limit(size);
        const bool packetMode = limit.GetUnit() == QueueSizeUnit::PACKETS;
        Ptr<PfabricQueueDisc> queueDisc = MakeQueueDisc(size, mode, admission);
        TraceLog log;
        log.Connect(queueDisc);

        std::mt19937_64 rng(12345);
        std::vector<ModelPacket> model; // arrival order
        std::map<const QueueDiscItem*, uint32_t> idOf;
        uint32_t rejected = 0;
        uint64_t rejectedBytes = 0;
        uint32_t evicted = 0;
        uint32_t dequeued = 0;
        constexpr uint32_t OPERATIONS = 3000;

        auto footprint = [packetMode](const ModelPacket& p) -> uint64_t {
            return packetMode ? 1 : p.bytes;
        };
        auto occupied = [&]() {
            uint64_t total = 0;
            for (const auto& p : model)
            {
                total += footprint(p);
            }
            return total;
        };

        for (uint32_t op = 0; op < OPERATIONS; ++op)
        {
            if (rng() % 10 < 6)
            {
                // Distinct priorities: a random high part, the operation index as low part.
                ModelPacket arrival{op,
                                    (rng() % 1000) * 4096 + op,
                                    HEADER_BYTES + uint32_t(rng() % 1461),
                                    uint16_t(1000 + rng() % 3)};
                Ptr<QueueDiscItem> item = MakeItem(arrival.bytes, arrival.priority, arrival.flow);
                idOf[PeekPointer(item)] = op;

                // The model: accept if it fits; else evict strictly less urgent packets, least
                // urgent first, if they free enough room; else drop the arrival.
                std::vector<uint32_t> modelEvicted;
                bool accept = true;
                if (occupied() + footprint(arrival) > limit.GetValue() && admission == "Ns2")
                {
                    // Ns2: of the packets whose removal alone makes room, the arrival
                    // included, the least urgent goes (priorities are distinct here).
                    const uint64_t excess = occupied() + footprint(arrival) - limit.GetValue();
                    auto victim = model.end();
                    uint64_t worst = arrival.priority;
                    for (auto it = model.begin(); it != model.end(); ++it)
                    {
                        if (footprint(*it) >= excess && it->priority > worst)
                        {
                            victim = it;
                            worst = it->priority;
                        }
                    }
                    accept = victim != model.end();
                    if (accept)
                    {
                        modelEvicted.push_back(victim->id);
                        model.erase(victim);
                    }
                }
                else if (occupied() + footprint(arrival) > limit.GetValue())
                {
                    uint64_t evictable = 0;
                    for (const auto& p : model)
                    {
                        evictable += p.priority > arrival.priority ? footprint(p) : 0;
                    }
                    accept = occupied() + footprint(arrival) <= limit.GetValue() + evictable;
                    while (accept && occupied() + footprint(arrival) > limit.GetValue())
                    {
                        auto victim = model.begin();
                        for (auto it = model.begin(); it != model.end(); ++it)
                        {
                            victim = it->priority > victim->priority ? it : victim;
                        }
                        modelEvicted.push_back(victim->id);
                        model.erase(victim);
                    }
                }
                std::size_t evictionsBefore = log.droppedAfter.size();
                NS_TEST_ASSERT_MSG_EQ(queueDisc->Enqueue(item), accept, "enqueue at op " << op);
                NS_TEST_ASSERT_MSG_EQ(log.droppedAfter.size() - evictionsBefore,
                                      modelEvicted.size(),
                                      "evictions at op " << op);
                for (std::size_t i = 0; i < modelEvicted.size(); ++i)
                {
                    NS_TEST_ASSERT_MSG_EQ(
                        idOf.at(PeekPointer(log.droppedAfter[evictionsBefore + i])),
                        modelEvicted[i],
                        "evicted packet at op " << op);
                }
                evicted += modelEvicted.size();
                if (accept)
                {
                    model.push_back(arrival);
                }
                else
                {
                    ++rejected;
                    rejectedBytes += arrival.bytes;
                }
            }
            else
            {
                Ptr<QueueDiscItem> item = queueDisc->Dequeue();
                if (model.empty())
                {
                    NS_TEST_ASSERT_MSG_EQ(item, nullptr, "empty at op " << op);
                    continue;
                }
                auto chosen = model.begin();
                for (auto it = model.begin(); it != model.end(); ++it)
                {
                    chosen = it->priority < chosen->priority ? it : chosen;
                }
                if (mode == "EarliestOfMostUrgentFlow")
                {
                    uint16_t flow = chosen->flow;
                    for (auto it = model.begin(); it != chosen; ++it)
                    {
                        if (it->flow == flow)
                        {
                            chosen = it;
                            break;
                        }
                    }
                }
                NS_TEST_ASSERT_MSG_NE(item, nullptr, "a packet at op " << op);
                NS_TEST_ASSERT_MSG_EQ(idOf.at(PeekPointer(item)),
                                      chosen->id,
                                      "dequeue at op " << op);
                model.erase(chosen);
                ++dequeued;
            }
        }

        const QueueDisc::Stats& stats = queueDisc->GetStats();
        uint32_t attempts = log.enqueued.size() + rejected;
        NS_TEST_ASSERT_MSG_EQ(stats.nTotalReceivedPackets, attempts, "received");
        NS_TEST_ASSERT_MSG_EQ(stats.nTotalEnqueuedPackets, log.enqueued.size(), "enqueued");
        NS_TEST_ASSERT_MSG_EQ(stats.nTotalDroppedPacketsBeforeEnqueue, rejected, "rejected");
        NS_TEST_ASSERT_MSG_EQ(stats.nTotalDroppedBytesBeforeEnqueue, rejectedBytes, "bytes");
        NS_TEST_ASSERT_MSG_EQ(stats.GetNDroppedPackets(PfabricQueueDisc::ARRIVAL_DROP),
                              rejected,
                              "rejected under its reason");
        NS_TEST_ASSERT_MSG_EQ(log.droppedBefore.size(), rejected, "DropBeforeEnqueue trace");
        NS_TEST_ASSERT_MSG_EQ(stats.nTotalDroppedPacketsAfterDequeue, evicted, "evicted");
        NS_TEST_ASSERT_MSG_EQ(stats.GetNDroppedPackets(PfabricQueueDisc::EVICTED_DROP),
                              evicted,
                              "evicted under its reason");
        // ns-3 counts an evicted packet as dequeued, then dropped after dequeue.
        NS_TEST_ASSERT_MSG_EQ(stats.nTotalDequeuedPackets, dequeued + evicted, "dequeued");
        NS_TEST_ASSERT_MSG_EQ(log.dequeued.size(), dequeued + evicted, "Dequeue trace");
        NS_TEST_ASSERT_MSG_EQ(queueDisc->GetNPackets(), model.size(), "packets held");
        uint64_t heldBytes = 0;
        for (const auto& p : model)
        {
            heldBytes += p.bytes;
        }
        NS_TEST_ASSERT_MSG_EQ(queueDisc->GetNBytes(), heldBytes, "bytes held");
        // The model must have exercised every rule, or the comparison proves little.
        NS_TEST_ASSERT_MSG_GT(rejected, 50, "arrival drops exercised (" << size << ")");
        NS_TEST_ASSERT_MSG_GT(evicted, 50, "evictions exercised (" << size << ")");
    }
};

/**
 * @ingroup pfabric-tests
 * @brief The tag survives copies and is replaced, not stacked, when set again.
 */
class PriorityTagTest : public TestCase
{
  public:
    PriorityTagTest()
        : TestCase("PfabricPriorityTag: set, replace, copy")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Packet> packet = Create<Packet>(100);
        PfabricPriorityTag::Set(packet, 12345678901234ULL);
        PfabricPriorityTag::Set(packet, 42); // a retransmission re-tags its segment
        Ptr<Packet> copy = packet->Copy();
        PfabricPriorityTag tag;
        NS_TEST_ASSERT_MSG_EQ(copy->PeekPacketTag(tag), true, "tag travels with copies");
        NS_TEST_ASSERT_MSG_EQ(tag.GetPriority(), 42, "the latest value");
        NS_TEST_ASSERT_MSG_EQ(copy->RemovePacketTag(tag), true, "one tag");
        NS_TEST_ASSERT_MSG_EQ(copy->PeekPacketTag(tag), false, "only one tag");
        PfabricPriorityTag big(UINT64_MAX);
        NS_TEST_ASSERT_MSG_EQ(big.GetPriority(), UINT64_MAX, "full 64-bit range");
    }
};

} // namespace

std::vector<TestCase*>
MakeQueueDiscTestCases()
{
    return {new StrictPriorityOrderTest,
            new ArrivalDropTest,
            new EvictionTest,
            new ByteModeEvictionTest,
            new Ns2AdmissionTest,
            new PeekAndModeSwitchTest,
            new FlowEarliestTest,
            new RandomTieBreakTest,
            new TieBreakStreamTest,
            new UntaggedPacketTest,
            new ReferenceModelTest,
            new PriorityTagTest};
}

} // namespace tests
} // namespace pfabric
} // namespace ns3
