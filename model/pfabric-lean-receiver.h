/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_LEAN_RECEIVER_H
#define PFABRIC_LEAN_RECEIVER_H

#include "ns3/ipv4-address.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <optional>

namespace ns3
{

class Packet;
class PfabricHostTransport;
class TcpHeader;
class TcpRxBuffer;

/**
 * @ingroup pfabric
 *
 * @brief The receiving end of one lean connection (PfabricHostTransport): acknowledges every
 * data segment at once, as the module's ns-3 sockets do (DelAckCount 1), with the cumulative
 * ACK and SACK blocks of ns-3's own receive buffer (TcpRxBuffer: the most recent block first, at
 * most four), so that ACKs carry what ns-3's would and have their sizes.
 *
 * ACKs carry priority 0 (PfabricPriorityTag) when the host's senders rank their segments, and
 * the traffic class (PfabricClassTag) of the last data segment that had one, as an accepted
 * PfabricTcpSocket does.
 */
class PfabricLeanReceiver
{
  public:
    /**
     * @param transport the host's transport, which outlives the receiver
     * @param peer the sending host
     * @param peerPort the sender's port
     * @param localPort the listening port
     * @param tagAcks whether ACKs carry priority 0
     */
    PfabricLeanReceiver(PfabricHostTransport* transport,
                        Ipv4Address peer,
                        uint16_t peerPort,
                        uint16_t localPort,
                        bool tagAcks);
    ~PfabricLeanReceiver();
    PfabricLeanReceiver(const PfabricLeanReceiver&) = delete;
    PfabricLeanReceiver& operator=(const PfabricLeanReceiver&) = delete;

    /**
     * @brief Take a data segment and acknowledge it.
     * @param payload the segment's payload, its TCP header removed
     * @param header its TCP header
     * @return the bytes it delivered in order (0 for out-of-order or duplicate data)
     */
    uint32_t Receive(Ptr<Packet> payload, const TcpHeader& header);

  private:
    PfabricHostTransport* m_transport;     //!< sends the ACKs
    Ipv4Address m_peer;                    //!< the sending host
    uint16_t m_peerPort;                   //!< the sender's port
    uint16_t m_localPort;                  //!< the listening port
    bool m_tagAcks;                        //!< ACKs carry priority 0
    Ptr<TcpRxBuffer> m_rxBuffer;           //!< in-order point and SACK blocks
    std::optional<uint8_t> m_trafficClass; //!< the class of the ACKs, if any
};

} // namespace ns3

#endif /* PFABRIC_LEAN_RECEIVER_H */
