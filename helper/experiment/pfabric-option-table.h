/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_OPTION_TABLE_H
#define PFABRIC_OPTION_TABLE_H

#include "ns3/nstime.h"
#include "ns3/pfabric-command-line.h"
#include "ns3/pfabric-results-writer.h"

#include <deque>
#include <functional>
#include <string>
#include <type_traits>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief A program's options, each defined once: its name, help, type (the variable it sets),
 * its check and its provenance key; the command line (Register), the checks (Check) and
 * meta.json's parameters (Record) all come from the one table.
 *
 * Add an option with Add (a number, bool or text), AddChoice (an enum) or AddTime (a time with
 * a unit); the Option it returns takes the check (Check) and how meta.json records it (Record:
 * by default under its name, as its type's JSON; a time has no default and must say its unit).
 * AddPart adds the options of another part (e.g. PfabricMeasurementWindow) in their place.
 * Register adds them to the command line in table order, which is the order --PrintHelp lists
 * them in; Check runs the checks in table order and returns the first failure; Record adds the
 * recorded ones in table order.
 */
class PfabricOptionTable
{
  public:
    /// A check: "" or what is wrong, one line naming the option.
    using Checker = std::function<std::string()>;
    /// A provenance record: adds the option to meta.json's parameters.
    using Recorder = std::function<void(PfabricJsonObject&)>;
    /// A registration: adds an option (or a part's options) to the command line, given its name
    /// and help.
    using Registrar =
        std::function<void(PfabricCommandLine&, const std::string&, const std::string&)>;

    /// One row of the table.
    class Option
    {
      public:
        /**
         * @brief Check the option's value (after parsing).
         * @param check the check
         * @return this option
         */
        Option& Check(Checker check);

        /**
         * @brief Record the option in meta.json's parameters otherwise than under its name as
         * its type's JSON (e.g. resolved from the preset, or under an older key).
         * @param record the record
         * @return this option
         */
        Option& Record(Recorder record);

        /**
         * @brief Record a time option as a number of the given unit under key.
         * @param key the provenance key
         * @param unit the unit of the number
         * @return this option
         */
        Option& RecordTime(const std::string& key, Time::Unit unit);

        /// @return this option, not recorded in meta.json
        Option& NotRecorded();

        /**
         * @brief Whether the command line takes the option (a parameter a program sets itself
         * is checked and recorded all the same).
         * @param listed false: not on the command line
         * @return this option
         */
        Option& Listed(bool listed);

        /**
         * @brief Replace the help text (a program that gives the option another meaning).
         * @param help the help text
         * @return this option
         */
        Option& Help(const std::string& help);

      private:
        friend class PfabricOptionTable;
        std::string m_name;   //!< its name ("" for a part's options)
        std::string m_help;   //!< its help text
        Registrar m_register; //!< adds it to the command line
        Checker m_check;      //!< checks its value; may be empty
        Recorder m_record;    //!< records it; may be empty
        Time* m_time;         //!< the variable of a time option, else null
        bool m_listed{true};  //!< whether the command line takes it (Listed)
    };

    /**
     * @brief Add a number, bool or text option, recorded under its name.
     * @param name the option's name
     * @param help its help text
     * @param value its variable; its value now is the default
     * @return the option
     */
    template <typename T>
    Option& Add(const std::string& name, const std::string& help, T& value);

    /**
     * @brief Add an enum option, recorded under its name as the value's name.
     * @param name the option's name
     * @param help its help text
     * @param value its variable; its value now is the default
     * @param choices its names and values
     * @return the option
     */
    template <typename E>
    Option& AddChoice(const std::string& name,
                      const std::string& help,
                      E& value,
                      const PfabricChoices<E>& choices);

    /**
     * @brief Add a time option (PfabricCommandLine::AddTime); say how it is recorded
     * (RecordTime or Record).
     * @param name the option's name
     * @param help its help text
     * @param value its variable; its value now is the default
     * @param bareUnit the unit of a bare number (deprecated), or "" to refuse one
     * @return the option
     */
    Option& AddTime(const std::string& name,
                    const std::string& help,
                    Time& value,
                    const std::string& bareUnit = "");

    /**
     * @brief An option's old spelling, taken for one release with a notice
     * (PfabricCommandLine::AddRenamed).
     * @param oldName the old name
     * @param newName the time option it became
     * @param unit the old name's unit
     */
    void AddRenamed(const std::string& oldName,
                    const std::string& newName,
                    const std::string& unit);

    /**
     * @brief A row, to change it (e.g. a feature that gives an option another meaning).
     * @param name the option's name
     * @return the option (the program stops if there is none: a mistake in the code)
     */
    Option& Get(const std::string& name);

    /**
     * @brief Add another part's options, in this place of the table.
     * @param add registers its options
     * @param check checks them (may be empty)
     * @param record records them (may be empty)
     */
    void AddPart(std::function<void(PfabricCommandLine&)> add, Checker check, Recorder record);

    /**
     * @brief Add every option to the command line, in table order.
     * @param cmd the command line
     */
    void Register(PfabricCommandLine& cmd) const;

    /// @return "" or the first check that fails, in table order
    std::string Check() const;

    /**
     * @brief An option as typed, for a check's message: --load=1.0 stays 1.0 (not 1, the value
     * formatted back), 1e-3 stays 1e-3; ns-3's name when it set the option
     * (PfabricCommandLine::DescribeGiven).
     * @param name the option's name
     * @param value the value formatted, if the table was not registered on a command line or
     *        the option is a bool (which ns-3 parses itself: its text is not kept)
     * @return --name=text, or ns-3's setting as typed
     */
    std::string Given(const std::string& name, const std::string& value) const;

    /**
     * @brief The refusal of an option given away from its default where this run has nothing it
     * shapes (at its default it is taken), e.g. "--classWeights=5,1: the weights of
     * --classes=drr, and this run's classes are strict, so it would shape nothing; leave it out".
     * @param given the option as given (Given)
     * @param why why nothing in this run reads it
     * @return the message
     */
    static std::string ShapesNothing(const std::string& given, const std::string& why);

    /**
     * @brief Add every recorded option to meta.json's parameters, in table order.
     * @param parameters the parameters object
     */
    void Record(PfabricJsonObject& parameters) const;

    /**
     * @brief The keys of meta.json's parameters that no option of the command line sets: the
     * recorded options of a table never registered (a part of the experiment a program does not
     * offer, e.g. pfabric-incast's workload) and those not listed (Listed(false)). A rerun from
     * meta.json gives every other parameter back as its option.
     * @param keys the keys, appended in table order
     */
    void AddUnsetKeys(std::vector<std::string>* keys) const;

    /// @return whether the table holds no option
    bool IsEmpty() const;

  private:
    /**
     * @brief Append a row.
     * @param name the option's name
     * @param help its help text
     * @param add registers it
     * @return the row
     */
    Option& Append(const std::string& name, const std::string& help, Registrar add);

    std::deque<Option> m_options; //!< the rows (a deque: rows stay where they are)
    mutable const PfabricCommandLine* m_cmd = nullptr; //!< where Register added them (Given)
};

template <typename T>
PfabricOptionTable::Option&
PfabricOptionTable::Add(const std::string& name, const std::string& help, T& value)
{
    Option& option =
        Append(name,
               help,
               [&value](PfabricCommandLine& cmd, const std::string& name, const std::string& help) {
                   cmd.AddValue(name, help, value);
               });
    option.m_record = [name, &value](PfabricJsonObject& json) {
        if constexpr (std::is_same_v<T, bool>)
        {
            json.AddBool(name, value);
        }
        else if constexpr (std::is_integral_v<T>)
        {
            json.AddInteger(name, value);
        }
        else if constexpr (std::is_floating_point_v<T>)
        {
            json.AddNumber(name, value);
        }
        else
        {
            json.AddString(name, value);
        }
    };
    return option;
}

template <typename E>
PfabricOptionTable::Option&
PfabricOptionTable::AddChoice(const std::string& name,
                              const std::string& help,
                              E& value,
                              const PfabricChoices<E>& choices)
{
    Option& option = Append(
        name,
        help,
        [&value, choices](PfabricCommandLine& cmd,
                          const std::string& name,
                          const std::string& help) { cmd.AddChoice(name, help, value, choices); });
    option.m_record = [name, &value, choices](PfabricJsonObject& json) {
        json.AddString(name, PfabricChoiceName(choices, value));
    };
    return option;
}

} // namespace ns3

#endif /* PFABRIC_OPTION_TABLE_H */
