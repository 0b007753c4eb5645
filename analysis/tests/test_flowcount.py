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
from programs import bin_dir  # noqa: F401 (a fixture)

from pfabric_analysis.cli import main
from pfabric_analysis.flowcount import (
    convergence,
    core_hours,
    markdown,
    metric_name,
    needed_counts,
)
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
    for option, message in (("--loads=1.2", "--loads 1.2: every load must be in (0, 1)"),
                            ("--seconds-per-hop=0", "--seconds-per-hop 0.0: expected a positive"),
                            ("--workloads=hadoop", "unknown workload 'hadoop'"),
                            ("--tolerance=2", "--tolerance 2.0: expected a fraction")):
        assert main(["flow-count", f"--out={tmp_path / 'x'}", option]) == 1
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, err
        assert not (tmp_path / "x").exists()
