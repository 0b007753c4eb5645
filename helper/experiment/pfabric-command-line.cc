/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricCommandLine: ns-3's CommandLine with numbers and choices parsed strictly.

#include "pfabric-command-line.h"

#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/global-value.h"
#include "ns3/pfabric-results-writer.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fcntl.h>
#include <iostream>
#include <limits>
#include <set>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

namespace ns3
{

PfabricCommandLine::PfabricCommandLine(const std::string& filename)
    : CommandLine(filename)
{
}

namespace
{

/// ns-3's global values that seed the random streams, and the option of this module that sets
/// each in a program that has it (PfabricExperiment::BuildFabric).
const std::vector<std::pair<std::string, std::string>> SEEDING_GLOBALS{{"RngRun", "run"},
                                                                       {"RngSeed", "seed"}};

/// ns-3's global value of the seed (RngSeedManager).
const std::string SEED_GLOBAL = "RngSeed";

/// ns-3's variables that set attributes' defaults and global values, read by ns-3 itself.
const std::string ATTRIBUTE_VARIABLE = "NS_ATTRIBUTE_DEFAULT";
const std::string GLOBAL_VARIABLE = "NS_GLOBAL_VALUE";

/// The units a time option takes, and how many nanoseconds each is (ns-3's Time text).
const std::vector<std::pair<std::string, double>> TIME_UNITS{{"ns", 1},
                                                             {"us", 1e3},
                                                             {"ms", 1e6},
                                                             {"s", 1e9}};

/// ns-3's QueueSize units (QueueSize::DoParse) and the packets or bytes each is.
const std::vector<std::pair<std::string, double>> QUEUE_SIZE_UNITS{{"p", 1},
                                                                   {"kp", 1e3},
                                                                   {"Kp", 1e3},
                                                                   {"Kip", 1024},
                                                                   {"Mp", 1e6},
                                                                   {"Mip", 1048576},
                                                                   {"B", 1},
                                                                   {"kB", 1e3},
                                                                   {"KB", 1e3},
                                                                   {"KiB", 1024},
                                                                   {"MB", 1e6},
                                                                   {"MiB", 1048576}};

/**
 * @param name an option's name, without its dashes
 * @return whether ns-3's CommandLine answers it itself and exits: --PrintHelp, --PrintVersion,
 *         ..., and their short names --help and --version
 */
bool
IsHardOption(const std::string& name)
{
    return name.rfind("Print", 0) == 0 || name == "help" || name == "version";
}

/// @return whether text is a plain decimal number: digits with at most one point
bool
IsBareNumber(const std::string& text)
{
    return text.find_first_of("0123456789") != std::string::npos &&
           text.find_first_not_of("0123456789.") == std::string::npos &&
           std::count(text.begin(), text.end(), '.') <= 1;
}

/**
 * @param text a number followed by a unit, e.g. 4.1ms
 * @return the number (up to the first character that is neither a digit nor a point) and the unit
 */
std::pair<std::string, std::string>
SplitAmount(const std::string& text)
{
    const std::size_t end = text.find_first_not_of("0123456789.");
    return {text.substr(0, end), end == std::string::npos ? "" : text.substr(end)};
}

/**
 * @param text a time as ns-3's Time reads it: a number, perhaps with an exponent (1.1e-3s,
 *        40e-6s), followed by a unit
 * @return the number written without its exponent (0.0011, 0.000040) or a leading plus sign,
 *         so that it is exact decimal digits (IsBareNumber) as SplitAmount's, and the unit; the
 *         text's number as it is when it has no exponent or is no number with one
 */
std::pair<std::string, std::string>
SplitTime(const std::string& text)
{
    // Where ns-3's Time ends the number (time.cc): a time was refused as having no unit.
    const std::size_t end = text.find_first_not_of("+-0123456789.eE");
    // A plus sign, as ns-3 writes times itself (+40000ns, in --PrintAttributes and meta.json).
    const std::size_t plus = text.rfind('+', 0) == 0 ? 1 : 0;
    const std::string number = text.substr(plus, end == std::string::npos ? end : end - plus);
    const std::string unit = end == std::string::npos ? "" : text.substr(end);
    const std::size_t e = number.find_first_of("eE");
    if (e == std::string::npos)
    {
        return {number, unit};
    }
    const std::string mantissa = number.substr(0, e);
    const bool negative = e + 1 < number.size() && number[e + 1] == '-';
    const bool sign = negative || (e + 1 < number.size() && number[e + 1] == '+');
    std::string exponent = number.substr(e + 1 + (sign ? 1 : 0));
    if (exponent.empty() || exponent.find_first_not_of("0123456789") != std::string::npos)
    {
        return {number, unit};
    }
    exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
    // Three digits reach any time ns-3 holds (and a plain number of a thousand digits at most).
    if (!IsBareNumber(mantissa) || exponent.size() > 3)
    {
        return {number, unit};
    }
    const std::size_t point = mantissa.find('.');
    const std::string digits = point == std::string::npos
                                   ? mantissa
                                   : mantissa.substr(0, point) + mantissa.substr(point + 1);
    const long shift = (negative ? -1 : 1) * std::stol(exponent);
    const long at = static_cast<long>(point == std::string::npos ? mantissa.size() : point) + shift;
    if (at <= 0)
    {
        return {"0." + std::string(static_cast<std::size_t>(-at), '0') + digits, unit};
    }
    if (static_cast<std::size_t>(at) >= digits.size())
    {
        return {digits + std::string(static_cast<std::size_t>(at) - digits.size(), '0'), unit};
    }
    return {digits.substr(0, at) + "." + digits.substr(at), unit};
}

/**
 * @param units a table of units and their size in the smallest one
 * @param unit a unit's name
 * @return its size, or nothing if the table has no such unit
 */
std::optional<double>
UnitSize(const std::vector<std::pair<std::string, double>>& units, const std::string& unit)
{
    auto found = std::find_if(units.begin(), units.end(), [&unit](const auto& known) {
        return known.first == unit;
    });
    return found == units.end() ? std::nullopt : std::optional<double>(found->second);
}

/**
 * @param number a plain decimal number (IsBareNumber) whose product below is at most 2^64 or so
 * @param multiplier a whole number, e.g. 1e6 (nanoseconds per millisecond)
 * @return number x multiplier in exact decimal arithmetic, if it is whole: in floating point
 *         4.1 x 1e6 is 4099999.9999999995 (--connectLead=4.1ms was refused as not whole, and
 *         ns-3 reads 4.1MB as 4099999 bytes)
 */
std::optional<uint64_t>
ExactProduct(const std::string& number, double multiplier)
{
    // GCC's and Clang's 128-bit integer; __extension__ keeps -Wpedantic (ns-3.48's flags) quiet.
    __extension__ typedef unsigned __int128 Uint128;

    const std::size_t point = number.find('.');
    const std::string whole = number.substr(0, point);
    std::string decimals = point == std::string::npos ? "" : number.substr(point + 1);
    decimals.erase(decimals.find_last_not_of('0') + 1);
    // A multiplier here is at most 2^30 or 10^9: more decimals than 30 (their last not 0) cannot
    // make a whole number (2^-30 has 30), and 30 keep each number within 128 bits.
    if (decimals.size() > 30 || whole.size() > 20)
    {
        return std::nullopt;
    }
    const auto times = static_cast<Uint128>(multiplier);
    Uint128 fraction = 0;
    Uint128 scale = 1;
    for (char digit : decimals)
    {
        fraction = fraction * 10 + static_cast<unsigned>(digit - '0');
        scale *= 10;
    }
    Uint128 integer = 0;
    for (char digit : whole)
    {
        integer = integer * 10 + static_cast<unsigned>(digit - '0');
    }
    // fraction / scale in lowest terms first: fraction x times (up to 10^30 x 2^30) would not fit
    // in 128 bits, and the product is whole exactly when the reduced scale divides times.
    Uint128 a = fraction;
    Uint128 b = scale;
    while (b != 0)
    {
        a %= b;
        std::swap(a, b);
    }
    fraction /= a;
    scale /= a;
    if (times % scale != 0)
    {
        return std::nullopt;
    }
    return static_cast<uint64_t>(integer * times + fraction * (times / scale));
}

} // namespace

void
PfabricCommandLine::AddTime(const std::string& name,
                            const std::string& help,
                            Time& value,
                            const std::string& bareUnit)
{
    m_options[name] = Kind::OTHER;
    auto option = std::make_unique<TimeOption>();
    option->name = name;
    option->target = &value;
    option->bareUnit = bareUnit;
    option->notices = &m_notices;
    option->text = option->defaultText = FormatTime(value);
    CommandLine::AddValue(name, help, option->text);
    m_texts[name] = &option->text;
    m_numbers.push_back(std::move(option));
}

void
PfabricCommandLine::AddRenamed(const std::string& oldName,
                               const std::string& newName,
                               const std::string& unit)
{
    m_renamed[oldName] = {newName, unit};
}

const std::vector<std::string>&
PfabricCommandLine::GetNotices() const
{
    return m_notices;
}

const std::vector<std::pair<std::string, std::string>>&
PfabricCommandLine::GetNs3Settings() const
{
    return m_ns3Settings;
}

void
PfabricCommandLine::RecordNs3Setting(const std::string& name, const std::string& value)
{
    for (auto& setting : m_ns3Settings)
    {
        if (setting.first == name)
        {
            setting.second = value;
            return;
        }
    }
    m_ns3Settings.emplace_back(name, value);
}

std::string
PfabricCommandLine::GetText(const std::string& name) const
{
    return *m_texts.at(name);
}

std::string
PfabricCommandLine::DescribeGiven(const std::string& name) const
{
    const auto typed = m_givenAs.find(name);
    const auto text = m_texts.find(name);
    if (typed != m_givenAs.end())
    {
        return typed->second;
    }
    return text != m_texts.end() ? "--" + name + "=" + *text->second : "";
}

double
PfabricCommandLine::TimeNanoseconds(const std::string& text)
{
    const auto [number, unit] = SplitTime(text);
    const std::optional<double> size = UnitSize(TIME_UNITS, unit);
    if (!IsBareNumber(number) || !size)
    {
        return -1;
    }
    // Digits and a point only: strtod reads all of it (a huge number as infinity, no throw).
    return std::strtod(number.c_str(), nullptr) * *size;
}

std::string
PfabricCommandLine::CheckSeed(uint64_t seed)
{
    return seed >= 1 && seed <= MAX_SEED ? ""
                                         : "ns-3's seeds are 1 to " + std::to_string(MAX_SEED) +
                                               " (its generator aborts on others)";
}

std::string
PfabricCommandLine::TooLong()
{
    std::ostringstream seconds;
    seconds << std::fixed;
    seconds.precision(0);
    seconds << MAX_TIME_NS / 1e9;
    return "longer than ns-3's times (at most " + seconds.str() + " s)";
}

bool
PfabricCommandLine::ParseTime(const std::string& name,
                              const std::string& text,
                              Time* value,
                              std::string* error)
{
    const std::string wrong = CheckTime(text, "1ms");
    if (!wrong.empty())
    {
        *error = "--" + name + "=" + text + ": " + wrong;
        return false;
    }
    *value = text == "0" ? Time(0) : Time(text);
    return true;
}

std::string
PfabricCommandLine::CheckTime(const std::string& text, const std::string& example)
{
    if (text != "0" && TimeNanoseconds(text) < 0)
    {
        return "expected a time with a unit (ns, us, ms or s), e.g. " + example;
    }
    return CheckNanoseconds(text);
}

std::string
PfabricCommandLine::CheckTimeOption(const std::string& name,
                                    const std::string& text,
                                    const std::string& example,
                                    bool positive)
{
    if (text.empty())
    {
        return "";
    }
    const std::string option = "--" + name + "=" + text;
    if (TimeNanoseconds(text) < 0)
    {
        return option + ": expected a time such as " + example;
    }
    const std::string wrong = CheckNanoseconds(text);
    if (!wrong.empty())
    {
        return option + ": " + wrong;
    }
    if (positive && !Time(text).IsStrictlyPositive())
    {
        return option + ": expected a positive time";
    }
    return "";
}

std::string
PfabricCommandLine::CheckNanoseconds(const std::string& text)
{
    if (text == "0")
    {
        return "";
    }
    if (TimeNanoseconds(text) > MAX_TIME_NS)
    {
        return TooLong();
    }
    const auto [number, unit] = SplitTime(text);
    if (!ExactProduct(number, *UnitSize(TIME_UNITS, unit)))
    {
        return "not a whole number of nanoseconds (ns-3's resolution)";
    }
    return "";
}

bool
PfabricCommandLine::FindAttribute(TypeId tid,
                                  const std::string& name,
                                  TypeId::AttributeInformation* info,
                                  TypeId* owner)
{
    for (TypeId type = tid;; type = type.GetParent())
    {
        for (std::size_t i = 0; i < type.GetAttributeN(); ++i)
        {
            if (type.GetAttribute(i).name == name)
            {
                *info = type.GetAttribute(i);
                if (owner != nullptr)
                {
                    *owner = type;
                }
                return true;
            }
        }
        if (type == type.GetParent())
        {
            return false; // ns3::ObjectBase, the root, is its own parent
        }
    }
}

std::string
PfabricCommandLine::RefuseObsolete(const TypeId::AttributeInformation& info)
{
    // Named through the enum: scoped from ns-3.44, unscoped (TypeId::OBSOLETE) before.
    if (info.supportLevel != TypeId::SupportLevel::OBSOLETE)
    {
        return "";
    }
    return "ns-3 made " + info.name + " obsolete" +
           (info.supportMsg.empty() ? std::string() : ": " + info.supportMsg);
}

bool
PfabricCommandLine::TakesValue(Ptr<const AttributeChecker> checker, const std::string& text)
{
    // ns-3 stops the program on some malformed values instead of refusing them (Time("soon"), a
    // number or a size with characters after it: NS_ABORT_MSG in their parsers), so the text is
    // parsed first in a child process, whose abort only says no. Nothing is simulated yet and
    // the child writes nothing, not even a core file.
    std::cout.flush();
    std::cerr.flush();
    pid_t child = fork();
    if (child < 0)
    {
        return checker->CreateValidValue(StringValue(text)) != nullptr;
    }
    if (child == 0)
    {
        struct rlimit noCore = {0, 0};
        setrlimit(RLIMIT_CORE, &noCore);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        _exit(checker->CreateValidValue(StringValue(text)) ? 0 : 1);
    }
    int status = 0;
    waitpid(child, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

std::string
PfabricCommandLine::CheckUnits(Ptr<const AttributeChecker> checker, const std::string& text)
{
    const std::string type = checker->GetValueTypeName();
    // ns-3 reads an empty number as 0 (its stream parse leaves the value as it was made) and a
    // negative one into an unsigned attribute as 2^64 less it, and takes both.
    static const std::set<std::string> numbers = {"ns3::UintegerValue",
                                                  "ns3::IntegerValue",
                                                  "ns3::DoubleValue",
                                                  "ns3::BooleanValue",
                                                  "ns3::TimeValue",
                                                  "ns3::DataRateValue",
                                                  "ns3::QueueSizeValue"};
    if (text.empty() && numbers.count(type) > 0)
    {
        return "expected a value";
    }
    if (type == "ns3::UintegerValue" && text.find('-') != std::string::npos)
    {
        return "expected a whole number of at least 0 (ns-3 would read a negative one as 2^64 "
               "less it)";
    }
    if (type == "ns3::TimeValue")
    {
        return CheckTime(text, "40us");
    }
    if (type == "ns3::DataRateValue" && IsBareNumber(text))
    {
        return "expected a rate with a unit (bps, kbps, Mbps or Gbps), e.g. 10Gbps";
    }
    if (type == "ns3::DataRateValue")
    {
        return CheckAsRead(text,
                           "not a whole number of bits per second",
                           "bit/s",
                           [&checker](const std::string& rate) -> double {
                               return TakesValue(checker, rate) ? DataRate(rate).GetBitRate() : -1;
                           });
    }
    if (type == "ns3::QueueSizeValue")
    {
        const std::optional<double> amount = QueueSizeAmount(text);
        if (amount && *amount > MAX_QUEUE_SIZE)
        {
            return "larger than ns-3's queue sizes (at most " +
                   PfabricJsonObject::FormatNumber(MAX_QUEUE_SIZE) + " packets or bytes)";
        }
        const std::string unit = SplitAmount(text).second;
        return amount ? CheckAsRead(text,
                                    "not a whole number of packets or bytes",
                                    unit.back() == 'p' ? "packets" : "bytes",
                                    [](const std::string& size) -> double {
                                        return QueueSize(size).GetValue();
                                    })
                      : "";
    }
    return "";
}

std::string
PfabricCommandLine::CheckUnits(const TypeId::AttributeInformation& info, const std::string& text)
{
    const std::string wrong = CheckUnits(info.checker, text);
    if (!wrong.empty() || info.checker->GetValueTypeName() != "ns3::StringValue")
    {
        return wrong;
    }
    const std::string initial = info.originalInitialValue->SerializeToString(info.checker);
    if (IsBareNumber(initial) || TimeNanoseconds(initial) < 0)
    {
        return ""; // a text that is no time
    }
    return CheckTime(text, initial);
}

std::optional<double>
PfabricCommandLine::QueueSizeAmount(const std::string& text)
{
    const auto [number, unit] = SplitAmount(text);
    const std::optional<double> size = UnitSize(QUEUE_SIZE_UNITS, unit);
    if (!IsBareNumber(number) || !size)
    {
        return std::nullopt;
    }
    // Digits and a point only: strtod reads all of it (a huge number as infinity, no throw).
    return std::strtod(number.c_str(), nullptr) * *size;
}

std::string
PfabricCommandLine::CheckAsRead(const std::string& text,
                                const std::string& notWhole,
                                const std::string& units,
                                const std::function<double(const std::string&)>& read)
{
    const auto [number, unit] = SplitAmount(text);
    const double one = IsBareNumber(number) && !unit.empty() ? read("1" + unit) : -1;
    if (one <= 0 || std::strtod(number.c_str(), nullptr) * one > MAX_AS_READ)
    {
        return ""; // not a number and a unit, or beyond what is compared here
    }
    const std::optional<uint64_t> exact = ExactProduct(number, one);
    if (!exact)
    {
        return notWhole;
    }
    const double asRead = read(text);
    if (asRead != static_cast<double>(*exact))
    {
        // ns-3 multiplies in floating point and truncates: 4.1MB is 4099999 bytes to it.
        return "ns-3 reads it as " + PfabricJsonObject::FormatNumber(asRead) + " " + units +
               ", not " + std::to_string(*exact) + " (its floating-point product); give " +
               std::to_string(*exact) + (units == "bit/s" ? "bps" : unit.substr(unit.size() - 1));
    }
    return "";
}

std::string
PfabricCommandLine::FormatTime(Time time)
{
    const int64_t ns = time.GetNanoSeconds();
    if (ns == 0)
    {
        return "0";
    }
    for (auto unit = TIME_UNITS.rbegin(); unit != TIME_UNITS.rend(); ++unit)
    {
        const auto per = static_cast<int64_t>(unit->second);
        if (ns % per == 0)
        {
            return std::to_string(ns / per) + unit->first;
        }
    }
    return std::to_string(ns) + "ns";
}

bool
PfabricCommandLine::TimeOption::Convert(std::string* error)
{
    if (text == defaultText)
    {
        return true;
    }
    if (!bareUnit.empty() && text != "0" && IsBareNumber(text))
    {
        notices->push_back("--" + name + "=" + text + " without a unit is deprecated: use --" +
                           name + "=" + text + bareUnit);
        return ParseTime(name, text + bareUnit, target, error);
    }
    return ParseTime(name, text, target, error);
}

bool
PfabricCommandLine::TakeRenamed(const std::string& oldName,
                                const std::string& value,
                                std::string* error)
{
    const Renamed& renamed = m_renamed.at(oldName);
    if (!IsBareNumber(value))
    {
        *error = "--" + oldName + "=" + value + ": not a number";
        return false;
    }
    m_notices.push_back("--" + oldName + "=" + value + " is deprecated: use --" + renamed.newName +
                        "=" + value + renamed.unit);
    *m_texts.at(renamed.newName) = value + renamed.unit;
    return true;
}

bool
PfabricCommandLine::CheckArgument(const std::string& argument, std::string* error) const
{
    if (argument.rfind("-", 0) != 0)
    {
        // ns-3 ignores an argument that is not an option: flows=5 would run 2000 flows.
        *error = argument + ": not an option (expected --name=value; --PrintHelp lists them)";
        return false;
    }
    std::string name;
    std::string value;
    const bool hasValue = SplitArgument(argument, &name, &value);
    if (IsNs3Option(name))
    {
        return CheckNs3Argument(argument, name, value, error);
    }
    auto found = m_options.find(name);
    if (found == m_options.end())
    {
        *error = argument + ": unknown option (--PrintHelp lists them)";
        return false;
    }
    if (found->second == Kind::BOOL)
    {
        // What ns-3's own bool parser takes, in any case: SEM and other Python drivers pass
        // True and False.
        static const std::set<std::string> truths = {"1", "0", "true", "false", "t", "f"};
        std::string lower = value;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
            return static_cast<char>(std::tolower(c));
        });
        if (hasValue && truths.count(lower) == 0)
        {
            *error = argument + ": expected true, false, 1 or 0";
            return false;
        }
        return true;
    }
    if (!hasValue || value.empty())
    {
        *error = argument + ": expected a value (--" + name + "=...)";
        return false;
    }
    return true;
}

bool
PfabricCommandLine::CheckNs3Argument(const std::string& argument,
                                     const std::string& name,
                                     const std::string& value,
                                     std::string* error)
{
    // What ns-3 would answer with its whole help (an unknown attribute path or value) or stop the
    // program on (a malformed value, an unknown type to print), refused in one line first.
    TypeId tid;
    if (name == "PrintAttributes" && !TypeId::LookupByNameFailSafe(value, &tid))
    {
        *error = argument + ": no TypeId " + value + " in this ns-3";
        return false;
    }
    if (IsHardOption(name))
    {
        return true;
    }
    Ptr<const AttributeChecker> checker;
    std::optional<TypeId::AttributeInformation> attribute; // of an attribute path
    const std::size_t colons = name.rfind("::");
    if (colons != std::string::npos)
    {
        const std::string type = name.substr(0, colons);
        const std::string attributeName = name.substr(colons + 2);
        TypeId::AttributeInformation info;
        if (!TypeId::LookupByNameFailSafe(type, &tid))
        {
            *error = argument + ": no TypeId " + type + " in this ns-3";
            return false;
        }
        TypeId owner;
        if (!FindAttribute(tid, attributeName, &info, &owner))
        {
            *error = argument + ": " + type + " has no attribute " + attributeName;
            return false;
        }
        const std::string obsolete = RefuseObsolete(info);
        if (!obsolete.empty())
        {
            *error = argument + ": " + obsolete;
            return false;
        }
        // ns-3 sets a default only on the type that declares the attribute (Config::SetDefault
        // looks at the type's own attributes) and answers a parent's with its whole help.
        if (owner != tid)
        {
            *error = argument + ": " + attributeName + " is an attribute of " + owner.GetName() +
                     ", which " + type + " inherits, and ns-3 sets defaults on the type that " +
                     "declares them: --" + owner.GetName() + "::" + attributeName + "=" + value +
                     " (for every " + owner.GetName() + ")";
            return false;
        }
        // An object takes its attributes' defaults when it is made only for those ns-3 sets
        // then (ATTR_CONSTRUCT): Node's Id and SystemId, Channel's Id are only read back (the
        // twelfth probe: taken, recorded in meta.json, fct.csv unchanged).
        if ((info.flags & TypeId::ATTR_CONSTRUCT) == 0)
        {
            *error =
                argument + ": ns-3 does not set " + type + "'s " + attributeName +
                " when it makes one (the attribute lacks ATTR_CONSTRUCT), so its default changes "
                "nothing; leave it unset";
            return false;
        }
        checker = info.checker;
        attribute = info;
    }
    else
    {
        for (auto global = GlobalValue::Begin(); global != GlobalValue::End(); ++global)
        {
            if ((*global)->GetName() == name)
            {
                checker = (*global)->GetChecker();
            }
        }
    }
    if (checker && !TakesValue(checker, value))
    {
        *error = argument + ": '" + value + "' is not a value of " + name + " (" +
                 checker->GetValueTypeName() + ")";
        return false;
    }
    const std::string units = attribute ? CheckUnits(*attribute, value)
                              : checker ? CheckUnits(checker, value)
                                        : "";
    if (!units.empty())
    {
        *error = argument + ": " + units;
        return false;
    }
    if (name == SEED_GLOBAL)
    {
        // ns-3 aborts on 0 or past MAX_SEED at the first random variable, in every program (a
        // seed of --seed's is checked as the option's). The checker above took the value as
        // ns-3 reads it (an empty one, and a sign: +5 is 5, as RngRun's); its digits then.
        const std::string unsigned_ = !value.empty() && value[0] == '+' ? value.substr(1) : value;
        const bool digits = !unsigned_.empty() && unsigned_.size() <= 20 &&
                            unsigned_.find_first_not_of("0123456789") == std::string::npos;
        const std::string seed = value.empty() ? "expected a value"
                                 : digits ? CheckSeed(std::strtoull(unsigned_.c_str(), nullptr, 10))
                                          : CheckSeed(0);
        if (!seed.empty())
        {
            *error = argument + ": " + seed;
            return false;
        }
    }
    return true;
}

bool
PfabricCommandLine::IsNs3Option(const std::string& name)
{
    if (IsHardOption(name) || name.find("::") != std::string::npos)
    {
        return true; // ns-3's own arguments and attribute paths
    }
    for (auto global = GlobalValue::Begin(); global != GlobalValue::End(); ++global)
    {
        if ((*global)->GetName() == name)
        {
            return true;
        }
    }
    return false;
}

bool
PfabricCommandLine::SplitArgument(const std::string& argument,
                                  std::string* name,
                                  std::string* value)
{
    const std::string option = argument.substr(argument.rfind("--", 0) == 0 ? 2 : 1);
    const std::size_t equals = option.find('=');
    *name = option.substr(0, equals);
    *value = equals == std::string::npos ? "" : option.substr(equals + 1);
    return equals != std::string::npos;
}

bool
PfabricCommandLine::TakeSeedingGlobals(std::vector<std::string>& arguments, std::string* error)
{
    // A program with --seed and --run sets ns-3's RngSeed and RngRun from them
    // (RngSeedManager::SetSeed, SetRun) after parsing: ns-3's own options would be recorded and
    // then overwritten, a replication that is a silent copy of run 1. They drive the run as the
    // module's options instead (SEM numbers its replications by RngRun and passes --run too).
    for (const auto& [global, own] : SEEDING_GLOBALS)
    {
        const bool hasOwn = m_options.count(own) > 0;
        std::map<std::string, std::string> given; // name -> the last value given
        std::map<std::string, std::string> typed; // name -> as given, for the errors
        std::vector<std::size_t> globalAt;        // where the command line gives ns-3's name
        for (std::size_t i = 1; i < arguments.size(); ++i)
        {
            std::string name;
            std::string value;
            if (arguments[i].rfind("-", 0) == 0 && SplitArgument(arguments[i], &name, &value) &&
                (name == global || (hasOwn && name == own)))
            {
                if (name == global && value.empty())
                {
                    *error = "--" + name + "=: expected a value (--" + name + "=...)";
                    return false;
                }
                given[name] = value;
                typed[name] = "--" + name + "=" + value;
                if (name == global)
                {
                    globalAt.push_back(i);
                }
            }
        }
        // In every program: the variable's value empty, or against the command line's (ns-3
        // would run the command line's, and meta.json record both). NS_GLOBAL_VALUE=RngRun=7,
        // ns-3's own way to number replications, was overwritten by --run's default as the
        // command line's was: it drives the run unless the command line names its value
        // (CheckEnvironment has checked it).
        for (const auto& [name, value] : GetEnvironmentSettings(GLOBAL_VARIABLE))
        {
            if (name != global)
            {
                continue;
            }
            if (value.empty())
            {
                *error = GLOBAL_VARIABLE + "'s " + name + "=: expected a value (" + name + "=...)";
                return false;
            }
            if (!globalAt.empty() && given[global] != value)
            {
                *error = GLOBAL_VARIABLE + "'s " + name + "=" + value + " and " + typed[global] +
                         ": give one value";
                return false;
            }
            if (!given.count(global))
            {
                given[global] = value;
                typed[global] = GLOBAL_VARIABLE + "'s " + name + "=" + value;
                if (hasOwn && !given.count(own))
                {
                    arguments.push_back("--" + own + "=" + value);
                }
            }
        }
        if (!hasOwn)
        {
            continue;
        }
        for (std::size_t i : globalAt)
        {
            std::string name;
            std::string value;
            SplitArgument(arguments[i], &name, &value);
            // Checked as ns-3's, so that a bad value is refused under the name given.
            if (!CheckNs3Argument(arguments[i], name, value, error))
            {
                return false;
            }
            arguments[i] = "--" + own + "=" + value;
        }
        if (given.count(global) && !given.count(own))
        {
            m_givenAs[own] = typed[global]; // a refusal of its value names it as typed
        }
        if (given.size() == 2 && given[global] != given[own])
        {
            *error = typed[global] + " and " + typed[own] + ": ns-3's " + global +
                     " is this program's --" + own + "; give one value";
            return false;
        }
    }
    return true;
}

std::string
PfabricCommandLine::DescribeNs3Setting(const std::string& path) const
{
    for (const auto& [name, value] : m_ns3Settings)
    {
        if (name == path)
        {
            return "--" + name + "=" + value;
        }
    }
    // An attribute path is NS_ATTRIBUTE_DEFAULT's, a global value's name NS_GLOBAL_VALUE's.
    const std::string& variable =
        path.find("::") == std::string::npos ? GLOBAL_VARIABLE : ATTRIBUTE_VARIABLE;
    for (const auto& [name, value] : GetEnvironmentSettings(variable))
    {
        if (name == path)
        {
            return variable + "'s " + name + "=" + value;
        }
    }
    return "";
}

std::vector<std::pair<std::string, std::string>>
PfabricCommandLine::GetEnvironmentSettings(const std::string& variable)
{
    // As ns-3's Environment (and ObjectBase and GlobalValue before it) splits them.
    std::vector<std::pair<std::string, std::string>> settings;
    const char* text = std::getenv(variable.c_str());
    std::istringstream entries(text ? text : "");
    std::string entry;
    while (std::getline(entries, entry, ';'))
    {
        if (!entry.empty())
        {
            const std::size_t equals = entry.find('=');
            settings.emplace_back(entry.substr(0, equals),
                                  equals == std::string::npos ? "" : entry.substr(equals + 1));
        }
    }
    return settings;
}

bool
PfabricCommandLine::CheckEnvironment(std::string* error)
{
    for (const std::string& variable : {ATTRIBUTE_VARIABLE, GLOBAL_VARIABLE})
    {
        for (const auto& [name, value] : GetEnvironmentSettings(variable))
        {
            const std::string setting = variable + "'s " + name + "=" + value;
            const bool isPath = name.find("::") != std::string::npos;
            if (variable == ATTRIBUTE_VARIABLE && !isPath)
            {
                *error = setting + ": expected an attribute path, ns3::Type::Attribute=value";
                return false;
            }
            if (variable == GLOBAL_VARIABLE && (isPath || !IsNs3Option(name)))
            {
                *error = setting + ": no global value " + name + " in this ns-3 (--PrintGlobals " +
                         "lists them)";
                return false;
            }
            if (!CheckNs3Argument(setting, name, value, error))
            {
                return false;
            }
        }
    }
    return true;
}

bool
PfabricCommandLine::Parse(int argc, char* argv[], std::string* error)
{
    std::vector<char*> forNs3{argv, argv + std::min(argc, 1)};
    m_notices.clear();
    m_ns3Settings.clear();
    m_givenAs.clear();
    std::vector<std::string> arguments{argv, argv + argc};
    if (!CheckEnvironment(error) || !TakeSeedingGlobals(arguments, error))
    {
        return false;
    }
    // ns-3 applies NS_ATTRIBUTE_DEFAULT only where no object factory sets the attribute, and the
    // schemes' factories set many from the preset (PfabricQueueDisc's MaxSize): the variable's
    // MaxSize=0p ran with the preset's buffer. As defaults its settings are taken as the command
    // line's are (PfabricPresetAttributes::IsConfigured).
    for (const auto& [name, value] : GetEnvironmentSettings(ATTRIBUTE_VARIABLE))
    {
        Config::SetDefault(name, StringValue(value));
    }
    for (std::size_t i = 1; i < arguments.size(); ++i)
    {
        char* argument = arguments[i].data();
        std::string name;
        std::string value;
        if (argument[0] == '-')
        {
            SplitArgument(argument, &name, &value);
            if (m_renamed.count(name))
            {
                if (!TakeRenamed(name, value, error))
                {
                    return false;
                }
                continue;
            }
        }
        if (!CheckArgument(argument, error))
        {
            return false;
        }
        if (argument[0] == '-' && SplitArgument(argument, &name, &value) && m_texts.count(name))
        {
            *m_texts[name] = value; // all of it (ns-3 would keep its first word)
            continue;
        }
        if (argument[0] == '-' && SplitArgument(argument, &name, &value) && IsNs3Option(name) &&
            !IsHardOption(name))
        {
            RecordNs3Setting(name, value);
        }
        forNs3.push_back(argument);
    }
    // ns-3 applies NS_ATTRIBUTE_DEFAULT to each object it makes, over the default the command
    // line set: meta.json would record the command line's value, the run have the variable's.
    for (const auto& [name, value] : GetEnvironmentSettings(ATTRIBUTE_VARIABLE))
    {
        for (const auto& [given, typed] : m_ns3Settings)
        {
            if (given == name && typed != value)
            {
                *error = ATTRIBUTE_VARIABLE + "'s " + name + "=" + value + " and --" + name + "=" +
                         typed + ": ns-3 takes the variable's over the command line's; give one " +
                         "value";
                return false;
            }
        }
    }
    CommandLine::Parse(static_cast<int>(forNs3.size()), forNs3.data());
    for (const auto& option : m_numbers)
    {
        if (!option->Convert(error))
        {
            // Convert quotes --name=text; an option ns-3's name set is quoted as typed.
            const std::string quoted = "--" + option->name + "=" + option->text;
            if (m_givenAs.count(option->name) && error->rfind(quoted, 0) == 0)
            {
                *error = m_givenAs.at(option->name) + error->substr(quoted.size());
            }
            return false;
        }
    }
    return true;
}

bool
PfabricCommandLine::ParseInteger(const std::string& text,
                                 bool isSigned,
                                 long double low,
                                 long double high,
                                 long double* value,
                                 std::string* why)
{
    // Digits only, after an optional minus: no sign for an unsigned option (strtoull would
    // wrap "-1"), no blanks, no base prefixes, no exponent, no trailing text.
    const bool negative = !text.empty() && text[0] == '-';
    const std::string digits = negative ? text.substr(1) : text;
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
    {
        *why = "not a whole number";
        return false;
    }
    if (negative && !isSigned)
    {
        *why = "must not be negative";
        return false;
    }
    errno = 0;
    const long double magnitude = std::strtold(digits.c_str(), nullptr);
    const long double parsed = negative ? -magnitude : magnitude;
    if (errno == ERANGE || parsed < low || parsed > high)
    {
        std::ostringstream range;
        range << "out of range (" << std::fixed;
        range.precision(0);
        range << low << " to " << high << ")";
        *why = range.str();
        return false;
    }
    *value = parsed;
    return true;
}

bool
PfabricCommandLine::ParseReal(const std::string& text, long double* value, std::string* why)
{
    const char* begin = text.c_str();
    char* end = nullptr;
    errno = 0;
    const long double parsed = std::strtold(begin, &end);
    if (text.empty() || end != begin + text.size())
    {
        *why = "not a number";
        return false;
    }
    if (!std::isfinite(parsed) || errno == ERANGE)
    {
        *why = "not a finite number";
        return false;
    }
    // Decimal only: strtold also reads hexadecimal (0x1p-1) and skips leading blanks;
    // pfabric-analysis's values take neither.
    if (text.find_first_not_of("0123456789+-.eE") != std::string::npos)
    {
        *why = "not a number";
        return false;
    }
    *value = parsed;
    return true;
}

} // namespace ns3
