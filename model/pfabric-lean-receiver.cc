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
#include "pfabric-priority-tag.h"

#include "ns3/packet.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-option-sack.h"
#include "ns3/tcp-rx-buffer.h"

#include <limits>

namespace ns3
{

PfabricLeanReceiver::PfabricLeanReceiver(PfabricHostTransport* transport,
                                         Ipv4Address peer,
                                         uint16_t peerPort,
                                         uint16_t localPort,
                                         bool tagAcks)
    : m_transport(transport),
      m_peer(peer),
      m_peerPort(peerPort),
      m_localPort(localPort),
      m_tagAcks(tagAcks),
      m_rxBuffer(CreateObject<TcpRxBuffer>())
{
    m_rxBuffer->SetMaxBufferSize(PfabricFlowSender::RECEIVE_BUFFER_BYTES);
    // The sender's first byte is 1: its handshake's SYN took 0 (PfabricFlowSender).
    m_rxBuffer->SetNextRxSequence(SequenceNumber32(1));
}

PfabricLeanReceiver::~PfabricLeanReceiver() = default;

uint32_t
PfabricLeanReceiver::Receive(Ptr<Packet> payload, const TcpHeader& header)
{
    if (std::optional<uint8_t> trafficClass = PfabricClassTag::Find(payload))
    {
        m_trafficClass = trafficClass;
    }
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
    ack.SetFlags(TcpHeader::ACK);
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
    if (m_tagAcks)
    {
        PfabricPriorityTag::Set(segment, 0);
    }
    if (m_trafficClass)
    {
        PfabricClassTag::Set(segment, *m_trafficClass);
    }
    m_transport->Send(segment, ack, m_peer);
    return delivered;
}

} // namespace ns3
