"""pfabric-analysis rerun: a point re-run from its meta.json alone and its fct.csv compared with
the recorded one (pfabric_analysis.rerun)."""

from __future__ import annotations

import argparse
from pathlib import Path

from pfabric_analysis.commands import Subcommands
from pfabric_analysis.values import PATH


def rerun_command(args: argparse.Namespace) -> int:
    """pfabric-analysis rerun: pfabric_analysis.rerun.rerun."""
    from pfabric_analysis import rerun

    out = args.out or Path("results") / "rerun" / args.run_dir.resolve().name
    return rerun.rerun(args.run_dir, out, args.bin_dir, args.dry_run)


def register(sub: Subcommands) -> None:
    """pfabric-analysis rerun: a point again from its meta.json, compared byte for byte."""
    again = sub.add_parser("rerun", help="run a point again from its meta.json alone (program, "
                                         "parameters, ns-3 settings) and compare its fct.csv "
                                         "with the recorded one byte for byte (exit status 1 "
                                         "if it differs)")
    again.add_argument("run_dir", type=PATH, metavar="RUN_DIR",
                       help="a run directory (fct.csv + meta.json) or a store's point")
    again.add_argument("--out", type=PATH, metavar="DIR",
                       help="where the rerun writes (default results/rerun/<RUN_DIR's name>)")
    again.add_argument("--bin-dir", type=PATH,
                       help="where the programs are (default: $PFABRIC_BUILD_DIR/bin, else "
                            "build/bin of the module)")
    again.add_argument("--dry-run", action="store_true",
                       help="print the commands (and the ns-3 environment) it would run, and "
                            "run nothing")
    again.set_defaults(handler=rerun_command)
