/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_CONFIGURED_DEFAULTS_H
#define PFABRIC_CONFIGURED_DEFAULTS_H

#include "ns3/type-id.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief Which of ns-3's attribute defaults the user has configured.
 *
 * Config::SetDefault (an attribute path on the command line, --ns3::Type::Name=value, and
 * NS_ATTRIBUTE_DEFAULT, which PfabricCommandLine applies the same way) replaces an attribute's
 * initialValue in its TypeId; the declared default stays in originalInitialValue. A default
 * configured to the declared value counts as configured too: what the user set is what a run
 * records, so a part of the module that sets the attribute itself, or never builds its object,
 * must say so whatever the value (the presets yield to it, PfabricPresetAttributes; the fabric's
 * links and the socket factory refuse it).
 */
class PfabricConfiguredDefaults
{
  public:
    /**
     * @param tid a type
     * @param name an attribute of it (declared by it or a parent)
     * @return whether its default has been configured
     */
    static bool IsConfigured(TypeId tid, const std::string& name);

    /**
     * @param tid a type
     * @param names attributes of it (declared by it or a parent); none: none listed
     * @return the configured ones' paths, named by the type that declares each (as
     *         Config::SetDefault takes them), e.g. ns3::PfabricLinkNetDevice::DataRate, in order
     */
    static std::vector<std::string> ListConfigured(TypeId tid,
                                                   const std::vector<std::string>& names);

    /**
     * @param tid a type
     * @return ListConfigured of every attribute it declares itself
     */
    static std::vector<std::string> ListConfigured(TypeId tid);

    /**
     * @brief A configured default of a type of one role (a queue disc, a net device) that a run
     * never creates: it changes nothing, so a program refuses it (issue 54's eleventh probe:
     * RedQueueDisc::MinTh under pfabric was taken and fct.csv unchanged).
     * @param role the role's base type, e.g. ns3::QueueDisc
     * @param roleName the role's name in the plural, e.g. "queue discs"
     * @param made the types the run creates (any role); a type they are or derive from counts
     *        as created
     * @param why set to why it changes nothing, when one is found
     * @return the first such default's path, by type registration order; none: empty
     */
    static std::string FindUnmadeTypeDefault(TypeId role,
                                             const std::string& roleName,
                                             const std::vector<TypeId>& made,
                                             std::string* why);
};

} // namespace ns3

#endif /* PFABRIC_CONFIGURED_DEFAULTS_H */
