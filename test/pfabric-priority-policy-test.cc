/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The priority policies on hand-made flow states: what each one ranks a flow by, the deadline's
// rounding and its ends, quantisation into levels, and the Thresholds attribute's parsing.

#include "pfabric-test-cases.h"

#include "ns3/object-factory.h"
#include "ns3/pfabric-priority-policy.h"
#include "ns3/string.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{
namespace pfabric
{
namespace tests
{
namespace
{

/**
 * @brief A flow state.
 * @param size bytes handed to the socket
 * @param sent bytes sent at least once
 * @param remaining bytes not yet acknowledged
 * @param deadline the deadline
 * @param now the time of the segment
 * @return the state
 */
PfabricFlowProgress
Progress(uint64_t size,
         uint64_t sent,
         uint64_t remaining,
         Time deadline = Time::Max(),
         Time now = Seconds(0))
{
    return PfabricFlowProgress{size, sent, remaining, deadline, now};
}

/**
 * @brief Create a policy by TypeId name with attributes, as the socket factory does.
 * @param type the policy's TypeId name
 * @param attributes name=value pairs
 * @return the policy
 */
Ptr<PfabricPriorityPolicy>
Make(const std::string& type, const std::vector<std::pair<std::string, std::string>>& attributes)
{
    ObjectFactory factory(type);
    for (const auto& [name, value] : attributes)
    {
        factory.Set(name, StringValue(value));
    }
    return factory.Create<PfabricPriorityPolicy>();
}

/// Each policy ranks by its own property of the flow, and by nothing else.
class PolicyRankTest : public TestCase
{
  public:
    PolicyRankTest()
        : TestCase("Priority policies: remaining size, flow size, bytes sent and deadline rank "
                   "by their own property of the flow")
    {
    }

  private:
    void DoRun() override
    {
        // size 100000, 30000 sent, 80000 not yet acknowledged (20000 acked or SACKed)
        auto flow = Progress(100000, 30000, 80000, MicroSeconds(500), MicroSeconds(200));
        auto remaining = Make("ns3::PfabricRemainingSizePriority", {});
        auto size = Make("ns3::PfabricFlowSizePriority", {});
        auto sent = Make("ns3::PfabricBytesSentPriority", {});
        auto deadline = Make("ns3::PfabricDeadlinePriority", {});
        NS_TEST_ASSERT_MSG_EQ(remaining->GetRank(flow), 80000, "remaining size");
        NS_TEST_ASSERT_MSG_EQ(size->GetRank(flow), 100000, "flow size");
        NS_TEST_ASSERT_MSG_EQ(sent->GetRank(flow), 30000, "bytes sent");
        NS_TEST_ASSERT_MSG_EQ(deadline->GetRank(flow), 300000, "300 us left, in ns");

        // As the flow progresses: remaining falls, size stays, bytes sent rise.
        auto later = Progress(100000, 90000, 15000, MicroSeconds(500), MicroSeconds(450));
        NS_TEST_ASSERT_MSG_EQ(remaining->GetRank(later), 15000, "remaining falls");
        NS_TEST_ASSERT_MSG_EQ(size->GetRank(later), 100000, "size is fixed");
        NS_TEST_ASSERT_MSG_EQ(sent->GetRank(later), 90000, "bytes sent rise");
        NS_TEST_ASSERT_MSG_EQ(deadline->GetRank(later), 50000, "50 us left");

        // SRPT order between two flows: the one with less left goes first.
        NS_TEST_ASSERT_MSG_LT(remaining->GetRank(later), remaining->GetRank(flow), "SRPT");
        // LAS order: the one that has sent less goes first.
        NS_TEST_ASSERT_MSG_LT(sent->GetRank(flow), sent->GetRank(later), "least attained");
    }
};

/// EDF: whole units rounded up; past the deadline most urgent; no deadline last.
class DeadlinePolicyTest : public TestCase
{
  public:
    DeadlinePolicyTest()
        : TestCase("Deadline policy: time left in whole Units rounded up, 0 once past, last "
                   "without a deadline")
    {
    }

  private:
    void DoRun() override
    {
        auto us = Make("ns3::PfabricDeadlinePriority", {{"Unit", "1us"}});
        auto at = [](Time deadline, Time now) { return Progress(1, 0, 1, deadline, now); };
        NS_TEST_ASSERT_MSG_EQ(us->GetRank(at(MicroSeconds(10), MicroSeconds(4))), 6, "6 us left");
        NS_TEST_ASSERT_MSG_EQ(us->GetRank(at(NanoSeconds(10001), MicroSeconds(4))),
                              7,
                              "6.001 us rounds up to 7");
        NS_TEST_ASSERT_MSG_EQ(us->GetRank(at(NanoSeconds(4001), MicroSeconds(4))),
                              1,
                              "1 ns left is one unit, still ahead of a flow past its deadline");
        NS_TEST_ASSERT_MSG_EQ(us->GetRank(at(MicroSeconds(4), MicroSeconds(4))), 0, "due now");
        NS_TEST_ASSERT_MSG_EQ(us->GetRank(at(MicroSeconds(3), MicroSeconds(4))), 0, "past due");
        NS_TEST_ASSERT_MSG_EQ(us->GetRank(at(Time::Max(), MicroSeconds(4))),
                              std::numeric_limits<uint64_t>::max(),
                              "no deadline ranks last");
        auto ns = Make("ns3::PfabricDeadlinePriority", {});
        NS_TEST_ASSERT_MSG_EQ(ns->GetRank(at(NanoSeconds(10001), MicroSeconds(4))),
                              6001,
                              "the default unit is 1 ns");
    }
};

/// Thresholds t1 < ... < t(K-1) make K levels; a rank gets the number of thresholds below it.
class QuantisationTest : public TestCase
{
  public:
    QuantisationTest()
        : TestCase("Priority policies: Thresholds quantise ranks into levels, (t(k), t(k+1)] "
                   "to level k")
    {
    }

  private:
    void DoRun() override
    {
        auto sent = Make("ns3::PfabricBytesSentPriority", {{"Thresholds", "10000,100000,1000000"}});
        const std::vector<std::pair<uint64_t, uint64_t>> expected{{0, 0},
                                                                  {1, 0},
                                                                  {10000, 0},
                                                                  {10001, 1},
                                                                  {100000, 1},
                                                                  {100001, 2},
                                                                  {1000000, 2},
                                                                  {1000001, 3},
                                                                  {UINT64_MAX, 3}};
        for (const auto& [bytes, level] : expected)
        {
            NS_TEST_ASSERT_MSG_EQ(sent->GetRank(Progress(UINT64_MAX, bytes, 0)),
                                  level,
                                  "bytes sent " << bytes);
        }
        StringValue text;
        sent->GetAttribute("Thresholds", text);
        NS_TEST_ASSERT_MSG_EQ(text.Get(), "10000,100000,1000000", "the attribute reads back");

        // One threshold: two levels; the setter and the attribute agree.
        auto remaining = Make("ns3::PfabricRemainingSizePriority", {});
        remaining->SetThresholds({1460});
        NS_TEST_ASSERT_MSG_EQ(remaining->GetRank(Progress(5000, 0, 1460)), 0, "at t1");
        NS_TEST_ASSERT_MSG_EQ(remaining->GetRank(Progress(5000, 0, 1461)), 1, "above t1");
        remaining->SetThresholds({});
        NS_TEST_ASSERT_MSG_EQ(remaining->GetRank(Progress(5000, 0, 1461)),
                              1461,
                              "no thresholds: the rank itself");
        NS_TEST_ASSERT_MSG_EQ(remaining->GetThresholds().empty(), true, "cleared");
    }
};

/// The Thresholds text: integers, strictly increasing, commas; one-line errors otherwise.
class ThresholdsParseTest : public TestCase
{
  public:
    ThresholdsParseTest()
        : TestCase("Priority policies: the Thresholds text is parsed or refused with one line")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<uint64_t> parsed{7};
        NS_TEST_ASSERT_MSG_EQ(PfabricPriorityPolicy::ParseThresholds("", parsed), "", "empty");
        NS_TEST_ASSERT_MSG_EQ(parsed.empty(), true, "empty is none");
        NS_TEST_ASSERT_MSG_EQ(
            PfabricPriorityPolicy::ParseThresholds("5,18446744073709551615", parsed),
            "",
            "the largest value");
        NS_TEST_ASSERT_MSG_EQ(parsed.size(), 2, "two thresholds");
        NS_TEST_ASSERT_MSG_EQ(parsed[1], UINT64_MAX, "read in full");
        const std::vector<std::pair<std::string, std::string>> refused{
            {"10,5", "thresholds must be strictly increasing ('5')"},
            {"10,10", "thresholds must be strictly increasing ('10')"},
            {"-1", "'-1' is not a non-negative integer"},
            {"+1", "'+1' is not a non-negative integer"},
            {"1,,2", "'' is not a non-negative integer"},
            {"1,", "'' is not a non-negative integer"},
            {"1k", "'1k' is not a non-negative integer"},
            {"18446744073709551616", "'18446744073709551616' is not a non-negative integer"},
            // strtoull skipped blanks and stopped at a NUL byte (test/fuzz, fuzz-lists)
            {" 5", "' 5' is not a non-negative integer"},
            {std::string("5\0"
                         "9",
                         3),
             "'" +
                 std::string("5\0"
                             "9",
                             3) +
                 "' is not a non-negative integer"}};
        for (const auto& [text, error] : refused)
        {
            std::vector<uint64_t> kept{42};
            NS_TEST_ASSERT_MSG_EQ(PfabricPriorityPolicy::ParseThresholds(text, kept),
                                  error,
                                  "'" << text << "'");
            NS_TEST_ASSERT_MSG_EQ((kept.size() == 1 && kept[0] == 42),
                                  true,
                                  "a refused text leaves the thresholds alone");
        }
    }
};

} // namespace

std::vector<TestCase*>
MakePriorityPolicyTestCases()
{
    return {new PolicyRankTest,
            new DeadlinePolicyTest,
            new QuantisationTest,
            new ThresholdsParseTest};
}

} // namespace tests
} // namespace pfabric
} // namespace ns3
