/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_FLOW_SIZE_DISTRIBUTION_H
#define PFABRIC_FLOW_SIZE_DISTRIBUTION_H

#include "ns3/pfabric-flow-application.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief A flow-size distribution read from an empirical CDF file, sampled as the original
 * pFabric ns-2 simulations did.
 *
 * Files: one point per line, '#' starts a comment. Either two columns, "size_bytes
 * cumulative_probability" (the files shipped in workloads/), or three, "packets 1
 * cumulative_probability" (the ns-2 / YAPS form; sizes count packets of PacketPayload bytes).
 * Probabilities lie in [0, 1] and never fall, sizes are positive, at most MAX_BYTES and never
 * fall, the last probability is 1. A first point with probability p > 0 is a point mass p at its
 * size. Numbers are decimal (no hexadecimal, inf or nan).
 *
 * Sampling (PACKETS, the default, as ns-2): u uniform in (0, 1]; the first point with
 * probability >= u and the one before it bound a segment; the size is interpolated linearly in
 * packets, rounded up to a whole packet and multiplied by PacketPayload. BYTES interpolates in
 * bytes and rounds up to a whole byte. GetMean() is the exact mean of what Sample() draws.
 */
class PfabricFlowSizeDistribution
{
  public:
    /// How a size is interpolated between two points of the CDF.
    enum Interpolation
    {
        PACKETS, //!< linear in packets, rounded up to whole packets (ns-2)
        BYTES    //!< linear in bytes, rounded up to a whole byte
    };

    /// The shipped workloads (workloads/<name>.cdf).
    static const std::vector<std::string> SHIPPED;

    /// The largest size a CDF may give, bytes: the largest flow a run can send
    /// (PfabricFlowApplication::MAX_FLOW_BYTES; above it the hosts' senders stopped the run, issue
    /// 54's twelfth probe). Sizes and their mean stay exact in a double.
    static constexpr double MAX_BYTES = PfabricFlowApplication::MAX_FLOW_BYTES;

    PfabricFlowSizeDistribution();

    /**
     * @brief Read a CDF file.
     * @param path the file, or the name of a shipped workload ("websearch", "datamining")
     * @param packetPayload payload bytes of a full packet
     * @param interpolation how sizes are interpolated
     * @param[out] error on failure, one line: "<file>:<line>: <what is wrong>"
     * @return true on success
     */
    bool Load(const std::string& path,
              uint32_t packetPayload,
              Interpolation interpolation,
              std::string* error);

    /**
     * @brief Find a shipped workload's file.
     * @param name "websearch" or "datamining"
     * @return its path, or "" if it is found nowhere (environment variable PFABRIC_WORKLOADS_DIR,
     *         the module's source directory, then contrib/pfabric/workloads, src/pfabric/workloads
     *         and workloads under the working directory)
     */
    static std::string FindShipped(const std::string& name);

    /// @return the file the distribution was read from
    std::string GetPath() const;

    /**
     * @brief Use a random variable stream for Sample (ns-3's RNG: seed, run and stream).
     * @param stream the stream index
     * @return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /// @return a flow size in bytes
    uint64_t Sample() const;

    /**
     * @brief The size for a given probability (the inverse CDF Sample() applies).
     * @param u a probability in (0, 1]
     * @return the size in bytes
     */
    uint64_t Quantile(double u) const;

    /// @return the exact mean of Sample(), in bytes
    double GetMean() const;

    /// @return the points: (size in bytes, cumulative probability)
    const std::vector<std::pair<double, double>>& GetPoints() const;

  private:
    std::string m_path;                              //!< the file
    uint32_t m_packetPayload;                        //!< bytes per packet
    Interpolation m_interpolation;                   //!< how sizes are interpolated
    std::vector<std::pair<double, double>> m_points; //!< (bytes, cumulative probability)
    double m_mean;                                   //!< exact mean of Sample()
    /// @return u's random variable, made at its first use
    Ptr<UniformRandomVariable> GetUniform() const;

    mutable Ptr<UniformRandomVariable> m_uniform; //!< u (GetUniform)
};

} // namespace ns3

#endif /* PFABRIC_FLOW_SIZE_DISTRIBUTION_H */
