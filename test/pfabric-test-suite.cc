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

void
SetSmallStar(PfabricExperiment::Parameters& p, const std::string& dir, uint32_t flows)
{
    p.out = dir;
    p.topology = PfabricExperiment::Parameters::STAR;
    p.hosts = 4;
    p.flows = flows;
}

/// The duration parameter's type of a TestCase::AddTestCase member pointer.
template <typename AddTestCase>
struct DurationOf;

/// @copydoc DurationOf
template <typename Class, typename Duration>
struct DurationOf<void (Class::*)(TestCase*, Duration)>
{
    using Type = Duration; ///< the duration type
};

/**
 * @ingroup pfabric-tests
 * @brief Every test of the pfabric module, as one suite for `./test.py -s pfabric`.
 *
 * The cases that run whole experiments for seconds (EXTENSIVE) run only when the test runner is
 * asked for that fullness: `./pfabric test` and the sanitizer build always ask, `./test.py`
 * by default does not (its default fullness is QUICK), which keeps an in-tree debug build's run
 * of the suite to the fast cases; `./test.py -s pfabric -f EXTENSIVE` runs them all.
 */
class PfabricTestSuite : public TestSuite
{
  public:
    PfabricTestSuite()
        : TestSuite("pfabric", TestSuite::Type::UNIT)
    {
        // AddTestCase's duration type: TestCase::TestDuration (ns-3 <= 3.37) or the enum class
        // TestCase::Duration (later); EXTENSIVE is 2 in both.
        using Duration = typename DurationOf<decltype(&PfabricTestSuite::AddTestCase)>::Type;
        const auto extensive = static_cast<Duration>(2);
        for (auto make : {MakeCustomSchemeExtensiveTestCases,
                          MakeIncastExtensiveTestCases,
                          MakeWindowExtensiveTestCases})
        {
            for (TestCase* testCase : make())
            {
                AddTestCase(testCase, extensive);
            }
        }
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
                          MakeSettingsTrialTestCases,
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
