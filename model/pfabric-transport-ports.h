/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_TRANSPORT_PORTS_H
#define PFABRIC_TRANSPORT_PORTS_H

#include "ns3/ipv4-header.h"
#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{
namespace pfabric
{

/**
 * @ingroup pfabric
 * @brief The transport ports of an IPv4 packet, the part of its 5-tuple not in the IP header.
 *
 * The one place where the switch (flow identity) and the routing (ECMP, flowcells) read ports.
 *
 * @param packet the packet after its IPv4 header, i.e. starting with the transport header
 * @param header its IPv4 header
 * @return source port (high 16 bits) and destination port (low 16 bits) of a TCP or UDP packet;
 *         0 for other protocols and for fragments after the first, which carry no ports
 */
uint32_t TransportPorts(Ptr<const Packet> packet, const Ipv4Header& header);

} // namespace pfabric
} // namespace ns3

#endif /* PFABRIC_TRANSPORT_PORTS_H */
