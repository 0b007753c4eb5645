/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_LEAN_BASELINE_SENDER_H
#define PFABRIC_LEAN_BASELINE_SENDER_H

#include "pfabric-lean-sender.h"

#include "ns3/tcp-socket-base.h"

#include <cstdint>
#include <deque>

namespace ns3
{

class RttEstimator;

/**
 * @ingroup pfabric
 *
 * @brief The TCP-DropTail and DCTCP baselines on the lean host: the sender of
 * PfabricBaselineTcpSocket without ns-3's TCP/IP stack.
 *
 * On PfabricLeanSender, what TcpSocketBase adds for them: the retransmission timeout from ns-3's
 * RTT estimator (RttMeanDeviation, Karn's rule over the segments' send history; RFC 6298's
 * estimate plus four deviations, at least the clock granularity, floored at the minimum RTO),
 * doubled at each timeout up to 60 s and recomputed at the next advancing ACK; and what
 * PfabricBaselineTcpSocket adds: a duplicate-ACK threshold that can follow the window, and a
 * fresh duplicate-ACK count when an ECN window reduction (CWR) ends.
 *
 * ns-3's handshake gives its estimator a first sample, the SYN's round trip; without a
 * handshake, the first data segment's gives it here. Both leave the timeout at the minimum RTO
 * as long as three round trips fit in it.
 */
class PfabricLeanBaselineSender : public PfabricLeanSender
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    PfabricLeanBaselineSender();
    ~PfabricLeanBaselineSender() override;

    /**
     * @brief The timer's settings, after Configure (TcpSocketBase's MinRto and
     * ClockGranularity).
     * @param minRto the smallest retransmission timeout, and the estimator's initial estimate
     * @param clockGranularity the smallest deviation term of the timeout
     */
    void SetRetransmissionTimer(Time minRto, Time clockGranularity);
    /**
     * @brief Make the duplicate-ACK threshold max(minThreshold, windowFraction * cwnd), as
     * PfabricBaselineTcpSocket's DupAckThreshold and DupAckWindowFraction.
     * @param minThreshold the smallest threshold, in duplicate ACKs
     * @param windowFraction the fraction of the congestion window (in segments); 0 keeps the
     *        threshold fixed
     */
    void SetAdaptiveDupAckThreshold(uint32_t minThreshold, double windowFraction);

  protected:
    void DoDispose() override;
    void AckArrived(SequenceNumber32 ack) override;
    void AckAccepted(SequenceNumber32 ack) override;
    void AckAdvanced(bool resetRto) override;
    void SegmentSent(SequenceNumber32 seq, uint32_t size, bool retransmission) override;
    void DataTimeout() override;

  private:
    /// @return RFC 6298's timeout from the estimator (TcpSocketBase's)
    Time ComputeRto() const;

    Ptr<RttEstimator> m_rtt;          //!< the RTT estimator
    std::deque<RttHistory> m_history; //!< segments sent, for RTT samples
    Time m_minRto;                    //!< the smallest timeout
    Time m_clockGranularity;          //!< the smallest deviation term
    uint32_t m_minDupAckThreshold;    //!< smallest adaptive threshold
    double m_dupAckWindowFraction;    //!< fraction of cwnd, 0: fixed threshold
};

} // namespace ns3

#endif /* PFABRIC_LEAN_BASELINE_SENDER_H */
