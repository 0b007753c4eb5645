/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The FCT experiment's core (PfabricExperiment): the fabric, the scheme, the flows handed to
// every host's application, and the run, asking the features (PfabricExperimentFeature) at each
// step.

#include "pfabric-experiment.h"

#include "pfabric-class-feature.h"
#include "pfabric-deadline-feature.h"
#include "pfabric-settings-trial.h"

#include "ns3/abort.h"
#include "ns3/application.h"
#include "ns3/boolean.h"
#include "ns3/error-model.h"
#include "ns3/global-value.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/pfabric-configured-defaults.h"
#include "ns3/pfabric-fat-tree-helper.h"
#include "ns3/pfabric-host-transport.h"
#include "ns3/pfabric-leaf-spine-helper.h"
#include "ns3/pfabric-level-queue-disc.h"
#include "ns3/pfabric-min-tcp-socket.h"
#include "ns3/pfabric-preset.h"
#include "ns3/pfabric-priority-levels.h"
#include "ns3/pfabric-priority-policy.h"
#include "ns3/pfabric-queue-disc-helper.h"
#include "ns3/pfabric-queue-disc.h"
#include "ns3/pfabric-single-switch-helper.h"
#include "ns3/pfabric-switch.h"
#include "ns3/pfabric-tcp-socket-factory.h"
#include "ns3/pointer.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricExperiment");

PfabricExperiment::PfabricExperiment(const std::string& workload)
    : m_done(0),
      m_events(0),
      m_packetHops(0),
      m_hostPortDrops(0),
      m_switchPortDrops(0),
      m_totalBytes(0),
      m_bytesReceived(0),
      m_connectionsOpened(0),
      m_startedBeforeConnected(0),
      m_terminated(0),
      m_arrivalsThroughEnd(true),
      m_stoppedWhenDone(false),
      m_deadlines(false),
      m_workload(m_p, m_window),
      m_options(m_p, m_window, m_custom, m_features),
      m_commandLine(nullptr)
{
    m_p.workload = workload;
    if (workload == "classes")
    {
        m_features.push_back(std::make_unique<PfabricClassFeature>(m_p));
    }
}

PfabricExperiment::~PfabricExperiment() = default;

PfabricExperiment::Parameters&
PfabricExperiment::GetParameters()
{
    return m_p;
}

void
PfabricExperiment::EnableDeadlines()
{
    m_deadlines = true;
    m_features.push_back(std::make_unique<PfabricDeadlineFeature>(m_p));
}

bool
PfabricExperiment::HasDeadlines() const
{
    return m_deadlines;
}

PfabricMeasurementWindow&
PfabricExperiment::GetWindow()
{
    return m_window;
}

const PfabricMeasurementWindow&
PfabricExperiment::GetWindow() const
{
    return m_window;
}

PfabricCustomScheme&
PfabricExperiment::GetCustomScheme()
{
    return m_custom;
}

std::string
PfabricExperiment::GetSchemeName() const
{
    return m_options.GetSchemeName();
}

void
PfabricExperiment::AddFabricCommandLineOptions(PfabricCommandLine& cmd)
{
    m_commandLine = &cmd;
    m_options.RegisterFabric(cmd);
}

void
PfabricExperiment::AddCommandLineOptions(PfabricCommandLine& cmd)
{
    m_commandLine = &cmd;
    m_options.RegisterFabric(cmd);
    m_options.RegisterRun(cmd);
}

std::string
PfabricExperiment::CheckChoices() const
{
    return m_options.Check();
}

void
PfabricExperiment::AddParameters(PfabricJsonObject& parameters) const
{
    m_options.Record(parameters);
}

bool
PfabricExperiment::Prepare(std::string* error)
{
    *error = CheckChoices();
    if (error->empty())
    {
        *error = TrySettings();
    }
    if (!error->empty() || !BuildFabric(error) || !MakeFlows(error))
    {
        return false;
    }
    if (m_p.flowsOnly && m_p.idealOnly)
    {
        *error = "--flowsOnly and --idealOnly: choose one";
        return false;
    }
    if (m_p.flowsOnly)
    {
        if (m_p.dumpFlows.empty())
        {
            *error = "--flowsOnly: needs --dumpFlows=PATH";
            return false;
        }
        return PfabricFlowList::Write(m_p.dumpFlows, m_flows, error);
    }
    ConfigureScheme();
    *error = CheckSocketSettings();
    if (error->empty())
    {
        *error = CheckOwnSettings();
    }
    if (error->empty())
    {
        *error = CheckQueueSizes();
    }
    if (error->empty())
    {
        *error = CheckModeAttributes();
    }
    if (error->empty())
    {
        *error = CheckUntaggedPriority();
    }
    if (error->empty() && !m_p.idealOnly)
    {
        // --idealOnly runs no packet, and takes the packet run's settings (a sweep gives Ideal
        // its packet schemes' --set).
        *error = CheckUnusedTypeDefaults();
    }
    if (error->empty())
    {
        *error = CheckDeadlineSettings();
    }
    if (!error->empty())
    {
        return false;
    }
    *error = m_writer.Open(m_options.OutputDirectoryName());
    if (!error->empty())
    {
        return false;
    }
    if (m_window.IsOn())
    {
        m_window.AddColumns(m_writer);
    }
    for (const auto& feature : m_features)
    {
        feature->AddColumns(m_writer);
    }
    if (!m_p.dumpFlows.empty() && !PfabricFlowList::Write(m_p.dumpFlows, m_flows, error))
    {
        m_writer.Abandon();
        return false;
    }
    return true;
}

bool
PfabricExperiment::BuildFabric(std::string* error)
{
    const PfabricPreset& preset = PfabricPreset::Get(m_p.preset);
    const Parameters::Topology topology = m_p.GetTopology();
    if (topology == Parameters::FAT_TREE)
    {
        m_fabric = std::make_unique<PfabricFatTreeHelper>(m_p.k ? m_p.k : preset.fatTreeK);
    }
    else if (topology == Parameters::LEAF_SPINE)
    {
        m_fabric = std::make_unique<PfabricLeafSpineHelper>(
            m_p.leaves ? m_p.leaves : preset.leaves,
            m_p.hostsPerLeaf ? m_p.hostsPerLeaf : preset.hostsPerLeaf,
            m_p.spines ? m_p.spines : preset.spines);
    }
    else
    {
        m_fabric = std::make_unique<PfabricSingleSwitchHelper>(m_p.hosts);
    }
    *error = m_fabric->GetShapeError();
    if (!error->empty())
    {
        return false;
    }
    ConfigureFabric(*m_fabric);
    *error = CheckLinkSettings();
    if (error->empty())
    {
        *error = CheckIpSettings();
    }
    if (!error->empty())
    {
        return false;
    }

    RngSeedManager::SetSeed(m_p.seed);
    RngSeedManager::SetRun(m_p.run);
    m_fabric->Build();
    std::string why;
    const std::string stalled = m_fabric->FindIpSettingNoPacketCrosses(&why);
    if (!stalled.empty())
    {
        *error = DescribeDefault(stalled) + ": " + why;
        return false;
    }
    return true;
}

void
PfabricExperiment::ConfigureFabric(PfabricFabricHelper& fabric) const
{
    fabric.SetPreset(m_p.preset);
    if (m_p.lb != Parameters::PRESET_LB)
    {
        // PfabricFabricRouting's LoadBalancing value: --lb's name, capitalised.
        std::string lb = PfabricChoiceName(Parameters::LOAD_BALANCINGS, m_p.lb);
        lb[0] = std::toupper(lb[0]);
        fabric.SetSwitchAttribute("LoadBalancing", StringValue(lb));
    }
    if (!m_p.linkDelay.empty())
    {
        fabric.SetLinkDelay(Time(m_p.linkDelay));
    }
    fabric.SetSwitchMode(m_p.switchMode);
    fabric.SetHostStack(m_p.hostStack);
    fabric.SetLinkType(m_p.linkType);
}

bool
PfabricExperiment::MakeFlows(std::string* error)
{
    const uint32_t hosts = m_fabric->GetNHosts();
    if (!m_workload.LoadSizes(m_p.cdf.empty() ? m_p.workload : m_p.cdf, error))
    {
        return false;
    }
    m_thresholds.clear();
    if (m_p.priorityLevels > 0)
    {
        m_thresholds = PfabricPriorityLevels::EqualLoadThresholds(m_workload.GetSizes().GetPoints(),
                                                                  m_p.priorityLevels);
    }
    PfabricExperimentFeature* maker = nullptr;
    for (const auto& feature : m_features)
    {
        maker = feature->MakesFlows() ? feature.get() : maker;
    }
    if (maker ? !maker->MakeFlows(m_workload, hosts, &m_flows, error)
              : !m_workload.MakeFlows(hosts, &m_flows, error))
    {
        return false;
    }
    if (m_flows.empty() && !m_p.addedFlows && !m_window.HasGenerator())
    {
        *error = m_p.flowFile + ": no flows";
        return false;
    }
    for (const auto& feature : m_features)
    {
        *error = feature->ProcessFlows(&m_flows, *m_fabric);
        if (!error->empty())
        {
            return false;
        }
    }
    *error = CheckConnectionsPerHost();
    return error->empty();
}

std::string
PfabricExperiment::CheckConnectionsPerHost() const
{
    // With reuse, a host opens as many connections as it has flows at once, known only in the
    // run (which stops with a line if they run out: ConnectionRefused); without, one per flow.
    if (m_p.reuseConnections)
    {
        return "";
    }
    UintegerValue most;
    CreateApplication()->GetAttribute("MaxConnections", most);
    std::map<uint32_t, uint64_t> flows; // by sending host
    for (const PfabricFlow& flow : m_flows)
    {
        if (++flows[flow.src] > most.Get())
        {
            return "--reuseConnections=0: host " + std::to_string(flow.src) + " sends more than " +
                   std::to_string(most.Get()) +
                   " flows, each on a connection of its own, and it has a port for " +
                   std::to_string(most.Get()) +
                   " (PfabricFlowApplication::MaxConnections: ns-3's ephemeral ports, none freed "
                   "in a run); keep --reuseConnections or give it fewer flows";
        }
    }
    return "";
}

void
PfabricExperiment::ConfigureScheme()
{
    m_scheme = std::make_unique<PfabricSchemeHelper>(m_p.scheme, m_p.preset);
    if (m_p.scheme == PfabricSchemeHelper::CUSTOM)
    {
        m_custom.Configure(*m_scheme);
    }
    if (!m_p.buffer.empty())
    {
        m_scheme->SetQueueDiscAttribute("MaxSize", QueueSizeValue(QueueSize(m_p.buffer)));
    }
    // --rto is MinTCP's (and LineRate's) fixed timeout; the other sockets have none.
    TypeId::AttributeInformation rto;
    if (!m_p.rto.empty() &&
        TypeId::LookupByName(m_scheme->GetSocketTypeName()).LookupAttributeByName("Rto", &rto))
    {
        m_scheme->SetSocketAttribute("Rto", TimeValue(Time(m_p.rto)));
    }
    m_scheme->SetSocketFactoryAttribute("HashDemux", BooleanValue(m_p.hashDemux));
    m_scheme->SetSocketFactoryAttribute("RestartSsThresh", BooleanValue(m_p.restartSsThresh));
    if (m_p.priorityLevels > 0)
    {
        m_scheme->SetPriorityLevels(m_thresholds);
    }
    for (const auto& feature : m_features)
    {
        feature->ConfigureScheme(*m_scheme);
    }
}

std::string
PfabricExperiment::CheckSocketSettings() const
{
    Ptr<PfabricTcpSocketFactory> factory =
        m_scheme->GetSocketFactoryFactory().Create<PfabricTcpSocketFactory>();
    // Lost on every host stack: meta.json would record a setting the run never had.
    std::string why;
    const std::string lost = factory->FindSettingEverySocketLoses(&why);
    if (!lost.empty())
    {
        return DescribeSocketSetting(lost) + ": " + why + "; leave it unset";
    }
    const std::string stalled = factory->FindSettingNoConnectionCarries(&why);
    if (!stalled.empty())
    {
        return DescribeSocketSetting(stalled) + ": " + why;
    }
    if (m_p.hostStack != PfabricFabricHelper::LEAN_HOST)
    {
        return "";
    }
    const std::vector<std::string> ignored = factory->GetAttributesLeanHostIgnores();
    if (ignored.empty())
    {
        return "";
    }
    const std::string& path = ignored.front();
    return DescribeSocketSetting(path) + ": the lean host (--hostStack=" +
           PfabricChoiceName(Parameters::HOST_STACKS, m_p.hostStack) + ") does not model " + path +
           "; run with --hostStack=" +
           PfabricChoiceName(Parameters::HOST_STACKS, PfabricFabricHelper::NS3_TCP);
}

std::string
PfabricExperiment::CheckOwnSettings() const
{
    // --rto is the fixed timeout of the sockets that have one (ConfigureScheme): MinTCP's and
    // LineRate's; the baselines' timer follows their RTT estimate.
    TypeId::AttributeInformation rto;
    const std::string socketType = m_scheme->GetSocketTypeName();
    if (!m_p.rto.empty() && !TypeId::LookupByName(socketType).LookupAttributeByName("Rto", &rto))
    {
        return PfabricOptionTable::ShapesNothing(
            m_commandLine ? m_commandLine->DescribeGiven("rto") : "--rto=" + m_p.rto,
            "the fixed timeout of MinTCP's and LineRate's sockets, and this scheme's (" +
                socketType + ") have none: their timer follows the RTT estimate (MinRto)");
    }
    // --restartSsThresh=false keeps an ssthresh, which a fixed window never reads (the tenth
    // probe: LineRate took it).
    if (m_p.restartSsThresh != Parameters().restartSsThresh &&
        !m_scheme->GetSocketTypeFactory().Create<PfabricTcpSocket>()->HasSlowStart())
    {
        return PfabricOptionTable::ShapesNothing(
            std::string("--restartSsThresh=") + (m_p.restartSsThresh ? "true" : "false"),
            "what a reused connection keeps of its ssthresh, and this scheme's socket (" +
                socketType + ") has a fixed window, no slow start");
    }
    // Set on every flow application (CreateApplication) and every scheme's socket factory
    // (ConfigureScheme) from these options, whatever their defaults; the scheme's recipe sets
    // the factory's socket type; with the options given, every switch's load balancing and
    // the K-level ports' levels; and what the features set.
    using Own = PfabricExperimentFeature::OwnSetting;
    std::vector<Own> own{
        {PfabricFlowApplication::GetTypeId(), "ReuseConnections", "reuseConnections"},
        {PfabricFlowApplication::GetTypeId(), "ConnectionPool", "connectionPool"},
        {PfabricFlowApplication::GetTypeId(), "ConnectLead", "connectLead"},
        {PfabricTcpSocketFactory::GetTypeId(), "HashDemux", "hashDemux"},
        {PfabricTcpSocketFactory::GetTypeId(), "RestartSsThresh", "restartSsThresh"},
        {PfabricTcpSocketFactory::GetTypeId(), "SocketType", "scheme"}};
    if (m_p.lb != Parameters::PRESET_LB)
    {
        own.push_back({PfabricSwitch::GetTypeId(), "LoadBalancing", "lb"});
    }
    if (m_p.priorityLevels > 0)
    {
        own.push_back({PfabricLevelQueueDisc::GetTypeId(), "Levels", "priorityLevels"});
        own.push_back({PfabricLevelQueueDisc::GetTypeId(), "PriorityOffset", "priorityLevels"});
        // PfabricSchemeHelper::SetPriorityLevels: the sockets' policy, at the CDF's thresholds
        own.push_back({PfabricMinTcpSocket::GetTypeId(), "PriorityPolicy", "priorityLevels"});
        own.push_back({PfabricPriorityPolicy::GetTypeId(), "Thresholds", "priorityLevels"});
    }
    // Given, --buffer and --rto replace the defaults of what they set (the eleventh probe: a
    // --ns3:: MaxSize or Rto beside them was dropped without a word).
    const PfabricSchemeRecipe& parts = m_scheme->GetRecipe();
    for (const auto which :
         {PfabricSchemeRecipe::PORT_QUEUE_DISC, PfabricSchemeRecipe::HOST_QUEUE_DISC})
    {
        TypeId queueDisc;
        if (!m_p.buffer.empty() && TypeId::LookupByNameFailSafe(parts.GetType(which), &queueDisc))
        {
            own.push_back({queueDisc, "MaxSize", "buffer"});
        }
    }
    // The preset's segment is the fabric's (ideal FCTs, packet counts, meta.json's segment_bytes)
    // and every socket's (the eleventh probe: a SegmentSize of 65000 B went to the sockets alone,
    // and IP fragmented every segment).
    own.push_back({PfabricTcpSocketFactory::GetTypeId(), "SegmentSize", "preset"});
    if (!m_p.rto.empty() && TypeId::LookupByName(socketType).LookupAttributeByName("Rto", &rto))
    {
        own.push_back({TypeId::LookupByName(socketType), "Rto", "rto"});
    }
    for (const auto& feature : m_features)
    {
        const std::vector<Own> its = feature->GetOwnSettings();
        own.insert(own.end(), its.begin(), its.end());
    }
    for (const auto& [tid, attribute, option] : own)
    {
        const std::vector<std::string> configured =
            PfabricConfiguredDefaults::ListConfigured(tid, {attribute});
        if (!configured.empty())
        {
            const std::string& path = configured.front();
            return DescribeDefault(path) + ": this program sets " + path + " itself, from --" +
                   option + "; give --" + option + " instead";
        }
    }
    // What a built-in scheme is made of, whatever the configured defaults (DCTCP's ECN); the
    // custom scheme's are its own options'.
    const PfabricSchemeRecipe& recipe = m_scheme->GetRecipe();
    for (uint32_t part = 0;
         m_p.scheme != PfabricSchemeHelper::CUSTOM && part < PfabricSchemeRecipe::PART_COUNT;
         ++part)
    {
        const auto which = static_cast<PfabricSchemeRecipe::Part>(part);
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(recipe.GetType(which), &tid))
        {
            continue;
        }
        const std::vector<std::string> fixed =
            PfabricConfiguredDefaults::ListConfigured(tid, recipe.GetFixedAttributes(which));
        if (!fixed.empty())
        {
            return DescribeDefault(fixed.front()) + ": --scheme=" + m_options.GetSchemeName() +
                   " sets " + fixed.front() + " itself (it is what makes the scheme), so its " +
                   "default changes nothing; leave it unset, or make a scheme of your own " +
                   "(--scheme=custom)";
        }
    }
    // The ports' rate attribute (DCTCP's RED LinkBandwidth) is set from each port's device.
    TypeId port;
    if (!recipe.GetDeviceRateAttribute().empty() &&
        TypeId::LookupByNameFailSafe(recipe.GetType(PfabricSchemeRecipe::PORT_QUEUE_DISC), &port))
    {
        const std::vector<std::string> rate =
            PfabricConfiguredDefaults::ListConfigured(port, {recipe.GetDeviceRateAttribute()});
        if (!rate.empty())
        {
            return DescribeDefault(rate.front()) + ": this program sets " + rate.front() +
                   " on every port from its link's rate, so its default changes nothing; "
                   "leave it unset";
        }
    }
    // Defaults the program never lets reach a run, each with why and what to give instead:
    // {type, attribute, the refusal's text before the path, its text after it}.
    const std::vector<std::tuple<TypeId, std::string, std::string, std::string>> unreached{
        // The flow applications carry every flow of the list until the run ends (--maxSimTime):
        // PfabricFlowApplication stops nothing at its StopTime.
        {Application::GetTypeId(),
         "StopTime",
         "the flow applications carry every flow of the list until the run ends, so ",
         " changes nothing; give --maxSimTime to end the run earlier"},
        // A later start would hold back the flows the list starts before it, whose FCTs count
        // from the list's times (the eleventh probe: a 25.7 us flow measured 81.7 ms).
        {Application::GetTypeId(),
         "StartTime",
         "the flow applications start each flow at its start_s, from which its FCT counts, so ",
         " would only hold flows back; shift the flow list's times instead"},
        // Every random variable of the run gets its stream from AssignStreams (fixed indices;
        // the replication is the run number's substream): the default's stream never reaches
        // one.
        {RandomVariableStream::GetTypeId(),
         "Stream",
         "this program assigns every random variable's stream itself, so ",
         " changes nothing; give --run for another replication"}};
    for (const auto& [type, attribute, before, after] : unreached)
    {
        const std::vector<std::string> configured =
            PfabricConfiguredDefaults::ListConfigured(type, {attribute});
        if (!configured.empty())
        {
            return DescribeDefault(configured.front()) + ": " + before + configured.front() + after;
        }
    }
    return "";
}

std::string
PfabricExperiment::CheckQueueSizes() const
{
    for (const PfabricPresetAttributes& part :
         {m_scheme->GetPortAttributes(), m_scheme->GetHostPortAttributes()})
    {
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(part.GetTypeName(), &tid))
        {
            continue;
        }
        ObjectFactory factory(part.GetTypeName());
        part.Apply(factory);
        const std::string error = PfabricQueueDiscHelper::FindSizeNotKept(factory);
        if (!error.empty())
        {
            return error;
        }
    }
    return "";
}

std::string
PfabricExperiment::CheckModeAttributes() const
{
    std::vector<PfabricSchemeHelper::IdleModeAttribute> idles = m_scheme->GetIdleModeAttributes();
    // The switches' too (the tenth probe: FlowcellBytes was taken under spraying); they all
    // hold the fabric's values.
    const NodeContainer& switches = m_fabric->GetSwitches();
    if (switches.GetN() > 0)
    {
        PfabricSchemeHelper::AddIdleModeAttributes(switches.Get(0)->GetObject<PfabricSwitch>(),
                                                   &idles);
    }
    for (const auto& idle : idles)
    {
        // Given as a default (--ns3::..., NS_ATTRIBUTE_DEFAULT) or among the custom scheme's
        // attributes; a built-in scheme's own values are the program's, checked with their
        // options.
        const std::vector<std::string> configured =
            PfabricConfiguredDefaults::ListConfigured(idle.part, {idle.attribute});
        std::string given = configured.empty() ? "" : DescribeDefault(configured.front());
        for (const std::string& option : GetSchemeOptionsGiven())
        {
            const bool carries = option.find(idle.attribute + "=") != std::string::npos;
            given = given.empty() && m_p.scheme == PfabricSchemeHelper::CUSTOM && carries ? option
                                                                                          : given;
        }
        if (!given.empty())
        {
            return PfabricSchemeHelper::RefuseIdleModeAttribute(given, idle);
        }
    }
    return "";
}

std::string
PfabricExperiment::CheckUntaggedPriority() const
{
    const std::vector<std::string> configured =
        PfabricConfiguredDefaults::ListConfigured(PfabricQueueDisc::GetTypeId(),
                                                  {"UntaggedPriority"});
    if (configured.empty() ||
        !m_scheme->GetSocketTypeFactory().Create<PfabricTcpSocket>()->TagsEverySegment())
    {
        return "";
    }
    return DescribeDefault(configured.front()) + ": this scheme's senders (" +
           m_scheme->GetSocketTypeName() +
           ") tag every segment, ACKs and handshakes included, so no packet of the run is "
           "untagged; leave it unset";
}

std::string
PfabricExperiment::CheckUnusedTypeDefaults() const
{
    std::string why;
    const std::string unused = m_scheme->FindUnusedTypeDefault(&why);
    return unused.empty() ? "" : DescribeDefault(unused) + ": " + why + "; leave it unset";
}

std::string
PfabricExperiment::CheckDeadlineSettings() const
{
    const std::vector<std::string> configured =
        PfabricConfiguredDefaults::ListConfigured(PfabricFlowApplication::GetTypeId(),
                                                  {"TerminateAtDeadline"});
    const bool anyDeadline =
        std::any_of(m_flows.begin(), m_flows.end(), [](const PfabricFlow& flow) {
            return flow.deadline != Time::Max();
        });
    if (configured.empty() || m_deadlines || anyDeadline)
    {
        return "";
    }
    return DescribeDefault(configured.front()) + ": none of this run's flows has a deadline " +
           "(a --flowFile's deadline_s gives them one), so it gives none up; leave it unset";
}

std::string
PfabricExperiment::CheckLinkSettings() const
{
    const std::vector<std::string> deviceQueue =
        PfabricQueueDiscHelper::GetPortDefaultsWithoutEffect();
    if (!deviceQueue.empty())
    {
        return PfabricQueueDiscHelper::RefusePortDefault(DescribeDefault(deviceQueue.front()),
                                                         deviceQueue.front());
    }
    const std::vector<std::string> overridden = m_fabric->GetLinkDefaultsItOverrides();
    if (overridden.empty())
    {
        std::string why;
        const std::string unused = m_fabric->FindUnusedLinkTypeDefault(&why);
        return unused.empty() ? "" : DescribeDefault(unused) + ": " + why + "; leave it unset";
    }
    const std::string& path = overridden.front();
    return PfabricFabricHelper::RefuseLinkDefault(
        m_commandLine ? m_commandLine->DescribeNs3Setting(path) : "",
        path,
        "--preset sets the links' rates and framing, --linkDelay their delay");
}

std::string
PfabricExperiment::CheckIpSettings() const
{
    const std::string hostStack =
        "--hostStack=" + PfabricChoiceName(Parameters::HOST_STACKS, m_p.hostStack);
    const std::string switchMode =
        "--switchMode=" + PfabricChoiceName(Parameters::SWITCH_MODES, m_p.switchMode);
    const std::string ipSwitches =
        "--switchMode=" + PfabricChoiceName(Parameters::SWITCH_MODES, PfabricFabricHelper::IP);
    const std::vector<std::string> ttl = m_fabric->GetTtlDefaultsNothingReads();
    if (!ttl.empty())
    {
        std::string unread;  // why no node reads the TTL
        std::string instead; // the option under which one would
        if (m_p.switchMode == PfabricFabricHelper::LEAN)
        {
            unread = "the lean switches (" + switchMode + ") forward without IP and read no TTL";
            instead = ipSwitches;
        }
        else
        {
            unread = "the lean hosts (" + hostStack + ") write a TTL of their own";
            instead = "--hostStack=" +
                      PfabricChoiceName(Parameters::HOST_STACKS, PfabricFabricHelper::NS3_TCP);
        }
        return DescribeDefault(ttl.front()) + ": " + unread + ", so " + ttl.front() +
               " changes nothing; run with " + instead + ", or leave it unset";
    }
    const std::vector<std::string> unused = m_fabric->GetIpDefaultsNoNodeHas();
    if (!unused.empty())
    {
        return DescribeDefault(unused.front()) + ": no node of this run has ns-3's IP stack (" +
               hostStack + ", " + switchMode + "), so " + unused.front() +
               " reaches nothing; run with --hostStack=" +
               PfabricChoiceName(Parameters::HOST_STACKS, PfabricFabricHelper::NS3_TCP) + " or " +
               ipSwitches + ", or leave it unset";
    }
    std::string why;
    const std::string unread = PfabricFabricHelper::FindIpDefaultNoFabricReads(&why);
    if (!unread.empty())
    {
        return PfabricFabricHelper::RefuseUnreadIpDefault(DescribeDefault(unread), unread, why);
    }
    // The lean host writes and checks no checksum (an IP switch would drop its packets).
    const std::string checksum = "ChecksumEnabled"; // ns-3's global value (Node::ChecksumEnabled)
    BooleanValue checksums;
    GlobalValue::GetValueByName(checksum, checksums);
    if (checksums.Get() && m_p.hostStack == PfabricFabricHelper::LEAN_HOST)
    {
        return DescribeDefault(checksum) + ": the lean host (" + hostStack +
               ") writes no checksum, so a run of it has none; run with --hostStack=" +
               PfabricChoiceName(Parameters::HOST_STACKS, PfabricFabricHelper::NS3_TCP) +
               ", or leave it unset";
    }
    return "";
}

std::string
PfabricExperiment::DescribeDefault(const std::string& path) const
{
    const std::string given = m_commandLine ? m_commandLine->DescribeNs3Setting(path) : "";
    return given.empty() ? path : given;
}

std::string
PfabricExperiment::DescribeSocketSetting(const std::string& path) const
{
    const std::string attribute = path.substr(path.rfind("::") + 2);
    if (m_p.scheme == PfabricSchemeHelper::CUSTOM)
    {
        // The custom scheme's values are the sockets' own, over any configured default.
        const std::string option = m_custom.GetTcpAttributeOption(attribute);
        if (!option.empty())
        {
            return option;
        }
    }
    const std::string given = m_commandLine ? m_commandLine->DescribeNs3Setting(path) : "";
    if (!given.empty())
    {
        return given;
    }
    return "--scheme=" + m_options.GetSchemeName() + "'s sockets' " + path;
}

std::vector<PfabricFlow>
PfabricExperiment::GenerateFlows(PfabricFlowSizeDistribution& sizes,
                                 const std::string& preset,
                                 uint32_t hosts,
                                 double load,
                                 uint32_t flows)
{
    return PfabricExperimentWorkload::GenerateFlows(sizes, preset, hosts, load, flows);
}

int64_t
PfabricExperiment::AssignStreams(const QueueDiscContainer& queueDiscs, PfabricFabricHelper& fabric)
{
    const int64_t first = 1000;
    int64_t stream = first;
    stream += PfabricSchemeHelper::AssignStreams(queueDiscs, stream);
    stream += fabric.AssignStreams(stream);
    return stream - first;
}

uint64_t
PfabricExperiment::CountDrops(const QueueDiscContainer& ports)
{
    uint64_t drops = 0;
    for (auto port = ports.Begin(); port != ports.End(); ++port)
    {
        drops += (*port)->GetStats().nTotalDroppedPackets;
    }
    return drops;
}

double
PfabricExperiment::EstimateSecondsLeft(double elapsedS, uint64_t doneBytes, uint64_t totalBytes)
{
    if (doneBytes == 0)
    {
        return -1;
    }
    const uint64_t leftBytes = totalBytes > doneBytes ? totalBytes - doneBytes : 0;
    return elapsedS * static_cast<double>(leftBytes) / static_cast<double>(doneBytes);
}

uint64_t
PfabricExperiment::EstimatePacketHops() const
{
    return m_workload.EstimatePacketHops(m_flows, *m_fabric);
}

uint32_t
PfabricExperiment::AddFlows(std::vector<PfabricFlow> flows)
{
    NS_ABORT_MSG_UNLESS(m_p.addedFlows, "PfabricExperiment::AddFlows needs AddedFlows");
    const uint32_t first = m_flows.size();
    for (PfabricFlow& flow : flows)
    {
        flow.id = m_flows.size();
        m_flows.push_back(flow);
    }
    return first;
}

void
PfabricExperiment::AbandonRunDirectory()
{
    m_writer.Abandon();
}

void
PfabricExperiment::Install()
{
    // Hosts' ports and switches' ports apart, for meta.json's drops by kind of port; streams are
    // assigned over both in the same order as when installed together.
    m_hostPorts = m_scheme->Install(m_fabric->GetHosts(), NodeContainer());
    m_switchPorts = m_scheme->Install(m_fabric->GetSwitches());
    QueueDiscContainer ports = m_hostPorts;
    ports.Add(m_switchPorts);
    AssignStreams(ports, *m_fabric);

    NodeContainer hosts = m_fabric->GetHosts();
    m_apps.clear();
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        Ptr<PfabricFlowApplication> app = CreateApplication();
        app->TraceConnectWithoutContext("FlowCompleted",
                                        MakeCallback(&PfabricExperiment::FlowCompleted, this));
        app->TraceConnectWithoutContext("FlowTerminated",
                                        MakeCallback(&PfabricExperiment::FlowTerminated, this));
        app->TraceConnectWithoutContext(
            "ConnectionRefused",
            MakeBoundCallback(&PfabricExperiment::ConnectionRefused, this, i));
        hosts.Get(i)->AddApplication(app);
        m_apps.push_back(app);
    }

    m_results.clear();
    m_results.reserve(m_flows.size());
    m_done = 0;
    m_terminated = 0;
    m_totalBytes = 0;
    if (m_window.HasGenerator())
    {
        // Windowed: the flows are drawn as they come due, so memory holds only the flows
        // started or about to start, however many the measured ones need after them.
        m_window.Feed(m_p.connectLead, [this](const PfabricFlow& flow) {
            m_flows.push_back(flow);
            HandOver(flow);
        });
        return;
    }
    for (const PfabricFlow& flow : m_flows)
    {
        HandOver(flow);
    }
}

Ptr<PfabricFlowApplication>
PfabricExperiment::CreateApplication() const
{
    auto app = CreateObject<PfabricFlowApplication>();
    app->SetAttribute("ReuseConnections", BooleanValue(m_p.reuseConnections));
    app->SetAttribute("ConnectionPool", UintegerValue(m_p.connectionPool));
    app->SetAttribute("ConnectLead", TimeValue(m_p.connectLead));
    for (const auto& feature : m_features)
    {
        feature->ConfigureApplication(*app);
    }
    return app;
}

namespace
{

/// The trial's flow: segments. More than any preset's buffer holds (150 packets) and than the
/// bucket of a token bucket's default (125 KB), so that a queue disc's paths for a backlog, a
/// full queue and packets that must wait run too (a TBF with Rate=0bps aborts only on a packet
/// that waits for tokens); on two hosts it still takes well under a millisecond of simulated time.
constexpr uint32_t TRIAL_FLOW_SEGMENTS = 200;

/// The trial's simulated time at most, milliseconds: its flow takes microseconds; a flow that
/// cannot finish (a buffer too small for a segment) is no failure of ns-3's, and is not waited for.
constexpr int64_t TRIAL_SIMULATED_MS = 100;

/// The packet lost on its way to the trial's receiver, counted from 0 as its device receives
/// them: a data segment of the first window on either host stack (after ns-3's handshake, if
/// there is one). A loss this early leaves a window of about the initial window, so that the
/// scheme's loss recovery runs at a small window too: there, TcpCubic with Beta below 0.2 cuts
/// the window to two segments, and its TCP-friendly growth then loops for ever within one event.
constexpr uint32_t TRIAL_LOST_PACKET = 4;

/// The trial's flow completed: nothing more to try.
void
StopTrial(const PfabricFlowApplication::CompletedFlow&)
{
    Simulator::Stop();
}

} // namespace

std::vector<std::string>
PfabricExperiment::GetSchemeOptionsGiven() const
{
    std::vector<std::string> scheme;
    if (m_p.scheme == PfabricSchemeHelper::CUSTOM)
    {
        scheme = m_custom.GetChangedOptions();
    }
    const std::vector<std::pair<std::string, std::string>> overrides{{"buffer", m_p.buffer},
                                                                     {"rto", m_p.rto}};
    for (const auto& [option, value] : overrides)
    {
        if (!value.empty())
        {
            scheme.push_back("--" + option + "=" + value);
        }
    }
    return scheme;
}

std::vector<std::string>
PfabricExperiment::GetSettingsGivenToNs3() const
{
    std::vector<std::string> settings;
    if (m_commandLine)
    {
        settings = PfabricSettingsTrial::GivenNs3Options(*m_commandLine, false);
    }
    settings = PfabricSettingsTrial::WithVariable(settings, "NS_GLOBAL_VALUE");
    const std::vector<std::string> scheme = GetSchemeOptionsGiven();
    settings.insert(settings.end(), scheme.begin(), scheme.end());
    if (m_commandLine)
    {
        const std::vector<std::string> paths =
            PfabricSettingsTrial::GivenNs3Options(*m_commandLine, true);
        settings.insert(settings.end(), paths.begin(), paths.end());
    }
    return PfabricSettingsTrial::WithVariable(settings, "NS_ATTRIBUTE_DEFAULT");
}

std::string
PfabricExperiment::TrySettings()
{
    // What configures each step, as given: ns-3's global values, its attribute paths (they
    // reach every object of the fabric and the scheme), the scheme's own options.
    std::vector<std::string> globals;
    std::vector<std::string> paths;
    if (m_commandLine)
    {
        globals = PfabricSettingsTrial::GivenNs3Options(*m_commandLine, false);
        paths = PfabricSettingsTrial::GivenNs3Options(*m_commandLine, true);
    }
    std::vector<std::string> scheme = GetSchemeOptionsGiven();
    scheme.insert(scheme.end(), paths.begin(), paths.end());
    scheme = PfabricSettingsTrial::WithVariable(scheme, "NS_ATTRIBUTE_DEFAULT");
    if (scheme.empty())
    {
        scheme.push_back("--scheme=" + m_p.scheme); // its own parts, as the module configures them
    }
    const std::string name = GetSchemeName();

    // Run in the child only: whatever they build, draw or schedule stays there.
    std::unique_ptr<PfabricFabricHelper> pair;
    PfabricSettingsTrial trial;
    trial.AddSimulatorStep(globals);
    trial.AddStep("building two hosts and a switch of this run's kind",
                  PfabricSettingsTrial::WithVariable(paths, "NS_ATTRIBUTE_DEFAULT"),
                  [this, &pair]() {
                      pair = std::make_unique<PfabricSingleSwitchHelper>(2);
                      ConfigureFabric(*pair);
                      pair->Build();
                  });
    trial.AddStep("installing scheme " + name + " on two hosts and a switch",
                  scheme,
                  [this, &pair]() {
                      // As many levels as the run's, at thresholds of their own: the run reads
                      // the workload's CDF after the trial, and a pipe (--cdf=<(...)) reads once.
                      m_thresholds.clear();
                      for (uint32_t level = 1; level < m_p.priorityLevels; ++level)
                      {
                          m_thresholds.push_back(uint64_t(level) *
                                                 PfabricPreset::Get(m_p.preset).segmentSize);
                      }
                      ConfigureScheme();
                      m_scheme->Install(pair->GetHosts(), NodeContainer());
                      m_scheme->Install(pair->GetSwitches());
                      // Their queue discs check their configuration now (QueueDisc::CheckConfig).
                      NodeContainer nodes(pair->GetHosts(), pair->GetSwitches());
                      for (uint32_t i = 0; i < nodes.GetN(); ++i)
                      {
                          nodes.Get(i)->Initialize();
                      }
                  });
    trial.AddStep("carrying a flow of scheme " + name + " between two hosts (one segment lost)",
                  scheme,
                  [this, &pair]() {
                      NodeContainer hosts = pair->GetHosts();
                      Ptr<PfabricFlowApplication> sender;
                      for (uint32_t i = 0; i < hosts.GetN(); ++i)
                      {
                          Ptr<PfabricFlowApplication> app = CreateApplication();
                          hosts.Get(i)->AddApplication(app);
                          sender = sender ? sender : app;
                      }
                      sender->TraceConnectWithoutContext("FlowCompleted", MakeCallback(&StopTrial));
                      auto loss = CreateObject<ReceiveListErrorModel>();
                      loss->SetList({TRIAL_LOST_PACKET});
                      Ptr<Node> receiver = hosts.Get(1);
                      for (uint32_t i = 0; i < receiver->GetNDevices(); ++i)
                      {
                          TypeId::AttributeInformation information;
                          Ptr<NetDevice> device = receiver->GetDevice(i);
                          if (device->GetInstanceTypeId().LookupAttributeByName(
                                  "ReceiveErrorModel",
                                  &information)) // not on the loopback
                          {
                              device->SetAttribute("ReceiveErrorModel", PointerValue(loss));
                          }
                      }
                      const uint64_t bytes = uint64_t(TRIAL_FLOW_SEGMENTS) *
                                             PfabricPreset::Get(m_p.preset).segmentSize;
                      sender->AddFlow(0, pair->GetHostAddress(1), bytes, m_p.connectLead);
                      // No longer than the run itself may simulate (--maxSimTime).
                      Simulator::Stop(std::min(MilliSeconds(TRIAL_SIMULATED_MS), m_p.maxSimTime));
                      Simulator::Run();
                  });
    return trial.Run();
}

void
PfabricExperiment::HandOver(const PfabricFlow& flow)
{
    m_totalBytes += flow.bytes;
    m_results.push_back(
        {flow, Seconds(-1), m_fabric->GetIdealFct(flow.src, flow.dst, flow.bytes), 0});
    if (m_window.FlowHandedOver(flow))
    {
        // The window's last flow is too large to be awaited, and every awaited one is done.
        m_stoppedWhenDone = true;
        Simulator::Stop();
    }
    std::optional<uint8_t> trafficClass;
    for (const auto& feature : m_features)
    {
        trafficClass = trafficClass ? trafficClass : feature->GetTrafficClass(flow);
    }
    m_apps[flow.src]->AddFlow(flow.id,
                              m_fabric->GetHostAddress(flow.dst),
                              flow.bytes,
                              flow.start,
                              flow.deadline,
                              trafficClass);
}

void
PfabricExperiment::FlowCompleted(const PfabricFlowApplication::CompletedFlow& flow)
{
    Result& result = m_results.at(flow.flow.id);
    result.fct = flow.fct;
    result.timeouts = flow.timeouts;
    ++m_done;
    if (m_window.IsOn() ? m_window.FlowCompleted(result.flow)
                        : m_done + m_terminated == m_results.size())
    {
        m_stoppedWhenDone = true;
        Simulator::Stop();
    }
}

void
PfabricExperiment::FlowTerminated(const PfabricFlowApplication::CompletedFlow& flow)
{
    Result& result = m_results.at(flow.flow.id);
    result.terminated = true;
    result.timeouts = flow.timeouts;
    if (m_done + ++m_terminated == m_results.size())
    {
        m_stoppedWhenDone = true;
        Simulator::Stop();
    }
}

void
PfabricExperiment::ConnectionRefused(PfabricExperiment* experiment,
                                     uint32_t host,
                                     const PfabricFlowApplication::Flow& flow)
{
    if (!experiment->m_runError.empty())
    {
        return; // the first is the run's
    }
    UintegerValue most;
    experiment->m_apps.at(host)->GetAttribute("MaxConnections", most);
    std::ostringstream line;
    line << "host " << host << " needs a connection more than its " << most.Get() << " for flow "
         << flow.id << " at " << Simulator::Now().GetSeconds()
         << " s (every other busy; PfabricFlowApplication::MaxConnections: ns-3's ephemeral "
            "ports, none freed in a run); give it fewer flows at once";
    experiment->m_runError = line.str();
    Simulator::Stop();
}

const std::string&
PfabricExperiment::GetRunError() const
{
    return m_runError;
}

void
PfabricExperiment::Run()
{
    // Every transmission by every device of the fabric, hosts' and switches'.
    const uint64_t transmissionsBefore =
        PfabricFabricHelper::CountTransmissions(m_fabric->GetDevices());
    m_stoppedWhenDone = false;
    m_runError.clear();
    Simulator::Stop(m_p.maxSimTime);
    Simulator::Run();
    m_endTime = Simulator::Now();
    m_events = Simulator::GetEventCount();
    m_packetHops =
        PfabricFabricHelper::CountTransmissions(m_fabric->GetDevices()) - transmissionsBefore;
    m_bytesReceived = GetBytesReceived();
    m_hostPortDrops = CountDrops(m_hostPorts);
    m_switchPortDrops = CountDrops(m_switchPorts);
    m_connectionsOpened = 0;
    m_startedBeforeConnected = 0;
    std::vector<PfabricFlowApplication::FlowInProgress> inProgress;
    for (const auto& app : m_apps)
    {
        m_connectionsOpened += app->GetConnectionsOpened();
        m_startedBeforeConnected += app->GetFlowsStartedBeforeConnected();
        for (const auto& flow : app->GetFlowsInProgress())
        {
            // fct.csv's timeouts column: an unfinished flow's so far
            m_results.at(flow.flow.id).timeouts = flow.timeouts;
            inProgress.push_back(flow);
        }
    }
    m_stop.Record(m_stoppedWhenDone, m_window.IsOn(), m_endTime, m_p.maxSimTime, inProgress);
    if (m_window.IsOn())
    {
        FinishWindow();
    }
    m_apps.clear();
    Simulator::Destroy();
}

void
PfabricExperiment::FinishWindow()
{
    // Cut short by the safety limit: the measured flows not yet drawn are reported unfinished.
    m_window.DrawMeasured([this](const PfabricFlow& flow) {
        m_flows.push_back(flow);
        m_results.push_back(
            {flow, Seconds(-1), m_fabric->GetIdealFct(flow.src, flow.dst, flow.bytes), 0});
    });
    // A generated workload never runs out; a flow file has arrivals to the end when some flow
    // starts after it.
    const Time end = m_endTime;
    m_arrivalsThroughEnd = m_window.HasGenerator() ||
                           std::any_of(m_flows.begin(),
                                       m_flows.end(),
                                       [end](const PfabricFlow& flow) { return flow.start > end; });
    if (!m_arrivalsThroughEnd)
    {
        NS_LOG_WARN(m_p.flowFile << ": the flows ran out before the measured flows completed");
    }
    // The rows of fct.csv: every flow started by the end, and every measured flow.
    auto dropped = [this, end](const PfabricFlow& flow) {
        return flow.start > end && !m_window.IsMeasured(flow.id);
    };
    m_flows.erase(std::remove_if(m_flows.begin(), m_flows.end(), dropped), m_flows.end());
    m_results.erase(std::remove_if(m_results.begin(),
                                   m_results.end(),
                                   [&dropped](const Result& r) { return dropped(r.flow); }),
                    m_results.end());
}

bool
PfabricExperiment::WriteResults(const PfabricJsonObject& meta, std::string* error)
{
    if (!m_writer.WriteFcts(m_results, error) || !m_writer.WriteMeta(meta, error))
    {
        m_writer.Abandon(); // no fct.csv without its meta.json
        return false;
    }
    return true;
}

bool
PfabricExperiment::WriteRunFile(const std::string& name,
                                const std::string& text,
                                std::string* error)
{
    if (!m_writer.WriteFile(name, text, error))
    {
        m_writer.Abandon();
        return false;
    }
    return true;
}

bool
PfabricExperiment::WriteIdealFcts(const PfabricJsonObject& meta, std::string* error)
{
    std::vector<Result> ideal;
    ideal.reserve(m_flows.size());
    for (const PfabricFlow& flow : m_flows)
    {
        ideal.push_back(
            {flow, Seconds(-1), m_fabric->GetIdealFct(flow.src, flow.dst, flow.bytes), 0});
    }
    if (!m_writer.WriteIdealFcts(ideal, error) || !m_writer.WriteMeta(meta, error))
    {
        m_writer.Abandon();
        return false;
    }
    return true;
}

const std::vector<PfabricExperiment::Result>&
PfabricExperiment::GetResults() const
{
    return m_results;
}

std::string
PfabricExperiment::GetOutputDirectory() const
{
    return m_writer.GetDirectory();
}

const std::vector<PfabricFlow>&
PfabricExperiment::GetFlows() const
{
    return m_flows;
}

const PfabricFabricHelper&
PfabricExperiment::GetFabric() const
{
    return *m_fabric;
}

Time
PfabricExperiment::GetEndTime() const
{
    return m_endTime;
}

uint32_t
PfabricExperiment::GetFlowsCompleted() const
{
    return m_done;
}

uint64_t
PfabricExperiment::GetBytesReceived() const
{
    uint64_t received = 0;
    for (const auto& app : m_apps)
    {
        received += app->GetBytesReceived();
    }
    return m_apps.empty() ? m_bytesReceived : received;
}

uint64_t
PfabricExperiment::GetTotalBytes() const
{
    return m_totalBytes;
}

PfabricExperiment::Progress
PfabricExperiment::GetProgress() const
{
    if (m_window.IsOn())
    {
        return {m_window.GetMeasuredCompleted(),
                m_window.GetMeasureFlows(),
                m_window.GetMeasuredBytesCompleted(),
                m_window.GetMeasuredBytes()};
    }
    return {m_done, static_cast<uint32_t>(m_flows.size()), GetBytesReceived(), m_totalBytes};
}

const PfabricStopReport&
PfabricExperiment::GetStopReport() const
{
    return m_stop;
}

bool
PfabricExperiment::GetArrivalsThroughEnd() const
{
    return m_arrivalsThroughEnd;
}

} // namespace ns3
