/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricIncast: partition-aggregate incast as an experiment (pfabric-incast).

#include "pfabric-incast.h"

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/log.h"
#include "ns3/pfabric-flow-application.h"
#include "ns3/pfabric-flow-size-distribution.h"
#include "ns3/pfabric-preset.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricIncast");

namespace
{

/// @return a number as the shortest text that reads back the same
std::string
Number(double value)
{
    return PfabricJsonObject::FormatNumber(value);
}

} // namespace

PfabricIncast::PfabricIncast()
    : m_experiment("incast"),
      m_backgroundFlows(0),
      m_firstResponseId(0),
      m_responsesLeft(0)
{
    PfabricExperiment::Parameters& e = m_experiment.GetParameters();
    e.cdf = "websearch"; // the background's flow sizes
    e.flows = 0;         // the background is generated here, over the queries' span
    e.addedFlows = true;
}

PfabricIncast::Parameters&
PfabricIncast::GetParameters()
{
    return m_p;
}

PfabricExperiment::Parameters&
PfabricIncast::GetExperimentParameters()
{
    return m_experiment.GetParameters();
}

void
PfabricIncast::BuildOptions()
{
    if (!m_options.IsEmpty())
    {
        return;
    }
    Parameters& p = m_p;
    // Recorded in meta.json's incast object, under the keys and units of before the times took
    // units.
    m_options
        .Add("workers", "workers per query (several per host when more than hosts - 1)", p.workers)
        .Check([&p]() -> std::string {
            return p.workers == 0 ? "--workers=0: expected at least one worker" : "";
        });
    m_options.Add("responseBytes", "bytes every worker sends back", p.responseBytes)
        .Record(
            [&p](PfabricJsonObject& json) { json.AddInteger("response_bytes", p.responseBytes); })
        .Check([&p]() -> std::string {
            const uint64_t most = PfabricFlowApplication::MAX_FLOW_BYTES;
            if (p.responseBytes == 0)
            {
                return "--responseBytes=0: expected at least one byte";
            }
            return p.responseBytes > most
                       ? "--responseBytes=" + std::to_string(p.responseBytes) +
                             ": more than a flow's " + std::to_string(most) + " bytes"
                       : "";
        });
    m_options.Add("queries", "number of queries", p.queries).Check([&p]() -> std::string {
        return p.queries == 0 ? "--queries=0: expected at least one query" : "";
    });
    m_options
        .AddTime("interval",
                 "time between query starts, e.g. 500us; 0: max(1 ms, 4 x the ideal query time)",
                 p.interval,
                 "us")
        .RecordTime("interval_option_us", Time::US)
        .Check([&p, this]() -> std::string {
            return p.interval != Parameters().interval && p.queries == 1
                       ? PfabricOptionTable::ShapesNothing(
                             m_options.Given("interval",
                                             std::to_string(p.interval.GetMicroSeconds()) + "us"),
                             "the time between query starts, and --queries=1 starts one")
                       : "";
        });
    m_options
        .AddTime("firstQuery",
                 "start of the first query, e.g. 2ms (after connectLead)",
                 p.firstQuery,
                 "us")
        .RecordTime("first_query_s", Time::S);
    m_options.Add("aggregator", "host index of the aggregator", p.aggregator);
    m_options
        .Add("background",
             "web search background load on every host, fraction of the host link in [0, 1); 0: "
             "none",
             p.background)
        .Record([&p](PfabricJsonObject& json) { json.AddNumber("background_load", p.background); })
        .Check([&p, this]() -> std::string {
            return p.background >= 0 && p.background < 1
                       ? ""
                       : m_options.Given("background", Number(p.background)) +
                             ": expected a load in [0, 1)";
        });
}

void
PfabricIncast::AddCommandLineOptions(PfabricCommandLine& cmd)
{
    BuildOptions();
    m_options.Register(cmd);
    m_experiment.AddFabricCommandLineOptions(cmd);
}

std::vector<uint32_t>
PfabricIncast::MapWorkers(uint32_t hosts, uint32_t aggregator, uint32_t workers)
{
    NS_ABORT_MSG_IF(hosts < 2 || aggregator >= hosts, "PfabricIncast: bad hosts or aggregator");
    std::vector<uint32_t> placed;
    placed.reserve(workers);
    for (uint32_t i = 0; i < workers; ++i)
    {
        placed.push_back((aggregator + 1 + i % (hosts - 1)) % hosts);
    }
    return placed;
}

bool
PfabricIncast::Prepare(std::string* error)
{
    PfabricExperiment::Parameters& e = m_experiment.GetParameters();
    BuildOptions();
    *error = m_options.Check();
    if (!error->empty())
    {
        return false;
    }
    if (e.out.empty())
    {
        std::ostringstream name;
        name << "results/incast-" << e.preset << "-" << m_experiment.GetSchemeName() << "-workers"
             << m_p.workers << "-bytes" << m_p.responseBytes << "-queries" << m_p.queries
             << "-background" << Number(m_p.background) << "-seed" << e.seed << "-run" << e.run;
        e.out = name.str();
    }
    if (!m_experiment.Prepare(error))
    {
        return false;
    }
    const PfabricFabricHelper& fabric = m_experiment.GetFabric();
    const uint32_t hosts = fabric.GetNHosts();
    if (m_p.aggregator >= hosts)
    {
        *error = "--aggregator=" + std::to_string(m_p.aggregator) + ": the fabric has " +
                 std::to_string(hosts) + " hosts";
        m_experiment.AbandonRunDirectory();
        return false;
    }
    m_workerHost = MapWorkers(hosts, m_p.aggregator, m_p.workers);
    m_idealQct = fabric.GetIdealIncastTime(m_workerHost, m_p.aggregator, m_p.responseBytes);
    m_interval = m_p.interval.IsStrictlyPositive()
                     ? m_p.interval
                     : std::max(MilliSeconds(1), m_idealQct * int64_t(4));
    const Time first = m_p.firstQuery;
    const Time end = first + m_interval * int64_t(m_p.queries);

    // The background: the experiments' web search flows (PfabricExperiment::GenerateFlows, its
    // streams), enough of them to cover the queries' span, those starting after it dropped.
    std::vector<PfabricFlow> flows;
    if (m_p.background > 0)
    {
        const PfabricPreset& preset = PfabricPreset::Get(e.preset);
        PfabricFlowSizeDistribution sizes;
        if (!sizes.Load(e.cdf, preset.segmentSize, PfabricFlowSizeDistribution::PACKETS, error))
        {
            m_experiment.AbandonRunDirectory();
            return false;
        }
        const double perHost = PfabricFlowList::ArrivalRate(sizes.GetMean(),
                                                            preset.hostLinkRate,
                                                            m_p.background,
                                                            preset.GetWirePerPayload());
        const double expected = perHost * hosts * end.GetSeconds();
        // Poisson: the mean plus ten standard deviations, and some, covers the span.
        const auto count = uint32_t(std::ceil(expected + 10 * std::sqrt(expected) + 10));
        flows = PfabricExperiment::GenerateFlows(sizes, e.preset, hosts, m_p.background, count);
        flows.erase(std::remove_if(flows.begin(),
                                   flows.end(),
                                   [end](const PfabricFlow& f) { return f.start >= end; }),
                    flows.end());
    }
    m_backgroundFlows = flows.size();
    m_experiment.AddFlows(flows);

    std::vector<PfabricFlow> responses;
    responses.reserve(uint64_t(m_p.workers) * m_p.queries);
    for (uint32_t q = 0; q < m_p.queries; ++q)
    {
        for (uint32_t w = 0; w < m_p.workers; ++w)
        {
            responses.push_back({0,
                                 m_workerHost[w],
                                 m_p.aggregator,
                                 m_p.responseBytes,
                                 first + m_interval * int64_t(q)});
        }
    }
    m_firstResponseId = m_experiment.AddFlows(responses);
    // What the experiment's provenance reports as its generated flows: the background.
    e.load = m_p.background;
    e.flows = m_backgroundFlows;
    return true;
}

void
PfabricIncast::Install()
{
    m_experiment.Install();
    m_responsesLeft = m_p.workers * m_p.queries;
    // Every host's application (the experiment installed one on each).
    NodeContainer hosts = m_experiment.GetFabric().GetHosts();
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        Ptr<Node> node = hosts.Get(i);
        for (uint32_t a = 0; a < node->GetNApplications(); ++a)
        {
            node->GetApplication(a)->TraceConnectWithoutContext(
                "FlowCompleted",
                MakeCallback(&PfabricIncast::FlowCompleted, this));
        }
    }
}

void
PfabricIncast::FlowCompleted(const PfabricFlowApplication::CompletedFlow& flow)
{
    if (flow.flow.id >= m_firstResponseId && --m_responsesLeft == 0)
    {
        Simulator::Stop();
    }
}

void
PfabricIncast::Run()
{
    m_experiment.Run();
    m_queries = CollectQueries(m_experiment.GetResults(),
                               m_firstResponseId,
                               m_p.workers,
                               m_p.queries,
                               m_idealQct);
}

std::vector<PfabricIncast::QueryResult>
PfabricIncast::CollectQueries(const std::vector<PfabricResultsWriter::FlowResult>& results,
                              uint32_t firstResponseId,
                              uint32_t workers,
                              uint32_t queries,
                              Time idealQct)
{
    std::vector<QueryResult> out;
    Time previousEnd;
    for (uint32_t q = 0; q < queries; ++q)
    {
        QueryResult r{q, Seconds(0), Seconds(0), idealQct, 0, 0, 0, 0, false};
        r.firstFlowId = firstResponseId + q * workers;
        Time end;
        for (uint32_t w = 0; w < workers; ++w)
        {
            const PfabricResultsWriter::FlowResult& f = results.at(r.firstFlowId + w);
            if (w == 0)
            {
                r.start = f.flow.start;
            }
            NS_ABORT_MSG_IF(f.flow.start != r.start, "PfabricIncast: responses start together");
            r.timeouts += f.timeouts;
            r.responsesWithTimeouts += f.timeouts > 0 ? 1 : 0;
            if (!f.fct.IsNegative())
            {
                ++r.responsesCompleted;
                end = std::max(end, f.flow.start + f.fct);
            }
        }
        r.qct = r.responsesCompleted == workers ? end - r.start : Seconds(-1);
        // An unfinished query overlaps every later one.
        r.overlapsPrevious = q > 0 && (previousEnd.IsNegative() || previousEnd > r.start);
        previousEnd = r.qct.IsNegative() ? Seconds(-1) : end;
        out.push_back(r);
    }
    return out;
}

void
PfabricIncast::AddProvenance(PfabricJsonObject& meta) const
{
    m_experiment.AddProvenance(meta);
    std::ostringstream hosts;
    std::vector<uint32_t> perHost(m_experiment.GetFabric().GetNHosts(), 0);
    for (uint32_t h : m_workerHost)
    {
        ++perHost[h];
    }
    PfabricJsonObject incast;
    m_options.Record(incast);
    incast.AddNumber("interval_s", m_interval.GetSeconds())
        .AddInteger("background_flows", m_backgroundFlows)
        .AddInteger("first_response_flow_id", m_firstResponseId)
        .AddInteger("worker_hosts",
                    std::count_if(perHost.begin(), perHost.end(), [](uint32_t n) { return n > 0; }))
        .AddInteger("max_workers_per_host", *std::max_element(perHost.begin(), perHost.end()))
        .AddNumber("ideal_qct_s", m_idealQct.GetSeconds())
        .AddString("request_leg",
                   "not simulated: a query's responses are handed to their sockets together "
                   "at its start")
        .AddString("ideal_qct_rule",
                   "fastest worker's idle-path FCT + the other responses serialised on the "
                   "aggregator's host link (PfabricFabricHelper::GetIdealIncastTime)");
    meta.AddObject("incast", incast);
}

bool
PfabricIncast::WriteResults(const PfabricJsonObject& meta, std::string* error)
{
    std::ostringstream out;
    out << "query_id,workers,response_bytes,start_s,qct_s,ideal_qct_s,timeouts,"
           "responses_with_timeouts,responses_completed,first_flow_id,overlaps_previous\n";
    out << std::fixed << std::setprecision(9);
    for (const QueryResult& r : m_queries)
    {
        out << r.id << "," << m_p.workers << "," << m_p.responseBytes << "," << r.start.GetSeconds()
            << ",";
        if (!r.qct.IsNegative())
        {
            out << r.qct.GetSeconds();
        }
        out << "," << r.idealQct.GetSeconds() << "," << r.timeouts << "," << r.responsesWithTimeouts
            << "," << r.responsesCompleted << "," << r.firstFlowId << ","
            << (r.overlapsPrevious ? 1 : 0) << "\n";
    }
    // Any file that cannot be written takes the others with it (PfabricExperiment::WriteResults).
    return m_experiment.WriteRunFile("queries.csv", out.str(), error) &&
           m_experiment.WriteResults(meta, error);
}

const std::vector<PfabricIncast::QueryResult>&
PfabricIncast::GetQueryResults() const
{
    return m_queries;
}

Time
PfabricIncast::GetIdealQct() const
{
    return m_idealQct;
}

Time
PfabricIncast::GetInterval() const
{
    return m_interval;
}

const PfabricExperiment&
PfabricIncast::GetExperiment() const
{
    return m_experiment;
}

PfabricExperiment&
PfabricIncast::GetExperiment()
{
    return m_experiment;
}

std::string
PfabricIncast::Summarize() const
{
    std::vector<double> ratios;
    uint64_t timeouts = 0;
    uint32_t unfinished = 0;
    for (const QueryResult& r : m_queries)
    {
        timeouts += r.timeouts;
        if (r.qct.IsNegative())
        {
            ++unfinished;
        }
        else
        {
            ratios.push_back(r.qct.GetSeconds() / r.idealQct.GetSeconds());
        }
    }
    std::ostringstream out;
    out << "queries " << m_queries.size() << ", workers " << m_p.workers << ", response bytes "
        << m_p.responseBytes << ", ideal QCT " << m_idealQct.GetMicroSeconds() << " us\n";
    if (!ratios.empty())
    {
        double sum = 0;
        for (double x : ratios)
        {
            sum += x;
        }
        out << std::fixed << std::setprecision(3) << "QCT / ideal: mean " << sum / ratios.size()
            << ", max " << *std::max_element(ratios.begin(), ratios.end()) << std::defaultfloat
            << "\n";
    }
    out << "timeouts per query " << std::fixed << std::setprecision(2)
        << double(timeouts) / std::max<std::size_t>(1, m_queries.size()) << std::defaultfloat
        << ", unfinished queries " << unfinished << "\n";
    return out.str();
}

} // namespace ns3
