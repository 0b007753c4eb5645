/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricQueueDisc: the pFabric switch port, priority scheduling and priority dropping in a small
// buffer.

#include "pfabric-queue-disc.h"

#include "pfabric-buffer.h"
#include "pfabric-compat.h"
#include "pfabric-priority-tag.h"
#include "pfabric-transport-ports.h"

#include "ns3/abort.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(PfabricQueueDisc);

TypeId
PfabricQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfabricQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("Pfabric")
            .AddConstructor<PfabricQueueDisc>()
            .AddAttribute(
                "MaxSize",
                "The buffer size, in packets (\"15p\") or bytes (\"22500B\"); sizes "
                "count IP packets with headers. The default is HotNets 2012's 22.5 KB, "
                "about one bandwidth-delay product of a 10 Gb/s fabric.",
                QueueSizeValue(QueueSize("22500B")),
                MakeQueueSizeAccessor(
                    &PfabricQueueDisc::SetBufferSize,
                    static_cast<QueueSize (PfabricQueueDisc::*)() const>(&QueueDisc::GetMaxSize)),
                MakeQueueSizeChecker())
            .AddAttribute(
                "DequeueMode",
                "Which buffered packet a dequeue sends: MostUrgent (ties by TieBreak, "
                "HotNets 2012) or EarliestOfMostUrgentFlow (the earliest buffered "
                "packet of the most urgent packet's flow, SIGCOMM 2013).",
                EnumValue(MOST_URGENT),
                pfabric::MakeEnumAccessorCompat<DequeueMode>(&PfabricQueueDisc::m_dequeueMode),
                MakeEnumChecker(MOST_URGENT,
                                "MostUrgent",
                                EARLIEST_OF_MOST_URGENT_FLOW,
                                "EarliestOfMostUrgentFlow"))
            .AddAttribute("TieBreak",
                          "Which of several equally urgent packets MostUrgent mode sends: "
                          "FirstArrived (the earliest buffered, as the original ns-2 code does) "
                          "or Random (uniformly, as HotNets 2012's text says). "
                          "EarliestOfMostUrgentFlow always takes the earliest.",
                          EnumValue(FIRST_ARRIVED),
                          pfabric::MakeEnumAccessorCompat<TieBreak>(&PfabricQueueDisc::m_tieBreak),
                          MakeEnumChecker(FIRST_ARRIVED, "FirstArrived", RANDOM, "Random"))
            .AddAttribute(
                "AdmissionMode",
                "What an arrival that does not fit displaces: Strict (evict strictly less "
                "urgent packets, least urgent first, as many as it takes, or drop the arrival) "
                "or Ns2 (the original ns-2 code: drop exactly one packet, the least urgent of "
                "those, the arrival included, whose removal alone makes room). The same with "
                "packets of one size.",
                EnumValue(STRICT),
                pfabric::MakeEnumAccessorCompat<AdmissionMode>(&PfabricQueueDisc::m_admissionMode),
                MakeEnumChecker(STRICT, "Strict", NS2, "Ns2"))
            .AddAttribute("UntaggedPriority",
                          "Priority of packets without a PfabricPriorityTag (smaller is more "
                          "urgent): those of senders that tag none, such as ns-3's own TCP or "
                          "this module's baselines (MinTCP's and LineRate's senders tag every "
                          "segment, ACKs and handshakes with 0). The default, 0, ranks them "
                          "with those ACKs, ahead of every tagged data packet.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PfabricQueueDisc::m_untaggedPriority),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

PfabricQueueDisc::PfabricQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::SINGLE_INTERNAL_QUEUE),
      m_dequeueMode(MOST_URGENT),
      m_admissionMode(STRICT),
      m_tieBreak(FIRST_ARRIVED),
      m_untaggedPriority(0),
      m_tieBreaker(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

PfabricQueueDisc::~PfabricQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

std::vector<std::pair<std::string, std::string>>
PfabricQueueDisc::GetAttributesItsModeIgnores() const
{
    if (m_dequeueMode != EARLIEST_OF_MOST_URGENT_FLOW)
    {
        return {};
    }
    return {{"TieBreak", "DequeueMode=EarliestOfMostUrgentFlow"}};
}

void
PfabricQueueDisc::SetBufferSize(QueueSize size)
{
    NS_LOG_FUNCTION(this << size);
    NS_ABORT_MSG_IF(size.GetValue() == 0,
                    "PfabricQueueDisc: MaxSize must hold at least one packet or byte, got "
                        << size);
    QueueDisc::SetMaxSize(size);
}

uint64_t
PfabricQueueDisc::GetPriority(Ptr<const QueueDiscItem> item) const
{
    return PfabricPriorityTag::Get(item->GetPacket(), m_untaggedPriority);
}

int64_t
PfabricQueueDisc::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_tieBreaker->SetStream(stream);
    return 1;
}

bool
PfabricQueueDisc::FlowKey::operator==(const FlowKey& other) const
{
    return addresses == other.addresses && portsAndProtocol == other.portsAndProtocol;
}

PfabricQueueDisc::FlowKey
PfabricQueueDisc::GetFlowKey(Ptr<const QueueDiscItem> item)
{
    Ptr<const Ipv4QueueDiscItem> ipv4 = DynamicCast<const Ipv4QueueDiscItem>(item);
    if (!ipv4)
    {
        // Not IPv4: fall back on ns-3's 5-tuple hash, tagged so it never equals an IPv4 key.
        return {std::numeric_limits<uint64_t>::max(), item->Hash(0)};
    }
    const Ipv4Header& header = ipv4->GetHeader();
    uint64_t addresses = (uint64_t{header.GetSource().Get()} << 32) | header.GetDestination().Get();
    uint64_t ports = pfabric::TransportPorts(item->GetPacket(), header);
    return {addresses, (ports << 8) | header.GetProtocol()};
}

bool
PfabricQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);

    const QueueSize maxSize = GetMaxSize();
    const bool packetMode = maxSize.GetUnit() == QueueSizeUnit::PACKETS;
    const bool readFlow = m_dequeueMode == EARLIEST_OF_MOST_URGENT_FLOW;
    Entry arrival{GetPriority(item),
                  packetMode ? 1 : item->GetSize(),
                  readFlow ? GetFlowKey(item) : FlowKey{},
                  readFlow,
                  {}};
    // A more urgent packet may be arriving: what a peek chose is no longer certain.
    m_peeked.reset();
    const uint64_t limit = maxSize.GetValue();
    // The base class's counters, read directly: GetCurrentSize() would look the unit up again.
    auto occupancy = [this, packetMode]() -> uint64_t {
        return packetMode ? GetNPackets() : GetNBytes();
    };

    const bool fits = occupancy() + arrival.footprint <= limit;
    if (!fits && m_admissionMode == NS2)
    {
        std::size_t victim = Ns2VictimIndex(arrival, occupancy() + arrival.footprint - limit);
        if (victim == m_entries.size())
        {
            NS_LOG_LOGIC("Ns2: dropping arrival with priority " << arrival.priority);
            DropBeforeEnqueue(item, ARRIVAL_DROP);
            return false;
        }
        NS_LOG_LOGIC("Ns2: evicting priority " << m_entries[victim].priority << " for priority "
                                               << arrival.priority);
        DropAfterDequeue(TakeAt(victim), EVICTED_DROP);
    }
    else if (!fits)
    {
        // Room may only come from packets strictly less urgent than the arrival; if they
        // cannot free enough, the arrival is the one to go and nothing is evicted.
        uint64_t evictable = 0;
        for (const Entry& entry : m_entries)
        {
            if (entry.priority > arrival.priority)
            {
                evictable += entry.footprint;
            }
        }
        if (occupancy() + arrival.footprint > limit + evictable)
        {
            NS_LOG_LOGIC("Dropping arrival with priority " << arrival.priority);
            DropBeforeEnqueue(item, ARRIVAL_DROP);
            return false;
        }
        while (occupancy() + arrival.footprint > limit)
        {
            std::size_t victim = LeastUrgentIndex();
            NS_LOG_LOGIC("Evicting priority " << m_entries[victim].priority << " for priority "
                                              << arrival.priority);
            DropAfterDequeue(TakeAt(victim), EVICTED_DROP);
        }
    }

    bool accepted = m_buffer->Enqueue(item);
    NS_ASSERT_MSG(accepted, "PfabricBuffer refused a packet that fits");
    arrival.position = m_buffer->Latest();
    m_entries.push_back(arrival);
    return accepted;
}

Ptr<QueueDiscItem>
PfabricQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    if (m_entries.empty())
    {
        return nullptr;
    }
    return TakeAt(NextIndex());
}

Ptr<const QueueDiscItem>
PfabricQueueDisc::DoPeek()
{
    NS_LOG_FUNCTION(this);
    if (m_entries.empty())
    {
        return nullptr;
    }
    m_peeked = NextIndex();
    return *m_entries[*m_peeked].position;
}

std::size_t
PfabricQueueDisc::NextIndex()
{
    if (m_peeked)
    {
        return *m_peeked;
    }
    return m_dequeueMode == MOST_URGENT ? MostUrgentIndex() : EarliestOfMostUrgentFlowIndex();
}

Ptr<QueueDiscItem>
PfabricQueueDisc::TakeAt(std::size_t index)
{
    m_peeked.reset();
    PfabricBuffer::Position position = m_entries[index].position;
    m_entries.erase(m_entries.begin() + index);
    return m_buffer->DequeueAt(position);
}

std::size_t
PfabricQueueDisc::Ns2VictimIndex(const Entry& arrival, uint64_t excess) const
{
    // The arrival qualifies (the buffer was within its limit without it) and is the latest, so a
    // buffered candidate must be strictly less urgent to be chosen instead.
    std::size_t victim = m_entries.size();
    uint64_t worst = arrival.priority;
    for (std::size_t i = 0; i < m_entries.size(); ++i)
    {
        const Entry& entry = m_entries[i];
        if (entry.footprint >= excess &&
            (entry.priority > worst || (victim < m_entries.size() && entry.priority == worst)))
        {
            victim = i;
            worst = entry.priority;
        }
    }
    return victim;
}

std::size_t
PfabricQueueDisc::LeastUrgentIndex() const
{
    std::size_t least = 0;
    for (std::size_t i = 1; i < m_entries.size(); ++i)
    {
        if (m_entries[i].priority >= m_entries[least].priority)
        {
            least = i;
        }
    }
    return least;
}

std::size_t
PfabricQueueDisc::MostUrgentIndex() const
{
    uint64_t best = std::numeric_limits<uint64_t>::max();
    uint32_t ties = 0;
    std::size_t first = 0; // the earliest buffered of the most urgent
    for (std::size_t i = 0; i < m_entries.size(); ++i)
    {
        if (m_entries[i].priority < best)
        {
            best = m_entries[i].priority;
            ties = 1;
            first = i;
        }
        else if (m_entries[i].priority == best)
        {
            ++ties;
        }
    }
    if (ties == 1 || m_tieBreak == FIRST_ARRIVED)
    {
        return first;
    }
    uint32_t pick = m_tieBreaker->GetInteger(0, ties - 1);
    for (std::size_t i = first;; ++i)
    {
        if (m_entries[i].priority == best && pick-- == 0)
        {
            return i;
        }
    }
}

const PfabricQueueDisc::FlowKey&
PfabricQueueDisc::FlowOf(std::size_t index)
{
    Entry& entry = m_entries[index];
    if (!entry.flowKnown)
    {
        entry.flow = GetFlowKey(*entry.position);
        entry.flowKnown = true;
    }
    return entry.flow;
}

std::size_t
PfabricQueueDisc::EarliestOfMostUrgentFlowIndex()
{
    std::size_t mostUrgent = 0;
    for (std::size_t i = 1; i < m_entries.size(); ++i)
    {
        if (m_entries[i].priority < m_entries[mostUrgent].priority)
        {
            mostUrgent = i;
        }
    }
    for (std::size_t i = 0; i < mostUrgent; ++i)
    {
        if (FlowOf(i) == FlowOf(mostUrgent))
        {
            return i;
        }
    }
    return mostUrgent;
}

bool
PfabricQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(GetNQueueDiscClasses() > 0, "PfabricQueueDisc cannot have child queue discs");
    NS_ABORT_MSG_IF(GetNPacketFilters() > 0, "PfabricQueueDisc does not use packet filters");
    NS_ABORT_MSG_IF(GetNInternalQueues() > 0,
                    "PfabricQueueDisc creates its own buffer; do not add internal queues");
    m_buffer = CreateObject<PfabricBuffer>();
    m_buffer->SetMaxSize(GetMaxSize());
    AddInternalQueue(m_buffer);
    return true;
}

void
PfabricQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
}

void
PfabricQueueDisc::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_buffer = nullptr;
    m_entries.clear();
    m_peeked.reset();
    m_tieBreaker = nullptr;
    QueueDisc::DoDispose();
}

} // namespace ns3
