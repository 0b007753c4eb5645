/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricLineRateCongestionOps: LineRate's congestion control, none: the window never moves.

#include "pfabric-line-rate-congestion-ops.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricLineRateCongestionOps");

NS_OBJECT_ENSURE_REGISTERED(PfabricLineRateCongestionOps);

TypeId
PfabricLineRateCongestionOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfabricLineRateCongestionOps")
                            .SetParent<TcpCongestionOps>()
                            .SetGroupName("Pfabric")
                            .AddConstructor<PfabricLineRateCongestionOps>();
    return tid;
}

PfabricLineRateCongestionOps::PfabricLineRateCongestionOps()
    : TcpCongestionOps()
{
    NS_LOG_FUNCTION(this);
}

std::string
PfabricLineRateCongestionOps::GetName() const
{
    return "PfabricLineRateCongestionOps";
}

void
PfabricLineRateCongestionOps::IncreaseWindow(Ptr<TcpSocketState> /* tcb */,
                                             uint32_t /* segmentsAcked */)
{
}

uint32_t
PfabricLineRateCongestionOps::GetSsThresh(Ptr<const TcpSocketState> tcb,
                                          uint32_t /* bytesInFlight */)
{
    return tcb->m_ssThresh;
}

Ptr<TcpCongestionOps>
PfabricLineRateCongestionOps::Fork()
{
    return CopyObject<PfabricLineRateCongestionOps>(this);
}

} // namespace ns3
