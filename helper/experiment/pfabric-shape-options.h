/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricShapeOptions: the options that shape one topology of several, and the refusal of one
// given for another topology, where it would shape nothing.

#ifndef PFABRIC_SHAPE_OPTIONS_H
#define PFABRIC_SHAPE_OPTIONS_H

#include "pfabric-command-line.h"
#include "pfabric-option-table.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 * @brief A program's shape options (--k of a fat-tree, --leaves of a leaf-spine, --hosts of a
 * star, ...), each with the topology it shapes. One given away from its default for a run of
 * another topology would be recorded and shape nothing (issue 54's seventh and eighth probes:
 * the FCT programs and pfabric-fabric took them); at its default it is taken (a rerun gives
 * every recorded option again).
 * @tparam T the program's topology enum
 */
template <typename T>
class PfabricShapeOptions
{
  public:
    /// @param topologies the topologies' names, as --topology takes them
    explicit PfabricShapeOptions(const PfabricChoices<T>& topologies)
        : m_topologies(topologies)
    {
    }

    /**
     * @brief Add a shape option.
     * @param name its name
     * @param value where its value is, read at Check
     * @param unset its default
     * @param topology the topology it shapes
     */
    void Add(const std::string& name, const uint32_t& value, uint32_t unset, T topology)
    {
        m_options.push_back({name, &value, unset, topology});
    }

    /**
     * @param topology the run's topology
     * @param fabric the run's fabric for the message, e.g. "this run's fabric is a star"
     * @param given an option as given, e.g. --k=4 (PfabricOptionTable::Given,
     *        PfabricCommandLine::DescribeGiven)
     * @return "" or the refusal of the first option, in the order added, given away from its
     *         default for another topology
     */
    std::string Check(T topology,
                      const std::string& fabric,
                      const std::function<std::string(const std::string&, uint32_t)>& given) const
    {
        for (const Option& option : m_options)
        {
            if (*option.value != option.unset && option.topology != topology)
            {
                return PfabricOptionTable::ShapesNothing(
                    given(option.name, *option.value),
                    "an option of --topology=" + PfabricChoiceName(m_topologies, option.topology) +
                        ", and " + fabric);
            }
        }
        return "";
    }

  private:
    /// A shape option.
    struct Option
    {
        std::string name;      //!< its name
        const uint32_t* value; //!< its value
        uint32_t unset;        //!< its default
        T topology;            //!< the topology it shapes
    };

    PfabricChoices<T> m_topologies; //!< the topologies' names
    std::vector<Option> m_options;  //!< the options, in the order added
};

} // namespace ns3

#endif /* PFABRIC_SHAPE_OPTIONS_H */
