/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricFlowSender: the sending end of one connection as PfabricFlowApplication drives it (what
// both host stacks share).

#include "pfabric-flow-sender.h"

#include "ns3/trace-source-accessor.h"

#include <cmath>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfabricFlowSender);

TypeId
PfabricFlowSender::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfabricFlowSender")
            .SetParent<Object>()
            .SetGroupName("Pfabric")
            .AddTraceSource("Timeout",
                            "A retransmission timeout with data outstanding, with the "
                            "connection's count so far (as PfabricTcpSocket's Timeout).",
                            MakeTraceSourceAccessor(&PfabricFlowSender::m_timeoutTrace),
                            "ns3::PfabricTcpSocket::TimeoutCallback")
            .AddTraceSource("ProbeMode",
                            "MinTCP's probe mode begins (true) or ends (false), as "
                            "PfabricMinTcpSocket's ProbeMode; never for the baselines.",
                            MakeTraceSourceAccessor(&PfabricFlowSender::m_probeModeTrace),
                            "ns3::PfabricMinTcpSocket::ProbeModeCallback");
    return tid;
}

PfabricFlowSender::~PfabricFlowSender() = default;

DataRate
PfabricFlowSender::GetPayloadRate(DataRate lineRate, uint32_t segmentSize, uint32_t overheadBytes)
{
    double segment = segmentSize;
    return DataRate(static_cast<uint64_t>(std::ceil(static_cast<double>(lineRate.GetBitRate()) *
                                                    segment / (segment + overheadBytes))));
}

void
PfabricFlowSender::SetCallbacks(ConnectedCallback connected, AckCallback ackAdvanced)
{
    m_connected = connected;
    m_ackAdvanced = ackAdvanced;
}

void
PfabricFlowSender::DoDispose()
{
    m_connected = MakeNullCallback<void>();
    m_ackAdvanced = MakeNullCallback<void, SequenceNumber32>();
    Object::DoDispose();
}

void
PfabricFlowSender::NotifyConnected()
{
    if (!m_connected.IsNull())
    {
        m_connected();
    }
}

void
PfabricFlowSender::NotifyAckAdvanced(SequenceNumber32 ack)
{
    if (!m_ackAdvanced.IsNull())
    {
        m_ackAdvanced(ack);
    }
}

void
PfabricFlowSender::NotifyTimeout(uint64_t timeouts)
{
    m_timeoutTrace(timeouts);
}

void
PfabricFlowSender::NotifyProbeMode(bool probing)
{
    m_probeModeTrace(probing);
}

} // namespace ns3
