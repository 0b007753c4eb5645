"""pfabric-analysis sem: an SEM campaign of a program in an ns-3 tree (pfabric_analysis.sem_campaign)."""

from __future__ import annotations

import argparse
import os

from pfabric_analysis.commands import Subcommands
from pfabric_analysis.commands.options import add_kb_option
from pfabric_analysis.commands.versions import versions
from pfabric_analysis.values import PATH, POSITIVE


def sem_command(args: argparse.Namespace) -> int:
    """pfabric-analysis sem: pfabric_analysis.sem_campaign.main, with the versions."""
    from pfabric_analysis import sem_campaign

    return sem_campaign.main(args, versions())


def register(sub: Subcommands) -> None:
    """pfabric-analysis sem: an SEM campaign in an ns-3 tree."""
    campaign = sub.add_parser("sem", help="an SEM campaign (PyPI sem) of pfabric-websearch or "
                                          "-datamining in an ns-3 tree: a grid of the program's "
                                          "options, FCT / ideal FCT per point and size bin")
    campaign.add_argument("--ns3", type=PATH, required=True, metavar="NS3_DIR",
                          help="ns-3 source tree (CMake, 3.36 or later) with this module in "
                               "contrib/pfabric, configured with --enable-examples and built")
    campaign.add_argument("--campaign", type=PATH, required=True, metavar="DIR",
                          help="SEM campaign directory: created, or loaded and extended (points "
                               "it has are not run again)")
    campaign.add_argument("--program", default="pfabric-websearch",
                          choices=("pfabric-websearch", "pfabric-datamining"),
                          help="the program to run (default pfabric-websearch)")
    campaign.add_argument("--grid", action="append", default=[], metavar="KEY=V1,V2,...",
                          help="an option of the program and its values, by its camelCase name, "
                               "e.g. --grid scheme=pfabric,tcp (repeatable; the grid is every "
                               "combination)")
    campaign.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                          help="an option of the program held at one value on every point, e.g. "
                               "--set flows=500 (repeatable)")
    campaign.add_argument("--runs", default="1",
                          help="comma-separated run numbers (--run and SEM's RngRun; default 1)")
    campaign.add_argument("-j", "--jobs", type=POSITIVE, default=os.cpu_count() or 1,
                          help="runs at once (default: one per core)")
    add_kb_option(campaign)
    campaign.add_argument("--out", type=PATH, metavar="DIR",
                          help="also write the table to DIR/sem.csv, its provenance to "
                               "DIR/sem.json")
    campaign.set_defaults(handler=sem_command)
