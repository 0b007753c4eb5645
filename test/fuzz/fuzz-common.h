/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// What the fuzz targets share: the input as a file (the parsers read paths) and the checks that
// turn a broken contract into a crash libFuzzer reports. A parser's contract with bad input: it
// returns an error of one line, naming the file (and line) or the option, and nothing else
// happens; with good input, what it returns satisfies what its header promises.

#ifndef PFABRIC_FUZZ_COMMON_H
#define PFABRIC_FUZZ_COMMON_H

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/types.h>
#include <unistd.h>

namespace pfabric_fuzz
{

/// Stop with a message: libFuzzer reports the abort as a crash and saves the input.
[[noreturn]] inline void
Fail(const std::string& what)
{
    std::fprintf(stderr, "fuzz: contract broken: %s\n", what.c_str());
    std::abort();
}

/// Fail unless the condition holds.
inline void
Require(bool condition, const std::string& what)
{
    if (!condition)
    {
        Fail(what);
    }
}

/// A refusal must be one non-empty line starting with `prefix` (the file, or "--").
inline void
RequireErrorLine(const std::string& error, const std::string& prefix)
{
    Require(!error.empty(), "a refusal without a message");
    Require(error.find('\n') == std::string::npos, "a message of more than one line: " + error);
    Require(error.compare(0, prefix.size(), prefix) == 0,
            "a message not starting with '" + prefix + "': " + error);
}

/// A directory of this process for the files a target writes: in memory (/dev/shm) where there
/// is one, as every input is written and read there (a disk-backed /tmp made the file targets 20
/// times slower). libFuzzer ends with _Exit, so no exit handler removes it: each target removes
/// those of ended processes when it starts.
inline const std::filesystem::path&
Directory()
{
    static const std::filesystem::path directory = [] {
        std::filesystem::path base = access("/dev/shm", W_OK) == 0
                                         ? std::filesystem::path("/dev/shm")
                                         : std::filesystem::temp_directory_path();
        const std::string prefix = "pfabric-fuzz-";
        std::error_code ignored;
        for (const auto& entry : std::filesystem::directory_iterator(base, ignored))
        {
            const std::string name = entry.path().filename().string();
            const std::string pid = name.substr(std::min(prefix.size(), name.size()));
            if (name.rfind(prefix, 0) == 0 && !pid.empty() && pid.size() < 10 &&
                pid.find_first_not_of("0123456789") == std::string::npos &&
                kill(std::stoi(pid), 0) != 0 && errno == ESRCH)
            {
                std::filesystem::remove_all(entry.path(), ignored);
            }
        }
        auto path = base / (prefix + std::to_string(getpid()));
        std::filesystem::create_directories(path);
        return path;
    }();
    return directory;
}

/// Write bytes to a file of Directory(); return its path.
inline std::string
WriteInput(const std::string& name, const uint8_t* data, size_t size)
{
    std::string path = (Directory() / name).string();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    Require(static_cast<bool>(out.flush()), "cannot write the input file " + path);
    return path;
}

} // namespace pfabric_fuzz

#endif /* PFABRIC_FUZZ_COMMON_H */
