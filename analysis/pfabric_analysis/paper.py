"""Every number the HotNets'12 text reports for its Figures 2-4 (the figures themselves are not in
the text), in one home, and how this module's points compare with each: figures.md sets them
side by side ("Against the paper's text").

A claim is a value of one scheme (the small flows' 99th percentile of LineRate+pFabric at load
0.8: 1.75) or a ratio between two schemes (TCP-DropTail's small flows' mean over MinTCP+pFabric's:
"nearly an order of magnitude"), over the loads it names or, when it names none, over the loads
of the sweep. A claim given as a range (1.04-1.25 over the loads) gets a verdict: this module's
values over the same loads are inside it, below or above it, or overlap it. A claim in words only
("nearly an order of magnitude") gets the number the words stand for and no verdict: the doc
discusses it. A value that rests on a point not citable by rule (a) (the scheme's, or for a ratio
either scheme's) is known as such, so that a verdict is read with its uncertain values marked.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from pfabric_analysis.runs import BIN_NAMES

SMALL, MEDIUM, LARGE = BIN_NAMES
OVERALL = "all"  # Figure 2's bin: every flow


@dataclass(frozen=True)
class Claim:
    """One number of the paper's text: `scheme`'s statistic (or its ratio over `over`'s) is
    between `low` and `high` (equal for a single value) at `loads` (empty: every load of the
    sweep), in `workload` (empty: every workload of the sweep, each on its own row)."""

    workload: str
    size_bin: str
    statistic: str
    scheme: str
    low: float
    high: float
    quote: str
    over: str = ""
    loads: tuple[float, ...] = ()
    words: bool = False  # a number the words stand for ("an order of magnitude": 10), no verdict


# Where each claim's sentence is: section 3, "Analysis" (data mining: "Data mining workload"; web
# search: "Web search workload"; Figure 2: "Overall Average FCT"), and the introduction's summary
# of the results (which names no workload; its "more than 7-11x" is read as the range 7-11).
# "High load" in the web search large-flow sentence is taken as 0.8, the highest load of the
# paper's grid.
CLAIMS: tuple[Claim, ...] = (
    Claim("datamining", SMALL, "mean", "linerate", 1.04, 1.25,
          "the average (normalized) FCT with LineRate+pFabric is 1.04-1.25"),
    Claim("datamining", SMALL, "p99", "linerate", 1.68, 2.18,
          "and the 99th percentile is 1.68-2.18"),
    Claim("datamining", SMALL, "mean", "pfabric", 1.04, 1.21,
          "MinTCP+pFabric is similar: 1.04-1.21 at the mean"),
    Claim("datamining", SMALL, "p99", "pfabric", 1.90, 2.12,
          "and 1.90-2.12 at the 99th percentile"),
    *(Claim("datamining", SMALL, "mean", baseline, 10.0, 10.0,
            "Both are nearly an order of magnitude better than TCP and DCTCP", over=pfabric,
            words=True)
      for baseline in ("tcp", "dctcp") for pfabric in ("pfabric", "linerate")),
    *(Claim("datamining", size_bin, "mean", "linerate", 0.9, 1.1,
            "LineRate+pFabric is also very good for the medium and large flows and is always "
            "within ~10% of the Ideal scheme", over="ideal")
      for size_bin in (MEDIUM, LARGE)),
    Claim("websearch", SMALL, "p99", "linerate", 1.75, 1.75,
          f"at 80% load, the 99th percentile FCT for the {SMALL} flows is only 1.75 with "
          "LineRate+pFabric", loads=(0.8,)),
    Claim("websearch", SMALL, "p99", "dctcp", 16.97, 16.97,
          "while it is 16.97 and 66.03 respectively for DCTCP and TCP", loads=(0.8,)),
    Claim("websearch", SMALL, "p99", "tcp", 66.03, 66.03,
          "while it is 16.97 and 66.03 respectively for DCTCP and TCP", loads=(0.8,)),
    *(Claim("websearch", LARGE, "mean", "pfabric", 1.20, 1.28,
            "MinTCP+pFabric ... still exhibits a (~20-28%) slowdown compared to TCP and DCTCP",
            over=baseline, loads=(0.8,))
      for baseline in ("tcp", "dctcp")),
    *(Claim("", OVERALL, "mean", baseline, 2.5, 11.0,
            "The average FCT is reduced by a factor of 2.5-11x especially at high load",
            over=pfabric)
      for baseline in ("tcp", "dctcp") for pfabric in ("pfabric", "linerate")),
    *(Claim("", SMALL, statistic, baseline, low, high,
            "(introduction) pFabric reduces the latency for short flows compared to traditional "
            "TCP and DCTCP by more than 7-11x and 2.5-4x respectively at the mean, and more than "
            "33-69x and 7-17x respectively at the 99th percentile", over=pfabric)
      for statistic, baseline, low, high in (("mean", "tcp", 7.0, 11.0),
                                             ("p99", "tcp", 33.0, 69.0),
                                             ("mean", "dctcp", 2.5, 4.0),
                                             ("p99", "dctcp", 7.0, 17.0))
      for pfabric in ("pfabric", "linerate")),
)


@dataclass(frozen=True)
class Comparison:
    """A claim beside this module's values over the same loads (empty when a scheme or load is
    missing from the sweep)."""

    claim: Claim
    workload: str
    values: dict[float, float]  # load -> this module's value (or ratio)
    # The loads of values resting on a point not citable by rule (a).
    not_citable: frozenset[float] = frozenset()

    @property
    def verdict(self) -> str:
        if not self.values:
            return "not run"
        if self.claim.words:
            return ""
        found = [value for value in self.values.values() if not math.isnan(value)]
        if not found:
            return "n/a"
        if all(self.claim.low <= value <= self.claim.high for value in found):
            return "inside"
        if all(value < self.claim.low for value in found):
            return "below"
        if all(value > self.claim.high for value in found):
            return "above"
        return "overlaps"


def statistic_values(table: pd.DataFrame, workload: str, size_bin: str, statistic: str,
                     scheme: str) -> dict[float, float]:
    """A scheme's statistic by load in a figure table (pfabric_analysis.figures.figure_table)."""
    rows = table[(table["workload"] == workload) & (table["bin"] == size_bin) &
                 (table["statistic"] == statistic) & (table["scheme"] == scheme)]
    return {float(row.load): float(row.value) for row in rows.itertuples()}


def loads_not_citable(table: pd.DataFrame, workload: str, size_bin: str, statistic: str,
                      scheme: str) -> set[float]:
    """The loads where a scheme's statistic rests on a point not citable: its point misses rule
    (a), or (the (10MB,inf) bin of a steady-state figure, pfabric_analysis.large_flows) the
    statistic is drawn from runs to completion."""
    rows = table[(table["workload"] == workload) & (table["bin"] == size_bin) &
                 (table["statistic"] == statistic) & (table["scheme"] == scheme) &
                 ~table["citable"].astype(bool)]
    return {float(load) for load in rows["load"]}


def compare(claim: Claim, table: pd.DataFrame, workload: str) -> Comparison:
    """This module's values of a claim in one workload, over the claim's loads (or all)."""
    values = statistic_values(table, workload, claim.size_bin, claim.statistic, claim.scheme)
    not_citable = loads_not_citable(table, workload, claim.size_bin, claim.statistic,
                                    claim.scheme)
    if claim.over:
        not_citable |= loads_not_citable(table, workload, claim.size_bin, claim.statistic,
                                         claim.over)
        denominators = statistic_values(table, workload, claim.size_bin, claim.statistic,
                                        claim.over)
        values = {load: value / denominators[load] for load, value in values.items()
                  if load in denominators}
    if claim.loads:
        if not all(load in values for load in claim.loads):
            return Comparison(claim, workload, {})
        values = {load: values[load] for load in claim.loads}
    return Comparison(claim, workload, dict(sorted(values.items())),
                      frozenset(not_citable & set(values)))


def comparisons(table: pd.DataFrame) -> list[Comparison]:
    """Every claim about a workload of the table, compared; a claim naming no workload once per
    workload of the table."""
    workloads = list(dict.fromkeys(table["workload"]))
    return [compare(claim, table, workload) for claim in CLAIMS
            for workload in ([claim.workload] if claim.workload else workloads)
            if workload in workloads]
