/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PfabricCustomScheme: a scheme assembled from ns-3 parts by name (--scheme=custom), its checks and
// its record in meta.json.

#include "pfabric-custom-scheme.h"

#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/pfabric-tcp-socket-factory.h"
#include "ns3/pfabric-tcp-socket.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfabricCustomScheme");

namespace
{

/// An attribute's name and its value as text.
using AttributeText = std::pair<std::string, std::string>;

/// The analysis's flow-level scheme, which a label may not take either.
constexpr const char* IDEAL_SCHEME = "ideal";

/**
 * @param part a part of the scheme the custom one starts from
 * @return that part's TypeId name in its recipe: for SOCKET_FACTORY, the hosts' socket factory,
 * whose attributes (what every transport shares) --tcpAttributes sets beside the sockets'; for
 * SOCKET, the sockets unless --tcpAttributes names SocketType (TCP-DropTail's)
 */
const std::string&
BaseType(PfabricSchemeRecipe::Part part)
{
    return PfabricSchemeRegistry::Get(PfabricSchemeHelper::CUSTOM_BASE).GetType(part);
}

/// The name in --tcpAttributes of the sockets' class (the factory's attribute of that name is
/// the helper's to set, with the preset's numbers of that class).
constexpr const char* SOCKET_TYPE_ATTRIBUTE = "SocketType";

/// The socket attribute that --tcpCongestionOps sets.
constexpr const char* CONGESTION_OPS_ATTRIBUTE = "CongestionControl";

/// @return the sockets' congestion control until CongestionControl is set
std::string
DefaultCongestionOps()
{
    TypeId::AttributeInformation info;
    TypeId::LookupByName(BaseType(PfabricSchemeRecipe::SOCKET))
        .LookupAttributeByName(CONGESTION_OPS_ATTRIBUTE, &info);
    return DynamicCast<const ObjectFactoryValue>(info.originalInitialValue)
        ->Get()
        .GetTypeId()
        .GetName();
}

/// @return whether a TypeId (or a parent) has an attribute of that name
bool
HasAttribute(TypeId tid, const std::string& name)
{
    TypeId::AttributeInformation info;
    return PfabricCommandLine::FindAttribute(tid, name, &info);
}

/**
 * @brief Split Name=value|Name=value at each | outside brackets (a value may be an
 * ObjectFactory's text, ns3::Type[A=1|B=2]) and each item at its first =.
 * @param text the list, or ""
 * @return each item's name and value; an empty name for an item without one
 */
std::vector<AttributeText>
SplitAttributes(const std::string& text)
{
    std::vector<std::string> items(1);
    int depth = 0;
    for (char c : text)
    {
        depth += c == '[' ? 1 : c == ']' ? -1 : 0;
        if (c == '|' && depth == 0)
        {
            items.emplace_back();
        }
        else
        {
            items.back() += c;
        }
    }
    std::vector<AttributeText> attributes;
    for (const std::string& item : text.empty() ? std::vector<std::string>() : items)
    {
        std::size_t equals = item.find('=');
        attributes.emplace_back(equals == std::string::npos ? "" : item.substr(0, equals),
                                equals == std::string::npos ? item : item.substr(equals + 1));
    }
    return attributes;
}

/**
 * @brief Check one item of an attribute list against a type.
 * @param given the message's start: the option as given
 * @param name the item's attribute ("" for an item without one)
 * @param value its value
 * @param tid the type
 * @return "" or what is wrong, one line starting with given
 */
std::string
CheckAttribute(const std::string& given,
               const std::string& name,
               const std::string& value,
               TypeId tid)
{
    TypeId::AttributeInformation info;
    if (name.empty())
    {
        return given + "expected Name=value pairs separated by |, e.g. " +
               "Interval=100us|Target=10us";
    }
    if (!PfabricCommandLine::FindAttribute(tid, name, &info))
    {
        return given + tid.GetName() + " has no attribute " + name;
    }
    const std::string obsolete = PfabricCommandLine::RefuseObsolete(info);
    if (!obsolete.empty())
    {
        return given + obsolete;
    }
    if (!(info.flags & TypeId::ATTR_CONSTRUCT))
    {
        return given + tid.GetName() + "::" + name + " cannot be set";
    }
    if (!PfabricCommandLine::TakesValue(info.checker, value))
    {
        return given + "'" + value + "' is not a value of " + tid.GetName() + "::" + name + " (" +
               info.checker->GetValueTypeName() + ")";
    }
    const std::string units = PfabricCommandLine::CheckUnits(info, value);
    return units.empty() ? "" : given + name + "=" + value + ": " + units;
}

/**
 * @brief Check an attribute list against a type.
 * @param option the option that gave it, for the message
 * @param text Name=value|Name=value, or ""
 * @param tid the type
 * @return "" or what is wrong, one line naming the option
 */
std::string
CheckAttributes(const std::string& option, const std::string& text, TypeId tid)
{
    const std::string given = "--" + option + "=" + text + ": ";
    for (const auto& [name, value] : SplitAttributes(text))
    {
        std::string error = CheckAttribute(given, name, value, tid);
        if (!error.empty())
        {
            return error;
        }
    }
    return "";
}

/**
 * @brief Whether an object of a TypeId is, in C++, of a base's class, whatever its TypeId's
 * parent says: ns-3.37's TcpCubic names TcpSocketBase as its parent (fixed in later releases),
 * though it is a TcpCongestionOps.
 * @param tid a TypeId with a constructor
 * @param base QueueDisc's or TcpCongestionOps' TypeId
 * @return whether a new object of tid is a base
 */
bool
IsInstanceOf(TypeId tid, TypeId base)
{
    ObjectFactory factory;
    factory.SetTypeId(tid);
    Ptr<Object> object = factory.Create();
    return base == TcpCongestionOps::GetTypeId() ? DynamicCast<TcpCongestionOps>(object) != nullptr
                                                 : DynamicCast<QueueDisc>(object) != nullptr;
}

/**
 * @brief Check a part's TypeId.
 * @param option the option that gave it
 * @param type the TypeId name
 * @param base what it must derive from
 * @param[out] tid the TypeId
 * @return "" or what is wrong, one line naming the option
 */
std::string
CheckType(const std::string& option, const std::string& type, TypeId base, TypeId* tid)
{
    const std::string given = "--" + option + "=" + type + ": ";
    if (!TypeId::LookupByNameFailSafe(type, tid))
    {
        return given + "not a TypeId of this ns-3 (e.g. " +
               (base == QueueDisc::GetTypeId() ? "ns3::FqCoDelQueueDisc" : "ns3::TcpCubic") + ")";
    }
    if (!tid->HasConstructor())
    {
        return given + (*tid == base || tid->IsChildOf(base)
                            ? "an abstract type, not one ns-3 can create"
                            : "not a " + base.GetName());
    }
    if (*tid != base && !tid->IsChildOf(base) && !IsInstanceOf(*tid, base))
    {
        return given + "not a " + base.GetName();
    }
    return "";
}

/**
 * @param type a TypeId name, e.g. ns3::FqCoDelQueueDisc
 * @param prefix a prefix to drop, e.g. Tcp
 * @param suffix a suffix to drop, e.g. QueueDisc
 * @return its short name in a label, e.g. fqcodel
 */
std::string
ShortName(std::string type, const std::string& prefix, const std::string& suffix)
{
    type = type.substr(type.rfind(':') == std::string::npos ? 0 : type.rfind(':') + 1);
    if (type.size() > prefix.size() && type.compare(0, prefix.size(), prefix) == 0)
    {
        type = type.substr(prefix.size());
    }
    if (type.size() > suffix.size() &&
        type.compare(type.size() - suffix.size(), suffix.size(), suffix) == 0)
    {
        type = type.substr(0, type.size() - suffix.size());
    }
    std::string name;
    for (unsigned char c : type)
    {
        if (std::isalnum(c))
        {
            name += static_cast<char>(std::tolower(c));
        }
    }
    return name;
}

/// @return whether a label can name a run directory: letters, digits, . _ + -, not first . or -
bool
IsLabel(const std::string& label)
{
    return !label.empty() && std::isalnum(static_cast<unsigned char>(label[0])) &&
           std::all_of(label.begin(), label.end(), [](unsigned char c) {
               return std::isalnum(c) || c == '.' || c == '_' || c == '+' || c == '-';
           });
}

/**
 * @brief A part as created: its TypeId and every attribute that can be read as text (not
 * pointers to other objects, containers or callbacks; not deprecated ones), by name. An
 * attribute without a getter (declared readable, as RED's Alpha, or not, as TcpSocketBase's
 * UseEcn) is left out, unless the factory that made the part set it: then its value is the
 * factory's.
 * @param object the part
 * @param made the factory that made it, or nullptr
 * @param leaveOut attributes not to describe (those another part sets on it)
 * @return {"type_id": ..., "attributes": {...}}
 */
PfabricJsonObject
Describe(Ptr<Object> object,
         const ObjectFactory* made = nullptr,
         const std::vector<std::string>& leaveOut = {})
{
    std::map<std::string, std::string> values;
    for (TypeId tid = object->GetInstanceTypeId();; tid = tid.GetParent())
    {
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            TypeId::AttributeInformation info = tid.GetAttribute(i);
            const std::string kind = info.checker->GetValueTypeName();
            if (info.supportLevel != TypeId::SupportLevel::SUPPORTED ||
                kind == "ns3::PointerValue" || kind == "ns3::ObjectPtrContainerValue" ||
                kind == "ns3::CallbackValue" ||
                std::find(leaveOut.begin(), leaveOut.end(), info.name) != leaveOut.end())
            {
                continue;
            }
            if (!(info.flags & TypeId::ATTR_GET) || !info.accessor->HasGetter())
            {
                std::string text;
                if (made && PfabricPresetAttributes::FindFactoryValue(*made, info.name, &text))
                {
                    values.emplace(info.name, text);
                }
                continue;
            }
            Ptr<AttributeValue> value = info.checker->Create();
            // ns-3.37's TcpCubic declares TcpSocketBase as its parent: that class's attributes
            // are listed but cannot be read from it (GetAttribute stopped the run).
            if (info.accessor->Get(PeekPointer(object), *value))
            {
                values.emplace(info.name, value->SerializeToString(info.checker));
            }
        }
        if (tid == tid.GetParent())
        {
            break;
        }
    }
    PfabricJsonObject attributes;
    for (const auto& [name, text] : values)
    {
        attributes.AddString(name, text);
    }
    PfabricJsonObject part;
    part.AddString("type_id", object->GetInstanceTypeId().GetName())
        .AddObject("attributes", attributes);
    return part;
}

} // namespace

const PfabricCustomScheme::Option PfabricCustomScheme::OPTIONS[] = {
    {"schemeLabel",
     "custom: the scheme's name, in the run directory and pfabric-analysis (letters, digits, "
     ". _ + -; default: the parts' short names, e.g. fqcodel-cubic)",
     &PfabricCustomScheme::m_label},
    {"portQueueDisc",
     "custom: every switch port's queue disc, an ns-3 QueueDisc TypeId, e.g. "
     "ns3::FqCoDelQueueDisc (its MaxSize, if it has one: the preset's TCP buffer or --buffer)",
     &PfabricCustomScheme::m_portQueueDisc},
    {"portQueueDiscAttributes",
     "custom: attributes of --portQueueDisc, Name=value|Name=value, e.g. "
     "Interval=100us|Target=10us|UseEcn=true",
     &PfabricCustomScheme::m_portQueueDiscAttributes},
    {"hostQueueDisc",
     "custom: every host NIC's queue disc, a QueueDisc TypeId (default: the ports', with their "
     "attributes)",
     &PfabricCustomScheme::m_hostQueueDisc},
    {"hostQueueDiscAttributes",
     "custom: attributes of --hostQueueDisc, Name=value|Name=value",
     &PfabricCustomScheme::m_hostQueueDiscAttributes},
    {"tcpCongestionOps",
     "custom: the senders' congestion control, an ns-3 TcpCongestionOps TypeId, e.g. "
     "ns3::TcpCubic",
     &PfabricCustomScheme::m_congestionOps},
    {"tcpCongestionOpsAttributes",
     "custom: attributes of --tcpCongestionOps, Name=value|Name=value, e.g. Beta=0.8",
     &PfabricCustomScheme::m_congestionOpsAttributes},
    {"tcpAttributes",
     "custom: attributes of the hosts' TCP over the preset's, Name=value|Name=value, e.g. "
     "UseEcn=On|MinRto=1ms: its sockets' (ns3::PfabricBaselineTcpSocket, or SocketType=a "
     "PfabricTcpSocket TypeId) or their factory's (ns3::PfabricTcpSocketFactory)",
     &PfabricCustomScheme::m_tcpAttributes},
};

PfabricCustomScheme::PfabricCustomScheme()
    : m_portQueueDisc(PfabricSchemeRegistry::Get(PfabricSchemeHelper::CUSTOM_BASE)
                          .GetType(PfabricSchemeRecipe::PORT_QUEUE_DISC)),
      m_congestionOps(DefaultCongestionOps())
{
}

void
PfabricCustomScheme::AddCommandLineOptions(PfabricCommandLine& cmd)
{
    for (const Option& option : OPTIONS)
    {
        cmd.AddValue(option.name, option.help, this->*option.variable);
    }
}

void
PfabricCustomScheme::SetLabel(const std::string& label)
{
    m_label = label;
}

void
PfabricCustomScheme::SetPortQueueDisc(const std::string& type, const std::string& attributes)
{
    m_portQueueDisc = type;
    m_portQueueDiscAttributes = attributes;
}

void
PfabricCustomScheme::SetHostQueueDisc(const std::string& type, const std::string& attributes)
{
    m_hostQueueDisc = type;
    m_hostQueueDiscAttributes = attributes;
}

void
PfabricCustomScheme::SetCongestionOps(const std::string& type, const std::string& attributes)
{
    m_congestionOps = type;
    m_congestionOpsAttributes = attributes;
}

void
PfabricCustomScheme::SetTcpAttributes(const std::string& attributes)
{
    m_tcpAttributes = attributes;
}

bool
PfabricCustomScheme::SetOption(const std::string& name, const std::string& value)
{
    for (const Option& option : OPTIONS)
    {
        if (name == option.name)
        {
            this->*option.variable = value;
            return true;
        }
    }
    return false;
}

std::string
PfabricCustomScheme::NameOf(std::string PfabricCustomScheme::*option)
{
    for (const Option& known : OPTIONS)
    {
        if (known.variable == option)
        {
            return known.name;
        }
    }
    NS_ABORT_MSG("PfabricCustomScheme: an option without a name");
    return "";
}

std::string
PfabricCustomScheme::Check(const std::string& scheme, bool buffer) const
{
    if (scheme != PfabricSchemeHelper::CUSTOM)
    {
        const PfabricCustomScheme defaults;
        for (const Option& option : OPTIONS)
        {
            if (this->*option.variable != defaults.*option.variable)
            {
                return std::string("--") + option.name +
                       " needs --scheme=" + PfabricSchemeHelper::CUSTOM;
            }
        }
        return "";
    }
    std::string error = CheckParts();
    if (!error.empty())
    {
        return error;
    }
    TypeId::AttributeInformation info;
    if (buffer && !TypeId::LookupByName(m_portQueueDisc).LookupAttributeByName("MaxSize", &info))
    {
        return "--buffer: " + m_portQueueDisc + " (--" +
               NameOf(&PfabricCustomScheme::m_portQueueDisc) + ") has no MaxSize";
    }
    return "";
}

std::string
PfabricCustomScheme::CheckParts() const
{
    TypeId tid;
    const TypeId queueDisc = QueueDisc::GetTypeId();
    std::string error =
        CheckType(NameOf(&PfabricCustomScheme::m_portQueueDisc), m_portQueueDisc, queueDisc, &tid);
    if (error.empty())
    {
        error = CheckAttributes(NameOf(&PfabricCustomScheme::m_portQueueDiscAttributes),
                                m_portQueueDiscAttributes,
                                tid);
    }
    if (error.empty() && m_hostQueueDisc.empty() && !m_hostQueueDiscAttributes.empty())
    {
        error = "--" + NameOf(&PfabricCustomScheme::m_hostQueueDiscAttributes) + " needs --" +
                NameOf(&PfabricCustomScheme::m_hostQueueDisc);
    }
    if (error.empty() && !m_hostQueueDisc.empty())
    {
        error = CheckType(NameOf(&PfabricCustomScheme::m_hostQueueDisc),
                          m_hostQueueDisc,
                          queueDisc,
                          &tid);
        if (error.empty())
        {
            error = CheckAttributes(NameOf(&PfabricCustomScheme::m_hostQueueDiscAttributes),
                                    m_hostQueueDiscAttributes,
                                    tid);
        }
    }
    if (error.empty())
    {
        error = CheckType(NameOf(&PfabricCustomScheme::m_congestionOps),
                          m_congestionOps,
                          TcpCongestionOps::GetTypeId(),
                          &tid);
    }
    if (error.empty())
    {
        error = CheckAttributes(NameOf(&PfabricCustomScheme::m_congestionOpsAttributes),
                                m_congestionOpsAttributes,
                                tid);
    }
    if (error.empty())
    {
        error = CheckTcpAttributes();
    }
    // Last: a label made of bad parts' names is no news.
    const std::string label = GetLabel();
    auto builtIn = PfabricSchemeHelper::GetSchemes(); // the registry's and custom
    builtIn.emplace_back(IDEAL_SCHEME);
    if (error.empty() &&
        (!IsLabel(label) || std::find(builtIn.begin(), builtIn.end(), label) != builtIn.end()))
    {
        error = "--" + NameOf(&PfabricCustomScheme::m_label) + "=" + label +
                ": expected a name of letters, digits, '.', '_', '+' or '-' (it names the run "
                "directory), not a built-in scheme's";
    }
    return error;
}

std::string
PfabricCustomScheme::GetSocketType() const
{
    for (const auto& [name, value] : SplitAttributes(m_tcpAttributes))
    {
        if (name == SOCKET_TYPE_ATTRIBUTE)
        {
            return value;
        }
    }
    return BaseType(PfabricSchemeRecipe::SOCKET);
}

std::string
PfabricCustomScheme::GetTcpAttributeOption(const std::string& attribute) const
{
    for (const auto& [name, value] : SplitAttributes(m_tcpAttributes))
    {
        if (name == attribute)
        {
            return "--" + NameOf(&PfabricCustomScheme::m_tcpAttributes) + "=" + m_tcpAttributes;
        }
    }
    return "";
}

std::string
PfabricCustomScheme::CheckTcpAttributes() const
{
    const std::string given =
        "--" + NameOf(&PfabricCustomScheme::m_tcpAttributes) + "=" + m_tcpAttributes + ": ";
    const TypeId transport = TypeId::LookupByName(BaseType(PfabricSchemeRecipe::SOCKET_FACTORY));
    TypeId socket;
    const std::string socketType = GetSocketType();
    if (!TypeId::LookupByNameFailSafe(socketType, &socket) || !socket.HasConstructor() ||
        !socket.IsChildOf(PfabricTcpSocket::GetTypeId()))
    {
        return given + SOCKET_TYPE_ATTRIBUTE + " " + socketType +
               " is not a PfabricTcpSocket ns-3 can create (e.g. ns3::PfabricMinTcpSocket)";
    }
    const auto& common = PfabricTcpSocketFactory::GetCommonSocketAttributes();
    for (const auto& [name, value] : SplitAttributes(m_tcpAttributes))
    {
        if (name == SOCKET_TYPE_ATTRIBUTE)
        {
            continue;
        }
        if (name == CONGESTION_OPS_ATTRIBUTE)
        {
            return given + name + " is --" + NameOf(&PfabricCustomScheme::m_congestionOps) + "'s";
        }
        // SegmentSize is the factory's own too, and goes to it.
        if (!HasAttribute(transport, name) &&
            std::find(common.begin(), common.end(), name) != common.end())
        {
            return given + name + " is set by " + BaseType(PfabricSchemeRecipe::SOCKET_FACTORY) +
                   " on every socket";
        }
        if (!name.empty() && !HasAttribute(transport, name) && !HasAttribute(socket, name))
        {
            return given + "neither " + socketType + " nor " +
                   BaseType(PfabricSchemeRecipe::SOCKET_FACTORY) + " has an attribute " + name;
        }
        // The factory's attribute of a name, else the sockets'.
        std::string error =
            CheckAttribute(given, name, value, HasAttribute(transport, name) ? transport : socket);
        if (!error.empty())
        {
            return error;
        }
    }
    const PfabricCustomScheme defaults;
    if (!HasAttribute(socket, CONGESTION_OPS_ATTRIBUTE) &&
        (m_congestionOps != defaults.m_congestionOps ||
         m_congestionOpsAttributes != defaults.m_congestionOpsAttributes))
    {
        return "--" + NameOf(&PfabricCustomScheme::m_congestionOps) + ": " + socketType + " (--" +
               NameOf(&PfabricCustomScheme::m_tcpAttributes) + ", " + SOCKET_TYPE_ATTRIBUTE +
               ") has a congestion control of its own";
    }
    return "";
}

std::string
PfabricCustomScheme::GetLabel() const
{
    if (!m_label.empty())
    {
        return m_label;
    }
    std::string label = ShortName(m_portQueueDisc, "", "QueueDisc");
    if (!m_hostQueueDisc.empty())
    {
        label += "-" + ShortName(m_hostQueueDisc, "", "QueueDisc");
    }
    return label + "-" + ShortName(m_congestionOps, "Tcp", "");
}

std::vector<std::string>
PfabricCustomScheme::GetChangedOptions() const
{
    const PfabricCustomScheme defaults;
    std::vector<std::string> changed;
    for (const Option& option : OPTIONS)
    {
        if (option.variable != &PfabricCustomScheme::m_label &&
            this->*option.variable != defaults.*option.variable)
        {
            changed.push_back(std::string("--") + option.name + "=" + this->*option.variable);
        }
    }
    return changed;
}

PfabricSchemeRecipe
PfabricCustomScheme::GetRecipe() const
{
    using R = PfabricSchemeRecipe;
    R recipe(GetLabel());
    recipe.SetDescription("ns-3 parts by name (PfabricCustomScheme)");
    // The preset's numbers of the sockets' transport: those of the registered scheme of their
    // class (TCP-DropTail's for PfabricBaselineTcpSocket, MinTCP's, LineRate's).
    const std::string socketType = GetSocketType();
    if (const R* transport = PfabricSchemeRegistry::FindBySocketType(socketType))
    {
        recipe.CopyPart(R::SOCKET_FACTORY, *transport);
        recipe.CopyPart(R::SOCKET, *transport);
    }
    recipe.SetType(R::SOCKET, socketType);
    // A queue disc with a MaxSize holds the preset's baseline buffer, under the given attributes.
    const auto queueDisc =
        [&recipe](R::Part part, const std::string& type, const std::string& attributes) {
            recipe.SetType(part, type);
            if (HasAttribute(TypeId::LookupByName(type), "MaxSize"))
            {
                recipe.SetPresetAttribute(
                    part,
                    "MaxSize",
                    R::FromPreset<QueueSizeValue>(&PfabricPreset::baselineBuffer));
            }
            for (const auto& [name, value] : SplitAttributes(attributes))
            {
                recipe.SetAttribute(part, name, StringValue(value));
            }
        };
    queueDisc(R::PORT_QUEUE_DISC, m_portQueueDisc, m_portQueueDiscAttributes);
    if (!m_hostQueueDisc.empty())
    {
        queueDisc(R::HOST_QUEUE_DISC, m_hostQueueDisc, m_hostQueueDiscAttributes);
    }
    const TypeId transport = TypeId::LookupByName(BaseType(PfabricSchemeRecipe::SOCKET_FACTORY));
    for (const auto& [name, value] : SplitAttributes(m_tcpAttributes))
    {
        if (name != SOCKET_TYPE_ATTRIBUTE)
        {
            // The factory's attribute of a name, else the sockets'.
            recipe.SetAttribute(HasAttribute(transport, name) ? R::SOCKET_FACTORY : R::SOCKET,
                                name,
                                StringValue(value));
        }
    }
    // A socket class with a congestion control of its own (MinTCP's, LineRate's) takes none.
    if (HasAttribute(TypeId::LookupByName(socketType), CONGESTION_OPS_ATTRIBUTE))
    {
        recipe.SetType(R::CONGESTION_CONTROL, m_congestionOps);
        for (const auto& [name, value] : SplitAttributes(m_congestionOpsAttributes))
        {
            recipe.SetAttribute(R::CONGESTION_CONTROL, name, StringValue(value));
        }
    }
    return recipe;
}

void
PfabricCustomScheme::Configure(PfabricSchemeHelper& helper) const
{
    NS_LOG_FUNCTION(this << GetLabel());
    helper.SetRecipe(GetRecipe());
}

void
PfabricCustomScheme::AddParameters(PfabricJsonObject& parameters) const
{
    for (const Option& option : OPTIONS)
    {
        parameters.AddString(
            option.name,
            option.variable == &PfabricCustomScheme::m_label ? GetLabel() : this->*option.variable);
    }
}

void
PfabricCustomScheme::AddProvenance(PfabricJsonObject& meta, const PfabricSchemeHelper& helper) const
{
    std::string names;
    for (const Option& option : OPTIONS)
    {
        names += (names.empty() ? "" : ", ") + PfabricJsonObject::Quote(option.name);
    }
    PfabricJsonObject scheme;
    scheme.AddString("label", GetLabel()).AddRaw("parameters", "[" + names + "]");
    AddParts(scheme, helper);
    meta.AddObject("custom_scheme", scheme);
}

void
PfabricCustomScheme::AddParts(PfabricJsonObject& scheme, const PfabricSchemeHelper& helper)
{
    using R = PfabricSchemeRecipe;
    // The sockets as their factory creates them (its common settings are its own part), their
    // congestion control as they create it.
    const ObjectFactory socketType = helper.GetSocketTypeFactory();
    Ptr<PfabricTcpSocket> socket = socketType.Create<PfabricTcpSocket>();
    ObjectFactoryValue congestionOpsValue;
    const bool ownOps = !HasAttribute(socket->GetInstanceTypeId(), CONGESTION_OPS_ATTRIBUTE);
    if (!ownOps)
    {
        socket->GetAttribute(CONGESTION_OPS_ATTRIBUTE, congestionOpsValue);
    }
    const ObjectFactory congestionOps = congestionOpsValue.Get();
    scheme
        .AddObject(R::GetPartName(R::PORT_QUEUE_DISC),
                   Describe(helper.GetQueueDiscFactory().Create()))
        .AddObject(R::GetPartName(R::HOST_QUEUE_DISC),
                   Describe(helper.GetQueueDiscFactory(true).Create()))
        .AddObject(
            R::GetPartName(R::SOCKET),
            Describe(socket, &socketType, PfabricTcpSocketFactory::GetCommonSocketAttributes()))
        .AddObject(R::GetPartName(R::SOCKET_FACTORY),
                   Describe(helper.GetSocketFactoryFactory().Create(), nullptr, {"SocketType"}))
        .AddObject(R::GetPartName(R::CONGESTION_CONTROL),
                   ownOps ? Describe(socket->CreateCongestionOps())
                          : Describe(congestionOps.Create(), &congestionOps));
}

} // namespace ns3
