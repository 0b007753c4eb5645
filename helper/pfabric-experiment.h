/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_EXPERIMENT_H
#define PFABRIC_EXPERIMENT_H

#include "ns3/command-line.h"
#include "ns3/nstime.h"
#include "ns3/pfabric-fabric-helper.h"
#include "ns3/pfabric-flow-list.h"
#include "ns3/pfabric-flow-size-distribution.h"
#include "ns3/pfabric-scheme-helper.h"
#include "ns3/sequence-number.h"
#include "ns3/socket.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief The FCT experiment behind pfabric-websearch and pfabric-datamining: a fabric, a scheme,
 * a workload of flows, every flow's completion time written to a run directory.
 *
 * Every flow gets its TCP connection ConnectLead before it starts, so no handshake is inside an
 * FCT: with ReuseConnections (the default) an idle connection of the same ordered host pair,
 * one whose flow has completed (all its bytes acknowledged), if there is one, else a new one
 * (persistent connections, as in the original simulations; ns-3 looks a segment's socket up by
 * a linear search over its host's connections, and a connection is never closed, see
 * AckAdvanced). A reused connection starts the flow as a new one would (StartFlow of the
 * socket classes: initial window and ssthresh) and continues its sequence numbers. Concurrent
 * flows between the same hosts never share a connection (a MinTCP connection's priority is then
 * exactly its flow's remaining size). The FCT runs from the moment the whole flow is handed to
 * the socket to the moment the sender sees its last byte acknowledged. The simulation ends when
 * the last flow completes, or at MaxSimTime, in which case unfinished flows are written with
 * completed = 0.
 *
 * Output, in the run directory: fct.csv (flow_id,src,dst,size_bytes,start_s,fct_s,ideal_fct_s,
 * timeouts,completed) and meta.json (parameters, seed and run, versions, wall and simulated time,
 * events, packet hops, peak memory and its growth, connections opened, bytes received), each
 * written to a temporary name and renamed.
 *
 * Cost counters: packet_hops counts every transmission by every device of the fabric
 * (PfabricFabricHelper::CountTransmissions: data, ACKs and handshakes, at hosts and switches
 * alike); rss_samples records the peak resident memory so far before the run, each time another
 * hundredth of the flows has completed and, if flows are left unfinished, at the end, as
 * [simulated_s, flows_done, rss_bytes, wall_s] (wall_s: since Run began).
 */
class PfabricExperiment
{
  public:
    /// Every knob of the experiment (the examples' command-line options).
    struct Parameters
    {
        std::string workload;             //!< websearch or datamining: names the run
        std::string preset = "hotnets12"; //!< PfabricPreset
        std::string scheme = "pfabric";   //!< pfabric, linerate, tcp, dctcp
        double load = 0.6;                //!< fraction of the host link
        uint32_t flows = 2000;            //!< flows to generate
        std::string topology;             //!< fattree, leafspine, star; empty: the preset's
        uint32_t k = 0;                   //!< fat-tree radix; 0: the preset's
        uint32_t leaves = 0;              //!< leaf-spine leaves; 0: the preset's
        uint32_t spines = 0;              //!< leaf-spine spines; 0: the preset's
        uint32_t hostsPerLeaf = 0;        //!< leaf-spine hosts per leaf; 0: the preset's
        uint32_t hosts = 16;              //!< star: hosts
        std::string lb = "spray";         //!< spray, ecmp, flowcell, random
        std::string buffer;               //!< switch buffer; empty: the preset's
        std::string rto;                  //!< MinTCP / LineRate RTO; empty: the preset's
        std::string cdf;                  //!< flow sizes: name or file; empty: workload
        std::string sampling = "packets"; //!< packets (ns-2) or bytes
        std::string flowFile;             //!< replay these flows instead of generating
        std::string dumpFlows;            //!< write the flows run here
        uint32_t seed = 1;                //!< ns-3 RNG seed
        uint32_t run = 1;                 //!< ns-3 RNG run
        std::string out;                  //!< run directory; empty: named after the parameters
        bool quiet = false;               //!< no progress on stderr
        bool flowsOnly = false;           //!< write --dump-flows and simulate nothing
        bool idealOnly = false;           //!< write ideal_fct.csv and meta.json, simulate nothing
        double maxSimTime = 100;          //!< safety limit on simulated time, seconds
        double connectLeadUs = 1000;      //!< connections open this long before their flow
        bool reuseConnections = true;     //!< hand idle connections to later flows of the pair
        bool hashDemux = true;            //!< sockets found through PfabricTcpDemux
        std::string switchMode = "lean";  //!< lean (no IP stack at switches) or ip
        std::string linkType = "pfabric"; //!< pfabric (PfabricLinkNetDevice) or p2p
    };

    /// One flow's outcome.
    struct Result
    {
        PfabricFlow flow;  //!< the flow
        Time fct;          //!< completion time; negative: unfinished
        Time idealFct;     //!< the fabric's idle-path FCT
        uint64_t timeouts; //!< retransmission timeouts of its connection
    };

    /**
     * @param workload websearch or datamining: the default flow sizes and the run's name
     */
    explicit PfabricExperiment(const std::string& workload);
    ~PfabricExperiment();

    /// @return the parameters (set them before Prepare)
    Parameters& GetParameters();

    /**
     * @brief Register every parameter as a command-line option.
     * @param cmd the command line
     */
    void AddCommandLineOptions(CommandLine& cmd);

    /**
     * @brief Check every parameter and input, build the fabric and the flow list, and make
     * sure the outputs can be written; nothing is simulated.
     * @param[out] error on failure, one line naming the parameter or file
     * @return true on success
     */
    bool Prepare(std::string* error);

    /**
     * @brief Simulate (after Prepare) and write fct.csv and meta.json.
     * @param[out] error on failure to write, one line
     * @return true on success
     */
    bool Run(std::string* error);

    /**
     * @brief Instead of Run: every flow's ideal FCT on the idle fabric
     * (PfabricFabricHelper::GetIdealFct), written to the run directory's ideal_fct.csv
     * (flow_id,src,dst,size_bytes,start_s,ideal_fct_s) with a meta.json; nothing is simulated.
     *
     * What the Ideal scheme (pfabric-analysis ideal) needs from the fabric, so that it can run
     * on a flow list alone: the fabric model stays in this one place.
     *
     * @param[out] error on failure to write, one line
     * @return true on success
     */
    bool WriteIdealFcts(std::string* error);

    /// @return the results, in flow-id order (after Run)
    const std::vector<Result>& GetResults() const;

    /// @return the run directory
    std::string GetOutputDirectory() const;

    /// @return a short table: per size bin, flows, mean and 99th percentile of FCT / ideal
    std::string Summarize() const;

    /**
     * @brief The whole program of pfabric-websearch and pfabric-datamining.
     *
     * Unless the command line (--SchedulerType) or NS_GLOBAL_VALUE names another event
     * scheduler, the program runs on ns3::PriorityQueueScheduler instead of ns-3's default
     * MapScheduler: the same events in the same order (ties go by insertion on every ns-3
     * scheduler), in less time.
     *
     * @param argc argument count
     * @param argv arguments
     * @param workload websearch or datamining
     * @return the exit status
     */
    static int Main(int argc, char* argv[], const std::string& workload);

    /**
     * @brief The progress line's estimate of the wall time left, from the work done.
     *
     * Work is counted in bytes delivered, not in flows: the flows of a heavy-tailed workload
     * finish in size order more than in arrival order, so the last few flows, the large ones,
     * can hold most of the bytes (and of the run: 88 of 10,000 data mining flows took the last
     * 854 of 1,785 s).
     *
     * @param elapsedS wall seconds so far
     * @param doneBytes bytes delivered so far
     * @param totalBytes bytes of every flow
     * @return seconds left at the rate so far; negative while nothing has been delivered
     */
    static double EstimateSecondsLeft(double elapsedS, uint64_t doneBytes, uint64_t totalBytes);

  private:
    /// A flow's connection and progress.
    struct FlowState;

    /// A connection from one host to another, carrying one flow at a time.
    struct Connection;

    /// One memory sample.
    struct RssSample
    {
        double simulatedS;  //!< simulated time, seconds
        uint32_t flowsDone; //!< flows completed
        uint64_t rssBytes;  //!< peak resident set size so far
        double wallS;       //!< wall-clock seconds since Run began
    };

    /// @return "" or what is wrong with the choice parameters
    std::string CheckChoices() const;
    /// @return "" or what is wrong with the output directory (created if missing)
    std::string PrepareOutput();
    /**
     * @brief Socket callback: a connection is open.
     * @param connection the connection
     */
    static void Connected(Connection* connection, Ptr<Socket>);
    /**
     * @brief Socket trace "HighestRxAck" of a connection's sender.
     * @param connection the connection
     * @param oldValue previous highest ACK
     * @param newValue new highest ACK
     */
    static void AckTrace(Connection* connection,
                         SequenceNumber32 oldValue,
                         SequenceNumber32 newValue);
    /**
     * @brief Give a flow its connection: an idle one of its host pair or a new one.
     * @param state the flow
     */
    void Connect(FlowState* state);
    /**
     * @brief Open a new connection.
     * @param src sending host
     * @param dst receiving host
     * @return the connection
     */
    Connection* OpenConnection(uint32_t src, uint32_t dst);
    /**
     * @brief Hand a flow to its connection's socket.
     * @param state the flow
     */
    void Start(FlowState* state);
    /**
     * @brief A connection's highest acknowledgement moved: its flow may be complete.
     * @param connection the connection
     * @param newValue new highest ACK
     */
    void AckAdvanced(Connection* connection, SequenceNumber32 newValue);
    /**
     * @param src sending host
     * @param dst receiving host
     * @return the key of an ordered host pair in m_idle
     */
    static uint64_t PairKey(uint32_t src, uint32_t dst);
    /// Print progress now and then.
    void Progress();
    /// Append the peak resident memory so far to m_rssSamples.
    void SampleRss();
    /// @return the fct.csv text
    std::string FctCsv() const;
    /// @return the ideal_fct.csv text
    std::string IdealFctCsv() const;
    /// @return the meta.json text
    std::string MetaJson() const;

    Parameters m_p;                                   //!< parameters
    std::string m_commandLine;                        //!< the program's arguments
    PfabricFlowSizeDistribution m_sizes;              //!< flow sizes (when generating)
    std::unique_ptr<PfabricFabricHelper> m_fabric;    //!< the fabric
    std::unique_ptr<PfabricSchemeHelper> m_scheme;    //!< the scheme
    std::vector<PfabricFlow> m_flows;                 //!< the flows
    std::vector<std::unique_ptr<FlowState>> m_states; //!< per flow
    std::vector<Result> m_results;                    //!< per flow, after Run
    std::string m_outDir;                             //!< run directory
    bool m_createdOutDir;                             //!< Prepare created it
    uint32_t m_done;                                  //!< flows completed
    uint32_t m_connectedLate;                         //!< flows handed over before connected
    double m_wallSeconds;                             //!< wall time of Run
    double m_lastProgressWall;                        //!< wall time of the last progress line
    double m_wallStart;                               //!< wall clock at Run's start
    Time m_endTime;                                   //!< simulated time at the end
    uint64_t m_events;                                //!< events executed
    uint64_t m_packetHops;                            //!< transmissions by fabric devices
    uint64_t m_bytesReceived;                         //!< bytes read by every receiver
    uint64_t m_totalBytes;                            //!< bytes of every flow
    uint32_t m_rssEvery;                              //!< flows completed between samples
    std::vector<RssSample> m_rssSamples;              //!< memory over the run

    /// Every connection opened, in the order opened.
    std::vector<std::unique_ptr<Connection>> m_connections;
    /// Idle connections (flow completed, none reserved) per ordered host pair (PairKey).
    std::unordered_map<uint64_t, std::vector<Connection*>> m_idle;
};

} // namespace ns3

#endif /* PFABRIC_EXPERIMENT_H */
