/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricFatTreeHelper: a k-ary three-layer fat-tree.

#include "pfabric-fat-tree-helper.h"

#include "ns3/abort.h"
#include "ns3/pfabric-preset.h"
#include "ns3/pfabric-switch.h"

#include <vector>

namespace ns3
{

PfabricFatTreeHelper::PfabricFatTreeHelper()
    : PfabricFatTreeHelper(PfabricPreset::Get("hotnets12").fatTreeK)
{
}

PfabricFatTreeHelper::PfabricFatTreeHelper(uint32_t k)
    : m_k(k)
{
}

uint32_t
PfabricFatTreeHelper::GetK() const
{
    return m_k;
}

std::string
PfabricFatTreeHelper::GetShapeError() const
{
    if (m_k < 2 || m_k % 2 != 0)
    {
        return "PfabricFatTreeHelper: k must be even and at least 2, got k = " +
               std::to_string(m_k);
    }
    if (m_k > 254)
    {
        return "PfabricFatTreeHelper: k must be at most 254, got k = " + std::to_string(m_k);
    }
    return "";
}

void
PfabricFatTreeHelper::DoBuild()
{
    const uint32_t half = m_k / 2;
    std::vector<Ptr<Node>> hosts;
    for (uint32_t pod = 0; pod < m_k; ++pod)
    {
        for (uint32_t edge = 0; edge < half; ++edge)
        {
            for (uint32_t host = 0; host < half; ++host)
            {
                hosts.push_back(AddHost(pod, edge, host));
            }
        }
    }
    std::vector<Ptr<Node>> edges;
    std::vector<Ptr<Node>> aggregations;
    std::vector<Ptr<Node>> cores;
    for (uint32_t i = 0; i < m_k * half; ++i)
    {
        edges.push_back(AddSwitch());
    }
    for (uint32_t i = 0; i < m_k * half; ++i)
    {
        aggregations.push_back(AddSwitch());
    }
    for (uint32_t i = 0; i < half * half; ++i)
    {
        cores.push_back(AddSwitch());
    }

    // Interfaces of each switch, by the index the routing uses.
    std::vector<std::vector<uint32_t>> edgeDown(edges.size()), edgeUp(edges.size());
    std::vector<std::vector<uint32_t>> aggDown(aggregations.size()), aggUp(aggregations.size());
    std::vector<std::vector<uint32_t>> coreDown(cores.size(), std::vector<uint32_t>(m_k));
    for (uint32_t e = 0; e < edges.size(); ++e)
    {
        for (uint32_t host = 0; host < half; ++host)
        {
            edgeDown[e].push_back(Connect(hosts[e * half + host], edges[e]).second);
        }
    }
    for (uint32_t pod = 0; pod < m_k; ++pod)
    {
        for (uint32_t edge = 0; edge < half; ++edge)
        {
            for (uint32_t agg = 0; agg < half; ++agg)
            {
                auto [up, down] = Connect(edges[pod * half + edge], aggregations[pod * half + agg]);
                edgeUp[pod * half + edge].push_back(up);
                aggDown[pod * half + agg].push_back(down);
            }
        }
        for (uint32_t agg = 0; agg < half; ++agg)
        {
            for (uint32_t j = 0; j < half; ++j)
            {
                uint32_t core = agg * half + j;
                auto [up, down] = Connect(aggregations[pod * half + agg], cores[core]);
                aggUp[pod * half + agg].push_back(up);
                coreDown[core][pod] = down;
            }
        }
    }
    for (uint32_t i = 0; i < edges.size(); ++i)
    {
        SwitchOf(edges[i])->SetRackSwitch(i / half, i % half, edgeDown[i], edgeUp[i]);
        SwitchOf(aggregations[i])->SetPodSwitch(i / half, aggDown[i], aggUp[i]);
    }
    for (uint32_t i = 0; i < cores.size(); ++i)
    {
        SwitchOf(cores[i])->SetTopSwitch(coreDown[i]);
    }
}

uint32_t
PfabricFatTreeHelper::DoGetHopCount(uint32_t from, uint32_t to) const
{
    if (GetPod(from) != GetPod(to))
    {
        return 6;
    }
    return GetRack(from) == GetRack(to) ? 2 : 4;
}

} // namespace ns3
