/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The FCT experiment's report: its provenance (PfabricExperiment::AddProvenance, meta.json) and
// its summary (PfabricExperiment::Summarize, PfabricExperimentReport's tables and the features'
// lines).

#include "pfabric-experiment-report.h"

#include "pfabric-experiment.h"

#include "ns3/double.h"
#include "ns3/pfabric-dctcp.h"
#include "ns3/pfabric-line-rate-tcp-socket.h"
#include "ns3/pfabric-priority-policy.h"
#include "ns3/pfabric-provenance.h"
#include "ns3/pfabric-size-bins.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace ns3
{

std::string
PfabricExperimentReport::SummarizeFcts(
    const std::vector<PfabricExperimentFeature::Result>& results,
    const PfabricMeasurementWindow& window,
    const std::vector<PfabricExperimentFeature::SummaryGroup>& groups)
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
    for (const auto& group : groups)
    {
        std::vector<Bin> bins;
        for (const pfabric::SizeBin& bin : pfabric::SizeBins())
        {
            bins.push_back({bin.name, bin.low, bin.high, {}});
        }
        bins.push_back({"all", 0, UINT64_MAX, {}});
        for (const auto& r : results)
        {
            if (!group.include(r) || !window.IsAwaited(r.flow))
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
        out << group.title;
        if (window.IsOn())
        {
            out << "measured flows " << window.GetWarmupFlows() << " to "
                << window.GetWarmupFlows() + window.GetMeasureFlows() - 1;
            if (window.GetMeasureMaxBytes() > 0)
            {
                out << " up to " << window.GetMeasureMaxBytes() << " bytes";
            }
            out << " of " << results.size() << " simulated, ";
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
    return out.str();
}

std::string
PfabricExperiment::Summarize() const
{
    std::vector<PfabricExperimentFeature::SummaryGroup> groups{
        {"", [](const Result&) { return true; }}};
    for (const auto& feature : m_features)
    {
        feature->GetSummaryGroups(&groups);
    }
    std::string out = PfabricExperimentReport::SummarizeFcts(m_results, m_window, groups);
    for (const auto& feature : m_features)
    {
        out += feature->Summarize(m_results);
    }
    return out;
}

void
PfabricExperiment::AddProvenance(PfabricJsonObject& meta) const
{
    PfabricJsonObject parameters;
    AddParameters(parameters);
    // A rerun gives every parameter back as its option but these (pfabric_analysis.rerun).
    meta.AddObject("parameters", parameters)
        .AddRaw("parameters_not_options", m_options.GetUnsetKeys())
        .AddString("workload", m_p.workload)
        .AddString("cdf_file", m_workload.GetSizes().GetPath())
        .AddNumber("mean_flow_bytes", m_workload.GetSizes().GetMean())
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
        .AddInteger("drops_host_ports", m_hostPortDrops)
        .AddInteger("drops_switch_ports", m_switchPortDrops)
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
    if (m_scheme)
    {
        // LineRate's window is a preset's number that no option records; a run says which it
        // ran with, so that runs of another window (or none: before hotnets12 had one) do not
        // pool with it. Read from a socket made as the hosts make theirs.
        const ObjectFactory socketType = m_scheme->GetSocketTypeFactory();
        Ptr<Object> socket = socketType.Create();
        TypeId::AttributeInformation info;
        if (socket->GetInstanceTypeId() == PfabricLineRateTcpSocket::GetTypeId())
        {
            UintegerValue window;
            socket->GetAttribute("Window", window);
            meta.AddInteger("line_rate_window_segments", window.Get());
        }
        // Likewise DCTCP's floor under its cut (none before PfabricDctcp) and the alpha it starts
        // from (ns-3's 1 before the scheme set the original code's). Both are read from the
        // congestion control the sockets make theirs from, not from the TypeId's initial value:
        // ns-3 applies NS_ATTRIBUTE_DEFAULT when it constructs an object, never to the TypeId;
        // the alpha, which has no getter, is the factory's value.
        if (socket->GetInstanceTypeId().LookupAttributeByName("CongestionControl", &info) &&
            m_scheme->GetRecipe().GetType(PfabricSchemeRecipe::CONGESTION_CONTROL) ==
                PfabricDctcp::GetTypeId().GetName())
        {
            ObjectFactoryValue congestionControl;
            socket->GetAttribute("CongestionControl", congestionControl);
            UintegerValue floor;
            congestionControl.Get().Create()->GetAttribute("MinWindow", floor);
            meta.AddInteger("dctcp_min_window_segments", floor.Get());
            DoubleValue alpha;
            alpha.DeserializeFromString(
                PfabricPresetAttributes::GetFactoryValue(congestionControl.Get(),
                                                         "DctcpAlphaOnInit"),
                MakeDoubleChecker<double>());
            meta.AddNumber("dctcp_initial_alpha", alpha.Get());
        }
    }
    if (m_scheme)
    {
        // The scheme as it ran: its recipe's parts as created, every attribute's value (buffers,
        // RED's marking threshold, RTOs, windows, ...), and the links' numbers.
        const PfabricSchemeRecipe& recipe = m_scheme->GetRecipe();
        PfabricJsonObject scheme;
        scheme.AddString("name", recipe.GetName())
            .AddString("preset", m_scheme->GetPreset().name)
            .AddBool("pfabric_queues", recipe.UsesPfabricQueues())
            .AddString("device_rate_attribute", recipe.GetDeviceRateAttribute())
            .AddInteger("priority_levels", m_scheme->GetPriorityLevels())
            .AddInteger("traffic_classes", m_scheme->GetTrafficClasses());
        PfabricCustomScheme::AddParts(scheme, *m_scheme);
        meta.AddObject("scheme_recipe", scheme);
        PfabricJsonObject links;
        links.AddInteger("link_delay_ns", m_fabric->GetLinkDelay().GetNanoSeconds())
            .AddInteger("host_delay_ns", m_fabric->GetHostDelay().GetNanoSeconds())
            .AddInteger("host_link_bps", m_fabric->GetHostLinkRate().GetBitRate())
            .AddInteger("fabric_link_bps", m_fabric->GetFabricLinkRate().GetBitRate());
        meta.AddObject("links", links);
    }
    m_window.AddProvenance(meta, m_results.size(), m_arrivalsThroughEnd);
    m_stop.AddProvenance(meta);
    if (m_p.scheme == PfabricSchemeHelper::CUSTOM && m_scheme)
    {
        m_custom.AddProvenance(meta, *m_scheme);
    }
    for (const auto& feature : m_features)
    {
        feature->AddProvenance(meta, m_results);
    }
}

} // namespace ns3
