"""Committed compact points (pfabric_analysis.store) and sweeps that resume from them: compaction
by hand, deterministic bytes, `store add`, and a sweep resumed from a store alone in a fresh
clone, which runs no program and draws the same figures. The windowed sweep's plan and its Ideal
list doubling are checked with stand-in programs."""

from __future__ import annotations

import gzip
import hashlib
import json
import lzma
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd
import pytest

from pfabric_analysis import columnar, store
from pfabric_analysis.cli import main
from pfabric_analysis.figures import write_figures
from pfabric_analysis.runs import AnalysisError, read_run
from pfabric_analysis.sweep import report, sweep
from pfabric_analysis.sweep_checks import program_build
from pfabric_analysis.sweep_execute import Progress, execute, run_tasks
from pfabric_analysis.sweep_plan import Task, is_finished, plan
from pfabric_analysis.sweep_spec import SweepSpec, check_spec

HEADER = "flow_id,src,dst,size_bytes,start_s,fct_s,ideal_fct_s,timeouts,completed"
COMMITTED = Path(__file__).resolve().parents[3] / "doc" / "figures" / "store"
STAR = (("hosts", "4"), ("topology", "star"))


def write_run(directory: Path, lines: list[str], header: str = HEADER, **meta: object) -> Path:
    directory.mkdir(parents=True)
    (directory / "fct.csv").write_text("\n".join([header, *lines]) + "\n")
    (directory / "meta.json").write_text(json.dumps(
        {"workload": "websearch", "parameters": {"scheme": "pfabric", "load": 0.5, "seed": 1,
                                                 "run": 1}, **meta}, indent=2) + "\n")
    return directory


def test_compact_keeps_the_measured_lines_byte_for_byte(tmp_path: Path) -> None:
    """A windowed run: the header and the lines with measured = 1, unchanged (the numbers as the
    program wrote them, e.g. 1.10000000000000009e-05), by column and xz'd; meta.json copied as
    is; read back it is the run's measured flows; the same run gives the same bytes."""
    lines = ["0,0,1,1000,0,2e-05,1e-05,0,1,0",
             "1,1,0,2000,1e-06,1.10000000000000009e-05,1e-05,0,1,1",
             "2,0,1,3000,2e-06,3e-05,1e-05,0,1,1",
             "3,1,0,4000,3e-06,,1e-05,0,0,0"]
    run = write_run(tmp_path / "run", lines, HEADER + ",measured",
                    window={"warmup_flows": 1, "measure_flows": 2, "flows_simulated": 4,
                            "arrivals_through_end": True})
    point = store.write_point(run, tmp_path / "store")
    assert point == tmp_path / "store" / "run"
    # no temporaries
    assert sorted(p.name for p in (tmp_path / "store").iterdir()) == ["columns", "run"]
    assert sorted(p.name for p in point.iterdir()) == ["fct.columns.xz", "meta.json"]
    assert store.stored_lines(point).decode() == \
        "\n".join([HEADER + ",measured", lines[1], lines[2]]) + "\n"
    own = lzma.decompress((point / "fct.columns.xz").read_bytes()).decode().splitlines()
    assert own[5] == "fct_s,1.10000000000000009e-05,3e-05"  # column by column
    # the flow list's columns are kept apart, each under the sha256 of its line
    src = "src,1,0\n"
    assert own[1] == "src=" + hashlib.sha256(src.encode()).hexdigest()
    shared = tmp_path / "store" / "columns" / (hashlib.sha256(src.encode()).hexdigest() + ".xz")
    assert lzma.decompress(shared.read_bytes()).decode() == src
    assert [line.split("=")[0] for line in own if "=" in line] == [
        "flow_id", "src", "dst", "size_bytes", "start_s", "ideal_fct_s"]
    assert len(list((tmp_path / "store" / "columns").iterdir())) == 6
    assert (point / "meta.json").read_bytes() == (run / "meta.json").read_bytes()
    pd.testing.assert_frame_equal(read_run(point).fct, read_run(run).fct)
    assert read_run(point).flows_simulated == 4
    first = (point / "fct.columns.xz").read_bytes()
    store.write_point(run, tmp_path / "store")  # replaced in place, the same bytes
    assert (point / "fct.columns.xz").read_bytes() == first
    assert len(list((tmp_path / "store" / "columns").iterdir())) == 6
    assert store.point_bytes(tmp_path / "store", "run") == len(first) + len(
        (run / "meta.json").read_bytes())
    assert store.shared_bytes(tmp_path / "store", "run") == (6, sum(
        path.stat().st_size for path in (tmp_path / "store" / "columns").iterdir()))


def test_every_committed_point_reads_whole() -> None:
    """doc/figures/store, as committed: every point reads as a run (its shared columns there and
    holding what it names: a column left out of a commit fails here, in a fresh clone), its
    flows as many as its meta.json says, and its name the one its meta.json gives."""
    points = [path for path in sorted(COMMITTED.iterdir())
              if path.is_dir() and path.name != "columns" and not path.name.startswith(".")]
    assert len(points) >= 200
    for point in points:
        run = read_run(point)
        parameters = run.meta["parameters"]
        assert point.name == (f"{run.meta['workload']}-{parameters['scheme']}-"
                              f"load{parameters['load']:g}-run{parameters['run']}"), point
        assert len(run.fct) == run.meta["flows_total"] == 10_000, point


def test_the_schemes_of_a_run_share_its_flow_list(tmp_path: Path) -> None:
    """Two schemes of one run (the same flow list, other FCTs and timeouts) and the same run at
    another load (other start times): the second point writes no shared column, the third only
    its start_s; each reads back as its run."""
    first = write_run(tmp_path / "a", ["0,0,1,1000,0,2e-05,1e-05,0,1",
                                       "1,1,0,2000,1e-06,3e-05,2e-05,0,1"])
    second = write_run(tmp_path / "b", ["0,0,1,1000,0,4e-05,1e-05,1,1",
                                        "1,1,0,2000,1e-06,5e-05,2e-05,0,1"])
    other_load = write_run(tmp_path / "c", ["0,0,1,1000,0,2e-05,1e-05,0,1",
                                            "1,1,0,2000,3e-06,3e-05,2e-05,0,1"])
    target = tmp_path / "store"
    columns = target / "columns"
    store.write_point(first, target)
    assert len(list(columns.iterdir())) == 6
    store.write_point(second, target)
    assert len(list(columns.iterdir())) == 6
    store.write_point(other_load, target)
    assert len(list(columns.iterdir())) == 7
    for run in (first, second, other_load):
        assert store.stored_lines(target / run.name) == (run / "fct.csv").read_bytes()
        pd.testing.assert_frame_equal(read_run(target / run.name).fct, read_run(run).fct)


def test_threads_of_one_sweep_write_the_same_shared_column_together(tmp_path: Path) -> None:
    """A local sweep writes its points from threads of one process, and two schemes of a run
    name the same shared columns: each thread's point is stored whole, however their writes of
    a column interleave (CI caught one thread renaming the column out from under another)."""
    runs = [write_run(tmp_path / f"run{index}", [f"0,0,1,1000,0,{index + 2}e-05,1e-05,0,1"])
            for index in range(8)]
    compacted = {run: store.compact(run) for run in runs}
    for attempt in range(20):
        target = tmp_path / f"store{attempt}"
        start = threading.Barrier(len(runs))

        def write(run: Path, target: Path = target, start: threading.Barrier = start) -> Path:
            start.wait()
            return store.write_compacted(compacted[run], target, run.name)

        with ThreadPoolExecutor(max_workers=len(runs)) as pool:
            points = list(pool.map(write, runs))
        for run, point in zip(runs, points):
            assert store.stored_lines(point) == (run / "fct.csv").read_bytes()
        assert not [path for path in (target / "columns").iterdir()
                    if path.name.startswith(".")]


def test_a_shared_column_missing_or_altered_is_one_line(tmp_path: Path) -> None:
    """Reading a point whose shared column is gone, or holds another column, fails in one line
    naming the point's file and the column; its file alone, outside a store, says so."""
    run = write_run(tmp_path / "run", ["0,0,1,1000,0,2e-05,1e-05,0,1"])
    point = store.write_point(run, tmp_path / "store")
    src = tmp_path / "store" / "columns" / (hashlib.sha256(b"src,0\n").hexdigest() + ".xz")
    dst = tmp_path / "store" / "columns" / (hashlib.sha256(b"dst,1\n").hexdigest() + ".xz")
    kept = src.read_bytes()
    src.write_bytes(dst.read_bytes())
    with pytest.raises(AnalysisError, match=rf"^{point / 'fct.columns.xz'}: not a CSV file "
                       rf"\(column src: columns/{src.name} does not hold it\)$"):
        read_run(point)
    src.unlink()
    with pytest.raises(AnalysisError, match=rf"^{point / 'fct.columns.xz'}: not a compact "
                       rf"point's flows \(column src: columns/{src.name} cannot be read "
                       r"\(No such file or directory\)\)$"):
        store.stored_lines(point)
    src.write_bytes(kept)
    assert store.stored_lines(point) == (run / "fct.csv").read_bytes()
    with pytest.raises(columnar.NotColumnar, match="column flow_id is kept in a store's "
                       "columns/"):
        columnar.decode((point / "fct.columns.xz").read_bytes())


def test_a_run_without_a_window_keeps_every_line(tmp_path: Path) -> None:
    lines = ["0,0,1,1000,0,2e-05,1e-05,0,1", "1,1,0,2000,1e-06,,1e-05,0,0"]
    run = write_run(tmp_path / "run", lines)
    point = store.write_point(run, tmp_path / "store", "renamed")
    assert store.stored_lines(point) == \
        (run / "fct.csv").read_bytes()
    bad = write_run(tmp_path / "bad", ["0,0,1,1000,0,2e-05,1e-05,0,1,1", "1,0,1"],
                    HEADER + ",measured")
    with pytest.raises(AnalysisError):
        store.write_point(bad, tmp_path / "store")
    assert not (tmp_path / "store" / "bad").exists()


def test_a_point_written_before_the_columnar_format_is_read_and_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A committed point of the gzip format counts as stored, reads as its run, and `store add`
    of the same run leaves it as it is (unchanged: committed points are not committed twice);
    a different run replaces it in the columnar format."""
    lines = ["0,0,1,1000,0,2e-05,1e-05,0,1", "1,1,0,2000,1e-06,3e-05,1e-05,1,1"]
    run = write_run(tmp_path / "a", lines)
    legacy = tmp_path / "store" / "a"
    legacy.mkdir(parents=True)
    (legacy / "fct.csv.gz").write_bytes(gzip.compress((run / "fct.csv").read_bytes(), mtime=0))
    shutil.copy(run / "meta.json", legacy / "meta.json")
    assert store.is_stored(tmp_path / "store", "a")
    pd.testing.assert_frame_equal(read_run(legacy).fct, read_run(run).fct)
    before = (legacy / "fct.csv.gz").read_bytes()
    assert store.point_bytes(tmp_path / "store", "a") == len(before) + len(
        (run / "meta.json").read_bytes())
    assert main(["store", "add", str(run), "--store", str(tmp_path / "store")]) == 0
    assert capsys.readouterr().out.startswith(f"unchanged {legacy}")
    assert sorted(p.name for p in legacy.iterdir()) == ["fct.csv.gz", "meta.json"]
    assert (legacy / "fct.csv.gz").read_bytes() == before
    (run / "fct.csv").write_text("\n".join([HEADER, lines[0]]) + "\n")
    assert main(["store", "add", str(run), "--store", str(tmp_path / "store")]) == 0
    assert capsys.readouterr().out.startswith(f"replaced {legacy}")
    assert sorted(p.name for p in legacy.iterdir()) == ["fct.columns.xz", "meta.json"]
    assert len(read_run(legacy).fct) == 1


def test_store_add_compacts_and_reports(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    a = write_run(tmp_path / "a", ["0,0,1,1000,0,2e-05,1e-05,0,1"])
    # Two schemes on one flow list (the same flows under two replications of one scheme would be
    # a copy, which a store refuses).
    b = write_run(tmp_path / "b", ["0,0,1,1000,0,3e-05,1e-05,0,1"],
                  parameters={"scheme": "tcp", "load": 0.5, "seed": 1, "run": 1})
    target = tmp_path / "store"
    assert main(["store", "add", str(a), str(b), "--store", str(target)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert [line.split(" (")[0] for line in printed] == [f"added {target / 'a'}",
                                                        f"added {target / 'b'}"]
    # a and b have the same flow list: six shared columns, written once, named by both
    shared = sum(path.stat().st_size for path in (target / "columns").iterdir())
    assert len(list((target / "columns").iterdir())) == 6
    for line in printed:
        assert line.endswith(f" bytes; it names 6 shared columns of {shared:,} bytes)")
    assert main(["store", "add", str(a), "--store", str(target)]) == 0
    assert capsys.readouterr().out.startswith(f"unchanged {target / 'a'}")
    assert main(["store", "add", str(tmp_path / "none"), "--store", str(target)]) == 1
    assert capsys.readouterr().err.strip() == \
        f"pfabric-analysis: error: {tmp_path / 'none' / 'fct.csv'}: missing"


def spec(flows: int = 12) -> SweepSpec:
    return SweepSpec(("websearch",), ("pfabric", "ideal"), (0.5,), (1, 2),
                     (("websearch", flows),), 1, STAR)


def test_a_sweep_resumes_from_a_committed_store_in_a_fresh_clone(bin_dir: Path,
                                                                 tmp_path: Path) -> None:
    """A sweep with a store; the store committed to a repository and cloned (no runs/, no flow
    lists, no programs: --bin-dir an empty directory); the same sweep there runs nothing and the
    figures drawn from the clone's store are the original's, byte for byte."""
    original = tmp_path / "work"
    outcomes = sweep(spec(), original / "sweep", bin_dir, jobs=2, progress=False,
                     store=original / "points")
    assert report(outcomes)[1] and [o.status for o in outcomes].count("done") == 2 + 4
    names = sorted(p.name for p in (original / "points").iterdir() if p.name != "columns")
    assert names == sorted(f"websearch-{s}-load0.5-run{r}" for s in ("pfabric", "ideal")
                           for r in (1, 2))
    # shared columns: flow_id by all four points; src, dst and size_bytes by both schemes of a
    # run; start_s and ideal_fct_s by none (Ideal prints them otherwise)
    assert len(list((original / "points" / "columns").iterdir())) == 1 + 2 * 3 + 2 * 2 * 2
    for name in names:  # the compact point is the run's flows
        pd.testing.assert_frame_equal(read_run(original / "points" / name).fct,
                                      read_run(original / "sweep" / "runs" / name).fct)
    write_figures(original / "points", original / "figures")
    repository = tmp_path / "repository"
    shutil.copytree(original / "points", repository / "points")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git + ["init", "-q", str(repository)], check=True)
    subprocess.run(git + ["-C", str(repository), "add", "points"], check=True)
    subprocess.run(git + ["-C", str(repository), "commit", "-qm", "points"], check=True)
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(repository), str(clone)], check=True)
    empty_bin = tmp_path / "no-programs"
    empty_bin.mkdir()
    resumed = sweep(spec(), clone / "sweep", empty_bin, progress=False, store=clone / "points")
    text, ok = report(resumed)
    assert ok and text.startswith("sweep: 0 ran, 4 already finished, 0 failed")
    assert not any((clone / "sweep" / "runs").iterdir())
    assert not (clone / "sweep" / "flows").exists() or not any(
        (clone / "sweep" / "flows").iterdir())
    write_figures(clone / "points", clone / "figures")
    for path in (original / "figures").iterdir():
        assert (clone / "figures" / path.name).read_bytes() == path.read_bytes(), path.name
    # One point lost from the clone's store: it needs a program again, and says so in one line.
    shutil.rmtree(clone / "points" / "websearch-pfabric-load0.5-run2")
    with pytest.raises(AnalysisError, match="no pfabric-websearch program"):
        sweep(spec(), clone / "sweep", empty_bin, progress=False, store=clone / "points")
    # Another sweep's store (12 flows per point, this one asks 13) is refused, not resumed.
    with pytest.raises(AnalysisError, match="parameter flows is 12 but the sweep asks 13"):
        sweep(spec(13), tmp_path / "other", bin_dir, progress=False, store=original / "points")
    assert not (tmp_path / "other").exists()  # refused before anything is written
    # A store of another build (its points on ns-3 3.37, these programs 3.44): refused before
    # the missing point runs, not found by the figures after it ran.
    older = tmp_path / "older"
    shutil.copytree(clone / "points", older)
    meta_path = older / "websearch-ideal-load0.5-run1" / "meta.json"
    meta = json.loads(meta_path.read_text())
    built = meta["ns3_version"]
    meta["ns3_version"] = "3.37"
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(AnalysisError, match=f"pfabric-websearch: ns3_version '{built}', but the "
                                            f"store's {meta_path.parent} has '3.37'; runs of two "
                                            "builds"):
        sweep(spec(), tmp_path / "again", bin_dir, progress=False, store=older)
    assert not (tmp_path / "again").exists()


def test_a_store_given_later_receives_the_finished_points(bin_dir: Path, tmp_path: Path) -> None:
    one = SweepSpec(("websearch",), ("pfabric",), (0.5,), (1,), (("websearch", 8),), 1, STAR)
    sweep(one, tmp_path / "sweep", bin_dir, progress=False)
    outcomes = sweep(one, tmp_path / "sweep", bin_dir, progress=False, store=tmp_path / "points")
    assert [o.status for o in outcomes] == ["skipped", "skipped"]
    assert store.is_stored(tmp_path / "points", "websearch-pfabric-load0.5-run1")


def test_a_store_point_must_have_the_ns3_settings_the_sweep_sets(bin_dir: Path,
                                                                  tmp_path: Path) -> None:
    """--set ns3::Type::Attribute=V reaches every point's command line and meta.json's
    ns3_settings; the same sweep resumes from its store, while a sweep that sets the attribute
    to another value, or does not set it, is refused naming the store point, before anything is
    written. Checked on LineRate, whose window the attribute is: 2 segments slow a 12-flow run
    down against the preset's window."""
    window = ("ns3::PfabricLineRateTcpSocket::Window", "2")

    def linerate(*knobs: tuple[str, str]) -> SweepSpec:
        return SweepSpec(("websearch",), ("linerate", "ideal"), (0.5,), (1,),
                         (("websearch", 12),), 1, tuple(sorted((*STAR, *knobs))))

    outcomes = sweep(linerate(window), tmp_path / "sweep", bin_dir, progress=False,
                     store=tmp_path / "points")
    assert report(outcomes)[1]
    point = tmp_path / "points" / "websearch-linerate-load0.5-run1"
    meta = json.loads((point / "meta.json").read_text())
    assert meta["ns3_settings"] == {window[0]: "2"}
    assert f"--{window[0]}=2" in meta["command_line"]
    resumed = sweep(linerate(window), tmp_path / "again", bin_dir, progress=False,
                    store=tmp_path / "points")
    assert report(resumed)[0].startswith("sweep: 0 ran, 2 already finished")
    with pytest.raises(AnalysisError, match=f"{point}/meta.json: ns-3 setting {window[0]} is "
                                            "'2' but the sweep asks 3; another sweep's store"):
        sweep(linerate((window[0], "3")), tmp_path / "three", bin_dir, progress=False,
              store=tmp_path / "points")
    with pytest.raises(AnalysisError, match=f"{point}/meta.json: ns-3 setting {window[0]} is "
                                            "'2' but the sweep does not set it"):
        sweep(linerate(), tmp_path / "unset", bin_dir, progress=False, store=tmp_path / "points")
    assert not (tmp_path / "three").exists() and not (tmp_path / "unset").exists()
    # The window a LineRate run ran with is in its meta.json whoever set it (here the command
    # line, otherwise the preset); a point without it was made before the preset had one (no
    # window, 0), and the programs, which record 2 here, refuse it before anything runs (once a
    # point is missing: a sweep with nothing to run asks no program).
    assert meta["line_rate_window_segments"] == 2
    older = tmp_path / "older"
    shutil.copytree(tmp_path / "points", older)
    shutil.rmtree(older / "websearch-ideal-load0.5-run1")
    del meta["line_rate_window_segments"]
    (older / point.name / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(AnalysisError, match=f"pfabric-websearch: line_rate_window_segments 2 for "
                                            f"linerate, but the store's {older / point.name} has "
                                            "0 .*remove it from the store to make it again"):
        sweep(linerate(window), tmp_path / "old-window", bin_dir, progress=False, store=older)
    assert not (tmp_path / "old-window").exists()
    preset = sweep(linerate(), tmp_path / "preset", bin_dir, progress=False)
    fct = {name: read_run(run / "runs" / "websearch-linerate-load0.5-run1").fct.fct_s.sum()
           for name, run in (("two", tmp_path / "sweep"), ("preset", tmp_path / "preset"))}
    assert report(preset)[1] and fct["two"] > 1.05 * fct["preset"]


def test_the_window_passes_through_the_sweep_and_only_ideal_gets_a_list(tmp_path: Path) -> None:
    """--set warmupFlows=W --set measureFlows=N: packet points generate their own flows (no
    --flowFile, no --flows, the window's options passed); the Ideal point's list has
    10 x (W + N) flows and is made without the window's options."""
    windowed = SweepSpec(("websearch",), ("pfabric", "ideal"), (0.5,), (1,),
                         (("websearch", 1000),), 1,
                         (("measureFlows", "200"), ("preset", "sigcomm13"),
                          ("warmupFlows", "50")))
    check_spec(windowed)
    program = tmp_path / "pfabric-websearch"
    tasks = {t.kind: t for t in plan(windowed, tmp_path, {"websearch": program})}
    packet = tasks["packet"].command
    assert "--warmupFlows=50" in packet and "--measureFlows=200" in packet
    assert not any(o.startswith(("--flowFile", "--flows=")) for o in packet)
    assert tasks["packet"].needs == ()
    flows = tasks["flows"].command
    assert "--flows=2500" in flows and not any("Flows=" in o and "measure" in o.lower()
                                               for o in flows)
    assert "--preset=sigcomm13" in flows
    ideal = tasks["ideal"].command
    assert ideal[1:4] == ("-m", "pfabric_analysis.cli", "ideal")
    assert {"--warmup-flows=50", "--measure-flows=200", "--preset=sigcomm13",
            "--set=load=0.5", "--set=run=1", "--set=seed=1"} <= set(ideal)
    assert not any("measureFlows" in o or "warmupFlows" in o for o in ideal)
    for bad, message in ((("warmupFlows", "5"),), "needs --set measureFlows"), \
            ((("measureFlows", "0"),), "expected a whole number of at least 1"):
        with pytest.raises(AnalysisError, match=message):
            check_spec(SweepSpec(("websearch",), ("pfabric",), (0.5,), (1,),
                                 (("websearch", 10),), 1, bad))


STAND_IN_LIST = """import sys
path = [a.split('=', 1)[1] for a in sys.argv if a.startswith('--dumpFlows=')][0]
count = int([a.split('=', 1)[1] for a in sys.argv if a.startswith('--flows=')][0])
open(path, 'w').write('src,dst,size_bytes,start_s\\n' + '0,1,1000,0\\n' * count)
"""
STAND_IN_IDEAL = """import os, sys
flow_list, out = sys.argv[1], sys.argv[2]
count = sum(1 for _ in open(flow_list)) - 1
if count < 350:
    sys.exit(f'error: {flow_list}: arrivals end before the last measured flow, {count} flows')
os.makedirs(out, exist_ok=True)  # the sweep made it, marked unfinished
open(os.path.join(out, 'count'), 'w').write(str(count))
"""


def test_a_windowed_ideal_list_is_doubled_while_too_short(tmp_path: Path) -> None:
    """The Ideal stand-in needs 350 flows: a list of 100 is made again with 200, then 400."""
    (tmp_path / "list.py").write_text(STAND_IN_LIST)
    (tmp_path / "ideal.py").write_text(STAND_IN_IDEAL)
    flow_list, out = tmp_path / "flows.csv", tmp_path / "out"
    list_command = (sys.executable, str(tmp_path / "list.py"), f"--dumpFlows={flow_list}")
    subprocess.run(list_command + ("--flows=100",), check=True)
    task = Task("ideal", "p", out, (sys.executable, str(tmp_path / "ideal.py"), str(flow_list),
                                    str(out)),
                flow_list=flow_list, list_command=list_command, list_flows=100)
    assert execute(task) == (True, "")
    assert sorted(p.name for p in out.iterdir()) == ["count"]  # the unfinished mark cleared
    assert (out / "count").read_text() == "400"
    (tmp_path / "ideal.py").write_text("import sys; sys.exit('error: something else')")
    ok, error = execute(task)
    assert not ok and "something else" in error and not out.exists()
    assert not is_finished(task)


def test_the_standard_tier_and_a_tier_refused_until_set() -> None:
    """reproduce --standard is 5 runs of 10,000 flows per point, data mining first, every
    scheme and paper load, no window; a tier whose numbers are still TO_BE_SET is refused in one
    line naming them, and once an entry has them its spec gives each workload its window."""
    from pfabric_analysis import reproduce

    schemes = reproduce.paper_schemes()
    standard = reproduce.tier_spec("standard", schemes)
    assert standard.workloads == ("datamining", "websearch") and standard.runs == (1, 2, 3, 4, 5)
    assert standard.flows_of("datamining") == standard.flows_of("websearch") == 10_000
    assert standard.window_of("datamining") is None and standard.window_of("websearch") is None
    assert standard.loads == reproduce.PAPER_LOADS and standard.schemes == schemes
    unset = {"standard": {"websearch": {"warmupFlows": reproduce.TO_BE_SET,
                                        "measureFlows": reproduce.TO_BE_SET}}}
    with pytest.raises(AnalysisError, match=r"^reproduce --standard: the tier's numbers are not "
                       r"set yet \(websearch.warmupFlows, websearch.measureFlows, runs in"):
        reproduce.tier_spec("standard", schemes, unset, {"standard": reproduce.TO_BE_SET})
    scales = {"standard": {"websearch": {"warmupFlows": 1000, "measureFlows": 20000},
                           "datamining": {"warmupFlows": 500, "measureFlows": 10000}}}
    tier = reproduce.tier_spec("standard", schemes, scales, {"standard": 3})
    assert tier.runs == (1, 2, 3) and tier.loads == reproduce.PAPER_LOADS
    assert tier.window_of("websearch") == (1000, 20000)
    assert tier.window_of("datamining") == (500, 10000)
    check_spec(tier)
    assert reproduce.tier_spec("quick", schemes).window_of("websearch") is None
    # old sweeps resume
    assert "workload_knobs" not in reproduce.tier_spec("quick", schemes).as_json()


def test_a_dctcp_program_records_its_floor_and_alpha(bin_dir: Path) -> None:
    """DCTCP's floor under its window cut (PfabricDctcp's MinWindow, 1) and its initial alpha
    (TcpDctcp's DctcpAlphaOnInit, the scheme's 0) are in a DCTCP run's meta.json, as the
    sweep's check of a store asks the programs for them, and follow the attributes; another
    scheme's run has neither (compared as the values of the runs before them: 0 and 1)."""
    program = bin_dir / "pfabric-websearch"
    dctcp = program_build(program, ("--scheme=dctcp",))
    assert (dctcp["dctcp_min_window_segments"], dctcp["dctcp_initial_alpha"]) == (1, 0)
    ns3 = program_build(program, ("--scheme=dctcp", "--ns3::PfabricDctcp::MinWindow=0",
                                  "--ns3::TcpDctcp::DctcpAlphaOnInit=1"))
    assert (ns3["dctcp_min_window_segments"], ns3["dctcp_initial_alpha"]) == (0, 1)
    tcp = program_build(program, ("--scheme=tcp",))
    assert (tcp["dctcp_min_window_segments"], tcp["dctcp_initial_alpha"]) == (0, 1.0)


def run_two(tmp_path: Path, meanwhile: Callable[[Path, str], object]) -> tuple[list, list[str]]:
    """Two points of one store run by run_tasks with a stand-in executor; `meanwhile(store,
    name)` acts as another sweep on the second point while the first one runs. The outcomes,
    and the points submitted."""
    points = tmp_path / "points"
    tasks = [Task("packet", f"websearch-pfabric-load0.5-run{run}", tmp_path / "runs" / f"{run}",
                  store=points) for run in (1, 2)]
    submitted = []

    def submit(task: Task) -> Task:
        submitted.append(task.name)
        assert store.other_claim(points, task.name) is None
        assert (points / f".{task.name}.claim").read_text() == \
            f"{socket.gethostname()} {os.getpid()}\n"  # claimed while it runs
        if task is tasks[0]:
            meanwhile(points, tasks[1].name)
        return task

    outcomes = run_tasks(tasks, submit, lambda futures: (set(list(futures)[:1]), set()),
                         lambda future: (True, "", 1.0), Progress(tasks, False), max_pending=1)
    assert not any(points.glob(f".{tasks[0].name}.claim"))  # released when it ended
    return outcomes, submitted


def test_a_point_stored_by_another_sweep_meanwhile_is_skipped(tmp_path: Path) -> None:
    """Two sweeps sharing a store: a point that the other one stored while this one ran an
    earlier point is skipped when its turn comes, not run again."""
    other = write_run(tmp_path / "other-sweep", ["0,0,1,1000,0,2e-05,1e-05,0,1"])
    outcomes, submitted = run_two(
        tmp_path, lambda points, name: store.write_point(other, points, name))
    assert submitted == ["websearch-pfabric-load0.5-run1"]
    assert [o.status for o in outcomes] == ["done", "skipped"]


def test_a_point_another_sweep_claimed_is_left_to_it(tmp_path: Path) -> None:
    """A point that another live sweep has claimed (it runs it) is left to it and reported as
    such; the sweep succeeds. A claim whose process has ended is taken over, and cleared by the
    next sweep's start."""
    runner = subprocess.Popen(["sleep", "60"])
    try:
        outcomes, submitted = run_two(tmp_path, lambda points, name: (
            points / f".{name}.claim").write_text(f"{socket.gethostname()} {runner.pid}\n"))
    finally:
        runner.kill()
        runner.wait()
    assert submitted == ["websearch-pfabric-load0.5-run1"]
    assert [o.status for o in outcomes] == ["done", "claimed"]
    text, ok = report(outcomes)
    assert ok and text.splitlines() == [
        "sweep: 1 ran, 0 already finished, 0 failed, 0 not run (an input failed), 1 left to "
        "another sweep that claimed them",
        f"  claimed: websearch-pfabric-load0.5-run2: by {socket.gethostname()} pid "
        f"{runner.pid} (its claim: {tmp_path / 'points' / '.websearch-pfabric-load0.5-run2.claim'})"]
    # That sweep has ended (killed): its claim is stale, taken over by the next claim and released.
    ended = tmp_path / "ended"
    outcomes, submitted = run_two(ended, lambda points, name: (
        points / f".{name}.claim").write_text(f"{socket.gethostname()} {runner.pid}\n"))
    assert [o.status for o in outcomes] == ["done", "done"] and len(submitted) == 2
    assert not any((ended / "points").glob(".*"))
    # A stale claim is cleared when a sweep starts, with a killed writer's other leftovers; a live
    # one and another host's are not.
    points = tmp_path / "points"
    (points / ".a.claim").write_text(f"{socket.gethostname()} {os.getpid()}\n")
    (points / ".b.claim").write_text(f"another-host {runner.pid}\n")
    writing = points / f".b.claim-{socket.gethostname()}-{runner.pid}"  # killed while claiming
    writing.write_text(f"{socket.gethostname()} {runner.pid}\n")
    assert store.remove_leftovers(points, {"a", "b", "websearch-pfabric-load0.5-run2"}) == [
        writing, points / ".websearch-pfabric-load0.5-run2.claim"]
    assert sorted(p.name for p in points.glob(".*")) == [".a.claim", ".b.claim"]
    assert store.other_claim(points, "b") == (f"another-host pid {runner.pid} (its claim: "
                                             f"{points / '.b.claim'})")
