/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricMeasurementWindow: the FCT experiment's steady-state measurement window (--warmupFlows,
// --measureFlows).

#include "pfabric-measurement-window.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricMeasurementWindow");

PfabricMeasurementWindow::PfabricMeasurementWindow()
    : m_warmup(0),
      m_measure(0),
      m_maxBytes(0),
      m_measuredHanded(0),
      m_measuredBytesHanded(0),
      m_awaitedHanded(0),
      m_measuredDone(0),
      m_measuredBytesDone(0),
      m_awaitedDone(0)
{
}

void
PfabricMeasurementWindow::AddCommandLineOptions(PfabricCommandLine& cmd,
                                                const std::string& conflict)
{
    // The eighth probe: pfabric-classes listed the window's options and refused any value.
    const std::string refused =
        conflict.empty() ? "" : " (refused in this program: not with " + conflict + ")";
    cmd.AddValue("warmupFlows",
                 "with --measureFlows: flows before the measured ones, not measured (they meet "
                 "a fabric still filling)" +
                     refused,
                 m_warmup);
    cmd.AddValue("measureFlows",
                 "steady-state window: measure flows warmupFlows .. warmupFlows + N - 1 while "
                 "flows keep arriving, and stop when they have all completed (--flows is not "
                 "used); fct.csv gains a column measured; 0: run the --flows list to completion" +
                     refused,
                 m_measure);
    cmd.AddValue("measureMaxBytes",
                 "with --measureFlows: measure only the window's flows of at most this many "
                 "bytes and stop when they have completed; larger flows of the window need not "
                 "finish and have measured 0 (0: every size)" +
                     refused,
                 m_maxBytes);
}

void
PfabricMeasurementWindow::SetFlows(uint32_t warmup, uint32_t measure)
{
    m_warmup = warmup;
    m_measure = measure;
}

void
PfabricMeasurementWindow::SetMeasureMaxBytes(uint64_t bytes)
{
    m_maxBytes = bytes;
}

uint64_t
PfabricMeasurementWindow::GetMeasureMaxBytes() const
{
    return m_maxBytes;
}

uint32_t
PfabricMeasurementWindow::GetWarmupFlows() const
{
    return m_warmup;
}

uint32_t
PfabricMeasurementWindow::GetMeasureFlows() const
{
    return m_measure;
}

bool
PfabricMeasurementWindow::IsOn() const
{
    return m_measure > 0;
}

bool
PfabricMeasurementWindow::IsMeasured(uint32_t id) const
{
    return !IsOn() || (id >= m_warmup && id - m_warmup < m_measure);
}

bool
PfabricMeasurementWindow::IsAwaited(const PfabricFlow& flow) const
{
    return IsMeasured(flow.id) && (m_maxBytes == 0 || flow.bytes <= m_maxBytes);
}

bool
PfabricMeasurementWindow::IsComplete() const
{
    return IsOn() && m_measuredHanded == m_measure && m_awaitedDone == m_awaitedHanded;
}

std::string
PfabricMeasurementWindow::Check(const std::string& conflict) const
{
    if (m_warmup > 0 && m_measure == 0)
    {
        return "--warmupFlows=" + std::to_string(m_warmup) + ": needs --measureFlows";
    }
    if (m_maxBytes > 0 && m_measure == 0)
    {
        return "--measureMaxBytes=" + std::to_string(m_maxBytes) + ": needs --measureFlows";
    }
    if (!IsOn())
    {
        return "";
    }
    if (!conflict.empty())
    {
        return "--measureFlows: not with " + conflict;
    }
    if (m_measure > std::numeric_limits<uint32_t>::max() - m_warmup)
    {
        return "--warmupFlows + --measureFlows: more than " +
               std::to_string(std::numeric_limits<uint32_t>::max()) + " flows";
    }
    return "";
}

std::string
PfabricMeasurementWindow::CheckFlowFile(const std::string& path, std::size_t flows) const
{
    if (!IsOn() || flows >= uint64_t(m_warmup) + m_measure)
    {
        return "";
    }
    return path + ": fewer flows (" + std::to_string(flows) +
           ") than --warmupFlows + --measureFlows (" +
           std::to_string(uint64_t(m_warmup) + m_measure) + ")";
}

std::string
PfabricMeasurementWindow::GetNamePart() const
{
    return "-warmup" + std::to_string(m_warmup) + "-measure" + std::to_string(m_measure) +
           (m_maxBytes > 0 ? "-upto" + std::to_string(m_maxBytes) : "");
}

void
PfabricMeasurementWindow::AddColumns(PfabricResultsWriter& writer) const
{
    writer.AddColumn("measured", [this](const PfabricResultsWriter::FlowResult& r) {
        return std::string(IsAwaited(r.flow) ? "1" : "0");
    });
}

void
PfabricMeasurementWindow::SetGenerator(std::unique_ptr<PfabricFlowSource> generator)
{
    m_generator = std::move(generator);
    m_next.reset();
}

bool
PfabricMeasurementWindow::HasGenerator() const
{
    return m_generator != nullptr;
}

void
PfabricMeasurementWindow::Feed(Time connectLead, HandOver hand)
{
    NS_LOG_FUNCTION(this << connectLead);
    NS_ABORT_MSG_UNLESS(m_generator, "PfabricMeasurementWindow::Feed: no generator");
    m_connectLead = connectLead;
    m_hand = std::move(hand);
    m_next = m_generator->Next();
    FeedDue();
}

void
PfabricMeasurementWindow::FeedDue()
{
    // Every flow whose connection opens before the next feeder event is handed over now: no
    // flow is handed over after its connection should have opened, and none with a start in
    // the past. The first call, before the run, also hands over the flows whose connection
    // opens at once (start before ConnectLead), as the list without the window does.
    const Time interval = MicroSeconds(FEED_INTERVAL_US);
    const Time until = Simulator::Now() + interval;
    while (m_next->start - m_connectLead < until)
    {
        m_hand(*m_next);
        m_next = m_generator->Next();
    }
    m_feeder = Simulator::Schedule(interval, &PfabricMeasurementWindow::FeedDue, this);
}

void
PfabricMeasurementWindow::DrawMeasured(const HandOver& record)
{
    if (!m_next)
    {
        return; // not feeding
    }
    m_feeder.Cancel();
    while (m_next->id < uint64_t(m_warmup) + m_measure)
    {
        record(*m_next);
        m_next = m_generator->Next();
    }
}

bool
PfabricMeasurementWindow::FlowHandedOver(const PfabricFlow& flow)
{
    if (!IsOn() || !IsMeasured(flow.id))
    {
        return false;
    }
    ++m_measuredHanded;
    m_measuredBytesHanded += flow.bytes;
    if (IsAwaited(flow))
    {
        ++m_awaitedHanded;
        return false;
    }
    // Not awaited: settled as soon as it is handed over.
    ++m_measuredDone;
    m_measuredBytesDone += flow.bytes;
    return IsComplete();
}

bool
PfabricMeasurementWindow::FlowCompleted(const PfabricFlow& flow)
{
    if (!IsOn() || !IsAwaited(flow))
    {
        return false;
    }
    ++m_awaitedDone;
    ++m_measuredDone;
    m_measuredBytesDone += flow.bytes;
    return IsComplete();
}

uint32_t
PfabricMeasurementWindow::GetMeasuredCompleted() const
{
    return m_measuredDone;
}

uint64_t
PfabricMeasurementWindow::GetMeasuredBytesCompleted() const
{
    return m_measuredBytesDone;
}

uint64_t
PfabricMeasurementWindow::GetMeasuredBytes() const
{
    const double mean = m_generator ? m_generator->GetMeanBytes() : 0;
    return m_measuredBytesHanded +
           static_cast<uint64_t>(std::llround(mean * (m_measure - m_measuredHanded)));
}

void
PfabricMeasurementWindow::AddParameters(PfabricJsonObject& parameters) const
{
    parameters.AddInteger("warmupFlows", m_warmup)
        .AddInteger("measureFlows", m_measure)
        .AddInteger("measureMaxBytes", m_maxBytes);
}

void
PfabricMeasurementWindow::AddProvenance(PfabricJsonObject& meta,
                                        uint32_t flowsSimulated,
                                        bool arrivalsThroughEnd) const
{
    if (!IsOn())
    {
        return;
    }
    PfabricJsonObject window;
    window.AddInteger("warmup_flows", m_warmup)
        .AddInteger("measure_flows", m_measure)
        .AddInteger("flows_simulated", flowsSimulated)
        .AddInteger("measure_max_bytes", m_maxBytes)
        .AddBool("arrivals_through_end", arrivalsThroughEnd);
    meta.AddObject("window", window);
}

} // namespace ns3
