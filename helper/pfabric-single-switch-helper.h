/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_SINGLE_SWITCH_HELPER_H
#define PFABRIC_SINGLE_SWITCH_HELPER_H

#include "ns3/pfabric-fabric-helper.h"

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief The "one big switch": N hosts on one switch; every path is 2 links.
 *
 * Defaults: 10 Gb/s links of 1 us, as the fat-tree's.
 */
class PfabricSingleSwitchHelper : public PfabricFabricHelper
{
  public:
    /// @param hosts number of hosts: 2 to 254
    explicit PfabricSingleSwitchHelper(uint32_t hosts);

  private:
    std::string GetShapeError() const override;
    void DoBuild() override;
    uint32_t DoGetHopCount(uint32_t from, uint32_t to) const override;

    uint32_t m_nHosts; //!< hosts
};

} // namespace ns3

#endif /* PFABRIC_SINGLE_SWITCH_HELPER_H */
