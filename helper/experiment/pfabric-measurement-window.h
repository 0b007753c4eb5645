/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_MEASUREMENT_WINDOW_H
#define PFABRIC_MEASUREMENT_WINDOW_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/pfabric-command-line.h"
#include "ns3/pfabric-flow-list.h"
#include "ns3/pfabric-results-writer.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief The steady-state measurement window of an FCT experiment (PfabricExperiment): flows keep
 * arriving from the workload's process until each of the measured flows, ids W .. W + N - 1
 * (--warmupFlows=W, --measureFlows=N), has completed; only they enter the statistics.
 *
 * Why: a finite list of flows run to completion ends with the fabric draining, and the last
 * flows, many of them large, finish in an emptying network, which biases the large flows' FCT
 * down. With the window the measured flows always share the fabric with the arrivals after
 * them, as in a steady state, and the first W flows, which meet a fabric still filling, are not
 * measured.
 *
 * With --measureMaxBytes=S (S > 0) only the window's flows of at most S bytes are measured and
 * awaited: the run stops once those have completed, and the larger flows of the window need not
 * finish (at high load the largest flows' backlog grows for as long as arrivals go on, so no
 * run of hours sees them all complete while flows keep arriving; doc/results.rst, "The
 * steady-state tier"). Their rows, finished or not, have measured = 0.
 *
 * Off (N = 0, the default) it changes nothing: the experiment runs its list to completion.
 * On, the flows are drawn from the generator as the run needs them (Feed: every flow is handed
 * over before its connection opens, at most FEED_INTERVAL_US plus ConnectLead ahead of its start,
 * so memory does not grow with flows not yet due) and are the same flows as the first ones of a
 * --flows list of the same streams; or they are a flow file's, all handed over at once. fct.csv
 * gains a last column "measured" (1 or 0), meta.json's parameters warmupFlows and measureFlows
 * (always) and a "window" object (on): warmup_flows, measure_flows, flows_simulated (the rows
 * of fct.csv), measure_max_bytes (S, 0 for every size) and arrivals_through_end (false only when
 * a flow file ran out of flows before the last measured flow completed).
 */
class PfabricMeasurementWindow
{
  public:
    /// What receives each flow drawn (PfabricExperiment: a result row and the flow's host).
    using HandOver = std::function<void(const PfabricFlow&)>;

    /// How often the feeder draws the flows due next, simulated microseconds: a few flows each
    /// time at the experiments' arrival rates (7 to 70 flows per millisecond), one event each.
    static constexpr int64_t FEED_INTERVAL_US = 1000;

    PfabricMeasurementWindow();

    /**
     * @brief Register --warmupFlows, --measureFlows and --measureMaxBytes.
     * @param cmd the command line
     * @param conflict what of the program refuses a window whatever the options (Check's
     *        conflict as the program is made, e.g. "pfabric-classes (two classes' flow lists)"),
     *        or "": its help then says so, as --PrintHelp lists the options all the same
     */
    void AddCommandLineOptions(PfabricCommandLine& cmd, const std::string& conflict = "");

    /**
     * @brief Set the window (what the options set).
     * @param warmup W: flows before the measured ones
     * @param measure N: measured flows; 0: the window is off
     */
    void SetFlows(uint32_t warmup, uint32_t measure);

    /**
     * @brief Measure only the window's flows of at most this size (what --measureMaxBytes sets).
     * @param bytes S; 0: every size
     */
    void SetMeasureMaxBytes(uint64_t bytes);

    /// @return S (0: every size)
    uint64_t GetMeasureMaxBytes() const;

    /// @return W
    uint32_t GetWarmupFlows() const;
    /// @return N
    uint32_t GetMeasureFlows() const;
    /// @return whether the window is on (N > 0)
    bool IsOn() const;
    /**
     * @param id a flow id
     * @return whether the flow is in the window, ids W .. W + N - 1 (always true with the window
     *         off), whatever its size
     */
    bool IsMeasured(uint32_t id) const;

    /**
     * @param flow a flow
     * @return whether the flow enters the statistics and the run waits for it: in the window and
     *         of at most S bytes (always true with the window off)
     */
    bool IsAwaited(const PfabricFlow& flow) const;

    /**
     * @return whether every flow of the window has been handed over and every awaited one has
     *         completed (the run can stop); false with the window off
     */
    bool IsComplete() const;

    /**
     * @brief Check the options.
     * @param conflict what the experiment does that the window cannot go with (e.g. "the
     *        classes experiment"), or "" when nothing
     * @return "" or what is wrong, one line naming the option
     */
    std::string Check(const std::string& conflict) const;

    /**
     * @brief Check that a flow file holds every measured flow.
     * @param path the file
     * @param flows the flows it holds
     * @return "" or what is wrong, one line naming the file and the options
     */
    std::string CheckFlowFile(const std::string& path, std::size_t flows) const;

    /// @return the part of a run directory's name the window sets, e.g. "-warmup100-measure300"
    std::string GetNamePart() const;

    /**
     * @brief Add fct.csv's "measured" column (window on).
     * @param writer the run directory
     */
    void AddColumns(PfabricResultsWriter& writer) const;

    /**
     * @brief Draw the flows from this generator (a generated workload; without one, the
     * experiment hands over a flow file's flows itself).
     * @param generator the workload's generator, no flow drawn yet
     */
    void SetGenerator(std::unique_ptr<PfabricFlowSource> generator);

    /// @return whether the flows are drawn from a generator (SetGenerator)
    bool HasGenerator() const;

    /**
     * @brief Start drawing flows from the generator: those due before the next feeder event
     * now, then the next ones every FEED_INTERVAL_US. Call before the simulation runs.
     * @param connectLead how long before its start a flow's connection opens
     * @param hand receives each flow drawn, in id order, before its connection opens
     */
    void Feed(Time connectLead, HandOver hand);

    /**
     * @brief After a run cut short by the safety limit: draw the measured flows not drawn yet
     * (they are reported as unfinished).
     * @param record receives each flow drawn
     */
    void DrawMeasured(const HandOver& record);

    /**
     * @brief Note a flow handed to the hosts (its size counts in the progress).
     * @param flow the flow
     * @return whether the window is now complete (IsComplete: the last flow of the window was
     *         too large to be awaited and every awaited one had completed)
     */
    bool FlowHandedOver(const PfabricFlow& flow);

    /**
     * @brief A flow completed.
     * @param flow the flow
     * @return whether the window is now complete (IsComplete)
     */
    bool FlowCompleted(const PfabricFlow& flow);

    /// @return measured flows settled: awaited ones completed, larger ones handed over
    uint32_t GetMeasuredCompleted() const;
    /// @return payload bytes of the measured flows settled
    uint64_t GetMeasuredBytesCompleted() const;
    /**
     * @return payload bytes of every measured flow: those drawn so far, plus the mean flow size
     *         for each one not drawn yet
     */
    uint64_t GetMeasuredBytes() const;

    /**
     * @brief Add warmupFlows, measureFlows and measureMaxBytes to meta.json's parameters (always).
     * @param parameters the parameters object
     */
    void AddParameters(PfabricJsonObject& parameters) const;

    /**
     * @brief Add meta.json's "window" object (window on).
     * @param meta the run's meta.json object
     * @param flowsSimulated the rows of fct.csv
     * @param arrivalsThroughEnd whether flows were still arriving at the end of the run
     */
    void AddProvenance(PfabricJsonObject& meta,
                       uint32_t flowsSimulated,
                       bool arrivalsThroughEnd) const;

  private:
    /// Hand over every flow whose connection opens before the next feeder event; schedule it.
    void FeedDue();

    uint32_t m_warmup;                              //!< W
    uint32_t m_measure;                             //!< N
    uint64_t m_maxBytes;                            //!< S, 0: every size
    std::unique_ptr<PfabricFlowSource> m_generator; //!< the workload, when drawn lazily
    std::optional<PfabricFlow> m_next;              //!< the next flow drawn, not handed over
    Time m_connectLead;                             //!< connections open this long before
    HandOver m_hand;                                //!< receives the flows drawn
    EventId m_feeder;                               //!< the next feeder event
    uint32_t m_measuredHanded;                      //!< measured flows handed over
    uint64_t m_measuredBytesHanded;                 //!< their bytes
    uint32_t m_awaitedHanded;                       //!< awaited flows handed over
    uint32_t m_measuredDone; //!< measured flows settled (awaited completed, larger handed over)
    uint64_t m_measuredBytesDone; //!< their bytes
    uint32_t m_awaitedDone;       //!< awaited flows completed
};

} // namespace ns3

#endif /* PFABRIC_MEASUREMENT_WINDOW_H */
