"""pfabric-analysis figures and figure-table: the paper's Figures 2-4 of a sweep or store, and a
workload's numbers from their figures.csv as the doc's table."""

from __future__ import annotations

import argparse

from pfabric_analysis.commands import Subcommands, print_written
from pfabric_analysis.commands.options import (add_batches_option, add_kb_option,
                                               add_yscale_option)
from pfabric_analysis.runs import read_csv_checked
from pfabric_analysis.sweep_spec import WORKLOADS
from pfabric_analysis.values import PATH


def figures_command(args: argparse.Namespace) -> int:
    """pfabric-analysis figures: Figures 2-4, figures.csv and figures.md."""
    from pfabric_analysis.figures import write_figures

    return print_written(write_figures(args.sweep, args.out or args.sweep / "figures", args.kb,
                                       args.batches, args.yscale, args.large_from,
                                       args.ideal_counts))


def figure_table_command(args: argparse.Namespace) -> int:
    """pfabric-analysis figure-table: the reStructuredText table on stdout."""
    from pfabric_analysis.figures import TABLE_COLUMNS, rst_table

    print(rst_table(read_csv_checked(args.csv, TABLE_COLUMNS), args.workload), end="")
    return 0


def register_figures(sub: Subcommands) -> None:
    """pfabric-analysis figures: Figures 2-4 of a sweep or store."""
    figures = sub.add_parser("figures", help="Figures 2-4 (PNG, PDF), figures.csv and figures.md "
                                             "of a sweep directory of runs or a store of "
                                             "compact points, with 95%% intervals and each "
                                             "point's citable status")
    figures.add_argument("sweep", type=PATH, metavar="SWEEP_DIR",
                         help="a sweep directory, or a store (sweep --store)")
    figures.add_argument("--out", type=PATH, metavar="DIR", help="default SWEEP_DIR/figures")
    figures.add_argument("--large-from", type=PATH, metavar="DIR",
                         help="with steady-state points (--measureMaxBytes): draw their "
                              "largest flows' bin from this sweep or store of runs to completion, "
                              "hollow")
    figures.add_argument("--ideal-counts", type=PATH, metavar="FLOWCOUNT_CSV",
                         help="with --large-from: Ideal's mean of the largest flows at the "
                              "longer counts of this flow-count study (flowcount.csv) beside it")
    add_kb_option(figures)
    add_batches_option(figures)
    add_yscale_option(figures)
    figures.set_defaults(handler=figures_command)


def register_figure_table(sub: Subcommands) -> None:
    """pfabric-analysis figure-table: a workload's numbers as the doc's table."""
    table = sub.add_parser("figure-table", help="a workload's Figure 3 or 4 numbers, from the "
                                                "figures.csv that figures wrote, as the "
                                                "reStructuredText table of doc/results.rst")
    table.add_argument("csv", type=PATH, metavar="FIGURES_CSV")
    table.add_argument("--workload", choices=WORKLOADS, required=True)
    table.set_defaults(handler=figure_table_command)
