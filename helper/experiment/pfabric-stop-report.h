/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_STOP_REPORT_H
#define PFABRIC_STOP_REPORT_H

#include "ns3/nstime.h"
#include "ns3/pfabric-flow-application.h"
#include "ns3/pfabric-results-writer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief Why an experiment's run stopped, and what it left unfinished.
 *
 * A run normally stops when its flows have completed (or, with the measurement window, its
 * measured flows). It can also stop at the safety limit on simulated time (--maxSimTime) or run
 * out of events with flows still open (no sender has a timer left). Then its fct.csv leaves those
 * flows' FCT empty, which read alone looks like a result: this report says which flows stalled
 * and how far they got (not started, no connection, no byte acknowledged, in probe mode), their
 * timeouts and the last time any of them progressed, for meta.json ("stop") and for one line that
 * the program prints. The model prints nothing; the program decides (and exits non-zero with
 * --strict).
 */
class PfabricStopReport
{
  public:
    /// What stopped the run.
    enum class Reason
    {
        COMPLETED,          //!< every flow completed or was terminated at its deadline
        MEASURED_COMPLETED, //!< the measurement window's flows completed; later ones run on
        SAFETY_LIMIT,       //!< simulated time reached the safety limit (--maxSimTime)
        NO_EVENTS,          //!< nothing left to simulate, with flows open
    };

    /**
     * @brief Record how a run ended.
     * @param stoppedWhenDone the experiment stopped the simulator itself, its flows done
     * @param windowOn the measurement window is on (its measured flows were the flows done)
     * @param end the simulated time at the end
     * @param safetyLimit the safety limit on simulated time
     * @param flows the flows in progress at the end, every host's
     */
    void Record(bool stoppedWhenDone,
                bool windowOn,
                Time end,
                Time safetyLimit,
                const std::vector<PfabricFlowApplication::FlowInProgress>& flows);

    /// @return what stopped the run
    Reason GetReason() const;

    /// @return the run stopped before its flows were done (SAFETY_LIMIT or NO_EVENTS)
    bool IsEarly() const;

    /**
     * @brief One line, e.g. "stopped at the safety limit (--maxSimTime=0.05 s) with 5 flows
     * unfinished: ...".
     * @return the text, without a newline
     */
    std::string Describe() const;

    /**
     * @brief What stopped the run, as Describe starts: e.g. "stopped at the safety limit
     * (--maxSimTime=0.05 s)", "stopped at 0.2 s with nothing left to simulate (no sender has a
     * timer running)" or "stopped when its flows were done".
     * @return the text, without a newline
     */
    std::string DescribeReason() const;

    /**
     * @brief Add the "stop" object to meta.json.
     * @param meta the provenance
     */
    void AddProvenance(PfabricJsonObject& meta) const;

  private:
    /// @return the reason as meta.json names it
    std::string GetReasonName() const;

    Reason m_reason{Reason::COMPLETED}; //!< what stopped the run
    Time m_end;                         //!< simulated time at the end
    Time m_safetyLimit;                 //!< --maxSimTime
    uint32_t m_inProgress{0};           //!< flows neither completed nor terminated
    uint32_t m_notStarted{0};           //!< of those, not yet at their start time
    uint32_t m_notConnected{0};         //!< started, their handshake not completed
    uint32_t m_noBytesAcked{0};         //!< started, not one byte acknowledged
    uint32_t m_probing{0};              //!< in MinTCP's probe mode
    uint64_t m_timeouts{0};             //!< their retransmission timeouts
    uint64_t m_bytesRemaining{0};       //!< their bytes not acknowledged
    Time m_lastProgress;                //!< the latest time one of them progressed
};

} // namespace ns3

#endif /* PFABRIC_STOP_REPORT_H */
