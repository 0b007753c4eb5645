/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The FCT experiment's workload (PfabricExperimentWorkload): its flow sizes and its flows,
// generated or read from a flow file.

#include "pfabric-experiment-workload.h"

#include "ns3/pfabric-ns2-flow-generator.h"
#include "ns3/pfabric-preset.h"

#include <algorithm>

namespace ns3
{

PfabricExperimentWorkload::PfabricExperimentWorkload(const PfabricExperimentParameters& p,
                                                     PfabricMeasurementWindow& window)
    : m_p(p),
      m_window(window)
{
}

bool
PfabricExperimentWorkload::LoadSizes(const std::string& cdf, std::string* error)
{
    // The levels' thresholds come from the workload's CDF, also when replaying a flow file.
    if (!m_p.flowFile.empty() && m_p.priorityLevels == 0)
    {
        return true;
    }
    const PfabricPreset& preset = PfabricPreset::Get(m_p.preset);
    return m_sizes.Load(cdf, preset.segmentSize, m_p.sampling, error);
}

bool
PfabricExperimentWorkload::MakeFlows(uint32_t hosts,
                                     std::vector<PfabricFlow>* flows,
                                     std::string* error)
{
    if (m_p.flowFile.empty() && m_window.IsOn())
    {
        // Drawn as the run needs them (Install), from the same process as the list below.
        flows->clear();
        m_window.SetGenerator(MakeFlowSource(hosts));
    }
    else if (m_p.flowFile.empty())
    {
        *flows =
            m_p.flows > 0 ? MakeFlowSource(hosts)->Next(m_p.flows) : std::vector<PfabricFlow>();
    }
    else
    {
        if (!PfabricFlowList::Read(m_p.flowFile, hosts, flows, error))
        {
            return false;
        }
        *error = m_window.CheckFlowFile(m_p.flowFile, flows->size());
        if (!error->empty())
        {
            return false;
        }
    }
    return true;
}

std::unique_ptr<PfabricFlowSource>
PfabricExperimentWorkload::MakeFlowSource(uint32_t hosts)
{
    if (m_p.arrivals == PfabricExperimentParameters::NS2)
    {
        // The original scripts' workload; its load formula divides by the run scripts' mean
        // where they give one (web search, data mining), else by the distribution's.
        const PfabricPreset& preset = PfabricPreset::Get(m_p.preset);
        const double original =
            PfabricNs2FlowGenerator::OriginalMeanBytes(m_p.cdf.empty() ? m_p.workload : m_p.cdf,
                                                       preset.segmentSize);
        return std::make_unique<PfabricNs2FlowGenerator>(m_sizes,
                                                         hosts,
                                                         preset.hostLinkRate,
                                                         m_p.load,
                                                         preset.segmentSize,
                                                         preset.segmentSize + preset.headerBytes,
                                                         original > 0 ? original
                                                                      : m_sizes.GetMean());
    }
    return std::make_unique<PfabricFlowGenerator>(
        MakeFlowGenerator(m_sizes, m_p.preset, hosts, m_p.load));
}

const PfabricFlowSizeDistribution&
PfabricExperimentWorkload::GetSizes() const
{
    return m_sizes;
}

PfabricFlowSizeDistribution&
PfabricExperimentWorkload::GetSizes()
{
    return m_sizes;
}

std::vector<PfabricFlow>
PfabricExperimentWorkload::GenerateFlows(PfabricFlowSizeDistribution& sizes,
                                         const std::string& preset,
                                         uint32_t hosts,
                                         double load,
                                         uint32_t flows,
                                         int64_t sizeStream)
{
    return MakeFlowGenerator(sizes, preset, hosts, load, sizeStream).Next(flows);
}

uint64_t
PfabricExperimentWorkload::EstimatePacketHops(const std::vector<PfabricFlow>& flows,
                                              const PfabricFabricHelper& fabric) const
{
    std::size_t mustComplete = flows.size();
    if (m_window.IsOn())
    {
        mustComplete = std::size_t(m_window.GetWarmupFlows()) + m_window.GetMeasureFlows();
    }
    const std::size_t known = std::min(mustComplete, flows.size());
    double hops = 0;
    for (std::size_t i = 0; i < known; ++i)
    {
        hops += fabric.GetPacketHops(flows[i].src, flows[i].dst, flows[i].bytes);
    }
    if (mustComplete > known)
    {
        hops += double(mustComplete - known) * 2 * GetSizes().GetMean() / fabric.GetMss() *
                fabric.GetMeanHopCount();
    }
    return uint64_t(hops);
}

PfabricFlowGenerator
PfabricExperimentWorkload::MakeFlowGenerator(PfabricFlowSizeDistribution& sizes,
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

} // namespace ns3
