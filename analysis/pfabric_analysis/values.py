"""Numbers as users write them, parsed strictly: on the command line (argparse `type=`), in its
comma-separated lists, and the range each kind of value must lie in, in one home.

Python's int() and float() take more than a user means: "1_000", " 5", "nan", "inf", "1e999"
(infinite). A value here is decimal digits (a sign, a point and an exponent for a real number),
finite, within its range, or it is refused with a message that quotes it as typed."""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from pfabric_analysis.runs import AnalysisError

_WHOLE = re.compile(r"[+-]?[0-9]+")
_REAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")

T = TypeVar("T")


class BadValue(argparse.ArgumentTypeError):
    """A value refused: the text as typed and what was expected instead."""

    def __init__(self, text: str, expected: str) -> None:
        super().__init__(f"{text!r}: expected {expected}")
        self.text, self.expected = text, expected


@dataclass(frozen=True)
class Whole:
    """A whole number of at least `minimum`."""

    minimum: int = 0

    def __call__(self, text: str) -> int:
        if not _WHOLE.fullmatch(text) or int(text) < self.minimum:
            raise BadValue(text, f"a whole number of at least {self.minimum}")
        return int(text)


@dataclass(frozen=True)
class Real:
    """A finite real number in the open interval (low, high); no bound where None."""

    low: float | None = None
    high: float | None = None

    def __call__(self, text: str) -> float:
        value = float(text) if _REAL.fullmatch(text) else math.nan
        if not self.contains(value):
            raise BadValue(text, self.describe())
        return value

    def contains(self, value: float) -> bool:
        return (math.isfinite(value) and (self.low is None or value > self.low)
                and (self.high is None or value < self.high))

    def describe(self) -> str:
        if self.low is not None and self.high is not None:
            return f"a number in ({self.low:g}, {self.high:g})"
        if self.low is not None:
            return "a positive number" if self.low == 0 else f"a number above {self.low:g}"
        return "a finite number" if self.high is None else f"a number below {self.high:g}"


# Every kind of number the command line takes, each in one place.
COUNT = Whole(0)       # flows, bytes, blocks: none is a valid answer
POSITIVE = Whole(1)    # processes, batches, bytes per segment, flows of a run
SEED = Whole(1)        # ns-3's seeds start at 1 (the programs refuse 0)
RUN = Whole(1)         # run numbers (--run, ns-3's RngRun), replications 1, 2, ...
HOSTS = Whole(2)       # a sender and a receiver at least
REPLICATIONS = Whole(2)  # runs of a point behind an interval: two at least
LOAD = Real(0, 1)      # offered load, as the programs take it: (0, 1)
FRACTION = Real(0, 1)  # a relative tolerance
SECONDS = Real(0)      # a positive duration
RATE = Real(0)         # a positive rate (bit/s)
FINITE = Real()        # any finite number (a value in a file, checked further where it is read)


def _path(text: str) -> Path:
    """A file or directory named on the command line: not empty (Path("") is the current
    directory, which a user who typed --csv= did not name)."""
    if not text:
        raise BadValue(text, "a file or directory name")
    return Path(text)


PATH = _path


def parse_list(text: str, option: str, parse: Callable[[str], T]) -> tuple[T, ...]:
    """A comma-separated option (--loads 0.2,0.5), each item parsed by `parse` (Whole, Real, or
    str for names): "" is the empty list; an empty or bad item is refused in one line quoting
    the option as typed and the item."""
    if not text.strip():
        return ()
    values = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            raise AnalysisError(f"{option} {text}: an empty item")
        try:
            values.append(parse(item))
        except BadValue as error:
            raise AnalysisError(f"{option} {text}: {error}") from error
    return tuple(values)
