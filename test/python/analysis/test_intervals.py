"""Intervals (pfabric_analysis.intervals), by replications and by batch means, on synthetic flows of
known distribution."""

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


@pytest.mark.parametrize("batches", [1, 10])
@pytest.mark.parametrize("statistic, truth", [("mean", 2.0),
                                              ("p99", 2.0 + 0.3 * scipy_stats.norm.ppf(0.99))])
def test_coverage_over_many_seeds_is_near_95_percent(statistic: str, truth: float,
                                                     batches: int) -> None:
    """400 points of 4 runs of i.i.d. normal flows, by replications (one value per run) and by
    10 batches per run: the pooled statistic +- the half-width holds the true value in 95% of
    them; the binomial standard error of the fraction is 1.1%, so 92% to 98% is about 3 of them.
    (The p99's values, nearest rank of 500 or 5,000 flows, are close to normal: its coverage is
    checked too.)"""
    rng = np.random.default_rng(2026)
    covered = 0
    trials = 400
    for _ in range(trials):
        fcts = [flows(rng.normal(2.0, 0.3, 5_000)) for _ in range(4)]
        table = intervals.point_intervals(fcts, batches=batches).set_index(["bin", "statistic"])
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
    assert small_mean(intervals.point_intervals(drifting, batches=10))["lag1"] > 0.6
    assert small_mean(intervals.point_intervals(steady, batches=10))["lag1"] < \
        intervals.AUTOCORRELATION_FLAG


def test_replications_by_hand_and_undefined_with_one_run() -> None:
    """The default, one value per run: runs of constant slowdown 1.0, 1.2 and 1.7 give
    t(0.975, 2) s / sqrt(3) with s the three values' sample deviation, and no lag-1; the same
    values drifting through each run (a point not at steady state) give the same interval, since
    only each run's statistic counts; one run gives none."""
    runs = [flows(np.full(1_000, value)) for value in (1.0, 1.2, 1.7)]
    want = scipy_stats.t.ppf(0.975, 2) * np.std([1.0, 1.2, 1.7], ddof=1) / math.sqrt(3)
    row = small_mean(intervals.point_intervals(runs))
    assert intervals.DEFAULT_BATCHES == 1
    assert row["ci_halfwidth"] == pytest.approx(want) and row["batches"] == 3
    assert math.isnan(row["lag1"])
    drifting = [flows(value + np.linspace(-0.5, 0.5, 1_000)) for value in (1.0, 1.2, 1.7)]
    assert small_mean(intervals.point_intervals(drifting))["ci_halfwidth"] == pytest.approx(want)
    assert math.isnan(small_mean(intervals.point_intervals(runs[:1]))["ci_halfwidth"])


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


def test_runs_for_rule_a_by_hand() -> None:
    """Five runs whose statistic's half-width is 5.78% of its value (MinTCP+pFabric's small-flow
    p99 on web search at 0.8): s / value = 0.0578 sqrt(5) / t(0.975, 4) = 4.66%, and
    t(0.975, m - 1) 4.66% / sqrt(m) is 3.13% at m = 11 and 2.96% at m = 12: 12 runs. Batches
    count per run (ten per run: 50 values); a point already within, an undefined half-width,
    one batch value, or more than `most` runs give the runs so far, None, None and None."""
    spread = 0.0578 * math.sqrt(5) / scipy_stats.t.ppf(0.975, 4)
    for m, within in ((11, False), (12, True)):
        assert bool(scipy_stats.t.ppf(0.975, m - 1) * spread / math.sqrt(m) <= 0.03) is within
    assert intervals.runs_for_rule(0.0578, 5, 5) == 12
    # ten batches per run: 50 values of spread 0.05 sqrt(50) / t(0.975, 49); 140 values are
    # within 3% (2.94%), 130 not (3.05%)
    assert intervals.runs_for_rule(0.05, 50, 5) == 14
    assert intervals.runs_for_rule(0.02, 5, 5) == 5
    assert intervals.runs_for_rule(math.nan, 5, 5) is None
    assert intervals.runs_for_rule(0.05, 1, 1) is None
    assert intervals.runs_for_rule(1.48, 5, 5) is None  # TCP-DropTail's at 0.2: past 1,000


def test_arrival_blocks_by_hand() -> None:
    """Four flows, two blocks: a 20 MB flow from 0 s to 10 s, small flows at 1 s and 2 s
    (0.5 s each, slowdowns 2 and 4), and a 20 MB flow at 3 s that never finishes. At block 0's
    last arrival (1 s) the first large flow and the small one are in progress; at block 1's (3 s)
    both large flows (the unfinished one counts as in progress)."""
    sizes = np.array([20_000_000, SMALL, SMALL, 20_000_000])
    frame = flows(np.array([2.0, 2.0, 4.0, 1.0]), sizes)
    frame["start_s"] = [0.0, 1.0, 2.0, 3.0]
    frame["ideal_fct_s"] = [5.0, 0.25, 0.125, 1.0]
    frame["fct_s"] = [10.0, 0.5, 0.5, np.nan]
    frame["completed"] = [1, 1, 1, 0]
    table = intervals.arrival_blocks(frame.iloc[::-1], blocks=2)  # any order: by flow id
    assert table["first_flow"].tolist() == [0, 2] and table["last_flow"].tolist() == [1, 3]
    assert table["at_s"].tolist() == [1.0, 3.0]
    assert table["(0,100KB] mean"].tolist() == [2.0, 4.0]
    assert table["(10MB,inf) mean"].iloc[0] == 2.0 and math.isnan(table["(10MB,inf) mean"].iloc[1])
    assert table["in_progress"].tolist() == [2, 2]
    assert table["large_in_progress"].tolist() == [1, 2]
