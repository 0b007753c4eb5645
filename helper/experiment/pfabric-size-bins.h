/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The flow-size bins of the programs' end-of-run table, from size-bins.txt, their one home,
// which the analysis (pfabric_analysis.runs) reads too.

#ifndef PFABRIC_SIZE_BINS_H
#define PFABRIC_SIZE_BINS_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace pfabric
{

/**
 * @ingroup pfabric
 * One flow-size bin: the flows of more than low and at most high bytes.
 */
struct SizeBin
{
    std::string name; //!< as the analysis names it, e.g. (0,100KB]
    uint64_t low;     //!< exclusive, in bytes
    uint64_t high;    //!< inclusive, in bytes; UINT64_MAX for the last bin
};

/**
 * @ingroup pfabric
 * @return the three size bins, smallest first: (0, small], (small, large], (large, inf), with
 * the two edges of size-bins.txt (KB = 1000 B), compiled in by the build (CMakeLists.txt,
 * wscript); each named by its edges in the largest unit that divides them (B, KB, MB)
 */
std::vector<SizeBin> SizeBins();

} // namespace pfabric
} // namespace ns3

#endif // PFABRIC_SIZE_BINS_H
