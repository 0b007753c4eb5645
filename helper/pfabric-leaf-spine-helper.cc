/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricLeafSpineHelper: a two-layer leaf-spine fabric.

#include "pfabric-leaf-spine-helper.h"

#include "ns3/abort.h"
#include "ns3/pfabric-preset.h"
#include "ns3/pfabric-switch.h"

#include <vector>

namespace ns3
{

PfabricLeafSpineHelper::PfabricLeafSpineHelper()
    : PfabricLeafSpineHelper(PfabricPreset::Get("sigcomm13").leaves,
                             PfabricPreset::Get("sigcomm13").hostsPerLeaf,
                             PfabricPreset::Get("sigcomm13").spines)
{
}

PfabricLeafSpineHelper::PfabricLeafSpineHelper(uint32_t leaves,
                                               uint32_t hostsPerLeaf,
                                               uint32_t spines)
    : m_leaves(leaves),
      m_hostsPerLeaf(hostsPerLeaf),
      m_spines(spines)
{
    SetPreset("sigcomm13");
}

std::string
PfabricLeafSpineHelper::GetShapeError() const
{
    if (m_leaves == 0 || m_leaves > 256)
    {
        return "PfabricLeafSpineHelper: leaves must be 1 to 256, got " + std::to_string(m_leaves);
    }
    if (m_hostsPerLeaf == 0 || m_hostsPerLeaf > 254)
    {
        return "PfabricLeafSpineHelper: hostsPerLeaf must be 1 to 254, got " +
               std::to_string(m_hostsPerLeaf);
    }
    if (m_spines == 0 || m_hostsPerLeaf % m_spines != 0)
    {
        return "PfabricLeafSpineHelper: spines must divide hostsPerLeaf (" +
               std::to_string(m_hostsPerLeaf) + "), got spines = " + std::to_string(m_spines);
    }
    return "";
}

void
PfabricLeafSpineHelper::DoBuild()
{
    std::vector<Ptr<Node>> hosts;
    for (uint32_t leaf = 0; leaf < m_leaves; ++leaf)
    {
        for (uint32_t host = 0; host < m_hostsPerLeaf; ++host)
        {
            hosts.push_back(AddHost(0, leaf, host));
        }
    }
    std::vector<Ptr<Node>> leaves;
    std::vector<Ptr<Node>> spines;
    for (uint32_t i = 0; i < m_leaves; ++i)
    {
        leaves.push_back(AddSwitch());
    }
    for (uint32_t i = 0; i < m_spines; ++i)
    {
        spines.push_back(AddSwitch());
    }
    std::vector<std::vector<uint32_t>> leafDown(m_leaves), leafUp(m_leaves);
    std::vector<std::vector<uint32_t>> spineDown(m_spines);
    for (uint32_t leaf = 0; leaf < m_leaves; ++leaf)
    {
        for (uint32_t host = 0; host < m_hostsPerLeaf; ++host)
        {
            leafDown[leaf].push_back(
                Connect(hosts[leaf * m_hostsPerLeaf + host], leaves[leaf]).second);
        }
        for (uint32_t spine = 0; spine < m_spines; ++spine)
        {
            auto [up, down] = Connect(leaves[leaf], spines[spine]);
            leafUp[leaf].push_back(up);
            spineDown[spine].push_back(down);
        }
    }
    for (uint32_t leaf = 0; leaf < m_leaves; ++leaf)
    {
        SwitchOf(leaves[leaf])->SetRackSwitch(0, leaf, leafDown[leaf], leafUp[leaf]);
    }
    for (uint32_t spine = 0; spine < m_spines; ++spine)
    {
        SwitchOf(spines[spine])->SetPodSwitch(0, spineDown[spine], {});
    }
}

uint32_t
PfabricLeafSpineHelper::DoGetHopCount(uint32_t from, uint32_t to) const
{
    return GetRack(from) == GetRack(to) ? 2 : 4;
}

} // namespace ns3
