/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_LEAN_RECEIVER_H
#define PFABRIC_LEAN_RECEIVER_H

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/sequence-number.h"

#include <cstdint>
#include <optional>

namespace ns3
{

class Packet;
class PfabricHostTransport;
class TcpHeader;
class TcpRxBuffer;

/**
 * @ingroup pfabric
 *
 * @brief The receiving end of one lean connection (PfabricHostTransport): acknowledges every
 * data segment at once, as the module's ns-3 sockets do (DelAckCount 1), with the cumulative
 * ACK and SACK blocks of ns-3's own receive buffer (TcpRxBuffer: the most recent block first, at
 * most four), so that ACKs carry what ns-3's would and have their sizes.
 *
 * When the host's senders rank their segments, ACKs carry priority 0 (PfabricPriorityTag) and
 * the traffic class (PfabricClassTag) of the last data segment that had one, as an accepted
 * PfabricTcpSocket does.
 *
 * With ECN, it echoes congestion marks as an ECN-capable TcpSocketBase without delayed ACKs
 * does: ECE on every ACK from a CE-marked segment on, until a segment with CWR arrives
 * unmarked (classic ECN, RFC 3168), or ECE exactly on the ACKs of CE-marked segments (DCTCP's
 * mode, TcpDctcp's CE state machine), with its ACKs ECN-capable as TcpSocketBase sends them in
 * that mode. As in ns-3, a mark counts only on a segment above the last marked one.
 */
class PfabricLeanReceiver
{
  public:
    /// How a receiver echoes ECN marks (the receiving socket's ECN mode in ns-3).
    enum EcnEcho
    {
        NO_ECN,      //!< no ECN: marks are not echoed
        CLASSIC_ECN, //!< RFC 3168: ECE until CWR
        DCTCP_ECN,   //!< DCTCP: ECE on the ACK of each CE-marked segment
    };

    /// What the receiving socket of the host's scheme would be.
    struct Settings
    {
        /// ACKs carry priority 0 and the flow's class (the senders rank their segments)
        bool tagAcks{true};
        EcnEcho echo{NO_ECN};                               //!< how ECN marks are echoed
        Ipv4Header::EcnType ackEcn{Ipv4Header::ECN_NotECT}; //!< the ECN field of the ACKs
        /// The listening socket's ConnTimeout: a SYN-ACK is resent this long after the first,
        /// doubling with each one sent, until the handshake completes (0: the senders make no
        /// handshake, so no SYN comes)
        Time synAckTimeout{0};
        uint32_t synRetries{0}; //!< the listening socket's ConnCount: SYN-ACKs at most
    };

    /**
     * @param transport the host's transport, which outlives the receiver
     * @param peer the sending host
     * @param peerPort the sender's port
     * @param localPort the listening port
     * @param settings what the receiving socket would be
     */
    PfabricLeanReceiver(PfabricHostTransport* transport,
                        Ipv4Address peer,
                        uint16_t peerPort,
                        uint16_t localPort,
                        const Settings& settings);
    ~PfabricLeanReceiver();
    PfabricLeanReceiver(const PfabricLeanReceiver&) = delete;
    PfabricLeanReceiver& operator=(const PfabricLeanReceiver&) = delete;

    /**
     * @brief Take a data segment and acknowledge it.
     * @param payload the segment's payload, its TCP header removed
     * @param header its TCP header
     * @param ecn the ECN field of its IPv4 header
     * @return the bytes it delivered in order (0 for out-of-order or duplicate data)
     */
    uint32_t Receive(Ptr<Packet> payload, const TcpHeader& header, Ipv4Header::EcnType ecn);
    /**
     * @brief Answer a SYN with ns-3's SYN-ACK (a listening TcpSocketBase's, ECN agreed when
     * both ends use it), again for a resent SYN until the handshake completes; as ns-3's
     * socket in SYN_RCVD, resend it on a timer of its own too (TcpSocketBase::SendEmptyPacket).
     * @param header the SYN's TCP header
     */
    void ReceiveSyn(const TcpHeader& header);
    /**
     * @brief Take a segment without data (the handshake's last ACK): nothing to acknowledge,
     * but its ECN field counts as any segment's.
     * @param header its TCP header
     * @param ecn the ECN field of its IPv4 header
     */
    void ReceiveEmpty(const TcpHeader& header, Ipv4Header::EcnType ecn);

  private:
    /**
     * @brief Send a SYN-ACK as TcpSocketBase::SendEmptyPacket does: its timeout doubles with
     * each one sent (ConnTimeout, ConnCount), and a resend is scheduled unless one is pending.
     * @param flags the SYN-ACK's flags (with ECE when ECN was agreed)
     * @param synSeq the SYN's sequence number
     */
    void SendSynAck(uint8_t flags, SequenceNumber32 synSeq);

    /**
     * @brief A segment acknowledging the SYN-ACK completes the handshake (TcpSocketBase::
     * ProcessSynRcvd): no more SYN-ACKs.
     * @param header the segment's TCP header
     */
    void NoteHandshakeAck(const TcpHeader& header);

    /**
     * @brief What a segment's ECN field and flags do to the echo (TcpSocketBase::ForwardUp,
     * DoForwardUp's CWR check, TcpDctcp's CE state machine).
     * @param header its TCP header
     * @param ecn the ECN field of its IPv4 header
     */
    void NoteEcn(const TcpHeader& header, Ipv4Header::EcnType ecn);

    PfabricHostTransport* m_transport;     //!< sends the ACKs
    Ipv4Address m_peer;                    //!< the sending host
    uint16_t m_peerPort;                   //!< the sender's port
    uint16_t m_localPort;                  //!< the listening port
    Ptr<TcpRxBuffer> m_rxBuffer;           //!< in-order point and SACK blocks
    std::optional<uint8_t> m_trafficClass; //!< the class of the ACKs, if any
    Settings m_settings;                   //!< what the receiving socket would be
    SequenceNumber32 m_ecnCeSeq;           //!< the last segment counted as CE-marked
    bool m_echoing;                        //!< ACKs carry ECE
    bool m_established;                    //!< the handshake completed (or none is made)
    uint32_t m_synAcksLeft;                //!< SYN-ACKs it may still send (ns-3's m_synCount)
    EventId m_synAckEvent;                 //!< the next SYN-ACK on the timer
};

} // namespace ns3

#endif /* PFABRIC_LEAN_RECEIVER_H */
