/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The custom scheme (PfabricCustomScheme, --scheme=custom): assembled from TCP-DropTail's or
// DCTCP's own parts it is that scheme, flow for flow; ns-3's FqCoDel and Cubic run every flow
// and are recorded; a bad part is one line naming its option.

#include "pfabric-test-cases.h"

#include "ns3/fifo-queue-disc.h"
#include "ns3/pfabric-custom-scheme.h"
#include "ns3/pfabric-experiment.h"
#include "ns3/pfabric-scheme-recipe.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @brief A FIFO with the attributes ns-3 keeps only for compatibility: Old, deprecated (ns-3
 * sets it with a notice on std::cerr) and Gone, obsolete (ns-3 stops the program on it). No
 * queue disc of the linked ns-3 libraries has either (ConfigStore's obsolete SaveDeprecated is
 * in a library the programs do not load).
 */
class PfabricTestRetiredAttributesQueueDisc : public FifoQueueDisc
{
  public:
    /// @return the TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::PfabricTestRetiredAttributesQueueDisc")
                .SetParent<FifoQueueDisc>()
                .SetGroupName("Pfabric")
                .AddConstructor<PfabricTestRetiredAttributesQueueDisc>()
                .AddAttribute("Old",
                              "Deprecated.",
                              UintegerValue(0),
                              MakeUintegerAccessor(&PfabricTestRetiredAttributesQueueDisc::m_old),
                              MakeUintegerChecker<uint32_t>(),
                              TypeId::SupportLevel::DEPRECATED,
                              "use nothing")
                .AddAttribute("Gone",
                              "Obsolete.",
                              UintegerValue(0),
                              MakeUintegerAccessor(&PfabricTestRetiredAttributesQueueDisc::m_gone),
                              MakeUintegerChecker<uint32_t>(),
                              TypeId::SupportLevel::OBSOLETE,
                              "gone since ns-3.99");
        return tid;
    }

  private:
    uint32_t m_old = 0;  //!< Old
    uint32_t m_gone = 0; //!< Gone
};

NS_OBJECT_ENSURE_REGISTERED(PfabricTestRetiredAttributesQueueDisc);

namespace pfabric
{
namespace tests
{
namespace
{

/// What a test reads back from one run: every flow's outcome and meta.json's text.
struct CustomRun
{
    std::vector<PfabricExperiment::Result> results; //!< GetResults
    std::string meta;                               //!< AddProvenance, formatted
};

/**
 * @brief pfabric-websearch's experiment on a 4-host star, 40 flows at load 0.8 (queues build,
 * RED marks), run to completion (RunToCompletion).
 * @param dir the run directory
 * @param scheme sets the scheme
 * @return the outcome
 */
CustomRun
RunOnStar(const std::string& dir, const std::function<void(PfabricExperiment&)>& scheme)
{
    PfabricExperiment experiment("websearch");
    PfabricExperiment::Parameters& p = experiment.GetParameters();
    SetSmallStar(p, dir, 40);
    p.load = 0.8;
    scheme(experiment);
    PfabricJsonObject meta = RunToCompletion(experiment);
    return {experiment.GetResults(), meta.Format()};
}

/**
 * A custom scheme made of a built-in scheme's parts gives that scheme's outcome for every
 * flow: the same FCT to the nanosecond, the same timeouts.
 */
class CustomEqualsBuiltInTest : public TestCase
{
  public:
    /**
     * @param builtIn tcp, dctcp or pfabric
     * @param parts the custom scheme of its parts
     */
    CustomEqualsBuiltInTest(std::string builtIn, std::function<void(PfabricCustomScheme&)> parts)
        : TestCase("A custom scheme of " + builtIn + "'s parts is " + builtIn + ", flow for flow"),
          m_builtIn(std::move(builtIn)),
          m_parts(std::move(parts))
    {
    }

  private:
    void DoRun() override
    {
        CustomRun builtIn = RunOnStar(CreateTempDirFilename("builtin"),
                                      [this](auto& e) { e.GetParameters().scheme = m_builtIn; });
        CustomRun custom = RunOnStar(CreateTempDirFilename("custom"), [this](auto& e) {
            e.GetParameters().scheme = PfabricSchemeHelper::CUSTOM;
            m_parts(e.GetCustomScheme());
        });
        NS_TEST_ASSERT_MSG_EQ(custom.results.size(), 40U, "every flow has a result");
        NS_TEST_ASSERT_MSG_EQ(custom.results.size(), builtIn.results.size(), "the same flows");
        double slowest = 0;
        for (std::size_t i = 0; i < custom.results.size(); ++i)
        {
            const auto& a = builtIn.results[i];
            const auto& b = custom.results[i];
            NS_TEST_ASSERT_MSG_EQ(b.fct.GetNanoSeconds(), a.fct.GetNanoSeconds(), "flow " << i);
            NS_TEST_ASSERT_MSG_EQ(b.timeouts, a.timeouts, "flow " << i);
            slowest = std::max(slowest, a.fct.GetSeconds() / a.idealFct.GetSeconds());
        }
        // Not two idle fabrics: flows queue behind each other.
        NS_TEST_ASSERT_MSG_GT(slowest, 2, "queueing delays some flow");
        NS_TEST_ASSERT_MSG_NE(custom.meta.find("\"custom_scheme\""), std::string::npos, "");
    }

    std::string m_builtIn;                             //!< tcp, dctcp or pfabric
    std::function<void(PfabricCustomScheme&)> m_parts; //!< its parts, by name
};

/**
 * ns-3's FqCoDel (CoDel scaled to the fabric) under Cubic senders: every flow completes, no
 * faster than its ideal FCT, and meta.json records the parts with their attribute values.
 */
class CustomFqCoDelCubicTest : public TestCase
{
  public:
    CustomFqCoDelCubicTest()
        : TestCase("A custom scheme of FqCoDel and Cubic runs every flow and is recorded")
    {
    }

  private:
    void DoRun() override
    {
        CustomRun run = RunOnStar(CreateTempDirFilename("fq"), [](PfabricExperiment& e) {
            e.GetParameters().scheme = PfabricSchemeHelper::CUSTOM;
            e.GetCustomScheme().SetPortQueueDisc("ns3::FqCoDelQueueDisc",
                                                 "Interval=100us|Target=10us");
            // Not TcpCubic: ns-3.37's names TcpSocketBase as its TypeId's parent (fixed later),
            // so neither this check nor ns-3 can create it through its TypeId there.
            e.GetCustomScheme().SetCongestionOps("ns3::TcpBic", "Beta=0.8");
        });
        for (const auto& result : run.results)
        {
            NS_TEST_ASSERT_MSG_EQ(result.fct.IsPositive(), true, "flow " << result.flow.id);
            NS_TEST_ASSERT_MSG_GT_OR_EQ(result.fct, result.idealFct, "flow " << result.flow.id);
        }
        for (const char* recorded : {"\"schemeLabel\": \"fqcodel-bic\"",
                                     "\"type_id\": \"ns3::FqCoDelQueueDisc\"",
                                     "\"Target\": \"10us\"",
                                     "\"MaxSize\": \"150p\"",
                                     "\"type_id\": \"ns3::TcpBic\"",
                                     "\"Beta\": \"0.8\""})
        {
            NS_TEST_ASSERT_MSG_NE(run.meta.find(recorded), std::string::npos, recorded);
        }
    }
};

/// A bad part is one line naming its option (PfabricCustomScheme::Check).
class CustomChecksTest : public TestCase
{
  public:
    CustomChecksTest()
        : TestCase("A bad custom scheme part is one line naming its option")
    {
    }

  private:
    void DoRun() override
    {
        const std::string custom = PfabricSchemeHelper::CUSTOM;

        struct Case
        {
            std::string option; //!< the option
            std::string value;  //!< its value
            std::string scheme; //!< --scheme
            std::string error;  //!< Check's line
        };

        const std::vector<Case> cases{
            {"portQueueDisc", "", custom, "--portQueueDisc=: not a TypeId of this ns-3"},
            {"portQueueDisc",
             "ns3::TcpCubic",
             custom,
             "--portQueueDisc=ns3::TcpCubic: not a ns3::QueueDisc"},
            {"portQueueDiscAttributes",
             "Limit=5",
             custom,
             "--portQueueDiscAttributes=Limit=5: ns3::FifoQueueDisc has no attribute Limit"},
            {"tcpAttributes",
             "MinRto=soon",
             custom,
             "--tcpAttributes=MinRto=soon: 'soon' is not a value of "
             "ns3::PfabricBaselineTcpSocket::MinRto (ns3::TimeValue)"},
            {"tcpAttributes",
             "InitialWindow=4|Sack=false",
             custom,
             "--tcpAttributes=InitialWindow=4|Sack=false: Sack is set by "
             "ns3::PfabricTcpSocketFactory on every socket"},
            {"tcpAttributes",
             "Rto=50us",
             custom,
             "--tcpAttributes=Rto=50us: neither ns3::PfabricBaselineTcpSocket nor "
             "ns3::PfabricTcpSocketFactory has an attribute Rto"},
            {"tcpAttributes",
             "SocketType=ns3::TcpSocketBase",
             custom,
             "--tcpAttributes=SocketType=ns3::TcpSocketBase: SocketType ns3::TcpSocketBase is "
             "not a PfabricTcpSocket"},
            {"tcpAttributes",
             "CongestionControl=ns3::TcpCubic",
             custom,
             "--tcpAttributes=CongestionControl=ns3::TcpCubic: CongestionControl is "
             "--tcpCongestionOps's"},
            {"tcpCongestionOps",
             "ns3::TcpCubic",
             "tcp",
             "--tcpCongestionOps needs --scheme=custom"},
            {"schemeLabel", "ideal", custom, "--schemeLabel=ideal: expected a name of letters"},
        };
        for (const Case& c : cases)
        {
            PfabricCustomScheme parts;
            NS_TEST_ASSERT_MSG_EQ(parts.SetOption(c.option, c.value), true, c.option);
            const std::string error = parts.Check(c.scheme, false);
            NS_TEST_ASSERT_MSG_EQ(error.substr(0, c.error.size()), c.error, c.option);
            NS_TEST_ASSERT_MSG_EQ(error.find('\n'), std::string::npos, "one line");
        }
        // An attribute ns-3 keeps for compatibility: an obsolete one is one line where ns-3
        // stopped the program; a deprecated one is taken, with no notice of the module's (ns-3
        // prints its own where it sets the value).
        const std::string retired = PfabricTestRetiredAttributesQueueDisc::GetTypeId().GetName();
        std::ostringstream notices;
        std::streambuf* const cerr = std::cerr.rdbuf(notices.rdbuf());
        std::vector<std::string> errors;
        for (const char* attributes : {"Gone=1", "Old=1"})
        {
            PfabricCustomScheme retiredParts;
            retiredParts.SetOption("portQueueDisc", retired);
            retiredParts.SetOption("portQueueDiscAttributes", attributes);
            errors.push_back(retiredParts.Check(custom, false));
        }
        std::cerr.rdbuf(cerr);
        NS_TEST_ASSERT_MSG_EQ(errors.front(),
                              "--portQueueDiscAttributes=Gone=1: ns-3 made Gone obsolete: gone "
                              "since ns-3.99",
                              "an obsolete attribute");
        NS_TEST_ASSERT_MSG_EQ(errors.back(), "", "a deprecated attribute");
        NS_TEST_ASSERT_MSG_EQ(notices.str(), "", "no notice before the line");
        PfabricCustomScheme parts;
        NS_TEST_ASSERT_MSG_EQ(parts.SetOption("queueDisc", "x"), false, "not an option");
        NS_TEST_ASSERT_MSG_EQ(parts.Check(custom, false), "", "TCP-DropTail's parts are good");
        NS_TEST_ASSERT_MSG_EQ(parts.GetLabel(), "fifo-newreno", "the parts' short names");
    }
};

/// TCP-DropTail's parts: a FIFO at every port, NewReno senders (the defaults, named).
void
TcpParts(PfabricCustomScheme& parts)
{
    parts.SetPortQueueDisc("ns3::FifoQueueDisc");
    parts.SetCongestionOps("ns3::TcpNewReno");
}

/// DCTCP's parts (PfabricSchemeHelper, hotnets12): RED marking at K = 15, PfabricDctcp starting
/// from the scheme's alpha (the original code's 0; ns-3's own default is 1), ECN.
void
DctcpParts(PfabricCustomScheme& parts)
{
    parts.SetPortQueueDisc("ns3::RedQueueDisc",
                           "MinTh=15|MaxTh=15|QW=1|UseEcn=true|UseHardDrop=false|Gentle=false|"
                           "MeanPktSize=1500|LinkBandwidth=10Gbps");
    parts.SetCongestionOps("ns3::PfabricDctcp", "DctcpAlphaOnInit=0");
    parts.SetTcpAttributes("UseEcn=On");
}

/// pFabric's parts (hotnets12): its queue disc with its buffer and modes, MinTCP's sockets,
/// which take the preset's MinTCP numbers and have a congestion control of their own.
void
PfabricParts(PfabricCustomScheme& parts)
{
    parts.SetPortQueueDisc("ns3::PfabricQueueDisc",
                           "MaxSize=22500B|DequeueMode=EarliestOfMostUrgentFlow|"
                           "AdmissionMode=Strict");
    parts.SetTcpAttributes("SocketType=ns3::PfabricMinTcpSocket");
}

} // namespace

/// The built-in schemes are PfabricSchemeRegistry's entries, and the parts a helper creates from
/// them carry the preset's numbers where each recipe puts them.
class SchemeRegistryTest : public TestCase
{
  public:
    SchemeRegistryTest()
        : TestCase("The registry holds the four schemes; their parts carry the preset's numbers")
    {
    }

  private:
    /// @return an attribute of a new object of a factory, as text
    static std::string Value(const ObjectFactory& factory, const std::string& name)
    {
        Ptr<Object> object = factory.Create();
        TypeId::AttributeInformation info;
        object->GetInstanceTypeId().LookupAttributeByName(name, &info);
        Ptr<AttributeValue> value = info.checker->Create();
        object->GetAttribute(name, *value);
        return value->SerializeToString(info.checker);
    }

    void DoRun() override
    {
        const std::vector<std::string> schemes{"pfabric", "linerate", "tcp", "dctcp"};
        NS_TEST_ASSERT_MSG_EQ((PfabricSchemeRegistry::List() == schemes),
                              true,
                              "the registry lists pfabric, linerate, tcp, dctcp");
        std::vector<std::string> choices = schemes;
        choices.emplace_back(PfabricSchemeHelper::CUSTOM);
        NS_TEST_ASSERT_MSG_EQ((PfabricSchemeHelper::GetSchemes() == choices), true, "choices");
        for (const std::string& scheme : schemes)
        {
            NS_TEST_ASSERT_MSG_EQ(PfabricSchemeHelper::UsesPfabricQueues(scheme),
                                  (scheme == "pfabric" || scheme == "linerate"),
                                  scheme);
        }
        NS_TEST_ASSERT_MSG_EQ(PfabricSchemeHelper::CheckChoice("xcp", "hotnets12"),
                              "--scheme=xcp: expected pfabric, linerate, tcp, dctcp or custom",
                              "an unknown scheme lists the registry's");
        NS_TEST_ASSERT_MSG_EQ(
            PfabricSchemeRegistry::FindBySocketType("ns3::PfabricLineRateTcpSocket")->GetName(),
            "linerate",
            "the nearest class's recipe");
        NS_TEST_ASSERT_MSG_EQ(
            PfabricSchemeRegistry::FindBySocketType("ns3::PfabricBaselineTcpSocket")->GetName(),
            "tcp",
            "of two recipes of a class, the first");

        for (const std::string presetName : {"hotnets12", "sigcomm13"})
        {
            const PfabricPreset& p = PfabricPreset::Get(presetName);
            PfabricSchemeHelper pfabric("pfabric", presetName);
            NS_TEST_ASSERT_MSG_EQ(Value(pfabric.GetQueueDiscFactory(), "MaxSize"),
                                  QueueSizeValue(p.pfabricBuffer).SerializeToString(nullptr),
                                  presetName);
            NS_TEST_ASSERT_MSG_EQ(Value(pfabric.GetSocketTypeFactory(), "Rto"),
                                  TimeValue(p.minTcpRto).SerializeToString(nullptr),
                                  presetName);
            NS_TEST_ASSERT_MSG_EQ(Value(pfabric.GetSocketTypeFactory(), "MaxWindow"),
                                  std::to_string(p.minTcpMaxWindow),
                                  presetName);
            PfabricSchemeHelper linerate("linerate", presetName);
            NS_TEST_ASSERT_MSG_EQ(Value(linerate.GetSocketTypeFactory(), "Window"),
                                  std::to_string(p.lineRateWindow),
                                  presetName);
            PfabricSchemeHelper dctcp("dctcp", presetName);
            NS_TEST_ASSERT_MSG_EQ(Value(dctcp.GetQueueDiscFactory(), "MinTh"),
                                  std::to_string(p.dctcpMarkingThreshold),
                                  presetName);
            NS_TEST_ASSERT_MSG_EQ(Value(dctcp.GetSocketTypeFactory(), "MinRto"),
                                  TimeValue(p.baselineMinRto).SerializeToString(nullptr),
                                  presetName);
            NS_TEST_ASSERT_MSG_EQ(Value(dctcp.GetSocketFactoryFactory(), "InitialWindow"),
                                  std::to_string(p.initialWindow),
                                  presetName);
            PfabricSchemeHelper tcp("tcp", presetName);
            NS_TEST_ASSERT_MSG_EQ(Value(tcp.GetQueueDiscFactory(), "MaxSize"),
                                  QueueSizeValue(p.baselineBuffer).SerializeToString(nullptr),
                                  presetName);
        }

        // The custom scheme is a recipe too: LineRate's sockets take LineRate's numbers.
        PfabricCustomScheme parts;
        parts.SetPortQueueDisc("ns3::PfabricQueueDisc");
        parts.SetTcpAttributes("SocketType=ns3::PfabricLineRateTcpSocket");
        NS_TEST_ASSERT_MSG_EQ(parts.Check(PfabricSchemeHelper::CUSTOM, false), "", "parts");
        PfabricSchemeHelper custom(PfabricSchemeHelper::CUSTOM, "sigcomm13");
        parts.Configure(custom);
        NS_TEST_ASSERT_MSG_EQ(Value(custom.GetSocketTypeFactory(), "Window"),
                              std::to_string(PfabricPreset::Get("sigcomm13").lineRateWindow),
                              "custom LineRate");
        NS_TEST_ASSERT_MSG_EQ(custom.GetRecipe().GetName(), parts.GetLabel(), "its label");
    }
};

std::vector<TestCase*>
MakeCustomSchemeTestCases()
{
    return {new CustomChecksTest, new SchemeRegistryTest};
}

std::vector<TestCase*>
MakeCustomSchemeExtensiveTestCases()
{
    return {new CustomEqualsBuiltInTest("tcp", TcpParts),
            new CustomEqualsBuiltInTest("dctcp", DctcpParts),
            new CustomEqualsBuiltInTest("pfabric", PfabricParts),
            new CustomFqCoDelCubicTest};
}

} // namespace tests
} // namespace pfabric
} // namespace ns3
