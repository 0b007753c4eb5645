"""The steady-state tier: where a point's runs have left their warm-up, and whether what is
measured after it is free of a trend. Small pure functions over the measured flows of a point's
runs (issue 50).

A steady-state run measures the flows of its window from the first one on (the programs'
--warmupFlows=0 --measureFlows=M --measureMaxBytes=S: flows keep arriving until every flow of the
window of at most S bytes has completed, so the small and medium flows are measured inside the
arrivals, never in a draining fabric). The warm-up is then found from the runs themselves,
instead of fixed before them:

1. Each run's flows, in arrival (flow id) order, are cut into blocks of `block` flows, and each
   statistic of rule (a) (STEADY_STATISTICS) is computed per block.
2. The block values are averaged across the point's runs (Welch's method: the mean trajectory,
   with the noise of one run divided by the runs).
3. MSER (White 1997, the marginal standard error rule) picks the truncation d that minimises the
   standard error of the mean of what is left, sum((y_i - mean)^2) / (n - d)^2, over d up to half
   the blocks; the warm-up is d blocks. A minimum at the end of that search means that the
   trajectory was still moving when the run ended: the warm-up is not found (the runs are too
   short for the point), and the point is not citable. On a settled trajectory (i.i.d. normal
   blocks, 4,000 series each) that happens by noise to 2.4% of series of 20 blocks and 0.45% of
   40; MSER is no trend detector (a linear rise of two standard deviations across 40 blocks ends
   the search at its end in 1% of series): the bias check below is.
4. The point's warm-up is the largest of its statistics' (every statistic must have levelled off).

Bias check: after the warm-up, the remaining measured flows of every run are split into an earlier
and a later half (by flow id); the bias is half the difference between the statistic over the
later halves and over the earlier ones (pooled over the runs), which is how far the point's value
lies from its later flows' with a linear trend, and it must be within the point's 95% half-width.
Why half: with the halves independent and as noisy as each other, that difference has twice the
standard error of the whole's value, so the bias as defined has the whole's, and a point with no
trend fails the check by noise in 5% of its statistics (as often as its interval misses); a trend
that moves the value by more than the half-width fails it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pfabric_analysis import intervals
from pfabric_analysis.runs import AnalysisError

# The tier's defaults (figures and `pfabric-analysis steady`): blocks of 1,000 flows give a
# 40,000-flow run 40 blocks, enough for MSER's false "not found" rate to be 0.45% (module
# docstring); 10 batches per run, as the window pilots' intervals ("Measured with a window").
BLOCK_FLOWS = 1000
BATCHES = 10
# The statistics whose warm-up and bias are checked: rule (a)'s.
STEADY_STATISTICS = intervals.CITABLE_STATISTICS
# MSER searches the first half of the blocks; a minimum at the end of the search is a warm-up not
# found.
MSER_SEARCH_FRACTION = 0.5


@dataclass(frozen=True)
class Warmup:
    """A statistic's warm-up by MSER over the runs' mean block trajectory."""

    blocks: int       # d: the blocks cut
    flows: int        # d x block: the flows cut from each run's start
    found: bool       # False when the minimum lies at the end of the search (still moving)


def block_trajectory(fcts: list[pd.DataFrame], block: int, size_bin: str, statistic: str,
                     kb: int = 1000) -> np.ndarray:
    """The mean across runs of a statistic per block of `block` flows (by flow id), over the blocks
    every run has in full (a run's last, partial block is left out)."""
    if block < 1:
        raise AnalysisError(f"block {block}: expected at least 1 flow")
    series = []
    for fct in fcts:
        blocks = len(fct) // block
        if blocks == 0:
            return np.array([])
        ordered = fct.sort_values("flow_id", kind="stable").iloc[:blocks * block]
        values = intervals.batch_values(ordered, blocks, kb)
        chosen = values[(values["bin"] == size_bin) & (values["statistic"] == statistic)]
        series.append(chosen.sort_values("batch")["value"].to_numpy(dtype=float))
    shortest = min(len(s) for s in series)
    return np.nanmean(np.vstack([s[:shortest] for s in series]), axis=0)


def mser_truncation(values: np.ndarray) -> tuple[int, bool]:
    """MSER's truncation of a sequence: (d, found), d minimising sum((y_i - mean_d)^2) / (n - d)^2
    over the values after the first d, d up to MSER_SEARCH_FRACTION of n; found is False when d
    is the end of that search or the sequence is too short (under 4 values) to search. NaN values (a block without the flows a statistic needs) are left out of
    the sums."""
    n = int(values.size)
    if n < 4:
        return 0, False
    most = int(n * MSER_SEARCH_FRACTION)
    scores = []
    for d in range(most + 1):
        tail = values[d:]
        tail = tail[~np.isnan(tail)]
        if tail.size < 2:
            scores.append(math.inf)
            continue
        scores.append(float(((tail - tail.mean()) ** 2).sum()) / tail.size ** 2)
    d = int(np.argmin(scores))
    return d, d < most


def statistic_warmup(fcts: list[pd.DataFrame], block: int, size_bin: str, statistic: str,
                     kb: int = 1000) -> Warmup:
    """A statistic's warm-up (module docstring, steps 1-3)."""
    trajectory = block_trajectory(fcts, block, size_bin, statistic, kb)
    d, found = mser_truncation(trajectory)
    return Warmup(d, d * block, found)


def point_warmup(fcts: list[pd.DataFrame], block: int, kb: int = 1000) -> tuple[int, bool, dict]:
    """A point's warm-up in flows (the largest of STEADY_STATISTICS'), whether every statistic's
    was found, and each statistic's Warmup by '<bin> <statistic>'."""
    found = {f"{size_bin} {statistic}": statistic_warmup(fcts, block, size_bin, statistic, kb)
             for size_bin, statistic in STEADY_STATISTICS}
    flows = max(w.flows for w in found.values())
    return flows, all(w.found for w in found.values()), found


def after_warmup(fct: pd.DataFrame, warmup_flows: int) -> pd.DataFrame:
    """A run's measured flows after the warm-up: those whose id is at least the first measured
    flow's id plus warmup_flows."""
    if fct.empty:
        return fct
    first = int(fct["flow_id"].min())
    return fct[fct["flow_id"] >= first + warmup_flows].reset_index(drop=True)


def halves(fct: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A run's flows split by flow id into an earlier and a later half."""
    ordered = fct.sort_values("flow_id", kind="stable").reset_index(drop=True)
    middle = len(ordered) // 2
    return ordered.iloc[:middle], ordered.iloc[middle:]


def pooled_statistic(fcts: list[pd.DataFrame], size_bin: str, statistic: str,
                     kb: int = 1000) -> float:
    """A statistic over every flow of the frames, pooled (one batch)."""
    values = intervals.batch_values(pd.concat(fcts, ignore_index=True), 1, kb)
    chosen = values[(values["bin"] == size_bin) & (values["statistic"] == statistic)]
    return float(chosen["value"].iloc[0])


def bias(fcts: list[pd.DataFrame], size_bin: str, statistic: str, kb: int = 1000) -> float:
    """Half of the statistic over the runs' later halves minus over their earlier halves."""
    split = [halves(fct) for fct in fcts]
    early = pooled_statistic([e for e, _ in split], size_bin, statistic, kb)
    late = pooled_statistic([later for _, later in split], size_bin, statistic, kb)
    return (late - early) / 2


def steady_point(fcts: list[pd.DataFrame], block: int, batches: int,
                 kb: int = 1000) -> pd.DataFrame:
    """A point's steady-state statistics: the warm-up found (point_warmup), then per statistic of
    STEADY_STATISTICS over the flows after it: value (pooled), its 95% interval by batch means
    (`batches` per run, with the lag-1 autocorrelation of consecutive batches), the bias (half of the later
    halves' value minus the earlier halves') and whether it is within the half-width. Columns: bin, statistic,
    warmup_flows, warmup_found, statistic_warmup_flows, flows, value, ci_halfwidth, ci_relative,
    batches, lag1, bias, bias_ok."""
    warmup, found, each = point_warmup(fcts, block, kb)
    kept = [after_warmup(fct, warmup) for fct in fcts]
    found_intervals = intervals.point_intervals(kept, batches, kb).set_index(["bin", "statistic"])
    rows = []
    for size_bin, statistic in STEADY_STATISTICS:
        value = pooled_statistic(kept, size_bin, statistic, kb)
        interval = found_intervals.loc[(size_bin, statistic)]
        halfwidth = float(interval["ci_halfwidth"])
        drift = bias(kept, size_bin, statistic, kb)
        rows.append({"bin": size_bin, "statistic": statistic, "warmup_flows": warmup,
                     "warmup_found": found,
                     "statistic_warmup_flows": each[f"{size_bin} {statistic}"].flows,
                     "flows": sum(len(fct) for fct in kept), "value": value,
                     "ci_halfwidth": halfwidth,
                     "ci_relative": intervals.relative_halfwidth(halfwidth, value),
                     "batches": int(interval["batches"]), "lag1": float(interval["lag1"]),
                     "bias": drift,
                     "bias_ok": bool(not math.isnan(halfwidth) and abs(drift) <= halfwidth)})
    return pd.DataFrame(rows)


def citable(point: pd.DataFrame, limit: float = intervals.CITABLE_RELATIVE) -> list[str]:
    """What keeps a steady point from being citable: rule (a)'s failures, a bias outside the
    half-width, and a warm-up not found; empty when citable."""
    failures = intervals.citable_failures(
        {(row.bin, row.statistic): row.ci_relative for row in point.itertuples()}, limit)
    failures += [f"{row.bin} {row.statistic} bias" for row in point.itertuples()
                 if not row.bias_ok]
    if not point.empty and not bool(point["warmup_found"].iloc[0]):
        failures.append("warm-up not found")
    return failures
