/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_TEST_CASES_H
#define PFABRIC_TEST_CASES_H

// The module's test cases, grouped by file; pfabric-test-suite.cc collects them into the one
// "pfabric" suite that `./test.py -s pfabric` runs.

#include "ns3/pfabric-experiment.h"
#include "ns3/test.h"

#include <string>
#include <vector>

namespace ns3
{
namespace pfabric
{
namespace tests
{

/**
 * @brief What the FCT programs do with an experiment the caller has set up (its run directory
 * among the parameters): Prepare, Install, Run, AddProvenance, WriteResults; stops the test
 * program on an error.
 * @param experiment the experiment
 * @return its meta.json object
 */
PfabricJsonObject RunToCompletion(PfabricExperiment& experiment);

/**
 * @brief Make an experiment's parameters a small run on a star of four hosts, the tests' usual
 * fabric when a run must be quick (the programs' --topology=star --hosts=4).
 * @param p the experiment's parameters
 * @param dir the run directory
 * @param flows how many flows
 */
void SetSmallStar(PfabricExperiment::Parameters& p, const std::string& dir, uint32_t flows);

/// @return the PfabricQueueDisc and PfabricPriorityTag test cases
std::vector<TestCase*> MakeQueueDiscTestCases();

/// @return the PfabricQueueDiscHelper test cases: device queue limit, installation
std::vector<TestCase*> MakeQueueDiscHelperTestCases();

/// @return the custom scheme test cases: checks
std::vector<TestCase*> MakeCustomSchemeTestCases();

/// @return the custom scheme test cases that take seconds: built-in schemes' parts flow for flow,
///         ns-3's parts
std::vector<TestCase*> MakeCustomSchemeExtensiveTestCases();

/// @return the deadline test cases: EDF against remaining size, terminate, deadline drawing
std::vector<TestCase*> MakeDeadlinesTestCases();

/// @return the fabric helper and PfabricFabricRouting test cases
std::vector<TestCase*> MakeFabricTestCases();

/// @return the PfabricFlowApplication test cases
std::vector<TestCase*> MakeFlowApplicationTestCases();

/// @return the incast test cases: ideal QCT, placement, queries
std::vector<TestCase*> MakeIncastTestCases();

/// @return the incast test cases that take seconds: pFabric against TCP-DropTail
std::vector<TestCase*> MakeIncastExtensiveTestCases();

/// @return the lean host test cases: the same segments as ns-3's TCP/IP, lone flows ideal
std::vector<TestCase*> MakeLeanHostTestCases();

/// @return the PfabricLinkNetDevice test cases: order, timing, events, FIFO, pcap
std::vector<TestCase*> MakeLinkTestCases();

/// @return the finite priority levels test cases: thresholds, PfabricLevelQueueDisc, tags
std::vector<TestCase*> MakeLevelsTestCases();

/// @return the traffic class test cases: PfabricClassQueueDisc, the class end to end
std::vector<TestCase*> MakeClassesTestCases();

/// @return the end-to-end test cases over one pFabric bottleneck
std::vector<TestCase*> MakePreemptionTestCases();

/// @return the priority policy test cases (ranks, deadlines, quantisation)
std::vector<TestCase*> MakePriorityPolicyTestCases();

/// @return the transport test cases (MinTCP, LineRate, TCP, DCTCP)
std::vector<TestCase*> MakeTransportTestCases();

/// @return the stop report test cases: why a run stopped, what it left unfinished
std::vector<TestCase*> MakeStopReportTestCases();

/// @return the settings trial test cases: steps in a child, the failing one named, Prepare's
std::vector<TestCase*> MakeSettingsTrialTestCases();

/// @return the measurement window test cases: a large flow's FCT, the size limit's accounting,
///         options
std::vector<TestCase*> MakeWindowTestCases();

/// @return the measurement window test cases that take seconds: off, same flows, the size limit
///         on a run
std::vector<TestCase*> MakeWindowExtensiveTestCases();

/// @return the workload test cases (flow-size distributions)
std::vector<TestCase*> MakeWorkloadTestCases();

} // namespace tests
} // namespace pfabric
} // namespace ns3

#endif /* PFABRIC_TEST_CASES_H */
