/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_LINE_RATE_CONGESTION_OPS_H
#define PFABRIC_LINE_RATE_CONGESTION_OPS_H

#include "ns3/tcp-congestion-ops.h"

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief No congestion control: the window stays where it started, whatever happens.
 *
 * The congestion control of a LineRate sender (PfabricLineRateTcpSocket), which starts
 * with a window larger than any flow and is paced at the NIC's line rate instead.
 */
class PfabricLineRateCongestionOps : public TcpCongestionOps
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricLineRateCongestionOps();

    std::string GetName() const override;

    /**
     * @brief The window never grows: it already exceeds any flow.
     * @param tcb the socket state
     * @param segmentsAcked the segments acknowledged
     */
    void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked) override;

    /**
     * @brief The threshold never falls.
     * @param tcb the socket state
     * @param bytesInFlight the bytes in flight
     * @return the current slow-start threshold
     */
    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override;

    Ptr<TcpCongestionOps> Fork() override;
};

} // namespace ns3

#endif /* PFABRIC_LINE_RATE_CONGESTION_OPS_H */
