"""The pfabric-analysis command: summarise runs, compare them (CDFs, side-by-side tables), compute
the Ideal scheme, run sweeps (locally or on a Dask cluster), draw Figures 2-4 of the paper, and
report the versions provenance records need."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from typing import NoReturn

from pfabric_analysis import __version__
from pfabric_analysis.commands import (Register, bottleneck, compare, figure_sets, figures,
                                       flowcount, ideal, rerun, sem, store, summary, sweep,
                                       versions)
from pfabric_analysis.runs import AnalysisError
from pfabric_analysis.values import BadValue

# The sub-commands, in the order --help lists them: each module's register function adds the
# command's parser and sets its handler (pfabric_analysis.commands).
COMMANDS: list[Register] = [
    versions.register,
    summary.register_summarize,
    summary.register_steady,
    compare.register_cdf,
    compare.register_compare,
    figure_sets.register_levels,
    figure_sets.register_incast,
    figure_sets.register_deadlines,
    figure_sets.register_classes,
    figures.register_figures,
    figures.register_figure_table,
    ideal.register_ideal,
    ideal.register_ideal_bench,
    sweep.register_sweep,
    store.register,
    rerun.register,
    sem.register,
    sweep.register_reproduce,
    flowcount.register,
    bottleneck.register,
]


class Parser(argparse.ArgumentParser):
    """argparse, but a bad command line is one line (AnalysisError, as every bad input) instead
    of the usage and an exit status of 2: -h gives the usage. A value its type refused is named
    as the other errors name theirs: --load 1.5: expected a number in (0, 1)."""

    def error(self, message: str) -> NoReturn:
        failure = sys.exc_info()[1]  # argparse calls error() handling the ArgumentError
        refused = getattr(failure, "__context__", None)
        if isinstance(failure, argparse.ArgumentError) and isinstance(refused, BadValue):
            option = (failure.argument_name or "").split("/")[-1]
            message = f"{option} {shlex.quote(refused.text)}: expected {refused.expected}"
        raise AnalysisError(message)


def command_parser() -> Parser:
    """The command line: --version and every sub-command of COMMANDS."""
    parser = Parser(prog="pfabric-analysis", description=__doc__)
    parser.add_argument("--version", action="version", version=f"pfabric {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for register in COMMANDS:
        register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run its sub-command's handler; bad input (AnalysisError) is one
    line on stderr and exit status 1."""
    parser = command_parser()
    try:
        args = parser.parse_args(argv)
        args.command_line = shlex.join(["pfabric-analysis",
                                        *(sys.argv[1:] if argv is None else argv)])
        return args.handler(args)
    except AnalysisError as error:
        print(f"pfabric-analysis: error: {error}", file=sys.stderr)
        return 1
    except MemoryError:
        # A count beyond this machine (ideal-bench --flows 10000000000): numpy's allocation fails.
        print(f"pfabric-analysis: error: {args.command_line}: out of memory (a count too large "
              "for this machine?)", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (`pfabric-analysis summarize RUN | head`): as a Unix filter
        # ends, silently, and without Python's second complaint when stdout is flushed at exit
        # (issue 54's ninth probe printed a traceback).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
