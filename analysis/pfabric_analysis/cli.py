"""The pfabric-analysis command. Sub-commands arrive with the analysis issue; for now it reports
the versions that provenance records need."""

from __future__ import annotations

import argparse
import importlib.metadata
import sys

from pfabric_analysis import __version__


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
    args = parser.parse_args(argv)
    if args.command == "versions":
        for name, version in versions().items():
            print(f"{name} {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
