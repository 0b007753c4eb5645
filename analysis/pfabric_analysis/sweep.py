"""Sweeps: a grid of experiments (workloads x schemes x loads x runs), run by local processes or on
a Dask distributed cluster, every point in its own run directory, resumable.

Layout of a sweep directory:

    sweep.json                         the grid and the knobs; a re-run must ask for the same
    flows/<workload>-load<L>-run<R>.csv   one flow list per (workload, load, run), shared by all
                                       schemes (pfabric-<workload> --flowsOnly --dumpFlows)
    runs/<workload>-<scheme>-load<L>-run<R>/   fct.csv + meta.json of one point
    logs/<point>.stderr                what a failed point printed
    sweep.lock                         while a sweep runs: its pid and host (pfabric_analysis.lock)

A point is finished when its meta.json exists (the programs write fct.csv, then meta.json, each to
a temporary name renamed into place) and its directory holds no UNFINISHED_MARK, which the sweep
puts there before the program starts and removes once it has exited successfully: a sweep killed
at any moment leaves nothing that reads as finished. A re-run skips finished points and removes
what an interrupted one left. The programs die with the sweep (pfabric_analysis.children), and
one sweep at a time holds the directory (sweep.lock). Ideal points (a flow-level
schedule, pfabric_analysis.ideal) need only the flow list: the program's --idealOnly mode gives
each flow's ideal FCT on the same fabric.

With a store (--store DIR, pfabric_analysis.store), every finished point is also written there as
a compact point that can be committed; a point in the store is finished, so a sweep resumes from
a store alone (a fresh clone without runs/), and a flow list that no unfinished point needs is
not made. A sweep claims a point in the store before it runs it (pfabric_analysis.store.claim)
and looks it up again when its turn comes, so sweeps sharing a store (two cores, or two machines
on a shared file system) given the grid in different orders split it between them.

A custom scheme (the programs' --scheme=custom, ns-3 parts by name) is a point of the grid by
its label: --schemes names it, and --custom-scheme LABEL:KEY=VALUE gives it its options (e.g.
fqcodel-cubic:portQueueDisc=ns3::FqCoDelQueueDisc), which only its points get, with
--scheme=custom --schemeLabel=LABEL. Its points are named, stored and drawn by the label.

With the measurement window (--set warmupFlows=W --set measureFlows=N), packet points generate
their own flows (the same process, seed and run give the same flows as a flow list, so every
scheme still sees the same flows) for as long as the window needs; only an Ideal point needs a
flow list, of IDEAL_LIST_FACTOR x (W + N) flows, doubled while `pfabric-analysis ideal` says its
arrivals end before the last measured flow completes.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pfabric_analysis import REPOSITORY, allocator
from pfabric_analysis import store as compact
from pfabric_analysis.lock import sweep_lock
from pfabric_analysis.programs import find_program, program_option_names, run_program
from pfabric_analysis.runs import (ADDED_PARAMETERS, BUILD_KEYS, CUSTOM_SCHEME, RECORDED_NUMBERS,
                                   UNFINISHED_MARK, AnalysisError, key_name, result_settings)
from pfabric_analysis.values import COUNT, LOAD, POSITIVE, BadValue

WORKLOADS = ("websearch", "datamining")
WORKLOADS_DIR = REPOSITORY / "workloads"  # their CDFs, where a checkout keeps them
PACKET_SCHEMES = ("pfabric", "linerate", "tcp", "dctcp")
SCHEMES = PACKET_SCHEMES + ("ideal",)
# The programs' option that names a custom scheme's run (PfabricCustomScheme): the sweep sets it
# to the point's label.
LABEL_OPTION = "schemeLabel"
# Options the sweep sets itself; --set may not override them.
RESERVED_KNOBS = {"scheme", LABEL_OPTION, "load", "run", "seed", "flows", "out", "flowFile",
                  "dumpFlows", "flowsOnly", "quiet"}
# The programs' option that picks the packet schemes' host stack (ns3tcp, lean): the sweep sets it
# from --host-stack on packet points only (Ideal has no hosts), so --set may not.
HOST_STACK_OPTION = "hostStack"
# Options of the programs that a sweep option sets instead of --set, by the sweep option's name.
SWEEP_OPTION_KNOBS = {HOST_STACK_OPTION: "--host-stack"}
# A custom scheme's label, which names its points' directories: what the programs take too.
SCHEME_LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")
STDERR_TAIL_LINES = 20
# An option name of the programs (ns-3's CommandLine, lowerCamelCase).
OPTION_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")
# An ns-3 attribute's default by its path, as the programs' command lines take it (--set
# ns3::PfabricTcpSocketFactory::LineRateWindow=24); meta.json records it in ns3_settings.
NS3_ATTRIBUTE = re.compile(r"ns3::[A-Za-z][A-Za-z0-9]*::[A-Za-z][A-Za-z0-9]*")
# The measurement window's options (the programs' --warmupFlows, --measureFlows and
# --measureMaxBytes), as knobs.
WARMUP_KNOB, MEASURE_KNOB, MAX_BYTES_KNOB = "warmupFlows", "measureFlows", "measureMaxBytes"
WINDOW_KNOBS = (WARMUP_KNOB, MEASURE_KNOB, MAX_BYTES_KNOB)
# The programs' --preset default (PfabricExperiment::Parameters), which `pfabric-analysis ideal`
# needs named when a windowed sweep does not set one.
DEFAULT_PRESET = "hotnets12"
# An Ideal point with the window schedules a flow list this many times the window's flows long
# (a measured flow finishes while later ones arrive), doubled up to IDEAL_LIST_DOUBLINGS times
# while the list's arrivals end too early.
IDEAL_LIST_FACTOR = 10
# With --measureMaxBytes the window waits for no large flow: its last awaited flow completes soon
# after the window's last arrival, and a list twice as long suffices (doubled as above if not).
IDEAL_LIST_FACTOR_UP_TO = 2
IDEAL_LIST_DOUBLINGS = 4


@dataclass(frozen=True)
class SweepSpec:
    """The grid and the knobs every point shares."""

    workloads: tuple[str, ...]
    schemes: tuple[str, ...]
    loads: tuple[float, ...]
    runs: tuple[int, ...]
    flows: tuple[tuple[str, int], ...]  # flows per point, by workload (unused with a window)
    seed: int = 1
    knobs: tuple[tuple[str, str], ...] = ()
    # Knobs of one workload only (e.g. its window), over the shared ones.
    workload_knobs: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    # Custom schemes by label, each with its options (--custom-scheme LABEL:KEY=VALUE).
    custom_schemes: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    # The packet schemes' host stack (the programs' --hostStack); None: the programs' default,
    # ns-3's TCP/IP.
    host_stack: str | None = None

    def flows_of(self, workload: str) -> int:
        return dict(self.flows)[workload]

    def knobs_of(self, workload: str) -> tuple[tuple[str, str], ...]:
        """The knobs of a workload's points: the shared ones, then its own over them."""
        return tuple(sorted({**dict(self.knobs),
                             **dict(dict(self.workload_knobs).get(workload, ()))}.items()))

    def packet_schemes(self) -> list[str]:
        """The schemes of the grid that run the program: all but Ideal."""
        return [scheme for scheme in self.schemes if scheme != "ideal"]

    def scheme_options(self, scheme: str) -> tuple[str, ...]:
        """The programs' options that select a scheme: --scheme, or a custom scheme's options."""
        custom = dict(self.custom_schemes)
        if scheme not in custom:
            return (f"--scheme={scheme}", *self.host_stack_options())
        return (f"--scheme={CUSTOM_SCHEME}", f"--{LABEL_OPTION}={scheme}",
                *(f"--{key}={value}" for key, value in custom[scheme]), *self.host_stack_options())

    def host_stack_options(self) -> tuple[str, ...]:
        """The programs' option for --host-stack, none for the programs' default."""
        return () if self.host_stack is None else (f"--{HOST_STACK_OPTION}={self.host_stack}",)

    def window_of(self, workload: str) -> tuple[int, int] | None:
        """(warm-up flows, measured flows) of a workload's points, None without the window."""
        knobs = dict(self.knobs_of(workload))
        if MEASURE_KNOB not in knobs:
            return None
        return int(knobs.get(WARMUP_KNOB, 0)), int(knobs[MEASURE_KNOB])

    def as_json(self) -> dict:
        found = {**asdict(self), "flows": dict(self.flows), "knobs": dict(self.knobs)}
        # Each absent when empty: sweeps written before it still resume.
        for key in ("workload_knobs", "custom_schemes"):
            found.pop(key)
            if getattr(self, key):
                found[key] = {name: dict(knobs) for name, knobs in getattr(self, key)}
        if self.host_stack is None:
            found.pop("host_stack")
        return found


@dataclass(frozen=True)
class Task:
    """One unit of work: a flow list, a packet run or an Ideal schedule."""

    kind: str  # "flows", "packet" or "ideal"
    name: str
    output: Path  # the file or run directory it makes
    command: tuple[str, ...] = ()
    flow_list: Path | None = None
    needs: tuple[str, ...] = field(default=())
    store: Path | None = None  # where the finished point's compact copy goes (not flow lists)
    point: tuple[str, str, float, int] | None = None  # (workload, scheme, load, run) of a point
    # A windowed Ideal point: its flow list's command without --flows, and the list's flows.
    list_command: tuple[str, ...] = ()
    list_flows: int = 0


@dataclass
class Outcome:
    """What became of one task."""

    task: Task
    status: str  # "done", "skipped", "failed", "blocked" or "claimed" (by another sweep)
    seconds: float = 0.0
    error: str = ""


def camel_case(dashed: str) -> str:
    """An option name in the programs' lowerCamelCase (ns-3's style): hash-demux -> hashDemux."""
    first, *rest = dashed.split("-")
    return first + "".join(word[:1].upper() + word[1:] for word in rest)


def parse_knobs(pairs: Iterable[str], reserved: set[str] = RESERVED_KNOBS,
                setter: str = "the sweep itself",
                flag: str = "--set ") -> tuple[tuple[str, str], ...]:
    """--set KEY=VALUE options into sorted (key, value) pairs; `reserved` keys are refused, each
    error naming the pair after `flag`.

    A dashed KEY (the programs' option names before they became lowerCamelCase, such as
    hash-demux) is refused with the name to use instead: mapping it silently would record a
    sweep's knobs under two spellings."""
    knobs = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.removeprefix("--")
        if not sep or not key:
            raise AnalysisError(f"{flag}{pair}: expected KEY=VALUE, e.g. preset=sigcomm13")
        if "-" in key:
            raise AnalysisError(f"{flag}{pair}: the programs' options are camelCase, e.g. "
                                f"{flag}{camel_case(key)}={value}")
        if not OPTION_NAME.fullmatch(key) and not NS3_ATTRIBUTE.fullmatch(key):
            raise AnalysisError(f"{flag}{pair}: {key!r} is not an option name (letters and "
                                "digits, e.g. --set preset=sigcomm13) or an ns-3 attribute "
                                "(e.g. --set ns3::PfabricTcpSocketFactory::LineRateWindow=24)")
        if key in reserved:
            raise AnalysisError(f"{flag}{pair}: {key} is set by {setter}")
        if key in SWEEP_OPTION_KNOBS:
            raise AnalysisError(f"{flag}{pair}: use {SWEEP_OPTION_KNOBS[key]} {value}, which sets "
                                f"{key} on the packet schemes only")
        knobs[key] = value
    return tuple(sorted(knobs.items()))


def parse_custom_schemes(pairs: Iterable[str]) -> tuple[tuple[str, tuple[tuple[str, str], ...]],
                                                         ...]:
    """--custom-scheme LABEL:KEY=VALUE options into (label, sorted (key, value) pairs), by label;
    the keys as --set's (parse_knobs), of the custom scheme's own options (the sweep sets
    --scheme and --schemeLabel)."""
    schemes: dict[str, list[str]] = {}
    for pair in pairs:
        label, sep, knob = pair.partition(":")
        if not sep or not SCHEME_LABEL.fullmatch(label) or "=" not in knob:
            raise AnalysisError(f"--custom-scheme {pair}: expected LABEL:KEY=VALUE, e.g. "
                                "fqcodel-cubic:portQueueDisc=ns3::FqCoDelQueueDisc (a label of "
                                "letters, digits, '.', '_', '+' or '-')")
        schemes.setdefault(label, []).append(knob)
    return tuple(sorted((label, parse_knobs(knobs, flag=f"--custom-scheme {label}:"))
                        for label, knobs in schemes.items()))


def windowless_options(knobs: Iterable[tuple[str, str]]) -> tuple[str, ...]:
    """Knobs as the programs' options, but the measurement window's, which a run outside a
    point's (a flow list alone, a one-flow run) does not take."""
    return tuple(f"--{key}={value}" for key, value in knobs if key not in WINDOW_KNOBS)


def check_knobs(knobs: Iterable[tuple[str, str]], program: Path,
                options: tuple[str, ...] = ()) -> None:
    """Refuse a --set key that is not an option of the program, and a value the program refuses
    (its own error line), before anything runs: the program would refuse it at every point,
    after the sweep directory was made. The values are tried on the program's flow list alone
    (--flowsOnly into a temporary directory), with `options` (e.g. --scheme=custom) before them;
    the measurement window's, which a flow list does not take, are the sweep's to check."""
    import tempfile

    knobs = tuple(knobs)
    for key, value in knobs:
        # An attribute is not in --PrintHelp: the trial below runs it, and the program names an
        # unknown one.
        if not NS3_ATTRIBUTE.fullmatch(key) and key not in program_option_names(program):
            raise AnalysisError(f"--set {key}={value}: unknown option {key} of {program.name} "
                                f"(its --PrintHelp lists its options)")
    tried = windowless_options(knobs)
    if not tried and not options:
        return
    with tempfile.TemporaryDirectory(prefix="pfabric-knobs-") as scratch:
        result = run_program([str(program), *options, *tried, "--flows=1", "--flowsOnly", "--quiet",
                            f"--dumpFlows={Path(scratch) / 'flows.csv'}"])
    lines = result.stderr.strip().splitlines() or [f"exit status {result.returncode}"]
    # A list that could not be written (a full disk) says nothing of the values: the sweep's own
    # writes report that.
    if result.returncode != 0 and scratch not in lines[-1]:
        raise AnalysisError(f"{program.name} refuses "
                            f"{lines[-1].removeprefix(f'{program.name}: error: ')}")


def check_spec(spec: SweepSpec) -> None:
    """Refuse an empty grid and unknown names before anything runs."""
    for label, values in (("--workloads", spec.workloads), ("--schemes", spec.schemes),
                          ("--loads", spec.loads), ("--runs", spec.runs)):
        if not values:
            raise AnalysisError(f"{label}: empty, nothing to sweep")
        twice = next((value for i, value in enumerate(values) if value in values[:i]), None)
        if twice is not None:
            # Two tasks of one point would run at once in one run directory.
            raise AnalysisError(f"{label}: {twice!r} given twice")
    try:
        allocator.preload(os.environ)
    except allocator.AllocatorError as error:
        raise AnalysisError(str(error)) from error
    for workload in spec.workloads:
        if workload not in WORKLOADS:
            raise AnalysisError(f"--workloads: unknown workload {workload!r}; expected "
                                f"{', '.join(WORKLOADS)}")
    custom = dict(spec.custom_schemes)
    for scheme in spec.schemes:
        if scheme not in SCHEMES and scheme not in custom:
            raise AnalysisError(f"--schemes: unknown scheme {scheme!r}; expected "
                                f"{', '.join(SCHEMES)} or a label of --custom-scheme")
    for label in custom:
        if not SCHEME_LABEL.fullmatch(label):
            raise AnalysisError(f"--custom-scheme {label}: a label is letters, digits, '.', '_', "
                                "'+' or '-' (it names the points' directories)")
        if label in SCHEMES or label == CUSTOM_SCHEME:
            raise AnalysisError(f"--custom-scheme {label}: a built-in scheme's name; label "
                                "custom schemes otherwise")
        if label not in spec.schemes:
            raise AnalysisError(f"--custom-scheme {label}: not in --schemes (name it there to "
                                "run it)")
    for load in spec.loads:
        if not LOAD.contains(load):
            raise AnalysisError(f"--loads: {load} is not in (0, 1)")
    for workload in spec.workloads:
        count = dict(spec.flows).get(workload)
        if count is None or count < 1:
            raise AnalysisError(f"--flows: {workload}: expected at least one flow")
        knobs = dict(spec.knobs_of(workload))
        for key, kind in ((WARMUP_KNOB, COUNT), (MEASURE_KNOB, POSITIVE), (MAX_BYTES_KNOB, COUNT)):
            if key not in knobs:
                continue
            try:
                kind(knobs[key])
            except BadValue as error:
                raise AnalysisError(f"--set {key}={knobs[key]}: expected {error.expected}"
                                    ) from error
        for key in (WARMUP_KNOB, MAX_BYTES_KNOB):
            if key in knobs and MEASURE_KNOB not in knobs:
                raise AnalysisError(f"--set {key}: needs --set {MEASURE_KNOB} (the window)")


def parse_flows(text: str, workloads: Iterable[str]) -> tuple[tuple[str, int], ...]:
    """--flows N (every workload) or --flows websearch=N,datamining=M; each N a count of at
    least one flow (values.POSITIVE)."""
    try:
        if "=" not in text:
            return tuple((w, POSITIVE(text)) for w in workloads)
        pairs = dict(item.split("=", 1) for item in text.split(","))
        unknown = sorted(set(pairs) - set(WORKLOADS))
        if unknown:
            raise AnalysisError(f"--flows {text}: unknown workload {unknown[0]!r}")
        return tuple((w, POSITIVE(pairs[w])) for w in workloads)
    except BadValue as error:
        raise AnalysisError(f"--flows {text}: {error}") from error
    except (ValueError, KeyError) as error:
        raise AnalysisError(f"--flows {text}: expected N or websearch=N,datamining=M "
                            f"covering every workload") from error


def point_name(workload: str, scheme: str, load: float, run: int) -> str:
    return f"{workload}-{scheme}-load{load:g}-run{run}"


def point_options(load: float, run: int, seed: int, flows: int) -> tuple[str, ...]:
    """The programs' options that make a point's flow list: the same for every scheme."""
    return (f"--load={load:g}", f"--run={run}", f"--seed={seed}", f"--flows={flows}")


def flow_list_name(workload: str, load: float, run: int) -> str:
    return f"{workload}-load{load:g}-run{run}"


def plan(spec: SweepSpec, sweep_dir: Path, programs: dict[str, Path],
         store: Path | None = None) -> list[Task]:
    """Every task of the grid, flow lists first, then packet runs, then Ideal schedules."""
    tasks: list[Task] = []
    for workload in spec.workloads:
        if spec.window_of(workload) is None:
            tasks += plan_listed(spec, workload, sweep_dir, programs[workload], store)
        else:
            tasks += plan_windowed(spec, workload, sweep_dir, programs[workload], store)
    return tasks


def plan_listed(spec: SweepSpec, workload: str, sweep_dir: Path, program: Path,
                store: Path | None) -> list[Task]:
    """A workload's tasks without the window: a flow list per (load, run) that every scheme
    runs (--flowFile)."""
    knobs = tuple(f"--{key}={value}" for key, value in spec.knobs_of(workload))
    tasks: list[Task] = []
    packet = spec.packet_schemes()
    for load in spec.loads:
        for run in spec.runs:
            common = point_options(load, run, spec.seed, spec.flows_of(workload)) + knobs
            flows_name = flow_list_name(workload, load, run)
            flow_list = sweep_dir / "flows" / f"{flows_name}.csv"
            tasks.append(Task("flows", flows_name, flow_list,
                              (str(program), "--flowsOnly",
                               f"--dumpFlows={flow_list}") + common))
            for scheme in packet:
                name = point_name(workload, scheme, load, run)
                out = sweep_dir / "runs" / name
                tasks.append(Task("packet", name, out,
                                  (str(program), "--quiet", *spec.scheme_options(scheme),
                                   f"--flowFile={flow_list}", f"--out={out}") + common,
                                  flow_list=flow_list, needs=(flows_name,), store=store,
                                  point=(workload, scheme, load, run)))
            if "ideal" in spec.schemes:
                # The program's --idealOnly mode gives the flows' ideal FCTs on the same
                # fabric with the same parameters: no packet run needed.
                name = point_name(workload, "ideal", load, run)
                tasks.append(Task("ideal", name, sweep_dir / "runs" / name,
                                  (str(program),) + common,
                                  flow_list=flow_list, needs=(flows_name,), store=store,
                                  point=(workload, "ideal", load, run)))
    return tasks


def plan_windowed(spec: SweepSpec, workload: str, sweep_dir: Path, program: Path,
                  store: Path | None) -> list[Task]:
    """A workload's tasks with the window: packet points generate their own flows (no
    --flowFile, no --flows); an Ideal point schedules a flow list made for it, through
    `pfabric-analysis ideal --warmup-flows W --measure-flows N`."""
    window = spec.window_of(workload)
    assert window is not None, f"{workload}: planned with the window, which it does not have"
    warmup, measure = window
    knobs = dict(spec.knobs_of(workload))
    window_free = {key: value for key, value in knobs.items()
                   if key not in WINDOW_KNOBS}
    max_bytes = int(knobs.get(MAX_BYTES_KNOB, 0))
    tasks: list[Task] = []
    for load in spec.loads:
        for run in spec.runs:
            common = (f"--load={load:g}", f"--run={run}", f"--seed={spec.seed}")
            for scheme in spec.packet_schemes():
                name = point_name(workload, scheme, load, run)
                out = sweep_dir / "runs" / name
                tasks.append(Task("packet", name, out,
                                  (str(program), "--quiet", *spec.scheme_options(scheme),
                                   f"--out={out}")
                                  + common + tuple(f"--{k}={v}" for k, v in sorted(knobs.items())),
                                  store=store, point=(workload, scheme, load, run)))
            if "ideal" not in spec.schemes:
                continue
            flows_name = flow_list_name(workload, load, run)
            flow_list = sweep_dir / "flows" / f"{flows_name}.csv"
            list_command = (str(program), "--flowsOnly", f"--dumpFlows={flow_list}") + common + \
                tuple(f"--{k}={v}" for k, v in sorted(window_free.items()))
            list_flows = (IDEAL_LIST_FACTOR_UP_TO if max_bytes else IDEAL_LIST_FACTOR) * \
                (warmup + measure)
            tasks.append(Task("flows", flows_name, flow_list,
                              list_command + (f"--flows={list_flows}",)))
            name = point_name(workload, "ideal", load, run)
            settings = {"load": f"{load:g}", "run": str(run), "seed": str(spec.seed),
                        **window_free}
            preset = settings.pop("preset", DEFAULT_PRESET)
            command = (sys.executable, "-m", "pfabric_analysis.cli", "ideal", str(flow_list),
                       f"--preset={preset}", f"--workload={workload}",
                       f"--bin-dir={program.parent}", f"--warmup-flows={warmup}",
                       f"--measure-flows={measure}", f"--measure-max-bytes={max_bytes}",
                       f"--out={sweep_dir / 'runs' / name}") + tuple(
                f"--set={key}={value}" for key, value in sorted(settings.items()))
            tasks.append(Task("ideal", name, sweep_dir / "runs" / name, command,
                              flow_list=flow_list, needs=(flows_name,), store=store,
                              list_command=list_command, list_flows=list_flows,
                              point=(workload, "ideal", load, run)))
    return tasks


def is_run(task: Task) -> bool:
    """Whether the task's run directory is finished: its meta.json, written last, is there and
    the sweep has seen its program succeed (no UNFINISHED_MARK)."""
    return ((task.output / "meta.json").is_file() and (task.output / "fct.csv").is_file()
            and not (task.output / UNFINISHED_MARK).exists())


def is_finished(task: Task) -> bool:
    if task.kind == "flows":
        return task.output.is_file()
    return is_run(task) or (task.store is not None and compact.is_stored(task.store, task.name))


def needed(tasks: list[Task]) -> list[Task]:
    """The tasks less the flow lists that no unfinished point needs (a sweep resumed from a
    store, whose points are finished without their run directories or flow lists)."""
    wanted = {need for task in tasks if task.kind != "flows" and not is_finished(task)
              for need in task.needs}
    return [task for task in tasks
            if task.kind != "flows" or task.name in wanted or is_finished(task)]


def store_finished(tasks: list[Task]) -> int:
    """Compact every finished run directory that its store lacks (a store given to a sweep
    begun without one); the number written."""
    written = 0
    for task in tasks:
        if task.store is not None and is_run(task) and \
                not compact.is_stored(task.store, task.name):
            compact.write_point(task.output, task.store, task.name)
            written += 1
    return written


def execute(task: Task) -> tuple[bool, str]:
    """Run one task where it is (a local thread or a Dask worker): (success, error text); with a
    store, a finished point is also compacted there.

    A point's run directory is emptied and marked unfinished first, cleared of the mark once its
    program succeeded and removed on failure, so a point is either whole and unmarked or not
    finished. A file that cannot be written (a full disk) fails the task in one line naming it."""
    try:
        ok, error = execute_task(task)
    except OSError as failure:
        if task.kind != "flows":
            shutil.rmtree(task.output, ignore_errors=True)
        return False, os_error_line(failure)
    if ok and task.kind != "flows" and task.store is not None:
        try:
            compact.write_point(task.output, task.store, task.name)
        except AnalysisError as failure:
            return False, str(failure)
    return ok, error


def os_error_line(error: OSError) -> str:
    """An OSError in one line, naming its file when it has one."""
    reason = error.strerror or str(error)
    return f"{error.filename}: {reason}" if error.filename else reason


def begin_point(output: Path) -> None:
    """An empty run directory holding UNFINISHED_MARK: what an earlier attempt left is removed."""
    if output.exists():
        shutil.rmtree(output)
    output.mkdir(parents=True)
    (output / UNFINISHED_MARK).touch()


def execute_task(task: Task) -> tuple[bool, str]:
    if task.kind != "flows":
        begin_point(task.output)
    ok, error = run_task(task)
    if task.kind == "flows":
        return ok, error
    if ok:
        (task.output / UNFINISHED_MARK).unlink()
    else:
        shutil.rmtree(task.output, ignore_errors=True)
    return ok, error


def run_task(task: Task) -> tuple[bool, str]:
    """Run the task's program(s): (success, error text)."""
    if task.kind == "ideal" and task.list_command:
        return execute_windowed_ideal(task)
    if task.kind == "ideal":
        from pfabric_analysis.ideal import run_ideal

        assert task.flow_list is not None, f"{task.name}: an Ideal task without its flow list"
        try:
            run_ideal(task.flow_list, task.output, program=Path(task.command[0]),
                      options=task.command[1:])
        except AnalysisError as error:
            return False, str(error)
        return True, ""
    result = run_program(task.command, env=allocator.child_environment())
    if result.returncode == 0:
        return True, ""
    return False, f"exit status {result.returncode}: {stderr_tail(result)}"


def stderr_tail(result: subprocess.CompletedProcess) -> str:
    return "\n".join(result.stderr.strip().splitlines()[-STDERR_TAIL_LINES:])


def execute_windowed_ideal(task: Task) -> tuple[bool, str]:
    """A windowed Ideal point: `pfabric-analysis ideal` on its flow list; while it fails naming
    the list (its arrivals end before the last measured flow completes), the list is made again
    twice as long, up to IDEAL_LIST_DOUBLINGS times."""
    flows = task.list_flows
    for doubling in range(IDEAL_LIST_DOUBLINGS + 1):
        if doubling:
            flows *= 2
            made = run_program(task.list_command + (f"--flows={flows}",))
            if made.returncode != 0:
                return False, f"flow list of {flows} flows: exit status {made.returncode}: " \
                    + stderr_tail(made)
        result = run_program(task.command, env={**os.environ, "PYTHONPATH": os.pathsep.join(
            filter(None, [str(Path(__file__).resolve().parents[1]),
                          os.environ.get("PYTHONPATH")]))})
        if result.returncode == 0:
            return True, ""
        begin_point(task.output)
        tail = stderr_tail(result)
        if str(task.flow_list) not in result.stderr:
            return False, f"exit status {result.returncode}: {tail}"
    return False, f"{task.flow_list}: still too short at {flows} flows: {tail}"


def timed_execute(task: Task) -> tuple[bool, str, float]:
    began = time.monotonic()
    ok, error = execute(task)
    return ok, error, time.monotonic() - began


def cdf_mean_bytes(path: Path) -> float:
    """The mean flow size of a workload CDF file, linear between its rows; an estimate (the
    programs round every size up to whole segments) for weighing points before their flow lists
    exist."""
    from pfabric_analysis.ideal import read_cdf

    sizes, cdf = read_cdf(path)
    return float(((cdf[1:] - cdf[:-1]) * (sizes[1:] + sizes[:-1]) / 2).sum())


def flow_list_bytes(path: Path) -> int:
    """The bytes of every flow of a flow list (--dumpFlows's format)."""
    import pandas as pd

    return int(pd.read_csv(path, usecols=["size_bytes"])["size_bytes"].sum())


class Progress:
    """A one-line progress bar on stderr: points done, work done and the ETA.

    Work is counted in bytes, the bytes of the flow list a packet run simulates (flow lists and
    Ideal schedules take seconds and count as none): a point's cost follows its packet hops,
    which follow its bytes; a data mining point carries about 4.5 times the bytes of a web
    search point of as many flows.
    A point whose flow list does not exist yet is weighed by its expected bytes (flows times the
    workload's mean size) until the list is written. The ETA is the time left at the rate of work
    done so far."""

    def __init__(self, tasks: list[Task], enabled: bool,
                 expected_bytes: dict[Path, float] | None = None, stream=sys.stderr) -> None:
        self.enabled, self.stream = enabled, stream
        self.expected = expected_bytes or {}
        self.list_bytes: dict[Path, int] = {}
        self.pending = {t.name: t for t in tasks if not is_finished(t)}
        self.work = {name: self.weigh(task) for name, task in self.pending.items()}
        self.total = len(self.pending)
        self.done = 0
        self.done_work = 0.0
        self.began = time.monotonic()

    def weigh(self, task: Task) -> float:
        if task.kind != "packet":
            return 0.0
        if task.flow_list is None:  # a windowed point: its window's expected bytes
            return float(self.expected.get(task.output, 0.0))
        if task.flow_list in self.list_bytes:
            return float(self.list_bytes[task.flow_list])
        if task.flow_list.is_file():
            self.list_bytes[task.flow_list] = flow_list_bytes(task.flow_list)
            return float(self.list_bytes[task.flow_list])
        return float(self.expected.get(task.flow_list, 0.0))

    def advance(self, task: Task) -> None:
        self.done += 1
        self.done_work += self.work.pop(task.name, 0.0)
        self.pending.pop(task.name, None)
        if task.kind == "flows" and task.output.is_file():
            for name, other in self.pending.items():
                if other.flow_list == task.output:
                    self.work[name] = self.weigh(other)
        if not self.enabled:
            return
        self.stream.write("\r" + self.line(time.monotonic() - self.began))
        if self.done == self.total:
            self.stream.write("\n")
        self.stream.flush()

    def fraction(self) -> float:
        """Work done over all work, as now estimated."""
        all_work = self.done_work + sum(self.work.values())
        return self.done_work / all_work if all_work > 0 else 0.0

    def line(self, elapsed: float) -> str:
        fraction = self.fraction()
        width = 30
        filled = int(width * fraction)
        eta = (format_duration(elapsed * (1 - fraction) / fraction) if fraction > 0
               else "--")
        return (f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} tasks, "
                f"work {100 * fraction:.1f}% (bytes), {format_duration(elapsed)} elapsed, "
                f"ETA {eta}")


def format_duration(seconds: float) -> str:
    seconds = round(seconds)
    return f"{seconds // 3600}h{seconds // 60 % 60:02d}m" if seconds >= 3600 else \
        f"{seconds // 60}m{seconds % 60:02d}s"


Future = Any  # what a Submit returns: a concurrent.futures or a Dask future
Submit = Callable[[Task], Future]


def run_tasks(tasks: list[Task], submit: Submit, wait_any: Callable[[set], tuple[set, set]],
              result_of: Callable[[Future], tuple[bool, str, float]],
              progress: Progress, max_pending: int | None = None) -> list[Outcome]:
    """Run tasks as their inputs become ready; a failure blocks only what depends on it. A point
    is claimed in its store before it runs, and one that another sweep sharing the store has
    stored or claimed when its turn comes is left to it, so such sweeps split the points.

    With max_pending, at most that many run at once and the next one is the first ready task in
    plan order, so a point's Ideal schedule follows its packet run instead of waiting for the
    whole grid."""
    outcomes: dict[str, Outcome] = {}
    pending: dict[Future, Task] = {}
    waiting = []
    for task in tasks:
        if is_finished(task):
            outcomes[task.name] = Outcome(task, "skipped")
        else:
            waiting.append(task)
    while waiting or pending:
        still = []
        for task in waiting:
            states = [outcomes.get(need) for need in task.needs]
            elsewhere = left_to_another_sweep(task)
            if elsewhere is not None:
                outcomes[task.name] = elsewhere
                progress.advance(task)
            elif any(o is not None and o.status in ("failed", "blocked") for o in states):
                outcomes[task.name] = Outcome(task, "blocked",
                                              error="needs " + ", ".join(task.needs))
                progress.advance(task)
            elif all(o is not None for o in states) and (max_pending is None
                                                         or len(pending) < max_pending):
                elsewhere = claim_point(task)
                if elsewhere is not None:
                    outcomes[task.name] = elsewhere
                    progress.advance(task)
                else:
                    pending[submit(task)] = task
            else:
                still.append(task)
        waiting = still
        if not pending:
            if waiting:
                raise AnalysisError("sweep: tasks wait for inputs that no task makes: "
                                    + ", ".join(t.name for t in waiting))
            continue
        done, _ = wait_any(set(pending))
        for future in done:
            task = pending.pop(future)
            ok, error, seconds = result_of(future)
            if task.store is not None:
                compact.release(task.store, task.name)
            if not ok:
                error = "\n".join(filter(None, [error, write_log(task, error)]))
            outcomes[task.name] = Outcome(task, "done" if ok else "failed", seconds, error)
            progress.advance(task)
    return [outcomes[task.name] for task in tasks]


def left_to_another_sweep(task: Task) -> Outcome | None:
    """The outcome of a point that another sweep sharing its store (another core or machine) has
    stored since this one started ("skipped") or holds a live claim on ("claimed"); None
    otherwise."""
    if task.store is None:
        return None
    if compact.is_stored(task.store, task.name):
        return Outcome(task, "skipped")
    holder = compact.other_claim(task.store, task.name)
    return None if holder is None else Outcome(task, "claimed", error=holder)


def claim_point(task: Task) -> Outcome | None:
    """Claim the task's point in its store before it runs (released when it ends); the outcome
    instead when another sweep claimed or stored it first."""
    if task.store is None:
        return None
    holder = compact.claim(task.store, task.name)
    if holder is not None:
        return Outcome(task, "claimed", error=holder)
    if compact.is_stored(task.store, task.name):
        compact.release(task.store, task.name)
        return Outcome(task, "skipped")
    return None


def write_log(task: Task, error: str) -> str:
    """Keep a failed task's error in logs/; "" or, when the log cannot be written (a full disk),
    a line saying so (the report still carries the error)."""
    log = task.output.parent.parent / "logs" / f"{task.name}.stderr"
    try:
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(error + "\n")
    except OSError as failure:
        log.unlink(missing_ok=True)
        return f"{log}: not written ({failure.strerror or failure})"
    return ""


def run_local(tasks: list[Task], jobs: int, progress: Progress) -> list[Outcome]:
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return run_tasks(tasks, lambda t: pool.submit(timed_execute, t),
                         lambda fs: wait(fs, return_when=FIRST_COMPLETED),
                         lambda f: f.result(), progress, max_pending=jobs)


def connect(scheduler: str):
    """A client of a Dask distributed scheduler, connected before the sweep writes anything (a
    scheduler that cannot be reached leaves no sweep directory behind)."""
    try:
        from distributed import Client
    except ImportError as error:
        raise AnalysisError("--scheduler: the Dask 'distributed' package is not installed") \
            from error
    try:
        return Client(scheduler, timeout="30s")
    except (OSError, TimeoutError, ValueError) as error:
        raise AnalysisError(f"--scheduler {scheduler}: cannot connect ({error})") from error


def run_dask(tasks: list[Task], client, progress: Progress) -> list[Outcome]:
    """Run on a Dask distributed cluster (a connected client); workers need this package and the
    sweep directory and the programs at the same paths (a shared file system)."""
    from distributed import wait as dask_wait

    with client:
        # pure=False: a re-submitted task after a failure must run again, not reuse a result.
        return run_tasks(tasks, lambda t: client.submit(timed_execute, t, pure=False),
                         lambda fs: dask_wait(list(fs), return_when="FIRST_COMPLETED"),
                         lambda f: f.result(), progress)


def prepare_directory(spec: SweepSpec, sweep_dir: Path) -> None:
    """Create the sweep directory, or check that an existing one holds the same sweep."""
    spec_path = sweep_dir / "sweep.json"
    wanted = spec.as_json()
    if spec_path.is_file():
        try:
            found = json.loads(spec_path.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise AnalysisError(f"{spec_path}: not JSON ({error})") from error
        if not isinstance(found, dict):
            raise AnalysisError(f"{spec_path}: not a sweep's description (a JSON object)")
        for key in sorted(set(wanted) | set(found)):
            old = found.get(key)
            new = json.loads(json.dumps(wanted.get(key)))
            if old != new:
                raise AnalysisError(f"{spec_path}: another sweep ({key_name(key)} was {old!r}, now "
                                    f"{new!r}); use another --out")
        return
    temporary = spec_path.with_suffix(".json.partial")
    writing = sweep_dir
    try:
        for sub in ("flows", "runs"):
            writing = sweep_dir / sub
            writing.mkdir(parents=True, exist_ok=True)
        writing = spec_path
        temporary.write_text(json.dumps(wanted, indent=2) + "\n")
        os.replace(temporary, spec_path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise AnalysisError(f"{writing}: cannot write ({error.strerror or error})") from error


def expected_bytes(spec: SweepSpec, sweep_dir: Path, workloads_dir: Path = WORKLOADS_DIR
                   ) -> dict[Path, float]:
    """Each flow list's expected bytes: the point's flows times its workload's mean size
    (none for a workload whose CDF is not where a checkout keeps it: its points are weighed
    once their lists exist); with the window, each packet point's run directory's: W + N flows
    times the mean size."""
    mean = {}
    for workload in spec.workloads:
        try:
            mean[workload] = cdf_mean_bytes(workloads_dir / f"{workload}.cdf")
        except AnalysisError:
            continue
    found: dict[Path, float] = {}
    for w, mean_bytes in mean.items():
        for load in spec.loads:
            for run in spec.runs:
                window = spec.window_of(w)
                if window is None:
                    path = sweep_dir / "flows" / f"{flow_list_name(w, load, run)}.csv"
                    found[path] = spec.flows_of(w) * mean_bytes
                    continue
                for scheme in spec.schemes:  # a windowed point simulates about W + N flows
                    path = sweep_dir / "runs" / point_name(w, scheme, load, run)
                    found[path] = sum(window) * mean_bytes
    return found


def sweep(spec: SweepSpec, sweep_dir: Path, bin_dir: Path, jobs: int = 1,
          scheduler: str | None = None, progress: bool = True,
          store: Path | None = None) -> list[Outcome]:
    """Run (or resume) a sweep; returns one outcome per task. With a store, finished points
    are compacted there and points already there are finished."""
    check_spec(spec)
    sweep_dir = sweep_dir.resolve()
    store = store.resolve() if store is not None else None
    programs = {w: bin_dir / f"pfabric-{w}" for w in spec.workloads}
    tasks = plan(spec, sweep_dir, programs, store)
    if not all(is_finished(task) for task in tasks if task.kind != "flows"):
        # A sweep whose every point is in its store needs no program (a fresh clone, unbuilt).
        programs = {w: find_program(bin_dir, f"pfabric-{w}").resolve() for w in spec.workloads}
        for workload, program in programs.items():
            check_knobs(spec.knobs_of(workload), program, spec.host_stack_options())
            for _, knobs in spec.custom_schemes:
                check_knobs((*spec.knobs_of(workload), *knobs), program,
                            (f"--scheme={CUSTOM_SCHEME}", *spec.host_stack_options()))
        tasks = plan(spec, sweep_dir, programs, store)
    if store is not None:
        if store.exists() and not store.is_dir():
            raise AnalysisError(f"--store {store}: not a directory")
        stored = check_store(tasks, spec)  # before anything is written
        if not all(is_finished(task) for task in tasks if task.kind != "flows"):
            check_store_build(stored, programs, spec)
    client = connect(scheduler) if scheduler else None
    with sweep_lock(sweep_dir):
        prepare_directory(spec, sweep_dir)
        if store is not None:
            compact.remove_leftovers(store, {t.name for t in tasks if t.store is not None})
            store_finished(tasks)
        tasks = needed(tasks)
        bar = Progress(tasks, progress, expected_bytes(spec, sweep_dir))
        if client is not None:
            return run_dask(tasks, client, bar)
        return run_local(tasks, max(1, jobs), bar)


def same_value(recorded: object, asked: str) -> bool:
    """Whether a meta.json parameter is the value a knob or option asked for (as text)."""
    if isinstance(recorded, bool):
        return asked.lower() in (("1", "true") if recorded else ("0", "false"))
    if isinstance(recorded, (int, float)):
        try:
            return math.isclose(float(asked), float(recorded), rel_tol=1e-12)
        except ValueError:
            return False
    return str(recorded) == asked


def check_store(tasks: list[Task], spec: SweepSpec) -> dict[Path, tuple[str, str, dict]]:
    """Refuse a store point that is not the point this sweep would make (another sweep's store:
    scheme, load, run, seed, flows or window, or a knob, differ); the store points of the sweep,
    each with its workload, scheme and meta.json."""
    from pfabric_analysis.runs import current_names

    stored: dict[Path, tuple[str, str, dict]] = {}
    for task in tasks:
        if (task.kind == "flows" or task.store is None or task.point is None or is_run(task)
                or not compact.is_stored(task.store, task.name)):
            continue
        meta_path = compact.point_path(task.store, task.name) / compact.META
        try:
            meta = json.loads(meta_path.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise AnalysisError(f"{meta_path}: not a run's meta.json ({error})") from error
        if not isinstance(meta, dict) or not isinstance(meta.get("parameters"), dict):
            raise AnalysisError(f"{meta_path}: not a run's meta.json (no 'parameters' object)")
        parameters = current_names(meta["parameters"])
        workload, scheme, load, run = task.point
        if meta.get("workload") != workload:
            raise AnalysisError(f"{meta_path}: workload {meta.get('workload')!r}, not "
                                f"{workload!r}; another sweep's store")
        window = spec.window_of(workload)
        asked = dict(spec.knobs_of(workload))
        asked.update({"scheme": scheme, "load": f"{load:g}", "run": str(run),
                      "seed": str(spec.seed)})
        custom = dict(spec.custom_schemes)
        if scheme in custom:  # its options, as the programs record them
            asked.update({**dict(custom[scheme]), "scheme": CUSTOM_SCHEME, LABEL_OPTION: scheme})
        if window is None:
            asked["flows"] = str(spec.flows_of(workload))
        if scheme != "ideal":  # Ideal has no hosts; its runs record the programs' default
            asked[HOST_STACK_OPTION] = spec.host_stack or str(ADDED_PARAMETERS[HOST_STACK_OPTION])
        recorded_window = meta.get("window")
        if window is not None:
            if not isinstance(recorded_window, dict):
                recorded_window = {}
            recorded = recorded_window.get("warmup_flows"), recorded_window.get("measure_flows")
            if recorded != window:
                raise AnalysisError(f"{meta_path}: window {recorded} but the sweep asks "
                                    f"{window}; another sweep's store")
            asked = {k: v for k, v in asked.items() if k not in (WARMUP_KNOB, MEASURE_KNOB)}
        settings = {key: asked.pop(key) for key in list(asked) if NS3_ATTRIBUTE.fullmatch(key)}
        for key, value in sorted(asked.items()):
            # A point written before a parameter existed ran with its ADDED_PARAMETERS value.
            found = parameters.get(key, ADDED_PARAMETERS.get(key))
            if found is not None and not same_value(found, value):
                raise AnalysisError(f"{meta_path}: parameter {key} is {found!r} but "
                                    f"the sweep asks {value}; another sweep's store")
        check_stored_settings(meta_path, meta, settings)
        stored[meta_path.parent] = (workload, scheme, meta)
    return stored


def check_stored_settings(meta_path: Path, meta: dict, asked: dict[str, str]) -> None:
    """Refuse a store point whose ns-3 settings (meta.json's ns3_settings, but those that change
    no result) are not the ns-3 attributes the sweep sets: unlike an option, which every run
    records, a setting a point was not given is absent, so a point made without the sweep's
    attribute, or by hand with one the sweep does not set, would otherwise pass as this sweep's."""
    if not isinstance(meta.get("ns3_settings", {}), dict):
        raise AnalysisError(f"{meta_path}: not a run's meta.json ('ns3_settings' is not an "
                            "object)")
    recorded = result_settings(meta)
    for key in sorted(set(recorded) | set(asked)):
        if key not in asked:
            raise AnalysisError(f"{meta_path}: ns-3 setting {key} is {recorded[key]!r} but the "
                                "sweep does not set it; another sweep's store")
        if key not in recorded or not same_value(recorded[key], asked[key]):
            found = repr(recorded[key]) if key in recorded else "not set"
            raise AnalysisError(f"{meta_path}: ns-3 setting {key} is {found} but the sweep asks "
                                f"{asked[key]}; another sweep's store")


def program_build(program: Path, options: tuple[str, ...] = ()) -> dict[str, object]:
    """What a program records in meta.json of its build (runs.BUILD_KEYS) and of the numbers
    that no option records (runs.RECORDED_NUMBERS, at their value before they were recorded when
    absent), from a run of one 1,000-byte flow with `options` (a fraction of a second)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="pfabric-build-") as scratch:
        flows, out = Path(scratch) / "flows.csv", Path(scratch) / "run"
        flows.write_text("src,dst,size_bytes,start_s\n0,1,1000,0\n")
        result = run_program([str(program), *options, f"--flowFile={flows}", f"--out={out}",
                            "--quiet"])
        lines = result.stderr.strip().splitlines() or [f"exit status {result.returncode}"]
        if result.returncode != 0 or not (out / compact.META).is_file():
            raise AnalysisError(f"{program}: cannot tell its ns-3 version, a run of one flow "
                                f"failed ({lines[-1]})")
        meta = json.loads((out / compact.META).read_text())
    return {**{key: meta.get(key) for key in BUILD_KEYS},
            **{key: meta.get(key, before) for key, before in RECORDED_NUMBERS.items()}}


def check_store_build(stored: dict[Path, tuple[str, str, dict]], programs: dict[str, Path],
                      spec: SweepSpec) -> None:
    """Refuse to add points made by programs of another build (ns-3 version) than the store's
    points of this sweep (check_store's), or that record another number no option sets (a
    preset's, RECORDED_NUMBERS: LineRate's window), before anything runs: the figures refuse to
    pool such runs, which they would find only after hours of runs. The programs are asked with
    each stored scheme's options and the sweep's knobs (Ideal's points: the programs' default
    scheme, as Ideal records none of these numbers)."""
    builds: dict[tuple[str, str], dict[str, object]] = {}
    for point, (workload, scheme, meta) in stored.items():
        if (workload, scheme) not in builds:
            options = spec.scheme_options(scheme) if scheme in spec.packet_schemes() else ()
            knobs = windowless_options(spec.knobs_of(workload))
            builds[workload, scheme] = program_build(programs[workload], (*options, *knobs))
        for key, value in builds[workload, scheme].items():
            found = meta.get(key, RECORDED_NUMBERS.get(key))
            if found == value:
                continue
            if key in RECORDED_NUMBERS:
                raise AnalysisError(f"{programs[workload]}: {key} {value!r} for {scheme}, but the "
                                    f"store's {point} has {found!r} (made before the preset "
                                    f"changed it, or by hand): not this sweep's point; remove it "
                                    f"from the store to make it again")
            raise AnalysisError(f"{programs[workload]}: {key} {value!r}, but the store's "
                                f"{point} has {found!r}; runs of two builds are not one "
                                f"experiment (--bin-dir: programs of the store's build)")


def report(outcomes: list[Outcome]) -> tuple[str, bool]:
    """A short report and whether every task succeeded."""
    counts = {status: sum(o.status == status for o in outcomes)
              for status in ("done", "skipped", "failed", "blocked", "claimed")}
    lines = [f"sweep: {counts['done']} ran, {counts['skipped']} already finished, "
             f"{counts['failed']} failed, {counts['blocked']} not run (an input failed)"
             + (f", {counts['claimed']} left to another sweep that claimed them"
                if counts["claimed"] else "")]
    for outcome in outcomes:
        if outcome.status == "claimed":
            lines.append(f"  claimed: {outcome.task.name}: by {outcome.error}")
        if outcome.status == "failed":
            first = outcome.error.splitlines()[0] if outcome.error else ""
            lines.append(f"  failed: {outcome.task.name}: {first}")
            lines.extend(f"    {line}" for line in outcome.error.splitlines()[1:])
    return "\n".join(lines), counts["failed"] == 0 and counts["blocked"] == 0
