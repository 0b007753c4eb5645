/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_FAT_TREE_HELPER_H
#define PFABRIC_FAT_TREE_HELPER_H

#include "ns3/pfabric-fabric-helper.h"

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief A k-ary three-layer fat-tree (Al-Fares et al., SIGCOMM 2008).
 *
 * k pods, each with k/2 edge (rack) and k/2 aggregation switches; every edge switch serves k/2
 * hosts and connects to every aggregation switch of its pod; aggregation switch a of every pod
 * connects to core switches a(k/2) .. a(k/2) + k/2 - 1. So k^3/4 hosts, k^2/2 edge, k^2/2
 * aggregation and k^2/4 core switches, 3k^3/4 links, full bisection bandwidth. Paths are 2 links
 * inside a rack, 4 inside a pod and 6 between pods.
 *
 * Defaults: k = 6 (54 hosts, 45 switches) with 10 Gb/s links of 1 us, the HotNets 2012 setup.
 */
class PfabricFatTreeHelper : public PfabricFabricHelper
{
  public:
    /// The hotnets12 preset's fat-tree (k = 6).
    PfabricFatTreeHelper();

    /// @param k the switch port count: even, at least 2
    explicit PfabricFatTreeHelper(uint32_t k);

    /// @return k
    uint32_t GetK() const;

  private:
    std::string GetShapeError() const override;
    void DoBuild() override;
    uint32_t DoGetHopCount(uint32_t from, uint32_t to) const override;

    uint32_t m_k; //!< ports per switch
};

} // namespace ns3

#endif /* PFABRIC_FAT_TREE_HELPER_H */
