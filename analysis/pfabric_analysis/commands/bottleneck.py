"""pfabric-analysis bottleneck: all flows into one host of a star against queueing theory
(pfabric_analysis.bottleneck)."""

from __future__ import annotations

import argparse

from pfabric_analysis.commands import Subcommands
from pfabric_analysis.commands.options import add_kb_option
from pfabric_analysis.values import HOSTS, LOAD, PATH, POSITIVE, SEED


def bottleneck_command(args: argparse.Namespace) -> int:
    """pfabric-analysis bottleneck: pfabric_analysis.bottleneck.main."""
    from pfabric_analysis import bottleneck

    return bottleneck.main(args)


def register(sub: Subcommands) -> None:
    """pfabric-analysis bottleneck: one receiver's link against queueing theory."""
    neck = sub.add_parser("bottleneck", help="all flows into one host of a star: measured FCT "
                                             "minus base latency vs M/G/1 SRPT (pfabric) and "
                                             "processor sharing (tcp)")
    neck.add_argument("--load", type=LOAD, default=0.5, help="load of the receiver's link "
                                                               "(default 0.5)")
    neck.add_argument("--flows", type=POSITIVE, default=2000, help="flows (default 2000)")
    neck.add_argument("--hosts", type=HOSTS, default=16, help="hosts on the star (default 16)")
    neck.add_argument("--seed", type=SEED, default=1, help="seed of the flow list (default 1)")
    neck.add_argument("--schemes", default="pfabric,tcp",
                      help="comma-separated built-in schemes of pfabric-websearch "
                           "(its --listSchemes): those of pFabric's queues vs SRPT, the others "
                           "vs PS; default pfabric,tcp")
    neck.add_argument("--cdf", type=PATH, help="flow size CDF (default workloads/websearch.cdf)")
    add_kb_option(neck)
    neck.add_argument("--out", type=PATH, metavar="DIR",
                      help="default results/bottleneck-loadL-flowsN-seedS")
    neck.add_argument("--bin-dir", type=PATH,
                      help="where pfabric-websearch is (default: $PFABRIC_BUILD_DIR/bin, else "
                           "build/bin of the module)")
    neck.add_argument("--reuse", action="store_true",
                      help="compare the runs already in --out, simulating nothing")
    neck.set_defaults(handler=bottleneck_command)
