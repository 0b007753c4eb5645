/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The only translation unit the size bins' edges are compiled into (from size-bins.txt, by
// CMakeLists.txt or wscript): new edges recompile this file alone.

#include "pfabric-size-bins.h"

#if !defined(PFABRIC_SMALL_FLOW_BYTES) || !defined(PFABRIC_LARGE_FLOW_BYTES)
#error "the build passes the size bins of size-bins.txt (CMakeLists.txt, wscript)"
#endif

namespace ns3
{
namespace pfabric
{

namespace
{

/// An edge in the largest unit that divides it, as the analysis writes it: 100000 is "100KB".
std::string
SizeText(uint64_t bytes)
{
    if (bytes % 1000000 == 0)
    {
        return std::to_string(bytes / 1000000) + "MB";
    }
    if (bytes % 1000 == 0)
    {
        return std::to_string(bytes / 1000) + "KB";
    }
    return std::to_string(bytes) + "B";
}

} // namespace

std::vector<SizeBin>
SizeBins()
{
    const uint64_t small = PFABRIC_SMALL_FLOW_BYTES;
    const uint64_t large = PFABRIC_LARGE_FLOW_BYTES;
    static_assert(PFABRIC_SMALL_FLOW_BYTES > 0 &&
                      PFABRIC_SMALL_FLOW_BYTES < PFABRIC_LARGE_FLOW_BYTES,
                  "size-bins.txt: two increasing positive edges");
    return {{"(0," + SizeText(small) + "]", 0, small},
            {"(" + SizeText(small) + "," + SizeText(large) + "]", small, large},
            {"(" + SizeText(large) + ",inf)", large, UINT64_MAX}};
}

} // namespace pfabric
} // namespace ns3
