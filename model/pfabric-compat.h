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
 * The few ns-3 APIs that changed between the releases this module supports (3.37 to 3.48),
 * each wrapped once here so that the rest of the module reads like plain ns-3. ns-3 has no
 * version macros, so the wrappers select the available API by overload resolution.
 */

#include "ns3/enum.h"

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

} // namespace compat

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

} // namespace pfabric
} // namespace ns3

#endif /* PFABRIC_COMPAT_H */
