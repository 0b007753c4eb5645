/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The FCT experiment's core: a fabric, a scheme, every host's flow application, the flows handed
// to them, and the run (Prepare, Install, Run). Its options, workload, features and report are
// parts of their own (pfabric-experiment-options.h, -workload.h, -feature.h, -report.cc).

#ifndef PFABRIC_EXPERIMENT_H
#define PFABRIC_EXPERIMENT_H

#include "ns3/nstime.h"
#include "ns3/pfabric-command-line.h"
#include "ns3/pfabric-custom-scheme.h"
#include "ns3/pfabric-experiment-feature.h"
#include "ns3/pfabric-experiment-options.h"
#include "ns3/pfabric-experiment-workload.h"
#include "ns3/pfabric-fabric-helper.h"
#include "ns3/pfabric-flow-application.h"
#include "ns3/pfabric-flow-list.h"
#include "ns3/pfabric-flow-size-distribution.h"
#include "ns3/pfabric-measurement-window.h"
#include "ns3/pfabric-results-writer.h"
#include "ns3/pfabric-scheme-helper.h"
#include "ns3/pfabric-stop-report.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief The FCT experiment behind pfabric-websearch and pfabric-datamining, as wiring: a
 * fabric (PfabricFabricHelper), a scheme (PfabricSchemeHelper), a PfabricFlowApplication on
 * every host that sends the workload's flows, and a run directory (PfabricResultsWriter) for
 * every flow's completion time and the run's provenance.
 *
 * Use: set the parameters (or AddCommandLineOptions), Prepare (checks every input, builds the
 * fabric and the flow list, opens the run directory; simulates nothing), Install (the scheme,
 * the applications, every flow handed to its source's application), then Run (simulates until
 * the last flow completes, or MaxSimTime, in which case unfinished flows are reported with
 * completed = 0) and WriteResults (fct.csv and meta.json). What a program adds around a run,
 * progress lines, memory samples, the event scheduler, is the program's
 * (pfabric-experiment-program.h).
 *
 * The parts: the options (PfabricExperimentOptions: the typed parameters, their command line,
 * checks, provenance and the run directory's name), the workload (PfabricExperimentWorkload:
 * flow sizes, flows generated or read), the features (PfabricExperimentFeature: each adds its
 * options, checks, flows, scheme settings, columns, provenance and summary through hooks, so
 * that this core has no branch for any of them), and the report (AddProvenance and Summarize,
 * pfabric-experiment-report.cc).
 *
 * The workload "classes" (pfabric-classes) runs two traffic classes on one fabric
 * (PfabricClassFeature).
 *
 * Connections and the FCT: see PfabricFlowApplication (every flow's connection is opened
 * ConnectLead before it; idle connections of a host pair are reused; the FCT runs from the
 * flow's hand-over to the socket to its last byte acknowledged).
 *
 * Deadlines (EnableDeadlines, the pfabric-deadlines program): PfabricDeadlineFeature.
 *
 * The steady-state window (GetWindow, --warmupFlows and --measureFlows; PfabricMeasurementWindow):
 * instead of running Flows flows to completion, flows keep arriving, drawn from the same
 * process as the list as the run needs them (or a flow file's), until every measured flow has
 * completed; fct.csv then holds every flow that started by the end of the run, with a measured
 * column, and Summarize covers the measured flows. Not with deadlines, classes or added flows.
 *
 * The custom scheme (--scheme=custom, PfabricCustomScheme): ns-3 parts by name on the same
 * flows and measurement; its options come with AddFabricCommandLineOptions, its checks with
 * Prepare's, its label names the run directory, and meta.json records its parts.
 *
 * Output, in the run directory: fct.csv (PfabricResultsWriter) and meta.json: the parameters,
 * the workload and fabric, versions, simulated time, events, packet hops, connections opened,
 * flows completed and unfinished, bytes received (AddProvenance), and what the program adds.
 * packet_hops counts every transmission by every device of the fabric
 * (PfabricFabricHelper::CountTransmissions: data, ACKs and handshakes, at hosts and switches
 * alike).
 */
class PfabricExperiment
{
  public:
    /// Every knob of the experiment (the examples' command-line options), typed.
    using Parameters = PfabricExperimentParameters;

    /// One flow's outcome.
    using Result = PfabricResultsWriter::FlowResult;

    /**
     * How far a run is: window off, every flow and the bytes every host has received; window
     * on, the measured flows and their payload bytes completed (the run ends when the last
     * measured flow completes, and the flows after them are not known in advance).
     */
    struct Progress
    {
        uint32_t flowsDone; //!< flows completed
        uint32_t flows;     //!< flows to complete
        uint64_t bytesDone; //!< bytes done
        uint64_t bytes;     //!< bytes to do (window on: estimated until every measured flow
                            //!< has been drawn)
    };

    /**
     * @param workload websearch or datamining: the default flow sizes and the run's name;
     *        classes: two traffic classes (PfabricClassFeature)
     */
    explicit PfabricExperiment(const std::string& workload);
    ~PfabricExperiment();

    /// @return the parameters (set them before Prepare)
    Parameters& GetParameters();

    /**
     * @brief Run flows with deadlines (PfabricDeadlineFeature: the deadline parameters, their
     * command-line options, fct.csv's deadline columns, meta.json's deadline provenance). Call
     * before AddCommandLineOptions; without it the experiment is pfabric-websearch's.
     */
    void EnableDeadlines();

    /// @return whether EnableDeadlines was called
    bool HasDeadlines() const;

    /// @return the measurement window (set it before Prepare; AddCommandLineOptions adds its
    /// options)
    PfabricMeasurementWindow& GetWindow();

    /// @return the custom scheme's parts (set them before Prepare, with Scheme custom;
    /// AddFabricCommandLineOptions adds their options)
    PfabricCustomScheme& GetCustomScheme();

    /// @return the scheme's name in the run directory and the analysis: Scheme, or the custom
    /// scheme's label
    std::string GetSchemeName() const;

    /**
     * @return the options as given that configure what ns-3 builds and runs for this experiment
     * (the settings a crash inside ns-3 most likely comes from): ns-3's global values, the
     * custom scheme's options and --buffer and --rto, ns-3's attribute paths, and
     * NS_GLOBAL_VALUE and NS_ATTRIBUTE_DEFAULT when set; empty when none was given. Valid after
     * Prepare.
     */
    std::vector<std::string> GetSettingsGivenToNs3() const;

    /// @return the measurement window
    const PfabricMeasurementWindow& GetWindow() const;

    /**
     * @brief Register every parameter as a command-line option (AddFabricCommandLineOptions,
     * then the workload's, the transport's and the experiment's own).
     * @param cmd the command line; kept until Prepare, whose trial names the settings of ns-3's
     *        own given on it (PfabricCommandLine::GetNs3Settings) when ns-3 stops on them
     */
    void AddCommandLineOptions(PfabricCommandLine& cmd);

    /**
     * @brief Register the options that every experiment built on this one shares: preset,
     * scheme (and the custom scheme's parts), the topology and its sizes, load balancing, buffer,
     * RTO, seed, run, the run directory, MaxSimTime and ConnectLead.
     * @param cmd the command line; kept until Prepare, as AddCommandLineOptions keeps it
     */
    void AddFabricCommandLineOptions(PfabricCommandLine& cmd);

    /**
     * @brief Check every parameter and input, build the fabric and the flow list, and open the
     * run directory (unless FlowsOnly); nothing is simulated. With FlowsOnly the flow list is
     * written to DumpFlows here.
     *
     * After the choices (CheckChoices) and before anything is built, the configuration is tried
     * in a child process (PfabricSettingsTrial): ns-3's simulator created from its global
     * values, a fabric of two hosts and a switch of the run's kind (topology aside), the scheme
     * installed on it and initialised, and a flow of ten segments carried from one host to the
     * other. What ns-3 stops on there (an abort, a failed assertion, a signal) is refused in one
     * line naming the options that configure that step (the global values given; the attribute
     * paths; the custom scheme's parts given, --buffer, --rto and the attribute paths), with
     * ns-3's message. The child is a copy of the process: this run's objects, random streams
     * and results are the same with the trial as without it.
     * @param[out] error on failure, one line naming the parameter or file
     * @return true on success
     */
    bool Prepare(std::string* error);

    /**
     * @brief What Prepare checks first: every parameter that needs no file (the choices, the
     * numbers' ranges, the lists such as --classLoads). The fuzz target of the command line
     * (test/fuzz/fuzz-options.cc) calls it after parsing.
     * @return "" or what is wrong, one line naming the option
     */
    std::string CheckChoices() const;

    /**
     * @brief Add the parameters to meta.json's parameters object (every option of the tables,
     * PfabricExperimentOptions).
     * @param parameters the object
     */
    void AddParameters(PfabricJsonObject& parameters) const;

    /**
     * @brief After Prepare, before Install: run these flows too, after the generated ones (a
     * program's own traffic, e.g. the responses of pfabric-incast's queries; needs AddedFlows,
     * with which Flows may be 0).
     * @param flows the flows; their ids are replaced by their index in the run's flow list
     * @return the id of the first flow added
     */
    uint32_t AddFlows(std::vector<PfabricFlow> flows);

    /**
     * @brief After a successful Prepare, when the program refuses a parameter of its own or
     * cannot write a file of its own: remove what the run wrote to its run directory and every
     * directory level Prepare created (PfabricResultsWriter::Abandon).
     */
    void AbandonRunDirectory();

    /**
     * @brief After Prepare: install the scheme on every node and a PfabricFlowApplication on
     * every host, and hand each flow to its source host's application.
     */
    void Install();

    /**
     * @brief After Install: simulate until every flow has completed or MaxSimTime has passed,
     * collect every flow's outcome (GetResults) and destroy the simulation. A run that cannot
     * go on (GetRunError) stops at once.
     */
    void Run();

    /**
     * @brief Why the last Run could not go on, one line: a host needed a connection more than
     * its application's MaxConnections (ConnectionRefused); its results are no run's.
     * @return the line; "": it ran
     */
    const std::string& GetRunError() const;

    /**
     * @brief Add what the experiment knows of the run to its provenance: the parameters, the
     * workload and fabric, versions and, after Run, the simulation's counters.
     * @param meta the run's meta.json object
     */
    void AddProvenance(PfabricJsonObject& meta) const;

    /**
     * @brief After Run: write fct.csv and meta.json to the run directory.
     * @param meta the run's provenance (AddProvenance and whatever the program adds)
     * @param[out] error on failure to write, one line; then the files the run wrote and the
     *        directories Prepare created are removed again (AbandonRunDirectory)
     * @return true on success
     */
    bool WriteResults(const PfabricJsonObject& meta, std::string* error);

    /**
     * @brief After Run: write a program's own file to the run directory (pfabric-incast's
     * queries.csv), whole or not at all.
     * @param name the file's name in the run directory
     * @param text its contents
     * @param[out] error on failure to write, one line; then, as WriteResults, nothing is left
     * @return true on success
     */
    bool WriteRunFile(const std::string& name, const std::string& text, std::string* error);

    /**
     * @brief Instead of Install and Run: every flow's ideal FCT on the idle fabric
     * (PfabricFabricHelper::GetIdealFct), written to the run directory's ideal_fct.csv with a
     * meta.json; nothing is simulated.
     *
     * What the Ideal scheme (pfabric-analysis ideal) needs from the fabric, so that it can run
     * on a flow list alone: the fabric model stays in this one place.
     *
     * @param meta the run's provenance (AddProvenance and whatever the program adds)
     * @param[out] error on failure to write, one line; then, as WriteResults, nothing is left
     * @return true on success
     */
    bool WriteIdealFcts(const PfabricJsonObject& meta, std::string* error);

    /// @return the results, in flow-id order (after Run)
    const std::vector<Result>& GetResults() const;

    /// @return the run directory
    std::string GetOutputDirectory() const;

    /// @return the flows of the run
    const std::vector<PfabricFlow>& GetFlows() const;

    /// @return the fabric (after Prepare)
    const PfabricFabricHelper& GetFabric() const;

    /// @return the simulated time at which Run ended
    Time GetEndTime() const;

    /// @return the flows completed so far (during and after Run)
    uint32_t GetFlowsCompleted() const;

    /// @return the bytes every host has received so far (during and after Run)
    uint64_t GetBytesReceived() const;

    /// @return the payload bytes of every flow handed to the hosts
    uint64_t GetTotalBytes() const;

    /// @return how far the run is (during and after Run)
    Progress GetProgress() const;

    /**
     * @return after Run with the window on: whether flows were still arriving when it ended
     *         (false only when a flow file ran out first); true otherwise
     */
    bool GetArrivalsThroughEnd() const;

    /// @return after Run: why it stopped and what it left unfinished (meta.json's "stop")
    const PfabricStopReport& GetStopReport() const;

    /// @return a short table: per size bin, flows, mean and 99th percentile of FCT / ideal
    /// (classes: one table per class)
    std::string Summarize() const;

    /**
     * @brief The wall time left, estimated from the work done.
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

    /**
     * @brief The packet hops the run will take at least (PfabricExperimentWorkload::
     * EstimatePacketHops), before it starts (after Prepare). What a run costs is about this times
     * the cost of a hop on the machine.
     * @return packet transmissions
     */
    uint64_t EstimatePacketHops() const;

    /**
     * @brief The experiments' flow list (PfabricExperimentWorkload::GenerateFlows; kept here for
     * the Python bindings, pfabric_analysis/bindings.py).
     * @param sizes the flow sizes (its stream is assigned here)
     * @param preset the preset, for the host link rate and packet sizes
     * @param hosts number of hosts
     * @param load fraction of the host link
     * @param flows number of flows
     * @return the flows
     */
    static std::vector<PfabricFlow> GenerateFlows(PfabricFlowSizeDistribution& sizes,
                                                  const std::string& preset,
                                                  uint32_t hosts,
                                                  double load,
                                                  uint32_t flows);

    /**
     * @brief The experiments' random streams after installation (what Install assigns): the
     * ports' queue discs, then the fabric, from stream 1000 on, clear of the flow list's.
     * @param queueDiscs the ports the scheme installed
     * @param fabric the fabric
     * @return the streams assigned
     */
    static int64_t AssignStreams(const QueueDiscContainer& queueDiscs, PfabricFabricHelper& fabric);

  private:
    /**
     * @param ports queue discs
     * @return the packets they dropped, before or after dequeue (their stats)
     */
    static uint64_t CountDrops(const QueueDiscContainer& ports);

    /**
     * @brief A host's application reported a completed flow.
     * @param flow the flow
     */
    void FlowCompleted(const PfabricFlowApplication::CompletedFlow& flow);
    /**
     * @brief A host's application gave up a flow at its deadline.
     * @param flow the flow
     */
    void FlowTerminated(const PfabricFlowApplication::CompletedFlow& flow);
    /**
     * @brief A host's application found no connection for a flow (ConnectionRefused): record
     * the run's error and stop.
     * @param experiment this experiment
     * @param host the host's index
     * @param flow the flow
     */
    static void ConnectionRefused(PfabricExperiment* experiment,
                                  uint32_t host,
                                  const PfabricFlowApplication::Flow& flow);
    /**
     * @brief Hand a flow to its source host's application, with a result row for it.
     * @param flow the flow; its id is the row's index
     */
    void HandOver(const PfabricFlow& flow);
    /// @brief After a windowed run: the rows of fct.csv, every flow started by the end and
    /// every measured flow.
    void FinishWindow();
    /**
     * @brief Build the fabric of the parameters (Prepare), refusing what its links or IP
     * stacks could carry no packet with (PfabricFabricHelper::FindIpSettingNoPacketCrosses).
     * @param[out] error on failure, one line
     * @return true on success
     */
    bool BuildFabric(std::string* error);
    /**
     * @brief Make the run's flows: the workload's, or a feature's, then the features' changes
     * (Prepare).
     * @param[out] error on failure, one line
     * @return true on success
     */
    bool MakeFlows(std::string* error);
    /// @brief Set the scheme up from the parameters and the features (Prepare).
    void ConfigureScheme();
    /**
     * @brief Set a fabric up from the parameters as BuildFabric does, but for its shape: the
     * preset, load balancing, link delay, switch mode, host stack and link type.
     * @param fabric the fabric, not yet built
     */
    void ConfigureFabric(PfabricFabricHelper& fabric) const;
    /// @return a host's flow application as Install configures it (its traces not connected)
    Ptr<PfabricFlowApplication> CreateApplication() const;
    /**
     * @brief Try the configuration in a child process before anything is built (Prepare).
     * @return "" or the step ns-3 stopped on, one line naming the options that configure it
     */
    std::string TrySettings();
    /**
     * @brief Refuse a value of an attribute that the ports' queue disc or the sockets, in their
     * configured mode, never read (PfabricSchemeHelper::GetIdleModeAttributes: TieBreak under
     * EarliestOfMostUrgentFlow, a class scheduler's Weights and Quantum under Strict,
     * ProbeAfterTimeouts without ProbeMode, DupAckThreshold without FastRetransmit). Prepare,
     * before the run directory exists.
     * @return "" or the refusal, naming the setting as given
     */
    std::string CheckModeAttributes() const;

    /**
     * @brief Refuse PfabricQueueDisc::UntaggedPriority given where the scheme's senders tag
     * every segment (PfabricTcpSocket::TagsEverySegment): no packet of the run is untagged.
     * @return "" or the refusal, naming the setting as given
     */
    std::string CheckUntaggedPriority() const;

    /**
     * @brief Refuse a default of an ns-3 type of a role the scheme fills (a queue disc, a
     * congestion control, a TCP socket) that the run never creates: RED's under pfabric, Cubic's
     * under tcp (the eleventh probe: taken, fct.csv unchanged).
     * @return "" or the refusal, naming the setting as given
     */
    std::string CheckUnusedTypeDefaults() const;
    /**
     * @brief Refuse PfabricFlowApplication's TerminateAtDeadline given where no flow has a
     * deadline: it would give none up. With deadlines (EnableDeadlines) the program's --onMiss
     * owns it (CheckOwnSettings); else only a flow list's deadline_s column gives flows one.
     * Prepare, before the run directory exists.
     * @return "" or the refusal, naming the setting as given
     */
    std::string CheckDeadlineSettings() const;
    /// @return the scheme's options as given (the custom scheme's changed ones, --buffer, --rto)
    std::vector<std::string> GetSchemeOptionsGiven() const;
    /**
     * @brief Refuse a value of an attribute of ns-3's sockets that the run would not have:
     * one the scheme's sockets set themselves, on either host stack
     * (PfabricTcpSocketFactory::GetAttributesSocketsOverwrite), and on the lean host
     * (--hostStack=lean) one its senders and receivers do not model
     * (PfabricTcpSocketFactory::GetAttributesLeanHostIgnores). Prepare, after ConfigureScheme,
     * before the run directory exists.
     * @return "" or the first such value, one line naming the option that set it and what to do
     */
    std::string CheckSocketSettings() const;
    /**
     * @brief Refuse a default of an attribute this program sets itself from one of its options
     * (the flow applications' ReuseConnections, ConnectionPool and ConnectLead, the socket
     * factory's HashDemux and RestartSsThresh): meta.json would record it and the run have the
     * option's value. Prepare, before the run directory exists.
     * @return "" or the first such default, one line naming the option to give
     */
    std::string CheckOwnSettings() const;
    /**
     * @brief Refuse a default of ns-3's for an attribute the fabric sets itself on every link
     * (PfabricFabricHelper::GetLinkDefaultsItOverrides) or on every device queue
     * (PfabricQueueDiscHelper::GetPortDefaultsWithoutEffect): meta.json would record it
     * and the run not have it. BuildFabric, before the fabric is built.
     * @return "" or the first such default, one line naming the option that set it
     */
    std::string CheckLinkSettings() const;
    /**
     * @brief Refuse a queue disc size ns-3 would not keep (a size of 0, or in a unit the queue
     * disc does not take: FqCoDel's MaxSize=150000B stayed 0p and dropped every packet):
     * each queue disc of the scheme made once, its MaxSize read back. Prepare, after the trial.
     * @return "" or the first such size, one line naming the queue disc and the size
     */
    std::string CheckQueueSizes() const;
    /**
     * @brief Refuse a default of ns-3's IP stack that nothing in the run reads: the TTL where
     * the switches are lean (PfabricFabricHelper::GetTtlDefaultsNothingReads), any where no
     * node has the stack (lean hosts and lean switches: GetIpDefaultsNoNodeHas); meta.json
     * would record it and the run not have it. BuildFabric, before the fabric is built.
     * @return "" or the first such default, one line naming the option that set it
     */
    std::string CheckIpSettings() const;

    /**
     * @brief A sending host with more flows than ports for their connections, when each flow
     * opens its own (--reuseConnections=0); with reuse, the run stops with a line naming the
     * host if its connections at once outnumber its ports (PfabricHostTransport::EPHEMERAL_PORTS).
     * @return the refusal, one line; "": none
     */
    std::string CheckConnectionsPerHost() const;

    /**
     * @brief How a configured default was set, as the user gave it, for a refusal's line.
     * @param path its attribute path, e.g. ns3::Ipv4L3Protocol::DefaultTtl
     * @return the command line's or NS_ATTRIBUTE_DEFAULT's setting
     *         (PfabricCommandLine::DescribeNs3Setting), else the path
     */
    std::string DescribeDefault(const std::string& path) const;
    /**
     * @brief The setting that gave one of the sockets' attributes its value, as the user gave
     * it: the custom scheme's --tcpAttributes, an attribute path on the command line, else
     * NS_ATTRIBUTE_DEFAULT or the scheme.
     * @param path the attribute's full name, e.g. ns3::TcpSocket::InitialSlowStartThreshold
     * @return the setting, e.g. --ns3::TcpSocket::InitialSlowStartThreshold=17520
     */
    std::string DescribeSocketSetting(const std::string& path) const;

    Parameters m_p;                                  //!< parameters
    std::unique_ptr<PfabricFabricHelper> m_fabric;   //!< the fabric
    std::unique_ptr<PfabricSchemeHelper> m_scheme;   //!< the scheme
    std::vector<PfabricFlow> m_flows;                //!< the flows
    std::vector<Result> m_results;                   //!< per flow, by flow id
    std::vector<Ptr<PfabricFlowApplication>> m_apps; //!< per host
    PfabricResultsWriter m_writer;                   //!< the run directory
    uint32_t m_done;                                 //!< flows completed
    Time m_endTime;                                  //!< simulated time at the end
    uint64_t m_events;                               //!< events executed
    uint64_t m_packetHops;                           //!< transmissions by fabric devices
    QueueDiscContainer m_hostPorts;                  //!< the hosts' queue discs
    QueueDiscContainer m_switchPorts;                //!< the switches' queue discs
    uint64_t m_hostPortDrops;                        //!< packets the hosts' ports dropped
    uint64_t m_switchPortDrops;                      //!< packets the switches' ports dropped
    uint64_t m_totalBytes;                           //!< bytes of every flow
    uint64_t m_bytesReceived;                        //!< bytes received, after Run
    std::string m_runError;                          //!< GetRunError
    uint32_t m_connectionsOpened;                    //!< connections, after Run
    uint32_t m_startedBeforeConnected;               //!< flows handed over before connected
    std::vector<uint64_t> m_thresholds;              //!< priority level thresholds, bytes
    uint32_t m_terminated;                           //!< flows given up at their deadline
    PfabricMeasurementWindow m_window;               //!< the steady-state window
    PfabricCustomScheme m_custom;                    //!< the custom scheme's parts
    bool m_arrivalsThroughEnd;                       //!< window: flows arrived to the end
    bool m_stoppedWhenDone;                          //!< Run stopped by the flows' completion
    PfabricStopReport m_stop;                        //!< why Run stopped, after Run
    PfabricExperimentOptions::Features m_features;   //!< deadlines, classes: what they add
    bool m_deadlines;                                //!< EnableDeadlines
    PfabricExperimentWorkload m_workload;            //!< flow sizes and flows
    /// The options' tables (filled on first use, also by the const CheckChoices).
    mutable PfabricExperimentOptions m_options;
    /// The command line the options were added to, or nullptr: its ns-3 settings, which a
    /// failed trial names (TrySettings) and the lean host's check quotes as typed
    const PfabricCommandLine* m_commandLine;
};

} // namespace ns3

#endif /* PFABRIC_EXPERIMENT_H */
