/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_QUEUE_DISC_HELPER_H
#define PFABRIC_QUEUE_DISC_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/object-factory.h"
#include "ns3/queue-disc-container.h"
#include "ns3/queue-size.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief Installs PfabricQueueDisc as the root queue disc of network devices.
 *
 * A device's own transmit queue sits below the queue disc and is a FIFO; ns-3 only moves
 * packets out of the queue disc while that queue has room. With the point-to-point default of
 * 100 packets every port would be a FIFO and pFabric would never get to choose. Install() therefore
 * limits each device's transmit queue to DEVICE_QUEUE_SIZE and requires the device's flow control
 * (a NetDeviceQueueInterface), stopping with a message when either is missing. Any root queue
 * disc already on the device (ns-3's default FqCoDel, once addresses are assigned) is replaced.
 * A PfabricLinkNetDevice (the fabrics' link) keeps nothing in its transmit queue under a queue
 * disc, so there the only packet beyond the queue disc's choice is the one on the wire.
 */
class PfabricQueueDiscHelper
{
  public:
    /// The device transmit queue under every pFabric port: one packet, waiting for the wire.
    static const QueueSize DEVICE_QUEUE_SIZE;

    PfabricQueueDiscHelper();

    /**
     * @brief Set an attribute of the queue discs this helper creates.
     * @param name the attribute name, e.g. "MaxSize"
     * @param value its value
     */
    void SetQueueDiscAttribute(const std::string& name, const AttributeValue& value);

    /**
     * @brief Install another queue disc type instead of PfabricQueueDisc (the baselines'
     * drop-tail and RED ports get the same one-packet device queue); resets the attributes.
     * @param type the queue disc's TypeId name, e.g. "ns3::FifoQueueDisc"
     */
    void SetQueueDiscType(const std::string& type);

    /**
     * @brief Install the queue discs this factory creates (type and attributes) instead.
     * @param factory a factory of a QueueDisc
     */
    void SetQueueDiscFactory(const ObjectFactory& factory);

    /**
     * @brief Install the queue disc (PfabricQueueDisc unless SetQueueDiscType) on each device
     * (nodes need the internet stack).
     * @param devices the devices
     * @return the queue discs, in the order of the devices
     */
    QueueDiscContainer Install(const NetDeviceContainer& devices) const;

    /**
     * @brief Fix the random streams of the queue discs' tie-breaking, one stream each.
     * @param queueDiscs queue discs installed by this helper
     * @param stream the first stream index
     * @return the number of streams assigned
     */
    static int64_t AssignStreams(const QueueDiscContainer& queueDiscs, int64_t stream);

    /**
     * @brief The configured defaults (by --ns3::... or NS_ATTRIBUTE_DEFAULT) that no port
     * takes or that change nothing at a port. DropTailQueue<Packet>'s MaxSize: Install sets every
     * device's to DEVICE_QUEUE_SIZE (a pfabric link's own queue serves only a device without a
     * queue disc). DropTailQueue<QueueDiscItem>'s MaxSize: every queue disc, ns-3's and this
     * module's, sizes the internal queues it makes itself, from its own MaxSize (PfabricQueueDisc's
     * buffer is a PfabricBuffer). QueueDisc's Quota: with a device queue of one packet, each run
     * of a queue disc sends one packet, whatever its quota (issue 54's ninth probe: fct.csv
     * identical at Quota 0, 1 and 64, lean and IP switches, both host stacks).
     * @return their attribute paths; none: empty
     */
    static std::vector<std::string> GetPortDefaultsWithoutEffect();

    /**
     * @brief The refusal of a default GetPortDefaultsWithoutEffect lists.
     * @param given how it was set (--ns3::DropTailQueue<Packet>::MaxSize=5p, NS_ATTRIBUTE_DEFAULT's
     *        ...), or "" to name it by its path
     * @param path its attribute path
     * @return one line saying why it changes nothing
     */
    static std::string RefusePortDefault(const std::string& given, const std::string& path);

    /**
     * @brief Whether a queue disc keeps the MaxSize it is given: ns-3's QueueDisc::SetMaxSize
     * ignores a size of 0 and, where the queue disc fixes its unit (FqCoDel's packets), a size in
     * the other, so the default stays (FqCoDel's 0 packets drop every packet at exit 0).
     * @param factory the queue disc's factory, its values set; a type without MaxSize is kept
     * @return "" or one line, e.g. "ns3::FifoQueueDisc's MaxSize=0p: a buffer of 0 holds no
     *         packet; give it a positive size"
     */
    static std::string FindSizeNotKept(const ObjectFactory& factory);

    /**
     * @brief Limit a device's transmit queue to DEVICE_QUEUE_SIZE.
     * @param device a device with a "TxQueue" attribute and flow control
     */
    static void LimitDeviceQueue(Ptr<NetDevice> device);

  private:
    ObjectFactory m_queueDiscFactory; //!< creates the PfabricQueueDisc of each device
};

} // namespace ns3

#endif /* PFABRIC_QUEUE_DISC_HELPER_H */
