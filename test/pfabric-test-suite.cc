/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfabric-test-cases.h"

#include "ns3/abort.h"

#include <string>

namespace ns3
{
namespace pfabric
{
namespace tests
{

PfabricJsonObject
RunToCompletion(PfabricExperiment& experiment)
{
    std::string error;
    bool prepared = experiment.Prepare(&error);
    NS_ABORT_MSG_UNLESS(prepared, error);
    experiment.Install();
    experiment.Run();
    PfabricJsonObject meta;
    experiment.AddProvenance(meta);
    bool written = experiment.WriteResults(meta, &error);
    NS_ABORT_MSG_UNLESS(written, error);
    return meta;
}

/**
 * @ingroup pfabric-tests
 * @brief Every test of the pfabric module, as one suite for `./test.py -s pfabric`.
 */
class PfabricTestSuite : public TestSuite
{
  public:
    PfabricTestSuite()
        : TestSuite("pfabric", TestSuite::Type::UNIT)
    {
        for (auto make : {MakeQueueDiscTestCases,
                          MakeQueueDiscHelperTestCases,
                          MakeCustomSchemeTestCases,
                          MakeDeadlinesTestCases,
                          MakeFabricTestCases,
                          MakeFlowApplicationTestCases,
                          MakeIncastTestCases,
                          MakeLeanHostTestCases,
                          MakeLinkTestCases,
                          MakeLevelsTestCases,
                          MakeClassesTestCases,
                          MakePreemptionTestCases,
                          MakePriorityPolicyTestCases,
                          MakeTransportTestCases,
                          MakeStopReportTestCases,
                          MakeWindowTestCases,
                          MakeWorkloadTestCases})
        {
            for (TestCase* testCase : make())
            {
                AddTestCase(testCase);
            }
        }
    }
};

/// The suite's one instance, registered with ns-3's test runner at load time.
static PfabricTestSuite g_pfabricTestSuite;

} // namespace tests
} // namespace pfabric
} // namespace ns3
