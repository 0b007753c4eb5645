"""The pfabric-analysis command: summarise runs of pfabric-websearch / pfabric-datamining, and
report the versions that provenance records need."""

from __future__ import annotations

import argparse
import importlib.metadata
import sys
from pathlib import Path

from pfabric_analysis import __version__
from pfabric_analysis.runs import AnalysisError, check_poolable, read_run, summarize


def versions() -> dict[str, str]:
    """The module version and the installed versions of the packages analysis depends on."""
    found = {"pfabric": __version__}
    for package in ("ns3", "numpy", "pandas", "scipy", "matplotlib"):
        try:
            found[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            found[package] = "not installed"
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pfabric-analysis", description=__doc__)
    parser.add_argument("--version", action="version", version=f"pfabric {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("versions", help="print the module and package versions")
    summary = sub.add_parser("summarize", help="FCT / ideal FCT per size bin of run directories "
                                              "(several: replications, pooled)")
    summary.add_argument("runs", nargs="+", type=Path, metavar="RUN_DIR")
    summary.add_argument("--kb", type=int, choices=(1000, 1024), default=1000,
                         help="bytes per KB of the size bins (default 1000)")
    summary.add_argument("--csv", type=Path, help="also write the table to this CSV file")
    args = parser.parse_args(argv)
    if args.command == "versions":
        for name, version in versions().items():
            print(f"{name} {version}")
        return 0
    try:
        runs = [read_run(directory) for directory in args.runs]
        check_poolable(runs)
    except AnalysisError as error:
        print(f"pfabric-analysis: error: {error}", file=sys.stderr)
        return 1
    import pandas as pd

    table = summarize(pd.concat([run.fct for run in runs], ignore_index=True), kb=args.kb)
    print(f"FCT / ideal FCT of {len(runs)} run(s) (KB = {args.kb} B)")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    if args.csv:
        table.to_csv(args.csv, index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
