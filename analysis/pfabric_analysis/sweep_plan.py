"""A sweep's plan: every task of its grid (flow lists, packet runs, Ideal schedules) with its
command, where it writes in the sweep directory and what it needs, and which tasks are finished
(pfabric_analysis.sweep describes the directory)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

from pfabric_analysis import store as compact
from pfabric_analysis.runs import IDEAL_SCHEME, UNFINISHED_MARK, AnalysisError
from pfabric_analysis.sweep_spec import (MAX_BYTES_KNOB, WINDOW_KNOBS, WORKLOADS_DIR, SweepSpec)

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
            if IDEAL_SCHEME in spec.schemes:
                # The program's --idealOnly mode gives the flows' ideal FCTs on the same
                # fabric with the same parameters: no packet run needed.
                name = point_name(workload, IDEAL_SCHEME, load, run)
                tasks.append(Task("ideal", name, sweep_dir / "runs" / name,
                                  (str(program),) + common,
                                  flow_list=flow_list, needs=(flows_name,), store=store,
                                  point=(workload, IDEAL_SCHEME, load, run)))
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
            if IDEAL_SCHEME not in spec.schemes:
                continue
            flows_name = flow_list_name(workload, load, run)
            flow_list = sweep_dir / "flows" / f"{flows_name}.csv"
            list_command = (str(program), "--flowsOnly", f"--dumpFlows={flow_list}") + common + \
                tuple(f"--{k}={v}" for k, v in sorted(window_free.items()))
            list_flows = (IDEAL_LIST_FACTOR_UP_TO if max_bytes else IDEAL_LIST_FACTOR) * \
                (warmup + measure)
            tasks.append(Task("flows", flows_name, flow_list,
                              list_command + (f"--flows={list_flows}",)))
            name = point_name(workload, IDEAL_SCHEME, load, run)
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
                              point=(workload, IDEAL_SCHEME, load, run)))
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


def cdf_mean_bytes(path: Path) -> float:
    """The mean flow size of a workload CDF file, linear between its rows; an estimate (the
    programs round every size up to whole segments) for weighing points before their flow lists
    exist."""
    from pfabric_analysis.ideal import read_cdf

    sizes, cdf = read_cdf(path)
    return float(((cdf[1:] - cdf[:-1]) * (sizes[1:] + sizes[:-1]) / 2).sum())


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
