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

This module runs (or resumes) a sweep and reports it; its parts are the spec (sweep_spec: the grid
and knobs, checked), the plan (sweep_plan: the tasks), the execution (sweep_execute: running them,
locally or on Dask) and the store checks (sweep_checks).
"""


from __future__ import annotations

import json
import os
from pathlib import Path

from pfabric_analysis import store as compact
from pfabric_analysis.lock import sweep_lock
from pfabric_analysis.programs import built_in_schemes, find_program
from pfabric_analysis.runs import CUSTOM_SCHEME, AnalysisError, key_name
from pfabric_analysis.sweep_checks import check_store, check_store_build
from pfabric_analysis.sweep_execute import (Outcome, Progress, connect, run_dask, run_local,
                                            store_finished)
from pfabric_analysis.sweep_plan import expected_bytes, is_finished, needed, plan
from pfabric_analysis.sweep_spec import SweepSpec, check_knobs, check_schemes, check_spec


def prepare_directory(spec: SweepSpec, sweep_dir: Path) -> None:
    """Create the sweep directory, or check that an existing one holds the same sweep."""
    spec_path = sweep_dir / "sweep.json"
    wanted = spec.as_json()
    if spec_path.is_file():
        try:
            found = json.loads(spec_path.read_text())
        except ValueError as error:  # JSONDecodeError, UnicodeDecodeError, an int past 4300 digits
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
            check_schemes(spec, built_in_schemes(program))
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
