/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The transport ports of an IPv4 packet, the part of its 5-tuple not in the IP header.

#include "pfabric-transport-ports.h"

namespace ns3
{
namespace pfabric
{

uint32_t
TransportPorts(Ptr<const Packet> packet, const Ipv4Header& header)
{
    constexpr uint8_t TCP = 6;
    constexpr uint8_t UDP = 17;
    if ((header.GetProtocol() != TCP && header.GetProtocol() != UDP) ||
        header.GetFragmentOffset() != 0 || packet->GetSize() < 4)
    {
        return 0;
    }
    // TCP and UDP both start with the 16-bit source and destination ports.
    uint8_t bytes[4];
    packet->CopyData(bytes, 4);
    return (uint32_t{bytes[0]} << 24) | (uint32_t{bytes[1]} << 16) | (uint32_t{bytes[2]} << 8) |
           bytes[3];
}

} // namespace pfabric
} // namespace ns3
