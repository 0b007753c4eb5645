/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricLinkNetDevice: a link device that takes one packet at a time from its queue disc and
// serialises it.

#include "pfabric-link-net-device.h"

#include "pfabric-link-channel.h"

#include "ns3/abort.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/error-model.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricLinkNetDevice");

NS_OBJECT_ENSURE_REGISTERED(PfabricLinkTxQueue);
NS_OBJECT_ENSURE_REGISTERED(PfabricLinkNetDevice);

TypeId
PfabricLinkTxQueue::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfabricLinkTxQueue")
                            .SetParent<NetDeviceQueue>()
                            .SetGroupName("Pfabric")
                            .AddConstructor<PfabricLinkTxQueue>();
    return tid;
}

void
PfabricLinkTxQueue::SetLinkDevice(PfabricLinkNetDevice* device)
{
    m_linkDevice = device;
}

bool
PfabricLinkTxQueue::IsStopped() const
{
    return NetDeviceQueue::IsStopped() || (m_linkDevice && m_linkDevice->HoldQueueDisc());
}

void
PfabricLinkTxQueue::SetWakeCallback(WakeCallback cb)
{
    NetDeviceQueue::SetWakeCallback(cb);
    m_wake = cb;
    if (m_linkDevice)
    {
        m_linkDevice->NotifyQueueDisc(!cb.IsNull());
    }
}

void
PfabricLinkTxQueue::WakeQueueDisc()
{
    if (!m_wake.IsNull())
    {
        m_wake();
    }
}

void
PfabricLinkTxQueue::DoDispose()
{
    m_linkDevice = nullptr;
    m_wake.Nullify();
    NetDeviceQueue::DoDispose();
}

TypeId
PfabricLinkNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfabricLinkNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Pfabric")
            .AddConstructor<PfabricLinkNetDevice>()
            .AddAttribute(
                "Mtu",
                "The MAC-level maximum transmission unit.",
                UintegerValue(1500),
                MakeUintegerAccessor(&PfabricLinkNetDevice::SetMtu, &PfabricLinkNetDevice::GetMtu),
                MakeUintegerChecker<uint16_t>())
            .AddAttribute("DataRate",
                          "The serialisation rate.",
                          DataRateValue(DataRate("10Gb/s")),
                          MakeDataRateAccessor(&PfabricLinkNetDevice::SetDataRate,
                                               &PfabricLinkNetDevice::GetDataRate),
                          MakeDataRateChecker())
            .AddAttribute("FramingBytes",
                          "Bytes of link framing serialised with every packet (2: the PPP "
                          "header of ns-3's point-to-point link, so that both links time "
                          "packets alike).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&PfabricLinkNetDevice::m_framingBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TxQueue",
                          "A FIFO for packets sent while the wire is busy, used only when no "
                          "queue disc sits above the device (with one, flow control keeps "
                          "them in the queue disc). Unset: a DropTailQueue of its default "
                          "size, created when the device joins a node.",
                          PointerValue(),
                          MakePointerAccessor(&PfabricLinkNetDevice::m_queue),
                          MakePointerChecker<Queue<Packet>>())
            .AddAttribute("ReceiveErrorModel",
                          "Drops arriving packets it finds corrupt (none if unset).",
                          PointerValue(),
                          MakePointerAccessor(&PfabricLinkNetDevice::m_receiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddTraceSource("MacTx",
                            "A packet handed to the device for transmission.",
                            MakeTraceSourceAccessor(&PfabricLinkNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxDrop",
                            "A packet the device dropped: no link, or TxQueue full.",
                            MakeTraceSourceAccessor(&PfabricLinkNetDevice::m_macTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A packet received and passed up.",
                            MakeTraceSourceAccessor(&PfabricLinkNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "A packet's first bit goes on the wire.",
                            MakeTraceSourceAccessor(&PfabricLinkNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "A packet's last bit arrived.",
                            MakeTraceSourceAccessor(&PfabricLinkNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxDrop",
                            "A packet the ReceiveErrorModel dropped on arrival.",
                            MakeTraceSourceAccessor(&PfabricLinkNetDevice::m_phyRxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "A packet sent or received, for pcap (raw IP).",
                            MakeTraceSourceAccessor(&PfabricLinkNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "A packet sent or received, for promiscuous pcap (raw IP).",
                            MakeTraceSourceAccessor(&PfabricLinkNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

PfabricLinkNetDevice::PfabricLinkNetDevice()
    : m_nodeId(0),
      m_ifIndex(0),
      m_mtu(1500),
      m_framingBytes(2),
      m_txTimes{},
      m_txTimeVictim(0),
      m_queueDiscAbove(false),
      m_completeScheduled(false),
      m_transmitted(0)
{
    NS_LOG_FUNCTION(this);
}

PfabricLinkNetDevice::~PfabricLinkNetDevice() = default;

void
PfabricLinkNetDevice::Attach(Ptr<PfabricLinkChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    m_channel = channel;
    m_channel->Attach(this);
    Ptr<PfabricLinkNetDevice> peer = m_channel->GetPeer(this);
    if (peer)
    {
        // The second end is attached: the link is up at both ends.
        m_peerAddress = peer->GetAddress();
        peer->m_peerAddress = GetAddress();
        m_linkChangeCallbacks();
        peer->m_linkChangeCallbacks();
    }
}

Ptr<Queue<Packet>>
PfabricLinkNetDevice::GetQueue() const
{
    return m_queue;
}

uint64_t
PfabricLinkNetDevice::GetTransmittedPackets() const
{
    return m_transmitted;
}

uint32_t
PfabricLinkNetDevice::GetNodeId() const
{
    return m_nodeId;
}

bool
PfabricLinkNetDevice::HoldQueueDisc()
{
    if (!m_queueDiscAbove || Simulator::Now() >= m_txEnd)
    {
        return false;
    }
    // A queue disc asks while the wire is busy only when it holds packets (QueueDisc::Run on
    // an arrival, and QueueDisc::Transmit after a send unless it is empty): wake it when the
    // wire frees. A queue disc that emptied asks nothing, and costs no event.
    ScheduleTransmitComplete();
    return true;
}

void
PfabricLinkNetDevice::NotifyQueueDisc(bool present)
{
    NS_LOG_FUNCTION(this << present);
    m_queueDiscAbove = present;
}

void
PfabricLinkNetDevice::StartTransmission(Ptr<Packet> packet, uint16_t protocol)
{
    NS_LOG_FUNCTION(this << packet << protocol);
    m_snifferTrace(packet);
    m_promiscSnifferTrace(packet);
    m_phyTxBeginTrace(packet);
    const Time txTime = TxTime(packet->GetSize() + m_framingBytes);
    m_txEnd = Simulator::Now() + txTime;
    ++m_transmitted;
    m_channel->Transmit(packet, protocol, this, txTime);
    if (!m_queue->IsEmpty())
    {
        ScheduleTransmitComplete();
    }
}

Time
PfabricLinkNetDevice::TxTime(uint32_t bytes)
{
    for (const TxTimeOfSize& known : m_txTimes)
    {
        if (known.bytes == bytes)
        {
            return known.time;
        }
    }
    TxTimeOfSize& replaced = m_txTimes[m_txTimeVictim];
    m_txTimeVictim = (m_txTimeVictim + 1) % m_txTimes.size();
    replaced = {bytes, m_rate.CalculateBytesTxTime(bytes)};
    return replaced.time;
}

void
PfabricLinkNetDevice::SetDataRate(DataRate rate)
{
    NS_LOG_FUNCTION(this << rate);
    m_rate = rate;
    // A zero-byte frame takes no time at any rate, so {0, 0} entries are always right.
    m_txTimes = {};
}

DataRate
PfabricLinkNetDevice::GetDataRate() const
{
    return m_rate;
}

void
PfabricLinkNetDevice::ScheduleTransmitComplete()
{
    if (!m_completeScheduled)
    {
        m_completeScheduled = true;
        Simulator::Schedule(m_txEnd - Simulator::Now(),
                            &PfabricLinkNetDevice::TransmitComplete,
                            this);
    }
}

void
PfabricLinkNetDevice::TransmitComplete()
{
    NS_LOG_FUNCTION(this);
    m_completeScheduled = false;
    if (!m_queue->IsEmpty())
    {
        Ptr<Packet> packet = m_queue->Dequeue();
        uint16_t protocol = m_queuedProtocols.front();
        m_queuedProtocols.pop_front();
        StartTransmission(packet, protocol);
        return;
    }
    m_txQueue->WakeQueueDisc();
}

void
PfabricLinkNetDevice::Receive(Ptr<Packet> packet, uint16_t protocol)
{
    NS_LOG_FUNCTION(this << packet << protocol);
    if (m_receiveErrorModel && m_receiveErrorModel->IsCorrupt(packet))
    {
        m_phyRxDropTrace(packet);
        return;
    }
    m_phyRxEndTrace(packet);
    m_snifferTrace(packet);
    m_promiscSnifferTrace(packet);
    if (!m_promiscCallback.IsNull())
    {
        m_promiscCallback(this, packet, protocol, m_peerAddress, m_address, PACKET_HOST);
    }
    m_macRxTrace(packet);
    m_rxCallback(this, packet, protocol, m_peerAddress);
}

bool
PfabricLinkNetDevice::Send(Ptr<Packet> packet, const Address& /* dest */, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << protocolNumber);
    if (!IsLinkUp())
    {
        m_macTxDropTrace(packet);
        return false;
    }
    m_macTxTrace(packet);
    if (Simulator::Now() >= m_txEnd && m_queue->IsEmpty())
    {
        StartTransmission(packet, protocolNumber);
        return true;
    }
    // The wire is busy: only without a queue disc (or when called around it).
    if (!m_queue->Enqueue(packet))
    {
        m_macTxDropTrace(packet);
        return false;
    }
    m_queuedProtocols.push_back(protocolNumber);
    ScheduleTransmitComplete();
    return true;
}

bool
PfabricLinkNetDevice::SendFrom(Ptr<Packet> /* packet */,
                               const Address& /* source */,
                               const Address& /* dest */,
                               uint16_t /* protocolNumber */)
{
    return false;
}

void
PfabricLinkNetDevice::SetNode(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    m_node = node;
    m_nodeId = node->GetId();
    if (!m_queue)
    {
        m_queue = CreateObject<DropTailQueue<Packet>>();
    }
    if (!m_txQueue)
    {
        NS_ABORT_MSG_IF(GetObject<NetDeviceQueueInterface>(),
                        "PfabricLinkNetDevice: its flow control is its own; do not aggregate a "
                        "NetDeviceQueueInterface");
        Ptr<NetDeviceQueueInterface> ndqi = CreateObjectWithAttributes<NetDeviceQueueInterface>(
            "TxQueuesType",
            TypeIdValue(PfabricLinkTxQueue::GetTypeId()));
        AggregateObject(ndqi);
        m_txQueue = DynamicCast<PfabricLinkTxQueue>(ndqi->GetTxQueue(0));
        NS_ASSERT(m_txQueue);
        m_txQueue->SetLinkDevice(this);
    }
}

Ptr<Node>
PfabricLinkNetDevice::GetNode() const
{
    return m_node;
}

void
PfabricLinkNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
PfabricLinkNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
PfabricLinkNetDevice::GetChannel() const
{
    return m_channel;
}

void
PfabricLinkNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
PfabricLinkNetDevice::GetAddress() const
{
    return m_address;
}

bool
PfabricLinkNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
PfabricLinkNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
PfabricLinkNetDevice::IsLinkUp() const
{
    return m_channel && m_channel->GetNDevices() == 2;
}

void
PfabricLinkNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
PfabricLinkNetDevice::IsBroadcast() const
{
    // Point to point: every packet goes to the one device at the other end.
    return true;
}

Address
PfabricLinkNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
PfabricLinkNetDevice::IsMulticast() const
{
    return true;
}

Address
PfabricLinkNetDevice::GetMulticast(Ipv4Address /* multicastGroup */) const
{
    return Mac48Address("01:00:5e:00:00:00");
}

Address
PfabricLinkNetDevice::GetMulticast(Ipv6Address /* addr */) const
{
    return Mac48Address("33:33:00:00:00:00");
}

bool
PfabricLinkNetDevice::IsPointToPoint() const
{
    return true;
}

bool
PfabricLinkNetDevice::IsBridge() const
{
    return false;
}

bool
PfabricLinkNetDevice::NeedsArp() const
{
    return false;
}

void
PfabricLinkNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
PfabricLinkNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
PfabricLinkNetDevice::SupportsSendFrom() const
{
    return false;
}

void
PfabricLinkNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_node = nullptr;
    m_channel = nullptr;
    m_queue = nullptr;
    m_receiveErrorModel = nullptr;
    m_txQueue = nullptr;
    m_rxCallback.Nullify();
    m_promiscCallback.Nullify();
    NetDevice::DoDispose();
}

} // namespace ns3
