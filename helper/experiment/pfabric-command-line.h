/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_COMMAND_LINE_H
#define PFABRIC_COMMAND_LINE_H

#include "ns3/command-line.h"
#include "ns3/nstime.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns3
{

/// The names an enum option takes and the values they stand for, in the order the help lists them
/// (a name "" stands for "not given": the option's default, never typed).
template <typename E>
using PfabricChoices = std::vector<std::pair<std::string, E>>;

/**
 * @brief The name of a choice.
 * @param choices the names and values
 * @param value a value among them
 * @return its name ("" if it has none)
 */
template <typename E>
std::string
PfabricChoiceName(const PfabricChoices<E>& choices, E value)
{
    for (const auto& choice : choices)
    {
        if (choice.second == value)
        {
            return choice.first;
        }
    }
    return "";
}

/**
 * @ingroup pfabric
 *
 * @brief ns-3's CommandLine, with numbers parsed strictly.
 *
 * ns-3 reads a number option with an input stream and keeps whatever leading part parses:
 * `--interval=1ms` gives 1, `--flows=1e1` gives 1, `--responseBytes=10kB` gives 10, and an
 * unsigned option takes `-1` as 4294967295; the run goes on with a value the user never typed.
 * Here a number option is read as text by ns-3 (so --PrintHelp shows its default as before) and
 * converted after parsing: the whole text must be the number, within the option's type, finite;
 * otherwise Parse reports one line that quotes what was typed. Every other option (text, bool,
 * ns-3 types such as Time or DataRate) is ns-3's own, but what ns-3 would answer with its whole
 * help text is refused in one line first: an unknown option, an option other than a bool without
 * a value, a bool other than what ns-3 takes (true, false, t, f, 1, 0, in any case). Attribute
 * paths (--ns3::...), global values
 * (--SchedulerType=...) and --Print... pass to ns-3 as they are.
 *
 * A text option (std::string, and a number's text) takes its whole value: Parse sets it itself
 * and does not pass it to ns-3, which reads text with an input stream too, keeping its first word
 * (`--out="my runs"` gave "my") and answering a blank value with its help and exit status 1.
 *
 * Typed options beyond numbers, converted after parsing as numbers are: a time (AddTime) is ns-3's
 * time text with a unit, `--connectLead=1ms`; an enum (AddChoice) one of its names. Options that
 * changed spelling (AddRenamed, a time's bare unit) are still taken for one release, each with a
 * notice (GetNotices) for the program to print.
 */
class PfabricCommandLine : public CommandLine
{
  public:
    /**
     * @brief As CommandLine's.
     * @param filename the program's source file name (Usage)
     */
    explicit PfabricCommandLine(const std::string& filename = "");

    using CommandLine::AddValue;

    /**
     * @brief Add an option: a number (integer or floating point) strictly, anything else as
     * ns-3 does.
     * @param name the option's name
     * @param help its help text
     * @param value where its value goes; its value now is the default shown
     */
    template <typename T>
    void AddValue(const std::string& name, const std::string& help, T& value);

    /**
     * @brief Add a time option: a number and one of the units ns, us, ms or s (ns-3's Time text,
     * e.g. 1ms or 2.5us); 0 alone is taken too.
     * @param name the option's name
     * @param help its help text
     * @param value where its value goes; its value now is the default shown
     * @param bareUnit "" to refuse a number without a unit; else the unit that such a number was
     *        taken in before the option took units (deprecated: taken so, with a notice)
     */
    void AddTime(const std::string& name,
                 const std::string& help,
                 Time& value,
                 const std::string& bareUnit = "");

    /**
     * @brief Add an enum option: one of the names of choices (a name "" is never typed).
     * @param name the option's name
     * @param help its help text
     * @param value where its value goes; its value now is the default shown
     * @param choices the names and their values
     */
    template <typename E>
    void AddChoice(const std::string& name,
                   const std::string& help,
                   E& value,
                   const PfabricChoices<E>& choices);

    /**
     * @brief Take an option's old spelling for one release (not listed by --PrintHelp):
     * --oldName=NUMBER is taken as --newName=NUMBER followed by unit, with a notice.
     * @param oldName the old name, e.g. connectLeadUs
     * @param newName the option it became (a time option), e.g. connectLead
     * @param unit the old name's unit, e.g. us
     */
    void AddRenamed(const std::string& oldName,
                    const std::string& newName,
                    const std::string& unit);

    /// @return after Parse: one line for every old spelling taken (AddRenamed, a bare time)
    const std::vector<std::string>& GetNotices() const;

    /**
     * @brief The settings of ns-3's own given on the command line: attribute paths
     * (--ns3::Type::Attribute=value) and global values (--SchedulerType=...), in the order typed
     * (a name typed twice: its last value, which is the one ns-3 keeps). They change a run as
     * much as the program's options do, so meta.json records them beside its parameters.
     * @return after Parse: each setting's name (without dashes) and value as typed
     */
    const std::vector<std::pair<std::string, std::string>>& GetNs3Settings() const;

    /**
     * @brief How one of ns-3's attribute paths or global values was set, for a refusal that
     * names it.
     * @param path an attribute path, e.g. ns3::PfabricLinkNetDevice::DataRate, or a global
     *        value's name, e.g. ChecksumEnabled
     * @return after Parse: the option as typed (--ns3::PfabricLinkNetDevice::DataRate=1Gbps),
     *         else NS_ATTRIBUTE_DEFAULT's setting of a path (NS_ATTRIBUTE_DEFAULT's
     *         ns3::PfabricLinkNetDevice::DataRate=1Gbps) or NS_GLOBAL_VALUE's of a global
     *         value, else ""
     */
    std::string DescribeNs3Setting(const std::string& path) const;

    /**
     * @brief An option's value as typed (its default's text if not given), for a message that
     * quotes it: a number's text, not the number (1e-3 stays 1e-3).
     * @param name an option added as a number, time, choice or text
     * @return the text
     */
    std::string GetText(const std::string& name) const;

    /**
     * @brief An option as given, for a message that quotes it: ns-3's RngRun or RngSeed as
     * typed when one of them set --run or --seed (--RngRun=7, NS_GLOBAL_VALUE's RngSeed=0),
     * else --name=its text (GetText).
     * @param name an option
     * @return the option as given; "" for one not added as a number, time, choice or text (a
     *         bool, which ns-3 parses itself)
     */
    std::string DescribeGiven(const std::string& name) const;

    /**
     * @brief Convert a time's text strictly.
     * @param name the option's name, for the error
     * @param text what was typed: a number and ns, us, ms or s
     * @param value the time, when it parses
     * @param error why not, when it does not (one line quoting text)
     * @return whether it parsed
     */
    static bool ParseTime(const std::string& name,
                          const std::string& text,
                          Time* value,
                          std::string* error);

    /**
     * @brief The number of a time's text, in the unit ns-3 keeps times in (nanoseconds).
     * @param text e.g. 40us
     * @return the nanoseconds, or a negative number if the text is not a number and one of the
     *         units ns, us, ms or s
     */
    static double TimeNanoseconds(const std::string& text);

    /// The longest time taken, nanoseconds: within the 63 bits of ns-3's Time (whose arithmetic
    /// stops the program on an overflow), about 285 years.
    static constexpr double MAX_TIME_NS = 9e18;

    /// @return why a time longer than MAX_TIME_NS is refused
    static std::string TooLong();

    /// The largest seed ns-3 takes: RngSeedManager gives its one seed to all six of an
    /// RngStream's, which aborts on any at or above MRG32k3a's second modulus, 4294944443.
    static constexpr uint64_t MAX_SEED = 4294944442;

    /**
     * @param seed a seed as a number
     * @return "" if ns-3 takes it (1 to MAX_SEED), else why not
     */
    static std::string CheckSeed(uint64_t seed);

    /**
     * @brief What is wrong with a time that ns-3 cannot keep as typed.
     * @param text "0", or a time TimeNanoseconds reads (a number and ns, us, ms or s)
     * @return "" if ns-3 keeps it as given; else why not: longer than MAX_TIME_NS, or not a
     *         whole number of nanoseconds (ns-3's resolution would round 0.5ns to 0 or 1ns),
     *         decided in decimal (4.1ms is 4100000 ns)
     */
    static std::string CheckNanoseconds(const std::string& text);

    /**
     * @brief The check of a time option given as text: a time with a unit, a whole number of
     * nanoseconds within ns-3's range (CheckNanoseconds), positive when asked.
     * @param name the option, without its dashes
     * @param text its value; empty: the option's default (nothing to check)
     * @param example a time of the option, for the message
     * @param positive whether zero is refused
     * @return the one-line error, empty when the value is good
     */
    static std::string CheckTimeOption(const std::string& name,
                                       const std::string& text,
                                       const std::string& example,
                                       bool positive);

    /**
     * @brief What is wrong with a time's text that ns-3 would take otherwise than typed: the
     * one rule of ParseTime and CheckUnits.
     * @param text "0", or a number and ns, us, ms or s
     * @param example a time for the error, in the scale of what is set (e.g. 1ms)
     * @return "" if ns-3 keeps the time as typed; else why not: no unit (ns-3 reads "1" as one
     *         second), or what CheckNanoseconds says
     */
    static std::string CheckTime(const std::string& text, const std::string& example);

    /**
     * @brief Whether ns-3 takes a text as a value of an attribute, without stopping the program.
     * @param checker the attribute's (or global value's) checker
     * @param text the value
     * @return true if ns-3 takes it
     */
    static bool TakesValue(Ptr<const AttributeChecker> checker, const std::string& text);

    /**
     * @brief Find an attribute of a type or of a parent, as TypeId::LookupAttributeByName does,
     * without its side effects: ns-3 prints a notice for a deprecated attribute there (before a
     * program's own refusal of it) and stops the program on an obsolete one.
     * @param tid the type
     * @param name the attribute's name
     * @param info set to the attribute's information where found
     * @param owner set to the type that declares it (tid or a parent) where found
     * @return whether tid or a parent has it
     */
    static bool FindAttribute(TypeId tid,
                              const std::string& name,
                              TypeId::AttributeInformation* info,
                              TypeId* owner = nullptr);

    /**
     * @brief ns-3's word on an attribute it keeps only for compatibility.
     * @param info the attribute's information (FindAttribute)
     * @return "" for a supported or deprecated attribute (ns-3 still sets a deprecated one, with
     *         its own notice); for an obsolete one, which ns-3 stops the program on: the line's
     *         end, "ns-3 made it obsolete: ..."
     */
    static std::string RefuseObsolete(const TypeId::AttributeInformation& info);

    /**
     * @brief The module's rules for a value of ns-3's unit types, which ns-3's parsers take
     * more loosely: a time needs a unit, ns, us, ms or s (ns-3 reads "1" as one second), and
     * whole nanoseconds (ns-3 rounds "0.5ns"); a rate needs a unit (ns-3 reads "10" as 10 bit/s);
     * a queue size is a whole number of packets or bytes (ns-3 reads "1.5p" as one packet) that
     * ns-3's 32 bits hold. A value of another type, or one ns-3 cannot read at all (TakesValue
     * says so), passes.
     * @param checker the checker of the attribute or global value that takes the value
     * @param text the value as typed
     * @return "" or what is wrong, e.g. "expected a time with a unit (ns, us, ms or s), e.g. 40us"
     */
    static std::string CheckUnits(Ptr<const AttributeChecker> checker, const std::string& text);

    /**
     * @brief CheckUnits for an attribute, and a time's rules for one that ns-3 keeps as text but
     * reads as a time later (FqCoDel's Interval, "100ms": ns-3 would read "100" as 100 s), known
     * by its default being a time with a unit.
     * @param info the attribute
     * @param text the value as typed
     * @return "" or what is wrong
     */
    static std::string CheckUnits(const TypeId::AttributeInformation& info,
                                  const std::string& text);

    /**
     * @brief A queue size's packets or bytes as ns-3's QueueSize reads its text (its units: p,
     * kp, Kp, Kip, Mp, Mip, B, kB, KB, KiB, MB, MiB), without its truncation to 32 bits.
     * @param text e.g. "22500B", "1.5KB"
     * @return the packets or bytes, possibly not whole; nothing if the text is not a number
     *         followed by one of those units
     */
    static std::optional<double> QueueSizeAmount(const std::string& text);

    /**
     * @brief Whether ns-3 reads an amount with a unit as the exact decimal number typed: a whole
     * number of the smallest unit, which ns-3's floating-point product and truncation keep.
     * @param text a number and a unit, e.g. 4.1MB (other texts pass)
     * @param notWhole the message for an amount that is no whole number of the smallest unit
     * @param units the smallest unit's name, for the message, e.g. bytes
     * @param read the amount ns-3 reads from a text, in the smallest unit; negative if it cannot
     * @return "" or what is wrong, e.g. "ns-3 reads it as 4099999 bytes, not 4100000 (its
     *         floating-point product); give 4100000B"
     */
    static std::string CheckAsRead(const std::string& text,
                                   const std::string& notWhole,
                                   const std::string& units,
                                   const std::function<double(const std::string&)>& read);

    /// The largest amount CheckAsRead compares: below 2^64, what ns-3's rates hold.
    static constexpr double MAX_AS_READ = 1e19;

    /// The largest queue size ns-3 keeps, in packets or bytes: 32 bits.
    static constexpr double MAX_QUEUE_SIZE = 4294967295.0;

    /**
     * @brief A time as the text a time option shows: in the largest of s, ms, us and ns that
     * holds it as a whole number, e.g. 1ms; "0" for zero.
     * @param time the time
     * @return the text
     */
    static std::string FormatTime(Time time);

    /**
     * @brief Check one argument as ns-3 would take it (no help dump for a mistake).
     * @param argument an argument of the command line, e.g. --flows=10
     * @param error why it is refused
     * @return false if it is refused
     */
    bool CheckArgument(const std::string& argument, std::string* error) const;

    /**
     * @brief Whether an option is ns-3's own, passed to ns-3 unchecked: --Print..., an attribute
     * path (--ns3::Type::Attribute) or a global value (--SchedulerType).
     * @param name the option's name, without its dashes and value
     * @return true if it is ns-3's
     */
    static bool IsNs3Option(const std::string& name);

    /**
     * @brief ns-3's RngRun and RngSeed in a program that has --run and --seed: each becomes the
     * program's own option (so meta.json records it once, as a parameter), refused when both are
     * given with different values.
     * @param arguments the command line, rewritten in place
     * @param error why it is refused
     * @return false if it is refused
     */
    bool TakeSeedingGlobals(std::vector<std::string>& arguments, std::string* error);

    /**
     * @brief The settings of one of ns-3's variables, as ns-3 reads them (Name=value;Name=value).
     * @param variable NS_ATTRIBUTE_DEFAULT or NS_GLOBAL_VALUE
     * @return each setting's name and value, in order; none when the variable is not set
     */
    static std::vector<std::pair<std::string, std::string>> GetEnvironmentSettings(
        const std::string& variable);

    /**
     * @brief Check what ns-3 reads from NS_ATTRIBUTE_DEFAULT and NS_GLOBAL_VALUE by the rules of
     * the same settings on the command line (CheckNs3Argument): ns-3 ignores an unknown or
     * inherited name or a value it cannot read there, and takes a time without a unit as seconds.
     * @param error why it is refused, naming the variable and quoting the setting
     * @return false if it is refused
     */
    static bool CheckEnvironment(std::string* error);

    /**
     * @brief Check an argument of ns-3's own (IsNs3Option) as ns-3 would take it, without its
     * help dump or abort: an attribute path's type, attribute and value, a global value's value,
     * --PrintAttributes' type.
     * @param argument the argument, e.g. --ns3::PfabricQueueDisc::MaxSize=30p
     * @param name its name, e.g. ns3::PfabricQueueDisc::MaxSize
     * @param value its value, e.g. 30p
     * @param error why it is refused
     * @return false if it is refused
     */
    static bool CheckNs3Argument(const std::string& argument,
                                 const std::string& name,
                                 const std::string& value,
                                 std::string* error);

    /**
     * @brief Parse the command line (CommandLine::Parse), then the numbers.
     * @param argc argument count
     * @param argv arguments
     * @param error the first bad number, one line naming the option and quoting its value
     * @return false if a number did not parse (the others are set)
     */
    bool Parse(int argc, char* argv[], std::string* error);

    /**
     * @brief Convert a number's text strictly.
     * @param name the option's name, for the error
     * @param text what was typed
     * @param value the number, when it parses
     * @param error why not, when it does not
     * @return whether it parsed
     */
    template <typename T>
    static bool ParseNumber(const std::string& name,
                            const std::string& text,
                            T* value,
                            std::string* error);

  private:
    /**
     * @brief Keep a setting of ns-3's own for GetNs3Settings (a name given again: its new value).
     * @param name the attribute path or global value
     * @param value its value as typed
     */
    void RecordNs3Setting(const std::string& name, const std::string& value);

    /// A number, time or enum option, read as text by ns-3.
    struct NumberOption
    {
        virtual ~NumberOption() = default;
        /**
         * @brief Convert the text into the option's variable.
         * @param error why not
         * @return whether it parsed
         */
        virtual bool Convert(std::string* error) = 0;
        std::string name;        //!< the option's name
        std::string text;        //!< what ns-3 read (the default's text until given)
        std::string defaultText; //!< the default's text: left alone, the variable is unchanged
    };

    /// A number option of type T.
    template <typename T>
    struct TypedOption : NumberOption
    {
        T* target; //!< the variable

        bool Convert(std::string* error) override
        {
            return text == defaultText || ParseNumber(name, text, target, error);
        }
    };

    /// A time option.
    struct TimeOption : NumberOption
    {
        Time* target;                      //!< the variable
        std::string bareUnit;              //!< the unit of a bare number (deprecated), or ""
        std::vector<std::string>* notices; //!< where a notice goes

        bool Convert(std::string* error) override;
    };

    /// An enum option of type E.
    template <typename E>
    struct ChoiceOption : NumberOption
    {
        E* target;                 //!< the variable
        PfabricChoices<E> choices; //!< its names

        bool Convert(std::string* error) override
        {
            if (text == defaultText)
            {
                return true;
            }
            std::string names;
            std::size_t listed = 0;
            std::size_t named = 0;
            for (const auto& choice : choices)
            {
                named += choice.first.empty() ? 0 : 1;
            }
            for (const auto& choice : choices)
            {
                if (!text.empty() && choice.first == text)
                {
                    *target = choice.second;
                    return true;
                }
                if (!choice.first.empty())
                {
                    ++listed;
                    names += (listed == 1 ? "" : listed == named ? " or " : ", ") + choice.first;
                }
            }
            *error = "--" + name + "=" + text + ": expected " + names;
            return false;
        }
    };

    /// An old spelling (AddRenamed).
    struct Renamed
    {
        std::string newName; //!< the option it became
        std::string unit;    //!< the old name's unit
    };

    /**
     * @brief Take an old spelling (AddRenamed) as its new option.
     * @param oldName the old name
     * @param value its value
     * @param error why not
     * @return whether it is taken
     */
    bool TakeRenamed(const std::string& oldName, const std::string& value, std::string* error);

    /**
     * @brief Parse an integer's text.
     * @param text the text
     * @param isSigned whether negative values are allowed
     * @param low the smallest value of the type
     * @param high the largest value of the type
     * @param value the value
     * @param why what is wrong
     * @return whether it parsed
     */
    static bool ParseInteger(const std::string& text,
                             bool isSigned,
                             long double low,
                             long double high,
                             long double* value,
                             std::string* why);

    /**
     * @brief Parse a floating-point number's text.
     * @param text the text
     * @param value the value
     * @param why what is wrong
     * @return whether it parsed
     */
    static bool ParseReal(const std::string& text, long double* value, std::string* why);

    /// How an option takes its value.
    enum class Kind
    {
        BOOL,  //!< --name alone is true
        OTHER, //!< needs a value
    };

    /**
     * @brief An argument's option name and value, as ns-3 splits it.
     * @param argument e.g. --flows=10 or -flows=10
     * @param[out] name e.g. flows
     * @param[out] value e.g. 10 ("" without one)
     * @return whether it has a value (an '=')
     */
    static bool SplitArgument(const std::string& argument, std::string* name, std::string* value);

    std::vector<std::unique_ptr<NumberOption>> m_numbers; //!< the number options
    std::map<std::string, Kind> m_options;                //!< every option added, by name
    std::map<std::string, std::string*> m_texts;          //!< the text options' variables
    std::map<std::string, Renamed> m_renamed;             //!< old spellings, by old name
    std::vector<std::string> m_notices;                   //!< after Parse: old spellings taken
    std::vector<std::pair<std::string, std::string>> m_ns3Settings; //!< after Parse: ns-3's own
    std::map<std::string, std::string> m_givenAs; //!< after Parse: --run, --seed as ns-3's typed
};

template <typename T>
void
PfabricCommandLine::AddValue(const std::string& name, const std::string& help, T& value)
{
    m_options[name] = std::is_same_v<T, bool> ? Kind::BOOL : Kind::OTHER;
    if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
    {
        auto option = std::make_unique<TypedOption<T>>();
        option->name = name;
        option->target = &value;
        std::ostringstream text;
        text << +value; // +: a char-sized integer shows as a number
        option->text = option->defaultText = text.str();
        CommandLine::AddValue(name, help, option->text);
        m_texts[name] = &option->text;
        m_numbers.push_back(std::move(option));
    }
    else if constexpr (std::is_same_v<T, std::string>)
    {
        CommandLine::AddValue(name, help, value);
        m_texts[name] = &value;
    }
    else
    {
        CommandLine::AddValue(name, help, value);
    }
}

template <typename E>
void
PfabricCommandLine::AddChoice(const std::string& name,
                              const std::string& help,
                              E& value,
                              const PfabricChoices<E>& choices)
{
    m_options[name] = Kind::OTHER;
    auto option = std::make_unique<ChoiceOption<E>>();
    option->name = name;
    option->target = &value;
    option->choices = choices;
    option->text = option->defaultText = PfabricChoiceName(choices, value);
    CommandLine::AddValue(name, help, option->text);
    m_texts[name] = &option->text;
    m_numbers.push_back(std::move(option));
}

template <typename T>
bool
PfabricCommandLine::ParseNumber(const std::string& name,
                                const std::string& text,
                                T* value,
                                std::string* error)
{
    long double parsed = 0;
    std::string why;
    bool ok;
    if constexpr (std::is_integral_v<T>)
    {
        ok = ParseInteger(text,
                          std::is_signed_v<T>,
                          static_cast<long double>(std::numeric_limits<T>::lowest()),
                          static_cast<long double>(std::numeric_limits<T>::max()),
                          &parsed,
                          &why);
    }
    else
    {
        ok = ParseReal(text, &parsed, &why);
        if (ok && !(std::abs(parsed) <= static_cast<long double>(std::numeric_limits<T>::max())))
        {
            ok = false;
            why = "out of range";
        }
        // A long double holds what a double cannot: 1e-400 would become 0, a value never typed.
        if (ok && parsed != 0 && static_cast<T>(parsed) == 0)
        {
            ok = false;
            why = "out of range (too close to 0)";
        }
    }
    if (!ok)
    {
        *error = "--" + name + "=" + text + ": " + why;
        return false;
    }
    *value = static_cast<T>(parsed);
    return true;
}

} // namespace ns3

#endif /* PFABRIC_COMMAND_LINE_H */
