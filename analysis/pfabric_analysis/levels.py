"""Finite priority levels: normalised FCT against the number of levels K (runs of
pfabric-websearch/-datamining with --priorityLevels=K, K strict-priority FIFO queues per port),
one line per load, unquantised pFabric (--priorityLevels=0) as each load's reference line.

Small pure functions over the frames of runs.py and compare.py; write_levels reads and checks
every run, renders every file in memory and only then writes NAME.png/.pdf/.csv/.md/.json.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from pfabric_analysis.compare import (PANEL_TITLES, binned, bin_statistics, flow_difference,
                                      in_panel, provenance, read_runs, runs_markdown)
from pfabric_analysis.plotting import STYLE, document_bytes, new_figure, number, write_figure_set
from pfabric_analysis.runs import (BIN_NAMES, AnalysisError, Run, check_output_name,
                                   check_same_as_first, runs_pfabric_queues)

LEVELS_COLUMNS = ["load", "levels", "bin", "flows", "finished", "unfinished", "timeouts",
                  "mean", "median", "p99", "run_dir"]
# The panels: (bin, statistic); small flows' tail and every bin's mean.
PANELS = [(BIN_NAMES[0], "mean"), (BIN_NAMES[0], "p99"), (BIN_NAMES[1], "mean"),
          (BIN_NAMES[2], "mean")]
# Parameters every run of one figure must share (the levels and load are the axes).
SHARED_PARAMETERS = ["preset", "scheme", "topology", "flows", "seed", "run", "cdf", "sampling"]
LOAD_COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def levels_of(run: Run) -> int:
    """The run's priority levels K; 0 (unquantised pFabric) when meta.json has none."""
    value = run.meta["parameters"].get("priorityLevels", 0)
    if not isinstance(value, int) or value < 0:
        raise AnalysisError(f"{run.directory}: priorityLevels {value!r} is not a count")
    return value


def check_levels_runs(runs: Sequence[Run]) -> None:
    """One figure's runs: same experiment but for load and levels, one run per (load, levels),
    a pFabric or LineRate scheme, and at each load the flows of that load's first run."""
    first = runs[0].meta["parameters"]
    if not runs_pfabric_queues(runs[0].meta):
        raise AnalysisError(f"{runs[0].directory}: scheme {first.get('scheme')!r}; priority "
                            "levels need a scheme of pFabric's queues (pfabric or linerate)")
    seen: dict[tuple[float, int], Path] = {}
    by_load: dict[float, Run] = {}
    for run in runs:
        parameters = run.meta["parameters"]
        check_same_as_first(run, runs[0], SHARED_PARAMETERS)
        key = (float(parameters["load"]), levels_of(run))
        if key in seen:
            raise AnalysisError(f"{run.directory}: load {key[0]} with {key[1]} levels again "
                                f"(also {seen[key]})")
        seen[key] = run.directory
        reference = by_load.setdefault(key[0], run)
        difference = flow_difference(run, reference)
        if difference is not None:
            raise AnalysisError(f"{run.directory}: not the flows of {reference.directory}: "
                                f"{difference}")
    if all(level == 0 for _, level in seen):
        raise AnalysisError(f"{runs[0].directory}: no run with priority levels (a run of "
                            "--priorityLevels=K, K > 0, to draw against the unquantised ones)")


def levels_table(runs: Sequence[Run], kb: int = 1000) -> pd.DataFrame:
    """Per load, levels (0: unquantised) and bin (and all flows): bin_statistics of FCT / ideal
    FCT; sorted by load, levels, bin."""
    rows = []
    for run in runs:
        frame = binned(run.fct, kb)
        for panel in [*BIN_NAMES, "all"]:
            stats = bin_statistics(in_panel(frame, panel))
            rows.append({"load": float(run.meta["parameters"]["load"]), "levels": levels_of(run),
                         "bin": panel, **stats, "run_dir": str(run.directory)})
    table = pd.DataFrame(rows, columns=LEVELS_COLUMNS)
    order = {name: i for i, name in enumerate([*BIN_NAMES, "all"])}
    return (table.sort_values(["load", "levels", "bin"], key=lambda c: c.map(order)
                              if c.name == "bin" else c)
            .reset_index(drop=True))


def levels_markdown(table: pd.DataFrame, document: dict) -> str:
    """The table as markdown: a row per load and levels (unquantised pFabric first), the small
    flows' mean and p99 and the medium and large flows' means, each with its multiple of
    pFabric's at that load; the inputs last."""
    flows = document["flows_per_run"]
    lines = ["# FCT / ideal FCT against priority levels", "",
             f"{flows} flows per run: a small run, not a citable scale. K strict-priority FIFO "
             "queues per port sharing the port's buffer, priorities quantised with equal load "
             "per level (--priorityLevels=K); pFabric: unquantised priorities "
             "(--priorityLevels=0). Mean and 99th percentile (nearest rank) over finished "
             "flows; (x) the multiple of pFabric's at the same load; timeouts: the small "
             "flows' retransmission timeouts.", "",
             f"| load | levels | {' | '.join(f'{b} {s}' for b, s in PANELS)} | "
             f"{BIN_NAMES[0]} timeouts | unfinished |",
             "|---:|---|---:|---:|---:|---:|---:|---:|"]
    for (load, levels), group in table.groupby(["load", "levels"], sort=True):
        stats = group.set_index("bin")
        base = table[(table["load"] == load) & (table["levels"] == 0)].set_index("bin")
        cells = []
        for bin_name, statistic in PANELS:
            value = float(stats.loc[bin_name, statistic])
            reference = float(base.loc[bin_name, statistic]) if len(base) else math.nan
            ratio = value / reference if reference and not math.isnan(reference) else math.nan
            cells.append(number(value) + ("" if levels == 0 or math.isnan(ratio)
                                           else f" ({ratio:.2f}x)"))
        name = "pFabric" if levels == 0 else f"K = {levels}"
        lines.append(f"| {load:g} | {name} | {' | '.join(cells)} | "
                     f"{int(stats.loc[BIN_NAMES[0], 'timeouts'])} | "
                     f"{int(stats.loc['all', 'unfinished'])} |")
    return "\n".join(lines + runs_markdown(document))


def levels_figure(table: pd.DataFrame, flows: int) -> Figure:
    """A panel per (bin, statistic) of PANELS: FCT / ideal FCT against K (log2 axis), a solid
    line per load, the same load's unquantised pFabric as a dashed line of its colour."""
    quantised = table[table["levels"] > 0]
    ks = sorted(quantised["levels"].unique())
    loads = sorted(table["load"].unique())
    with matplotlib.rc_context(STYLE):
        figure = new_figure(7.2, 5.2)
        axes = figure.subplots(2, 2).ravel()
        for ax, (bin_name, statistic) in zip(axes, PANELS):
            for i, load in enumerate(loads):
                color = LOAD_COLORS[i % len(LOAD_COLORS)]
                rows = quantised[(quantised["load"] == load) & (quantised["bin"] == bin_name)]
                rows = rows.sort_values("levels")
                ax.plot(rows["levels"], rows[statistic], color=color, marker="o",
                        label=f"load {load:g}, K levels")
                base = table[(table["load"] == load) & (table["levels"] == 0)
                             & (table["bin"] == bin_name)]
                if len(base):
                    ax.axhline(float(base[statistic].iloc[0]), color=color, linestyle="--",
                               linewidth=1, label=f"load {load:g}, pFabric (unquantised)")
            panel = table[table["bin"] == bin_name][statistic]
            if ks and not panel.notna().any():
                # No flow of any run in this bin (a small run): say so. Without finite points
                # matplotlib keeps the axis's default limits, 0 to 1, which a log axis refuses.
                ax.set_xlim(ks[0] / 1.5, ks[-1] * 1.5)
                ax.text(0.5, 0.5, "no flows in this bin", transform=ax.transAxes,
                        ha="center", va="center")
            ax.set_xscale("log", base=2)
            if ks:
                ax.set_xticks(ks, [str(k) for k in ks])
            ax.set_xlabel("Priority levels K")
            ax.set_ylabel("FCT / ideal FCT")
            name = "99th percentile" if statistic == "p99" else "Mean"
            ax.set_title(f"{PANEL_TITLES[bin_name]}: {name}")
        handles, names = axes[0].get_legend_handles_labels()
        figure.legend(handles, names, loc="outside upper center", ncols=2, frameon=False)
        figure.supxlabel(f"K strict-priority FIFO queues per port, equal load per level; "
                         f"{flows} flows per run: a small run, not a citable scale", fontsize=7)
    return figure


def write_levels(directories: Sequence[Path], out_dir: Path, name: str = "levels",
                 kb: int = 1000, command: str = "",
                 versions: dict[str, str] | None = None) -> list[Path]:
    """NAME.png, NAME.pdf, NAME.csv (the table), NAME.md and NAME.json (provenance) into
    out_dir."""
    check_output_name(name)
    runs = read_runs(directories)
    check_levels_runs(runs)
    table = levels_table(runs, kb)
    flows = int(np.max([len(run.fct) for run in runs]))
    labels = [f"load {run.meta['parameters']['load']} K {levels_of(run)}" for run in runs]
    document = provenance(runs, labels, command, versions or {}, kb, flows_per_run=flows,
                          priority_thresholds_bytes={
                              label: run.meta.get("priority_thresholds_bytes")
                              for label, run in zip(labels, runs)})
    figure = levels_figure(table, flows)
    return write_figure_set(out_dir, name, figure, table, levels_markdown(table, document),
                            document_bytes(document))
