/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// pfabric-websearch: web search flows (DCTCP paper measurement) on a datacenter fabric under one
// scheme and load; every flow's completion time goes to fct.csv, the run's provenance to
// meta.json, and a summary per size bin to stdout. With no arguments: the hotnets12 fat-tree,
// MinTCP+pFabric, load 0.6. Every knob: --PrintHelp; the experiment: PfabricExperiment; the
// program around it: pfabric-experiment-program.h.
//
//   ./pfabric run pfabric-websearch -- --scheme=tcp --load=0.8
//   ./ns3 run "pfabric-websearch --preset=sigcomm13 --flows=10000"

#include "ns3/pfabric-experiment-program.h"

int
main(int argc, char* argv[])
{
    return ns3::pfabric::RunExperimentProgram(argc, argv, "websearch");
}
