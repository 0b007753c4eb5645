/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Flows with deadlines as a feature of the FCT experiment (pfabric-deadlines): its options,
// checks, deadlines drawn for the flows, scheme settings, fct.csv columns, provenance and
// summary line.

#ifndef PFABRIC_DEADLINE_FEATURE_H
#define PFABRIC_DEADLINE_FEATURE_H

#include "ns3/pfabric-experiment-feature.h"

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief Deadlines (PfabricExperiment::EnableDeadlines, the pfabric-deadlines program): every
 * flow has a deadline with probability DeadlineFraction, at its start + max(DeadlineMinFactor x
 * its ideal FCT, X), X exponential of mean DeadlineMean, drawn from random streams of their own
 * (DEADLINE_STREAM and the next), so that every scheme of a (workload, load, seed, run) runs the
 * same flows with the same deadlines (a flow file's deadline_s column, when it has one, is used
 * instead). pfabric and linerate rank by the time left to the deadline (Priority edf,
 * PfabricDeadlinePriority) or by remaining size (remaining); tcp and dctcp do not rank. OnMiss
 * terminate gives up a flow at its deadline (PfabricFlowApplication's TerminateAtDeadline).
 * fct.csv gains deadline_s, met and terminated.
 */
class PfabricDeadlineFeature : public PfabricExperimentFeature
{
  public:
    /// The first random stream of the deadlines (clear of the flow lists').
    static constexpr int64_t DEADLINE_STREAM = 10;

    /**
     * @param p the parameters (outlive this)
     */
    explicit PfabricDeadlineFeature(PfabricExperimentParameters& p);

    /**
     * @brief The experiments' deadlines (what Prepare gives generated flows):
     * PfabricFlowList::AssignDeadlines with floors minFactor x each flow's ideal FCT on the
     * fabric, from streams DEADLINE_STREAM and DEADLINE_STREAM + 1.
     * @param flows the flows
     * @param fabric the fabric (built)
     * @param meanText the mean of the exponential part, a time as --deadlineMean gives it
     * @param minFactor the floor in ideal FCTs
     * @param fraction the share of flows with a deadline
     * @return "" or, where a deadline would be longer than ns-3's times, the refusal naming
     *         --deadlineMinFactor or --deadlineMean, whichever set it
     */
    static std::string AssignDeadlines(std::vector<PfabricFlow>* flows,
                                       const PfabricFabricHelper& fabric,
                                       const std::string& meanText,
                                       double minFactor,
                                       double fraction);

    void AddOptions(PfabricOptionTable& table) override;
    std::string GetWindowConflict() const override;
    std::string GetNamePrefix() const override;
    std::string GetNamePart() const override;
    std::string ProcessFlows(std::vector<PfabricFlow>* flows,
                             const PfabricFabricHelper& fabric) override;
    void AddColumns(PfabricResultsWriter& writer) const override;
    void ConfigureScheme(PfabricSchemeHelper& scheme) const override;
    void ConfigureApplication(PfabricFlowApplication& app) const override;
    std::vector<OwnSetting> GetOwnSettings() const override;
    void AddProvenance(PfabricJsonObject& meta, const std::vector<Result>& results) const override;
    std::string Summarize(const std::vector<Result>& results) const override;

  private:
    /// The deadlines of a run's flows.
    struct Count
    {
        uint32_t with = 0;       //!< flows with a deadline
        uint32_t met = 0;        //!< flows that met it
        uint32_t terminated = 0; //!< flows given up at it
    };

    /**
     * @param results every flow's outcome
     * @return how many flows had a deadline, met it and were given up
     */
    static Count CountDeadlines(const std::vector<Result>& results);

    PfabricExperimentParameters& m_p; //!< the parameters
    std::string m_source;             //!< where the deadlines came from: generated or the file
};

} // namespace ns3

#endif /* PFABRIC_DEADLINE_FEATURE_H */
