/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Fuzz target: the flow-list reader (PfabricFlowList::Read, --flowFile=FILE). A list it accepts
// holds flows between distinct hosts of the fabric, of at least a byte, starting at a time of at
// least 0 with any deadline after it; and it is written back (PfabricFlowList::Write, --dumpFlows)
// as a file that reads back as the same flows.

#include "fuzz-common.h"

#include "ns3/pfabric-flow-list.h"

#include <algorithm>
#include <string>

using namespace ns3;
using pfabric_fuzz::Require;

namespace
{

/// Hosts of the fabric: the sigcomm13 leaf-spine's.
constexpr uint32_t HOSTS = 144;

bool
SameFlow(const PfabricFlow& a, const PfabricFlow& b)
{
    return a.id == b.id && a.src == b.src && a.dst == b.dst && a.bytes == b.bytes &&
           a.start == b.start && a.deadline == b.deadline;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = pfabric_fuzz::WriteInput("flows.csv", data, size);
    std::vector<PfabricFlow> flows;
    std::string error;
    if (!PfabricFlowList::Read(path, HOSTS, &flows, &error))
    {
        pfabric_fuzz::RequireErrorLine(error, path + ":");
        return 0;
    }
    // After its header, an accepted list is decimal numbers, commas and line ends (no NUL byte,
    // where strtod stops; no blanks, hexadecimal, inf or nan).
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::size_t body = std::min(text.find('\n'), text.size());
    Require(text.find_first_not_of("0123456789.eE+-,\r\n", body) == std::string::npos,
            "accepted a list whose lines are not decimal numbers");
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        const PfabricFlow& flow = flows[i];
        Require(flow.id == i, "accepted: ids not 0, 1, ...");
        Require(flow.src < HOSTS && flow.dst < HOSTS && flow.src != flow.dst,
                "accepted: a host outside the fabric or a flow to itself");
        Require(flow.bytes > 0, "accepted: a flow of 0 bytes");
        Require(!flow.start.IsStrictlyNegative(), "accepted: a negative start time");
        Require(flow.deadline > flow.start, "accepted: a deadline not after the start");
    }
    const std::string copy = (pfabric_fuzz::Directory() / "copy.csv").string();
    Require(PfabricFlowList::Write(copy, flows, &error), "cannot write the list back: " + error);
    std::vector<PfabricFlow> again;
    Require(PfabricFlowList::Read(copy, HOSTS, &again, &error),
            "the list written back is refused: " + error);
    Require(again.size() == flows.size(), "the list written back has another number of flows");
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        Require(SameFlow(flows[i], again[i]),
                "flow " + std::to_string(i) + " reads back different (start " +
                    std::to_string(flows[i].start.GetNanoSeconds()) + " ns, then " +
                    std::to_string(again[i].start.GetNanoSeconds()) + " ns)");
    }
    return 0;
}
