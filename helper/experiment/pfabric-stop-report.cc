/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricStopReport: why an experiment's run stopped and what it left unfinished.

#include "pfabric-stop-report.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

void
PfabricStopReport::Record(bool stoppedWhenDone,
                          bool windowOn,
                          Time end,
                          Time safetyLimit,
                          const std::vector<PfabricFlowApplication::FlowInProgress>& flows)
{
    m_end = end;
    m_safetyLimit = safetyLimit;
    m_inProgress = flows.size();
    m_notStarted = m_notConnected = m_noBytesAcked = m_probing = 0;
    m_timeouts = m_bytesRemaining = 0;
    m_lastProgress = Time(0);
    for (const auto& flow : flows)
    {
        m_notStarted += !flow.started;
        m_notConnected += flow.started && !flow.connected;
        m_noBytesAcked += flow.started && flow.remainingBytes == flow.flow.bytes;
        m_probing += flow.probing;
        m_timeouts += flow.timeouts;
        m_bytesRemaining += flow.remainingBytes;
        if (flow.started)
        {
            // A flow not started has its start there, which may lie past the end (a flow list
            // beyond --maxSimTime reported progress at 200 s in a run stopped at 100 s).
            m_lastProgress = std::max(m_lastProgress, flow.lastProgress);
        }
    }
    if (stoppedWhenDone || flows.empty())
    {
        m_reason = windowOn ? Reason::MEASURED_COMPLETED : Reason::COMPLETED;
    }
    else
    {
        m_reason = end >= safetyLimit ? Reason::SAFETY_LIMIT : Reason::NO_EVENTS;
    }
}

PfabricStopReport::Reason
PfabricStopReport::GetReason() const
{
    return m_reason;
}

bool
PfabricStopReport::IsEarly() const
{
    return m_reason == Reason::SAFETY_LIMIT || m_reason == Reason::NO_EVENTS;
}

std::string
PfabricStopReport::GetReasonName() const
{
    switch (m_reason)
    {
    case Reason::COMPLETED:
        return "flows completed";
    case Reason::MEASURED_COMPLETED:
        return "measured flows completed";
    case Reason::SAFETY_LIMIT:
        return "safety limit";
    case Reason::NO_EVENTS:
        return "no events left";
    }
    return "";
}

std::string
PfabricStopReport::DescribeReason() const
{
    std::ostringstream text;
    if (m_reason == Reason::SAFETY_LIMIT)
    {
        text << "stopped at the safety limit (--maxSimTime=" << m_safetyLimit.GetSeconds() << " s)";
    }
    else if (m_reason == Reason::NO_EVENTS)
    {
        text << "stopped at " << m_end.GetSeconds()
             << " s with nothing left to simulate (no sender has a timer running)";
    }
    else
    {
        text << "stopped when its " << (m_reason == Reason::COMPLETED ? "" : "measured ")
             << "flows were done";
    }
    return text.str();
}

std::string
PfabricStopReport::Describe() const
{
    std::ostringstream text;
    text << DescribeReason() << " with " << m_inProgress << " flow"
         << (m_inProgress == 1 ? "" : "s") << " unfinished";
    if (m_inProgress > 0)
    {
        text << ": " << m_notStarted << " not started, " << m_notConnected
             << " without a connection, " << m_noBytesAcked << " with no byte acknowledged, "
             << m_probing << " in probe mode; " << m_timeouts << " timeouts and "
             << m_bytesRemaining << " bytes unacknowledged among them, last progress at "
             << m_lastProgress.GetSeconds() << " s";
    }
    return text.str();
}

void
PfabricStopReport::AddProvenance(PfabricJsonObject& meta) const
{
    PfabricJsonObject stop;
    stop.AddString("reason", GetReasonName())
        .AddBool("early", IsEarly())
        .AddNumber("end_s", m_end.GetSeconds())
        .AddInteger("flows_in_progress", m_inProgress)
        .AddInteger("not_started", m_notStarted)
        .AddInteger("not_connected", m_notConnected)
        .AddInteger("no_bytes_acknowledged", m_noBytesAcked)
        .AddInteger("probing", m_probing)
        .AddInteger("timeouts", m_timeouts)
        .AddInteger("bytes_unacknowledged", m_bytesRemaining)
        .AddNumber("last_progress_s", m_lastProgress.GetSeconds());
    meta.AddObject("stop", stop);
}

} // namespace ns3
