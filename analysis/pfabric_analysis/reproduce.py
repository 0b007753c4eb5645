"""The sweep and reproduce sub-commands: build the grid from the command line, run it, report, and
(reproduce) draw Figures 2-4."""

from __future__ import annotations

import argparse
import itertools
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

import pandas as pd

from pfabric_analysis import intervals
from pfabric_analysis.runs import AnalysisError
from pfabric_analysis.sweep import (
    MEASURE_KNOB,
    PACKET_SCHEMES,
    SweepSpec,
    parse_flows,
    parse_custom_schemes,
    parse_knobs,
    report,
    sweep,
)
from pfabric_analysis.values import LOAD, RUN, parse_list

MODULE_ROOT = Path(__file__).resolve().parents[2]
PAPER_LOADS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
ALL_SCHEMES = PACKET_SCHEMES + ("ideal",)
# Flows per point. quick: a test of the whole pipeline, minutes of processor time (doc, "Figures
# 2-4: the quick reproduction against the paper"); with seed 1 flows 81-100 of every data mining
# list include a 1.45 GB flow that alone would more than double the sweep. full: the paper's scale.
# smoke (hidden --size smoke): the README's reproduce command run in seconds by
# test/python/test_doc_commands.py, every workload, scheme and step, two loads.
# standard (issue 29): the citable tier, STANDARD runs of 10,000 flows per point, no window,
# intervals from the replications. 10,000 data mining flows are the most one run (which cannot be
# split) holds in a 3-hour session on the slower AMD VMs; the window would multiply a run's cost
# at high load for rule (a)'s statistics, which it moves by about 1% (doc, "The standard tier").
# A tier may instead give a window per workload, {warmupFlows: W, measureFlows: N} (the
# programs' --warmupFlows and --measureFlows); a number still TO_BE_SET makes it refuse to run.
TO_BE_SET = None
SCALES: dict[str, dict[str, object]] = {
    "quick": {"websearch": 400, "datamining": 80},
    "full": {"websearch": 100_000, "datamining": 100_000},
    "smoke": {"websearch": 6, "datamining": 2},
    # Data mining first: Figure 3's points are the ones missing.
    "standard": {"datamining": 10_000, "websearch": 10_000},
}
# Replications (run numbers 1..R) per point of a tier; 1 where not given. Five: from the run-to-run
# spread measured at 10,000 flows, t(0.975, 4) = 2.78 over five runs puts rule (a)'s statistics
# within 3% for pFabric and most TCP points (doc, "The standard tier"); a point that misses
# takes more runs with `sweep --runs 6,...` into the same store (figures.md says about how many).
SCALE_RUNS: dict[str, int | None] = {"standard": 5}
SMOKE_LOADS = (0.1, 0.8)


def default_bin_dir() -> Path:
    build = os.environ.get("PFABRIC_BUILD_DIR")
    return Path(build) / "bin" if build else MODULE_ROOT / "build" / "bin"


def scale_of(args: argparse.Namespace) -> str:
    """The reproduce tier asked for: --size (hidden), --quick, --standard or --full."""
    if getattr(args, "size", None):
        return args.size
    return next(name for name in ("quick", "standard", "full") if getattr(args, name, False))


def tier_spec(scale: str, scales: dict = SCALES, scale_runs: dict = SCALE_RUNS) -> SweepSpec:
    """The sweep of a reproduce tier: every workload, scheme and paper load; a tier whose entry
    is a window per workload runs with --warmupFlows and --measureFlows (refused while a number
    is still TO_BE_SET)."""
    entry = scales[scale]
    runs = scale_runs.get(scale, 1)
    windows = {w: value for w, value in entry.items() if isinstance(value, dict)}
    unset = [f"{w}.{key}" for w, window in windows.items() for key, value in window.items()
             if value is TO_BE_SET] + (["runs"] if runs is TO_BE_SET else [])
    if unset:
        raise AnalysisError(f"reproduce --{scale}: the tier's numbers are not set yet "
                            f"({', '.join(unset)} in pfabric_analysis.reproduce.SCALES and "
                            "SCALE_RUNS, from the convergence study with the window)")
    flows = tuple((w, int(value[MEASURE_KNOB]) if w in windows else int(value))
                  for w, value in entry.items())
    workload_knobs = tuple((w, tuple(sorted((key, str(int(value))) for key, value
                                            in window.items()))) for w, window in windows.items())
    return SweepSpec(tuple(entry), ALL_SCHEMES, SMOKE_LOADS if scale == "smoke" else PAPER_LOADS,
                     tuple(range(1, runs + 1)), flows, workload_knobs=workload_knobs)


def spec_from_arguments(args: argparse.Namespace) -> SweepSpec:
    if args.command == "reproduce":
        return tier_spec(scale_of(args))
    workloads = parse_list(args.workloads, "--workloads", str)
    return SweepSpec(workloads, parse_list(args.schemes, "--schemes", str),
                     parse_list(args.loads, "--loads", LOAD), parse_list(args.runs, "--runs", RUN),
                     parse_flows(args.flows, workloads), args.seed, parse_knobs(args.set),
                     custom_schemes=parse_custom_schemes(args.custom_scheme))


@dataclass(frozen=True)
class MoreRuns:
    """Runs to add to points of one workload and scheme that miss rule (a)."""

    workload: str
    scheme: str
    loads: tuple[float, ...]
    runs: tuple[int, ...]


def run_numbers(run_dirs: str) -> set[int]:
    """The run numbers of a point's runs (figures.csv's run_dirs: names ending in -run<R>)."""
    return {int(found[1]) for name in run_dirs.split(";")
            if (found := re.search(r"-run(\d+)$", name)) is not None}


def more_runs(table: pd.DataFrame, spec: SweepSpec,
              most: int) -> tuple[list[MoreRuns], list[str]]:
    """The points of the grid that miss rule (a) and, by intervals.runs_for_rule (the spread of
    their runs so far), would meet it within `most` runs in all: the run numbers to add (the
    lowest not yet run), grouped by workload, scheme and those runs. A round at most doubles a
    point's runs, since an estimate from a few runs is itself rough (t(0.975, 2) is 4.3), and
    adds one where the estimate is already met (a point just over 3%). And a line for each point
    left as it is, its estimate past `most` or undefined."""
    grid = {(w, s, load) for w in spec.workloads for s in spec.schemes for load in spec.loads}
    wanted: dict[tuple[str, str, tuple[int, ...]], list[float]] = {}
    left = []
    rows = table[table["figure"] != "fig2"]
    for (workload, scheme, load), point in rows.groupby(["workload", "scheme", "load"],
                                                        sort=False):
        first = point.iloc[0]
        if (workload, scheme, load) not in grid or first["citable"]:
            continue
        keyed = point.set_index(["bin", "statistic"])
        needed = []
        for name in first["not_citable"].split(";"):
            row = keyed.loc[tuple(name.rsplit(" ", 1))]
            needed.append(intervals.runs_for_rule(row["ci_relative"], int(row["batches"]),
                                                  int(first["runs"])))
        known = [runs for runs in needed if runs is not None]
        if len(known) < len(needed) or max(known) > most:
            estimate = f"about {max(known)}" if len(known) == len(needed) else "no estimate"
            left.append(f"{workload} {first['label']} at load {load:g}: {first['not_citable']} "
                        f"not within 3% by {most} runs ({estimate})")
            continue
        present = run_numbers(first["run_dirs"])
        count = min(max(max(known) - len(present), 1), len(present))
        free = (number for number in itertools.count(1) if number not in present)
        runs = tuple(itertools.islice(free, min(count, most - len(present))))
        if runs:
            wanted.setdefault((workload, scheme, runs), []).append(float(load))
        else:
            left.append(f"{workload} {first['label']} at load {load:g}: {first['not_citable']} "
                        f"not within 3% by {most} runs")
    return [MoreRuns(w, s, tuple(loads), runs) for (w, s, runs), loads in wanted.items()], left


def spans(numbers: tuple[int, ...]) -> str:
    """Run numbers as spans: (4, 5, 6, 9) is '4-6,9'."""
    parts: list[list[int]] = []
    for number in numbers:
        if parts and number == parts[-1][-1] + 1:
            parts[-1].append(number)
        else:
            parts.append([number])
    return ",".join(f"{part[0]}-{part[-1]}" if len(part) > 1 else f"{part[0]}" for part in parts)


def until_citable(spec: SweepSpec, out: Path, args: argparse.Namespace) -> bool:
    """--until-citable: rounds of more_runs, each point's added runs a sweep of its own (under
    SWEEP_DIR/more/) into the store, until no point of the grid wants more; False when a point
    failed (the report says which; the same command resumes)."""
    from pfabric_analysis.figures import load_sweep

    batches = getattr(args, "batches", intervals.DEFAULT_BATCHES)
    for round_number in itertools.count(1):
        wanted, left = more_runs(load_sweep(args.store, batches=batches), spec,
                                 args.until_citable)
        if not wanted:
            print("until-citable: " + ("every point of the grid is citable" if not left else
                                       f"{len(left)} point(s) left as they are:"))
            for line in left:
                print(f"  {line}")
            return True
        print(f"until-citable: round {round_number}, more runs for " + "; ".join(
            f"{more.workload} {more.scheme} at {','.join(f'{load:g}' for load in more.loads)}: "
            f"runs {spans(more.runs)}" for more in wanted))
        ran = 0
        for more in wanted:
            part = replace(spec, workloads=(more.workload,), schemes=(more.scheme,),
                           loads=more.loads, runs=more.runs,
                           flows=((more.workload, spec.flows_of(more.workload)),))
            # named by its whole grid: a sweep directory refuses another grid
            where = out / "more" / (f"{more.workload}-{more.scheme}-load"
                                    f"{'_'.join(f'{load:g}' for load in more.loads)}-runs"
                                    f"{spans(more.runs).replace(',', '_')}")
            outcomes = sweep(part, where, args.bin_dir or default_bin_dir(), args.jobs,
                             args.scheduler, progress=not args.quiet, store=args.store)
            text, ok = report(outcomes)
            print(text)
            if not ok:
                return False
            ran += sum(o.status == "done" and o.task.kind != "flows" for o in outcomes)
        if ran == 0:
            # every run asked for is another sweep's (claimed): planning again from the same
            # store would ask for the same runs
            print("until-citable: the runs this round asked for are another sweep's; give the "
                  "same command again when it has ended")
            return True
    return False  # not reached: every round adds runs, and a point stops at MAX_RUNS


def main(args: argparse.Namespace) -> int:
    spec = spec_from_arguments(args)
    out = args.out
    if out is None:
        out = Path("results") / f"reproduce-{scale_of(args)}"
    if args.until_citable is not None and args.store is None:
        raise AnalysisError("--until-citable: needs --store (the runs it adds are pooled with "
                            "the grid's from the store)")
    outcomes = sweep(spec, out, args.bin_dir or default_bin_dir(), args.jobs, args.scheduler,
                     progress=not args.quiet, store=args.store)
    text, ok = report(outcomes)
    print(text)
    if ok and args.until_citable is not None:
        ok = until_citable(spec, out, args)
    if args.command == "reproduce":
        from pfabric_analysis.figures import write_figures

        if not ok:
            print(f"reproduce: no figures while points are missing; re-run to resume {out}")
            return 1
        # With a store, the figures are drawn from it: the committed data alone, as a fresh
        # clone would draw them.
        for path in write_figures(args.store or out, out / "figures", batches=args.batches,
                                  yscale=args.yscale):
            print(f"wrote {path}")
    return 0 if ok else 1
