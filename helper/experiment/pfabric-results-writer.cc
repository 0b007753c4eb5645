/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A run's result files: fct.csv, a row per flow (PfabricResultsWriter), and meta.json's ordered
// JSON (PfabricJsonObject), each written whole.

#include "pfabric-results-writer.h"

#include "ns3/pfabric-atomic-file.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace ns3
{

PfabricJsonObject&
PfabricJsonObject::AddString(const std::string& key, const std::string& value)
{
    return AddRaw(key, Quote(value));
}

PfabricJsonObject&
PfabricJsonObject::AddNumber(const std::string& key, double value)
{
    return AddRaw(key, FormatNumber(value));
}

PfabricJsonObject&
PfabricJsonObject::AddInteger(const std::string& key, uint64_t value)
{
    return AddRaw(key, std::to_string(value));
}

PfabricJsonObject&
PfabricJsonObject::AddBool(const std::string& key, bool value)
{
    return AddRaw(key, value ? "true" : "false");
}

PfabricJsonObject&
PfabricJsonObject::AddObject(const std::string& key, const PfabricJsonObject& value)
{
    m_members.push_back({key, "", std::make_shared<PfabricJsonObject>(value)});
    return *this;
}

PfabricJsonObject&
PfabricJsonObject::AddRaw(const std::string& key, const std::string& json)
{
    m_members.push_back({key, json, nullptr});
    return *this;
}

std::vector<std::string>
PfabricJsonObject::GetKeys() const
{
    std::vector<std::string> keys;
    for (const Member& member : m_members)
    {
        keys.push_back(member.key);
    }
    return keys;
}

std::string
PfabricJsonObject::Format(int indent) const
{
    const std::string pad(indent, ' ');
    std::ostringstream out;
    out << "{\n";
    for (std::size_t i = 0; i < m_members.size(); ++i)
    {
        const Member& member = m_members[i];
        out << pad << Quote(member.key) << ": "
            << (member.object ? member.object->Format(indent + 2) : member.json)
            << (i + 1 < m_members.size() ? ",\n" : "\n");
    }
    out << std::string(indent > 2 ? indent - 2 : 0, ' ') << "}";
    return out.str();
}

std::string
PfabricJsonObject::Quote(const std::string& text)
{
    std::ostringstream out;
    out << '"';
    for (char c : text)
    {
        switch (c)
        {
        case '"':
            out << "\\\"";
            break;
        case '\\':
            out << "\\\\";
            break;
        case '\n':
            out << "\\n";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20)
            {
                out << "\\u" << std::hex << std::setw(4) << std::setfill('0') << int(c) << std::dec;
            }
            else
            {
                out << c;
            }
        }
    }
    out << '"';
    return out.str();
}

std::string
PfabricJsonObject::FormatNumber(double value)
{
    std::ostringstream out;
    out << std::setprecision(15) << value;
    return out.str();
}

namespace
{

/**
 * @brief The columns every per-flow file starts with: flow_id,src,dst,size_bytes,start_s.
 * @param out the stream (fixed, nanosecond precision)
 * @param flow the flow
 */
void
WriteFlowColumns(std::ostream& out, const PfabricFlow& flow)
{
    out << flow.id << "," << flow.src << "," << flow.dst << "," << flow.bytes << ","
        << flow.start.GetSeconds();
}

} // namespace

PfabricResultsWriter::PfabricResultsWriter()
    : m_deadlineColumns(false),
      m_classColumn(false)
{
}

bool
PfabricResultsWriter::IsDeadlineMet(const FlowResult& result)
{
    return result.flow.deadline != Time::Max() && !result.fct.IsNegative() &&
           result.flow.start + result.fct <= result.flow.deadline;
}

void
PfabricResultsWriter::SetDeadlineColumns(bool on)
{
    m_deadlineColumns = on;
}

std::string
PfabricResultsWriter::Open(const std::string& directory, const std::string& option)
{
    m_directory = directory;
    m_created.clear();
    m_written.clear();
    std::error_code code;
    if (!std::filesystem::is_directory(m_directory, code))
    {
        // The levels missing now, the run directory first: what a failure removes again, and
        // only those (--out=a/b/c made a and b too, and left them when the run was refused).
        for (std::filesystem::path level(m_directory);
             !level.empty() && level != level.root_path() &&
             !std::filesystem::exists(std::filesystem::symlink_status(level, code));
             level = level.parent_path())
        {
            const std::string name = level.filename().string();
            if (name != "" && name != "." && name != "..") // "a/b/", "a/./b", "a/../b"
            {
                m_created.push_back(level.string());
            }
        }
        CreatedDirectories() = m_created;
        std::filesystem::create_directories(m_directory, code);
        if (code)
        {
            Abandon(); // the levels it made before it failed
            return option + "=" + m_directory + ": cannot create the directory (" + code.message() +
                   ")";
        }
    }
    std::string probe = m_directory + "/.write-test";
    bool writable = static_cast<bool>(std::ofstream(probe) << "");
    std::remove(probe.c_str());
    if (!writable)
    {
        Abandon();
        return option + "=" + m_directory + ": the directory cannot be written";
    }
    return "";
}

void
PfabricResultsWriter::Abandon()
{
    for (const std::string& file : m_written)
    {
        std::remove(file.c_str());
    }
    m_written.clear();
    for (const std::string& level : m_created)
    {
        // Only an empty directory goes: a level holding another's file stays, and the levels
        // above it with it. A level never made (create_directories failed at it or below it,
        // as for a name too long: the ninth probe found its parents left) is skipped.
        std::error_code code;
        if (!std::filesystem::exists(std::filesystem::symlink_status(level, code)))
        {
            continue;
        }
        std::filesystem::remove(level, code);
        if (code)
        {
            break;
        }
    }
    m_created.clear();
    CreatedDirectories().clear();
}

std::vector<std::string>&
PfabricResultsWriter::CreatedDirectories()
{
    static std::vector<std::string> created;
    return created;
}

const std::vector<std::string>&
PfabricResultsWriter::GetCreatedDirectories()
{
    return CreatedDirectories();
}

const std::string&
PfabricResultsWriter::GetDirectory() const
{
    return m_directory;
}

void
PfabricResultsWriter::SetClassColumn(bool enable)
{
    m_classColumn = enable;
}

void
PfabricResultsWriter::AddColumn(const std::string& name, Column value)
{
    m_columns.emplace_back(name, std::move(value));
}

bool
PfabricResultsWriter::WriteFcts(const std::vector<FlowResult>& results, std::string* error) const
{
    std::ostringstream out;
    out << "flow_id,src,dst,size_bytes,start_s,fct_s,ideal_fct_s,timeouts,completed"
        << (m_deadlineColumns ? ",deadline_s,met,terminated" : "")
        << (m_classColumn ? ",traffic_class" : "");
    for (const auto& column : m_columns)
    {
        out << "," << column.first;
    }
    out << "\n";
    out << std::fixed << std::setprecision(9);
    for (const FlowResult& r : results)
    {
        WriteFlowColumns(out, r.flow);
        out << ",";
        if (!r.fct.IsNegative())
        {
            out << r.fct.GetSeconds();
        }
        out << "," << r.idealFct.GetSeconds() << "," << r.timeouts << ","
            << (r.fct.IsNegative() ? 0 : 1);
        if (m_deadlineColumns)
        {
            const Time deadline = r.flow.deadline;
            if (deadline == Time::Max())
            {
                out << ",,";
            }
            else
            {
                out << "," << deadline.GetSeconds() << "," << (IsDeadlineMet(r) ? 1 : 0);
            }
            out << "," << (r.terminated ? 1 : 0);
        }
        if (m_classColumn)
        {
            out << "," << unsigned(r.flow.trafficClass);
        }
        for (const auto& column : m_columns)
        {
            out << "," << column.second(r);
        }
        out << "\n";
    }
    return WriteFile("fct.csv", out.str(), error);
}

bool
PfabricResultsWriter::WriteIdealFcts(const std::vector<FlowResult>& results,
                                     std::string* error) const
{
    std::ostringstream out;
    out << "flow_id,src,dst,size_bytes,start_s,ideal_fct_s\n";
    out << std::fixed << std::setprecision(9);
    for (const FlowResult& r : results)
    {
        WriteFlowColumns(out, r.flow);
        out << "," << r.idealFct.GetSeconds() << "\n";
    }
    return WriteFile("ideal_fct.csv", out.str(), error);
}

bool
PfabricResultsWriter::WriteMeta(const PfabricJsonObject& meta, std::string* error) const
{
    return WriteFile("meta.json", meta.Format() + "\n", error);
}

bool
PfabricResultsWriter::WriteFile(const std::string& name,
                                const std::string& text,
                                std::string* error) const
{
    const std::string path = m_directory + "/" + name;
    if (!pfabric::WriteFileAtomically(path, text, error))
    {
        return false;
    }
    m_written.push_back(path);
    return true;
}

} // namespace ns3
