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
#include "ns3/pfabric-lean-receiver.h"
#include "ns3/socket-factory.h"
#include "ns3/traced-callback.h"

#include <cstdint>

namespace ns3
{

class PfabricFlowSender;
class PfabricHostTransport;
class PfabricLeanSender;
class PfabricPriorityPolicy;
class PfabricTcpDemux;
class PfabricTcpSocket;
class TcpCongestionOps;
class TcpSocketBase;

/**
 * @ingroup pfabric
 *
 * @brief Creates the TCP sockets of the four pFabric schemes' end hosts, configured for a
 * microsecond fabric: MinTCP, LineRate, and the TCP and DCTCP baselines (the TCP with another
 * CongestionOps, and ECN if asked, is the custom scheme's: PfabricCustomScheme).
 *
 * Aggregate one to a node (PfabricSchemeHelper does) and create sockets with its TypeId, e.g.
 * PacketSinkHelper("ns3::PfabricTcpSocketFactory", ...). ns-3's TcpSocketFactory always creates
 * a plain TcpSocketBase configured from global defaults; this factory creates the socket class
 * the Transport needs (PfabricMinTcpSocket, PfabricBaselineTcpSocket) and configures each one
 * from its own attributes, so that different nodes can run different schemes and the attributes
 * are visible on every ns-3 release (a TcpSocketBase subclass cannot show its own).
 *
 * The attribute defaults are the model's own, HotNets 2012's numbers for a 10 Gb/s fabric;
 * PfabricSchemeHelper sets every number of a preset explicitly (doc/pfabric.rst, "Presets").
 *
 * Common to every transport: SegmentSize payload bytes per segment, an ACK for every segment,
 * SACK, no timestamps (ACKs stay 40 bytes, as the ideal FCT assumes), Nagle off, never giving up
 * on a connection, and buffers larger than any flow (the application hands the whole flow to the
 * socket at once).
 */
class PfabricTcpSocketFactory : public SocketFactory
{
  public:
    /// The end-host transport.
    enum Transport
    {
        MIN_TCP,   //!< PfabricMinTcpSocket: fixed RTO, window cut only on timeout
        LINE_RATE, //!< PfabricMinTcpSocket::SetLineRate: no rate control
        TCP,       //!< PfabricBaselineTcpSocket with CongestionOps (ns-3's TcpNewReno)
        DCTCP //!< PfabricBaselineTcpSocket with PfabricDctcp (ns-3's TcpDctcp, floored) and ECN
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * @brief TracedCallback signature of "SocketCreated".
     * @param socket the new socket, configured (a PfabricMinTcpSocket or
     *        PfabricBaselineTcpSocket)
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
     * @brief Create a socket of the configured transport on the node this factory is
     * aggregated to.
     * @return the socket
     */
    Ptr<Socket> CreateSocket() override;

    /**
     * @brief CreateSocket, typed: the socket of the configured transport, a PfabricTcpSocket.
     * @return the socket
     */
    Ptr<PfabricTcpSocket> CreateTcpSocket();

    /**
     * @brief The sending end of a new connection for PfabricFlowApplication, on the node's host
     * stack: when the node has a PfabricHostTransport (the lean host), a PfabricLeanSender
     * configured as the socket of the transport would be (PfabricLeanMinTcpSender for MinTCP
     * and LineRate, PfabricLeanBaselineSender for TCP and DCTCP), else a
     * PfabricSocketFlowSender over CreateTcpSocket().
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

    /// @return the transport of the sockets and senders it creates (the Transport attribute)
    Transport GetTransport() const;

    /// The fast-retransmit threshold that turns fast retransmit off (ns-2: dynamic_dupack_).
    static constexpr uint32_t NO_FAST_RETRANSMIT = 1000000;
    /// SYNs a connection sends at most (ns-3's ConnCount); a lost SYN is resent after the
    /// first RTO, doubled at each retry, so 24 outlast any run.
    static constexpr uint32_t SYN_RETRIES = 24;

  protected:
    void DoDispose() override;

  private:
    /// What a MinTCP or LineRate sender is configured with, on either host stack.
    struct MinTcpSettings
    {
        bool lineRate;               //!< LineRate (else MinTCP)
        uint32_t initialWindow;      //!< segments
        uint32_t maxWindow;          //!< segments; 0: none
        uint32_t probeAfterTimeouts; //!< 0: never probe
        bool paced;                  //!< paced at the line rate
    };

    /// @return the settings of this factory's MinTCP or LineRate senders
    MinTcpSettings GetMinTcpSettings() const;

    /// @return a new congestion control of the TCP and DCTCP transports, configured
    Ptr<TcpCongestionOps> CreateBaselineCongestionOps() const;
    /// @return whether TCP and DCTCP sockets negotiate ECN
    bool BaselineUsesEcn() const;
    /**
     * @brief A lean sender of the TCP and DCTCP transports, as CreateTcpSocket configures
     * their sockets.
     * @param transport the node's lean host transport
     * @return the sender, not yet connected
     */
    Ptr<PfabricLeanSender> CreateLeanBaselineSender(Ptr<PfabricHostTransport> transport) const;
    /**
     * @brief A lean sender of MinTCP or LineRate, as CreateTcpSocket configures their sockets.
     * @param transport the node's lean host transport
     * @return the sender, not yet connected
     */
    Ptr<PfabricLeanSender> CreateLeanMinTcpSender(Ptr<PfabricHostTransport> transport);
    /// @return what the lean host's receivers are: the receiving socket of this transport
    PfabricLeanReceiver::Settings GetLeanReceiverSettings() const;

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

    /// @return the line rate a LineRate socket paces at: LineRate, or the node's NIC rate
    DataRate GetPacingLineRate() const;

    /**
     * @brief Connect a new socket to its node: the PfabricTcpDemux finds it (with HashDemux)
     * and the PfabricTcpTagger tags its segments, each installed on first use.
     * @param socket the socket
     */
    void AttachToNode(Ptr<PfabricTcpSocket> socket) const;

    /// @return the priority policy of MinTCP and LineRate sockets (created on first use)
    Ptr<PfabricPriorityPolicy> GetPriorityPolicy();

    /**
     * @brief Configure what every transport shares.
     * @param socket the new socket
     * @param initialWindow its initial window, in segments
     * @param initialRtt the RTT estimate before the first sample
     */
    void ConfigureCommon(Ptr<TcpSocketBase> socket, uint32_t initialWindow, Time initialRtt) const;

    Transport m_transport;                       //!< which transport to create
    uint32_t m_segmentSize;                      //!< payload bytes per segment
    uint32_t m_headerBytes;                      //!< TCP/IP and link-layer bytes added to a segment
    uint32_t m_initialWindow;                    //!< initial window, segments (MinTCP, baselines)
    uint32_t m_maxWindow;                        //!< MinTCP window cap, segments, 0: none
    uint32_t m_lineRateWindow;                   //!< LineRate's window, segments, 0: any flow
    Time m_rto;                                  //!< MinTCP / LineRate fixed RTO
    bool m_probeMode;                            //!< MinTCP / LineRate probe mode on
    uint32_t m_probeAfterTimeouts;               //!< consecutive timeouts before probing
    ObjectFactory m_priorityPolicyFactory;       //!< the PriorityPolicy attribute
    Ptr<PfabricPriorityPolicy> m_priorityPolicy; //!< shared by the sockets created here
    uint64_t m_priorityOffset;                   //!< added to a data segment's rank
    bool m_hostPacing;                           //!< window-based senders paced at the line rate
    bool m_restartSsThresh;                      //!< a reused connection's ssthresh restarts
    bool m_hashDemux;                            //!< sockets found through PfabricTcpDemux
    DataRate m_lineRate;                         //!< pacing rate, 0: the node's NIC rate
    Time m_minRto;                               //!< baselines: minimum RTO
    Time m_clockGranularity;                     //!< baselines: RTO clock granularity
    bool m_fastRetransmit;                       //!< baselines: fast retransmit on
    uint32_t m_dupAckThreshold;                  //!< baselines: (smallest) duplicate-ACK threshold
    double m_dupAckWindowFraction; //!< baselines: threshold as a fraction of cwnd, 0: fixed
    ObjectFactory m_congestionOps; //!< Tcp: the congestion control
    bool m_ecn;                    //!< Tcp: ECN on
    double m_dctcpG;               //!< DCTCP's estimation gain g
    double m_dctcpInitialAlpha;    //!< DCTCP's alpha of a new connection
    TracedCallback<Ptr<TcpSocketBase>> m_socketCreatedTrace;         //!< "SocketCreated"
    TracedCallback<Ptr<PfabricFlowSender>> m_flowSenderCreatedTrace; //!< "FlowSenderCreated"
    Ptr<Socket> m_listener;                                          //!< ListenForFlows' socket
    Callback<void, uint32_t> m_received;                             //!< ListenForFlows' callback
};

} // namespace ns3

#endif /* PFABRIC_TCP_SOCKET_FACTORY_H */
