/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricModeAttributes: the attributes a part's configured mode never reads, so that a program
// can refuse a value given to one of them instead of recording it.

#ifndef PFABRIC_MODE_ATTRIBUTES_H
#define PFABRIC_MODE_ATTRIBUTES_H

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 * @brief A part of the module (a queue disc, a socket) with a mode that leaves some of its
 * attributes unread: PfabricQueueDisc's EarliestOfMostUrgentFlow never breaks ties (TieBreak),
 * PfabricClassQueueDisc's Strict scheduler has no round (Weights, Quantum), a
 * PfabricMinTcpSocket without ProbeMode never counts timeouts towards a probe
 * (ProbeAfterTimeouts), a PfabricBaselineTcpSocket without FastRetransmit never counts duplicate
 * ACKs (DupAckThreshold, DupAckWindowFraction). A run that records such a value and never reads
 * it would be a run of its mode alone (issue 54's eighth and ninth probes).
 */
class PfabricModeAttributes
{
  public:
    virtual ~PfabricModeAttributes() = default;

    /**
     * @return the attributes its configured mode never reads, each with that mode as
     *         ATTRIBUTE=VALUE, e.g. {"TieBreak", "DequeueMode=EarliestOfMostUrgentFlow"}; none
     *         where its mode reads them all
     */
    virtual std::vector<std::pair<std::string, std::string>> GetAttributesItsModeIgnores()
        const = 0;
};

} // namespace ns3

#endif /* PFABRIC_MODE_ATTRIBUTES_H */
