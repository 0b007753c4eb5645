/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Flows with deadlines as a feature of the FCT experiment (PfabricDeadlineFeature).

#include "pfabric-deadline-feature.h"

#include "pfabric-command-line.h"

#include "ns3/boolean.h"
#include "ns3/object-factory.h"
#include "ns3/pfabric-min-tcp-socket.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <tuple>

namespace ns3
{

using P = PfabricExperimentParameters;

namespace
{

/**
 * @param p the parameters
 * @param t the option table
 * @param name an option that shapes the deadlines, given away from its default
 * @param value its value formatted
 * @return its refusal when no flow has a deadline (--deadlineFraction=0), else ""
 */
std::string
WithoutDeadlines(const P& p,
                 const PfabricOptionTable& t,
                 const std::string& name,
                 const std::string& value)
{
    return p.deadlineFraction == 0
               ? PfabricOptionTable::ShapesNothing(
                     t.Given(name, value),
                     "no flow has a deadline (" +
                         t.Given("deadlineFraction",
                                 PfabricJsonObject::FormatNumber(p.deadlineFraction)) +
                         ")")
               : "";
}

} // namespace

PfabricDeadlineFeature::PfabricDeadlineFeature(PfabricExperimentParameters& p)
    : m_p(p)
{
}

void
PfabricDeadlineFeature::AddOptions(PfabricOptionTable& t)
{
    P& p = m_p;
    t.Add("deadlineMean",
          "deadlines: mean of the exponential part X of a flow's time to its deadline, e.g. 1ms "
          "(deadline = start + max(deadlineMinFactor x ideal FCT, X))",
          p.deadlineMean)
        .Check([&p, &t]() -> std::string {
            // An empty value is no default here (that is 1ms).
            const std::string error = p.deadlineMean.empty()
                                          ? "--deadlineMean=: expected a time such as 1ms"
                                          : PfabricCommandLine::CheckTimeOption("deadlineMean",
                                                                                p.deadlineMean,
                                                                                "1ms",
                                                                                true);
            return !error.empty() || Time(p.deadlineMean) == Time(P().deadlineMean)
                       ? error
                       : WithoutDeadlines(p, t, "deadlineMean", p.deadlineMean);
        });
    t.Add("deadlineMinFactor",
          "deadlines: no deadline comes sooner than this many ideal FCTs after the flow's start, "
          "at least 1",
          p.deadlineMinFactor)
        .Check([&p, &t]() -> std::string {
            const std::string factor = PfabricJsonObject::FormatNumber(p.deadlineMinFactor);
            if (!(p.deadlineMinFactor >= 1 && std::isfinite(p.deadlineMinFactor)))
            {
                return t.Given("deadlineMinFactor", factor) +
                       ": expected at least 1 (no deadline shorter than the ideal FCT)";
            }
            return p.deadlineMinFactor == P().deadlineMinFactor
                       ? ""
                       : WithoutDeadlines(p, t, "deadlineMinFactor", factor);
        });
    t.Add("deadlineFraction",
          "deadlines: the share of flows with a deadline, in [0, 1]; the others have none "
          "(under edf they rank behind every flow with one)",
          p.deadlineFraction)
        .Check([&p, &t]() -> std::string {
            return p.deadlineFraction >= 0 && p.deadlineFraction <= 1
                       ? ""
                       : t.Given("deadlineFraction",
                                 PfabricJsonObject::FormatNumber(p.deadlineFraction)) +
                             ": expected a share in [0, 1]";
        });
    t.AddChoice("priority",
                "pfabric, linerate: what packets carry, edf (time left to the deadline, "
                "PfabricDeadlinePriority) or remaining (remaining size, pFabric's); with "
                "tcp, dctcp and custom, which carry none, only its default is taken",
                p.priority,
                P::PRIORITIES)
        .Record([&p](PfabricJsonObject& json) {
            json.AddString("priority",
                           p.UsesPfabricQueues() ? PfabricChoiceName(P::PRIORITIES, p.priority)
                                                 : "none");
        })
        .Check([&p, &t]() -> std::string {
            // (issue 54's ninth probe: --priority=remaining under tcp was taken, recorded as
            // none)
            return p.priority == P().priority || p.UsesPfabricQueues()
                       ? ""
                       : PfabricOptionTable::ShapesNothing(
                             t.Given("priority", PfabricChoiceName(P::PRIORITIES, p.priority)),
                             "what packets carry to pFabric's queues, and --scheme=" + p.scheme +
                                 " runs none");
        });
    t.AddChoice("onMiss",
                "what a flow not complete at its deadline does: continue (to completion, "
                "counted as missed) or terminate (its sender stops sending it)",
                p.onMiss,
                P::ON_MISSES)
        .Check([&p, &t]() -> std::string {
            if (p.priorityLevels > 0)
            {
                return "--priorityLevels: not with deadlines (the levels quantise the remaining "
                       "size)";
            }
            return p.onMiss == P().onMiss
                       ? ""
                       : WithoutDeadlines(p,
                                          t,
                                          "onMiss",
                                          PfabricChoiceName(P::ON_MISSES, p.onMiss));
        });
}

std::string
PfabricDeadlineFeature::GetWindowConflict() const
{
    return "deadlines (pfabric-deadlines)";
}

std::string
PfabricDeadlineFeature::GetNamePrefix() const
{
    return "deadlines-";
}

std::string
PfabricDeadlineFeature::GetNamePart() const
{
    std::ostringstream name;
    if (m_p.UsesPfabricQueues())
    {
        name << "-" << PfabricChoiceName(P::PRIORITIES, m_p.priority);
    }
    name << "-" << PfabricChoiceName(P::ON_MISSES, m_p.onMiss) << "-mean" << m_p.deadlineMean
         << "-frac" << PfabricJsonObject::FormatNumber(m_p.deadlineFraction);
    return name.str();
}

std::string
PfabricDeadlineFeature::ProcessFlows(std::vector<PfabricFlow>* flows,
                                     const PfabricFabricHelper& fabric)
{
    bool given = std::any_of(flows->begin(), flows->end(), [](const PfabricFlow& flow) {
        return flow.deadline != Time::Max();
    });
    if (given)
    {
        // The twelfth probe: --deadlineFraction=0 beside such a list was recorded, the run
        // the list's.
        const P defaults;
        for (const auto& [name, value, isDefault] :
             {std::tuple{std::string("deadlineMean"),
                         m_p.deadlineMean,
                         Time(m_p.deadlineMean) == Time(defaults.deadlineMean)},
              std::tuple{std::string("deadlineMinFactor"),
                         PfabricJsonObject::FormatNumber(m_p.deadlineMinFactor),
                         m_p.deadlineMinFactor == defaults.deadlineMinFactor},
              std::tuple{std::string("deadlineFraction"),
                         PfabricJsonObject::FormatNumber(m_p.deadlineFraction),
                         m_p.deadlineFraction == defaults.deadlineFraction}})
        {
            if (!isDefault)
            {
                return PfabricOptionTable::ShapesNothing(
                    "--" + name + "=" + value,
                    "it shapes the deadlines drawn for the flows, and " + m_p.flowFile +
                        "'s deadline_s gives them theirs");
            }
        }
        m_source = m_p.flowFile;
        return "";
    }
    m_source = "generated";
    return AssignDeadlines(flows,
                           fabric,
                           m_p.deadlineMean,
                           m_p.deadlineMinFactor,
                           m_p.deadlineFraction);
}

void
PfabricDeadlineFeature::AddColumns(PfabricResultsWriter& writer) const
{
    writer.SetDeadlineColumns(true);
}

void
PfabricDeadlineFeature::ConfigureScheme(PfabricSchemeHelper& scheme) const
{
    if (m_p.priority == P::EDF && m_p.UsesPfabricQueues())
    {
        scheme.SetSocketAttribute(
            "PriorityPolicy",
            ObjectFactoryValue(ObjectFactory("ns3::PfabricDeadlinePriority")));
    }
}

std::vector<PfabricExperimentFeature::OwnSetting>
PfabricDeadlineFeature::GetOwnSettings() const
{
    // ConfigureApplication, on every host's application; ConfigureScheme, on every socket
    std::vector<OwnSetting> own{
        {PfabricFlowApplication::GetTypeId(), "TerminateAtDeadline", "onMiss"}};
    if (m_p.priority == P::EDF && m_p.UsesPfabricQueues())
    {
        own.push_back({PfabricMinTcpSocket::GetTypeId(), "PriorityPolicy", "priority"});
    }
    return own;
}

void
PfabricDeadlineFeature::ConfigureApplication(PfabricFlowApplication& app) const
{
    app.SetAttribute("TerminateAtDeadline", BooleanValue(m_p.onMiss == P::TERMINATE));
}

PfabricDeadlineFeature::Count
PfabricDeadlineFeature::CountDeadlines(const std::vector<Result>& results)
{
    Count count;
    for (const Result& r : results)
    {
        count.terminated += r.terminated ? 1 : 0;
        if (r.flow.deadline != Time::Max())
        {
            ++count.with;
            count.met += PfabricResultsWriter::IsDeadlineMet(r) ? 1 : 0;
        }
    }
    return count;
}

void
PfabricDeadlineFeature::AddProvenance(PfabricJsonObject& meta,
                                      const std::vector<Result>& results) const
{
    const Count count = CountDeadlines(results);
    meta.AddString("deadline_rule",
                   "deadline = start + max(deadlineMinFactor x ideal FCT, X), X exponential of "
                   "mean deadlineMean (streams " +
                       std::to_string(DEADLINE_STREAM) + " and " +
                       std::to_string(DEADLINE_STREAM + 1) +
                       "), for each flow with probability deadlineFraction; met: the sender saw "
                       "the last byte acknowledged at or before the deadline")
        .AddString("deadline_source", m_source)
        .AddInteger("flows_with_deadline", count.with)
        .AddInteger("deadlines_met", count.met)
        .AddInteger("flows_terminated", count.terminated);
}

std::string
PfabricDeadlineFeature::Summarize(const std::vector<Result>& results) const
{
    const Count count = CountDeadlines(results);
    std::ostringstream out;
    out << "deadlines: " << count.with << " flows with one, " << count.met << " met";
    if (count.with > 0)
    {
        out << " (" << std::fixed << std::setprecision(1) << 100.0 * count.met / count.with << "%)"
            << std::defaultfloat;
    }
    out << ", " << count.terminated << " terminated; " << results.size() - count.with
        << " flows without\n";
    return out.str();
}

std::string
PfabricDeadlineFeature::AssignDeadlines(std::vector<PfabricFlow>* flows,
                                        const PfabricFabricHelper& fabric,
                                        const std::string& meanText,
                                        double minFactor,
                                        double fraction)
{
    const Time mean(meanText);
    std::vector<Time> floors;
    floors.reserve(flows->size());
    for (const PfabricFlow& flow : *flows)
    {
        Time ideal = fabric.GetIdealFct(flow.src, flow.dst, flow.bytes);
        const double floorNs = std::ceil(static_cast<double>(ideal.GetNanoSeconds()) * minFactor);
        // Checked before the conversion, which would wrap (the tenth probe: a factor of 1e15
        // gave floors below zero, and deadlines drawn from X alone).
        if (static_cast<double>(flow.start.GetNanoSeconds()) + floorNs >
            PfabricCommandLine::MAX_TIME_NS)
        {
            return "--deadlineMinFactor=" + PfabricJsonObject::FormatNumber(minFactor) + ": flow " +
                   std::to_string(flow.id) + "'s deadline would be " +
                   PfabricCommandLine::TooLong();
        }
        floors.push_back(NanoSeconds(static_cast<int64_t>(floorNs)));
    }
    const std::size_t beyond =
        PfabricFlowList::AssignDeadlines(flows, floors, mean, fraction, DEADLINE_STREAM);
    if (beyond == flows->size())
    {
        return "";
    }
    return "--deadlineMean=" + meanText + ": flow " + std::to_string((*flows)[beyond].id) +
           "'s deadline would be " + PfabricCommandLine::TooLong();
}

} // namespace ns3
