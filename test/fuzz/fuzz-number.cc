/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Fuzz target: the strict number parser of the programs' options (PfabricCommandLine::ParseNumber
// and its ParseInteger and ParseReal), for every arithmetic type an option may have. The input is
// one option value. An integer is accepted exactly when it is decimal digits after an optional
// minus (signed types only) and within the type, and then has that value, as checked here by
// exact arithmetic apart from the parser's; a real number, when it is decimal (the grammar of
// pfabric_analysis.values: digits, a point, an exponent) and finite within the type.

#include "fuzz-common.h"

#include "ns3/pfabric-command-line.h"

#include <cmath>
#include <limits>
#include <regex>

using namespace ns3;
using pfabric_fuzz::Require;

namespace
{

/// The integer text's value, if it is decimal digits after an optional minus and fits in 128
/// bits with room to spare; otherwise false (too long is out of every type's range).
bool
ExactInteger(const std::string& text, bool* negative, unsigned __int128* magnitude)
{
    *negative = !text.empty() && text[0] == '-';
    std::string digits = text.substr(*negative ? 1 : 0);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
    *magnitude = 0;
    for (char digit : digits.substr(0, 30))
    {
        *magnitude = *magnitude * 10 + (digit - '0');
    }
    if (digits.size() > 30)
    {
        *magnitude = ~static_cast<unsigned __int128>(0); // far out of range
    }
    return true;
}

template <typename T>
void
CheckInteger(const std::string& text)
{
    T value{};
    std::string error;
    const bool parsed = PfabricCommandLine::ParseNumber("n", text, &value, &error);
    bool negative;
    unsigned __int128 magnitude;
    bool expected = ExactInteger(text, &negative, &magnitude);
    if (expected)
    {
        const auto high = static_cast<unsigned __int128>(std::numeric_limits<T>::max());
        const auto low = std::is_signed_v<T> ? high + 1 : 0; // the magnitude of lowest()
        expected = negative ? (std::is_signed_v<T> && magnitude <= low) : magnitude <= high;
    }
    Require(parsed == expected,
            std::string(parsed ? "accepted" : "refused") + " the integer '" + text + "'");
    if (!parsed)
    {
        pfabric_fuzz::RequireErrorLine(error, "--n=" + text + ": ");
        return;
    }
    const auto exact = static_cast<__int128>(magnitude);
    Require(static_cast<__int128>(value) == (negative ? -exact : exact),
            "the integer '" + text + "' parsed to another value");
}

template <typename T>
void
CheckReal(const std::string& text)
{
    static const std::regex decimal("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");
    T value{};
    std::string error;
    const bool parsed = PfabricCommandLine::ParseNumber("x", text, &value, &error);
    if (!parsed)
    {
        pfabric_fuzz::RequireErrorLine(error, "--x=" + text + ": ");
        return;
    }
    Require(std::regex_match(text, decimal), "accepted the number '" + text + "', not decimal");
    Require(std::isfinite(value), "accepted '" + text + "' as a number that is not finite");
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    // An option's value: a command-line argument has no NUL byte (and one with a newline would be
    // quoted on two lines).
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (text.find_first_of(std::string("\n\0", 2)) != std::string::npos)
    {
        return 0;
    }
    CheckInteger<uint8_t>(text);
    CheckInteger<uint16_t>(text);
    CheckInteger<uint32_t>(text);
    CheckInteger<uint64_t>(text);
    CheckInteger<int32_t>(text);
    CheckInteger<int64_t>(text);
    CheckReal<float>(text);
    CheckReal<double>(text);
    return 0;
}
