"""The flow-count study: convergence rules on hand-made values, the cost arithmetic, and the
real programs (PFABRIC_BUILD_DIR): a point of N flows is the long list's prefix, and the study's
numbers are those of an Ideal run of that point."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pfabric_analysis.cli import main
from pfabric_analysis.flowcount import (
    METRICS,
    convergence,
    core_hours,
    markdown,
    metric_name,
    needed_counts,
    statistics,
    window_markdown,
    window_statistics,
)
from pfabric_analysis.ideal import Link, default_cdf, ideal_fct, synthetic_flows, wire_bytes
from pfabric_analysis.runs import summarize

SMALL_MEAN = metric_name("(0,100KB]", "mean")
SMALL_P99 = metric_name("(0,100KB]", "p99")
LARGE_MEAN = metric_name("(10MB,inf)", "mean")


def values(rows: dict[str, dict[int, list[float]]]) -> pd.DataFrame:
    """metric -> count -> one value per run, as the study's long frame."""
    return pd.DataFrame([{"workload": "websearch", "load": 0.5, "run": run, "count": count,
                          "metric": metric, "value": value, "bytes": 1000 * count}
                         for metric, by_count in rows.items()
                         for count, runs in by_count.items()
                         for run, value in enumerate(runs, start=1)])


def test_a_count_suffices_when_it_and_every_larger_one_stay_within_the_tolerance() -> None:
    frame = values({
        # Reference 2.0 at 1000 flows (runs 1.98, 2.02: spread 1%).
        SMALL_MEAN: {10: [2.5, 1.5], 100: [2.05, 1.95], 500: [2.1, 2.0], 1000: [1.98, 2.02]},
        # 100 is within 3% but 500 is not: only 1000 counts.
        SMALL_P99: {10: [3.0, 3.0], 100: [3.05, 2.95], 500: [3.2, 3.0], 1000: [3.0, 3.0]},
    })
    table = convergence(frame, tolerance=0.03).set_index("metric")
    assert table.loc[SMALL_MEAN, "reference"] == pytest.approx(2.0)
    assert table.loc[SMALL_MEAN, "spread_at_largest"] == pytest.approx(0.01)
    assert table.loc[SMALL_MEAN, "error_10"] == pytest.approx(0.25)
    assert table.loc[SMALL_MEAN, "error_500"] == pytest.approx(0.05)
    assert table.loc[SMALL_MEAN, "needed"] == 1000
    assert table.loc[SMALL_P99, "error_500"] == pytest.approx(0.2 / 3)
    assert table.loc[SMALL_P99, "needed"] == 1000
    # At 6%: the mean needs 100 (off by 2.5%, 5% and 1% from 100 on); the p99 still 1000.
    loose = convergence(frame, tolerance=0.06).set_index("metric")
    assert loose.loc[SMALL_MEAN, "needed"] == 100
    assert loose.loc[SMALL_P99, "needed"] == 1000  # 500 is 6.7% off
    needed = needed_counts(loose.reset_index())
    assert needed.iloc[0]["needed"] == 1000 and needed.iloc[0]["limited_by"] == SMALL_P99


def test_a_spread_beyond_the_tolerance_at_the_largest_count_is_unresolved() -> None:
    frame = values({SMALL_MEAN: {10: [2.0, 2.0], 100: [1.9, 2.1]},
                    SMALL_P99: {10: [3.0, 3.0], 100: [3.0, 3.0]}})
    table = convergence(frame, tolerance=0.03)
    assert np.isnan(table.set_index("metric").loc[SMALL_MEAN, "needed"])
    needed = needed_counts(table)
    assert np.isnan(needed.iloc[0]["needed"]) and needed.iloc[0]["limited_by"] == SMALL_MEAN
    text = markdown(table, frame, [], 0.03)
    assert "| websearch | 0.5 | > 100 | (0,100KB] mean | - |" in text


def test_the_table_prices_counts_and_sets_the_large_flows_apart() -> None:
    frame = values({SMALL_MEAN: {10: [2.0, 2.0], 100: [2.0, 2.0]},
                    LARGE_MEAN: {10: [1.0, 1.2], 100: [1.5, 1.5]}})
    table = convergence(frame, tolerance=0.03)
    # 1000 bytes per flow, 0.01 hops per byte, 36 s per hop: 1 core-hour per 10 flows.
    cost = {"workload": "websearch", "hops_per_byte": 0.01, "seconds_per_hop": 36.0}
    text = markdown(table, frame, [cost], 0.03)
    assert ("| websearch | 0.5 | 100 (the largest) | (10MB,inf) mean | 10 | 10 | - | 1 |"
            in text)  # the smallest count suffices: nothing limits it


def test_core_hours_follow_bytes_hops_and_cost_per_hop() -> None:
    hops, hours = core_hours(mean_bytes_per_flow=1e6, count=10_000, hops_per_byte=0.005,
                             seconds_per_hop=4e-6)
    assert hops == pytest.approx(5e7) and hours == pytest.approx(5e7 * 4e-6 / 3600)


def test_a_point_of_n_flows_is_the_long_lists_prefix(bin_dir: Path, tmp_path: Path) -> None:
    for workload in ("websearch", "datamining"):
        lists = []
        for flows in (50, 200):
            path = tmp_path / f"{workload}-{flows}.csv"
            subprocess.run([str(bin_dir / f"pfabric-{workload}"), f"--flows={flows}",
                            "--load=0.7", "--run=3", "--flowsOnly", f"--dumpFlows={path}"],
                           check=True, capture_output=True)
            lists.append(path.read_text().splitlines())
        assert lists[0] == lists[1][:51]


def test_the_study_gives_the_ideal_runs_of_its_points(bin_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "study"
    assert main(["flow-count", f"--out={out}", "--workloads=websearch", "--loads=0.6",
                 "--runs=1,2", "--counts=300,100", f"--bin-dir={bin_dir}", "-j", "2"]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "flowcount-convergence.csv", "flowcount.csv", "flowcount.json", "flowcount.md"]
    study = pd.read_csv(out / "flowcount.csv")
    assert len(study) == 2 * 2 * 4  # runs x counts x metrics
    # Run 2's 100-flow point, run as a point: its own list, its Ideal run.
    flow_list = tmp_path / "point.csv"
    subprocess.run([str(bin_dir / "pfabric-websearch"), "--flows=100", "--load=0.6", "--run=2",
                    "--flowsOnly", f"--dumpFlows={flow_list}"], check=True, capture_output=True)
    assert main(["ideal", str(flow_list), "--preset=hotnets12", f"--bin-dir={bin_dir}",
                 "--out", str(tmp_path / "ideal")]) == 0
    table = summarize(pd.read_csv(tmp_path / "ideal" / "fct.csv")).set_index("bin")
    mine = study[(study["run"] == 2) & (study["count"] == 100)].set_index("metric")["value"]
    assert mine[SMALL_MEAN] == pytest.approx(table.loc["(0,100KB]", "mean"], rel=1e-12)
    assert mine[SMALL_P99] == pytest.approx(table.loc["(0,100KB]", "p99"], rel=1e-12)
    assert mine[metric_name("(100KB,10MB]", "mean")] == pytest.approx(
        table.loc["(100KB,10MB]", "mean"], rel=1e-12)
    provenance = json.loads((out / "flowcount.json").read_text())
    assert provenance["counts"] == [100, 300] and provenance["preset"] == "hotnets12"
    assert "| websearch | 0.6 |" in (out / "flowcount.md").read_text()


def test_bad_study_options_fail_with_one_line(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    for option, message in (("--loads=1.2", "--loads 1.2: '1.2': expected a number in (0, 1)"),
                            ("--seconds-per-hop=0", "--seconds-per-hop 0: expected a positive"),
                            ("--workloads=hadoop", "unknown workload 'hadoop'"),
                            ("--tolerance=2", "--tolerance 2: expected a number in (0, 1)")):
        assert main(["flow-count", f"--out={tmp_path / 'x'}", option]) == 1
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, err
        assert not (tmp_path / "x").exists()


# --- with the measurement window ------------------------------------------------------------------

FIGURES = Path(__file__).resolve().parents[3] / "doc" / "figures"


@pytest.mark.parametrize("name", ["100k", "1m"])
def test_without_the_window_the_committed_tables_are_reproduced(name: str) -> None:
    """The study without the window is unchanged: its committed values give its committed
    convergence table and markdown to the byte."""
    values_ = pd.read_csv(FIGURES / f"flowcount-hotnets12-{name}.csv")
    provenance = json.loads((FIGURES / f"flowcount-hotnets12-{name}.json").read_text())
    table = convergence(values_, provenance["tolerance"])
    assert table.to_csv(index=False) == (
        FIGURES / f"flowcount-hotnets12-{name}-convergence.csv").read_text()
    assert markdown(table, values_, provenance["costs"], provenance["tolerance"]) == (
        FIGURES / f"flowcount-hotnets12-{name}.md").read_text()


def test_window_statistics_are_those_of_the_list_up_to_each_windows_end() -> None:
    """Each window's values, computed independently: the end is the last measured flow's
    completion in a schedule of the whole list; a separate schedule of only the flows arrived
    by then gives the measured flows' statistics; flows simulated and bytes are those flows."""
    link = Link()
    flows = synthetic_flows(5000, 0.7, 8, 11, default_cdf())
    ideal = flows["ideal_fct_s"].to_numpy()
    counts, warmups = (300, 1000), (0, 500)
    frame = window_statistics(flows, ideal, link, counts, warmups)
    assert isinstance(frame, pd.DataFrame) and len(frame) == 2 * 2 * len(METRICS)
    whole, _ = ideal_fct(flows, ideal, link)
    finish = (whole["start_s"] + whole["fct_s"] - whole["ideal_fct_s"]
              + (wire_bytes(flows["size_bytes"].to_numpy(), link) * 8 / link.rate_bps))
    for w in warmups:
        for n in counts:
            end = finish.iloc[w:w + n].max()
            arrived = (flows["start_s"] <= end * (1 + 1e-12)).to_numpy()
            alone, _ = ideal_fct(flows[arrived].reset_index(drop=True), ideal[arrived], link)
            expected = statistics(alone.iloc[w:w + n])
            mine = frame[(frame["warmup_flows"] == w) & (frame["count"] == n)]
            assert (mine["flows_simulated"] == arrived.sum()).all()
            assert (mine["bytes"] == flows["size_bytes"][arrived].sum()).all()
            assert arrived.sum() > w + n  # flows arrive while the measured ones finish
            for row in mine.itertuples():
                assert row.value == pytest.approx(expected[row.metric], rel=1e-12)
    # The window's values are not the prefix's: the large flows' mean of the first 1000.
    prefix = statistics(ideal_fct(flows.iloc[:1000], ideal[:1000], link)[0])
    mine = frame[(frame["warmup_flows"] == 0) & (frame["count"] == 1000)]
    assert mine.set_index("metric").loc[LARGE_MEAN, "value"] != prefix[LARGE_MEAN]
    # A list too short for a window: how many flows it needs instead, more than it has.
    needed = window_statistics(flows.iloc[:1100], ideal[:1100], link, (1000,), (0,))
    assert isinstance(needed, int) and needed > 1100
    assert window_statistics(flows, ideal, link, (5000,), (500,)) == int(np.ceil(5500 * 1.25))


def test_the_window_table_gives_flows_simulated_and_their_core_hours() -> None:
    frame = values({SMALL_MEAN: {10: [2.0, 2.0], 100: [2.0, 2.0]},
                    LARGE_MEAN: {10: [1.0, 1.2], 100: [1.5, 1.5]}})
    # Measured with a warm-up of 50: runs simulate 400 and 600 flows for 100 (1000 B each).
    frame["warmup_flows"] = 50
    frame["flows_simulated"] = np.where(frame["count"] == 100, 400 + 200 * (frame["run"] - 1),
                                        90)
    frame["bytes"] = 1000 * frame["flows_simulated"]
    table = convergence(frame, tolerance=0.03)
    assert "warmup_flows" in table and len(table) == 2
    cost = {"workload": "websearch", "hops_per_byte": 0.01, "seconds_per_hop": 36.0}
    text = window_markdown(table, frame, [cost], 0.03)
    # 500 flows of 1000 B at 0.01 hops per byte and 36 s per hop: 50 core-hours.
    assert ("| websearch | 0.5 | 50 | 100 (the largest) | (10MB,inf) mean | 500 | 50 | 10 | - "
            "| 90 | 9 |") in text
    assert "| websearch | 0.5 | 50 | 100 | 500 | 600 | 50 |" in text


def test_the_study_with_the_window_gives_the_windowed_ideal_runs(bin_dir: Path,
                                                                 tmp_path: Path) -> None:
    out = tmp_path / "study"
    assert main(["flow-count", f"--out={out}", "--workloads=websearch", "--loads=0.7",
                 "--runs=1,2", "--counts=100,300", "--window", "--warmup=0,200",
                 f"--bin-dir={bin_dir}", "-j", "2"]) == 0
    study = pd.read_csv(out / "flowcount.csv")
    assert len(study) == 2 * 2 * 2 * 4  # warm-ups x runs x counts x metrics
    assert (study["flows_simulated"] >= study["warmup_flows"] + study["count"]).all()
    # Run 2's window of 100 flows after 200, as an Ideal run with the window on its list.
    point = study[(study["run"] == 2) & (study["count"] == 100) & (study["warmup_flows"] == 200)]
    flow_list = tmp_path / "list.csv"
    subprocess.run([str(bin_dir / "pfabric-websearch"), f"--flows={point['list_flows'].iloc[0]}",
                    "--load=0.7", "--run=2", "--flowsOnly", f"--dumpFlows={flow_list}"],
                   check=True, capture_output=True)
    assert main(["ideal", str(flow_list), "--preset=hotnets12", f"--bin-dir={bin_dir}",
                 "--warmup-flows=200", "--measure-flows=100", "--out", str(tmp_path / "i")]) == 0
    fct = pd.read_csv(tmp_path / "i" / "fct.csv")
    meta = json.loads((tmp_path / "i" / "meta.json").read_text())
    assert meta["window"]["flows_simulated"] == len(fct) == point["flows_simulated"].iloc[0]
    expected = statistics(fct[fct["measured"] == 1])
    for row in point.itertuples():
        assert row.value == pytest.approx(expected[row.metric], rel=1e-12)
    provenance = json.loads((out / "flowcount.json").read_text())
    assert provenance["window"] is True and provenance["warmups"] == [0, 200]
    assert "| websearch | 0.7 | 200 | 100 |" in (out / "flowcount.md").read_text()


def test_warmup_needs_the_window(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["flow-count", f"--out={tmp_path / 'x'}", "--warmup=100"]) == 1
    err = capsys.readouterr().err
    assert "--warmup: needs --window" in err and err.count("\n") == 1
    assert not (tmp_path / "x").exists()
