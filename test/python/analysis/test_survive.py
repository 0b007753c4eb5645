"""Sweeps that survive (issue 32, point 2): a sweep killed by SIGKILL at random moments leaves
nothing that reads as finished and resumes to the numbers of an uninterrupted sweep; a program
killed mid-run, or left half-written by its sweep's death, is never taken for finished; a second
sweep on a directory is refused in one line; a full disk fails in one line naming the file and
leaves nothing half-written. The sweeps run the real programs on a 4-host star
(PFABRIC_BUILD_DIR), as subprocesses where they are to be killed."""

from __future__ import annotations

import errno
import io
import os
import random
import re
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import pfabric_analysis
from pfabric_analysis import store
from pfabric_analysis.cli import main
from pfabric_analysis.figures import find_run_directories
from pfabric_analysis.lock import LOCK_NAME, sweep_lock
from pfabric_analysis.runs import UNFINISHED_MARK, AnalysisError, read_run

# The directory holding the package under test, for the sweeps' PYTHONPATH.
ANALYSIS = Path(pfabric_analysis.__file__).resolve().parents[1]
POINTS = ("websearch-pfabric-load0.1-run1", "websearch-tcp-load0.1-run1",
          "websearch-ideal-load0.1-run1")
FLOW_LIST = "websearch-load0.1-run1.csv"
TASKS = len(POINTS) + 1  # and the flow list
KILL_POINTS = 8
KILL_SEED = 32  # the number: the delays are the same on every run of the test
DEATH_SECONDS = 10  # how long a killed sweep's programs may take to die


def sweep_arguments(out: Path, bins: Path, *extra: str) -> list[str]:
    return ["sweep", f"--out={out}", f"--store={out}-store", "--schemes=pfabric,tcp,ideal",
            "--loads=0.1", "--flows=20", "--set=topology=star", "--set=hosts=4", "--quiet",
            "-j", "1", f"--bin-dir={bins}", *extra]


def start_sweep(out: Path, bins: Path) -> subprocess.Popen:
    """`pfabric-analysis sweep` as a process of its own session (the test's clean-up kills the
    group; the kills under test go to the sweep's pid alone)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(ANALYSIS), os.environ.get("PYTHONPATH")]))}
    return subprocess.Popen([sys.executable, "-m", "pfabric_analysis.cli",
                             *sweep_arguments(out, bins)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def end_group(process: subprocess.Popen) -> None:
    """Whatever the test left running in the sweep's session."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def running_programs(path: Path) -> list[int]:
    """Live processes (zombies aside) whose command line names path."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if str(path) in command and state != "Z":
            found.append(int(entry.name))
    return found


def wait_until_no_program(path: Path) -> None:
    deadline = time.monotonic() + DEATH_SECONDS
    while running_programs(path) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert running_programs(path) == [], f"programs of {path} outlived their sweep"


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_until_dead(pid_file: Path) -> None:
    """The program that wrote its pid to pid_file ends (killed with its sweep)."""
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + DEATH_SECONDS
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid), f"the program (pid {pid}) outlived its sweep"


def reference(tmp_path: Path, bins: Path) -> tuple[Path, float]:
    """An uninterrupted sweep, and the seconds it spent holding its lock (doing its work)."""
    out = tmp_path / "reference"
    process = start_sweep(out, bins)
    while process.poll() is None and not (out / LOCK_NAME).exists():
        time.sleep(0.005)
    began = time.monotonic()
    stdout, stderr = process.communicate()
    assert process.returncode == 0, stderr
    assert stdout.startswith(f"sweep: {TASKS} ran, 0 already finished, 0 failed")
    return out, time.monotonic() - began


def figures_runs(path: Path) -> list[Path]:
    """The run directories figures would read below path (none yet: [])."""
    if not path.exists():
        return []
    try:
        return find_run_directories(path)
    except AnalysisError as error:
        assert str(error).endswith("no run directories (fct.csv + meta.json) below it")
        return []


def assert_nothing_false(out: Path, ref: Path) -> None:
    """Everything that reads as finished equals the uninterrupted sweep's: every run directory
    figures would read, every flow list, every store point (hidden copies are skipped)."""
    for run in figures_runs(out):
        try:
            read_run(run)
        except AnalysisError:
            continue  # refused: not taken for finished
        assert (run / "fct.csv").read_bytes() == \
            (ref / "runs" / run.name / "fct.csv").read_bytes()
    for flow_list in (out / "flows").glob("*.csv"):
        assert flow_list.read_bytes() == (ref / "flows" / flow_list.name).read_bytes()
    kept = Path(f"{out}-store")
    for point in figures_runs(kept):
        assert store.is_stored(kept, point.name)
        assert (point / store.COMPACT_FCT).read_bytes() == \
            (Path(f"{ref}-store") / point.name / store.COMPACT_FCT).read_bytes()


def assert_whole(out: Path, ref: Path) -> None:
    """A sweep that ended: every point exactly once, with the uninterrupted sweep's numbers,
    and nothing else left (no mark, temporary or lock)."""
    assert sorted(p.name for p in out.iterdir()) == ["flows", "runs", "sweep.json"]
    assert [p.name for p in (out / "flows").iterdir()] == [FLOW_LIST]
    assert sorted(p.name for p in (out / "runs").iterdir()) == sorted(POINTS)
    for name in POINTS:
        run = out / "runs" / name
        assert sorted(p.name for p in run.iterdir()) == ["fct.csv", "meta.json"]
        assert (run / "fct.csv").read_bytes() == (ref / "runs" / name / "fct.csv").read_bytes()
        point = Path(f"{out}-store") / name
        assert store.stored_lines(point) == (run / "fct.csv").read_bytes()
    assert sorted(p.name for p in Path(f"{out}-store").iterdir()) == sorted([*POINTS, "columns"])
    assert sorted(p.name for p in find_run_directories(Path(f"{out}-store"))) == sorted(POINTS)


def resume(out: Path, bins: Path, capsys: pytest.CaptureFixture) -> str:
    assert main(sweep_arguments(out, bins)) == 0
    return capsys.readouterr().out


def test_a_sweep_killed_at_random_moments_resumes_to_the_uninterrupted_numbers(
        bin_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Sweeps SIGKILLed at seeded random moments of their work (0 to the reference's working
    time after they took their lock) until KILL_POINTS kills landed (a sweep that ended first is
    not one), each then resumed: each resume reports every task exactly once (ran + already
    finished) and ends with the reference's bytes."""
    ref, working = reference(tmp_path, bin_dir)
    rng = random.Random(KILL_SEED)
    finished_at_kill: list[int] = []  # tasks already finished at each kill that landed
    for attempt in range(3 * KILL_POINTS):
        if len(finished_at_kill) == KILL_POINTS:
            break
        out = tmp_path / f"killed{attempt}"
        process = start_sweep(out, bin_dir)
        try:
            while process.poll() is None and not (out / LOCK_NAME).exists():
                time.sleep(0.002)
            time.sleep(rng.uniform(0, working))
            os.kill(process.pid, signal.SIGKILL)
            killed = process.wait() == -signal.SIGKILL
            wait_until_no_program(out)
        finally:
            end_group(process)
        assert_nothing_false(out, ref)
        text = resume(out, bin_dir, capsys)
        counts = re.match(r"sweep: (\d+) ran, (\d+) already finished, 0 failed, 0 not run", text)
        assert counts is not None and int(counts[1]) + int(counts[2]) == TASKS, text
        if killed:
            finished_at_kill.append(int(counts[2]))
        assert_whole(out, ref)
    assert len(finished_at_kill) == KILL_POINTS
    print(f"tasks already finished at each of the {KILL_POINTS} kills: {finished_at_kill}")


def write_script(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path.parent


def write_pid(path: Path) -> str:
    """Shell commands that write the shell's pid to path, whole once path exists."""
    return f"echo $$ > {path}.tmp && mv {path}.tmp {path}"


def tcp_stand_in(tmp_path: Path, real: Path, tcp_body: str) -> Path:
    """pfabric-websearch, except that a tcp point runs tcp_body (with $out its --out)."""
    return write_script(tmp_path / "stand-in" / "pfabric-websearch", (
        "case \"$*\" in *--scheme=tcp*)\n"
        "  out=$(printf '%s\\n' \"$@\" | sed -n 's/^--out=//p')\n"
        f"  {tcp_body}\n"
        "esac\n"
        f"exec {real / 'pfabric-websearch'} \"$@\"\n"))


@contextmanager
def killed_while_waiting(out: Path, bins: Path, pid_file: Path) -> Iterator[subprocess.Popen]:
    """A sweep on out whose stand-in program waits (having written its pid to pid_file) while
    the block runs; then the sweep is SIGKILLed and its program must die with it."""
    process = start_sweep(out, bins)
    try:
        while process.poll() is None and not pid_file.exists():
            time.sleep(0.01)
        assert process.poll() is None
        yield process
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        wait_until_dead(pid_file)
    finally:
        end_group(process)


def test_a_program_that_outlives_its_write_is_not_taken_for_finished(
        bin_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The tcp program writes half of its fct.csv and a whole meta.json in place (as a program
    writing without renames would) and sleeps; its sweep is SIGKILLed. The program dies with
    it, the point is not finished for figures or a resume, and the resume gives the reference."""
    ref, _ = reference(tmp_path, bin_dir)
    tcp = ref / "runs" / POINTS[1]
    started = tmp_path / "started"
    bins = tcp_stand_in(tmp_path, bin_dir, (
        f"head -c 200 {tcp / 'fct.csv'} > \"$out/fct.csv\"; "
        f"cp {tcp / 'meta.json'} \"$out/meta.json\"; {write_pid(started)}; exec sleep 600"))
    out = tmp_path / "sweep"
    with killed_while_waiting(out, bins, started):
        pass
    half = out / "runs" / POINTS[1]
    assert (half / "meta.json").is_file() and (half / UNFINISHED_MARK).is_file()
    with pytest.raises(AnalysisError, match=f"^{half}: unfinished"):
        read_run(half)
    assert_nothing_false(out, ref)
    text = resume(out, bin_dir, capsys)
    # tcp again, and Ideal, which comes after it in plan order (-j 1)
    assert text.startswith("sweep: 2 ran, 2 already finished, 0 failed")
    assert_whole(out, ref)


def test_a_program_killed_mid_run_fails_its_point_alone(
        bin_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The tcp program writes half a file and is SIGKILLed: its point fails in the report, its
    directory is gone, the other points finish; the resume runs it alone."""
    ref, _ = reference(tmp_path, bin_dir)
    bins = tcp_stand_in(tmp_path, bin_dir, (
        f"head -c 200 {ref / 'runs' / POINTS[1] / 'fct.csv'} > \"$out/fct.csv\"; kill -9 $$"))
    out = tmp_path / "sweep"
    assert main(sweep_arguments(out, bins)) == 1
    text = capsys.readouterr().out
    assert text.startswith("sweep: 3 ran, 0 already finished, 1 failed")
    assert f"  failed: {POINTS[1]}: exit status -9: " in text
    assert not (out / "runs" / POINTS[1]).exists()
    assert not store.is_stored(Path(f"{out}-store"), POINTS[1])
    assert resume(out, bin_dir, capsys).startswith("sweep: 1 ran, 3 already finished, 0 failed")
    assert sorted(p.name for p in out.iterdir()) == ["flows", "logs", "runs", "sweep.json"]
    (out / "logs" / f"{POINTS[1]}.stderr").unlink()
    (out / "logs").rmdir()
    assert_whole(out, ref)


def test_a_second_sweep_on_a_directory_is_refused_and_a_dead_ones_lock_taken_over(
        bin_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Sweep A holds the directory (its tcp program waits); sweep B on it is refused in one line
    naming the directory and A's pid. A is SIGKILLed: its lock file stays, and sweep C takes it
    over with a one-line notice, finishes, and removes it."""
    waiting = tmp_path / "waiting"
    bins = tcp_stand_in(tmp_path, bin_dir, f"{write_pid(waiting)}; exec sleep 600")
    out = tmp_path / "sweep"
    with killed_while_waiting(out, bins, waiting) as first:
        assert main(sweep_arguments(out, bin_dir)) == 1
        error = capsys.readouterr().err
        assert error.count("\n") == 1, error
        assert error.startswith(f"pfabric-analysis: error: {out}: another sweep is running "
                                f"there (pid {first.pid} on host {socket.gethostname()}, since ")
    assert (out / LOCK_NAME).read_text().startswith(f"{first.pid} {socket.gethostname()} ")
    assert main(sweep_arguments(out, bin_dir)) == 0
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and captured.err.startswith(
        f"pfabric-analysis: note: {out / LOCK_NAME}: taking over from pid {first.pid} on host ")
    assert captured.out.startswith("sweep: 2 ran, 2 already finished, 0 failed")
    assert not (out / LOCK_NAME).exists()


def dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_without_flock_the_holders_line_decides(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """On a file system without flock (ENOLCK), a lock naming a live pid of this host, or a
    holder on another host, refuses; one naming an ended pid is taken over."""
    import fcntl

    def no_flock(fd: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(fcntl, "flock", no_flock)
    lock = tmp_path / LOCK_NAME
    host = socket.gethostname()
    for holder in (f"{os.getpid()} {host} 2026-11-25T00:00:00+0000",
                   f"{dead_pid()} elsewhere.example 2026-11-25T00:00:00+0000"):
        lock.write_text(holder + "\n")
        with pytest.raises(AnalysisError, match=f"^{tmp_path}: another sweep is running there "
                                                f"\\(pid {holder.split()[0]} on host "), \
                sweep_lock(tmp_path):
            pass
        assert lock.read_text() == holder + "\n"  # left to its holder
    ended = dead_pid()
    lock.write_text(f"{ended} {host} 2026-11-25T00:00:00+0000\n")
    notices = io.StringIO()
    with sweep_lock(tmp_path, notices=notices):
        assert lock.read_text().startswith(f"{os.getpid()} {host} ")
    assert notices.getvalue().startswith(f"pfabric-analysis: note: {lock}: taking over from pid "
                                         f"{ended} on host {host}")
    assert not lock.exists()


def test_a_lock_held_in_this_process_refuses_a_second(tmp_path: Path) -> None:
    """flock locks are per open file: a second claim, even from the holder's process, fails."""
    with sweep_lock(tmp_path):
        with pytest.raises(AnalysisError, match=f"pid {os.getpid()} on host"), \
                sweep_lock(tmp_path):
            pass
        assert (tmp_path / LOCK_NAME).exists()
    assert not (tmp_path / LOCK_NAME).exists()


def full_disk(monkeypatch: pytest.MonkeyPatch, method: str, file_name: str) -> None:
    """Path.<method> writes half of what it is given to a file named file_name, then fails as
    on a full disk."""
    original = getattr(Path, method)

    def half_then_enospc(self: Path, data, *args, **kwargs):
        if self.name != file_name:
            return original(self, data, *args, **kwargs)
        original(self, data[:len(data) // 2], *args, **kwargs)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(Path, method, half_then_enospc)


ENOSPC_TEXT = os.strerror(errno.ENOSPC)


def test_a_full_disk_for_sweep_json_leaves_nothing(bin_dir: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "sweep"
    full_disk(monkeypatch, "write_text", "sweep.json.partial")
    assert main(sweep_arguments(out, bin_dir)) == 1
    error = capsys.readouterr().err
    assert error == (f"pfabric-analysis: error: {out / 'sweep.json'}: cannot write "
                     f"({ENOSPC_TEXT})\n")
    assert sorted(p.name for p in out.iterdir()) == ["flows", "runs"]  # no sweep.json, no lock
    assert not any((out / "runs").iterdir()) and not any((out / "flows").iterdir())


def test_a_full_disk_for_the_lock_leaves_nothing(bin_dir: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture) -> None:
    def no_space(fd: int, data: bytes, offset: int) -> int:
        raise OSError(errno.ENOSPC, ENOSPC_TEXT)

    monkeypatch.setattr(os, "pwrite", no_space)
    out = tmp_path / "sweep"
    assert main(sweep_arguments(out, bin_dir)) == 1
    assert capsys.readouterr().err == (f"pfabric-analysis: error: {out / LOCK_NAME}: cannot "
                                       f"write the lock ({ENOSPC_TEXT})\n")
    assert not out.exists()


def test_a_full_disk_for_the_store_fails_its_points_in_one_line_each(
        bin_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture) -> None:
    """Every compact point fails to write: one line per point naming its fct.columns.xz, exit 1, a
    store without a point (no half point, no temporary; the shared columns written before are
    whole, and the same for whichever point names them); the run directories are finished, so
    the resume, disk freed, runs nothing and fills the store."""
    out = tmp_path / "sweep"
    kept = Path(f"{out}-store")
    full_disk(monkeypatch, "write_bytes", store.COMPACT_FCT)
    assert main(sweep_arguments(out, bin_dir)) == 1
    text = capsys.readouterr().out
    assert text.startswith("sweep: 1 ran, 0 already finished, 3 failed")  # the list
    for name in POINTS:
        assert (f"  failed: {name}: {kept / name / store.COMPACT_FCT}: cannot write the compact "
                f"point ({ENOSPC_TEXT})\n") in text
    assert [p.name for p in kept.iterdir()] == ["columns"]
    assert not any(p.name.startswith(".") for p in (kept / "columns").iterdir())
    monkeypatch.undo()
    assert main(sweep_arguments(out, bin_dir)) == 0
    assert capsys.readouterr().out.startswith("sweep: 0 ran, 4 already finished, 0 failed")
    assert sorted(p.name for p in kept.iterdir()) == sorted([*POINTS, "columns"])


def test_a_full_disk_for_a_log_keeps_the_error_in_the_report(
        bin_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture) -> None:
    bins = tcp_stand_in(tmp_path, bin_dir, "echo 'tcp: simulated crash' >&2; exit 3")
    log = tmp_path / "sweep" / "logs" / f"{POINTS[1]}.stderr"
    full_disk(monkeypatch, "write_text", log.name)
    assert main(sweep_arguments(tmp_path / "sweep", bins)) == 1
    text = capsys.readouterr().out
    assert f"  failed: {POINTS[1]}: exit status 3: tcp: simulated crash\n" \
           f"    {log}: not written ({ENOSPC_TEXT})\n" in text
    assert not log.exists()


def test_a_full_disk_for_a_program_names_the_file_and_leaves_nothing(
        bin_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The real program writing the flow list cannot write a byte (ulimit -f 0, SIGXFSZ
    ignored: its writes fail as on a full disk): the report names the list in one line, its
    points are not run, and neither the list nor its temporary is left."""
    bins = write_script(tmp_path / "limited" / "pfabric-websearch", (
        "case \"$*\" in *--flowsOnly*) trap '' XFSZ; ulimit -f 0;; esac\n"
        f"exec {bin_dir / 'pfabric-websearch'} \"$@\"\n"))
    out = tmp_path / "sweep"
    assert main(sweep_arguments(out, bins)) == 1
    text = capsys.readouterr().out
    assert text.startswith("sweep: 0 ran, 0 already finished, 1 failed, 3 not run")
    assert (f"  failed: {FLOW_LIST[:-4]}: exit status 1: pfabric-websearch: error: "
            f"{out / 'flows' / FLOW_LIST}: cannot write the file\n") in text
    assert list((out / "flows").iterdir()) == [] and list((out / "runs").iterdir()) == []


def test_a_killed_writers_store_copies_are_cleared_and_never_read(tmp_path: Path) -> None:
    """What a store writer killed mid-write leaves (a whole-looking hidden copy) is skipped by
    figures; the sweep clears this host's ended writers' copies of its points, puts a point set
    aside while replaced back, and leaves a live writer's and another host's alone."""
    run = tmp_path / "runs" / "websearch-pfabric-load0.5-run1"
    run.mkdir(parents=True)
    (run / "fct.csv").write_text(
        "flow_id,src,dst,size_bytes,start_s,fct_s,ideal_fct_s,timeouts,completed\n"
        "0,0,1,1000,0,2e-05,1e-05,0,1\n")
    (run / "meta.json").write_text('{"workload": "websearch", "parameters": {"scheme": '
                                   '"pfabric", "load": 0.5, "seed": 1, "run": 1}}\n')
    kept = tmp_path / "store"
    point = store.write_point(run, kept)
    host, ended = socket.gethostname(), dead_pid()
    ended_copy, live_copy, far_copy = (kept / f".{point.name}.tmp-{where}-{pid}" for where, pid
                                       in ((host, ended), (host, os.getpid()),
                                           ("elsewhere", ended)))
    for copy in (ended_copy, live_copy, far_copy):
        copy.mkdir()
        for name in (store.COMPACT_FCT, store.META):
            (copy / name).write_bytes((point / name).read_bytes())
    shared = min((kept / "columns").iterdir())
    ended_column, live_column = (shared.parent / f".{shared.name}.tmp-{host}-{pid}"
                                 for pid in (ended, os.getpid()))
    for copy in (ended_column, live_column):
        copy.write_bytes(shared.read_bytes())
    assert find_run_directories(kept) == [point]
    set_aside = kept / f".{point.name}.old-{host}-{ended}"
    point.rename(set_aside)  # killed while replacing it
    assert sorted(store.remove_leftovers(kept, {point.name})) == sorted([ended_copy, set_aside,
                                                                        ended_column])
    assert sorted(p.name for p in kept.iterdir()) == sorted([point.name, live_copy.name,
                                                             far_copy.name, "columns"])
    assert live_column.exists()
    assert store.is_stored(kept, point.name)
