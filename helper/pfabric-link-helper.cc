/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricLinkHelper: PfabricLinkNetDevice links between pairs of nodes, and their pcap tracing.

#include "pfabric-link-helper.h"

#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/pfabric-link-channel.h"
#include "ns3/pfabric-link-net-device.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricLinkHelper");

PfabricLinkHelper::PfabricLinkHelper()
    : m_deviceFactory("ns3::PfabricLinkNetDevice"),
      m_channelFactory("ns3::PfabricLinkChannel")
{
}

void
PfabricLinkHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
PfabricLinkHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

NetDeviceContainer
PfabricLinkHelper::Install(Ptr<Node> a, Ptr<Node> b) const
{
    NS_LOG_FUNCTION(this << a << b);
    Ptr<PfabricLinkChannel> channel = m_channelFactory.Create<PfabricLinkChannel>();
    NetDeviceContainer devices;
    for (Ptr<Node> node : {a, b})
    {
        Ptr<PfabricLinkNetDevice> device = m_deviceFactory.Create<PfabricLinkNetDevice>();
        device->SetAddress(Mac48Address::Allocate());
        node->AddDevice(device);
        device->Attach(channel);
        devices.Add(device);
    }
    return devices;
}

void
PfabricLinkHelper::EnablePcapInternal(std::string prefix,
                                      Ptr<NetDevice> nd,
                                      bool promiscuous,
                                      bool explicitFilename)
{
    Ptr<PfabricLinkNetDevice> device = nd->GetObject<PfabricLinkNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("PfabricLinkHelper::EnablePcap: device " << nd
                                                             << " is not a PfabricLinkNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    // The devices carry IP packets without link headers.
    Ptr<PcapFileWrapper> file = pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_RAW);
    pcapHelper.HookDefaultSink<PfabricLinkNetDevice>(device,
                                                     promiscuous ? "PromiscSniffer" : "Sniffer",
                                                     file);
}

} // namespace ns3
