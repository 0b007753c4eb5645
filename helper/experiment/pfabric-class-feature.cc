/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Two traffic classes as a feature of the FCT experiment (PfabricClassFeature).

#include "pfabric-class-feature.h"

#include "pfabric-experiment-workload.h"

#include "ns3/pfabric-class-queue-disc.h"
#include "ns3/pfabric-preset.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <sstream>

namespace ns3
{

using P = PfabricExperimentParameters;

PfabricClassFeature::PfabricClassFeature(PfabricExperimentParameters& p)
    : m_p(p)
{
    m_p.cdf = "websearch"; // class 0's flow sizes
}

void
PfabricClassFeature::AddLeadingOptions(PfabricOptionTable& t)
{
    P& p = m_p;
    t.Add("classLoads",
          "offered loads of web search (class 0) and data mining (class 1), fractions of the "
          "host link in wire bytes, summing to less than 1",
          p.classLoads)
        .Check([&p] {
            std::vector<double> loads;
            return ParseClassLoads(p.classLoads, &loads);
        });
    t.AddChoice("classes",
                "between the classes at every port: drr (deficit round robin with "
                "--classWeights), strict (class 0, web search, first) or none (both in one "
                "pFabric queue, the reference)",
                p.classes,
                P::CLASS_SCHEDULERS)
        .Check([&p]() -> std::string {
            return p.classes != P::NO_CLASSES && !p.UsesPfabricQueues()
                       ? "--classes=" + PfabricChoiceName(P::CLASS_SCHEDULERS, p.classes) +
                             " needs --scheme=pfabric or linerate"
                       : "";
        });
    t.Add("classWeights",
          "drr: weights of class 0 and class 1, positive integers, e.g. 3,1",
          p.classWeights)
        .Check([&p, &t]() -> std::string {
            std::vector<uint32_t> weights;
            std::string error = PfabricClassQueueDisc::ParseWeights(p.classWeights, &weights);
            if (!error.empty() || weights.size() != 2)
            {
                return "--classWeights=" + p.classWeights +
                       ": expected two positive integers, e.g. 3,1";
            }
            return p.classWeights != P().classWeights && p.classes != P::DRR
                       ? PfabricOptionTable::ShapesNothing(
                             t.Given("classWeights", p.classWeights),
                             "the weights of --classes=drr, and this run's classes "
                             "are " +
                                 PfabricChoiceName(P::CLASS_SCHEDULERS, p.classes))
                       : "";
        });
}

void
PfabricClassFeature::AddOptions(PfabricOptionTable& t)
{
    t.Get("flows").Help("web search flows to generate (data mining flows: as many as span the "
                        "same time at their load)");
    // The run's load, as meta.json and the analysis read it: both classes' (MakeFlows).
    t.Get("load").Listed(false).Check(nullptr);
    // Both classes' flows are generated, web search's from its own CDF, by pFabric's priority.
    t.Get("cdf").Listed(false);
    t.Get("flowFile").Listed(false);
    t.Get("priorityLevels").Listed(false);
}

std::string
PfabricClassFeature::GetWindowConflict() const
{
    return "pfabric-classes (two classes' flow lists)";
}

std::string
PfabricClassFeature::GetNamePart() const
{
    std::string loads = m_p.classLoads;
    std::replace(loads.begin(), loads.end(), ',', '+');
    std::string weights = m_p.classWeights;
    std::replace(weights.begin(), weights.end(), ',', 'x');
    return "-load" + loads + "-flows" + std::to_string(m_p.flows) + "-" +
           PfabricChoiceName(P::CLASS_SCHEDULERS, m_p.classes) +
           (m_p.classes == P::DRR ? weights : std::string());
}

bool
PfabricClassFeature::MakesFlows() const
{
    return true;
}

bool
PfabricClassFeature::MakeFlows(PfabricExperimentWorkload& workload,
                               uint32_t hosts,
                               std::vector<PfabricFlow>* flows,
                               std::string* error)
{
    // The workload's sizes are web search's (the CDF set at construction).
    PfabricFlowSizeDistribution& webSizes = workload.GetSizes();
    m_webSizesPath = webSizes.GetPath();
    const PfabricPreset& preset = PfabricPreset::Get(m_p.preset);
    if (!m_classSizes.Load("datamining", preset.segmentSize, m_p.sampling, error))
    {
        return false;
    }
    std::vector<double> loads;
    ParseClassLoads(m_p.classLoads, &loads);
    std::vector<PfabricFlow> web =
        PfabricExperimentWorkload::GenerateFlows(webSizes, m_p.preset, hosts, loads[0], m_p.flows);
    // As many data mining flows as arrive, at their load, in the time the web search flows
    // take: flows arrive in proportion to load / mean size.
    const double ratio = (loads[1] / m_classSizes.GetMean()) / (loads[0] / webSizes.GetMean());
    const auto miningFlows = static_cast<uint32_t>(std::max(1.0, std::round(ratio * m_p.flows)));
    // Streams of their own, after web search's: every scheme and class setting of a (loads,
    // seed, run) runs the same flows of both classes.
    std::vector<PfabricFlow> mining = PfabricExperimentWorkload::GenerateFlows(m_classSizes,
                                                                               m_p.preset,
                                                                               hosts,
                                                                               loads[1],
                                                                               miningFlows,
                                                                               CLASS_FLOW_STREAM);
    for (PfabricFlow& flow : mining)
    {
        flow.trafficClass = 1;
    }
    m_classFlows = {static_cast<uint32_t>(web.size()), static_cast<uint32_t>(mining.size())};
    flows->clear();
    std::merge(web.begin(),
               web.end(),
               mining.begin(),
               mining.end(),
               std::back_inserter(*flows),
               [](const PfabricFlow& a, const PfabricFlow& b) { return a.start < b.start; });
    for (std::size_t i = 0; i < flows->size(); ++i)
    {
        (*flows)[i].id = static_cast<uint32_t>(i);
    }
    m_p.load = loads[0] + loads[1];
    return true;
}

void
PfabricClassFeature::AddColumns(PfabricResultsWriter& writer) const
{
    writer.SetClassColumn(true);
}

std::vector<PfabricExperimentFeature::OwnSetting>
PfabricClassFeature::GetOwnSettings() const
{
    // ConfigureScheme: every port's PfabricClassQueueDisc (PfabricSchemeHelper::SetTrafficClasses)
    const TypeId port = PfabricClassQueueDisc::GetTypeId();
    return {{port, "Classes", "classLoads"},
            {port, "Weights", "classWeights"},
            {port, "Scheduler", "classes"}};
}

void
PfabricClassFeature::ConfigureScheme(PfabricSchemeHelper& scheme) const
{
    if (m_p.classes == P::NO_CLASSES)
    {
        return;
    }
    std::vector<uint32_t> weights;
    PfabricClassQueueDisc::ParseWeights(m_p.classWeights, &weights);
    scheme.SetTrafficClasses(m_p.classes == P::STRICT ? "Strict" : "Drr", weights);
}

std::optional<uint8_t>
PfabricClassFeature::GetTrafficClass(const PfabricFlow& flow) const
{
    return flow.trafficClass;
}

void
PfabricClassFeature::AddProvenance(PfabricJsonObject& meta, const std::vector<Result>&) const
{
    if (m_classFlows.size() != 2)
    {
        return;
    }
    meta.AddString("class_workloads", "websearch,datamining")
        .AddString("class_cdf_files", m_webSizesPath + "," + m_classSizes.GetPath())
        .AddRaw("class_flows",
                "[" + std::to_string(m_classFlows[0]) + ", " + std::to_string(m_classFlows[1]) +
                    "]")
        .AddString("class_scheduler", PfabricChoiceName(P::CLASS_SCHEDULERS, m_p.classes))
        .AddString("class_buffer", m_p.classes == P::NO_CLASSES ? "one per port" : "one per class");
}

void
PfabricClassFeature::GetSummaryGroups(std::vector<SummaryGroup>* groups) const
{
    *groups = {
        {"class 0 (web search), ", [](const Result& r) { return r.flow.trafficClass == 0; }},
        {"class 1 (data mining), ", [](const Result& r) { return r.flow.trafficClass == 1; }}};
}

std::string
PfabricClassFeature::ParseClassLoads(const std::string& text, std::vector<double>* loads)
{
    const std::string wrong = "--classLoads=" + text +
                              ": expected two loads in (0, 1) summing to less than 1, e.g. "
                              "0.3,0.3";
    loads->clear();
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        // Digits and one point only. Not std::stod: it throws on a number too large for a
        // double (e.g. 400 digits); strtod reads it as infinity.
        if (item.find_first_of("0123456789") == std::string::npos ||
            item.find_first_not_of("0123456789.") != std::string::npos ||
            std::count(item.begin(), item.end(), '.') > 1)
        {
            return wrong;
        }
        loads->push_back(std::strtod(item.c_str(), nullptr));
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

} // namespace ns3
