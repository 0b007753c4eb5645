/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfabric-experiment.h"

#include "pfabric-atomic-file.h"
#include "pfabric-fat-tree-helper.h"
#include "pfabric-leaf-spine-helper.h"
#include "pfabric-single-switch-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/global-value.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/map-scheduler.h"
#include "ns3/net-device-container.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pfabric-baseline-tcp-socket.h"
#include "ns3/pfabric-min-tcp-socket.h"
#include "ns3/pfabric-preset.h"
#include "ns3/priority-queue-scheduler.h"
#include "ns3/queue-size.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <sys/resource.h>

#ifndef PFABRIC_VERSION
#define PFABRIC_VERSION "unknown"
#endif
#ifndef PFABRIC_NS3_VERSION
#define PFABRIC_NS3_VERSION "unknown"
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricExperiment");

namespace
{

/// Port every host listens on.
constexpr uint16_t PORT = 5000;
/// Size bins of the summary: (0, 100 KB], (100 KB, 10 MB], (10 MB, inf); KB = 1000 B.
constexpr uint64_t SMALL_FLOW_BYTES = 100000;
constexpr uint64_t LARGE_FLOW_BYTES = 10000000;
/// Progress: a line on stderr at most this often (wall clock), looked for this often (simulated).
constexpr double PROGRESS_EVERY_WALL_S = 5;
constexpr int64_t PROGRESS_CHECK_US = 1000;
/// Memory: sampled each time another 1/RSS_SAMPLES of the flows has completed.
constexpr uint32_t RSS_SAMPLES = 100;

/// @return the peak resident set size of this process so far, bytes
uint64_t
PeakRssBytes()
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return uint64_t(usage.ru_maxrss) * 1024; // Linux: kilobytes
}

double
WallSeconds()
{
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

/**
 * @brief Whether a text is a number followed by one of the given units.
 * @param text e.g. "22500B"
 * @param units the accepted units, e.g. {"p", "B"}
 * @param allowFraction whether the number may have a decimal point
 * @return true if it is
 */
bool
IsQuantity(const std::string& text, std::initializer_list<const char*> units, bool allowFraction)
{
    std::size_t end = text.find_first_not_of(allowFraction ? "0123456789." : "0123456789");
    std::string number = text.substr(0, end);
    std::string unit = end == std::string::npos ? "" : text.substr(end);
    bool digits = number.find_first_of("0123456789") != std::string::npos &&
                  std::count(number.begin(), number.end(), '.') <= 1;
    return digits && std::find(units.begin(), units.end(), unit) != units.end();
}

/// @return the text with JSON escapes
std::string
JsonString(const std::string& text)
{
    std::ostringstream out;
    out << '"';
    for (char c : text)
    {
        switch (c)
        {
        case '"':
            out << "\\\"";
            break;
        case '\\':
            out << "\\\\";
            break;
        case '\n':
            out << "\\n";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20)
            {
                out << "\\u" << std::hex << std::setw(4) << std::setfill('0') << int(c) << std::dec;
            }
            else
            {
                out << c;
            }
        }
    }
    out << '"';
    return out.str();
}

/// @return a number as the shortest text that reads back the same
std::string
Number(double value)
{
    std::ostringstream out;
    out << std::setprecision(15) << value;
    return out.str();
}

/**
 * @brief Socket callback of an accepted connection: read what arrived, and count it.
 * @param received bytes read by every receiver
 * @param socket the accepted socket
 */
void
Drain(uint64_t* received, Ptr<Socket> socket)
{
    while (Ptr<Packet> packet = socket->Recv())
    {
        *received += packet->GetSize();
    }
}

/**
 * @brief Listening socket callback: a connection was accepted; it stays open, and a reused
 * connection's later flows arrive on the same socket, in sequence.
 * @param received bytes read by every receiver
 * @param socket the accepted socket
 */
void
Accepted(uint64_t* received, Ptr<Socket> socket, const Address&)
{
    socket->SetRecvCallback(MakeBoundCallback(&Drain, received));
}

/**
 * @param socket a sender
 * @return the retransmission timeouts of its connection so far
 */
uint64_t
TimeoutsOf(Ptr<Socket> socket)
{
    if (auto minTcp = DynamicCast<PfabricMinTcpSocket>(socket))
    {
        return minTcp->GetTimeouts();
    }
    if (auto baseline = DynamicCast<PfabricBaselineTcpSocket>(socket))
    {
        return baseline->GetTimeouts();
    }
    return 0;
}

/// @return the event scheduler ns-3 will create (the SchedulerType global value)
TypeId
SchedulerType()
{
    TypeIdValue scheduler;
    GlobalValue::GetValueByName("SchedulerType", scheduler);
    return scheduler.Get();
}

/**
 * @brief The columns every per-flow file starts with: flow_id,src,dst,size_bytes,start_s.
 * @param out the stream (fixed, nanosecond precision)
 * @param flow the flow
 */
void
WriteFlowColumns(std::ostream& out, const PfabricFlow& flow)
{
    out << flow.id << "," << flow.src << "," << flow.dst << "," << flow.bytes << ","
        << flow.start.GetSeconds();
}

} // namespace

/// A flow's connection and progress.
struct PfabricExperiment::FlowState
{
    PfabricFlow flow;                 //!< the flow
    Connection* connection = nullptr; //!< its connection, from Connect on
    bool started = false;             //!< handed to the socket
    SequenceNumber32 firstSeq;        //!< sequence number of its first byte
    uint64_t timeoutsAtStart = 0;     //!< the connection's timeouts before the flow
    Time fct = Seconds(-1);           //!< negative: unfinished
    uint64_t timeouts = 0;            //!< retransmission timeouts during the flow
};

/// A connection from one host to another, carrying one flow at a time.
struct PfabricExperiment::Connection
{
    Ptr<Socket> socket;                 //!< the sender
    uint32_t src = 0;                   //!< sending host
    uint32_t dst = 0;                   //!< receiving host
    bool connected = false;             //!< the handshake completed
    FlowState* flow = nullptr;          //!< the flow it carries or is reserved for; null: idle
    SequenceNumber32 nextSeq{1};        //!< where the next flow's first byte goes
    uint32_t flowsHanded = 0;           //!< flows handed to the socket so far
    PfabricExperiment* owner = nullptr; //!< the experiment
};

PfabricExperiment::PfabricExperiment(const std::string& workload)
    : m_createdOutDir(false),
      m_done(0),
      m_connectedLate(0),
      m_wallSeconds(0),
      m_lastProgressWall(0),
      m_wallStart(0),
      m_events(0),
      m_packetHops(0),
      m_bytesReceived(0),
      m_totalBytes(0),
      m_rssEvery(1)
{
    m_p.workload = workload;
}

PfabricExperiment::~PfabricExperiment() = default;

PfabricExperiment::Parameters&
PfabricExperiment::GetParameters()
{
    return m_p;
}

void
PfabricExperiment::AddCommandLineOptions(CommandLine& cmd)
{
    cmd.AddValue("preset", "hotnets12 or sigcomm13: every number of fabric and scheme", m_p.preset);
    cmd.AddValue("scheme", "pfabric, linerate, tcp or dctcp", m_p.scheme);
    cmd.AddValue("load",
                 "offered load, fraction of the host link in wire bytes, in (0, 1)",
                 m_p.load);
    cmd.AddValue("flows", "number of flows to generate", m_p.flows);
    cmd.AddValue("topology", "fattree, leafspine or star (default: the preset's)", m_p.topology);
    cmd.AddValue("k", "fattree: switch radix (default: the preset's)", m_p.k);
    cmd.AddValue("leaves", "leafspine: leaf switches (default: the preset's)", m_p.leaves);
    cmd.AddValue("spines", "leafspine: spine switches (default: the preset's)", m_p.spines);
    cmd.AddValue("hostsPerLeaf",
                 "leafspine: hosts per leaf (default: the preset's)",
                 m_p.hostsPerLeaf);
    cmd.AddValue("hosts", "star: hosts on the single switch", m_p.hosts);
    cmd.AddValue("lb", "load balancing: spray, ecmp, flowcell or random", m_p.lb);
    cmd.AddValue("buffer",
                 "switch buffer, e.g. 22500B or 150p (default: the preset's)",
                 m_p.buffer);
    cmd.AddValue("rto", "MinTCP/LineRate fixed RTO, e.g. 40us (default: the preset's)", m_p.rto);
    cmd.AddValue("cdf", "flow-size CDF: websearch, datamining or a file", m_p.cdf);
    cmd.AddValue("sampling", "flow-size interpolation: packets (ns-2) or bytes", m_p.sampling);
    cmd.AddValue("flow-file",
                 "replay the flows of this CSV (src,dst,size_bytes,start_s)",
                 m_p.flowFile);
    cmd.AddValue("dump-flows", "write the flows run to this CSV", m_p.dumpFlows);
    cmd.AddValue("flows-only",
                 "with --dump-flows: write the flow list and stop, simulating nothing",
                 m_p.flowsOnly);
    cmd.AddValue("idealOnly",
                 "write every flow's ideal FCT on the idle fabric to the run directory's "
                 "ideal_fct.csv (with meta.json) and stop, simulating nothing (what "
                 "pfabric-analysis ideal needs to run on a flow list alone)",
                 m_p.idealOnly);
    cmd.AddValue("seed", "ns-3 random seed", m_p.seed);
    cmd.AddValue("run", "ns-3 run number (independent replications)", m_p.run);
    cmd.AddValue("out", "run directory (default: results/<named after the parameters>)", m_p.out);
    cmd.AddValue("quiet", "no progress on stderr", m_p.quiet);
    cmd.AddValue("maxSimTime", "safety limit on simulated time, seconds", m_p.maxSimTime);
    cmd.AddValue("connectLeadUs",
                 "open each flow's connection this long before it, us",
                 m_p.connectLeadUs);
    cmd.AddValue("reuse-connections",
                 "give a flow an idle connection of its host pair (its earlier flow completed) "
                 "when there is one; 0: a new connection for every flow",
                 m_p.reuseConnections);
    cmd.AddValue("hash-demux",
                 "find the socket of an arriving segment in a hash table of connections "
                 "(PfabricTcpDemux); 0: ns-3's linear search over the host's endpoints (same "
                 "results, slower when hosts hold many connections)",
                 m_p.hashDemux);
    cmd.AddValue("switchMode",
                 "how switches forward: lean (PfabricSwitch hands packets to the port's queue "
                 "disc, no IP stack) or ip (ns-3's internet stack with PfabricFabricRouting, the "
                 "reference; same results, slower)",
                 m_p.switchMode);
    cmd.AddValue("linkType",
                 "what joins two nodes: pfabric (PfabricLinkNetDevice: only the packet on the "
                 "wire is past a port's queue disc, one or two events per packet hop) or p2p "
                 "(ns-3's point-to-point devices with a one-packet device queue, as this module "
                 "had before the pfabric link; three events per hop)",
                 m_p.linkType);
}

std::string
PfabricExperiment::CheckChoices() const
{
    std::string choice = PfabricSchemeHelper::CheckChoice(m_p.scheme, m_p.preset);
    if (!choice.empty())
    {
        return choice;
    }
    if (!m_p.topology.empty() && m_p.topology != "fattree" && m_p.topology != "leafspine" &&
        m_p.topology != "star")
    {
        return "--topology=" + m_p.topology + ": expected fattree, leafspine or star";
    }
    if (m_p.switchMode != "lean" && m_p.switchMode != "ip")
    {
        return "--switchMode=" + m_p.switchMode + ": expected lean or ip";
    }
    if (m_p.linkType != "pfabric" && m_p.linkType != "p2p")
    {
        return "--linkType=" + m_p.linkType + ": expected pfabric or p2p";
    }
    if (m_p.lb != "spray" && m_p.lb != "ecmp" && m_p.lb != "flowcell" && m_p.lb != "random")
    {
        return "--lb=" + m_p.lb + ": expected spray, ecmp, flowcell or random";
    }
    if (!(m_p.load > 0 && m_p.load < 1))
    {
        return "--load=" + Number(m_p.load) + ": expected a load in (0, 1)";
    }
    if (m_p.flowFile.empty() && m_p.flows == 0)
    {
        return "--flows=0: expected at least one flow";
    }
    if (m_p.sampling != "packets" && m_p.sampling != "bytes")
    {
        return "--sampling=" + m_p.sampling + ": expected packets or bytes";
    }
    if (!m_p.buffer.empty() &&
        (!IsQuantity(m_p.buffer, {"p", "B", "KB", "MB", "KiB", "MiB"}, false) ||
         m_p.buffer[0] == '0'))
    {
        return "--buffer=" + m_p.buffer + ": expected a positive size such as 22500B or 150p";
    }
    if (!m_p.rto.empty() && !IsQuantity(m_p.rto, {"ns", "us", "ms", "s"}, true))
    {
        return "--rto=" + m_p.rto + ": expected a time such as 40us";
    }
    if (!m_p.rto.empty() && !Time(m_p.rto).IsStrictlyPositive())
    {
        return "--rto=" + m_p.rto + ": expected a positive time";
    }
    if (!(m_p.maxSimTime > 0))
    {
        return "--maxSimTime must be positive";
    }
    if (!(m_p.connectLeadUs >= 0))
    {
        return "--connectLeadUs must not be negative";
    }
    if (m_p.seed == 0)
    {
        return "--seed=0: ns-3 seeds start at 1";
    }
    return "";
}

std::string
PfabricExperiment::PrepareOutput()
{
    m_outDir = m_p.out;
    if (m_outDir.empty())
    {
        std::ostringstream name;
        name << "results/" << m_p.workload << "-" << m_p.preset << "-"
             << (m_p.idealOnly ? std::string("idealfct") : m_p.scheme);
        if (m_p.flowFile.empty())
        {
            name << "-load" << Number(m_p.load) << "-flows" << m_p.flows;
        }
        else
        {
            name << "-" << std::filesystem::path(m_p.flowFile).stem().string();
        }
        name << "-seed" << m_p.seed << "-run" << m_p.run;
        m_outDir = name.str();
    }
    std::error_code code;
    bool existed = std::filesystem::is_directory(m_outDir, code);
    if (!existed)
    {
        std::filesystem::create_directories(m_outDir, code);
        if (code)
        {
            return "--out=" + m_outDir + ": cannot create the directory (" + code.message() + ")";
        }
        m_createdOutDir = true;
    }
    std::string probe = m_outDir + "/.write-test";
    bool writable = static_cast<bool>(std::ofstream(probe) << "");
    std::remove(probe.c_str());
    if (!writable)
    {
        if (m_createdOutDir)
        {
            std::filesystem::remove(m_outDir, code);
        }
        return "--out=" + m_outDir + ": the directory cannot be written";
    }
    return "";
}

bool
PfabricExperiment::Prepare(std::string* error)
{
    *error = CheckChoices();
    if (!error->empty())
    {
        return false;
    }
    const PfabricPreset& preset = PfabricPreset::Get(m_p.preset);
    std::string topology = m_p.topology.empty() ? preset.topology : m_p.topology;
    if (topology == "fattree")
    {
        m_fabric = std::make_unique<FatTreeHelper>(m_p.k ? m_p.k : preset.fatTreeK);
    }
    else if (topology == "leafspine")
    {
        m_fabric = std::make_unique<LeafSpineHelper>(m_p.leaves ? m_p.leaves : preset.leaves,
                                                     m_p.hostsPerLeaf ? m_p.hostsPerLeaf
                                                                      : preset.hostsPerLeaf,
                                                     m_p.spines ? m_p.spines : preset.spines);
    }
    else
    {
        m_fabric = std::make_unique<SingleSwitchHelper>(m_p.hosts);
    }
    *error = m_fabric->GetShapeError();
    if (!error->empty())
    {
        return false;
    }
    m_fabric->SetPreset(m_p.preset);
    std::string lb = m_p.lb;
    lb[0] = std::toupper(lb[0]);
    m_fabric->SetSwitchAttribute("LoadBalancing", StringValue(lb));
    m_fabric->SetSwitchMode(m_p.switchMode == "ip" ? PfabricFabricHelper::IP
                                                   : PfabricFabricHelper::LEAN);
    m_fabric->SetLinkType(m_p.linkType == "p2p" ? PfabricFabricHelper::POINT_TO_POINT_LINK
                                                : PfabricFabricHelper::PFABRIC_LINK);

    RngSeedManager::SetSeed(m_p.seed);
    RngSeedManager::SetRun(m_p.run);
    m_fabric->Build();
    const uint32_t hosts = m_fabric->GetNHosts();

    if (m_p.flowFile.empty())
    {
        std::string cdf = m_p.cdf.empty() ? m_p.workload : m_p.cdf;
        auto interpolation = m_p.sampling == "packets" ? PfabricFlowSizeDistribution::PACKETS
                                                       : PfabricFlowSizeDistribution::BYTES;
        if (!m_sizes.Load(cdf, preset.segmentSize, interpolation, error))
        {
            return false;
        }
        // Fixed streams, independent of the scheme: every scheme runs the same flows.
        m_sizes.AssignStreams(1);
        double wirePerPayload =
            double(preset.segmentSize + preset.headerBytes) / preset.segmentSize;
        m_flows = PfabricFlowList::Generate(m_sizes,
                                            hosts,
                                            preset.hostLinkRate,
                                            m_p.load,
                                            m_p.flows,
                                            wirePerPayload,
                                            2);
    }
    else if (!PfabricFlowList::Read(m_p.flowFile, hosts, &m_flows, error))
    {
        return false;
    }
    if (m_flows.empty())
    {
        *error = m_p.flowFile + ": no flows";
        return false;
    }

    if (m_p.flowsOnly && m_p.idealOnly)
    {
        *error = "--flows-only and --idealOnly: choose one";
        return false;
    }
    if (m_p.flowsOnly)
    {
        if (m_p.dumpFlows.empty())
        {
            *error = "--flows-only: needs --dump-flows=PATH";
            return false;
        }
        return PfabricFlowList::Write(m_p.dumpFlows, m_flows, error);
    }
    *error = PrepareOutput();
    if (!error->empty())
    {
        return false;
    }
    if (!m_p.dumpFlows.empty() && !PfabricFlowList::Write(m_p.dumpFlows, m_flows, error))
    {
        if (m_createdOutDir)
        {
            std::error_code code;
            std::filesystem::remove(m_outDir, code);
        }
        return false;
    }

    m_scheme = std::make_unique<PfabricSchemeHelper>(m_p.scheme, m_p.preset);
    if (!m_p.buffer.empty())
    {
        m_scheme->SetQueueDiscAttribute("MaxSize", QueueSizeValue(QueueSize(m_p.buffer)));
    }
    if (!m_p.rto.empty())
    {
        m_scheme->SetSocketFactoryAttribute("Rto", TimeValue(Time(m_p.rto)));
    }
    m_scheme->SetSocketFactoryAttribute("HashDemux", BooleanValue(m_p.hashDemux));
    return true;
}

uint64_t
PfabricExperiment::PairKey(uint32_t src, uint32_t dst)
{
    return (uint64_t{src} << 32) | dst;
}

void
PfabricExperiment::Connect(FlowState* state)
{
    const PfabricFlow& f = state->flow;
    Connection* connection = nullptr;
    if (m_p.reuseConnections)
    {
        auto idle = m_idle.find(PairKey(f.src, f.dst));
        if (idle != m_idle.end() && !idle->second.empty())
        {
            // Reserved from now on: a later flow of the pair cannot take it too.
            connection = idle->second.back();
            idle->second.pop_back();
        }
    }
    if (!connection)
    {
        connection = OpenConnection(f.src, f.dst);
    }
    connection->flow = state;
    state->connection = connection;
}

PfabricExperiment::Connection*
PfabricExperiment::OpenConnection(uint32_t src, uint32_t dst)
{
    m_connections.push_back(std::make_unique<Connection>());
    Connection* connection = m_connections.back().get();
    connection->src = src;
    connection->dst = dst;
    connection->owner = this;
    connection->socket = Socket::CreateSocket(m_fabric->GetHosts().Get(src),
                                              PfabricSchemeHelper::GetSocketFactoryType());
    connection->socket->SetConnectCallback(
        MakeBoundCallback(&PfabricExperiment::Connected, connection),
        MakeNullCallback<void, Ptr<Socket>>());
    connection->socket->TraceConnectWithoutContext(
        "HighestRxAck",
        MakeBoundCallback(&PfabricExperiment::AckTrace, connection));
    connection->socket->Bind();
    connection->socket->Connect(InetSocketAddress(m_fabric->GetHostAddress(dst), PORT));
    return connection;
}

void
PfabricExperiment::Connected(Connection* connection, Ptr<Socket>)
{
    connection->connected = true;
}

void
PfabricExperiment::AckTrace(Connection* connection, SequenceNumber32, SequenceNumber32 newValue)
{
    connection->owner->AckAdvanced(connection, newValue);
}

void
PfabricExperiment::Start(FlowState* state)
{
    Connection* connection = state->connection;
    if (!connection->connected)
    {
        ++m_connectedLate;
    }
    // ns-3's initial sequence number is 0 and the SYN takes it: a new connection's first byte
    // is 1; a reused one continues where its previous flow ended.
    state->firstSeq = connection->nextSeq;
    connection->nextSeq =
        SequenceNumber32(connection->nextSeq.GetValue() + static_cast<uint32_t>(state->flow.bytes));
    state->timeoutsAtStart = TimeoutsOf(connection->socket);
    if (connection->flowsHanded++ > 0)
    {
        // The previous flow grew (or cut) the window: start this one from the initial window,
        // as on a new connection, so that reuse does not change how a flow starts.
        if (auto minTcp = DynamicCast<PfabricMinTcpSocket>(connection->socket))
        {
            minTcp->StartFlow();
        }
        else if (auto baseline = DynamicCast<PfabricBaselineTcpSocket>(connection->socket))
        {
            baseline->StartFlow();
        }
    }
    state->started = true;
    connection->socket->Send(Create<Packet>(state->flow.bytes));
}

void
PfabricExperiment::AckAdvanced(Connection* connection, SequenceNumber32 newValue)
{
    FlowState* state = connection->flow;
    if (!state || !state->started)
    {
        return; // idle, or the handshake's ACK before the flow is handed over
    }
    // Bytes of this flow acknowledged, modulo 2^32: the sequence numbers of a reused
    // connection wrap after 4 GiB. The highest ACK only moves past a flow's first byte once
    // that flow is handed over, its predecessor having been acknowledged in full.
    uint32_t acked = newValue.GetValue() - state->firstSeq.GetValue();
    if (acked < state->flow.bytes)
    {
        return;
    }
    state->fct = Simulator::Now() - state->flow.start;
    state->timeouts = TimeoutsOf(connection->socket) - state->timeoutsAtStart;
    connection->flow = nullptr;
    // The connection stays open: closing it here lets a late, reordered ACK with SACK blocks
    // reach ns-3's TcpTxBuffer::Update in FIN_WAIT, which crashes (ns-3.44). It waits idle for
    // the next flow of its host pair instead; without reuse, memory for finished connections
    // is held to the end of the run.
    if (m_p.reuseConnections)
    {
        m_idle[PairKey(connection->src, connection->dst)].push_back(connection);
    }
    if (++m_done % m_rssEvery == 0 || m_done == m_states.size())
    {
        SampleRss();
    }
    if (m_done == m_states.size())
    {
        Simulator::Stop();
    }
}

void
PfabricExperiment::SampleRss()
{
    m_rssSamples.push_back(
        {Simulator::Now().GetSeconds(), m_done, PeakRssBytes(), WallSeconds() - m_wallStart});
}

void
PfabricExperiment::Progress()
{
    double now = WallSeconds();
    if (!m_p.quiet && now - m_lastProgressWall >= PROGRESS_EVERY_WALL_S)
    {
        m_lastProgressWall = now;
        double elapsed = now - m_wallStart;
        std::cerr << "pfabric-" << m_p.workload << ": simulated " << std::fixed
                  << std::setprecision(4) << Simulator::Now().GetSeconds() << " s, flows done "
                  << m_done << "/" << m_states.size() << ", bytes done " << std::setprecision(1)
                  << 100.0 * m_bytesReceived / std::max<uint64_t>(m_totalBytes, 1) << "%, wall "
                  << std::setprecision(0) << elapsed << " s";
        double left = EstimateSecondsLeft(elapsed, m_bytesReceived, m_totalBytes);
        if (left >= 0)
        {
            std::cerr << ", ETA ~" << left << " s";
        }
        std::cerr << std::defaultfloat << std::endl;
    }
    Simulator::Schedule(MicroSeconds(PROGRESS_CHECK_US), &PfabricExperiment::Progress, this);
}

double
PfabricExperiment::EstimateSecondsLeft(double elapsedS, uint64_t doneBytes, uint64_t totalBytes)
{
    if (doneBytes == 0)
    {
        return -1;
    }
    const uint64_t leftBytes = totalBytes > doneBytes ? totalBytes - doneBytes : 0;
    return elapsedS * static_cast<double>(leftBytes) / static_cast<double>(doneBytes);
}

bool
PfabricExperiment::Run(std::string* error)
{
    m_wallStart = WallSeconds();
    m_lastProgressWall = m_wallStart;
    NodeContainer nodes(m_fabric->GetHosts(), m_fabric->GetSwitches());
    QueueDiscContainer queueDiscs = m_scheme->Install(nodes);
    int64_t stream = 1000;
    stream += PfabricSchemeHelper::AssignStreams(queueDiscs, stream);
    stream += m_fabric->AssignStreams(stream);

    NodeContainer hosts = m_fabric->GetHosts();
    for (auto host = hosts.Begin(); host != hosts.End(); ++host)
    {
        Ptr<Socket> listener =
            Socket::CreateSocket(*host, PfabricSchemeHelper::GetSocketFactoryType());
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), PORT));
        listener->Listen();
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeBoundCallback(&Accepted, &m_bytesReceived));
    }

    // Every transmission by every device of the fabric, hosts' and switches'.
    const uint64_t transmissionsBefore =
        PfabricFabricHelper::CountTransmissions(m_fabric->GetDevices());

    const Time lead = MicroSeconds(m_p.connectLeadUs);
    m_states.clear();
    m_connections.clear();
    m_idle.clear();
    m_bytesReceived = 0;
    m_totalBytes = 0;
    for (const PfabricFlow& flow : m_flows)
    {
        m_totalBytes += flow.bytes;
        auto state = std::make_unique<FlowState>();
        state->flow = flow;
        Time connectAt = flow.start > lead ? flow.start - lead : Seconds(0);
        Simulator::Schedule(connectAt, &PfabricExperiment::Connect, this, state.get());
        Simulator::Schedule(flow.start, &PfabricExperiment::Start, this, state.get());
        m_states.push_back(std::move(state));
    }
    m_rssEvery = std::max<uint32_t>(1, (m_states.size() + RSS_SAMPLES - 1) / RSS_SAMPLES);
    m_rssSamples.clear();
    SampleRss();
    Simulator::Schedule(MicroSeconds(PROGRESS_CHECK_US), &PfabricExperiment::Progress, this);
    Simulator::Stop(Seconds(m_p.maxSimTime));
    Simulator::Run();
    m_endTime = Simulator::Now();
    m_events = Simulator::GetEventCount();
    m_packetHops =
        PfabricFabricHelper::CountTransmissions(m_fabric->GetDevices()) - transmissionsBefore;
    if (m_done < m_states.size())
    {
        SampleRss(); // stopped by the safety limit
    }

    m_results.clear();
    for (const auto& state : m_states)
    {
        m_results.push_back(
            {state->flow,
             state->fct,
             m_fabric->GetIdealFct(state->flow.src, state->flow.dst, state->flow.bytes),
             state->timeouts});
    }
    Simulator::Destroy();
    m_wallSeconds = WallSeconds() - m_wallStart;
    return pfabric::WriteFileAtomically(m_outDir + "/fct.csv", FctCsv(), error) &&
           pfabric::WriteFileAtomically(m_outDir + "/meta.json", MetaJson(), error);
}

bool
PfabricExperiment::WriteIdealFcts(std::string* error)
{
    m_wallStart = WallSeconds();
    m_results.clear();
    m_results.reserve(m_flows.size());
    for (const PfabricFlow& flow : m_flows)
    {
        m_results.push_back(
            {flow, Seconds(-1), m_fabric->GetIdealFct(flow.src, flow.dst, flow.bytes), 0});
    }
    m_wallSeconds = WallSeconds() - m_wallStart;
    return pfabric::WriteFileAtomically(m_outDir + "/ideal_fct.csv", IdealFctCsv(), error) &&
           pfabric::WriteFileAtomically(m_outDir + "/meta.json", MetaJson(), error);
}

const std::vector<PfabricExperiment::Result>&
PfabricExperiment::GetResults() const
{
    return m_results;
}

std::string
PfabricExperiment::GetOutputDirectory() const
{
    return m_outDir;
}

std::string
PfabricExperiment::FctCsv() const
{
    std::ostringstream out;
    out << "flow_id,src,dst,size_bytes,start_s,fct_s,ideal_fct_s,timeouts,completed\n";
    out << std::fixed << std::setprecision(9);
    for (const Result& r : m_results)
    {
        WriteFlowColumns(out, r.flow);
        out << ",";
        if (!r.fct.IsNegative())
        {
            out << r.fct.GetSeconds();
        }
        out << "," << r.idealFct.GetSeconds() << "," << r.timeouts << ","
            << (r.fct.IsNegative() ? 0 : 1) << "\n";
    }
    return out.str();
}

std::string
PfabricExperiment::IdealFctCsv() const
{
    std::ostringstream out;
    out << "flow_id,src,dst,size_bytes,start_s,ideal_fct_s\n";
    out << std::fixed << std::setprecision(9);
    for (const Result& r : m_results)
    {
        WriteFlowColumns(out, r.flow);
        out << "," << r.idealFct.GetSeconds() << "\n";
    }
    return out.str();
}

std::string
PfabricExperiment::MetaJson() const
{
    const PfabricPreset& preset = PfabricPreset::Get(m_p.preset);
    uint32_t unfinished = m_states.size() - m_done;
    std::ostringstream out;
    out << "{\n";
    out << "  \"program\": " << JsonString("pfabric-" + m_p.workload) << ",\n";
    out << "  \"command_line\": " << JsonString(m_commandLine) << ",\n";
    out << "  \"parameters\": {\n";
    out << "    \"preset\": " << JsonString(m_p.preset) << ",\n";
    out << "    \"scheme\": " << JsonString(m_p.scheme) << ",\n";
    out << "    \"load\": " << Number(m_p.load) << ",\n";
    out << "    \"flows\": " << m_p.flows << ",\n";
    out << "    \"topology\": " << JsonString(m_p.topology.empty() ? preset.topology : m_p.topology)
        << ",\n";
    out << "    \"k\": " << m_p.k << ",\n";
    out << "    \"leaves\": " << m_p.leaves << ",\n";
    out << "    \"spines\": " << m_p.spines << ",\n";
    out << "    \"hostsPerLeaf\": " << m_p.hostsPerLeaf << ",\n";
    out << "    \"hosts\": " << m_p.hosts << ",\n";
    out << "    \"lb\": " << JsonString(m_p.lb) << ",\n";
    out << "    \"buffer\": " << JsonString(m_p.buffer) << ",\n";
    out << "    \"rto\": " << JsonString(m_p.rto) << ",\n";
    out << "    \"cdf\": " << JsonString(m_p.cdf.empty() ? m_p.workload : m_p.cdf) << ",\n";
    out << "    \"sampling\": " << JsonString(m_p.sampling) << ",\n";
    out << "    \"flow-file\": " << JsonString(m_p.flowFile) << ",\n";
    out << "    \"dump-flows\": " << JsonString(m_p.dumpFlows) << ",\n";
    out << "    \"seed\": " << m_p.seed << ",\n";
    out << "    \"run\": " << m_p.run << ",\n";
    out << "    \"maxSimTime\": " << Number(m_p.maxSimTime) << ",\n";
    out << "    \"connectLeadUs\": " << Number(m_p.connectLeadUs) << ",\n";
    out << "    \"reuse-connections\": " << (m_p.reuseConnections ? "true" : "false") << ",\n";
    out << "    \"hash-demux\": " << (m_p.hashDemux ? "true" : "false") << ",\n";
    out << "    \"switchMode\": " << JsonString(m_p.switchMode) << ",\n";
    out << "    \"linkType\": " << JsonString(m_p.linkType) << "\n";
    out << "  },\n";
    out << "  \"workload\": " << JsonString(m_p.workload) << ",\n";
    out << "  \"cdf_file\": " << JsonString(m_sizes.GetPath()) << ",\n";
    out << "  \"mean_flow_bytes\": " << Number(m_sizes.GetMean()) << ",\n";
    out << "  \"hosts\": " << m_fabric->GetNHosts() << ",\n";
    out << "  \"switches\": " << m_fabric->GetSwitches().GetN() << ",\n";
    out << "  \"host_link_bps\": " << m_fabric->GetHostLinkRate().GetBitRate() << ",\n";
    out << "  \"segment_bytes\": " << m_fabric->GetMss() << ",\n";
    out << "  \"packet_overhead_bytes\": " << m_fabric->GetPacketOverheadBytes() << ",\n";
    out << "  \"ns3_version\": " << JsonString(PFABRIC_NS3_VERSION) << ",\n";
    out << "  \"module_version\": " << JsonString(PFABRIC_VERSION) << ",\n";
    out << "  \"wall_time_s\": " << Number(m_wallSeconds) << ",\n";
    out << "  \"simulated_time_s\": " << Number(m_endTime.GetSeconds()) << ",\n";
    out << "  \"scheduler\": " << JsonString(SchedulerType().GetName()) << ",\n";
    out << "  \"events\": " << m_events << ",\n";
    out << "  \"packet_hops\": " << m_packetHops << ",\n";
    out << "  \"peak_rss_bytes\": " << PeakRssBytes() << ",\n";
    out << "  \"rss_samples\": [";
    for (std::size_t i = 0; i < m_rssSamples.size(); ++i)
    {
        const RssSample& sample = m_rssSamples[i];
        out << (i ? ", " : "") << "[" << Number(sample.simulatedS) << ", " << sample.flowsDone
            << ", " << sample.rssBytes << ", " << Number(sample.wallS) << "]";
    }
    out << "],\n";
    out << "  \"ideal_fct_only\": " << (m_p.idealOnly ? "true" : "false") << ",\n";
    out << "  \"flows_total\": " << m_flows.size() << ",\n";
    out << "  \"flows_completed\": " << m_done << ",\n";
    out << "  \"flows_unfinished\": " << unfinished << ",\n";
    out << "  \"flows_started_before_connected\": " << m_connectedLate << ",\n";
    out << "  \"connections_opened\": " << m_connections.size() << ",\n";
    out << "  \"bytes_received\": " << m_bytesReceived << "\n";
    out << "}\n";
    return out.str();
}

std::string
PfabricExperiment::Summarize() const
{
    struct Bin
    {
        std::string name;
        uint64_t low;
        uint64_t high;
        std::vector<double> slowdowns;
        uint32_t unfinished = 0;
    };

    std::vector<Bin> bins{{"(0,100KB]", 0, SMALL_FLOW_BYTES, {}},
                          {"(100KB,10MB]", SMALL_FLOW_BYTES, LARGE_FLOW_BYTES, {}},
                          {"(10MB,inf)", LARGE_FLOW_BYTES, UINT64_MAX, {}},
                          {"all", 0, UINT64_MAX, {}}};
    for (const Result& r : m_results)
    {
        for (Bin& bin : bins)
        {
            if (r.flow.bytes > bin.low && r.flow.bytes <= bin.high)
            {
                if (r.fct.IsNegative())
                {
                    ++bin.unfinished;
                }
                else
                {
                    bin.slowdowns.push_back(r.fct.GetSeconds() / r.idealFct.GetSeconds());
                }
            }
        }
    }
    std::ostringstream out;
    out << "FCT / ideal FCT (KB = 1000 B)\n";
    out << std::left << std::setw(14) << "size" << std::right << std::setw(8) << "flows"
        << std::setw(10) << "mean" << std::setw(10) << "p99" << std::setw(12) << "unfinished"
        << "\n";
    for (Bin& bin : bins)
    {
        std::sort(bin.slowdowns.begin(), bin.slowdowns.end());
        out << std::left << std::setw(14) << bin.name << std::right << std::setw(8)
            << bin.slowdowns.size();
        if (bin.slowdowns.empty())
        {
            out << std::setw(10) << "-" << std::setw(10) << "-";
        }
        else
        {
            double sum = 0;
            for (double s : bin.slowdowns)
            {
                sum += s;
            }
            // Nearest rank.
            std::size_t rank = static_cast<std::size_t>(std::ceil(0.99 * bin.slowdowns.size()));
            out << std::fixed << std::setprecision(3) << std::setw(10) << sum / bin.slowdowns.size()
                << std::setw(10) << bin.slowdowns[rank - 1] << std::defaultfloat;
        }
        out << std::setw(12) << bin.unfinished << "\n";
    }
    return out.str();
}

int
PfabricExperiment::Main(int argc, char* argv[], const std::string& workload)
{
    const std::string program = "pfabric-" + workload;
    PfabricExperiment experiment(workload);
    CommandLine cmd(program + ".cc");
    experiment.AddCommandLineOptions(cmd);
    // A binary heap of pending events costs less per insertion than MapScheduler's tree when a
    // long run keeps tens of thousands of flow starts pending (same fct.csv, measured in the
    // doc's benchmarks).
    if (SchedulerType() == MapScheduler::GetTypeId())
    {
        GlobalValue::Bind("SchedulerType", TypeIdValue(PriorityQueueScheduler::GetTypeId()));
    }
    cmd.Parse(argc, argv);
    for (int i = 0; i < argc; ++i)
    {
        experiment.m_commandLine += (i ? " " : "") + std::string(argv[i]);
    }
    std::string error;
    if (!experiment.Prepare(&error))
    {
        std::cerr << program << ": error: " << error << std::endl;
        return 1;
    }
    if (experiment.m_p.flowsOnly)
    {
        std::cout << "flows: " << experiment.m_p.dumpFlows << " (" << experiment.m_flows.size()
                  << ")" << std::endl;
        return 0;
    }
    if (experiment.m_p.idealOnly)
    {
        if (!experiment.WriteIdealFcts(&error))
        {
            std::cerr << program << ": error: " << error << std::endl;
            return 1;
        }
        std::cout << "files: " << experiment.GetOutputDirectory() << "/ideal_fct.csv, "
                  << experiment.GetOutputDirectory() << "/meta.json" << std::endl;
        return 0;
    }
    if (!experiment.m_p.quiet)
    {
        std::cerr << program << ": " << experiment.m_flows.size() << " flows, "
                  << experiment.m_p.scheme << " on " << experiment.m_fabric->GetNHosts()
                  << " hosts (" << experiment.m_p.preset << "), output in "
                  << experiment.GetOutputDirectory() << std::endl;
    }
    if (!experiment.Run(&error))
    {
        std::cerr << program << ": error: " << error << std::endl;
        return 1;
    }
    std::cout << experiment.Summarize();
    std::cout << "files: " << experiment.GetOutputDirectory() << "/fct.csv, "
              << experiment.GetOutputDirectory() << "/meta.json" << std::endl;
    return 0;
}

} // namespace ns3
