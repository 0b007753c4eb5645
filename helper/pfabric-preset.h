/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFABRIC_PRESET_H
#define PFABRIC_PRESET_H

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/queue-size.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup pfabric
 *
 * @brief The published pFabric setups, every number named: the one place this module keeps them.
 *
 * - "hotnets12": Alizadeh et al., "Deconstructing Datacenter Packet Transport", HotNets 2012
 *   (the paper this module reproduces): k = 6 fat-tree, 10 Gb/s, 22.5 KB pFabric buffers, 40 us
 *   MinTCP RTO, 225 KB drop-tail / RED buffers, 200 us minRTO, fast retransmit off.
 * - "sigcomm13": the SIGCOMM 2013 pFabric evaluation's original ns-2 run scripts: 144-host
 *   leaf-spine, 36 KB pFabric buffers, 45 us RTO, window cap, probe mode, adaptive dupack
 *   threshold for the baselines.
 *
 * Where a paper leaves a number open the preset says so next to it (pfabric-preset.cc) and
 * doc/pfabric.rst explains the choice. Only helpers read presets, and they set every number
 * explicitly: PfabricSchemeHelper the transport's and the ports', PfabricFabricHelper::SetPreset
 * the links', packet sizes and load balancing, PfabricExperiment the topology. The model's
 * attribute defaults are its own. Attribute values go through PfabricPresetAttributes, which
 * keeps the precedence of doc/pfabric.rst, "Presets".
 */
struct PfabricPreset
{
    std::string name;   //!< preset name
    std::string source; //!< where the numbers come from

    // Packets
    uint32_t segmentSize;     //!< TCP payload bytes per full segment
    uint32_t headerBytes;     //!< TCP and IP header bytes of a segment without options
    uint32_t linkHeaderBytes; //!< link-layer framing bytes (point-to-point)

    // Fabric
    std::string topology;      //!< "fattree" or "leafspine"
    uint32_t fatTreeK;         //!< fat-tree switch radix
    uint32_t leaves;           //!< leaf-spine: leaf switches
    uint32_t hostsPerLeaf;     //!< leaf-spine: hosts per leaf
    uint32_t spines;           //!< leaf-spine: spine switches
    DataRate hostLinkRate;     //!< host access links
    DataRate fabricLinkRate;   //!< switch-to-switch links
    Time linkDelay;            //!< propagation delay of every link
    Time hostDelay;            //!< extra delay on host links
    std::string loadBalancing; //!< PfabricFabricRouting::LoadBalancing value

    // pFabric schemes (MinTCP+pFabric, LineRate+pFabric)
    QueueSize pfabricBuffer;          //!< PfabricQueueDisc::MaxSize
    std::string pfabricDequeueMode;   //!< PfabricQueueDisc::DequeueMode
    std::string pfabricAdmissionMode; //!< PfabricQueueDisc::AdmissionMode
    Time minTcpRto;                   //!< fixed retransmission timeout
    uint32_t initialWindow;           //!< initial window, segments (all schemes)
    uint32_t minTcpMaxWindow;         //!< MinTCP window cap, segments, 0: none
    uint32_t lineRateWindow;          //!< LineRate's fixed window, segments, 0: any flow
    bool probeMode;                   //!< MinTCP probe mode on
    uint32_t probeAfterTimeouts;      //!< consecutive timeouts before probing
    uint64_t priorityOffset;          //!< added to remaining bytes in data priorities

    // End hosts, every window-based transport (MinTCP, TCP, DCTCP)
    bool hostPacing; //!< senders paced at their NIC's line rate

    // Baselines (TCP-DropTail, DCTCP)
    QueueSize baselineBuffer;       //!< drop-tail and RED buffer
    Time baselineMinRto;            //!< minimum RTO
    Time clockGranularity;          //!< RTO clock granularity
    bool baselineFastRetransmit;    //!< fast retransmit on
    uint32_t dupAckThreshold;       //!< (smallest) duplicate-ACK threshold
    double dupAckWindowFraction;    //!< threshold as a fraction of cwnd, 0: fixed
    uint32_t dctcpMarkingThreshold; //!< DCTCP's K, packets
    double dctcpG;                  //!< DCTCP's estimation gain

    /**
     * @brief Look a preset up by name; stops the simulation naming the known presets if absent.
     * @param name "hotnets12" or "sigcomm13"
     * @return the preset
     */
    static const PfabricPreset& Get(const std::string& name);

    /// @return the names of all presets
    static std::vector<std::string> GetNames();

    /// @return on-wire bytes (payload and TCP/IP headers) per payload byte of a full segment:
    ///         what turns a load in wire bytes into a flow arrival rate
    double GetWirePerPayload() const;
};

/**
 * @ingroup pfabric
 *
 * @brief The attribute values a helper gives the objects of one type it creates, from a preset
 * and from the helper's user: the one place the precedence of doc/pfabric.rst, "Presets", is
 * implemented.
 *
 * Highest first:
 * 1. a value set through the helper (SetValue, behind the helper's Set*Attribute);
 * 2. a default the user configured (Config::SetDefault, or --ns3::Type::Attribute=value on the
 *    command line, even to the value the TypeId declares): a preset value is left out when the
 *    attribute's default was configured;
 * 3. the preset's value (SetPresetValue).
 *
 * Whether a default was configured is read when the values are applied (GetValues, Apply), so
 * Config::SetDefault may come before or after the helper is set up, as long as it comes before
 * the helper creates the objects. Every preset value is set explicitly, so a model default never
 * stands in for a preset's number.
 */
class PfabricPresetAttributes
{
  public:
    /// An attribute's name and value.
    using Value = std::pair<std::string, Ptr<AttributeValue>>;

    /// @param type the TypeId name of the objects the values are for, e.g. "ns3::PfabricSwitch"
    explicit PfabricPresetAttributes(const std::string& type);

    /// @param type the TypeId name of the objects the values are for (the preset values stay)
    void SetTypeId(const std::string& type);

    /// @return the TypeId name of the objects the values are for
    const std::string& GetTypeName() const;

    /**
     * @brief Set the preset's value of an attribute (replacing an earlier preset value).
     * @param name the attribute
     * @param value the preset's value
     * @return this
     */
    PfabricPresetAttributes& SetPresetValue(const std::string& name, const AttributeValue& value);

    /**
     * @brief Set a value through the helper: it beats a configured default and the preset.
     * @param name the attribute
     * @param value its value
     */
    void SetValue(const std::string& name, const AttributeValue& value);

    /**
     * @brief The values to set, in order: the preset's values whose default the user did not
     * configure, then the values set through the helper (a later one wins).
     * @return the values; stops the simulation if the type lacks a preset value's attribute
     */
    std::vector<Value> GetValues() const;

    /**
     * @brief Set GetValues() on a factory.
     * @param factory a factory of the type
     */
    void Apply(ObjectFactory& factory) const;

    /**
     * @brief The value an object a factory creates gets for an attribute, as text: the
     * factory's, else the attribute's default (as configured). Reads attributes without a
     * getter too (TcpSocketBase's UseEcn, TcpDctcp's DctcpAlphaOnInit).
     * @param factory the factory
     * @param name an attribute of its type
     * @return the value; "" if the type has no such attribute
     */
    static std::string GetFactoryValue(const ObjectFactory& factory, const std::string& name);

    /**
     * @brief Whether a factory sets an attribute, and to what.
     * @param factory the factory
     * @param name an attribute of its type
     * @param[out] value the value it sets, as text
     * @return whether it sets one
     */
    static bool FindFactoryValue(const ObjectFactory& factory,
                                 const std::string& name,
                                 std::string* value);

  private:
    /**
     * @param name an attribute of the type
     * @return true if the user configured its default (Config::SetDefault set it)
     */
    bool IsConfigured(const std::string& name) const;

    std::string m_type;                //!< the TypeId name
    std::vector<Value> m_presetValues; //!< one per attribute
    std::vector<Value> m_values;       //!< set through the helper, in order
};

} // namespace ns3

#endif /* PFABRIC_PRESET_H */
