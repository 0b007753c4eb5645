"""A sweep on a real Dask cluster: a scheduler and two workers as separate OS processes on
loopback, one of them killed (with the program it runs) while both are busy. Every point must
still be written, exactly once, whole, and equal to a local sweep's."""

from __future__ import annotations

import os
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from pfabric_analysis.cli import main

LOADS = "0.2,0.4,0.6"
POINT_SECONDS = 2  # each packet run waits this long first, so both workers are busy at the kill


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def logging_bin_dir(real: Path, tmp_path: Path) -> Path:
    """pfabric-websearch behind a script that logs each packet run's start and successful end
    (by its --out) and waits POINT_SECONDS before it; flow lists and an Ideal point's ideal FCTs
    (--idealOnly, into a temporary directory) pass straight through."""
    wrapped = tmp_path / "bin"
    wrapped.mkdir()
    log = tmp_path / "runs.log"
    script = wrapped / "pfabric-websearch"
    script.write_text(
        "#!/bin/sh\n"
        f"case \"$*\" in *--idealOnly*) exec {real / 'pfabric-websearch'} \"$@\";; esac\n"
        "out=$(printf '%s\\n' \"$@\" | sed -n 's/^--out=//p')\n"
        f"[ -n \"$out\" ] && echo \"start $out\" >> {log} && sleep {POINT_SECONDS}\n"
        f"{real / 'pfabric-websearch'} \"$@\" || exit $?\n"
        f"[ -n \"$out\" ] && echo \"done $out\" >> {log}\n"
        "exit 0\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return wrapped


def sweep_arguments(out: Path, bins: Path) -> list[str]:
    return ["sweep", f"--out={out}", "--schemes=pfabric,tcp,ideal", f"--loads={LOADS}",
            "--flows=12", "--set=topology=star", "--set=hosts=4", "--quiet", f"--bin-dir={bins}"]


def start(command: list[str], log: Path) -> subprocess.Popen:
    """A process in its own session, so that killing its group takes its children too."""
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log.open("w"),
                            start_new_session=True)


def lines(path: Path, word: str) -> list[str]:
    return [line.split(" ", 1)[1] for line in path.read_text().splitlines()
            if line.startswith(word + " ")] if path.exists() else []


def test_a_sweep_survives_a_killed_worker_on_a_real_cluster(bin_dir: Path, tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    local = tmp_path / "local"
    assert main(sweep_arguments(local, bin_dir)) == 0

    dask = Path(sys.executable).parent / "dask"
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    processes = [start([str(dask), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                        "--no-dashboard"], tmp_path / "scheduler.log")]
    try:
        for i in range(2):
            processes.append(start([str(dask), "worker", address, "--nthreads", "1",
                                    "--no-nanny", "--no-dashboard", "--name", f"worker{i}"],
                                   tmp_path / f"worker{i}.log"))
        with distributed.Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=60)

        log = tmp_path / "runs.log"
        killed: list[str] = []

        def kill_one_worker_when_both_are_busy() -> None:
            deadline = time.monotonic() + 120
            while len(lines(log, "start")) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            os.killpg(processes[2].pid, signal.SIGKILL)
            processes[2].wait()
            killed.append("worker1")

        killer = threading.Thread(target=kill_one_worker_when_both_are_busy)
        killer.start()
        remote = tmp_path / "remote"
        code = main(sweep_arguments(remote, logging_bin_dir(bin_dir, tmp_path)) +
                    [f"--scheduler={address}"])
        killer.join()
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    assert killed == ["worker1"] and code == 0
    starts, ends = lines(log, "start"), lines(log, "done")
    # The killed worker's point started twice and ended once; every point ended exactly once.
    assert len(starts) == len(ends) + 1, starts
    assert sorted(ends) == sorted(set(ends)) and len(ends) == 6
    # Every point whole, nothing else left behind, and the same results as the local sweep.
    points = sorted(p.name for p in (local / "runs").iterdir())
    assert sorted(p.name for p in (remote / "runs").iterdir()) == points
    for name in points:
        assert sorted(p.name for p in (remote / "runs" / name).iterdir()) == ["fct.csv",
                                                                                "meta.json"]
        assert (remote / "runs" / name / "fct.csv").read_bytes() == \
            (local / "runs" / name / "fct.csv").read_bytes()
    assert not (remote / "logs").exists()
