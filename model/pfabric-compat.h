/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_COMPAT_H
#define PFABRIC_COMPAT_H

/**
 * @file
 * @ingroup pfabric
 * The few ns-3 APIs that changed between the releases this module supports (3.35 to 3.48;
 * README.md, "Supported ns-3 versions", says how each is checked), each wrapped once here so
 * that the rest of the module reads like plain ns-3. ns-3 has no
 * version macros, so the wrappers select the available API by overload resolution.
 */

#include "ns3/enum.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/tcp-recovery-ops.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/tcp-socket-state.h"

#include <type_traits>
#include <utility>

namespace ns3
{
namespace pfabric
{
namespace compat
{

/// EnumValue became a class template (EnumValue<T>) in ns-3.41; before, it held an int.
template <typename Enum, typename Target>
auto
MakeEnumAccessorFor(Target target, int) -> decltype(MakeEnumAccessor<Enum>(target))
{
    return MakeEnumAccessor<Enum>(target);
}

/// Overload for ns-3 releases before EnumValue<T>.
template <typename Enum, typename Target>
auto
MakeEnumAccessorFor(Target target, long) -> decltype(MakeEnumAccessor(target))
{
    return MakeEnumAccessor(target);
}

/// TcpRecoveryOps::DoRecovery gained an isDupAck parameter in ns-3.43.
template <typename Ops>
auto
DoRecoveryFor(Ops& ops, Ptr<TcpSocketState> tcb, uint32_t delivered, bool isDupAck, int)
    -> decltype(ops.DoRecovery(tcb, delivered, isDupAck))
{
    return ops.DoRecovery(tcb, delivered, isDupAck);
}

/// Overload for ns-3 releases before it.
template <typename Ops>
auto
DoRecoveryFor(Ops& ops, Ptr<TcpSocketState> tcb, uint32_t delivered, bool /* isDupAck */, long)
    -> decltype(ops.DoRecovery(tcb, delivered))
{
    return ops.DoRecovery(tcb, delivered);
}

/// Whether TcpRecoveryOps::DoRecovery takes isDupAck.
template <typename Ops, typename = void>
struct RecoveryTakesDupAck : std::false_type
{
};

/// It does.
template <typename Ops>
struct RecoveryTakesDupAck<
    Ops,
    std::void_t<decltype(std::declval<Ops&>()
                             .DoRecovery(std::declval<Ptr<TcpSocketState>>(), uint32_t{}, bool{}))>>
    : std::true_type
{
};

/**
 * Whether Base declares its own GetInstanceTypeId. TcpSocketBase did up to ns-3.44 (answering
 * with its own TypeId whatever the object was created as); from ns-3.45 Object's is final and
 * answers with the TypeId the object was created as.
 */
template <typename Base>
constexpr bool DECLARES_INSTANCE_TYPE_ID =
    std::is_same_v<decltype(&Base::GetInstanceTypeId), TypeId (Base::*)() const>;

/// Base as it is: nothing hides the created TypeId (ns-3.45 and later).
template <typename Base, bool = DECLARES_INSTANCE_TYPE_ID<Base>>
class InstanceTypeIdAsCreated : public Base
{
};

/// Base with GetInstanceTypeId answering with the TypeId the object was created as (Object's).
template <typename Base>
class InstanceTypeIdAsCreated<Base, true> : public Base
{
  public:
    TypeId GetInstanceTypeId() const override
    {
        return Object::GetInstanceTypeId();
    }
};

/// TcpSocketState::m_isCwndLimited (ns-3.43): set it.
template <typename State>
auto
SetCwndLimitedFor(State& tcb, bool limited, int) -> decltype(tcb.m_isCwndLimited = limited, void())
{
    tcb.m_isCwndLimited = limited;
}

/// Before ns-3.43 there is no such field.
template <typename State>
void
SetCwndLimitedFor(State& /* tcb */, bool /* limited */, long)
{
}

} // namespace compat

/**
 * @ingroup pfabric
 * @brief Tell congestion controls whether the window limits the sender, as
 * TcpSocketBase::SendDataPacket does from ns-3.43 (TcpCubic and TcpLinuxReno grow only a window
 * that limits); nothing before.
 * @param tcb the connection's state
 * @param limited whether the window is fully used
 */
inline void
SetCwndLimitedCompat(TcpSocketState& tcb, bool limited)
{
    compat::SetCwndLimitedFor(tcb, limited, 0);
}

/**
 * @ingroup pfabric
 * @brief Whether this ns-3 has the TCP loss recovery of ns-3.43 and later, which the lean host's
 * senders follow: an ACK counts the bytes it newly delivered, SACKed ones included
 * (TcpRateOps), not only those it acknowledged cumulatively; fast retransmit resends the
 * segment at the highest ACK and calls it lost one segment earlier; classic ECN leaves
 * retransmissions not ECN-capable. The same release gave TcpRecoveryOps::DoRecovery its isDupAck
 * parameter, which tells the two apart.
 */
constexpr bool TCP_RECOVERY_COUNTS_DELIVERED = compat::RecoveryTakesDupAck<TcpRecoveryOps>::value;

/**
 * @ingroup pfabric
 * @brief MakeEnumAccessor for an attribute of enum type Enum, on every supported ns-3 release.
 * @tparam Enum the enum type of the attribute
 * @tparam Target a member variable or setter/getter of that type
 * @param target the member variable or setter
 * @return the accessor
 */
template <typename Enum, typename Target>
Ptr<const AttributeAccessor>
MakeEnumAccessorCompat(Target target)
{
    return compat::MakeEnumAccessorFor<Enum>(target, 0);
}

/**
 * @ingroup pfabric
 * @brief TcpRecoveryOps::DoRecovery on every supported release.
 * @param ops the recovery algorithm
 * @param tcb the connection's state
 * @param delivered the bytes this ACK delivered
 * @param isDupAck whether the ACK is a duplicate (ignored before ns-3.43)
 */
inline void
DoRecoveryCompat(TcpRecoveryOps& ops, Ptr<TcpSocketState> tcb, uint32_t delivered, bool isDupAck)
{
    compat::DoRecoveryFor(ops, tcb, delivered, isDupAck, 0);
}

/**
 * @ingroup pfabric
 * @brief TcpSocketBase whose GetInstanceTypeId answers with the TypeId the socket was created as
 * on every supported release, so that a subclass's attributes get their defaults and its trace
 * sources and attributes are found by Config paths. Up to ns-3.44 TcpSocketBase answers with its
 * own TypeId and every subclass had to override it; from ns-3.45 Object::GetInstanceTypeId is
 * final and does this itself, and an override does not compile.
 */
using TcpSocketBaseCompat = compat::InstanceTypeIdAsCreated<TcpSocketBase>;

/**
 * @ingroup pfabric
 * @brief An Ipv4RoutingProtocol whose RouteInput() is overridable on every supported release.
 *
 * ns-3.39 changed RouteInput()'s callback parameters from values to const references. This
 * class defines both forms; the one that matches the running ns-3 overrides the base class, the
 * other is an ordinary overload. Both forward to DoRouteInput().
 */
class Ipv4RoutingProtocolCompat : public Ipv4RoutingProtocol
{
  public:
    /// RouteInput() as declared up to ns-3.38.
    bool RouteInput(Ptr<const Packet> p, // NOLINT(modernize-use-override)
                    const Ipv4Header& header,
                    Ptr<const NetDevice> idev,
                    UnicastForwardCallback ucb,
                    MulticastForwardCallback mcb,
                    LocalDeliverCallback lcb,
                    ErrorCallback ecb)
    {
        return DoRouteInput(p, header, idev, ucb, mcb, lcb, ecb);
    }

    /// RouteInput() as declared from ns-3.39.
    bool RouteInput(Ptr<const Packet> p, // NOLINT(modernize-use-override)
                    const Ipv4Header& header,
                    Ptr<const NetDevice> idev,
                    const UnicastForwardCallback& ucb,
                    const MulticastForwardCallback& mcb,
                    const LocalDeliverCallback& lcb,
                    const ErrorCallback& ecb)
    {
        return DoRouteInput(p, header, idev, ucb, mcb, lcb, ecb);
    }

  protected:
    /**
     * @brief Route a received packet; see Ipv4RoutingProtocol::RouteInput.
     * @param p the packet
     * @param header its IPv4 header
     * @param idev the device it arrived on
     * @param ucb called to forward it
     * @param mcb called to forward it as multicast
     * @param lcb called to deliver it locally
     * @param ecb called on a routing error
     * @return whether the packet was handled
     */
    virtual bool DoRouteInput(Ptr<const Packet> p,
                              const Ipv4Header& header,
                              Ptr<const NetDevice> idev,
                              const UnicastForwardCallback& ucb,
                              const MulticastForwardCallback& mcb,
                              const LocalDeliverCallback& lcb,
                              const ErrorCallback& ecb) = 0;
};

} // namespace pfabric
} // namespace ns3

#endif /* PFABRIC_COMPAT_H */
