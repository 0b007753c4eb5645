"""Reading run directories and summarising them, on hand-made frames and files."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pfabric_analysis import columnar, runs
from pfabric_analysis.cli import main
from pfabric_analysis.incast import QUERY_COLUMNS, read_incast_run
from pfabric_analysis.rerun import read_meta
from pfabric_analysis.runs import (ADDED_PARAMETERS, RENAMED_PARAMETERS, SIZE_BINS_FILE,
                                   AnalysisError, Run, bin_names, check_poolable,
                                   compared_parameters, normalise, read_run, read_size_bin_edges,
                                   replication_identity, scheme_parameters, size_bins, summarize)


def frame(rows: list[tuple[int, float, float, int]]) -> pd.DataFrame:
    """Flows from (size_bytes, fct_s, ideal_fct_s, completed)."""
    return pd.DataFrame([{"flow_id": i, "src": 0, "dst": 1, "size_bytes": size, "start_s": 0.0,
                          "fct_s": fct if done else np.nan, "ideal_fct_s": ideal,
                          "timeouts": 0, "completed": done}
                         for i, (size, fct, ideal, done) in enumerate(rows)])


def replication_shift(seed: object, run: object) -> float:
    """How much later a replication's flows start than run 1 of seed 1's, in seconds: 1,000 a
    seed and 1 a run after the first, so that replications of one experiment run flows of their
    own, as the programs' do (check_poolable refuses two runs of the same flows). A start time
    enters no FCT, ideal FCT or slowdown."""
    if isinstance(seed, int) and isinstance(run, int):
        return float((seed - 1) * 1000 + run - 1)
    return 0.0


def write_run(directory: Path, fct: pd.DataFrame, **parameters: object) -> Path:
    """A run directory of fct's flows (started replication_shift later) and a meta.json of the
    parameters."""
    directory.mkdir(parents=True)
    meta = {"parameters": {"scheme": "pfabric", "load": 0.5, "seed": 1, "run": 1, **parameters}}
    shift = replication_shift(meta["parameters"]["seed"], meta["parameters"]["run"])
    fct.assign(start_s=fct["start_s"] + shift).to_csv(directory / "fct.csv", index=False)
    (directory / "meta.json").write_text(json.dumps(meta))
    return directory


def test_bin_edges_at_exactly_100kb_and_10mb() -> None:
    sizes = pd.Series([1, 100000, 100001, 10000000, 10000001])
    assert list(size_bins(sizes)) == ["(0,100KB]", "(0,100KB]", "(100KB,10MB]", "(100KB,10MB]",
                                      "(10MB,inf)"]
    kib = pd.Series([102400, 102401, 10485760, 10485761])
    assert list(size_bins(kib, kb=1024)) == ["(0,100KB]", "(100KB,10MB]", "(100KB,10MB]",
                                             "(10MB,inf)"]


def test_the_size_bins_file_gives_the_edges_and_their_names(tmp_path: Path) -> None:
    assert read_size_bin_edges(SIZE_BINS_FILE) == (100_000, 10_000_000)
    other = tmp_path / "size-bins.txt"
    other.write_text("# comment\n\n50000\n1500000\n")
    assert read_size_bin_edges(other) == (50_000, 1_500_000)
    assert bin_names((50_000, 1_500_000)) == ["(0,50KB]", "(50KB,1500KB]", "(1500KB,inf)"]
    assert bin_names((999, 2_000_000)) == ["(0,999B]", "(999B,2MB]", "(2MB,inf)"]


@pytest.mark.parametrize("text", ["100000\n", "100000\n10000000\n1\n", "1e5\n1e7\n",
                                  "10000000\n100000\n", "0\n10\n", "-1\n10\n"])
def test_a_bad_size_bins_file_is_a_one_line_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "size-bins.txt"
    path.write_text(text)
    with pytest.raises(AnalysisError, match="^.*size-bins.txt: expected two increasing positive "
                                            "whole numbers of bytes, one a line$"):
        read_size_bin_edges(path)


def test_normalise_divides_by_the_ideal_and_leaves_unfinished_flows_empty() -> None:
    out = normalise(frame([(1000, 3e-5, 1.5e-5, 1), (2000, 0, 1e-5, 0)]))
    assert out["slowdown"].iloc[0] == pytest.approx(2.0)
    assert np.isnan(out["slowdown"].iloc[1])


def test_summary_by_hand() -> None:
    rows = [(50000, 1.0, 1.0, 1), (100000, 3.0, 1.0, 1),      # small: slowdowns 1, 3
            (100001, 2.0, 1.0, 1), (5000000, 4.0, 2.0, 1),    # medium: 2, 2
            (20000000, 0.0, 1.0, 0)]                          # large: unfinished
    table = summarize(frame(rows)).set_index("bin")
    assert table.loc["(0,100KB]", "flows"] == 2
    assert table.loc["(0,100KB]", "mean"] == pytest.approx(2.0)
    assert table.loc["(0,100KB]", "p99"] == pytest.approx(3.0)  # nearest rank: the largest
    assert table.loc["(100KB,10MB]", "mean"] == pytest.approx(2.0)
    assert table.loc["(10MB,inf)", "flows"] == 0
    assert table.loc["(10MB,inf)", "unfinished"] == 1
    assert np.isnan(table.loc["(10MB,inf)", "mean"])
    assert table.loc["all", "flows"] == 4 and table.loc["all", "unfinished"] == 1
    assert table.loc["all", "mean"] == pytest.approx(2.0)


def test_p99_is_the_nearest_rank() -> None:
    rows = [(1000, float(i), 1.0, 1) for i in range(1, 201)]  # slowdowns 1..200
    table = summarize(frame(rows)).set_index("bin")
    assert table.loc["(0,100KB]", "p99"] == 198.0  # ceil(0.99 * 200) = 198th value


def test_read_run_refuses_missing_and_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(AnalysisError, match="fct.csv: missing"):
        read_run(tmp_path)
    good = frame([(1000, 1.0, 1.0, 1)])
    broken = write_run(tmp_path / "no-column", good.drop(columns=["ideal_fct_s"]))
    with pytest.raises(AnalysisError, match="missing column\\(s\\) ideal_fct_s"):
        read_run(broken)
    bad_meta = write_run(tmp_path / "bad-meta", good)
    (bad_meta / "meta.json").write_text("{not json")
    with pytest.raises(AnalysisError, match="meta.json: not JSON"):
        read_run(bad_meta)


def test_a_windowed_run_keeps_only_its_measured_flows(tmp_path: Path) -> None:
    """A run with the measurement window: a last column `measured`; Run.fct holds the measured
    rows only, so every statistic is over them, and flows_simulated comes from the window."""
    flows = frame([(1000, 9.0, 1.0, 1), (1000, 2.0, 1.0, 1), (1000, 4.0, 1.0, 1),
                   (1000, np.nan, 1.0, 0)])
    flows["measured"] = [0, 1, 1, 0]
    directory = write_run(tmp_path / "window", flows)
    meta = json.loads((directory / "meta.json").read_text())
    meta["window"] = {"warmup_flows": 1, "measure_flows": 2, "flows_simulated": 4,
                      "arrivals_through_end": True}
    (directory / "meta.json").write_text(json.dumps(meta))
    run = read_run(directory)
    assert run.fct["flow_id"].tolist() == [1, 2] and run.windowed
    assert run.flows_simulated == 4
    table = summarize(run.fct).set_index("bin")
    assert table.loc["all", "mean"] == 3.0 and table.loc["all", "unfinished"] == 0
    flows.loc[0, "measured"] = 2
    flows.to_csv(directory / "fct.csv", index=False)
    with pytest.raises(AnalysisError, match="fct.csv:2: measured '2' is not 0 or 1$"):
        read_run(directory)


def test_a_compact_point_is_read_from_fct_csv_gz(tmp_path: Path) -> None:
    """fct.csv.gz (a committed compact point) reads as fct.csv would; without a window every
    row is measured and flows_simulated is the row count; a window whose flows_simulated is
    fewer than the rows is refused."""
    flows = frame([(1000, 2.0, 1.0, 1), (200_000, 6.0, 2.0, 1)])
    plain = read_run(write_run(tmp_path / "plain", flows))
    compact = write_run(tmp_path / "compact", flows)
    (compact / "fct.csv").unlink()
    flows.to_csv(compact / "fct.csv.gz", index=False)
    run = read_run(compact)
    pd.testing.assert_frame_equal(run.fct, plain.fct)
    assert run.flows_simulated == plain.flows_simulated == 2 and not run.windowed
    meta = json.loads((compact / "meta.json").read_text())
    (compact / "meta.json").write_text(json.dumps({**meta, "window": {"flows_simulated": 1}}))
    with pytest.raises(AnalysisError, match="window.flows_simulated 1 is not a count"):
        read_run(compact)
    (compact / "fct.csv.gz").write_bytes(b"\x1f\x8b not gzip")
    with pytest.raises(AnalysisError, match="fct.csv.gz: not a CSV file"):
        read_run(compact)


def test_a_compact_point_is_read_from_its_columns(tmp_path: Path) -> None:
    """fct.columns.xz (the store's format) reads as fct.csv would, and is preferred to a
    fct.csv.gz beside it; a file that is not one is refused in one line naming it, and so is a
    bad value, by its line in the table."""
    flows = frame([(1000, 2.0, 1.0, 1), (200_000, 6.0, 2.0, 1)])
    plain = write_run(tmp_path / "plain", flows)
    compact = write_run(tmp_path / "compact", flows)
    (compact / "fct.csv").unlink()
    (compact / "fct.columns.xz").write_bytes(columnar.encode((plain / "fct.csv").read_bytes()))
    (compact / "fct.csv.gz").write_bytes(b"not read")
    pd.testing.assert_frame_equal(read_run(compact).fct, read_run(plain).fct)
    (compact / "fct.columns.xz").write_bytes(b"\xfd7zXZ not xz")
    with pytest.raises(AnalysisError, match=r"fct.columns.xz: not a CSV file \(not xz data"):
        read_run(compact)
    bad = (plain / "fct.csv").read_text().replace(",2.0,", ",-2.0,", 1).encode()
    (compact / "fct.columns.xz").write_bytes(columnar.encode(bad))
    with pytest.raises(AnalysisError, match="fct.columns.xz:2: fct_s '-2.0' is not"):
        read_run(compact)


def test_runs_of_different_experiments_are_not_pooled(tmp_path: Path) -> None:
    flows = frame([(1000, 1.0, 1.0, 1)])
    a = read_run(write_run(tmp_path / "a", flows, run=1))
    b = read_run(write_run(tmp_path / "b", flows, run=2))
    check_poolable([a, b])  # replications pool
    c = read_run(write_run(tmp_path / "c", flows, scheme="tcp"))
    with pytest.raises(AnalysisError, match="parameter scheme is 'tcp'"):
        check_poolable([a, c])


def test_runs_of_two_host_stacks_are_not_pooled(tmp_path: Path) -> None:
    """A run written before --hostStack existed ran on ns-3's TCP/IP: it pools with an ns3tcp
    run, not with a lean host's; hostStack is one of a scheme's parameters, which may differ
    between the schemes of one figure (the baselines stay on ns-3's TCP/IP)."""
    flows = frame([(1000, 1.0, 1.0, 1)])
    old = read_run(write_run(tmp_path / "old", flows, run=1))
    ns3 = read_run(write_run(tmp_path / "ns3", flows, run=2, hostStack="ns3tcp"))
    lean = read_run(write_run(tmp_path / "lean", flows, run=3, hostStack="lean"))
    check_poolable([old, ns3])
    with pytest.raises(AnalysisError, match="parameter hostStack is 'lean', but .*old has "
                                            "'ns3tcp'; not the same experiment"):
        check_poolable([old, ns3, lean])
    assert "hostStack" in scheme_parameters(lean.meta)


def test_runs_of_two_arrival_processes_are_not_pooled(tmp_path: Path) -> None:
    """A run written before --arrivals existed drew this module's Poisson flows: it pools with a
    poisson run, not with one of the original scripts' flows (--arrivals=ns2)."""
    flows = frame([(1000, 1.0, 1.0, 1)])
    old = read_run(write_run(tmp_path / "old", flows, run=1))
    poisson = read_run(write_run(tmp_path / "poisson", flows, run=2, arrivals="poisson"))
    ns2 = read_run(write_run(tmp_path / "ns2", flows, run=3, arrivals="ns2"))
    check_poolable([old, poisson])
    with pytest.raises(AnalysisError, match="parameter arrivals is 'ns2'"):
        check_poolable([old, poisson, ns2])


def test_runs_of_one_workload_are_not_pooled_as_replications(tmp_path: Path) -> None:
    """Issue 54's eighth probe (F10): --arrivals=ns2 runs under --run=1 and --run=5 have the same
    flows (byte-identical fct.csv), and summarize, figures and steady pooled them as two
    replications; so too one flow list replayed under two runs. Flow lists of their own pool."""
    flows = frame([(1000, 1.0, 1.0, 1)])
    ns2 = [read_run(write_run(tmp_path / f"ns2-{run}", flows, run=run, arrivals="ns2"))
           for run in (1, 5)]
    with pytest.raises(AnalysisError, match=r"ns2-5: the same flows as .*ns2-1 \(--arrivals=ns2: "
                                            r"the same flows for every seed and run\), a copy of "
                                            r"its workload, not a replication"):
        check_poolable(ns2)
    assert main(["summarize", str(ns2[0].directory), str(ns2[1].directory)]) == 1
    listed = [read_run(write_run(tmp_path / f"list-{run}", flows, run=run, flowFile=name))
              for run, name in ((1, "flows/a.csv"), (2, "flows/b.csv"), (3, "flows/a.csv"))]
    check_poolable(listed[:2])
    with pytest.raises(AnalysisError, match=r"list-3: the same flows as .*list-1 "
                                            r"\(--flowFile=flows/a.csv: "):
        check_poolable(listed)


def test_runs_of_the_same_flows_under_other_labels_are_not_pooled(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 54's tenth probe (G6): a run directory copied and its meta.json's seed and run edited
    by hand, or a flow list copied under another name and replayed under another run, has the
    run's flows under other labels, and check_poolable pooled the two as replications (it knew a
    copy only by its (seed, run) or its --flowFile path), narrowing an interval with copies. The
    flows (src, dst, size_bytes and start_s of every flow, in any order; not their FCTs) tell
    them: refused in one line naming both directories, whichever file holds the flows. Runs whose
    flows differ, even in one start time by a nanosecond, pool."""
    flows = frame([(1000, 1.0, 1.0, 1), (200000, 3.0, 1.0, 1)]).assign(start_s=[0.5, 0.25])
    original = write_run(tmp_path / "run1", flows, run=1)  # drew its flows (and dumped them)
    edited = tmp_path / "edited"
    shutil.copytree(original, edited)
    meta = json.loads((edited / "meta.json").read_text())
    meta["parameters"].update(seed=2, run=7)
    (edited / "meta.json").write_text(json.dumps(meta))
    # run 1's dumped list, copied under another name, replayed under run 2: its flows start when
    # the list says (write_run's replication shift undone), in another order, FCTs their own
    replayed = write_run(tmp_path / "replayed", flows, run=2, flowFile="flows/copy-of-run1.csv")
    flows.assign(fct_s=[2.0, 4.0]).iloc[::-1].to_csv(replayed / "fct.csv", index=False)
    compacted = tmp_path / "compacted"  # the edited copy as a store keeps it
    shutil.copytree(edited, compacted)
    (compacted / "fct.columns.xz").write_bytes(
        columnar.encode((compacted / "fct.csv").read_bytes()))
    (compacted / "fct.csv").unlink()
    first = read_run(original)
    for copy in (edited, replayed, compacted):
        with pytest.raises(AnalysisError, match=(
                rf"^{re.escape(str(copy))}: the same flows as {re.escape(str(original))} \(src, "
                r"dst, size_bytes and start_s of every flow\), a copy of its workload, not a "
                r"replication$")):
            check_poolable([first, read_run(copy)])
    assert main(["summarize", str(original), str(edited)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"pfabric-analysis: error: {edited}: the same flows as {original} (src, dst, size_bytes "
        "and start_s of every flow), a copy of its workload, not a replication"]
    other = write_run(tmp_path / "run2", flows, run=2)  # a second later
    nudged = write_run(tmp_path / "run3", flows, run=3)
    flows.assign(start_s=[0.5, 0.250000001]).to_csv(nudged / "fct.csv", index=False)
    check_poolable([first, read_run(other), read_run(nudged)])
    assert main(["summarize", str(original), str(other), str(nudged)]) == 0


def test_a_run_written_before_link_delay_pools_with_the_presets_delay_only(
        tmp_path: Path) -> None:
    """A run written before --linkDelay existed ran with its preset's link delay, which today's
    runs record as '' (the steady tier's store holds both kinds at one load)."""
    flows = frame([(1000, 1.0, 1.0, 1)])
    old = read_run(write_run(tmp_path / "old", flows, run=1))
    preset = read_run(write_run(tmp_path / "preset", flows, run=2, linkDelay=""))
    literal = read_run(write_run(tmp_path / "literal", flows, run=3, linkDelay="1us"))
    check_poolable([old, preset])
    with pytest.raises(AnalysisError, match="parameter linkDelay is '1us'"):
        check_poolable([old, preset, literal])


@pytest.mark.parametrize("scheme, key, value, before", [
    ("linerate", "line_rate_window_segments", 14, 0),
    ("dctcp", "dctcp_min_window_segments", 1, 0),
    ("dctcp", "dctcp_initial_alpha", 0, 1.0)])
def test_runs_of_two_recorded_numbers_are_not_pooled(tmp_path: Path, scheme: str, key: str,
                                                     value: int, before: float) -> None:
    """LineRate's window is a preset's number that no option records, DCTCP's floor under its cut
    and its initial alpha model defaults: a run of the scheme records it
    (line_rate_window_segments, dctcp_min_window_segments, dctcp_initial_alpha), and a run written
    before it did ran with the value before (no window, no floor, ns-3's alpha of 1). Runs of two
    values do not pool; a run of another scheme records none, so its old and new runs pool; the
    number is one of a scheme's parameters, which may differ between the schemes of a figure."""
    flows = frame([(1000, 1.0, 1.0, 1)])

    def with_window(name: str, run: int, scheme: str, **members: object) -> Run:
        directory = write_run(tmp_path / name, flows, run=run, scheme=scheme)
        meta = json.loads((directory / "meta.json").read_text())
        (directory / "meta.json").write_text(json.dumps({**meta, **members}))
        return read_run(directory)

    old = with_window("old", 1, scheme)
    unbounded = with_window("unbounded", 2, scheme, **{key: before})
    windowed = with_window("windowed", 3, scheme, **{key: value})
    check_poolable([old, unbounded])
    with pytest.raises(AnalysisError, match=f"parameter {key} is {value}, but "
                                            f".*old has {before}; not the same experiment"):
        check_poolable([old, unbounded, windowed])
    check_poolable([with_window("mintcp-old", 1, "pfabric"), with_window("mintcp", 2, "pfabric")])
    assert key in scheme_parameters(windowed.meta)


def test_runs_of_two_ns3_versions_are_not_pooled(tmp_path: Path) -> None:
    flows = frame([(1000, 1.0, 1.0, 1)])
    runs = {}
    for name, run, version in (("a", 1, "3.37"), ("b", 2, "3.37"), ("c", 3, "3.44")):
        directory = write_run(tmp_path / name, flows, run=run)
        meta = json.loads((directory / "meta.json").read_text())
        (directory / "meta.json").write_text(json.dumps({**meta, "ns3_version": version}))
        runs[name] = read_run(directory)
    check_poolable([runs["a"], runs["b"]])
    with pytest.raises(AnalysisError, match=r"c: ns3_version is '3.44', but .*a has '3.37'; "
                                            "runs of two builds are not one experiment"):
        check_poolable([runs["a"], runs["b"], runs["c"]])


def test_runs_given_other_ns3_settings_are_not_pooled(tmp_path: Path) -> None:
    """An attribute set on the command line (meta.json's ns3_settings) or through ns-3's
    variables (ns3_environment) changes a run as an option does: runs that differ in one do not
    pool. A run written before they were recorded had none; the event scheduler changes no
    result and is not compared."""
    flows = frame([(1000, 1.0, 1.0, 1)])

    def with_meta(name: str, run: int, **members: object) -> Run:
        directory = write_run(tmp_path / name, flows, run=run)
        meta = json.loads((directory / "meta.json").read_text())
        (directory / "meta.json").write_text(json.dumps({**meta, **members}))
        return read_run(directory)

    old = with_meta("old", 1)
    none = with_meta("none", 2, ns3_settings={}, ns3_environment={})
    scheduler = with_meta("scheduler", 3, ns3_settings={"SchedulerType": "ns3::MapScheduler"})
    check_poolable([old, none, scheduler])
    paced = with_meta("paced", 4,
                      ns3_settings={"ns3::PfabricHostTransport::HostPacing": "false"})
    with pytest.raises(AnalysisError, match=r"paced: parameter '--ns3::PfabricHostTransport::"
                                            r"HostPacing' is 'false', but .*old has None"):
        check_poolable([old, none, paced])
    environment = with_meta("environment", 5, ns3_environment={
        "NS_ATTRIBUTE_DEFAULT": "ns3::PfabricQueueDisc::MaxSize=30p"})
    with pytest.raises(AnalysisError, match=r"environment: parameter '--ns3::PfabricQueueDisc::"
                                            r"MaxSize' is '30p', but .*none has None"):
        check_poolable([none, environment])
    assert compared_parameters(paced.meta)["--ns3::PfabricHostTransport::HostPacing"] == "false"


def test_settings_given_through_ns3s_variables_pool_as_the_command_lines(tmp_path: Path) -> None:
    """Issue 54's sixth probe (F9): NS_GLOBAL_VALUE's RngRun and RngSeed set the run's --run and
    --seed (meta.json's parameters run and seed), so a run made with NS_GLOBAL_VALUE=RngRun=3 is
    replication 3 of the experiment run 1 is of, as --run=3 (or --RngRun=3) makes; and a setting
    given through NS_ATTRIBUTE_DEFAULT or NS_GLOBAL_VALUE is the command line's setting (meta.json
    records --ns3::Type::Attr=v in ns3_settings under ns3::Type::Attr). A real difference is
    still refused, and a store knows the same replication however it was given."""
    flows = frame([(1000, 1.0, 1.0, 1)])

    def with_meta(name: str, run: int, seed: int = 1, settings: dict | None = None,
                  environment: dict | None = None) -> Run:
        directory = write_run(tmp_path / name, flows, run=run, seed=seed)
        meta = json.loads((directory / "meta.json").read_text())
        (directory / "meta.json").write_text(json.dumps(
            {**meta, "ns3_settings": settings or {}, "ns3_environment": environment or {}}))
        return read_run(directory)

    rto = "ns3::PfabricMinTcpSocket::Rto"
    simulator = "SimulatorImplementationType"
    run1 = with_meta("run1", 1)
    run_r3 = with_meta("run_r3", 3)
    run_env_r3 = with_meta("run_env_r3", 3, environment={"NS_GLOBAL_VALUE": "RngRun=3"})
    seed_env = with_meta("seed_env", 1, 2, environment={"NS_GLOBAL_VALUE": "RngSeed=2;RngRun=1"})
    scheduler_env = with_meta("scheduler_env", 4, environment={
        "NS_GLOBAL_VALUE": "SchedulerType=ns3::MapScheduler"})
    check_poolable([run1, run_env_r3])
    check_poolable([run1, seed_env, scheduler_env])
    assert main(["summarize", str(run1.directory), str(run_env_r3.directory)]) == 0
    assert replication_identity(run_env_r3.meta) == replication_identity(run_r3.meta)
    with pytest.raises(AnalysisError, match="the same replication"):
        check_poolable([run_r3, run_env_r3])

    given = with_meta("given", 2, settings={rto: "40us", simulator: "ns3::DefaultSimulatorImpl"})
    variables = with_meta("variables", 1, environment={
        "NS_ATTRIBUTE_DEFAULT": f"{rto}=40us",
        "NS_GLOBAL_VALUE": f"RngRun=1;{simulator}=ns3::DefaultSimulatorImpl"})
    check_poolable([given, variables])
    assert compared_parameters(variables.meta)[f"--{rto}"] == "40us"

    other = with_meta("other", 3, settings={simulator: "ns3::DefaultSimulatorImpl"},
                      environment={"NS_ATTRIBUTE_DEFAULT": f"{rto}=80us"})
    with pytest.raises(AnalysisError, match=rf"other: parameter '--{rto}' is '80us', but "
                                            r".*given has '40us'; not the same experiment"):
        check_poolable([given, other])
    with pytest.raises(AnalysisError, match=rf"variables: parameter '--{simulator}' is "
                                            r"'ns3::DefaultSimulatorImpl', but .*run1 has None"):
        check_poolable([run1, variables])
    simulated = with_meta("simulated", 5, environment={
        "NS_GLOBAL_VALUE": f"RngRun=5;{simulator}=ns3::RealtimeSimulatorImpl"})
    with pytest.raises(AnalysisError, match=f"parameter '--{simulator}'"):
        check_poolable([run1, simulated])
    assert replication_identity(other.meta) != replication_identity(given.meta)


def test_runs_of_the_programs_given_ns3s_variables_pool(bin_dir: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 54's sixth probe (F9), on the programs' own meta.json: NS_GLOBAL_VALUE=RngRun=3 is
    run 3 of the experiment --run=1 is run 1 of, and NS_ATTRIBUTE_DEFAULT's attribute is the
    command line's (--ns3::Type::Attribute); an attribute given one way only still differs."""
    base = {name: value for name, value in os.environ.items()
            if name not in ("NS_GLOBAL_VALUE", "NS_ATTRIBUTE_DEFAULT")}
    mtu = "ns3::PfabricLinkNetDevice::Mtu=9000"

    def run(name: str, *options: str, **variables: str) -> str:
        out = tmp_path / name
        subprocess.run([str(bin_dir / "pfabric-websearch"), "--topology=star", "--hosts=4",
                        "--flows=5", "--quiet", f"--out={out}", *options],
                       env={**base, **variables}, check=True, timeout=300)
        return str(out)

    run1 = run("run1", "--run=1")
    env_r3 = run("env_r3", NS_GLOBAL_VALUE="RngRun=3")
    given = run("given", f"--{mtu}", "--run=2")
    variable = run("variable", NS_ATTRIBUTE_DEFAULT=mtu)
    assert main(["summarize", run1, env_r3]) == 0
    assert main(["summarize", given, variable]) == 0
    capsys.readouterr()
    assert main(["summarize", run1, variable]) == 1
    assert "not the same experiment" in capsys.readouterr().err


@pytest.mark.parametrize("text, expected", [
    ("", []), ("RngRun=3", [("RngRun", "3")]),
    ("a=1;;b=x=y;c", [("a", "1"), ("b", "x=y"), ("c", "")]),
])
def test_ns3s_variables_are_split_as_ns3_splits_them(text: str,
                                                      expected: list[tuple[str, str]]) -> None:
    """Issue 54's sixth probe (F9): Name=value;Name=value, empty entries skipped, a value after
    the first '='."""
    assert runs.variable_settings(text) == expected


def test_a_meta_json_with_a_name_twice_is_one_line(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The tenth probe (U4): "seed" twice in parameters read as its second value, without a
    word (JSON leaves duplicate names to the reader; Python keeps the last)."""
    run = write_run(tmp_path / "run", frame([(1000, 1.0, 1.0, 1)]))
    meta_path = run / "meta.json"
    meta_path.write_text(meta_path.read_text().replace('"seed": 1', '"seed": 1, "seed": 2', 1))
    assert main(["summarize", str(run)]) == 1
    assert capsys.readouterr().err == (f"pfabric-analysis: error: {meta_path}: not JSON (the "
                                       "name 'seed' twice in one object)\n")


def test_a_meta_json_integer_beyond_pythons_digit_limit_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 54's sixth probe (F10): an integer of more than 4300 digits (Python's limit on
    reading one from text) in meta.json is refused in one line naming the file, as any
    malformed meta.json is, by every reader of one."""
    run = write_run(tmp_path / "run", frame([(1000, 1.0, 1.0, 1)]))
    meta_path = run / "meta.json"
    meta_path.write_text(meta_path.read_text().replace('"seed": 1', '"seed": ' + "9" * 5000))
    assert main(["summarize", str(run)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"pfabric-analysis: error: {meta_path}: not JSON")
    assert "4300" in err[0]
    with pytest.raises(AnalysisError, match="meta.json: not JSON"):
        read_meta(run)
    (run / "queries.csv").write_text(",".join(QUERY_COLUMNS) + "\n" + ",".join(["0"] * 11) + "\n")
    with pytest.raises(AnalysisError, match="meta.json: not JSON"):
        read_incast_run(run)


@pytest.mark.parametrize("command", ["summarize", "steady", "store"])
def test_a_meta_json_nested_past_pythons_recursion_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    """Issue 54's seventh probe: a meta.json nested 200,000 levels deep (a valid JSON text)
    ended summarize, steady and store add in a 26-line traceback (RecursionError): it is "not
    JSON" in one line naming the file, as any meta.json Python cannot read, by every reader."""
    run = write_run(tmp_path / "run", frame([(1000, 1.0, 1.0, 1)]))
    meta_path = run / "meta.json"
    meta_path.write_text('{"x": ' + "[" * 200_000 + "]" * 200_000 + "}")
    arguments = {"summarize": ["summarize", str(run)], "steady": ["steady", str(run)],
                 "store": ["store", "add", "--store", str(tmp_path / "store"), str(run)]}[command]
    assert main(arguments) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"pfabric-analysis: error: {meta_path}: not JSON")
    with pytest.raises(AnalysisError, match="meta.json: not JSON"):
        read_meta(run)


def test_parameters_under_their_old_dashed_names_are_read_under_the_current_ones(
        tmp_path: Path) -> None:
    # Run directories written before the programs' options became camelCase (and the results
    # committed in doc/figures) keep keys such as reuse-connections.
    flows = frame([(1000, 1.0, 1.0, 1)])
    old = read_run(write_run(tmp_path / "old", flows, run=1, **{
        "flow-file": "a.csv", "dump-flows": "", "reuse-connections": False, "hash-demux": True}))
    assert {key: old.meta["parameters"][key] for key in RENAMED_PARAMETERS.values()} == {
        "flowFile": "a.csv", "dumpFlows": "", "reuseConnections": False, "hashDemux": True}
    assert not set(RENAMED_PARAMETERS) & set(old.meta["parameters"])
    new = read_run(write_run(tmp_path / "new", flows, run=2, flowFile="b.csv", dumpFlows="",
                             reuseConnections=False, hashDemux=False))
    check_poolable([old, new])  # the same experiment, whichever names its meta.json has
    other = read_run(write_run(tmp_path / "other", flows, reuseConnections=True))
    with pytest.raises(AnalysisError, match="parameter reuseConnections is True"):
        check_poolable([old, other])


def test_parameters_added_later_are_read_at_their_earlier_behaviour(tmp_path: Path) -> None:
    # A run written before --connectionPool and --restartSsThresh existed ran without a pool and
    # with ssthresh restarted: it pools with a new run that says so, not with one that does not.
    flows = frame([(1000, 1.0, 1.0, 1)])
    old = read_run(write_run(tmp_path / "old", flows, run=1))
    assert not set(ADDED_PARAMETERS) & set(old.meta["parameters"])  # read as written
    new = read_run(write_run(tmp_path / "new", flows, run=2, connectionPool=0,
                             restartSsThresh=True))
    check_poolable([old, new])
    pooled = read_run(write_run(tmp_path / "pooled", flows, connectionPool=1))
    with pytest.raises(AnalysisError, match="parameter connectionPool is 1"):
        check_poolable([old, pooled])


def test_cli_summarizes_and_fails_with_one_line(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    run = write_run(tmp_path / "run", frame([(1000, 2.0, 1.0, 1), (200000, 3.0, 1.0, 1)]))
    table_csv = tmp_path / "table.csv"
    assert main(["summarize", str(run), "--csv", str(table_csv)]) == 0
    out = capsys.readouterr().out
    assert "(0,100KB]" in out and "2.000" in out
    assert pd.read_csv(table_csv)["flows"].tolist() == [1, 1, 0, 2]
    assert main(["summarize", str(tmp_path / "nowhere")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"pfabric-analysis: error: {tmp_path / 'nowhere' / 'fct.csv'}: missing"]


def test_cli_summarize_blocks_shows_the_run_in_arrival_order(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--blocks 2 on one run adds a row per block (its flows' statistics in arrival order);
    with two runs, or a negative count, one line and exit 1."""
    run = write_run(tmp_path / "run", frame([(1000, 2.0, 1.0, 1), (1000, 6.0, 1.0, 1)]))
    assert main(["summarize", str(run), "--blocks", "2"]) == 0
    out = capsys.readouterr().out
    assert "In arrival order, 2 blocks" in out
    rows = [line.split() for line in out.splitlines() if line.split()[:1] in (["0"], ["1"])]
    assert [(row[1], row[2], row[4]) for row in rows] == [("0", "0", "2.000"), ("1", "1", "6.000")]
    other = write_run(tmp_path / "other", frame([(1000, 2.0, 1.0, 1)]), run=2)
    for argv in (["--blocks", "2", str(run), str(other)], ["--blocks", "-1", str(run)]):
        assert main(["summarize", *argv]) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "--blocks" in err[0], err
