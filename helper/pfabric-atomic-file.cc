/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Writing a file whole or not at all (a temporary name, then a rename); reading one whole, in one
// pass (a pipe too).

#include "pfabric-atomic-file.h"

#include <cstdio>
#include <fstream>
#include <sys/stat.h>
#include <utility>

namespace ns3
{
namespace pfabric
{

bool
WriteFileAtomically(const std::string& path, const std::string& text, std::string* error)
{
    struct stat existing;
    if (stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode))
    {
        // A device or a FIFO (--dumpFlows=/dev/null): the rename would put a file in its place,
        // replacing /dev/null itself when run as root.
        *error = path + ": cannot write the file (not a regular file)";
        return false;
    }
    std::string temporary = path + ".partial";
    bool written;
    {
        std::ofstream out(temporary);
        out << text;
        written = static_cast<bool>(out.flush());
    }
    if (!written || std::rename(temporary.c_str(), path.c_str()) != 0)
    {
        std::remove(temporary.c_str());
        *error = path + ": cannot write the file";
        return false;
    }
    return true;
}

bool
ReadWholeFile(const std::string& path, std::string* text)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        return false;
    }
    std::string contents;
    char buffer[1 << 16];
    // One pass: read stops at the end (eof and fail) or at an error (bad: a directory's read).
    while (in.read(buffer, sizeof(buffer)) || in.gcount() > 0)
    {
        contents.append(buffer, in.gcount());
    }
    if (in.bad())
    {
        return false;
    }
    *text = std::move(contents);
    return true;
}

void
SkipByteOrderMark(std::istream& in)
{
    static const std::string MARK = "\xEF\xBB\xBF";
    for (char expected : MARK)
    {
        if (in.peek() != static_cast<unsigned char>(expected))
        {
            in.seekg(0);
            return;
        }
        in.get();
    }
}

} // namespace pfabric
} // namespace ns3
