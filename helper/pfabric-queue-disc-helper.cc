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
#include "ns3/pfabric-preset.h"
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

std::string
PfabricQueueDiscHelper::FindSizeNotKept(const ObjectFactory& factory)
{
    TypeId::AttributeInformation info;
    if (!factory.GetTypeId().LookupAttributeByName("MaxSize", &info))
    {
        return ""; // no MaxSize: a queue disc of no limit of its own
    }
    const std::string type = factory.GetTypeId().GetName();
    const std::string asked = PfabricPresetAttributes::GetFactoryValue(factory, "MaxSize");
    // The caller has tried the sizes this module's queue discs stop on (PfabricSettingsTrial),
    // so making one here stops nothing.
    const QueueSize kept = factory.Create<QueueDisc>()->GetMaxSize();
    const QueueSize wanted(asked);
    // (QueueSize's != stops the program on two units)
    if (wanted.GetValue() == 0)
    {
        return type + "'s MaxSize=" + asked + ": a buffer of 0 holds no packet; give it a " +
               "positive size";
    }
    const std::string unit = kept.GetUnit() == QueueSizeUnit::PACKETS ? "packets (p)" : "bytes (B)";
    if (wanted.GetUnit() != kept.GetUnit() || wanted.GetValue() != kept.GetValue())
    {
        std::ostringstream keeps;
        keeps << kept;
        return type + "'s MaxSize=" + asked + ": ns-3 keeps " + keeps.str() +
               " instead (a queue disc ignores a size of 0, or in a unit other than its own); " +
               "give it a positive size in " + unit;
    }
    return "";
}

std::vector<std::string>
PfabricQueueDiscHelper::GetPortDefaultsWithoutEffect()
{
    std::vector<std::string> paths =
        PfabricConfiguredDefaults::ListConfigured(DropTailQueue<Packet>::GetTypeId(), {"MaxSize"});
    const std::vector<std::string> internal =
        PfabricConfiguredDefaults::ListConfigured(DropTailQueue<QueueDiscItem>::GetTypeId(),
                                                  {"MaxSize"});
    paths.insert(paths.end(), internal.begin(), internal.end());
    const std::vector<std::string> quota =
        PfabricConfiguredDefaults::ListConfigured(QueueDisc::GetTypeId(), {"Quota"});
    paths.insert(paths.end(), quota.begin(), quota.end());
    return paths;
}

std::string
PfabricQueueDiscHelper::RefusePortDefault(const std::string& given, const std::string& path)
{
    std::ostringstream size;
    size << DEVICE_QUEUE_SIZE;
    std::string why =
        "every queue disc sizes the internal queues it makes from its own MaxSize (the port's "
        "buffer, or --buffer)";
    if (path == DropTailQueue<Packet>::GetTypeId().GetName() + "::MaxSize")
    {
        why = "every port's device queue holds " + size.str() +
              " below its queue disc, the port's buffer (its MaxSize, or --buffer)";
    }
    else if (path == QueueDisc::GetTypeId().GetName() + "::Quota")
    {
        why = "every port's device queue holds " + size.str() +
              " below its queue disc, and each run of the queue disc sends one packet whatever "
              "its quota";
    }
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
