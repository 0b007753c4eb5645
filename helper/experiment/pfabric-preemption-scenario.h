/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_PREEMPTION_SCENARIO_H
#define PFABRIC_PREEMPTION_SCENARIO_H

// The scenario of the pfabric-preemption example, shared with the end-to-end test so that the
// test checks exactly what the example shows (header only: compiled into the two that include it).
//
//   sender 0 ---+
//               switch --- receiver        all links 10 Gb/s, 1 us
//   sender 1 ---+
//
// A long flow (sender 0) starts at 0; a short flow (sender 1) starts later. Every node runs the
// chosen scheme (PfabricSchemeHelper: MinTCP or LineRate end hosts over pFabric ports, or TCP over
// drop-tail, or DCTCP over RED), every number from the chosen preset unless overridden.
// Completion is measured at the receiver (last byte delivered).

#include "ns3/address.h"
#include "ns3/bulk-send-application.h"
#include "ns3/bulk-send-helper.h"
#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet.h"
#include "ns3/pfabric-scheme-helper.h"
#include "ns3/pfabric-single-switch-helper.h"
#include "ns3/queue-disc-container.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

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
    std::string scheme = "pfabric";   //!< pfabric, linerate, tcp or dctcp
    std::string preset = "hotnets12"; //!< hotnets12 or sigcomm13
    std::string buffer;               //!< every port's queue size; empty: the preset's
    uint32_t longBytes = 5000000;     //!< long flow size
    uint32_t shortBytes = 100000;     //!< short flow size
    double shortStartUs = 1000;       //!< short flow start, microseconds
    double stopS = 10;                //!< simulated-time limit, seconds
};

/// One flow and its progress at the receiver.
struct PreemptionFlow
{
    uint32_t sender;               //!< host index of the sender
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
CountReceived(PreemptionFlow* flow, Ptr<const Packet> packet, const Address& /* from */)
{
    flow->received += packet->GetSize();
    if (flow->received == flow->bytes)
    {
        flow->completion = Simulator::Now() - flow->start;
    }
}

/**
 * @brief Build the scenario's fabric: senders 0 and 1 and the receiver, host 2, on one switch.
 * @param fabric a fabric of three hosts, not yet built
 */
inline void
BuildPreemptionFabric(PfabricSingleSwitchHelper& fabric)
{
    fabric.SetHostLinkRate(DataRate("10Gbps"));
    fabric.SetLinkDelay(MicroSeconds(1));
    fabric.Build();
}

/**
 * @brief Run the scenario once.
 * @param p the parameters
 * @param withLongFlow false: the short flow alone
 * @return completion time of the short flow and of the long flow (negative: none)
 */
inline std::pair<Time, Time>
RunPreemption(const PreemptionParameters& p, bool withLongFlow)
{
    PfabricSingleSwitchHelper fabric(3);
    BuildPreemptionFabric(fabric);
    PfabricSchemeHelper scheme(p.scheme, p.preset);
    if (!p.buffer.empty())
    {
        scheme.SetQueueDiscAttribute("MaxSize", QueueSizeValue(QueueSize(p.buffer)));
    }
    QueueDiscContainer queueDiscs =
        scheme.Install(NodeContainer(fabric.GetHosts(), fabric.GetSwitches()));
    PfabricSchemeHelper::AssignStreams(queueDiscs, 1);
    Ptr<Node> receiverNode = fabric.GetHosts().Get(2);
    Ipv4Address receiver = fabric.GetHostAddress(2);

    std::vector<PreemptionFlow> flows{{1, 2000, p.shortBytes, MicroSeconds(p.shortStartUs)}};
    if (withLongFlow)
    {
        flows.push_back({0, 1000, p.longBytes, Seconds(0)});
    }
    for (PreemptionFlow& flow : flows) // the vector no longer changes: &flow stays valid
    {
        PacketSinkHelper sinkHelper(PfabricSchemeHelper::GetSocketFactoryType().GetName(),
                                    InetSocketAddress(Ipv4Address::GetAny(), flow.port));
        Ptr<Application> sink = sinkHelper.Install(receiverNode).Get(0);
        sink->TraceConnectWithoutContext("Rx", MakeBoundCallback(&CountReceived, &flow));
        BulkSendHelper source(PfabricSchemeHelper::GetSocketFactoryType().GetName(),
                              InetSocketAddress(receiver, flow.port));
        source.SetAttribute("MaxBytes", UintegerValue(flow.bytes));
        Ptr<BulkSendApplication> bulk = DynamicCast<BulkSendApplication>(
            source.Install(fabric.GetHosts().Get(flow.sender)).Get(0));
        bulk->SetStartTime(flow.start);
    }
    Simulator::Stop(Seconds(p.stopS));
    Simulator::Run();
    Simulator::Destroy();
    return {flows[0].completion, withLongFlow ? flows[1].completion : Seconds(-1)};
}

} // namespace pfabric
} // namespace ns3

#endif /* PFABRIC_PREEMPTION_SCENARIO_H */
