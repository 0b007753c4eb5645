"""pfabric-analysis levels, incast, deadlines and classes: the studies beyond the paper's figures,
each a figure set (NAME.png/.pdf/.csv/.md/.json) of its runs."""

from __future__ import annotations

import argparse

from pfabric_analysis.commands import Subcommands, print_written
from pfabric_analysis.commands.options import add_kb_option, add_output_options
from pfabric_analysis.commands.versions import versions
from pfabric_analysis.values import PATH


def levels_command(args: argparse.Namespace) -> int:
    """pfabric-analysis levels: the levels figure set of the runs."""
    from pfabric_analysis.levels import write_levels

    return print_written(write_levels(args.runs, args.out, name=args.name, kb=args.kb,
                                      command=args.command_line, versions=versions()))


def incast_command(args: argparse.Namespace) -> int:
    """pfabric-analysis incast: the incast figure set of the runs."""
    from pfabric_analysis.incast import write_incast

    return print_written(write_incast(args.runs, args.out, name=args.name,
                                      command=args.command_line, versions=versions()))


def deadlines_command(args: argparse.Namespace) -> int:
    """pfabric-analysis deadlines: the deadlines figure set of the runs."""
    from pfabric_analysis.deadlines import write_deadlines

    return print_written(write_deadlines(args.runs, args.out, name=args.name,
                                         command=args.command_line, versions=versions()))


def classes_command(args: argparse.Namespace) -> int:
    """pfabric-analysis classes: the classes figure set of the runs."""
    from pfabric_analysis.classes import write_classes

    return print_written(write_classes(args.runs, args.out, name=args.name, kb=args.kb,
                                       command=args.command_line, versions=versions()))


def register_levels(sub: Subcommands) -> None:
    """pfabric-analysis levels: FCT against priority levels."""
    levels = sub.add_parser("levels", help="FCT / ideal FCT against priority levels K "
                                           "(--priorityLevels runs), a line per load, "
                                           "unquantised pFabric as reference (PNG, PDF, CSV, "
                                           "markdown, JSON)")
    levels.add_argument("runs", nargs="+", type=PATH, metavar="RUN_DIR",
                        help="one run per load and K on each load's flows, K = 0 the reference")
    add_output_options(levels, name="levels")
    add_kb_option(levels)
    levels.set_defaults(handler=levels_command)


def register_incast(sub: Subcommands) -> None:
    """pfabric-analysis incast: query completion time against workers."""
    incast = sub.add_parser("incast", help="query completion time / ideal against workers N "
                                           "(pfabric-incast runs), a line per scheme, a column "
                                           "per background load, timeouts per query (PNG, PDF, "
                                           "CSV, markdown, JSON)")
    incast.add_argument("runs", nargs="+", type=PATH, metavar="RUN_DIR",
                        help="pfabric-incast runs: one per background load, scheme and N")
    add_output_options(incast, name="incast")
    incast.set_defaults(handler=incast_command)


def register_deadlines(sub: Subcommands) -> None:
    """pfabric-analysis deadlines: deadlines met against load."""
    deadlines = sub.add_parser("deadlines", help="fraction of deadlines met against load, a line "
                                                 "per scheme, and the FCT / ideal FCT of the "
                                                 "flows without a deadline (pfabric-deadlines "
                                                 "runs; PNG, PDF, CSV, markdown, JSON)")
    deadlines.add_argument("runs", nargs="+", type=PATH, metavar="RUN_DIR",
                           help="pfabric-deadlines runs, one per scheme, priority, onMiss and "
                                "load, each load's on the same flows and deadlines")
    add_output_options(deadlines, name="deadlines")
    deadlines.set_defaults(handler=deadlines_command)


def register_classes(sub: Subcommands) -> None:
    """pfabric-analysis classes: FCT per traffic class."""
    classes = sub.add_parser("classes", help="FCT / ideal FCT per traffic class (pfabric-classes "
                                             "runs), a bar per class setting, one queue as "
                                             "reference (PNG, PDF, CSV, markdown, JSON)")
    classes.add_argument("runs", nargs="+", type=PATH, metavar="RUN_DIR",
                         help="one run per class setting (--classes, --classWeights) on the "
                              "same flows")
    add_output_options(classes, name="classes")
    add_kb_option(classes)
    classes.set_defaults(handler=classes_command)
