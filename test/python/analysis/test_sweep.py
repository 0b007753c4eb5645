"""Sweeps: the grid, shared flow lists, resumption, a failing point, and the Dask path on a local
cluster. The end-to-end tests run the real programs on a 4-host star (PFABRIC_BUILD_DIR)."""

from __future__ import annotations

import json
import stat
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from pfabric_analysis.cli import main
from pfabric_analysis.runs import AnalysisError
from pfabric_analysis.sweep import report, sweep
from pfabric_analysis.sweep_plan import IDEAL_LIST_FACTOR_UP_TO, plan, plan_windowed
from pfabric_analysis.sweep_spec import (
    SweepSpec,
    check_spec,
    parse_custom_schemes,
    parse_flows,
    parse_knobs,
)

STAR = (("hosts", "4"), ("topology", "star"))


def spec(schemes=("pfabric", "tcp", "ideal"), loads=(0.3, 0.6), runs=(1,)) -> SweepSpec:
    return SweepSpec(("websearch",), schemes, loads, runs, (("websearch", 12),), 1, STAR)


def test_knobs_and_flows_are_parsed_and_checked() -> None:
    assert parse_knobs(["preset=sigcomm13", "--lb=ecmp"]) == (("lb", "ecmp"),
                                                             ("preset", "sigcomm13"))
    assert parse_flows("50", ["websearch", "datamining"]) == (("websearch", 50),
                                                              ("datamining", 50))
    assert parse_flows("websearch=5,datamining=2", ["datamining"]) == (("datamining", 2),)
    with pytest.raises(AnalysisError, match="expected KEY=VALUE"):
        parse_knobs(["preset"])
    with pytest.raises(AnalysisError, match="load is set by the sweep"):
        parse_knobs(["load=0.5"])
    # The programs' options are camelCase: a dashed name is refused with the one to use.
    with pytest.raises(AnalysisError, match="^--set hash-demux=0: the programs' options are "
                                            "camelCase, e.g. --set hashDemux=0$"):
        parse_knobs(["hash-demux=0"])
    assert parse_knobs(["reuseConnections=0"]) == (("reuseConnections", "0"),)
    with pytest.raises(AnalysisError, match="covering every workload"):
        parse_flows("websearch=5", ["datamining"])


@pytest.mark.parametrize(("change", "message"), [
    ({"schemes": ()}, "--schemes: empty"),
    ({"loads": ()}, "--loads: empty"),
    ({"loads": (1.0,)}, "--loads: 1.0 is not in"),
])
def test_bad_grids_are_refused(change: dict, message: str) -> None:
    fields = {**spec().__dict__, **change}
    with pytest.raises(AnalysisError, match=message):
        check_spec(SweepSpec(**fields))


def read(run: Path) -> pd.DataFrame:
    return pd.read_csv(run / "fct.csv")


def test_a_sweep_runs_every_point_on_shared_flows_and_resumes(bin_dir: Path,
                                                              tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    outcomes = sweep(spec(), out, bin_dir, jobs=2, progress=False)
    assert [o.status for o in outcomes].count("done") == 2 * (1 + 3)
    runs = out / "runs"
    assert sorted(p.name for p in runs.iterdir()) == sorted(
        f"websearch-{s}-load{l}-run1" for s in ("pfabric", "tcp", "ideal") for l in (0.3, 0.6))
    for load in (0.3, 0.6):
        frames = [read(runs / f"websearch-{s}-load{load}-run1") for s in ("pfabric", "tcp",
                                                                          "ideal")]
        flows = [f[["src", "dst", "size_bytes", "start_s"]] for f in frames]
        assert all(f.equals(flows[0]) for f in flows) and len(flows[0]) == 12
        ideal = frames[2]
        assert (ideal["fct_s"] >= ideal["ideal_fct_s"] * (1 - 1e-9)).all()
        # Ideal's per-flow ideal FCT (from --idealOnly) is the packet runs' to the digit.
        assert ideal["ideal_fct_s"].equals(frames[0]["ideal_fct_s"])
    # Interrupt: one point never ran, another died before its meta.json.
    lost = runs / "websearch-tcp-load0.6-run1"
    half = runs / "websearch-ideal-load0.3-run1"
    kept = runs / "websearch-pfabric-load0.3-run1"
    before = (kept / "meta.json").stat().st_mtime_ns
    expected = {name: read(runs / name) for name in (lost.name, half.name)}
    for path in lost.iterdir():
        path.unlink()
    lost.rmdir()
    (half / "meta.json").unlink()
    again = sweep(spec(), out, bin_dir, jobs=2, progress=False)
    assert sorted(o.task.name for o in again if o.status == "done") == sorted([lost.name,
                                                                              half.name])
    assert (kept / "meta.json").stat().st_mtime_ns == before
    for name, frame in expected.items():
        assert read(runs / name).equals(frame)
    text, ok = report(again)
    assert ok and text.startswith("sweep: 2 ran, 6 already finished, 0 failed")


def test_ideal_needs_no_packet_run(bin_dir: Path, tmp_path: Path) -> None:
    """An Ideal-only sweep (what a flow-count study runs at 100,000 flows) gives the Ideal run
    that `pfabric-analysis ideal --like` gives from a packet run of the same flows."""
    out = tmp_path / "sweep"
    outcomes = sweep(spec(schemes=("ideal",), loads=(0.6,)), out, bin_dir, jobs=1,
                     progress=False)
    assert sorted(o.task.kind for o in outcomes if o.status == "done") == ["flows", "ideal"]
    flow_list = out / "flows" / "websearch-load0.6-run1.csv"
    like = tmp_path / "like"
    common = ["--load=0.6", "--run=1", "--seed=1", "--flows=12", "--hosts=4", "--topology=star"]
    subprocess.run([str(bin_dir / "pfabric-websearch"), "--quiet", f"--flowFile={flow_list}",
                    f"--out={like}", *common], check=True, capture_output=True)
    assert main(["ideal", str(flow_list), "--like", str(like), "--out",
                 str(tmp_path / "ideal")]) == 0
    assert ((out / "runs" / "websearch-ideal-load0.6-run1" / "fct.csv").read_text()
            == (tmp_path / "ideal" / "fct.csv").read_text())


def failing_bin_dir(bin_dir: Path, tmp_path: Path) -> Path:
    """pfabric-websearch, except that every tcp point fails."""
    wrapped = tmp_path / "bin"
    wrapped.mkdir()
    script = wrapped / "pfabric-websearch"
    script.write_text("#!/bin/sh\n"
                      "case \"$*\" in *--scheme=tcp*) echo 'tcp: simulated crash' >&2; exit 3;; esac\n"
                      f"exec {bin_dir / 'pfabric-websearch'} \"$@\"\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return wrapped


def test_a_failing_point_is_reported_and_the_others_finish(bin_dir: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "sweep"
    code = main(["sweep", f"--out={out}", "--schemes=pfabric,tcp,ideal", "--loads=0.3,0.6",
                 "--flows=12", "--set=topology=star", "--set=hosts=4", "--quiet",
                 f"--bin-dir={failing_bin_dir(bin_dir, tmp_path)}"])
    printed = capsys.readouterr().out
    assert code == 1
    assert "sweep: 6 ran, 0 already finished, 2 failed" in printed
    assert "failed: websearch-tcp-load0.3-run1: exit status 3: tcp: simulated crash" in printed
    assert (out / "logs" / "websearch-tcp-load0.6-run1.stderr").read_text().strip().endswith(
        "tcp: simulated crash")
    done = sorted(p.name for p in (out / "runs").iterdir())
    assert done == sorted(f"websearch-{s}-load{l}-run1" for s in ("pfabric", "ideal")
                          for l in (0.3, 0.6))


def test_the_dask_path_gives_the_local_results(bin_dir: Path, tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    local = tmp_path / "local"
    sweep(spec(loads=(0.5,)), local, bin_dir, jobs=2, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = tmp_path / "dask"
        outcomes = sweep(spec(loads=(0.5,)), remote, bin_dir, scheduler=cluster.scheduler_address,
                         progress=False)
    assert [o.status for o in outcomes] == ["done"] * 4
    for run in (local / "runs").iterdir():
        assert (run / "fct.csv").read_bytes() == (remote / "runs" / run.name / "fct.csv").read_bytes()


def test_a_different_grid_in_the_same_directory_is_refused(bin_dir: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "sweep"
    arguments = ["sweep", f"--out={out}", "--schemes=pfabric", "--loads=0.5", "--flows=5",
                 "--set=topology=star", "--set=hosts=4", "--quiet", f"--bin-dir={bin_dir}"]
    assert main(arguments) == 0
    capsys.readouterr()
    assert main([a.replace("--loads=0.5", "--loads=0.4") for a in arguments]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "sweep.json: another sweep (loads was [0.5]" in error


@pytest.mark.parametrize(("option", "message"), [
    ("--loads=", "--loads: empty"),
    ("--loads=high", "--loads high: 'high': expected a number in (0, 1)"),
    ("--set=out=x", "--set out=x: out is set by the sweep itself"),
    ("--set=flowFile=x", "--set flowFile=x: flowFile is set by the sweep itself"),
    ("--set=reuse-connections=0", "--set reuse-connections=0: the programs' options are "
                                  "camelCase, e.g. --set reuseConnections=0"),
    ("--set=hostStack=lean", "--set hostStack=lean: use --host-stack lean, which sets hostStack "
                             "on the packet schemes only"),
])
def test_bad_sweep_options_give_one_line(tmp_path: Path, capsys: pytest.CaptureFixture,
                                         option: str, message: str) -> None:
    out = tmp_path / "sweep"
    assert main(["sweep", f"--out={out}", "--quiet", f"--bin-dir={tmp_path}", option]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and message in error, error
    assert not out.exists()


# A custom scheme of ns-3's own parts: FqCoDel tuned for a 10 Gb/s fabric, and Cubic.
FQ_CUBIC = ["--custom-scheme=fq-cubic:portQueueDisc=ns3::FqCoDelQueueDisc",
            "--custom-scheme=fq-cubic:portQueueDiscAttributes=Interval=100us|Target=10us",
            "--custom-scheme=fq-cubic:tcpCongestionOps=ns3::TcpCubic"]


def test_the_host_stack_reaches_the_packet_points_only_and_their_figures_say_it(
        bin_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """--host-stack lean runs every packet scheme, the baselines included, on the lean host and
    records it per run; Ideal, which has no hosts, is not given it; figures.md names the stack.
    A stack the programs do not have is refused in one line before anything is written; a sweep
    without the option keeps the sweep.json it had (and so resumes)."""
    out, store = tmp_path / "sweep", tmp_path / "store"
    common = ["sweep", "--schemes=pfabric,tcp,dctcp,ideal", "--loads=0.5", "--flows=12",
              "--set=topology=star", "--set=hosts=4", "--quiet", "-j", "1",
              f"--bin-dir={bin_dir}"]
    assert main([*common, f"--out={out}", "--host-stack=kernel"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "--hostStack=kernel: expected ns3tcp or lean" in error
    assert not out.exists()
    assert main([*common, f"--out={out}", f"--store={store}", "--host-stack=lean"]) == 0
    stacks = {run.name: json.loads((run / "meta.json").read_text())["parameters"]["hostStack"]
              for run in (out / "runs").iterdir()}
    assert stacks == {"websearch-pfabric-load0.5-run1": "lean", "websearch-tcp-load0.5-run1": "lean",
                      "websearch-dctcp-load0.5-run1": "lean",
                      "websearch-ideal-load0.5-run1": "ns3tcp"}
    assert json.loads((out / "sweep.json").read_text())["host_stack"] == "lean"
    assert "host_stack" not in spec().as_json()
    # The same flows on ns-3's TCP/IP into the same store: refused, not pooled.
    capsys.readouterr()
    assert main([*common, f"--out={tmp_path / 'ns3'}", f"--store={store}"]) == 1
    assert "hostStack" in capsys.readouterr().err
    assert main(["figures", str(store), "--out", str(tmp_path / "figures")]) == 0
    markdown = (tmp_path / "figures" / "figures.md").read_text()
    assert "Host stack: the lean host (--hostStack=lean) for every scheme." in markdown


def test_custom_schemes_are_parsed_and_only_their_points_get_their_options(
        tmp_path: Path) -> None:
    custom = parse_custom_schemes([option.split("=", 1)[1] for option in FQ_CUBIC])
    assert custom == (("fq-cubic", (("portQueueDisc", "ns3::FqCoDelQueueDisc"),
                                     ("portQueueDiscAttributes", "Interval=100us|Target=10us"),
                                     ("tcpCongestionOps", "ns3::TcpCubic"))),)
    grid = SweepSpec(("websearch",), ("tcp", "fq-cubic"), (0.5,), (1,), (("websearch", 12),), 1,
                     STAR, custom_schemes=custom)
    check_spec(grid)
    tasks = {t.name: t for t in plan(grid, tmp_path, {"websearch": tmp_path / "program"})}
    assert tasks["websearch-tcp-load0.5-run1"].command[2:3] == ("--scheme=tcp",)
    assert tasks["websearch-fq-cubic-load0.5-run1"].command[2:7] == (
        "--scheme=custom", "--schemeLabel=fq-cubic", "--portQueueDisc=ns3::FqCoDelQueueDisc",
        "--portQueueDiscAttributes=Interval=100us|Target=10us", "--tcpCongestionOps=ns3::TcpCubic")
    assert grid.as_json()["custom_schemes"] == {"fq-cubic": dict(custom[0][1])}
    # A sweep without custom schemes keeps the sweep.json it had (and so resumes).
    assert "custom_schemes" not in spec().as_json()


@pytest.mark.parametrize(("options", "message"), [
    (["--custom-scheme=portQueueDisc=ns3::FqCoDelQueueDisc"],
     "--custom-scheme portQueueDisc=ns3::FqCoDelQueueDisc: expected LABEL:KEY=VALUE"),
    (["--custom-scheme=fq:scheme=tcp"], "--custom-scheme fq:scheme=tcp: scheme is set by the "
                                        "sweep itself"),
    (["--custom-scheme=fq:schemeLabel=x"], "schemeLabel is set by the sweep itself"),
    (["--custom-scheme=fq:port-queue-disc=x"], "e.g. --custom-scheme fq:portQueueDisc=x"),
    (["--schemes=tcp", "--custom-scheme=fq:portQueueDisc=x"],
     "--custom-scheme fq: not in --schemes"),
    (["--schemes=tcp", "--custom-scheme=ideal:portQueueDisc=x"],
     "--custom-scheme ideal: a built-in scheme's name"),
])
def test_bad_custom_schemes_give_one_line(tmp_path: Path, capsys: pytest.CaptureFixture,
                                          options: list[str], message: str) -> None:
    out = tmp_path / "sweep"
    assert main(["sweep", f"--out={out}", "--quiet", f"--bin-dir={tmp_path}", *options]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and message in error, error
    assert not out.exists()


@pytest.mark.parametrize(("options", "message"), [
    (["--schemes=xcp"], "--schemes: unknown scheme 'xcp'; expected pfabric, linerate, tcp, "
                        "dctcp, ideal or a label of --custom-scheme"),
    (["--schemes=tcp,fq"], "--schemes: unknown scheme 'fq'; expected pfabric, linerate, tcp, "
                           "dctcp, ideal or a label of --custom-scheme"),
    (["--schemes=tcp", "--custom-scheme=tcp:portQueueDisc=x"],
     "--custom-scheme tcp: a built-in scheme's name"),
])
def test_schemes_are_checked_against_the_programs(bin_dir: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture,
                                                   options: list[str], message: str) -> None:
    """--schemes takes the programs' schemes (their --listSchemes), Ideal and the custom labels,
    checked once the programs are found: the error names the option and the schemes they know."""
    out = tmp_path / "sweep"
    assert main(["sweep", f"--out={out}", "--quiet", f"--bin-dir={bin_dir}", "--flows=2",
                 *options]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and message in error, error
    assert not out.exists()


def slowdown_mean(run: Path) -> float:
    frame = read(run)
    done = frame[frame["completed"] == 1]
    return float((done["fct_s"] / done["ideal_fct_s"]).mean())


def test_a_custom_scheme_runs_through_sweep_compare_cdf_and_figures(
        bin_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out, store, figures = tmp_path / "sweep", tmp_path / "store", tmp_path / "figures"
    arguments = ["sweep", f"--out={out}", f"--store={store}", "--schemes=tcp,fq-cubic,ideal",
                 "--loads=0.5", "--flows=12", "--set=topology=star", "--set=hosts=4", "--quiet",
                 "-j", "1", f"--bin-dir={bin_dir}", *FQ_CUBIC]
    assert main(arguments) == 0
    runs = out / "runs"
    custom, tcp = runs / "websearch-fq-cubic-load0.5-run1", runs / "websearch-tcp-load0.5-run1"
    meta = json.loads((custom / "meta.json").read_text())
    assert meta["parameters"]["scheme"] == "custom"
    assert meta["parameters"]["schemeLabel"] == "fq-cubic"
    assert meta["custom_scheme"]["port_queue_disc"]["type_id"] == "ns3::FqCoDelQueueDisc"
    assert meta["custom_scheme"]["tcp_congestion_ops"]["type_id"] == "ns3::TcpCubic"
    columns = ["src", "dst", "size_bytes", "start_s"]
    assert read(custom)[columns].equals(read(tcp)[columns]) and len(read(custom)) == 12
    # Resumed with its store: every point is finished, the store's custom point is this one.
    capsys.readouterr()
    assert main(arguments) == 0
    assert capsys.readouterr().out.startswith("sweep: 0 ran, 4 already finished")
    # Figures from the store: the custom scheme by its label, its value the run's own.
    assert main(["figures", str(store), f"--out={figures}", "--batches=1"]) == 0
    table = pd.read_csv(figures / "figures.csv")
    assert list(dict.fromkeys(table["label"])) == ["TCP-DropTail", "Ideal", "fq-cubic"]
    point = table[(table["figure"] == "fig2") & (table["scheme"] == "fq-cubic")]
    assert point["value"].iloc[0] == pytest.approx(slowdown_mean(custom))
    assert "| fq-cubic | " in (figures / "figures.md").read_text()
    assert (figures / "fig2-overall.png").stat().st_size > 0
    # compare and cdf label the runs by scheme, the custom one by its label.
    assert main(["compare", str(tcp), str(custom), f"--out={tmp_path / 'compare'}"]) == 0
    compared = pd.read_csv(tmp_path / "compare" / "compare.csv")
    assert list(dict.fromkeys(compared["label"])) == ["tcp", "fq-cubic"]
    mean = compared[(compared["bin"] == "all") & (compared["label"] == "fq-cubic")]["mean"]
    assert mean.iloc[0] == pytest.approx(slowdown_mean(custom))
    document = json.loads((tmp_path / "compare" / "compare.json").read_text())
    assert document["runs"][1]["custom_scheme"]["label"] == "fq-cubic"
    assert document["runs"][1]["parameters"]["tcpCongestionOps"] == "ns3::TcpCubic"
    assert main(["cdf", str(tcp), str(custom), f"--out={tmp_path / 'cdf'}"]) == 0
    cdf = pd.read_csv(tmp_path / "cdf" / "cdf.csv")
    assert list(dict.fromkeys(cdf["label"])) == ["tcp", "fq-cubic"]


def test_one_at_a_time_the_next_task_is_the_first_ready_in_plan_order(tmp_path: Path) -> None:
    from pfabric_analysis.sweep_execute import Progress, run_tasks
    from pfabric_analysis.sweep_plan import plan

    programs = {"websearch": tmp_path / "pfabric-websearch"}
    tasks = plan(spec(loads=(0.3, 0.6)), tmp_path, programs)
    order: list[str] = []

    def submit(task):
        order.append(task.name)
        return task.name

    outcomes = run_tasks(tasks, submit, lambda pending: (set(pending), set()),
                         lambda name: (True, "", 0.0), Progress(tasks, False),
                         max_pending=1)
    assert all(o.status == "done" for o in outcomes)
    # Each point's Ideal right after the packet runs of its flows, before the next load starts.
    assert order == ["websearch-load0.3-run1", "websearch-pfabric-load0.3-run1",
                     "websearch-tcp-load0.3-run1", "websearch-ideal-load0.3-run1",
                     "websearch-load0.6-run1", "websearch-pfabric-load0.6-run1",
                     "websearch-tcp-load0.6-run1", "websearch-ideal-load0.6-run1"]


def test_workload_mean_sizes_from_the_shipped_cdfs() -> None:
    from pfabric_analysis.sweep_plan import cdf_mean_bytes

    root = Path(__file__).resolve().parents[3] / "workloads"
    # The doc's means of the piecewise-linear CDFs (Workloads), before rounding to segments.
    assert cdf_mean_bytes(root / "websearch.cdf") == pytest.approx(1_665_831, rel=1e-3)
    assert cdf_mean_bytes(root / "datamining.cdf") == pytest.approx(7_470_236, rel=1e-3)


def write_flow_list(path: Path, sizes: list[int]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [f"0,1,{size},{i * 1e-6:.9f}" for i, size in enumerate(sizes)]
    path.write_text("src,dst,size_bytes,start_s\n" + "\n".join(rows) + "\n")


def test_progress_counts_work_in_bytes_and_refines_estimates(tmp_path: Path) -> None:
    from pfabric_analysis.sweep_execute import Progress
    from pfabric_analysis.sweep_plan import flow_list_name, plan

    programs = {"websearch": tmp_path / "pfabric-websearch"}
    tasks = plan(spec(loads=(0.3, 0.6)), tmp_path, programs)
    by_name = {t.name: t for t in tasks}
    low = tmp_path / "flows" / f"{flow_list_name('websearch', 0.3, 1)}.csv"
    high = tmp_path / "flows" / f"{flow_list_name('websearch', 0.6, 1)}.csv"
    write_flow_list(low, [1000, 3000])  # the 0.3 list exists: 4,000 bytes
    progress = Progress(tasks, False, {low: 99.0, high: 12_000.0})
    # Flow lists and Ideal schedules weigh nothing; each packet run its list's bytes, or the
    # expected bytes while the list does not exist.
    assert progress.work["websearch-pfabric-load0.3-run1"] == 4000
    assert progress.work["websearch-tcp-load0.6-run1"] == 12_000
    assert progress.work["websearch-ideal-load0.3-run1"] == 0
    assert progress.fraction() == 0
    for name in ("websearch-load0.3-run1", "websearch-pfabric-load0.3-run1",
                 "websearch-tcp-load0.3-run1"):
        progress.advance(by_name[name])
    assert progress.fraction() == pytest.approx(8000 / 32_000)
    assert "work 25.0% (bytes)" in progress.line(60.0) and "ETA 3m00s" in progress.line(60.0)
    # The 0.6 list turns out smaller than expected: its runs are re-weighed when it is written.
    write_flow_list(high, [2000, 2000])
    progress.advance(by_name["websearch-load0.6-run1"])
    assert progress.fraction() == pytest.approx(8000 / 16_000)
    assert progress.line(60.0).endswith("ETA 1m00s")


def test_a_windowed_sweep_with_a_size_limit_plans_ideal_with_it(tmp_path: Path) -> None:
    """--set measureFlows=N --set measureMaxBytes=S: packet points get both options; the Ideal
    point's flow list is made without the window's options (the programs refuse them with
    --flowsOnly), IDEAL_LIST_FACTOR_UP_TO x N flows long, and `pfabric-analysis ideal` gets the
    window with the limit."""
    knobs = STAR + (("measureFlows", "100"), ("measureMaxBytes", "10000000"))
    grid = SweepSpec(("websearch",), ("pfabric", "ideal"), (0.8,), (1,), (("websearch", 12),), 1,
                     knobs)
    tasks = {task.kind: task for task in plan_windowed(grid, "websearch", tmp_path,
                                                       tmp_path / "pfabric-websearch", None)}
    assert "--measureMaxBytes=10000000" in tasks["packet"].command
    assert "--measureFlows=100" in tasks["packet"].command
    assert not any("measure" in part for part in tasks["flows"].command)
    assert tasks["flows"].command[-1] == f"--flows={IDEAL_LIST_FACTOR_UP_TO * 100}"
    assert "--measure-max-bytes=10000000" in tasks["ideal"].command
    assert "--measure-flows=100" in tasks["ideal"].command


def test_a_size_limit_needs_the_window() -> None:
    grid = SweepSpec(("websearch",), ("pfabric",), (0.8,), (1,), (("websearch", 12),), 1,
                     STAR + (("measureMaxBytes", "10000000"),))
    with pytest.raises(AnalysisError, match="--set measureMaxBytes: needs --set measureFlows"):
        check_spec(grid)
