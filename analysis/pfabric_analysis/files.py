"""The files users hand over and get back: text read as UTF-8 with a byte-order mark accepted, and
outputs written whole or not at all, a failure being one line naming the file that could not be
written."""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Iterable, Mapping
from contextlib import suppress
from pathlib import Path

from pfabric_analysis.runs import AnalysisError


def read_text(path: Path) -> str:
    """A text file as UTF-8. A byte-order mark at its start (what Windows editors and
    spreadsheets put there) is dropped: invisible, it would otherwise spoil the first line."""
    return path.read_text(encoding="utf-8-sig")


def cannot_write(path: Path, error: OSError) -> AnalysisError:
    """The one-line error of an output that could not be written."""
    return AnalysisError(f"{path}: cannot write ({error.strerror or error})")


def missing_levels(directory: Path) -> list[Path]:
    """The levels of `directory` (itself and its parents) that do not exist yet, deepest first:
    what making it would create."""
    return [level for level in (directory, *directory.parents) if not level.exists()]


def remove_levels(levels: list[Path]) -> None:
    """Remove levels that missing_levels found and a failed call then made, deepest first; the
    deepest with whatever it holds, the others only where empty."""
    if levels:
        shutil.rmtree(levels[0], ignore_errors=True)
    for level in levels[1:]:
        with suppress(OSError):
            level.rmdir()


def write_files(out_dir: Path, files: Mapping[str, str | bytes],
                owned_names: Iterable[str] = ()) -> list[Path]:
    """Write each file into out_dir under a temporary name, then move them all into place: a
    reader never sees half a file, and on failure none of them is left (nor out_dir, nor a level
    above it that this call created) and AnalysisError names the file. Of owned_names (the
    files the caller may write), those this call did not write are removed, so that no output
    of an earlier call that no longer applies stays beside the new ones. The paths written, in
    order."""
    # On failure no level this call made stays (the tenth probe: a name too long for its last
    # level left the levels above it).
    created = missing_levels(out_dir)
    temporaries = {name: out_dir / f".{name}.tmp{os.getpid()}" for name in files}
    replaced: list[Path] = []
    writing = out_dir
    try:
        if out_dir.exists() and not out_dir.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(out_dir))
        out_dir.mkdir(parents=True, exist_ok=True)
        for name, content in files.items():
            writing = out_dir / name
            if writing.is_dir():
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(writing))
            if writing.exists() and not writing.is_file():
                # A device, a FIFO or a socket (--csv /dev/stdout): the rename below would put a
                # file in its place, and replace /dev/null itself when run as root.
                raise OSError(errno.EINVAL, "not a regular file", str(writing))
            if isinstance(content, bytes):
                temporaries[name].write_bytes(content)
            else:
                temporaries[name].write_text(content)
        for name, temporary in temporaries.items():
            writing = out_dir / name
            os.replace(temporary, writing)
            replaced.append(writing)
    except OSError as error:
        for path in [*temporaries.values(), *replaced]:
            with suppress(OSError):
                path.unlink()
        remove_levels(created)
        raise cannot_write(writing, error) from error
    for name in owned_names:
        if name not in files:
            (out_dir / name).unlink(missing_ok=True)
    return replaced


def write_file(path: Path, content: str | bytes) -> Path:
    """One output file, as write_files writes each."""
    return write_files(path.parent, {path.name: content})[0]
