/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Two traffic classes as a feature of the FCT experiment (pfabric-classes): its options, checks,
// both classes' flows, scheme settings, fct.csv column, provenance and per-class summary.

#ifndef PFABRIC_CLASS_FEATURE_H
#define PFABRIC_CLASS_FEATURE_H

#include "ns3/pfabric-experiment-feature.h"
#include "ns3/pfabric-flow-size-distribution.h"

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief Two traffic classes on one fabric (the workload "classes", pfabric-classes): web search
 * flows (class 0, flow sizes, arrivals and hosts from streams 1-3, as pfabric-websearch) and
 * data mining flows (class 1, streams CLASS_FLOW_STREAM and the two after it) at their own loads
 * (ClassLoads), the data mining flows as many as span the web search flows' time; every port
 * serves them by Classes (PfabricSchemeHelper::SetTrafficClasses), and fct.csv gains a
 * traffic_class column. The summary has one table per class.
 */
class PfabricClassFeature : public PfabricExperimentFeature
{
  public:
    /// The first random stream of the data mining flows (clear of the web search flows').
    static constexpr int64_t CLASS_FLOW_STREAM = 4;

    /**
     * @param p the parameters (outlive this); their CDF becomes web search's
     */
    explicit PfabricClassFeature(PfabricExperimentParameters& p);

    /**
     * @brief Parse a list of loads, one per class.
     * @param text fractions of the host link separated by commas, e.g. "0.3,0.3"
     * @param[out] loads the loads
     * @return "" or what is wrong (one line naming --classLoads)
     */
    static std::string ParseClassLoads(const std::string& text, std::vector<double>* loads);

    void AddLeadingOptions(PfabricOptionTable& table) override;
    void AddOptions(PfabricOptionTable& table) override;
    std::string GetWindowConflict() const override;
    std::string GetNamePart() const override;
    bool MakesFlows() const override;
    bool MakeFlows(PfabricExperimentWorkload& workload,
                   uint32_t hosts,
                   std::vector<PfabricFlow>* flows,
                   std::string* error) override;
    void AddColumns(PfabricResultsWriter& writer) const override;
    void ConfigureScheme(PfabricSchemeHelper& scheme) const override;
    std::vector<OwnSetting> GetOwnSettings() const override;
    std::optional<uint8_t> GetTrafficClass(const PfabricFlow& flow) const override;
    void AddProvenance(PfabricJsonObject& meta, const std::vector<Result>& results) const override;
    void GetSummaryGroups(std::vector<SummaryGroup>* groups) const override;

  private:
    PfabricExperimentParameters& m_p;         //!< the parameters
    std::string m_webSizesPath;               //!< web search's CDF file (after MakeFlows)
    PfabricFlowSizeDistribution m_classSizes; //!< data mining flow sizes
    std::vector<uint32_t> m_classFlows;       //!< flows of each class
};

} // namespace ns3

#endif /* PFABRIC_CLASS_FEATURE_H */
