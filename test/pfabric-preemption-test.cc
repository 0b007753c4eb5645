/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// End to end over one bottleneck, in the scenario of the pfabric-preemption example: two
// senders, one switch, one receiver, all links 10 Gb/s. A long TCP flow starts first; a short one
// starts while it runs. Under MinTCP+pFabric the short flow preempts the long one and finishes
// at about its stand-alone time; under TCP-DropTail it does not.

#include "pfabric-test-cases.h"

#include "ns3/pfabric-preemption-scenario.h"

#include <string>
#include <tuple>

namespace ns3
{
namespace pfabric
{
namespace tests
{
namespace
{

/// Completion times of the short flow alone and of both flows together.
struct Outcome
{
    Time alone;     //!< the short flow without the long one
    Time shortFlow; //!< the short flow while the long one runs, from its own start
    Time longFlow;  //!< the long flow, from 0
};

/**
 * @brief Run the example's scenario with its default flows.
 * @param scheme "pfabric" or "tcp"
 * @return the completion times
 */
Outcome
RunWithAndWithoutLongFlow(const std::string& scheme)
{
    PreemptionParameters parameters;
    parameters.scheme = scheme;
    parameters.stopS = 1;
    Outcome outcome;
    outcome.alone = RunPreemption(parameters, false).first;
    std::tie(outcome.shortFlow, outcome.longFlow) = RunPreemption(parameters, true);
    return outcome;
}

/**
 * @ingroup pfabric-tests
 * @brief A short flow that starts after a long one finishes first and near its alone time.
 */
class PreemptionTest : public TestCase
{
  public:
    PreemptionTest()
        : TestCase("pFabric bottleneck: a later short flow preempts a long one")
    {
    }

  private:
    void DoRun() override
    {
        // Tolerance: the short flow may take 25% longer than alone. It shares the sender-side
        // links with nothing, and at the bottleneck only the one or two long-flow packets
        // already committed to the device can delay each of its packets.
        constexpr double SLOWDOWN_TOLERANCE = 1.25;
        const Time shortStart = MicroSeconds(PreemptionParameters().shortStartUs);

        Outcome pfabric = RunWithAndWithoutLongFlow("pfabric");
        NS_TEST_ASSERT_MSG_GT(pfabric.alone, Seconds(0), "short flow finishes alone");
        NS_TEST_ASSERT_MSG_GT(pfabric.shortFlow, Seconds(0), "short flow finishes");
        NS_TEST_ASSERT_MSG_GT(pfabric.longFlow, Seconds(0), "long flow finishes too");
        NS_TEST_ASSERT_MSG_LT(shortStart + pfabric.shortFlow,
                              pfabric.longFlow,
                              "the short flow finishes first");
        NS_TEST_ASSERT_MSG_LT(pfabric.shortFlow.GetSeconds() / pfabric.alone.GetSeconds(),
                              SLOWDOWN_TOLERANCE,
                              "short flow FCT " << pfabric.shortFlow.As(Time::US) << " vs alone "
                                                << pfabric.alone.As(Time::US));

        // Control: the same scenario under TCP-DropTail hurts the short flow, so the check
        // above measures pFabric's preemption and not an idle bottleneck.
        Outcome tcp = RunWithAndWithoutLongFlow("tcp");
        NS_TEST_ASSERT_MSG_GT(tcp.alone, Seconds(0), "TCP-DropTail: short flow finishes alone");
        NS_TEST_ASSERT_MSG_GT(tcp.shortFlow.GetSeconds() / tcp.alone.GetSeconds(),
                              SLOWDOWN_TOLERANCE,
                              "TCP-DropTail short flow FCT " << tcp.shortFlow.As(Time::US)
                                                             << " vs alone "
                                                             << tcp.alone.As(Time::US));
    }
};

} // namespace

std::vector<TestCase*>
MakePreemptionTestCases()
{
    return {new PreemptionTest};
}

} // namespace tests
} // namespace pfabric
} // namespace ns3
