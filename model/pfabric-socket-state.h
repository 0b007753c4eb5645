/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_SOCKET_STATE_H
#define PFABRIC_SOCKET_STATE_H

#include "ns3/data-rate.h"
#include "ns3/ptr.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-socket-state.h"

#include <cstdint>

namespace ns3
{
/**
 * State changes shared by PfabricMinTcpSocket and PfabricBaselineTcpSocket, two separate
 * TcpSocketBase subclasses: host pacing and the restart of a reused connection.
 */
namespace pfabric
{

/**
 * @ingroup pfabric
 * @brief Let a socket's segments leave it no faster than its NIC serialises them.
 *
 * ns-3 paces by payload bytes: the rate is scaled so that a segment of SegmentSize bytes is
 * followed by a gap of exactly its wire time, (payload + overhead) * 8 / rate, rounded down.
 * With the rate fixed at the NIC's (KeepLineRatePacing), pacing never slows a sender below its
 * NIC: it only keeps one socket's window bursts out of its own NIC's queue.
 *
 * @param tcb the socket's state
 * @param rate the NIC's line rate, strictly positive
 * @param overheadBytes the bytes the network adds to a segment's payload (TCP, IP and link
 *        headers)
 */
void PaceAtLineRate(Ptr<TcpSocketState> tcb, DataRate rate, uint32_t overheadBytes);

/**
 * @brief Undo ns-3's cwnd/RTT pacing-rate update, which would pace a small window below line
 * rate; call before every transmission of a socket configured by PaceAtLineRate.
 * @param tcb the socket's state
 */
inline void
KeepLineRatePacing(TcpSocketState& tcb)
{
    if (tcb.m_pacing)
    {
        tcb.m_pacingRate = tcb.m_maxPacingRate;
    }
}

/**
 * @brief Give the next flow on an idle connection the congestion state of a fresh one: CA_OPEN,
 * the initial window and the initial ssthresh (what ns-3 sets when a handshake completes).
 *
 * ns-3 leaves a congestion state (e.g. DCTCP's CWR, which a flow often ends in) only when an ACK
 * passes its recovery point, and then sets the window to ssthresh, which this resets to its
 * initial value (no limit): the state is ended here instead.
 *
 * @param tcb the socket's state
 * @param congestion its congestion control, told of the return to CA_OPEN
 */
void RestartWindow(Ptr<TcpSocketState> tcb, Ptr<TcpCongestionOps> congestion);

} // namespace pfabric
} // namespace ns3

#endif /* PFABRIC_SOCKET_STATE_H */
