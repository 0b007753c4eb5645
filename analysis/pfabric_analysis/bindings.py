"""The pfabric module from Python, through the cppyy bindings of the ns-3 wheel.

One call loads ns-3 (``from ns import ns``), this module's library and its headers; three small
functions then build a fabric, install a scheme and run a list of flows, and every completed flow
comes back as a pandas DataFrame::

    from pfabric_analysis import bindings

    ns = bindings.load()                      # build/ of the repository, or PFABRIC_BUILD_DIR
    fabric = bindings.build_fabric("star", hosts=8, seed=1)
    bindings.install_scheme(fabric, "pfabric")
    fct = bindings.run_flows(fabric, flows)   # flows: src, dst, size_bytes, start_s[, deadline_s]

The wiring is PfabricExperiment's (helper/experiment/pfabric-experiment.cc, Prepare / Install /
Run), so the same flows on the same fabric, scheme, preset, seed and run give pfabric-websearch's
fct.csv exactly (test/python/analysis/test_bindings.py checks this). Flow completions are
collected in C++ (a small collector connected to every host's PfabricFlowApplication
FlowCompleted trace, holding vectors) and turned into one DataFrame at the end: no Python call per
flow during the run.

A fabric runs once: run_flows ends with Simulator::Destroy, which disposes of every node. Build
a new fabric for the next run (same process is fine, see build_fabric).
"""

from __future__ import annotations

import contextlib
import importlib.util
import math
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = "libns3-pfabric.so"
# What the functions below use; each header includes what it needs.
HEADERS = ("pfabric-preset.h", "pfabric-single-switch-helper.h", "pfabric-fat-tree-helper.h",
           "pfabric-leaf-spine-helper.h", "pfabric-scheme-helper.h", "pfabric-custom-scheme.h",
           "pfabric-flow-application.h", "pfabric-flow-list.h",
           "pfabric-flow-size-distribution.h", "pfabric-experiment.h")
TOPOLOGIES = ("star", "fattree", "leafspine")
LOAD_BALANCING = ("spray", "ecmp", "flowcell", "random")
FLOW_COLUMNS = ("src", "dst", "size_bytes", "start_s")

# The C++ side: run_flows' FlowCompleted sink (vectors filled during the run, read once) and
# generate_flows' flow list (PfabricExperiment::Prepare's generation, as columns).
CPP = r"""
#include "ns3/pfabric-experiment.h"
#include "ns3/pfabric-flow-application.h"
#include "ns3/pfabric-flow-list.h"
#include "ns3/pfabric-flow-size-distribution.h"
#include "ns3/pfabric-preset.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pfabric_python
{
/// Every completed flow, from the FlowCompleted trace of the applications it is connected to.
class FlowCollector
{
  public:
    /// @param expected stop the simulation when this many flows have completed
    explicit FlowCollector(uint32_t expected)
        : m_expected(expected)
    {
    }

    /// Listen to an application's FlowCompleted trace.
    void Connect(ns3::Ptr<ns3::PfabricFlowApplication> app)
    {
        app->TraceConnectWithoutContext("FlowCompleted",
                                        ns3::MakeCallback(&FlowCollector::Completed, this));
    }

    void Completed(const ns3::PfabricFlowApplication::CompletedFlow& flow)
    {
        ids.push_back(flow.flow.id);
        fctNs.push_back(flow.fct.GetNanoSeconds());
        timeouts.push_back(flow.timeouts);
        if (ids.size() == m_expected)
        {
            ns3::Simulator::Stop();
        }
    }

    std::vector<uint32_t> ids;      //!< flow ids, in completion order
    std::vector<int64_t> fctNs;     //!< completion times, ns
    std::vector<uint64_t> timeouts; //!< retransmission timeouts during the flow

  private:
    uint32_t m_expected; //!< flows of the run
};

/// A flow list as columns.
struct FlowColumns
{
    std::vector<uint32_t> src;     //!< sending hosts
    std::vector<uint32_t> dst;     //!< receiving hosts
    std::vector<uint64_t> bytes;   //!< payload bytes
    std::vector<int64_t> startNs;  //!< start times, ns
    std::string error;             //!< why there are none
};

/// PfabricExperiment::Prepare's flows (PfabricExperiment::GenerateFlows), as columns.
FlowColumns
GenerateFlows(const std::string& cdf,
              const std::string& preset,
              bool packets,
              uint32_t hosts,
              double load,
              uint32_t flows)
{
    FlowColumns columns;
    const ns3::PfabricPreset& p = ns3::PfabricPreset::Get(preset);
    ns3::PfabricFlowSizeDistribution sizes;
    if (!sizes.Load(cdf,
                    p.segmentSize,
                    packets ? ns3::PfabricFlowSizeDistribution::PACKETS
                            : ns3::PfabricFlowSizeDistribution::BYTES,
                    &columns.error))
    {
        return columns;
    }
    auto list = ns3::PfabricExperiment::GenerateFlows(sizes, preset, hosts, load, flows);
    for (const ns3::PfabricFlow& flow : list)
    {
        columns.src.push_back(flow.src);
        columns.dst.push_back(flow.dst);
        columns.bytes.push_back(flow.bytes);
        columns.startNs.push_back(flow.start.GetNanoSeconds());
    }
    return columns;
}
} // namespace pfabric_python
"""


class BindingsError(RuntimeError):
    """Loading failed; the message is one line saying what is missing."""


_state: dict[str, Any] = {}


def default_build_dir() -> Path:
    """PFABRIC_BUILD_DIR if set (./pfabric test sets it), else the repository's build/."""
    return Path(os.environ.get("PFABRIC_BUILD_DIR") or ROOT / "build")


def wheel_directory() -> Path:
    """The ns3 package of the wheel: include/, lib64/ and the bindings (ns/)."""
    spec = importlib.util.find_spec("ns3")
    if spec is None or not spec.submodule_search_locations or importlib.util.find_spec(
            "cppyy") is None:
        raise BindingsError("the ns-3 wheel is not installed in this Python "
                            "(pip install ns3==3.44.post0, or use ./pfabric's .venv)")
    return Path(next(iter(spec.submodule_search_locations)))


@contextlib.contextmanager
def _wheel_search_scope(wheel: Path) -> Iterator[None]:
    """Where the wheel's loader looks for ns-3 libraries (the working directory, recursively,
    and LD_LIBRARY_PATH), without this module's library: the wheel's directory as working
    directory, LD_LIBRARY_PATH without directories holding libns3-pfabric.so."""
    previous = Path.cwd()
    library_path = os.environ.get("LD_LIBRARY_PATH")
    if library_path is not None:
        os.environ["LD_LIBRARY_PATH"] = os.pathsep.join(
            d for d in library_path.split(os.pathsep) if not d or not (Path(d) / LIBRARY).exists())
    os.chdir(wheel)
    try:
        yield
    finally:
        os.chdir(previous)
        if library_path is not None:
            os.environ["LD_LIBRARY_PATH"] = library_path


def load(build_dir: str | os.PathLike[str] | None = None) -> Any:
    """Load ns-3, this module's library and its headers; return the ``ns`` namespace.

    build_dir: the module's build (lib/libns3-pfabric.so, include/ns3/pfabric-*.h); default
    PFABRIC_BUILD_DIR, else build/ of the repository (./pfabric build). Later calls return the
    same namespace (a process holds one build).

    Two things the wheel's loader (``from ns import ns``) does are worked around here:
    - It looks for ns-3 libraries under the working directory, recursively: started in this
      repository it finds build/lib/libns3-pfabric.so, takes it for an ns-3 of version "3" and
      fails ("Incompatible versions"). It is imported from the wheel's own directory instead
      (and LD_LIBRARY_PATH without the module's library directory, where it also looks).
    - It includes every header before loading any library, so nstime.h's static
      ``g_timeInitHelper`` (which calls Time::StaticInit in libns3-core) cannot be linked and
      cling prints "[runStaticInitializersOnce]: Failed to materialize symbols ...". Harmless
      (libns3-core runs the same initialisation when it loads), and avoided by loading
      libns3-core first.
    """
    directory = Path(build_dir) if build_dir is not None else default_build_dir()
    directory = directory.resolve()
    library = directory / "lib" / LIBRARY
    include = directory / "include"
    if not library.is_file():
        raise BindingsError(f"{library} not found: run ./pfabric build, or pass build_dir / "
                            "set PFABRIC_BUILD_DIR to the module's build directory")
    missing = [h for h in HEADERS if not (include / "ns3" / h).is_file()]
    if missing:
        raise BindingsError(f"{include / 'ns3' / missing[0]} not found: an incomplete build "
                            f"in {directory}; run ./pfabric build")
    if "ns" in _state:
        if _state["build_dir"] != directory:
            raise BindingsError(f"already loaded from {_state['build_dir']}; one build per "
                                f"process, cannot also load {directory}")
        return _state["ns"]
    wheel = wheel_directory()
    cores = sorted((wheel / "lib64").glob("libns3*-core*.so"))
    if not cores:
        raise BindingsError(f"no libns3-core in {wheel / 'lib64'}: a broken ns3 wheel")

    import cppyy

    cppyy.load_library(str(cores[0]))
    with _wheel_search_scope(wheel):
        from ns import ns
    cppyy.add_include_path(str(include))
    cppyy.load_library(str(library))
    for header in HEADERS:
        cppyy.include(f"ns3/{header}")
    cppyy.cppdef(CPP)
    _state.update(ns=ns, build_dir=directory, cppyy=cppyy)
    return ns


def _ns() -> Any:
    if "ns" not in _state:
        load()
    return _state["ns"]


def _check_preset(preset: str) -> None:
    names = list(_ns().PfabricPreset.GetNames())
    if preset not in names:
        raise ValueError(f"preset '{preset}': expected one of {', '.join(names)}")


def build_fabric(topology: str = "star", *, hosts: int = 16, k: int | None = None,
                 leaves: int | None = None, hosts_per_leaf: int | None = None,
                 spines: int | None = None, preset: str = "hotnets12", lb: str | None = None,
                 seed: int = 1, run: int = 1) -> Any:
    """Build a fabric: a PfabricSingleSwitchHelper (star, ``hosts``), PfabricFatTreeHelper
    (fattree, radix ``k``) or PfabricLeafSpineHelper (leafspine), rates, delays, packet sizes
    and load balancing from ``preset``; None: the preset's shape. ``lb``: spray, ecmp, flowcell
    or random; None: the preset's.

    Sets ns-3's RNG seed and run (RngSeedManager) and restarts its automatic stream numbering
    first, as a fresh pfabric-websearch process has them, so that a run is the same whether it
    is the first of the process or not. Returns the helper (GetHosts, GetHostAddress,
    GetIdealFct, ... of PfabricFabricHelper).
    """
    ns = _ns()
    _check_preset(preset)
    if seed < 1 or run < 0:
        raise ValueError(f"seed={seed}, run={run}: ns-3 seeds start at 1, runs at 0")
    values = ns.PfabricPreset.Get(preset)
    if topology == "star":
        fabric = ns.PfabricSingleSwitchHelper(hosts)
    elif topology == "fattree":
        fabric = ns.PfabricFatTreeHelper(k or values.fatTreeK)
    elif topology == "leafspine":
        fabric = ns.PfabricLeafSpineHelper(leaves or values.leaves,
                                           hosts_per_leaf or values.hostsPerLeaf,
                                           spines or values.spines)
    else:
        raise ValueError(f"topology '{topology}': expected one of {', '.join(TOPOLOGIES)}")
    error = str(fabric.GetShapeError())
    if error:
        raise ValueError(error)
    fabric.SetPreset(preset)
    if lb is not None:
        if lb not in LOAD_BALANCING:
            raise ValueError(f"lb '{lb}': expected one of {', '.join(LOAD_BALANCING)}")
        fabric.SetSwitchAttribute("LoadBalancing", ns.StringValue(lb.capitalize()))
    ns.RngSeedManager.SetSeed(seed)
    ns.RngSeedManager.SetRun(run)
    ns.RngSeedManager.ResetNextStreamIndex()
    fabric.Build()
    fabric.pfabric_state = "built"  # then "installed" (install_scheme), then "run" (run_flows)
    return fabric


def install_scheme(fabric: Any, scheme: str = "pfabric", preset: str = "hotnets12",
                   *, socket_attributes: Mapping[str, Any] | None = None,
                   socket_factory_attributes: Mapping[str, Any] | None = None,
                   queue_disc_attributes: Mapping[str, Any] | None = None,
                   custom: Mapping[str, object] | None = None) -> Any:
    """Install a scheme (pfabric, linerate, tcp, dctcp or custom; PfabricSchemeHelper) on every
    host and switch of a built fabric, then fix the random streams of its queue discs and of the
    fabric as PfabricExperiment does (PfabricExperiment::AssignStreams). Attribute overrides are
    ns-3 values: of the scheme's sockets (socket_attributes: the class of the scheme's transport,
    e.g. ``{"Rto": ns.TimeValue(ns.MicroSeconds(50))}`` for pfabric's PfabricMinTcpSocket), of
    their PfabricTcpSocketFactory (socket_factory_attributes, what every transport shares, e.g.
    ``{"HostPacing": ns.BooleanValue(False)}``) and of the ports' queue discs. A custom scheme's
    parts are the programs' options, by name (PfabricCustomScheme), e.g. ``{"portQueueDisc":
    "ns3::FqCoDelQueueDisc", "tcpCongestionOps": "ns3::TcpCubic"}``, checked as the programs
    check them, and over the attribute overrides. Returns the ports' QueueDiscContainer."""
    ns = _ns()
    error = str(ns.PfabricSchemeHelper.CheckChoice(scheme, preset))
    if error:
        raise ValueError(error.replace("--scheme=", "scheme ").replace("--preset=", "preset "))
    parts = ns.PfabricCustomScheme()
    for name, value in (custom or {}).items():
        if not parts.SetOption(name, str(value)):
            raise ValueError(f"custom {name}: not an option of the custom scheme (pfabric-websearch "
                             "--PrintHelp lists them)")
    error = str(parts.Check(scheme, "MaxSize" in (queue_disc_attributes or {})))
    if error:
        raise ValueError(error)
    helper = ns.PfabricSchemeHelper(scheme, preset)
    for name, value in (socket_attributes or {}).items():
        helper.SetSocketAttribute(name, value)
    for name, value in (socket_factory_attributes or {}).items():
        helper.SetSocketFactoryAttribute(name, value)
    for name, value in (queue_disc_attributes or {}).items():
        helper.SetQueueDiscAttribute(name, value)
    if scheme == str(ns.PfabricSchemeHelper.CUSTOM):
        parts.Configure(helper)
    if getattr(fabric, "pfabric_state", None) != "built":
        raise ValueError("install_scheme: expects a fabric of build_fabric, once")
    queue_discs = helper.Install(fabric.GetHosts(), fabric.GetSwitches())
    fabric.pfabric_state = "installed"
    ns.PfabricExperiment.AssignStreams(queue_discs, fabric)
    return queue_discs


def generate_flows(fabric_or_hosts: Any, flows: int = 300, load: float = 0.6, *,
                   workload: str = "websearch", preset: str = "hotnets12",
                   sampling: str = "packets", seed: int = 1, run: int = 1) -> pd.DataFrame:
    """Flows as pfabric-websearch / -datamining generate them (PfabricFlowList::Generate):
    Poisson arrivals at ``load`` of the preset's host link, uniform source and destination,
    sizes from ``workload`` (websearch, datamining or a CDF file), ``sampling`` packets (ns-2)
    or bytes. With the same hosts, flows, load, preset, seed and run the list equals
    ``pfabric-websearch --flows=N --dumpFlows=F --flowsOnly``'s F. ``fabric_or_hosts``: a fabric
    (its host count) or a number of hosts. Returns src, dst, size_bytes, start_s."""
    ns = _ns()
    _check_preset(preset)
    hosts = int(fabric_or_hosts if isinstance(fabric_or_hosts, (int, np.integer))
                else fabric_or_hosts.GetNHosts())
    if hosts < 2 or flows < 1 or not 0 < load < 1 or sampling not in ("packets", "bytes"):
        raise ValueError(f"hosts={hosts}, flows={flows}, load={load}, sampling={sampling}: "
                         "expected hosts >= 2, flows >= 1, load in (0, 1), packets or bytes")
    if seed < 1 or run < 0:
        raise ValueError(f"seed={seed}, run={run}: ns-3 seeds start at 1, runs at 0")
    ns.RngSeedManager.SetSeed(seed)
    ns.RngSeedManager.SetRun(run)
    columns = _state["cppyy"].gbl.pfabric_python.GenerateFlows(
        str(workload), preset, sampling == "packets", hosts, float(load), int(flows))
    if str(columns.error):
        raise ValueError(str(columns.error))
    return pd.DataFrame({"src": _array(columns.src), "dst": _array(columns.dst),
                         "size_bytes": _array(columns.bytes),
                         "start_s": _array(columns.startNs) / 1e9})


def _array(vector: Any) -> np.ndarray:
    """A std::vector of numbers as an int64 numpy array."""
    return np.fromiter(vector, dtype="int64", count=vector.size())


def flow_table(flows: pd.DataFrame | Sequence[Mapping[str, Any]], hosts: int) -> pd.DataFrame:
    """Check a flow list and return it as a DataFrame: src, dst, size_bytes, start_s and, if
    given, deadline_s (absolute simulation time, NaN: none). Raises ValueError in one line."""
    table = flows.copy() if isinstance(flows, pd.DataFrame) else pd.DataFrame(list(flows))
    missing = [c for c in FLOW_COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(f"flows: missing column(s) {', '.join(missing)}; expected "
                         f"{', '.join(FLOW_COLUMNS)}[, deadline_s]")
    if table.empty:
        raise ValueError("flows: no flows")
    table = table.reset_index(drop=True)
    for column in ("src", "dst", "size_bytes"):
        values = pd.to_numeric(table[column], errors="coerce")
        bad = values.isna() | (values != values.round())
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise ValueError(f"flows row {row}: {column} '{table[column][row]}' is not an "
                             "integer")
        table[column] = values.astype("int64")
    table["start_s"] = pd.to_numeric(table["start_s"], errors="coerce").astype(float)
    checks = [
        ((table.src < 0) | (table.src >= hosts), f"src is not a host of 0..{hosts - 1}"),
        ((table.dst < 0) | (table.dst >= hosts), f"dst is not a host of 0..{hosts - 1}"),
        (table.src == table.dst, "src and dst are the same host"),
        (table.size_bytes < 1, "size_bytes is not positive"),
        (~np.isfinite(table.start_s) | (table.start_s < 0), "start_s is not a time >= 0"),
    ]
    if "deadline_s" in table.columns:
        table["deadline_s"] = pd.to_numeric(table["deadline_s"], errors="coerce").astype(float)
        checks.append((table.deadline_s <= table.start_s, "deadline_s is not after start_s"))
    for bad, what in checks:
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise ValueError(f"flows row {row}: {what}")
    return table


def nanoseconds(seconds: pd.Series) -> np.ndarray:
    """Seconds to whole nanoseconds, rounded half away from zero as PfabricFlowList::Read."""
    return np.floor(seconds.to_numpy(dtype=float) * 1e9 + 0.5).astype("int64")


def run_flows(fabric: Any, flows: pd.DataFrame | Sequence[Mapping[str, Any]], *,
              max_sim_time_s: float = 100.0, connect_lead_us: float = 1000.0,
              reuse_connections: bool = True,
              scheduler: str | None = "ns3::PriorityQueueScheduler") -> pd.DataFrame:
    """Run flows on a fabric with a scheme installed: a PfabricFlowApplication on every host,
    flow i of the list (flow_id i) handed to its source's application; the simulation stops
    when every flow has completed or at max_sim_time_s, then is destroyed.

    Returns one row per flow, by flow_id, with fct.csv's columns: flow_id, src, dst,
    size_bytes, start_s, fct_s (NaN if unfinished), ideal_fct_s
    (PfabricFabricHelper::GetIdealFct), timeouts, completed (1 or 0) and, if the flows have it,
    deadline_s; ``df[df.completed == 1]`` are the completed flows, and runs.summarize takes the
    frame as it is. attrs: flows_unfinished, simulated_time_s.
    ``scheduler``: the event scheduler (pfabric-websearch's; the same events in the same order
    as ns-3's default MapScheduler, faster); None keeps ns-3's choice.
    """
    ns = _ns()
    state = getattr(fabric, "pfabric_state", None)
    if state != "installed":
        raise ValueError("run_flows: the fabric has already run; build a new one" if state == "run"
                         else "run_flows: install a scheme on the fabric first (install_scheme)")
    table = flow_table(flows, int(fabric.GetNHosts()))
    if not max_sim_time_s > 0 or not connect_lead_us >= 0:
        raise ValueError("max_sim_time_s must be positive and connect_lead_us not negative")
    if scheduler is not None:
        ns.Simulator.SetScheduler(ns.ObjectFactory(scheduler))
    hosts = fabric.GetHosts()
    apps = []
    for i in range(hosts.GetN()):
        app = ns.CreateObject[ns.PfabricFlowApplication]()
        app.SetAttribute("ReuseConnections", ns.BooleanValue(reuse_connections))
        app.SetAttribute("ConnectLead", ns.TimeValue(ns.MicroSeconds(connect_lead_us)))
        hosts.Get(i).AddApplication(app)
        apps.append(app)
    collector = _state["cppyy"].gbl.pfabric_python.FlowCollector(len(table))
    for app in apps:
        collector.Connect(app)

    starts = nanoseconds(table.start_s)
    deadlines = (nanoseconds(table.deadline_s.fillna(0)) if "deadline_s" in table.columns
                 else None)
    ideal_ns = np.empty(len(table), dtype="int64")
    addresses = [fabric.GetHostAddress(h) for h in range(hosts.GetN())]
    for i, (src, dst, size) in enumerate(zip(table.src.tolist(), table.dst.tolist(),
                                             table.size_bytes.tolist())):
        start = ns.NanoSeconds(int(starts[i]))
        if deadlines is not None and not math.isnan(table.deadline_s[i]):
            apps[src].AddFlow(i, addresses[dst], size, start, ns.NanoSeconds(int(deadlines[i])))
        else:
            apps[src].AddFlow(i, addresses[dst], size, start)
        ideal_ns[i] = fabric.GetIdealFct(src, dst, size).GetNanoSeconds()

    ns.Simulator.Stop(ns.Seconds(max_sim_time_s))
    ns.Simulator.Run()
    end_s = ns.Simulator.Now().GetSeconds()
    ids, fct_ns, timeouts = (_array(v) for v in (collector.ids, collector.fctNs,
                                                  collector.timeouts))
    del apps
    fabric.pfabric_state = "run"
    ns.Simulator.Destroy()
    return results_frame(table, ids, fct_ns, timeouts, ideal_ns, end_s)


def results_frame(table: pd.DataFrame, ids: np.ndarray, fct_ns: np.ndarray,
                  timeouts: np.ndarray, ideal_ns: np.ndarray, end_s: float) -> pd.DataFrame:
    """run_flows' DataFrame from the flow table and the collector's columns (ids in completion
    order): one row per flow, fct.csv's columns."""
    fct = np.full(len(table), np.nan)
    fct[ids] = fct_ns / 1e9
    count = np.zeros(len(table), dtype="int64")
    count[ids] = timeouts
    completed = np.zeros(len(table), dtype="int64")
    completed[ids] = 1
    result = pd.DataFrame({
        "flow_id": np.arange(len(table), dtype="int64"),
        "src": table.src.to_numpy(),
        "dst": table.dst.to_numpy(),
        "size_bytes": table.size_bytes.to_numpy(),
        "start_s": table.start_s.to_numpy(),
        "fct_s": fct,
        "ideal_fct_s": ideal_ns / 1e9,
        "timeouts": count,
        "completed": completed,
    })
    if "deadline_s" in table.columns:
        result["deadline_s"] = table.deadline_s.to_numpy()
    result.attrs.update(flows_unfinished=int(len(table) - completed.sum()),
                        simulated_time_s=end_s)
    return result
