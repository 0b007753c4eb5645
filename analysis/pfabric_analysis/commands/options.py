"""The options several sub-commands share, each defined once here (where sweeps run and write,
the output directory and stem, the size bins' KB, the figures' intervals and y axis)."""

from __future__ import annotations

import argparse
import os

from pfabric_analysis.values import PATH, POSITIVE, REPLICATIONS


def add_sweep_options(parser: argparse.ArgumentParser, required_out: bool) -> None:
    """Where a sweep runs and writes: shared by sweep and reproduce."""
    parser.add_argument("--out", type=PATH, required=required_out, metavar="SWEEP_DIR",
                        help="sweep directory (a re-run resumes it)"
                             + ("" if required_out else
                                "; default results/reproduce-quick|standard|full"))
    parser.add_argument("-j", "--jobs", type=POSITIVE, default=os.cpu_count() or 1,
                        help="local processes at once (default: one per core)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run on this Dask distributed scheduler (tcp://host:8786) instead")
    parser.add_argument("--bin-dir", type=PATH,
                        help="where pfabric-websearch/-datamining are (default: $PFABRIC_BUILD_DIR"
                             "/bin, else build/bin of the module)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--host-stack", metavar="STACK",
                        help="the packet schemes' host stack, the programs' --hostStack (ns3tcp: "
                             "ns-3's TCP/IP, the programs' default; lean: the lean host, doc 'The "
                             "lean host'); recorded in each run's meta.json, and runs of two "
                             "stacks never pool")
    parser.add_argument("--store", type=PATH, metavar="STORE_DIR",
                        help="also write every finished point there, compact (fct.columns.xz of its "
                             "measured flows, meta.json), to commit; a point there is finished, "
                             "so a sweep resumes from a store alone (a fresh clone)")
    parser.add_argument("--until-citable", type=REPLICATIONS, metavar="MAX_RUNS",
                        help="with --store: after the grid, add runs to each point that misses "
                             "rule (a) (a statistic's 95%% interval wider than 3%%), as many as "
                             "the spread of its runs says it needs, round after round, until it "
                             "is citable or would need more than MAX_RUNS runs in all")


def add_output_options(parser: argparse.ArgumentParser,
                       files: str = "NAME.png/.pdf/.csv/.md/.json", name: str | None = None) -> None:
    """--out DIR, where a command writes its files, and for a command given a default stem
    `name`, --name, the files' stem: the one definition of the pair."""
    parser.add_argument("--out", type=PATH, required=True, metavar="DIR",
                        help=f"where {files} go")
    if name is not None:
        parser.add_argument("--name", default=name,
                            help=f"the output files' stem (default {name})")


def add_kb_option(parser: argparse.ArgumentParser) -> None:
    """--kb: the size bins' unit, for every command that bins flows by size."""
    parser.add_argument("--kb", type=POSITIVE, choices=(1000, 1024), default=1000,
                        help="bytes per KB of the size bins (default 1000)")


def add_batches_option(parser: argparse.ArgumentParser) -> None:
    """--batches: batches per run of the figures' 95% intervals (1: replications)."""
    from pfabric_analysis.intervals import DEFAULT_BATCHES

    parser.add_argument("--batches", type=POSITIVE, default=DEFAULT_BATCHES, metavar="B",
                        help="batches per run behind each 95%% interval: 1 (default "
                             f"{DEFAULT_BATCHES}), independent replications, one value per run; "
                             "more, batch means over each run's measured flows in flow id order "
                             "(for runs at steady state)")


def add_yscale_option(parser: argparse.ArgumentParser) -> None:
    """--yscale: the figures' y axis."""
    from pfabric_analysis.scales import DEFAULT_Y_SCALE, Y_SCALES

    parser.add_argument("--yscale", choices=Y_SCALES, default=DEFAULT_Y_SCALE,
                        help=f"the panels' y axis (default {DEFAULT_Y_SCALE}: the baselines are "
                             "up to 40x above ideal, pFabric a few %% above it)")
