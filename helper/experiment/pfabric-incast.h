/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_INCAST_H
#define PFABRIC_INCAST_H

#include "ns3/nstime.h"
#include "ns3/pfabric-command-line.h"
#include "ns3/pfabric-experiment.h"
#include "ns3/pfabric-flow-application.h"
#include "ns3/pfabric-option-table.h"
#include "ns3/pfabric-results-writer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief Partition-aggregate incast as an experiment (pfabric-incast): an aggregator host
 * queries Workers workers, and every worker answers ResponseBytes at once; the query completes
 * when the last response is acknowledged. Optionally on top of web search background traffic
 * on the same fabric. Paper, sections 2.3-2.4: under pFabric only the lowest-priority packets of
 * the burst are dropped and quickly retransmitted, so no rate control is needed.
 *
 * The wiring is a PfabricExperiment's (fabric, scheme, flow applications, random streams, run
 * directory, fct.csv and meta.json): the background flows are its generated web search flows,
 * and the responses are added to it (PfabricExperiment::AddFlows) as flows from each worker's
 * host to the aggregator.
 *
 * Choices:
 * - The request leg is not simulated: the Workers responses of a query are handed to their
 *   sockets together at the query's start (a synchronised burst, the worst case for the
 *   aggregator's port). The ideal query completion time (QCT) is therefore
 *   PfabricFabricHelper::GetIdealIncastTime of the workers' hosts: every response byte through
 *   the aggregator's host link at line rate plus the fastest path's store-and-forward,
 *   propagation and last ACK.
 * - Workers are placed round-robin on the hosts other than the aggregator (MapWorkers): worker
 *   i on the (i mod (H - 1))-th of them, so with more workers than hosts a host runs several
 *   workers, each on a connection of its own, and its own link serialises their responses.
 * - Queries start every Interval from FirstQuery on (not one after the other): with a QCT above
 *   the interval two queries overlap, which queries.csv reports (overlaps_previous). The default
 *   interval is long enough for pFabric and TCP-DropTail without background in the committed
 *   sweep.
 * - Connections are opened ConnectLead before the first query and reused by the later ones, so
 *   no handshake is inside a QCT.
 * - The run stops when the last query completes; background flows still running then are
 *   reported unfinished in fct.csv (completed = 0).
 *
 * Output, in the run directory: queries.csv (one line per query: query_id, workers,
 * response_bytes, start_s, qct_s, ideal_qct_s, timeouts, responses_with_timeouts,
 * responses_completed, first_flow_id, overlaps_previous; qct_s empty if the query did not
 * complete), fct.csv (every flow: background first, then the responses, query by query, worker
 * by worker) and meta.json (the experiment's provenance and an "incast" object).
 */
class PfabricIncast
{
  public:
    /// The incast's own knobs (the fabric and scheme are the experiment's).
    struct Parameters
    {
        uint32_t workers = 32;             //!< workers per query
        uint64_t responseBytes = 10000;    //!< bytes of every response
        uint32_t queries = 10;             //!< queries
        Time interval = Seconds(0);        //!< between query starts; 0: automatic (GetInterval)
        Time firstQuery = MilliSeconds(2); //!< start of the first query
        uint32_t aggregator = 0;           //!< host index of the aggregator
        double background = 0;             //!< web search load on every host; 0: none
    };

    /// One query's outcome.
    struct QueryResult
    {
        uint32_t id;                    //!< query index
        Time start;                     //!< when its responses were handed to their sockets
        Time qct;                       //!< last response's completion; negative: unfinished
        Time idealQct;                  //!< the fabric's ideal (GetIdealIncastTime)
        uint64_t timeouts;              //!< retransmission timeouts of its responses
        uint32_t responsesWithTimeouts; //!< responses with at least one timeout
        uint32_t responsesCompleted;    //!< responses completed
        uint32_t firstFlowId;           //!< flow id of its first response in fct.csv
        bool overlapsPrevious;          //!< the previous query had not completed at its start
    };

    PfabricIncast();

    /// @return the incast's parameters (set them before Prepare)
    Parameters& GetParameters();
    /// @return the experiment's parameters: fabric, scheme, seeds, run directory
    PfabricExperiment::Parameters& GetExperimentParameters();

    /**
     * @brief Register the incast's options and the experiment's fabric and scheme options.
     * @param cmd the command line
     */
    void AddCommandLineOptions(PfabricCommandLine& cmd);

    /**
     * @brief Check every parameter, build the fabric, generate the background and the
     * responses, and open the run directory; nothing is simulated.
     * @param[out] error on failure, one line naming the parameter
     * @return true on success
     */
    bool Prepare(std::string* error);

    /// @brief After Prepare: install the scheme and every flow.
    void Install();

    /// @brief After Install: simulate until the last query completes (or MaxSimTime).
    void Run();

    /**
     * @brief Add the run's provenance: the experiment's and an "incast" object.
     * @param meta the run's meta.json object
     */
    void AddProvenance(PfabricJsonObject& meta) const;

    /**
     * @brief After Run: write queries.csv, fct.csv and meta.json.
     * @param meta the run's provenance
     * @param[out] error on failure, one line
     * @return true on success
     */
    bool WriteResults(const PfabricJsonObject& meta, std::string* error);

    /// @return every query's outcome (after Run)
    const std::vector<QueryResult>& GetQueryResults() const;
    /// @return the ideal QCT (after Prepare)
    Time GetIdealQct() const;
    /// @return the time between query starts (after Prepare): Interval, or if 0,
    ///         max(1 ms, 4 x the ideal QCT)
    Time GetInterval() const;
    /// @return the experiment
    const PfabricExperiment& GetExperiment() const;
    /// @return the experiment, e.g. to abandon its run directory after a run error
    PfabricExperiment& GetExperiment();
    /// @return a short summary: QCT / ideal (mean, max), timeouts per query
    std::string Summarize() const;

    /**
     * @brief Where the workers run.
     * @param hosts hosts of the fabric
     * @param aggregator the aggregator's host
     * @param workers number of workers
     * @return the host of every worker: round-robin over the other hosts in index order,
     *         starting after the aggregator
     */
    static std::vector<uint32_t> MapWorkers(uint32_t hosts, uint32_t aggregator, uint32_t workers);

    /**
     * @brief Each query's outcome from its responses' outcomes.
     * @param results every flow's outcome, by flow id
     * @param firstResponseId flow id of query 0's first response
     * @param workers responses per query
     * @param queries queries
     * @param idealQct the ideal QCT
     * @return one result per query
     */
    static std::vector<QueryResult> CollectQueries(
        const std::vector<PfabricResultsWriter::FlowResult>& results,
        uint32_t firstResponseId,
        uint32_t workers,
        uint32_t queries,
        Time idealQct);

  private:
    /**
     * @brief A flow completed: stop the run once every response has.
     * @param flow the flow
     */
    void FlowCompleted(const PfabricFlowApplication::CompletedFlow& flow);

    /// @brief Fill the table of the incast's own options (once).
    void BuildOptions();

    Parameters m_p;                     //!< the incast's parameters
    PfabricOptionTable m_options;       //!< the incast's own options
    PfabricExperiment m_experiment;     //!< the wiring
    std::vector<uint32_t> m_workerHost; //!< host of each worker
    Time m_idealQct;                    //!< the ideal QCT
    Time m_interval;                    //!< between query starts
    uint32_t m_backgroundFlows;         //!< background flows generated
    uint32_t m_firstResponseId;         //!< flow id of the first response
    uint32_t m_responsesLeft;           //!< responses not yet completed
    std::vector<QueryResult> m_queries; //!< after Run
};

} // namespace ns3

#endif /* PFABRIC_INCAST_H */
