/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_SCHEME_HELPER_H
#define PFABRIC_SCHEME_HELPER_H

#include "ns3/attribute.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/pfabric-preset.h"
#include "ns3/pfabric-scheme-recipe.h"
#include "ns3/queue-disc-container.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief Installs a scheme, a PfabricSchemeRecipe, on a set of nodes, every number taken from a
 * preset (PfabricPreset): one of PfabricSchemeRegistry's (by name) or one given whole (SetRecipe:
 * PfabricCustomScheme's, assembled from ns-3 parts).
 *
 * | scheme   | end hosts (PfabricTcpSocketFactory's SocketType)    | every port, host NICs  |
 * |----------|-----------------------------------------------------|------------------------|
 * | pfabric  | PfabricMinTcpSocket (MinTCP)                        | PfabricQueueDisc       |
 * | linerate | PfabricLineRateTcpSocket (LineRate)                 | PfabricQueueDisc       |
 * | tcp      | PfabricBaselineTcpSocket (TcpNewReno)               | FifoQueueDisc          |
 * | dctcp    | PfabricBaselineTcpSocket (PfabricDctcp, UseEcn On)  | RedQueueDisc marking   |
 * | custom   | PfabricCustomScheme's recipe (SetRecipe)            | its recipe's           |
 *
 * The recipe says where each of the preset's numbers goes (PfabricSchemeRegistry's entries):
 * what every transport shares on the PfabricTcpSocketFactory (SegmentSize, HeaderBytes,
 * InitialWindow, HostPacing), MinTCP's and LineRate's on their socket classes, the baselines' on
 * PfabricBaselineTcpSocket and DCTCP's on its congestion control and RED ports. The helper holds
 * no branch on a scheme's name: what it does differently for a scheme is the recipe's data
 * (PfabricSchemeRecipe::UsesPfabricQueues, GetDeviceRateAttribute).
 *
 * With SetPriorityLevels, a scheme of pFabric's queues instead quantises the remaining-size
 * priority into K levels served by K strict-priority FIFO queues per port
 * (PfabricLevelQueueDisc), as a commodity switch would. With SetTrafficClasses, it instead serves
 * traffic classes hierarchically (PfabricClassQueueDisc: strict priority or weighted DRR between
 * classes, a pFabric queue per class, configured as the scheme's pFabric port). Every device gets
 * the one-packet device queue of PfabricQueueDiscHelper. Applications create sockets with
 * GetSocketFactoryType(). Every number of the preset is set explicitly; a default the user
 * configured (Config::SetDefault, --ns3::PfabricMinTcpSocket::Rto=50us) beats a preset's number,
 * and SetSocketFactoryAttribute / SetSocketAttribute / SetQueueDiscAttribute beat both and the
 * recipe's own values, with the precedence of doc/pfabric.rst, "Presets"
 * (PfabricPresetAttributes).
 */
class PfabricSchemeHelper
{
  public:
    /// The name of the scheme assembled from ns-3 parts (PfabricCustomScheme).
    static constexpr const char* CUSTOM = "custom";
    /// The registered scheme whose recipe the custom scheme starts from: TCP-DropTail's parts.
    static constexpr const char* CUSTOM_BASE = "tcp";

    /**
     * @brief Choose a scheme and a preset (stops with a message naming the known ones).
     * @param scheme pfabric, linerate, tcp, dctcp or custom
     * @param preset hotnets12 or sigcomm13
     */
    PfabricSchemeHelper(const std::string& scheme = "pfabric",
                        const std::string& preset = "hotnets12");

    /// @param scheme pfabric, linerate, tcp, dctcp or custom
    void SetScheme(const std::string& scheme);

    /// @param preset hotnets12 or sigcomm13
    void SetPreset(const std::string& preset);

    /// @return the scheme's name
    std::string GetScheme() const;

    /// @return the preset in use
    const PfabricPreset& GetPreset() const;

    /**
     * @brief Override an attribute of the nodes' PfabricTcpSocketFactory: what every transport
     * shares.
     * @param name the attribute, e.g. "HostPacing"
     * @param value its value
     */
    void SetSocketFactoryAttribute(const std::string& name, const AttributeValue& value);

    /**
     * @brief Override an attribute of the scheme's sockets (the factory's SocketType: see the
     * table above); stops the simulation if their class lacks it.
     * @param name the attribute, e.g. "Rto" (pfabric, linerate) or "MinRto" (tcp, dctcp)
     * @param value its value
     */
    void SetSocketAttribute(const std::string& name, const AttributeValue& value);

    /**
     * @brief Install a recipe of one's own (the custom scheme's: PfabricCustomScheme), in place
     * of the scheme's; the overrides set so far stay.
     * @param recipe the recipe
     */
    void SetRecipe(const PfabricSchemeRecipe& recipe);

    /// @return the recipe the helper installs
    const PfabricSchemeRecipe& GetRecipe() const;

    /// @return the TypeId name of the scheme's sockets
    std::string GetSocketTypeName() const;

    /**
     * @brief Override an attribute of the ports' queue discs.
     * @param name the attribute, e.g. "MaxSize"
     * @param value its value
     */
    void SetQueueDiscAttribute(const std::string& name, const AttributeValue& value);

    /**
     * @brief Override an attribute of the host NICs' queue discs, when the recipe gives them one
     * of their own (PfabricSchemeRecipe::HOST_QUEUE_DISC).
     * @param name the attribute
     * @param value its value
     */
    void SetHostQueueDiscAttribute(const std::string& name, const AttributeValue& value);

    /**
     * @brief Schemes of pFabric's queues only (pfabric, linerate): quantise priorities into K =
     * thresholds.size() + 1 levels and serve them with K strict-priority FIFO queues per port
     * sharing the port's buffer. The sockets rank by remaining size (PfabricRemainingSizePriority)
     * with these Thresholds, and every port is a PfabricLevelQueueDisc with Levels = K, the
     * preset's pFabric buffer as MaxSize (SetQueueDiscAttribute("MaxSize") overrides it) and the
     * preset's PriorityOffset. K = 1 (no thresholds) leaves ranks unquantised: one FIFO drop-tail
     * queue per port.
     * @param thresholds strictly increasing, in bytes (PfabricPriorityLevels)
     */
    void SetPriorityLevels(const std::vector<uint64_t>& thresholds);

    /// @return the levels set by SetPriorityLevels; 0: unquantised pFabric ports
    uint32_t GetPriorityLevels() const;

    /**
     * @brief Schemes of pFabric's queues only (pfabric, linerate): serve traffic classes
     * hierarchically (HotNets 2012, section 2.5). Every port becomes a PfabricClassQueueDisc with
     * one class per weight, the given Scheduler and Weights, and each class a PfabricQueueDisc
     * configured as the scheme's pFabric port would be (the preset's buffer, dequeue and admission
     * modes; SetQueueDiscAttribute overrides them): a buffer per class. Sockets are unchanged; a
     * packet's class is the PfabricClassTag its connection gives it
     * (PfabricFlowApplication::AddFlow). Not with SetPriorityLevels.
     * @param scheduler "Strict" or "Drr" (PfabricClassQueueDisc::Scheduler)
     * @param weights one positive weight per class (Strict ignores them, but they give the
     *        number of classes)
     */
    void SetTrafficClasses(const std::string& scheduler, const std::vector<uint32_t>& weights);

    /// @return the classes set by SetTrafficClasses; 0: no classes
    uint32_t GetTrafficClasses() const;

    /**
     * @brief Install the scheme: a PfabricTcpSocketFactory on every host (a node with an IP stack,
     * or a lean host: PfabricHostTransport), the
     * scheme's queue disc on every device other than loopback (nodes need traffic control: the
     * internet stack, or a lean switch's; any root queue disc is replaced).
     * @param nodes hosts and switches
     * @return the queue discs installed
     */
    QueueDiscContainer Install(NodeContainer nodes) const;

    /**
     * @brief Install(NodeContainer(hosts, switches)), the hosts' NICs getting the recipe's host
     * queue disc (PfabricSchemeRecipe::HOST_QUEUE_DISC).
     * @param hosts the end hosts
     * @param switches the switches
     * @return the queue discs installed, the hosts' first
     */
    QueueDiscContainer Install(NodeContainer hosts, NodeContainer switches) const;

    /**
     * @return a factory of the PfabricTcpSocketFactory that Install aggregates to every node,
     *         every value set (preset, configured defaults, overrides), its SocketType
     *         GetSocketTypeFactory()
     */
    ObjectFactory GetSocketFactoryFactory() const;

    /**
     * @return a factory of the scheme's sockets (the PfabricTcpSocketFactory's SocketType),
     *         every value set (the scheme's, preset, configured defaults, overrides)
     */
    ObjectFactory GetSocketTypeFactory() const;

    /**
     * @param host the host NICs' queue disc instead of the switch ports'
     * @return a factory of the queue disc that Install puts on the ports (or host NICs), every
     *         value set but those set per device (dctcp's LinkBandwidth); without traffic
     *         classes (SetTrafficClasses)
     */
    ObjectFactory GetQueueDiscFactory(bool host = false) const;

    /**
     * @param host the host NICs' queue disc instead of the switch ports'
     * @return a factory of the queue disc Install puts on each port (or host NIC): with traffic
     *         classes a PfabricClassQueueDisc (each class's child from GetQueueDiscFactory),
     *         unless the recipe gives the host NICs their own; else GetQueueDiscFactory's
     */
    ObjectFactory GetPortQueueDiscFactory(bool host) const;

    /// An attribute of a port's queue disc, a socket or a switch that its configured mode never
    /// reads, set away from ns-3's default (PfabricModeAttributes).
    struct IdleModeAttribute
    {
        TypeId part;           ///< the queue disc's, socket's or switch's type
        std::string attribute; ///< the attribute's name, e.g. TieBreak
        std::string value;     ///< its value, as the part holds it
        std::string mode;      ///< the mode that leaves it unread, as ATTRIBUTE=VALUE
    };

    /**
     * @brief The values of the ports' (and host NICs') queue discs and of the sockets that their
     * configured mode never reads: TieBreak under EarliestOfMostUrgentFlow, a class scheduler's
     * Weights and Quantum under Strict, ProbeAfterTimeouts without ProbeMode, DupAckThreshold
     * and DupAckWindowFraction without FastRetransmit, MaxWindow under LineRate's fixed window.
     * Each part is made once, the queue discs from GetPortQueueDiscFactory and, a class
     * scheduler's children, GetQueueDiscFactory, the socket from GetSocketTypeFactory. A
     * program refuses
     * such a value where the user gave it (RefuseIdleModeAttribute); the scheme's own values
     * (the classes' Weights, from --classWeights) are the program's.
     * @return them, switch ports first, the socket's last; none: empty
     */
    std::vector<IdleModeAttribute> GetIdleModeAttributes() const;

    /**
     * @brief Add the values of one part (any object implementing PfabricModeAttributes, e.g. a
     * fabric's PfabricSwitch) that its mode never reads and that differ from ns-3's default,
     * each once.
     * @param part the part, as the run holds it
     * @param idle the list to add to
     */
    static void AddIdleModeAttributes(const Ptr<Object>& part,
                                      std::vector<IdleModeAttribute>* idle);

    /**
     * @brief A default of an ns-3 type of a role the scheme fills (queue discs, congestion
     * controls, TCP sockets) that the run never creates: RedQueueDisc::MinTh under pfabric,
     * TcpCubic::Beta under tcp. The types created are the ports' and host NICs' queue discs (a
     * class scheduler's children included), the socket type and its congestion control, with
     * the classes they derive from.
     * @param why set to why it changes nothing, when one is found
     * @return the first such configured default's path; none: empty
     */
    std::string FindUnusedTypeDefault(std::string* why) const;

    /**
     * @brief A program's refusal of a value of GetIdleModeAttributes, one line.
     * @param given how it was set, as typed (e.g. --ns3::PfabricQueueDisc::TieBreak=Random)
     * @param idle the value
     * @return the line
     */
    static std::string RefuseIdleModeAttribute(const std::string& given,
                                               const IdleModeAttribute& idle);

    /// @return the TypeId applications create sockets with: ns3::PfabricTcpSocketFactory
    static TypeId GetSocketFactoryType();

    /// @return the names of the schemes: PfabricSchemeRegistry's, then custom
    static std::vector<std::string> GetSchemes();

    /**
     * @brief The choices of --scheme, for an option's help: "pfabric, linerate, tcp, dctcp or
     * custom" (GetSchemes).
     * @param custom whether the program takes the custom scheme
     * @return the names
     */
    static std::string DescribeSchemes(bool custom);

    /// @return the choices of --preset, for an option's help: "hotnets12 or sigcomm13"
    static std::string DescribePresets();

    /**
     * @param scheme a scheme's name
     * @return whether its recipe runs pFabric's queues and priorities (pfabric, linerate): what
     *         ranks flows, takes priority levels, traffic classes and deadline priorities
     */
    static bool UsesPfabricQueues(const std::string& scheme);

    /**
     * @brief Print the schemes, one a line: name, whether it runs pFabric's queues (1 or 0) and
     * its description, separated by tabs; custom last (what --listSchemes prints and
     * pfabric-analysis reads).
     * @param os the stream
     */
    static void PrintSchemes(std::ostream& os);

    /**
     * @brief Check a scheme and a preset name, as given on a command line (custom is a
     * scheme: its parts are PfabricCustomScheme's to check).
     * @param scheme the --scheme value
     * @param preset the --preset value
     * @param custom whether the custom scheme is a choice (a program that takes its parts)
     * @return "" if both are known, else one line naming the option and the known names
     */
    static std::string CheckChoice(const std::string& scheme,
                                   const std::string& preset,
                                   bool custom = true);

    /**
     * @brief Fix the random streams of queue discs installed by a scheme.
     * @param queueDiscs the queue discs
     * @param stream the first stream index
     * @return the number of streams assigned
     */
    static int64_t AssignStreams(const QueueDiscContainer& queueDiscs, int64_t stream);

    /// @return the ports' queue disc attributes: type, preset values and overrides
    PfabricPresetAttributes GetPortAttributes() const;

    /// @return the host NICs' queue disc attributes (the ports' unless the recipe has its own)
    PfabricPresetAttributes GetHostPortAttributes() const;

  private:
    /**
     * @brief Fix the random streams of one port's queue disc and of its child queue discs.
     * @param queueDisc the queue disc
     * @param stream the first stream index
     * @return the number of streams assigned
     */
    static int64_t AssignStreams(Ptr<QueueDisc> queueDisc, int64_t stream);

    /// @return the PriorityOffset of the senders Install creates (what level ports need)
    UintegerValue GetSenderPriorityOffset() const;

    std::string m_scheme;                              //!< a registered scheme's name or custom
    PfabricSchemeRecipe m_recipe;                      //!< what the helper installs
    const PfabricPreset* m_preset;                     //!< the preset
    PfabricPresetAttributes m_socketFactoryAttributes; //!< SetSocketFactoryAttribute's values
    PfabricPresetAttributes m_socketAttributes;        //!< SetSocketAttribute's values
    PfabricPresetAttributes m_queueDiscAttributes;     //!< SetQueueDiscAttribute's values
    PfabricPresetAttributes m_hostQueueDiscAttributes; //!< SetHostQueueDiscAttribute's values
    uint32_t m_levels;                                 //!< priority levels; 0: unquantised
    std::string m_classScheduler;                      //!< between classes: Strict or Drr
    std::vector<uint32_t> m_classWeights;              //!< per class; empty: no classes
};

} // namespace ns3

#endif /* PFABRIC_SCHEME_HELPER_H */
