/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricQueueDiscPort: a device and its queue disc, driven as TrafficControlLayer::Send would.

#include "pfabric-queue-disc-port.h"

#include "ns3/abort.h"
#include "ns3/packet.h"
#include "ns3/socket.h"

namespace ns3
{

PfabricQueueDiscPort::PfabricQueueDiscPort(Ptr<TrafficControlLayer> tc, Ptr<NetDevice> device)
    : m_tc(tc),
      m_device(device),
      m_broadcast(device->GetBroadcast())
{
}

Ptr<NetDevice>
PfabricQueueDiscPort::GetDevice() const
{
    return m_device;
}

const Address&
PfabricQueueDiscPort::GetBroadcast() const
{
    return m_broadcast;
}

void
PfabricQueueDiscPort::Resolve()
{
    NS_ABORT_MSG_UNLESS(m_tc && m_device, "PfabricQueueDiscPort: not connected to a device");
    m_resolved = true;
    Ptr<QueueDisc> root = m_tc->GetRootQueueDiscOnDevice(m_device);
    Ptr<NetDeviceQueueInterface> queues = m_device->GetObject<NetDeviceQueueInterface>();
    // With several transmission queues the layer picks the queue and its child queue disc.
    if (root && queues && queues->GetNTxQueues() == 1)
    {
        m_queueDisc = root;
        m_txQueue = queues->GetTxQueue(0);
    }
}

void
PfabricQueueDiscPort::Send(Ptr<QueueDiscItem> item)
{
    if (!m_resolved)
    {
        Resolve();
    }
    if (!m_queueDisc)
    {
        m_tc->Send(m_device, item);
        return;
    }
    // TrafficControlLayer::Send for a device of one transmission queue: the item keeps
    // transmission queue 0, and the queue disc the layer would run is the root.
    m_queueDisc->Enqueue(item);
    Transmit();
}

void
PfabricQueueDiscPort::Transmit()
{
    // QueueDisc::Run with its quota. Transmit's check of the queue just before the send is left
    // out: nothing between it and DequeuePacket's check can stop the queue. A queue disc driven
    // here never holds a requeued packet (only that check requeues), so the wake's
    // QueueDisc::Run and this find the same state.
    uint32_t quota = m_queueDisc->GetQuota();
    while (!m_txQueue->IsStopped())
    {
        Ptr<QueueDiscItem> item = m_queueDisc->Dequeue();
        if (!item)
        {
            return;
        }
        item->AddHeader();
        // A device of one transmission queue makes no use of the priority tag.
        SocketPriorityTag priorityTag;
        item->GetPacket()->RemovePacketTag(priorityTag);
        m_device->Send(item->GetPacket(), item->GetAddress(), item->GetProtocol());
        if (m_queueDisc->GetNPackets() == 0 || m_txQueue->IsStopped() || --quota == 0)
        {
            return;
        }
    }
}

} // namespace ns3
