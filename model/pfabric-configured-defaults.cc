/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricConfiguredDefaults: which attribute defaults Config::SetDefault has replaced.

#include "pfabric-configured-defaults.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

namespace
{

/**
 * @param tid a type
 * @param name an attribute of it or of a parent
 * @param[out] info the attribute
 * @return the type that declares it
 */
TypeId
Declaring(TypeId tid, const std::string& name, TypeId::AttributeInformation* info)
{
    for (TypeId type = tid;; type = type.GetParent())
    {
        for (std::size_t i = 0; i < type.GetAttributeN(); ++i)
        {
            if (type.GetAttribute(i).name == name)
            {
                *info = type.GetAttribute(i);
                return type;
            }
        }
        NS_ABORT_MSG_IF(type == type.GetParent(), tid.GetName() << " has no attribute " << name);
    }
}

} // namespace

bool
PfabricConfiguredDefaults::IsConfigured(TypeId tid, const std::string& name)
{
    return !ListConfigured(tid, {name}).empty();
}

std::vector<std::string>
PfabricConfiguredDefaults::ListConfigured(TypeId tid)
{
    std::vector<std::string> own;
    for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        own.push_back(tid.GetAttribute(i).name);
    }
    return ListConfigured(tid, own);
}

std::vector<std::string>
PfabricConfiguredDefaults::ListConfigured(TypeId tid, const std::vector<std::string>& names)
{
    std::vector<std::string> configured;
    for (const std::string& name : names)
    {
        TypeId::AttributeInformation info;
        const TypeId declaring = Declaring(tid, name, &info);
        // SetDefault replaces the value object; Config::Reset restores the declared one.
        if (info.initialValue != info.originalInitialValue)
        {
            configured.push_back(declaring.GetName() + "::" + name);
        }
    }
    return configured;
}

std::string
PfabricConfiguredDefaults::FindUnmadeTypeDefault(TypeId role,
                                                 const std::string& roleName,
                                                 const std::vector<TypeId>& made,
                                                 std::string* why)
{
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId type = TypeId::GetRegistered(i);
        const bool created = std::any_of(made.begin(), made.end(), [&type](const TypeId& m) {
            return m == type || m.IsChildOf(type);
        });
        const std::vector<std::string> configured =
            !type.IsChildOf(role) || created ? std::vector<std::string>{} : ListConfigured(type);
        if (configured.empty())
        {
            continue;
        }
        std::string theirs;
        for (const TypeId& m : made)
        {
            if ((m == role || m.IsChildOf(role)) && theirs.find(m.GetName()) == std::string::npos)
            {
                theirs += (theirs.empty() ? "" : ", ") + m.GetName();
            }
        }
        *why = "this run's " + roleName + " are " + theirs + ", and it creates no " +
               type.GetName() + ", so its default changes nothing";
        return configured.front();
    }
    return "";
}

} // namespace ns3
