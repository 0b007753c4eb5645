"""The steady-state tier's warm-up (MSER over the runs' mean block trajectory) and bias check, on
synthetic runs whose trajectory is known."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from pfabric_analysis import intervals, steady
from pfabric_analysis.cli import main

SMALL, MEDIUM = 50_000, 1_000_000  # bytes: one flow size in (0,100KB], one in (100KB,10MB]


def flows(slowdown: np.ndarray, first_id: int = 0) -> pd.DataFrame:
    """A run's measured flows with these FCT / ideal FCT values in flow id order, every other
    flow small (the rest medium)."""
    n = slowdown.size
    ideal = np.full(n, 1e-3)
    sizes = np.where(np.arange(n) % 2 == 0, SMALL, MEDIUM)
    return pd.DataFrame({"flow_id": np.arange(first_id, first_id + n), "src": 0, "dst": 1,
                         "size_bytes": sizes, "start_s": np.arange(n) * 1e-6,
                         "fct_s": slowdown * ideal, "ideal_fct_s": ideal, "timeouts": 0,
                         "completed": 1})


def transient(rng: np.random.Generator, n: int, settle: float, noise: float = 0.3) -> np.ndarray:
    """Slowdowns rising from 1 to 2 with time constant `settle` flows, plus normal noise."""
    level = 2.0 - np.exp(-np.arange(n) / settle)
    return level + rng.normal(0, noise, n)


def test_mser_by_hand() -> None:
    """5, 4, 3, 2, then eight 1s: cutting the first four leaves a constant (score 0), the
    smallest score; d = 4 is before the end of the search (6): found. A sequence that rises
    throughout has its minimum at the end of the search: not found. Under four values: not
    searched."""
    assert steady.mser_truncation(np.array([5, 4, 3, 2] + [1] * 8, dtype=float)) == (4, True)
    assert steady.mser_truncation(np.arange(20, dtype=float)) == (10, False)
    assert steady.mser_truncation(np.array([1.0, 2.0, 3.0])) == (0, False)


def test_mser_score_by_hand() -> None:
    """The score for d is sum((y - mean)^2) / (n - d)^2: for 3, 1, 1, 1 (n = 4, search up to 2),
    d = 0: (2.25 + 3 x 0.25) / 16 = 0.1875; d = 1: 0; so d = 1."""
    assert steady.mser_truncation(np.array([3.0, 1.0, 1.0, 1.0])) == (1, True)


def test_a_settled_trajectory_is_rarely_taken_for_a_moving_one() -> None:
    """4,000 series of 40 i.i.d. normal blocks: MSER's minimum falls at the end of its search (a
    warm-up not found) in 0.45% of them, as the module says (measured; 0.1% to 1% allowed: the
    binomial standard error is 0.1%), and of 20 blocks in 2.4% (1.5% to 3.5%)."""
    rng = np.random.default_rng(1)
    for blocks, low, high in ((20, 0.015, 0.035), (40, 0.001, 0.01)):
        missed = sum(not steady.mser_truncation(rng.normal(0, 1, blocks))[1]
                     for _ in range(4_000))
        assert low <= missed / 4_000 <= high


def test_warmup_of_a_known_transient() -> None:
    """Two runs of 40,000 flows whose slowdown settles with a time constant of 1,500 flows (within
    1% of its level, 0.01, after 1,500 ln 100 = 6,900 flows): the warm-up found by blocks of 1,000
    is 3,000 to 10,000 flows, for every statistic's maximum, and found. The noise-only control
    (settled from the start) is cut too, where noise happens to narrow what is left (MSER's known
    tendency; measured: 5,000 flows with this seed), but by at most a quarter of its flows."""
    rng = np.random.default_rng(50)
    runs = [flows(transient(rng, 40_000, 1_500)) for _ in range(2)]
    warmup, found, each = steady.point_warmup(runs, block=1_000)
    assert found
    assert 3_000 <= warmup <= 10_000
    assert warmup == max(w.flows for w in each.values())
    settled = [flows(2.0 + rng.normal(0, 0.3, 40_000)) for _ in range(2)]
    assert steady.point_warmup(settled, block=1_000)[0] <= 10_000


def test_a_run_still_moving_has_no_warmup_found() -> None:
    """Slowdowns that rise linearly through the whole run (a fabric still filling): the warm-up
    is not found, and the point is not citable for it and for its bias."""
    rng = np.random.default_rng(51)
    rising = [flows(np.linspace(1.5, 3.0, 30_000) + rng.normal(0, 0.2, 30_000)) for _ in range(2)]
    table = steady.steady_point(rising, block=1_000, batches=10)
    assert not table["warmup_found"].iloc[0]
    failures = steady.citable(table)
    assert "warm-up not found" in failures
    assert "(0,100KB] mean bias" in failures


def test_after_warmup_cuts_from_the_first_measured_flow() -> None:
    """The warm-up counts from the run's first measured flow, whatever its id."""
    run = flows(np.ones(10), first_id=100)
    assert list(steady.after_warmup(run, 4)["flow_id"]) == list(range(104, 110))


def test_bias_by_hand() -> None:
    """Two runs of 8 small flows: the earlier halves all 1, the later ones 3 in run 1 and 5 in
    run 2, so the later halves' mean is 4 and the bias (4 - 1) / 2 = 1.5."""
    a = flows(np.array([1, 9, 1, 9, 1, 9, 1, 9, 3, 9, 3, 9, 3, 9, 3, 9], dtype=float))
    b = flows(np.array([1, 9, 1, 9, 1, 9, 1, 9, 5, 9, 5, 9, 5, 9, 5, 9], dtype=float))
    assert steady.bias([a, b], "(0,100KB]", "mean") == pytest.approx(1.5)
    assert steady.bias([a, b], "(100KB,10MB]", "mean") == pytest.approx(0.0)


def test_bias_check_fails_by_noise_about_as_often_as_the_interval_misses() -> None:
    """200 points of two settled runs of 2,000 small flows (i.i.d. normal): the bias check fails
    in 5% of them, as the module says (the binomial standard error of the fraction is 1.5%: 1% to
    10% is about 3 of them), with the interval of 10 batches per run (batch_means_interval, as
    point_intervals computes it for a mean, taken directly to keep the test fast)."""
    rng = np.random.default_rng(52)
    failed = 0
    trials = 200
    for _ in range(trials):
        values = [2.0 + rng.normal(0, 0.3, 2_000) for _ in range(2)]
        batch_means = [np.array([b.mean() for b in np.array_split(v, 10)]) for v in values]
        halfwidth = intervals.batch_means_interval(batch_means).halfwidth
        bias = (np.concatenate([v[1_000:] for v in values]).mean()
                - np.concatenate([v[:1_000] for v in values]).mean()) / 2
        failed += abs(bias) > halfwidth
    assert 0.01 <= failed / trials <= 0.10
    # the module's bias is this one
    runs = [flows(np.repeat(v, 2)) for v in values]
    assert steady.bias(runs, "(0,100KB]", "mean") == pytest.approx(bias)


def test_steady_point_of_a_settled_transient_is_citable() -> None:
    """Two runs of 40,000 flows of the known transient: after the warm-up, each statistic of rule
    (a) is within 3% with 10 batches per run, its bias is within its half-width, and the mean is
    the level, 2, within its interval; the flows counted are those after the warm-up."""
    rng = np.random.default_rng(53)
    runs = [flows(transient(rng, 40_000, 1_500, noise=0.1)) for _ in range(2)]
    table = steady.steady_point(runs, block=1_000, batches=10).set_index(["bin", "statistic"])
    small = table.loc[("(0,100KB]", "mean")]
    assert small["value"] == pytest.approx(2.0, abs=small["ci_halfwidth"] + 1e-3)
    assert small["flows"] == 2 * (40_000 - small["warmup_flows"])
    assert small["batches"] == 20
    assert steady.citable(table.reset_index()) == []


def test_the_steady_command_prints_the_warmup_and_the_verdict(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`pfabric-analysis steady RUN_DIR...` on two runs of the known transient: the warm-up
    found, the three statistics with their bias, the verdict, and the CSV."""
    rng = np.random.default_rng(54)
    directories = []
    for run in (1, 2):
        directory = tmp_path / f"run{run}"
        directory.mkdir()
        # no flow beats its ideal (read_run refuses it); each run's flows start a second after
        # the run before's, flows of its own (check_poolable refuses two runs of the same flows)
        fct = flows(np.maximum(transient(rng, 40_000, 1_000, noise=0.1), 1.0))
        fct.assign(start_s=fct["start_s"] + run - 1).to_csv(directory / "fct.csv", index=False)
        meta = {"program": "pfabric-websearch", "workload": "websearch", "ns3_version": "3.37",
                "parameters": {"preset": "hotnets12", "seed": 1, "run": run, "load": 0.8,
                               "out": str(directory)}}
        (directory / "meta.json").write_text(json.dumps(meta))
        directories.append(str(directory))
    assert main(["steady", *directories, "--csv", str(tmp_path / "steady.csv")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("steady state of 2 run(s): warm-up ") and "(found;" in out
    assert out.rstrip().endswith("citable")
    table = pd.read_csv(tmp_path / "steady.csv")
    assert list(table["bin"]) == ["(0,100KB]", "(0,100KB]", "(100KB,10MB]"]
    assert table["bias_ok"].all()
