/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_FABRIC_ROUTING_HELPER_H
#define PFABRIC_FABRIC_ROUTING_HELPER_H

#include "ns3/ipv4-routing-helper.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

/**
 * @ingroup pfabric
 * @brief Gives InternetStackHelper a PfabricFabricRouting for every node.
 */
class PfabricFabricRoutingHelper : public Ipv4RoutingHelper
{
  public:
    PfabricFabricRoutingHelper();

    /**
     * @brief Set an attribute of the routing protocols created, e.g. "LoadBalancing".
     * @param name the attribute name
     * @param value its value
     */
    void Set(const std::string& name, const AttributeValue& value);

    PfabricFabricRoutingHelper* Copy() const override;
    Ptr<Ipv4RoutingProtocol> Create(Ptr<Node> node) const override;

  private:
    ObjectFactory m_factory; //!< creates the routing protocols
};

} // namespace ns3

#endif /* PFABRIC_FABRIC_ROUTING_HELPER_H */
