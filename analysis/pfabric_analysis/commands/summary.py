"""pfabric-analysis summarize and steady: the statistics of runs printed as a table (and
optionally written as CSV), pooled as replications of one point."""

from __future__ import annotations

import argparse

from pfabric_analysis.commands import Subcommands
from pfabric_analysis.commands.options import add_kb_option
from pfabric_analysis.runs import AnalysisError, check_poolable, read_run, summarize
from pfabric_analysis.steady import BATCHES as STEADY_BATCHES
from pfabric_analysis.steady import BLOCK_FLOWS as STEADY_BLOCK_FLOWS
from pfabric_analysis.values import COUNT, PATH


def summarize_command(args: argparse.Namespace) -> int:
    """pfabric-analysis summarize: the runs pooled; with --blocks, one run in arrival order."""
    if args.blocks and len(args.runs) != 1:
        raise AnalysisError(f"--blocks {args.blocks}: expected one RUN_DIR")
    runs = [read_run(directory) for directory in args.runs]
    check_poolable(runs)
    import pandas as pd

    table = summarize(pd.concat([run.fct for run in runs], ignore_index=True), kb=args.kb)
    print(f"FCT / ideal FCT of {len(runs)} run(s) (KB = {args.kb} B)")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    if args.blocks:
        from pfabric_analysis.intervals import arrival_blocks

        blocks = arrival_blocks(runs[0].fct, args.blocks, args.kb)
        print(f"\nIn arrival order, {args.blocks} blocks (in progress: at the block's last "
              "arrival)")
        print(blocks.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    if args.csv:
        from pfabric_analysis.files import write_file

        write_file(args.csv, table.to_csv(index=False))
    return 0



def steady_command(args: argparse.Namespace) -> int:
    """pfabric-analysis steady: one point's runs, pooled."""
    from pfabric_analysis import steady

    runs = [read_run(directory) for directory in args.runs]
    check_poolable(runs)
    table = steady.steady_point([run.fct for run in runs], args.block, args.batches, args.kb)
    warmup = int(table["warmup_flows"].iloc[0])
    found = bool(table["warmup_found"].iloc[0])
    print(f"steady state of {len(runs)} run(s): warm-up {warmup} flows "
          f"({'found' if found else 'NOT found: still moving at the end of the search'}; "
          f"MSER over blocks of {args.block} flows), then {args.batches} batches per run "
          f"(KB = {args.kb} B)")
    print(table.drop(columns=["warmup_flows", "warmup_found"])
          .to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    failures = steady.citable(table)
    print("citable" if not failures else f"not citable: {'; '.join(failures)}")
    if args.csv:
        from pfabric_analysis.files import write_file

        write_file(args.csv, table.to_csv(index=False))
    return 0



def register_summarize(sub: Subcommands) -> None:
    """pfabric-analysis summarize: FCT / ideal FCT per size bin of runs, pooled."""
    summary = sub.add_parser("summarize", help="FCT / ideal FCT per size bin of run directories "
                                              "(several: replications, pooled)")
    summary.add_argument("runs", nargs="+", type=PATH, metavar="RUN_DIR")
    add_kb_option(summary)
    summary.add_argument("--csv", type=PATH, help="also write the table to this CSV file")
    summary.add_argument("--blocks", type=COUNT, default=0, metavar="B",
                         help="one run: also its flows in arrival order in B blocks, each "
                              "block's statistics and the flows in progress at its last "
                              "arrival (is the run at steady state?)")
    summary.set_defaults(handler=summarize_command)


def register_steady(sub: Subcommands) -> None:
    """pfabric-analysis steady: a point's steady-state statistics."""
    steady = sub.add_parser("steady", help="a point's steady-state statistics from its runs "
                                           "(replications, windowed): the warm-up by MSER, "
                                           "rule (a)'s statistics after it with batch-means "
                                           "intervals, and the bias check")
    steady.add_argument("runs", nargs="+", type=PATH, metavar="RUN_DIR")
    add_kb_option(steady)
    steady.add_argument("--block", type=COUNT, default=STEADY_BLOCK_FLOWS, metavar="FLOWS",
                        help="flows per block of the warm-up's trajectory (default "
                             f"{STEADY_BLOCK_FLOWS})")
    steady.add_argument("--batches", type=COUNT, default=STEADY_BATCHES, metavar="B",
                        help="batches per run of the intervals after the warm-up (default "
                             f"{STEADY_BATCHES})")
    steady.add_argument("--csv", type=PATH, help="also write the table to this CSV file")
    steady.set_defaults(handler=steady_command)
