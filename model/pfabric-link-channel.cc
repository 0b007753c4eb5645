/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricLinkChannel: the wire between two PfabricLinkNetDevices, full duplex, a fixed delay.

#include "pfabric-link-channel.h"

#include "pfabric-link-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricLinkChannel");

NS_OBJECT_ENSURE_REGISTERED(PfabricLinkChannel);

TypeId
PfabricLinkChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfabricLinkChannel")
                            .SetParent<Channel>()
                            .SetGroupName("Pfabric")
                            .AddConstructor<PfabricLinkChannel>()
                            .AddAttribute("Delay",
                                          "Propagation delay: from a packet's last bit leaving "
                                          "one device to its arrival, whole, at the other.",
                                          TimeValue(Seconds(0)),
                                          MakeTimeAccessor(&PfabricLinkChannel::m_delay),
                                          MakeTimeChecker(Seconds(0)));
    return tid;
}

PfabricLinkChannel::PfabricLinkChannel()
    : m_nDevices(0)
{
}

void
PfabricLinkChannel::Attach(Ptr<PfabricLinkNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_nDevices == 2, "PfabricLinkChannel: a link joins two devices, not more");
    m_devices[m_nDevices++] = device;
}

void
PfabricLinkChannel::Transmit(Ptr<Packet> packet,
                             uint16_t protocol,
                             const PfabricLinkNetDevice* source,
                             Time txTime) const
{
    NS_LOG_FUNCTION(this << packet << protocol << source << txTime);
    PfabricLinkNetDevice* peer = PeekPointer(m_devices[m_devices[0] == source ? 1 : 0]);
    // The event runs in the receiving node's context, as a point-to-point channel's does.
    Simulator::ScheduleWithContext(peer->GetNodeId(),
                                   txTime + m_delay,
                                   &PfabricLinkNetDevice::Receive,
                                   peer,
                                   packet,
                                   protocol);
}

Ptr<PfabricLinkNetDevice>
PfabricLinkChannel::GetPeer(const PfabricLinkNetDevice* device) const
{
    if (m_nDevices < 2)
    {
        return nullptr;
    }
    return m_devices[m_devices[0] == device ? 1 : 0];
}

Time
PfabricLinkChannel::GetDelay() const
{
    return m_delay;
}

std::size_t
PfabricLinkChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
PfabricLinkChannel::GetDevice(std::size_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_nDevices, "PfabricLinkChannel: no device " << i);
    return m_devices[i];
}

void
PfabricLinkChannel::DoDispose()
{
    m_devices[0] = nullptr;
    m_devices[1] = nullptr;
    m_nDevices = 0;
    Channel::DoDispose();
}

} // namespace ns3
