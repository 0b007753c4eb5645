"""Carrying out a sweep's plan: each task run where it is (a local thread or a Dask worker) into
a run directory that is whole or marked unfinished, tasks started as their inputs are ready (a
failure blocks only what depends on it), points claimed in a store that other sweeps share, and a
progress bar weighed by the bytes each point simulates."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pfabric_analysis import allocator
from pfabric_analysis import store as compact
from pfabric_analysis.programs import run_program
from pfabric_analysis.runs import UNFINISHED_MARK, AnalysisError
from pfabric_analysis.sweep_plan import IDEAL_LIST_DOUBLINGS, Task, is_finished, is_run

STDERR_TAIL_LINES = 20


@dataclass
class Outcome:
    """What became of one task."""

    task: Task
    status: str  # "done", "skipped", "failed", "blocked" or "claimed" (by another sweep)
    seconds: float = 0.0
    error: str = ""


def store_finished(tasks: list[Task]) -> int:
    """Compact every finished run directory that its store lacks (a store given to a sweep
    begun without one); the number written."""
    written = 0
    for task in tasks:
        if task.store is not None and is_run(task) and \
                not compact.is_stored(task.store, task.name):
            compact.write_point(task.output, task.store, task.name)
            written += 1
    return written


def execute(task: Task) -> tuple[bool, str]:
    """Run one task where it is (a local thread or a Dask worker): (success, error text); with a
    store, a finished point is also compacted there.

    A point's run directory is emptied and marked unfinished first, cleared of the mark once its
    program succeeded and removed on failure, so a point is either whole and unmarked or not
    finished. A file that cannot be written (a full disk) fails the task in one line naming it."""
    try:
        ok, error = execute_task(task)
    except OSError as failure:
        if task.kind != "flows":
            shutil.rmtree(task.output, ignore_errors=True)
        return False, os_error_line(failure)
    if ok and task.kind != "flows" and task.store is not None:
        try:
            compact.write_point(task.output, task.store, task.name)
        except AnalysisError as failure:
            return False, str(failure)
    return ok, error


def os_error_line(error: OSError) -> str:
    """An OSError in one line, naming its file when it has one."""
    reason = error.strerror or str(error)
    return f"{error.filename}: {reason}" if error.filename else reason


def begin_point(output: Path) -> None:
    """An empty run directory holding UNFINISHED_MARK: what an earlier attempt left is removed."""
    if output.exists():
        shutil.rmtree(output)
    output.mkdir(parents=True)
    (output / UNFINISHED_MARK).touch()


def execute_task(task: Task) -> tuple[bool, str]:
    if task.kind != "flows":
        begin_point(task.output)
    ok, error = run_task(task)
    if task.kind == "flows":
        return ok, error
    if ok:
        (task.output / UNFINISHED_MARK).unlink()
    else:
        shutil.rmtree(task.output, ignore_errors=True)
    return ok, error


def run_task(task: Task) -> tuple[bool, str]:
    """Run the task's program(s): (success, error text)."""
    if task.kind == "ideal" and task.list_command:
        return execute_windowed_ideal(task)
    if task.kind == "ideal":
        from pfabric_analysis.ideal import run_ideal

        assert task.flow_list is not None, f"{task.name}: an Ideal task without its flow list"
        try:
            run_ideal(task.flow_list, task.output, program=Path(task.command[0]),
                      options=task.command[1:])
        except AnalysisError as error:
            return False, str(error)
        return True, ""
    result = run_program(task.command, env=allocator.child_environment())
    if result.returncode == 0:
        return True, ""
    return False, f"exit status {result.returncode}: {stderr_tail(result)}"


def stderr_tail(result: subprocess.CompletedProcess) -> str:
    return "\n".join(result.stderr.strip().splitlines()[-STDERR_TAIL_LINES:])


def execute_windowed_ideal(task: Task) -> tuple[bool, str]:
    """A windowed Ideal point: `pfabric-analysis ideal` on its flow list; while it fails naming
    the list (its arrivals end before the last measured flow completes), the list is made again
    twice as long, up to IDEAL_LIST_DOUBLINGS times."""
    flows = task.list_flows
    for doubling in range(IDEAL_LIST_DOUBLINGS + 1):
        if doubling:
            flows *= 2
            made = run_program(task.list_command + (f"--flows={flows}",))
            if made.returncode != 0:
                return False, f"flow list of {flows} flows: exit status {made.returncode}: " \
                    + stderr_tail(made)
        result = run_program(task.command, env={**os.environ, "PYTHONPATH": os.pathsep.join(
            filter(None, [str(Path(__file__).resolve().parents[1]),
                          os.environ.get("PYTHONPATH")]))})
        if result.returncode == 0:
            return True, ""
        begin_point(task.output)
        tail = stderr_tail(result)
        if str(task.flow_list) not in result.stderr:
            return False, f"exit status {result.returncode}: {tail}"
    return False, f"{task.flow_list}: still too short at {flows} flows: {tail}"


def timed_execute(task: Task) -> tuple[bool, str, float]:
    began = time.monotonic()
    ok, error = execute(task)
    return ok, error, time.monotonic() - began


def flow_list_bytes(path: Path) -> int:
    """The bytes of every flow of a flow list (--dumpFlows's format)."""
    import pandas as pd

    return int(pd.read_csv(path, usecols=["size_bytes"])["size_bytes"].sum())


class Progress:
    """A one-line progress bar on stderr: points done, work done and the ETA.

    Work is counted in bytes, the bytes of the flow list a packet run simulates (flow lists and
    Ideal schedules take seconds and count as none): a point's cost follows its packet hops,
    which follow its bytes; a data mining point carries about 4.5 times the bytes of a web
    search point of as many flows.
    A point whose flow list does not exist yet is weighed by its expected bytes (flows times the
    workload's mean size) until the list is written. The ETA is the time left at the rate of work
    done so far."""

    def __init__(self, tasks: list[Task], enabled: bool,
                 expected_bytes: dict[Path, float] | None = None, stream=sys.stderr) -> None:
        self.enabled, self.stream = enabled, stream
        self.expected = expected_bytes or {}
        self.list_bytes: dict[Path, int] = {}
        self.pending = {t.name: t for t in tasks if not is_finished(t)}
        self.work = {name: self.weigh(task) for name, task in self.pending.items()}
        self.total = len(self.pending)
        self.done = 0
        self.done_work = 0.0
        self.began = time.monotonic()

    def weigh(self, task: Task) -> float:
        if task.kind != "packet":
            return 0.0
        if task.flow_list is None:  # a windowed point: its window's expected bytes
            return float(self.expected.get(task.output, 0.0))
        if task.flow_list in self.list_bytes:
            return float(self.list_bytes[task.flow_list])
        if task.flow_list.is_file():
            self.list_bytes[task.flow_list] = flow_list_bytes(task.flow_list)
            return float(self.list_bytes[task.flow_list])
        return float(self.expected.get(task.flow_list, 0.0))

    def advance(self, task: Task) -> None:
        self.done += 1
        self.done_work += self.work.pop(task.name, 0.0)
        self.pending.pop(task.name, None)
        if task.kind == "flows" and task.output.is_file():
            for name, other in self.pending.items():
                if other.flow_list == task.output:
                    self.work[name] = self.weigh(other)
        if not self.enabled:
            return
        self.stream.write("\r" + self.line(time.monotonic() - self.began))
        if self.done == self.total:
            self.stream.write("\n")
        self.stream.flush()

    def fraction(self) -> float:
        """Work done over all work, as now estimated."""
        all_work = self.done_work + sum(self.work.values())
        return self.done_work / all_work if all_work > 0 else 0.0

    def line(self, elapsed: float) -> str:
        fraction = self.fraction()
        width = 30
        filled = int(width * fraction)
        eta = (format_duration(elapsed * (1 - fraction) / fraction) if fraction > 0
               else "--")
        return (f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} tasks, "
                f"work {100 * fraction:.1f}% (bytes), {format_duration(elapsed)} elapsed, "
                f"ETA {eta}")


def format_duration(seconds: float) -> str:
    seconds = round(seconds)
    return f"{seconds // 3600}h{seconds // 60 % 60:02d}m" if seconds >= 3600 else \
        f"{seconds // 60}m{seconds % 60:02d}s"


Future = Any  # what a Submit returns: a concurrent.futures or a Dask future
Submit = Callable[[Task], Future]


def run_tasks(tasks: list[Task], submit: Submit, wait_any: Callable[[set], tuple[set, set]],
              result_of: Callable[[Future], tuple[bool, str, float]],
              progress: Progress, max_pending: int | None = None) -> list[Outcome]:
    """Run tasks as their inputs become ready; a failure blocks only what depends on it. A point
    is claimed in its store before it runs, and one that another sweep sharing the store has
    stored or claimed when its turn comes is left to it, so such sweeps split the points.

    With max_pending, at most that many run at once and the next one is the first ready task in
    plan order, so a point's Ideal schedule follows its packet run instead of waiting for the
    whole grid."""
    outcomes: dict[str, Outcome] = {}
    pending: dict[Future, Task] = {}
    waiting = []
    for task in tasks:
        if is_finished(task):
            outcomes[task.name] = Outcome(task, "skipped")
        else:
            waiting.append(task)
    while waiting or pending:
        still = []
        for task in waiting:
            states = [outcomes.get(need) for need in task.needs]
            elsewhere = left_to_another_sweep(task)
            if elsewhere is not None:
                outcomes[task.name] = elsewhere
                progress.advance(task)
            elif any(o is not None and o.status in ("failed", "blocked") for o in states):
                outcomes[task.name] = Outcome(task, "blocked",
                                              error="needs " + ", ".join(task.needs))
                progress.advance(task)
            elif all(o is not None for o in states) and (max_pending is None
                                                         or len(pending) < max_pending):
                elsewhere = claim_point(task)
                if elsewhere is not None:
                    outcomes[task.name] = elsewhere
                    progress.advance(task)
                else:
                    pending[submit(task)] = task
            else:
                still.append(task)
        waiting = still
        if not pending:
            if waiting:
                raise AnalysisError("sweep: tasks wait for inputs that no task makes: "
                                    + ", ".join(t.name for t in waiting))
            continue
        done, _ = wait_any(set(pending))
        for future in done:
            task = pending.pop(future)
            ok, error, seconds = result_of(future)
            if task.store is not None:
                compact.release(task.store, task.name)
            if not ok:
                error = "\n".join(filter(None, [error, write_log(task, error)]))
            outcomes[task.name] = Outcome(task, "done" if ok else "failed", seconds, error)
            progress.advance(task)
    return [outcomes[task.name] for task in tasks]


def left_to_another_sweep(task: Task) -> Outcome | None:
    """The outcome of a point that another sweep sharing its store (another core or machine) has
    stored since this one started ("skipped") or holds a live claim on ("claimed"); None
    otherwise."""
    if task.store is None:
        return None
    if compact.is_stored(task.store, task.name):
        return Outcome(task, "skipped")
    holder = compact.other_claim(task.store, task.name)
    return None if holder is None else Outcome(task, "claimed", error=holder)


def claim_point(task: Task) -> Outcome | None:
    """Claim the task's point in its store before it runs (released when it ends); the outcome
    instead when another sweep claimed or stored it first."""
    if task.store is None:
        return None
    holder = compact.claim(task.store, task.name)
    if holder is not None:
        return Outcome(task, "claimed", error=holder)
    if compact.is_stored(task.store, task.name):
        compact.release(task.store, task.name)
        return Outcome(task, "skipped")
    return None


def write_log(task: Task, error: str) -> str:
    """Keep a failed task's error in logs/; "" or, when the log cannot be written (a full disk),
    a line saying so (the report still carries the error)."""
    log = task.output.parent.parent / "logs" / f"{task.name}.stderr"
    try:
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(error + "\n")
    except OSError as failure:
        log.unlink(missing_ok=True)
        return f"{log}: not written ({failure.strerror or failure})"
    return ""


def run_local(tasks: list[Task], jobs: int, progress: Progress) -> list[Outcome]:
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return run_tasks(tasks, lambda t: pool.submit(timed_execute, t),
                         lambda fs: wait(fs, return_when=FIRST_COMPLETED),
                         lambda f: f.result(), progress, max_pending=jobs)


def connect(scheduler: str):
    """A client of a Dask distributed scheduler, connected before the sweep writes anything (a
    scheduler that cannot be reached leaves no sweep directory behind)."""
    try:
        from distributed import Client
    except ImportError as error:
        raise AnalysisError("--scheduler: the Dask 'distributed' package is not installed") \
            from error
    try:
        return Client(scheduler, timeout="30s")
    except (OSError, TimeoutError, ValueError) as error:
        raise AnalysisError(f"--scheduler {scheduler}: cannot connect ({error})") from error


def run_dask(tasks: list[Task], client, progress: Progress) -> list[Outcome]:
    """Run on a Dask distributed cluster (a connected client); workers need this package and the
    sweep directory and the programs at the same paths (a shared file system)."""
    from distributed import wait as dask_wait

    with client:
        # pure=False: a re-submitted task after a failure must run again, not reuse a result.
        return run_tasks(tasks, lambda t: client.submit(timed_execute, t, pure=False),
                         lambda fs: dask_wait(list(fs), return_when="FIRST_COMPLETED"),
                         lambda f: f.result(), progress)
