/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_LEAF_SPINE_HELPER_H
#define PFABRIC_LEAF_SPINE_HELPER_H

#include "ns3/pfabric-fabric-helper.h"

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief A two-layer leaf-spine fabric: every leaf (rack) switch connects to every spine.
 *
 * leaves x hostsPerLeaf hosts; paths are 2 links inside a rack and 4 between racks. The number
 * of spines must divide hostsPerLeaf, so that each leaf's hosts spread evenly over its uplinks.
 *
 * Defaults: 9 leaves x 16 hosts = 144 hosts, 4 spines, 10 Gb/s host links and 40 Gb/s fabric
 * links (not oversubscribed), 0.2 us per link plus 2.5 us of host delay on host links: the
 * SIGCOMM 2013 setup.
 */
class PfabricLeafSpineHelper : public PfabricFabricHelper
{
  public:
    /// The sigcomm13 preset's leaf-spine (9 x 16 hosts, 4 spines), with its rates and delays.
    PfabricLeafSpineHelper();

    /**
     * @brief A leaf-spine of the given shape, with the sigcomm13 preset's rates and delays.
     * @param leaves number of leaf switches (racks)
     * @param hostsPerLeaf hosts per leaf
     * @param spines number of spine switches
     */
    PfabricLeafSpineHelper(uint32_t leaves, uint32_t hostsPerLeaf, uint32_t spines);

  private:
    std::string GetShapeError() const override;
    void DoBuild() override;
    uint32_t DoGetHopCount(uint32_t from, uint32_t to) const override;

    uint32_t m_leaves;       //!< leaf switches
    uint32_t m_hostsPerLeaf; //!< hosts per leaf
    uint32_t m_spines;       //!< spine switches
};

} // namespace ns3

#endif /* PFABRIC_LEAF_SPINE_HELPER_H */
