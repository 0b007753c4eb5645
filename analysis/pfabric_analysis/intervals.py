"""95% confidence intervals of a point's statistics and rule (a) of issue 29: which points are
citable. Small pure functions over the measured flows of a point's runs.

A point's replications (runs) are independent. Each run's measured flows, in arrival (flow id)
order, are cut into B contiguous batches of (nearly) equal count; a statistic (the mean, or the
99th percentile by nearest rank, of FCT / ideal FCT over a batch's finished flows of one size bin)
is computed per batch. With k = runs x B values x_i of sample standard deviation s, the interval's
half-width is t_{0.975, k-1} s / sqrt(k). The point estimate stays the pooled statistic over every
measured flow of every run (what the figures plot).

B = 1 (DEFAULT_BATCHES) is independent replications: one value per run, the run's statistic over
all its measured flows, so k is the number of runs and a point needs at least two. It estimates
what a run of that many flows gives, and it is valid when a run is not at steady state: at high
load a finite run's small flows slow down from its first flows to its last (measured, doc
"Confidence intervals and citable points"), so its batches are not identically distributed, and
the 99th percentile of a batch of a few hundred small flows is a noisier and biased stand-in for
the run's. B > 1 is batch means over one long run, for runs at steady state whose batches each
span many times the fabric's memory; the lag-1 autocorrelation of consecutive batch values
within a run is reported so that a point where that fails (above AUTOCORRELATION_FLAG: the
interval is then too narrow) is seen, not trusted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

from pfabric_analysis.runs import BIN_NAMES, AnalysisError, normalise, size_bins

CONFIDENCE = 0.95
# Batches per run: 1, independent replications (see the module's docstring for why).
DEFAULT_BATCHES = 1
# A 99th percentile needs at least this many flows: with fewer, the nearest rank is the maximum.
P99_MIN_FLOWS = 100
# Rule (a): a point is citable when each of these statistics is known within CITABLE_RELATIVE
# (its interval's half-width over its value). The large flows' mean is shown with its own
# interval.
CITABLE_STATISTICS: tuple[tuple[str, str], ...] = ((BIN_NAMES[0], "mean"), (BIN_NAMES[0], "p99"),
                                                  (BIN_NAMES[1], "mean"))
CITABLE_RELATIVE = 0.03
# Lag-1 autocorrelation of a run's consecutive batch values above which its batches are not
# nearly independent (the interval understates the uncertainty); the figures flag such a point.
AUTOCORRELATION_FLAG = 0.3
# Every statistic the figures draw: each size bin's mean and 99th percentile, and all flows' mean.
STATISTICS: tuple[tuple[str, str], ...] = tuple(
    (size_bin, statistic) for size_bin in BIN_NAMES for statistic in ("mean", "p99")) + (
    ("all", "mean"), ("all", "p99"))


@dataclass(frozen=True)
class Interval:
    """A statistic's 95% interval from batch means."""

    halfwidth: float  # NaN when undefined (a batch without the flows the statistic needs)
    batches: int      # k, the batch values behind it
    lag1: float       # lag-1 autocorrelation of consecutive batch values within runs


def batch_statistic(values: np.ndarray, statistic: str) -> float:
    """A statistic of one batch's values (finished flows of one bin); NaN when the batch has too
    few flows to have it (none for a mean, fewer than P99_MIN_FLOWS for a 99th percentile)."""
    if statistic == "mean":
        return float(values.mean()) if values.size else math.nan
    if statistic == "p99":
        if values.size < P99_MIN_FLOWS:
            return math.nan
        return float(np.percentile(values, 99, method="inverted_cdf"))
    raise AnalysisError(f"statistic {statistic!r}: expected mean or p99")


def batch_values(fct: pd.DataFrame, batches: int, kb: int = 1000) -> pd.DataFrame:
    """One run's batch values: a row per (batch, bin, statistic) of STATISTICS, columns batch,
    bin, statistic, value. fct holds the run's measured flows (any order: sorted by flow_id here);
    an unfinished flow counts toward its batch's place but not its statistics, as in summarize."""
    if batches < 1:
        raise AnalysisError(f"--batches {batches}: expected at least 1")
    frame = normalise(fct.sort_values("flow_id", kind="stable"))
    slowdown = frame["slowdown"].to_numpy(dtype=float)
    bins = size_bins(frame["size_bytes"], kb).astype(object).to_numpy()
    rows = []
    for batch, positions in enumerate(np.array_split(np.arange(len(frame)), batches)):
        batch_slowdown, batch_bins = slowdown[positions], bins[positions]
        for size_bin, statistic in STATISTICS:
            chosen = batch_slowdown if size_bin == "all" else batch_slowdown[batch_bins == size_bin]
            chosen = chosen[~np.isnan(chosen)]
            rows.append({"batch": batch, "bin": size_bin, "statistic": statistic,
                         "value": batch_statistic(chosen, statistic)})
    return pd.DataFrame(rows, columns=["batch", "bin", "statistic", "value"])


def lag1_autocorrelation(series: list[np.ndarray]) -> float:
    """Lag-1 autocorrelation of consecutive values within each series (a run's batches), about
    the mean of all values: the mean product of consecutive deviations over the variance. NaN
    without a pair or without variance."""
    values = np.concatenate(series) if series else np.array([])
    pairs = sum(max(len(s) - 1, 0) for s in series)
    if pairs == 0 or values.size < 2:
        return math.nan
    centre = values.mean()
    variance = float(((values - centre) ** 2).mean())
    if variance == 0:
        return math.nan
    products = sum(float(((s[:-1] - centre) * (s[1:] - centre)).sum())
                   for s in series if len(s) > 1)
    return products / pairs / variance


def batch_means_interval(series: list[np.ndarray], confidence: float = CONFIDENCE) -> Interval:
    """The interval of a statistic from its batch values, one array per run: half-width
    t_{(1+confidence)/2, k-1} s / sqrt(k) over all k values; NaN if any batch value is NaN (a
    batch without the flows the statistic needs) or k < 2."""
    values = np.concatenate(series) if series else np.array([])
    k = int(values.size)
    if k < 2 or np.isnan(values).any():
        return Interval(math.nan, k, math.nan)
    t = float(scipy_stats.t.ppf((1 + confidence) / 2, k - 1))
    halfwidth = t * float(values.std(ddof=1)) / math.sqrt(k)
    return Interval(halfwidth, k, lag1_autocorrelation(series))


def point_intervals(fcts: list[pd.DataFrame], batches: int = DEFAULT_BATCHES, kb: int = 1000,
                    confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The intervals of every statistic of a point from its runs' measured flows (one frame per
    run): a row per (bin, statistic) of STATISTICS, columns bin, statistic, ci_halfwidth,
    batches, lag1."""
    per_run = [batch_values(fct, batches, kb) for fct in fcts]
    rows = []
    for size_bin, statistic in STATISTICS:
        series = [values[(values["bin"] == size_bin) & (values["statistic"] == statistic)]
                  .sort_values("batch")["value"].to_numpy(dtype=float) for values in per_run]
        interval = batch_means_interval(series, confidence)
        rows.append({"bin": size_bin, "statistic": statistic, "ci_halfwidth": interval.halfwidth,
                     "batches": interval.batches, "lag1": interval.lag1})
    return pd.DataFrame(rows)


def relative_halfwidth(halfwidth: float, value: float) -> float:
    """Half-width over the value (NaN when either is undefined or the value is 0)."""
    if math.isnan(halfwidth) or math.isnan(value) or value == 0:
        return math.nan
    return halfwidth / abs(value)


ROUNDING = 1e-12
# runs_for_rule looks no further: an estimate past it only says that replications will not do.
RUNS_ESTIMATE_MOST = 1000


def runs_for_rule(relative: float, batches: int, runs: int, limit: float = CITABLE_RELATIVE,
                  confidence: float = CONFIDENCE, most: int = RUNS_ESTIMATE_MOST) -> int | None:
    """The runs in all that would bring a statistic's half-width within `limit` of its value if
    the runs to come spread as those so far (the sample standard deviation of its batch values
    unchanged, batches / runs values per run): the estimate to give `sweep --runs` for a point
    that misses rule (a). None when it cannot be estimated (fewer than two batch values, an
    undefined half-width) or is above `most`."""
    if math.isnan(relative) or batches < 2 or runs < 1:
        return None
    per_run = batches / runs
    spread = relative * math.sqrt(batches) / float(
        scipy_stats.t.ppf((1 + confidence) / 2, batches - 1))
    candidates = np.arange(runs, most + 1)
    values = np.maximum(candidates * per_run, 2)
    # a point exactly at the limit counts as within, whatever the last bit of rounding says
    within = scipy_stats.t.ppf((1 + confidence) / 2, values - 1) * spread / np.sqrt(values) \
        <= limit * (1 + ROUNDING)
    return int(candidates[np.argmax(within)]) if within.any() else None


def citable_failures(relative: dict[tuple[str, str], float],
                     limit: float = CITABLE_RELATIVE) -> list[str]:
    """Rule (a): the statistics of CITABLE_STATISTICS whose relative half-width is above the limit
    or undefined, each named as its size bin and statistic ('BIN p99'); a point is citable when
    there are none."""
    failures = []
    for size_bin, statistic in CITABLE_STATISTICS:
        value = relative.get((size_bin, statistic), math.nan)
        if math.isnan(value) or value > limit:
            failures.append(f"{size_bin} {statistic}")
    return failures


def arrival_blocks(fct: pd.DataFrame, blocks: int, kb: int = 1000) -> pd.DataFrame:
    """Whether one run is at steady state: its flows in arrival (flow id) order cut into `blocks`
    contiguous blocks, a row per block with its first and last flow id, rule (a)'s statistics
    and the large flows' mean over the block's finished flows, and the flows (all, and large)
    in progress at the block's last arrival. At steady state the rows differ by noise only; a
    trend is a run still filling (or draining) the fabric."""
    values = batch_values(fct, blocks, kb)
    frame = normalise(fct.sort_values("flow_id", kind="stable")).reset_index(drop=True)
    ends = np.where(frame["completed"] == 1, frame["start_s"] + frame["fct_s"], np.inf)
    starts = frame["start_s"].to_numpy(dtype=float)
    large = (size_bins(frame["size_bytes"], kb) == BIN_NAMES[-1]).to_numpy()
    shown = CITABLE_STATISTICS + ((BIN_NAMES[-1], "mean"),)
    rows = []
    for block, positions in enumerate(np.array_split(np.arange(len(frame)), blocks)):
        if positions.size == 0:
            continue
        moment = starts[positions].max()
        running = (starts <= moment) & (ends > moment)
        row = {"block": block, "first_flow": int(frame["flow_id"].iloc[positions[0]]),
               "last_flow": int(frame["flow_id"].iloc[positions[-1]]), "at_s": moment}
        mine = values[values["batch"] == block].set_index(["bin", "statistic"])["value"]
        row.update({f"{size_bin} {statistic}": float(mine.loc[(size_bin, statistic)])
                    for size_bin, statistic in shown})
        row.update({"in_progress": int(running.sum()),
                    "large_in_progress": int((running & large).sum())})
        rows.append(row)
    return pd.DataFrame(rows)
