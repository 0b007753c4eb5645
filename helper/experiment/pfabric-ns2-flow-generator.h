/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_NS2_FLOW_GENERATOR_H
#define PFABRIC_NS2_FLOW_GENERATOR_H

#include "ns3/data-rate.h"
#include "ns3/pfabric-flow-list.h"

#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class PfabricFlowSizeDistribution;

/**
 * @ingroup pfabric
 *
 * @brief ns-2's random number generator as the original pFabric scripts seed it: L'Ecuyer's
 * MRG32k3a (ns-2.34 tools/rng.cc, RNG::U01) whose six state components are all the seed, which is
 * what the scripts' "$rng seed s" does (RNG::command "seed" -> set_seed(RAW_SEED_SOURCE, s) ->
 * set_seed(long): set_package_seed of six times s, then init()).
 *
 * Written from the published algorithm and ns-2's seeding rule, in double arithmetic as ns-2
 * computes it, so that every draw is the same double.
 */
class PfabricNs2Rng
{
  public:
    /// The largest seed ns-2 takes ("seed" refuses s <= 0 and s >= MAXINT, 2^31 - 1).
    static constexpr uint64_t MAX_SEED = 2147483646;

    /**
     * @param seed the seed, in [1, MAX_SEED]
     */
    explicit PfabricNs2Rng(uint64_t seed);

    /// @return the next uniform number in (0, 1) (RNG::U01, one step of the state)
    double Uniform();

    /**
     * @brief ns-2's RNG::exponential(r): r times -log of a uniform (not of one minus it).
     * @param mean the mean
     * @return the draw
     */
    double Exponential(double mean);

  private:
    double m_state[6]; //!< Cg_: three components of each of the two recurrences
};

/**
 * @ingroup pfabric
 *
 * @brief Flows drawn as the original pFabric ns-2 scripts draw them (--arrivals=ns2): a
 * Poisson process and a size generator of its own per ordered host pair, each an ns-2 RNG
 * seeded with a small linear integer of the pair.
 *
 * From empirical_search_pfabric.tcl (PlatformLab/HomaSimulation e13e9cd,
 * RpcTransportDesign/ns2_Simulations/scripts/, lines 230 and 242-258; HKUST-SING/PIAS-NS2's
 * scripts/spine_empirical.tcl lines 240-265 seed alike) and tcp-common-opt.tcl
 * (Agent_Aggr_pair's set_PCarrival_process, init_schedule and schedule, lines 392-418 and
 * 477-643):
 *
 * - pair (i, j), source host i, destination host j (i != j), has arrival RNG seed 17 i + 1244 j
 *   and size RNG seed 33 i + 4369 j;
 * - its arrivals are Poisson of rate lambda / (N - 1), lambda = rate x load /
 *   (meanFlowSize x 8 / 1460 x 1500) with meanFlowSize the run script's constant
 *   (1138 x 1460 B for web search, 5117 x 1460 B for data mining), computed in that order;
 * - the first gap is drawn at 1 s, then each flow's size and the next gap: flow k of a pair
 *   starts at 1 s + g_0 + ... + g_k and has the k-th size;
 * - every value reaches Tcl through "%6e" (ns-2 RandomVariable::command "value", tools/ranvar.cc),
 *   so each gap and size is rounded to 7 significant digits before the script adds or rounds it;
 * - sizes: ns-2's EmpiricalRandomVariable with interpolation_ 2 (tools/ranvar.cc: the first CDF
 *   row with probability >= u, linear interpolation in packets rounded up), then the script's
 *   ceil and x 1460.
 *
 * The pairs' processes are merged in start order (ties by the scripts' pair order: destination,
 * then source). Times are shifted by the scripts' 1 s, so the first flows start near 0, and
 * rounded to the nanosecond. The flows do not depend on ns-3's seed or run: like the original,
 * every run at a load draws the same flows.
 */
class PfabricNs2FlowGenerator : public PfabricFlowSource
{
  public:
    using PfabricFlowSource::Next;

    /// The time the original scripts start flows at (init_schedule at 1 s), subtracted.
    static constexpr double ORIGIN_S = 1.0;

    /**
     * @param sizes the flow-size distribution (its points are read; kept by reference)
     * @param hosts number of hosts, at least 2
     * @param hostRate the host link rate
     * @param load fraction of the host link, in (0, 1)
     * @param packetPayload payload bytes of a full packet (1460)
     * @param packetBytes on-wire bytes of a full packet in the load formula (1500)
     * @param meanBytes the mean flow size the load formula divides by (the run scripts'
     *        meanFlowSize: OriginalMeanBytes)
     */
    PfabricNs2FlowGenerator(const PfabricFlowSizeDistribution& sizes,
                            uint32_t hosts,
                            DataRate hostRate,
                            double load,
                            uint32_t packetPayload,
                            uint32_t packetBytes,
                            double meanBytes);

    PfabricFlow Next() override;
    uint32_t GetDrawn() const override;
    double GetMeanBytes() const override;

    /**
     * @brief The mean flow size the original run scripts hard-code (meanFlowSize, e.g.
     * run-list-search-pfabric.pl line 12, PIAS-NS2 run_pfabric_vl2.py line 24).
     * @param cdf the CDF's name: websearch (1138 packets) or datamining (5117 packets)
     * @param packetPayload payload bytes of a packet
     * @return the mean in bytes, or 0 for another CDF
     */
    static double OriginalMeanBytes(const std::string& cdf, uint32_t packetPayload);

    /**
     * @param src the source host (the scripts' i)
     * @param dst the destination host (the scripts' j)
     * @return the pair's arrival seed, 17 src + 1244 dst
     */
    static uint64_t ArrivalSeed(uint32_t src, uint32_t dst);

    /**
     * @param src the source host
     * @param dst the destination host
     * @return the pair's size seed, 33 src + 4369 dst
     */
    static uint64_t SizeSeed(uint32_t src, uint32_t dst);

    /**
     * @brief A value as the scripts see it: printed with "%6e" (7 significant digits) by ns-2's
     * RandomVariable "value" command and read back by Tcl.
     * @param value the C++ value
     * @return the value Tcl computes with
     */
    static double TclValue(double value);

    /// @return the mean time between two arrivals of one pair, seconds (the scripts' avg_)
    double GetPairMeanGap() const;

    /// @return the last flow's start as the scripts have it: absolute (from 1 s), in seconds,
    ///         not rounded to the nanosecond
    double GetLastArrival() const;

  private:
    /// One ordered host pair's two generators.
    struct Pair
    {
        uint32_t src;           //!< source host
        uint32_t dst;           //!< destination host
        PfabricNs2Rng arrivals; //!< gaps
        PfabricNs2Rng sizes;    //!< sizes
        double next;            //!< its next arrival, the scripts' absolute tnext (s)
    };

    /**
     * @brief ns-2's EmpiricalRandomVariable::value with interpolation_ 2, in packets.
     * @param rng the pair's size generator
     * @return packets, before the script's ceil
     */
    double DrawPackets(PfabricNs2Rng& rng) const;

    /// The next arrival of a pair.
    using Arrival = std::pair<double, uint32_t>;

    const PfabricFlowSizeDistribution* m_sizes;   //!< flow sizes (their mean)
    std::vector<std::pair<double, double>> m_cdf; //!< (packets, cumulative probability)
    uint32_t m_packetPayload;                     //!< bytes per packet
    double m_gapMean;                             //!< avg_ of every pair's arrivals, s
    std::vector<Pair> m_pairs;                    //!< in the scripts' order
    std::priority_queue<Arrival, std::vector<Arrival>, std::greater<>> m_queue; //!< next arrivals
    uint32_t m_drawn;                                                           //!< flows drawn
    double m_lastArrival; //!< the last flow's start, the scripts' absolute time (s)
};

} // namespace ns3

#endif /* PFABRIC_NS2_FLOW_GENERATOR_H */
