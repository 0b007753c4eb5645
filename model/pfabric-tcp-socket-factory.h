/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_TCP_SOCKET_FACTORY_H
#define PFABRIC_TCP_SOCKET_FACTORY_H

#include "ns3/address.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/pfabric-tcp-socket.h"
#include "ns3/socket-factory.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class PfabricFlowSender;

/**
 * @ingroup pfabric
 *
 * @brief Creates the TCP sockets of the pFabric schemes' end hosts, configured for a
 * microsecond fabric: sockets of its SocketType (PfabricMinTcpSocket: MinTCP,
 * PfabricLineRateTcpSocket: LineRate, PfabricBaselineTcpSocket: TCP, DCTCP and the custom
 * scheme's TCP), or their lean host twins.
 *
 * Aggregate one to a node (PfabricSchemeHelper does) and create sockets with its TypeId, e.g.
 * PacketSinkHelper("ns3::PfabricTcpSocketFactory", ...). ns-3's TcpSocketFactory always creates
 * a plain TcpSocketBase configured from global defaults; this factory creates a socket of the
 * class and attribute values its SocketType names, so that different nodes can run different
 * schemes, and gives it what every transport shares, from its own attributes.
 *
 * What a transport is lives in its socket class: its settings are the class's attributes, and
 * virtual functions of PfabricTcpSocket say what the factory gives it (initial window, initial
 * RTT estimate, congestion control), configure the rest (ConfigureTransport) and make its lean
 * host twin (CreateLeanSender, GetLeanReceiverSettings) from the same values. On a lean host the
 * factory asks one socket of its SocketType, created once, for the twins.
 *
 * The attribute defaults are the model's own, HotNets 2012's numbers for a 10 Gb/s fabric;
 * PfabricSchemeHelper sets every number of a preset explicitly (doc/pfabric.rst, "Presets").
 *
 * Common to every transport: SegmentSize payload bytes per segment, an ACK for every segment,
 * SACK, no timestamps (ACKs stay 40 bytes, as the ideal FCT assumes), Nagle off, never giving up
 * on a connection, and buffers larger than any flow (the application hands the whole flow to the
 * socket at once): the socket attributes GetCommonSocketAttributes names, which a socket type's
 * own values therefore cannot change.
 */
class PfabricTcpSocketFactory : public SocketFactory
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * @brief TracedCallback signature of "SocketCreated".
     * @param socket the new socket, configured (a PfabricTcpSocket of the SocketType)
     */
    typedef void (*SocketCreatedCallback)(Ptr<TcpSocketBase> socket);
    /**
     * @brief TracedCallback signature of "FlowSenderCreated".
     * @param sender the new sender, of either host stack
     */
    typedef void (*FlowSenderCreatedCallback)(Ptr<PfabricFlowSender> sender);

    PfabricTcpSocketFactory();
    ~PfabricTcpSocketFactory() override;

    /**
     * @brief Create a socket of the SocketType on the node this factory is aggregated to.
     * @return the socket
     */
    Ptr<Socket> CreateSocket() override;

    /**
     * @brief CreateSocket, typed: a socket of the SocketType, configured.
     * @return the socket
     */
    Ptr<PfabricTcpSocket> CreateTcpSocket();

    /**
     * @brief The sending end of a new connection for PfabricFlowApplication, on the node's host
     * stack: when the node has a PfabricHostTransport (the lean host), a PfabricLeanSender
     * configured as the socket of the SocketType would be (PfabricTcpSocket::CreateLeanSender),
     * else a PfabricSocketFlowSender over CreateTcpSocket().
     * @return the sender, not yet connected
     */
    Ptr<PfabricFlowSender> CreateFlowSender();

    /**
     * @brief Receive every flow sent to a port of the node: a listening socket whose accepted
     * connections are read as data arrives, or the lean host's listener.
     * @param port the port
     * @param received called with the bytes read, each time some are
     */
    void ListenForFlows(uint16_t port, Callback<void, uint32_t> received);

    /**
     * @brief The TcpSocket and TcpSocketBase attributes the factory sets on every socket it
     * creates (ConfigureCommon, and ReTxThreshold by every transport's ConfigureTransport): a
     * socket type's own value of one of them does not last.
     * @return their names
     */
    static const std::vector<std::string>& GetCommonSocketAttributes();

    /**
     * @brief The attributes of ns-3's own socket classes (the TypeIds of the SocketType's chain
     * outside this module: TcpSocket, TcpSocketBase) whose value on a socket of the SocketType
     * differs from ns-3's own default (TypeId::AttributeInformation::originalInitialValue, as
     * text), and that its lean host twin does not read
     * (PfabricTcpSocket::GetLeanHonouredAttributes).
     *
     * A value set by any route (a configured default, the SocketType's own values) counts: on
     * the lean host it would be lost without a word. Attributes that hold other objects or
     * callbacks (TxBuffer, CongestionOps, IcmpCallback) are the socket's parts, not values a
     * run is given, and are not compared. The factory's common attributes and the transport's
     * (GetCommonSocketAttributes, IsSetOnEverySocket) are reported too: the lean host models
     * the values the factory gives, not the ones set (GetAttributesSocketsOverwrite names those
     * on either host stack). So is a configured default of TcpSocketState's (pacing: the lean
     * senders keep a TcpSocketState for the congestion control, and pace, if the factory's
     * HostPacing says so, by their own timer).
     *
     * @return their full names, e.g. ns3::TcpSocket::InitialSlowStartThreshold, in TypeId order
     */
    std::vector<std::string> GetAttributesLeanHostIgnores() const;

    /**
     * @brief The attributes of ns-3's own socket classes whose value on a socket of the
     * SocketType differs from ns-3's own default, as GetAttributesLeanHostIgnores compares
     * them, and that every socket is then given its own value of (IsSetOnEverySocket): a value
     * set (a configured default, the SocketType's own values) that is lost without a word on
     * either host stack, such as --ns3::TcpSocket::InitialCwnd (the factory's InitialWindow
     * sets it).
     * @return their full names, e.g. ns3::TcpSocket::DelAckCount, in TypeId order
     */
    std::vector<std::string> GetAttributesSocketsOverwrite() const;

    /**
     * @brief The first value set that every socket loses, on either host stack, so that a run
     * would record it and not have it: an attribute of GetAttributesSocketsOverwrite, else a
     * configured default (PfabricConfiguredDefaults) of TcpSocketState's pacing where the
     * sockets pace themselves at the line rate (PfabricTcpSocket::IsPacedAtLineRate), else
     * TcpSocket::DelAckTimeout (every socket acknowledges at once: DelAckCount 1), else one
     * of what the factory chooses for every
     * socket itself: TcpL4Protocol's SocketType, RttEstimatorType and RecoveryType (the factory
     * makes the sockets, each with its own ns3::RttMeanDeviation and ns3::TcpClassicRecovery,
     * ConfigureCommon) and RttEstimator::InitialEstimation (the transport's initial RTT), else
     * a default of the estimator (RttEstimator's, RttMeanDeviation's) where the RTO is fixed
     * (PfabricTcpSocket::IsRtoFromRttEstimate false: MinTCP, LineRate).
     * @param[out] why why a program refuses it, e.g. "the scheme's sockets set
     *             ns3::TcpSocket::InitialCwnd themselves, on every host stack (from the
     *             attributes of ns3::PfabricTcpSocketFactory and of its SocketType)"
     * @return its attribute path; "" if there is none
     */
    std::string FindSettingEverySocketLoses(std::string* why) const;

    /**
     * @brief A value of ns-3's socket attributes that no connection can carry data with and
     * that ns-3 stops on only seconds into a run, past what a settings trial simulates: a
     * receive window (TcpSocketBase::MaxWindowSize) of 0 bytes, whose persist timer (6 s)
     * crashes ns-3's TcpSocketBase::PersistTimeout (ns-3.44: SIGSEGV in
     * TcpTxItem::GetPacketCopy); a first RTT estimate of 0 (TcpSocketBase::MinRto 0 on the
     * baselines' sockets), which is also the SYN's timeout, so that the connection sends its
     * SYN_RETRIES SYNs in one nanosecond and gives up.
     * @param[out] why why a program refuses it
     * @return its attribute path; "" if there is none
     */
    std::string FindSettingNoConnectionCarries(std::string* why) const;

    /**
     * @param attribute the name of an attribute of ns-3's socket classes, e.g. DelAckCount
     * @return whether every socket of the SocketType is given its own value of it, on either
     *         host stack (GetCommonSocketAttributes, the transport's
     *         PfabricTcpSocket::GetTransportSocketAttributes)
     */
    bool IsSetOnEverySocket(const std::string& attribute) const;

  protected:
    void DoDispose() override;

  private:
    /// @return the settings every socket and lean sender gets (PfabricTcpSocket::FactorySettings)
    PfabricTcpSocket::FactorySettings GetSettings() const;

    /// @return a new socket of the SocketType, not configured
    Ptr<PfabricTcpSocket> CreateSocketOfType() const;

    /**
     * @brief The values a new socket of the SocketType holds of ns-3's own socket classes'
     * attributes (outside this module's TypeIds) other than ns-3's own defaults, parts (objects,
     * callbacks) left out: what GetAttributesLeanHostIgnores and GetAttributesSocketsOverwrite
     * choose from.
     * @param socket the socket (CreateSocketOfType)
     * @return each one's TypeId and attribute, in TypeId order
     */
    static std::vector<std::pair<TypeId, std::string>> GetChangedNs3Attributes(
        Ptr<const PfabricTcpSocket> socket);

    /// @return the socket of the SocketType the lean host's senders and receivers are made by
    /// (created on first use)
    Ptr<PfabricTcpSocket> GetLeanPrototype();

    /**
     * @brief The listening socket accepted a connection: read what it receives.
     * @param socket the accepted socket
     */
    void Accepted(Ptr<Socket> socket, const Address&);
    /**
     * @brief Read what an accepted socket received.
     * @param socket the socket
     */
    void Drain(Ptr<Socket> socket);

    /// @return the line rate senders are paced at: LineRate, or the node's NIC rate
    DataRate GetPacingLineRate() const;

    /**
     * @brief Connect a new socket to its node: the PfabricTcpDemux finds it (with HashDemux)
     * and the PfabricTcpTagger tags its segments, each installed on first use.
     * @param socket the socket
     */
    void AttachToNode(Ptr<PfabricTcpSocket> socket) const;

    /**
     * @brief Configure what every transport shares.
     * @param socket the new socket
     * @param initialWindow its initial window, in segments
     * @param initialRtt the RTT estimate before the first sample
     */
    void ConfigureCommon(Ptr<TcpSocketBase> socket, uint32_t initialWindow, Time initialRtt) const;

    ObjectFactory m_socketType;            //!< the SocketType attribute
    Ptr<PfabricTcpSocket> m_leanPrototype; //!< asked for the lean host's senders, receivers
    uint32_t m_segmentSize;                //!< payload bytes per segment
    uint32_t m_headerBytes;                //!< TCP/IP and link-layer bytes added to a segment
    uint32_t m_initialWindow;              //!< initial window, segments
    bool m_hostPacing;                     //!< window-based senders paced at the line rate
    bool m_restartSsThresh;                //!< a reused connection's ssthresh restarts
    bool m_hashDemux;                      //!< sockets found through PfabricTcpDemux
    DataRate m_lineRate;                   //!< pacing rate, 0: the node's NIC rate
    TracedCallback<Ptr<TcpSocketBase>> m_socketCreatedTrace;         //!< "SocketCreated"
    TracedCallback<Ptr<PfabricFlowSender>> m_flowSenderCreatedTrace; //!< "FlowSenderCreated"
    Ptr<Socket> m_listener;                                          //!< ListenForFlows' socket
    Callback<void, uint32_t> m_received;                             //!< ListenForFlows' callback
};

} // namespace ns3

#endif /* PFABRIC_TCP_SOCKET_FACTORY_H */
