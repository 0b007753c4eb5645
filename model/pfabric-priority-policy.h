/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_PRIORITY_POLICY_H
#define PFABRIC_PRIORITY_POLICY_H

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 * @brief Where a flow stands when its sender sends a data segment: what a priority policy may
 * rank it by.
 */
struct PfabricFlowProgress
{
    uint64_t size;      //!< bytes handed to the socket since the flow started
    uint64_t sent;      //!< bytes of the flow sent at least once before this segment
    uint64_t remaining; //!< size less the cumulative ACK, less the bytes SACKed above it
    Time deadline;      //!< the flow's deadline (simulation time); Time::Max(): none
    Time now;           //!< when the segment is sent
};

/**
 * @ingroup pfabric
 * @brief Computes the number a data segment carries in its PfabricPriorityTag: the rank of its
 * flow (smaller is more urgent), optionally quantised into levels.
 *
 * pFabric's switches schedule and drop by this one number (HotNets 2012, section 2.2: "the
 * priority can be set to the remaining flow size, the deadline, ..."). A subclass ranks a flow
 * by one property of its PfabricFlowProgress (DoGetRank); this base class quantises the rank when
 * Thresholds is set, as a switch with a few priority levels would need: thresholds t1 < t2 < ...
 * < t(K-1) make K levels, and a rank r gets level k, the number of thresholds below r (so level
 * k holds the ranks in (t(k), t(k+1)], level 0 the ranks up to t1). Segments without payload
 * are not ranked: the socket gives them priority 0 and adds its PriorityOffset to every data
 * segment's rank (PfabricTcpSocket).
 *
 * Policies hold no per-flow state: one instance can serve every socket of a node.
 */
class PfabricPriorityPolicy : public Object
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricPriorityPolicy();
    ~PfabricPriorityPolicy() override;

    /**
     * @brief The rank a data segment of a flow carries: DoGetRank, quantised if Thresholds is
     * set.
     * @param flow where the flow stands
     * @return the rank or its level; smaller is more urgent
     */
    uint64_t GetRank(const PfabricFlowProgress& flow) const;
    /**
     * @brief The number a data segment carries: its flow's rank (GetRank) plus the sender's
     * offset, which keeps data behind control segments (priority 0); a rank too large for the
     * sum (a flow without a deadline under EDF) stays last rather than wrapping to urgent.
     * @param flow where the flow stands
     * @param offset the sender's priority offset, at least 1
     * @return the segment's priority
     */
    uint64_t GetSegmentPriority(const PfabricFlowProgress& flow, uint64_t offset) const;

    /**
     * @brief Quantise a rank by Thresholds.
     * @param rank a rank
     * @return the rank itself without thresholds, else the number of thresholds below it
     */
    uint64_t Quantise(uint64_t rank) const;

    /**
     * @brief Set the quantisation thresholds.
     * @param thresholds strictly increasing; empty: no quantisation
     */
    void SetThresholds(const std::vector<uint64_t>& thresholds);

    /// @return the quantisation thresholds, empty without quantisation
    const std::vector<uint64_t>& GetThresholds() const;

    /**
     * @brief Parse a Thresholds value: non-negative integers, strictly increasing, separated by
     * commas; the empty string is none.
     * @param text the value
     * @param thresholds where to put them
     * @return an empty string, or what is wrong with the text (one line)
     */
    static std::string ParseThresholds(const std::string& text, std::vector<uint64_t>& thresholds);

    /**
     * @brief The Thresholds text of thresholds, as ParseThresholds reads it.
     * @param thresholds the thresholds
     * @return e.g. "134,293,500"; empty for none
     */
    static std::string FormatThresholds(const std::vector<uint64_t>& thresholds);

  protected:
    /**
     * @brief The flow's rank before quantisation.
     * @param flow where the flow stands
     * @return the rank; smaller is more urgent
     */
    virtual uint64_t DoGetRank(const PfabricFlowProgress& flow) const = 0;

  private:
    /**
     * @brief The Thresholds attribute's setter: abort on a malformed value.
     * @param text the value
     */
    void SetThresholdsText(std::string text);

    /// @return the Thresholds attribute's value
    std::string GetThresholdsText() const;

    std::vector<uint64_t> m_thresholds; //!< strictly increasing; empty: no quantisation
};

/**
 * @ingroup pfabric
 * @brief pFabric's priority: the flow's remaining bytes (shortest remaining processing time
 * first), the size less the cumulative ACK, less the bytes SACKed above it.
 */
class PfabricRemainingSizePriority : public PfabricPriorityPolicy
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

  protected:
    uint64_t DoGetRank(const PfabricFlowProgress& flow) const override;
};

/**
 * @ingroup pfabric
 * @brief The flow's whole size, fixed for the flow's life (shortest job first).
 */
class PfabricFlowSizePriority : public PfabricPriorityPolicy
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

  protected:
    uint64_t DoGetRank(const PfabricFlowProgress& flow) const override;
};

/**
 * @ingroup pfabric
 * @brief The bytes the flow has sent so far (least attained service): needs no knowledge of
 * flow sizes, and with Thresholds becomes the multi-level feedback queue of information-agnostic
 * schemes such as PIAS. A retransmission carries the bytes sent before it, its flow's highest
 * sequence sent.
 */
class PfabricBytesSentPriority : public PfabricPriorityPolicy
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

  protected:
    uint64_t DoGetRank(const PfabricFlowProgress& flow) const override;
};

/**
 * @ingroup pfabric
 * @brief Earliest deadline first: the time left to the flow's deadline, in whole Units rounded
 * up (HotNets 2012, section 2.2). A flow past its deadline ranks 0, the most urgent; a flow
 * without a deadline ranks last (the largest number), behind every flow with one.
 */
class PfabricDeadlinePriority : public PfabricPriorityPolicy
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricDeadlinePriority();

  protected:
    uint64_t DoGetRank(const PfabricFlowProgress& flow) const override;

  private:
    Time m_unit; //!< the rank's unit of time
};

} // namespace ns3

#endif /* PFABRIC_PRIORITY_POLICY_H */
