"""Deadlines: the fraction of deadlines met against load, a line per scheme (pFabric with EDF
priorities, pFabric with remaining size, TCP-DropTail, DCTCP, ...), and the FCT / ideal FCT of
the flows without a deadline that ran among them (runs of pfabric-deadlines, whose fct.csv has
deadline_s, met and terminated).

Small pure functions over the frames of runs.py and compare.py; write_deadlines reads and checks
every run, renders every file in memory and only then writes NAME.png/.pdf/.csv/.md/.json.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.figure import Figure

from pfabric_analysis.compare import flow_difference, provenance, read_runs, runs_markdown
from pfabric_analysis.plotting import (STYLE, document_bytes, log_axis, new_figure, number,
                                       scheme_looks, write_figure_set)
from pfabric_analysis.runs import (BIN_NAMES, SIZE_BIN_EDGES, AnalysisError, Run, check_output_name,
                                   check_same_as_first, fct_file, normalise,
                                   percentile_nearest_rank, runs_pfabric_queues, scheme_name,
                                   size_text)

DEADLINE_COLUMNS = ["deadline_s", "met", "terminated"]
TABLE_COLUMNS = ["on_miss", "label", "scheme", "priority", "load", "with_deadline", "met",
                 "fraction_met", "terminated", "without_deadline", "without_finished",
                 "without_mean", "without_median", "without_p99", "small_without_mean",
                 "run_dir"]
# Parameters every run of one figure must share (scheme, priority, onMiss and load are the axes).
SHARED_PARAMETERS = ["preset", "topology", "flows", "seed", "run", "cdf", "sampling",
                     "deadlineMean", "deadlineMinFactor", "deadlineFraction"]
# The programs' --priority as meta.json records it, in legend order, each with what it adds to
# the scheme's label: a scheme of pFabric's queues carries edf or remaining, any other none (it
# ignores the priority). A line of the remaining size priority takes its scheme's second look
# (plotting.SCHEMES), beside EDF's in the scheme's own.
NO_PRIORITY = "none"
PRIORITIES = {"edf": ", EDF", "remaining": ", remaining size", NO_PRIORITY: ""}
SECOND_LOOK_PRIORITY = "remaining"
# A second look for a scheme the figures' table gives none: its colour with this marker.
SECOND_MARKER = "P"
SMALL_FLOWS = size_text(SIZE_BIN_EDGES[0], " ")  # the small flows' upper edge: "100 KB"
# --deadlineMean as the program takes it: a positive whole number of nanoseconds, written as a
# number and one of these units (PfabricCommandLine::CheckTimeOption with TIME_UNITS).
TIME_TEXT = re.compile(r"\+?((?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)(ns|us|ms|s)")
TIME_UNIT_NS = {"ns": 1, "us": 10**3, "ms": 10**6, "s": 10**9}
# --onMiss's choices: what a flow not complete at its deadline does.
CONTINUE, TERMINATE = "continue", "terminate"
# meta.json's counts of the flows (PfabricDeadlineFeature::AddProvenance) and the
# deadline_statistics each is.
RECORDED_COUNTS = {"flows_with_deadline": "with_deadline", "deadlines_met": "met",
                   "flows_terminated": "terminated"}


def scheme_key(run: Run) -> tuple[str, str]:
    """(scheme, priority) of a pfabric-deadlines run: priority edf or remaining for a scheme of
    pFabric's queues (meta.json's scheme_recipe says), none for any other."""
    parameters = run.meta["parameters"]
    scheme, priority = scheme_name(run.meta), str(parameters.get("priority"))
    if (scheme is None or priority not in PRIORITIES
            or (priority == NO_PRIORITY) == runs_pfabric_queues(run.meta)):
        raise AnalysisError(f"{run.directory}: scheme {scheme!r} with priority {priority!r} is "
                            "not a pfabric-deadlines scheme")
    return scheme, priority


def deadline_looks(runs: Sequence[Run]) -> dict[tuple[str, str], dict[str, str]]:
    """Label, colour and marker per (scheme, priority) of the runs, in legend order: the schemes
    of pFabric's queues first (those the priority moves), each group in the figures' order
    (plotting.scheme_looks), a scheme's priorities as PRIORITIES; the scheme's look, its second
    look for the remaining size priority."""
    queues = {scheme_key(run): runs_pfabric_queues(run.meta) for run in runs}
    base = scheme_looks(scheme for scheme, _ in queues)
    schemes, priorities = list(base), list(PRIORITIES)
    looks: dict[tuple[str, str], dict[str, str]] = {}
    for key in sorted(queues, key=lambda k: (not queues[k], schemes.index(k[0]),
                                            priorities.index(k[1]))):
        look = base[key[0]]
        second = key[1] == SECOND_LOOK_PRIORITY
        looks[key] = {"label": look["label"] + PRIORITIES[key[1]],
                      "color": look.get("second_color", look["color"]) if second
                      else look["color"],
                      "marker": look.get("second_marker", SECOND_MARKER) if second
                      else look["marker"]}
    return looks


def is_positive_time(text: object) -> bool:
    """Whether a meta.json value is a time --deadlineMean takes (TIME_TEXT)."""
    match = TIME_TEXT.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return False
    nanoseconds = Decimal(match.group(1)) * TIME_UNIT_NS[match.group(2)]
    return nanoseconds > 0 and nanoseconds == nanoseconds.to_integral_value()


def check_deadline_parameters(parameters: dict, meta_path: Path) -> None:
    """Refuse deadline parameters the program does not take (PfabricDeadlineFeature): a
    deadlineFraction outside [0, 1] (the tenth probe's 1.5), a deadlineMean that is no positive
    time, a deadlineMinFactor below 1 (the twelfth probe's -1ms and 0.5), an onMiss other than
    its choices."""
    fraction = parameters.get("deadlineFraction")
    if (isinstance(fraction, bool) or not isinstance(fraction, (int, float))
            or not 0 <= fraction <= 1):
        raise AnalysisError(f"{meta_path}: parameters.deadlineFraction {fraction!r} is not a "
                            "fraction in [0, 1]")
    mean = parameters.get("deadlineMean")
    if not is_positive_time(mean):
        raise AnalysisError(f"{meta_path}: parameters.deadlineMean {mean!r} is not a positive "
                            "time such as 1ms (whole nanoseconds)")
    factor = parameters.get("deadlineMinFactor")
    if (isinstance(factor, bool) or not isinstance(factor, (int, float))
            or not 1 <= factor < math.inf):
        raise AnalysisError(f"{meta_path}: parameters.deadlineMinFactor {factor!r} is not a "
                            "number of at least 1")
    if parameters.get("onMiss") not in (CONTINUE, TERMINATE):
        raise AnalysisError(f"{meta_path}: parameters.onMiss {parameters.get('onMiss')!r} is "
                            f"not {CONTINUE} or {TERMINATE}")


def check_on_miss(fct: pd.DataFrame, on_miss: str, fct_path: Path) -> None:
    """Refuse fct.csv's first flow its onMiss cannot give: a terminated flow under continue, a
    flow with a deadline that completed after it under terminate (it is given up at its
    deadline). The twelfth probe: a run relabelled terminate was taken."""
    if on_miss == CONTINUE:
        wrong = np.flatnonzero((fct["terminated"] == 1).to_numpy())
        why = "a flow terminated, and onMiss is continue (no flow is given up)"
    else:
        wrong = np.flatnonzero((fct["deadline_s"].notna() & (fct["completed"] == 1)
                                & (fct["met"] == 0)).to_numpy())
        why = ("a flow that completed after its deadline, and onMiss is terminate (given up at "
               "its deadline)")
    if wrong.size:
        raise AnalysisError(f"{fct_path}:{int(wrong[0]) + 2}: {why}")


def check_deadline_counts(meta: dict, fct: pd.DataFrame, fct_path: Path,
                          meta_path: Path) -> None:
    """Refuse a meta.json whose deadline counts (RECORDED_COUNTS) are not its fct.csv's (the
    twelfth probe: deadlines_met 20 beside 11 was taken). A count not recorded is not checked,
    nor those of a run with a window (its fct keeps the measured flows only)."""
    if isinstance(meta.get("window"), dict):
        return
    statistics = deadline_statistics(fct)
    for key, statistic in RECORDED_COUNTS.items():
        if key in meta and meta[key] != statistics[statistic]:
            raise AnalysisError(f"{meta_path}: {key} is {meta[key]!r}, but {fct_path} has "
                                f"{statistics[statistic]}; not the files of one run")


def check_deadline_runs(runs: Sequence[Run]) -> None:
    """One figure's runs: pfabric-deadlines runs (fct.csv with the deadline columns) of the same
    experiment but for scheme, priority, onMiss and load, one per such combination, and at each
    load the flows and deadlines of that load's first run."""
    for run in runs:
        missing = [c for c in DEADLINE_COLUMNS if c not in run.fct.columns]
        if missing:
            raise AnalysisError(f"{run.directory}/fct.csv: no {', '.join(missing)} column(s): "
                                "not a pfabric-deadlines run")
        meta_path, fct_path = run.directory / "meta.json", fct_file(run.directory)
        check_deadline_parameters(run.meta["parameters"], meta_path)
        check_on_miss(run.fct, run.meta["parameters"]["onMiss"], fct_path)
        check_deadline_counts(run.meta, run.fct, fct_path, meta_path)
    seen: dict[tuple, Path] = {}
    by_load: dict[float, Run] = {}
    for run in runs:
        parameters = run.meta["parameters"]
        check_same_as_first(run, runs[0], SHARED_PARAMETERS)
        load = float(parameters["load"])
        key = (*scheme_key(run), parameters.get("onMiss"), load)
        if key in seen:
            raise AnalysisError(f"{run.directory}: {key[0]} ({key[1]}, onMiss {key[2]}) at load "
                                f"{load:g} again (also {seen[key]})")
        seen[key] = run.directory
        reference = by_load.setdefault(load, run)
        difference = flow_difference(run, reference)
        if difference is None and not deadlines_equal(run.fct, reference.fct):
            difference = "other deadlines"
        if difference is not None:
            raise AnalysisError(f"{run.directory}: not the flows of {reference.directory}: "
                                f"{difference}")


def deadlines_equal(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    """Whether two runs' flows (by flow_id) have the same deadlines, to a nanosecond."""
    x = a.set_index("flow_id")["deadline_s"].sort_index()
    y = b.set_index("flow_id")["deadline_s"].sort_index()
    if not x.index.equals(y.index) or not x.isna().equals(y.isna()):
        return False
    both = x.notna()
    return bool(np.allclose(x[both].to_numpy(float), y[both].to_numpy(float), rtol=0, atol=1e-9))


def deadline_statistics(fct: pd.DataFrame, small_bytes: int = SIZE_BIN_EDGES[0]
                        ) -> dict[str, float | int]:
    """One run's deadline numbers: of the flows with a deadline, how many met it (completed by
    it: fct.csv's met), their fraction, and how many were terminated; of the flows without one,
    how many finished and the mean, median and 99th percentile (nearest rank) of their FCT /
    ideal FCT, and the mean of those up to small_bytes. A run with no flow of a kind gives NaN
    for its statistics."""
    has = fct["deadline_s"].notna()
    with_deadline = fct[has]
    met = int((with_deadline["met"] == 1).sum())
    without = normalise(fct[~has])
    done = without.loc[without["completed"] == 1, "slowdown"]
    small = without.loc[(without["completed"] == 1) & (without["size_bytes"] <= small_bytes),
                        "slowdown"]
    return {"with_deadline": int(has.sum()), "met": met,
            "fraction_met": met / len(with_deadline) if len(with_deadline) else math.nan,
            "terminated": int((fct["terminated"] == 1).sum()),
            "without_deadline": int((~has).sum()), "without_finished": int(done.size),
            "without_mean": float(done.mean()) if done.size else math.nan,
            "without_median": percentile_nearest_rank(done, 50),
            "without_p99": percentile_nearest_rank(done, 99),
            "small_without_mean": float(small.mean()) if small.size else math.nan}


def deadline_table(runs: Sequence[Run]) -> pd.DataFrame:
    """A row per run: onMiss, scheme label, load and deadline_statistics; sorted by onMiss,
    scheme (legend order) and load."""
    looks = deadline_looks(runs)
    rows = []
    for run in runs:
        scheme, priority = scheme_key(run)
        parameters = run.meta["parameters"]
        rows.append({"on_miss": parameters.get("onMiss"),
                     "label": looks[(scheme, priority)]["label"], "scheme": scheme,
                     "priority": priority, "load": float(parameters["load"]),
                     **deadline_statistics(run.fct), "run_dir": str(run.directory)})
    table = pd.DataFrame(rows, columns=TABLE_COLUMNS)
    order = {look["label"]: i for i, look in enumerate(looks.values())}
    return (table.sort_values(["on_miss", "label", "load"],
                              key=lambda c: c.map(order) if c.name == "label" else c)
            .reset_index(drop=True))


def deadline_markdown(table: pd.DataFrame, document: dict) -> str:
    """The table as markdown, a row per onMiss, scheme and load; the inputs last."""
    lines = ["# Deadlines met against load", "",
             f"{document['flows_per_run']} flows per run: a small run, not a citable scale. "
             f"Deadlines: {document['deadline_rule']}; a terminated or unfinished flow missed "
             "its deadline. Flows without a deadline: FCT / ideal FCT of the finished ones, mean, median "
             f"and 99th percentile (nearest rank), and the mean of those up to {SMALL_FLOWS}.", "",
             "| on miss | scheme | load | with deadline | met | fraction met | terminated | "
             f"without | mean | median | p99 | {BIN_NAMES[0]} mean |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in table.itertuples():
        fraction = "n/a" if math.isnan(row.fraction_met) else f"{row.fraction_met:.3f}"
        lines.append(f"| {row.on_miss} | {row.label} | {row.load:g} | {row.with_deadline} | "
                     f"{row.met} | {fraction} | {row.terminated} | {row.without_deadline} | "
                     f"{number(row.without_mean)} | {number(row.without_median)} | "
                     f"{number(row.without_p99)} | {number(row.small_without_mean)} |")
    return "\n".join(lines + runs_markdown(document))


def deadline_figure(table: pd.DataFrame, flows: int, fraction: float,
                    looks: dict[tuple[str, str], dict[str, str]]) -> Figure:
    """A row of panels per onMiss: fraction of deadlines met against load, and the mean FCT /
    ideal FCT of the flows without a deadline (log axis), a line per scheme and priority in its
    look (deadline_looks)."""
    modes = sorted(table["on_miss"].unique())
    with matplotlib.rc_context(STYLE):
        figure = new_figure(7.2, 2.6 * len(modes) + 0.6)
        axes = np.atleast_2d(figure.subplots(len(modes), 2, squeeze=False))
        for row, mode in zip(axes, modes):
            rows = table[table["on_miss"] == mode]
            for (scheme, priority), look in looks.items():
                line = rows[(rows["scheme"] == scheme) & (rows["priority"] == priority)]
                if not len(line):
                    continue
                line = line.sort_values("load")
                style = {"color": look["color"], "marker": look["marker"], "label": look["label"]}
                row[0].plot(line["load"], line["fraction_met"], **style)
                row[1].plot(line["load"], line["without_mean"], **style)
            row[0].set_ylabel("Fraction of deadlines met")
            row[0].set_ylim(0, 1.02)
            row[0].set_title(f"Deadlines met (on miss: {mode})")
            log_axis(row[1].yaxis)
            row[1].set_ylabel("Mean FCT / ideal FCT")
            row[1].set_title(f"Flows without a deadline (on miss: {mode})")
            loads = table["load"]
            for ax in row:
                ax.set_xlabel("Load")
                # Every row on the same load axis, so that the rows line up.
                ax.set_xlim(loads.min() - 0.03, loads.max() + 0.03)
        handles: dict[str, Artist] = {}
        for ax in figure.axes:
            for handle, label in zip(*ax.get_legend_handles_labels()):
                handles.setdefault(label, handle)
        figure.legend(list(handles.values()), list(handles), loc="outside upper center",
                      ncols=3, frameon=False)
        figure.supxlabel(f"{flows} flows per run, a share {fraction:g} of them with a deadline: "
                         "a small run, not a citable scale", fontsize=7)
    return figure


def write_deadlines(directories: Sequence[Path], out_dir: Path, name: str = "deadlines",
                    command: str = "", versions: dict[str, str] | None = None) -> list[Path]:
    """NAME.png, NAME.pdf, NAME.csv (the table), NAME.md and NAME.json (provenance) into
    out_dir."""
    check_output_name(name)
    runs = read_runs(directories)
    check_deadline_runs(runs)
    table = deadline_table(runs)
    flows = int(np.max([len(run.fct) for run in runs]))
    parameters = runs[0].meta["parameters"]
    looks = deadline_looks(runs)
    labels = [f"{looks[scheme_key(run)]['label']}, on miss {run.meta['parameters'].get('onMiss')},"
              f" load {run.meta['parameters']['load']}" for run in runs]
    document = provenance(runs, labels, command, versions or {}, 1000, flows_per_run=flows,
                          deadline_rule=runs[0].meta.get("deadline_rule"),
                          deadline_parameters={key: parameters.get(key) for key in
                                               ("deadlineMean", "deadlineMinFactor",
                                                "deadlineFraction")})
    figure = deadline_figure(table, flows, float(parameters.get("deadlineFraction", math.nan)),
                             looks)
    return write_figure_set(out_dir, name, figure, table, deadline_markdown(table, document),
                            document_bytes(document))
