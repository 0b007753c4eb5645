/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The FCT experiment's workload: the flow list a run simulates, generated from a flow-size CDF
// at a load from fixed random streams or read from a flow file.

#ifndef PFABRIC_EXPERIMENT_WORKLOAD_H
#define PFABRIC_EXPERIMENT_WORKLOAD_H

#include "ns3/pfabric-experiment-options.h"
#include "ns3/pfabric-fabric-helper.h"
#include "ns3/pfabric-flow-list.h"
#include "ns3/pfabric-flow-size-distribution.h"
#include "ns3/pfabric-measurement-window.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief The FCT experiment's workload (PfabricExperiment's flows): the flow sizes (the
 * workload's CDF, also for the priority levels' thresholds when a flow file is replayed), and the
 * flows, generated (GenerateFlows; with the measurement window, a generator that draws them as
 * the run needs them) or read from FlowFile.
 *
 * The generated flows come from fixed random streams (FLOW_STREAM and the two after it),
 * independent of the scheme, so every scheme of a (workload, load, seed, run) runs the same
 * flows; with --arrivals=ns2, from the original scripts' per-pair generators
 * (PfabricNs2FlowGenerator), the same for every seed and run.
 */
class PfabricExperimentWorkload
{
  public:
    /// The first random stream of the flow list (sizes; arrivals and hosts: the next two).
    static constexpr int64_t FLOW_STREAM = 1;

    /**
     * @param p the parameters (outlive this)
     * @param window the measurement window (outlives this)
     */
    PfabricExperimentWorkload(const PfabricExperimentParameters& p,
                              PfabricMeasurementWindow& window);

    /**
     * @brief Load the flow sizes, if the run draws flows or quantises priorities by them.
     * @param cdf the CDF: a name or a file
     * @param[out] error on failure, one line naming the file
     * @return true on success
     */
    bool LoadSizes(const std::string& cdf, std::string* error);

    /**
     * @brief The run's flows: the flow file's, or generated from the sizes (LoadSizes), or,
     * with the window on and no flow file, none yet: the window's generator draws them.
     * @param hosts number of hosts of the fabric
     * @param[out] flows the flows
     * @param[out] error on failure, one line naming the file
     * @return true on success
     */
    bool MakeFlows(uint32_t hosts, std::vector<PfabricFlow>* flows, std::string* error);

    /**
     * @brief The packet hops the flows that must complete will take at least: the sum of
     * PfabricFabricHelper::GetPacketHops over them. With the measurement window, those are the
     * first warm-up and measured flows (more arrive while they run), and the ones not drawn yet
     * count at their expected cost: the sizes' mean over the full payload of a packet (no
     * rounding up: a lower bound in expectation) on a path of the mean hop count between two
     * distinct hosts, as the generator picks them. Losses, retransmissions and handshakes come on
     * top, so the run's packet_hops ends higher, by more the higher the load.
     * @param flows the flows made so far (MakeFlows)
     * @param fabric the fabric
     * @return packet transmissions
     */
    uint64_t EstimatePacketHops(const std::vector<PfabricFlow>& flows,
                                const PfabricFabricHelper& fabric) const;

    /// @return the flow sizes (after LoadSizes)
    const PfabricFlowSizeDistribution& GetSizes() const;
    /// @return the flow sizes, to draw from (after LoadSizes)
    PfabricFlowSizeDistribution& GetSizes();

    /**
     * @brief The experiments' flow list (what Prepare generates without FlowFile): sizes from
     * stream sizeStream of the distribution, arrivals, sources and destinations from the
     * streams after it, at a load of the preset's host link in on-wire bytes. The streams are
     * fixed, independent of the scheme, so every scheme of a (workload, load, seed, run) runs
     * the same flows.
     * @param sizes the flow sizes (its stream is assigned here)
     * @param preset the preset, for the host link rate and packet sizes
     * @param hosts number of hosts
     * @param load fraction of the host link
     * @param flows number of flows
     * @param sizeStream the sizes' stream: FLOW_STREAM, or another feature's first stream
     * @return the flows
     */
    static std::vector<PfabricFlow> GenerateFlows(PfabricFlowSizeDistribution& sizes,
                                                  const std::string& preset,
                                                  uint32_t hosts,
                                                  double load,
                                                  uint32_t flows,
                                                  int64_t sizeStream = FLOW_STREAM);

    /**
     * @brief The generator behind GenerateFlows, for as many flows as a run needs (the
     * measurement window): its first flows are GenerateFlows' with the same arguments.
     * @param sizes the flow sizes (its stream is assigned here; it must outlive the generator)
     * @param preset the preset, for the host link rate and packet sizes
     * @param hosts number of hosts
     * @param load fraction of the host link
     * @param sizeStream the sizes' stream
     * @return the generator
     */
    static PfabricFlowGenerator MakeFlowGenerator(PfabricFlowSizeDistribution& sizes,
                                                  const std::string& preset,
                                                  uint32_t hosts,
                                                  double load,
                                                  int64_t sizeStream = FLOW_STREAM);

  private:
    /**
     * @brief The run's generator (--arrivals): this module's Poisson sources
     * (MakeFlowGenerator) or the original scripts' per-pair processes (PfabricNs2FlowGenerator).
     * @param hosts number of hosts
     * @return the generator, drawing from the sizes (LoadSizes)
     */
    std::unique_ptr<PfabricFlowSource> MakeFlowSource(uint32_t hosts);

    const PfabricExperimentParameters& m_p; //!< the parameters
    PfabricMeasurementWindow& m_window;     //!< the measurement window
    PfabricFlowSizeDistribution m_sizes;    //!< flow sizes (when generating)
};

} // namespace ns3

#endif /* PFABRIC_EXPERIMENT_WORKLOAD_H */
