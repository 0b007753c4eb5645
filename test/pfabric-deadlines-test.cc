/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Deadlines: earliest deadline first against remaining-size order on one link, computed by hand;
// a flow terminated at its deadline stops taking the link; how deadlines are drawn (floor, mean,
// share, the same for every scheme) and how flow lists carry them.

#include "pfabric-test-cases.h"

#include "ns3/boolean.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/pfabric-experiment.h"
#include "ns3/pfabric-flow-application.h"
#include "ns3/pfabric-flow-list.h"
#include "ns3/pfabric-scheme-helper.h"
#include "ns3/pfabric-single-switch-helper.h"
#include "ns3/simulator.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
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

// The hand computations below, for the hotnets12 single switch (10 Gb/s links, 0.4 us each,
// 1460-byte segments, 40 bytes of TCP/IP headers, 2 bytes of framing), all in microseconds:
//   s   = (1460 + 42) x 8 / 10 Gb/s = 1.2016, a full packet on a link;
//   ack = 42 x 8 / 10 Gb/s = 0.0336;
//   ideal(n) for n full packets from host 0 to host 1 (two links): the first packet crosses
//   both links, 2 (s + 0.4), the other n - 1 follow at s each, the last ACK returns over both,
//   2 (ack + 0.4): ideal(n) = (n + 1) s + 1.6672.
constexpr double S_US = 1.2016;
constexpr double PATH_US = 1.6672;

/// @return ideal(n) by hand, in us
double
IdealUs(uint32_t packets)
{
    return (packets + 1) * S_US + PATH_US;
}

/**
 * @brief FlowCompleted / FlowTerminated sink: note the flow.
 * @param flows where to note it
 * @param flow the flow
 */
void
Note(std::map<uint32_t, PfabricFlowApplication::CompletedFlow>* flows,
     const PfabricFlowApplication::CompletedFlow& flow)
{
    flows->emplace(flow.flow.id, flow);
}

/// Two hosts on one switch under a scheme, a flow application on each.
struct TwoHosts
{
    /**
     * @param scheme pfabric, linerate, tcp or dctcp
     * @param policy the sockets' PriorityPolicy (pfabric, linerate), e.g.
     *        ns3::PfabricDeadlinePriority; empty: the scheme's default
     * @param terminate the applications' TerminateAtDeadline
     */
    TwoHosts(const std::string& scheme, const std::string& policy, bool terminate)
        : fabric(2),
          helper(scheme, "hotnets12")
    {
        fabric.Build();
        if (!policy.empty())
        {
            helper.SetSocketAttribute("PriorityPolicy", ObjectFactoryValue(ObjectFactory(policy)));
        }
        PfabricSchemeHelper::AssignStreams(
            helper.Install(NodeContainer(fabric.GetHosts(), fabric.GetSwitches())),
            1);
        for (uint32_t i = 0; i < 2; ++i)
        {
            auto app = CreateObject<PfabricFlowApplication>();
            app->SetAttribute("TerminateAtDeadline", BooleanValue(terminate));
            app->TraceConnectWithoutContext("FlowCompleted", MakeBoundCallback(&Note, &completed));
            app->TraceConnectWithoutContext("FlowTerminated",
                                            MakeBoundCallback(&Note, &terminated));
            fabric.GetHosts().Get(i)->AddApplication(app);
            apps.push_back(app);
        }
    }

    /**
     * @param id a completed flow
     * @return its FCT in us
     */
    double FctUs(uint32_t id) const
    {
        return completed.at(id).fct.GetSeconds() * 1e6;
    }

    PfabricSingleSwitchHelper fabric;                                     //!< the fabric
    PfabricSchemeHelper helper;                                           //!< the scheme
    std::vector<Ptr<PfabricFlowApplication>> apps;                        //!< per host
    std::map<uint32_t, PfabricFlowApplication::CompletedFlow> completed;  //!< by flow id
    std::map<uint32_t, PfabricFlowApplication::CompletedFlow> terminated; //!< by flow id
};

/**
 * EDF against remaining size, by hand: host 0 sends host 1 flow A, 100 packets (146,000 B) due
 * 133 us after its start, and flow B, 20 packets (29,200 B) due 1 ms after, both starting at
 * 1 ms (A handed over first, so A's first packet takes the idle link). Under MinTCP+pFabric the
 * host's NIC (a pFabric port) is the one bottleneck: the senders are paced at line rate and
 * every queue holds the urgent flow's next packet before the link frees.
 *
 * Remaining size: after A's first packet, B (smaller) takes the link: B finishes in
 * ideal(20) + s = 26.9008 + 1.2016 = 28.1024 us, A's other 99 packets follow B's 20, so A
 * finishes in ideal(100) + 20 s = 123.0288 + 24.0320 = 147.0608 us > 133: A misses.
 * EDF: A (due first) keeps the link: A finishes in ideal(100) = 123.0288 us <= 133, met; B's
 * 20 packets can only follow A's 100 on the link, so B finishes no sooner than
 * ideal(120) = 147.0608 us (it waits, times out and resends meanwhile), well before 1 ms: met.
 *
 * Tolerance 0.1 us on the hand-computed FCTs: a packet is 1.2 us, so one packet more or fewer
 * ahead of a flow fails; the simulator's times are whole nanoseconds.
 */
class EdfAgainstRemainingSizeTest : public TestCase
{
  public:
    EdfAgainstRemainingSizeTest()
        : TestCase("Deadlines: on one link EDF meets both deadlines, remaining-size order misses "
                   "one (FCTs computed by hand)")
    {
    }

  private:
    /**
     * @param policy the sockets' PriorityPolicy
     * @return the two flows' outcomes
     */
    std::map<uint32_t, PfabricFlowApplication::CompletedFlow> RunTwoFlows(const std::string& policy)
    {
        TwoHosts net("pfabric", policy, false);
        const Ipv4Address to = net.fabric.GetHostAddress(1);
        const Time start = MilliSeconds(1);
        net.apps[0]->AddFlow(1, to, 100 * 1460, start, start + MicroSeconds(133));
        net.apps[0]->AddFlow(2, to, 20 * 1460, start, start + MilliSeconds(1));
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        auto completed = net.completed;
        Simulator::Destroy();
        return completed;
    }

    void DoRun() override
    {
        const double tolerance = 0.1;
        auto met = [](const PfabricFlowApplication::CompletedFlow& flow) {
            return flow.flow.start + flow.fct <= flow.flow.deadline;
        };

        auto size = RunTwoFlows("ns3::PfabricRemainingSizePriority");
        NS_TEST_ASSERT_MSG_EQ(size.size(), 2, "remaining size: both flows complete");
        NS_TEST_ASSERT_MSG_EQ_TOL(size.at(2).fct.GetSeconds() * 1e6,
                                  IdealUs(20) + S_US,
                                  tolerance,
                                  "remaining size: B right after A's first packet");
        NS_TEST_ASSERT_MSG_EQ_TOL(size.at(1).fct.GetSeconds() * 1e6,
                                  IdealUs(100) + 20 * S_US,
                                  tolerance,
                                  "remaining size: A behind B's 20 packets");
        NS_TEST_ASSERT_MSG_EQ(met(size.at(1)), false, "remaining size: A misses its deadline");
        NS_TEST_ASSERT_MSG_EQ(met(size.at(2)), true, "remaining size: B meets its deadline");

        auto edf = RunTwoFlows("ns3::PfabricDeadlinePriority");
        NS_TEST_ASSERT_MSG_EQ(edf.size(), 2, "EDF: both flows complete");
        NS_TEST_ASSERT_MSG_EQ_TOL(edf.at(1).fct.GetSeconds() * 1e6,
                                  IdealUs(100),
                                  tolerance,
                                  "EDF: A, due first, alone on the link");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(edf.at(2).fct.GetSeconds() * 1e6,
                                    IdealUs(120) - tolerance,
                                    "EDF: B only after A's 100 packets");
        NS_TEST_ASSERT_MSG_EQ(met(edf.at(1)), true, "EDF: A meets its deadline");
        NS_TEST_ASSERT_MSG_EQ(met(edf.at(2)), true, "EDF: B meets its deadline");
    }
};

/**
 * A flow terminated at its deadline stops taking the link. Host 0 sends host 1 flow T, 200
 * packets due 30 us after its start, and flow Y, 100 packets without a deadline, both at 1 ms
 * (T first), ranked by EDF: T, with a deadline, is more urgent than Y throughout (past its
 * deadline it ranks 0). T's sender hands the NIC a packet every s (paced at line rate, the
 * gap rounded down to 1.201 us), so before its deadline it hands over 25 packets (the 25th at
 * 24 x 1.201 = 28.8 us, the 26th would be at 30.0 us), which the NIC sends in 25 s = 30.04 us.
 *
 * Terminated (TerminateAtDeadline): T sends nothing more, its 25 packets already handed over
 * are delivered, and Y follows them: Y finishes in ideal(100) + 25 s = 153.0688 us, as if T
 * had been a 25-packet flow, and host 1 reads exactly Y's bytes and T's 25 packets. T is
 * reported once, terminated, 30 us after its start; never completed.
 * Carrying on: T keeps the link to its end (past its deadline it ranks 0), so Y finishes no
 * sooner than ideal(100) + 200 s = 363.3488 us (later, in fact: its packets wait more than the
 * 40 us RTO behind T, and it resumes from slow start).
 */
class TerminateAtDeadlineTest : public TestCase
{
  public:
    TerminateAtDeadlineTest()
        : TestCase("Deadlines: a flow terminated at its deadline stops taking the link; the "
                   "other flow finishes as if it had been only the packets sent by then")
    {
    }

  private:
    void DoRun() override
    {
        const double tolerance = 0.1; // us; a packet is 1.2 us
        for (bool terminate : {true, false})
        {
            TwoHosts net("pfabric", "ns3::PfabricDeadlinePriority", terminate);
            const Ipv4Address to = net.fabric.GetHostAddress(1);
            const Time start = MilliSeconds(1);
            net.apps[0]->AddFlow(1, to, 200 * 1460, start, start + MicroSeconds(30));
            net.apps[0]->AddFlow(2, to, 100 * 1460, start);
            Simulator::Stop(MilliSeconds(5));
            Simulator::Run();
            const std::string mode = terminate ? "terminated: " : "carrying on: ";
            NS_TEST_ASSERT_MSG_EQ(net.completed.count(2), 1, mode << "Y completes");
            if (terminate)
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(net.FctUs(2),
                                          IdealUs(100) + 25 * S_US,
                                          tolerance,
                                          mode << "Y after T's 25 packets only");
                NS_TEST_ASSERT_MSG_EQ(net.completed.count(1), 0, mode << "T never completes");
                NS_TEST_ASSERT_MSG_EQ(net.terminated.size(), 1, mode << "T reported once");
                NS_TEST_ASSERT_MSG_EQ(net.terminated.at(1).fct,
                                      MicroSeconds(30),
                                      mode << "T given up at its deadline");
                NS_TEST_ASSERT_MSG_EQ(net.apps[1]->GetBytesReceived(),
                                      (100 + 25) * 1460,
                                      mode << "host 1 read Y and T's 25 packets");
                NS_TEST_ASSERT_MSG_EQ(net.apps[0]->GetFlowsTerminated(), 1, mode << "count");
            }
            else
            {
                NS_TEST_ASSERT_MSG_GT_OR_EQ(net.FctUs(2),
                                            IdealUs(100) + 200 * S_US - tolerance,
                                            mode << "Y after all of T");
                NS_TEST_ASSERT_MSG_EQ(net.completed.count(1), 1, mode << "T completes, late");
                NS_TEST_ASSERT_MSG_EQ(net.terminated.size(), 0, mode << "nothing terminated");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * Every scheme's sender stops at the deadline: a lone 1,000-packet flow due 100 us after its
 * start. Paced at line rate (every scheme's window is at least the path's bandwidth-delay
 * product of about 3.4 packets from the start), the sender hands over at most
 * floor(100 / 1.201) + 1 = 84 packets before its deadline and none after: host 1 reads at most
 * 84 packets' bytes, and at least 80 (the flow did run until its deadline).
 */
class TerminateEverySchemeTest : public TestCase
{
  public:
    TerminateEverySchemeTest()
        : TestCase("Deadlines: every scheme's sender stops sending a flow terminated at its "
                   "deadline")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string scheme : {"pfabric", "linerate", "tcp", "dctcp"})
        {
            TwoHosts net(scheme, "", true);
            const Time start = MilliSeconds(1);
            net.apps[0]->AddFlow(1,
                                 net.fabric.GetHostAddress(1),
                                 1000 * 1460,
                                 start,
                                 start + MicroSeconds(100));
            Simulator::Stop(MilliSeconds(20));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(net.terminated.size(), 1, scheme << ": terminated");
            NS_TEST_ASSERT_MSG_EQ(net.completed.size(), 0, scheme << ": not completed");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(net.apps[1]->GetBytesReceived(),
                                        84 * 1460,
                                        scheme << ": nothing sent after the deadline");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(net.apps[1]->GetBytesReceived(),
                                        80 * 1460,
                                        scheme << ": sent until the deadline");
            Simulator::Destroy();
        }
    }
};

/**
 * How deadlines are drawn (PfabricFlowList::AssignDeadlines): 20,000 flows, X exponential of
 * mean 1 ms. Floor 0: the mean time to the deadline is 1 ms; floor 1 ms for every flow: it is
 * E[max(1 ms, X)] = 1 ms + 1 ms x e^-1 = 1.3679 ms; never shorter than the floor. Tolerance 2%
 * on each mean: the standard error of a 20,000-draw mean of an exponential is 0.71%.
 * DeadlineFraction 0.3: 30% of the flows have one (within 1.5 points; binomial standard error
 * 0.32), and each of those has the deadline it has at fraction 1 (the same X).
 */
class DeadlineDrawTest : public TestCase
{
  public:
    DeadlineDrawTest()
        : TestCase("Deadlines: never shorter than the floor, mean of the exponential, the share "
                   "with a deadline, the same X at any share")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 20000;
        std::vector<PfabricFlow> flows;
        for (uint32_t i = 0; i < n; ++i)
        {
            flows.push_back({i, 0, 1, 1460, MicroSeconds(i)});
        }
        const Time mean = MilliSeconds(1);

        auto meanLeftMs = [](const std::vector<PfabricFlow>& list) {
            double sum = 0;
            uint32_t with = 0;
            for (const PfabricFlow& flow : list)
            {
                if (flow.deadline != Time::Max())
                {
                    sum += (flow.deadline - flow.start).GetSeconds() * 1e3;
                    ++with;
                }
            }
            return sum / with;
        };

        auto none = flows;
        PfabricFlowList::AssignDeadlines(&none, std::vector<Time>(n, Time(0)), mean, 1, 10);
        NS_TEST_ASSERT_MSG_EQ_TOL(meanLeftMs(none), 1.0, 0.02, "floor 0: the exponential mean");

        auto floored = flows;
        std::vector<Time> floors(n, mean);
        PfabricFlowList::AssignDeadlines(&floored, floors, mean, 1, 10);
        NS_TEST_ASSERT_MSG_EQ_TOL(meanLeftMs(floored),
                                  1.0 + std::exp(-1.0),
                                  1.3679 * 0.02,
                                  "floor 1 ms: E[max(1 ms, X)]");
        bool aboveFloor = true;
        for (uint32_t i = 0; i < n; ++i)
        {
            aboveFloor = aboveFloor && floored[i].deadline - floored[i].start >= floors[i];
        }
        NS_TEST_ASSERT_MSG_EQ(aboveFloor, true, "never shorter than the floor");

        auto some = flows;
        PfabricFlowList::AssignDeadlines(&some, std::vector<Time>(n, Time(0)), mean, 0.3, 10);
        uint32_t with = 0;
        bool sameX = true;
        for (uint32_t i = 0; i < n; ++i)
        {
            if (some[i].deadline != Time::Max())
            {
                ++with;
                sameX = sameX && some[i].deadline == none[i].deadline;
            }
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(double(with) / n, 0.3, 0.015, "the share with a deadline");
        NS_TEST_ASSERT_MSG_EQ(sameX, true, "a flow's X does not depend on the share");
    }
};

/**
 * The experiment's flows and deadlines are the same for every scheme and priority of a
 * (load, seed, run), at least deadlineMinFactor ideal FCTs after each start, and another run
 * gives other deadlines; the flows (sizes, starts, hosts) are those of pfabric-websearch
 * whatever the deadline options. A flow list keeps its deadlines through Write and Read, and a
 * list without the deadline_s column still reads (no deadlines).
 */
class ExperimentDeadlinesTest : public TestCase
{
  public:
    ExperimentDeadlinesTest()
        : TestCase("Deadlines: the same flows and deadlines for every scheme, above the floor; "
                   "flow lists with and without deadline_s")
    {
    }

  private:
    /**
     * @param scheme the scheme
     * @param priority EDF or REMAINING
     * @param run the ns-3 run
     * @param deadlines EnableDeadlines
     * @return the experiment's flows (Prepare with --flowsOnly)
     */
    std::vector<PfabricFlow> Flows(const std::string& scheme,
                                   PfabricExperiment::Parameters::DeadlinePriority priority,
                                   uint32_t run,
                                   bool deadlines)
    {
        PfabricExperiment experiment("websearch");
        if (deadlines)
        {
            experiment.EnableDeadlines();
        }
        auto& p = experiment.GetParameters();
        p.scheme = scheme;
        p.priority = priority;
        p.run = run;
        p.flows = 300;
        p.deadlineFraction = 0.5;
        p.flowsOnly = true;
        p.dumpFlows = m_dir + "/flows.csv";
        std::string error;
        NS_TEST_EXPECT_MSG_EQ(experiment.Prepare(&error), true, error);
        std::vector<PfabricFlow> flows = experiment.GetFlows();
        // The floor: 1.25 ideal FCTs on this fabric.
        for (const PfabricFlow& flow : flows)
        {
            if (flow.deadline != Time::Max())
            {
                Time ideal = experiment.GetFabric().GetIdealFct(flow.src, flow.dst, flow.bytes);
                m_aboveFloor = m_aboveFloor && (flow.deadline - flow.start).GetNanoSeconds() >=
                                                   1.25 * ideal.GetNanoSeconds();
            }
        }
        Simulator::Destroy();
        return flows;
    }

    void DoRun() override
    {
        m_dir = CreateTempDirFilename("pfabric-deadlines");
        std::filesystem::create_directories(m_dir);
        m_aboveFloor = true;
        auto same = [](const std::vector<PfabricFlow>& a,
                       const std::vector<PfabricFlow>& b,
                       bool withDeadlines) {
            bool equal = a.size() == b.size();
            for (std::size_t i = 0; equal && i < a.size(); ++i)
            {
                equal = a[i].src == b[i].src && a[i].dst == b[i].dst && a[i].bytes == b[i].bytes &&
                        a[i].start == b[i].start &&
                        (!withDeadlines || a[i].deadline == b[i].deadline);
            }
            return equal;
        };
        const auto EDF = PfabricExperiment::Parameters::EDF;
        const auto REMAINING = PfabricExperiment::Parameters::REMAINING;
        auto reference = Flows("pfabric", EDF, 1, true);
        uint32_t with = 0;
        for (const PfabricFlow& flow : reference)
        {
            with += flow.deadline != Time::Max() ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_GT(with, 100, "about half of 300 flows have a deadline");
        NS_TEST_ASSERT_MSG_LT(with, 200, "about half of 300 flows have a deadline");
        NS_TEST_ASSERT_MSG_EQ(same(reference, Flows("pfabric", REMAINING, 1, true), true),
                              true,
                              "pfabric, remaining size: the same flows and deadlines");
        NS_TEST_ASSERT_MSG_EQ(same(reference, Flows("tcp", EDF, 1, true), true),
                              true,
                              "tcp: the same flows and deadlines");
        NS_TEST_ASSERT_MSG_EQ(same(reference, Flows("dctcp", EDF, 1, true), true),
                              true,
                              "dctcp: the same flows and deadlines");
        NS_TEST_ASSERT_MSG_EQ(same(reference, Flows("pfabric", EDF, 1, false), false),
                              true,
                              "pfabric-websearch's flows");
        NS_TEST_ASSERT_MSG_EQ(same(reference, Flows("pfabric", EDF, 2, true), false),
                              false,
                              "another run, other flows");
        NS_TEST_ASSERT_MSG_EQ(m_aboveFloor, true, "every deadline at least 1.25 ideal FCTs");

        // The list written with the deadlines reads back the same.
        std::string error;
        std::string path = m_dir + "/list.csv";
        NS_TEST_ASSERT_MSG_EQ(PfabricFlowList::Write(path, reference, &error), true, error);
        std::vector<PfabricFlow> read;
        NS_TEST_ASSERT_MSG_EQ(PfabricFlowList::Read(path, 54, &read, &error), true, error);
        NS_TEST_ASSERT_MSG_EQ(same(reference, read, true), true, "deadlines through a file");
        // A list without the column: no deadlines; a bad deadline: one line naming it.
        std::ofstream(path) << "src,dst,size_bytes,start_s\n0,1,1460,0.001\n";
        NS_TEST_ASSERT_MSG_EQ(PfabricFlowList::Read(path, 54, &read, &error), true, error);
        NS_TEST_ASSERT_MSG_EQ(read.at(0).deadline, Time::Max(), "an older list: no deadline");
        std::ofstream(path) << "src,dst,size_bytes,start_s,deadline_s\n0,1,1460,0.001,\n"
                            << "0,1,1460,0.001,0.0015\n";
        NS_TEST_ASSERT_MSG_EQ(PfabricFlowList::Read(path, 54, &read, &error), true, error);
        NS_TEST_ASSERT_MSG_EQ(read.at(0).deadline, Time::Max(), "empty: no deadline");
        NS_TEST_ASSERT_MSG_EQ(read.at(1).deadline, MicroSeconds(1500), "a deadline");
        std::ofstream(path) << "src,dst,size_bytes,start_s,deadline_s\n0,1,1460,0.001,0.001\n";
        NS_TEST_ASSERT_MSG_EQ(PfabricFlowList::Read(path, 54, &read, &error), false, "bad");
        NS_TEST_ASSERT_MSG_EQ(error,
                              path + ":2: deadline_s '0.001' is not a time after start_s (or "
                                     "empty: no deadline)",
                              "one line naming the file, line and field");
        std::filesystem::remove_all(m_dir);
    }

    std::string m_dir;   //!< scratch directory
    bool m_aboveFloor{}; //!< every deadline so far at least 1.25 ideal FCTs after its start
};

} // namespace

std::vector<TestCase*>
MakeDeadlinesTestCases()
{
    return {new EdfAgainstRemainingSizeTest,
            new TerminateAtDeadlineTest,
            new TerminateEverySchemeTest,
            new DeadlineDrawTest,
            new ExperimentDeadlinesTest};
}

} // namespace tests
} // namespace pfabric
} // namespace ns3
