/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricQueueDiscHelper: PfabricQueueDisc as the root queue disc of network devices.

#include "pfabric-queue-disc-helper.h"

#include "ns3/abort.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/pfabric-configured-defaults.h"
#include "ns3/pfabric-queue-disc.h"
#include "ns3/pointer.h"
#include "ns3/queue-item.h"
#include "ns3/queue.h"
#include "ns3/traffic-control-layer.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricQueueDiscHelper");

const QueueSize PfabricQueueDiscHelper::DEVICE_QUEUE_SIZE(QueueSizeUnit::PACKETS, 1);

PfabricQueueDiscHelper::PfabricQueueDiscHelper()
{
    m_queueDiscFactory.SetTypeId("ns3::PfabricQueueDisc");
}

void
PfabricQueueDiscHelper::SetQueueDiscAttribute(const std::string& name, const AttributeValue& value)
{
    m_queueDiscFactory.Set(name, value);
}

void
PfabricQueueDiscHelper::SetQueueDiscType(const std::string& type)
{
    m_queueDiscFactory = ObjectFactory(type);
}

void
PfabricQueueDiscHelper::SetQueueDiscFactory(const ObjectFactory& factory)
{
    m_queueDiscFactory = factory;
}

std::vector<std::string>
PfabricQueueDiscHelper::GetQueueSizeDefaultsItOverrides()
{
    std::vector<std::string> paths =
        PfabricConfiguredDefaults::ListConfigured(DropTailQueue<Packet>::GetTypeId(), {"MaxSize"});
    const std::vector<std::string> internal =
        PfabricConfiguredDefaults::ListConfigured(DropTailQueue<QueueDiscItem>::GetTypeId(),
                                                  {"MaxSize"});
    paths.insert(paths.end(), internal.begin(), internal.end());
    return paths;
}

std::string
PfabricQueueDiscHelper::RefuseQueueSizeDefault(const std::string& given, const std::string& path)
{
    std::ostringstream size;
    size << DEVICE_QUEUE_SIZE;
    const std::string why =
        path == DropTailQueue<Packet>::GetTypeId().GetName() + "::MaxSize"
            ? "every port's device queue holds " + size.str() +
                  " below its queue disc, the port's buffer (its MaxSize, or --buffer)"
            : "every queue disc sizes the internal queues it makes from its own MaxSize (the "
              "port's buffer, or --buffer)";
    return (given.empty() ? path : given) + ": " + why + ", so " + path +
           " changes nothing; leave it unset";
}

void
PfabricQueueDiscHelper::LimitDeviceQueue(Ptr<NetDevice> device)
{
    NS_LOG_FUNCTION(device);
    PointerValue txQueue;
    NS_ABORT_MSG_UNLESS(
        device->GetAttributeFailSafe("TxQueue", txQueue) && txQueue.Get<QueueBase>(),
        "PfabricQueueDiscHelper: device "
            << device->GetIfIndex() << " of node " << device->GetNode()->GetId() << " ("
            << device->GetInstanceTypeId().GetName() << ") has no TxQueue to limit");
    NS_ABORT_MSG_UNLESS(device->GetObject<NetDeviceQueueInterface>(),
                        "PfabricQueueDiscHelper: device "
                            << device->GetIfIndex() << " of node " << device->GetNode()->GetId()
                            << " has no flow control (NetDeviceQueueInterface); its queue disc "
                               "would be bypassed");
    txQueue.Get<QueueBase>()->SetMaxSize(DEVICE_QUEUE_SIZE);
}

int64_t
PfabricQueueDiscHelper::AssignStreams(const QueueDiscContainer& queueDiscs, int64_t stream)
{
    int64_t assigned = 0;
    for (auto it = queueDiscs.Begin(); it != queueDiscs.End(); ++it)
    {
        Ptr<PfabricQueueDisc> queueDisc = DynamicCast<PfabricQueueDisc>(*it);
        NS_ABORT_MSG_UNLESS(queueDisc,
                            "PfabricQueueDiscHelper::AssignStreams: not a PfabricQueueDisc");
        assigned += queueDisc->AssignStreams(stream + assigned);
    }
    return assigned;
}

QueueDiscContainer
PfabricQueueDiscHelper::Install(const NetDeviceContainer& devices) const
{
    QueueDiscContainer queueDiscs;
    for (auto it = devices.Begin(); it != devices.End(); ++it)
    {
        Ptr<NetDevice> device = *it;
        Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
        NS_ABORT_MSG_UNLESS(tc,
                            "PfabricQueueDiscHelper: node "
                                << device->GetNode()->GetId()
                                << " has no traffic control layer; install the internet stack "
                                   "first");
        LimitDeviceQueue(device);
        if (tc->GetRootQueueDiscOnDevice(device))
        {
            NS_LOG_WARN("Replacing the root queue disc of device "
                        << device->GetIfIndex() << " of node " << device->GetNode()->GetId());
            tc->DeleteRootQueueDiscOnDevice(device);
        }
        Ptr<QueueDisc> queueDisc = m_queueDiscFactory.Create<QueueDisc>();
        tc->SetRootQueueDiscOnDevice(device, queueDisc);
        queueDiscs.Add(queueDisc);
    }
    return queueDiscs;
}

} // namespace ns3
