/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfabric-host-pacing.h"

#include "ns3/abort.h"

#include <cmath>

namespace ns3
{
namespace pfabric
{

void
PaceAtLineRate(Ptr<TcpSocketState> tcb, DataRate rate, uint32_t overheadBytes)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "pfabric: the pacing line rate must be positive");
    // Rounding the payload rate up keeps the gap no longer than the NIC's serialisation time.
    double segment = tcb->m_segmentSize;
    auto payloadRate = static_cast<uint64_t>(
        std::ceil(static_cast<double>(rate.GetBitRate()) * segment / (segment + overheadBytes)));
    tcb->m_pacing = true;
    tcb->m_paceInitialWindow = true;
    tcb->m_maxPacingRate = DataRate(payloadRate);
    tcb->m_pacingRate = DataRate(payloadRate);
}

} // namespace pfabric
} // namespace ns3
