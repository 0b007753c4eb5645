"""The sub-commands of pfabric-analysis, each registered by its module here: a register function
adds the command's parser to the command line and sets its handler, so that cli.py is the list
of them. A handler imports the modules that pull in matplotlib or Dask itself, so that building
the parser (and every other command) does without them."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol


class Subcommands(Protocol):
    """What add_subparsers returns, as a register function uses it: it adds its command's
    parser (cli.Parser, an argparse.ArgumentParser) there."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


# A sub-command's register function.
Register = Callable[[Subcommands], None]


def print_written(paths: Iterable[Path]) -> int:
    """A line `wrote PATH` per file a command wrote, in order; the command's exit status (0)."""
    for path in paths:
        print(f"wrote {path}")
    return 0
