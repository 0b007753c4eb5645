/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// pfabric-deadlines: flows with deadlines (HotNets 2012, section 2.2: pFabric emulates earliest
// deadline first when packets carry the time left to their flow's deadline). Web search flows
// (--cdf for others) on a datacenter fabric under one scheme and load, as pfabric-websearch,
// and each flow, with probability --deadlineFraction, a deadline at its start + max(
// --deadlineMinFactor x its ideal FCT, X), X exponential of mean --deadlineMean, drawn from
// streams of their own: every scheme of a (load, seed, run) gets the same flows and deadlines.
// --priority=edf|remaining picks what pFabric's packets carry; --onMiss=continue|terminate what
// a late flow does. fct.csv gains deadline_s, met and terminated; the summary adds the share of
// deadlines met. Every knob: --PrintHelp; doc/experiments.rst, "Deadlines".
//
//   ./pfabric run pfabric-deadlines -- --flows=300 --load=0.6 --priority=remaining
//   ./pfabric run pfabric-deadlines -- --scheme=tcp --deadlineFraction=0.5 --onMiss=terminate

#include "ns3/pfabric-experiment-program.h"

int
main(int argc, char* argv[])
{
    return ns3::pfabric::RunExperimentProgram(argc, argv, "websearch", true);
}
