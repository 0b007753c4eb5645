/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_ATOMIC_FILE_H
#define PFABRIC_ATOMIC_FILE_H

#include <istream>
#include <string>

namespace ns3
{
namespace pfabric
{

/**
 * @ingroup pfabric
 * @brief Write a file whole or not at all: to "<path>.partial", then renamed to path.
 * @param path the file
 * @param text its contents
 * @param[out] error on failure, one line: "<path>: cannot write the file"
 * @return true on success; on failure no file is left behind
 */
bool WriteFileAtomically(const std::string& path, const std::string& text, std::string* error);

/**
 * @ingroup pfabric
 * @brief Read a file whole, in one pass from its start to its end, without seeking or asking
 * its size: a pipe (--flowFile=<(...), a FIFO, /dev/stdin) is read as a regular file is, and
 * can be read only once.
 * @param path the file
 * @param[out] text its contents (unchanged on failure)
 * @return false if the file cannot be opened or read (e.g. a directory)
 */
bool ReadWholeFile(const std::string& path, std::string* text);

/**
 * @ingroup pfabric
 * @brief Skip a UTF-8 byte-order mark at the start of a text file being read (what Windows
 * editors and spreadsheets put there): invisible, it would otherwise spoil the first line.
 * @param in the file, at its start; a stream that can seek back (a file read whole into an
 *        std::istringstream, ReadWholeFile: a pipe cannot)
 */
void SkipByteOrderMark(std::istream& in);

} // namespace pfabric
} // namespace ns3

#endif /* PFABRIC_ATOMIC_FILE_H */
