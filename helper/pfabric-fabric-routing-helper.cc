/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricFabricRoutingHelper: a PfabricFabricRouting on every node, for InternetStackHelper.

#include "pfabric-fabric-routing-helper.h"

#include "ns3/pfabric-fabric-routing.h"

namespace ns3
{

PfabricFabricRoutingHelper::PfabricFabricRoutingHelper()
{
    m_factory.SetTypeId(PfabricFabricRouting::GetTypeId());
}

void
PfabricFabricRoutingHelper::Set(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

PfabricFabricRoutingHelper*
PfabricFabricRoutingHelper::Copy() const
{
    return new PfabricFabricRoutingHelper(*this);
}

Ptr<Ipv4RoutingProtocol>
PfabricFabricRoutingHelper::Create(Ptr<Node> /* node */) const
{
    return m_factory.Create<PfabricFabricRouting>();
}

} // namespace ns3
