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

PfabricExperiment::PfabricExperiment(const std::string& workload)
    : m_done(0),
      m_events(0),
      m_packetHops(0),
      m_totalBytes(0),
      m_bytesReceived(0),
      m_connectionsOpened(0),
      m_startedBeforeConnected(0),
      m_terminated(0),
      m_arrivalsThroughEnd(true),
      m_stoppedWhenDone(false),
      m_options(m_p, m_window, m_custom)
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
    m_options.EnableDeadlines();
    m_writer.SetDeadlineColumns(true);
}

bool
PfabricExperiment::HasDeadlines() const
{
    return m_options.HasDeadlines();
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
    return m_options.GetSchemeName();
}

bool
PfabricExperiment::RanksByDeadline() const
{
    return HasDeadlines() && m_p.priority == Parameters::EDF && m_p.UsesPfabricQueues();
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
    m_options.RegisterFabric(cmd);
}

void
PfabricExperiment::AddCommandLineOptions(PfabricCommandLine& cmd)
{
    m_options.RegisterFabric(cmd);
    m_options.RegisterRun(cmd);
}

std::string
PfabricExperiment::CheckChoices() const
{
    return m_options.Check();
}

void
PfabricExperiment::AddParameters(PfabricJsonObject& parameters) const
{
    m_options.Record(parameters);
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
    // The preset names its topology as --topology does.
    Parameters::Topology topology = m_p.topology;
    for (const auto& choice : Parameters::TOPOLOGIES)
    {
        topology = topology == Parameters::PRESET_TOPOLOGY && choice.first == preset.topology
                       ? choice.second
                       : topology;
    }
    if (topology == Parameters::FAT_TREE)
    {
        m_fabric = std::make_unique<PfabricFatTreeHelper>(m_p.k ? m_p.k : preset.fatTreeK);
    }
    else if (topology == Parameters::LEAF_SPINE)
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
    if (m_p.lb != Parameters::PRESET_LB)
    {
        // PfabricFabricRouting's LoadBalancing value: --lb's name, capitalised.
        std::string lb = PfabricChoiceName(Parameters::LOAD_BALANCINGS, m_p.lb);
        lb[0] = std::toupper(lb[0]);
        m_fabric->SetSwitchAttribute("LoadBalancing", StringValue(lb));
    }
    m_fabric->SetSwitchMode(m_p.switchMode);
    m_fabric->SetHostStack(m_p.hostStack);
    m_fabric->SetLinkType(m_p.linkType);

    RngSeedManager::SetSeed(m_p.seed);
    RngSeedManager::SetRun(m_p.run);
    m_fabric->Build();
    const uint32_t hosts = m_fabric->GetNHosts();

    // The levels' thresholds come from the workload's CDF, also when replaying a flow file.
    if (m_p.flowFile.empty() || m_p.priorityLevels > 0)
    {
        std::string cdf = !m_p.cdf.empty() ? m_p.cdf : IsClasses() ? "websearch" : m_p.workload;
        if (!m_sizes.Load(cdf, preset.segmentSize, m_p.sampling, error))
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
        PfabricExperimentOptions::ParseClassLoads(m_p.classLoads, &loads);
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
    if (HasDeadlines())
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
    *error = m_writer.Open(m_options.OutputDirectoryName());
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
        if (m_p.classes != Parameters::NO_CLASSES)
        {
            m_scheme->SetTrafficClasses(m_p.classes == Parameters::STRICT ? "Strict" : "Drr",
                                        weights);
        }
    }
    return true;
}

bool
PfabricExperiment::IsClasses() const
{
    return m_options.IsClasses();
}

bool
PfabricExperiment::GenerateClassFlows(uint32_t hosts, std::string* error)
{
    // m_sizes holds web search's sizes (the workload's CDF is loaded as websearch's).
    const PfabricPreset& preset = PfabricPreset::Get(m_p.preset);
    if (!m_classSizes.Load("datamining", preset.segmentSize, m_p.sampling, error))
    {
        return false;
    }
    std::vector<double> loads;
    PfabricExperimentOptions::ParseClassLoads(m_p.classLoads, &loads);
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
        app->SetAttribute("ConnectLead", TimeValue(m_p.connectLead));
        app->TraceConnectWithoutContext("FlowCompleted",
                                        MakeCallback(&PfabricExperiment::FlowCompleted, this));
        if (HasDeadlines())
        {
            app->SetAttribute("TerminateAtDeadline",
                              BooleanValue(m_p.onMiss == Parameters::TERMINATE));
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
        m_window.Feed(m_p.connectLead, [this](const PfabricFlow& flow) {
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
    Simulator::Stop(m_p.maxSimTime);
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
    m_stop.Record(m_stoppedWhenDone, m_window.IsOn(), m_endTime, m_p.maxSimTime, inProgress);
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
    PfabricJsonObject parameters;
    AddParameters(parameters);
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
            .AddString("class_scheduler",
                       PfabricChoiceName(Parameters::CLASS_SCHEDULERS, m_p.classes))
            .AddString("class_buffer",
                       m_p.classes == Parameters::NO_CLASSES ? "one per port" : "one per class");
    }
    if (!HasDeadlines())
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
    if (HasDeadlines())
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
