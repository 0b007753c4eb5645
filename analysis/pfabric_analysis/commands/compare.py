"""pfabric-analysis cdf and compare: several runs on one figure (their CDFs) or side by side
(a table and a figure against the first)."""

from __future__ import annotations

import argparse

from pfabric_analysis.commands import Subcommands, print_written
from pfabric_analysis.commands.options import add_kb_option, add_output_options
from pfabric_analysis.commands.versions import versions
from pfabric_analysis.runs import BIN_NAMES
from pfabric_analysis.values import PATH


def cdf_command(args: argparse.Namespace) -> int:
    """pfabric-analysis cdf: cdf.png/.pdf/.csv/.json of the runs."""
    from pfabric_analysis import compare

    return print_written(compare.write_cdf(args.runs, args.out, labels=args.labels,
                                           bins=args.bins, kb=args.kb,
                                           command=args.command_line, versions=versions()))


def compare_command(args: argparse.Namespace) -> int:
    """pfabric-analysis compare: compare.csv/.md/.png/.pdf/.json of the runs."""
    from pfabric_analysis import compare

    return print_written(compare.write_compare(
        args.runs, args.out, labels=args.labels,
        allow_different_flows=args.allow_different_flows, kb=args.kb,
        command=args.command_line, versions=versions()))


def register_cdf(sub: Subcommands) -> None:
    """pfabric-analysis cdf: the CDFs of several runs on one figure."""
    cdf = sub.add_parser("cdf", help="the CDF of FCT / ideal FCT per size bin of several runs on "
                                     "one figure (PNG, PDF, cdf.csv, cdf.json)")
    cdf.add_argument("runs", nargs="+", type=PATH, metavar="RUN_DIR")
    add_output_options(cdf, "cdf.png/.pdf/.csv/.json")
    cdf.add_argument("--labels", metavar="A,B,...",
                     help="legend labels, one per RUN_DIR (default: each run's scheme)")
    cdf.add_argument("--bins", default="small,medium,large,all", metavar="BIN,...",
                     help=f"panels, of small {BIN_NAMES[0]}, medium {BIN_NAMES[1]}, large "
                          f"{BIN_NAMES[2]} and all (default all four)")
    add_kb_option(cdf)
    cdf.set_defaults(handler=cdf_command)


def register_compare(sub: Subcommands) -> None:
    """pfabric-analysis compare: runs side by side against the first."""
    compare = sub.add_parser("compare", help="runs side by side (the first the baseline): "
                                             "statistics per size bin as a table and a figure")
    compare.add_argument("runs", nargs="+", type=PATH, metavar="RUN_DIR")
    add_output_options(compare, "compare.csv/.md/.png/.pdf/.json")
    compare.add_argument("--labels", metavar="A,B,...",
                         help="labels, one per RUN_DIR (default: each run's scheme)")
    compare.add_argument("--allow-different-flows", action="store_true",
                         help="compare runs whose flows (src, dst, size, start) are not the "
                              "baseline's; the table says so")
    add_kb_option(compare)
    compare.set_defaults(handler=compare_command)
