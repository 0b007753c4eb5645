#!/usr/bin/env python3
# Copyright (c) 2026 The pfabric authors
# SPDX-License-Identifier: GPL-2.0-only
"""The pfabric benchmark: fixed, seeded scenarios, timed, written as one JSON file.

    ./pfabric bench [--quick] [--only NAME[,NAME]] [--out FILE.json] [--bin-dir DIR]
                    [--against DIR [--against-label COMMIT]]

Scenarios (--list prints them with their sizes):

  forwarding           the same fat-tree and UDP packets with this module's routing (spray),
                       PfabricQueueDisc and a priority tag on every packet, against plain ns-3
                       (global routing, random ECMP, FifoQueueDisc): cost ratio per packet hop
                       (pfabric-routing-cost --queueDiscs, both in one program run)
  websearch-sigcomm13  144-host leaf-spine, web search, load 0.6, MinTCP+pFabric, then the same
                       flows (--dumpFlows / --flowFile) under TCP-DropTail; with --against DIR
                       each scheme runs first with DIR's programs (another build, e.g. of the
                       previous main) and then with this build's, on the same flows: the JSON
                       gives this build's processor time as a fraction of the other's, and
                       whether the two fct.csv are identical
  scale                fat-trees (hotnets12) and leaf-spines (sigcomm13) of growing size at a
                       fixed load and flows per host, on each host stack the programs have:
                       time per packet hop, its growth from 16 to 432 hosts (the target: at
                       most 1.3-fold), fabric build time
  memory               one long 144-host run: peak RSS and its growth (meta.json rss_samples);
                       the target: under 1 GB (10^9 bytes) at 100,000 flows
  ideal                pfabric-analysis ideal-bench (the flow-level Ideal scheduler)
  allocator            the same web search flows (sigcomm13, load 0.6), MinTCP+pFabric and
                       TCP-DropTail, under the system allocator and under mimalloc in turn,
                       repeated: mimalloc's processor time as a fraction of the system's, and
                       whether every fct.csv is identical
  host-stack           the same web search flows (sigcomm13, load 0.6), MinTCP+pFabric,
                       LineRate, TCP-DropTail and DCTCP, on ns-3's TCP/IP and on the lean host
                       (--hostStack), and with --against DIR on DIR's programs too (without
                       --hostStack: its default stack, an older build's only one): the lean
                       host's processor time as a fraction of each, events per packet hop, and
                       its per-bin FCT/ideal over ns-3's TCP/IP's (the fidelity bounds: means
                       within 2%, p99 within 5%); the target:
                       MinTCP+pFabric on the lean host at most 0.25 of 74ef159's processor time
                       on 2,000 flows (--websearch-flows 2000 --against DIR, DIR a build of
                       74ef159: --against-label 74ef159 says so when DIR's commit is unknown)
  datamining-sigcomm13 144-host leaf-spine, data mining, load 0.8, 10,000 flows, MinTCP+pFabric,
                       LineRate, TCP-DropTail and DCTCP on the lean host, on the same flows, and
                       with --against DIR on DIR's programs too (on its lean host if it has one):
                       the target: each scheme within 15 minutes of processor time (stated on an
                       Intel Xeon)

Targets (issue 51) print a line "target: ...; measured ... on CPU: met | not met | not measured |
no verdict (why)" and are in the JSON (each scenario's "targets", all of them in "targets"): a
verdict only at the size the target is for, and for the 74ef159 ratio only against that build.

Every program runs with the allocator the module's runners preload (PFABRIC_ALLOCATOR,
pfabric_analysis.allocator: mimalloc when its wheel is installed); each run's record says which.

Per run it prints wall time (the simulation's own: the experiment's Run, after the fabric is
built, or Simulator::Run; the JSON also has the whole process's), the simulated time, events,
events/s, packet hops/s (transmissions by every device of the fabric), ns per packet hop by wall
and by processor time (less inflated on a busy machine), flows/s and peak RSS; the JSON
(default results/bench/<UTC time>.json, rewritten after every scenario) holds the same per run,
the scenario summaries and the machine and build.
--quick runs every scenario small (a few minutes on 2 cores: a CI smoke test).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import shutil
import subprocess
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = 1
SIZES = ("full", "quick", "smoke")  # smoke: seconds, for the Python test of this driver
SCENARIOS = ("forwarding", "websearch-sigcomm13", "scale", "memory", "ideal", "allocator",
             "host-stack", "datamining-sigcomm13")
PROGRESS_EVERY_S = 30  # forward a child's progress line at most this often


class BenchError(Exception):
    """A failure to report in one line."""


# ---------------------------------------------------------------------------------------------
# Sizes of every scenario, by --quick / full (and the test's smoke size).

# forwarding: (fat-tree k, packets per host, repeat) per program run
FORWARDING = {
    "full": [(4, 1000, 3), (8, 1000, 3)],
    "quick": [(4, 500, 2)],
    "smoke": [(4, 20, 1)],
}
WEBSEARCH_FLOWS = {"full": 10000, "quick": 300, "smoke": 20}
MEMORY_FLOWS = {"full": 100000, "quick": 1000, "smoke": 30}
IDEAL_FLOWS = {"full": 100000, "quick": 10000, "smoke": 1000}
# The allocator comparison: web search flows (sigcomm13, LOAD) run under each allocator in turn,
# REPEATS times, the order alternating so that a drift in the machine's speed favours neither.
ALLOCATOR_FLOWS = {"full": 2000, "quick": 300, "smoke": 20}
ALLOCATOR_REPEATS = {"full": 3, "quick": 1, "smoke": 1}
ALLOCATORS = ("system", "mimalloc")
# The host stacks: web search flows (sigcomm13, LOAD) under each scheme the lean host runs, on
# each stack in turn, REPEATS times (--repeats), the order alternating as the allocator's.
HOST_STACK_FLOWS = {"full": 10000, "quick": 300, "smoke": 20}
HOST_STACK_REPEATS = {"full": 1, "quick": 1, "smoke": 2}
HOST_STACKS = ("ns3tcp", "lean")
HOST_STACK_SCHEMES = ("pfabric", "linerate", "tcp", "dctcp")
# The lean host's fidelity bounds against ns-3's TCP/IP on the same flows (issue 30): per-bin
# mean FCT/ideal within 2%, the small flows' p99 within 5%.
MEAN_BOUND = 0.02
P99_BOUND = 0.05
# The data mining point: every scheme the lean host runs, on the lean host, at DATAMINING_LOAD.
# Its flows are heavy-tailed: the quick size's 300 carry 3.7 GB (46 s of processor time for
# MinTCP+pFabric on the busy 2-core Xeon), the full size's 82 GB.
DATAMINING_FLOWS = {"full": 10000, "quick": 300, "smoke": 20}
DATAMINING_LOAD = 0.8
DATAMINING_SCHEMES = HOST_STACK_SCHEMES
# scale: (name, preset, fabric options, hosts); flows per host at SCALE_LOAD
FAT_TREES = [(k, k ** 3 // 4) for k in (4, 6, 8, 12)]
LEAF_SPINES = [(9, 16, 4), (16, 16, 4), (16, 32, 8), (32, 32, 8)]  # leaves, hosts/leaf, spines
SCALE_SHAPES = {
    "full": [f"fattree-k{k}" for k, _ in FAT_TREES] +
            [f"leafspine-{l}x{h}x{s}" for l, h, s in LEAF_SPINES],
    "quick": ["fattree-k4", "fattree-k6", "leafspine-9x16x4"],
    "smoke": ["fattree-k4", "leafspine-2x4x2"],
}
SCALE_FLOWS_PER_HOST = {"full": 1, "quick": 1, "smoke": 1}
# Issue 30's target for the scale curve: the processor time per packet hop grows at most this
# much from the first to the second of these fabrics (16 to 432 hosts), on each host stack.
SCALE_GROWTH_SHAPES = ("fattree-k4", "fattree-k12")
SCALE_GROWTH_TARGET = 1.3
SCALE_LOAD = 0.6
LOAD = 0.6
SEED = 1

# Issue 51's targets, each reported with the CPU it was measured on (an Intel Xeon and an AMD
# EPYC differ); a verdict only at the size the target is for.
# MinTCP+pFabric on the lean host: at most this fraction of BASELINE_COMMIT's processor time on
# the host-stack scenario's web search flows at BASELINE_RATIO_FLOWS flows (BASELINE_COMMIT
# predates the lean host: its programs run their only stack, ns-3's TCP/IP).
BASELINE_COMMIT = "74ef159"
BASELINE_RATIO_TARGET = 0.25
BASELINE_RATIO_FLOWS = 2000
# Every scheme's data mining point (DATAMINING_FLOWS["full"] flows) within this much processor
# time, stated on this kind of CPU.
DATAMINING_CPU_TARGET_S = 15 * 60
DATAMINING_TARGET_CPU = "Intel Xeon"
# The memory scenario's run (MEMORY_FLOWS["full"] flows): peak RSS under 1 GB, decimal.
MEMORY_TARGET_BYTES = 10 ** 9


def shape_options(shape: str) -> tuple[str, list[str], int]:
    """(preset, fabric options, hosts) of a scale shape: fattree-kK or leafspine-LxHxS."""
    if match := re.fullmatch(r"fattree-k(\d+)", shape):
        k = int(match[1])
        return "hotnets12", ["--topology=fattree", f"--k={k}"], k ** 3 // 4
    if match := re.fullmatch(r"leafspine-(\d+)x(\d+)x(\d+)", shape):
        leaves, per_leaf, spines = map(int, match.groups())
        return "sigcomm13", ["--topology=leafspine", f"--leaves={leaves}",
                             f"--hostsPerLeaf={per_leaf}", f"--spines={spines}"], leaves * per_leaf
    raise BenchError(f"unknown scale shape {shape}")


# ---------------------------------------------------------------------------------------------
# Running programs: wall time and peak RSS of each child (os.wait4), progress forwarded.

@dataclass
class Process:
    """A finished child process."""
    command: list[str]
    returncode: int
    wall_s: float
    cpu_s: float
    peak_rss_bytes: int
    stdout: str
    stderr: str


def run_measured(command: list[str], work: Path, progress: Callable[[str], None] | None = None,
                 env: dict[str, str] | None = None) -> Process:
    """Run a command; stdout to a file, stderr read line by line (progress lines forwarded at
    most every PROGRESS_EVERY_S); its own rusage from wait4 gives the peak RSS. The environment
    is this process's with the module's allocator preloaded (pfabric_analysis.allocator), unless
    env is given, and the program's own build's library first (programs.program_environment:
    a copy of a build, --bin-dir COPY/bin, runs its own library, not that of the build it was
    copied from)."""
    from pfabric_analysis import programs

    if env is None:
        env = allocator_environment()
    env = programs.program_environment(command[0], env)
    work.mkdir(parents=True, exist_ok=True)
    out_path = work / f"stdout-{time.monotonic_ns()}.txt"
    began = time.perf_counter()
    with open(out_path, "w") as out:
        child = subprocess.Popen(command, stdout=out, stderr=subprocess.PIPE, text=True,
                                 env=env, cwd=work)
        lines: list[str] = []
        last = time.monotonic()
        assert child.stderr is not None
        for line in child.stderr:
            lines.append(line)
            if progress and time.monotonic() - last >= PROGRESS_EVERY_S:
                last = time.monotonic()
                progress(line.rstrip())
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - began
    stdout = out_path.read_text()
    out_path.unlink()
    # Linux reports ru_maxrss in kilobytes, macOS in bytes.
    rss = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024)
    cpu = usage.ru_utime + usage.ru_stime
    return Process(command, child.returncode, wall, cpu, rss, stdout, "".join(lines))


def allocator_environment(choice: str | None = None) -> dict[str, str]:
    """This process's environment with the allocator the runners preload (PFABRIC_ALLOCATOR's,
    or `choice`'s) for a child."""
    from pfabric_analysis import allocator

    environ = dict(os.environ)
    if choice is not None:
        environ[allocator.VARIABLE] = choice
    try:
        return allocator.child_environment(environ)
    except allocator.AllocatorError as error:
        raise BenchError(str(error)) from None


def checked(process: Process) -> Process:
    if process.returncode != 0:
        tail = (process.stderr or process.stdout).strip().splitlines()[-5:]
        raise BenchError(f"{' '.join(process.command)} exited with {process.returncode}: "
                         + " | ".join(tail))
    return process


# ---------------------------------------------------------------------------------------------
# Parsing and aggregation (unit-tested without the build).

def rate(count: float | None, seconds: float | None) -> float | None:
    return count / seconds if count is not None and seconds else None


def metrics(name: str, *, wall_s: float, simulated_s: float | None, events: int | None,
            packet_hops: int | None, flows: int | None, peak_rss_bytes: int,
            process_wall_s: float, process_cpu_s: float, cpu_s: float | None = None,
            **extra: Any) -> dict[str, Any]:
    """One run's record: the measured counts and the rates derived from them. cpu_s is the
    processor time behind cpu_ns_per_packet_hop (default: the whole process's), which a busy
    machine inflates less than the wall time."""
    cpu = process_cpu_s if cpu_s is None else cpu_s
    return {
        "name": name,
        "wall_time_s": wall_s,
        "process_wall_s": process_wall_s,
        "process_cpu_s": process_cpu_s,
        "simulated_time_s": simulated_s,
        "events": events,
        "events_per_s": rate(events, wall_s),
        "packet_hops": packet_hops,
        "packet_hops_per_s": rate(packet_hops, wall_s),
        "ns_per_packet_hop": wall_s / packet_hops * 1e9 if packet_hops else None,
        "cpu_ns_per_packet_hop": cpu / packet_hops * 1e9 if packet_hops else None,
        "flows": flows,
        "flows_per_s": rate(flows, wall_s),
        "peak_rss_bytes": peak_rss_bytes,
        **extra,
    }


def experiment_metrics(name: str, meta: dict[str, Any], process: Process,
                       **extra: Any) -> dict[str, Any]:
    """A run of pfabric-websearch from its meta.json (wall_time_s: Run, without set-up)."""
    return metrics(name, wall_s=meta["wall_time_s"], simulated_s=meta["simulated_time_s"],
                   events=meta["events"], packet_hops=meta["packet_hops"],
                   flows=meta["flows_completed"], peak_rss_bytes=process.peak_rss_bytes,
                   process_wall_s=process.wall_s, process_cpu_s=process.cpu_s,
                   hosts=meta["hosts"], connections_opened=meta.get("connections_opened"),
                   flows_unfinished=meta["flows_unfinished"], scheduler=meta.get("scheduler"),
                   allocator=meta.get("allocator"), **extra)


def parse_ideal_bench(text: str) -> dict[str, Any]:
    """The figures pfabric-analysis ideal-bench prints."""
    figures: dict[str, Any] = {}
    for key in ("flows", "events", "preemptions", "peak_active"):
        match = re.search(rf"^{key} (\d+)$", text, re.MULTILINE)
        if not match:
            raise BenchError(f"ideal-bench printed no '{key}' line")
        figures[key] = int(match[1])
    match = re.search(r"^wall time ([0-9.]+) s$", text, re.MULTILINE)
    if not match:
        raise BenchError("ideal-bench printed no 'wall time' line")
    figures["wall_time_s"] = float(match[1])
    header = re.search(r"^ideal-bench: (\d+) hosts, load ([0-9.]+), seed (\d+)$", text,
                       re.MULTILINE)
    if header:
        figures.update(hosts=int(header[1]), load=float(header[2]), seed=int(header[3]))
    return figures


def parse_fabric(text: str) -> dict[str, Any]:
    """Shape and build time from pfabric-fabric's first line."""
    match = re.search(r"^topology (\w+): (\d+) hosts, (\d+) switches, (\d+) links; built in "
                      r"([0-9.e+-]+) s$", text, re.MULTILINE)
    if not match:
        raise BenchError("pfabric-fabric printed no 'topology ...; built in' line")
    return {"topology": match[1], "hosts": int(match[2]), "switches": int(match[3]),
            "links": int(match[4]), "build_s": float(match[5])}


def rss_growth(samples: list[list[float]]) -> dict[str, Any]:
    """Memory over a run from meta.json rss_samples ([simulated_s, flows_done, rss_bytes,
    wall_s]): first and last, and the least-squares growth per completed flow."""
    if not samples:
        return {"rss_start_bytes": None, "rss_end_bytes": None, "rss_bytes_per_flow": None}
    flows = [s[1] for s in samples]
    rss = [s[2] for s in samples]
    slope = None
    if len(samples) >= 2 and max(flows) > min(flows):
        mean_f = sum(flows) / len(flows)
        mean_r = sum(rss) / len(rss)
        slope = (sum((f - mean_f) * (r - mean_r) for f, r in zip(flows, rss))
                 / sum((f - mean_f) ** 2 for f in flows))
    return {"rss_start_bytes": rss[0], "rss_end_bytes": rss[-1], "rss_bytes_per_flow": slope}


def flow_pace(samples: list[list[float]]) -> dict[str, Any]:
    """Wall seconds per completed flow early (10-20 % of the flows done) and late (80-90 %)
    in a run, from rss_samples' wall_s: whether the run slows down as it goes."""
    pace: dict[str, Any] = {"wall_s_per_flow_10_20pct": None, "wall_s_per_flow_80_90pct": None,
                            "late_over_early_pace": None}
    if len(samples) < 2 or len(samples[0]) < 4 or not samples[-1][1]:
        return pace
    total = samples[-1][1]

    def window(low: float, high: float) -> float | None:
        inside = [s for s in samples if low * total <= s[1] <= high * total]
        if len(inside) < 2 or inside[-1][1] == inside[0][1]:
            return None
        return (inside[-1][3] - inside[0][3]) / (inside[-1][1] - inside[0][1])

    early, late = window(0.1, 0.2), window(0.8, 0.9)
    pace.update(wall_s_per_flow_10_20pct=early, wall_s_per_flow_80_90pct=late,
                late_over_early_pace=ratio(late, early))
    return pace


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    return numerator / denominator if numerator is not None and denominator else None


# ---------------------------------------------------------------------------------------------
# Targets: a measured value against a limit, with the CPU named (unit-tested without the build).

def cpu_kind(model: str | None) -> str | None:
    """The kind of CPU the targets name (Intel Xeon, AMD EPYC) from /proc/cpuinfo's model name,
    or None for another."""
    lowered = (model or "").lower()
    if "xeon" in lowered:
        return "Intel Xeon"
    if "epyc" in lowered:
        return "AMD EPYC"
    return None


def is_commit(build: str | None, commit: str) -> bool:
    """Whether a build's name (a commit, full or abbreviated, or a label) is that commit, not a
    modified checkout of it (meta.json's git_commit ends in -dirty then)."""
    return (build is not None and len(build) >= len(commit) and not build.endswith("-dirty")
            and build.lower().startswith(commit.lower()))


def build_name(*candidates: str | None) -> str | None:
    """The first known of a build's names, most telling first (e.g. --against-label, then its
    meta.json's git_commit, which is "unknown" when it was built from no checkout)."""
    return next((name for name in candidates if name and name != "unknown"), None)


def size_no_verdict(flows: int, target_flows: int) -> str | None:
    """Why a target for target_flows flows has no verdict on a run of flows, or None."""
    return None if flows == target_flows else \
        f"{flows:,} flows, the target is for {target_flows:,}"


def baseline_no_verdict(flows: int, against: str | None) -> str | None:
    """Why the lean host's ratio to --against's processor time has no verdict on BASELINE_RATIO_
    TARGET, or None: only against a build of BASELINE_COMMIT, on BASELINE_RATIO_FLOWS flows."""
    if not is_commit(against, BASELINE_COMMIT):
        return (f"--against is {against or 'a build of unknown commit'}, not {BASELINE_COMMIT}; "
                f"--against-label {BASELINE_COMMIT} if it is")
    return size_no_verdict(flows, BASELINE_RATIO_FLOWS)


def verdict(measured: float | None, limit: float, *, strictly: bool = False,
            no_verdict: str | None = None) -> str:
    """met or not met (measured at most limit, or under it if strictly), not measured, or no
    verdict (no_verdict says why)."""
    if measured is None:
        return "not measured"
    if no_verdict is not None:
        return "no verdict"
    return "met" if (measured < limit if strictly else measured <= limit) else "not met"


@dataclass(frozen=True)
class Target:
    """A target: a name (the JSON's), what it measures, its limit in unit (fraction, s, bytes),
    and the kind of CPU it is stated on (None: any)."""
    name: str
    what: str
    limit: float
    unit: str
    strictly: bool = False  # under the limit, not at most
    stated_cpu: str | None = None


BASELINE_RATIO = Target(
    "lean_pfabric_cpu_over_baseline",
    f"MinTCP+pFabric on the lean host, processor time over {BASELINE_COMMIT}'s, "
    f"{BASELINE_RATIO_FLOWS:,} web search flows (sigcomm13, load {LOAD})",
    BASELINE_RATIO_TARGET, "fraction")
MEMORY_RSS = Target(
    "memory_peak_rss", f"peak RSS of the {MEMORY_FLOWS['full']:,}-flow memory run",
    MEMORY_TARGET_BYTES, "bytes", strictly=True)


SCHEME_NAMES = {"pfabric": "MinTCP+pFabric", "linerate": "LineRate", "tcp": "TCP-DropTail",
                "dctcp": "DCTCP"}


def datamining_target(scheme: str) -> Target:
    return Target(f"datamining_{scheme}_cpu",
                  f"{SCHEME_NAMES[scheme]} on the lean host, processor time of "
                  f"{DATAMINING_FLOWS['full']:,} data mining flows (sigcomm13, load "
                  f"{DATAMINING_LOAD})",
                  DATAMINING_CPU_TARGET_S, "s", stated_cpu=DATAMINING_TARGET_CPU)


def target_record(target: Target, measured: float | None, cpu_model: str | None,
                  no_verdict: str | None = None) -> dict[str, Any]:
    """A target's entry of the JSON: the limit, the measured value, the verdict (and why there is
    none, where no_verdict says), the CPU measured on and whether it is the kind the target is
    stated on."""
    said = verdict(measured, target.limit, strictly=target.strictly, no_verdict=no_verdict)
    kind = cpu_kind(cpu_model)
    return {"target": target.name, "what": target.what,
            "comparison": "under" if target.strictly else "at most", "limit": target.limit,
            "unit": target.unit, "measured": measured, "verdict": said,
            "within_target": {"met": True, "not met": False}.get(said),
            "no_verdict_reason": None if said in ("met", "not met") else no_verdict,
            "cpu_model": cpu_model, "cpu_kind": kind, "stated_cpu": target.stated_cpu,
            "cpu_as_stated": None if target.stated_cpu is None else kind == target.stated_cpu}


def in_unit(value: float, unit: str) -> str:
    if unit == "s":
        return f"{value:,.1f} s ({value / 60:.1f} min)"
    if unit == "bytes":
        return f"{value / 1e9:.3f} GB ({value / 2**20:,.1f} MiB)"
    return f"{value:.3f}"


def target_line(record: dict[str, Any]) -> str:
    """The printed verdict: target: WHAT: at most LIMIT; measured VALUE on CPU: VERDICT."""
    measured = "nothing" if record["measured"] is None else \
        in_unit(record["measured"], record["unit"])
    line = (f"target: {record['what']}: {record['comparison']} "
            f"{in_unit(record['limit'], record['unit'])}; measured {measured} on "
            f"{record['cpu_model'] or 'an unknown CPU'}: {record['verdict']}")
    if record["no_verdict_reason"]:
        line += f" ({record['no_verdict_reason']})"
    if record["cpu_as_stated"] is False:
        line += f"; the target is stated on an {record['stated_cpu']}, not measured on one"
    return line


# ---------------------------------------------------------------------------------------------
# Scenarios.

@dataclass
class Context:
    build: Path
    size: str
    work: Path
    say: Callable[[str], None]
    bin_dir: Path | None = None
    against: Path | None = None
    against_label: str | None = None
    against_checkout: str | None = None  # the commit of the checkout --against is in
    cpu_model: str | None = None
    websearch_flows: int | None = None
    repeats: int | None = None
    runs_printed: list[dict[str, Any]] = field(default_factory=list)

    def program(self, name: str, against: bool = False) -> str:
        """This build's program (or --bin-dir's), or --against's."""
        bin_dir, option = (self.against, "--against") if against else (self.bin_dir, "--bin-dir")
        if bin_dir is not None:
            from pfabric_analysis.programs import find_program
            from pfabric_analysis.runs import AnalysisError
            try:
                return str(find_program(bin_dir, name))
            except AnalysisError as error:
                raise BenchError(str(error).replace("--bin-dir", option, 1)) from None
        path = self.build / "bin" / name
        if not path.exists():
            raise BenchError(f"{path} not found: build first (./pfabric build)")
        return str(path)

    def progress(self, line: str) -> None:
        self.say(f"    ... {line}")


# The experiment options this driver passes that had dashed names before the programs' options
# took ns-3's camelCase: an --against build from before then knows only the old ones.
DASHED_OPTIONS = {"flowFile": "flow-file", "dumpFlows": "dump-flows"}


def program_help(program: str) -> str:
    """A program's --PrintHelp (its options), run once per program, on its own build's library
    (pfabric_analysis.programs.program_help)."""
    from pfabric_analysis import programs

    process = programs.program_help(program)
    return process.stdout + process.stderr


def takes_camel_case_options(program: str) -> bool:
    """Whether the program names its options in camelCase (--flowFile), from its --PrintHelp."""
    return "--dump-flows" not in program_help(program)


def dashed(arguments: list[str]) -> list[str]:
    """The arguments with the options of DASHED_OPTIONS under their old names."""
    spelled = []
    for argument in arguments:
        name, sep, value = argument.removeprefix("--").partition("=")
        old = DASHED_OPTIONS.get(name) if argument.startswith("--") else None
        spelled.append(f"--{old}{sep}{value}" if old else argument)
    return spelled


def run_experiment(ctx: Context, name: str, directory: str, arguments: list[str],
                   against: bool = False, env: dict[str, str] | None = None,
                   program_name: str = "pfabric-websearch", **extra: Any) -> dict[str, Any]:
    out = ctx.work / directory
    program = ctx.program(program_name, against)
    if against and not takes_camel_case_options(program):
        arguments = dashed(arguments)
    process = checked(run_measured([program, *arguments, f"--out={out}"], ctx.work,
                                   ctx.progress, env=env))
    meta = json.loads((out / "meta.json").read_text())
    record = experiment_metrics(name, meta, process, command=command_words(process), **extra)
    return record | {"_meta": meta}


def command_words(process: Process) -> list[str]:
    """The command as recorded: the program's name (not its path) and its arguments."""
    return [Path(process.command[0]).name, *process.command[1:]]


def scenario_forwarding(ctx: Context) -> dict[str, Any]:
    runs = []
    programs = []
    for k, packets, repeat in FORWARDING[ctx.size]:
        command = [ctx.program("pfabric-routing-cost"), f"--k={k}",
                   f"--packetsPerHost={packets}", f"--repeat={repeat}", "--queueDiscs", "--json"]
        process = checked(run_measured(command, ctx.work, ctx.progress))
        result = json.loads(process.stdout)
        for variant in ("pfabric", "ns3"):
            v = result[variant]
            runs.append(metrics(f"k{k}-{variant}", wall_s=v["wall_time_s"],
                                simulated_s=v["simulated_time_s"], events=v["events"],
                                packet_hops=v["packet_hops"], flows=None,
                                peak_rss_bytes=process.peak_rss_bytes,
                                process_wall_s=process.wall_s, process_cpu_s=process.cpu_s,
                                cpu_s=v["cpu_time_s"], hosts=result["hosts"],
                                packets=result["packets"], delivered=v["received"]))
            ctx.say(row("forwarding", runs[-1]))
        summary = {key: value for key, value in result.items() if key not in ("pfabric", "ns3")}
        programs.append({"command": command_words(process), **summary})
        ctx.say(f"    k={k}: pfabric / ns-3 per packet hop "
                f"{result['pfabric_over_ns3_per_packet_hop']:.3f} (wall), "
                f"{result['pfabric_over_ns3_per_packet_hop_cpu']:.3f} (processor time)")
    return {"runs": runs, "programs": programs,
            "pfabric_over_ns3_per_packet_hop": {
                f"k{p['k']}": p["pfabric_over_ns3_per_packet_hop"] for p in programs},
            "pfabric_over_ns3_per_packet_hop_cpu": {
                f"k{p['k']}": p["pfabric_over_ns3_per_packet_hop_cpu"] for p in programs}}


def fct_ratios(run: Path, other: Path) -> dict[str, float | None]:
    """Per size bin, mean FCT/ideal of one run over another's, and the small flows' p99's."""
    from pfabric_analysis.runs import BIN_NAMES, read_run, summarize

    mine = summarize(read_run(run).fct).set_index("bin")
    theirs = summarize(read_run(other).fct).set_index("bin")
    ratios = {f"{name} mean": ratio(mine.loc[name, "mean"], theirs.loc[name, "mean"])
              for name in mine.index if mine.loc[name, "flows"] and theirs.loc[name, "flows"]}
    small = BIN_NAMES[0]
    ratios[f"{small} p99"] = ratio(mine.loc[small, "p99"], theirs.loc[small, "p99"])
    return ratios


def scenario_websearch(ctx: Context) -> dict[str, Any]:
    flows = ctx.websearch_flows or WEBSEARCH_FLOWS[ctx.size]
    flow_file = ctx.work / "websearch-sigcomm13-flows.csv"
    # The flow list is written once, by the first run, with the generating options.
    first = ["--scheme=pfabric", f"--load={LOAD}", f"--flows={flows}",
             f"--dumpFlows={flow_file}"]
    common = ["--preset=sigcomm13", f"--seed={SEED}", "--run=1"]
    runs = []
    summary: dict[str, Any] = {"flows": flows, "load": LOAD}
    by_scheme = {}
    for scheme in ("pfabric", "tcp"):
        options = first if not flow_file.exists() else [f"--scheme={scheme}",
                                                        f"--flowFile={flow_file}"]
        if ctx.against is not None:
            # The other build first: alternating on the same flows keeps a drift in the
            # machine's speed from favouring either.
            before = run_experiment(ctx, f"{scheme}-against", f"websearch-{scheme}-against",
                                    [*common, *options], against=True, build="against")
            runs.append(before)
            ctx.say(row("websearch-sigcomm13", before))
            options = [f"--scheme={scheme}", f"--flowFile={flow_file}"]
        record = run_experiment(ctx, scheme, f"websearch-{scheme}", [*common, *options])
        runs.append(record)
        ctx.say(row("websearch-sigcomm13", record))
        by_scheme[scheme] = record
        if ctx.against is not None:
            same = ((ctx.work / f"websearch-{scheme}" / "fct.csv").read_bytes() ==
                    (ctx.work / f"websearch-{scheme}-against" / "fct.csv").read_bytes())
            cpu = ratio(record["process_cpu_s"], before["process_cpu_s"])
            summary[f"{scheme}_cpu_over_against"] = cpu
            summary[f"{scheme}_wall_over_against"] = ratio(record["wall_time_s"],
                                                           before["wall_time_s"])
            summary[f"{scheme}_events_per_packet_hop"] = ratio(record["events"],
                                                               record["packet_hops"])
            summary[f"{scheme}_events_per_packet_hop_against"] = ratio(before["events"],
                                                                       before["packet_hops"])
            summary[f"{scheme}_same_fct_as_against"] = same
            ctx.say(f"    {scheme}: processor time {cpu:.3f} of --against's; fct.csv "
                    f"{'identical' if same else 'different'}")
            if not same:
                # A change of model (e.g. the link) moves FCTs: say by how much, per size bin.
                ratios = fct_ratios(ctx.work / f"websearch-{scheme}",
                                    ctx.work / f"websearch-{scheme}-against")
                summary[f"{scheme}_fct_over_against"] = ratios
                ctx.say(f"    {scheme}: FCT/ideal over --against's: " +
                        ", ".join(f"{k} {v:.3f}" for k, v in ratios.items()))
    pfabric, tcp = by_scheme["pfabric"], by_scheme["tcp"]
    summary.update(tcp_over_pfabric_wall=ratio(tcp["wall_time_s"], pfabric["wall_time_s"]),
                   tcp_over_pfabric_per_packet_hop=ratio(tcp["ns_per_packet_hop"],
                                                         pfabric["ns_per_packet_hop"]))
    if flows != WEBSEARCH_FLOWS["full"]:
        scale = WEBSEARCH_FLOWS["full"] / flows
        summary["linear_estimate_full_process_wall_s"] = {
            r["name"]: r["process_wall_s"] * scale for r in runs}
    return {"runs": runs, "summary": summary}


def host_stacks(program: str) -> list[str | None]:
    """The host stacks the scale scenario runs: both when the program has --hostStack (the
    default first), else its only one (None: an older build, no option passed)."""
    return list(HOST_STACKS) if "--hostStack" in program_help(program) else [None]


def scale_growth(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Per host stack: processor time per packet hop on the second of SCALE_GROWTH_SHAPES over
    the first, and whether it is within SCALE_GROWTH_TARGET (absent without both shapes)."""
    growth: dict[str, Any] = {}
    for stack in dict.fromkeys(run["host_stack"] for run in runs):
        cost = {run["name"]: run["cpu_ns_per_packet_hop"] for run in runs
                if run["host_stack"] == stack}
        small, large = (cost.get(shape) for shape in SCALE_GROWTH_SHAPES)
        if small and large:
            growth[stack] = {"cpu_per_hop_growth": large / small,
                             "within_target": large / small <= SCALE_GROWTH_TARGET}
    return growth


def scenario_scale(ctx: Context) -> dict[str, Any]:
    per_host = SCALE_FLOWS_PER_HOST[ctx.size]
    stacks = host_stacks(ctx.program("pfabric-websearch"))
    runs = []
    for shape in SCALE_SHAPES[ctx.size]:
        preset, options, hosts = shape_options(shape)
        built = parse_fabric(checked(run_measured(
            [ctx.program("pfabric-fabric"), *options], ctx.work)).stdout)
        for stack in stacks:
            stack_option = [f"--hostStack={stack}"] if stack else []
            record = run_experiment(ctx, shape, f"scale-{shape}-{stack or HOST_STACKS[0]}",
                                    [f"--preset={preset}", *options, "--scheme=pfabric",
                                     f"--load={SCALE_LOAD}", f"--flows={hosts * per_host}",
                                     f"--seed={SEED}", *stack_option],
                                    preset=preset, switches=built["switches"],
                                    links=built["links"], fabric_build_s=built["build_s"],
                                    host_stack=stack or HOST_STACKS[0])
            runs.append(record)
            ctx.say(row("scale", record) + f"  {record['host_stack']}"
                    f"  (build {built['build_s'] * 1e3:.0f} ms)")
    growth = scale_growth(runs)
    for stack, figures in growth.items():
        ctx.say(f"    {stack}: processor time per packet hop grows "
                f"{figures['cpu_per_hop_growth']:.2f}-fold from {SCALE_GROWTH_SHAPES[0]} to "
                f"{SCALE_GROWTH_SHAPES[1]} (target at most {SCALE_GROWTH_TARGET})")
    return {"runs": runs, "flows_per_host": per_host, "load": SCALE_LOAD, "growth": growth}


def scenario_memory(ctx: Context) -> dict[str, Any]:
    flows = MEMORY_FLOWS[ctx.size]
    record = run_experiment(ctx, "pfabric", "memory",
                            ["--preset=sigcomm13", "--scheme=pfabric", f"--load={LOAD}",
                             f"--flows={flows}", f"--seed={SEED}"])
    samples = record["_meta"].get("rss_samples", [])
    record.update(**rss_growth(samples), **flow_pace(samples), rss_samples=samples)
    ctx.say(row("memory", record))
    growth = record["rss_bytes_per_flow"]
    ctx.say(f"    RSS {record['rss_start_bytes'] / 2**20:.1f} MiB before the run, "
            f"{record['rss_end_bytes'] / 2**20:.1f} MiB at the end"
            + (f", {growth / 1024:.2f} KiB per completed flow" if growth is not None else ""))
    if record["late_over_early_pace"] is not None:
        ctx.say(f"    wall time per flow: {record['wall_s_per_flow_10_20pct'] * 1e3:.1f} ms at "
                f"10-20 % of the flows, {record['wall_s_per_flow_80_90pct'] * 1e3:.1f} ms at "
                f"80-90 % (x{record['late_over_early_pace']:.2f})")
    summary: dict[str, Any] = {"flows": flows}
    if ctx.size != "full":
        summary["linear_estimate_full_process_wall_s"] = (
            record["process_wall_s"] * MEMORY_FLOWS["full"] / flows)
    target = target_record(MEMORY_RSS, record["peak_rss_bytes"], ctx.cpu_model,
                           size_no_verdict(flows, MEMORY_FLOWS["full"]))
    ctx.say("    " + target_line(target))
    return {"runs": [record], "summary": summary, "targets": [target]}


def scenario_ideal(ctx: Context) -> dict[str, Any]:
    flows = IDEAL_FLOWS[ctx.size]
    analysis = Path(sys.executable).parent / "pfabric-analysis"
    command = ([str(analysis)] if analysis.exists()
               else [sys.executable, "-m", "pfabric_analysis.cli"])
    command += ["ideal-bench", "--flows", str(flows), "--load", "0.8", "--seed", str(SEED)]
    # Python's own allocator: this scenario measures the scheduler, not the simulation programs.
    process = checked(run_measured(command, ctx.work, ctx.progress, env=dict(os.environ)))
    figures = parse_ideal_bench(process.stdout)
    record = metrics("ideal", wall_s=figures["wall_time_s"], simulated_s=None,
                     events=figures["events"], packet_hops=None, flows=figures["flows"],
                     peak_rss_bytes=process.peak_rss_bytes, process_wall_s=process.wall_s,
                     process_cpu_s=process.cpu_s, preemptions=figures["preemptions"],
                     peak_active=figures["peak_active"],
                     hosts=figures.get("hosts"), load=figures.get("load"),
                     command=command_words(process))
    ctx.say(row("ideal", record))
    return {"runs": [record]}


def allocator_summary(runs: list[dict[str, Any]], same_fct: dict[str, bool]) -> dict[str, Any]:
    """Per scheme, mimalloc's processor time over the system allocator's in each repetition (the
    runs named SCHEME-ALLOCATOR-REPETITION), their median and range, and whether every run of the
    scheme wrote the same fct.csv."""
    cpu = {(r["scheme"], r["allocator_choice"], r["repetition"]): r["process_cpu_s"]
           for r in runs}
    summary: dict[str, Any] = {}
    for scheme in sorted({key[0] for key in cpu}):
        pairs = [ratio(cpu[scheme, "mimalloc", n], cpu[scheme, "system", n])
                 for n in sorted({key[2] for key in cpu if key[0] == scheme})
                 if (scheme, "mimalloc", n) in cpu and (scheme, "system", n) in cpu]
        ratios = [value for value in pairs if value is not None]
        summary[scheme] = {
            "mimalloc_cpu_over_system": ratios,
            "median": statistics.median(ratios) if ratios else None,
            "min": min(ratios, default=None), "max": max(ratios, default=None),
            "same_fct": same_fct.get(scheme)}
    return summary


def scenario_allocator(ctx: Context) -> dict[str, Any]:
    """The same web search flows under the system allocator and under mimalloc, alternately."""
    flows = ALLOCATOR_FLOWS[ctx.size]
    flow_file = ctx.work / "allocator-flows.csv"
    common = ["--preset=sigcomm13", f"--seed={SEED}", "--run=1", f"--load={LOAD}"]
    runs: list[dict[str, Any]] = []
    same_fct: dict[str, bool] = {}
    # Only where the runners would preload mimalloc anyway: not under PFABRIC_ALLOCATOR=system
    # (the sanitizer build's: ASan must load first), a caller's own LD_PRELOAD, or no wheel.
    compared = "LD_PRELOAD" in allocator_environment() and "LD_PRELOAD" not in os.environ
    choices = ALLOCATORS if compared else ALLOCATORS[:1]
    for scheme in ("pfabric", "tcp"):
        first_fct: bytes | None = None
        same_fct[scheme] = True
        for repetition in range(1, ALLOCATOR_REPEATS[ctx.size] + 1):
            order = choices if repetition % 2 else tuple(reversed(choices))
            for choice in order:
                flow_options = ([f"--flowFile={flow_file}"] if flow_file.exists()
                                else [f"--flows={flows}", f"--dumpFlows={flow_file}"])
                directory = f"allocator-{scheme}-{choice}-{repetition}"
                record = run_experiment(ctx, f"{scheme}-{choice}-{repetition}", directory,
                                        [*common, f"--scheme={scheme}", *flow_options],
                                        env=allocator_environment(choice), scheme=scheme,
                                        allocator_choice=choice, repetition=repetition)
                runs.append(record)
                ctx.say(row("allocator", record))
                fct = (ctx.work / directory / "fct.csv").read_bytes()
                first_fct = fct if first_fct is None else first_fct
                same_fct[scheme] = same_fct[scheme] and fct == first_fct
    summary = allocator_summary(runs, same_fct)
    for scheme, figures in summary.items():
        ctx.say(f"    {scheme}: mimalloc's processor time over the system allocator's "
                f"{', '.join(f'{value:.3f}' for value in figures['mimalloc_cpu_over_system'])}"
                f"; fct.csv {'identical' if figures['same_fct'] else 'different'}")
    if not compared:
        ctx.say("    mimalloc not compared: PFABRIC_ALLOCATOR=system, LD_PRELOAD set, or no "
                "cmeel-mimalloc wheel")
    return {"runs": runs, "summary": {"flows": flows, "load": LOAD, "compared": compared,
                                      **summary}}


def within_bounds(ratios: dict[str, float | None]) -> bool:
    """Whether per-bin FCT ratios (fct_ratios) are within the fidelity bounds (a ratio is None
    only over a statistic of 0, which FCT / ideal FCT never is)."""
    return all(value is not None and abs(value - 1) <= (P99_BOUND if name.endswith("p99")
                                                        else MEAN_BOUND)
               for name, value in ratios.items())


def repeated_ratios(records: dict[tuple[str, int], dict[str, Any]], numerator: str,
                    denominator: str) -> dict[str, Any]:
    """numerator's processor time over denominator's in each repetition (records by (stack,
    repetition)), their median and range."""
    values = [ratio(records[numerator, n]["process_cpu_s"],
                    records[denominator, n]["process_cpu_s"])
              for n in sorted({n for _, n in records})]
    found = [value for value in values if value is not None]
    return {"by_repetition": found, "median": statistics.median(found) if found else None,
            "min": min(found, default=None), "max": max(found, default=None)}


def scenario_host_stack(ctx: Context) -> dict[str, Any]:
    """The same web search flows on ns-3's TCP/IP and on the lean host (and --against's build),
    per scheme, each stack in turn, repeated with the order alternating."""
    flows = ctx.websearch_flows or HOST_STACK_FLOWS[ctx.size]
    repeats = ctx.repeats or HOST_STACK_REPEATS[ctx.size]
    flow_file = ctx.work / "host-stack-flows.csv"
    common = ["--preset=sigcomm13", f"--seed={SEED}", "--run=1", f"--load={LOAD}"]
    runs: list[dict[str, Any]] = []
    summary: dict[str, Any] = {"flows": flows, "load": LOAD, "repeats": repeats}
    for scheme in HOST_STACK_SCHEMES:
        records: dict[tuple[str, int], dict[str, Any]] = {}
        fct: dict[str, bytes] = {}
        same_fct = True
        # With --against, the other build's ns-3 TCP/IP too (it has no lean host).
        stacks = (["against"] if ctx.against is not None else []) + list(HOST_STACKS)
        for repetition in range(1, repeats + 1):
            for stack in stacks if repetition % 2 else reversed(stacks):
                flow_options = ([f"--flowFile={flow_file}"] if flow_file.exists()
                                else [f"--flows={flows}", f"--dumpFlows={flow_file}"])
                against = stack == "against"
                options = [*common, f"--scheme={scheme}", *flow_options]
                if not against:
                    options.append(f"--hostStack={stack}")
                directory = f"host-stack-{scheme}-{stack}-{repetition}"
                record = run_experiment(ctx, f"{scheme}-{stack}-{repetition}", directory,
                                        options, against=against,
                                        build="against" if against else "this", scheme=scheme,
                                        host_stack="ns3tcp" if against else stack,
                                        repetition=repetition)
                runs.append(record)
                ctx.say(row("host-stack", record))
                records[stack, repetition] = record
                written = (ctx.work / directory / "fct.csv").read_bytes()
                same_fct = same_fct and fct.setdefault(stack, written) == written
        lean = records["lean", 1]
        ratios = fct_ratios(ctx.work / f"host-stack-{scheme}-lean-1",
                            ctx.work / f"host-stack-{scheme}-ns3tcp-1")
        events_per_hop = ratio(lean["events"], lean["packet_hops"])
        over_ns3 = repeated_ratios(records, "lean", "ns3tcp")
        figures: dict[str, Any] = {
            "lean_cpu_over_ns3tcp": over_ns3["median"],
            "lean_cpu_over_ns3tcp_repetitions": over_ns3,
            "lean_events_per_packet_hop": events_per_hop,
            "ns3tcp_events_per_packet_hop": ratio(records["ns3tcp", 1]["events"],
                                                  records["ns3tcp", 1]["packet_hops"]),
            "lean_fct_over_ns3tcp": ratios,
            "within_fidelity_bounds": within_bounds(ratios),
            "same_fct_every_repetition": same_fct,
        }
        if ctx.against is not None:
            over_against = repeated_ratios(records, "lean", "against")
            figures["lean_cpu_over_against"] = over_against["median"]
            figures["lean_cpu_over_against_repetitions"] = over_against
        summary[scheme] = figures
        spread = (f" (repetitions {', '.join(f'{v:.3f}' for v in over_ns3['by_repetition'])})"
                  if repeats > 1 else "")
        ctx.say(f"    {scheme}: lean host's processor time {figures['lean_cpu_over_ns3tcp']:.3f} "
                f"of ns-3 TCP/IP's{spread}" +
                (f", {figures['lean_cpu_over_against']:.3f} of --against's"
                 if "lean_cpu_over_against" in figures else "") +
                f"; {events_per_hop or 0:.4f} events per packet hop" +
                "; FCT/ideal over ns-3 TCP/IP's: " +
                ", ".join(f"{k} {v:.3f}" for k, v in ratios.items()) +
                ("" if same_fct else "; fct.csv differs between repetitions"))
    other = summary["against_build"] = against_build(ctx, runs)
    target = target_record(BASELINE_RATIO, summary["pfabric"].get("lean_cpu_over_against"),
                           ctx.cpu_model, "no --against" if ctx.against is None
                           else baseline_no_verdict(flows, other))
    ctx.say("    " + target_line(target))
    return {"runs": runs, "summary": summary, "targets": [target]}


def against_build(ctx: Context, runs: list[dict[str, Any]]) -> str | None:
    """What --against's build is: --against-label, else the git_commit its runs' meta.json
    records (what it was built from), else the commit of the checkout it is in (which may have
    moved since); None without --against, or when none of these is known."""
    if ctx.against is None:
        return None
    recorded = [run["_meta"].get("git_commit") for run in runs if run.get("build") == "against"]
    return build_name(ctx.against_label, *recorded, ctx.against_checkout)


def datamining_options(program: str) -> tuple[str, list[str]]:
    """The host stack a data mining run takes with this program, and the option that says so: the
    lean host, or the only stack of a build from before it (ns-3's TCP/IP, no option)."""
    if "--hostStack" in program_help(program):
        return "lean", ["--hostStack=lean"]
    return "ns3tcp", []


DATAMINING_COMMON = ["--preset=sigcomm13", f"--seed={SEED}", "--run=1",
                     f"--load={DATAMINING_LOAD}"]


def write_datamining_flows(ctx: Context, flows: int) -> Path:
    """The flow list of the data mining point, as this build's program generates it, written
    before any run (--flowsOnly) where the program can; else the first run writes it."""
    flow_file = ctx.work / "datamining-flows.csv"
    program = ctx.program("pfabric-datamining")
    if "--flowsOnly" in program_help(program):
        checked(run_measured([program, *DATAMINING_COMMON, f"--flows={flows}",
                              f"--dumpFlows={flow_file}", "--flowsOnly", "--quiet"], ctx.work))
    return flow_file


def datamining_run(ctx: Context, scheme: str, flows: int, flow_file: Path,
                   against: bool) -> dict[str, Any]:
    """One scheme's data mining run with this build's programs or --against's, replaying the flow
    list (--flowFile), or generating and writing it (--dumpFlows) if there is none yet."""
    flow_options = ([f"--flowFile={flow_file}"] if flow_file.exists()
                    else [f"--flows={flows}", f"--dumpFlows={flow_file}"])
    stack, stack_options = datamining_options(ctx.program("pfabric-datamining", against))
    name = f"{scheme}-against" if against else scheme
    return run_experiment(ctx, name, f"datamining-{name}",
                          [*DATAMINING_COMMON, f"--scheme={scheme}", *flow_options,
                           *stack_options],
                          against=against, program_name="pfabric-datamining",
                          build="against" if against else "this", scheme=scheme,
                          host_stack=stack)


def datamining_figures(record: dict[str, Any], before: dict[str, Any] | None,
                       same_fct: bool | None) -> dict[str, Any]:
    """A scheme's summary: processor time, events per packet hop, and with --against its run's
    processor time, the ratio and whether the two fct.csv are identical."""
    figures: dict[str, Any] = {
        "cpu_s": record["process_cpu_s"], "flows_unfinished": record["flows_unfinished"],
        "events_per_packet_hop": ratio(record["events"], record["packet_hops"])}
    if before is not None:
        figures.update(against_cpu_s=before["process_cpu_s"],
                       against_host_stack=before["host_stack"],
                       cpu_over_against=ratio(record["process_cpu_s"], before["process_cpu_s"]),
                       same_fct_as_against=same_fct)
    return figures


def scenario_datamining(ctx: Context) -> dict[str, Any]:
    """The data mining point of every scheme on the lean host, the same flows for each (and with
    --against, each scheme first with the other build's programs)."""
    flows = DATAMINING_FLOWS[ctx.size]
    runs: list[dict[str, Any]] = []
    summary: dict[str, Any] = {"flows": flows, "load": DATAMINING_LOAD}
    targets = []
    flow_file = write_datamining_flows(ctx, flows)
    for scheme in DATAMINING_SCHEMES:
        before = None
        if ctx.against is not None:
            before = datamining_run(ctx, scheme, flows, flow_file, against=True)
            runs.append(before)
            ctx.say(row("datamining-sigcomm13", before) + f"  {before['host_stack']}")
        record = datamining_run(ctx, scheme, flows, flow_file, against=False)
        runs.append(record)
        ctx.say(row("datamining-sigcomm13", record) + f"  {record['host_stack']}")
        same = None if before is None else (
            (ctx.work / f"datamining-{scheme}" / "fct.csv").read_bytes() ==
            (ctx.work / f"datamining-{scheme}-against" / "fct.csv").read_bytes())
        figures = summary[scheme] = datamining_figures(record, before, same)
        ctx.say(f"    {scheme}: processor time {figures['cpu_s']:,.1f} s, "
                f"{figures['events_per_packet_hop'] or 0:.4f} events per packet hop" +
                (f"; {figures['cpu_over_against']:.3f} of --against's "
                 f"({figures['against_host_stack']}), fct.csv "
                 f"{'identical' if same else 'different'}" if before is not None else ""))
        targets.append(target_record(datamining_target(scheme), figures["cpu_s"], ctx.cpu_model,
                                     size_no_verdict(flows, DATAMINING_FLOWS["full"])))
        ctx.say("    " + target_line(targets[-1]))
    if ctx.against is not None:
        summary["against_build"] = against_build(ctx, runs)
    return {"runs": runs, "summary": summary, "targets": targets}


RUNNERS: dict[str, Callable[[Context], dict[str, Any]]] = {
    "forwarding": scenario_forwarding,
    "websearch-sigcomm13": scenario_websearch,
    "scale": scenario_scale,
    "memory": scenario_memory,
    "ideal": scenario_ideal,
    "allocator": scenario_allocator,
    "host-stack": scenario_host_stack,
    "datamining-sigcomm13": scenario_datamining,
}


def describe(size: str) -> str:
    forwarding = ", ".join(f"k={k} {p} packets/host x{r}" for k, p, r in FORWARDING[size])
    return "\n".join([
        f"forwarding           {forwarding}",
        f"websearch-sigcomm13  {WEBSEARCH_FLOWS[size]} flows, load {LOAD}, pfabric then tcp",
        f"scale                {', '.join(SCALE_SHAPES[size])}; "
        f"{SCALE_FLOWS_PER_HOST[size]} flow(s) per host, load {SCALE_LOAD}",
        f"memory               {MEMORY_FLOWS[size]} flows, sigcomm13, load {LOAD}; target: peak "
        f"RSS under {MEMORY_TARGET_BYTES / 1e9:g} GB ({MEMORY_TARGET_BYTES:,} bytes) at "
        f"{MEMORY_FLOWS['full']} flows",
        f"ideal                ideal-bench --flows {IDEAL_FLOWS[size]} --load 0.8",
        f"allocator            {ALLOCATOR_FLOWS[size]} flows, load {LOAD}, pfabric and tcp, "
        f"{' and '.join(ALLOCATORS)} x{ALLOCATOR_REPEATS[size]}",
        f"host-stack           {HOST_STACK_FLOWS[size]} flows, load {LOAD}, "
        f"{' and '.join(HOST_STACK_SCHEMES)} on {' and '.join(HOST_STACKS)}; target: pfabric on "
        f"lean at most {BASELINE_RATIO_TARGET} of {BASELINE_COMMIT}'s processor time at "
        f"{BASELINE_RATIO_FLOWS} flows (--websearch-flows {BASELINE_RATIO_FLOWS} --against DIR)",
        f"datamining-sigcomm13 {DATAMINING_FLOWS[size]} flows, load {DATAMINING_LOAD}, "
        f"{' and '.join(DATAMINING_SCHEMES)} on lean; target: each at most "
        f"{DATAMINING_CPU_TARGET_S} s of processor time at {DATAMINING_FLOWS['full']} flows "
        f"({DATAMINING_TARGET_CPU})",
    ])


# ---------------------------------------------------------------------------------------------
# Output.

COLUMNS = [("scenario", 19), ("run", 17), ("wall s", 8), ("sim s", 7), ("events", 13),
           ("events/s", 9), ("hops/s", 9), ("ns/hop", 7), ("cpu ns/hop", 10), ("flows/s", 9),
           ("RSS MiB", 8)]


def header() -> str:
    return "  ".join(f"{name:<{width}}" if i < 2 else f"{name:>{width}}"
                     for i, (name, width) in enumerate(COLUMNS))


def fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def row(scenario: str, r: dict[str, Any]) -> str:
    cells = [scenario, r["name"], fmt(r["wall_time_s"], ".2f"), fmt(r["simulated_time_s"], ".4f"),
             fmt(r["events"], ",d"), fmt(r["events_per_s"], ",.0f"),
             fmt(r["packet_hops_per_s"], ",.0f"), fmt(r["ns_per_packet_hop"], ",.0f"),
             fmt(r["cpu_ns_per_packet_hop"], ",.0f"),
             fmt(r["flows_per_s"], ",.1f"), fmt(r["peak_rss_bytes"] / 2**20, ",.1f")]
    return "  ".join(f"{c:<{w}}" if i < 2 else f"{c:>{w}}"
                     for i, (c, (_, w)) in enumerate(zip(cells, COLUMNS)))


def cmake_cache(build: Path) -> dict[str, str]:
    values = {}
    cache = build / "CMakeCache.txt"
    if cache.exists():
        for line in cache.read_text().splitlines():
            if match := re.match(r"^([A-Za-z0-9_]+):[A-Z]+=(.*)$", line):
                values[match[1]] = match[2]
    return values


def command_output(command: list[str], cwd: Path = ROOT) -> str | None:
    try:
        result = subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=30,
                                check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.stdout.strip() if result.returncode == 0 else None


def machine_info() -> dict[str, Any]:
    cpu = None
    try:
        found = re.search(r"^model name\s*:\s*(.*)$", Path("/proc/cpuinfo").read_text(),
                          re.MULTILINE)
        cpu = found[1] if found else None
    except OSError:
        pass
    if cpu is None:  # no /proc/cpuinfo, or no model name in it
        cpu = platform.processor() or None
    memory = None
    try:
        found = re.search(r"^MemTotal:\s*(\d+) kB", Path("/proc/meminfo").read_text(),
                          re.MULTILINE)
        memory = int(found[1]) * 1024 if found else None
    except OSError:
        pass
    return {"cpu_model": cpu, "cores": os.cpu_count(),
            "usable_cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
            else os.cpu_count(),
            "memory_bytes": memory, "platform": platform.platform(), "hostname": platform.node(),
            "python": platform.python_version(), "load_average_start": os.getloadavg()}


def built_from_commit(bin_dir: Path) -> str | None:
    """The commit of the checkout another build's programs were built from, where it is one:
    a standalone build inside its checkout, or an ns-3 tree whose contrib/pfabric is one."""
    for place in (bin_dir, bin_dir.parent / "contrib" / "pfabric"):
        if place.is_dir() and (commit := command_output(["git", "rev-parse", "HEAD"], place)):
            return commit
    return None


def software_info(build: Path, bin_dir: Path | None = None) -> dict[str, Any]:
    """The build whose programs run: the standalone build, or --bin-dir's (an ns-3 tree's
    build/, whose program names say the ns-3 version and profile: ns3.37-NAME-optimized).
    git_commit is the benchmark's own checkout; bin_dir_git_commit what --bin-dir's programs
    were built from, where that can be told."""
    common = {"module_version": (ROOT / "VERSION").read_text().strip(),
              "allocator_preload": allocator_environment().get("LD_PRELOAD"),
              "git_commit": command_output(["git", "rev-parse", "HEAD"]),
              "git_dirty": bool(command_output(["git", "status", "--porcelain",
                                                "--untracked-files=no"]))}
    if bin_dir is not None:
        programs = sorted(bin_dir.rglob("*pfabric-websearch*"))
        named = re.fullmatch(r"ns(3\.\d+)-pfabric-websearch-(\w+)", programs[0].name) \
            if programs else None
        # ns-3's own CMake keeps its cache beside build/, in cmake-cache/; a standalone
        # build's bin/ has it in its parent
        cache = cmake_cache(bin_dir.parent / "cmake-cache") or cmake_cache(bin_dir.parent)
        build_type = cache.get("CMAKE_BUILD_TYPE")
        return common | {
            "ns3_version": named.group(1) if named else None,
            "bin_dir": str(bin_dir),
            "bin_dir_git_commit": built_from_commit(bin_dir),
            "ns3_profile": named.group(2) if named else None,
            "build_type": build_type,
            "cxx_flags": cache.get(f"CMAKE_CXX_FLAGS_{build_type.upper()}") if build_type
            else None,
            "compiler": cache.get("CMAKE_CXX_COMPILER"),
        }
    cache = cmake_cache(build)
    try:
        from importlib.metadata import version
        ns3 = version("ns3")
    except Exception:  # noqa: BLE001 - not the wheel (an ns-3 tree): meta.json's ns3_version says
        ns3 = None
    compiler = cache.get("CMAKE_CXX_COMPILER")
    build_type = cache.get("CMAKE_BUILD_TYPE")
    return common | {
        "ns3_version": ns3,
        "build_dir": str(build),
        "build_type": build_type,
        "cxx_flags": cache.get(f"CMAKE_CXX_FLAGS_{build_type.upper()}") if build_type else None,
        "sanitize": cache.get("PFABRIC_SANITIZE"),
        "compiler": (command_output([compiler, "--version"]) or "").split("\n")[0] or compiler
        if compiler else None,
    }


def against_info(against: Path, label: str | None = None) -> dict[str, Any]:
    """What --against's programs are: their directory, ns-3 release and profile as an ns-3 tree
    names its programs, the commit of the checkout they were built from, where it is one
    (a standalone build inside its checkout, or an ns-3 tree's contrib/pfabric), and the
    --against-label given."""
    info = {key: value for key, value in software_info(against, against).items()
            if key not in ("module_version", "git_commit", "git_dirty", "bin_dir_git_commit")}
    info["git_commit"] = built_from_commit(against)
    info["label"] = label
    return info


def all_targets(scenarios: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Every target the scenarios report, each with its scenario's name, in their order."""
    return [{"scenario": name, **target} for name, result in scenarios.items()
            for target in result.get("targets", [])]


def strip_private(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: strip_private(v) for k, v in value.items() if not k.startswith("_")}
    if isinstance(value, list):
        return [strip_private(v) for v in value]
    return value


def write_json(path: Path, document: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(strip_private(document), indent=2) + "\n")
    partial.replace(path)


# ---------------------------------------------------------------------------------------------

def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="pfabric bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="every scenario small: a few minutes on 2 cores")
    parser.add_argument("--size", choices=SIZES, help=argparse.SUPPRESS)  # smoke: the test's
    parser.add_argument("--only", metavar="NAME[,NAME]",
                        help=f"run only these scenarios: {', '.join(SCENARIOS)}")
    parser.add_argument("--out", type=Path, metavar="FILE.json",
                        help="results (default results/bench/<UTC time>.json)")
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build",
                        help="the build with bin/ (default build/)")
    parser.add_argument("--bin-dir", type=Path, metavar="DIR",
                        help="run the programs of another build instead, e.g. an ns-3 tree's "
                        "build/ with the optimized profile (what long sweeps should use)")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="another build's programs (a standalone build's bin/ or an ns-3 "
                        "tree's build/, e.g. of the previous main): websearch-sigcomm13 runs "
                        "every scheme with both, on the same flows, and reports the ratio "
                        "(so do host-stack and datamining-sigcomm13)")
    parser.add_argument("--against-label", metavar="COMMIT",
                        help="the commit --against's programs were built from, when the bench "
                        "cannot tell (a copy of a build outside its checkout, and a build older "
                        f"than meta.json's git_commit, such as {BASELINE_COMMIT}'s): recorded, "
                        f"and host-stack's target is judged only against {BASELINE_COMMIT}")
    parser.add_argument("--websearch-flows", type=int, metavar="N",
                        help="flows of websearch-sigcomm13 and host-stack instead of the "
                        f"size's ({WEBSEARCH_FLOWS['full']} full, {WEBSEARCH_FLOWS['quick']} "
                        "quick)")
    parser.add_argument("--repeats", type=int, metavar="N",
                        help="host-stack: run each stack N times, the order alternating, and "
                        "report the median ratio (default 1)")
    parser.add_argument("--work-dir", type=Path,
                        help="keep the runs' directories here (default: a temporary one, removed)")
    parser.add_argument("--list", action="store_true", help="print the scenarios and stop")
    args = parser.parse_args(argv)
    if args.size and args.quick and args.size != "quick":
        parser.error("--quick and --size disagree")
    args.size = args.size or ("quick" if args.quick else "full")
    if args.repeats is not None and args.repeats < 1:
        parser.error(f"--repeats={args.repeats}: expected at least one repetition")
    if args.against_label is not None and args.against is None:
        parser.error("--against-label names the --against build: give --against DIR too")
    if args.websearch_flows is not None and args.websearch_flows < 1:
        parser.error(f"--websearch-flows={args.websearch_flows}: expected at least one flow")
    args.only = SCENARIOS if not args.only else tuple(args.only.split(","))
    unknown = [name for name in args.only if name not in SCENARIOS]
    if unknown:
        parser.error(f"--only: unknown scenario {', '.join(unknown)}; "
                     f"expected {', '.join(SCENARIOS)}")
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.list:
        print(describe(args.size))
        return 0

    def say(message: str) -> None:
        print(message, flush=True)

    bin_dir = args.bin_dir.resolve() if args.bin_dir else None
    if bin_dir is not None:
        if not bin_dir.is_dir():
            raise BenchError(f"--bin-dir {args.bin_dir}: no such directory")
        # a wrong --bin-dir fails here, in one line, not in every scenario
        Context(build=bin_dir, size=args.size, work=bin_dir, say=say,
                bin_dir=bin_dir).program("pfabric-websearch")
    against = args.against.resolve() if args.against else None
    if against is not None:
        if not against.is_dir():
            raise BenchError(f"--against {args.against}: no such directory")
        Context(build=against, size=args.size, work=against, say=say,
                against=against).program("pfabric-websearch", against=True)
    started = dt.datetime.now(dt.UTC)
    out = args.out or ROOT / "results" / "bench" / f"{started:%Y%m%dT%H%M%SZ}.json"
    work = args.work_dir or Path(tempfile.mkdtemp(prefix="pfabric-bench-"))
    machine = machine_info()
    against_about = against_info(against, args.against_label) if against is not None else None
    ctx = Context(build=args.build_dir.resolve(), size=args.size, work=work.resolve(), say=say,
                  bin_dir=bin_dir, against=against, against_label=args.against_label,
                  against_checkout=against_about["git_commit"] if against_about else None,
                  cpu_model=machine["cpu_model"], websearch_flows=args.websearch_flows,
                  repeats=args.repeats)
    document: dict[str, Any] = {
        "benchmark": "pfabric-bench", "schema": SCHEMA, "size": args.size,
        "started": started.isoformat(timespec="seconds"), "finished": None, "complete": False,
        "scenarios_requested": list(args.only), "machine": machine,
        "software": software_info(ctx.build, bin_dir), "scenarios": {},
    }
    if against_about is not None:
        document["against"] = against_about
    busy = machine["load_average_start"][0]
    say(f"pfabric bench ({args.size}): {', '.join(args.only)}; {machine['cpu_model']}, "
        f"{machine['cores']} cores, load average {busy:.2f}; results in {out}")
    if busy > 0.5 * (machine["cores"] or 1):
        say("note: the machine is busy; wall times will be slower and noisier than on an idle one")
    failed = []
    try:
        say(header())
        for index, name in enumerate(args.only, 1):
            say(f"[{index}/{len(args.only)}] {name}")
            began = time.perf_counter()
            load_before = os.getloadavg()
            try:
                result = RUNNERS[name](ctx)
                result["status"] = "ok"
            except Exception as error:  # noqa: BLE001 - the other scenarios still run
                if not isinstance(error, BenchError):
                    error = BenchError(f"{type(error).__name__}: {error}")
                say(f"    FAILED: {error}")
                result = {"status": "failed", "error": str(error), "runs": []}
                failed.append(name)
            result.update(scenario_wall_s=time.perf_counter() - began,
                          load_average_before=load_before, load_average_after=os.getloadavg())
            document["scenarios"][name] = result
            document["targets"] = all_targets(document["scenarios"])
            write_json(out, document)
    finally:
        if args.work_dir is None:
            shutil.rmtree(work, ignore_errors=True)
    document["finished"] = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    document["complete"] = not failed
    write_json(out, document)

    say("")
    say(header())
    for name, result in document["scenarios"].items():
        for r in result["runs"]:
            say(row(name, r))
    if "forwarding" in document["scenarios"]:
        forwarding = document["scenarios"]["forwarding"]
        for key, value in forwarding.get("pfabric_over_ns3_per_packet_hop", {}).items():
            cpu = forwarding["pfabric_over_ns3_per_packet_hop_cpu"][key]
            say(f"forwarding {key}: pfabric / ns-3 per packet hop {value:.3f} (wall), "
                f"{cpu:.3f} (processor time)")
    for target in document.get("targets", []):
        say(target_line(target))
    say(f"results: {out}")
    if failed:
        say(f"failed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BenchError as error:
        print(f"pfabric bench: error: {error}", file=sys.stderr)
        sys.exit(1)
