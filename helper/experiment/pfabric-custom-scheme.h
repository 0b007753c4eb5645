/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_CUSTOM_SCHEME_H
#define PFABRIC_CUSTOM_SCHEME_H

#include "ns3/pfabric-command-line.h"
#include "ns3/pfabric-results-writer.h"
#include "ns3/pfabric-scheme-helper.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief A scheme assembled from ns-3 parts by name (--scheme=custom): its options, their
 * checks, how it configures a PfabricSchemeHelper, and what meta.json records of it.
 *
 * Each part is a TypeId name and its attributes as text, Name=value pairs separated by |
 * (what ns-3's ObjectFactory takes between brackets, e.g. Interval=10ms|Target=1ms):
 * - --portQueueDisc, --portQueueDiscAttributes: every switch port's queue disc (default
 *   ns3::FifoQueueDisc); its MaxSize, if it has one, is the preset's baseline buffer, or
 *   --buffer;
 * - --hostQueueDisc, --hostQueueDiscAttributes: every host NIC's (default: the ports', with
 *   their attributes);
 * - --tcpCongestionOps, --tcpCongestionOpsAttributes: the senders' congestion control (default
 *   ns3::TcpNewReno), on the module's TCP (PfabricBaselineTcpSocket's CongestionControl);
 * - --tcpAttributes: attributes of those sockets (UseEcn, MinRto, FastRetransmit, ...) or of
 *   their PfabricTcpSocketFactory (InitialWindow, HostPacing, ...), over the preset's; with
 *   SocketType=a PfabricTcpSocket TypeId (e.g. ns3::PfabricMinTcpSocket), sockets of that class
 *   with the preset's numbers of its transport (and a congestion control of its own, unless it
 *   has CongestionControl).
 *
 * With every default the scheme is TCP-DropTail's parts (--scheme=tcp's fct.csv, byte for byte).
 * --schemeLabel names it (default: the parts' short names, e.g. fqcodel-cubic); the label names
 * the run directory and stands for the scheme in pfabric-analysis (meta.json's parameter
 * schemeLabel).
 *
 * Check refuses in one line naming the option, before anything is written: a TypeId ns-3 does
 * not know or of the wrong kind, an attribute the type lacks, a value it does not take, a
 * socket attribute the factory sets on every socket (PfabricTcpSocketFactory::
 * GetCommonSocketAttributes), a congestion control for sockets with their own, a label that
 * cannot name a directory, and these options without --scheme=custom. meta.json records
 * the options among the parameters and, in "custom_scheme", every part as the run created it:
 * TypeId and the value of each of its attributes (ns-3's defaults included).
 */
class PfabricCustomScheme
{
  public:
    PfabricCustomScheme();

    /**
     * @brief Register the options (--schemeLabel, the parts' and their attributes').
     * @param cmd the command line
     */
    void AddCommandLineOptions(PfabricCommandLine& cmd);

    /// @param label the scheme's name in the run directory and the analysis
    void SetLabel(const std::string& label);

    /**
     * @param type the switch ports' queue disc, a QueueDisc TypeId name
     * @param attributes its attributes, Name=value|Name=value
     */
    void SetPortQueueDisc(const std::string& type, const std::string& attributes = "");

    /**
     * @param type the host NICs' queue disc, a QueueDisc TypeId name; "": the ports'
     * @param attributes its attributes, Name=value|Name=value
     */
    void SetHostQueueDisc(const std::string& type, const std::string& attributes = "");

    /**
     * @param type the senders' congestion control, a TcpCongestionOps TypeId name
     * @param attributes its attributes, Name=value|Name=value
     */
    void SetCongestionOps(const std::string& type, const std::string& attributes = "");

    /// @param attributes attributes of the hosts' sockets or of their PfabricTcpSocketFactory,
    /// Name=value|... (SocketType=TypeId: the sockets' class)
    void SetTcpAttributes(const std::string& attributes);

    /**
     * @brief Set an option by its command-line name, as the programs' command line does (what
     * pfabric_analysis.bindings and the sweep's --custom-scheme pass).
     * @param name the option, e.g. "portQueueDisc"
     * @param value its value
     * @return false if the scheme has no option of that name
     */
    bool SetOption(const std::string& name, const std::string& value);

    /**
     * @brief Check the parts.
     * @param scheme the --scheme value: with another scheme than custom, any of these options
     *        set is an error
     * @param buffer whether --buffer is given (the ports' MaxSize)
     * @return "" or what is wrong, one line naming the option
     */
    std::string Check(const std::string& scheme, bool buffer) const;

    /// @return the label: --schemeLabel, or the parts' short names, e.g. fqcodel-cubic
    std::string GetLabel() const;

    /**
     * @return the options of the parts given other values than their defaults, as they are
     *         typed (--portQueueDiscAttributes=Flows=0), in --PrintHelp's order: what a
     *         configuration that ns-3 stops on names (PfabricExperiment's trial); not the label,
     *         which configures no part
     */
    std::vector<std::string> GetChangedOptions() const;

    /// @return the sockets' TypeId name: --tcpAttributes' SocketType, else
    /// ns3::PfabricBaselineTcpSocket
    std::string GetSocketType() const;

    /**
     * @param attribute the name of an attribute of the sockets or of their factory
     * @return --tcpAttributes as given when it sets the attribute, else ""
     */
    std::string GetTcpAttributeOption(const std::string& attribute) const;

    /**
     * @brief The scheme the parts make (after Check): the fifth recipe beside
     * PfabricSchemeRegistry's, named by the label. The sockets get the preset's numbers of their
     * transport (the registered recipe of their class: PfabricSchemeRegistry::FindBySocketType),
     * a queue disc with a MaxSize the preset's baseline buffer, and the given attributes over
     * them (as what makes the scheme: over configured defaults too).
     * @return the recipe
     */
    PfabricSchemeRecipe GetRecipe() const;

    /**
     * @brief Give a helper of the custom scheme the parts (after Check): SetRecipe(GetRecipe()).
     * The helper's own overrides (--buffer, --rto) win over the parts' attributes.
     * @param helper a PfabricSchemeHelper of the custom scheme
     */
    void Configure(PfabricSchemeHelper& helper) const;

    /**
     * @brief Add the options to meta.json's parameters (of a custom run).
     * @param parameters the parameters object
     */
    void AddParameters(PfabricJsonObject& parameters) const;

    /**
     * @brief Add meta.json's "custom_scheme": label, the names of the parameters that make the
     * scheme (what pfabric-analysis lets differ between the schemes of one experiment), and
     * every part as the helper creates it, its TypeId and each attribute's value. Creates the
     * parts anew: call after the run, so that no random stream moves.
     * @param meta the run's meta.json object
     * @param helper the helper Configure configured
     */
    void AddProvenance(PfabricJsonObject& meta, const PfabricSchemeHelper& helper) const;

    /**
     * @brief Add every part of a helper's scheme as it creates it, by its name in meta.json
     * (PfabricSchemeRecipe::GetPartName): its TypeId and each attribute's value, ns-3's defaults
     * included. Creates the parts anew: call after the run, so that no random stream moves.
     * @param scheme the object to add them to (meta.json's custom_scheme, scheme_recipe)
     * @param helper the helper
     */
    static void AddParts(PfabricJsonObject& scheme, const PfabricSchemeHelper& helper);

  private:
    /// An option of the scheme: its name, help and variable.
    struct Option
    {
        const char* name;                           //!< the option's name
        const char* help;                           //!< its help
        std::string PfabricCustomScheme::*variable; //!< where its value goes
    };

    /// Every option, in --PrintHelp's order: the one home of their names.
    static const Option OPTIONS[];

    /**
     * @param option an option's variable
     * @return the option's name
     */
    static std::string NameOf(std::string PfabricCustomScheme::*option);

    /// @return "" or what is wrong with the parts (Check, custom scheme)
    std::string CheckParts() const;

    /// @return "" or what is wrong with --tcpAttributes (and a congestion control it excludes)
    std::string CheckTcpAttributes() const;

    std::string m_label;                   //!< --schemeLabel
    std::string m_portQueueDisc;           //!< --portQueueDisc
    std::string m_portQueueDiscAttributes; //!< --portQueueDiscAttributes
    std::string m_hostQueueDisc;           //!< --hostQueueDisc
    std::string m_hostQueueDiscAttributes; //!< --hostQueueDiscAttributes
    std::string m_congestionOps;           //!< --tcpCongestionOps
    std::string m_congestionOpsAttributes; //!< --tcpCongestionOpsAttributes
    std::string m_tcpAttributes;           //!< --tcpAttributes
};

} // namespace ns3

#endif /* PFABRIC_CUSTOM_SCHEME_H */
