/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// pfabric-classes: pFabric within traffic classes (HotNets 2012, section 2.5). Web search flows
// (class 0) and data mining flows (class 1) share one fabric, each class at its own load; every
// switch port and NIC serves the classes by the operator's policy (--classes=drr with
// --classWeights, or strict priority) and, within each class, by pFabric's priority scheduling
// and dropping in a buffer of the class's own (PfabricClassQueueDisc). --classes=none puts both
// in one pFabric queue per port, the reference. Every flow's completion time and class go to
// fct.csv, the run's provenance to meta.json, a summary per class and size bin to stdout.
// With no arguments: the hotnets12 fat-tree, MinTCP+pFabric, loads 0.3 + 0.3, DRR 1:1. Every
// knob: --PrintHelp; the experiment: PfabricExperiment; the figure: pfabric-analysis classes.
//
//   ./pfabric run pfabric-classes -- --flows=300 --classWeights=3,1
//   ./pfabric run pfabric-classes -- --flows=300 --classes=strict

#include "ns3/pfabric-experiment-program.h"

int
main(int argc, char* argv[])
{
    return ns3::pfabric::RunExperimentProgram(argc, argv, "classes");
}
