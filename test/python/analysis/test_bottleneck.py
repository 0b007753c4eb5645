"""The bottleneck sub-command: the all-to-one flow generator, the reported window, the comparison
arithmetic on hand-made frames, bad input; end to end with the real programs on a small star
only when PFABRIC_BUILD_DIR is set."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pfabric_analysis.bottleneck import (FIRST_START_S, BottleneckSpec, all_to_one_flows,
                                         compare, format_table, measured_response, reported,
                                         run_bottleneck)
from pfabric_analysis.cli import main
from pfabric_analysis.ideal import Link, wire_bytes
from pfabric_analysis.runs import FCT_COLUMNS, AnalysisError
from pfabric_analysis.theory import SizeDistribution, srpt_response_time

BYTE_PER_S = Link(rate_bps=8, segment_bytes=1000, overhead_bytes=0)  # service time = bytes


def test_flows_go_to_host_0_at_the_asked_load() -> None:
    spec = BottleneckSpec(load=0.5, flows=20_000, hosts=16, seed=4)
    flows, lam = all_to_one_flows(spec)
    assert list(flows.columns) == ["src", "dst", "size_bytes", "start_s"]
    assert (flows["dst"] == 0).all()
    assert flows["src"].between(1, 15).all() and flows["src"].nunique() == 15
    counts = flows["src"].value_counts()
    assert counts.max() / counts.min() < 1.2  # uniform over the other hosts
    assert (flows["size_bytes"] % 1460 == 0).all() and (flows["size_bytes"] >= 8760).all()
    start = flows["start_s"].to_numpy()
    assert (np.diff(start) >= 0).all() and start[0] > FIRST_START_S
    assert np.array_equal(start, np.round(start, 9))
    # lam = load * C / (8 * mean wire bytes), with wire = size + 42 per 1460-byte packet.
    wire = flows["size_bytes"] + 42 * flows["size_bytes"] // 1460
    assert lam == pytest.approx(0.5 * 1e10 / (8 * wire.mean()))
    assert lam * (wire * 8 / 1e10).mean() == pytest.approx(0.5)  # exact for the sampled sizes
    # Poisson at rate lam: 20,000 gaps, mean 1/lam within 3 standard errors (2.1%).
    gaps = np.diff(start)
    assert gaps.mean() * lam == pytest.approx(1.0, abs=0.021)
    assert gaps.std() / gaps.mean() == pytest.approx(1.0, abs=0.05)  # exponential: CV 1
    again, lam_again = all_to_one_flows(spec)
    assert again.equals(flows) and lam_again == lam
    assert not all_to_one_flows(BottleneckSpec(flows=100, seed=5))[0].equals(
        all_to_one_flows(BottleneckSpec(flows=100, seed=4))[0])


def test_reported_flows_drop_the_first_and_last_tenth_by_start() -> None:
    start = np.arange(100.0)[::-1]  # any order
    keep = reported(start)
    assert keep.sum() == 80
    assert start[keep].min() == 10 and start[keep].max() == 89
    # Ties in start time by position; 25 flows: int(2.5) = 2 at each end.
    assert reported(np.zeros(25)).tolist() == [False] * 2 + [True] * 21 + [False] * 2


def test_measured_response_is_fct_minus_base_latency() -> None:
    # 1460 B = one packet of 1502 B on the wire: 1.2016 us at 10 Gb/s. FCT 10 us, ideal 5 us:
    # base latency 5 - 1.2016 = 3.7984 us, response 10 - 3.7984 = 6.2016 us.
    fct = pd.DataFrame({"size_bytes": [1460, 1460], "fct_s": [10e-6, np.nan],
                        "ideal_fct_s": [5e-6, 5e-6], "completed": [1, 0]})
    out = measured_response(fct, Link())
    assert out[0] == pytest.approx(6.2016e-6) and np.isnan(out[1])


def hand_made(extra_small: float = 3.0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """20 flows far apart (no queueing) alternating 50,000 B and 200,000 B, at 1 byte/s: each
    takes its size plus a base latency of 7 s, small ones `extra_small` s more."""
    n = 20
    size = np.where(np.arange(n) % 2 == 0, 50_000, 200_000)
    start = np.arange(n) * 1e6
    flows = pd.DataFrame({"src": 1 + np.arange(n) % 3, "dst": 0, "size_bytes": size,
                          "start_s": start})
    fct_s = size + np.where(size == 50_000, extra_small, 0.0) + 7.0
    fct = pd.DataFrame({"flow_id": np.arange(n), "src": flows["src"], "dst": 0,
                        "size_bytes": size, "start_s": start, "fct_s": fct_s,
                        "ideal_fct_s": size + 7.0, "timeouts": np.arange(n) % 2 * 4,
                        "completed": 1})[FCT_COLUMNS]
    return flows, fct


def test_compare_arithmetic_on_hand_made_flows() -> None:
    flows, fct = hand_made()
    lam = 1e-6  # load 0.125
    table = compare(flows, fct.iloc[::-1], "pfabric", "srpt", lam, BYTE_PER_S)  # any row order
    assert table["bin"].tolist() == ["(0,100KB]", "(100KB,10MB]", "(10MB,inf)", "all"]
    assert table["scheme"].tolist() == ["pfabric"] * 4 and table["model"].tolist() == ["srpt"] * 4
    # Reported: flows 2..17, 8 of each size.
    assert table["flows"].tolist() == [8, 8, 0, 16]
    small, large = table.iloc[0], table.iloc[1]
    assert small["measured_s"] == pytest.approx(50_003.0)
    assert large["measured_s"] == pytest.approx(200_000.0)
    # Nothing overlaps on the flows' own arrivals: the sample path is the size itself.
    assert small["sample_path_s"] == pytest.approx(50_000.0)
    assert small["ratio_sample_path"] == pytest.approx(50_003 / 50_000)
    assert large["ratio_sample_path"] == pytest.approx(1.0)
    # Theory for the two-point empirical distribution (1/2 each) at lam.
    dist = SizeDistribution(np.array([50_000.0, 200_000.0]), np.array([0.5, 0.5]))
    expected = srpt_response_time(np.array([50_000.0, 200_000.0]), lam, dist)
    assert [small["predicted_s"], large["predicted_s"]] == pytest.approx(expected.tolist())
    assert small["ratio"] == pytest.approx(50_003 / expected[0])
    assert table.iloc[3]["measured_s"] == pytest.approx((50_003 + 200_000) / 2)
    assert table["timeouts_per_flow"].tolist()[:2] == [0.0, 4.0]
    assert table["unfinished"].tolist() == [0, 0, 0, 0]
    tcp = compare(flows, fct, "tcp", "ps", lam, BYTE_PER_S)
    assert tcp["model"].iloc[0] == "ps"
    assert tcp["predicted_s"].iloc[0] == pytest.approx(50_000 / (1 - 0.125))
    assert tcp["sample_path_s"].iloc[1] == pytest.approx(200_000.0)
    text = format_table(pd.concat([table, tcp]))
    assert "pfabric vs M/G/1 preemptive SRPT" in text
    assert "tcp vs M/G/1 processor sharing" in text


def test_compare_counts_unfinished_flows_and_refuses_other_flows() -> None:
    flows, fct = hand_made()
    fct.loc[5, ["completed", "fct_s"]] = [0, np.nan]
    table = compare(flows, fct, "pfabric", "srpt", 1e-6, BYTE_PER_S)
    assert table["unfinished"].tolist() == [0, 1, 0, 1]
    assert table["flows"].tolist() == [8, 7, 0, 15]
    with pytest.raises(AnalysisError, match="not the flow list's"):
        compare(flows.iloc[:-1], fct, "pfabric", "srpt", 1e-6, BYTE_PER_S)
    other = fct.copy()
    other.loc[3, "size_bytes"] += 1
    with pytest.raises(AnalysisError, match="not the flow list's"):
        compare(flows, other, "pfabric", "srpt", 1e-6, BYTE_PER_S)
    with pytest.raises(AnalysisError, match="no queueing model"):
        compare(flows, fct, "ideal", "fifo", 1e-6, BYTE_PER_S)


@pytest.mark.parametrize("arguments, message", [
    (["--load=1.5"], "--load 1.5"),
    (["--flows=10"], "--flows 10"),
    (["--hosts=1"], "--hosts 1"),
    (["--schemes=pfabric,ideal"], "--schemes pfabric,ideal: choose from pfabric, linerate, tcp, "
                                   "dctcp"),
    (["--schemes=custom"], "--schemes custom: choose from"),
    (["--schemes=tcp,tcp"], "a scheme twice"),
])
def test_bad_options_are_one_line_errors(arguments: list[str], message: str, tmp_path: Path,
                                         capsys) -> None:
    assert main(["bottleneck", f"--out={tmp_path}", *arguments]) == 1
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1
    assert not (tmp_path / "flows.csv").exists()


def test_missing_programs_and_missing_runs_are_one_line_errors(tmp_path: Path, capsys) -> None:
    assert main(["bottleneck", f"--out={tmp_path}/a", f"--bin-dir={tmp_path}/none"]) == 1
    error = capsys.readouterr().err
    assert "no pfabric-websearch program" in error and error.count("\n") == 1
    assert main(["bottleneck", f"--out={tmp_path}/b", "--reuse"]) == 1
    error = capsys.readouterr().err
    assert "flows.csv: missing" in error and error.count("\n") == 1


def test_end_to_end_on_a_small_star(bin_dir: Path, tmp_path: Path) -> None:
    spec = BottleneckSpec(load=0.3, flows=60, hosts=4, seed=2, schemes=("pfabric", "tcp"))
    table = run_bottleneck(spec, tmp_path, bin_dir)
    assert table["scheme"].tolist() == ["pfabric"] * 4 + ["tcp"] * 4
    assert (table.loc[table["bin"] == "all", "flows"] == 48).all()
    assert (table.loc[table["bin"] == "all", "unfinished"] == 0).all()
    finite = table.dropna(subset=["measured_s"])
    assert (finite["measured_s"] > 0).all() and np.isfinite(finite["ratio"]).all()
    meta = json.loads((tmp_path / "bottleneck.json").read_text())
    assert meta["offered_load"] == pytest.approx(0.3)
    assert "--topology=star --hosts=4" in meta["runs"]["pfabric"]["command"]
    on_disk = pd.read_csv(tmp_path / "bottleneck.csv")
    assert len(on_disk) == 8
    again = run_bottleneck(spec, tmp_path, bin_dir, reuse=True)
    pd.testing.assert_frame_equal(again, table)
    flows = pd.read_csv(tmp_path / "flows.csv")
    assert (wire_bytes(flows["size_bytes"].to_numpy(), Link()) > 0).all()
