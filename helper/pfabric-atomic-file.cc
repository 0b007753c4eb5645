/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Writing a file whole or not at all (a temporary name, then a rename).

#include "pfabric-atomic-file.h"

#include <cstdio>
#include <fstream>

namespace ns3
{
namespace pfabric
{

bool
WriteFileAtomically(const std::string& path, const std::string& text, std::string* error)
{
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

} // namespace pfabric
} // namespace ns3
