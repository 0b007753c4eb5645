/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The default hooks of an optional feature of the FCT experiment (PfabricExperimentFeature):
// each does nothing.

#include "pfabric-experiment-feature.h"

namespace ns3
{

void
PfabricExperimentFeature::AddLeadingOptions(PfabricOptionTable&)
{
}

void
PfabricExperimentFeature::AddOptions(PfabricOptionTable&)
{
}

std::string
PfabricExperimentFeature::GetWindowConflict() const
{
    return "";
}

std::string
PfabricExperimentFeature::GetNamePrefix() const
{
    return "";
}

std::string
PfabricExperimentFeature::GetNamePart() const
{
    return "";
}

bool
PfabricExperimentFeature::MakesFlows() const
{
    return false;
}

bool
PfabricExperimentFeature::MakeFlows(PfabricExperimentWorkload&,
                                    uint32_t,
                                    std::vector<PfabricFlow>*,
                                    std::string*)
{
    return true;
}

std::string
PfabricExperimentFeature::ProcessFlows(std::vector<PfabricFlow>*, const PfabricFabricHelper&)
{
    return "";
}

void
PfabricExperimentFeature::AddColumns(PfabricResultsWriter&) const
{
}

void
PfabricExperimentFeature::ConfigureScheme(PfabricSchemeHelper&) const
{
}

std::vector<PfabricExperimentFeature::OwnSetting>
PfabricExperimentFeature::GetOwnSettings() const
{
    return {};
}

void
PfabricExperimentFeature::ConfigureApplication(PfabricFlowApplication&) const
{
}

std::optional<uint8_t>
PfabricExperimentFeature::GetTrafficClass(const PfabricFlow&) const
{
    return std::nullopt;
}

void
PfabricExperimentFeature::AddProvenance(PfabricJsonObject&, const std::vector<Result>&) const
{
}

void
PfabricExperimentFeature::GetSummaryGroups(std::vector<SummaryGroup>*) const
{
}

std::string
PfabricExperimentFeature::Summarize(const std::vector<Result>&) const
{
    return "";
}

} // namespace ns3
