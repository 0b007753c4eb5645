/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_LINK_NET_DEVICE_H
#define PFABRIC_LINK_NET_DEVICE_H

#include "ns3/data-rate.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/queue.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <deque>

namespace ns3
{

class ErrorModel;
class PfabricLinkChannel;
class PfabricLinkNetDevice;

/**
 * @ingroup pfabric
 *
 * @brief The flow control between a PfabricLinkNetDevice and its queue disc: stopped while the
 * wire is busy.
 *
 * ns-3's own NetDeviceQueue is stopped and woken by the device through events; this one asks
 * its device instead, so a port costs no event at the end of a transmission when no packet
 * waits in its queue disc. The device creates it (NetDeviceQueueInterface's TxQueuesType).
 */
class PfabricLinkTxQueue : public NetDeviceQueue
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * @param device the device whose wire this queue reflects (it owns this queue)
     */
    void SetLinkDevice(PfabricLinkNetDevice* device);

    /// @return true while the device's wire is busy (or the queue was stopped as ns-3's is)
    bool IsStopped() const override;
    /**
     * @brief Keep the queue disc's wake-up callback; also tells the device whether a queue disc
     * sits above it.
     * @param cb the callback (null when the queue disc is removed)
     */
    void SetWakeCallback(WakeCallback cb) override;
    /// @brief Wake the queue disc above the device, if there is one (the wire has become free).
    void WakeQueueDisc();

  protected:
    void DoDispose() override;

  private:
    PfabricLinkNetDevice* m_linkDevice{nullptr}; //!< the device (which owns this queue)
    WakeCallback m_wake;                         //!< the queue disc's Run, or null
};

/**
 * @ingroup pfabric
 *
 * @brief A full-duplex link device that serialises one packet at a time and takes the next one
 * from its queue disc only when the wire is free.
 *
 * This is the link of the pFabric model (and of the original ns-2 code): the only packet beyond
 * a switch port's priority control is the one on the wire, so the most urgent packet present
 * when the wire frees is the one sent next. A packet takes (size + FramingBytes) * 8 / DataRate
 * to serialise (the rounding of DataRate::CalculateBytesTxTime, as PointToPointNetDevice) and
 * arrives whole at the other end Delay (PfabricLinkChannel) after its last bit left.
 *
 * Cost, which is why the module has its own link: a packet hop is one event (the delivery at
 * the far end) plus, only when packets wait in the port's queue disc, one at the end of the
 * transmission to hand over the next. ns-3's PointToPointNetDevice costs three events per hop
 * (the end of transmission, the delivery, and the flow control's wake-up), a PPP header added
 * and removed, and a packet copy; and its device queue holds one more packet outside the queue
 * disc's control.
 *
 * Flow control: the device aggregates a NetDeviceQueueInterface whose queue
 * (PfabricLinkTxQueue) is stopped while the wire is busy, so a queue disc keeps every packet
 * until the wire is free. Without a queue disc, packets sent while the wire is busy wait in
 * TxQueue, a FIFO, as in a point-to-point device.
 *
 * There is no PhyTxEnd trace (firing it would cost the event this device saves). Losses through
 * ReceiveErrorModel, as on a point-to-point device; pcap tracing (raw IP) through
 * PfabricLinkHelper::EnablePcap.
 */
class PfabricLinkNetDevice : public NetDevice
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfabricLinkNetDevice();
    ~PfabricLinkNetDevice() override;

    /**
     * @brief Attach the device to a channel (at most two devices per channel).
     * @param channel the channel
     */
    void Attach(Ptr<PfabricLinkChannel> channel);

    /// @return the FIFO for packets sent while the wire is busy without a queue disc
    Ptr<Queue<Packet>> GetQueue() const;

    /**
     * @brief Set the serialisation rate (the DataRate attribute).
     * @param rate the rate
     */
    void SetDataRate(DataRate rate);

    /// @return the serialisation rate
    DataRate GetDataRate() const;

    /// @return the packets this device has started to transmit
    uint64_t GetTransmittedPackets() const;

    /**
     * @brief A packet's arrival from the channel, whole.
     * @param packet the packet
     * @param protocol its protocol number (e.g. IPv4's 0x0800)
     */
    void Receive(Ptr<Packet> packet, uint16_t protocol);

    /**
     * @brief Whether the queue disc must hold its packets now (asked by PfabricLinkTxQueue).
     *
     * A queue disc asks only when it holds packets; while the wire is busy, it gets an event at
     * the end of the transmission that wakes it.
     * @return true while the wire is busy and a queue disc sits above the device
     */
    bool HoldQueueDisc();

    /**
     * @brief Whether a queue disc sits above the device (called by PfabricLinkTxQueue).
     * @param present true when the traffic control layer set a wake callback
     */
    void NotifyQueueDisc(bool present);

    /// @return the node id of the device's node (the context of events for it)
    uint32_t GetNodeId() const;

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    /**
     * @brief Put a packet on the wire.
     * @param packet the packet
     * @param protocol its protocol number
     */
    void StartTransmission(Ptr<Packet> packet, uint16_t protocol);
    /// @brief Make sure an event at the end of the current transmission hands over the next.
    void ScheduleTransmitComplete();
    /// @brief The wire is free: send the next packet of TxQueue, or wake the queue disc.
    void TransmitComplete();
    /**
     * @brief The time to serialise a frame, DataRate::CalculateBytesTxTime's to the bit.
     *
     * That computation is a 128-bit division; a port sends frames of few sizes (full
     * segments one way, ACKs the other), so the last two results are kept.
     *
     * @param bytes the frame's size, framing included
     * @return its serialisation time at DataRate
     */
    Time TxTime(uint32_t bytes);

    /// @brief A frame size and its serialisation time.
    struct TxTimeOfSize
    {
        uint32_t bytes; //!< frame size, framing included
        Time time;      //!< its serialisation time at m_rate
    };

    Ptr<Node> m_node;                         //!< the node
    uint32_t m_nodeId;                        //!< its id (the context of events for it)
    uint32_t m_ifIndex;                       //!< the device's index on the node
    Mac48Address m_address;                   //!< this end's address
    Address m_peerAddress;                    //!< the other end's address (known at Attach)
    uint16_t m_mtu;                           //!< MTU
    DataRate m_rate;                          //!< serialisation rate
    uint32_t m_framingBytes;                  //!< bytes of framing serialised with each packet
    std::array<TxTimeOfSize, 2> m_txTimes;    //!< the last two serialisation times
    std::size_t m_txTimeVictim;               //!< the entry of m_txTimes to replace next
    Ptr<PfabricLinkChannel> m_channel;        //!< the channel
    Ptr<Queue<Packet>> m_queue;               //!< packets sent while busy, without a queue disc
    std::deque<uint16_t> m_queuedProtocols;   //!< the protocol of each packet in m_queue
    Ptr<PfabricLinkTxQueue> m_txQueue;        //!< flow control towards the queue disc
    bool m_queueDiscAbove;                    //!< a queue disc sends through this device
    Ptr<ErrorModel> m_receiveErrorModel;      //!< drops arriving packets, if set
    Time m_txEnd;                             //!< when the wire is free again
    bool m_completeScheduled;                 //!< TransmitComplete is scheduled at m_txEnd
    uint64_t m_transmitted;                   //!< packets started
    NetDevice::ReceiveCallback m_rxCallback;  //!< the node's receive callback
    PromiscReceiveCallback m_promiscCallback; //!< the node's promiscuous receive callback
    TracedCallback<> m_linkChangeCallbacks;   //!< link up

    TracedCallback<Ptr<const Packet>> m_macTxTrace;          //!< MacTx
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace;      //!< MacTxDrop
    TracedCallback<Ptr<const Packet>> m_macRxTrace;          //!< MacRx
    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;     //!< PhyTxBegin
    TracedCallback<Ptr<const Packet>> m_phyRxEndTrace;       //!< PhyRxEnd
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace;      //!< PhyRxDrop
    TracedCallback<Ptr<const Packet>> m_snifferTrace;        //!< Sniffer
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace; //!< PromiscSniffer
};

} // namespace ns3

#endif /* PFABRIC_LINK_NET_DEVICE_H */
