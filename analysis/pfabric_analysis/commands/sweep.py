"""pfabric-analysis sweep and reproduce: a grid of experiments from the command line, or a
reproduce tier's (pfabric_analysis.reproduce), run and reported."""

from __future__ import annotations

import argparse

from pfabric_analysis.commands import Subcommands
from pfabric_analysis.commands.options import (add_batches_option, add_sweep_options,
                                               add_yscale_option)
from pfabric_analysis.values import SEED


def sweep_command(args: argparse.Namespace) -> int:
    """pfabric-analysis sweep or reproduce: pfabric_analysis.reproduce.main."""
    from pfabric_analysis import reproduce

    return reproduce.main(args)


def register_sweep(sub: Subcommands) -> None:
    """pfabric-analysis sweep: a grid of experiments, resumable."""
    grid = sub.add_parser("sweep", help="run a grid of experiments (local processes or Dask), "
                                        "resumable, one run directory per point")
    add_sweep_options(grid, required_out=True)
    grid.add_argument("--workloads", default="websearch",
                      help="comma-separated: websearch, datamining (default websearch)")
    grid.add_argument("--schemes",
                      help="comma-separated: the programs' schemes (their --listSchemes), ideal "
                           "and the labels of --custom-scheme (default: every built-in scheme "
                           "of the programs, and ideal)")
    grid.add_argument("--loads", default="0.5", help="comma-separated loads (default 0.5)")
    grid.add_argument("--runs", default="1", help="comma-separated run numbers (default 1)")
    grid.add_argument("--flows", default="1000",
                      help="flows per point: N, or websearch=N,datamining=M (default 1000)")
    grid.add_argument("--seed", type=SEED, default=1)
    grid.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                      help="any other option of the programs, by its camelCase name, e.g. --set "
                           "preset=sigcomm13 or --set reuseConnections=0, or an ns-3 attribute "
                           "by its path, e.g. --set "
                           "ns3::PfabricLineRateTcpSocket::Window=24 (repeatable)")
    grid.add_argument("--custom-scheme", action="append", default=[],
                      metavar="LABEL:KEY=VALUE",
                      help="a custom scheme of --schemes (the programs' --scheme=custom, ns-3 "
                           "parts by name) and one of its options, e.g. --custom-scheme "
                           "fqcodel-cubic:portQueueDisc=ns3::FqCoDelQueueDisc (repeatable); only "
                           "its points get them, with --schemeLabel=LABEL")
    grid.set_defaults(handler=sweep_command)


def register_reproduce(sub: Subcommands) -> None:
    """pfabric-analysis reproduce: the paper's Figures 2-4, from a tier's sweep."""
    again = sub.add_parser("reproduce", help="the paper's Figures 2-4: both workloads, all five "
                                             "schemes, loads 0.1 to 0.8, then the figures")
    size = again.add_mutually_exclusive_group(required=True)
    size.add_argument("--quick", action="store_true", help="one short run per point (flows: "
                      "pfabric_analysis.reproduce.SCALES): minutes, not citable")
    size.add_argument("--standard", action="store_true",
                      help="the citable tier: several runs per point, intervals from the "
                           "replications (runs and flows: pfabric_analysis.reproduce.SCALES; "
                           "doc, 'The standard tier')")
    size.add_argument("--full", action="store_true", help="the paper's 100,000 flows per point "
                                                          "(a cluster: --scheduler)")
    add_sweep_options(again, required_out=False)
    add_batches_option(again)
    add_yscale_option(again)
    again.add_argument("--size", choices=("smoke",), help=argparse.SUPPRESS)  # the doc test's
    again.set_defaults(handler=sweep_command)
