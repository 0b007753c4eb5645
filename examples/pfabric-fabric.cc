/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// pfabric-fabric: build a fat-tree, leaf-spine or single-switch fabric and print its shape, how
// long building it took, and the idle-fabric base RTT and ideal FCT between host 0 and a host in
// the same rack, the same pod and another pod.
//
//   ./pfabric run pfabric-fabric -- --topology=fattree --k=8
//   ./pfabric run pfabric-fabric -- --topology=leafspine --leaves=9 --hostsPerLeaf=16 --spines=4

#include "ns3/core-module.h"
#include "ns3/pfabric-module.h"
#include "ns3/pfabric-seeding-variable-check.h"
#include "ns3/pfabric-shape-options.h"

#include <chrono>
#include <iostream>
#include <memory>
#include <string>

using namespace ns3;

int
main(int argc, char* argv[])
{
    // The shapes this program builds, as --topology names them.
    enum Shape
    {
        FAT_TREE,
        LEAF_SPINE,
        SINGLE
    };

    const PfabricChoices<Shape> shapes{{"fattree", FAT_TREE},
                                       {"leafspine", LEAF_SPINE},
                                       {"single", SINGLE}};
    Shape topology = FAT_TREE;
    const PfabricPreset& hotnets12 = PfabricPreset::Get("hotnets12");
    const PfabricPreset& sigcomm13 = PfabricPreset::Get("sigcomm13");
    uint32_t k = hotnets12.fatTreeK;
    uint32_t leaves = sigcomm13.leaves;
    uint32_t hostsPerLeaf = sigcomm13.hostsPerLeaf;
    uint32_t spines = sigcomm13.spines;
    uint32_t hosts = 16;
    std::string hostRate;
    std::string fabricRate;
    std::string linkDelay;
    std::string hostDelay;
    uint64_t flowBytes = 100000;

    // A shape option of another topology shapes nothing: given away from its default it is
    // refused below, as the FCT programs refuse it (the eighth probe: --k on a single switch,
    // --hosts on a leaf-spine and --spines on a fat-tree were taken).
    PfabricShapeOptions<Shape> shapeOptions(shapes);
    shapeOptions.Add("k", k, k, FAT_TREE);
    shapeOptions.Add("leaves", leaves, leaves, LEAF_SPINE);
    shapeOptions.Add("hostsPerLeaf", hostsPerLeaf, hostsPerLeaf, LEAF_SPINE);
    shapeOptions.Add("spines", spines, spines, LEAF_SPINE);
    shapeOptions.Add("hosts", hosts, hosts, SINGLE);

    PfabricCommandLine cmd(__FILE__);
    cmd.AddChoice("topology", "fattree, leafspine or single", topology, shapes);
    cmd.AddValue("k", "fattree: ports per switch (even)", k);
    cmd.AddValue("leaves", "leafspine: leaf switches", leaves);
    cmd.AddValue("hostsPerLeaf", "leafspine: hosts per leaf", hostsPerLeaf);
    cmd.AddValue("spines", "leafspine: spine switches (must divide hostsPerLeaf)", spines);
    cmd.AddValue("hosts", "single: hosts", hosts);
    cmd.AddValue("hostRate", "host link rate, e.g. 10Gbps (default: the topology's)", hostRate);
    cmd.AddValue("fabricRate", "switch-to-switch link rate (default: the topology's)", fabricRate);
    cmd.AddValue("linkDelay",
                 "propagation delay per link, e.g. 1us (default: the topology's)",
                 linkDelay);
    cmd.AddValue("hostDelay", "extra delay on host links (default: the topology's)", hostDelay);
    cmd.AddValue("flowBytes", "flow size for the ideal FCT printed", flowBytes);
    std::string parseError;
    if (!cmd.Parse(argc, argv, &parseError))
    {
        std::cerr << "pfabric-fabric: error: " << parseError << std::endl;
        return 1;
    }
    const std::string unshaped = shapeOptions.Check(
        topology,
        "this fabric is a " + PfabricChoiceName(shapes, topology),
        [&cmd](const std::string& name, uint32_t) { return cmd.DescribeGiven(name); });
    if (!unshaped.empty())
    {
        std::cerr << "pfabric-fabric: error: " << unshaped << std::endl;
        return 1;
    }
    if (topology == SINGLE && !fabricRate.empty())
    {
        std::cerr << "pfabric-fabric: error: --fabricRate=" << fabricRate
                  << ": a single switch has no switch-to-switch links, so it would set nothing; "
                     "leave it out"
                  << std::endl;
        return 1;
    }
    for (const auto& [name, text] :
         {std::pair<std::string, std::string>{"linkDelay", linkDelay}, {"hostDelay", hostDelay}})
    {
        Time delay;
        if (!text.empty() && !PfabricCommandLine::ParseTime(name, text, &delay, &parseError))
        {
            std::cerr << "pfabric-fabric: error: " << parseError << std::endl;
            return 1;
        }
    }
    // A rate ns-3 cannot read stops the program in DataRate's parser; 0 in the helper's setter.
    for (const auto& [name, text] :
         {std::pair<std::string, std::string>{"hostRate", hostRate}, {"fabricRate", fabricRate}})
    {
        if (!text.empty() && (!PfabricCommandLine::TakesValue(MakeDataRateChecker(), text) ||
                              DataRate(text).GetBitRate() == 0))
        {
            std::cerr << "pfabric-fabric: error: --" << name << "=" << text
                      << ": expected a positive rate such as 10Gbps" << std::endl;
            return 1;
        }
        const std::string units =
            text.empty() ? "" : PfabricCommandLine::CheckUnits(MakeDataRateChecker(), text);
        if (!units.empty())
        {
            std::cerr << "pfabric-fabric: error: --" << name << "=" << text << ": " << units
                      << std::endl;
            return 1;
        }
    }
    if (flowBytes == 0)
    {
        std::cerr << "pfabric-fabric: error: --flowBytes=0: expected at least one byte"
                  << std::endl;
        return 1;
    }
    // A global value ns-3 keeps as text and reads when it creates the simulator is tried first.
    PfabricSettingsTrial trial;
    trial.AddSimulatorStep(cmd);
    const std::string refused = trial.Run();
    if (!refused.empty())
    {
        std::cerr << "pfabric-fabric: error: " << refused << std::endl;
        return 1;
    }
    if (flowBytes > PfabricFlowApplication::MAX_FLOW_BYTES)
    {
        // Its ideal FCT overflowed (18446744073709551615 B in 8 us).
        std::cerr << "pfabric-fabric: error: --flowBytes=" << flowBytes << ": more than a flow's "
                  << PfabricFlowApplication::MAX_FLOW_BYTES << " bytes" << std::endl;
        return 1;
    }

    std::unique_ptr<PfabricFabricHelper> fabric;
    if (topology == FAT_TREE)
    {
        fabric = std::make_unique<PfabricFatTreeHelper>(k);
    }
    else if (topology == LEAF_SPINE)
    {
        fabric = std::make_unique<PfabricLeafSpineHelper>(leaves, hostsPerLeaf, spines);
    }
    else
    {
        fabric = std::make_unique<PfabricSingleSwitchHelper>(hosts);
    }
    const std::string shapeError = fabric->GetShapeError(); // Build() would stop on it
    if (!shapeError.empty())
    {
        std::cerr << "pfabric-fabric: error: " << shapeError << std::endl;
        return 1;
    }
    // Rates and delays are checked by the helper's setters.
    if (!hostRate.empty())
    {
        fabric->SetHostLinkRate(DataRate(hostRate));
    }
    if (!fabricRate.empty())
    {
        fabric->SetFabricLinkRate(DataRate(fabricRate));
    }
    if (!linkDelay.empty())
    {
        fabric->SetLinkDelay(Time(linkDelay));
    }
    if (!hostDelay.empty())
    {
        fabric->SetHostDelay(Time(hostDelay));
    }
    const std::vector<std::string> overridden = fabric->GetLinkDefaultsItOverrides();
    if (!overridden.empty())
    {
        std::cerr << "pfabric-fabric: error: "
                  << PfabricFabricHelper::RefuseLinkDefault(
                         cmd.DescribeNs3Setting(overridden.front()),
                         overridden.front(),
                         "--hostRate, --fabricRate, --linkDelay and --hostDelay set the links")
                  << std::endl;
        return 1;
    }
    std::string why;
    const std::string unusedLink = fabric->FindUnusedLinkTypeDefault(&why);
    if (!unusedLink.empty())
    {
        std::cerr << "pfabric-fabric: error: " << cmd.DescribeNs3Setting(unusedLink) << ": " << why
                  << "; leave it unset" << std::endl;
        return 1;
    }

    auto start = std::chrono::steady_clock::now();
    fabric->Build();
    std::chrono::duration<double> built = std::chrono::steady_clock::now() - start;

    std::cout << "topology " << PfabricChoiceName(shapes, topology) << ": " << fabric->GetNHosts()
              << " hosts, " << fabric->GetSwitches().GetN() << " switches, " << fabric->GetNLinks()
              << " links; built in " << built.count() << " s" << std::endl;
    // One host of each kind of pair: same rack, another rack of the same pod, another pod.
    bool shown[3] = {};
    for (uint32_t to = 1; to < fabric->GetNHosts(); ++to)
    {
        uint32_t kind = fabric->GetPod(to) != fabric->GetPod(0)     ? 2
                        : fabric->GetRack(to) != fabric->GetRack(0) ? 1
                                                                    : 0;
        if (!shown[kind])
        {
            shown[kind] = true;
            const char* names[] = {"same rack", "other rack, same pod", "other pod"};
            std::cout << "host 0 -> host " << to << " (" << fabric->GetHostAddress(to) << ", "
                      << names[kind] << ", " << fabric->GetHopCount(0, to) << " links): base RTT "
                      << fabric->GetBaseRtt(0, to).As(Time::US) << ", ideal FCT of " << flowBytes
                      << " B " << fabric->GetIdealFct(0, to, flowBytes).As(Time::US) << std::endl;
        }
    }
    Simulator::Destroy();
    return 0;
}
