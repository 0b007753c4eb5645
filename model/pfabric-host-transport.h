/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_HOST_TRANSPORT_H
#define PFABRIC_HOST_TRANSPORT_H

#include "pfabric-lean-receiver.h"
#include "pfabric-queue-disc-port.h"

#include "ns3/callback.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace ns3
{

class NetDevice;
class Packet;
class PfabricLeanSender;
class TcpHeader;
class TrafficControlLayer;

/**
 * @ingroup pfabric
 *
 * @brief The lean host: a fabric host's transport without ns-3's IP stack, for its senders
 * (PfabricLeanSender: MinTCP, LineRate and the baselines) and their receivers
 * (PfabricLeanReceiver).
 *
 * Aggregated to a host node that has a TrafficControlLayer and no Ipv4 (the fabric helpers'
 * lean host stack). Segments go to the host's one fabric port with a TCP header and beside an
 * IPv4 header in an Ipv4QueueDiscItem, through traffic control, so the port's queue disc
 * schedules, drops and traces them as it does on an IP host, and the wire carries the bytes
 * ns-3's TCP/IP would: the same headers, the same sizes, the same tags. Arriving segments come
 * straight from the device: data for the listening port goes to the receiver of its
 * connection (created by the first segment, as an accepted socket would be), anything else to
 * the sender that owns its destination port.
 */
class PfabricHostTransport : public Object
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    PfabricHostTransport();
    ~PfabricHostTransport() override;

    /**
     * @brief Bind the transport to the host's address and its fabric port; call once, after
     * the port exists.
     * @param address the host's address
     * @param device its fabric port
     */
    void Setup(Ipv4Address address, Ptr<NetDevice> device);
    /// @return the host's address
    Ipv4Address GetAddress() const;
    /// @return the host's fabric port, nullptr before Setup
    Ptr<NetDevice> GetDevice() const;

    /**
     * @brief Accept connections on a port: every byte delivered in order to a receiver is
     * reported to the callback.
     * @param port the listening port
     * @param received called with the bytes each segment delivers in order
     */
    void Listen(uint16_t port, Callback<void, uint32_t> received);
    /**
     * @brief What this host's receivers are (the receiving socket of its scheme); set before
     * the first segment arrives.
     * @param settings their settings
     */
    void SetReceiverSettings(const PfabricLeanReceiver::Settings& settings);

    /// ns-3's first ephemeral port (Ipv4EndPointDemux): senders' ports start here, as ns-3's do.
    static constexpr uint16_t FIRST_EPHEMERAL_PORT = 49152;
    /// How many connections a host can open: ns-3's ephemeral range, 49152 to 65535. The lean
    /// host never frees a port, and ns-3's TCP/IP frees one only 2 MSL (240 s by default) after
    /// its connection closed, so in a run of either a host opens at most this many.
    static constexpr uint32_t EPHEMERAL_PORTS = 65536 - FIRST_EPHEMERAL_PORT;

    /**
     * @brief Give a sender its own port: the ACKs to that port reach it. Aborts, naming the
     * host, when it has opened EPHEMERAL_PORTS connections.
     * @param sender the sender
     * @return its port
     */
    uint16_t Register(Ptr<PfabricLeanSender> sender);

    /**
     * @brief Send a segment: add its TCP header, and hand it with an IPv4 header to the port's
     * queue disc.
     * @param segment the payload (tags already set)
     * @param header its TCP header
     * @param destination the receiving host
     * @param ecn the ECN field of its IPv4 header
     */
    void Send(Ptr<Packet> segment,
              const TcpHeader& header,
              Ipv4Address destination,
              Ipv4Header::EcnType ecn);

  protected:
    void DoDispose() override;

  private:
    /**
     * @brief The port's receive callback.
     * @param device the port
     * @param packet the IPv4 packet
     * @param protocol its protocol number
     * @param from the sending device
     * @return whether the packet was taken
     */
    bool Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from);

    Ipv4Address m_address;                            //!< the host's address
    PfabricQueueDiscPort m_port;                      //!< the fabric port and its queue disc
    uint16_t m_listenPort;                            //!< 0 until Listen
    Callback<void, uint32_t> m_received;              //!< bytes delivered in order
    std::vector<Ptr<PfabricLeanSender>> m_senders;    //!< by port less the first port
    uint16_t m_identification;                        //!< the next IPv4 identification
    PfabricLeanReceiver::Settings m_receiverSettings; //!< what its receivers are
    /// Receivers by the sender's address and port.
    std::unordered_map<uint64_t, std::unique_ptr<PfabricLeanReceiver>> m_receivers;
    TracedCallback<Ptr<const Packet>> m_dropTrace; //!< segments no connection takes
};

} // namespace ns3

#endif /* PFABRIC_HOST_TRANSPORT_H */
