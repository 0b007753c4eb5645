/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfabric-socket-state.h"

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

void
RestartWindow(Ptr<TcpSocketState> tcb, Ptr<TcpCongestionOps> congestion)
{
    if (tcb->m_congState != TcpSocketState::CA_OPEN)
    {
        congestion->CongestionStateSet(tcb, TcpSocketState::CA_OPEN);
        tcb->m_congState = TcpSocketState::CA_OPEN;
    }
    tcb->m_cWnd = tcb->m_initialCWnd * tcb->m_segmentSize;
    tcb->m_cWndInfl = tcb->m_cWnd;
    tcb->m_ssThresh = tcb->m_initialSsThresh;
}

} // namespace pfabric
} // namespace ns3
