/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_PRESET_H
#define PFABRIC_PRESET_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief The published pFabric setups, every number named: the one place this module keeps them.
 *
 * - "hotnets12": Alizadeh et al., "Deconstructing Datacenter Packet Transport", HotNets 2012
 *   (the paper this module reproduces): k = 6 fat-tree, 10 Gb/s, 22.5 KB pFabric buffers, 40 us
 *   MinTCP RTO, 225 KB drop-tail / RED buffers, 200 us minRTO, fast retransmit off.
 * - "sigcomm13": the SIGCOMM 2013 pFabric evaluation's original ns-2 run scripts: 144-host
 *   leaf-spine, 36 KB pFabric buffers, 45 us RTO, window cap, probe mode, adaptive dupack
 *   threshold for the baselines.
 *
 * Where a paper leaves a number open the preset says so next to it (pfabric-preset.cc) and
 * doc/pfabric.rst explains the choice. Fabric helpers, PfabricTcpSocketFactory and
 * PfabricQueueDisc take their defaults from "hotnets12" (PfabricLeafSpineHelper from "sigcomm13");
 * PfabricSchemeHelper applies a whole preset.
 */
struct PfabricPreset
{
    std::string name;   //!< preset name
    std::string source; //!< where the numbers come from

    // Packets
    uint32_t segmentSize;     //!< TCP payload bytes per full segment
    uint32_t headerBytes;     //!< TCP and IP header bytes of a segment without options
    uint32_t linkHeaderBytes; //!< link-layer framing bytes (point-to-point)

    // Fabric
    std::string topology;      //!< "fattree" or "leafspine"
    uint32_t fatTreeK;         //!< fat-tree switch radix
    uint32_t leaves;           //!< leaf-spine: leaf switches
    uint32_t hostsPerLeaf;     //!< leaf-spine: hosts per leaf
    uint32_t spines;           //!< leaf-spine: spine switches
    DataRate hostLinkRate;     //!< host access links
    DataRate fabricLinkRate;   //!< switch-to-switch links
    Time linkDelay;            //!< propagation delay of every link
    Time hostDelay;            //!< extra delay on host links
    std::string loadBalancing; //!< PfabricFabricRouting::LoadBalancing value

    // pFabric schemes (MinTCP+pFabric, LineRate+pFabric)
    QueueSize pfabricBuffer;        //!< PfabricQueueDisc::MaxSize
    std::string pfabricDequeueMode; //!< PfabricQueueDisc::DequeueMode
    Time minTcpRto;                 //!< fixed retransmission timeout
    uint32_t initialWindow;         //!< initial window, segments (all schemes)
    uint32_t minTcpMaxWindow;       //!< MinTCP window cap, segments, 0: none
    bool probeMode;                 //!< MinTCP probe mode on
    uint32_t probeAfterTimeouts;    //!< consecutive timeouts before probing
    uint64_t priorityOffset;        //!< added to remaining bytes in data priorities

    // End hosts, every window-based transport (MinTCP, TCP, DCTCP)
    bool hostPacing; //!< senders paced at their NIC's line rate

    // Baselines (TCP-DropTail, DCTCP)
    QueueSize baselineBuffer;       //!< drop-tail and RED buffer
    Time baselineMinRto;            //!< minimum RTO
    Time clockGranularity;          //!< RTO clock granularity
    bool baselineFastRetransmit;    //!< fast retransmit on
    uint32_t dupAckThreshold;       //!< (smallest) duplicate-ACK threshold
    double dupAckWindowFraction;    //!< threshold as a fraction of cwnd, 0: fixed
    uint32_t dctcpMarkingThreshold; //!< DCTCP's K, packets
    double dctcpG;                  //!< DCTCP's estimation gain

    /**
     * @brief Look a preset up by name; stops the simulation naming the known presets if absent.
     * @param name "hotnets12" or "sigcomm13"
     * @return the preset
     */
    static const PfabricPreset& Get(const std::string& name);

    /// @return the names of all presets
    static std::vector<std::string> GetNames();
};

} // namespace ns3

#endif /* PFABRIC_PRESET_H */
