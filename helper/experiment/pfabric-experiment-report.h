/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The FCT experiment's report: the summary table of FCT / ideal FCT per size bin. The provenance
// (PfabricExperiment::AddProvenance) and the summary (PfabricExperiment::Summarize) that use it
// are defined in pfabric-experiment-report.cc.

#ifndef PFABRIC_EXPERIMENT_REPORT_H
#define PFABRIC_EXPERIMENT_REPORT_H

#include "ns3/pfabric-experiment-feature.h"
#include "ns3/pfabric-measurement-window.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief The FCT experiment's summary on stdout: per size bin (pfabric::SizeBins, from
 * size-bins.txt) and for all flows, the flows, the mean and the 99th percentile (nearest rank)
 * of FCT / ideal FCT, and the flows unfinished; one table per group (a feature may ask for
 * several, e.g. one per traffic class), over the measured flows only with the window on.
 */
class PfabricExperimentReport
{
  public:
    /**
     * @brief The tables.
     * @param results every flow's outcome
     * @param window the measurement window
     * @param groups the tables: a title and the flows each covers
     * @return the text
     */
    static std::string SummarizeFcts(
        const std::vector<PfabricExperimentFeature::Result>& results,
        const PfabricMeasurementWindow& window,
        const std::vector<PfabricExperimentFeature::SummaryGroup>& groups);
};

} // namespace ns3

#endif /* PFABRIC_EXPERIMENT_REPORT_H */
