"""pfabric-analysis flow-count: how many flows a point needs (pfabric_analysis.flowcount)."""

from __future__ import annotations

import argparse
import os

from pfabric_analysis.commands import Subcommands
from pfabric_analysis.commands.options import add_output_options
from pfabric_analysis.flowcount import WINDOW_WARMUPS
from pfabric_analysis.values import FRACTION, PATH, POSITIVE, SECONDS, SEED


def flow_count_command(args: argparse.Namespace) -> int:
    """pfabric-analysis flow-count: pfabric_analysis.flowcount.main."""
    from pfabric_analysis import flowcount

    return flowcount.main(args)


def register(sub: Subcommands) -> None:
    """pfabric-analysis flow-count: how many flows a point needs."""
    count = sub.add_parser("flow-count", help="how many flows a point needs: the Ideal scheme's "
                                              "statistics for growing flow counts against the "
                                              "largest, over several runs")
    add_output_options(count, "flowcount.csv/.md/.json")
    count.add_argument("--workloads", default="websearch,datamining",
                       help="comma-separated (default websearch,datamining)")
    count.add_argument("--loads", default="0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8",
                       help="comma-separated (default the paper's 0.1 to 0.8)")
    count.add_argument("--runs", default="1,2,3,4,5",
                       help="run numbers, independent flow lists (default 1 to 5)")
    count.add_argument("--counts", help="comma-separated flow counts; the largest is the "
                                        "reference (default 1000, 2000, 5000, ... 100000)")
    count.add_argument("--preset", default="hotnets12", help="fabric (default hotnets12)")
    count.add_argument("--seed", type=SEED, default=1)
    count.add_argument("--tolerance", type=FRACTION,
                       help="largest relative error a sufficient count allows (default 0.03)")
    count.add_argument("--cost", type=PATH, action="append", default=[], metavar="RUN_DIR",
                       help="a finished packet run of a workload on the same preset: its hops "
                            "per byte and seconds per hop price each count (repeatable)")
    count.add_argument("--seconds-per-hop", type=SECONDS, metavar="S",
                       help="price every --cost run's hops at S seconds each instead of its own "
                            "(a run's cost per hop grows with its length: price with a long run's)")
    count.add_argument("--window", action="store_true",
                       help="measure a count N as flows W .. W+N-1 of a longer list while its "
                            "arrivals go on (the programs' --warmupFlows/--measureFlows), and "
                            "report the flows each count simulates")
    count.add_argument("--warmup", metavar="W,...",
                       help="with --window: comma-separated warm-ups in flows, each studied "
                            "with its own reference (default "
                            f"{','.join(map(str, WINDOW_WARMUPS))})")
    count.add_argument("-j", "--jobs", type=POSITIVE, default=os.cpu_count() or 1,
                       help="processes at once (default: one per core)")
    count.add_argument("--bin-dir", type=PATH,
                       help="where pfabric-websearch/-datamining are (default: $PFABRIC_BUILD_DIR"
                            "/bin, else build/bin of the module)")
    count.set_defaults(handler=flow_count_command)
