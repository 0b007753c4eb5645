/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_LINE_RATE_TCP_SOCKET_H
#define PFABRIC_LINE_RATE_TCP_SOCKET_H

#include "ns3/pfabric-min-tcp-socket.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief LineRate, HotNets 2012's end host without rate control, on ns-3's TCP: MinTCP's
 * fixed timeout, probe mode and priorities (PfabricMinTcpSocket's attributes), with a fixed
 * window instead of a congestion window.
 *
 * The window (Window) never changes (PfabricLineRateCongestionOps) and has no cap; the sender is
 * always paced at the NIC's line rate, each segment of payload P leaving the socket every
 * (P + overhead) * 8 / rate seconds, the time the NIC needs to serialise it, so that a lone flow
 * keeps its NIC exactly busy; a timeout resends everything unacknowledged at the same fixed
 * timeout, the window kept.
 */
class PfabricLineRateTcpSocket : public PfabricMinTcpSocket
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricLineRateTcpSocket();

    /**
     * @brief Copy constructor, used by Fork.
     * @param sock the socket to copy
     */
    PfabricLineRateTcpSocket(const PfabricLineRateTcpSocket& sock);

    ~PfabricLineRateTcpSocket() override;

    /**
     * @param settings the factory's settings
     * @return Window, or a window larger than any flow (the receive buffer) for Window 0
     */
    uint32_t GetInitialWindow(const FactorySettings& settings) const override;
    /// @return PfabricLineRateCongestionOps: the window never moves
    Ptr<TcpCongestionOps> CreateCongestionOps() const override;
    /**
     * @brief LineRate sends its window at the line rate, whatever HostPacing says.
     * @param settings the factory's settings
     * @return true
     */
    bool IsPacedAtLineRate(const FactorySettings& settings) const override;
    /// @return false: the window is fixed from the first packet, no ssthresh shapes it
    bool HasSlowStart() const override;
    /// @return a PfabricLeanMinTcpSender making LineRate's decisions
    Ptr<PfabricLeanSender> CreateLeanSender(Ptr<PfabricHostTransport> transport,
                                            const FactorySettings& settings) const override;

  protected:
    /// Resend what is not acknowledged, keep the window.
    void LossTimeout() override;
    Ptr<TcpSocketBase> Fork() override;
    /// @return TcpSocketBase's window: LineRate's has no cap (MaxWindow does not apply)
    uint32_t Window() const override;

    /// @return MinTCP's, and MaxWindow: the fixed window has no cap
    std::vector<std::pair<std::string, std::string>> GetAttributesItsModeIgnores() const override;

  private:
    uint32_t m_window; //!< the fixed window, segments; 0: larger than any flow
};

} // namespace ns3

#endif /* PFABRIC_LINE_RATE_TCP_SOCKET_H */
