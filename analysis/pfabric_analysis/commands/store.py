"""pfabric-analysis store add: finished run directories compacted into a store of points to
commit (pfabric_analysis.store)."""

from __future__ import annotations

import argparse

from pfabric_analysis.commands import Subcommands
from pfabric_analysis.values import PATH


def store_command(args: argparse.Namespace) -> int:
    """pfabric-analysis store add: a line per point, its status and size."""
    from pfabric_analysis import store

    for point, status in store.add(args.runs, args.store):
        count, shared = store.shared_bytes(args.store, point.name)
        print(f"{status} {point} ({store.point_bytes(args.store, point.name):,} bytes"
              + (f"; it names {count} shared columns of {shared:,} bytes" if count else "")
              + ")")
    return 0


def register(sub: Subcommands) -> None:
    """pfabric-analysis store add: run directories compacted into a store."""
    kept = sub.add_parser("store", help="committed compact points: store add RUN_DIR... "
                                         "--store DIR compacts finished run directories")
    kept_sub = kept.add_subparsers(dest="store_command", required=True, metavar="add")
    kept_add = kept_sub.add_parser("add", help="compact run directories into a store (one "
                                               "point each, named by its directory)")
    kept_add.add_argument("runs", nargs="+", type=PATH, metavar="RUN_DIR")
    kept_add.add_argument("--store", type=PATH, required=True, metavar="STORE_DIR")
    kept.set_defaults(handler=store_command)
