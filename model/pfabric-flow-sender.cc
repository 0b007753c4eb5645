/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricFlowSender: the sending end of one connection as PfabricFlowApplication drives it (what
// both host stacks share).

#include "pfabric-flow-sender.h"

#include <cmath>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfabricFlowSender);

TypeId
PfabricFlowSender::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfabricFlowSender").SetParent<Object>().SetGroupName("Pfabric");
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

} // namespace ns3
