/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_SCHEME_RECIPE_H
#define PFABRIC_SCHEME_RECIPE_H

#include "ns3/attribute.h"
#include "ns3/pfabric-preset.h"
#include "ns3/ptr.h"

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief A scheme as data: the TypeId of each of its parts and the attribute values it gives
 * them, some fixed, some read from the preset it runs with.
 *
 * The parts (Part) are the switch ports' queue disc, the host NICs' (none: the ports'), the hosts'
 * PfabricTcpSocketFactory (what every transport shares), the sockets it creates (its SocketType)
 * and their congestion control (none: the sockets' own). PfabricSchemeHelper installs a recipe;
 * the built-in ones are PfabricSchemeRegistry's entries and PfabricCustomScheme builds one from
 * the command line. A value comes in one of two kinds, with the precedence of doc/pfabric.rst,
 * "Presets" (PfabricPresetAttributes):
 * - SetPresetAttribute: a preset's number (a function of the PfabricPreset) or a value the scheme
 *   starts from; a default the user configured (Config::SetDefault, --ns3::Type::Name=value) beats
 *   it;
 * - SetAttribute: what makes the scheme (DCTCP's sockets negotiate ECN), set whatever the
 *   configured defaults.
 * Values the helper's user sets (PfabricSchemeHelper::SetSocketAttribute, ...) beat both.
 *
 * Adding a setting to a scheme touches the class that has the attribute and the recipe that sets
 * it, e.g. in PfabricSchemeRegistry's dctcp entry:
 * @code
 *   dctcp.SetPresetAttribute(PfabricSchemeRecipe::PORT_QUEUE_DISC, "ARED", BooleanValue(true));
 * @endcode
 */
class PfabricSchemeRecipe
{
  public:
    /// The parts a recipe configures, each an ns-3 TypeId with attribute values.
    enum Part
    {
        PORT_QUEUE_DISC = 0, //!< every switch port's queue disc
        HOST_QUEUE_DISC,     //!< every host NIC's queue disc ("": the ports', as configured)
        SOCKET_FACTORY,      //!< the hosts' PfabricTcpSocketFactory: what every transport shares
        SOCKET,              //!< the sockets' class (the factory's SocketType)
        CONGESTION_CONTROL,  //!< the sockets' CongestionControl ("": the class's own or default)
        PART_COUNT           //!< the number of parts
    };

    /// A preset's value of an attribute, read from the preset the recipe runs with.
    using PresetValue = std::function<Ptr<AttributeValue>(const PfabricPreset&)>;

    /**
     * @brief A PresetValue of one number of the preset, e.g.
     * FromPreset<TimeValue>(&PfabricPreset::minTcpRto).
     * @tparam V the AttributeValue class, e.g. TimeValue
     * @tparam M the member's type
     * @param member the preset's number
     * @return the PresetValue
     */
    template <class V, class M>
    static PresetValue FromPreset(M PfabricPreset::*member)
    {
        return [member](const PfabricPreset& preset) { return V(preset.*member).Copy(); };
    }

    /// @param name the scheme's name (a registry's key, the --scheme value)
    explicit PfabricSchemeRecipe(const std::string& name = "");

    /// @return the scheme's name
    const std::string& GetName() const;

    /// @param name the scheme's name
    void SetName(const std::string& name);

    /// @param description one line on what the scheme is, for --PrintHelp and the docs
    void SetDescription(const std::string& description);

    /// @return the description
    const std::string& GetDescription() const;

    /**
     * @brief Choose the TypeId of a part (its values stay).
     * @param part the part
     * @param type a TypeId name; "" for the host NICs' queue disc: the ports'; for the
     *        congestion control: the sockets' own or their default
     */
    void SetType(Part part, const std::string& type);

    /**
     * @param part the part
     * @return its TypeId name, or ""
     */
    const std::string& GetType(Part part) const;

    /**
     * @brief Set what makes the scheme: beats a configured default.
     * @param part the part
     * @param name an attribute of the part's TypeId
     * @param value its value
     * @return this
     */
    PfabricSchemeRecipe& SetAttribute(Part part,
                                      const std::string& name,
                                      const AttributeValue& value);

    /**
     * @brief Set a value the scheme starts from; a configured default beats it.
     * @param part the part
     * @param name an attribute of the part's TypeId
     * @param value its value
     * @return this
     */
    PfabricSchemeRecipe& SetPresetAttribute(Part part,
                                            const std::string& name,
                                            const AttributeValue& value);

    /**
     * @brief Set a value read from the preset; a configured default beats it.
     * @param part the part
     * @param name an attribute of the part's TypeId
     * @param value the preset's value (FromPreset, or a function of the preset)
     * @return this
     */
    PfabricSchemeRecipe& SetPresetAttribute(Part part,
                                            const std::string& name,
                                            const PresetValue& value);

    /**
     * @brief Give a part another recipe's TypeId and values (the custom scheme takes the preset's
     * numbers of a transport from the built-in recipe of its socket class).
     * @param part the part
     * @param other the recipe
     */
    void CopyPart(Part part, const PfabricSchemeRecipe& other);

    /**
     * @brief A part's values for a preset.
     * @param part the part
     * @param preset the preset
     * @return its TypeId and values, preset ones (SetPresetValue) and fixed ones (SetValue)
     */
    PfabricPresetAttributes GetAttributes(Part part, const PfabricPreset& preset) const;

    /**
     * @param part the part
     * @return the attributes the recipe sets on the part whatever their configured defaults
     *         (SetAttribute's), in the order set
     */
    std::vector<std::string> GetFixedAttributes(Part part) const;

    /**
     * @param part the part
     * @param name an attribute
     * @param preset the preset
     * @return the part's preset value of the attribute (SetPresetAttribute), or nullptr
     */
    Ptr<AttributeValue> GetPresetValue(Part part,
                                       const std::string& name,
                                       const PfabricPreset& preset) const;

    /// @param pfabricQueues whether the scheme runs pFabric's queues and priorities
    void SetPfabricQueues(bool pfabricQueues);

    /// @return whether the scheme runs pFabric's queues and priorities: what ranks flows, takes
    ///         priority levels, traffic classes and deadline priorities
    bool UsesPfabricQueues() const;

    /// @param name an attribute of the ports' queue disc that takes each device's DataRate
    ///        (RED's LinkBandwidth); "": none
    void SetDeviceRateAttribute(const std::string& name);

    /// @return the attribute of the ports' queue disc that takes each device's DataRate, or ""
    const std::string& GetDeviceRateAttribute() const;

    /// @return the name of a part as meta.json and the docs call it, e.g. "port_queue_disc"
    static std::string GetPartName(Part part);

  private:
    /// One value of a part.
    struct Value
    {
        std::string name;  //!< the attribute
        bool fixed;        //!< SetAttribute's (else SetPresetAttribute's)
        PresetValue value; //!< the value for a preset
    };

    /// A part: its TypeId and values.
    struct PartRecipe
    {
        std::string type;          //!< the TypeId name, or ""
        std::vector<Value> values; //!< in the order set
    };

    std::string m_name;                         //!< the scheme's name
    std::string m_description;                  //!< one line on it
    std::array<PartRecipe, PART_COUNT> m_parts; //!< by Part
    bool m_pfabricQueues;                       //!< pFabric's queues and priorities
    std::string m_deviceRateAttribute;          //!< the ports' attribute of the device's rate
};

/**
 * @ingroup pfabric
 *
 * @brief The schemes the programs know by name: pfabric, linerate, tcp and dctcp, in that order
 * (the one home of what each is), and any a user registers.
 *
 * --scheme is a choice over these names and custom (PfabricCustomScheme builds that recipe from
 * the command line); the programs list them with --listSchemes, which is where pfabric-analysis
 * reads them.
 */
class PfabricSchemeRegistry
{
  public:
    /**
     * @param name a scheme's name
     * @return its recipe; stops the simulation naming the known schemes if there is none
     */
    static const PfabricSchemeRecipe& Get(const std::string& name);

    /**
     * @param name a scheme's name
     * @return its recipe, or nullptr
     */
    static const PfabricSchemeRecipe* Find(const std::string& name);

    /// @return the schemes' names, in the order registered
    static std::vector<std::string> List();

    /**
     * @brief Add a scheme (or replace the one of its name).
     * @param recipe the recipe, named
     */
    static void Register(const PfabricSchemeRecipe& recipe);

    /**
     * @param type a PfabricTcpSocket TypeId name
     * @return the first registered recipe whose sockets are of that class or, failing one, of
     *         its nearest parent class; nullptr if none
     */
    static const PfabricSchemeRecipe* FindBySocketType(const std::string& type);

  private:
    /// @return the recipes, the built-in ones first
    static std::vector<PfabricSchemeRecipe>& GetRecipes();
};

} // namespace ns3

#endif /* PFABRIC_SCHEME_RECIPE_H */
