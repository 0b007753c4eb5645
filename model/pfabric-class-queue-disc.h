/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_CLASS_QUEUE_DISC_H
#define PFABRIC_CLASS_QUEUE_DISC_H

#include "pfabric-mode-attributes.h"

#include "ns3/queue-disc.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief pFabric within traffic classes, hierarchically (Alizadeh et al., HotNets 2012, section
 * 2.5): a switch port whose packets are split into Classes traffic classes by their
 * PfabricClassTag, served between classes by the operator's policy (Scheduler: strict priority
 * or deficit round robin with Weights) and, within each class, by a PfabricQueueDisc of its own
 * (priority scheduling and dropping by PfabricPriorityTag).
 *
 * - Classification: a packet tagged with class c goes to class min(c, Classes - 1); a packet
 *   without a class tag to UntaggedClass.
 * - Buffers: one per class (each child PfabricQueueDisc has its own MaxSize). A class's
 *   arrivals compete, by pFabric's rule, only with that class's packets: priorities of
 *   different classes are not comparable (a class may rank by remaining size, another by
 *   deadline), and a buffer shared by the classes would let a class that keeps its buffer full
 *   (pFabric's senders do, at line rate) take the room the other class needs to be backlogged,
 *   and so its share. The cost is memory: Classes buffers per port.
 * - Between classes: STRICT sends from the lowest-numbered non-empty class, so class 0 starves
 *   the others while it has packets; DRR (deficit round robin, Shreedhar and Varghese 1995, in
 *   the form of Linux's sch_drr) gives each backlogged class a share of the port's bytes in
 *   proportion to its weight: each visit of the round adds Quantum * weight bytes of credit, a
 *   class sends while its head packet fits its credit, and a class that empties loses its credit.
 *
 * The children are this queue disc's classes (QueueDiscClass): PfabricSchemeHelper adds them,
 * configured as the scheme's pFabric ports; without any, CheckConfig adds Classes
 * PfabricQueueDiscs with their defaults. Every drop happens in a child (its ARRIVAL_DROP or
 * EVICTED_DROP) and reaches this queue disc's statistics and traces through ns-3's accounting
 * of child queue discs.
 */
class PfabricClassQueueDisc : public QueueDisc, public PfabricModeAttributes
{
  public:
    /// The policy between classes.
    enum Scheduler
    {
        STRICT, //!< strict priority, class 0 first
        DRR     //!< deficit round robin with Weights
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricClassQueueDisc();
    ~PfabricClassQueueDisc() override;

    /// @return Weights and Quantum under Strict, which has no round
    std::vector<std::pair<std::string, std::string>> GetAttributesItsModeIgnores() const override;

    /**
     * @brief The class a packet goes to.
     * @param item the packet
     * @return its class, 0 to Classes - 1
     */
    uint32_t GetClass(Ptr<const QueueDiscItem> item) const;

    /// @return the weight of each class (after CheckConfig, or of the Weights attribute)
    std::vector<uint32_t> GetWeights() const;

    /**
     * @brief Parse a list of weights.
     * @param text positive integers separated by commas, e.g. "3,1"
     * @param[out] weights the weights
     * @return "" or what is wrong with the text (one line)
     */
    static std::string ParseWeights(const std::string& text, std::vector<uint32_t>* weights);

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    /**
     * @brief The packet the next dequeue sends, left in its class (as PfabricQueueDisc's peek
     * leaves it in the buffer, under priority control).
     * @return the packet, or null if every class is empty
     */
    Ptr<const QueueDiscItem> DoPeek() override;
    bool CheckConfig() override;
    void InitializeParams() override;

    /**
     * @brief The class the next dequeue serves.
     *
     * DRR: visits the active classes in turn, as Linux's sch_drr: the class at the head sends
     * if its head packet fits its deficit; otherwise it gains Quantum * weight and goes to the
     * tail. Works on the given state, so that a peek can run it on a copy.
     * @param active the backlogged classes, in round order (rotated)
     * @param deficit each class's credit, bytes (increased)
     * @return the class, or Classes if every class is empty
     */
    uint32_t SelectClass(std::deque<uint32_t>& active, std::vector<int64_t>& deficit) const;

    /**
     * @param index a class
     * @return its queue disc
     */
    Ptr<QueueDisc> Child(uint32_t index) const;

    uint32_t m_classes;              //!< number of traffic classes
    Scheduler m_scheduler;           //!< the policy between classes
    std::string m_weightsText;       //!< the Weights attribute
    std::vector<uint32_t> m_weights; //!< each class's weight
    uint32_t m_quantum;              //!< DRR credit per unit of weight and round, bytes
    uint32_t m_untaggedClass;        //!< class of packets without a PfabricClassTag
    std::deque<uint32_t> m_active;   //!< DRR: backlogged classes, in round order
    std::vector<bool> m_isActive;    //!< DRR: whether each class is in m_active
    std::vector<int64_t> m_deficit;  //!< DRR: each class's credit, bytes
};

} // namespace ns3

#endif /* PFABRIC_CLASS_QUEUE_DISC_H */
