/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Flow sizes from empirical CDFs: the shipped files, both file forms, the ns-2 sampling rule,
// the exact mean, and the one-line errors for malformed files; flow lists: the default
// generator's Poisson arrivals, and the original scripts' generator (--arrivals=ns2) against
// their own flow list; both read from a pipe as from a file; the run directory a failed run
// leaves as it found it.

#include "pfabric-test-cases.h"

#include "ns3/pfabric-experiment.h"
#include "ns3/pfabric-flow-list.h"
#include "ns3/pfabric-flow-size-distribution.h"
#include "ns3/pfabric-ns2-flow-generator.h"
#include "ns3/pfabric-results-writer.h"
#include "ns3/rng-seed-manager.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

namespace ns3
{
namespace pfabric
{
namespace tests
{
namespace
{

constexpr uint32_t MSS = 1460;

/**
 * @brief Write a file.
 * @param path where
 * @param text what
 */
void
WriteFile(const std::string& path, const std::string& text)
{
    std::ofstream(path) << text;
}

/**
 * @brief Load a distribution that must load.
 * @param path file or shipped name
 * @param interpolation how sizes are interpolated
 * @return the distribution
 */
PfabricFlowSizeDistribution
MustLoad(
    const std::string& path,
    PfabricFlowSizeDistribution::Interpolation interpolation = PfabricFlowSizeDistribution::PACKETS)
{
    PfabricFlowSizeDistribution distribution;
    std::string error;
    bool loaded = distribution.Load(path, MSS, interpolation, &error);
    NS_ABORT_MSG_UNLESS(loaded, error);
    return distribution;
}

/**
 * The shipped CDFs, in both file forms, sampled as ns-2 did: the empirical CDF of 10^6 draws
 * matches every point of the file within 0.003 (the Dvoretzky-Kiefer-Wolfowitz bound for 10^6
 * draws exceeds 0.0023 with probability 1e-4), the sample mean matches GetMean() (1.2% web search,
 * 4% data mining: about five standard errors), and the exact means are the published ones.
 */
class FlowSizeSamplingTest : public TestCase
{
  public:
    FlowSizeSamplingTest()
        : TestCase("Flow sizes: the shipped CDFs in both file forms, sampled as ns-2 did")
    {
    }

  private:
    void DoRun() override
    {
        struct Workload
        {
            std::string name;
            double pointMass;       //!< probability of the first point
            double meanBytesLinear; //!< piecewise-linear mean, bytes (published)
            double meanTolerance;   //!< relative, sample mean vs exact
        };

        for (const Workload& w : std::vector<Workload>{{"websearch", 0.15, 1665831, 0.012},
                                                       {"datamining", 0.5, 7470236, 0.04}})
        {
            PfabricFlowSizeDistribution shipped = MustLoad(w.name);
            NS_TEST_ASSERT_MSG_EQ(shipped.GetPath().empty(), false, w.name << " found");

            // The ns-2 form of the same file: packets, 1, probability.
            std::string threeColumns = CreateTempDirFilename(w.name + "-ns2.cdf");
            std::ostringstream text;
            text << "# " << w.name << " in the ns-2 form\n";
            for (const auto& [bytes, probability] : shipped.GetPoints())
            {
                text << bytes / MSS << " 1 " << probability << "\n";
            }
            WriteFile(threeColumns, text.str());
            PfabricFlowSizeDistribution ns2Form = MustLoad(threeColumns);
            NS_TEST_ASSERT_MSG_EQ_TOL(ns2Form.GetMean(), shipped.GetMean(), 1e-6, w.name);

            // Every point is a whole number of packets, so rounding a size drawn uniformly
            // between two of them up to a whole packet adds exactly half a packet on average,
            // to every flow outside the point mass (web search: 1141.4 packets, as published).
            NS_TEST_ASSERT_MSG_EQ_TOL(shipped.GetMean() / MSS,
                                      w.meanBytesLinear / MSS + 0.5 * (1 - w.pointMass),
                                      0.001,
                                      w.name << ": mean with ns-2's rounding, packets");
            PfabricFlowSizeDistribution bytes =
                MustLoad(w.name, PfabricFlowSizeDistribution::BYTES);
            NS_TEST_ASSERT_MSG_EQ_TOL(bytes.GetMean(),
                                      w.meanBytesLinear,
                                      1.0,
                                      w.name << ": piecewise-linear mean, bytes (+ half a byte)");

            for (PfabricFlowSizeDistribution* d : {&shipped, &ns2Form})
            {
                d->AssignStreams(7);
                constexpr int DRAWS = 1000000;
                std::vector<uint64_t> draws(DRAWS);
                double sum = 0;
                for (auto& size : draws)
                {
                    size = d->Sample();
                    sum += size;
                    NS_ABORT_MSG_IF(size % MSS != 0, "whole packets only");
                }
                std::sort(draws.begin(), draws.end());
                const auto& points = d->GetPoints();
                for (std::size_t i = 0; i < points.size(); ++i)
                {
                    const auto& [size, probability] = points[i];
                    if (i + 1 < points.size() && points[i + 1].first == size)
                    {
                        continue; // a point mass: the CDF at a size is its last probability
                    }
                    double empirical =
                        double(std::upper_bound(draws.begin(), draws.end(), uint64_t(size)) -
                               draws.begin()) /
                        DRAWS;
                    NS_TEST_ASSERT_MSG_EQ_TOL(empirical,
                                              probability,
                                              0.003,
                                              w.name << ": P(size <= " << size << ")");
                }
                NS_TEST_ASSERT_MSG_EQ_TOL(sum / DRAWS / d->GetMean(),
                                          1.0,
                                          w.meanTolerance,
                                          w.name << ": sample mean");
            }
        }
    }
};

/// The inverse CDF by hand: point mass, interpolation in packets, rounding up; and in bytes.
class FlowSizeQuantileTest : public TestCase
{
  public:
    FlowSizeQuantileTest()
        : TestCase("Flow sizes: the inverse CDF, point mass, packets and bytes")
    {
    }

  private:
    void DoRun() override
    {
        PfabricFlowSizeDistribution packets = MustLoad("websearch");
        // (0, 0.15]: the point mass at 6 packets.
        NS_TEST_ASSERT_MSG_EQ(packets.Quantile(1e-9), 6 * MSS, "point mass");
        NS_TEST_ASSERT_MSG_EQ(packets.Quantile(0.15), 6 * MSS, "point mass, its edge");
        // 0.175: halfway from 6 packets (0.15) to 13 (0.2): 9.5, rounded up to 10.
        NS_TEST_ASSERT_MSG_EQ(packets.Quantile(0.175), 10 * MSS, "interpolated in packets");
        NS_TEST_ASSERT_MSG_EQ(packets.Quantile(1.0), 29200000, "the largest flow");
        PfabricFlowSizeDistribution bytes =
            MustLoad("websearch", PfabricFlowSizeDistribution::BYTES);
        // Halfway from 8760 to 18980 bytes.
        NS_TEST_ASSERT_MSG_EQ(bytes.Quantile(0.175), 13870, "interpolated in bytes");
        NS_TEST_ASSERT_MSG_EQ(bytes.Quantile(0.1), 8760, "point mass in bytes");
    }
};

/**
 * The mean of a narrow segment far from 0 (found by fuzz-cdf): every size drawn from a 0.3-byte
 * segment at 13.7 GB rounds up to the same byte (13743630821) and the same packet (9413446), so
 * the mean is that size exactly; integrals of the rounded size taken from 0 cancelled every digit.
 */
class FlowSizeNarrowSegmentMeanTest : public TestCase
{
  public:
    FlowSizeNarrowSegmentMeanTest()
        : TestCase("Flow sizes: the mean of a narrow segment far from 0 is its one rounded size")
    {
    }

  private:
    void DoRun() override
    {
        std::string path = CreateTempDirFilename("narrow.cdf");
        // Found at 13.7 GB (a 0.3-byte segment); sizes stop at a flow's 2^31 - 1 bytes since.
        WriteFile(path, "27 0\n2147483000.7 0\n2147483001 1\n");
        PfabricFlowSizeDistribution bytes = MustLoad(path, PfabricFlowSizeDistribution::BYTES);
        NS_TEST_ASSERT_MSG_EQ_TOL(bytes.GetMean(), 2147483001.0, 1e-3, "bytes");
        NS_TEST_ASSERT_MSG_EQ(bytes.Quantile(0.5), 2147483001, "bytes, a draw");
        PfabricFlowSizeDistribution packets = MustLoad(path);
        NS_TEST_ASSERT_MSG_EQ_TOL(packets.GetMean(), 1470879.0 * MSS, 1e-3, "packets");
        NS_TEST_ASSERT_MSG_EQ(packets.Quantile(0.5), uint64_t{1470879} * MSS, "packets, a draw");
    }
};

/// Malformed files: one line naming the file, the line and what is wrong.
class FlowSizeFileErrorTest : public TestCase
{
  public:
    FlowSizeFileErrorTest()
        : TestCase("Flow sizes: malformed CDF files are refused with file, line and reason")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::pair<std::string, std::string>> cases{
            {"# ok\n100 0.5\n200 x\n", ":3: 'x' is not a number"},
            {"100 0.5\n200 1.5\n", ":2: probability 1.5 is outside [0, 1]"},
            {"100 0.5\n200 0.4\n300 1\n", ":2: probability 0.4 is below the previous one (0.5)"},
            {"100 0.5\n50 0.7\n300 1\n", ":2: size 50 is below the previous one"},
            {"0 0.5\n300 1\n", ":1: size 0 is not positive"},
            {"-3 0.5\n300 1\n", ":1: size -3 is not positive"},
            {"100 0.5\n300 0.9\n", ": the last probability is 0.9, not 1"},
            {"100 0.5 7 8\n", ":1: expected 2 columns (size_bytes cumulative_probability) or 3"},
            {"100 0.5\n3 1 1\n", ":2: 3 columns, but earlier lines have 2"},
            {"# nothing\n\n", ": no points"},
            // Found by test/fuzz (fuzz-cdf): a size beyond 64 bits was cast to an integer (UB),
            // and strtod stopped at a NUL byte, taking what came before it.
            {"\n2.e54 1\n", ":2: size 2.e54 is more than a flow's 2147483647 bytes"},
            {"1e12 1 1\n", ":1: size 1e12 packets is more than a flow's 2147483647 bytes"},
            // The twelfth probe: a size the senders cannot send stopped the run (SIGABRT).
            {"10000 0.5\n3000000000 1\n",
             ":2: size 3000000000 is more than a flow's 2147483647 bytes"},
            {"1470880 1 1\n", ":1: size 1470880 packets is more than a flow's 2147483647 bytes"},
            {"2147483647 1\n",
             ":1: size 2147483647 rounds up to 2147484800 bytes (whole packets of 1460 bytes), "
             "more "
             "than a flow's 2147483647 bytes"},
            {std::string(".5\0\a 1\n", 7),
             ":1: '.5" + std::string("\0\a", 2) + "' is not a number"},
            {"0x10 1\n", ":1: '0x10' is not a number"},
        };
        int i = 0;
        for (const auto& [text, message] : cases)
        {
            std::string path = CreateTempDirFilename("bad-" + std::to_string(i++) + ".cdf");
            WriteFile(path, text);
            PfabricFlowSizeDistribution distribution;
            std::string error;
            bool loaded =
                distribution.Load(path, MSS, PfabricFlowSizeDistribution::PACKETS, &error);
            NS_TEST_ASSERT_MSG_EQ(loaded, false, "refused: " << message);
            NS_TEST_ASSERT_MSG_EQ(error.rfind(path, 0), 0, "starts with the file: " << error);
            NS_TEST_ASSERT_MSG_NE(error.find(message), std::string::npos, error);
            NS_TEST_ASSERT_MSG_EQ(error.find('\n'), std::string::npos, "one line");
        }
        PfabricFlowSizeDistribution distribution;
        std::string error;
        std::string missing = CreateTempDirFilename("missing.cdf");
        NS_TEST_ASSERT_MSG_EQ(
            distribution.Load(missing, MSS, PfabricFlowSizeDistribution::PACKETS, &error),
            false,
            "a missing file");
        NS_TEST_ASSERT_MSG_EQ(error, missing + ": cannot read the file", "its message");
    }
};

/**
 * Generated flows: the offered load (wire bytes over the host links' capacity until the last
 * start) is the requested one within 3%, for both workloads at two loads; sources and
 * destinations are uniform (every host within 10% of its share of 40,000 flows), no host sends to
 * itself, starts never decrease, and the same streams give the same flows, other streams others.
 */
class FlowGenerationTest : public TestCase
{
  public:
    FlowGenerationTest()
        : TestCase("Flow lists: Poisson arrivals at the requested load, uniform hosts, "
                   "reproducible")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t hosts = 16;
        const DataRate rate("10Gbps");
        const double wirePerPayload = 1500.0 / 1460;
        for (std::string workload : PfabricFlowSizeDistribution::SHIPPED)
        {
            for (double load : {0.3, 0.8})
            {
                PfabricFlowSizeDistribution sizes = MustLoad(workload);
                sizes.AssignStreams(100);
                const uint32_t n = workload == "websearch" ? 40000 : 200000;
                auto flows =
                    PfabricFlowList::Generate(sizes, hosts, rate, load, n, wirePerPayload, 200);
                NS_TEST_ASSERT_MSG_EQ(flows.size(), n, "flows");
                double wireBytes = 0;
                std::vector<uint32_t> sent(hosts, 0);
                std::vector<uint32_t> received(hosts, 0);
                for (uint32_t i = 0; i < flows.size(); ++i)
                {
                    const PfabricFlow& f = flows[i];
                    NS_TEST_ASSERT_MSG_EQ(f.id, i, "ids in order");
                    NS_TEST_ASSERT_MSG_NE(f.src, f.dst, "no flow to itself");
                    NS_TEST_ASSERT_MSG_LT(f.dst, hosts, "a host of the fabric");
                    if (i > 0)
                    {
                        NS_TEST_ASSERT_MSG_GT_OR_EQ(f.start, flows[i - 1].start, "in start order");
                    }
                    wireBytes += f.bytes * wirePerPayload;
                    ++sent[f.src];
                    ++received[f.dst];
                }
                double capacityBytes =
                    hosts * rate.GetBitRate() / 8.0 * flows.back().start.GetSeconds();
                NS_TEST_ASSERT_MSG_EQ_TOL(wireBytes / capacityBytes,
                                          load,
                                          0.03 * load,
                                          workload << " offered load");
                for (uint32_t h = 0; h < hosts; ++h)
                {
                    NS_TEST_ASSERT_MSG_EQ_TOL(sent[h], n / hosts, 0.1 * n / hosts, "sources");
                    NS_TEST_ASSERT_MSG_EQ_TOL(received[h], n / hosts, 0.1 * n / hosts, "dests");
                }
            }
        }

        PfabricFlowSizeDistribution sizes = MustLoad("websearch");
        auto draw = [&sizes, rate, wirePerPayload](int64_t stream) {
            sizes.AssignStreams(stream);
            return PfabricFlowList::Generate(sizes, 16, rate, 0.5, 100, wirePerPayload, stream + 1);
        };
        auto a = draw(10);
        auto b = draw(10);
        auto c = draw(20);
        bool same = true;
        bool differ = false;
        for (uint32_t i = 0; i < 100; ++i)
        {
            same = same && a[i].src == b[i].src && a[i].dst == b[i].dst &&
                   a[i].bytes == b[i].bytes && a[i].start == b[i].start;
            differ = differ || a[i].start != c[i].start || a[i].bytes != c[i].bytes;
        }
        NS_TEST_ASSERT_MSG_EQ(same, true, "same streams, same flows");
        NS_TEST_ASSERT_MSG_EQ(differ, true, "other streams, other flows");
    }
};

/**
 * @brief The Kolmogorov-Smirnov statistic of a sample against the exponential distribution of
 * a given mean: the largest distance between the sample's empirical CDF and 1 - exp(-x / mean).
 * @param sample the values (copied, sorted)
 * @param mean the exponential's mean
 * @return D
 */
double
KolmogorovSmirnovExponential(std::vector<double> sample, double mean)
{
    std::sort(sample.begin(), sample.end());
    const double n = sample.size();
    double d = 0;
    for (std::size_t i = 0; i < sample.size(); ++i)
    {
        const double f = 1 - std::exp(-sample[i] / mean);
        d = std::max({d, (i + 1) / n - f, f - i / n});
    }
    return d;
}

/**
 * @brief The Kolmogorov-Smirnov test's critical value at significance 0.01 for n values,
 * 1.628 / sqrt(n) (the asymptotic Kolmogorov distribution's 99% quantile; within 0.2% of the
 * exact one for n in the thousands). A sample of the distribution exceeds it with probability
 * 0.01; the draws below are fixed streams, so the outcome is the same on every run.
 * @param n the sample size
 * @return the largest D the test accepts
 */
double
KolmogorovSmirnovCritical(std::size_t n)
{
    return 1.628 / std::sqrt(double(n));
}

/**
 * The default generator's arrivals are Poisson (Kolmogorov-Smirnov at significance 0.01,
 * critical value 1.628 / sqrt(n), 0.0257 for 4,000 gaps): the gaps between successive
 * flows of 4,000 (16 hosts, web search, load 0.6) are exponential of mean 1 / (16 lambda), and
 * each host's gaps, pooled over the hosts, exponential of mean 1 / lambda. The same check refuses
 * gaps of the same mean that are not exponential: constant gaps (D = 1 - 1/e, 0.63) and uniform
 * ones on [0, 2 x mean] (D = 0.154), which every other test here would take.
 */
class PoissonArrivalsTest : public TestCase
{
  public:
    PoissonArrivalsTest()
        : TestCase("Flow lists: the default generator's gaps are exponential (Kolmogorov-Smirnov), "
                   "constant or uniform gaps of the same mean are not")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t hosts = 16;
        const uint32_t n = 4000;
        const DataRate rate("10Gbps");
        const double wirePerPayload = 1500.0 / 1460;
        const double load = 0.6;
        PfabricFlowSizeDistribution sizes = MustLoad("websearch");
        sizes.AssignStreams(1);
        const auto flows =
            PfabricFlowList::Generate(sizes, hosts, rate, load, n, wirePerPayload, 2);
        const double lambda =
            PfabricFlowList::ArrivalRate(sizes.GetMean(), rate, load, wirePerPayload);
        const double mean = 1 / (hosts * lambda);

        std::vector<double> gaps;
        std::vector<double> last(hosts, -1);
        std::vector<double> hostGaps;
        double previous = 0;
        for (const PfabricFlow& flow : flows)
        {
            const double start = flow.start.GetSeconds();
            gaps.push_back(start - previous);
            previous = start;
            if (last[flow.src] >= 0)
            {
                hostGaps.push_back(start - last[flow.src]);
            }
            last[flow.src] = start;
        }
        const double d = KolmogorovSmirnovExponential(gaps, mean);
        NS_TEST_ASSERT_MSG_LT(d,
                              KolmogorovSmirnovCritical(gaps.size()),
                              "the gaps between flows are exponential of mean 1 / (N lambda)");
        const double dHost = KolmogorovSmirnovExponential(hostGaps, 1 / lambda);
        NS_TEST_ASSERT_MSG_LT(dHost,
                              KolmogorovSmirnovCritical(hostGaps.size()),
                              "each host's gaps are exponential of mean 1 / lambda");

        // The mutants: the same number of gaps of the same mean, not exponential.
        const std::vector<double> constant(n, mean);
        const double dConstant = KolmogorovSmirnovExponential(constant, mean);
        NS_TEST_ASSERT_MSG_EQ_TOL(dConstant, 1 - std::exp(-1.0), 1e-9, "constant gaps' D");
        NS_TEST_ASSERT_MSG_GT(dConstant, KolmogorovSmirnovCritical(n), "constant gaps refused");
        std::vector<double> uniform;
        for (uint32_t i = 0; i < n; ++i)
        {
            uniform.push_back(2 * mean * (i + 0.5) / n);
        }
        NS_TEST_ASSERT_MSG_GT(KolmogorovSmirnovExponential(uniform, mean),
                              KolmogorovSmirnovCritical(n),
                              "uniform gaps refused");
    }
};

/// The original scripts' flow list as the test reads it: its columns 1-4 as written.
struct Ns2ReferenceFlow
{
    uint32_t src;      //!< source host
    uint32_t dst;      //!< destination host
    uint64_t bytes;    //!< size
    std::string start; //!< start_time_us as printed ("%.6f" microseconds, from 1 s)
};

/**
 * @brief FNV-1a (64 bits) of text, continued from a hash.
 * @param hash the hash so far (FNV's offset basis to start)
 * @param text more text
 * @return the hash
 */
uint64_t
Fnv1a(uint64_t hash, const std::string& text)
{
    for (unsigned char c : text)
    {
        hash = (hash ^ c) * 0x100000001b3ULL;
    }
    return hash;
}

/// FNV-1a's offset basis.
constexpr uint64_t FNV_BASIS = 0xcbf29ce484222325ULL;

/**
 * @brief A flow as the reference prints it: "src,dst,size_bytes,start_time_us".
 * @param src source
 * @param dst destination
 * @param bytes size
 * @param start start_time_us as printed
 * @return the line, without a newline
 */
std::string
Ns2Line(uint32_t src, uint32_t dst, uint64_t bytes, const std::string& start)
{
    return std::to_string(src) + "," + std::to_string(dst) + "," + std::to_string(bytes) + "," +
           start;
}

/**
 * @brief The original's list's setup: sigcomm13's 144 hosts at 10 Gb/s, web search at load 0.6
 * with the run scripts' mean (1138 packets), packets of 1460 B payload, 1500 B on the wire.
 * @param sizes the web search sizes
 * @return the generator
 */
PfabricNs2FlowGenerator
MakeOriginalWebSearch(const PfabricFlowSizeDistribution& sizes)
{
    return PfabricNs2FlowGenerator(sizes,
                                   144,
                                   DataRate("10Gbps"),
                                   0.6,
                                   MSS,
                                   MSS + 40,
                                   PfabricNs2FlowGenerator::OriginalMeanBytes("websearch", MSS));
}

/**
 * ns-2's RNG as the scripts seed it: the first draws of MRG32k3a from L'Ecuyer's default seed
 * (12345 in all six components) are the published ones (RngStream's first stream: 0.1270111220,
 * 0.3185275653, 0.3091860155); a seed is every component, so the generator seeded s draws the
 * same as one seeded s again; and "%6e" keeps 7 significant digits.
 */
class Ns2RngTest : public TestCase
{
  public:
    Ns2RngTest()
        : TestCase("ns-2's RNG: MRG32k3a's published first draws, the scripts' seeding, Tcl's "
                   "7 digits")
    {
    }

  private:
    void DoRun() override
    {
        PfabricNs2Rng rng(12345);
        NS_TEST_ASSERT_MSG_EQ_TOL(rng.Uniform(), 0.1270111220, 1e-10, "first draw");
        NS_TEST_ASSERT_MSG_EQ_TOL(rng.Uniform(), 0.3185275653, 1e-10, "second draw");
        NS_TEST_ASSERT_MSG_EQ_TOL(rng.Uniform(), 0.3091860155, 1e-10, "third draw");
        PfabricNs2Rng a(44869);
        PfabricNs2Rng b(44869);
        NS_TEST_ASSERT_MSG_EQ(a.Exponential(2.0), b.Exponential(2.0), "same seed, same draw");
        NS_TEST_ASSERT_MSG_EQ(PfabricNs2FlowGenerator::ArrivalSeed(5, 36), 44869u, "17i + 1244j");
        NS_TEST_ASSERT_MSG_EQ(PfabricNs2FlowGenerator::SizeSeed(5, 36), 157449u, "33i + 4369j");
        NS_TEST_ASSERT_MSG_EQ(PfabricNs2FlowGenerator::TclValue(6.9042164e-06),
                              6.904216e-06,
                              "7 significant digits");
        NS_TEST_ASSERT_MSG_EQ(PfabricNs2FlowGenerator::TclValue(327), 327.0, "whole packets");
    }
};

/**
 * --arrivals=ns2 draws the original scripts' own flows: on sigcomm13's 144 hosts (10 Gb/s), web
 * search at load 0.6 with the scripts' mean (1138 packets), the first 2,000 flows are those of
 * the original's list (workloads/ns2-websearch-sigcomm13-load0.6-first2000.csv, copied from the
 * shared reference, an unmodified ns-2.34 run of empirical_search_pfabric.tcl) to the printed
 * digit: source, destination, size and start_time_us ("%.6f" microseconds from the scripts'
 * 1 s), and the first 10,000, the whole reference list, hash to its FNV-1a hash of the same
 * lines. The flows' ns-3 start is the scripts' time less 1 s, rounded to the nanosecond.
 */
class Ns2ArrivalsReferenceTest : public TestCase
{
  public:
    Ns2ArrivalsReferenceTest()
        : TestCase("Flow lists: --arrivals=ns2 draws the original scripts' 10,000 flows exactly")
    {
    }

  private:
    void DoRun() override
    {
        const std::string cdf = PfabricFlowSizeDistribution::FindShipped("websearch");
        NS_TEST_ASSERT_MSG_NE(cdf, "", "the shipped workloads");
        const std::string path =
            cdf.substr(0, cdf.rfind('/') + 1) + "ns2-websearch-sigcomm13-load0.6-first2000.csv";
        std::ifstream in(path);
        NS_TEST_ASSERT_MSG_EQ(in.good(), true, path);
        std::vector<Ns2ReferenceFlow> reference;
        for (std::string line; std::getline(in, line);)
        {
            if (line.empty() || line[0] == '#' || line.rfind("flow_idx", 0) == 0)
            {
                continue;
            }
            std::vector<std::string> fields;
            std::istringstream text(line);
            for (std::string field; std::getline(text, field, ',');)
            {
                fields.push_back(field);
            }
            NS_TEST_ASSERT_MSG_EQ(fields.size(), 6u, path << ": " << line);
            reference.push_back({static_cast<uint32_t>(std::stoul(fields[1])),
                                 static_cast<uint32_t>(std::stoul(fields[2])),
                                 std::stoull(fields[3]),
                                 fields[4]});
        }
        NS_TEST_ASSERT_MSG_EQ(reference.size(), 2000u, "the reference's first 2,000 flows");

        PfabricFlowSizeDistribution sizes = MustLoad("websearch");
        PfabricNs2FlowGenerator generator = MakeOriginalWebSearch(sizes);
        uint64_t hash = FNV_BASIS;
        uint32_t differ = 0;
        for (uint32_t i = 0; i < 10000; ++i)
        {
            const PfabricFlow flow = generator.Next();
            char start[32];
            std::snprintf(start, sizeof(start), "%.6f", generator.GetLastArrival() * 1e6);
            const std::string line = Ns2Line(flow.src, flow.dst, flow.bytes, start);
            hash = Fnv1a(hash, line + "\n");
            NS_TEST_ASSERT_MSG_EQ(flow.id, i, "ids in order");
            NS_TEST_ASSERT_MSG_EQ(
                flow.start,
                NanoSeconds(std::llround(
                    (generator.GetLastArrival() - PfabricNs2FlowGenerator::ORIGIN_S) * 1e9)),
                "the scripts' time less 1 s, to the nanosecond");
            if (i < reference.size())
            {
                const Ns2ReferenceFlow& r = reference[i];
                const std::string expected = Ns2Line(r.src, r.dst, r.bytes, r.start);
                differ += line == expected ? 0 : 1;
                NS_TEST_EXPECT_MSG_EQ(line, expected, "flow " << i);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(differ, 0u, "flows unlike the reference's among its first 2,000");
        NS_TEST_ASSERT_MSG_EQ(hash,
                              0x66a0c8d3003f5900ULL,
                              "the reference's 10,000 flows (FNV-1a of src,dst,size_bytes,"
                              "start_time_us lines)");
        NS_TEST_ASSERT_MSG_EQ(generator.GetDrawn(), 10000u, "flows drawn");
    }
};

/**
 * The original's arrivals, seen through the test the default generator passes: the gaps between
 * successive flows of its first 4,000 (144 hosts, web search, load 0.6) are far from exponential
 * (D about 0.29 against a critical value of 0.026): each pair's process is Poisson, but pairs whose
 * seeds are multiples of one another start flows at multiples of one gap, so runs of flows come
 * at equal gaps from pairs a fixed step apart. A pair's own gaps are exponential of mean
 * 143 / lambda (1,500 gaps of each of three pairs, pooled).
 */
class Ns2ArrivalsRegularityTest : public TestCase
{
  public:
    Ns2ArrivalsRegularityTest()
        : TestCase("Flow lists: --arrivals=ns2's merged gaps are not exponential, its pairs' are")
    {
    }

  private:
    void DoRun() override
    {
        PfabricFlowSizeDistribution sizes = MustLoad("websearch");
        PfabricNs2FlowGenerator generator = MakeOriginalWebSearch(sizes);
        const uint32_t hosts = 144;
        const double lambda =
            (10e9 * 0.6) /
            (PfabricNs2FlowGenerator::OriginalMeanBytes("websearch", MSS) * 8.0 / MSS * (MSS + 40));
        NS_TEST_ASSERT_MSG_EQ_TOL(generator.GetPairMeanGap(),
                                  (hosts - 1) / lambda,
                                  1e-12,
                                  "each pair's mean gap");
        std::vector<double> gaps;
        double previous = 0;
        for (const PfabricFlow& flow : generator.Next(4000))
        {
            gaps.push_back(flow.start.GetSeconds() - previous);
            previous = flow.start.GetSeconds();
        }
        NS_TEST_ASSERT_MSG_GT(KolmogorovSmirnovExponential(gaps, 1 / (hosts * lambda)),
                              KolmogorovSmirnovCritical(gaps.size()),
                              "successive flows' gaps are not exponential");
        // One pair's own gaps: seed 17i + 1244j, drawn as the scripts do (each value through
        // Tcl's 7 digits), are exponential of the pair's mean.
        std::vector<double> pairGaps;
        for (uint32_t src : {1u, 7u, 100u})
        {
            PfabricNs2Rng rng(PfabricNs2FlowGenerator::ArrivalSeed(src, 143 - src));
            for (int k = 0; k < 1500; ++k)
            {
                pairGaps.push_back(
                    PfabricNs2FlowGenerator::TclValue(rng.Exponential(generator.GetPairMeanGap())));
            }
        }
        NS_TEST_ASSERT_MSG_LT(KolmogorovSmirnovExponential(pairGaps, generator.GetPairMeanGap()),
                              KolmogorovSmirnovCritical(pairGaps.size()),
                              "a pair's own gaps are exponential");
    }
};

/// A written flow list reads back exactly; bad flow files and unwritable paths are refused.
class FlowFileTest : public TestCase
{
  public:
    FlowFileTest()
        : TestCase("Flow lists: CSV round trip to the nanosecond, bad files refused")
    {
    }

  private:
    void DoRun() override
    {
        PfabricFlowSizeDistribution sizes = MustLoad("datamining");
        sizes.AssignStreams(1);
        auto flows =
            PfabricFlowList::Generate(sizes, 54, DataRate("10Gbps"), 0.7, 1000, 1500.0 / 1460, 2);
        std::string path = CreateTempDirFilename("flows.csv");
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(PfabricFlowList::Write(path, flows, &error), true, error);
        std::vector<PfabricFlow> back;
        NS_TEST_ASSERT_MSG_EQ(PfabricFlowList::Read(path, 54, &back, &error), true, error);
        NS_TEST_ASSERT_MSG_EQ(back.size(), flows.size(), "every flow");
        for (std::size_t i = 0; i < flows.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(back[i].src, flows[i].src, "src");
            NS_TEST_ASSERT_MSG_EQ(back[i].dst, flows[i].dst, "dst");
            NS_TEST_ASSERT_MSG_EQ(back[i].bytes, flows[i].bytes, "size");
            NS_TEST_ASSERT_MSG_EQ(back[i].start, flows[i].start, "start, to the nanosecond");
        }

        // Late times read back exactly too (through a double they came back nanoseconds off
        // from about 10^6 s on; test/fuzz, fuzz-flow-list).
        std::vector<PfabricFlow> late{
            {0, 1, 2, 1000, NanoSeconds(9223372035999999999), Time::Max()},
            {1, 2, 1, 1000, NanoSeconds(1234567890123456789), NanoSeconds(1234567890123456790)}};
        NS_TEST_ASSERT_MSG_EQ(PfabricFlowList::Write(path, late, &error), true, error);
        NS_TEST_ASSERT_MSG_EQ(PfabricFlowList::Read(path, 54, &back, &error), true, error);
        NS_TEST_ASSERT_MSG_EQ(back.size(), 2, "both late flows");
        NS_TEST_ASSERT_MSG_EQ(back[0].start, late[0].start, "the latest start, to the nanosecond");
        NS_TEST_ASSERT_MSG_EQ(back[1].start, late[1].start, "a late start, to the nanosecond");
        NS_TEST_ASSERT_MSG_EQ(back[1].deadline, late[1].deadline, "its deadline, 1 ns later");

        // Finer than ns-3's nanosecond (another tool's float): the nearest nanosecond, by design.
        {
            std::ofstream fine(path);
            fine << PfabricFlowList::CSV_HEADER << "\n0,1,1000,0.0000000014\n1,0,1000,2.6e-9\n";
        }
        NS_TEST_ASSERT_MSG_EQ(PfabricFlowList::Read(path, 54, &back, &error), true, error);
        NS_TEST_ASSERT_MSG_EQ(back.size(), 2, "both fine flows");
        NS_TEST_ASSERT_MSG_EQ(back[0].start, NanoSeconds(1), "1.4 ns: 1 ns");
        NS_TEST_ASSERT_MSG_EQ(back[1].start, NanoSeconds(3), "2.6 ns: 3 ns");

        const std::string header = PfabricFlowList::CSV_HEADER + "\n";
        const std::vector<std::pair<std::string, std::string>> cases{
            {"src,dst,bytes,start\n0,1,10,0\n",
             ":1: the header must be src,dst,size_bytes,start_s"},
            {header + "0,1,10\n", ":2: expected 4 fields"},
            // getline dropped a last empty field: a trailing comma was taken (the eighth probe),
            // and a row ending ",," was counted one short
            {header + "0,1,10,0\n2,3,20,0.1,\n",
             ":3: expected 4 fields (src,dst,size_bytes,start_s), got 5"},
            {header + "0,1,10,0,,\n", ":2: expected 4 fields (src,dst,size_bytes,start_s), got 6"},
            {PfabricFlowList::CSV_HEADER_DEADLINES + "\n0,1,10,0,0.5,\n",
             ":2: expected 5 fields (src,dst,size_bytes,start_s,deadline_s), got 6"},
            {header + "0,1,10,0\n0,54,10,0\n", ":3: host 54 is outside the fabric (hosts 0 to 53)"},
            {header + "0,1,-5,0\n", ":2: size_bytes '-5' is not a positive integer"},
            {header + "0,1,0,0\n", ":2: size_bytes '0' is not a positive integer"},
            {header + "3,3,10,0\n", ":2: a flow from host 3 to itself"},
            {header + "0,1,10,-1\n", ":2: start_s '-1' is not a non-negative number"},
            {header + "0,x,10,0\n", ":2: hosts must be non-negative integers"},
            // A start beyond Time's 64 bits became a negative time (llround overflowed).
            {header + "0,1,1000,1e10\n",
             ":2: start_s '1e10' is later than 9223372035 s (the latest time a simulation holds)"},
            {header + "0,1,1000,9999999999\n", ":2: start_s '9999999999' is later than"},
            {header + "0,1,1000, 1\n", ":2: start_s ' 1' is not a non-negative number"},
            {header + "0,1,1000,0x1\n", ":2: start_s '0x1' is not a non-negative number"},
            {header + std::string("0,1,1000,1\0x\n", 13), ":2: start_s '1"},
        };
        int i = 0;
        for (const auto& [text, message] : cases)
        {
            std::string bad = CreateTempDirFilename("bad-flows-" + std::to_string(i++) + ".csv");
            WriteFile(bad, text);
            std::vector<PfabricFlow> read;
            NS_TEST_ASSERT_MSG_EQ(PfabricFlowList::Read(bad, 54, &read, &error), false, message);
            NS_TEST_ASSERT_MSG_EQ(error.rfind(bad + message, 0), 0, error);
        }

        std::string unwritable = CreateTempDirFilename("no-such-directory/flows.csv");
        NS_TEST_ASSERT_MSG_EQ(PfabricFlowList::Write(unwritable, flows, &error), false, "refused");
        NS_TEST_ASSERT_MSG_EQ(error, unwritable + ": cannot write the file", "its message");
        NS_TEST_ASSERT_MSG_EQ(std::ifstream(unwritable).good(), false, "nothing written");
    }
};

/**
 * @brief A pipe holding a text, as the shell's <(...) gives one: its path /dev/fd/N, readable
 * once (the text fits the pipe's buffer, so it is written before anything reads).
 */
class TextPipe
{
  public:
    /// @param text what the pipe holds
    explicit TextPipe(const std::string& text)
    {
        int ends[2];
        NS_ABORT_MSG_IF(pipe(ends) != 0, "pipe");
        m_read = ends[0];
        NS_ABORT_MSG_IF(write(ends[1], text.data(), text.size()) != ssize_t(text.size()),
                        "write to the pipe");
        close(ends[1]);
    }

    ~TextPipe()
    {
        close(m_read);
    }

    TextPipe(const TextPipe&) = delete;
    TextPipe& operator=(const TextPipe&) = delete;

    /// @return its path, /dev/fd/N
    std::string GetPath() const
    {
        return "/dev/fd/" + std::to_string(m_read);
    }

  private:
    int m_read; //!< the read end
};

/**
 * @ingroup pfabric-tests
 * @brief A flow list and a CDF read from a pipe (--flowFile=<(...), --cdf=<(...)) read as the
 * same text from a file does, with or without a byte-order mark; the reader had checked for the
 * mark and sought back to the start, which a pipe refuses: a false error on its first line.
 */
class PipeInputTest : public TestCase
{
  public:
    PipeInputTest()
        : TestCase("Flow lists and CDFs: read from a pipe as from a file")
    {
    }

  private:
    void DoRun() override
    {
        const std::string list = PfabricFlowList::CSV_HEADER + "\n0,1,1000,0\n2,3,5000,0.5\n";
        const std::string cdf = "# a CDF\n1 0.5\n10 1\n";
        for (const std::string& mark : {std::string(), std::string("\xEF\xBB\xBF")})
        {
            std::string error;
            TextPipe listPipe(mark + list);
            std::vector<PfabricFlow> flows;
            NS_TEST_ASSERT_MSG_EQ(PfabricFlowList::Read(listPipe.GetPath(), 4, &flows, &error),
                                  true,
                                  error);
            NS_TEST_ASSERT_MSG_EQ(flows.size(), 2, "both flows");
            if (flows.size() == 2) // the runner goes on after a failed check
            {
                NS_TEST_ASSERT_MSG_EQ(flows[1].bytes, 5000, "the second flow's size");
                NS_TEST_ASSERT_MSG_EQ(flows[1].start, MilliSeconds(500), "its start");
            }

            TextPipe cdfPipe(mark + cdf);
            PfabricFlowSizeDistribution sizes;
            NS_TEST_ASSERT_MSG_EQ(
                sizes.Load(cdfPipe.GetPath(), MSS, PfabricFlowSizeDistribution::PACKETS, &error),
                true,
                error);
            NS_TEST_ASSERT_MSG_EQ(sizes.GetPoints().size(), 2, "both points");
            NS_TEST_ASSERT_MSG_EQ(sizes.GetPath(), cdfPipe.GetPath(), "its path, as given");
        }
        // A pipe's error names its line, as a file's does.
        TextPipe bad(PfabricFlowList::CSV_HEADER + "\n0,1,1000,0\n0,9,1000,0\n");
        std::vector<PfabricFlow> flows;
        std::string error;
        NS_TEST_ASSERT_MSG_EQ(PfabricFlowList::Read(bad.GetPath(), 4, &flows, &error),
                              false,
                              "host 9 refused");
        NS_TEST_ASSERT_MSG_EQ(error,
                              bad.GetPath() + ":3: host 9 is outside the fabric (hosts 0 to 3)",
                              "its message");
        // A directory cannot be read: said so, not a complaint about its first line.
        const std::string directory = CreateTempDirFilename("a-directory");
        std::filesystem::create_directory(directory);
        NS_TEST_ASSERT_MSG_EQ(PfabricFlowList::Read(directory, 4, &flows, &error),
                              false,
                              "a directory refused");
        NS_TEST_ASSERT_MSG_EQ(error, directory + ": cannot read the file", "its message");
    }
};

/**
 * @ingroup pfabric-tests
 * @brief A run that fails after its run directory was made (PfabricResultsWriter::Abandon: a
 * parameter refused after Prepare, a file not written) leaves no directory it created, the
 * parents --out=a/b/c made included, and no file it wrote; a directory that existed before, and
 * another's file in one it made, stay.
 */
class RunDirectoryAbandonTest : public TestCase
{
  public:
    RunDirectoryAbandonTest()
        : TestCase("Run directories: a failed run removes every level it created, no other")
    {
    }

  private:
    void DoRun() override
    {
        namespace fs = std::filesystem;
        const fs::path base = CreateTempDirFilename("run-directories");
        fs::create_directories(base);
        const fs::path nested = base / "a" / "b" / "c";
        std::string error;

        // Every level made, every level removed.
        PfabricResultsWriter writer;
        NS_TEST_ASSERT_MSG_EQ(writer.Open(nested.string()), "", "opened");
        NS_TEST_ASSERT_MSG_EQ(fs::is_directory(nested), true, "made");
        NS_TEST_ASSERT_MSG_EQ(PfabricResultsWriter::GetCreatedDirectories().size(),
                              3,
                              "c, b and a made");
        writer.Abandon();
        NS_TEST_ASSERT_MSG_EQ(fs::exists(base / "a"), false, "a/b/c, a/b and a removed");
        NS_TEST_ASSERT_MSG_EQ(PfabricResultsWriter::GetCreatedDirectories().empty(),
                              true,
                              "none left to remove");

        // A parent that existed stays; the files written go with the levels made.
        fs::create_directories(base / "a");
        PfabricResultsWriter written;
        NS_TEST_ASSERT_MSG_EQ(written.Open(nested.string() + "/"), "", "opened, trailing slash");
        PfabricJsonObject meta;
        NS_TEST_ASSERT_MSG_EQ(written.WriteMeta(meta, &error), true, error);
        NS_TEST_ASSERT_MSG_EQ(written.WriteFile("queries.csv", "x\n", &error), true, error);
        written.Abandon();
        NS_TEST_ASSERT_MSG_EQ(fs::exists(base / "a" / "b"), false, "b, c and their files gone");
        NS_TEST_ASSERT_MSG_EQ(fs::is_directory(base / "a"), true, "a, there before, stays");

        // A directory that existed is left as it was, but for the files the run wrote.
        fs::create_directories(nested);
        std::ofstream(nested / "notes.txt") << "another's";
        PfabricResultsWriter existing;
        NS_TEST_ASSERT_MSG_EQ(existing.Open(nested.string()), "", "opened");
        NS_TEST_ASSERT_MSG_EQ(existing.WriteMeta(meta, &error), true, error);
        existing.Abandon();
        NS_TEST_ASSERT_MSG_EQ(fs::exists(nested / "meta.json"), false, "meta.json removed");
        NS_TEST_ASSERT_MSG_EQ(fs::exists(nested / "notes.txt"), true, "another's file stays");
        fs::remove_all(base / "a");

        // Another's file in a level the run made: that level and those above it stay.
        PfabricResultsWriter shared;
        NS_TEST_ASSERT_MSG_EQ(shared.Open(nested.string()), "", "opened");
        std::ofstream(base / "a" / "b" / "other.txt") << "another's";
        shared.Abandon();
        NS_TEST_ASSERT_MSG_EQ(fs::exists(nested), false, "c removed");
        NS_TEST_ASSERT_MSG_EQ(fs::exists(base / "a" / "b" / "other.txt"), true, "b kept");
        fs::remove_all(base / "a");

        // A level that cannot be made (a file in the way): refused, the file left as it was.
        std::ofstream(base / "file") << "";
        PfabricResultsWriter blocked;
        const std::string through = (base / "file" / "z").string();
        NS_TEST_ASSERT_MSG_EQ(
            blocked.Open(through).rfind("--out=" + through + ": cannot create the directory", 0),
            0,
            "a file in the way refused");
        NS_TEST_ASSERT_MSG_EQ(fs::is_regular_file(base / "file"), true, "the file stays");
        NS_TEST_ASSERT_MSG_EQ(PfabricResultsWriter::GetCreatedDirectories().empty(),
                              true,
                              "nothing left to remove");
    }
};

/**
 * @ingroup pfabric-tests
 * @brief The progress line's ETA follows the bytes delivered, not the flows completed.
 */
class ProgressEstimateTest : public TestCase
{
  public:
    ProgressEstimateTest()
        : TestCase("Experiments: the progress ETA comes from the bytes delivered")
    {
    }

  private:
    void DoRun() override
    {
        // Nothing delivered yet: no estimate.
        NS_TEST_ASSERT_MSG_LT(PfabricExperiment::EstimateSecondsLeft(10, 0, 1000), 0, "none");
        // A quarter of the bytes in 30 s: 90 s left at that rate.
        NS_TEST_ASSERT_MSG_EQ_TOL(PfabricExperiment::EstimateSecondsLeft(30, 250, 1000),
                                  90.0,
                                  1e-9,
                                  "a quarter done");
        // Everything delivered (or more than the flows' bytes): nothing left.
        NS_TEST_ASSERT_MSG_EQ(PfabricExperiment::EstimateSecondsLeft(30, 1000, 1000), 0.0, "done");
        NS_TEST_ASSERT_MSG_EQ(PfabricExperiment::EstimateSecondsLeft(30, 1200, 1000), 0.0, "over");
        // Heavy tail: 99 of 100 flows done but half of the bytes left; by flows the ETA would
        // be 1% of the elapsed time, by bytes it is all of it again.
        NS_TEST_ASSERT_MSG_EQ_TOL(PfabricExperiment::EstimateSecondsLeft(500, 41000, 82000),
                                  500.0,
                                  1e-9,
                                  "half the bytes left");
    }
};

} // namespace

std::vector<TestCase*>
MakeWorkloadTestCases()
{
    return {new FlowSizeSamplingTest,
            new FlowSizeQuantileTest,
            new FlowSizeNarrowSegmentMeanTest,
            new FlowSizeFileErrorTest,
            new FlowGenerationTest,
            new PoissonArrivalsTest,
            new Ns2RngTest,
            new Ns2ArrivalsReferenceTest,
            new Ns2ArrivalsRegularityTest,
            new FlowFileTest,
            new PipeInputTest,
            new RunDirectoryAbandonTest,
            new ProgressEstimateTest};
}

} // namespace tests
} // namespace pfabric
} // namespace ns3
