/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// What an optional feature of the FCT experiment (deadlines, traffic classes) can add to it:
// the hooks PfabricExperiment calls, so that its core has no branch for any feature.

#ifndef PFABRIC_EXPERIMENT_FEATURE_H
#define PFABRIC_EXPERIMENT_FEATURE_H

#include "ns3/pfabric-experiment-options.h"
#include "ns3/pfabric-fabric-helper.h"
#include "ns3/pfabric-flow-application.h"
#include "ns3/pfabric-flow-list.h"
#include "ns3/pfabric-option-table.h"
#include "ns3/pfabric-results-writer.h"
#include "ns3/pfabric-scheme-helper.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

class PfabricExperimentWorkload;

/**
 * @ingroup pfabric
 *
 * @brief An optional feature of PfabricExperiment (PfabricDeadlineFeature, PfabricClassFeature):
 * each hook is where the experiment asks every feature in turn, and does nothing by default.
 *
 * In a run's order: its options (AddLeadingOptions before the workload's, AddOptions after the
 * others'; both may change the experiment's rows, PfabricOptionTable::Get), its part of the run
 * directory's name, the flows (MakesFlows and MakeFlows instead of the workload's; ProcessFlows
 * after them, e.g. deadlines), fct.csv's columns, the scheme's settings, every host's
 * application, every flow's traffic class, meta.json, and the summary.
 */
class PfabricExperimentFeature
{
  public:
    /// One flow's outcome.
    using Result = PfabricResultsWriter::FlowResult;

    /// A table of the summary: a title ("" for none) and the flows it covers.
    struct SummaryGroup
    {
        std::string title;                          //!< e.g. "class 0 (web search), "
        std::function<bool(const Result&)> include; //!< whether a flow is in the table
    };

    /// An attribute set on every object that has it from one of the program's options,
    /// whatever its default: a configured default of it reaches nothing and is refused
    /// (PfabricExperiment::CheckOwnSettings).
    struct OwnSetting
    {
        TypeId tid;            //!< the type that declares it
        std::string attribute; //!< its name
        std::string option;    //!< the option it comes from, e.g. "onMiss"
    };

    virtual ~PfabricExperimentFeature() = default;

    /// @return the attributes this feature sets itself from its options (none by default)
    virtual std::vector<OwnSetting> GetOwnSettings() const;

    /**
     * @brief Add options before the workload's (load, flows).
     * @param table the run's options
     */
    virtual void AddLeadingOptions(PfabricOptionTable& table);

    /**
     * @brief Add options after every other, and change the experiment's rows if need be.
     * @param table the run's options
     */
    virtual void AddOptions(PfabricOptionTable& table);

    /// @return what the measurement window cannot go with, e.g. "deadlines (pfabric-deadlines)",
    ///         or "" if it can
    virtual std::string GetWindowConflict() const;

    /// @return what the run directory's name starts with, after "results/", e.g. "deadlines-"
    virtual std::string GetNamePrefix() const;

    /// @return what the run directory's name has after the scheme, e.g. "-edf-continue-..."
    virtual std::string GetNamePart() const;

    /// @return whether the feature makes the run's flows (MakeFlows) instead of the workload;
    ///         its GetNamePart then names them, as the workload's load and flows would
    virtual bool MakesFlows() const;

    /**
     * @brief Make the run's flows (MakesFlows).
     * @param workload the workload, its flow sizes loaded
     * @param hosts hosts of the fabric
     * @param[out] flows the flows, ids in order
     * @param[out] error on failure, one line
     * @return true on success
     */
    virtual bool MakeFlows(PfabricExperimentWorkload& workload,
                           uint32_t hosts,
                           std::vector<PfabricFlow>* flows,
                           std::string* error);

    /**
     * @brief Change the run's flows once they are made (e.g. give them deadlines).
     * @param flows the flows
     * @param fabric the fabric, built
     * @return "" or why the run cannot have them, one line naming the option
     */
    virtual std::string ProcessFlows(std::vector<PfabricFlow>* flows,
                                     const PfabricFabricHelper& fabric);

    /**
     * @brief Add columns to fct.csv.
     * @param writer the run directory's writer
     */
    virtual void AddColumns(PfabricResultsWriter& writer) const;

    /**
     * @brief Set the scheme up (after the experiment's own settings).
     * @param scheme the scheme, not yet installed
     */
    virtual void ConfigureScheme(PfabricSchemeHelper& scheme) const;

    /**
     * @brief Set a host's application up, before any flow is handed to it.
     * @param app the application
     */
    virtual void ConfigureApplication(PfabricFlowApplication& app) const;

    /**
     * @param flow a flow of the run
     * @return the traffic class its packets carry, or nothing (no class tag)
     */
    virtual std::optional<uint8_t> GetTrafficClass(const PfabricFlow& flow) const;

    /**
     * @brief Add to meta.json (after the experiment's own members).
     * @param meta the run's meta.json object
     * @param results every flow's outcome (after Run)
     */
    virtual void AddProvenance(PfabricJsonObject& meta, const std::vector<Result>& results) const;

    /**
     * @brief The summary's tables: by default one, of every flow.
     * @param[in,out] groups the tables; a feature may replace them
     */
    virtual void GetSummaryGroups(std::vector<SummaryGroup>* groups) const;

    /**
     * @param results every flow's outcome (after Run)
     * @return lines the summary adds after its tables, or ""
     */
    virtual std::string Summarize(const std::vector<Result>& results) const;
};

} // namespace ns3

#endif /* PFABRIC_EXPERIMENT_FEATURE_H */
