/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricFlowApplication: what FlowCompleted reports, connection reuse, and flows that overlap.

#include "pfabric-test-cases.h"

#include "ns3/boolean.h"
#include "ns3/nstime.h"
#include "ns3/pfabric-flow-application.h"
#include "ns3/pfabric-scheme-helper.h"
#include "ns3/pfabric-single-switch-helper.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cstdint>
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

/**
 * @brief FlowCompleted sink: note the flow.
 * @param completed where to note it
 * @param flow the completed flow
 */
void
NoteCompleted(std::vector<PfabricFlowApplication::CompletedFlow>* completed,
              const PfabricFlowApplication::CompletedFlow& flow)
{
    completed->push_back(flow);
}

/// A star of hosts under MinTCP+pFabric with a flow application on every host.
struct Star
{
    /**
     * @param hosts hosts on the switch
     * @param reuse the applications' ReuseConnections
     * @param pool the applications' ConnectionPool
     * @param linkDelay every link's propagation delay; zero: the preset's
     */
    Star(uint32_t hosts, bool reuse, uint32_t pool = 0, Time linkDelay = Time(0))
        : fabric(hosts),
          scheme("pfabric", "hotnets12")
    {
        if (linkDelay.IsStrictlyPositive())
        {
            fabric.SetLinkDelay(linkDelay);
        }
        fabric.Build();
        PfabricSchemeHelper::AssignStreams(
            scheme.Install(NodeContainer(fabric.GetHosts(), fabric.GetSwitches())),
            1);
        for (uint32_t i = 0; i < hosts; ++i)
        {
            auto app = CreateObject<PfabricFlowApplication>();
            app->SetAttribute("ReuseConnections", BooleanValue(reuse));
            app->SetAttribute("ConnectionPool", UintegerValue(pool));
            app->TraceConnectWithoutContext("FlowCompleted",
                                            MakeBoundCallback(&NoteCompleted, &completed));
            fabric.GetHosts().Get(i)->AddApplication(app);
            apps.push_back(app);
        }
    }

    /// @return the flows completed, by flow id
    std::map<uint32_t, PfabricFlowApplication::CompletedFlow> ById() const
    {
        std::map<uint32_t, PfabricFlowApplication::CompletedFlow> byId;
        for (const auto& flow : completed)
        {
            byId.emplace(flow.flow.id, flow);
        }
        return byId;
    }

    PfabricSingleSwitchHelper fabric;                             //!< the fabric
    PfabricSchemeHelper scheme;                                   //!< the scheme
    std::vector<Ptr<PfabricFlowApplication>> apps;                //!< per host
    std::vector<PfabricFlowApplication::CompletedFlow> completed; //!< as reported
};

/**
 * Flows one after another: each reported once with its id, size, start and deadline, a lone
 * flow's completion time is its ideal FCT (within 1%), and a later flow to the same destination
 * takes the idle connection of an earlier one (or a new one without ReuseConnections); the
 * receivers read every byte.
 */
class FlowApplicationReportTest : public TestCase
{
  public:
    /// @param reuse ReuseConnections
    explicit FlowApplicationReportTest(bool reuse)
        : TestCase(std::string("PfabricFlowApplication reports every flow once, lone flows in "
                               "their ideal FCT; ") +
                   (reuse ? "later flows reuse idle connections" : "a connection per flow")),
          m_reuse(reuse)
    {
    }

  private:
    void DoRun() override
    {
        Star star(3, m_reuse);
        const Ipv4Address b = star.fabric.GetHostAddress(1);
        const Ipv4Address c = star.fabric.GetHostAddress(2);
        // host 0 sends to 1, then (after that completed) to 1 again, then to 2 with a deadline
        star.apps[0]->AddFlow(7, b, 20000, MilliSeconds(2));
        star.apps[0]->AddFlow(8, b, 300000, MilliSeconds(4));
        star.apps[0]->AddFlow(9, c, 1460, MilliSeconds(6), MilliSeconds(7));
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();

        auto byId = star.ById();
        NS_TEST_ASSERT_MSG_EQ(star.completed.size(), 3, "three reports");
        NS_TEST_ASSERT_MSG_EQ(byId.size(), 3, "one per flow");
        const std::map<uint32_t, std::pair<uint64_t, uint32_t>> flows{{7, {20000, 1}},
                                                                      {8, {300000, 1}},
                                                                      {9, {1460, 2}}};
        for (const auto& [id, sizeAndDst] : flows)
        {
            const auto& flow = byId.at(id);
            NS_TEST_ASSERT_MSG_EQ(flow.flow.bytes, sizeAndDst.first, "flow " << id << " size");
            Time ideal = star.fabric.GetIdealFct(0, sizeAndDst.second, sizeAndDst.first);
            NS_TEST_ASSERT_MSG_EQ_TOL(flow.fct.GetSeconds(),
                                      ideal.GetSeconds(),
                                      ideal.GetSeconds() * 0.01,
                                      "flow " << id << " alone: its ideal FCT");
            NS_TEST_ASSERT_MSG_EQ(flow.timeouts, 0, "flow " << id << ": no timeout");
        }
        NS_TEST_ASSERT_MSG_EQ(byId.at(8).flow.start, MilliSeconds(4), "start as handed");
        NS_TEST_ASSERT_MSG_EQ(byId.at(9).flow.deadline, MilliSeconds(7), "deadline as handed");
        NS_TEST_ASSERT_MSG_EQ(byId.at(7).flow.deadline, Time::Max(), "no deadline");
        NS_TEST_ASSERT_MSG_EQ(star.apps[0]->GetConnectionsOpened(),
                              (m_reuse ? 2 : 3),
                              "connections: one per destination with reuse, else per flow");
        NS_TEST_ASSERT_MSG_EQ(star.apps[0]->GetFlowsCompleted(), 3, "the sender's count");
        NS_TEST_ASSERT_MSG_EQ(star.apps[0]->GetFlowsStartedBeforeConnected(), 0, "1 ms lead");
        NS_TEST_ASSERT_MSG_EQ(star.apps[1]->GetBytesReceived(), 320000, "host 1 read both");
        NS_TEST_ASSERT_MSG_EQ(star.apps[2]->GetBytesReceived(), 1460, "host 2 read its flow");
        Simulator::Destroy();
    }

    bool m_reuse; //!< ReuseConnections
};

/**
 * Overlapping flows to one destination never share a connection (a connection's priority is
 * its one flow's remaining size), and the short one, started during the long one, finishes
 * first; a flow added while the simulation runs, with less than ConnectLead to go, connects at
 * once and still completes.
 */
class FlowApplicationOverlapTest : public TestCase
{
  public:
    FlowApplicationOverlapTest()
        : TestCase("PfabricFlowApplication: overlapping flows to one host use separate "
                   "connections; flows can be added while running")
    {
    }

  private:
    static void AddLate(Ptr<PfabricFlowApplication> app, Ipv4Address to)
    {
        app->AddFlow(3, to, 5000, Simulator::Now() + MicroSeconds(10));
    }

    void DoRun() override
    {
        Star star(2, true);
        const Ipv4Address b = star.fabric.GetHostAddress(1);
        star.apps[0]->AddFlow(1, b, 2000000, MilliSeconds(2));
        star.apps[0]->AddFlow(2, b, 10000, MilliSeconds(2) + MicroSeconds(200));
        Simulator::Schedule(MilliSeconds(10), &AddLate, star.apps[0], b);
        Simulator::Stop(MilliSeconds(30));
        Simulator::Run();

        auto byId = star.ById();
        NS_TEST_ASSERT_MSG_EQ(byId.size(), 3, "every flow completed");
        NS_TEST_ASSERT_MSG_EQ(star.completed.front().flow.id, 2, "the short flow first");
        NS_TEST_ASSERT_MSG_EQ(star.apps[0]->GetConnectionsOpened(),
                              2,
                              "two at once; the late flow reuses an idle one");
        NS_TEST_ASSERT_MSG_EQ(star.apps[0]->GetFlowsStartedBeforeConnected(),
                              0,
                              "the late flow took an idle, open connection");
        NS_TEST_ASSERT_MSG_LT(byId.at(2).fct, MicroSeconds(50), "the short flow preempted");
        NS_TEST_ASSERT_MSG_EQ(star.apps[1]->GetBytesReceived(), 2015000, "every byte read");
        Simulator::Destroy();
    }
};

/**
 * ConnectionPool 1 (the original ns-2 scripts' pool for pFabric), two overlapping flows of one
 * host pair on a star whose two links have a propagation delay d of 2 us: the long flow takes
 * the pool's connection; the short one, starting while it runs, does not wait for it but gets a
 * new connection opened at its start, so its FCT is its ideal FCT plus the handshake, 4d (SYN
 * and SYN-ACK each cross both links) plus serialisations. Hand bound on those: the SYN, the
 * SYN-ACK, the handshake's last ACK ahead of the data (under 100 B each: at most 0.4 us in all
 * at 10 Gb/s), and at most one full packet of the long flow (1.2 us) ahead of the SYN and of the
 * short flow's packet on each of the two links (4.8 us): within [4d, 4d + 5.2 us]. Without the
 * pool (ConnectionPool 0) the new connection opens ConnectLead ahead: FCT - ideal in
 * [0, 2.4 us + 0.4 us]. Either way the short flow finishes first and the pair has two
 * connections.
 */
class FlowApplicationPoolOverlapTest : public TestCase
{
  public:
    /// @param pool ConnectionPool
    explicit FlowApplicationPoolOverlapTest(uint32_t pool)
        : TestCase("PfabricFlowApplication, ConnectionPool " + std::to_string(pool) +
                   ": a flow overlapping another of its pair " +
                   (pool > 0 ? "opens a connection at its start, handshake inside its FCT"
                             : "gets a connection opened ahead")),
          m_pool(pool)
    {
    }

  private:
    void DoRun() override
    {
        const Time d = MicroSeconds(2);
        Star star(2, true, m_pool, d);
        const Ipv4Address b = star.fabric.GetHostAddress(1);
        const uint64_t shortBytes = 1460;
        star.apps[0]->AddFlow(1, b, 2000000, MilliSeconds(2));
        star.apps[0]->AddFlow(2, b, shortBytes, MilliSeconds(2) + MicroSeconds(200));
        Simulator::Stop(MilliSeconds(30));
        Simulator::Run();

        auto byId = star.ById();
        NS_TEST_ASSERT_MSG_EQ(byId.size(), 2, "both flows completed");
        NS_TEST_ASSERT_MSG_EQ(star.completed.front().flow.id, 2, "the short flow first");
        NS_TEST_ASSERT_MSG_EQ(star.apps[0]->GetConnectionsOpened(), 2, "one per flow");
        NS_TEST_ASSERT_MSG_EQ(star.apps[0]->GetFlowsStartedBeforeConnected(),
                              (m_pool > 0 ? 1 : 0),
                              "with the pool the short flow is handed to a connecting socket");
        const Time extra = byId.at(2).fct - star.fabric.GetIdealFct(0, 1, shortBytes);
        const Time low = m_pool > 0 ? 4 * d : Time(0);
        const Time high = m_pool > 0 ? 4 * d + NanoSeconds(5200) : NanoSeconds(2800);
        NS_TEST_ASSERT_MSG_GT_OR_EQ(extra, low, "short flow's FCT - ideal FCT");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(extra, high, "short flow's FCT - ideal FCT");
        NS_TEST_ASSERT_MSG_EQ(star.apps[1]->GetBytesReceived(), 2001460, "every byte read");
        Simulator::Destroy();
    }

    uint32_t m_pool; //!< ConnectionPool
};

/**
 * ConnectionPool 2, four flows of one pair one after another (each starts after the previous
 * completed): the first two take the pool's two connections in turn although the first is idle
 * again when the second starts (the original's pre-opened pool, its first arrivals assigned to
 * its connections in order); the later two reuse them. So two connections (ConnectionPool 0:
 * one), no flow handed to a connecting socket, and every flow alone in its ideal FCT (1%).
 */
class FlowApplicationPoolTurnTest : public TestCase
{
  public:
    FlowApplicationPoolTurnTest()
        : TestCase("PfabricFlowApplication, ConnectionPool 2: a pair's first two flows take the "
                   "pool's connections in turn, later ones reuse them")
    {
    }

  private:
    void DoRun() override
    {
        Star star(2, true, 2);
        const Ipv4Address b = star.fabric.GetHostAddress(1);
        const uint64_t bytes = 20000;
        for (uint32_t i = 0; i < 4; ++i)
        {
            star.apps[0]->AddFlow(i, b, bytes, MilliSeconds(2 + i));
        }
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();

        auto byId = star.ById();
        NS_TEST_ASSERT_MSG_EQ(byId.size(), 4, "every flow completed");
        NS_TEST_ASSERT_MSG_EQ(star.apps[0]->GetConnectionsOpened(), 2, "the pool's two");
        NS_TEST_ASSERT_MSG_EQ(star.apps[0]->GetFlowsStartedBeforeConnected(), 0, "opened ahead");
        const Time ideal = star.fabric.GetIdealFct(0, 1, bytes);
        for (const auto& [id, flow] : byId)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(flow.fct.GetSeconds(),
                                      ideal.GetSeconds(),
                                      ideal.GetSeconds() * 0.01,
                                      "flow " << id << " alone: its ideal FCT");
        }
        Simulator::Destroy();
    }
};

} // namespace

std::vector<TestCase*>
MakeFlowApplicationTestCases()
{
    return {new FlowApplicationReportTest(true),
            new FlowApplicationReportTest(false),
            new FlowApplicationOverlapTest,
            new FlowApplicationPoolOverlapTest(0),
            new FlowApplicationPoolOverlapTest(1),
            new FlowApplicationPoolTurnTest};
}

} // namespace tests
} // namespace pfabric
} // namespace ns3
