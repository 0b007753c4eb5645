"""The sweep and reproduce sub-commands: build the grid from the command line, run it, report, and
(reproduce) draw Figures 2-4."""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Iterable
from pathlib import Path

from pfabric_analysis.programs import built_in_schemes, default_bin_dir, find_program
from pfabric_analysis.runs import IDEAL_SCHEME, AnalysisError
from pfabric_analysis.sweep import report, sweep
from pfabric_analysis.sweep_spec import (
    MEASURE_KNOB,
    SweepSpec,
    parse_flows,
    parse_custom_schemes,
    parse_knobs,
)
from pfabric_analysis.values import LOAD, RUN, parse_list

PAPER_LOADS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
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


def scale_of(args: argparse.Namespace) -> str:
    """The reproduce tier asked for: --size (hidden), --quick, --standard or --full."""
    if getattr(args, "size", None):
        return args.size
    return next(name for name in ("quick", "standard", "full") if getattr(args, name, False))


def paper_schemes(registry: Iterable[str] = ()) -> tuple[str, ...]:
    """The schemes of the paper's figures (the figures' table, plotting.SCHEMES) in the order of
    the programs' registry (their --listSchemes), the others (Ideal) after them; with no registry
    (no programs: a fresh clone whose store holds every point), in the figures' order."""
    from pfabric_analysis.plotting import SCHEMES

    listed = [scheme for scheme in registry if scheme in SCHEMES]
    return (*listed, *(scheme for scheme in SCHEMES if scheme not in listed))


def registry(bin_dir: Path, workloads: Iterable[str]) -> dict[str, bool] | None:
    """The built-in schemes of the first workload's program (programs.built_in_schemes), None
    when there is no program (the sweep says so if it needs one; it checks the schemes against
    every program, sweep_spec.check_schemes, before any runs)."""
    try:
        program = find_program(bin_dir, f"pfabric-{next(iter(workloads))}")
    except AnalysisError:
        return None
    return built_in_schemes(program.resolve())


def tier_schemes(bin_dir: Path, workloads: Iterable[str]) -> tuple[str, ...]:
    """A reproduce tier's schemes: paper_schemes in the order of the programs' registry."""
    return paper_schemes(registry(bin_dir, workloads) or ())


def every_scheme(bin_dir: Path, workloads: Iterable[str]) -> tuple[str, ...]:
    """sweep's --schemes when not given: every built-in scheme of the programs, and Ideal;
    without programs (a sweep whose points are all stored), the paper's (paper_schemes)."""
    built_ins = registry(bin_dir, workloads)
    return paper_schemes() if built_ins is None else (*built_ins, IDEAL_SCHEME)


def tier_spec(scale: str, schemes: tuple[str, ...], scales: dict = SCALES,
              scale_runs: dict = SCALE_RUNS) -> SweepSpec:
    """The sweep of a reproduce tier: every workload, the schemes (tier_schemes) and every
    paper load; a tier whose entry is a window per workload runs with --warmupFlows and
    --measureFlows (refused while a number is still TO_BE_SET)."""
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
    return SweepSpec(tuple(entry), schemes, SMOKE_LOADS if scale == "smoke" else PAPER_LOADS,
                     tuple(range(1, runs + 1)), flows, workload_knobs=workload_knobs)


def spec_from_arguments(args: argparse.Namespace) -> SweepSpec:
    if args.command == "reproduce":
        scale = scale_of(args)
        schemes = tier_schemes(args.bin_dir or default_bin_dir(), SCALES[scale])
        return dataclasses.replace(tier_spec(scale, schemes), host_stack=args.host_stack)
    workloads = parse_list(args.workloads, "--workloads", str)
    schemes = (every_scheme(args.bin_dir or default_bin_dir(), workloads) if args.schemes is None
               else parse_list(args.schemes, "--schemes", str))
    return SweepSpec(workloads, schemes,
                     parse_list(args.loads, "--loads", LOAD), parse_list(args.runs, "--runs", RUN),
                     parse_flows(args.flows, workloads), args.seed, parse_knobs(args.set),
                     custom_schemes=parse_custom_schemes(args.custom_scheme),
                     host_stack=args.host_stack)


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
        from pfabric_analysis.until_citable import until_citable

        ok = until_citable(spec, out, args.bin_dir or default_bin_dir(), args)
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
