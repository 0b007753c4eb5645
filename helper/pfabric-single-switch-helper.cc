/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricSingleSwitchHelper: N hosts on one switch.

#include "pfabric-single-switch-helper.h"

#include "ns3/abort.h"
#include "ns3/pfabric-switch.h"

#include <vector>

namespace ns3
{

PfabricSingleSwitchHelper::PfabricSingleSwitchHelper(uint32_t hosts)
    : m_nHosts(hosts)
{
}

std::string
PfabricSingleSwitchHelper::GetShapeError() const
{
    if (m_nHosts < 2 || m_nHosts > 254)
    {
        return "PfabricSingleSwitchHelper: hosts must be 2 to 254, got " + std::to_string(m_nHosts);
    }
    return "";
}

void
PfabricSingleSwitchHelper::DoBuild()
{
    std::vector<Ptr<Node>> hosts;
    for (uint32_t host = 0; host < m_nHosts; ++host)
    {
        hosts.push_back(AddHost(0, 0, host));
    }
    Ptr<Node> sw = AddSwitch();
    std::vector<uint32_t> down;
    for (const auto& host : hosts)
    {
        down.push_back(Connect(host, sw).second);
    }
    SwitchOf(sw)->SetRackSwitch(0, 0, down, {});
}

uint32_t
PfabricSingleSwitchHelper::DoGetHopCount(uint32_t /* from */, uint32_t /* to */) const
{
    return 2;
}

} // namespace ns3
