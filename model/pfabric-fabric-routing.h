/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_FABRIC_ROUTING_H
#define PFABRIC_FABRIC_ROUTING_H

#include "pfabric-compat.h"

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-route.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Ipv4;

class PfabricSwitch;

/**
 * @ingroup pfabric
 *
 * @brief Routing of the IP nodes of a datacenter fabric whose addresses encode the host's
 * position: hosts, and switches in IP mode.
 *
 * Every host has the address 10.<pod>.<rack>.<host + 1> (HostAddress). A host sends everything
 * through its one interface and delivers what is addressed to it. A switch with ns-3's internet
 * stack (the IP switch mode of the fabric helpers) forwards through the port that its
 * PfabricSwitch, aggregated to the same node, selects: the lean and the IP switch make the same
 * choices. The fabric helpers configure every node; this protocol knows nothing of topologies.
 */
class PfabricFabricRouting : public pfabric::Ipv4RoutingProtocolCompat
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricFabricRouting();
    ~PfabricFabricRouting() override;

    /**
     * @param pod the host's pod (0 to 255)
     * @param rack the host's rack in its pod (0 to 255)
     * @param host the host's index in its rack (0 to 253)
     * @return the host's address, 10.pod.rack.(host + 1)
     */
    static Ipv4Address HostAddress(uint32_t pod, uint32_t rack, uint32_t host);

    /**
     * @brief Make this node a host.
     * @param address its address (HostAddress)
     * @param interface its interface into the fabric
     */
    void SetHost(Ipv4Address address, uint32_t interface);

    /// @return whether this node is a host (SetHost)
    bool IsHost() const;

    Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p,
                               const Ipv4Header& header,
                               Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr) override;
    void NotifyInterfaceUp(uint32_t interface) override;
    void NotifyInterfaceDown(uint32_t interface) override;
    void NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void SetIpv4(Ptr<Ipv4> ipv4) override;
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit unit) const override;

  protected:
    bool DoRouteInput(Ptr<const Packet> p,
                      const Ipv4Header& header,
                      Ptr<const NetDevice> idev,
                      const UnicastForwardCallback& ucb,
                      const MulticastForwardCallback& mcb,
                      const LocalDeliverCallback& lcb,
                      const ErrorCallback& ecb) override;
    void DoDispose() override;

  private:
    /**
     * @param port a device index of this node
     * @return a route out of that device, made once
     */
    Ptr<Ipv4Route> RouteVia(uint32_t port);

    Ptr<Ipv4> m_ipv4;                     //!< this node's IPv4 stack
    bool m_isHost;                        //!< SetHost was called
    uint32_t m_hostPort;                  //!< a host's device into the fabric
    Ipv4Address m_address;                //!< a host's address
    Ptr<PfabricSwitch> m_switch;          //!< a switch's port choice, found on first use
    std::vector<Ptr<Ipv4Route>> m_routes; //!< one route per port, made on first use
};

} // namespace ns3

#endif /* PFABRIC_FABRIC_ROUTING_H */
