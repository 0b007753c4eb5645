/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The only translation unit that the build's provenance is compiled into: a new version, ns-3
// release or git commit recompiles this file alone, not the module.

#include "pfabric-provenance.h"

// Generated at build time, rewritten only when the commit changes: by
// cmake/pfabric-git-commit.cmake (CMake) or by wscript (waf).
#include "pfabric-git-commit.h"

#ifndef PFABRIC_VERSION
#define PFABRIC_VERSION "unknown"
#endif
#ifndef PFABRIC_NS3_VERSION
#define PFABRIC_NS3_VERSION "unknown"
#endif

namespace ns3
{
namespace pfabric
{

std::string
ModuleVersion()
{
    return PFABRIC_VERSION;
}

std::string
Ns3Version()
{
    return PFABRIC_NS3_VERSION;
}

std::string
GitCommit()
{
    return PFABRIC_GIT_COMMIT;
}

} // namespace pfabric
} // namespace ns3
