/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_PROVENANCE_H
#define PFABRIC_PROVENANCE_H

#include <string>

namespace ns3
{
namespace pfabric
{

/**
 * @ingroup pfabric
 * @return this module's version, from the VERSION file at build time ("unknown" when the build
 * did not pass it)
 */
std::string ModuleVersion();

/**
 * @ingroup pfabric
 * @return the ns-3 release the module was built against, e.g. "3.44" ("unknown" when the build
 * did not pass it)
 */
std::string Ns3Version();

/**
 * @ingroup pfabric
 * @return the module's git commit at build time (40 hex digits, with "-dirty" appended when
 * tracked files differed from it); in a copy that is not a git checkout, the commit the build
 * was given (PFABRIC_GIT_COMMIT), else "unknown"
 */
std::string GitCommit();

} // namespace pfabric
} // namespace ns3

#endif /* PFABRIC_PROVENANCE_H */
