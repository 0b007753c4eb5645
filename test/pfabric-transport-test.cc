/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The end hosts of the four schemes (MinTCP, LineRate, TCP, DCTCP) on small fabrics: what each
// one sends, when, and with which priority, checked segment by segment.

#include "pfabric-test-cases.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/loopback-net-device.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/pfabric-baseline-tcp-socket.h"
#include "ns3/pfabric-flow-sender.h"
#include "ns3/pfabric-line-rate-tcp-socket.h"
#include "ns3/pfabric-min-tcp-socket.h"
#include "ns3/pfabric-preset.h"
#include "ns3/pfabric-priority-tag.h"
#include "ns3/pfabric-queue-disc.h"
#include "ns3/pfabric-scheme-helper.h"
#include "ns3/pfabric-single-switch-helper.h"
#include "ns3/pfabric-tcp-demux.h"
#include "ns3/pfabric-tcp-socket-factory.h"
#include "ns3/pfabric-tcp-socket.h"
#include "ns3/pointer.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-option-sack.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
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

constexpr uint32_t MSS = 1460;
/// Flows start long after their connections are open.
const Time FLOW_START = MicroSeconds(100);

/// One segment as its socket handed it to IP.
struct Segment
{
    Time at;           //!< when
    uint32_t seq;      //!< first sequence number
    uint32_t bytes;    //!< payload
    uint64_t priority; //!< its PfabricPriorityTag as it entered IP; UINT64_MAX: none
    bool retransmit;   //!< below the highest sequence sent before
};

/// A flow on a pre-opened connection, and everything its two sockets did.
struct Flow
{
    uint32_t src = 0;                              //!< sending host
    uint32_t dst = 1;                              //!< receiving host
    uint32_t bytes = 0;                            //!< flow size
    Time start = FLOW_START;                       //!< when the whole flow is handed to the socket
    Ptr<Socket> sender;                            //!< sending socket
    Ptr<Socket> receiver;                          //!< accepted socket
    std::vector<Segment> sent;                     //!< the sender's segments
    std::vector<Segment> acks;                     //!< the receiver's segments
    std::vector<std::pair<Time, uint32_t>> acksIn; //!< ACK numbers the sender received
    std::vector<std::pair<uint32_t, uint32_t>> windowCuts; //!< cwnd (old, new) decreases
    uint32_t highestSent = 0;                              //!< highest sequence sent + 1
    uint64_t delivered = 0;                                //!< bytes the receiver read
    Time fct = Seconds(-1); //!< start to last byte acknowledged; negative: unfinished
};

/**
 * @brief A flow to hand to Bed::Add.
 * @param bytes its size
 * @param src sending host
 * @param dst receiving host
 * @return the flow
 */
Flow
FlowOf(uint32_t bytes, uint32_t src = 0, uint32_t dst = 1)
{
    Flow flow;
    flow.bytes = bytes;
    flow.src = src;
    flow.dst = dst;
    return flow;
}

uint64_t
PriorityOf(Ptr<const Packet> packet)
{
    PfabricPriorityTag tag;
    return packet->PeekPacketTag(tag) ? tag.GetPriority() : UINT64_MAX;
}

// Priorities are not read here, where the socket hands a segment to TCP's "Tx" trace, but
// where the segment enters IP (Bed::Outgoing): the tag is the one that travels.
void
RecordSent(Flow* flow, Ptr<const Packet> packet, const TcpHeader& header, Ptr<const TcpSocketBase>)
{
    uint32_t seq = header.GetSequenceNumber().GetValue();
    bool retransmit = packet->GetSize() > 0 && seq < flow->highestSent;
    flow->sent.push_back({Simulator::Now(), seq, packet->GetSize(), UINT64_MAX, retransmit});
    flow->highestSent = std::max(flow->highestSent, seq + packet->GetSize());
}

void
RecordAckSent(Flow* flow,
              Ptr<const Packet> packet,
              const TcpHeader& header,
              Ptr<const TcpSocketBase>)
{
    flow->acks.push_back({Simulator::Now(),
                          header.GetSequenceNumber().GetValue(),
                          packet->GetSize(),
                          UINT64_MAX,
                          false});
}

void
RecordAckReceived(Flow* flow, Ptr<const Packet>, const TcpHeader& header, Ptr<const TcpSocketBase>)
{
    if ((header.GetFlags() & TcpHeader::ACK) == 0 || Simulator::Now() < flow->start)
    {
        return;
    }
    uint32_t ack = header.GetAckNumber().GetValue();
    flow->acksIn.emplace_back(Simulator::Now(), ack);
    // ns-3's initial sequence number is 0 and the SYN takes it: the flow's data starts at 1.
    if (ack == 1 + flow->bytes && flow->fct.IsNegative())
    {
        flow->fct = Simulator::Now() - flow->start;
    }
}

void
RecordWindow(Flow* flow, uint32_t oldValue, uint32_t newValue)
{
    if (newValue < oldValue)
    {
        flow->windowCuts.emplace_back(oldValue, newValue);
    }
}

void
Drain(Flow* flow, Ptr<Socket> socket)
{
    while (Ptr<Packet> packet = socket->Recv())
    {
        flow->delivered += packet->GetSize();
    }
}

void
Accepted(Flow* flow, Ptr<Socket> socket, const Address&)
{
    flow->receiver = socket;
    socket->SetRecvCallback(MakeBoundCallback(&Drain, flow));
    socket->TraceConnectWithoutContext("Tx", MakeBoundCallback(&RecordAckSent, flow));
}

void
Connect(Ptr<Socket> socket, Ipv4Address address, uint16_t port)
{
    socket->Connect(InetSocketAddress(address, port));
}

void
StartFlow(Flow* flow)
{
    flow->sender->Send(Create<Packet>(flow->bytes));
}

Ptr<NetDevice>
Nic(Ptr<Node> node)
{
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        if (!DynamicCast<LoopbackNetDevice>(node->GetDevice(i)))
        {
            return node->GetDevice(i);
        }
    }
    return nullptr;
}

/// A single-switch fabric running one scheme.
class Bed
{
  public:
    /**
     * @brief Build the fabric.
     * @param hosts number of hosts
     * @param scheme pfabric, linerate, tcp or dctcp
     * @param preset hotnets12 or sigcomm13
     */
    Bed(uint32_t hosts, const std::string& scheme, const std::string& preset = "hotnets12")
        : fabric(hosts),
          scheme(scheme, preset)
    {
        fabric.Build();
    }

    /// Install the scheme (after any overrides); watch what the hosts' IP sends.
    void Install()
    {
        queueDiscs = scheme.Install(fabric.GetHosts());
        switchQueueDiscs = scheme.Install(fabric.GetSwitches());
        queueDiscs.Add(switchQueueDiscs);
        PfabricSchemeHelper::AssignStreams(queueDiscs, 1);
        for (uint32_t i = 0; i < fabric.GetHosts().GetN(); ++i)
        {
            fabric.GetHosts().Get(i)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
                "SendOutgoing",
                MakeCallback(&Bed::Outgoing, this));
        }
    }

    /**
     * @brief A host's IP "SendOutgoing" trace: the segment its TCP just recorded in a "Tx"
     * trace (the same call) enters IP; note the priority it carries.
     * @param packet the segment (TCP header first)
     */
    void Outgoing(const Ipv4Header&, Ptr<const Packet> packet, uint32_t)
    {
        TcpHeader header;
        packet->PeekHeader(header);
        auto toReceiver = byPort.find(header.GetDestinationPort());
        auto fromReceiver = byPort.find(header.GetSourcePort());
        if (toReceiver != byPort.end() && !toReceiver->second->sent.empty())
        {
            toReceiver->second->sent.back().priority = PriorityOf(packet);
        }
        else if (fromReceiver != byPort.end() && !fromReceiver->second->acks.empty())
        {
            fromReceiver->second->acks.back().priority = PriorityOf(packet);
        }
    }

    /**
     * @brief Open a connection now and hand it a flow at flow->start.
     * @param flow the flow (kept by the bed)
     * @return the flow
     */
    Flow* Add(Flow flow)
    {
        flows.push_back(std::make_unique<Flow>(flow));
        Flow* f = flows.back().get();
        uint16_t port = 1000 + flows.size();
        byPort[port] = f;
        TypeId factory = PfabricSchemeHelper::GetSocketFactoryType();
        Ptr<Socket> listener = Socket::CreateSocket(fabric.GetHosts().Get(f->dst), factory);
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        listener->Listen();
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeBoundCallback(&Accepted, f));
        f->sender = Socket::CreateSocket(fabric.GetHosts().Get(f->src), factory);
        f->sender->TraceConnectWithoutContext("Tx", MakeBoundCallback(&RecordSent, f));
        f->sender->TraceConnectWithoutContext("Rx", MakeBoundCallback(&RecordAckReceived, f));
        f->sender->TraceConnectWithoutContext("CongestionWindow",
                                              MakeBoundCallback(&RecordWindow, f));
        f->sender->Bind();
        // Connect once the simulation runs: ns-3 wires the queue discs up when nodes initialise.
        Simulator::ScheduleNow(&Connect, f->sender, fabric.GetHostAddress(f->dst), port);
        Simulator::Schedule(f->start, &StartFlow, f);
        return f;
    }

    /// @return the sender of flow i as a MinTCP socket
    Ptr<PfabricMinTcpSocket> MinTcp(uint32_t i) const
    {
        return DynamicCast<PfabricMinTcpSocket>(flows.at(i)->sender);
    }

    /// Run to the end and clean up.
    void Run(Time stop = Seconds(1))
    {
        Simulator::Stop(stop);
        Simulator::Run();
        Simulator::Destroy();
    }

    PfabricSingleSwitchHelper fabric;         //!< the fabric
    PfabricSchemeHelper scheme;               //!< the scheme
    QueueDiscContainer queueDiscs;            //!< every port
    QueueDiscContainer switchQueueDiscs;      //!< the switch's ports
    std::vector<std::unique_ptr<Flow>> flows; //!< the flows
    std::map<uint16_t, Flow*> byPort;         //!< flows by their receiver's port
};

/**
 * @brief Make a host's NIC drop everything it receives for a while.
 * @param bed the fabric
 * @param host the host
 * @param from when the outage starts
 * @param until when it ends
 */
void
CutOff(Bed& bed, uint32_t host, Time from, Time until)
{
    auto blackhole = CreateObject<RateErrorModel>();
    blackhole->SetAttribute("ErrorRate", DoubleValue(1));
    blackhole->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
    blackhole->Disable();
    Nic(bed.fabric.GetHosts().Get(host))
        ->SetAttribute("ReceiveErrorModel", PointerValue(blackhole));
    Simulator::Schedule(from, &ErrorModel::Enable, blackhole);
    Simulator::Schedule(until, &ErrorModel::Disable, blackhole);
}

/// Data segments only.
std::vector<Segment>
DataOf(const std::vector<Segment>& segments)
{
    std::vector<Segment> data;
    std::copy_if(segments.begin(), segments.end(), std::back_inserter(data), [](const Segment& s) {
        return s.bytes > 0;
    });
    return data;
}

/**
 * MinTCP's initial window: exactly 12 segments leave before the first ACK returns, and each
 * one carries the whole flow as its remaining size.
 */
class InitialWindowTest : public TestCase
{
  public:
    InitialWindowTest()
        : TestCase("MinTCP sends exactly its 12-segment initial window before the first ACK")
    {
    }

  private:
    void DoRun() override
    {
        Bed bed(2, "pfabric");
        // The window alone: host pacing would spread it at line rate, over more than an RTT.
        bed.scheme.SetSocketFactoryAttribute("HostPacing", BooleanValue(false));
        bed.Install();
        Flow* flow = bed.Add(FlowOf(100 * MSS));
        bed.Run();
        NS_TEST_ASSERT_MSG_EQ(flow->acksIn.empty(), false, "no ACK came back");
        Time firstAck = flow->acksIn.front().first;
        auto data = DataOf(flow->sent);
        auto before = std::count_if(data.begin(), data.end(), [firstAck](const Segment& s) {
            return s.at < firstAck;
        });
        NS_TEST_ASSERT_MSG_EQ(before, 12, "segments sent before the first ACK");
        for (int i = 0; i < 12; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(data[i].bytes, MSS, "a full segment");
            NS_TEST_ASSERT_MSG_EQ(data[i].priority, 100 * MSS + 10, "remaining size + offset");
        }
        NS_TEST_ASSERT_MSG_EQ(flow->delivered, 100 * MSS, "the flow was delivered");
        NS_TEST_ASSERT_MSG_EQ(flow->fct.IsStrictlyPositive(), true, "the flow completed");
    }
};

/**
 * The window cap (sigcomm13: 23 segments): a 300-segment flow never has more than 23 segments
 * unacknowledged; without the cap (hotnets12) slow start goes past it.
 */
class MaxWindowTest : public TestCase
{
  public:
    MaxWindowTest()
        : TestCase("MinTCP's window cap bounds the data in flight (sigcomm13: 23 segments)")
    {
    }

  private:
    void DoRun() override
    {
        for (std::string preset : {"sigcomm13", "hotnets12"})
        {
            Bed bed(2, "pfabric", preset);
            // The window alone: paced at line rate, a lone flow never fills it.
            bed.scheme.SetSocketFactoryAttribute("HostPacing", BooleanValue(false));
            bed.Install();
            Flow* flow = bed.Add(FlowOf(300 * MSS));
            bed.Run();
            NS_TEST_ASSERT_MSG_EQ(flow->delivered, 300 * MSS, preset << ": delivered");
            uint32_t maxInFlight = 0;
            std::size_t ackIndex = 0;
            uint32_t acked = 1;
            for (const auto& s : DataOf(flow->sent))
            {
                while (ackIndex < flow->acksIn.size() && flow->acksIn[ackIndex].first <= s.at)
                {
                    acked = std::max(acked, flow->acksIn[ackIndex].second);
                    ++ackIndex;
                }
                maxInFlight = std::max(maxInFlight, s.seq + s.bytes - acked);
            }
            if (preset == "sigcomm13")
            {
                NS_TEST_ASSERT_MSG_EQ(maxInFlight, 23 * MSS, "the cap is reached, never passed");
            }
            else
            {
                NS_TEST_ASSERT_MSG_GT(maxInFlight, 23 * MSS, "uncapped (control)");
            }
        }
    }
};

/**
 * One lost segment under MinTCP: the duplicate ACKs that follow trigger nothing; the fixed
 * timeout resends exactly the hole, tagged with the remaining size at that moment.
 *
 * Ten segments leave at once; the receiver loses the fourth (index 3). It acknowledges three
 * segments, then selectively acknowledges six with duplicate ACKs. At the timeout 3 * 1460 bytes
 * are acknowledged and 6 * 1460 SACKed: the retransmission's priority is 1460 + 10.
 */
class LossRecoveryTest : public TestCase
{
  public:
    LossRecoveryTest()
        : TestCase("MinTCP ignores duplicate ACKs; the fixed RTO resends with the current "
                   "remaining size")
    {
    }

  private:
    void DoRun() override
    {
        Bed bed(2, "pfabric");
        bed.Install();
        // Receiver NIC packet indices: 0 SYN, 1 handshake ACK, then data segments from 2.
        auto loss = CreateObject<ReceiveListErrorModel>();
        loss->SetList({2 + 3});
        Nic(bed.fabric.GetHosts().Get(1))->SetAttribute("ReceiveErrorModel", PointerValue(loss));
        Flow* flow = bed.Add(FlowOf(10 * MSS));
        bed.Run();

        const uint32_t hole = 1 + 3 * MSS;
        Time lastNewAck;
        uint32_t highestAck = 0;
        int dupAcks = 0;
        for (const auto& [at, ack] : flow->acksIn)
        {
            if (ack > highestAck)
            {
                if (ack > hole)
                {
                    break;
                }
                highestAck = ack;
                lastNewAck = at;
            }
            else if (ack == hole)
            {
                ++dupAcks;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(highestAck, hole, "the cumulative ACK stopped at the hole");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(dupAcks, 3, "at least three duplicate ACKs");

        std::vector<Segment> retransmissions;
        for (const auto& s : DataOf(flow->sent))
        {
            if (s.retransmit)
            {
                retransmissions.push_back(s);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(retransmissions.size(), 1, "exactly one segment resent");
        const Segment& resent = retransmissions.front();
        NS_TEST_ASSERT_MSG_EQ(resent.seq, hole, "the hole was resent");
        NS_TEST_ASSERT_MSG_EQ(resent.at,
                              lastNewAck + MicroSeconds(40),
                              "resent one fixed RTO after the last new ACK, not on dupacks");
        NS_TEST_ASSERT_MSG_EQ(resent.priority,
                              MSS + 10,
                              "priority: 10*1460 - 3*1460 - 6*1460 + 10");
        NS_TEST_ASSERT_MSG_EQ(flow->delivered, 10 * MSS, "the flow was delivered");
    }
};

/**
 * Timeouts under MinTCP fire at exactly the fixed RTO, again and again, without back-off: the
 * receiver hears nothing, and every retransmission comes one RTO after the previous one.
 */
class FixedRtoTest : public TestCase
{
  public:
    /**
     * @param preset hotnets12 (40 us) or sigcomm13 (45 us; probe mode off for this test)
     * @param rto the preset's RTO
     */
    FixedRtoTest(const std::string& preset, Time rto)
        : TestCase("MinTCP's timeouts fire every " + std::to_string(rto.GetMicroSeconds()) +
                   " us without back-off (" + preset + ")"),
          m_preset(preset),
          m_rto(rto)
    {
    }

  private:
    void DoRun() override
    {
        Bed bed(2, "pfabric", m_preset);
        bed.scheme.SetSocketAttribute("ProbeMode", BooleanValue(false));
        bed.Install();
        CutOff(bed, 1, FLOW_START, Seconds(1));
        Flow* flow = bed.Add(FlowOf(5 * MSS));
        bed.Run(FLOW_START + m_rto * 20 + m_rto / 2);

        auto data = DataOf(flow->sent);
        NS_TEST_ASSERT_MSG_EQ(data.size(), 5 + 20, "five segments, then one per timeout");
        const Time firstSent = data.front().at;
        for (uint32_t i = 5; i < data.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(data[i].at,
                                  firstSent + m_rto * (i - 4),
                                  "timeout " << i - 4 << " at exactly that many RTOs");
            NS_TEST_ASSERT_MSG_EQ(data[i].seq, 1, "the head resent");
            NS_TEST_ASSERT_MSG_EQ(data[i].bytes, MSS, "a full segment");
        }
        NS_TEST_ASSERT_MSG_EQ(bed.flows.size(), 1, "one flow");
    }

    std::string m_preset; //!< preset
    Time m_rto;           //!< its RTO
};

/**
 * Priorities on a loss-free flow: every data segment carries the flow's size less what the
 * sender has seen acknowledged, plus 10; they fall as ACKs arrive; ACKs, SYNs and FINs carry 0.
 */
class PriorityTagTest : public TestCase
{
  public:
    PriorityTagTest()
        : TestCase("MinTCP tags data with the remaining size, falling as ACKs arrive; control "
                   "segments with 0")
    {
    }

  private:
    void DoRun() override
    {
        Bed bed(2, "pfabric");
        bed.Install();
        // Small enough that slow start never overflows the sender's 15-packet NIC buffer: no
        // loss, so nothing is selectively acknowledged and remaining = size - cumulative ACK.
        Flow* flow = bed.Add(FlowOf(20 * MSS + 123));
        bed.Run();
        NS_TEST_ASSERT_MSG_EQ(flow->delivered, 20 * MSS + 123, "the flow was delivered");

        auto data = DataOf(flow->sent);
        std::size_t ackIndex = 0;
        uint32_t acked = 0;
        uint64_t previous = UINT64_MAX;
        uint32_t falls = 0;
        for (const auto& s : data)
        {
            while (ackIndex < flow->acksIn.size() && flow->acksIn[ackIndex].first <= s.at)
            {
                acked = std::max(acked, flow->acksIn[ackIndex].second - 1);
                ++ackIndex;
            }
            NS_TEST_ASSERT_MSG_EQ(s.priority,
                                  uint64_t{flow->bytes} - acked + 10,
                                  "segment " << s.seq << ": remaining size + 10");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(s.priority, previous, "priorities never rise");
            falls += s.priority < previous && previous != UINT64_MAX;
            previous = s.priority;
        }
        NS_TEST_ASSERT_MSG_GT_OR_EQ(falls, 5, "priorities fell as ACKs arrived");
        NS_TEST_ASSERT_MSG_EQ(data.size(), 21, "no segment resent");
        NS_TEST_ASSERT_MSG_EQ(DataOf(flow->acks).empty(), true, "the receiver sends no data");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(flow->acks.size(), 21, "an ACK per segment");
        for (const auto& ack : flow->acks)
        {
            NS_TEST_ASSERT_MSG_EQ(ack.priority, 0, "ACKs are most urgent");
        }
        for (const auto& s : flow->sent)
        {
            if (s.bytes == 0)
            {
                NS_TEST_ASSERT_MSG_EQ(s.priority, 0, "the sender's SYN and ACKs are most urgent");
            }
        }
    }
};

/**
 * What a sender has learned from the ACKs it received, worked out from their headers alone
 * (not from the socket), and the priority each data segment it sent should carry.
 */
struct SenderView
{
    uint64_t flowBytes = 0;                     //!< the flow's size
    uint64_t offset = 0;                        //!< the preset's PriorityOffset
    uint32_t cumulativeAck = 1;                 //!< highest ACK number (data starts at 1)
    std::map<uint32_t, uint32_t> sackBlocks;    //!< SACKed [left, right), as received
    std::multimap<uint32_t, uint64_t> expected; //!< by sequence: each transmission's priority
    uint32_t sentWithSacked = 0;                //!< data segments sent with SACKed bytes
    uint32_t resent = 0;                        //!< data segments sent below the highest sent
    uint32_t highestSent = 0;                   //!< highest sequence sent + 1

    /// @return the bytes above the cumulative ACK that some SACK block covered
    uint64_t SackedAbove() const
    {
        uint64_t sacked = 0;
        uint32_t covered = cumulativeAck; // blocks are merged as they are counted
        for (const auto& [left, right] : sackBlocks)
        {
            uint32_t from = std::max(left, covered);
            if (right > from)
            {
                sacked += right - from;
                covered = right;
            }
        }
        return sacked;
    }
};

void
ViewAck(SenderView* view, Ptr<const Packet>, const TcpHeader& header, Ptr<const TcpSocketBase>)
{
    if (header.GetFlags() & TcpHeader::ACK)
    {
        view->cumulativeAck = std::max(view->cumulativeAck, header.GetAckNumber().GetValue());
    }
    if (header.HasOption(TcpOption::SACK))
    {
        auto sack = DynamicCast<const TcpOptionSack>(header.GetOption(TcpOption::SACK));
        for (const auto& [left, right] : sack->GetSackList())
        {
            uint32_t& end = view->sackBlocks[left.GetValue()];
            end = std::max(end, right.GetValue());
        }
    }
}

void
ViewSent(SenderView* view,
         Ptr<const Packet> packet,
         const TcpHeader& header,
         Ptr<const TcpSocketBase>)
{
    if (packet->GetSize() == 0)
    {
        return;
    }
    uint64_t sacked = view->SackedAbove();
    uint64_t unacknowledged = view->flowBytes + 1 - view->cumulativeAck;
    uint32_t seq = header.GetSequenceNumber().GetValue();
    view->expected.emplace(seq, unacknowledged - sacked + view->offset);
    view->sentWithSacked += sacked > 0;
    view->resent += seq < view->highestSent;
    view->highestSent = std::max(view->highestSent, seq + packet->GetSize());
}

/// A segment a switch port saw: its payload, sequence number and priority tag.
struct SeenSegment
{
    uint32_t bytes;    //!< payload
    uint32_t seq;      //!< sequence number
    uint64_t priority; //!< its tag; UINT64_MAX: none
};

/// What a switch port saw (the item's packet starts with the TCP header).
void
ViewEnqueue(std::vector<SeenSegment>* seen, Ptr<const QueueDiscItem> item)
{
    TcpHeader header;
    Ptr<const Packet> packet = item->GetPacket();
    uint32_t headerBytes = packet->PeekHeader(header);
    seen->push_back({packet->GetSize() - headerBytes,
                     header.GetSequenceNumber().GetValue(),
                     PriorityOf(packet)});
}

/**
 * End to end: the priority a data segment carries into the switch is the flow's size, less the
 * cumulative ACK, less the bytes SACKed above it, plus the offset, as the sender knew them when
 * it sent the segment (worked out from the ACK headers it had received); ACKs carry 0. Losses
 * at the receiver make SACK blocks and retransmissions, so every term counts. Segments are
 * matched by sequence number: each one the switch sees takes one of the transmissions of its
 * sequence with that priority (the ports reorder by priority, so not by order).
 */
class SwitchSeesPriorityTest : public TestCase
{
  public:
    SwitchSeesPriorityTest()
        : TestCase("A switch's Enqueue trace sees size - cumulative ACK - SACKed bytes + offset "
                   "on every data segment, 0 on ACKs")
    {
    }

  private:
    void DoRun() override
    {
        Bed bed(2, "pfabric");
        bed.Install();
        std::vector<SeenSegment> seen;
        for (auto it = bed.switchQueueDiscs.Begin(); it != bed.switchQueueDiscs.End(); ++it)
        {
            (*it)->TraceConnectWithoutContext("Enqueue", MakeBoundCallback(&ViewEnqueue, &seen));
        }
        auto loss = CreateObject<RateErrorModel>();
        loss->SetAttribute("ErrorRate", DoubleValue(0.03));
        loss->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        loss->AssignStreams(7);
        Nic(bed.fabric.GetHosts().Get(1))->SetAttribute("ReceiveErrorModel", PointerValue(loss));

        SenderView view;
        view.flowBytes = 300 * MSS + 77;
        view.offset = PfabricPreset::Get("hotnets12").priorityOffset;
        Flow* flow = bed.Add(FlowOf(view.flowBytes));
        flow->sender->TraceConnectWithoutContext("Rx", MakeBoundCallback(&ViewAck, &view));
        flow->sender->TraceConnectWithoutContext("Tx", MakeBoundCallback(&ViewSent, &view));
        bed.Run();
        NS_TEST_ASSERT_MSG_EQ(flow->delivered, view.flowBytes, "the flow was delivered");

        uint32_t data = 0;
        uint32_t acks = 0;
        auto unmatched = view.expected;
        for (const auto& segment : seen)
        {
            if (segment.bytes == 0)
            {
                // the SYNs and ACKs of both ends
                NS_TEST_ASSERT_MSG_EQ(segment.priority,
                                      0,
                                      "a segment without payload is most urgent");
                ++acks;
                continue;
            }
            ++data;
            auto [first, last] = unmatched.equal_range(segment.seq);
            auto match = std::find_if(first, last, [&segment](const auto& transmission) {
                return transmission.second == segment.priority;
            });
            if (match == last)
            {
                NS_TEST_ASSERT_MSG_EQ(segment.priority,
                                      (first == last ? 0 : first->second),
                                      "segment " << segment.seq << ": the priority of none of "
                                                 << "its transmissions, size - cumulative ACK - "
                                                 << "SACKed + " << view.offset);
                continue;
            }
            unmatched.erase(match);
        }
        // The sender's own port may drop a burst before the switch sees it.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(data, view.expected.size() * 9 / 10, "data reached the switch");
        NS_TEST_ASSERT_MSG_GT(acks, 250u, "the receiver's ACKs reached it");
        NS_TEST_ASSERT_MSG_GT(view.resent, 3u, "losses were resent");
        NS_TEST_ASSERT_MSG_GT(view.sentWithSacked, 20u, "segments were sent with bytes SACKed");
    }
};

/**
 * @brief Note whether a socket is probing now.
 * @param probing where to note it
 * @param socket the socket
 */
void
NoteProbing(std::vector<bool>* probing, Ptr<PfabricMinTcpSocket> socket)
{
    probing->push_back(socket->IsProbing());
}

/// What a MinTCP sender's "Timeout" and "ProbeMode" traces reported, with when.
struct TimeoutLog
{
    std::vector<std::pair<Time, uint64_t>> timeouts; //!< "Timeout": the count so far
    std::vector<std::pair<Time, bool>> probeMode;    //!< "ProbeMode": entered or left
};

void
NoteTimeout(TimeoutLog* log, uint64_t timeouts)
{
    log->timeouts.emplace_back(Simulator::Now(), timeouts);
}

void
NoteProbeMode(TimeoutLog* log, bool probing)
{
    log->probeMode.emplace_back(Simulator::Now(), probing);
}

/**
 * Probe mode (sigcomm13): the receiver hears nothing for a while. Timeouts 1 to 4 resend a full
 * segment, timeouts 5, 6, ... send one-byte probes; the first probe that gets through is
 * acknowledged, and full segments resume.
 */
class ProbeModeTest : public TestCase
{
  public:
    ProbeModeTest()
        : TestCase("MinTCP probes with one byte after 5 consecutive timeouts, until an ACK "
                   "advances")
    {
    }

  private:
    void DoRun() override
    {
        Bed bed(2, "pfabric", "sigcomm13");
        bed.Install();
        const Time rto = MicroSeconds(45);
        // Heal between timeout 6 and 7: probe 3 (timeout 7) is the first to get through.
        CutOff(bed, 1, FLOW_START, FLOW_START + rto * 6 + rto / 2);
        Flow* flow = bed.Add(FlowOf(5 * MSS));
        TimeoutLog log;
        bed.MinTcp(0)->TraceConnectWithoutContext("Timeout", MakeBoundCallback(&NoteTimeout, &log));
        bed.MinTcp(0)->TraceConnectWithoutContext("ProbeMode",
                                                  MakeBoundCallback(&NoteProbeMode, &log));
        std::vector<bool> probing;
        for (int i = 1; i <= 8; ++i)
        {
            Simulator::Schedule(FLOW_START + rto * i + NanoSeconds(10),
                                &NoteProbing,
                                &probing,
                                bed.MinTcp(0));
        }
        bed.Run();

        auto data = DataOf(flow->sent);
        NS_TEST_ASSERT_MSG_GT_OR_EQ(data.size(), 5 + 7, "segments");
        const Time firstSent = data.front().at;
        for (int timeout = 1; timeout <= 7; ++timeout)
        {
            const Segment& s = data[4 + timeout];
            NS_TEST_ASSERT_MSG_EQ(s.at, firstSent + rto * timeout, "timeout " << timeout);
            NS_TEST_ASSERT_MSG_EQ(s.seq, 1, "the head");
            uint32_t expected = timeout < 5 ? MSS : 1;
            NS_TEST_ASSERT_MSG_EQ(s.bytes,
                                  expected,
                                  "timeout " << timeout << ": full segment before 5, probe after");
            NS_TEST_ASSERT_MSG_EQ(s.priority, 5 * MSS + 10, "nothing acknowledged yet");
        }
        for (int timeout = 1; timeout <= 8; ++timeout)
        {
            // Probe 3 (timeout 7) is acknowledged a few microseconds after it leaves.
            bool expected = timeout >= 5 && timeout <= 7;
            NS_TEST_ASSERT_MSG_EQ(probing[timeout - 1],
                                  expected,
                                  "probing just after timeout " << timeout);
        }
        const Segment& afterProbe = data[4 + 8];
        NS_TEST_ASSERT_MSG_GT(afterProbe.bytes, 1, "full segments resume after the ACK");
        NS_TEST_ASSERT_MSG_LT(afterProbe.at, firstSent + rto * 8, "without waiting for a timeout");
        NS_TEST_ASSERT_MSG_EQ(flow->delivered, 5 * MSS, "the flow was delivered");
        NS_TEST_ASSERT_MSG_EQ(bed.MinTcp(0)->GetConsecutiveTimeouts(), 0, "counter reset");

        // The traces: each of the 7 timeouts when it fires, with its count; probe mode from
        // timeout 5 until the ACK of probe 3, before timeout 8.
        NS_TEST_ASSERT_MSG_EQ(log.timeouts.size(), 7, "one Timeout per timeout");
        for (uint64_t k = 1; k <= log.timeouts.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(log.timeouts[k - 1].first, firstSent + rto * k, "timeout " << k);
            NS_TEST_ASSERT_MSG_EQ(log.timeouts[k - 1].second, k, "its count");
        }
        NS_TEST_ASSERT_MSG_EQ(bed.MinTcp(0)->GetTimeouts(), 7, "GetTimeouts agrees");
        NS_TEST_ASSERT_MSG_EQ(log.probeMode.size(), 2, "probe mode entered and left once");
        if (log.probeMode.size() == 2)
        {
            NS_TEST_ASSERT_MSG_EQ(log.probeMode[0].second, true, "entered");
            NS_TEST_ASSERT_MSG_EQ(log.probeMode[0].first, firstSent + rto * 5, "at timeout 5");
            NS_TEST_ASSERT_MSG_EQ(log.probeMode[1].second, false, "left");
            NS_TEST_ASSERT_MSG_GT(log.probeMode[1].first, firstSent + rto * 7, "after probe 3");
            NS_TEST_ASSERT_MSG_LT(log.probeMode[1].first, firstSent + rto * 8, "before timeout 8");
        }
    }
};

/// NIC transmissions of data packets.
struct NicBusy
{
    std::vector<Time> begins;    //!< PhyTxBegin of each data packet
    std::vector<uint32_t> bytes; //!< its size as the device got it
};

void
NoteTxBegin(NicBusy* busy, Ptr<const Packet> packet)
{
    if (packet->GetSize() > 100)
    {
        busy->begins.push_back(Simulator::Now());
        busy->bytes.push_back(packet->GetSize());
    }
}

/**
 * A lone LineRate flow keeps its NIC busy from its first packet to its last, and completes in
 * the fabric's ideal FCT.
 */
class LineRateAloneTest : public TestCase
{
  public:
    LineRateAloneTest()
        : TestCase("A lone LineRate flow keeps its NIC busy and completes in its ideal FCT")
    {
    }

  private:
    void DoRun() override
    {
        Bed bed(2, "linerate");
        bed.Install();
        NicBusy busy;
        Ptr<NetDevice> nic = Nic(bed.fabric.GetHosts().Get(0));
        NS_TEST_ASSERT_MSG_EQ(
            nic->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&NoteTxBegin, &busy)),
            true,
            "the NIC has a PhyTxBegin trace");
        // The wire is busy for a packet's bytes and the link's framing at the host rate.
        UintegerValue framing;
        nic->GetAttribute("FramingBytes", framing);
        const DataRate rate = bed.fabric.GetHostLinkRate();
        const uint32_t bytes = 1000000;
        Flow* flow = bed.Add(FlowOf(bytes));
        Time ideal = bed.fabric.GetIdealFct(0, 1, bytes);
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(flow->delivered, bytes, "the flow was delivered");
        NS_TEST_ASSERT_MSG_EQ(busy.begins.size(), (bytes + MSS - 1) / MSS, "no packet resent");
        NS_TEST_ASSERT_MSG_EQ(busy.begins.front(),
                              DataOf(flow->sent).front().at,
                              "the first packet goes on the wire as it leaves the socket");
        for (std::size_t i = 1; i < busy.begins.size(); ++i)
        {
            const Time end =
                busy.begins[i - 1] + rate.CalculateBytesTxTime(busy.bytes[i - 1] + framing.Get());
            NS_TEST_ASSERT_MSG_EQ_TOL(busy.begins[i],
                                      end,
                                      NanoSeconds(1),
                                      "packet " << i << " follows the previous one on the wire");
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(flow->fct.GetSeconds(),
                                  ideal.GetSeconds(),
                                  0.01 * ideal.GetSeconds(),
                                  "FCT within 1% of the ideal " << ideal);
    }
};

/**
 * LineRate never reduces its window: two LineRate flows collide at the receiver's port, lose
 * packets, time out, and the congestion window of neither ever falls. A MinTCP control in the
 * same collision does cut its window.
 */
class LineRateWindowTest : public TestCase
{
  public:
    LineRateWindowTest()
        : TestCase("LineRate never reduces its window, even across losses and timeouts")
    {
    }

  private:
    void DoRun() override
    {
        for (std::string scheme : {"linerate", "pfabric"})
        {
            Bed bed(3, scheme);
            bed.Install();
            Flow* a = bed.Add(FlowOf(500000, 0, 2));
            Flow* b = bed.Add(FlowOf(500000, 1, 2));
            bed.Run();
            int resent = 0;
            for (Flow* f : {a, b})
            {
                NS_TEST_ASSERT_MSG_EQ(f->delivered, f->bytes, scheme << ": delivered");
                for (const auto& s : f->sent)
                {
                    resent += s.retransmit;
                }
            }
            NS_TEST_ASSERT_MSG_GT(resent, 0, scheme << ": the collision lost packets");
            std::size_t cuts = a->windowCuts.size() + b->windowCuts.size();
            if (scheme == "linerate")
            {
                NS_TEST_ASSERT_MSG_EQ(cuts, 0, "LineRate's window never falls");
            }
            else
            {
                NS_TEST_ASSERT_MSG_GT(cuts, 0, "MinTCP's window falls on timeouts (control)");
            }
        }
    }
};

/**
 * DCTCP's cut keeps at least a segment (PfabricDctcp's MinWindow): a short flow that joins a
 * long one at a marking port, starting from ns-3's alpha of 1 (DctcpAlphaOnInit), is cut every
 * round trip, and with ns-3's own TcpDctcp (MinWindow 0) falls below one segment, sends nothing
 * with nothing in flight and waits for its retransmission timeout although no packet was lost
 * (the control), and takes more than half as long again. With the floor it never goes below
 * one segment and meets no timeout.
 */
class DctcpFloorTest : public TestCase
{
  public:
    DctcpFloorTest()
        : TestCase("DCTCP: the window cut stops at a segment, so marks never stall a sender")
    {
    }

  private:
    /// The short flow of the scenario, with MinWindow set to floor.
    static Flow ShortFlowWithFloor(uint32_t floor)
    {
        Config::SetDefault("ns3::PfabricDctcp::MinWindow", UintegerValue(floor));
        // ns-3's own alpha, the attribute's declared default, configured.
        Config::SetDefault("ns3::TcpDctcp::DctcpAlphaOnInit", DoubleValue(1));
        Bed bed(3, "dctcp");
        bed.Install();
        bed.Add(FlowOf(5000000, 0, 2));
        Flow late = FlowOf(100000, 1, 2);
        late.start = MicroSeconds(1000);
        Flow* shortFlow = bed.Add(late);
        bed.Run();
        Config::Reset();
        uint64_t drops = 0;
        for (auto it = bed.queueDiscs.Begin(); it != bed.queueDiscs.End(); ++it)
        {
            drops += (*it)->GetStats().nTotalDroppedPackets;
        }
        NS_ABORT_MSG_IF(drops != 0, "the scenario drops nothing: a timeout is a stall");
        return *shortFlow;
    }

    /// The retransmission timeouts the flow's sender met (with data not yet acknowledged).
    static uint64_t Timeouts(const Flow& flow)
    {
        return DynamicCast<PfabricTcpSocket>(flow.sender)->GetTimeouts();
    }

    /// The smallest window a cut left.
    static uint32_t SmallestCut(const Flow& flow)
    {
        uint32_t smallest = UINT32_MAX;
        for (const auto& cut : flow.windowCuts)
        {
            smallest = std::min(smallest, cut.second);
        }
        return smallest;
    }

    void DoRun() override
    {
        const uint32_t segment = PfabricPreset::Get("hotnets12").segmentSize;
        Flow floored = ShortFlowWithFloor(1);
        NS_TEST_ASSERT_MSG_EQ(floored.delivered, floored.bytes, "delivered");
        NS_TEST_ASSERT_MSG_GT(floored.windowCuts.size(), 2, "cut again and again by marks");
        NS_TEST_ASSERT_MSG_EQ(SmallestCut(floored), segment, "down to a segment, not below");
        NS_TEST_ASSERT_MSG_EQ(Timeouts(floored), 0, "no timeout without a loss");

        Flow unfloored = ShortFlowWithFloor(0);
        NS_TEST_ASSERT_MSG_EQ(unfloored.delivered, unfloored.bytes, "delivered (control)");
        NS_TEST_ASSERT_MSG_LT(SmallestCut(unfloored), segment, "below a segment (control)");
        NS_TEST_ASSERT_MSG_GT(Timeouts(unfloored), 0, "which stalls until a timeout (control)");
        // Measured: 1.49 ms against 0.87 ms.
        NS_TEST_ASSERT_MSG_GT(unfloored.fct.GetSeconds(),
                              1.5 * floored.fct.GetSeconds(),
                              "and the stalls cost the flow (control)");
    }
};

/**
 * The presets' LineRate window is the rule every agent of the original scripts has
 * (``maxcwnd_``): the switch buffer in packets less one, at least the initial window, a buffer
 * that holds part of a packet counting it (sigcomm13's 35999 B: the original's 24 packets).
 * sigcomm13 caps MinTCP by the same rule; hotnets12 leaves MinTCP uncapped (doc, "MinTCP").
 */
class PresetWindowRuleTest : public TestCase
{
  public:
    PresetWindowRuleTest()
        : TestCase("Presets: LineRate's window is the buffer in packets less one")
    {
    }

  private:
    void DoRun() override
    {
        const std::map<std::string, uint32_t> expected{{"hotnets12", 14}, {"sigcomm13", 23}};
        NS_TEST_ASSERT_MSG_EQ(PfabricPreset::GetNames().size(), expected.size(), "every preset");
        for (const auto& name : PfabricPreset::GetNames())
        {
            const PfabricPreset& p = PfabricPreset::Get(name);
            NS_TEST_ASSERT_MSG_EQ(p.pfabricBuffer.GetUnit(), QueueSizeUnit::BYTES, name);
            const uint32_t packet = p.segmentSize + p.headerBytes;
            const uint32_t packets = (p.pfabricBuffer.GetValue() + packet - 1) / packet;
            const uint32_t rule = std::max(p.initialWindow, packets - 1);
            NS_TEST_ASSERT_MSG_EQ(rule, expected.at(name), name << ": the rule, by hand");
            NS_TEST_ASSERT_MSG_EQ(p.lineRateWindow, rule, name << ": LineRate's window");
            NS_TEST_ASSERT_MSG_EQ(p.minTcpMaxWindow,
                                  (name == "sigcomm13" ? rule : 0),
                                  name << ": MinTCP's cap");
        }
    }
};

/// Queue occupancy at every ECN mark of a port (a raw pointer: a Ptr bound into the queue
/// disc's own trace would keep it alive forever).
void
NoteMark(std::vector<uint32_t>* occupancy,
         const QueueDisc* queueDisc,
         Ptr<const QueueDiscItem>,
         const char*)
{
    occupancy->push_back(queueDisc->GetNPackets());
}

/// An ECN-capable packet a port took: the packets it found there, and whether it left marked.
struct EcnArrival
{
    uint32_t found; //!< packets in the queue when it arrived
    bool marked;    //!< its IPv4 ECN field is CE
};

/// Every ECN-capable arrival at a port (read at "Enqueue", after RED's decision).
void
NoteEcnArrival(std::vector<EcnArrival>* arrivals,
               const QueueDisc* queueDisc,
               Ptr<const QueueDiscItem> item)
{
    auto ip = DynamicCast<const Ipv4QueueDiscItem>(item);
    if (ip && ip->GetHeader().GetEcn() != Ipv4Header::ECN_NotECT)
    {
        arrivals->push_back(
            {queueDisc->GetNPackets() - 1, ip->GetHeader().GetEcn() == Ipv4Header::ECN_CE});
    }
}

/**
 * DCTCP: the switch marks exactly the packets that arrive to K = 15 or more packets (every one
 * of them, none below, some at exactly K), and the senders'
 * windows shrink in proportion to the marked fraction (by alpha/2, alpha starting at the
 * original code's 0 and growing with the marks), without a single loss or timeout.
 */
class DctcpTest : public TestCase
{
  public:
    DctcpTest()
        : TestCase("DCTCP marks every arrival to K or more packets, none below, and its window "
                   "reacts to the marked fraction")
    {
    }

  private:
    void DoRun() override
    {
        Bed bed(3, "dctcp");
        bed.Install();
        std::vector<uint32_t> occupancy;
        std::vector<EcnArrival> arrivals;
        for (auto it = bed.queueDiscs.Begin(); it != bed.queueDiscs.End(); ++it)
        {
            (*it)->TraceConnectWithoutContext(
                "Mark",
                MakeBoundCallback(&NoteMark, &occupancy, PeekPointer(*it)));
            (*it)->TraceConnectWithoutContext(
                "Enqueue",
                MakeBoundCallback(&NoteEcnArrival, &arrivals, PeekPointer(*it)));
        }
        Flow* a = bed.Add(FlowOf(3000000, 0, 2));
        Flow* b = bed.Add(FlowOf(3000000, 1, 2));
        bed.Run();

        NS_TEST_ASSERT_MSG_GT(occupancy.size(), 10, "packets were marked");
        for (uint32_t packets : occupancy)
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(packets, 15, "marked only at K = 15 packets or more");
        }
        // RED with MinTh = MaxTh = K and QW = 1 marks on the queue it finds, before the packet
        // joins it: every arrival to K or more packets, none to fewer.
        std::size_t atK = 0;
        std::size_t unmarkedAtK = 0;
        std::size_t markedBelowK = 0;
        for (const EcnArrival& a : arrivals)
        {
            atK += a.marked && a.found == 15 ? 1 : 0;
            unmarkedAtK += !a.marked && a.found >= 15 ? 1 : 0;
            markedBelowK += a.marked && a.found < 15 ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(unmarkedAtK, 0, "every arrival to K or more packets is marked");
        NS_TEST_ASSERT_MSG_EQ(markedBelowK, 0, "no arrival to fewer than K packets is marked");
        NS_TEST_ASSERT_MSG_GT(atK, 0, "arrivals to exactly K packets are marked");
        uint64_t drops = 0;
        for (auto it = bed.queueDiscs.Begin(); it != bed.queueDiscs.End(); ++it)
        {
            drops += (*it)->GetStats().nTotalDroppedPackets;
        }
        NS_TEST_ASSERT_MSG_EQ(drops, 0, "no packet dropped");
        for (Flow* f : {a, b})
        {
            NS_TEST_ASSERT_MSG_EQ(f->delivered, f->bytes, "delivered");
            NS_TEST_ASSERT_MSG_EQ(std::count_if(f->sent.begin(),
                                                f->sent.end(),
                                                [](const Segment& s) { return s.retransmit; }),
                                  0,
                                  "no retransmission");
            NS_TEST_ASSERT_MSG_GT(f->windowCuts.size(), 1, "the window reacted to marks");
            double gentlest = 0;
            for (const auto& [before, after] : f->windowCuts)
            {
                double ratio = double(after) / before;
                NS_TEST_ASSERT_MSG_GT_OR_EQ(ratio, 0.5 - 1e-3, "never more than halved");
                gentlest = std::max(gentlest, ratio);
            }
            NS_TEST_ASSERT_MSG_GT(gentlest, 0.75, "cuts shrink with the marked fraction");
        }
    }
};

/// The pacing rate a sender's data segments leave at: its "PacingRate" trace, read at "Tx".
struct PacingLog
{
    DataRate now;               //!< the sender's pacing rate
    std::vector<DataRate> atTx; //!< at each data segment
};

void
NotePacingRate(PacingLog* log, DataRate, DataRate rate)
{
    log->now = rate;
}

void
NotePacedSegment(PacingLog* log,
                 Ptr<const Packet> packet,
                 const TcpHeader&,
                 Ptr<const TcpSocketBase>)
{
    if (packet->GetSize() > 0)
    {
        log->atTx.push_back(log->now);
    }
}

/**
 * HostPacing paces a baseline sender at line rate, undoing ns-3's window-over-RTT rate; a
 * congestion control that sets the pacing rate itself (BBR) keeps its own. A lone 3 MB flow:
 * under NewReno every data segment leaves at the line payload rate; under BBR some leave below
 * it (BBR's drain and probing gains, 1/2.89 and 0.75 of its bandwidth estimate), none above.
 */
class CongestionControlPacingTest : public TestCase
{
  public:
    /// @param congestionOps the senders' congestion control
    CongestionControlPacingTest(std::string congestionOps)
        : TestCase("HostPacing paces " + congestionOps + " " +
                   (congestionOps == "ns3::TcpBbr" ? "at its own rate" : "at line rate")),
          m_congestionOps(std::move(congestionOps))
    {
    }

  private:
    void DoRun() override
    {
        Bed bed(3, "tcp");
        bed.scheme.SetSocketAttribute("CongestionControl",
                                      ObjectFactoryValue(ObjectFactory(m_congestionOps)));
        bed.Install();
        Flow* f = bed.Add(FlowOf(3000000, 0, 2));
        Flow* other = bed.Add(FlowOf(3000000, 1, 2));
        // The rate SetPacingLineRate gave the socket when the factory made it.
        Ptr<Node> host = bed.fabric.GetHosts().Get(0);
        DataRateValue nicRate;
        Nic(host)->GetAttribute("DataRate", nicRate);
        UintegerValue headerBytes;
        host->GetObject<PfabricTcpSocketFactory>()->GetAttribute("HeaderBytes", headerBytes);
        const DataRate line =
            PfabricFlowSender::GetPayloadRate(nicRate.Get(), MSS, headerBytes.Get());
        PacingLog log;
        log.now = line;
        f->sender->TraceConnectWithoutContext("PacingRate",
                                              MakeBoundCallback(&NotePacingRate, &log));
        f->sender->TraceConnectWithoutContext("Tx", MakeBoundCallback(&NotePacedSegment, &log));
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(f->delivered, f->bytes, "delivered");
        NS_TEST_ASSERT_MSG_EQ(other->delivered, other->bytes, "delivered");
        NS_TEST_ASSERT_MSG_GT(log.atTx.size(), 2000, "every data segment seen");
        uint32_t below = 0;
        for (const DataRate& rate : log.atTx)
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(rate.GetBitRate(),
                                        line.GetBitRate(),
                                        "never above line rate");
            below += rate < line ? 1 : 0;
        }
        if (m_congestionOps == "ns3::TcpBbr")
        {
            // Two flows share the receiver's link: BBR's estimate of its share is below line
            // rate for most of the flow.
            NS_TEST_ASSERT_MSG_GT(below, log.atTx.size() / 4, "BBR paces at its own rate");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(below, 0, "every segment at line rate");
        }
    }

    std::string m_congestionOps; //!< the senders' congestion control
};

/**
 * The pFabric claim in miniature: a 1 MB and a 10 KB flow start together from one host to
 * another. Under MinTCP+pFabric the short flow jumps the long one's queue and finishes within one
 * base RTT of its ideal; under TCP-DropTail it waits behind the long flow's initial window, more
 * than two base RTTs late.
 */
class ShortFlowPreemptionTest : public TestCase
{
  public:
    ShortFlowPreemptionTest()
        : TestCase("A 10 KB flow beside a 1 MB flow: near ideal under pFabric, late under "
                   "TCP-DropTail")
    {
    }

  private:
    void DoRun() override
    {
        for (std::string scheme : {"pfabric", "linerate", "tcp", "dctcp"})
        {
            Bed bed(2, scheme);
            bed.Install();
            Flow* longFlow = bed.Add(FlowOf(1000000));
            Flow* shortFlow = bed.Add(FlowOf(10000));
            Time ideal = bed.fabric.GetIdealFct(0, 1, 10000);
            Time baseRtt = bed.fabric.GetBaseRtt(0, 1);
            bed.Run();
            NS_TEST_ASSERT_MSG_EQ(longFlow->delivered, longFlow->bytes, scheme << ": long");
            NS_TEST_ASSERT_MSG_EQ(shortFlow->delivered, shortFlow->bytes, scheme << ": short");
            Time late = shortFlow->fct - ideal;
            if (scheme == "pfabric" || scheme == "linerate")
            {
                NS_TEST_ASSERT_MSG_LT_OR_EQ(late, baseRtt, scheme << ": within a base RTT");
            }
            else
            {
                NS_TEST_ASSERT_MSG_GT(late, baseRtt * 2, scheme << ": over two base RTTs late");
            }
        }
    }
};

/**
 * MinTCP never gives up: the receiver hears nothing for 1,000 consecutive timeouts (40 ms, far
 * beyond ns-3's default of 6 data retries), then recovers, and the flow completes.
 */
class NeverGivesUpTest : public TestCase
{
  public:
    NeverGivesUpTest()
        : TestCase("MinTCP never gives up: a flow cut off for 1000 timeouts still completes")
    {
    }

  private:
    void DoRun() override
    {
        Bed bed(2, "pfabric");
        bed.Install();
        CutOff(bed, 1, FLOW_START, FLOW_START + MicroSeconds(40) * 1000 + MicroSeconds(20));
        Flow* flow = bed.Add(FlowOf(100 * MSS));
        bed.Run();
        auto data = DataOf(flow->sent);
        auto resent =
            std::count_if(data.begin(), data.end(), [](const Segment& s) { return s.retransmit; });
        NS_TEST_ASSERT_MSG_GT_OR_EQ(resent, 1000, "a retransmission per timeout");
        NS_TEST_ASSERT_MSG_EQ(flow->delivered, 100 * MSS, "the flow was delivered");
        NS_TEST_ASSERT_MSG_GT(flow->fct, MicroSeconds(40) * 1000, "after the outage");
    }
};

/**
 * The baselines' fast retransmit. One segment (the third of 30) is lost. hotnets12 (fast
 * retransmit off) waits for the timeout, at least the 200 us minimum RTO after the loss;
 * sigcomm13 resends after max(3, 0.75 cwnd) duplicate ACKs: with a window of 12 to 14 segments
 * that is 9 or 10, never the fixed 3, and long before the timeout.
 */
class BaselineFastRetransmitTest : public TestCase
{
  public:
    BaselineFastRetransmitTest()
        : TestCase("TCP baseline: no fast retransmit (hotnets12), max(3, 0.75 cwnd) dupacks "
                   "(sigcomm13)")
    {
    }

  private:
    void DoRun() override
    {
        for (std::string preset : {"hotnets12", "sigcomm13"})
        {
            Bed bed(2, "tcp", preset);
            bed.Install();
            auto loss = CreateObject<ReceiveListErrorModel>();
            loss->SetList({2 + 2});
            Nic(bed.fabric.GetHosts().Get(1))
                ->SetAttribute("ReceiveErrorModel", PointerValue(loss));
            Flow* flow = bed.Add(FlowOf(30 * MSS));
            bed.Run();
            NS_TEST_ASSERT_MSG_EQ(flow->delivered, 30 * MSS, preset << ": delivered");

            const uint32_t hole = 1 + 2 * MSS;
            auto data = DataOf(flow->sent);
            auto resent = std::find_if(data.begin(), data.end(), [hole](const Segment& s) {
                return s.retransmit && s.seq == hole;
            });
            bool found = resent != data.end();
            NS_TEST_ASSERT_MSG_EQ(found, true, preset << ": the hole was resent");
            int dupAcksBefore = 0;
            for (const auto& [at, ack] : flow->acksIn)
            {
                dupAcksBefore += ack == hole && at <= resent->at;
            }
            --dupAcksBefore; // the first ACK for the hole is not a duplicate
            if (preset == "hotnets12")
            {
                NS_TEST_ASSERT_MSG_GT_OR_EQ(resent->at,
                                            data.front().at + MicroSeconds(200),
                                            "resent by the timeout");
                NS_TEST_ASSERT_MSG_GT(dupAcksBefore, 10, "after all the duplicate ACKs");
            }
            else
            {
                NS_TEST_ASSERT_MSG_LT(resent->at,
                                      data.front().at + MicroSeconds(100),
                                      "resent long before the timeout");
                NS_TEST_ASSERT_MSG_GT_OR_EQ(dupAcksBefore, 9, "0.75 x 12 duplicate ACKs at least");
                NS_TEST_ASSERT_MSG_LT_OR_EQ(dupAcksBefore, 11, "about 0.75 cwnd, not more");
            }
        }
    }
};

/// The sender of a reused connection, for ReusedConnectionTest.
struct SenderLog
{
    std::vector<std::pair<Time, uint32_t>> windows; //!< congestion window, at every change
    TcpSocketState::TcpCongState_t state = TcpSocketState::CA_OPEN;        //!< congestion state now
    TcpSocketState::TcpCongState_t stateAtReuse = TcpSocketState::CA_OPEN; //!< before StartFlow
};

void
LogWindow(SenderLog* log, uint32_t, uint32_t newValue)
{
    log->windows.emplace_back(Simulator::Now(), newValue);
}

void
LogState(SenderLog* log, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t newValue)
{
    log->state = newValue;
}

/**
 * @brief Hand a second flow to a connection whose first flow is complete, as
 * PfabricFlowApplication does with a reused connection.
 * @param flow the first flow (its sender is the connection)
 * @param bytes the second flow's size
 * @param startFlow whether to call StartFlow first
 * @param log the sender's log
 */
void
SendSecondFlow(Flow* flow, uint32_t bytes, bool startFlow, SenderLog* log)
{
    log->stateAtReuse = log->state;
    if (startFlow)
    {
        DynamicCast<PfabricTcpSocket>(flow->sender)->StartFlow();
    }
    flow->sender->Send(Create<Packet>(bytes));
}

/**
 * A reused connection starts its next flow as a new connection would: a 100-segment flow grows
 * the window far past 12 segments; once it is acknowledged, StartFlow and a second flow of 60
 * segments (+ 7 bytes) on the same connection send exactly 12 segments before the second flow's
 * first ACK, and under MinTCP each carries the second flow's size + 10 (the send buffer holds
 * only the new flow). DCTCP with a marking threshold of one packet ends the first flow in CWR
 * (its last ACKs echo marks): StartFlow ends CWR too, so that the second flow's first ACK does
 * not set the window to the first flow's ssthresh, and the window stays within slow start's
 * reach. The control, without StartFlow, bursts the grown window.
 */
class ReusedConnectionTest : public TestCase
{
  public:
    /**
     * @param scheme pfabric, tcp or dctcp
     * @param startFlow whether the second flow is started with StartFlow
     */
    ReusedConnectionTest(const std::string& scheme, bool startFlow)
        : TestCase(scheme + (startFlow ? ": a reused connection starts its next flow with the "
                                         "initial window (StartFlow)"
                                       : ": without StartFlow, a reused connection bursts its "
                                         "grown window (control)")),
          m_scheme(scheme),
          m_startFlow(startFlow)
    {
    }

  private:
    void DoRun() override
    {
        // DCTCP: one initial window, all of it sent before the first ACK echoes a mark, so that
        // CWR's recovery point is the flow's end and the last ACK does not pass it.
        const uint32_t first = (m_scheme == "dctcp" ? 12 : 100) * MSS;
        const uint32_t second = 60 * MSS + 7;
        const Time reuseAt = MilliSeconds(2);
        Bed bed(2, m_scheme);
        // The window alone: host pacing would spread it at line rate, over more than an RTT.
        bed.scheme.SetSocketFactoryAttribute("HostPacing", BooleanValue(false));
        if (m_scheme == "dctcp")
        {
            // Every packet queued behind another is marked: the first flow's last ACKs echo.
            bed.scheme.SetQueueDiscAttribute("MinTh", DoubleValue(1));
            bed.scheme.SetQueueDiscAttribute("MaxTh", DoubleValue(1));
        }
        else
        {
            // No loss at the sender's own NIC: the first flow's window grows unchecked.
            bed.scheme.SetQueueDiscAttribute("MaxSize", QueueSizeValue(QueueSize("1000p")));
        }
        bed.Install();
        Flow* flow = bed.Add(FlowOf(first));
        SenderLog log;
        flow->sender->TraceConnectWithoutContext("CongestionWindow",
                                                 MakeBoundCallback(&LogWindow, &log));
        flow->sender->TraceConnectWithoutContext("CongState", MakeBoundCallback(&LogState, &log));
        Simulator::Schedule(reuseAt, &SendSecondFlow, flow, second, m_startFlow, &log);
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(flow->fct.IsStrictlyPositive(), true, "the first flow completed");
        NS_TEST_ASSERT_MSG_LT(flow->fct, reuseAt - FLOW_START, "... before the second started");
        uint32_t grown = 0;
        for (const auto& [at, window] : log.windows)
        {
            if (at < reuseAt)
            {
                grown = std::max(grown, window);
            }
        }
        if (m_scheme != "dctcp")
        {
            NS_TEST_ASSERT_MSG_GT(grown, 24 * MSS, "the first flow grew the window");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(log.stateAtReuse,
                                  TcpSocketState::CA_CWR,
                                  "the first flow ended in CWR");
        }

        // The second flow's data (sequence 1 + first onwards) and ACKs.
        std::vector<Segment> data;
        for (const auto& s : DataOf(flow->sent))
        {
            if (s.at >= reuseAt)
            {
                data.push_back(s);
            }
        }
        Time firstAck = Seconds(-1);
        bool completed = false;
        for (const auto& [at, ack] : flow->acksIn)
        {
            if (at >= reuseAt && ack > 1 + first && firstAck.IsNegative())
            {
                firstAck = at;
            }
            completed = completed || ack == 1 + first + second;
        }
        NS_TEST_ASSERT_MSG_EQ(data.empty(), false, "the second flow was sent");
        NS_TEST_ASSERT_MSG_EQ(data.front().seq, 1 + first, "sequence numbers continue");
        NS_TEST_ASSERT_MSG_EQ(firstAck.IsPositive(), true, "the second flow was acknowledged");
        auto before = std::count_if(data.begin(), data.end(), [firstAck](const Segment& s) {
            return s.at < firstAck;
        });
        if (!m_startFlow)
        {
            NS_TEST_ASSERT_MSG_GT(before, 24, "the grown window burst");
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(before, 12, "segments sent before the second flow's first ACK");
        for (int i = 0; i < 12; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(data[i].bytes, MSS, "a full segment");
            NS_TEST_ASSERT_MSG_EQ(data[i].retransmit, false, "a first transmission");
            if (m_scheme == "pfabric")
            {
                NS_TEST_ASSERT_MSG_EQ(data[i].priority,
                                      uint64_t{second} + 10,
                                      "the new flow's size + offset");
            }
        }
        for (const auto& [at, window] : log.windows)
        {
            if (at >= reuseAt)
            {
                // Slow start from 12 segments grows by at most one segment per segment acked.
                NS_TEST_ASSERT_MSG_LT_OR_EQ(window, 12 * MSS + second, "window within reach");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(completed, true, "the second flow completed");
        NS_TEST_ASSERT_MSG_EQ(flow->delivered, uint64_t{first} + second, "both flows delivered");
        if (auto minTcp = bed.MinTcp(0))
        {
            NS_TEST_ASSERT_MSG_EQ(minTcp->GetConsecutiveTimeouts(), 0, "timeout count fresh");
            NS_TEST_ASSERT_MSG_EQ(minTcp->IsProbing(), false, "not probing");
        }
    }

    std::string m_scheme; //!< the scheme
    bool m_startFlow;     //!< whether StartFlow is called
};

void
LogSsThresh(std::vector<std::pair<Time, uint32_t>>* log, uint32_t, uint32_t newValue)
{
    log->emplace_back(Simulator::Now(), newValue);
}

/**
 * RestartSsThresh: DCTCP with a marking threshold of one packet cuts the first flow's ssthresh
 * (alpha set to start at 1, ns-3's and Linux's start rather than the presets' 0, so the first
 * cut halves the window: ssthresh at most 12 segments, far below
 * the initial, unlimited, ssthresh). At reuse, StartFlow puts ssthresh back to the initial value
 * (RestartSsThresh true, the default) or leaves the first flow's (false, the original ns-2
 * code's); both restart the window to 12 segments.
 */
class RestartSsThreshTest : public TestCase
{
  public:
    /// @param restart RestartSsThresh
    explicit RestartSsThreshTest(bool restart)
        : TestCase(std::string("dctcp: a reused connection ") +
                   (restart ? "restarts ssthresh (RestartSsThresh)"
                            : "keeps its ssthresh (RestartSsThresh=false, as ns-2)")),
          m_restart(restart)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t first = 12 * MSS;
        const Time reuseAt = MilliSeconds(2);
        Bed bed(2, "dctcp");
        bed.scheme.SetSocketFactoryAttribute("HostPacing", BooleanValue(false));
        bed.scheme.SetSocketFactoryAttribute("RestartSsThresh", BooleanValue(m_restart));
        ObjectFactory dctcp("ns3::PfabricDctcp"); // ns-3's initial alpha, 1
        bed.scheme.SetSocketAttribute("CongestionControl", ObjectFactoryValue(dctcp));
        bed.scheme.SetQueueDiscAttribute("MinTh", DoubleValue(1));
        bed.scheme.SetQueueDiscAttribute("MaxTh", DoubleValue(1));
        bed.Install();
        Flow* flow = bed.Add(FlowOf(first));
        std::vector<std::pair<Time, uint32_t>> ssThresh;
        SenderLog log;
        flow->sender->TraceConnectWithoutContext("SlowStartThreshold",
                                                 MakeBoundCallback(&LogSsThresh, &ssThresh));
        flow->sender->TraceConnectWithoutContext("CongestionWindow",
                                                 MakeBoundCallback(&LogWindow, &log));
        Simulator::Schedule(reuseAt, &SendSecondFlow, flow, 60 * MSS, true, &log);
        bed.Run();

        UintegerValue initial;
        flow->sender->GetAttribute("InitialSlowStartThreshold", initial);
        auto at = [&ssThresh, &initial](Time t) {
            uint64_t value = initial.Get();
            for (const auto& [when, v] : ssThresh)
            {
                if (when <= t)
                {
                    value = v;
                }
            }
            return value;
        };
        const uint64_t cut = at(reuseAt - NanoSeconds(1));
        NS_TEST_ASSERT_MSG_LT_OR_EQ(cut, uint64_t{first}, "the first flow's marks cut ssthresh");
        NS_TEST_ASSERT_MSG_EQ(at(reuseAt),
                              (m_restart ? initial.Get() : cut),
                              "ssthresh as the second flow starts");
        uint32_t windowAtReuse = 0;
        for (const auto& [when, window] : log.windows)
        {
            if (when <= reuseAt)
            {
                windowAtReuse = window;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(windowAtReuse, 12 * MSS, "the window restarts either way");
        NS_TEST_ASSERT_MSG_EQ(flow->delivered, uint64_t{first} + 60 * MSS, "both delivered");
    }

    bool m_restart; //!< RestartSsThresh
};

/**
 * @brief An attribute of an object, as text.
 * @param object the object
 * @param name the attribute
 * @return its value, serialised by its checker
 */
std::string
AttributeText(Ptr<const Object> object, const std::string& name)
{
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_UNLESS(object->GetInstanceTypeId().LookupAttributeByName(name, &info), name);
    Ptr<AttributeValue> value = info.checker->Create();
    object->GetAttribute(name, *value);
    return value->SerializeToString(info.checker);
}

/**
 * @brief A value of an object's attribute, as AttributeText shows it.
 * @param object an object of the type
 * @param name the attribute
 * @param value the value
 * @return the value, serialised by the attribute's checker
 */
std::string
AttributeText(Ptr<const Object> object, const std::string& name, const AttributeValue& value)
{
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_UNLESS(object->GetInstanceTypeId().LookupAttributeByName(name, &info), name);
    return value.SerializeToString(info.checker);
}

/**
 * Each socket class holds its transport's settings as attributes of its own TypeId: a factory
 * sets them at construction (ns-3 constructs through GetInstanceTypeId, which TcpSocketBase would
 * otherwise answer with its own), they read back, and an accepted connection (a copy, as Fork
 * makes) keeps them and its class.
 */
class SocketAttributesTest : public TestCase
{
  public:
    SocketAttributesTest()
        : TestCase("The socket classes' attributes are set at construction and kept by a fork")
    {
    }

  private:
    void DoRun() override
    {
        ObjectFactory minTcp("ns3::PfabricMinTcpSocket");
        minTcp.Set("Rto", TimeValue(MicroSeconds(77)));
        minTcp.Set("MaxWindow", UintegerValue(9));
        minTcp.Set("PriorityOffset", UintegerValue(3));
        ObjectFactory lineRate("ns3::PfabricLineRateTcpSocket");
        lineRate.Set("Rto", TimeValue(MicroSeconds(77)));
        lineRate.Set("Window", UintegerValue(5));
        ObjectFactory baseline("ns3::PfabricBaselineTcpSocket");
        baseline.Set("CongestionControl",
                     ObjectFactoryValue(ObjectFactory(TcpNewReno::GetTypeId().GetName())));
        baseline.Set("DupAckWindowFraction", DoubleValue(0.5));
        baseline.Set("MinRto", TimeValue(MicroSeconds(300)));
        using Values = std::vector<std::pair<std::string, Ptr<AttributeValue>>>;
        const std::map<std::string, Values> expected{
            {"ns3::PfabricMinTcpSocket",
             {{"Rto", Create<TimeValue>(MicroSeconds(77))},
              {"MaxWindow", Create<UintegerValue>(9)},
              {"PriorityOffset", Create<UintegerValue>(3)},
              {"ProbeMode", Create<BooleanValue>(false)}}},
            {"ns3::PfabricLineRateTcpSocket",
             {{"Rto", Create<TimeValue>(MicroSeconds(77))}, {"Window", Create<UintegerValue>(5)}}},
            {"ns3::PfabricBaselineTcpSocket",
             {{"DupAckWindowFraction", Create<DoubleValue>(0.5)},
              {"MinRto", Create<TimeValue>(MicroSeconds(300))},
              {"FastRetransmit", Create<BooleanValue>(false)}}}};
        // Each socket and its copy, as Fork makes an accepted connection.
        auto m = minTcp.Create<PfabricMinTcpSocket>();
        auto l = lineRate.Create<PfabricLineRateTcpSocket>();
        auto b = baseline.Create<PfabricBaselineTcpSocket>();
        const std::vector<std::pair<std::string, std::vector<Ptr<PfabricTcpSocket>>>> sockets{
            {minTcp.GetTypeId().GetName(), {m, CopyObject<PfabricMinTcpSocket>(m)}},
            {lineRate.GetTypeId().GetName(), {l, CopyObject<PfabricLineRateTcpSocket>(l)}},
            {baseline.GetTypeId().GetName(), {b, CopyObject<PfabricBaselineTcpSocket>(b)}}};
        for (const auto& [type, pair] : sockets)
        {
            for (Ptr<PfabricTcpSocket> s : pair)
            {
                NS_TEST_ASSERT_MSG_NE(s, nullptr, type);
                NS_TEST_ASSERT_MSG_EQ(s->GetInstanceTypeId().GetName(), type, "its own TypeId");
                for (const auto& [name, value] : expected.at(type))
                {
                    NS_TEST_ASSERT_MSG_EQ(AttributeText(s, name),
                                          AttributeText(s, name, *value),
                                          type << "::" << name);
                }
            }
        }
        NS_TEST_ASSERT_MSG_EQ(m->GetFixedRto(),
                              MicroSeconds(77),
                              "the timer's RTO is the attribute");
    }
};

/**
 * PfabricSchemeHelper puts every preset number where it belongs: the scheme's queue disc with the
 * preset's size on every device of every node, host NICs included, a socket factory with the
 * preset's common settings on every host, and as its SocketType the scheme's socket class with
 * every one of the preset's numbers of that transport (DCTCP's in its congestion control), also
 * where the preset differs from the model's defaults (sigcomm13); the helper's overrides and the
 * user's configured defaults win over the preset, for the factory, the sockets and the queue
 * discs.
 */
class SchemeInstallTest : public TestCase
{
  public:
    SchemeInstallTest()
        : TestCase("PfabricSchemeHelper installs each scheme with its preset's numbers")
    {
    }

  private:
    /// The socket a host's factory creates (its SocketType), not configured.
    static Ptr<Object> SocketOf(Ptr<PfabricTcpSocketFactory> factory)
    {
        ObjectFactoryValue socketType;
        factory->GetAttribute("SocketType", socketType);
        return socketType.Get().Create();
    }

    void DoRun() override
    {
        struct Expected
        {
            std::string scheme;
            std::string preset;
            std::string queueDisc;
            std::string maxSize;
            std::string socketType;
            /// the preset's numbers that differ from the socket class's defaults
            std::vector<std::string> notDefault;
        };

        const std::string minTcp = "ns3::PfabricMinTcpSocket";
        const std::string lineRate = "ns3::PfabricLineRateTcpSocket";
        const std::string baseline = "ns3::PfabricBaselineTcpSocket";
        // TcpSocketBase's own defaults (1 s, 1 ms) are not a fabric's.
        for (const Expected& e : std::vector<Expected>{
                 {"pfabric", "hotnets12", "ns3::PfabricQueueDisc", "22500B", minTcp, {}},
                 {"pfabric",
                  "sigcomm13",
                  "ns3::PfabricQueueDisc",
                  "35999B",
                  minTcp,
                  {"MaxWindow", "ProbeMode", "Rto"}},
                 {"linerate",
                  "sigcomm13",
                  "ns3::PfabricQueueDisc",
                  "35999B",
                  lineRate,
                  {"ProbeMode", "Rto", "Window"}},
                 {"tcp",
                  "hotnets12",
                  "ns3::FifoQueueDisc",
                  "150p",
                  baseline,
                  {"ClockGranularity", "MinRto"}},
                 {"dctcp",
                  "sigcomm13",
                  "ns3::RedQueueDisc",
                  "150p",
                  baseline,
                  {"ClockGranularity", "DupAckWindowFraction", "FastRetransmit", "MinRto"}}})
        {
            Bed bed(3, e.scheme, e.preset);
            bed.Install();
            const PfabricPreset& preset = PfabricPreset::Get(e.preset);
            NS_TEST_ASSERT_MSG_EQ(bed.queueDiscs.GetN(), 6, "a queue disc per device (3 links)");
            for (auto it = bed.queueDiscs.Begin(); it != bed.queueDiscs.End(); ++it)
            {
                NS_TEST_ASSERT_MSG_EQ((*it)->GetInstanceTypeId().GetName(), e.queueDisc, e.scheme);
                NS_TEST_ASSERT_MSG_EQ((*it)->GetMaxSize(), QueueSize(e.maxSize), e.scheme);
                if (e.queueDisc == "ns3::PfabricQueueDisc")
                {
                    NS_TEST_ASSERT_MSG_EQ(AttributeText(*it, "DequeueMode"),
                                          preset.pfabricDequeueMode,
                                          e.preset);
                    // the original code's admission in sigcomm13, the model's own in hotnets12
                    NS_TEST_ASSERT_MSG_EQ(AttributeText(*it, "AdmissionMode"),
                                          (e.preset == "sigcomm13" ? "Ns2" : "Strict"),
                                          e.preset);
                }
                if (e.scheme == "dctcp")
                {
                    DoubleValue minTh;
                    DoubleValue maxTh;
                    (*it)->GetAttribute("MinTh", minTh);
                    (*it)->GetAttribute("MaxTh", maxTh);
                    NS_TEST_ASSERT_MSG_EQ(minTh.Get(), preset.dctcpMarkingThreshold, "K");
                    NS_TEST_ASSERT_MSG_EQ(maxTh.Get(), preset.dctcpMarkingThreshold, "K");
                }
            }
            NS_TEST_ASSERT_MSG_EQ(
                bed.fabric.GetSwitches().Get(0)->GetObject<PfabricTcpSocketFactory>(),
                nullptr,
                "no transport at a lean switch");
            // Every number of the preset, attribute by attribute, on the class it configures.
            const std::map<std::string, Ptr<AttributeValue>> common{
                {"SegmentSize", Create<UintegerValue>(preset.segmentSize)},
                {"HeaderBytes", Create<UintegerValue>(preset.headerBytes + preset.linkHeaderBytes)},
                {"InitialWindow", Create<UintegerValue>(preset.initialWindow)},
                {"HostPacing", Create<BooleanValue>(preset.hostPacing)}};
            std::map<std::string, Ptr<AttributeValue>> own;
            if (e.socketType == baseline)
            {
                own = {{"MinRto", Create<TimeValue>(preset.baselineMinRto)},
                       {"ClockGranularity", Create<TimeValue>(preset.clockGranularity)},
                       {"FastRetransmit", Create<BooleanValue>(preset.baselineFastRetransmit)},
                       {"DupAckThreshold", Create<UintegerValue>(preset.dupAckThreshold)},
                       {"DupAckWindowFraction", Create<DoubleValue>(preset.dupAckWindowFraction)}};
            }
            else
            {
                own = {{"Rto", Create<TimeValue>(preset.minTcpRto)},
                       {"ProbeMode", Create<BooleanValue>(preset.probeMode)},
                       {"ProbeAfterTimeouts", Create<UintegerValue>(preset.probeAfterTimeouts)},
                       {"PriorityOffset", Create<UintegerValue>(preset.priorityOffset)}};
                if (e.socketType == lineRate)
                {
                    own["Window"] = Create<UintegerValue>(preset.lineRateWindow);
                }
                else
                {
                    own["MaxWindow"] = Create<UintegerValue>(preset.minTcpMaxWindow);
                }
            }
            ObjectFactory defaultSocketType(e.socketType);
            Ptr<Object> defaultSocket = defaultSocketType.Create();
            for (uint32_t i = 0; i < 3; ++i)
            {
                Ptr<Node> node = bed.fabric.GetHosts().Get(i);
                auto factory = node->GetObject<PfabricTcpSocketFactory>();
                NS_TEST_ASSERT_MSG_NE(factory, nullptr, "a socket factory on node " << i);
                Ptr<Object> socket = SocketOf(factory);
                NS_TEST_ASSERT_MSG_EQ(socket->GetInstanceTypeId().GetName(),
                                      e.socketType,
                                      e.scheme);
                for (const auto& [name, value] : common)
                {
                    NS_TEST_ASSERT_MSG_EQ(AttributeText(factory, name),
                                          AttributeText(factory, name, *value),
                                          e.preset << " " << name);
                }
                std::vector<std::string> notDefault;
                for (const auto& [name, value] : own)
                {
                    NS_TEST_ASSERT_MSG_EQ(AttributeText(socket, name),
                                          AttributeText(socket, name, *value),
                                          e.preset << " " << name);
                    if (AttributeText(socket, name) != AttributeText(defaultSocket, name))
                    {
                        notDefault.push_back(name);
                    }
                }
                // What makes the check above telling: these differ from the model's defaults.
                NS_TEST_ASSERT_MSG_EQ((notDefault == e.notDefault),
                                      true,
                                      notDefault.size()
                                          << " numbers of " << e.scheme << " " << e.preset
                                          << " differ from the model's defaults");
                if (e.scheme == "dctcp")
                {
                    // DCTCP: its congestion control, with TcpDctcp's own attributes, and ECN.
                    ObjectFactoryValue ops;
                    socket->GetAttribute("CongestionControl", ops);
                    NS_TEST_ASSERT_MSG_EQ(ops.Get().GetTypeId().GetName(),
                                          "ns3::PfabricDctcp",
                                          "DCTCP's congestion control");
                    NS_TEST_ASSERT_MSG_EQ(
                        PfabricPresetAttributes::GetFactoryValue(ops.Get(), "DctcpShiftG"),
                        DoubleValue(preset.dctcpG).SerializeToString(MakeDoubleChecker<double>()),
                        "the preset's gain");
                    NS_TEST_ASSERT_MSG_EQ(
                        PfabricPresetAttributes::GetFactoryValue(ops.Get(), "DctcpAlphaOnInit"),
                        "0",
                        "the original code's initial alpha");
                    ObjectFactoryValue socketType;
                    factory->GetAttribute("SocketType", socketType);
                    NS_TEST_ASSERT_MSG_EQ(
                        PfabricPresetAttributes::GetFactoryValue(socketType.Get(), "UseEcn"),
                        "On",
                        "ECN");
                }
            }
            Simulator::Destroy();
        }
        NS_TEST_ASSERT_MSG_NE(AttributeText(CreateObject<PfabricQueueDisc>(), "MaxSize"),
                              "35999B",
                              "sigcomm13's buffer is not the model's default");

        // Precedence: the helper's override, then a configured default, then the preset.
        Config::SetDefault("ns3::PfabricMinTcpSocket::Rto", TimeValue(MicroSeconds(60)));
        Config::SetDefault("ns3::PfabricTcpSocketFactory::InitialWindow", UintegerValue(8));
        Config::SetDefault("ns3::PfabricQueueDisc::MaxSize", QueueSizeValue(QueueSize("30000B")));
        // A default configured to the declared value is configured too.
        Config::SetDefault("ns3::PfabricMinTcpSocket::ProbeMode", BooleanValue(false));
        for (bool overridden : {true, false})
        {
            Bed bed(2, "pfabric", "sigcomm13");
            if (overridden)
            {
                bed.scheme.SetSocketAttribute("Rto", TimeValue(MicroSeconds(50)));
                bed.scheme.SetQueueDiscAttribute("MaxSize", QueueSizeValue(QueueSize("20000B")));
                // no configured default for these: the override beats the preset itself
                bed.scheme.SetSocketAttribute("MaxWindow", UintegerValue(30));
                bed.scheme.SetQueueDiscAttribute("DequeueMode", StringValue("MostUrgent"));
            }
            bed.Install();
            auto factory = bed.fabric.GetHosts().Get(0)->GetObject<PfabricTcpSocketFactory>();
            Ptr<Object> socket = SocketOf(factory);
            TimeValue rto;
            socket->GetAttribute("Rto", rto);
            const std::string winner(overridden ? "the helper's override beats the default"
                                                : "a configured default beats the preset");
            NS_TEST_ASSERT_MSG_EQ(rto.Get(),
                                  (overridden ? MicroSeconds(50) : MicroSeconds(60)),
                                  winner);
            NS_TEST_ASSERT_MSG_EQ(bed.queueDiscs.Get(0)->GetMaxSize(),
                                  QueueSize(overridden ? "20000B" : "30000B"),
                                  winner);
            NS_TEST_ASSERT_MSG_EQ(AttributeText(socket, "MaxWindow"),
                                  (overridden ? "30" : "23"),
                                  "the helper's override beats the preset");
            NS_TEST_ASSERT_MSG_EQ(AttributeText(bed.queueDiscs.Get(0), "DequeueMode"),
                                  (overridden ? "MostUrgent" : "EarliestOfMostUrgentFlow"),
                                  "the helper's override beats the preset");
            UintegerValue window;
            factory->GetAttribute("InitialWindow", window);
            NS_TEST_ASSERT_MSG_EQ(window.Get(), 8, "a configured default beats the preset");
            BooleanValue probe;
            socket->GetAttribute("ProbeMode", probe);
            NS_TEST_ASSERT_MSG_EQ(probe.Get(),
                                  false,
                                  "a default configured to the declared value beats the preset");
            UintegerValue after;
            socket->GetAttribute("ProbeAfterTimeouts", after);
            NS_TEST_ASSERT_MSG_EQ(after.Get(), 5, "untouched: the preset");
            Simulator::Destroy();
        }
        {
            Bed bed(2, "pfabric", "sigcomm13");
            bed.Install();
            Flow* flow = bed.Add(FlowOf(MSS));
            bed.Run();
            NS_TEST_ASSERT_MSG_EQ(bed.MinTcp(0)->GetFixedRto(),
                                  MicroSeconds(60),
                                  "the socket's RTO");
            NS_TEST_ASSERT_MSG_EQ(flow->delivered, MSS, "delivered");
        }
        Config::Reset();
    }
};

/**
 * Each socket class answers GetInstanceTypeId with its own TypeId, so that its attributes get
 * their defaults and Config finds its trace sources: TcpSocketBase answers with its own up to
 * ns-3.44, and from ns-3.45 Object's answer is final (pfabric::TcpSocketBaseCompat).
 */
class InstanceTypeIdTest : public TestCase
{
  public:
    InstanceTypeIdTest()
        : TestCase("Sockets: each class answers GetInstanceTypeId with its own TypeId")
    {
    }

  private:
    void DoRun() override
    {
        Check(CreateObject<PfabricMinTcpSocket>(), PfabricMinTcpSocket::GetTypeId());
        Check(CreateObject<PfabricLineRateTcpSocket>(), PfabricLineRateTcpSocket::GetTypeId());
        Check(CreateObject<PfabricBaselineTcpSocket>(), PfabricBaselineTcpSocket::GetTypeId());
    }

    /**
     * @brief Check one socket.
     * @param socket the socket
     * @param expected the TypeId it was created as
     */
    void Check(Ptr<PfabricTcpSocket> socket, TypeId expected)
    {
        NS_TEST_ASSERT_MSG_EQ(socket->GetInstanceTypeId().GetName(),
                              expected.GetName(),
                              "the TypeId the socket was created as");
        // A trace source of PfabricTcpSocket's TypeId, found through the instance's.
        NS_TEST_ASSERT_MSG_EQ(
            socket->TraceConnectWithoutContext("Timeout", MakeCallback(&IgnoreTimeouts)),
            true,
            "the Timeout trace source");
    }

    /// A Timeout trace sink.
    static void IgnoreTimeouts(uint64_t /* timeouts */)
    {
    }
};

/**
 * PfabricTcpDemux hands every segment to the socket ns-3's own search would: the same flows,
 * with and without it (HashDemux), send the same segments at the same times and finish at the
 * same instants, on an incast that loses packets under TCP-DropTail. With it, each host's table
 * holds its connections (both ends) and only each connection's first SYN, which is for a
 * listening socket, goes to TcpL4Protocol.
 */
class HashDemuxTest : public TestCase
{
  public:
    /// @param scheme pfabric or tcp
    explicit HashDemuxTest(const std::string& scheme)
        : TestCase(scheme + ": PfabricTcpDemux delivers every segment as ns-3's search does"),
          m_scheme(scheme)
    {
    }

  private:
    /// What a run's flows did.
    struct Outcome
    {
        std::vector<Time> fcts;                 //!< per flow
        std::vector<std::vector<Segment>> sent; //!< per flow, the sender's segments
        std::vector<uint64_t> delivered;        //!< per flow
        std::vector<uint64_t> tableDeliveries;  //!< per host
        std::vector<uint64_t> tcpDeliveries;    //!< per host
        std::vector<std::size_t> connections;   //!< per host, in the table
        uint32_t retransmissions = 0;           //!< over all flows
    };

    /**
     * @param hashDemux whether sockets are found through PfabricTcpDemux
     * @return what the flows did
     */
    Outcome RunFlows(bool hashDemux) const
    {
        Bed bed(HOSTS, m_scheme);
        bed.scheme.SetSocketFactoryAttribute("HashDemux", BooleanValue(hashDemux));
        bed.Install();
        // Incast to host 0, and two more flows sharing host 1's link.
        for (uint32_t src = 1; src < HOSTS; ++src)
        {
            bed.Add(FlowOf(150 * MSS + src, src, 0));
        }
        bed.Add(FlowOf(30 * MSS, 0, 1));
        bed.Add(FlowOf(7 * MSS, 2, 1));
        Outcome outcome;
        NodeContainer hosts = bed.fabric.GetHosts();
        std::vector<Ptr<PfabricTcpDemux>> demuxes;
        for (uint32_t host = 0; host < HOSTS; ++host)
        {
            demuxes.push_back(hosts.Get(host)->GetObject<PfabricTcpDemux>());
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        for (const auto& flow : bed.flows)
        {
            outcome.fcts.push_back(flow->fct);
            outcome.sent.push_back(flow->sent);
            outcome.delivered.push_back(flow->delivered);
            for (const Segment& s : flow->sent)
            {
                outcome.retransmissions += s.retransmit ? 1 : 0;
            }
        }
        for (const auto& demux : demuxes)
        {
            outcome.tableDeliveries.push_back(demux ? demux->GetTableDeliveries() : 0);
            outcome.tcpDeliveries.push_back(demux ? demux->GetTcpDeliveries() : 0);
            outcome.connections.push_back(demux ? demux->GetNConnections() : 0);
        }
        Simulator::Destroy();
        return outcome;
    }

    void DoRun() override
    {
        Outcome search = RunFlows(false);
        Outcome table = RunFlows(true);
        const std::size_t flows = search.fcts.size();
        for (std::size_t i = 0; i < flows; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(search.fcts[i].IsStrictlyPositive(), true, "flow completed");
            NS_TEST_ASSERT_MSG_EQ(table.fcts[i], search.fcts[i], "the same FCT, flow " << i);
            NS_TEST_ASSERT_MSG_EQ(table.delivered[i], search.delivered[i], "delivered " << i);
            NS_TEST_ASSERT_MSG_EQ(table.sent[i].size(), search.sent[i].size(), "segments " << i);
            for (std::size_t j = 0; j < search.sent[i].size(); ++j)
            {
                NS_TEST_ASSERT_MSG_EQ(table.sent[i][j].at, search.sent[i][j].at, "when sent");
                NS_TEST_ASSERT_MSG_EQ(table.sent[i][j].seq, search.sent[i][j].seq, "what sent");
            }
        }
        if (m_scheme == "tcp")
        {
            NS_TEST_ASSERT_MSG_GT(search.retransmissions, 0u, "the incast lost packets");
        }
        // Host 0 ends 4 connections (3 received, 1 sent), host 1 3, host 2 2, host 3 1.
        const std::vector<std::size_t> ends{4, 3, 2, 1};
        const std::vector<uint64_t> listenedSyns{3, 2, 0, 0};
        for (uint32_t host = 0; host < HOSTS; ++host)
        {
            NS_TEST_ASSERT_MSG_EQ(search.connections[host], 0u, "no table without HashDemux");
            NS_TEST_ASSERT_MSG_EQ(table.connections[host], ends[host], "connections of " << host);
            NS_TEST_ASSERT_MSG_EQ(table.tcpDeliveries[host],
                                  listenedSyns[host],
                                  "only SYNs for listeners go to TcpL4Protocol, host " << host);
            NS_TEST_ASSERT_MSG_GT(table.tableDeliveries[host], 0u, "the table delivered");
        }
    }

    static constexpr uint32_t HOSTS = 4; //!< hosts on the switch
    std::string m_scheme;                //!< the scheme
};

} // namespace

std::vector<TestCase*>
MakeTransportTestCases()
{
    return {new InitialWindowTest,
            new MaxWindowTest,
            new LossRecoveryTest,
            new FixedRtoTest("hotnets12", MicroSeconds(40)),
            new FixedRtoTest("sigcomm13", MicroSeconds(45)),
            new PriorityTagTest,
            new SwitchSeesPriorityTest,
            new ProbeModeTest,
            new LineRateAloneTest,
            new LineRateWindowTest,
            new PresetWindowRuleTest,
            new DctcpTest,
            new DctcpFloorTest,
            new CongestionControlPacingTest("ns3::TcpNewReno"),
            new CongestionControlPacingTest("ns3::TcpBbr"),
            new ShortFlowPreemptionTest,
            new NeverGivesUpTest,
            new BaselineFastRetransmitTest,
            new ReusedConnectionTest("pfabric", true),
            new ReusedConnectionTest("tcp", true),
            new ReusedConnectionTest("dctcp", true),
            new ReusedConnectionTest("pfabric", false),
            new RestartSsThreshTest(true),
            new RestartSsThreshTest(false),
            new HashDemuxTest("pfabric"),
            new HashDemuxTest("tcp"),
            new InstanceTypeIdTest,
            new SocketAttributesTest,
            new SchemeInstallTest};
}

} // namespace tests
} // namespace pfabric
} // namespace ns3
