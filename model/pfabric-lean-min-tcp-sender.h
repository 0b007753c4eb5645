/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_LEAN_MIN_TCP_SENDER_H
#define PFABRIC_LEAN_MIN_TCP_SENDER_H

#include "pfabric-lean-sender.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief MinTCP and LineRate on the lean host: the sender of PfabricMinTcpSocket without ns-3's
 * TCP/IP stack, making the same decisions.
 *
 * What PfabricMinTcpSocket changes in TcpSocketBase, on PfabricLeanSender: a fixed
 * retransmission timeout without back-off, slow start from one segment after a timeout (MinTCP)
 * or a resend of everything unacknowledged with the window kept (LineRate), one-byte probes
 * after ProbeAfterTimeouts consecutive timeouts, and a window cap. The window's arithmetic is
 * TcpNewReno's (MinTCP) or PfabricLineRateCongestionOps' (LineRate), given to Configure.
 */
class PfabricLeanMinTcpSender : public PfabricLeanSender
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    PfabricLeanMinTcpSender();
    ~PfabricLeanMinTcpSender() override;

    /**
     * @brief What PfabricMinTcpSocket's setters set, after Configure.
     * @param rto the fixed retransmission timeout
     * @param maxWindow the window cap, segments; 0: none
     * @param probeAfterTimeouts consecutive timeouts before probing; 0: never
     * @param lineRate LineRate (true) or MinTCP
     */
    void SetMinTcp(Time rto, uint32_t maxWindow, uint32_t probeAfterTimeouts, bool lineRate);

  protected:
    void AckAdvanced(bool resetRto) override;
    void DataTimeout() override;
    void RestartForFlow() override;
    uint32_t Window() const override;
    uint32_t AvailableWindow() const override;

  private:
    /// LineRate's timeout: resend what is not acknowledged, keep the window.
    void LineRateTimeout();
    /// Probe mode's timeout: one byte at the head of the unacknowledged data.
    void SendProbe();

    uint32_t m_maxWindow;           //!< window cap, segments; 0: none
    uint32_t m_probeAfterTimeouts;  //!< consecutive timeouts before probing; 0: never
    bool m_lineRate;                //!< LineRate sender
    uint32_t m_consecutiveTimeouts; //!< timeouts since an ACK last advanced
};

} // namespace ns3

#endif /* PFABRIC_LEAN_MIN_TCP_SENDER_H */
