/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricLeanReceiver: the receiving end of a lean connection, an ACK with SACK blocks per data
// segment.

#include "pfabric-lean-receiver.h"

#include "pfabric-class-tag.h"
#include "pfabric-flow-sender.h"
#include "pfabric-host-transport.h"
#include "pfabric-lean-sender.h"
#include "pfabric-priority-tag.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-option-sack.h"
#include "ns3/tcp-rx-buffer.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricLeanReceiver");

PfabricLeanReceiver::PfabricLeanReceiver(PfabricHostTransport* transport,
                                         Ipv4Address peer,
                                         uint16_t peerPort,
                                         uint16_t localPort,
                                         const Settings& settings)
    : m_transport(transport),
      m_peer(peer),
      m_peerPort(peerPort),
      m_localPort(localPort),
      m_rxBuffer(CreateObject<TcpRxBuffer>()),
      m_settings(settings),
      m_ecnCeSeq(0),
      m_echoing(false),
      m_established(false),
      m_synAcksLeft(settings.synRetries)
{
    m_rxBuffer->SetMaxBufferSize(PfabricFlowSender::RECEIVE_BUFFER_BYTES);
    // The sender's first byte is 1: its handshake's SYN took 0 (PfabricFlowSender).
    m_rxBuffer->SetNextRxSequence(SequenceNumber32(1));
}

PfabricLeanReceiver::~PfabricLeanReceiver()
{
    m_synAckEvent.Cancel();
}

void
PfabricLeanReceiver::NoteEcn(const TcpHeader& header, Ipv4Header::EcnType ecn)
{
    // TcpSocketBase::ForwardUp, then DoForwardUp's CWR check; TcpDctcp's CE state machine ends
    // the echo at the first unmarked ECN-capable segment.
    if (m_settings.echo == NO_ECN)
    {
        return;
    }
    if (ecn == Ipv4Header::ECN_CE && m_ecnCeSeq < header.GetSequenceNumber())
    {
        m_ecnCeSeq = header.GetSequenceNumber();
        m_echoing = true;
        return;
    }
    if (ecn != Ipv4Header::ECN_NotECT && m_settings.echo == DCTCP_ECN)
    {
        m_echoing = false;
    }
    if (header.GetFlags() & TcpHeader::CWR)
    {
        m_echoing = false;
    }
}

void
PfabricLeanReceiver::NoteHandshakeAck(const TcpHeader& header)
{
    if (!m_established && (header.GetFlags() & TcpHeader::ACK) &&
        header.GetAckNumber() == SequenceNumber32(1))
    {
        m_established = true;
        m_synAckEvent.Cancel();
    }
}

void
PfabricLeanReceiver::ReceiveEmpty(const TcpHeader& header, Ipv4Header::EcnType ecn)
{
    NoteHandshakeAck(header);
    NoteEcn(header, ecn);
}

void
PfabricLeanReceiver::ReceiveSyn(const TcpHeader& header)
{
    if (m_established)
    {
        return; // TcpSocketBase::ProcessEstablished ignores a SYN
    }
    const uint8_t ecnSyn = TcpHeader::CWR | TcpHeader::ECE;
    const bool ecn = m_settings.echo != NO_ECN && (header.GetFlags() & ecnSyn) == ecnSyn;
    SendSynAck(ecn ? TcpHeader::SYN | TcpHeader::ACK | TcpHeader::ECE
                   : TcpHeader::SYN | TcpHeader::ACK,
               header.GetSequenceNumber());
}

void
PfabricLeanReceiver::SendSynAck(uint8_t flags, SequenceNumber32 synSeq)
{
    if (m_established)
    {
        return;
    }
    if (m_synAcksLeft == 0)
    {
        // ns-3's socket gives up here and closes; no SYN-ACK more.
        NS_LOG_WARN("no SYN-ACK left to send to " << m_peer << ":" << m_peerPort);
        return;
    }
    const Time timeout = PfabricLeanSender::TakeSynTimeout(m_settings.synAckTimeout,
                                                           m_settings.synRetries,
                                                           m_synAcksLeft);
    TcpHeader synAck;
    synAck.SetFlags(flags);
    synAck.SetSourcePort(m_localPort);
    synAck.SetDestinationPort(m_peerPort);
    synAck.SetSequenceNumber(SequenceNumber32(0));
    synAck.SetAckNumber(synSeq + SequenceNumber32(1));
    synAck.SetWindowSize(PfabricFlowSender::ADVERTISED_WINDOW);
    PfabricLeanSender::AddSynOptions(synAck);
    Ptr<Packet> segment = Create<Packet>();
    if (m_settings.tagAcks)
    {
        PfabricPriorityTag::Set(segment, 0);
    }
    m_transport->Send(segment, synAck, m_peer, m_settings.ackEcn);
    if (m_settings.synAckTimeout.IsStrictlyPositive() && m_synAckEvent.IsExpired())
    {
        m_synAckEvent =
            Simulator::Schedule(timeout, &PfabricLeanReceiver::SendSynAck, this, flags, synSeq);
    }
}

uint32_t
PfabricLeanReceiver::Receive(Ptr<Packet> payload, const TcpHeader& header, Ipv4Header::EcnType ecn)
{
    NoteHandshakeAck(header);
    NoteEcn(header, ecn);
    uint32_t delivered = 0;
    if (payload->GetSize() > 0 && m_rxBuffer->Add(payload, header))
    {
        delivered = m_rxBuffer->Available();
        if (delivered > 0)
        {
            m_rxBuffer->Extract(delivered);
        }
    }
    // Every data segment is acknowledged at once, in order or not, new or duplicate.
    TcpHeader ack;
    ack.SetFlags(m_echoing ? TcpHeader::ACK | TcpHeader::ECE : TcpHeader::ACK);
    ack.SetSourcePort(m_localPort);
    ack.SetDestinationPort(m_peerPort);
    ack.SetSequenceNumber(SequenceNumber32(1));
    ack.SetAckNumber(m_rxBuffer->NextRxSequence());
    ack.SetWindowSize(PfabricFlowSender::ADVERTISED_WINDOW);
    TcpOptionSack::SackList blocks = m_rxBuffer->GetSackList();
    if (!blocks.empty())
    {
        // As TcpSocketBase::AddOptionSack: as many blocks as the option space holds.
        uint8_t allowed = (ack.GetMaxOptionLength() - ack.GetOptionLength() - 2) / 8;
        Ptr<TcpOptionSack> option = CreateObject<TcpOptionSack>();
        for (auto block = blocks.begin(); allowed > 0 && block != blocks.end(); ++block, --allowed)
        {
            option->AddSackBlock(*block);
        }
        ack.AppendOption(option);
    }
    Ptr<Packet> segment = Create<Packet>();
    if (m_settings.tagAcks)
    {
        PfabricPriorityTag::Set(segment, 0);
        if (m_trafficClass)
        {
            PfabricClassTag::Set(segment, *m_trafficClass);
        }
    }
    m_transport->Send(segment, ack, m_peer, m_settings.ackEcn);
    return delivered;
}

} // namespace ns3
