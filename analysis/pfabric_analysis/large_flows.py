"""The (10MB,inf) bin of steady-state figures: drawn from runs to completion, with Ideal's values
over longer runs beside it.

A steady-state point measures only flows up to a size (--measureMaxBytes), because no run of a
few hours reaches steady state for the largest flows at high load (the doc, "The steady-state
tier": under Ideal their backlog still grows at 100,000 flows). So Figures 3 and 4's panel (d)
comes from another tier, runs of N flows each run to completion (`figures --large-from STORE`):
each of its points is drawn hollow, not citable ("to completion"), with N in the panel's title.
Beside it, `figures --ideal-counts FLOWCOUNT_CSV` draws Ideal over 100,000 and 300,000 flows run
to completion (the flow-count study's values, the mean over its runs with their 95% interval), so
that a reader sees how far N flows are from longer runs at every load; figures.md tabulates that
distance. Small pure functions over the figures' table (pfabric_analysis.figures.TABLE_COLUMNS).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from pfabric_analysis import intervals
from pfabric_analysis.runs import BIN_NAMES, IDEAL_SCHEME, AnalysisError

LARGE_BIN = BIN_NAMES[2]
# The not_citable reason of a point drawn from runs to completion (hollow, whatever its interval).
TO_COMPLETION = "to completion"
# Ideal over a flow-count study's count C is drawn as the scheme IDEAL_COUNT_PREFIX + str(C).
IDEAL_COUNT_PREFIX = "ideal@"
# The flow-count study's metric of the bin (pfabric_analysis.flowcount.metric_name).
FLOWCOUNT_METRIC = f"{LARGE_BIN} mean"
FLOWCOUNT_COLUMNS = ("workload", "load", "run", "count", "metric", "value")
# A table row's fields that come from the point, not from the panel it is drawn in.
PANEL_FIELDS = ("figure", "panel", "title")


def ideal_count_scheme(count: int) -> str:
    return f"{IDEAL_COUNT_PREFIX}{count}"


def ideal_count(scheme: str) -> int | None:
    """The count of a scheme name made by ideal_count_scheme, None for any other name."""
    if not scheme.startswith(IDEAL_COUNT_PREFIX):
        return None
    digits = scheme[len(IDEAL_COUNT_PREFIX):]
    return int(digits) if digits.isdigit() else None


def ideal_count_label(count: int) -> str:
    return f"Ideal, {count:,} flows"


def _is_steady_row(row: pd.Series) -> bool:
    return "warmup_flows" in row.index and not pd.isna(row["warmup_flows"])


def flows_per_run(complete: pd.DataFrame, source: str) -> int:
    """N, the flows of every run of a table of runs to completion; refused when its runs use the
    measurement window or differ in N."""
    counts = set()
    for text in complete["parameters"]:
        parameters = json.loads(text)
        if int(parameters.get("measureFlows") or 0) > 0:
            raise AnalysisError(f"--large-from {source}: its runs use the measurement window; "
                                "expected runs to completion")
        if "flows" not in parameters:
            raise AnalysisError(f"--large-from {source}: a point records no flows parameter")
        counts.add(int(parameters["flows"]))
    if len(counts) != 1:
        raise AnalysisError(f"--large-from {source}: runs of {sorted(counts)} flows; expected one "
                            "count")
    return counts.pop()


def with_runs_to_completion(table: pd.DataFrame, complete: pd.DataFrame,
                            source: str) -> pd.DataFrame:
    """table with each steady-state point's LARGE_BIN rows (none measured) replaced by the same
    (workload, scheme, load)'s row of `complete` (a table of runs to completion, read from
    `source`): its value, interval, runs and provenance (run_dirs prefixed with source), drawn
    hollow (not_citable TO_COMPLETION) under the title with "N flows to completion". A point
    that `complete` lacks keeps its empty row. Both tables must be of one ns-3 version and preset."""
    large = complete[complete["bin"] == LARGE_BIN]
    if large.empty:
        raise AnalysisError(f"--large-from {source}: no {LARGE_BIN} points")
    count = flows_per_run(large, source)
    _check_same_setup(table, large, source)
    keyed = large.set_index(["figure", "workload", "scheme", "load"])
    result = table.copy()
    for index, row in table.iterrows():
        if row["bin"] != LARGE_BIN or not _is_steady_row(row):
            continue
        key = (row["figure"], row["workload"], row["scheme"], row["load"])
        if key not in keyed.index:
            continue
        found = keyed.loc[key]
        for column in table.columns:
            if column in keyed.columns and column not in PANEL_FIELDS:
                result.at[index, column] = found[column]
        result.at[index, "title"] = f"{row['title']}, {count:,} flows to completion"
        result.at[index, "citable"] = False
        result.at[index, "not_citable"] = TO_COMPLETION
        result.at[index, "run_dirs"] = ";".join(f"{source}/{directory}"
                                                for directory in found["run_dirs"].split(";"))
        for column in ("warmup_flows", "bias", "bias_ok"):
            if column in result.columns:
                result.at[index, column] = "" if column == "bias_ok" else math.nan
    return result


def _check_same_setup(table: pd.DataFrame, other: pd.DataFrame, source: str) -> None:
    """Refuse a table of runs to completion from another ns-3 version or preset than table's."""
    mine, theirs = set(table["ns3_version"]), set(other["ns3_version"])
    if mine != theirs:
        raise AnalysisError(f"--large-from {source}: ns-3 version {', '.join(sorted(theirs))}, "
                            f"but the figures' points have {', '.join(sorted(mine))}")
    presets = {json.loads(text).get("preset") for text in table["parameters"]}
    theirs = {json.loads(text).get("preset") for text in other["parameters"]}
    if presets != theirs:
        raise AnalysisError(f"--large-from {source}: preset {sorted(map(str, theirs))}, but the "
                            f"figures' points have {sorted(map(str, presets))}")


def read_flow_counts(path: Path) -> pd.DataFrame:
    """A flow-count study's values (flowcount.csv: workload, load, run, count, metric, value);
    refused in one line naming the file when it is not one."""
    try:
        frame = pd.read_csv(path)
    except (OSError, ValueError) as error:
        raise AnalysisError(f"--ideal-counts {path}: {error}") from error
    missing = [column for column in FLOWCOUNT_COLUMNS if column not in frame.columns]
    if missing:
        raise AnalysisError(f"--ideal-counts {path}: no column {', '.join(missing)} (expected "
                            "a flowcount.csv of pfabric-analysis flow-count)")
    if "warmup" in frame.columns and (frame["warmup"].fillna(0) != 0).any():
        raise AnalysisError(f"--ideal-counts {path}: a study with the measurement window; "
                            "expected runs to completion")
    return frame


def ideal_count_rows(table: pd.DataFrame, counts: pd.DataFrame, source: str) -> pd.DataFrame:
    """Rows for table's LARGE_BIN panels drawn from runs to completion: Ideal's LARGE_BIN mean
    at every count of the study larger than the runs' N, at each (workload, load) of those
    panels, the mean over the study's runs with its 95% interval over them (not citable:
    TO_COMPLETION)."""
    panels = table[(table["bin"] == LARGE_BIN) & (table["not_citable"] == TO_COMPLETION)]
    if panels.empty:
        return table.iloc[0:0]
    titles = panels["title"].str.extract(r", ([\d,]+) flows to completion$")[0]
    smallest = int(titles.dropna().iloc[0].replace(",", ""))
    values = counts[(counts["metric"] == FLOWCOUNT_METRIC) & (counts["count"] > smallest)]
    rows = []
    for (_figure, _panel, workload, load), shown in panels.groupby(
            ["figure", "panel", "workload", "load"], sort=False):
        first = shown.iloc[0]
        here = values[(values["workload"] == workload) & (values["load"] == load)]
        for count, of_count in here.groupby("count"):
            runs = of_count["value"].to_numpy(dtype=float)
            interval = intervals.batch_means_interval([np.array([value]) for value in runs])
            value = float(runs.mean())
            rows.append({
                **{column: first[column] for column in ("figure", "panel", "title", "workload",
                                                          "bin", "statistic", "kb")},
                "scheme": ideal_count_scheme(int(count)), "label": ideal_count_label(int(count)),
                "load": load, "value": value, "ci_halfwidth": interval.halfwidth,
                "ci_relative": intervals.relative_halfwidth(interval.halfwidth, value),
                "batches": interval.batches, "lag1": math.nan, "flows": math.nan,
                "unfinished": 0, "runs": len(runs), "point_flows": int(count) * len(runs),
                "flows_simulated": int(count) * len(runs), "core_hours": math.nan,
                "citable": False, "not_citable": TO_COMPLETION,
                "run_dirs": f"{source} (runs {', '.join(map(str, sorted(of_count['run'])))})",
                "parameters": json.dumps({"flows": int(count), "scheme": IDEAL_SCHEME}),
                "module_version": "", "ns3_version": first["ns3_version"], "git_commit": ""})
    if not rows:
        raise AnalysisError(f"--ideal-counts {source}: no {FLOWCOUNT_METRIC} values at a count "
                            f"above {smallest:,} for the figures' workloads and loads")
    return pd.DataFrame(rows, columns=table.columns)


def distance_markdown(table: pd.DataFrame) -> list[str]:
    """figures.md's section on the bin drawn from runs to completion: how it is drawn, and Ideal's
    value at N flows against each longer count (the distance: N's value over the count's, minus
    1), per workload and load. Empty when the table has no such panel."""
    shown = table[(table["bin"] == LARGE_BIN) & (table["not_citable"] == TO_COMPLETION)]
    if shown.empty:
        return []
    lines = [f"## The {LARGE_BIN} bin: runs to completion", "",
             "No run of a few hours reaches steady state for the flows above the window's size "
             "limit at high load, so panel (d) of Figures 3 and 4 shows the points of runs of N "
             "flows each run to completion (N in the panel's title), hollow: they are not "
             "citable as a steady-state value, however narrow their interval."]
    ideal = shown[shown["scheme"] == IDEAL_SCHEME]
    counted = shown[shown["scheme"].map(lambda scheme: ideal_count(scheme) is not None)]
    if ideal.empty or counted.empty:
        return lines + [""]
    counts = sorted({count for scheme in counted["scheme"]
                     if (count := ideal_count(scheme)) is not None})
    lines[-1] += (" Beside them, Ideal over longer runs to completion (the flow-count study, the "
                  "mean over its runs +- its 95% interval); the distance is Ideal's value at N "
                  "flows over its value at the longer count, minus 1.")
    lines += ["", "| workload | load | Ideal, N flows | "
              + " | ".join(f"{count:,} flows | distance" for count in counts) + " |",
              "|---|---:|---:|" + "---:|---:|" * len(counts)]
    for row in ideal.itertuples():
        cells = [f"{row.value:.3f}"]
        for count in counts:
            match = counted[(counted["workload"] == row.workload) & (counted["load"] == row.load)
                            & (counted["scheme"] == ideal_count_scheme(count))]
            if match.empty:
                cells += ["", ""]
                continue
            other = match.iloc[0]
            cells += [f"{other['value']:.3f} +- {other['ci_halfwidth']:.3f}",
                      f"{100 * (row.value / other['value'] - 1):+.1f}%"]
        lines.append(f"| {row.workload} | {row.load:g} | " + " | ".join(cells) + " |")
    return lines + [""]
