"""Committed compact points: a store directory of finished points that can be committed to a
repository, from which a sweep resumes (in a fresh clone too) and figures are redrawn.

A store holds one directory per point, named as the sweep names it
(<workload>-<scheme>-load<L>-run<R>), with two files:

    fct.columns.xz  the run's fct.csv lines of its measured flows (every line without a window),
                    byte for byte as the program wrote them, by column and xz-compressed
                    (pfabric_analysis.columnar), so the same run always gives the same bytes
    meta.json       the run's meta.json, byte for byte

and a directory columns/ of the columns that describe a flow list rather than a scheme's result
(SHARED_COLUMNS), each xz'd once under the digest of its text, which the points' files name in
their place: the schemes of a run (and, for sizes and pairs, the loads of a run number) share
them instead of each holding a copy. Points written before hold every column themselves and are
read as they are.

Points written before the columnar format hold fct.csv.gz (the same lines, gzip with mtime 0 and
no file name) instead; they are read as before, and kept as they are, so that committed points
are not committed twice.

A point directory is written under a temporary name and renamed into place, after the shared
columns it names: it is whole or absent. Temporary names are hidden (.<point>.tmp-<host>-<pid>,
columns/.<digest>.xz.tmp-<host>-<pid>): readers skip them, and a sweep clears those a killed
writer left (remove_leftovers).

A sweep claims a point before it runs it (claim: a hidden file .<point>.claim, created only if
absent, naming the sweep's host and process), so that another sweep sharing the store leaves the
point to it instead of running it too; the claim is released when the point is stored or has
failed, and a claim whose process has ended on this host is stale and taken over.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import socket
import threading
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from pfabric_analysis import columnar
from pfabric_analysis.lock import pid_alive
from pfabric_analysis.runs import (
    MEASURED_COLUMN,
    AnalysisError,
    fct_file,
    read_json,
    read_run,
    replication_identity,
    workload_digest,
)

COMPACT_FCT = f"fct{columnar.SUFFIX}"
LEGACY_COMPACT_FCT = "fct.csv.gz"  # read, never written
META = "meta.json"
# The columns a run's flow list decides, the same text whatever the scheme (checked on the
# store's points: a packet scheme's ideal_fct_s too; Ideal prints its start_s and ideal_fct_s
# otherwise, so those two are shared among Ideal's points only).
SHARED_COLUMNS = frozenset({"flow_id", "src", "dst", "size_bytes", "start_s", "ideal_fct_s"})


def compact_lines(fct_text: bytes, source: Path) -> bytes:
    """fct.csv's header and its measured lines (the `measured` column equal to 1; every line
    when there is no such column), unchanged."""
    lines = fct_text.splitlines(keepends=True)
    if not lines:
        raise AnalysisError(f"{source}: empty")
    header = lines[0].rstrip(b"\r\n").split(b",")
    if MEASURED_COLUMN.encode() not in header:
        return fct_text
    index = header.index(MEASURED_COLUMN.encode())
    kept = [lines[0]]
    for number, line in enumerate(lines[1:], start=2):
        fields = line.rstrip(b"\r\n").split(b",")
        if len(fields) != len(header):
            raise AnalysisError(f"{source}: line {number} has {len(fields)} fields, the header "
                                f"{len(header)}")
        if fields[index] == b"1":
            kept.append(line)
    return b"".join(kept)


def point_path(store: Path, name: str) -> Path:
    return store / name


def stored_fct(point: Path) -> Path | None:
    """A stored point's flows file (columnar, or gzip for a point written before), None if
    neither is there."""
    for file_name in (COMPACT_FCT, LEGACY_COMPACT_FCT):
        if (point / file_name).is_file():
            return point / file_name
    return None


def is_stored(store: Path, name: str) -> bool:
    """Whether the store holds the point (its directory appears whole, by rename)."""
    point = point_path(store, name)
    return stored_fct(point) is not None and (point / META).is_file()


def stored_lines(point: Path) -> bytes:
    """The fct.csv lines a stored point holds, whichever its format."""
    path = stored_fct(point)
    if path is None:
        raise AnalysisError(f"{point / COMPACT_FCT}: missing")
    try:
        if path.name == LEGACY_COMPACT_FCT:
            return gzip.decompress(path.read_bytes())
        return columnar.read(path)
    except (OSError, EOFError, columnar.NotColumnar) as error:
        raise AnalysisError(f"{path}: not a compact point's flows ({error})") from error


def shared_directory(store: Path) -> Path:
    return store / columnar.SHARED_DIRECTORY


@dataclass(frozen=True)
class Compacted:
    """A run directory's point: the lines it keeps, its files, the shared columns they name."""

    lines: bytes
    files: dict[str, bytes]
    shared: dict[str, bytes]


def compact(run_dir: Path) -> Compacted:
    """A run directory's point, after checking that it reads as a run."""
    read_run(run_dir)
    source = fct_file(run_dir)
    raw = source.read_bytes()
    if source.suffix == ".gz":
        raw = gzip.decompress(raw)
    lines = compact_lines(raw, source)
    try:
        flows = columnar.encode_shared(lines, SHARED_COLUMNS)
    except columnar.NotColumnar as error:
        raise AnalysisError(f"{source}: cannot be stored by column ({error})") from error
    return Compacted(lines, {COMPACT_FCT: flows.point, META: (run_dir / META).read_bytes()},
                     flows.shared)


def leftover_name(name: str, kind: str) -> str:
    """The hidden name this process writes a point under (kind "tmp"), sets the point it
    replaces aside under ("old") or writes a claim under ("claim"); readers skip hidden names."""
    return f".{name}.{kind}-{socket.gethostname()}-{os.getpid()}"


def parse_leftover(file_name: str) -> tuple[str, str, str, int] | None:
    """(point, kind, host, pid) of a leftover_name, None for any other name."""
    found = re.fullmatch(r"\.(.+)\.(tmp|old|claim)-(.+)-(\d+)", file_name)
    return None if found is None else (found[1], found[2], found[3], int(found[4]))


def write_point(run_dir: Path, store: Path, name: str | None = None) -> Path:
    """Compact a finished run directory into store/<name> (default: the run directory's name),
    atomically; an existing copy is replaced. Returns the point's directory. A failure (a full
    disk) is one line naming the file and leaves no part of the point (a shared column written
    before it may stay: content-addressed, it is the same for whichever point needs it next)."""
    return write_compacted(compact(run_dir), store, name or run_dir.resolve().name)


def write_shared(shared: dict[str, bytes], store: Path) -> None:
    """Write the shared columns the store lacks, each under a temporary name and renamed: a
    shared column is whole or absent, and one already there (the same name, so the same text)
    is left as it is."""
    with _WRITING_SHARED:
        _write_shared(shared, shared_directory(store))


# The temporary name tells processes apart, not the threads a local sweep writes points from,
# and two schemes of a run name the same columns: one thread would rename the column away from
# under another's write.
_WRITING_SHARED = threading.Lock()


def _write_shared(shared: dict[str, bytes], directory: Path) -> None:
    for file_name, content in sorted(shared.items()):
        final = directory / file_name
        if final.is_file():
            continue
        temporary = directory / leftover_name(file_name, "tmp")
        try:
            directory.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(content)
            os.replace(temporary, final)
        except OSError as error:
            with suppress(OSError):  # a store that is a file has no temporary to remove
                temporary.unlink(missing_ok=True)
            raise AnalysisError(f"{final}: cannot write the shared column "
                                f"({error.strerror or error})") from error


def write_compacted(point: Compacted, store: Path, name: str) -> Path:
    write_shared(point.shared, store)
    final = point_path(store, name)
    temporary = store / leftover_name(name, "tmp")
    writing = final
    try:
        store.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(temporary, ignore_errors=True)
        temporary.mkdir()
        for file_name, content in point.files.items():
            writing = final / file_name
            (temporary / file_name).write_bytes(content)
        writing = final
        if final.exists():
            old = store / leftover_name(name, "old")
            os.replace(final, old)
            os.replace(temporary, final)
            shutil.rmtree(old)
        else:
            os.replace(temporary, final)
    except OSError as error:
        shutil.rmtree(temporary, ignore_errors=True)
        raise AnalysisError(f"{writing}: cannot write the compact point "
                            f"({error.strerror or error})") from error
    return final


def claim_path(store: Path, name: str) -> Path:
    return store / f".{name}.claim"


def claim(store: Path, name: str) -> str | None:
    """Claim a point for this process: None when claimed, else who holds it ("<host> pid <pid>",
    with the file to remove if that sweep is gone). A claim left by an ended process of this host
    is taken over; one of another host cannot be checked and is honoured."""
    path = claim_path(store, name)
    # Written whole under this process's own name, then linked to the claim's name, which fails
    # if it exists: a claim is never seen half-written.
    written = store / leftover_name(name, "claim")
    try:
        store.mkdir(parents=True, exist_ok=True)
        written.write_text(f"{socket.gethostname()} {os.getpid()}\n")
        for _ in range(3):  # another sweep may take over the same stale claim meanwhile
            try:
                os.link(written, path)
            except FileExistsError:
                holder = other_claim(store, name)
                if holder is None:  # stale, this process's, or unreadable
                    path.unlink(missing_ok=True)
                    continue
                return holder
            return None
    except OSError as error:
        raise AnalysisError(f"{path}: cannot claim the point ({error.strerror or error})") from error
    finally:
        written.unlink(missing_ok=True)
    raise AnalysisError(f"{path}: cannot claim the point (taken over and over)")


def claim_holder(path: Path) -> tuple[str, int] | None:
    """(host, pid) that a claim names; None when it is unreadable or half-written."""
    try:
        found = re.fullmatch(r"(\S+) (\d+)\n", path.read_text())
    except (OSError, UnicodeDecodeError):
        return None
    return None if found is None else (found[1], int(found[2]))


def other_claim(store: Path, name: str) -> str | None:
    """Who else holds a live claim on the point ("<host> pid <pid> (its claim: PATH)"); None when
    there is no claim, or it is this process's, unreadable, or stale (an ended process of this
    host)."""
    path = claim_path(store, name)
    holder = claim_holder(path)
    if holder is None or holder == (socket.gethostname(), os.getpid()) or ended_here(holder):
        return None
    return f"{holder[0]} pid {holder[1]} (its claim: {path})"


def ended_here(holder: tuple[str, int]) -> bool:
    """Whether a claim's (host, pid) is a process of this host that has ended (a stale claim)."""
    return holder[0] == socket.gethostname() and not pid_alive(holder[1])


def release(store: Path, name: str) -> None:
    """Remove this process's claim on a point (another's is left alone)."""
    path = claim_path(store, name)
    if claim_holder(path) == (socket.gethostname(), os.getpid()):
        path.unlink(missing_ok=True)


def remove_leftovers(store: Path, names: set[str]) -> list[Path]:
    """Clear what a killed writer of these points left in the store: a temporary copy is removed,
    a copy set aside while being replaced is put back if the point is absent (else removed), and
    a claim is removed, and so is a shared column's temporary copy. Only this host's writers that
    have ended are cleared (another host's may still write). Returns the leftovers cleared."""
    cleared = []
    shared = shared_directory(store)
    for path in sorted(shared.glob(".*")) if shared.is_dir() else []:
        found = parse_leftover(path.name)
        if found is not None and found[1] == "tmp" and ended_here((found[2], found[3])):
            path.unlink(missing_ok=True)
            cleared.append(path)
    for path in sorted(store.glob(".*")) if store.is_dir() else []:
        claimed = re.fullmatch(r"\.(.+)\.claim", path.name)
        if claimed is not None:
            holder = claim_holder(path)
            if claimed[1] in names and holder is not None and ended_here(holder):
                path.unlink(missing_ok=True)
                cleared.append(path)
            continue
        found = parse_leftover(path.name)
        if found is None:
            continue
        name, kind, host, pid = found
        if name not in names or not ended_here((host, pid)):
            continue
        try:
            if kind == "old" and not point_path(store, name).exists():
                os.replace(path, point_path(store, name))
            elif kind == "claim":
                path.unlink()
            else:
                shutil.rmtree(path)
        except OSError as error:
            raise AnalysisError(f"{path}: cannot clear this leftover of a killed writer "
                                f"({error.strerror or error})") from error
        cleared.append(path)
    return cleared


def add(run_dirs: list[Path], store: Path) -> list[tuple[Path, str]]:
    """`store add`: compact run directories into the store; (point, 'added', 'replaced' or
    'unchanged') for each; a point that holds the same lines and meta.json is unchanged, in
    whichever format it was written. Every run is read and checked before anything is written."""
    if store.exists() and not store.is_dir():
        raise AnalysisError(f"--store {store}: not a directory")
    names = [run_dir.resolve().name for run_dir in run_dirs]
    for name, run_dir in zip(names, run_dirs):
        if names.count(name) > 1:
            raise AnalysisError(f"{run_dir}: another RUN_DIR has the same name {name!r} (a "
                                "store names points by their directory)")
    prepared = [(name, compact(run_dir)) for run_dir, name in zip(run_dirs, names)]
    adding = [(run_dir, name, json.loads(compacted.files[META]))
              for run_dir, (name, compacted) in zip(run_dirs, prepared)]
    check_replications_once(store, adding)
    check_workloads_once(store, adding)
    results = []
    for name, compacted in prepared:
        point = point_path(store, name)
        if is_stored(store, name) and (point / META).read_bytes() == compacted.files[META] and \
                stored_lines(point) == compacted.lines:
            results.append((point, "unchanged"))
            continue
        status = "replaced" if point.exists() else "added"
        results.append((write_compacted(compacted, store, name), status))
    return results


def check_replications_once(store: Path, adding: list[tuple[Path, str, dict]]) -> None:
    """Refuse a run (RUN_DIR, its point's name, its meta.json) that is the same replication
    (runs.replication_identity) as another point of the store or another run added with it: a
    copy of a run directory under another name was stored as a second replication, which
    `figures` then refused (issue 54's fourth probe). The point it replaces is not compared."""
    seen: dict[str, Path] = {}
    replaced = {name for _, name, _ in adding}
    for point in sorted(store.iterdir()) if store.is_dir() else []:
        if point.name not in replaced and is_stored(store, point.name):
            try:
                meta = read_json(point / META)
            except OSError as error:
                raise AnalysisError(f"{point / META}: not JSON ({error})") from error
            seen.setdefault(replication_identity(meta), point)
    for run_dir, _, meta in adding:
        identity = replication_identity(meta)
        if identity in seen:
            parameters = meta["parameters"]
            raise AnalysisError(f"{run_dir}: the same replication (seed {parameters.get('seed')}, "
                                f"run {parameters.get('run')}) as {seen[identity]}; a store "
                                "keeps each once")
        seen[identity] = run_dir


def check_workloads_once(store: Path, adding: list[tuple[Path, str, dict]]) -> None:
    """Refuse a run whose flows (runs.workload_digest) are those of another point of its
    experiment in the store, or of another run added with it, under other labels: a run
    directory copied and its seed or run edited was stored, and `figures` then refused the pair
    (issue 54's tenth probe). Only the points of an experiment being added are read. The point
    it replaces is not compared."""
    experiments = {replication_identity(meta, False) for _, _, meta in adding}
    replaced = {name for _, name, _ in adding}
    seen: dict[tuple[str, str], Path] = {}
    for point in sorted(store.iterdir()) if store.is_dir() else []:
        if point.name in replaced or not is_stored(store, point.name):
            continue
        experiment = replication_identity(read_json(point / META), False)
        if experiment in experiments:
            seen.setdefault((experiment, workload_digest(read_run(point).fct)), point)
    for run_dir, _, meta in adding:
        key = (replication_identity(meta, False), workload_digest(read_run(run_dir).fct))
        if key in seen:
            raise AnalysisError(f"{run_dir}: the same flows as {seen[key]} (src, dst, "
                                "size_bytes and start_s of every flow) under other labels, a "
                                "copy of its workload; a store keeps each once")
        seen[key] = run_dir


def point_bytes(store: Path, name: str) -> int:
    """The bytes a committed point takes in its own directory (its two files; the shared columns
    it names are counted by shared_bytes)."""
    point = point_path(store, name)
    flows = stored_fct(point)
    if flows is None:
        raise AnalysisError(f"{point / COMPACT_FCT}: missing")
    return flows.stat().st_size + (point / META).stat().st_size


def shared_bytes(store: Path, name: str) -> tuple[int, int]:
    """(how many shared columns a point names, their bytes), each column counted whole though
    other points may name it too."""
    flows = stored_fct(point_path(store, name))
    if flows is None or flows.name != COMPACT_FCT:
        return 0, 0
    try:
        names = columnar.shared_files(flows.read_bytes())
    except columnar.NotColumnar as error:
        raise AnalysisError(f"{flows}: not a compact point's flows ({error})") from error
    sizes = [(shared_directory(store) / file_name).stat().st_size for file_name in names]
    return len(names), sum(sizes)
