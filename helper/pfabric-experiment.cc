/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfabric-experiment.h"

#include "pfabric-fat-tree-helper.h"
#include "pfabric-leaf-spine-helper.h"
#include "pfabric-single-switch-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/pfabric-class-queue-disc.h"
#include "ns3/pfabric-preset.h"
#include "ns3/pfabric-priority-levels.h"
#include "ns3/pfabric-priority-policy.h"
#include "ns3/pfabric-provenance.h"
#include "ns3/pfabric-size-bins.h"
#include "ns3/queue-size.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iterator>
#include <optional>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricExperiment");

namespace
{

/// A unit a size or time option takes, and how many of the unit ns-3 keeps it in (packets or
/// bytes; nanoseconds) it is.
using Unit = std::pair<std::string, double>;

/// The units of --buffer (ns-3's QueueSize).
const std::vector<Unit> BUFFER_UNITS{{"p", 1},
                                     {"B", 1},
                                     {"KB", 1e3},
                                     {"MB", 1e6},
                                     {"KiB", 1024},
                                     {"MiB", 1048576}};
/// The units of --rto and --deadlineMean (ns-3's Time).
const std::vector<Unit> TIME_UNITS{{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};

/// The largest queue size ns-3 keeps: 32 bits (QueueSize wraps a larger one, to 0p for 2^32p).
constexpr double MAX_QUEUE_SIZE = 4294967295.0;
/// The longest time taken, nanoseconds: within the 63 bits of ns-3's Time (whose arithmetic
/// stops the program on an overflow), about 285 years.
constexpr double MAX_TIME_NS = 9e18;

/**
 * @brief A number followed by one of the given units.
 * @param text e.g. "22500B"
 * @param units the accepted units, e.g. BUFFER_UNITS
 * @param allowFraction whether the number may have a decimal point
 * @return the quantity in the unit ns-3 keeps (the number times its unit's multiplier), or
 *         nothing if the text is not one
 */
std::optional<double>
Quantity(const std::string& text, const std::vector<Unit>& units, bool allowFraction)
{
    std::size_t end = text.find_first_not_of(allowFraction ? "0123456789." : "0123456789");
    std::string number = text.substr(0, end);
    std::string unit = end == std::string::npos ? "" : text.substr(end);
    bool digits = number.find_first_of("0123456789") != std::string::npos &&
                  std::count(number.begin(), number.end(), '.') <= 1;
    auto found = std::find_if(units.begin(), units.end(), [&unit](const Unit& known) {
        return known.first == unit;
    });
    if (!digits || found == units.end())
    {
        return std::nullopt;
    }
    // Digits and a point only: strtod reads all of it (a huge number as infinity, no throw).
    return std::strtod(number.c_str(), nullptr) * found->second;
}

/// @return a number as the shortest text that reads back the same
std::string
Number(double value)
{
    return PfabricJsonObject::FormatNumber(value);
}

/// @return why a time longer than MAX_TIME_NS is refused
std::string
TooLong()
{
    return "longer than ns-3's times (at most " + Number(MAX_TIME_NS / 1e9) + " s)";
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

PfabricExperiment::PfabricExperiment(const std::string& workload)
    : m_done(0),
      m_events(0),
      m_packetHops(0),
      m_totalBytes(0),
      m_bytesReceived(0),
      m_connectionsOpened(0),
      m_startedBeforeConnected(0),
      m_deadlines(false),
      m_terminated(0),
      m_arrivalsThroughEnd(true),
      m_stoppedWhenDone(false)
{
    m_p.workload = workload;
}

PfabricExperiment::~PfabricExperiment() = default;

PfabricExperiment::Parameters&
PfabricExperiment::GetParameters()
{
    return m_p;
}

void
PfabricExperiment::EnableDeadlines()
{
    m_deadlines = true;
    m_writer.SetDeadlineColumns(true);
}

bool
PfabricExperiment::HasDeadlines() const
{
    return m_deadlines;
}

PfabricMeasurementWindow&
PfabricExperiment::GetWindow()
{
    return m_window;
}

const PfabricMeasurementWindow&
PfabricExperiment::GetWindow() const
{
    return m_window;
}

PfabricCustomScheme&
PfabricExperiment::GetCustomScheme()
{
    return m_custom;
}

std::string
PfabricExperiment::GetSchemeName() const
{
    return m_p.scheme == PfabricSchemeHelper::CUSTOM ? m_custom.GetLabel() : m_p.scheme;
}

bool
PfabricExperiment::RanksByDeadline() const
{
    return m_deadlines && m_p.priority == "edf" &&
           (m_p.scheme == "pfabric" || m_p.scheme == "linerate");
}

void
PfabricExperiment::CountDeadlines(uint32_t* with, uint32_t* met) const
{
    *with = 0;
    *met = 0;
    for (const Result& r : m_results)
    {
        if (r.flow.deadline != Time::Max())
        {
            ++*with;
            *met += PfabricResultsWriter::IsDeadlineMet(r) ? 1 : 0;
        }
    }
}

void
PfabricExperiment::AddFabricCommandLineOptions(PfabricCommandLine& cmd)
{
    cmd.AddValue("preset", "hotnets12 or sigcomm13: every number of fabric and scheme", m_p.preset);
    cmd.AddValue("scheme",
                 "pfabric, linerate, tcp, dctcp or custom (ns-3 parts by name: the options "
                 "marked custom)",
                 m_p.scheme);
    m_custom.AddCommandLineOptions(cmd);
    cmd.AddValue("topology", "fattree, leafspine or star (default: the preset's)", m_p.topology);
    cmd.AddValue("k", "fattree: switch radix (default: the preset's)", m_p.k);
    cmd.AddValue("leaves", "leafspine: leaf switches (default: the preset's)", m_p.leaves);
    cmd.AddValue("spines", "leafspine: spine switches (default: the preset's)", m_p.spines);
    cmd.AddValue("hostsPerLeaf",
                 "leafspine: hosts per leaf (default: the preset's)",
                 m_p.hostsPerLeaf);
    cmd.AddValue("hosts", "star: hosts on the single switch", m_p.hosts);
    cmd.AddValue("lb",
                 "load balancing: spray, ecmp, flowcell or random (default: the preset's)",
                 m_p.lb);
    cmd.AddValue("buffer",
                 "switch buffer, e.g. 22500B or 150p (default: the preset's)",
                 m_p.buffer);
    cmd.AddValue("rto", "MinTCP/LineRate fixed RTO, e.g. 40us (default: the preset's)", m_p.rto);
    cmd.AddValue("seed", "ns-3 random seed", m_p.seed);
    cmd.AddValue("run", "ns-3 run number (independent replications)", m_p.run);
    cmd.AddValue("out", "run directory (default: results/<named after the parameters>)", m_p.out);
    cmd.AddValue("maxSimTime", "safety limit on simulated time, seconds", m_p.maxSimTime);
    cmd.AddValue("connectLeadUs",
                 "open each flow's connection this long before it, us",
                 m_p.connectLeadUs);
}

void
PfabricExperiment::AddCommandLineOptions(PfabricCommandLine& cmd)
{
    AddFabricCommandLineOptions(cmd);
    if (IsClasses())
    {
        cmd.AddValue("classLoads",
                     "offered loads of web search (class 0) and data mining (class 1), "
                     "fractions of the host link in wire bytes, summing to less than 1",
                     m_p.classLoads);
        cmd.AddValue("classes",
                     "between the classes at every port: drr (deficit round robin with "
                     "--classWeights), strict (class 0, web search, first) or none (both in "
                     "one pFabric queue, the reference)",
                     m_p.classes);
        cmd.AddValue("classWeights",
                     "drr: weights of class 0 and class 1, positive integers, e.g. 3,1",
                     m_p.classWeights);
        cmd.AddValue("flows",
                     "web search flows to generate (data mining flows: as many as span the "
                     "same time at their load)",
                     m_p.flows);
    }
    else
    {
        cmd.AddValue("load",
                     "offered load, fraction of the host link in wire bytes, in (0, 1)",
                     m_p.load);
        cmd.AddValue("flows", "number of flows to generate", m_p.flows);
    }
    m_window.AddCommandLineOptions(cmd);
    if (!IsClasses())
    {
        cmd.AddValue("cdf", "flow-size CDF: websearch, datamining or a file", m_p.cdf);
    }
    cmd.AddValue("sampling", "flow-size interpolation: packets (ns-2) or bytes", m_p.sampling);
    if (!IsClasses())
    {
        cmd.AddValue("flowFile",
                     "replay the flows of this CSV (src,dst,size_bytes,start_s)",
                     m_p.flowFile);
    }
    cmd.AddValue("dumpFlows", "write the flows run to this CSV", m_p.dumpFlows);
    cmd.AddValue("flowsOnly",
                 "with --dumpFlows: write the flow list and stop, simulating nothing",
                 m_p.flowsOnly);
    cmd.AddValue("idealOnly",
                 "write every flow's ideal FCT on the idle fabric to the run directory's "
                 "ideal_fct.csv (with meta.json) and stop, simulating nothing (what "
                 "pfabric-analysis ideal needs to run on a flow list alone)",
                 m_p.idealOnly);
    cmd.AddValue("reuseConnections",
                 "give a flow an idle connection of its host pair (its earlier flow completed) "
                 "when there is one; 0: a new connection for every flow",
                 m_p.reuseConnections);
    cmd.AddValue("connectionPool",
                 "0: connections as --reuseConnections says; N: the original ns-2 scripts' "
                 "connections: N per host pair opened ahead for its first N flows, a later flow "
                 "takes the connection idle longest or a new one opened at its start, handshake "
                 "inside its FCT (the original: 1 for pFabric, 8 for TCP and DCTCP)",
                 m_p.connectionPool);
    cmd.AddValue("restartSsThresh",
                 "a reused connection starts its next flow from the initial ssthresh, as a new "
                 "one; 0: it keeps the ssthresh its earlier flows left, as the original ns-2 code",
                 m_p.restartSsThresh);
    cmd.AddValue("hashDemux",
                 "find the socket of an arriving segment in a hash table of connections "
                 "(PfabricTcpDemux); 0: ns-3's linear search over the host's endpoints (same "
                 "results, slower when hosts hold many connections)",
                 m_p.hashDemux);
    cmd.AddValue("switchMode",
                 "how switches forward: lean (PfabricSwitch hands packets to the port's queue "
                 "disc, no IP stack) or ip (ns-3's internet stack with PfabricFabricRouting, the "
                 "reference; same results, slower)",
                 m_p.switchMode);
    cmd.AddValue("hostStack",
                 "what carries the hosts' flows: ns3tcp (ns-3's TCP/IP stack and PfabricTcpSocket, "
                 "every scheme; the reference) or lean (PfabricHostTransport: MinTCP and LineRate "
                 "without ns-3's TCP/IP, the same segments on the wire; pfabric and linerate only)",
                 m_p.hostStack);
    cmd.AddValue("linkType",
                 "what joins two nodes: pfabric (PfabricLinkNetDevice: only the packet on the "
                 "wire is past a port's queue disc, one or two events per packet hop) or p2p "
                 "(ns-3's point-to-point devices with a one-packet device queue, as this module "
                 "had before the pfabric link; three events per hop)",
                 m_p.linkType);
    if (IsClasses())
    {
        return;
    }
    cmd.AddValue("priorityLevels",
                 "pfabric, linerate: quantise the remaining-size priority into K levels with "
                 "equal load per level (thresholds from the flow-size CDF, "
                 "PfabricPriorityLevels) served by K strict-priority FIFO queues sharing each "
                 "port's buffer (PfabricLevelQueueDisc), 1 to 64; 0: pFabric's unquantised "
                 "priority queue",
                 m_p.priorityLevels);
    if (!m_deadlines)
    {
        return;
    }
    cmd.AddValue("deadlineMean",
                 "deadlines: mean of the exponential part X of a flow's time to its deadline, "
                 "e.g. 1ms (deadline = start + max(deadlineMinFactor x ideal FCT, X))",
                 m_p.deadlineMean);
    cmd.AddValue("deadlineMinFactor",
                 "deadlines: no deadline comes sooner than this many ideal FCTs after the "
                 "flow's start, at least 1",
                 m_p.deadlineMinFactor);
    cmd.AddValue("deadlineFraction",
                 "deadlines: the share of flows with a deadline, in [0, 1]; the others have "
                 "none (under edf they rank behind every flow with one)",
                 m_p.deadlineFraction);
    cmd.AddValue("priority",
                 "pfabric, linerate: what packets carry, edf (time left to the deadline, "
                 "PfabricDeadlinePriority) or remaining (remaining size, pFabric's); tcp and "
                 "dctcp ignore it",
                 m_p.priority);
    cmd.AddValue("onMiss",
                 "what a flow not complete at its deadline does: continue (to completion, "
                 "counted as missed) or terminate (its sender stops sending it)",
                 m_p.onMiss);
}

std::string
PfabricExperiment::CheckChoices() const
{
    std::string choice = PfabricSchemeHelper::CheckChoice(m_p.scheme, m_p.preset);
    if (choice.empty())
    {
        choice = m_custom.Check(m_p.scheme, !m_p.buffer.empty());
    }
    if (!choice.empty())
    {
        return choice;
    }
    if (!m_p.topology.empty() && m_p.topology != "fattree" && m_p.topology != "leafspine" &&
        m_p.topology != "star")
    {
        return "--topology=" + m_p.topology + ": expected fattree, leafspine or star";
    }
    if (m_p.switchMode != "lean" && m_p.switchMode != "ip")
    {
        return "--switchMode=" + m_p.switchMode + ": expected lean or ip";
    }
    if (m_p.hostStack != "ns3tcp" && m_p.hostStack != "lean")
    {
        return "--hostStack=" + m_p.hostStack + ": expected ns3tcp or lean";
    }
    if (m_p.linkType != "pfabric" && m_p.linkType != "p2p")
    {
        return "--linkType=" + m_p.linkType + ": expected pfabric or p2p";
    }
    if (!m_p.lb.empty() && m_p.lb != "spray" && m_p.lb != "ecmp" && m_p.lb != "flowcell" &&
        m_p.lb != "random")
    {
        return "--lb=" + m_p.lb + ": expected spray, ecmp, flowcell or random";
    }
    if (IsClasses())
    {
        std::vector<double> loads;
        std::string error = ParseClassLoads(m_p.classLoads, &loads);
        if (!error.empty())
        {
            return error;
        }
        if (m_p.classes != "none" && m_p.classes != "strict" && m_p.classes != "drr")
        {
            return "--classes=" + m_p.classes + ": expected drr, strict or none";
        }
        std::vector<uint32_t> weights;
        error = PfabricClassQueueDisc::ParseWeights(m_p.classWeights, &weights);
        if (!error.empty() || weights.size() != 2)
        {
            return "--classWeights=" + m_p.classWeights +
                   ": expected two positive integers, e.g. 3,1";
        }
        if (m_p.classes != "none" && m_p.scheme != "pfabric" && m_p.scheme != "linerate")
        {
            return "--classes=" + m_p.classes + " needs --scheme=pfabric or linerate";
        }
    }
    else if (!(m_p.load > 0 && m_p.load < 1))
    {
        return "--load=" + Number(m_p.load) + ": expected a load in (0, 1)";
    }
    std::string window = m_window.Check(WindowConflict());
    if (!window.empty())
    {
        return window;
    }
    if (m_p.flowFile.empty() && m_p.flows == 0 && !m_p.addedFlows && !m_window.IsOn())
    {
        return "--flows=0: expected at least one flow";
    }
    if (m_p.sampling != "packets" && m_p.sampling != "bytes")
    {
        return "--sampling=" + m_p.sampling + ": expected packets or bytes";
    }
    if (!m_p.buffer.empty())
    {
        auto size = Quantity(m_p.buffer, BUFFER_UNITS, false);
        if (!size || m_p.buffer[0] == '0')
        {
            return "--buffer=" + m_p.buffer + ": expected a positive size such as 22500B or 150p";
        }
        if (*size > MAX_QUEUE_SIZE)
        {
            return "--buffer=" + m_p.buffer + ": larger than ns-3's queue sizes (at most " +
                   Number(MAX_QUEUE_SIZE) + " packets or bytes)";
        }
    }
    if (!m_p.rto.empty())
    {
        auto rto = Quantity(m_p.rto, TIME_UNITS, true);
        if (!rto)
        {
            return "--rto=" + m_p.rto + ": expected a time such as 40us";
        }
        if (*rto > MAX_TIME_NS)
        {
            return "--rto=" + m_p.rto + ": " + TooLong();
        }
        if (!Time(m_p.rto).IsStrictlyPositive())
        {
            return "--rto=" + m_p.rto + ": expected a positive time";
        }
    }
    if (!(m_p.maxSimTime > 0))
    {
        return "--maxSimTime must be positive";
    }
    if (!(m_p.connectLeadUs >= 0))
    {
        return "--connectLeadUs must not be negative";
    }
    if (m_p.connectionPool > 0 && !m_p.reuseConnections)
    {
        return "--connectionPool needs --reuseConnections";
    }
    if (m_p.hostStack == "lean" && m_p.scheme != "pfabric" && m_p.scheme != "linerate")
    {
        return "--hostStack=lean runs --scheme=pfabric and linerate only, not " + m_p.scheme;
    }
    if (m_p.hostStack == "lean" && m_p.connectionPool > 0)
    {
        return "--hostStack=lean has no handshake to model --connectionPool's new connections";
    }
    if (m_p.priorityLevels > 64)
    {
        return "--priorityLevels=" + std::to_string(m_p.priorityLevels) + ": expected 0 to 64";
    }
    if (m_p.priorityLevels > 0 && m_p.scheme != "pfabric" && m_p.scheme != "linerate")
    {
        return "--priorityLevels needs --scheme=pfabric or linerate";
    }
    if (m_p.seed == 0)
    {
        return "--seed=0: ns-3 seeds start at 1";
    }
    if (!m_deadlines)
    {
        return "";
    }
    auto deadlineMean = Quantity(m_p.deadlineMean, TIME_UNITS, true);
    if (deadlineMean && *deadlineMean > MAX_TIME_NS)
    {
        return "--deadlineMean=" + m_p.deadlineMean + ": " + TooLong();
    }
    if (!deadlineMean || !Time(m_p.deadlineMean).IsStrictlyPositive())
    {
        return "--deadlineMean=" + m_p.deadlineMean + ": expected a positive time such as 1ms";
    }
    if (!(m_p.deadlineMinFactor >= 1) || !std::isfinite(m_p.deadlineMinFactor))
    {
        return "--deadlineMinFactor=" + Number(m_p.deadlineMinFactor) +
               ": expected at least 1 (no deadline shorter than the ideal FCT)";
    }
    if (!(m_p.deadlineFraction >= 0 && m_p.deadlineFraction <= 1))
    {
        return "--deadlineFraction=" + Number(m_p.deadlineFraction) +
               ": expected a share in [0, 1]";
    }
    if (m_p.priority != "edf" && m_p.priority != "remaining")
    {
        return "--priority=" + m_p.priority + ": expected edf or remaining";
    }
    if (m_p.onMiss != "continue" && m_p.onMiss != "terminate")
    {
        return "--onMiss=" + m_p.onMiss + ": expected continue or terminate";
    }
    if (m_p.priorityLevels > 0)
    {
        return "--priorityLevels: not with deadlines (the levels quantise the remaining size)";
    }
    return "";
}

std::string
PfabricExperiment::WindowConflict() const
{
    if (IsClasses())
    {
        return "pfabric-classes (two classes' flow lists)";
    }
    if (m_deadlines)
    {
        return "deadlines (pfabric-deadlines)";
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
PfabricExperiment::OutputDirectoryName() const
{
    if (!m_p.out.empty())
    {
        return m_p.out;
    }
    std::ostringstream name;
    name << "results/" << (m_deadlines ? "deadlines-" : "") << m_p.workload << "-" << m_p.preset
         << "-" << (m_p.idealOnly ? std::string("idealfct") : GetSchemeName());
    if (m_deadlines)
    {
        if (m_p.scheme == "pfabric" || m_p.scheme == "linerate")
        {
            name << "-" << m_p.priority;
        }
        name << "-" << m_p.onMiss << "-mean" << m_p.deadlineMean << "-frac"
             << Number(m_p.deadlineFraction);
    }
    if (IsClasses())
    {
        std::string loads = m_p.classLoads;
        std::replace(loads.begin(), loads.end(), ',', '+');
        std::string weights = m_p.classWeights;
        std::replace(weights.begin(), weights.end(), ',', 'x');
        name << "-load" << loads << "-flows" << m_p.flows << "-" << m_p.classes
             << (m_p.classes == "drr" ? weights : std::string());
    }
    else if (m_p.flowFile.empty())
    {
        name << "-load" << Number(m_p.load);
        if (m_window.IsOn())
        {
            name << m_window.GetNamePart();
        }
        else
        {
            name << "-flows" << m_p.flows;
        }
    }
    else
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

bool
PfabricExperiment::Prepare(std::string* error)
{
    *error = CheckChoices();
    if (!error->empty())
    {
        return false;
    }
    const PfabricPreset& preset = PfabricPreset::Get(m_p.preset);
    std::string topology = m_p.topology.empty() ? preset.topology : m_p.topology;
    if (topology == "fattree")
    {
        m_fabric = std::make_unique<PfabricFatTreeHelper>(m_p.k ? m_p.k : preset.fatTreeK);
    }
    else if (topology == "leafspine")
    {
        m_fabric = std::make_unique<PfabricLeafSpineHelper>(
            m_p.leaves ? m_p.leaves : preset.leaves,
            m_p.hostsPerLeaf ? m_p.hostsPerLeaf : preset.hostsPerLeaf,
            m_p.spines ? m_p.spines : preset.spines);
    }
    else
    {
        m_fabric = std::make_unique<PfabricSingleSwitchHelper>(m_p.hosts);
    }
    *error = m_fabric->GetShapeError();
    if (!error->empty())
    {
        return false;
    }
    m_fabric->SetPreset(m_p.preset);
    if (!m_p.lb.empty())
    {
        std::string lb = m_p.lb;
        lb[0] = std::toupper(lb[0]);
        m_fabric->SetSwitchAttribute("LoadBalancing", StringValue(lb));
    }
    m_fabric->SetSwitchMode(m_p.switchMode == "ip" ? PfabricFabricHelper::IP
                                                   : PfabricFabricHelper::LEAN);
    m_fabric->SetHostStack(m_p.hostStack == "lean" ? PfabricFabricHelper::LEAN_HOST
                                                   : PfabricFabricHelper::NS3_TCP);
    m_fabric->SetLinkType(m_p.linkType == "p2p" ? PfabricFabricHelper::POINT_TO_POINT_LINK
                                                : PfabricFabricHelper::PFABRIC_LINK);

    RngSeedManager::SetSeed(m_p.seed);
    RngSeedManager::SetRun(m_p.run);
    m_fabric->Build();
    const uint32_t hosts = m_fabric->GetNHosts();

    // The levels' thresholds come from the workload's CDF, also when replaying a flow file.
    if (m_p.flowFile.empty() || m_p.priorityLevels > 0)
    {
        std::string cdf = !m_p.cdf.empty() ? m_p.cdf : IsClasses() ? "websearch" : m_p.workload;
        if (!m_sizes.Load(cdf, preset.segmentSize, GetInterpolation(), error))
        {
            return false;
        }
    }
    m_thresholds.clear();
    if (m_p.priorityLevels > 0)
    {
        m_thresholds =
            PfabricPriorityLevels::EqualLoadThresholds(m_sizes.GetPoints(), m_p.priorityLevels);
    }
    if (IsClasses())
    {
        if (!GenerateClassFlows(hosts, error))
        {
            return false;
        }
        // The run's load, as meta.json and the analysis read it: both classes together.
        std::vector<double> loads;
        ParseClassLoads(m_p.classLoads, &loads);
        m_p.load = loads[0] + loads[1];
    }
    else if (m_p.flowFile.empty() && m_window.IsOn())
    {
        // Drawn as the run needs them (Install), from the same process as the list below.
        m_flows.clear();
        m_window.SetGenerator(MakeFlowGenerator(m_sizes, m_p.preset, hosts, m_p.load));
    }
    else if (m_p.flowFile.empty())
    {
        m_flows = m_p.flows > 0 ? GenerateFlows(m_sizes, m_p.preset, hosts, m_p.load, m_p.flows)
                                : std::vector<PfabricFlow>();
    }
    else
    {
        if (!PfabricFlowList::Read(m_p.flowFile, hosts, &m_flows, error))
        {
            return false;
        }
        *error = m_window.CheckFlowFile(m_p.flowFile, m_flows.size());
        if (!error->empty())
        {
            return false;
        }
    }
    if (m_flows.empty() && !m_p.addedFlows && !m_window.HasGenerator())
    {
        *error = m_p.flowFile + ": no flows";
        return false;
    }
    m_deadlineSource.clear();
    if (m_deadlines)
    {
        bool given = std::any_of(m_flows.begin(), m_flows.end(), [](const PfabricFlow& flow) {
            return flow.deadline != Time::Max();
        });
        if (given)
        {
            m_deadlineSource = m_p.flowFile;
        }
        else
        {
            m_deadlineSource = "generated";
            AssignDeadlines(&m_flows,
                            *m_fabric,
                            Time(m_p.deadlineMean),
                            m_p.deadlineMinFactor,
                            m_p.deadlineFraction);
        }
    }

    if (m_p.flowsOnly && m_p.idealOnly)
    {
        *error = "--flowsOnly and --idealOnly: choose one";
        return false;
    }
    if (m_p.flowsOnly)
    {
        if (m_p.dumpFlows.empty())
        {
            *error = "--flowsOnly: needs --dumpFlows=PATH";
            return false;
        }
        return PfabricFlowList::Write(m_p.dumpFlows, m_flows, error);
    }
    *error = m_writer.Open(OutputDirectoryName());
    if (!error->empty())
    {
        return false;
    }
    if (m_window.IsOn())
    {
        m_window.AddColumns(m_writer);
    }
    if (!m_p.dumpFlows.empty() && !PfabricFlowList::Write(m_p.dumpFlows, m_flows, error))
    {
        m_writer.Abandon();
        return false;
    }

    m_scheme = std::make_unique<PfabricSchemeHelper>(m_p.scheme, m_p.preset);
    if (!m_p.buffer.empty())
    {
        m_scheme->SetQueueDiscAttribute("MaxSize", QueueSizeValue(QueueSize(m_p.buffer)));
    }
    if (!m_p.rto.empty())
    {
        m_scheme->SetSocketFactoryAttribute("Rto", TimeValue(Time(m_p.rto)));
    }
    m_scheme->SetSocketFactoryAttribute("HashDemux", BooleanValue(m_p.hashDemux));
    m_scheme->SetSocketFactoryAttribute("RestartSsThresh", BooleanValue(m_p.restartSsThresh));
    if (m_p.priorityLevels > 0)
    {
        m_scheme->SetPriorityLevels(m_thresholds);
    }
    if (RanksByDeadline())
    {
        m_scheme->SetSocketFactoryAttribute(
            "PriorityPolicy",
            ObjectFactoryValue(ObjectFactory("ns3::PfabricDeadlinePriority")));
    }
    if (m_p.scheme == PfabricSchemeHelper::CUSTOM)
    {
        m_custom.Configure(*m_scheme);
    }
    if (IsClasses())
    {
        m_writer.SetClassColumn(true);
        std::vector<uint32_t> weights;
        PfabricClassQueueDisc::ParseWeights(m_p.classWeights, &weights);
        if (m_p.classes != "none")
        {
            m_scheme->SetTrafficClasses(m_p.classes == "strict" ? "Strict" : "Drr", weights);
        }
    }
    return true;
}

bool
PfabricExperiment::IsClasses() const
{
    return m_p.workload == "classes";
}

std::string
PfabricExperiment::ParseClassLoads(const std::string& text, std::vector<double>* loads)
{
    const std::string wrong = "--classLoads=" + text +
                              ": expected two loads in (0, 1) summing to less than 1, e.g. "
                              "0.3,0.3";
    loads->clear();
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        // Not std::stod: it throws on a number too large for a double (e.g. 400 digits).
        auto load = Quantity(item, {{"", 1}}, true);
        if (!load)
        {
            return wrong;
        }
        loads->push_back(*load);
    }
    double sum = 0;
    for (double load : *loads)
    {
        sum += load;
    }
    if (loads->size() != 2 || text.back() == ',' || (*loads)[0] <= 0 || (*loads)[1] <= 0 ||
        sum >= 1)
    {
        return wrong;
    }
    return "";
}

PfabricFlowSizeDistribution::Interpolation
PfabricExperiment::GetInterpolation() const
{
    return m_p.sampling == "packets" ? PfabricFlowSizeDistribution::PACKETS
                                     : PfabricFlowSizeDistribution::BYTES;
}

bool
PfabricExperiment::GenerateClassFlows(uint32_t hosts, std::string* error)
{
    // m_sizes holds web search's sizes (the workload's CDF is loaded as websearch's).
    const PfabricPreset& preset = PfabricPreset::Get(m_p.preset);
    if (!m_classSizes.Load("datamining", preset.segmentSize, GetInterpolation(), error))
    {
        return false;
    }
    std::vector<double> loads;
    ParseClassLoads(m_p.classLoads, &loads);
    std::vector<PfabricFlow> web = GenerateFlows(m_sizes, m_p.preset, hosts, loads[0], m_p.flows);
    // As many data mining flows as arrive, at their load, in the time the web search flows
    // take: flows arrive in proportion to load / mean size.
    const double ratio = (loads[1] / m_classSizes.GetMean()) / (loads[0] / m_sizes.GetMean());
    const auto miningFlows = static_cast<uint32_t>(std::max(1.0, std::round(ratio * m_p.flows)));
    // Streams of their own, after web search's: every scheme and class setting of a (loads,
    // seed, run) runs the same flows of both classes.
    std::vector<PfabricFlow> mining =
        GenerateFlows(m_classSizes, m_p.preset, hosts, loads[1], miningFlows, CLASS_FLOW_STREAM);
    for (PfabricFlow& flow : mining)
    {
        flow.trafficClass = 1;
    }
    m_classFlows = {static_cast<uint32_t>(web.size()), static_cast<uint32_t>(mining.size())};
    m_flows.clear();
    std::merge(web.begin(),
               web.end(),
               mining.begin(),
               mining.end(),
               std::back_inserter(m_flows),
               [](const PfabricFlow& a, const PfabricFlow& b) { return a.start < b.start; });
    for (std::size_t i = 0; i < m_flows.size(); ++i)
    {
        m_flows[i].id = static_cast<uint32_t>(i);
    }
    return true;
}

void
PfabricExperiment::AssignDeadlines(std::vector<PfabricFlow>* flows,
                                   const PfabricFabricHelper& fabric,
                                   Time mean,
                                   double minFactor,
                                   double fraction)
{
    std::vector<Time> floors;
    floors.reserve(flows->size());
    for (const PfabricFlow& flow : *flows)
    {
        Time ideal = fabric.GetIdealFct(flow.src, flow.dst, flow.bytes);
        floors.push_back(NanoSeconds(static_cast<int64_t>(
            std::ceil(static_cast<double>(ideal.GetNanoSeconds()) * minFactor))));
    }
    PfabricFlowList::AssignDeadlines(flows, floors, mean, fraction, DEADLINE_STREAM);
}

std::vector<PfabricFlow>
PfabricExperiment::GenerateFlows(PfabricFlowSizeDistribution& sizes,
                                 const std::string& preset,
                                 uint32_t hosts,
                                 double load,
                                 uint32_t flows,
                                 int64_t sizeStream)
{
    return MakeFlowGenerator(sizes, preset, hosts, load, sizeStream).Next(flows);
}

PfabricFlowGenerator
PfabricExperiment::MakeFlowGenerator(PfabricFlowSizeDistribution& sizes,
                                     const std::string& preset,
                                     uint32_t hosts,
                                     double load,
                                     int64_t sizeStream)
{
    const PfabricPreset& p = PfabricPreset::Get(preset);
    sizes.AssignStreams(sizeStream);
    return PfabricFlowGenerator(sizes,
                                hosts,
                                p.hostLinkRate,
                                load,
                                p.GetWirePerPayload(),
                                sizeStream + 1);
}

int64_t
PfabricExperiment::AssignStreams(const QueueDiscContainer& queueDiscs, PfabricFabricHelper& fabric)
{
    const int64_t first = 1000;
    int64_t stream = first;
    stream += PfabricSchemeHelper::AssignStreams(queueDiscs, stream);
    stream += fabric.AssignStreams(stream);
    return stream - first;
}

double
PfabricExperiment::EstimateSecondsLeft(double elapsedS, uint64_t doneBytes, uint64_t totalBytes)
{
    if (doneBytes == 0)
    {
        return -1;
    }
    const uint64_t leftBytes = totalBytes > doneBytes ? totalBytes - doneBytes : 0;
    return elapsedS * static_cast<double>(leftBytes) / static_cast<double>(doneBytes);
}

uint32_t
PfabricExperiment::AddFlows(std::vector<PfabricFlow> flows)
{
    NS_ABORT_MSG_UNLESS(m_p.addedFlows, "PfabricExperiment::AddFlows needs AddedFlows");
    const uint32_t first = m_flows.size();
    for (PfabricFlow& flow : flows)
    {
        flow.id = m_flows.size();
        m_flows.push_back(flow);
    }
    return first;
}

void
PfabricExperiment::AbandonRunDirectory()
{
    m_writer.Abandon();
}

void
PfabricExperiment::Install()
{
    AssignStreams(m_scheme->Install(m_fabric->GetHosts(), m_fabric->GetSwitches()), *m_fabric);

    NodeContainer hosts = m_fabric->GetHosts();
    m_apps.clear();
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        auto app = CreateObject<PfabricFlowApplication>();
        app->SetAttribute("ReuseConnections", BooleanValue(m_p.reuseConnections));
        app->SetAttribute("ConnectionPool", UintegerValue(m_p.connectionPool));
        app->SetAttribute("ConnectLead", TimeValue(MicroSeconds(m_p.connectLeadUs)));
        app->TraceConnectWithoutContext("FlowCompleted",
                                        MakeCallback(&PfabricExperiment::FlowCompleted, this));
        if (m_deadlines)
        {
            app->SetAttribute("TerminateAtDeadline", BooleanValue(m_p.onMiss == "terminate"));
            app->TraceConnectWithoutContext("FlowTerminated",
                                            MakeCallback(&PfabricExperiment::FlowTerminated, this));
        }
        hosts.Get(i)->AddApplication(app);
        m_apps.push_back(app);
    }

    m_results.clear();
    m_results.reserve(m_flows.size());
    m_done = 0;
    m_terminated = 0;
    m_totalBytes = 0;
    if (m_window.HasGenerator())
    {
        // Windowed: the flows are drawn as they come due, so memory holds only the flows
        // started or about to start, however many the measured ones need after them.
        m_window.Feed(MicroSeconds(m_p.connectLeadUs), [this](const PfabricFlow& flow) {
            m_flows.push_back(flow);
            HandOver(flow);
        });
        return;
    }
    for (const PfabricFlow& flow : m_flows)
    {
        HandOver(flow);
    }
}

void
PfabricExperiment::HandOver(const PfabricFlow& flow)
{
    m_totalBytes += flow.bytes;
    m_results.push_back(
        {flow, Seconds(-1), m_fabric->GetIdealFct(flow.src, flow.dst, flow.bytes), 0});
    m_window.FlowHandedOver(flow);
    m_apps[flow.src]->AddFlow(flow.id,
                              m_fabric->GetHostAddress(flow.dst),
                              flow.bytes,
                              flow.start,
                              flow.deadline,
                              IsClasses() ? std::optional<uint8_t>(flow.trafficClass)
                                          : std::nullopt);
}

void
PfabricExperiment::FlowCompleted(const PfabricFlowApplication::CompletedFlow& flow)
{
    Result& result = m_results.at(flow.flow.id);
    result.fct = flow.fct;
    result.timeouts = flow.timeouts;
    ++m_done;
    if (m_window.IsOn() ? m_window.FlowCompleted(result.flow)
                        : m_done + m_terminated == m_results.size())
    {
        m_stoppedWhenDone = true;
        Simulator::Stop();
    }
}

void
PfabricExperiment::FlowTerminated(const PfabricFlowApplication::CompletedFlow& flow)
{
    Result& result = m_results.at(flow.flow.id);
    result.terminated = true;
    result.timeouts = flow.timeouts;
    if (m_done + ++m_terminated == m_results.size())
    {
        m_stoppedWhenDone = true;
        Simulator::Stop();
    }
}

void
PfabricExperiment::Run()
{
    // Every transmission by every device of the fabric, hosts' and switches'.
    const uint64_t transmissionsBefore =
        PfabricFabricHelper::CountTransmissions(m_fabric->GetDevices());
    m_stoppedWhenDone = false;
    Simulator::Stop(Seconds(m_p.maxSimTime));
    Simulator::Run();
    m_endTime = Simulator::Now();
    m_events = Simulator::GetEventCount();
    m_packetHops =
        PfabricFabricHelper::CountTransmissions(m_fabric->GetDevices()) - transmissionsBefore;
    m_bytesReceived = GetBytesReceived();
    m_connectionsOpened = 0;
    m_startedBeforeConnected = 0;
    std::vector<PfabricFlowApplication::FlowInProgress> inProgress;
    for (const auto& app : m_apps)
    {
        m_connectionsOpened += app->GetConnectionsOpened();
        m_startedBeforeConnected += app->GetFlowsStartedBeforeConnected();
        for (const auto& flow : app->GetFlowsInProgress())
        {
            // fct.csv's timeouts column: an unfinished flow's so far
            m_results.at(flow.flow.id).timeouts = flow.timeouts;
            inProgress.push_back(flow);
        }
    }
    m_stop.Record(m_stoppedWhenDone,
                  m_window.IsOn(),
                  m_endTime,
                  Seconds(m_p.maxSimTime),
                  inProgress);
    if (m_window.IsOn())
    {
        FinishWindow();
    }
    m_apps.clear();
    Simulator::Destroy();
}

void
PfabricExperiment::FinishWindow()
{
    // Cut short by the safety limit: the measured flows not yet drawn are reported unfinished.
    m_window.DrawMeasured([this](const PfabricFlow& flow) {
        m_flows.push_back(flow);
        m_results.push_back(
            {flow, Seconds(-1), m_fabric->GetIdealFct(flow.src, flow.dst, flow.bytes), 0});
    });
    // A generated workload never runs out; a flow file has arrivals to the end when some flow
    // starts after it.
    const Time end = m_endTime;
    m_arrivalsThroughEnd = m_window.HasGenerator() ||
                           std::any_of(m_flows.begin(),
                                       m_flows.end(),
                                       [end](const PfabricFlow& flow) { return flow.start > end; });
    if (!m_arrivalsThroughEnd)
    {
        NS_LOG_WARN(m_p.flowFile << ": the flows ran out before the measured flows completed");
    }
    // The rows of fct.csv: every flow started by the end, and every measured flow.
    auto dropped = [this, end](const PfabricFlow& flow) {
        return flow.start > end && !m_window.IsMeasured(flow.id);
    };
    m_flows.erase(std::remove_if(m_flows.begin(), m_flows.end(), dropped), m_flows.end());
    m_results.erase(std::remove_if(m_results.begin(),
                                   m_results.end(),
                                   [&dropped](const Result& r) { return dropped(r.flow); }),
                    m_results.end());
}

bool
PfabricExperiment::WriteResults(const PfabricJsonObject& meta, std::string* error)
{
    return m_writer.WriteFcts(m_results, error) && m_writer.WriteMeta(meta, error);
}

bool
PfabricExperiment::WriteIdealFcts(const PfabricJsonObject& meta, std::string* error)
{
    std::vector<Result> ideal;
    ideal.reserve(m_flows.size());
    for (const PfabricFlow& flow : m_flows)
    {
        ideal.push_back(
            {flow, Seconds(-1), m_fabric->GetIdealFct(flow.src, flow.dst, flow.bytes), 0});
    }
    return m_writer.WriteIdealFcts(ideal, error) && m_writer.WriteMeta(meta, error);
}

const std::vector<PfabricExperiment::Result>&
PfabricExperiment::GetResults() const
{
    return m_results;
}

std::string
PfabricExperiment::GetOutputDirectory() const
{
    return m_writer.GetDirectory();
}

const std::vector<PfabricFlow>&
PfabricExperiment::GetFlows() const
{
    return m_flows;
}

const PfabricFabricHelper&
PfabricExperiment::GetFabric() const
{
    return *m_fabric;
}

Time
PfabricExperiment::GetEndTime() const
{
    return m_endTime;
}

uint32_t
PfabricExperiment::GetFlowsCompleted() const
{
    return m_done;
}

uint64_t
PfabricExperiment::GetBytesReceived() const
{
    uint64_t received = 0;
    for (const auto& app : m_apps)
    {
        received += app->GetBytesReceived();
    }
    return m_apps.empty() ? m_bytesReceived : received;
}

uint64_t
PfabricExperiment::GetTotalBytes() const
{
    return m_totalBytes;
}

PfabricExperiment::Progress
PfabricExperiment::GetProgress() const
{
    if (m_window.IsOn())
    {
        return {m_window.GetMeasuredCompleted(),
                m_window.GetMeasureFlows(),
                m_window.GetMeasuredBytesCompleted(),
                m_window.GetMeasuredBytes()};
    }
    return {m_done, static_cast<uint32_t>(m_flows.size()), GetBytesReceived(), m_totalBytes};
}

const PfabricStopReport&
PfabricExperiment::GetStopReport() const
{
    return m_stop;
}

bool
PfabricExperiment::GetArrivalsThroughEnd() const
{
    return m_arrivalsThroughEnd;
}

void
PfabricExperiment::AddProvenance(PfabricJsonObject& meta) const
{
    const PfabricPreset& preset = PfabricPreset::Get(m_p.preset);
    PfabricJsonObject parameters;
    parameters.AddString("preset", m_p.preset).AddString("scheme", m_p.scheme);
    if (m_p.scheme == PfabricSchemeHelper::CUSTOM)
    {
        m_custom.AddParameters(parameters);
    }
    parameters.AddNumber("load", m_p.load).AddInteger("flows", m_p.flows);
    m_window.AddParameters(parameters);
    parameters.AddString("topology", m_p.topology.empty() ? preset.topology : m_p.topology)
        .AddInteger("k", m_p.k)
        .AddInteger("leaves", m_p.leaves)
        .AddInteger("spines", m_p.spines)
        .AddInteger("hostsPerLeaf", m_p.hostsPerLeaf)
        .AddInteger("hosts", m_p.hosts)
        .AddString("lb", m_p.lb.empty() ? Lowercase(preset.loadBalancing) : m_p.lb)
        .AddString("buffer", m_p.buffer)
        .AddString("rto", m_p.rto)
        .AddString("cdf",
                   !m_p.cdf.empty() ? m_p.cdf
                   : IsClasses()    ? "websearch"
                                    : m_p.workload)
        .AddString("sampling", m_p.sampling)
        .AddString("flowFile", m_p.flowFile)
        .AddString("dumpFlows", m_p.dumpFlows)
        .AddInteger("seed", m_p.seed)
        .AddInteger("run", m_p.run)
        .AddNumber("maxSimTime", m_p.maxSimTime)
        .AddNumber("connectLeadUs", m_p.connectLeadUs)
        .AddBool("reuseConnections", m_p.reuseConnections)
        .AddInteger("connectionPool", m_p.connectionPool)
        .AddBool("restartSsThresh", m_p.restartSsThresh)
        .AddBool("hashDemux", m_p.hashDemux)
        .AddString("switchMode", m_p.switchMode)
        .AddString("hostStack", m_p.hostStack)
        .AddString("linkType", m_p.linkType)
        .AddInteger("priorityLevels", m_p.priorityLevels);
    if (m_deadlines)
    {
        bool ranks = m_p.scheme == "pfabric" || m_p.scheme == "linerate";
        parameters.AddString("deadlineMean", m_p.deadlineMean)
            .AddNumber("deadlineMinFactor", m_p.deadlineMinFactor)
            .AddNumber("deadlineFraction", m_p.deadlineFraction)
            .AddString("priority", ranks ? m_p.priority : "none")
            .AddString("onMiss", m_p.onMiss);
    }
    if (IsClasses())
    {
        parameters.AddString("classLoads", m_p.classLoads)
            .AddString("classes", m_p.classes)
            .AddString("classWeights", m_p.classWeights);
    }
    meta.AddObject("parameters", parameters)
        .AddString("workload", m_p.workload)
        .AddString("cdf_file", m_sizes.GetPath())
        .AddNumber("mean_flow_bytes", m_sizes.GetMean())
        .AddInteger("hosts", m_fabric->GetNHosts())
        .AddInteger("switches", m_fabric->GetSwitches().GetN())
        .AddInteger("host_link_bps", m_fabric->GetHostLinkRate().GetBitRate())
        .AddInteger("segment_bytes", m_fabric->GetMss())
        .AddInteger("packet_overhead_bytes", m_fabric->GetPacketOverheadBytes())
        .AddString("ns3_version", pfabric::Ns3Version())
        .AddString("module_version", pfabric::ModuleVersion())
        .AddString("git_commit", pfabric::GitCommit())
        .AddNumber("simulated_time_s", m_endTime.GetSeconds())
        .AddInteger("events", m_events)
        .AddInteger("packet_hops", m_packetHops)
        .AddBool("ideal_fct_only", m_p.idealOnly)
        .AddInteger("flows_total", m_flows.size())
        .AddInteger("flows_completed", m_done)
        .AddInteger("flows_unfinished", m_results.size() - m_done)
        .AddInteger("flows_started_before_connected", m_startedBeforeConnected)
        .AddInteger("connections_opened", m_connectionsOpened)
        .AddInteger("bytes_received", m_bytesReceived)
        .AddString("priority_thresholds_bytes",
                   PfabricPriorityPolicy::FormatThresholds(m_thresholds))
        .AddString("priority_level_rule",
                   m_p.priorityLevels > 0 ? "equal load per level over the remaining size" : "");
    m_window.AddProvenance(meta, m_results.size(), m_arrivalsThroughEnd);
    m_stop.AddProvenance(meta);
    if (m_p.scheme == PfabricSchemeHelper::CUSTOM && m_scheme)
    {
        m_custom.AddProvenance(meta, *m_scheme);
    }
    if (IsClasses() && m_classFlows.size() == 2)
    {
        meta.AddString("class_workloads", "websearch,datamining")
            .AddString("class_cdf_files", m_sizes.GetPath() + "," + m_classSizes.GetPath())
            .AddRaw("class_flows",
                    "[" + std::to_string(m_classFlows[0]) + ", " + std::to_string(m_classFlows[1]) +
                        "]")
            .AddString("class_scheduler", m_p.classes)
            .AddString("class_buffer", m_p.classes == "none" ? "one per port" : "one per class");
    }
    if (!m_deadlines)
    {
        return;
    }
    uint32_t with = 0;
    uint32_t met = 0;
    CountDeadlines(&with, &met);
    meta.AddString("deadline_rule",
                   "deadline = start + max(deadlineMinFactor x ideal FCT, X), X exponential of "
                   "mean deadlineMean (streams " +
                       std::to_string(DEADLINE_STREAM) + " and " +
                       std::to_string(DEADLINE_STREAM + 1) +
                       "), for each flow with probability deadlineFraction; met: the sender saw "
                       "the last byte acknowledged at or before the deadline")
        .AddString("deadline_source", m_deadlineSource)
        .AddInteger("flows_with_deadline", with)
        .AddInteger("deadlines_met", met)
        .AddInteger("flows_terminated", m_terminated);
}

std::string
PfabricExperiment::Summarize() const
{
    struct Bin
    {
        std::string name;
        uint64_t low;
        uint64_t high;
        std::vector<double> slowdowns;
        uint32_t unfinished = 0;
    };

    std::ostringstream out;
    // One table for every flow, or one per class.
    const int tables = IsClasses() ? 2 : 1;
    for (int table = 0; table < tables; ++table)
    {
        std::vector<Bin> bins;
        for (const pfabric::SizeBin& bin : pfabric::SizeBins())
        {
            bins.push_back({bin.name, bin.low, bin.high, {}});
        }
        bins.push_back({"all", 0, UINT64_MAX, {}});
        for (const Result& r : m_results)
        {
            if ((IsClasses() && r.flow.trafficClass != table) || !m_window.IsMeasured(r.flow.id))
            {
                continue;
            }
            for (Bin& bin : bins)
            {
                if (r.flow.bytes > bin.low && r.flow.bytes <= bin.high)
                {
                    if (r.fct.IsNegative())
                    {
                        ++bin.unfinished;
                    }
                    else
                    {
                        bin.slowdowns.push_back(r.fct.GetSeconds() / r.idealFct.GetSeconds());
                    }
                }
            }
        }
        if (IsClasses())
        {
            out << "class " << table << " (" << (table == 0 ? "web search" : "data mining")
                << "), ";
        }
        if (m_window.IsOn())
        {
            out << "measured flows " << m_window.GetWarmupFlows() << " to "
                << m_window.GetWarmupFlows() + m_window.GetMeasureFlows() - 1 << " of "
                << m_results.size() << " simulated, ";
        }
        out << "FCT / ideal FCT (KB = 1000 B)\n";
        out << std::left << std::setw(14) << "size" << std::right << std::setw(8) << "flows"
            << std::setw(10) << "mean" << std::setw(10) << "p99" << std::setw(12) << "unfinished"
            << "\n";
        for (Bin& bin : bins)
        {
            std::sort(bin.slowdowns.begin(), bin.slowdowns.end());
            out << std::left << std::setw(14) << bin.name << std::right << std::setw(8)
                << bin.slowdowns.size();
            if (bin.slowdowns.empty())
            {
                out << std::setw(10) << "-" << std::setw(10) << "-";
            }
            else
            {
                double sum = 0;
                for (double s : bin.slowdowns)
                {
                    sum += s;
                }
                // Nearest rank.
                std::size_t rank = static_cast<std::size_t>(std::ceil(0.99 * bin.slowdowns.size()));
                out << std::fixed << std::setprecision(3) << std::setw(10)
                    << sum / bin.slowdowns.size() << std::setw(10) << bin.slowdowns[rank - 1]
                    << std::defaultfloat;
            }
            out << std::setw(12) << bin.unfinished << "\n";
        }
    }
    if (m_deadlines)
    {
        uint32_t with = 0;
        uint32_t met = 0;
        CountDeadlines(&with, &met);
        out << "deadlines: " << with << " flows with one, " << met << " met";
        if (with > 0)
        {
            out << " (" << std::fixed << std::setprecision(1) << 100.0 * met / with << "%)"
                << std::defaultfloat;
        }
        out << ", " << m_terminated << " terminated; " << m_results.size() - with
            << " flows without\n";
    }
    return out.str();
}

} // namespace ns3
