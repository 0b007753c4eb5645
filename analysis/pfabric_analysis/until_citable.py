"""--until-citable (sweep and reproduce): after the grid, more runs for each point that misses
rule (a), as many as the spread of its runs asks for, round by round, into the store."""

from __future__ import annotations

import argparse
import itertools
from dataclasses import dataclass, replace
from pathlib import Path

import pandas as pd

from pfabric_analysis import intervals
from pfabric_analysis.sweep import report, sweep
from pfabric_analysis.sweep_plan import point_name
from pfabric_analysis.sweep_spec import SweepSpec


@dataclass(frozen=True)
class MoreRuns:
    """Runs to add to points of one workload and scheme that miss rule (a)."""

    workload: str
    scheme: str
    loads: tuple[float, ...]
    runs: tuple[int, ...]


def run_numbers(run_dirs: str, workload: str, scheme: str, load: float) -> set[int]:
    """The run numbers of a point's runs (figures.csv's run_dirs, named by sweep_plan.point_name)."""
    prefix = point_name(workload, scheme, load, 0).removesuffix("0")
    return {int(name[len(prefix):]) for name in run_dirs.split(";")
            if name.startswith(prefix) and name[len(prefix):].isdigit()}


def more_runs(table: pd.DataFrame, spec: SweepSpec,
              most: int) -> tuple[list[MoreRuns], list[str]]:
    """The points of the grid that miss rule (a) and, by intervals.runs_for_rule (the spread of
    their runs so far), would meet it within `most` runs in all: the run numbers to add (the
    lowest not yet run), grouped by workload, scheme and those runs. A round at most doubles a
    point's runs, since an estimate from a few runs is itself rough (t(0.975, 2) is 4.3), and
    adds one where the estimate is already met (a point just over 3%) and a second to a point of
    one run, which has no spread yet. And a line for each point left as it is, its estimate past
    `most` or undefined."""
    from pfabric_analysis.figures import runs_estimate, runs_needed

    grid = {(w, s, load) for w in spec.workloads for s in spec.schemes for load in spec.loads}
    wanted: dict[tuple[str, str, tuple[int, ...]], list[float]] = {}
    left = []
    rows = table[table["figure"] != "fig2"]
    for (workload, scheme, load), point in rows.groupby(["workload", "scheme", "load"],
                                                        sort=False):
        first = point.iloc[0]
        if (workload, scheme, load) not in grid or first["citable"]:
            continue
        missed = " and ".join(str(first["not_citable"]).split(";"))
        stays = (f"{workload} {first['label']} at load {load:g}: {missed} not within 3% by "
                 f"{most} runs")
        needed = runs_needed(point)
        present = run_numbers(first["run_dirs"], workload, scheme, load)
        single = len(present) == 1 and int(first["batches"]) < 2
        if not single and (needed is None or needed > most):
            left.append(f"{stays} ({runs_estimate(point) or 'no estimate'})")
            continue
        # one run (replications) has no spread yet: a second gives the estimate
        count = 1 if single or needed is None else min(max(needed - len(present), 1),
                                                       len(present))
        free = (number for number in itertools.count(1) if number not in present)
        runs = tuple(itertools.islice(free, min(count, most - len(present))))
        if runs:
            wanted.setdefault((workload, scheme, runs), []).append(float(load))
        else:
            left.append(stays)
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


def until_citable(spec: SweepSpec, out: Path, bin_dir: Path, args: argparse.Namespace) -> bool:
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
            outcomes = sweep(part, where, bin_dir, args.jobs,
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
