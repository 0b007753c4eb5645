/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// pfabric-datamining: data mining flows (VL2 measurement) on a datacenter fabric under one
// scheme and load; the same experiment and outputs as pfabric-websearch (PfabricExperiment).
//
//   ./pfabric run pfabric-datamining -- --scheme=linerate --load=0.5

#include "ns3/pfabric-experiment-program.h"

int
main(int argc, char* argv[])
{
    return ns3::pfabric::RunExperimentProgram(argc, argv, "datamining");
}
