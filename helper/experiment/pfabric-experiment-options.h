/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The FCT experiment's options: its typed parameters, each option defined once (name, help,
// type, check, provenance key) in a table, and the run directory's name made of them.

#ifndef PFABRIC_EXPERIMENT_OPTIONS_H
#define PFABRIC_EXPERIMENT_OPTIONS_H

#include "ns3/nstime.h"
#include "ns3/pfabric-command-line.h"
#include "ns3/pfabric-custom-scheme.h"
#include "ns3/pfabric-fabric-helper.h"
#include "ns3/pfabric-flow-size-distribution.h"
#include "ns3/pfabric-measurement-window.h"
#include "ns3/pfabric-option-table.h"
#include "ns3/pfabric-results-writer.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class PfabricExperimentFeature;

/**
 * @ingroup pfabric
 *
 * @brief Every knob of PfabricExperiment (the experiment programs' command-line options),
 * typed: enums for the choices, Time for the times.
 */
struct PfabricExperimentParameters
{
    /// The fabric's shape (--topology).
    enum Topology
    {
        PRESET_TOPOLOGY, //!< the preset's
        FAT_TREE,        //!< fattree
        LEAF_SPINE,      //!< leafspine
        STAR             //!< star: one switch
    };

    /// How switches spread a flow's packets (--lb; PfabricFabricRouting's LoadBalancing).
    enum LoadBalancing
    {
        PRESET_LB, //!< the preset's
        SPRAY,     //!< spray
        ECMP,      //!< ecmp
        FLOWCELL,  //!< flowcell
        RANDOM     //!< random
    };

    /// How generated flows arrive (--arrivals).
    enum Arrivals
    {
        POISSON, //!< poisson: this module's generator (PfabricFlowGenerator), the default
        NS2      //!< ns2: the original scripts' (PfabricNs2FlowGenerator)
    };

    /// What pFabric's packets carry under deadlines (--priority).
    enum DeadlinePriority
    {
        EDF,      //!< the time left to the deadline (PfabricDeadlinePriority)
        REMAINING //!< the remaining size, pFabric's
    };

    /// What a flow not complete at its deadline does (--onMiss).
    enum OnMiss
    {
        CONTINUE, //!< runs to completion, counted as missed
        TERMINATE //!< its sender gives it up
    };

    /// Between the traffic classes at every port (--classes).
    enum ClassScheduler
    {
        NO_CLASSES, //!< none: both in one pFabric queue, the reference
        STRICT,     //!< strict: class 0 first
        DRR         //!< drr: deficit round robin with --classWeights
    };

    std::string workload;                //!< websearch or datamining: names the run
    std::string preset = "hotnets12";    //!< PfabricPreset
    std::string scheme = "pfabric";      //!< pfabric, linerate, tcp, dctcp, custom
    double load = 0.6;                   //!< fraction of the host link
    uint32_t flows = 2000;               //!< flows to generate
    Topology topology = PRESET_TOPOLOGY; //!< the fabric's shape
    uint32_t k = 0;                      //!< fat-tree radix; 0: the preset's
    uint32_t leaves = 0;                 //!< leaf-spine leaves; 0: the preset's
    uint32_t spines = 0;                 //!< leaf-spine spines; 0: the preset's
    uint32_t hostsPerLeaf = 0;           //!< leaf-spine hosts per leaf; 0: the preset's
    uint32_t hosts = 16;                 //!< star: hosts
    LoadBalancing lb = PRESET_LB;        //!< load balancing
    std::string buffer;                  //!< switch buffer; empty: the preset's
    std::string rto;                     //!< MinTCP / LineRate RTO; empty: the preset's
    std::string linkDelay;               //!< every link's propagation delay; empty: the preset's
    std::string cdf;                     //!< flow sizes: name or file; empty: workload
    /// how flow sizes are drawn between the CDF's points (packets, as ns-2, or bytes)
    PfabricFlowSizeDistribution::Interpolation sampling = PfabricFlowSizeDistribution::PACKETS;
    Arrivals arrivals = POISSON;        //!< how generated flows arrive
    std::string flowFile;               //!< replay these flows instead of generating
    std::string dumpFlows;              //!< write the flows run here
    uint32_t seed = 1;                  //!< ns-3 RNG seed
    uint64_t run = 1;                   //!< ns-3 RNG run (RngRun's 64 bits)
    std::string out;                    //!< run directory; empty: named after the parameters
    bool flowsOnly = false;             //!< write --dumpFlows and simulate nothing
    bool idealOnly = false;             //!< write ideal_fct.csv and meta.json, simulate nothing
    Time maxSimTime = Seconds(100);     //!< safety limit on simulated time
    Time connectLead = MilliSeconds(1); //!< connections open this long before their flow
    bool reuseConnections = true;       //!< hand idle connections to later flows of the pair
    uint32_t connectionPool = 0;        //!< 0, or the original scripts' pool per pair
    bool restartSsThresh = true;        //!< a reused connection's ssthresh restarts
    bool hashDemux = true;              //!< sockets found through PfabricTcpDemux
    /// how switches forward: lean (no IP stack at switches) or ip
    PfabricFabricHelper::SwitchMode switchMode = PfabricFabricHelper::LEAN;
    /// what carries the hosts' flows: ns-3's TCP/IP or PfabricHostTransport
    PfabricFabricHelper::HostStack hostStack = PfabricFabricHelper::NS3_TCP;
    /// what joins two nodes
    PfabricFabricHelper::LinkType linkType = PfabricFabricHelper::PFABRIC_LINK;
    uint32_t priorityLevels = 0; //!< K strict-priority queues per port; 0: pFabric
    bool addedFlows = false;     //!< the program adds flows (AddFlows); flows may be 0
    // Deadlines (EnableDeadlines): deadline = start + max(deadlineMinFactor x ideal FCT, X),
    // X exponential of mean deadlineMean, for a deadlineFraction of the flows.
    std::string deadlineMean = "1ms";   //!< mean of X
    double deadlineMinFactor = 1.25;    //!< floor, in ideal FCTs (at least 1)
    double deadlineFraction = 1;        //!< share of flows with a deadline
    DeadlinePriority priority = EDF;    //!< pfabric, linerate: what packets carry
    OnMiss onMiss = CONTINUE;           //!< what a late flow does
    ClassScheduler classes = DRR;       //!< classes: between the classes at every port
    std::string classWeights = "1,1";   //!< classes, drr: weights of class 0 and class 1
    std::string classLoads = "0.3,0.3"; //!< classes: loads of web search and data mining

    /// @return the fabric's shape: --topology, else the preset's (a known preset)
    Topology GetTopology() const;

    /// The names of the choices, as the options take them.
    static const PfabricChoices<Topology> TOPOLOGIES;           //!< --topology
    static const PfabricChoices<LoadBalancing> LOAD_BALANCINGS; //!< --lb
    static const PfabricChoices<PfabricFlowSizeDistribution::Interpolation>
        SAMPLINGS;                                                             //!< --sampling
    static const PfabricChoices<Arrivals> ARRIVALS;                            //!< --arrivals
    static const PfabricChoices<PfabricFabricHelper::SwitchMode> SWITCH_MODES; //!< --switchMode
    static const PfabricChoices<PfabricFabricHelper::HostStack> HOST_STACKS;   //!< --hostStack
    static const PfabricChoices<PfabricFabricHelper::LinkType> LINK_TYPES;     //!< --linkType
    static const PfabricChoices<DeadlinePriority> PRIORITIES;                  //!< --priority
    static const PfabricChoices<OnMiss> ON_MISSES;                             //!< --onMiss
    static const PfabricChoices<ClassScheduler> CLASS_SCHEDULERS;              //!< --classes

    /// @return whether the scheme runs pFabric's queues (pfabric, linerate): what ranks flows
    bool UsesPfabricQueues() const;
};

/**
 * @ingroup pfabric
 *
 * @brief The FCT experiment's options, each defined once: the tables from which the command
 * line, the checks and meta.json's parameters come (PfabricOptionTable), and the run
 * directory's name.
 *
 * Two tables: the fabric's (every experiment built on PfabricExperiment takes them, e.g.
 * pfabric-incast) and the run's (the workload, the transport, and what the features add:
 * PfabricExperimentFeature::AddLeadingOptions before the workload's, AddOptions after the
 * others'). Both are checked and recorded; the programs register the run's too.
 */
class PfabricExperimentOptions
{
  public:
    /// The experiment's features, in the order their hooks are called.
    using Features = std::vector<std::unique_ptr<PfabricExperimentFeature>>;

    /**
     * @param p the parameters (outlive this)
     * @param window the measurement window (outlives this)
     * @param custom the custom scheme (outlives this)
     * @param features the experiment's features (outlive this; added before the tables are
     *        used)
     */
    PfabricExperimentOptions(PfabricExperimentParameters& p,
                             PfabricMeasurementWindow& window,
                             PfabricCustomScheme& custom,
                             const Features& features);

    /**
     * @brief Register the fabric's options (preset, scheme and the custom scheme's parts, the
     * topology and its sizes, load balancing, buffer, RTO, seed, run, the run directory,
     * maxSimTime, connectLead).
     * @param cmd the command line
     */
    void RegisterFabric(PfabricCommandLine& cmd);

    /**
     * @brief Register the run's options (the workload's, the transport's, deadlines', classes').
     * @param cmd the command line
     */
    void RegisterRun(PfabricCommandLine& cmd);

    /// @return "" or the first option that is wrong, one line naming it
    std::string Check();

    /**
     * @brief Add every parameter to meta.json's parameters object.
     * @param parameters the object
     */
    void Record(PfabricJsonObject& parameters);

    /**
     * @brief The keys of meta.json's parameters that no option of this program's command line
     * sets (PfabricOptionTable::AddUnsetKeys), as a JSON array.
     * @return the array
     */
    std::string GetUnsetKeys();

    /// @return the scheme's name in the run directory and the analysis: Scheme, or the custom
    /// scheme's label
    std::string GetSchemeName() const;

    /// @return the run directory's name: --out, or one made of the parameters
    std::string OutputDirectoryName() const;

    /// @return what the window cannot go with in this experiment, or ""
    std::string WindowConflict() const;

  private:
    /// @brief Fill the tables (once, on first use).
    void Build();
    /// @brief The fabric's table.
    void BuildFabric();
    /// @brief The run's table: the workload's, the transport's and the features' options.
    void BuildRun();

    PfabricExperimentParameters& m_p;   //!< the parameters
    PfabricMeasurementWindow& m_window; //!< the measurement window
    PfabricCustomScheme& m_custom;      //!< the custom scheme's parts
    const Features& m_features;         //!< the experiment's features
    bool m_built;                       //!< the tables are filled
    PfabricOptionTable m_fabric;        //!< the fabric's options
    PfabricOptionTable m_run;           //!< the run's options
};

} // namespace ns3

#endif /* PFABRIC_EXPERIMENT_OPTIONS_H */
