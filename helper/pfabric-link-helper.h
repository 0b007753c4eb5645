/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_LINK_HELPER_H
#define PFABRIC_LINK_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/trace-helper.h"

#include <string>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief Builds PfabricLinkNetDevice links between pairs of nodes, as PointToPointHelper does
 * point-to-point links; raw-IP pcap tracing of their devices.
 */
class PfabricLinkHelper : public PcapHelperForDevice
{
  public:
    PfabricLinkHelper();

    /**
     * @brief Set an attribute of the devices, e.g. "DataRate".
     * @param name the attribute name
     * @param value its value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);

    /**
     * @brief Set an attribute of the channels, e.g. "Delay".
     * @param name the attribute name
     * @param value its value
     */
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);

    /**
     * @brief Join two nodes by a new link.
     * @param a a node
     * @param b another node
     * @return the device on a, then the device on b
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b) const;

  private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;

    ObjectFactory m_deviceFactory;  //!< creates the devices
    ObjectFactory m_channelFactory; //!< creates the channels
};

} // namespace ns3

#endif /* PFABRIC_LINK_HELPER_H */
