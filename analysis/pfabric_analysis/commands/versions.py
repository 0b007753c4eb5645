"""pfabric-analysis versions: the module version and git commit and the versions of the packages
analysis depends on, as provenance records them."""

from __future__ import annotations

import argparse
import importlib.metadata

from pfabric_analysis import __version__, git_commit
from pfabric_analysis.commands import Subcommands


def versions() -> dict[str, str]:
    """The module version and git commit, and the installed versions of the packages analysis
    depends on."""
    found = {"pfabric": __version__, "git_commit": git_commit() or "not a git checkout"}
    for package in ("ns3", "numpy", "pandas", "scipy", "matplotlib", "dask", "distributed",
                    "sem"):
        try:
            found[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            found[package] = "not installed"
    return found


def print_versions(args: argparse.Namespace) -> int:
    """pfabric-analysis versions: each name and version on a line."""
    for name, version in versions().items():
        print(f"{name} {version}")
    return 0


def register(sub: Subcommands) -> None:
    """pfabric-analysis versions: the versions provenance records need."""
    parser = sub.add_parser("versions", help="print the module and package versions")
    parser.set_defaults(handler=print_versions)
