/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_DCTCP_H
#define PFABRIC_DCTCP_H

#include "ns3/tcp-dctcp.h"

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief ns-3's DCTCP with a floor under its window cut: the DCTCP baseline's congestion control.
 *
 * TcpDctcp cuts the window to (1 - alpha / 2) of itself at each congestion signal with no floor,
 * so a window of one or two segments under marks falls below one segment. ns-3's sender then
 * sends nothing with nothing in flight (it waits for a full segment's window, which only an ACK
 * can open) until its retransmission timer fires: a timeout without a loss, after which the
 * next marked ACK cuts the window under a segment again. The original pFabric ns-2 code keeps
 * at least one packet after a DCTCP cut (and a slow-start threshold of two), Linux's DCTCP two
 * segments. MinWindow is that floor, one segment by default; 0 gives TcpDctcp's own cut.
 */
class PfabricDctcp : public TcpDctcp
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricDctcp();

    /**
     * @brief Copy constructor.
     * @param other the object to copy
     */
    PfabricDctcp(const PfabricDctcp& other);

    std::string GetName() const override;

    /**
     * @brief TcpDctcp's cut, but never below MinWindow segments.
     * @param tcb the socket state
     * @param bytesInFlight the bytes in flight
     * @return the slow-start threshold (and the window after a cut), in bytes
     */
    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override;

    Ptr<TcpCongestionOps> Fork() override;

  private:
    uint32_t m_minWindow; //!< the cut's floor, segments; 0: none
};

} // namespace ns3

#endif /* PFABRIC_DCTCP_H */
