"""Figures 2, 3 and 4 of the pFabric HotNets'12 paper from a sweep directory of runs.

A sweep directory holds run directories (fct.csv + meta.json, anywhere below it). Runs of one
(workload, scheme, load) are replications and are pooled; every other run of a workload must be
the same experiment (same preset, topology, flow count, ...), so that a figure never silently
mixes setups. A custom scheme (--scheme=custom) is a scheme by its label, drawn after the paper's
(plotting.scheme_looks), and may differ from the others in the parameters that make it. The plotted
numbers go to a tidy table (`figures.csv`, with provenance) and a markdown summary
(`figures.md`), so that every point in a picture can be checked by hand.

Every statistic is drawn with its 95% confidence interval (pfabric_analysis.intervals: batch
means over the measured flows of the point's runs), and every point says whether it is citable by
rule (a) of issue 29: filled markers and plain table cells for citable points, hollow markers and
a mark for the others.
"""

from __future__ import annotations

import json
import math
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import cast

import matplotlib
import numpy as np
import pandas as pd

from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullLocator
from matplotlib.typing import LineStyleType

from pfabric_analysis import intervals, large_flows, paper, steady
from pfabric_analysis.files import write_files
from pfabric_analysis.plotting import STYLE, SCHEMES, new_figure, number, render, scheme_looks
from pfabric_analysis.scales import DEFAULT_Y_SCALE, Y_SCALES
from pfabric_analysis.sweep_spec import SCHEME_LABEL
from pfabric_analysis.runs import (ADDED_PARAMETERS, BIN_NAMES, BIN_TITLES, CORE_SECONDS_KEYS,
                                   CUSTOM_SCHEME, IDEAL_SCHEME,
                                   FCT_FILES, AnalysisError, Run, check_poolable, check_same_build,
                                   compared_parameters, core_seconds, read_run, scheme_name,
                                   scheme_parameters, summarize)

# Workload name in meta.json -> name in the paper, in the order of Figure 2's panels.
WORKLOADS: dict[str, str] = {"websearch": "Web search workload",
                             "datamining": "Data mining workload"}
# Figures 3 and 4: (panel, size bin, statistic, title), as in the paper.
BREAKDOWN_PANELS = [
    (panel, size_bin, statistic, f"({panel}) {BIN_TITLES[size_bin]}: {title}")
    for panel, size_bin, statistic, title in (("a", BIN_NAMES[0], "mean", "Avg"),
                                              ("b", BIN_NAMES[0], "p99", "99th Percentile"),
                                              ("c", BIN_NAMES[1], "mean", "Avg"),
                                              ("d", BIN_NAMES[2], "mean", "Avg"))]
BREAKDOWN_FIGURES = {"datamining": "fig3", "websearch": "fig4"}
FIGURE_FILES = {"fig2": "fig2-overall", "fig3": "fig3-datamining", "fig4": "fig4-websearch"}
FIGURE_CAPTIONS = {
    "fig2": "Figure 2: Overall average flow completion time (normalized to the best possible FCT)",
    "fig3": "Figure 3: Data mining workload: Normalized FCT statistics across flow sizes",
    "fig4": "Figure 4: Web search workload: Normalized FCT statistics across flow sizes",
}
# Parameters that may differ between runs of one workload: what a sweep varies, and where files
# were read from or written to.
SWEEP_PARAMETERS = {"scheme", "load", "run", "seed", "flowFile", "dumpFlows", "out"}
# The measurement window's parameters (0: off, and absent from runs written before it existed).
WINDOW_PARAMETERS = {"warmupFlows": "warmup_flows", "measureFlows": "measure_flows",
                     "measureMaxBytes": "measure_max_bytes"}
TABLE_COLUMNS = ["figure", "panel", "title", "workload", "scheme", "label", "load", "bin",
                 "statistic", "value", "ci_halfwidth", "ci_relative", "batches", "lag1",
                 "flows", "unfinished", "runs", "point_flows", "flows_simulated", "core_hours",
                 "citable", "not_citable", "run_dirs", "kb", "parameters", "module_version",
                 "ns3_version", "git_commit"]
# Steady-state points (pfabric_analysis.steady): windowed runs that measure only flows up to a size
# (--measureMaxBytes). Their statistics are over the flows after the warm-up found from their runs
# (MSER over blocks of steady.BLOCK_FLOWS flows), with steady.BATCHES batches per run, and such a
# point is citable when rule (a) holds, its bias check passes and its warm-up was found. Its table
# rows gain STEADY_COLUMNS (a table without steady points has none of them).
STEADY_COLUMNS = ["warmup_flows", "bias", "bias_ok"]
# The programs' host stacks (--hostStack) as figures.md names them; another is named as recorded.
HOST_STACK_NAMES = {"ns3tcp": "ns-3's TCP/IP", "lean": "the lean host (--hostStack=lean)"}
# The mark of a figures.md cell whose point is not citable by rule (a).
NOT_CITABLE_MARK = "†"
# Every file write_figures may write; the ones not written this time are stale and removed.
OUTPUT_NAMES = [f"{stem}.{ext}" for stem in FIGURE_FILES.values() for ext in ("png", "pdf")] + [
    "figures.csv", "figures.md"]
# A log axis spanning less than this factor (a decade) gets evenly spaced ticks (1, 1.5, 2, ...):
# 1-2-5 ticks would leave it one or two labels.
LOG_TICKS_MIN_SPAN = 10.0
# Normalised FCTs are at least 1 (Ideal's small flows are exactly 1): a log axis shows 1, so that
# every panel has its baseline.
LOG_AXIS_TOP_OF_BOTTOM = 0.95
# The mark at the foot of an error bar cut by the axis (_mark_cut_intervals), none of the schemes'
# markers, and its legend entry.
CUT_INTERVAL_MARKER = r"$\downarrow$"
CUT_INTERVAL_MARKER_SIZE = 11  # points: well above a scheme's marker, as the bar runs through it
CUT_INTERVAL_LABEL = "interval reaches below 0"
# A page-wide figure's legend holds one row of up to LEGEND_ROW_CHARACTERS characters at STYLE's 8
# points, an entry's marker and gaps counting as LEGEND_HANDLE_CHARACTERS (the paper's five
# schemes fill 92; 7 inches hold about 120).
LEGEND_ROW_CHARACTERS = 110
LEGEND_HANDLE_CHARACTERS = 8


@dataclass(frozen=True)
class SweepRun:
    """A run of a sweep with the fields the figures are grouped by."""

    run: Run
    relative: str  # the run directory relative to the sweep directory (provenance)
    workload: str
    scheme: str
    load: float


def find_run_directories(sweep_dir: Path) -> list[Path]:
    """Directories below sweep_dir holding fct.csv or meta.json, sorted so output is stable.

    A directory with only one of the two is returned too: read_run then names the missing
    file, rather than a broken run silently dropping out of a figure. Hidden directories are
    skipped: a store writes a point under a hidden name before renaming it (a killed writer
    leaves such a copy, which must not count twice)."""
    if not sweep_dir.is_dir():
        raise AnalysisError(f"{sweep_dir}: not a directory")
    found = {path.parent for name in (*FCT_FILES, "meta.json") for path in sweep_dir.rglob(name)
             if not any(part.startswith(".") for part in path.relative_to(sweep_dir).parts)}
    if not found:
        raise AnalysisError(f"{sweep_dir}: no run directories (fct.csv + meta.json) below it")
    return sorted(found)


def classify(run: Run, sweep_dir: Path) -> SweepRun:
    """Workload, scheme and load of a run, checked: a run the figures cannot place is an error."""
    meta_path = run.directory / "meta.json"
    parameters = run.meta["parameters"]
    workload = run.meta.get("workload")
    if workload not in WORKLOADS:
        raise AnalysisError(f"{meta_path}: workload {workload!r} is not one of "
                            f"{', '.join(WORKLOADS)}")
    scheme = scheme_name(run.meta)
    if parameters.get("scheme") == CUSTOM_SCHEME and (scheme is None or scheme in SCHEMES):
        raise AnalysisError(f"{meta_path}: a custom scheme labelled {scheme!r}; expected a label "
                            f"other than {', '.join(SCHEMES)}")
    # Any other name is a scheme of the program that ran it (its registry, which the analysis
    # does not keep): drawn in the figures' look when it has one, else as a custom scheme's.
    if not isinstance(scheme, str) or not SCHEME_LABEL.fullmatch(scheme):
        raise AnalysisError(f"{meta_path}: scheme {scheme!r} is not a scheme's name (letters, "
                            "digits, '.', '_', '+' or '-')")
    load = parameters.get("load")
    if isinstance(load, bool) or not isinstance(load, (int, float)) or not math.isfinite(load):
        raise AnalysisError(f"{meta_path}: parameter load {load!r} is not a number")
    replication = parameters.get("run")
    if isinstance(replication, bool) or not isinstance(replication, int):
        raise AnalysisError(f"{meta_path}: parameter run {replication!r} is not an integer")
    relative = run.directory.relative_to(sweep_dir).as_posix() or "."
    return SweepRun(run, relative, workload, scheme, float(load))


def experiment_parameters(run: Run) -> dict:
    """A run's parameters as the figures compare them: the window's size from its "window"
    object (an Ideal run records it there, whatever its program's parameters say), 0 when off
    or when the run predates the window; with the window on, flows is not used and left out."""
    parameters = compared_parameters(run.meta)
    window = run.meta["window"] if run.windowed else {}
    for key, window_key in WINDOW_PARAMETERS.items():
        parameters[key] = window.get(window_key, 0) if run.windowed else parameters.get(key, 0)
    if run.windowed:
        parameters.pop("flows", None)
    return parameters


def check_same_experiment(runs: list[SweepRun]) -> None:
    """Refuse runs of one workload that differ in anything but scheme (a custom scheme's parts
    included), load, replication or file paths, or that come from two ns-3 versions: a figure
    must compare schemes on one setup, not mix presets, topologies or builds.
    A parameter missing from one run and present in another counts as different."""
    first: dict[str, SweepRun] = {}
    for run in runs:
        reference = first.setdefault(run.workload, run)
        check_same_build(run.run, reference.run)
        a = experiment_parameters(reference.run)
        b = experiment_parameters(run.run)
        free = SWEEP_PARAMETERS | scheme_parameters(reference.run.meta) | scheme_parameters(
            run.run.meta)
        for key in sorted((set(a) | set(b)) - free):
            if a.get(key, "<absent>") != b.get(key, "<absent>"):
                raise AnalysisError(
                    f"{run.run.directory}: parameter {key} is {b.get(key, '<absent>')!r}, but "
                    f"{reference.run.directory} has {a.get(key, '<absent>')!r}; runs of one "
                    f"workload must differ only in {', '.join(sorted(SWEEP_PARAMETERS))}")


def group_replications(runs: list[SweepRun]) -> dict[tuple[str, str, float], list[SweepRun]]:
    """Runs per (workload, scheme, load), checked to be poolable replications (check_poolable:
    the same (seed, run) or the same flows twice is refused)."""
    groups: dict[tuple[str, str, float], list[SweepRun]] = {}
    for run in runs:
        groups.setdefault((run.workload, run.scheme, run.load), []).append(run)
    for members in groups.values():
        check_poolable([member.run for member in members])
    order = list(scheme_looks(key[1] for key in groups))
    return dict(sorted(groups.items(), key=lambda item: (
        list(WORKLOADS).index(item[0][0]), order.index(item[0][1]), item[0][2])))


def shared_parameters(runs: list[Run]) -> dict:
    """The meta.json parameters all the pooled runs agree on (their common provenance)."""
    first = runs[0].meta["parameters"]
    return {key: value for key, value in sorted(first.items())
            if all(run.meta["parameters"].get(key, object()) == value for run in runs[1:])}


def _joined(values: Iterable[object]) -> str:
    """Distinct values, ';'-joined (one value when the runs agree, as they should)."""
    return ";".join(sorted({str(value) for value in values if value is not None}))


def core_hours(runs: list[Run]) -> float:
    """The processor hours of a point's runs (CORE_SECONDS_KEYS); NaN if a run records none."""
    total = 0.0
    for run in runs:
        seconds = core_seconds(run.meta)
        if seconds is None:
            return math.nan
        total += seconds
    return total / 3600


def is_steady(run: Run) -> bool:
    """Whether a run is of the steady-state tier: windowed, measuring flows up to a size."""
    return run.windowed and int(run.meta["parameters"].get("measureMaxBytes") or 0) > 0


def point_statistics(fcts: list[pd.DataFrame], kb: int, batches: int) -> pd.DataFrame:
    """A point's pooled statistics (summarize over every measured flow of its runs, one frame
    each) with their intervals, indexed by (bin, statistic): value, ci_halfwidth, ci_relative,
    batches, lag1, flows, unfinished."""
    pooled = summarize(pd.concat(fcts, ignore_index=True), kb=kb)
    rows = pooled.melt(id_vars=["bin", "flows", "unfinished"], value_vars=["mean", "p99"],
                       var_name="statistic", value_name="value")
    found = intervals.point_intervals(fcts, batches, kb)
    table = rows.merge(found, on=["bin", "statistic"], how="left")
    table["ci_relative"] = [intervals.relative_halfwidth(h, v)
                            for h, v in zip(table["ci_halfwidth"], table["value"])]
    return table.set_index(["bin", "statistic"])


def steady_statistics(fcts: list[pd.DataFrame],
                      kb: int) -> tuple[pd.DataFrame, list[str], list[pd.DataFrame]]:
    """A steady-state point's statistics (point_statistics over its runs' flows after the
    warm-up, steady.BATCHES batches per run) with STEADY_COLUMNS (the bias for rule (a)'s
    statistics, NaN for the others), what keeps it from being citable (steady.citable), and the
    runs' flows after the warm-up."""
    checked = steady.steady_point(fcts, steady.BLOCK_FLOWS, steady.BATCHES, kb)
    warmup = int(checked["warmup_flows"].iloc[0])
    kept = [steady.after_warmup(fct, warmup) for fct in fcts]
    table = point_statistics(kept, kb, steady.BATCHES)
    table["warmup_flows"] = warmup
    bias = checked.set_index(["bin", "statistic"])[["bias", "bias_ok"]]
    return table.join(bias), steady.citable(checked), kept


def figure_table(groups: dict[tuple[str, str, float], list[SweepRun]], kb: int = 1000,
                 batches: int = intervals.DEFAULT_BATCHES) -> pd.DataFrame:
    """The tidy table of every plotted point: one row per (figure, panel, workload, scheme,
    load), with the statistic, its 95% interval, its flow counts, whether the point is citable
    (rule (a)) and where it came from."""
    workloads = [w for w in WORKLOADS if any(key[0] == w for key in groups)]
    overall_panel = {w: "abcdefgh"[i] for i, w in enumerate(workloads)}
    looks = scheme_looks(key[1] for key in groups)
    rows = []
    any_steady = False
    for (workload, scheme, load), members in groups.items():
        runs = [member.run for member in members]
        fcts = [run.fct for run in runs]
        point_steady = is_steady(runs[0])
        if point_steady:
            table, failures, fcts = steady_statistics(fcts, kb)
            any_steady = True
        else:
            table = point_statistics(fcts, kb, batches)
            failures = intervals.citable_failures(table["ci_relative"].to_dict())
        common = {"workload": workload, "scheme": scheme, "label": looks[scheme]["label"],
                  "load": load, "runs": len(runs),
                  "point_flows": sum(len(fct) for fct in fcts),
                  "flows_simulated": sum(run.flows_simulated for run in runs),
                  "core_hours": core_hours(runs), "citable": not failures,
                  "not_citable": ";".join(failures),
                  "run_dirs": ";".join(member.relative for member in members), "kb": kb,
                  "parameters": json.dumps(shared_parameters(runs), sort_keys=True),
                  "module_version": _joined(run.meta.get("module_version") for run in runs),
                  "ns3_version": _joined(run.meta.get("ns3_version") for run in runs),
                  "git_commit": _joined(run.meta.get("git_commit") for run in runs)}
        overall_title = f"({overall_panel[workload]}) {WORKLOADS[workload]}"
        if point_steady:
            # the mean over the flows measured: none larger than the window's size limit
            limit = int(runs[0].meta["parameters"]["measureMaxBytes"])
            overall_title += f", flows up to {limit / 1e6:g} MB"
        panels = [("fig2", overall_panel[workload], overall_title, "all", "mean")]
        panels += [(BREAKDOWN_FIGURES[workload], panel, title, size_bin, statistic)
                   for panel, size_bin, statistic, title in BREAKDOWN_PANELS]
        for figure, panel, title, size_bin, statistic in panels:
            point = table.loc[(size_bin, statistic)]
            row = {**common, "figure": figure, "panel": panel, "title": title,
                   "bin": size_bin, "statistic": statistic,
                   "value": float(point["value"]),
                   "ci_halfwidth": float(point["ci_halfwidth"]),
                   "ci_relative": float(point["ci_relative"]),
                   "batches": int(point["batches"]), "lag1": float(point["lag1"]),
                   "flows": int(point["flows"]), "unfinished": int(point["unfinished"])}
            if point_steady:
                row.update({"warmup_flows": int(point["warmup_flows"]),
                            "bias": float(point["bias"]),
                            "bias_ok": "" if pd.isna(point["bias_ok"]) else bool(point["bias_ok"])})
            rows.append(row)
    frame = pd.DataFrame(rows, columns=TABLE_COLUMNS + (STEADY_COLUMNS if any_steady else []))
    return sorted_table(frame)


def sorted_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The figures' table in its order: figure, panel, scheme (scheme_looks), load; its counts
    of flows as integers, empty where a row has none (a steady-state table's rows drawn from runs
    to completion, pfabric_analysis.large_flows)."""
    order = {"figure": list(FIGURE_FILES), "workload": list(WORKLOADS),
             "scheme": list(scheme_looks(frame["scheme"]))}
    frame = frame.astype({column: "Int64" for column in ("flows", "warmup_flows")
                          if column in frame.columns})
    return frame.sort_values(
        ["figure", "panel", "scheme", "load"],
        key=lambda column: column.map(order[column.name].index) if column.name in order
        else column).reset_index(drop=True)


def load_sweep(sweep_dir: Path, kb: int = 1000,
               batches: int = intervals.DEFAULT_BATCHES, large_from: Path | None = None,
               ideal_counts: Path | None = None) -> pd.DataFrame:
    """Read, check and tabulate a sweep directory, or a store of compact points (figure_table of
    its runs). With large_from (a sweep or store of runs to completion), a steady-state point's
    (10MB,inf) rows come from there, and with ideal_counts (a flow-count study's flowcount.csv)
    Ideal's values at its longer counts are drawn beside them (pfabric_analysis.large_flows)."""
    if kb not in (1000, 1024):
        raise AnalysisError(f"--kb {kb}: must be 1000 or 1024")
    if batches < 1:
        raise AnalysisError(f"--batches {batches}: expected at least 1")
    if ideal_counts is not None and large_from is None:
        raise AnalysisError(f"--ideal-counts {ideal_counts}: needs --large-from (the runs to "
                            "completion it is drawn beside)")
    counts = None if ideal_counts is None else large_flows.read_flow_counts(ideal_counts)
    runs = [classify(read_run(directory), sweep_dir)
            for directory in find_run_directories(sweep_dir)]
    check_same_experiment(runs)
    table = figure_table(group_replications(runs), kb, batches)
    if large_from is None:
        return table
    if "warmup_flows" not in table.columns:
        raise AnalysisError(f"--large-from {large_from}: {sweep_dir} has no steady-state points "
                            "(--measureMaxBytes) whose largest flows' bin it would fill")
    complete = load_sweep(large_from, kb, batches)
    table = large_flows.with_runs_to_completion(table, complete, str(large_from))
    if counts is not None:
        table = pd.concat([table, large_flows.ideal_count_rows(table, counts, str(ideal_counts))],
                          ignore_index=True)
    return sorted_table(table)


def _scale_y_axis(ax, yscale: str) -> None:
    """The panel's y axis: linear from 0, or log over the drawn values with plain-number ticks
    (1-2-5 over wide spans, evenly spaced over narrow ones); error bars reaching below 0 are
    clipped at the axis (and marked, _mark_cut_intervals)."""
    if yscale == "linear":
        ax.set_ylim(bottom=0)
        return
    ax.set_yscale("log", nonpositive="clip")
    low, high = ax.get_ylim()
    if low > LOG_AXIS_TOP_OF_BOTTOM:  # nothing drawn reaches 1 (and nothing is clipped)
        ax.set_ylim(bottom=LOG_AXIS_TOP_OF_BOTTOM)
        low = LOG_AXIS_TOP_OF_BOTTOM
    wide = high / low >= LOG_TICKS_MIN_SPAN
    ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)) if wide
                                 else MaxNLocator(nbins=6, steps=[1, 2, 5, 10]))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))


def _plot_panel(ax, rows: pd.DataFrame, title: str, loads: list[float],
                looks: dict[str, dict[str, str]], yscale: str) -> None:
    """One panel: a line per scheme (the figure's looks: paper order and fixed look, then custom
    schemes), normalised FCT against load, with 95% error bars (none where the interval is
    undefined); a point's marker is filled when it is citable by rule (a), hollow when not."""
    for scheme, look in looks.items():
        series = rows[rows["scheme"] == scheme].sort_values("load")
        if series.empty:
            continue
        x, y = series["load"].to_numpy(), series["value"].to_numpy()
        citable = series["citable"].to_numpy(dtype=bool)
        ax.errorbar(x, y, yerr=series["ci_halfwidth"].fillna(0).to_numpy(), label=look["label"],
                    color=look["color"], linestyle=look["linestyle"], marker="None",
                    elinewidth=0.8)
        for which, face in ((citable, look["color"]), (~citable, "none")):
            if which.any():
                ax.plot(x[which], y[which], linestyle="None", marker=look["marker"],
                        color=look["color"], markerfacecolor=face, label="_marker")
    ax.set_title(title)
    ax.set_xlabel("Load")
    ax.set_ylabel("Normalized FCT")
    ax.set_xticks(loads, [f"{load:g}" for load in loads])
    _scale_y_axis(ax, yscale)
    _mark_cut_intervals(ax, rows, looks)


def _cuts_an_interval(rows: pd.DataFrame) -> pd.Series:
    """The points whose 95% interval reaches below 0: a mean of few heavy-tailed runs (TCP's small
    flows at light load). No axis of normalised FCT shows that end (a log axis has no 0, a linear
    one starts there), so the bar stops at the panel's foot."""
    return (rows["value"] - rows["ci_halfwidth"]) <= 0


def _mark_cut_intervals(ax, rows: pd.DataFrame, looks: dict[str, dict[str, str]]) -> None:
    """An arrow at the panel's foot under every bar the axis cuts, in its scheme's colour: a bar
    that merely runs off the bottom would read as an interval ending there."""
    cut = rows[_cuts_an_interval(rows)]
    for scheme, look in looks.items():
        loads = cut.loc[cut["scheme"] == scheme, "load"].to_numpy()
        if len(loads):
            ax.plot(loads, [0.0] * len(loads), linestyle="None", marker=CUT_INTERVAL_MARKER,
                    markersize=CUT_INTERVAL_MARKER_SIZE, color=look["color"],
                    transform=ax.get_xaxis_transform(), clip_on=False,
                    scaley=False, label="_cut")


def _add_legend(figure: Figure, rows: pd.DataFrame, looks: dict[str, dict[str, str]]) -> None:
    """One legend for the figure, above the panels: the schemes are the same in every panel;
    and, when a point of the figure is not citable, what its hollow marker means."""
    handles = [Line2D([], [], color=look["color"], marker=look["marker"],
                      linestyle=cast(LineStyleType, look["linestyle"]), label=look["label"])
               for scheme, look in looks.items() if (rows["scheme"] == scheme).any()]
    if not rows["citable"].all():
        handles.append(Line2D([], [], color="0.4", marker="o", markerfacecolor="none",
                              linestyle="None", label=_hollow_label(rows)))
    if _cuts_an_interval(rows).any():
        handles.append(Line2D([], [], color="0.4", marker=CUT_INTERVAL_MARKER,
                              markersize=CUT_INTERVAL_MARKER_SIZE, linestyle="None",
                              label=CUT_INTERVAL_LABEL))
    # One row fits a page-wide figure when its labels are short enough, else two rows filled
    # column by column (a pair of schemes, then the markers' meanings); a column-wide figure
    # (one workload's Figure 2) fits two columns.
    wide = figure.get_figwidth() >= 6
    labels = [len(str(handle.get_label())) for handle in handles]
    if not wide:
        columns = 2
    elif len(handles) <= 5 and _legend_width(labels, len(handles)) <= LEGEND_ROW_CHARACTERS:
        columns = len(handles)
    else:  # two rows, or more when their widest entries do not fit side by side
        columns = math.ceil(len(handles) / 2)
        while columns > 1 and _legend_width(labels, columns) > LEGEND_ROW_CHARACTERS:
            columns -= 1
    figure.legend(handles=handles, loc="outside upper center", ncols=columns, frameon=False)


def _legend_width(labels: list[int], columns: int) -> int:
    """A legend's width in characters with `columns` columns, filled as matplotlib fills them
    (entries split into columns of nearly equal length, the first ones longer): each column's
    longest label and its marker."""
    split = np.array_split(np.array(labels), columns)
    return sum(int(column.max()) + LEGEND_HANDLE_CHARACTERS for column in split if column.size)


def _hollow_label(rows: pd.DataFrame) -> str:
    """The legend's words for a hollow marker: the reasons the figure's points are not citable
    (rule (a)'s interval, the steady-state tier's bias or warm-up, runs to completion)."""
    reasons = {reason for text in rows.loc[~rows["citable"].astype(bool), "not_citable"]
               for reason in text.split(";")}
    words = []
    if any(_rule_failure(reason) is not None for reason in reasons):
        words.append(f"CI > {100 * intervals.CITABLE_RELATIVE:g}%")
    if any(reason.endswith(" bias") for reason in reasons):
        words.append("bias")
    if "warm-up not found" in reasons:
        words.append("no warm-up found")
    if large_flows.TO_COMPLETION in reasons:
        words.append("run to completion")
    return f"hollow: not citable ({', '.join(words) or 'see figures.md'})"


def overall_figure(table: pd.DataFrame, yscale: str = DEFAULT_Y_SCALE) -> Figure:
    """Figure 2: mean normalised FCT over all flows against load, a panel per workload."""
    rows = table[table["figure"] == "fig2"]
    if rows.empty:
        raise AnalysisError("no runs for Figure 2")
    loads = sorted(rows["load"].unique())
    panels = list(dict.fromkeys(rows["panel"]))
    looks = scheme_looks(table["scheme"])
    with matplotlib.rc_context(STYLE):
        figure = new_figure(3.5 * len(panels), 2.9)
        axes = figure.subplots(1, len(panels), squeeze=False)[0]
        for ax, panel in zip(axes, panels):
            panel_rows = rows[rows["panel"] == panel]
            _plot_panel(ax, panel_rows, panel_rows["title"].iloc[0], loads, looks, yscale)
        _add_legend(figure, rows, looks)
    return figure


def breakdown_figure(table: pd.DataFrame, workload: str,
                     yscale: str = DEFAULT_Y_SCALE) -> Figure:
    """Figure 3 (data mining) or 4 (web search): the four size-bin panels against load."""
    rows = table[(table["figure"] == BREAKDOWN_FIGURES.get(workload)) &
                 (table["workload"] == workload)]
    if rows.empty:
        raise AnalysisError(f"no {workload} runs for its figure")
    loads = sorted(rows["load"].unique())
    looks = scheme_looks(table["scheme"])
    with matplotlib.rc_context(STYLE):
        figure = new_figure(7.0, 5.4)
        axes = figure.subplots(2, 2).ravel()
        for ax, (panel, _, _, title) in zip(axes, BREAKDOWN_PANELS):
            panel_rows = rows[rows["panel"] == panel]
            # a panel drawn from another tier says so in its rows' title (large_flows)
            shown = panel_rows["title"].iloc[0] if not panel_rows.empty else title
            _plot_panel(ax, panel_rows, shown, loads, looks, yscale)
        _add_legend(figure, rows, looks)
    return figure


def _cell(row) -> str:
    """A table cell: the value +- its 95% half-width, marked when the point is not citable."""
    cell = f"{number(row.value)} +- {number(row.ci_halfwidth)}"
    return cell if row.citable else f"{cell} {NOT_CITABLE_MARK}"


def _percent(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{100 * value:.1f}%"


# doc/results.rst's tables of Figures 3 and 4 (rst_table): the width of a value +- half-width
# cell and of the scheme column, whose pFabric schemes go by their host half ("MinTCP"), the
# section saying that both run over pFabric switches.
RST_CELL_WIDTH = 16
RST_SCHEME_WIDTH = 14
RST_PFABRIC_SUFFIX = "+pFabric"


def _rst_cell(value: float, halfwidth: float) -> str:
    """value +- half-width, both to the decimals that give the value three or four significant
    digits (3 below 3, 2 below 10, then 1); n/a for what is not a number."""
    if math.isnan(value):
        return "n/a"
    decimals = 3 if abs(value) < 3 else 2 if abs(value) < 10 else 1
    return f"{value:.{decimals}f} +- " + ("n/a" if math.isnan(halfwidth) else
                                          f"{halfwidth:.{decimals}f}")


def rst_table(table: pd.DataFrame, workload: str) -> str:
    """A workload's Figure 3 or 4 numbers (the figures' table, figures.csv) as the reStructuredText
    table doc/results.rst shows: a row per scheme (in figures.md's order) and load, each panel's
    value +- 95% half-width and the point's core-hours ("-" below 0.005, Ideal's seconds);
    NOT_CITABLE_MARK after the scheme of a point that misses rule (a)."""
    rows = table[(table["figure"] == BREAKDOWN_FIGURES[workload]) &
                 (table["workload"] == workload)]
    if rows.empty:
        raise AnalysisError(f"no {workload} rows for its figure")
    headers = [textwrap.wrap(f"{size_bin} {statistic}", RST_CELL_WIDTH)
               for _, size_bin, statistic, _ in BREAKDOWN_PANELS]
    header_lines = max(len(lines) for lines in headers)
    widths = [RST_SCHEME_WIDTH, len("load")] + [RST_CELL_WIDTH] * len(headers) + [len("core-h")]
    columns = [[WORKLOADS[workload].removesuffix(" workload").lower()], ["load"], *headers,
               ["core-h"]]

    def line(cells: list[str]) -> str:
        return " ".join(f"{cell:<{width}}" for cell, width in zip(cells, widths)).rstrip()

    rule = " ".join("=" * width for width in widths)
    lines = [rule]
    lines += [line([column[i] if i < len(column) else "" for column in columns])
              for i in range(header_lines)]
    lines.append(rule)
    for scheme, look in scheme_looks(rows["scheme"]).items():
        for load, point in rows[rows["scheme"] == scheme].groupby("load", sort=True):
            by_panel = point.set_index("panel")
            cells = [_rst_cell(by_panel.at[panel, "value"], by_panel.at[panel, "ci_halfwidth"])
                     for panel, _, _, _ in BREAKDOWN_PANELS]
            name = look["label"].removesuffix(RST_PFABRIC_SUFFIX)
            if not point["citable"].all():
                name = f"{name} {NOT_CITABLE_MARK}"
            core = point["core_hours"].iloc[0]
            lines.append(line([name, f"{load:g}", *cells, "-" if core < 0.005 else f"{core:.2f}"]))
    lines.append(rule)
    return "\n".join(lines) + "\n"


def _rule_failure(name: str) -> tuple[str, str] | None:
    """The (bin, statistic) of a not_citable entry that is a rule (a) failure; None for the
    steady-state tier's other reasons (a bias, a warm-up not found)."""
    key = tuple(name.rsplit(" ", 1))
    return key if key in intervals.CITABLE_STATISTICS else None


def _failing_rows(point: pd.DataFrame) -> list[pd.Series]:
    """A point's rows of the figures' table for the statistics that miss rule (a)."""
    keyed = point.set_index(["bin", "statistic"])
    keys = [_rule_failure(name) for name in point.iloc[0]["not_citable"].split(";")]
    return [keyed.loc[key] for key in keys if key is not None]


def runs_needed(point: pd.DataFrame) -> int | None:
    """The runs in all that a point missing rule (a) would need (its rows of the figures' table):
    the largest intervals.runs_for_rule over its failing statistics, None when one of them has
    no estimate."""
    runs = int(point.iloc[0]["runs"])
    needed = [intervals.runs_for_rule(row["ci_relative"], int(row["batches"]), runs)
              for row in _failing_rows(point)]
    known = [runs for runs in needed if runs is not None]
    return max(known) if known and len(known) == len(needed) else None


def runs_estimate(point: pd.DataFrame) -> str:
    """runs_needed in words: "about N runs in all"; "over 1,000 runs in all" when every failing
    statistic has a half-width but one needs more than runs_for_rule looks at; "" when one has
    none (fewer than two batch values, an undefined statistic)."""
    needed = runs_needed(point)
    if needed is not None:
        return f"about {needed} runs in all"
    if all(not math.isnan(row["ci_relative"]) and int(row["batches"]) >= 2
           for row in _failing_rows(point)):
        return f"over {intervals.RUNS_ESTIMATE_MOST:,} runs in all"
    return ""


def points_markdown(table: pd.DataFrame) -> list[str]:
    """Per workload, what is behind each point: runs, measured and simulated flows, core-hours,
    whether it is citable (and if not, which statistics of rule (a) are not known within 3%),
    and the largest lag-1 autocorrelation of its batches among rule (a)'s statistics."""
    rule = {(size_bin, statistic) for size_bin, statistic in intervals.CITABLE_STATISTICS}
    lines = ["## Points", "",
             "Runs, measured flows (all replications), flows simulated (with a window: warm-up "
             "and the flows that arrived while the measured ones finished), core-hours "
             f"({' or '.join(CORE_SECONDS_KEYS)} of every run's meta.json), citable by rule (a) "
             "(else each failing statistic's half-width as % of its value, and about how many "
             "runs in all would bring them within it if further runs spread as these did), and, "
             "with batch means (n/a with replications), the largest lag-1 autocorrelation of "
             "batch values "
             f"among rule (a)'s statistics (flagged above "
             f"{intervals.AUTOCORRELATION_FLAG:g}: batches not independent, the interval too "
             "narrow).", ""]
    with_warmup = "warmup_flows" in table.columns
    for workload in dict.fromkeys(table["workload"]):
        rows = table[(table["workload"] == workload) & (table["figure"] != "fig2")]
        lines += [f"### {WORKLOADS[workload]}", "",
                  "| scheme | load | runs | " + ("warm-up | " if with_warmup else "")
                  + "measured flows | flows simulated | core-hours | citable | lag-1 |",
                  "|---|---:|---:|" + ("---:|" if with_warmup else "")
                  + "---:|---:|---:|---|---:|"]
        for (scheme, load), point in rows.groupby(["scheme", "load"], sort=False):
            if large_flows.ideal_count(scheme) is not None:
                continue  # Ideal beside the runs to completion: its own section says what it is
            first = point.iloc[0]
            keyed = point.set_index(["bin", "statistic"])
            if first["citable"]:
                status = "yes"
            else:
                failing = [f"{name} {_percent(keyed.loc[key, 'ci_relative'])}"
                           if (key := _rule_failure(name)) is not None else name
                           for name in first["not_citable"].split(";")]
                status = "no: " + ", ".join(failing)
                estimate = runs_estimate(point) if _failing_rows(point) else ""
                if estimate:
                    status += f" ({estimate})"
            lags = [lag for key, lag in keyed["lag1"].items()
                    if key in rule and not math.isnan(lag)]
            lag = max(lags) if lags else math.nan
            lag_text = number(lag) + (" (flag)" if lag > intervals.AUTOCORRELATION_FLAG else "")
            hours = "n/a" if math.isnan(first["core_hours"]) else f"{first['core_hours']:.2f}"
            warmup = ""
            if with_warmup:
                warmup = "n/a | " if pd.isna(first["warmup_flows"]) else \
                    f"{int(first['warmup_flows']):,} | "
            lines.append(f"| {first['label']} | {load:g} | {first['runs']} | {warmup}"
                         f"{first['point_flows']:,} | {first['flows_simulated']:,} | {hours} | "
                         f"{status} | {lag_text} |")
        lines.append("")
    return lines


def interval_method(batches: str) -> str:
    """How the intervals were made, in words, for batches per run as figures.md prints them."""
    if batches == "1":
        return ("from independent replications: every run's statistic over its measured flows, "
                "t(0.975, k-1) s / sqrt(k) over the k runs' values")
    return (f"by batch means: every run's measured flows in flow id order cut into {batches} "
            "batches, the statistic per batch, t(0.975, k-1) s / sqrt(k) over the k batch "
            "values of all runs")


def steady_method(table: pd.DataFrame) -> str:
    """How the steady-state tier's points are measured, in words (figures.md)."""
    limits = sorted({json.loads(text).get("measureMaxBytes", 0) for text in table["parameters"]})
    sizes = " or ".join(f"{limit:,}" for limit in limits if limit)
    return ("Steady state (pfabric_analysis.steady): a point's runs measure their flows of at "
            f"most {sizes} bytes while flows keep arriving (--measureMaxBytes); its statistics "
            "are over each run's flows after the point's warm-up (Points: warm-up), found from "
            "its runs by MSER over the runs' mean trajectory in blocks of "
            f"{steady.BLOCK_FLOWS:,} flows, with {steady.BATCHES} batches per run. Citable also needs "
            "the bias check (half the statistic over the runs' later halves minus over their "
            "earlier halves within the half-width; 'bias' where it fails) and a warm-up found "
            "('warm-up not found': the runs are too short). Larger flows are not measured: "
            "their bin has no value at this tier, unless drawn from runs to completion (below).")


def host_stack_markdown(table: pd.DataFrame) -> str:
    """Which host stack each packet scheme's points ran on (meta.json's hostStack; a run written
    before the option ran on ns-3's TCP/IP), in words: the stacks of one figure may differ by
    scheme, and a scheme's by workload or load (the lean host serves the baselines where it gives
    ns-3's flows), never within a point (its runs do not pool otherwise)."""
    packet = table[table["scheme"] != IDEAL_SCHEME]
    if "warmup_flows" in packet.columns:
        # A steady-state point's own rows: its (10MB,inf) row is drawn from runs to completion
        # (no warm-up), whose stack steady_method's text names with them.
        packet = packet[packet["warmup_flows"].notna()]
    points = {(row.label, row.workload, float(row.load)):
              json.loads(row.parameters).get("hostStack", ADDED_PARAMETERS["hostStack"])
              for row in packet.itertuples()}
    by_stack: dict[str, list[str]] = {}
    for label in dict.fromkeys(label for label, _, _ in points):
        for stack, where in _stack_places(label, points):
            by_stack.setdefault(HOST_STACK_NAMES.get(stack, stack), []).append(where)
    if len(by_stack) == 1:
        return f"Host stack: {next(iter(by_stack))} for every scheme."
    return "Host stacks: " + "; ".join(f"{', '.join(places)} on {stack}"
                                       for stack, places in by_stack.items()) + "."


def _stack_places(label: str, points: dict[tuple[str, str, float], str]
                  ) -> list[tuple[str, str]]:
    """(stack, where) for one scheme's points: the scheme's label alone when one stack ran all
    of them, else qualified by workload, and by loads within a workload that ran on both."""
    mine = {(workload, load): stack for (name, workload, load), stack in points.items()
            if name == label}
    if len(set(mine.values())) == 1:
        return [(next(iter(mine.values())), label)]
    places: list[tuple[str, str]] = []
    for workload in dict.fromkeys(workload for workload, _ in mine):
        loads = {load: stack for (name, load), stack in mine.items() if name == workload}
        name = WORKLOADS.get(workload, workload).removesuffix(" workload").lower()
        for stack in dict.fromkeys(loads.values()):
            at = "" if len(set(loads.values())) == 1 else " at " + ", ".join(
                f"{load:g}" for load, used in sorted(loads.items(), reverse=True)
                if used == stack)
            places.append((stack, f"{label} ({name}{at})"))
    return places


def figures_markdown(table: pd.DataFrame) -> str:
    """The plotted numbers as markdown: a table per figure panel, schemes by loads, each value
    with its 95% interval and marked when its point is not citable, the unfinished flows (left
    out of every statistic) listed under the panel; then what is behind every point."""
    kb = _joined(table["kb"])
    batches = _joined(table["batches"] // table["runs"])
    rule = ", ".join(f"{size_bin} {statistic}" for size_bin, statistic
                     in intervals.CITABLE_STATISTICS)
    lines = ["# pFabric figures: normalized FCT (FCT / ideal FCT)", "",
             "Mean or 99th percentile (nearest rank) of FCT / ideal FCT over the measured, "
             f"finished flows of all replications of a point pooled; KB = {kb} B. Each value +- "
             f"the half-width of its 95% confidence interval, {interval_method(batches)} (n/a: "
             "fewer than two values, or a batch without the flows the statistic needs, e.g. "
             f"fewer than {intervals.P99_MIN_FLOWS} for a p99). Rule (a): a point is citable "
             f"when its {rule} each have a half-width "
             f"of at most {100 * intervals.CITABLE_RELATIVE:g}% of the value; the {BIN_NAMES[2]} "
             f"mean is shown with its own interval whatever it is. {NOT_CITABLE_MARK}: the "
             "point is not citable (hollow marker in the figures). Every number, with its runs, "
             "core-hours and parameters, is in figures.csv.", ""]
    if not table[table["scheme"] != IDEAL_SCHEME].empty:
        lines += [host_stack_markdown(table), ""]
    if "warmup_flows" in table.columns:
        lines += [steady_method(table), ""]
    for figure in dict.fromkeys(table["figure"]):
        lines += [f"## {FIGURE_CAPTIONS[figure]}", ""]
        figure_rows = table[table["figure"] == figure]
        for panel in dict.fromkeys(figure_rows["panel"]):
            rows = figure_rows[figure_rows["panel"] == panel]
            title = rows["title"].iloc[0]
            if figure != "fig2":
                title = f"{WORKLOADS[rows['workload'].iloc[0]]}: {title}"
            loads = sorted(rows["load"].unique())
            lines += [f"### {title}", ""]
            lines += ["| scheme | " + " | ".join(f"{load:g}" for load in loads) + " |",
                      "|---|" + "---:|" * len(loads)]
            for scheme in dict.fromkeys(rows["scheme"]):
                by_load = {row.load: row for row in rows[rows["scheme"] == scheme].itertuples()}
                cells = [_cell(by_load[load]) if load in by_load else "" for load in loads]
                label = next(iter(by_load.values())).label
                lines.append(f"| {label} | " + " | ".join(cells) + " |")
            unfinished = rows[rows["unfinished"] > 0]
            if not unfinished.empty:
                notes = [f"{row.label} at load {row.load:g}: {row.unfinished} of "
                         f"{row.flows + row.unfinished}" for row in unfinished.itertuples()]
                lines += ["", "Unfinished flows, not in the statistics: " + "; ".join(notes) + "."]
            lines.append("")
    return "\n".join(lines + large_flows.distance_markdown(table) + paper_markdown(table)
                     + points_markdown(table))


def _claim_number(low: float, high: float) -> str:
    return f"{low:g}" if low == high else f"{low:g}-{high:g}"


def paper_markdown(table: pd.DataFrame) -> list[str]:
    """Every number the paper's text gives for the workloads of the table (pfabric_analysis.
    paper) beside this module's values at the same loads, with a verdict."""
    found = paper.comparisons(table)
    if not found:
        return []
    labels = {**{scheme: look["label"] for scheme, look in SCHEMES.items()},
              **dict(zip(table["scheme"], table["label"]))}
    lines = ["## Against the paper's text", "",
             "The numbers the paper's text gives (its figures are not in the text) and this "
             "module's at the same loads (every load of the sweep where the text names none), "
             "point by point; a ratio is one scheme's statistic over the other's at each load. "
             "Verdict: this module's values are all inside the paper's range, all below or above "
             "it, or on both sides (overlaps); none for a number the text gives in words. "
             f"{NOT_CITABLE_MARK}: the value rests on a point not citable by rule (a) (for a "
             "ratio, either scheme's).", "",
             "| workload | statistic | schemes | paper | loads | this module | verdict | the "
             "text |", "|---|---|---|---:|---|---:|---|---|"]
    for comparison in found:
        claim = comparison.claim
        schemes = labels.get(claim.scheme, claim.scheme)
        if claim.over:
            schemes += f" / {labels.get(claim.over, claim.over)}"
        number = _claim_number(claim.low, claim.high)
        if claim.words:
            number = f"~{number} (in words)"
        style = "{:.3g}" if claim.over else "{:.3f}"
        loads = " / ".join(f"{load:g}" for load in comparison.values)
        values = " / ".join(
            style.format(value) + (f" {NOT_CITABLE_MARK}" if load in comparison.not_citable else "")
            for load, value in comparison.values.items())
        statistic = "mean" if claim.size_bin == paper.OVERALL else claim.statistic
        size_bin = "all flows" if claim.size_bin == paper.OVERALL else claim.size_bin
        lines.append(f"| {WORKLOADS[comparison.workload]} | {size_bin} {statistic} | {schemes} "
                     f"| {number} | {loads or '-'} | {values or '-'} | {comparison.verdict} | "
                     f"{claim.quote} |")
    return lines + [""]


def render_outputs(table: pd.DataFrame, yscale: str = DEFAULT_Y_SCALE) -> dict[str, bytes]:
    """Every output file's name and content: figures present in the table, CSV, markdown."""
    outputs: dict[str, bytes] = {}
    figures: dict[str, Callable[[], Figure]] = {"fig2": lambda: overall_figure(table, yscale)}
    for workload, figure_id in BREAKDOWN_FIGURES.items():
        if (table["workload"] == workload).any():
            figures[figure_id] = partial(breakdown_figure, table, workload, yscale)
    for figure_id, stem in FIGURE_FILES.items():
        if figure_id in figures:
            figure = figures[figure_id]()
            for fmt in ("png", "pdf"):
                outputs[f"{stem}.{fmt}"] = render(figure, fmt)
    outputs["figures.csv"] = table.to_csv(index=False).encode()
    outputs["figures.md"] = figures_markdown(table).encode()
    return outputs


def write_figures(sweep_dir: Path, out_dir: Path, kb: int = 1000,
                  batches: int = intervals.DEFAULT_BATCHES,
                  yscale: str = DEFAULT_Y_SCALE, large_from: Path | None = None,
                  ideal_counts: Path | None = None) -> list[Path]:
    """Figures 2-4, figures.csv and figures.md of a sweep directory (or a store of compact
    points) into out_dir (load_sweep for large_from and ideal_counts); the files written.
    Everything is read, checked and rendered before out_dir is touched, so bad input leaves no
    output behind."""
    if yscale not in Y_SCALES:
        raise AnalysisError(f"--yscale {yscale}: expected one of {', '.join(Y_SCALES)}")
    outputs = render_outputs(load_sweep(sweep_dir, kb, batches, large_from, ideal_counts),
                             yscale)
    return write_files(out_dir, outputs, owned_names=OUTPUT_NAMES)
