"""The sweep and reproduce sub-commands: build the grid from the command line, run it, report, and
(reproduce) draw Figures 2-4."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from pfabric_analysis.runs import AnalysisError
from pfabric_analysis.sweep import (
    PACKET_SCHEMES,
    SweepSpec,
    parse_flows,
    parse_knobs,
    report,
    sweep,
)

MODULE_ROOT = Path(__file__).resolve().parents[2]
PAPER_LOADS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
ALL_SCHEMES = PACKET_SCHEMES + ("ideal",)
# Flows per point. quick: about 30 minutes on 2 cores with the standalone (ns-3 3.44 wheel) build;
# with seed 1 flows 81-100 of every data mining list include a 1.45 GB flow that alone would more
# than double the sweep. full: the paper's scale.
# smoke (hidden --size smoke): the README's reproduce command run in seconds by
# test/python/test_doc_commands.py, every workload, scheme and step, two loads.
SCALES = {
    "quick": {"websearch": 400, "datamining": 80},
    "full": {"websearch": 100_000, "datamining": 100_000},
    "smoke": {"websearch": 6, "datamining": 2},
}
SMOKE_LOADS = (0.1, 0.8)


def default_bin_dir() -> Path:
    build = os.environ.get("PFABRIC_BUILD_DIR")
    return Path(build) / "bin" if build else MODULE_ROOT / "build" / "bin"


def split(text: str, label: str, kind: type) -> tuple:
    try:
        values = tuple(kind(item) for item in text.split(",") if item.strip())
    except ValueError as error:
        raise AnalysisError(f"{label} {text}: expected comma-separated "
                            f"{'numbers' if kind is float else 'integers' if kind is int else 'names'}"
                            ) from error
    return values


def spec_from_arguments(args: argparse.Namespace) -> SweepSpec:
    if args.command == "reproduce":
        scale = getattr(args, "size", None) or ("quick" if args.quick else "full")
        workloads = tuple(SCALES[scale])
        return SweepSpec(workloads, ALL_SCHEMES, SMOKE_LOADS if scale == "smoke" else PAPER_LOADS,
                         (1,), tuple(SCALES[scale].items()))
    workloads = split(args.workloads, "--workloads", str)
    return SweepSpec(workloads, split(args.schemes, "--schemes", str),
                     split(args.loads, "--loads", float), split(args.runs, "--runs", int),
                     parse_flows(args.flows, workloads), args.seed, parse_knobs(args.set))


def main(args: argparse.Namespace) -> int:
    spec = spec_from_arguments(args)
    out = args.out
    if out is None:
        out = Path("results") / f"reproduce-{'quick' if args.quick else 'full'}"
    outcomes = sweep(spec, out, args.bin_dir or default_bin_dir(), args.jobs, args.scheduler,
                     progress=not args.quiet)
    text, ok = report(outcomes)
    print(text)
    if args.command == "reproduce":
        from pfabric_analysis.figures import write_figures

        if not ok:
            print(f"reproduce: no figures while points are missing; re-run to resume {out}")
            return 1
        for path in write_figures(out, out / "figures"):
            print(f"wrote {path}")
    return 0 if ok else 1
