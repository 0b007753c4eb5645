/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_TCP_SOCKET_H
#define PFABRIC_TCP_SOCKET_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/pfabric-compat.h"
#include "ns3/pfabric-lean-receiver.h"
#include "ns3/pfabric-priority-policy.h"
#include "ns3/pfabric-tcp-demux.h"
#include "ns3/pfabric-tcp-tagger.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

class PfabricHostTransport;
class PfabricLeanSender;
class TcpCongestionOps;

/**
 * @ingroup pfabric
 *
 * @brief What the end hosts of every scheme share, on ns-3's TCP: flows on reused connections,
 * timeouts counted, host pacing, the demux, and the priority each segment carries.
 *
 * A connection carries one flow at a time. StartFlow begins one: the bytes handed to Send from
 * then on are the flow; on a reused connection it also restarts the window as on a new
 * connection (RestartForFlow), so that reuse does not change how a flow starts.
 *
 * Priorities: with a PfabricPriorityPolicy set (SetPriorityPolicy), every segment the socket
 * sends is tagged with a PfabricPriorityTag on its way from TCP to IP (PfabricTcpTagger is the
 * node's TCP's down target and stamps the number the sending socket gives it): a data segment
 * carries the policy's rank of the flow + PriorityOffset, a segment without payload (pure ACK,
 * SYN, FIN) carries 0, the most urgent. Without a policy segments are not tagged.
 *
 * Traffic classes: a connection given a class (SetTrafficClass, e.g. by
 * PfabricFlowApplication for each flow) carries it in a PfabricClassTag on every segment beside
 * the priority; a receiving connection takes the class of each data segment it receives, so
 * that its ACKs travel in their flow's class.
 *
 * Subclasses, one per transport: PfabricMinTcpSocket (MinTCP), PfabricLineRateTcpSocket
 * (LineRate) and PfabricBaselineTcpSocket (TCP, DCTCP, the custom scheme's TCP). Each holds its
 * own settings as attributes and says, through the virtual functions below, how the
 * PfabricTcpSocketFactory that creates it (its SocketType) configures it and its lean host twin
 * (PfabricLeanSender, PfabricLeanReceiver): a setting of a transport lives in its class only,
 * and so does the list of ns-3's socket attributes its lean twin reads
 * (GetLeanHonouredAttributes).
 *
 * @par ns-3 internals these sockets rely on
 * TcpSocketBase offers subclasses no API for what MinTCP changes (a fixed RTO, probe mode, a
 * window restarted per flow), so these sockets read and write its protected state. ns-3 may
 * change any of it in a release; this is the whole list (test/python/test_socket_internals.py
 * fails on a member used here and not listed), checked by building on the releases of
 * README.md's "Supported ns-3 versions":
 * - TcpSocketBase members: m_tcb (the socket state below), m_txBuffer (head, sizes, SACKed
 *   bytes), m_state, m_connected, m_endPoint (the demux's key), m_congestionControl
 *   (CongestionStateSet, HasCongControl), m_retxEvent, m_persistEvent and m_pacingTimer
 *   (cancelled or re-armed by RestartForFlow and the fixed RTO), m_rto, m_dupAckCount,
 *   m_recover and m_recoverActive (recovery ended per flow; DCTCP's CWR exit).
 * - TcpSocketState members (through m_tcb): m_cWnd, m_cWndInfl, m_ssThresh, m_initialCWnd,
 *   m_initialSsThresh, m_segmentSize, m_highTxMark, m_congState, m_pacing, m_pacingRate,
 *   m_maxPacingRate, m_paceInitialWindow, m_useEcn (UseEcn's value, which has no getter); and
 *   of a fresh TcpSocketState that a congestion control's Init fills, the ECN it asks for:
 *   m_useEcn, m_ecnMode, m_ectCodePoint (PfabricBaselineTcpSocket::GetLeanReceiverSettings).
 * - TcpSocketBase virtual functions overridden: AvailableWindow, EstimateRtt, NewAck,
 *   ReTxTimeout, ReceivedAck, ReceivedData, Send, SendDataPacket, SendEmptyPacket, Window,
 *   Fork (in the subclasses); GetInstanceTypeId up to ns-3.44 (TcpSocketBaseCompat).
 */
class PfabricTcpSocket : public pfabric::TcpSocketBaseCompat, public PfabricTcpDemux::Connection
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * @brief TracedCallback signature of "Timeout".
     * @param timeouts this connection's timeouts with data outstanding so far, this one included
     */
    typedef void (*TimeoutCallback)(uint64_t timeouts);

    /// The fast-retransmit threshold that turns fast retransmit off (ns-2: dynamic_dupack_).
    static constexpr uint32_t NO_FAST_RETRANSMIT = 1000000;
    /// SYNs a connection sends at most (ns-3's ConnCount); a lost SYN is resent after the
    /// first RTO, doubled at each retry, so 24 outlast any run.
    static constexpr uint32_t SYN_RETRIES = 24;
    /// TcpSocketBase's retransmission timer attributes and its ECN attribute (which has no
    /// getter, GetAttributeText), as the transports' lists name them
    /// (GetLeanHonouredAttributes, GetTransportSocketAttributes).
    static constexpr const char* MIN_RTO_ATTRIBUTE = "MinRto";
    static constexpr const char* CLOCK_GRANULARITY_ATTRIBUTE = "ClockGranularity"; //!< as above
    static constexpr const char* USE_ECN_ATTRIBUTE = "UseEcn";                     //!< as above

    /**
     * @brief What the PfabricTcpSocketFactory creating a socket gives every transport (its own
     * attributes), for the virtual functions that configure a socket or its lean twin.
     */
    struct FactorySettings
    {
        uint32_t segmentSize;   //!< payload bytes per full segment
        uint32_t headerBytes;   //!< bytes the network adds to a segment's payload
        uint32_t initialWindow; //!< initial congestion window, segments (InitialWindow)
        bool hostPacing;        //!< window-based senders paced at the line rate (HostPacing)
        /// The rate senders are paced at; asked only by a sender that paces (a node may lack
        /// a NIC with a DataRate when nothing paces)
        std::function<DataRate()> lineRate;
    };

    PfabricTcpSocket();

    /**
     * @brief Copy constructor, used by Fork (an accepted connection keeps the listener's rules).
     * @param sock the socket to copy
     */
    PfabricTcpSocket(const PfabricTcpSocket& sock);

    ~PfabricTcpSocket() override;

    /**
     * @brief Begin a flow: the bytes handed to Send from now until the next StartFlow.
     *
     * On a connection that carried a flow before (Send was handed bytes), the flow starts as
     * on a new connection (RestartForFlow); the first flow of a connection may start before
     * the handshake ends.
     * Aborts if a byte of the previous flow is still unacknowledged: a connection carries one
     * flow at a time.
     *
     * @param deadline the flow's deadline, a simulation time; Time::Max() for none
     */
    void StartFlow(Time deadline = Time::Max());

    /**
     * @brief Stop the current flow for good (an application giving up on it, e.g. at a missed
     * deadline): from now on the socket sends nothing of it, neither new data nor
     * retransmissions, and ignores the ACKs that still arrive.
     *
     * The connection is not closed (closing lets a late, reordered ACK with SACK blocks reach
     * ns-3's TcpTxBuffer::Update in FIN_WAIT, which crashes; see PfabricFlowApplication) and
     * cannot carry another flow: its unacknowledged bytes stay in the send buffer. Segments
     * already handed to IP travel on and are delivered; their ACKs are ignored. Idempotent.
     */
    void StopFlow();

    /// @return whether StopFlow stopped the current flow
    bool IsFlowStopped() const;

    /**
     * @brief Tag segments through this tagger (the node's; PfabricTcpTagger::Install). Needed
     * for a priority policy; a forked (accepted) socket keeps its listener's.
     * @param tagger the node's tagger, or nullptr
     */
    void SetTagger(Ptr<PfabricTcpTagger> tagger);

    /**
     * @brief The traffic class (PfabricClassTag) of the segments this connection sends from
     * now on, beside their priority (with a priority policy). A connection has none until set;
     * a forked (accepted) one starts without, and takes the class of each data segment it
     * receives.
     * @param trafficClass the class, 0 first
     */
    void SetTrafficClass(uint8_t trafficClass);

    /// @return the connection's traffic class, if it has one
    std::optional<uint8_t> GetTrafficClass() const;

    /**
     * @brief Tag segments with priorities.
     * @param policy ranks the flow of each data segment; nullptr: segments are not tagged
     * @param offset added to a data segment's rank; at least 1, so that data never ties with
     *        control segments (priority 0)
     */
    void SetPriorityPolicy(Ptr<PfabricPriorityPolicy> policy, uint64_t offset);

    /**
     * @brief Whether a reused connection's next flow (RestartForFlow) starts from the initial
     * ssthresh (true, the default: as a new connection would) or keeps the ssthresh its earlier
     * flows left (false: as the original ns-2 code, whose FullTcp resets only the window at each
     * flow, in advance_bytes).
     * @param restart whether to restart ssthresh
     */
    void SetRestartSsThresh(bool restart);

    /// @return the priority policy, nullptr when segments are not tagged
    Ptr<PfabricPriorityPolicy> GetPriorityPolicy() const;

    /**
     * @brief The priority of a segment this socket sends now (with a priority policy).
     * @param payloadBytes the segment's payload
     * @return 0 for a segment without payload, else the policy's rank + offset
     */
    uint64_t GetSegmentPriority(uint32_t payloadBytes) const;

    /// @return where the current flow stands (PfabricFlowProgress)
    PfabricFlowProgress GetFlowProgress() const;

    /**
     * @brief The flow's remaining bytes: the end of the data handed to the socket, less the
     * cumulative ACK, less the bytes selectively acknowledged above it.
     * @return the remaining bytes
     */
    uint64_t GetRemainingBytes() const;

    /// @return every retransmission timeout of this connection with data outstanding
    uint64_t GetTimeouts() const;

    /// @return whether the sender is in MinTCP's probe mode (PfabricMinTcpSocket); other
    /// senders never probe
    virtual bool IsProbing() const;

    /**
     * @brief The initial congestion window of this transport.
     * @param settings the factory's settings
     * @return the window, segments: the factory's InitialWindow by default
     */
    virtual uint32_t GetInitialWindow(const FactorySettings& settings) const;

    /**
     * @brief The RTT estimate before the first sample, which is also the time before a lost
     * SYN is resent (ConnTimeout).
     * @return the estimate: TcpSocketBase's MinRto by default
     */
    virtual Time GetInitialRtt() const;

    /**
     * @brief Whether this transport's retransmission timer follows the RTT estimator
     * (TcpSocketBase's RTO from the estimate), so that the estimator's attributes shape a run.
     * @return true by default
     */
    virtual bool IsRtoFromRttEstimate() const;

    /**
     * @brief Whether this transport's window grows from slow start towards an ssthresh, so that
     * what a reused connection keeps of it (SetRestartSsThresh) shapes a run.
     * @return true by default
     */
    virtual bool HasSlowStart() const;

    /**
     * @brief Whether this transport's senders tag every segment they send with its priority
     * (PfabricPriorityTag), ACKs and handshakes included, on both host stacks, so that a queue
     * disc's value for untagged packets (PfabricQueueDisc::UntaggedPriority) never meets one.
     * @return false by default
     */
    virtual bool TagsEverySegment() const;

    /// @return a new congestion control of this transport, configured
    virtual Ptr<TcpCongestionOps> CreateCongestionOps() const = 0;

    /**
     * @brief Whether this transport's senders pace themselves at their NIC's line rate
     * (SetPacingLineRate, on both host stacks), which sets TcpSocketState's pacing values on
     * every socket whatever their defaults.
     * @param settings the factory's settings
     * @return the factory's HostPacing by default
     */
    virtual bool IsPacedAtLineRate(const FactorySettings& settings) const;

    /**
     * @brief Configure what is this transport's own, once the factory has set what every socket
     * shares (ConfigureCommon), given it its congestion control (CreateCongestionOps) and
     * connected it to its node (the tagger a priority policy needs).
     * @param settings the factory's settings
     */
    virtual void ConfigureTransport(const FactorySettings& settings) = 0;

    /**
     * @brief The sending end of a connection of this transport on the lean host, configured as
     * ConfigureTransport configures this socket, from the same attribute values.
     * @param transport the node's lean host transport
     * @param settings the factory's settings
     * @return the sender, not yet connected
     */
    virtual Ptr<PfabricLeanSender> CreateLeanSender(Ptr<PfabricHostTransport> transport,
                                                    const FactorySettings& settings) const = 0;

    /// @return what the lean host's receivers are: the receiving socket of this transport
    virtual PfabricLeanReceiver::Settings GetLeanReceiverSettings() const = 0;

    /**
     * @brief The attributes of ns-3's own socket classes (TcpSocket, TcpSocketBase) whose values
     * this transport's lean twin reads (CreateLeanSender, GetLeanReceiverSettings), beside the
     * transport's own attributes and its factory's.
     *
     * The lean host models no other: a value given to one would be lost there without a word,
     * so PfabricTcpSocketFactory::GetAttributesLeanHostIgnores reports it. Kept beside the code
     * that reads them; a name must be an attribute of the class's TypeId (a test checks).
     *
     * @return their names
     */
    virtual std::vector<std::string> GetLeanHonouredAttributes() const = 0;

    /**
     * @brief The attributes of ns-3's own socket classes that ConfigureTransport sets on every
     * socket of this transport whatever their value (beside the factory's common ones,
     * PfabricTcpSocketFactory::GetCommonSocketAttributes): a value given to one does not last on
     * either host stack.
     * @return their names: none by default
     */
    virtual std::vector<std::string> GetTransportSocketAttributes() const;

    /**
     * @brief The socket's value of one of its attributes as text (its checker's), also of one
     * without a getter: UseEcn's is the socket state's, which its setter writes.
     *
     * Any other attribute without a getter reads as the type's configured default, which a
     * socket made by a factory that sets it does not have.
     *
     * @param info the attribute, of the socket's TypeId or a parent's
     * @return its value
     */
    std::string GetAttributeText(const TypeId::AttributeInformation& info) const;

    /**
     * @brief Let the socket's segments leave it no faster than its NIC serialises them.
     *
     * ns-3 paces by payload bytes: the rate is scaled so that a segment of SegmentSize bytes is
     * followed by a gap of exactly its wire time, (payload + overhead) * 8 / rate, rounded down.
     * The rate stays the NIC's (ns-3's cwnd/RTT update of the pacing rate is undone before
     * every transmission), so pacing never slows a sender below its NIC: window bursts wait in
     * the socket, not in the NIC's queue.
     *
     * @param rate the NIC's line rate, strictly positive
     * @param overheadBytes the bytes the network adds to a segment's payload (TCP, IP and link
     *        headers)
     */
    void SetPacingLineRate(DataRate rate, uint32_t overheadBytes);

    using Socket::Send;
    /**
     * @brief TcpSocketBase's, counting the bytes handed as the current flow's.
     * @param p the bytes
     * @param flags ignored, as by TcpSocketBase
     * @return the bytes handed, or -1
     */
    int Send(Ptr<Packet> p, uint32_t flags) override;

  protected:
    /**
     * @brief Give the next flow on this idle, reused connection the state of a new connection:
     * congestion state Open, the initial window and ssthresh, no duplicate ACKs counted, no
     * recovery, no retransmission timer running (nothing is outstanding). Subclasses add
     * theirs and call this.
     *
     * ns-3 leaves a congestion state (e.g. DCTCP's CWR, which a flow often ends in) only when an
     * ACK passes its recovery point, and then sets the window to ssthresh, by then its initial
     * value (no limit): the state is ended here instead.
     */
    virtual void RestartForFlow();

    /**
     * @brief A retransmission timeout with data outstanding (counted in GetTimeouts): ns-3's
     * by default.
     */
    virtual void DataTimeout();

    /// @return whether the socket has data to send or acknowledged, so a timeout is a loss
    bool IsDataOutstanding() const;

    void ReTxTimeout() override;
    /// Nothing to send once the flow is stopped (StopFlow); subclasses call this one.
    uint32_t AvailableWindow() const override;
    /// ACKs of a stopped flow are ignored (StopFlow); subclasses call this one.
    void ReceivedAck(Ptr<Packet> packet, const TcpHeader& tcpHeader) override;
    uint32_t SendDataPacket(SequenceNumber32 seq, uint32_t maxSize, bool withAck) override;
    void SendEmptyPacket(uint8_t flags) override;
    /**
     * @brief TcpSocketBase's, after taking the traffic class of the segment, if it has one, for
     * the ACKs this connection sends.
     * @param packet the segment's payload
     * @param tcpHeader its header
     */
    void ReceivedData(Ptr<Packet> packet, const TcpHeader& tcpHeader) override;
    Ipv4EndPoint* GetDemuxEndPoint() const override;

  private:
    Ptr<PfabricTcpTagger> m_tagger;              //!< tags the segments sent, if set
    std::optional<uint8_t> m_trafficClass;       //!< the class of its segments, if any
    Ptr<PfabricPriorityPolicy> m_priorityPolicy; //!< ranks data segments; nullptr: no tags
    uint64_t m_priorityOffset;                   //!< added to a data segment's rank
    uint64_t m_timeouts;                         //!< timeouts with data outstanding
    TracedCallback<uint64_t> m_timeoutTrace;     //!< "Timeout"
    bool m_carriedFlow;                          //!< bytes were handed to Send before
    uint64_t m_flowBytes;                        //!< bytes handed since the flow started
    Time m_flowDeadline;                         //!< the flow's deadline; Time::Max(): none
    bool m_flowStopped;                          //!< StopFlow was called
    bool m_restartSsThresh;                      //!< a reused connection's ssthresh restarts
};

} // namespace ns3

#endif /* PFABRIC_TCP_SOCKET_H */
