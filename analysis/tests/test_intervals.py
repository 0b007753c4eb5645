"""Batch-means intervals (pfabric_analysis.intervals) on synthetic flows of known distribution."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats

from pfabric_analysis import intervals
from pfabric_analysis.runs import percentile_nearest_rank

SMALL, MEDIUM = 50_000, 1_000_000  # bytes: one flow size in (0,100KB], one in (100KB,10MB]


def flows(slowdown: np.ndarray, sizes: np.ndarray | None = None) -> pd.DataFrame:
    """A run's measured flows with these FCT / ideal FCT values, in flow id order."""
    n = slowdown.size
    ideal = np.full(n, 1e-3)
    return pd.DataFrame({"flow_id": np.arange(n), "src": 0, "dst": 1,
                         "size_bytes": np.full(n, SMALL) if sizes is None else sizes,
                         "start_s": np.arange(n) * 1e-6, "fct_s": slowdown * ideal,
                         "ideal_fct_s": ideal, "timeouts": 0, "completed": 1})


def small_mean(table: pd.DataFrame) -> pd.Series:
    return table.set_index(["bin", "statistic"]).loc[("(0,100KB]", "mean")]


def test_iid_halfwidth_is_the_normal_standard_error() -> None:
    """Many batches of i.i.d. normal values: t s / sqrt(k) over batch means of m flows each is
    1.96 sigma / sqrt(n) within 6% (the half-width's own relative error is about
    1 / sqrt(2k) = 2.2% at k = 1000, and t_{0.975,999} = 1.962)."""
    rng = np.random.default_rng(7)
    sigma, runs, batches, per_batch = 0.3, 2, 500, 40
    fcts = [flows(rng.normal(2.0, sigma, batches * per_batch)) for _ in range(runs)]
    row = small_mean(intervals.point_intervals(fcts, batches=batches))
    n = runs * batches * per_batch
    assert row["batches"] == runs * batches
    assert row["ci_halfwidth"] == pytest.approx(1.96 * sigma / math.sqrt(n), rel=0.06)
    assert abs(row["lag1"]) < 0.1  # about 1 / sqrt(k) = 0.03 for independent batches


@pytest.mark.parametrize("statistic, truth", [("mean", 2.0),
                                              ("p99", 2.0 + 0.3 * scipy_stats.norm.ppf(0.99))])
def test_coverage_over_many_seeds_is_near_95_percent(statistic: str, truth: float) -> None:
    """400 points of 4 runs x 10 batches of i.i.d. normal flows: the pooled statistic +- the
    half-width holds the true value in 95% of them; the binomial standard error of the fraction
    is 1.1%, so 92% to 98% is about 3 of them. (The p99's batch values, nearest rank of 500
    flows, are close to normal: its coverage is checked too.)"""
    rng = np.random.default_rng(2026)
    covered = 0
    trials = 400
    for _ in range(trials):
        fcts = [flows(rng.normal(2.0, 0.3, 5_000)) for _ in range(4)]
        table = intervals.point_intervals(fcts).set_index(["bin", "statistic"])
        pooled = pd.concat(fcts)["fct_s"] / 1e-3
        estimate = pooled.mean() if statistic == "mean" else percentile_nearest_rank(pooled, 99)
        halfwidth = table.loc[("(0,100KB]", statistic), "ci_halfwidth"]
        covered += abs(estimate - truth) <= halfwidth
    assert 0.92 <= covered / trials <= 0.98


def test_batches_are_contiguous_in_flow_id_order() -> None:
    """Flow ids shuffled in the frame: batch b holds flows b*m .. (b+1)*m-1 all the same."""
    values = np.arange(100, dtype=float) + 1  # flow i has slowdown i + 1
    frame = flows(values).sample(frac=1, random_state=3)
    table = intervals.batch_values(frame, batches=4)
    means = table[(table["bin"] == "(0,100KB]") & (table["statistic"] == "mean")]["value"]
    assert means.tolist() == pytest.approx([13.0, 38.0, 63.0, 88.0])


def test_a_batch_without_enough_flows_makes_the_interval_undefined() -> None:
    """1,000 small flows in 10 batches: 100 each, so a p99; in 11 batches fewer than 100, so no
    p99 interval (NaN, not an error). No medium flow at all: its mean's interval is NaN too."""
    fct = flows(np.random.default_rng(1).normal(2.0, 0.3, 1_000))
    ten = intervals.point_intervals([fct], batches=10).set_index(["bin", "statistic"])
    eleven = intervals.point_intervals([fct], batches=11).set_index(["bin", "statistic"])
    assert ten.loc[("(0,100KB]", "p99"), "ci_halfwidth"] > 0
    assert math.isnan(eleven.loc[("(0,100KB]", "p99"), "ci_halfwidth"])
    assert eleven.loc[("(0,100KB]", "mean"), "ci_halfwidth"] > 0
    assert math.isnan(ten.loc[("(100KB,10MB]", "mean"), "ci_halfwidth"])


def test_unfinished_flows_keep_their_place_but_not_their_value() -> None:
    fct = flows(np.array([1.0, 3.0, 5.0, 7.0]))
    fct.loc[1, ["completed", "fct_s"]] = [0, np.nan]
    table = intervals.batch_values(fct, batches=2)
    means = table[(table["bin"] == "all") & (table["statistic"] == "mean")]["value"]
    assert means.tolist() == pytest.approx([1.0, 6.0])


def test_a_drift_within_runs_is_flagged_by_the_lag1_autocorrelation() -> None:
    """Values rising through each run (a point not at steady state): consecutive batches are
    alike, lag-1 autocorrelation well above the flag; i.i.d. values stay well below it."""
    rng = np.random.default_rng(5)
    drifting = [flows(np.linspace(1.0, 3.0, 2_000) + rng.normal(0, 0.1, 2_000)) for _ in range(3)]
    steady = [flows(rng.normal(2.0, 0.3, 2_000)) for _ in range(3)]
    assert small_mean(intervals.point_intervals(drifting))["lag1"] > 0.6
    assert small_mean(intervals.point_intervals(steady))["lag1"] < intervals.AUTOCORRELATION_FLAG


def test_lag1_by_hand() -> None:
    """Series [1, 2] and [3, 4]: centre 2.5, variance 1.25; pairs (1,2) and (3,4) give
    (-1.5)(-0.5) + (0.5)(1.5) = 1.5 over 2 pairs, 0.75 / 1.25 = 0.6."""
    assert intervals.lag1_autocorrelation([np.array([1.0, 2.0]), np.array([3.0, 4.0])]) == \
        pytest.approx(0.6)


def test_rule_a_names_the_statistics_that_fail() -> None:
    relative = {("(0,100KB]", "mean"): 0.01, ("(0,100KB]", "p99"): 0.031,
                ("(100KB,10MB]", "mean"): math.nan, ("(10MB,inf)", "mean"): 0.5}
    assert intervals.citable_failures(relative) == ["(0,100KB] p99", "(100KB,10MB] mean"]
    relative.update({("(0,100KB]", "p99"): 0.03, ("(100KB,10MB]", "mean"): 0.0})
    assert intervals.citable_failures(relative) == []  # the large flows do not count
