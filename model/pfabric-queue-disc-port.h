/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_QUEUE_DISC_PORT_H
#define PFABRIC_QUEUE_DISC_PORT_H

#include "ns3/address.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/net-device.h"
#include "ns3/ptr.h"
#include "ns3/queue-disc.h"
#include "ns3/traffic-control-layer.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief A device of a node without an IP stack (a lean switch's port, a lean host's NIC) and
 * the queue disc above it, which it drives through the QueueDisc interface as
 * TrafficControlLayer::Send would, without the layer's per-packet lookups.
 *
 * Send enqueues an item in the device's root queue disc, then dequeues and sends as
 * QueueDisc::Run does (Restart, DequeuePacket, Transmit and the send callback the layer gives
 * the queue disc), asking the device's transmission queue whether it is stopped at the same
 * points: a device's answer may schedule its wake at the end of a transmission
 * (PfabricLinkTxQueue), so the same questions give the same events and the same results. The
 * wake itself still runs QueueDisc::Run, set up by the layer. A device of several transmission
 * queues (whose root, such as MqQueueDisc, hands packets to child queue discs), or one without a
 * queue disc, goes through TrafficControlLayer::Send itself.
 */
class PfabricQueueDiscPort
{
  public:
    /// An unconnected port (Send aborts).
    PfabricQueueDiscPort() = default;

    /**
     * @param tc the node's traffic control layer
     * @param device the port's device
     */
    PfabricQueueDiscPort(Ptr<TrafficControlLayer> tc, Ptr<NetDevice> device);

    /// @return the port's device
    Ptr<NetDevice> GetDevice() const;

    /// @return its broadcast address, a queue disc item's destination on a point-to-point wire
    const Address& GetBroadcast() const;

    /**
     * @brief Send a packet through the port's queue disc, as TrafficControlLayer::Send would.
     * The queue disc is looked up at the first packet: queue discs are installed after the
     * devices, before the simulation starts.
     * @param item the packet and its IPv4 header
     */
    void Send(Ptr<QueueDiscItem> item);

  private:
    /// @brief Look up the root queue disc and the transmission queue it drives.
    void Resolve();

    /// @brief QueueDisc::Run's dequeue and send while the device takes packets.
    void Transmit();

    Ptr<TrafficControlLayer> m_tc; //!< the node's traffic control layer
    Ptr<NetDevice> m_device;       //!< the port's device
    Address m_broadcast;           //!< the device's broadcast address
    bool m_resolved = false;       //!< whether m_queueDisc and m_txQueue have been looked up
    Ptr<QueueDisc> m_queueDisc;    //!< the root queue disc it drives, or null: through m_tc
    Ptr<NetDeviceQueue> m_txQueue; //!< the device's one transmission queue, with m_queueDisc
};

} // namespace ns3

#endif /* PFABRIC_QUEUE_DISC_PORT_H */
