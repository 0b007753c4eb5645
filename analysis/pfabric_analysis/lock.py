"""One sweep at a time in a sweep directory: the lock file sweep.lock names its holder (pid, host,
start time) and is held with flock(2), which the kernel releases when the holder dies, even by
SIGKILL. A second sweep is refused in one line naming the directory and the holder; a lock file
left by a holder that died is taken over with a one-line notice. Where the file system has no
flock (ENOLCK: an NFS mount without its lock service), the holder's line decides: a live pid on
this host, or any holder on another host, refuses.
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from pfabric_analysis.runs import AnalysisError

LOCK_NAME = "sweep.lock"


@dataclass(frozen=True)
class Holder:
    """Who holds a lock, as its file says."""

    pid: int
    host: str
    since: str

    def line(self) -> str:
        return f"pid {self.pid} on host {self.host}, since {self.since}"

    def text(self) -> str:
        """The lock file's content (parse_holder reads it)."""
        return f"{self.pid} {self.host} {self.since}\n"


def this_holder() -> Holder:
    return Holder(os.getpid(), socket.gethostname(), time.strftime("%Y-%m-%dT%H:%M:%S%z"))


def parse_holder(text: str) -> Holder | None:
    """A lock file's 'pid host since' line; None for an empty or unreadable one."""
    fields = text.split()
    # ASCII digits: str.isdigit() also takes '²', which int() refuses.
    if len(fields) != 3 or not re.fullmatch(r"[0-9]+", fields[0]):
        return None
    return Holder(int(fields[0]), fields[1], fields[2])


def pid_alive(pid: int) -> bool:
    """Whether a process of this host has that pid (another user's counts). Not 0, which
    os.kill takes for this process group, nor a number beyond a pid's range (a file's pid may be
    any digits)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:
        return True
    return True


def read_holder(fd: int) -> Holder | None:
    return parse_holder(os.pread(fd, 4096, 0).decode("utf-8", "replace"))


def refuse(directory: Path, holder: Holder | None) -> AnalysisError:
    who = holder.line() if holder else "holder unknown"
    return AnalysisError(f"{directory}: another sweep is running there ({who}); wait for it to end "
                         "or use another --out")


def claim(fd: int, directory: Path) -> Holder | None:
    """Take the open lock file; the holder it named before, None if it named none."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise refuse(directory, read_holder(fd)) from None
    except OSError as error:
        if error.errno not in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL):
            raise
        previous = read_holder(fd)  # no flock here: the holder's line decides
        if previous is not None and (previous.host != socket.gethostname()
                                     or pid_alive(previous.pid)):
            raise refuse(directory, previous) from None
        return previous
    return read_holder(fd)


def same_file(fd: int, path: Path) -> bool:
    """Whether path still names the open file (a releasing holder unlinks it)."""
    try:
        return os.stat(path).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        return False


def open_claimed(path: Path, directory: Path) -> tuple[int, Holder | None]:
    """The lock file, open and claimed; the holder it named before (None if none)."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            previous = claim(fd, directory)
        except BaseException:
            os.close(fd)
            raise
        if same_file(fd, path):
            return fd, previous
        os.close(fd)


@contextmanager
def sweep_lock(directory: Path, notices: TextIO | None = None) -> Iterator[Path]:
    """Hold directory/sweep.lock while the block runs (the directory is created if needed);
    released (the file removed) at its end. A failure to take it leaves nothing behind."""
    path = directory / LOCK_NAME
    created = not directory.exists()
    fd = None
    try:
        try:
            directory.mkdir(parents=True, exist_ok=True)
            fd, previous = open_claimed(path, directory)
        except OSError as error:
            raise AnalysisError(f"{path}: cannot take the lock "
                                f"({error.strerror or error})") from error
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, this_holder().text().encode(), 0)
        except OSError as error:
            raise AnalysisError(f"{path}: cannot write the lock "
                                f"({error.strerror or error})") from error
    except BaseException:
        if fd is not None:
            release(fd, path)
        if created:
            with suppress(OSError):
                directory.rmdir()
        raise
    try:
        if previous is not None:
            print(f"pfabric-analysis: note: {path}: taking over from {previous.line()}, which "
                  "ended without releasing it", file=notices or sys.stderr)
        yield path
    finally:
        release(fd, path)


def release(fd: int, path: Path) -> None:
    """Remove the lock file while still holding it (so no one claims a file being removed),
    then let it go."""
    with suppress(OSError):
        path.unlink()
    os.close(fd)
