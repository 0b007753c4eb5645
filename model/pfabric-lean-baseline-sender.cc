/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricLeanBaselineSender: TCP-DropTail and DCTCP on the lean host, the same decisions as
// PfabricBaselineTcpSocket.

#include "pfabric-lean-baseline-sender.h"

#include "pfabric-baseline-tcp-socket.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/rtt-estimator.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-state.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricLeanBaselineSender");

NS_OBJECT_ENSURE_REGISTERED(PfabricLeanBaselineSender);

namespace
{
/// TcpSocketBase's cap on a backed-off timeout (RFC 6298, 2.5: a maximum of at least 60 s).
const Time MAX_RTO = Seconds(60);
} // namespace

TypeId
PfabricLeanBaselineSender::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfabricLeanBaselineSender")
                            .SetParent<PfabricLeanSender>()
                            .SetGroupName("Pfabric")
                            .AddConstructor<PfabricLeanBaselineSender>();
    return tid;
}

PfabricLeanBaselineSender::PfabricLeanBaselineSender()
    : m_minDupAckThreshold(3),
      m_dupAckWindowFraction(0)
{
    NS_LOG_FUNCTION(this);
    // TCP-DropTail and DCTCP give ns-3's TCP/IP's fct.csv: their timeouts keep ns-3's order.
    SetRetxTimerAsNs3(true);
}

PfabricLeanBaselineSender::~PfabricLeanBaselineSender()
{
    NS_LOG_FUNCTION(this);
}

void
PfabricLeanBaselineSender::DoDispose()
{
    m_rtt = nullptr;
    m_history.clear();
    PfabricLeanSender::DoDispose();
}

void
PfabricLeanBaselineSender::SetRetransmissionTimer(Time minRto, Time clockGranularity)
{
    NS_LOG_FUNCTION(this << minRto << clockGranularity);
    NS_ABORT_MSG_UNLESS(minRto.IsStrictlyPositive(),
                        "PfabricLeanBaselineSender: the minimum RTO must be positive");
    m_minRto = minRto;
    m_clockGranularity = clockGranularity;
    // ns-2 started the estimate at the minimum RTO (PfabricTcpSocketFactory does the same for
    // ns-3's sockets).
    m_rtt = CreateObjectWithAttributes<RttMeanDeviation>("InitialEstimation", TimeValue(minRto));
    SetRto(minRto);
}

void
PfabricLeanBaselineSender::SetAdaptiveDupAckThreshold(uint32_t minThreshold, double windowFraction)
{
    NS_ABORT_MSG_IF(minThreshold == 0 || windowFraction < 0,
                    "PfabricLeanBaselineSender: the duplicate-ACK threshold needs a minimum of "
                    "at least 1 and a non-negative window fraction");
    m_minDupAckThreshold = minThreshold;
    m_dupAckWindowFraction = windowFraction;
}

Time
PfabricLeanBaselineSender::ComputeRto() const
{
    return Max(m_rtt->GetEstimate() + Max(m_clockGranularity, m_rtt->GetVariation() * 4), m_minRto);
}

void
PfabricLeanBaselineSender::AckArrived(SequenceNumber32 ack)
{
    NS_ABORT_MSG_UNLESS(m_rtt, "PfabricLeanBaselineSender: SetRetransmissionTimer first");
    // TcpSocketBase::EstimateRtt without timestamps: a sample from the oldest segment this ACK
    // covers, unless it was sent again (Karn's rule).
    Time sample;
    if (!m_history.empty())
    {
        const RttHistory& oldest = m_history.front();
        if (!oldest.retx && ack >= oldest.seq + SequenceNumber32(oldest.count))
        {
            sample = Simulator::Now() - oldest.time;
        }
    }
    while (!m_history.empty() &&
           m_history.front().seq + SequenceNumber32(m_history.front().count) <= ack)
    {
        m_history.pop_front();
    }
    if (!sample.IsZero())
    {
        m_rtt->Measurement(sample);
        SetRto(ComputeRto());
        m_tcb->m_lastRtt = m_rtt->GetEstimate();
        m_tcb->m_minRtt = std::min(m_tcb->m_lastRtt.Get(), m_tcb->m_minRtt);
    }
}

void
PfabricLeanBaselineSender::AckAccepted(SequenceNumber32 ack)
{
    // PfabricBaselineTcpSocket::ReceivedAck: the duplicate ACKs counted during CWR do not
    // carry over, and the threshold follows the window.
    if (m_tcb->m_congState == TcpSocketState::CA_CWR && ack > m_recover)
    {
        m_dupAckCount = 0;
    }
    if (m_dupAckWindowFraction > 0)
    {
        const uint32_t threshold =
            PfabricBaselineTcpSocket::GetAdaptiveDupAckThreshold(m_minDupAckThreshold,
                                                                 m_dupAckWindowFraction,
                                                                 m_tcb->m_cWnd.Get(),
                                                                 m_tcb->m_segmentSize);
        if (threshold != GetDupAckThreshold())
        {
            SetDupAckThreshold(threshold);
        }
    }
}

void
PfabricLeanBaselineSender::AckAdvanced(bool resetRto)
{
    // TcpSocketBase::NewAck: a restarted timer drops a timeout's back-off.
    if (resetRto)
    {
        SetRto(ComputeRto());
    }
}

void
PfabricLeanBaselineSender::SegmentSent(SequenceNumber32 seq, uint32_t size, bool retransmission)
{
    // TcpSocketBase::UpdateRttHistory.
    if (!retransmission)
    {
        m_history.emplace_back(seq, size, Simulator::Now());
        return;
    }
    for (auto& sent : m_history)
    {
        if (seq >= sent.seq && seq < sent.seq + SequenceNumber32(sent.count))
        {
            sent.retx = true;
            sent.count = (seq + SequenceNumber32(size)) - sent.seq;
            break;
        }
    }
}

void
PfabricLeanBaselineSender::DataTimeout()
{
    // TcpSocketBase::ReTxTimeout: back off (RFC 6298, 2.5), forget the samples in flight, slow
    // start from one segment.
    SetRto(Min(GetRto() + GetRto(), MAX_RTO));
    m_history.clear();
    LossTimeout();
}

} // namespace ns3
