/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A program's options defined once (PfabricOptionTable): registration, checks and provenance
// from one table.

#include "pfabric-option-table.h"

#include "ns3/fatal-error.h"

namespace ns3
{

PfabricOptionTable::Option&
PfabricOptionTable::Option::Check(Checker check)
{
    m_check = std::move(check);
    return *this;
}

PfabricOptionTable::Option&
PfabricOptionTable::Option::Record(Recorder record)
{
    m_record = std::move(record);
    return *this;
}

PfabricOptionTable::Option&
PfabricOptionTable::Option::RecordTime(const std::string& key, Time::Unit unit)
{
    Time* time = m_time;
    m_record = [key, time, unit](PfabricJsonObject& json) {
        json.AddNumber(key, time->ToDouble(unit));
    };
    return *this;
}

PfabricOptionTable::Option&
PfabricOptionTable::Option::NotRecorded()
{
    m_record = nullptr;
    return *this;
}

PfabricOptionTable::Option&
PfabricOptionTable::Option::Listed(bool listed)
{
    m_listed = listed;
    if (!listed)
    {
        m_register = [](PfabricCommandLine&, const std::string&, const std::string&) {};
    }
    return *this;
}

PfabricOptionTable::Option&
PfabricOptionTable::Option::Help(const std::string& help)
{
    m_help = help;
    return *this;
}

PfabricOptionTable::Option&
PfabricOptionTable::Get(const std::string& name)
{
    for (Option& option : m_options)
    {
        if (option.m_name == name)
        {
            return option;
        }
    }
    NS_FATAL_ERROR("PfabricOptionTable: no option " << name);
}

PfabricOptionTable::Option&
PfabricOptionTable::Append(const std::string& name, const std::string& help, Registrar add)
{
    m_options.emplace_back();
    Option& option = m_options.back();
    option.m_name = name;
    option.m_help = help;
    option.m_register = std::move(add);
    option.m_time = nullptr;
    return option;
}

PfabricOptionTable::Option&
PfabricOptionTable::AddTime(const std::string& name,
                            const std::string& help,
                            Time& value,
                            const std::string& bareUnit)
{
    Option& option = Append(
        name,
        help,
        [&value, bareUnit](PfabricCommandLine& cmd,
                           const std::string& name,
                           const std::string& help) { cmd.AddTime(name, help, value, bareUnit); });
    option.m_time = &value;
    return option;
}

void
PfabricOptionTable::AddRenamed(const std::string& oldName,
                               const std::string& newName,
                               const std::string& unit)
{
    Append(oldName,
           "",
           [newName, unit](PfabricCommandLine& cmd,
                           const std::string& oldName,
                           const std::string&) { cmd.AddRenamed(oldName, newName, unit); });
}

void
PfabricOptionTable::AddPart(std::function<void(PfabricCommandLine&)> add,
                            Checker check,
                            Recorder record)
{
    Option& option =
        Append("", "", [add](PfabricCommandLine& cmd, const std::string&, const std::string&) {
            add(cmd);
        });
    option.m_check = std::move(check);
    option.m_record = std::move(record);
}

void
PfabricOptionTable::Register(PfabricCommandLine& cmd) const
{
    m_cmd = &cmd;
    for (const Option& option : m_options)
    {
        option.m_register(cmd, option.m_name, option.m_help);
    }
}

std::string
PfabricOptionTable::Given(const std::string& name, const std::string& value) const
{
    const std::string given = m_cmd != nullptr ? m_cmd->DescribeGiven(name) : "";
    return given.empty() ? "--" + name + "=" + value : given;
}

std::string
PfabricOptionTable::ShapesNothing(const std::string& given, const std::string& why)
{
    return given + ": " + why + ", so it would shape nothing; leave it out";
}

std::string
PfabricOptionTable::Check() const
{
    for (const Option& option : m_options)
    {
        if (option.m_check)
        {
            std::string error = option.m_check();
            if (!error.empty())
            {
                return error;
            }
        }
    }
    return "";
}

void
PfabricOptionTable::Record(PfabricJsonObject& parameters) const
{
    for (const Option& option : m_options)
    {
        if (option.m_record)
        {
            option.m_record(parameters);
        }
    }
}

void
PfabricOptionTable::AddUnsetKeys(std::vector<std::string>* keys) const
{
    for (const Option& option : m_options)
    {
        if (option.m_record && (m_cmd == nullptr || !option.m_listed))
        {
            PfabricJsonObject recorded;
            option.m_record(recorded);
            const std::vector<std::string> its = recorded.GetKeys();
            keys->insert(keys->end(), its.begin(), its.end());
        }
    }
}

bool
PfabricOptionTable::IsEmpty() const
{
    return m_options.empty();
}

} // namespace ns3
