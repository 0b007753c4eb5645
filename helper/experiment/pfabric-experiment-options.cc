/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The FCT experiment's options, each defined once (PfabricExperimentOptions): the tables of
// the fabric's and the run's options, and the run directory's name.

#include "pfabric-experiment-options.h"

#include "pfabric-experiment-feature.h"
#include "pfabric-shape-options.h"

#include "ns3/pfabric-preset.h"
#include "ns3/pfabric-scheme-helper.h"
#include "ns3/queue-size.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace ns3
{

using P = PfabricExperimentParameters;

const PfabricChoices<P::Topology> P::TOPOLOGIES{{"", PRESET_TOPOLOGY},
                                                {"fattree", FAT_TREE},
                                                {"leafspine", LEAF_SPINE},
                                                {"star", STAR}};

P::Topology
P::GetTopology() const
{
    // The preset names its topology as --topology does.
    const std::string& presetTopology = PfabricPreset::Get(preset).topology;
    for (const auto& [name, choice] : TOPOLOGIES)
    {
        if (topology == PRESET_TOPOLOGY && name == presetTopology)
        {
            return choice;
        }
    }
    return topology;
}

const PfabricChoices<P::LoadBalancing> P::LOAD_BALANCINGS{{"", PRESET_LB},
                                                          {"spray", SPRAY},
                                                          {"ecmp", ECMP},
                                                          {"flowcell", FLOWCELL},
                                                          {"random", RANDOM}};
const PfabricChoices<PfabricFlowSizeDistribution::Interpolation> P::SAMPLINGS{
    {"packets", PfabricFlowSizeDistribution::PACKETS},
    {"bytes", PfabricFlowSizeDistribution::BYTES}};
const PfabricChoices<P::Arrivals> P::ARRIVALS{{"poisson", POISSON}, {"ns2", NS2}};
const PfabricChoices<PfabricFabricHelper::SwitchMode> P::SWITCH_MODES{
    {"lean", PfabricFabricHelper::LEAN},
    {"ip", PfabricFabricHelper::IP}};
const PfabricChoices<PfabricFabricHelper::HostStack> P::HOST_STACKS{
    {"ns3tcp", PfabricFabricHelper::NS3_TCP},
    {"lean", PfabricFabricHelper::LEAN_HOST}};
const PfabricChoices<PfabricFabricHelper::LinkType> P::LINK_TYPES{
    {"pfabric", PfabricFabricHelper::PFABRIC_LINK},
    {"p2p", PfabricFabricHelper::POINT_TO_POINT_LINK}};
const PfabricChoices<P::DeadlinePriority> P::PRIORITIES{{"edf", EDF}, {"remaining", REMAINING}};
const PfabricChoices<P::OnMiss> P::ON_MISSES{{"continue", CONTINUE}, {"terminate", TERMINATE}};
const PfabricChoices<P::ClassScheduler> P::CLASS_SCHEDULERS{{"drr", DRR},
                                                            {"strict", STRICT},
                                                            {"none", NO_CLASSES}};

bool
PfabricExperimentParameters::UsesPfabricQueues() const
{
    return PfabricSchemeHelper::UsesPfabricQueues(scheme);
}

namespace
{

/// @return a number as the shortest text that reads back the same
std::string
Number(double value)
{
    return PfabricJsonObject::FormatNumber(value);
}

/// @return a LoadBalancing value as --lb spells it, e.g. "spray"
std::string
Lowercase(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) {
        return std::tolower(c);
    });
    return text;
}

} // namespace

PfabricExperimentOptions::PfabricExperimentOptions(PfabricExperimentParameters& p,
                                                   PfabricMeasurementWindow& window,
                                                   PfabricCustomScheme& custom,
                                                   const Features& features)
    : m_p(p),
      m_window(window),
      m_custom(custom),
      m_features(features),
      m_built(false)
{
}

void
PfabricExperimentOptions::Build()
{
    if (m_built)
    {
        return;
    }
    m_built = true;
    BuildFabric();
    BuildRun();
}

void
PfabricExperimentOptions::RegisterFabric(PfabricCommandLine& cmd)
{
    Build();
    m_fabric.Register(cmd);
}

void
PfabricExperimentOptions::RegisterRun(PfabricCommandLine& cmd)
{
    Build();
    m_run.Register(cmd);
}

std::string
PfabricExperimentOptions::Check()
{
    Build();
    std::string error = m_fabric.Check();
    return error.empty() ? m_run.Check() : error;
}

void
PfabricExperimentOptions::Record(PfabricJsonObject& parameters)
{
    Build();
    m_fabric.Record(parameters);
    m_run.Record(parameters);
}

std::string
PfabricExperimentOptions::GetUnsetKeys()
{
    Build();
    std::vector<std::string> keys;
    m_fabric.AddUnsetKeys(&keys);
    m_run.AddUnsetKeys(&keys);
    std::string array;
    for (const std::string& key : keys)
    {
        array += (array.empty() ? "" : ", ") + PfabricJsonObject::Quote(key);
    }
    return "[" + array + "]";
}

std::string
PfabricExperimentOptions::GetSchemeName() const
{
    return m_p.scheme == PfabricSchemeHelper::CUSTOM ? m_custom.GetLabel() : m_p.scheme;
}

void
PfabricExperimentOptions::BuildFabric()
{
    PfabricOptionTable& t = m_fabric;
    P& p = m_p;
    t.Add("preset",
          PfabricSchemeHelper::DescribePresets() + ": every number of fabric and scheme",
          p.preset);
    t.Add("scheme",
          "one of " + PfabricSchemeHelper::DescribeSchemes(true) +
              " (custom: ns-3 parts by name, the options marked custom; --listSchemes describes "
              "them)",
          p.scheme)
        .Check([&p, this] {
            std::string error = PfabricSchemeHelper::CheckChoice(p.scheme, p.preset);
            return error.empty() ? m_custom.Check(p.scheme, !p.buffer.empty()) : error;
        });
    t.AddPart([this](PfabricCommandLine& cmd) { m_custom.AddCommandLineOptions(cmd); },
              nullptr,
              [&p, this](PfabricJsonObject& json) {
                  if (p.scheme == PfabricSchemeHelper::CUSTOM)
                  {
                      m_custom.AddParameters(json);
                  }
              });
    t.AddChoice("topology",
                "fattree, leafspine or star (default: the preset's)",
                p.topology,
                P::TOPOLOGIES)
        .Record([&p](PfabricJsonObject& json) {
            json.AddString("topology", PfabricChoiceName(P::TOPOLOGIES, p.GetTopology()));
        });
    t.Add("k", "fattree: switch radix (default: the preset's)", p.k);
    t.Add("leaves", "leafspine: leaf switches (default: the preset's)", p.leaves);
    t.Add("spines", "leafspine: spine switches (default: the preset's)", p.spines);
    t.Add("hostsPerLeaf", "leafspine: hosts per leaf (default: the preset's)", p.hostsPerLeaf);
    const P defaults;
    PfabricShapeOptions<P::Topology> shape(P::TOPOLOGIES);
    shape.Add("k", p.k, defaults.k, P::FAT_TREE);
    shape.Add("leaves", p.leaves, defaults.leaves, P::LEAF_SPINE);
    shape.Add("spines", p.spines, defaults.spines, P::LEAF_SPINE);
    shape.Add("hostsPerLeaf", p.hostsPerLeaf, defaults.hostsPerLeaf, P::LEAF_SPINE);
    shape.Add("hosts", p.hosts, defaults.hosts, P::STAR);
    t.Add("hosts", "star: hosts on the single switch", p.hosts).Check([&p, &t, shape]() {
        return shape.Check(
            p.GetTopology(),
            "this run's fabric is a " + PfabricChoiceName(P::TOPOLOGIES, p.GetTopology()) +
                (p.topology == P::PRESET_TOPOLOGY ? " (--preset=" + p.preset + "'s)" : ""),
            [&t](const std::string& name, uint32_t value) {
                return t.Given(name, std::to_string(value));
            });
    });
    t.AddChoice("lb",
                "load balancing: spray, ecmp, flowcell or random (default: the preset's)",
                p.lb,
                P::LOAD_BALANCINGS)
        .Record([&p](PfabricJsonObject& json) {
            json.AddString("lb",
                           p.lb == P::PRESET_LB
                               ? Lowercase(PfabricPreset::Get(p.preset).loadBalancing)
                               : PfabricChoiceName(P::LOAD_BALANCINGS, p.lb));
        });
    t.Add("buffer", "switch buffer, e.g. 22500B or 150p (default: the preset's)", p.buffer)
        .Check([&p]() -> std::string {
            if (p.buffer.empty())
            {
                return "";
            }
            // ns-3's own QueueSize text, by the module's rules (PfabricCommandLine::CheckUnits).
            const auto size = PfabricCommandLine::QueueSizeAmount(p.buffer);
            if (!size || *size < 1)
            {
                return "--buffer=" + p.buffer + ": expected a positive size such as 22500B or 150p";
            }
            const std::string units =
                PfabricCommandLine::CheckUnits(MakeQueueSizeChecker(), p.buffer);
            return units.empty() ? "" : "--buffer=" + p.buffer + ": " + units;
        });
    t.Add("rto", "MinTCP/LineRate fixed RTO, e.g. 40us (default: the preset's)", p.rto)
        .Check([&p]() { return PfabricCommandLine::CheckTimeOption("rto", p.rto, "40us", true); });
    t.Add("linkDelay",
          "every link's propagation delay, e.g. 1us; host links keep the preset's extra host "
          "delay (default: the preset's)",
          p.linkDelay)
        .Check([&p]() {
            return PfabricCommandLine::CheckTimeOption("linkDelay", p.linkDelay, "400ns", false);
        });
    t.Add("seed", "ns-3 random seed", p.seed).Check([&p, &t]() -> std::string {
        const std::string wrong = PfabricCommandLine::CheckSeed(p.seed);
        return wrong.empty() ? "" : t.Given("seed", std::to_string(p.seed)) + ": " + wrong;
    });
    t.Add("run", "ns-3 run number (independent replications)", p.run);
    t.Add("out", "run directory (default: results/<named after the parameters>)", p.out)
        .NotRecorded();
    // meta.json keeps the keys and units of before the options took units.
    t.AddTime("maxSimTime", "safety limit on simulated time, e.g. 100s", p.maxSimTime, "s")
        .RecordTime("maxSimTime", Time::S)
        .Check([&p]() -> std::string {
            return p.maxSimTime.IsStrictlyPositive()
                       ? ""
                       : "--maxSimTime=" + PfabricCommandLine::FormatTime(p.maxSimTime) +
                             ": expected a positive time";
        });
    t.AddTime("connectLead",
              "open each flow's connection this long before it, e.g. 1ms",
              p.connectLead)
        .RecordTime("connectLeadUs", Time::US);
    t.AddRenamed("connectLeadUs", "connectLead", "us");
}

void
PfabricExperimentOptions::BuildRun()
{
    PfabricOptionTable& t = m_run;
    P& p = m_p;
    for (const auto& feature : m_features)
    {
        feature->AddLeadingOptions(t);
    }
    t.Add("load", "offered load, fraction of the host link in wire bytes, in (0, 1)", p.load)
        .Check([&p, &t]() -> std::string {
            return p.load > 0 && p.load < 1
                       ? ""
                       : t.Given("load", Number(p.load)) + ": expected a load in (0, 1)";
        });
    t.Add("flows", "number of flows to generate", p.flows);
    t.AddPart(
        [this](PfabricCommandLine& cmd) { m_window.AddCommandLineOptions(cmd, WindowConflict()); },
        [this, &p]() -> std::string {
            std::string error = m_window.Check(WindowConflict());
            if (error.empty() && p.flowFile.empty() && p.flows == 0 && !p.addedFlows &&
                !m_window.IsOn())
            {
                error = "--flows=0: expected at least one flow";
            }
            return error;
        },
        [this](PfabricJsonObject& json) { m_window.AddParameters(json); });
    t.Add("cdf", "flow-size CDF: websearch, datamining or a file", p.cdf)
        .Record([&p](PfabricJsonObject& json) {
            json.AddString("cdf", p.cdf.empty() ? p.workload : p.cdf);
        });
    t.AddChoice("sampling",
                "flow-size interpolation: packets (ns-2) or bytes",
                p.sampling,
                P::SAMPLINGS);
    t.AddChoice("arrivals",
                "how generated flows arrive: poisson (every host a Poisson source, destinations "
                "uniform, from --seed and --run) or ns2 (the original ns-2 scripts' flows: a "
                "Poisson process and size generator per host pair, ns-2's RNG seeded 17i+1244j "
                "and 33i+4369j, the same flows for every --seed and --run)",
                p.arrivals,
                P::ARRIVALS)
        .Check([this, &p]() -> std::string {
            if (p.arrivals != P::NS2)
            {
                return "";
            }
            if (!p.flowFile.empty())
            {
                return "--arrivals=ns2: generates flows; --flowFile replays a list instead";
            }
            if (p.sampling != PfabricFlowSizeDistribution::PACKETS)
            {
                return "--arrivals=ns2 draws sizes as ns-2 does, in packets: expected "
                       "--sampling=packets";
            }
            for (const auto& feature : m_features)
            {
                if (feature->MakesFlows())
                {
                    return "--arrivals=ns2: this experiment makes its own flows (--arrivals "
                           "applies to pfabric-websearch, pfabric-datamining and "
                           "pfabric-deadlines)";
                }
            }
            return "";
        });
    t.Add("flowFile", "replay the flows of this CSV (src,dst,size_bytes,start_s)", p.flowFile)
        .Record([&p](PfabricJsonObject& json) {
            // Absolute, so that a rerun from meta.json elsewhere reads the same file (the tenth
            // probe: a relative path was resolved against the rerun's directory).
            json.AddString("flowFile",
                           p.flowFile.empty() ? ""
                                              : std::filesystem::absolute(p.flowFile).string());
        });
    t.Add("dumpFlows", "write the flows run to this CSV", p.dumpFlows);
    t.Add("flowsOnly",
          "with --dumpFlows: write the flow list and stop, simulating nothing",
          p.flowsOnly)
        .NotRecorded();
    t.Add("idealOnly",
          "write every flow's ideal FCT on the idle fabric to the run directory's ideal_fct.csv "
          "(with meta.json) and stop, simulating nothing (what pfabric-analysis ideal needs to "
          "run on a flow list alone)",
          p.idealOnly)
        .NotRecorded();
    t.Add("reuseConnections",
          "give a flow an idle connection of its host pair (its earlier flow completed) when "
          "there is one; 0: a new connection for every flow",
          p.reuseConnections);
    t.Add("connectionPool",
          "0: connections as --reuseConnections says; N: the original ns-2 scripts' connections: "
          "N per host pair opened ahead for its first N flows, a later flow takes the connection "
          "idle longest or a new one opened at its start, handshake inside its FCT (the "
          "original: 1 for pFabric, 8 for TCP and DCTCP)",
          p.connectionPool)
        .Check([&p]() -> std::string {
            if (p.connectionPool > 0 && !p.reuseConnections)
            {
                return "--connectionPool needs --reuseConnections";
            }
            if (p.hostStack == PfabricFabricHelper::LEAN_HOST && p.connectionPool > 0)
            {
                return "--hostStack=lean has no handshake to model --connectionPool's new "
                       "connections";
            }
            return "";
        });
    t.Add("restartSsThresh",
          "a reused connection starts its next flow from the initial ssthresh, as a new one; 0: "
          "it keeps the ssthresh its earlier flows left, as the original ns-2 code",
          p.restartSsThresh)
        .Check([&p, &t]() -> std::string {
            return p.restartSsThresh != P().restartSsThresh && !p.reuseConnections
                       ? PfabricOptionTable::ShapesNothing(
                             t.Given("restartSsThresh", p.restartSsThresh ? "true" : "false"),
                             "only a reused connection keeps an ssthresh, and " +
                                 t.Given("reuseConnections", "false") +
                                 " gives every flow a new one")
                       : "";
        });
    t.Add("hashDemux",
          "find the socket of an arriving segment in a hash table of connections "
          "(PfabricTcpDemux); 0: ns-3's linear search over the host's endpoints (same results, "
          "slower when hosts hold many connections)",
          p.hashDemux)
        .Check([&p, &t]() -> std::string {
            return p.hashDemux != P().hashDemux && p.hostStack == PfabricFabricHelper::LEAN_HOST
                       ? PfabricOptionTable::ShapesNothing(
                             t.Given("hashDemux", p.hashDemux ? "true" : "false"),
                             "the lean host (--hostStack=lean) finds each segment's "
                             "connection in its own table, with no ns-3 endpoint to "
                             "search")
                       : "";
        });
    t.AddChoice("switchMode",
                "how switches forward: lean (PfabricSwitch hands packets to the port's queue "
                "disc, no IP stack) or ip (ns-3's internet stack with PfabricFabricRouting, the "
                "reference; same results, slower)",
                p.switchMode,
                P::SWITCH_MODES);
    t.AddChoice("hostStack",
                "what carries the hosts' flows: ns3tcp (ns-3's TCP/IP stack and "
                "PfabricTcpSocket, every scheme; the reference) or lean (PfabricHostTransport: "
                "every scheme's senders without ns-3's TCP/IP, making ns-3's decisions: the "
                "same segments on the wire, but for MinTCP's and LineRate's handshakes)",
                p.hostStack,
                P::HOST_STACKS);
    t.AddChoice("linkType",
                "what joins two nodes: pfabric (PfabricLinkNetDevice: only the packet on the "
                "wire is past a port's queue disc, one or two events per packet hop) or p2p "
                "(ns-3's point-to-point devices with a one-packet device queue, as this module "
                "had before the pfabric link; three events per hop)",
                p.linkType,
                P::LINK_TYPES);
    t.Add("priorityLevels",
          "pfabric, linerate: quantise the remaining-size priority into K levels with equal load "
          "per level (thresholds from the flow-size CDF, PfabricPriorityLevels) served by K "
          "strict-priority FIFO queues sharing each port's buffer (PfabricLevelQueueDisc), 1 to "
          "64; 0: pFabric's unquantised priority queue",
          p.priorityLevels)
        .Check([&p]() -> std::string {
            if (p.priorityLevels > 64)
            {
                return "--priorityLevels=" + std::to_string(p.priorityLevels) +
                       ": expected 0 to 64";
            }
            if (p.priorityLevels > 0 && !p.UsesPfabricQueues())
            {
                return "--priorityLevels needs --scheme=pfabric or linerate";
            }
            return "";
        });
    for (const auto& feature : m_features)
    {
        feature->AddOptions(t);
    }
}

std::string
PfabricExperimentOptions::WindowConflict() const
{
    for (const auto& feature : m_features)
    {
        const std::string conflict = feature->GetWindowConflict();
        if (!conflict.empty())
        {
            return conflict;
        }
    }
    if (m_p.addedFlows)
    {
        return "a program's added flows (pfabric-incast)";
    }
    if (!m_p.dumpFlows.empty() || m_p.flowsOnly || m_p.idealOnly)
    {
        return "--dumpFlows, --flowsOnly or --idealOnly (a windowed run's flows are known at its "
               "end, in fct.csv; write a list with --flows)";
    }
    return "";
}

std::string
PfabricExperimentOptions::OutputDirectoryName() const
{
    if (!m_p.out.empty())
    {
        return m_p.out;
    }
    std::string prefix;
    std::string parts;
    bool featureFlows = false;
    for (const auto& feature : m_features)
    {
        prefix += feature->GetNamePrefix();
        parts += feature->GetNamePart();
        featureFlows = featureFlows || feature->MakesFlows();
    }
    std::ostringstream name;
    name << "results/" << prefix << m_p.workload << "-" << m_p.preset << "-"
         << (m_p.idealOnly ? std::string("idealfct") : GetSchemeName()) << parts;
    // A feature that makes the flows names them in its part; else the workload's do.
    if (!featureFlows && m_p.flowFile.empty())
    {
        name << "-load" << Number(m_p.load) << (m_p.arrivals == P::NS2 ? "-ns2arrivals" : "");
        if (m_window.IsOn())
        {
            name << m_window.GetNamePart();
        }
        else
        {
            name << "-flows" << m_p.flows;
        }
    }
    else if (!featureFlows)
    {
        name << "-" << std::filesystem::path(m_p.flowFile).stem().string();
        if (m_window.IsOn())
        {
            name << m_window.GetNamePart();
        }
    }
    if (m_p.priorityLevels > 0)
    {
        name << "-levels" << m_p.priorityLevels;
    }
    name << "-seed" << m_p.seed << "-run" << m_p.run;
    return name.str();
}

} // namespace ns3
