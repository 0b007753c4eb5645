/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_RESULTS_WRITER_H
#define PFABRIC_RESULTS_WRITER_H

#include "ns3/nstime.h"
#include "ns3/pfabric-flow-list.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 * @brief A JSON object whose members keep the order they were added in: the provenance of a
 * run (meta.json), filled by the parts that know each fact.
 */
class PfabricJsonObject
{
  public:
    /**
     * @brief Add a string member.
     * @param key the name
     * @param value the text (escaped as JSON needs)
     * @return this
     */
    PfabricJsonObject& AddString(const std::string& key, const std::string& value);
    /**
     * @brief Add a number, as the shortest text that reads back the same.
     * @param key the name
     * @param value the number
     * @return this
     */
    PfabricJsonObject& AddNumber(const std::string& key, double value);
    /**
     * @brief Add an integer.
     * @param key the name
     * @param value the integer
     * @return this
     */
    PfabricJsonObject& AddInteger(const std::string& key, uint64_t value);
    /**
     * @brief Add true or false.
     * @param key the name
     * @param value the truth value
     * @return this
     */
    PfabricJsonObject& AddBool(const std::string& key, bool value);
    /**
     * @brief Add a nested object.
     * @param key the name
     * @param value the object
     * @return this
     */
    PfabricJsonObject& AddObject(const std::string& key, const PfabricJsonObject& value);
    /**
     * @brief Add a member whose value is already JSON text (e.g. an array).
     * @param key the name
     * @param json the value's JSON text
     * @return this
     */
    PfabricJsonObject& AddRaw(const std::string& key, const std::string& json);

    /**
     * @brief The object as JSON text, one member per line.
     * @param indent spaces before each member of this object
     * @return the text, from "{" to "}" (no final newline)
     */
    std::string Format(int indent = 2) const;

    /// @return the members' keys, in the order added
    std::vector<std::string> GetKeys() const;

    /**
     * @param text any text
     * @return the text as a JSON string, quotes included
     */
    static std::string Quote(const std::string& text);
    /**
     * @param value a number
     * @return the shortest text that reads back the same (15 significant digits)
     */
    static std::string FormatNumber(double value);

  private:
    /// A member: its JSON text, or a nested object (formatted with the enclosing indent).
    struct Member
    {
        std::string key;                           //!< the name
        std::string json;                          //!< the value's text, unless nested
        std::shared_ptr<PfabricJsonObject> object; //!< the nested object, if any
    };

    std::vector<Member> m_members; //!< in the order added
};

/**
 * @ingroup pfabric
 * @brief A run directory and the files of a run in it: fct.csv, ideal_fct.csv, meta.json.
 *
 * Every file is written to a temporary name and renamed, so that a run directory never holds a
 * half-written file; a failure is reported in one line naming the file.
 *
 * fct.csv: flow_id,src,dst,size_bytes,start_s,fct_s,ideal_fct_s,timeouts,completed (fct_s
 * empty, completed 0 and the timeouts so far for an unfinished flow; with SetDeadlineColumns
 * deadline_s, met and terminated, with SetClassColumn traffic_class, then the columns added by
 * AddColumn, in that order); ideal_fct.csv: flow_id,src,dst,size_bytes,start_s,ideal_fct_s. Times
 * in seconds to the nanosecond.
 */
class PfabricResultsWriter
{
  public:
    /// One flow's outcome.
    struct FlowResult
    {
        PfabricFlow flow;        //!< the flow
        Time fct;                //!< completion time; negative: unfinished
        Time idealFct;           //!< the fabric's idle-path FCT
        uint64_t timeouts;       //!< its connection's retransmission timeouts during the flow
                                 //!< (unfinished: until the run stopped)
        bool terminated = false; //!< given up at its deadline (fct negative)
    };

    PfabricResultsWriter();

    /**
     * @brief Whether a flow met its deadline: it completed, and its sender saw the last byte
     * acknowledged at or before the deadline (fct.csv's met column).
     * @param result the flow's outcome
     * @return false also for a flow without a deadline
     */
    static bool IsDeadlineMet(const FlowResult& result);

    /**
     * @brief Use this run directory: create it if missing, with any missing parent, and check
     * that it can be written.
     * @param directory the run directory
     * @param option the command-line option that named it, for the error message
     * @return an empty string, or what is wrong (one line); the directories created here are
     *         removed again on failure
     */
    std::string Open(const std::string& directory, const std::string& option = "--out");

    /**
     * @brief After a failure (a parameter refused after Open, a file that could not be written):
     * remove the files this writer wrote and every directory level Open created (the run
     * directory and the parents that were missing; never one that existed before), so that a run
     * that fails leaves nothing behind.
     */
    void Abandon();

    /**
     * @brief The directories that Open last created and no Abandon removed, the run directory
     * first and its topmost created parent last, for a program that must stop where no writer is
     * at hand (out of memory: its new handler removes them, those still empty).
     * @return the directories; empty if none
     */
    static const std::vector<std::string>& GetCreatedDirectories();

    /// @return the run directory
    const std::string& GetDirectory() const;

    /**
     * @brief Write fct.csv with the deadline columns (deadline_s, met, terminated) or without
     * (the default).
     * @param on with the deadline columns
     */
    void SetDeadlineColumns(bool on);

    /**
     * @brief Add each flow's traffic class to fct.csv, as a last column traffic_class (the
     * pfabric-classes experiment; the other experiments' fct.csv is unchanged).
     * @param enable whether to write the column
     */
    void SetClassColumn(bool enable);

    /// A column of fct.csv added by a mode of the experiment: its value for a flow.
    using Column = std::function<std::string(const FlowResult&)>;

    /**
     * @brief Add a last column to fct.csv (after those added before): a mode of the experiment
     * (e.g. PfabricMeasurementWindow's measured) adds its own.
     * @param name the column's header
     * @param value its value for each flow
     */
    void AddColumn(const std::string& name, Column value);

    /**
     * @brief Write fct.csv.
     * @param results every flow's outcome, in flow-id order
     * @param[out] error on failure, one line
     * @return true on success
     */
    bool WriteFcts(const std::vector<FlowResult>& results, std::string* error) const;

    /**
     * @brief Write ideal_fct.csv.
     * @param results every flow (fct and timeouts are not written)
     * @param[out] error on failure, one line
     * @return true on success
     */
    bool WriteIdealFcts(const std::vector<FlowResult>& results, std::string* error) const;

    /**
     * @brief Write meta.json.
     * @param meta the run's provenance
     * @param[out] error on failure, one line
     * @return true on success
     */
    bool WriteMeta(const PfabricJsonObject& meta, std::string* error) const;

    /**
     * @brief Write another file of the run to the run directory (a program's own, e.g.
     * pfabric-incast's queries.csv), whole or not at all; Abandon removes it too.
     * @param name the file's name in the run directory
     * @param text its contents
     * @param[out] error on failure, one line
     * @return true on success
     */
    bool WriteFile(const std::string& name, const std::string& text, std::string* error) const;

  private:
    std::string m_directory;                    //!< the run directory
    std::vector<std::string> m_created;         //!< what Open created, the run directory first
    mutable std::vector<std::string> m_written; //!< the files written, for Abandon

    /// @return the directories Open last created (GetCreatedDirectories), to set
    static std::vector<std::string>& CreatedDirectories();
    bool m_deadlineColumns; //!< fct.csv has deadline_s, met, terminated
    bool m_classColumn;     //!< fct.csv has a traffic_class column
    std::vector<std::pair<std::string, Column>> m_columns; //!< added columns: name, value
};

} // namespace ns3

#endif /* PFABRIC_RESULTS_WRITER_H */
