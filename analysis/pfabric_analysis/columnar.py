"""The compact points' file format, fct.columns.xz: a fct.csv transposed (line i holds column i,
its name first, then its values in row order, separated by commas) and xz-compressed.

A column's values are alike (sizes with sizes, times with times), so the compressor finds more
to share than across a row: a 10,000-flow point takes about 0.6 of the bytes of the gzip'd
fct.csv the store wrote before (doc, "Analysis: Ideal, sweeps and figures", "Committed points").
The transposition is exact: decoding gives back the CSV's bytes, which the encoder checks before
it returns.

A store keeps apart the columns that describe a run's flow list rather than a scheme's result
(encode_shared): in a point's file such a column's line is `name=<sha256 of its line>`, and the
line itself is xz'd once in the store's columns/ directory, beside the points, under that digest.
The schemes of one run, and often the loads of one run number, have the same text there (the
sizes and pairs do not depend on the load), so a run's points share it instead of each holding
a copy; a point's own columns are then about 0.3 of its flows file. Reading resolves the
references (read, decode with a resolver) and checks each against its digest.
"""

from __future__ import annotations

import hashlib
import lzma
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

SUFFIX = ".columns.xz"
# Where a point's file finds the columns it refers to: <store>/columns/<digest>.xz, from
# <store>/<point>/fct.columns.xz.
SHARED_DIRECTORY = "columns"
SHARED_SUFFIX = ".xz"
# A shared column's line in a point's file: its name, "=", the sha256 of its text.
REFERENCE = re.compile(rb"([A-Za-z_][A-Za-z0-9_]*)=([0-9a-f]{64})")
# xz's strongest preset: a point is written once and read often; the same bytes give the same
# file (xz records no time or name).
PRESET = 9 | lzma.PRESET_EXTREME


class NotColumnar(ValueError):
    """The text is not a table this format holds exactly, or the file is not one."""


def transpose(text: bytes) -> bytes:
    """CSV bytes (lines ending in a newline, every line with as many fields as the first) as
    their columns, one per line."""
    if not text.endswith(b"\n"):
        raise NotColumnar("the last line has no newline")
    rows = [line.split(b",") for line in text[:-1].split(b"\n")]
    width = len(rows[0])
    for number, row in enumerate(rows, start=1):
        if len(row) != width:
            raise NotColumnar(f"line {number} has {len(row)} fields, the first {width}")
    return b"".join(b",".join(column) + b"\n" for column in zip(*rows))


def untranspose(columns: bytes) -> bytes:
    """The CSV bytes whose transpose is `columns`."""
    if not columns.endswith(b"\n"):
        raise NotColumnar("the last column has no newline")
    fields = [line.split(b",") for line in columns[:-1].split(b"\n")]
    length = len(fields[0])
    if any(len(column) != length for column in fields):
        raise NotColumnar("its columns differ in length")
    return b"".join(b",".join(row) + b"\n" for row in zip(*fields))


def encode(text: bytes) -> bytes:
    """fct.columns.xz's bytes for CSV bytes; NotColumnar if they cannot be given back exactly."""
    return encode_shared(text, ()).point


@dataclass(frozen=True)
class SharedEncoding:
    """A point's file (its own columns and references) and the shared columns' files it refers
    to, by file name (<digest>.xz)."""

    point: bytes
    shared: dict[str, bytes]


def digest(line: bytes) -> str:
    return hashlib.sha256(line).hexdigest()


def shared_name(column_digest: str) -> str:
    return column_digest + SHARED_SUFFIX


def compress(data: bytes) -> bytes:
    return lzma.compress(data, format=lzma.FORMAT_XZ, preset=PRESET)


def decompress(data: bytes) -> bytes:
    try:
        return lzma.decompress(data, format=lzma.FORMAT_XZ)
    except lzma.LZMAError as error:
        raise NotColumnar(f"not xz data ({error})") from error


def encode_shared(text: bytes, names: Collection[str]) -> SharedEncoding:
    """encode, with the columns called `names` kept apart (a reference in the point's file, the
    line in a file of its own); NotColumnar if the table cannot be given back exactly."""
    columns = transpose(text)
    if untranspose(columns) != text:
        raise NotColumnar("the transposed table does not give the same bytes back")
    kept, shared = [], {}
    for line in columns[:-1].split(b"\n"):
        name = line.split(b",", 1)[0]
        if name.decode(errors="replace") in names:
            line_digest = digest(line + b"\n")
            shared[shared_name(line_digest)] = compress(line + b"\n")
            line = name + b"=" + line_digest.encode()
        kept.append(line + b"\n")
    return SharedEncoding(compress(b"".join(kept)), shared)


def resolve(columns: bytes, shared: Callable[[str], bytes] | None) -> bytes:
    """The columns with each reference replaced by its line, which `shared` gives (the
    compressed file of that name); NotColumnar for a missing or altered shared column."""
    if not columns.endswith(b"\n"):
        return columns  # untranspose refuses it
    lines = []
    for line in columns[:-1].split(b"\n"):
        found = REFERENCE.fullmatch(line)
        if found is not None:
            name, file_name = found[1].decode(), shared_name(found[2].decode())
            if shared is None:
                raise NotColumnar(f"column {name} is kept in a store's {SHARED_DIRECTORY}/ "
                                  f"({file_name}), and no store was given")
            try:
                line = decompress(shared(file_name))[:-1]
            except OSError as error:
                raise NotColumnar(f"column {name}: {SHARED_DIRECTORY}/{file_name} cannot be "
                                  f"read ({error.strerror or error})") from error
            if digest(line + b"\n") != found[2].decode() or \
                    line.split(b",", 1)[0] != found[1]:
                raise NotColumnar(f"column {name}: {SHARED_DIRECTORY}/{file_name} does not "
                                  "hold it")
        lines.append(line + b"\n")
    return b"".join(lines)


def shared_files(data: bytes) -> list[str]:
    """The shared columns' file names that fct.columns.xz's bytes refer to."""
    return [shared_name(found[2].decode()) for found in
            map(REFERENCE.fullmatch, decompress(data).split(b"\n")) if found is not None]


def decode(data: bytes, shared: Callable[[str], bytes] | None = None) -> bytes:
    """The CSV bytes of fct.columns.xz's bytes, its shared columns given by `shared` (a file
    name to that file's bytes); NotColumnar if they are not such a file."""
    return untranspose(resolve(decompress(data), shared))


def read(path: Path) -> bytes:
    """The CSV bytes of a fct.columns.xz file, its shared columns found in the store it is in."""
    directory = path.parent.parent / SHARED_DIRECTORY
    return decode(path.read_bytes(), lambda name: (directory / name).read_bytes())
