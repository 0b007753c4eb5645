/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_FLOW_LIST_H
#define PFABRIC_FLOW_LIST_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class PfabricFlowSizeDistribution;

/**
 * @ingroup pfabric
 *
 * @brief One flow of a workload: who sends how much to whom, and when it is handed to the
 * transport. Hosts are fabric host indices (PfabricFabricHelper).
 */
struct PfabricFlow
{
    uint32_t id;                 //!< index in the flow list
    uint32_t src;                //!< sending host
    uint32_t dst;                //!< receiving host
    uint64_t bytes;              //!< payload bytes
    Time start;                  //!< when the application hands the flow to the transport
    Time deadline = Time::Max(); //!< simulation time by which it should complete; Max: none
    uint8_t trafficClass = 0;    //!< its traffic class (pfabric-classes; 0 elsewhere)
};

/**
 * @ingroup pfabric
 *
 * @brief A workload drawn flow by flow: what a run that draws its flows as it needs them
 * (PfabricMeasurementWindow) takes, whichever arrival process makes them
 * (PfabricFlowGenerator, this module's; PfabricNs2FlowGenerator, the original scripts').
 */
class PfabricFlowSource
{
  public:
    virtual ~PfabricFlowSource() = default;

    /// @return the next flow: ids 0, 1, ... in start order
    virtual PfabricFlow Next() = 0;

    /**
     * @param flows how many
     * @return the next flows, in start order
     */
    std::vector<PfabricFlow> Next(uint32_t flows);

    /// @return the flows drawn so far
    virtual uint32_t GetDrawn() const = 0;

    /// @return the mean flow size of the distribution, bytes
    virtual double GetMeanBytes() const = 0;
};

/**
 * @ingroup pfabric
 *
 * @brief The flow-by-flow draw behind PfabricFlowList::Generate: Poisson arrivals at every host,
 * destinations uniform over the other hosts, sizes from a distribution, one flow per Next.
 *
 * Flow i is the same whether the generator is asked for i + 1 flows or for any more, so a run
 * that draws its flows as it needs them (PfabricMeasurementWindow) runs the first flows of
 * every fixed-length list of the same streams. Each host starts flows at rate
 * PfabricFlowList::ArrivalRate; the N hosts' independent Poisson processes are drawn as one of
 * rate N * lambda whose every arrival picks its source uniformly, which is the same process.
 * Sizes use the distribution's own random stream (which must outlive the generator); arrival
 * times use stream, sources and destinations stream + 1.
 */
class PfabricFlowGenerator : public PfabricFlowSource
{
  public:
    using PfabricFlowSource::Next;

    /**
     * @param sizes the flow-size distribution (streams assigned by the caller; kept by
     *        reference)
     * @param hosts number of hosts, at least 2
     * @param hostRate the host link rate
     * @param load fraction of the host link, in (0, 1)
     * @param wireBytesPerPayloadByte on-wire bytes per payload byte of a full packet
     * @param stream first random stream index for arrivals, sources and destinations
     */
    PfabricFlowGenerator(const PfabricFlowSizeDistribution& sizes,
                         uint32_t hosts,
                         DataRate hostRate,
                         double load,
                         double wireBytesPerPayloadByte,
                         int64_t stream);

    PfabricFlow Next() override;
    uint32_t GetDrawn() const override;
    double GetMeanBytes() const override;

  private:
    const PfabricFlowSizeDistribution* m_sizes; //!< flow sizes
    uint32_t m_hosts;                           //!< number of hosts
    Ptr<ExponentialRandomVariable> m_gap;       //!< time between arrivals, seconds
    Ptr<UniformRandomVariable> m_pick;          //!< sources and destinations
    double m_now;                               //!< the last arrival, seconds
    uint32_t m_drawn;                           //!< flows drawn so far
};

/**
 * @ingroup pfabric
 *
 * @brief A list of flows: generated from a flow-size distribution and a load, or read from a
 * CSV file; written in the same CSV form so that every scheme, and other simulators, can run the
 * same flows.
 *
 * CSV: a header line "src,dst,size_bytes,start_s", then one flow per line; hosts are fabric host
 * indices, start_s is in seconds (written with 9 decimals, i.e. to the nanosecond). A list in
 * which some flow has a deadline is written with a fifth column, "...,start_s,deadline_s"
 * (absolute simulation time in seconds, empty for a flow without one); both forms are read.
 */
class PfabricFlowList
{
  public:
    /// The CSV header.
    static const std::string CSV_HEADER;
    /// The CSV header of a list with deadlines.
    static const std::string CSV_HEADER_DEADLINES;

    /**
     * @brief Generate flows: Poisson arrivals at every host, destinations uniform over the other
     * hosts, sizes from a distribution (the first flows of a PfabricFlowGenerator).
     *
     * Each host starts flows at rate lambda = load * hostRate / (8 * mean wire bytes), where a
     * flow's wire bytes are its payload times wireBytesPerPayloadByte (1500 / 1460: the load is a
     * fraction of the host link in on-wire bytes). Sizes use the distribution's own random
     * stream; arrival times, sources and destinations use the given streams.
     *
     * @param sizes the flow-size distribution (streams assigned by the caller)
     * @param hosts number of hosts, at least 2
     * @param hostRate the host link rate
     * @param load fraction of the host link, in (0, 1)
     * @param flows number of flows
     * @param wireBytesPerPayloadByte on-wire bytes per payload byte of a full packet
     * @param stream first random stream index for arrivals, sources and destinations
     * @return the flows, in start order, ids 0 .. flows - 1
     */
    static std::vector<PfabricFlow> Generate(const PfabricFlowSizeDistribution& sizes,
                                             uint32_t hosts,
                                             DataRate hostRate,
                                             double load,
                                             uint32_t flows,
                                             double wireBytesPerPayloadByte,
                                             int64_t stream);

    /**
     * @brief Per-host arrival rate of the load formula.
     * @param meanPayloadBytes the mean flow size
     * @param hostRate the host link rate
     * @param load fraction of the host link
     * @param wireBytesPerPayloadByte on-wire bytes per payload byte
     * @return flows per second per host
     */
    static double ArrivalRate(double meanPayloadBytes,
                              DataRate hostRate,
                              double load,
                              double wireBytesPerPayloadByte);

    /**
     * @brief Give flows deadlines: each flow, independently, has one with probability fraction,
     * at start + max(floor, X), X exponential of the given mean; the others have none
     * (Time::Max()). Two draws per flow, from streams stream (has one?) and stream + 1 (X),
     * whatever the fraction, so that the same seed and run give every flow the same X at any
     * fraction, and the flows themselves (their own streams) are untouched.
     * @param flows the flows, deadlines replaced
     * @param floors per flow, the shortest time from start to deadline (e.g. a multiple of its
     *        ideal FCT); the same length as flows
     * @param mean the mean of X, strictly positive
     * @param fraction the probability that a flow has a deadline, in [0, 1]
     * @param stream the first of the two random streams
     * @return the index of the first flow whose deadline ns-3's times cannot hold (more than
     *         PfabricCommandLine::MAX_TIME_NS; that flow and the later ones keep none), else
     *         flows->size()
     */
    static std::size_t AssignDeadlines(std::vector<PfabricFlow>* flows,
                                       const std::vector<Time>& floors,
                                       Time mean,
                                       double fraction,
                                       int64_t stream);

    /**
     * @brief Read a flow list.
     * @param path the CSV file
     * @param hosts number of hosts of the fabric (indices must be below it)
     * @param[out] flows the flows, in file order, ids 0 ..
     * @param[out] error on failure, one line: "<file>:<line>: <what is wrong>"
     * @return true on success
     */
    static bool Read(const std::string& path,
                     uint32_t hosts,
                     std::vector<PfabricFlow>* flows,
                     std::string* error);

    /**
     * @brief Write a flow list, whole or not at all (a temporary file renamed into place); with
     * the deadline_s column only if some flow has a deadline.
     * @param path the CSV file
     * @param flows the flows
     * @param[out] error on failure, one line
     * @return true on success
     */
    static bool Write(const std::string& path,
                      const std::vector<PfabricFlow>& flows,
                      std::string* error);
};

} // namespace ns3

#endif /* PFABRIC_FLOW_LIST_H */
