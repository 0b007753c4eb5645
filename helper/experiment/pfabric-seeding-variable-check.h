/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The programs' check of NS_GLOBAL_VALUE's RngRun and RngSeed before ns-3's library starts: a
// value ns-3's UintegerValue cannot read whole (abc, 1.5, 1e3) aborts the process in libns3-core's
// static initialisation (GlobalValue::InitializeFromEnv), before main and before the command
// line's check of the same value runs. An executable's preinit functions run before any shared
// library's initialisers (ELF's DT_PREINIT_ARRAY), so this header, compiled only into the
// programs that include it, refuses such a value in the line the command line gives, exit 1.
// Elsewhere than ELF it checks nothing (ns-3 then aborts as before).

#ifndef PFABRIC_SEEDING_VARIABLE_CHECK_H
#define PFABRIC_SEEDING_VARIABLE_CHECK_H

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace ns3
{
namespace pfabric
{

/**
 * @param begin a value of a UintegerValue, as text
 * @param end its end
 * @return whether ns-3's UintegerValue::DeserializeFromString reads it to its end (istream's
 *         extraction of an unsigned number: white space, a sign, digits), so that it does not
 *         abort on it; an empty value or a lone sign it reads to the end and refuses without
 *         aborting (the programs' own check names those)
 */
inline bool
IsReadToTheEndAsUnsigned(const char* begin, const char* end)
{
    while (begin < end && std::isspace(static_cast<unsigned char>(*begin)))
    {
        ++begin;
    }
    begin += begin < end && (*begin == '+' || *begin == '-') ? 1 : 0;
    while (begin < end && std::isdigit(static_cast<unsigned char>(*begin)))
    {
        ++begin;
    }
    return begin == end;
}

/**
 * @param path the program's argv[0] (ns3.37-pfabric-websearch-optimized in an ns-3 tree)
 * @param end where the name as its errors give it ends (before a build profile's suffix)
 * @return where that name begins, e.g. at pfabric-websearch
 */
inline const char*
ProgramNameOf(const char* path, const char** end)
{
    const char* slash = std::strrchr(path, '/');
    const char* name = slash ? slash + 1 : path;
    name = std::strstr(name, "pfabric-") ? std::strstr(name, "pfabric-") : name;
    *end = name + std::strlen(name);
    for (const char* profile : {"-debug", "-default", "-optimized", "-release"})
    {
        const std::size_t length = std::strlen(profile);
        if (std::size_t(*end - name) > length && std::strcmp(*end - length, profile) == 0)
        {
            *end -= length;
        }
    }
    return name;
}

/**
 * @brief Write text to stderr, unbuffered.
 * @param begin the text
 * @param end its end
 */
inline void
WriteError(const char* begin, const char* end)
{
    while (begin < end)
    {
        const ssize_t written = write(STDERR_FILENO, begin, end - begin);
        if (written <= 0)
        {
            return;
        }
        begin += written;
    }
}

/**
 * @brief The preinit function: refuse an RngRun or RngSeed in NS_GLOBAL_VALUE that ns-3 would
 * abort on while loading, before it loads. Nothing but the C library may be ready yet: neither
 * iostream nor a preloaded allocator, so it allocates nothing.
 * @param argv the program's arguments (its name)
 * @param environment the program's environment (envp)
 */
inline void
CheckSeedingVariable(int /* argc */, char** argv, char** environment)
{
    // The environment as given (the C library's getenv is not ready before its own
    // initialiser).
    const char* entry = nullptr;
    const char prefix[] = "NS_GLOBAL_VALUE=";
    for (char** variable = environment; variable && *variable; ++variable)
    {
        entry = std::strncmp(*variable, prefix, sizeof(prefix) - 1) == 0
                    ? *variable + sizeof(prefix) - 1
                    : entry;
    }
    while (entry && *entry)
    {
        const char* end =
            std::strchr(entry, ';') ? std::strchr(entry, ';') : entry + std::strlen(entry);
        const char* equals = std::find(entry, end, '=');
        const std::size_t nameLength = equals - entry;
        const bool seeding = (nameLength == 6 && std::strncmp(entry, "RngRun", 6) == 0) ||
                             (nameLength == 7 && std::strncmp(entry, "RngSeed", 7) == 0);
        const char* value = equals < end ? equals + 1 : end;
        if (seeding && !IsReadToTheEndAsUnsigned(value, end))
        {
            const char* nameEnd = nullptr;
            const char* program = ProgramNameOf(argv && argv[0] ? argv[0] : "", &nameEnd);
            const char* parts[][2] = {{program, nameEnd},
                                      {": error: NS_GLOBAL_VALUE's ", nullptr},
                                      {entry, end},
                                      {": '", nullptr},
                                      {value, end},
                                      {"' is not a value of ", nullptr},
                                      {entry, equals},
                                      {" (ns3::UintegerValue)\n", nullptr}};
            for (const auto& part : parts)
            {
                WriteError(part[0], part[1] ? part[1] : part[0] + std::strlen(part[0]));
            }
            _exit(1);
        }
        entry = *end ? end + 1 : end;
    }
}

#if defined(__ELF__)
/// Run before libns3-core's static initialisers (DT_PREINIT_ARRAY: executables only).
[[gnu::used, gnu::section(".preinit_array")]] static void (*const g_checkSeedingVariable)(int,
                                                                                          char**,
                                                                                          char**) =
    &CheckSeedingVariable;
#endif

} // namespace pfabric
} // namespace ns3

#endif // PFABRIC_SEEDING_VARIABLE_CHECK_H
