/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_LINK_CHANNEL_H
#define PFABRIC_LINK_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class Packet;
class PfabricLinkNetDevice;

/**
 * @ingroup pfabric
 *
 * @brief The wire between two PfabricLinkNetDevice: full duplex, a fixed propagation delay.
 *
 * A packet whose transmission starts at t and lasts s arrives whole at the other device at
 * t + s + Delay: one event per packet.
 */
class PfabricLinkChannel : public Channel
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricLinkChannel();

    /**
     * @brief Attach a device (called by PfabricLinkNetDevice::Attach).
     * @param device the first or second device
     */
    void Attach(Ptr<PfabricLinkNetDevice> device);

    /**
     * @brief Carry a packet to the other device.
     * @param packet the packet, no longer used by the sender
     * @param protocol its protocol number
     * @param source the sending device
     * @param txTime its serialisation time
     */
    void Transmit(Ptr<Packet> packet,
                  uint16_t protocol,
                  const PfabricLinkNetDevice* source,
                  Time txTime) const;

    /**
     * @param device one of the channel's devices
     * @return the other one, or null if it is not attached yet
     */
    Ptr<PfabricLinkNetDevice> GetPeer(const PfabricLinkNetDevice* device) const;

    /// @return the propagation delay
    Time GetDelay() const;

    // Channel
    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

  private:
    Time m_delay;                           //!< propagation delay
    Ptr<PfabricLinkNetDevice> m_devices[2]; //!< the two ends
    std::size_t m_nDevices;                 //!< devices attached
};

} // namespace ns3

#endif /* PFABRIC_LINK_CHANNEL_H */
