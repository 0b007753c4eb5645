/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricDctcp: ns-3's DCTCP whose window cut keeps at least a segment, as the original ns-2 code.

#include "pfabric-dctcp.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricDctcp");

NS_OBJECT_ENSURE_REGISTERED(PfabricDctcp);

TypeId
PfabricDctcp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfabricDctcp")
            .SetParent<TcpDctcp>()
            .SetGroupName("Pfabric")
            .AddConstructor<PfabricDctcp>()
            .AddAttribute("MinWindow",
                          "The fewest segments a DCTCP cut leaves of the window and the "
                          "slow-start threshold (1, the original ns-2 code's window floor; "
                          "Linux's DCTCP keeps 2). 0: none, TcpDctcp's own cut, which can fall "
                          "below one segment and then stall the sender until its retransmission "
                          "timeout.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&PfabricDctcp::m_minWindow),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

PfabricDctcp::PfabricDctcp()
    : TcpDctcp(),
      m_minWindow(0) // the attribute's default replaces it on construction
{
    NS_LOG_FUNCTION(this);
}

PfabricDctcp::PfabricDctcp(const PfabricDctcp& other)
    : TcpDctcp(other),
      m_minWindow(other.m_minWindow)
{
    NS_LOG_FUNCTION(this);
}

std::string
PfabricDctcp::GetName() const
{
    return "PfabricDctcp";
}

uint32_t
PfabricDctcp::GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight)
{
    NS_LOG_FUNCTION(this << tcb << bytesInFlight);
    return std::max(TcpDctcp::GetSsThresh(tcb, bytesInFlight), m_minWindow * tcb->m_segmentSize);
}

Ptr<TcpCongestionOps>
PfabricDctcp::Fork()
{
    return CopyObject<PfabricDctcp>(this);
}

} // namespace ns3
