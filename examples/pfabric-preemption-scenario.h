/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_PREEMPTION_SCENARIO_H
#define PFABRIC_PREEMPTION_SCENARIO_H

// The scenario of the pfabric-preemption example, shared with the end-to-end test so that the
// test checks exactly what the example shows.
//
//   sender 0 ---+
//               switch --- receiver        all links 10 Gb/s, 1 us
//   sender 1 ---+
//
// A long flow (sender 0) starts at 0; a short flow (sender 1) starts later. Every port runs the
// chosen queue (pfabric: PfabricQueueDisc; fifo: drop-tail FifoQueueDisc of the same size and the
// same one-packet device queue). The flows use ns-3's TCP; until this module's MinTCP transport
// exists, a "Tx" trace tags each data segment with the bytes its flow has not yet had
// acknowledged. Completion is measured at the receiver (last byte delivered).

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/pfabric-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace pfabric
{

/// The scenario's parameters (the example's command-line options).
struct PreemptionParameters
{
    std::string queue = "pfabric"; //!< pfabric or fifo
    std::string buffer = "22500B"; //!< every port's queue size
    /// PfabricQueueDisc::DequeueMode. Not the model's default: the stand-in tagger gives a
    /// window one priority, and MostUrgent's random ties would reorder ns-3 TCP's segments.
    std::string dequeueMode = "EarliestOfMostUrgentFlow";
    uint32_t longBytes = 5000000; //!< long flow size
    uint32_t shortBytes = 100000; //!< short flow size
    double shortStartUs = 1000;   //!< short flow start, microseconds
    double stopS = 10;            //!< simulated-time limit, seconds
};

/// ns-3 TCP for a microsecond fabric: full-size segments, an ACK per segment, microsecond timers.
inline void
ConfigureDatacenterTcp()
{
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1460));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(12));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MicroSeconds(200)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(MicroSeconds(1)));
    Config::SetDefault("ns3::RttEstimator::InitialEstimation", TimeValue(MicroSeconds(100)));
}

/**
 * @brief Tag a data segment with its flow's unacknowledged bytes; control segments stay untagged.
 * @param flowBytes the flow's size
 * @param packet the segment payload about to be sent
 * @param socket the sending socket
 */
inline void
TagRemainingBytes(uint64_t flowBytes,
                  Ptr<const Packet> packet,
                  const TcpHeader& /* header */,
                  Ptr<const TcpSocketBase> socket)
{
    if (packet->GetSize() > 0)
    {
        // ns-3's initial sequence number is 0 and the SYN takes it: data starts at 1.
        uint64_t acked = socket->GetTxBuffer()->HeadSequence().GetValue() - 1;
        PfabricPriorityTag::Set(ConstCast<Packet>(packet), flowBytes - acked);
    }
}

/// One flow and its progress at the receiver.
struct Flow
{
    uint32_t sender;               //!< node index of the sender
    uint16_t port;                 //!< receiver port
    uint32_t bytes;                //!< flow size
    Time start;                    //!< when the application starts
    uint64_t received = 0;         //!< bytes delivered so far
    Time completion = Seconds(-1); //!< last byte delivered, relative to start; negative: not yet
};

/**
 * @brief PacketSink "Rx" trace: count a flow's delivered bytes, note when the last one arrives.
 * @param flow the flow
 * @param packet the data received
 */
inline void
CountReceived(Flow* flow, Ptr<const Packet> packet, const Address& /* from */)
{
    flow->received += packet->GetSize();
    if (flow->received == flow->bytes)
    {
        flow->completion = Simulator::Now() - flow->start;
    }
}

/**
 * @brief Start tagging a bulk sender's segments (its socket exists once the application runs).
 * @param bulk the application
 * @param flowBytes its flow's size
 */
inline void
StartTagging(Ptr<BulkSendApplication> bulk, uint64_t flowBytes)
{
    bulk->GetSocket()->TraceConnectWithoutContext("Tx",
                                                  MakeBoundCallback(&TagRemainingBytes, flowBytes));
}

/**
 * @brief Run the scenario once (configure TCP first: ConfigureDatacenterTcp).
 * @param p the parameters
 * @param withLongFlow false: the short flow alone
 * @return completion time of the short flow and of the long flow (negative: none)
 */
inline std::pair<Time, Time>
RunPreemption(const PreemptionParameters& p, bool withLongFlow)
{
    NodeContainer nodes; // senders 0 and 1, switch 2, receiver 3
    nodes.Create(4);
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
    link.SetChannelAttribute("Delay", StringValue("1us"));
    std::vector<NetDeviceContainer> links{link.Install(nodes.Get(0), nodes.Get(2)),
                                          link.Install(nodes.Get(1), nodes.Get(2)),
                                          link.Install(nodes.Get(2), nodes.Get(3))};
    InternetStackHelper().Install(nodes);
    for (const auto& devices : links)
    {
        if (p.queue == "pfabric")
        {
            PfabricQueueDiscHelper pfabric;
            pfabric.SetQueueDiscAttribute("MaxSize", QueueSizeValue(QueueSize(p.buffer)));
            pfabric.SetQueueDiscAttribute("DequeueMode", StringValue(p.dequeueMode));
            pfabric.Install(devices);
        }
        else
        {
            for (uint32_t i = 0; i < devices.GetN(); ++i)
            {
                PfabricQueueDiscHelper::LimitDeviceQueue(devices.Get(i));
            }
            TrafficControlHelper fifo;
            fifo.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue(p.buffer));
            fifo.Install(devices);
        }
    }
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
    for (const auto& devices : links)
    {
        addresses.Assign(devices);
        addresses.NewNetwork();
    }
    Ipv4Address receiver = nodes.Get(3)->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    std::vector<Flow> flows{{1, 2000, p.shortBytes, MicroSeconds(p.shortStartUs)}};
    if (withLongFlow)
    {
        flows.push_back({0, 1000, p.longBytes, Seconds(0)});
    }
    for (Flow& flow : flows) // the vector no longer changes: &flow stays valid
    {
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), flow.port));
        Ptr<Application> sink = sinkHelper.Install(nodes.Get(3)).Get(0);
        sink->TraceConnectWithoutContext("Rx", MakeBoundCallback(&CountReceived, &flow));
        BulkSendHelper source("ns3::TcpSocketFactory", InetSocketAddress(receiver, flow.port));
        source.SetAttribute("MaxBytes", UintegerValue(flow.bytes));
        Ptr<BulkSendApplication> bulk =
            DynamicCast<BulkSendApplication>(source.Install(nodes.Get(flow.sender)).Get(0));
        bulk->SetStartTime(flow.start);
        Simulator::Schedule(flow.start + NanoSeconds(1), &StartTagging, bulk, uint64_t{flow.bytes});
    }
    Simulator::Stop(Seconds(p.stopS));
    Simulator::Run();
    Simulator::Destroy();
    return {flows[0].completion, withLongFlow ? flows[1].completion : Seconds(-1)};
}

} // namespace pfabric
} // namespace ns3

#endif /* PFABRIC_PREEMPTION_SCENARIO_H */
