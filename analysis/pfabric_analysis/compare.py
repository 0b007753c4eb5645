"""See the difference between runs: the CDF of FCT / ideal FCT per size bin of several runs on one
figure (`cdf`), and several runs side by side as a table and a figure (`compare`).

Small pure functions over the frames of runs.py; the write_* functions read and check everything,
render every file in memory and only then touch the output directory, so that bad input leaves
nothing behind. An unfinished flow (completed = 0) is never dropped silently: a CDF counts it as a
flow that never finished (the curve stays below 1 by the unfinished share) and every legend, table
and provenance file gives the count.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from pfabric_analysis.files import write_files
from pfabric_analysis.plotting import (STYLE, document_bytes, log_axis, new_figure, number, render,
                                       scheme_looks)
from pfabric_analysis.runs import (BIN_NAMES, BIN_TITLES, CUSTOM_SCHEME_KEY, AnalysisError, Run,
                                   normalise, percentile_nearest_rank, read_run, scheme_name,
                                   scheme_parameters, size_bins)

# The panels a command can show: the size bins of runs.py and all flows, by a short name.
PANELS: dict[str, str] = {"small": BIN_NAMES[0], "medium": BIN_NAMES[1], "large": BIN_NAMES[2],
                          "all": "all"}
PANEL_TITLES = {**BIN_TITLES, "all": "All flows"}
# What makes two runs the same flows: fct.csv's flow columns, not the parameters.
FLOW_COLUMNS = ["src", "dst", "size_bytes", "start_s"]
START_TOLERANCE_S = 1e-9  # start times written by C++ and by Python agree to a nanosecond
# The meta.json parameters that identify a run in provenance and tables.
ESSENTIAL_PARAMETERS = ["preset", "topology", "scheme", "load", "flows", "seed", "run",
                        "flowFile"]
CDF_NAMES = ["cdf.png", "cdf.pdf", "cdf.csv", "cdf.json"]
COMPARE_NAMES = ["compare.png", "compare.pdf", "compare.csv", "compare.md", "compare.json"]
CDF_COLUMNS = ["label", "run_dir", "bin", "slowdown", "cdf", "flows", "unfinished"]
STATISTICS = ["mean", "median", "p99"]
COMPARE_COLUMNS = ["bin", "label", "run_dir", "scheme", "flows", "finished", "unfinished",
                   "timeouts", *STATISTICS, *(f"{s}_vs_baseline" for s in STATISTICS),
                   "baseline", "same_flows_as_baseline", "kb"]


def read_runs(directories: Sequence[Path]) -> list[Run]:
    """Read and check run directories: each a directory, none given twice."""
    seen: dict[Path, Path] = {}
    runs = []
    for directory in directories:
        if not directory.is_dir():
            raise AnalysisError(f"{directory}: not a directory")
        resolved = directory.resolve()
        if resolved in seen:
            raise AnalysisError(f"{directory}: given twice (as {seen[resolved]})")
        seen[resolved] = directory
        runs.append(read_run(directory))
    return runs


def run_labels(runs: Sequence[Run], labels: str | None) -> list[str]:
    """One distinct label per run: --labels (comma-separated) if given, else each run's scheme (a
    custom scheme's label), followed by its directory name where two runs share a scheme."""
    if labels is not None:
        names = [name.strip() for name in labels.split(",")]
        if len(names) != len(runs):
            raise AnalysisError(f"--labels: {len(names)} label(s) for {len(runs)} run(s)")
        if any(not name for name in names):
            raise AnalysisError(f"--labels {labels!r}: an empty label")
        if len(set(names)) != len(names):
            raise AnalysisError(f"--labels {labels!r}: a label given twice")
        return names
    schemes = [str(scheme_name(run.meta) or "?") for run in runs]
    names = [f"{scheme} ({run.directory.name})" if schemes.count(scheme) > 1 else scheme
             for scheme, run in zip(schemes, runs)]
    if len(set(names)) != len(names):
        raise AnalysisError("runs with the same scheme and directory name: give --labels")
    return names


def parse_bins(text: str) -> list[str]:
    """--bins: comma-separated short names (small, medium, large, all) -> bin names, in order."""
    keys = [key.strip() for key in text.split(",")]
    for key in keys:
        if key not in PANELS:
            raise AnalysisError(f"--bins: {key!r} is not one of {', '.join(PANELS)}")
    if len(set(keys)) != len(keys):
        raise AnalysisError(f"--bins {text!r}: a bin given twice")
    return [PANELS[key] for key in keys]


def binned(fct: pd.DataFrame, kb: int = 1000) -> pd.DataFrame:
    """Flows with their slowdown (FCT / ideal FCT, NaN if unfinished) and size bin."""
    frame = normalise(fct)
    frame["bin"] = size_bins(frame["size_bytes"], kb).astype(str)
    return frame


def in_panel(frame: pd.DataFrame, panel: str) -> pd.DataFrame:
    """The flows of a size bin, or all of them."""
    return frame if panel == "all" else frame[frame["bin"] == panel]


def step_cdf(slowdown: pd.Series) -> pd.DataFrame:
    """The empirical CDF of slowdowns over all flows, an unfinished one (NaN) counted as never
    finishing: each distinct finished value and the fraction of all flows at or below it, then,
    if any flow is unfinished, inf at 1. Empty for no flows."""
    total = len(slowdown)
    done = slowdown.dropna().to_numpy(dtype=float)
    values, counts = np.unique(done, return_counts=True)
    table = pd.DataFrame({"slowdown": values, "cdf": np.cumsum(counts) / total if total else []})
    if done.size < total:
        table = pd.concat([table, pd.DataFrame({"slowdown": [math.inf], "cdf": [1.0]})],
                          ignore_index=True)
    return table


def cdf_table(runs: Sequence[Run], labels: Sequence[str], panels: Sequence[str],
              kb: int = 1000) -> pd.DataFrame:
    """The plotted numbers: per run and panel the step CDF, with the panel's flows and
    unfinished flows on every row."""
    parts = []
    for run, label in zip(runs, labels):
        frame = binned(run.fct, kb)
        for panel in panels:
            flows = in_panel(frame, panel)
            steps = step_cdf(flows["slowdown"])
            steps.insert(0, "bin", panel)
            steps.insert(0, "run_dir", str(run.directory))
            steps.insert(0, "label", label)
            steps["flows"] = len(flows)
            steps["unfinished"] = int((flows["completed"] == 0).sum())
            parts.append(steps)
    return pd.concat(parts, ignore_index=True)[CDF_COLUMNS]


def panel_counts(runs: Sequence[Run], panels: Sequence[str], kb: int = 1000
                 ) -> list[dict[str, dict[str, int]]]:
    """Per run, per panel: flows and unfinished flows (also for panels without a curve)."""
    counts = []
    for run in runs:
        frame = binned(run.fct, kb)
        counts.append({panel: {"flows": len(in_panel(frame, panel)),
                               "unfinished": int((in_panel(frame, panel)["completed"] == 0).sum())}
                       for panel in panels})
    return counts


def run_styles(runs: Sequence[Run]) -> list[dict[str, str]]:
    """Colour and line style per run: the figures' look of each scheme (plotting.scheme_looks)
    when the runs' schemes are distinct and known, else matplotlib's colour cycle."""
    schemes = [scheme for scheme in map(scheme_name, (run.meta for run in runs))
               if scheme is not None]
    if len(set(schemes)) == len(runs):  # distinct and every one known
        looks = scheme_looks(schemes)
        return [{"color": looks[s]["color"], "linestyle": looks[s]["linestyle"]}
                for s in schemes]
    cycle = matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]
    return [{"color": cycle[i % len(cycle)], "linestyle": "-"} for i in range(len(runs))]


def _count_label(label: str, flows: int, unfinished: int) -> str:
    text = f"{label} ({flows:,} flows"
    return text + (f", {unfinished:,} unfinished)" if unfinished else ")")


def cdf_figure(table: pd.DataFrame, labels: Sequence[str], panels: Sequence[str],
               counts: Sequence[dict[str, dict[str, int]]], styles: Sequence[dict[str, str]]
               ) -> Figure:
    """A panel per bin: a step CDF per run against FCT / ideal FCT on a log axis, each curve
    held flat to the panel's right edge (below 1 by its unfinished flows)."""
    columns = min(len(panels), 2)
    rows = math.ceil(len(panels) / columns)
    finite = table[np.isfinite(table["slowdown"]) & (table["slowdown"] > 0)]["slowdown"]
    low, high = (finite.min(), finite.max()) if not finite.empty else (1.0, 10.0)
    left, right = low / 1.15, max(high * 1.15, low * 2)
    with matplotlib.rc_context(STYLE):
        figure = new_figure(3.6 * columns, 2.8 * rows + 0.4)
        axes = figure.subplots(rows, columns, squeeze=False).ravel()
        for ax, panel in zip(axes, panels):
            for i, label in enumerate(labels):
                steps = table[(table["label"] == label) & (table["bin"] == panel)]
                count = counts[i][panel]
                legend = _count_label(label, count["flows"], count["unfinished"])
                finished = steps[np.isfinite(steps["slowdown"])]
                if finished.empty:
                    # No finished flow: a flat line at 0 keeps the run and its counts in the legend.
                    x, y = np.array([left, right]), np.array([0.0, 0.0])
                else:
                    x = np.r_[finished["slowdown"].iloc[0], finished["slowdown"].to_numpy(), right]
                    y = np.r_[0.0, finished["cdf"].to_numpy(), finished["cdf"].iloc[-1]]
                ax.step(x, y, where="post", label=legend, **styles[i])
            log_axis(ax.xaxis)
            ax.set_xlim(left, right)
            ax.set_ylim(0, 1.02)
            ax.set_title(PANEL_TITLES[panel])
            ax.set_xlabel("FCT / ideal FCT (log scale)")
            ax.set_ylabel("Fraction of flows")
            ax.legend(loc="lower right")
        for ax in axes[len(panels):]:
            ax.set_visible(False)
        figure.suptitle("CDF of normalized flow completion time (FCT / ideal FCT); an unfinished "
                        "flow counts as never finishing", fontsize=STYLE["axes.titlesize"])
    return figure


def flow_difference(run: Run, baseline: Run) -> str | None:
    """Why run's flows are not baseline's (src, dst, size_bytes, start_s of fct.csv as a set,
    start times to a nanosecond), or None if they are the same."""
    a = baseline.fct[FLOW_COLUMNS].sort_values(["start_s", *FLOW_COLUMNS[:3]])
    b = run.fct[FLOW_COLUMNS].sort_values(["start_s", *FLOW_COLUMNS[:3]])
    if len(a) != len(b):
        return f"{len(b)} flows, {baseline.directory} has {len(a)}"
    same = ((a[FLOW_COLUMNS[:3]].to_numpy() == b[FLOW_COLUMNS[:3]].to_numpy()).all(axis=1)
            & np.isclose(a["start_s"].to_numpy(dtype=float), b["start_s"].to_numpy(dtype=float),
                         rtol=0, atol=START_TOLERANCE_S))
    if same.all():
        return None
    i = int(np.argmin(same))
    row, other = b.iloc[i], a.iloc[i]
    return (f"flow (src {row['src']}, dst {row['dst']}, {row['size_bytes']} B, start "
            f"{row['start_s']} s) where {baseline.directory} has (src {other['src']}, dst "
            f"{other['dst']}, {other['size_bytes']} B, start {other['start_s']} s)")


def check_same_flows(runs: Sequence[Run], allow_different: bool) -> list[bool]:
    """Per run: are its flows the baseline's (the first run's)? Different flows are refused,
    naming the run, unless allowed."""
    same = [True]
    for run in runs[1:]:
        difference = flow_difference(run, runs[0])
        if difference is not None and not allow_different:
            raise AnalysisError(f"{run.directory}: not the flows of {runs[0].directory}: "
                                f"{difference}; --allow-different-flows to compare anyway")
        same.append(difference is None)
    return same


def bin_statistics(frame: pd.DataFrame) -> dict[str, float | int]:
    """Flows, finished and unfinished flows, timeouts, and the mean, median and 99th percentile
    (nearest rank) of the finished flows' slowdowns."""
    done = frame["slowdown"].dropna()
    return {"flows": len(frame), "finished": int(done.size),
            "unfinished": int((frame["completed"] == 0).sum()),
            "timeouts": int(frame["timeouts"].sum()),
            "mean": float(done.mean()) if done.size else math.nan,
            "median": percentile_nearest_rank(done, 50),
            "p99": percentile_nearest_rank(done, 99)}


def _ratio(value: float, baseline: float) -> float:
    if math.isnan(value) or math.isnan(baseline) or baseline == 0:
        return math.nan
    return value / baseline


def compare_table(runs: Sequence[Run], labels: Sequence[str], same_flows: Sequence[bool],
                  kb: int = 1000) -> pd.DataFrame:
    """Per bin (and all flows), per run: bin_statistics and each statistic's ratio to the first
    run's (the baseline)."""
    frames = [binned(run.fct, kb) for run in runs]
    rows = []
    for panel in PANELS.values():
        base = bin_statistics(in_panel(frames[0], panel))
        for run, label, frame, same in zip(runs, labels, frames, same_flows):
            stats = bin_statistics(in_panel(frame, panel))
            rows.append({"bin": panel, "label": label, "run_dir": str(run.directory),
                         "scheme": scheme_name(run.meta), **stats,
                         **{f"{s}_vs_baseline": _ratio(stats[s], base[s]) for s in STATISTICS},
                         "baseline": labels[0], "same_flows_as_baseline": same, "kb": kb})
    return pd.DataFrame(rows, columns=COMPARE_COLUMNS)


def _times(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:.2f}x"


def compare_markdown(table: pd.DataFrame, provenance: dict) -> str:
    """The table as markdown: a row per bin and run, each statistic beside its ratio to the
    baseline; a warning first if the runs are not on the same flows; the inputs last."""
    baseline = table["baseline"].iloc[0]
    lines = ["# FCT / ideal FCT side by side", ""]
    differ = table.loc[~table["same_flows_as_baseline"].astype(bool), "label"].unique()
    if len(differ):
        lines += [f"**The flows differ**: {', '.join(differ)} not on the flows of the baseline "
                  f"{baseline} (src, dst, size, start of fct.csv); the ratios compare different "
                  "flows (--allow-different-flows).", ""]
    lines += [f"Over the finished flows of each run: mean, median and 99th percentile (nearest "
              f"rank) of FCT / ideal FCT, and each as a multiple of the baseline's, {baseline} "
              f"(the first run). flows: all flows of the bin; unfinished flows are in no "
              f"statistic; timeouts: retransmission timeouts of the bin's flows. KB = "
              f"{table['kb'].iloc[0]} B. n/a: no finished flow.", "",
              "| bin | run | flows | unfinished | timeouts | mean | vs base | median | vs base "
              "| p99 | vs base |",
              "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in table.itertuples():
        lines.append(f"| {row.bin} | {row.label} | {row.flows} | {row.unfinished} | "
                     f"{row.timeouts} | {number(row.mean)} | {_times(row.mean_vs_baseline)} | "
                     f"{number(row.median)} | {_times(row.median_vs_baseline)} | "
                     f"{number(row.p99)} | {_times(row.p99_vs_baseline)} |")
    return "\n".join(lines + runs_markdown(provenance))


def runs_markdown(provenance: dict) -> list[str]:
    """A markdown table's footer: the runs (label, directory, parameters, versions) and the
    command of a provenance document (provenance())."""
    lines = ["", "## Runs", ""]
    for run in provenance["runs"]:
        parameters = ", ".join(f"{key} {value}" for key, value in run["parameters"].items())
        lines.append(f"- {run['label']}: `{run['run_dir']}` ({parameters}; module "
                     f"{run['module_version']}, ns-3 {run['ns3_version']})")
    return lines + ["", f"Command: `{provenance['command']}` (pfabric-analysis "
                        f"{provenance['versions'].get('pfabric')})", ""]


def compare_figure(table: pd.DataFrame, labels: Sequence[str],
                   styles: Sequence[dict[str, str]]) -> Figure:
    """Grouped bars, mean and 99th percentile side by side: a group per bin, a bar per run
    rising from 1 (the ideal) on a log axis; n/a where a run has no finished flow there."""
    panels = list(PANELS.values())
    width = 0.8 / len(labels)
    unfinished = table[table["bin"] == "all"].set_index("label")["unfinished"]
    values = table[STATISTICS].to_numpy(dtype=float)
    finite = values[np.isfinite(values) & (values > 0)]
    low = min(1.0, finite.min()) / 1.3 if finite.size else 0.5
    high = max(2.0, finite.max()) * 1.6 if finite.size else 10.0
    with matplotlib.rc_context(STYLE):
        figure = new_figure(7.2, 3.2)
        axes = figure.subplots(1, 2)
        for ax, statistic, title in zip(axes, ("mean", "p99"),
                                        ("Mean", "99th percentile (nearest rank)")):
            for i, label in enumerate(labels):
                rows = table[table["label"] == label].set_index("bin").loc[panels]
                x = np.arange(len(panels)) + (i - (len(labels) - 1) / 2) * width
                heights = rows[statistic].to_numpy(dtype=float)
                legend = label + (f" ({unfinished[label]:,} unfinished)"
                                  if unfinished[label] else "")
                ax.bar(x, np.nan_to_num(heights - 1, nan=0.0), width, bottom=1,
                       color=styles[i]["color"], label=legend, edgecolor="white", linewidth=0.4)
                for xi, height in zip(x, heights):
                    ax.text(xi, 1.02 * max(height, 1) if not math.isnan(height) else 1.02,
                            "n/a" if math.isnan(height) else f"{height:.2f}", ha="center",
                            va="bottom", fontsize=5.5, rotation=90)
            log_axis(ax.yaxis)
            ax.set_ylim(low, high)
            ax.axhline(1, color="black", linewidth=0.6)
            ax.set_xticks(np.arange(len(panels)),
                          [PANEL_TITLES[p].replace(", ", ",\n").replace("All ", "All\n")
                           for p in panels])
            ax.set_title(title)
            ax.set_xlabel("Flow size")
            ax.set_ylabel("FCT / ideal FCT (log scale)")
            ax.grid(axis="x", visible=False)
        handles, names = axes[0].get_legend_handles_labels()
        figure.legend(handles, names, loc="outside upper center", ncols=min(len(names), 4),
                      frameon=False)
        if not table["same_flows_as_baseline"].all():
            figure.suptitle("The runs' flows differ: the ratios compare different flows",
                            fontsize=STYLE["axes.titlesize"], color="#b00000")
    return figure


def provenance(runs: Sequence[Run], labels: Sequence[str], command: str,
               versions: dict[str, str], kb: int, **extra: object) -> dict:
    """Inputs (directory, label, meta.json essentials: a custom scheme's parameters and parts
    among them), the command and the package versions."""
    entries = []
    for run, label in zip(runs, labels):
        parameters = run.meta["parameters"]
        own = sorted(scheme_parameters(run.meta) - set(ESSENTIAL_PARAMETERS))
        entry = {"label": label, "run_dir": str(run.directory),
                 "program": run.meta.get("program"), "workload": run.meta.get("workload"),
                 "parameters": {key: parameters[key] for key in ESSENTIAL_PARAMETERS + own
                                if key in parameters},
                 "module_version": run.meta.get("module_version"),
                 "ns3_version": run.meta.get("ns3_version"),
                 "git_commit": run.meta.get("git_commit")}
        if CUSTOM_SCHEME_KEY in run.meta:
            entry[CUSTOM_SCHEME_KEY] = run.meta[CUSTOM_SCHEME_KEY]
        entries.append(entry)
    return {"command": command, "versions": versions, "kb": kb, "runs": entries, **extra}


def write_cdf(directories: Sequence[Path], out_dir: Path, labels: str | None = None,
              bins: str = "small,medium,large,all", kb: int = 1000, command: str = "",
              versions: dict[str, str] | None = None) -> list[Path]:
    """cdf.png, cdf.pdf, cdf.csv (the step CDFs) and cdf.json (provenance) into out_dir."""
    panels = parse_bins(bins)
    runs = read_runs(directories)
    names = run_labels(runs, labels)
    table = cdf_table(runs, names, panels, kb)
    counts = panel_counts(runs, panels, kb)
    figure = cdf_figure(table, names, panels, counts, run_styles(runs))
    same = [True] + [flow_difference(run, runs[0]) is None for run in runs[1:]]
    document = provenance(runs, names, command, versions or {}, kb, bins=panels,
                          counts={name: count for name, count in zip(names, counts)},
                          same_flows_as_first=dict(zip(names, same)))
    outputs = {"cdf.png": render(figure, "png"), "cdf.pdf": render(figure, "pdf"),
               "cdf.csv": table.to_csv(index=False).encode(), "cdf.json": document_bytes(document)}
    return write_files(out_dir, outputs, owned_names=CDF_NAMES)


def write_compare(directories: Sequence[Path], out_dir: Path, labels: str | None = None,
                  allow_different_flows: bool = False, kb: int = 1000, command: str = "",
                  versions: dict[str, str] | None = None) -> list[Path]:
    """compare.csv, compare.md, compare.png, compare.pdf and compare.json into out_dir."""
    runs = read_runs(directories)
    names = run_labels(runs, labels)
    same = check_same_flows(runs, allow_different_flows)
    table = compare_table(runs, names, same, kb)
    document = provenance(runs, names, command, versions or {}, kb, baseline=names[0],
                          same_flows_as_baseline=dict(zip(names, same)))
    figure = compare_figure(table, names, run_styles(runs))
    outputs = {"compare.png": render(figure, "png"), "compare.pdf": render(figure, "pdf"),
               "compare.csv": table.to_csv(index=False).encode(),
               "compare.md": compare_markdown(table, document).encode(),
               "compare.json": document_bytes(document)}
    return write_files(out_dir, outputs, owned_names=COMPARE_NAMES)
