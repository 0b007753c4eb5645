"""Traffic classes: normalised FCT per class (runs of pfabric-classes: web search as class 0 and
data mining as class 1 on one fabric, every port serving the classes by --classes, strict or DRR
with --classWeights, or both in one pFabric queue, --classes=none), one bar per class setting.

Small pure functions over the frames of runs.py and compare.py; write_classes reads and checks
every run, renders every file in memory and only then writes NAME.png/.pdf/.csv/.md/.json.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from pfabric_analysis.compare import (PANEL_TITLES, binned, bin_statistics, flow_difference,
                                      in_panel, provenance, read_runs, runs_markdown)
from pfabric_analysis.plotting import (STYLE, document_bytes, log_axis, new_figure, number,
                                       write_figure_set)
from pfabric_analysis.runs import (BIN_NAMES, AnalysisError, Run, check_output_name,
                                   check_same_as_first, fct_file)

CLASS_COLUMN = "traffic_class"
CLASS_NAMES = {0: "web search (class 0)", 1: "data mining (class 1)"}
CLASSES_COLUMNS = ["setting", "classes", "class_weights", "traffic_class", "bin", "flows",
                   "finished", "unfinished", "timeouts", "mean", "median", "p99", "run_dir"]
# Parameters every run of one figure must share (the class setting is the axis).
SHARED_PARAMETERS = ["preset", "scheme", "topology", "classLoads", "flows", "seed", "run",
                     "sampling"]
SETTING_COLORS = ["#7f7f7f", "#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
PANELS_BINS = [*BIN_NAMES, "all"]
# --classWeights and --classLoads as the program takes them: two positive whole numbers of at
# most six digits (PfabricClassQueueDisc::ParseWeights), two loads of digits and a point
# (PfabricClassFeature::ParseClassLoads), each above 0, summing to less than 1.
WEIGHT_DIGITS = 6
LOADS_TEXT = re.compile(r"([0-9]+\.?[0-9]*|\.[0-9]+),([0-9]+\.?[0-9]*|\.[0-9]+)")


def setting_of(run: Run) -> str:
    """The run's policy between classes as a label: "one queue" (--classes=none), "strict", or
    "DRR w0:w1"."""
    parameters = run.meta["parameters"]
    classes = parameters.get("classes")
    if classes == "none":
        return "one queue"
    if classes == "strict":
        return "strict"
    if classes == "drr":
        return "DRR " + str(parameters.get("classWeights", "")).replace(",", ":")
    raise AnalysisError(f"{run.directory}: classes {classes!r}; not a pfabric-classes run")


def takes_weights(text: object) -> bool:
    """Whether --classWeights takes this text: two positive whole numbers, comma separated,
    of at most WEIGHT_DIGITS digits each."""
    return (isinstance(text, str) and re.fullmatch(r"[0-9]+,[0-9]+", text) is not None
            and all(len(item) <= WEIGHT_DIGITS and int(item) > 0 for item in text.split(",")))


def takes_loads(text: object) -> bool:
    """Whether --classLoads takes this text: two loads above 0 summing to less than 1."""
    match = LOADS_TEXT.fullmatch(text) if isinstance(text, str) else None
    loads = [float(load) for load in match.groups()] if match else []
    return bool(loads) and min(loads) > 0 and sum(loads) < 1


def check_class_record(meta: dict, fct: pd.DataFrame, fct_path: Path, meta_path: Path) -> None:
    """Refuse a pfabric-classes meta.json the program cannot write or its fct.csv contradicts
    (the twelfth probe): classWeights or classLoads its options refuse, a class_scheduler other
    than parameters.classes, class_flows other than fct.csv's flows of each class. A value not
    recorded is not checked, nor class_flows of a run with a window."""
    parameters = meta["parameters"]
    for key, takes, expected in (
            ("classWeights", takes_weights, "two positive whole numbers such as 3,1"),
            ("classLoads", takes_loads, "two loads above 0 summing to less than 1")):
        if key in parameters and not takes(parameters[key]):
            raise AnalysisError(f"{meta_path}: parameters.{key} {parameters[key]!r} is not "
                                f"{expected}")
    if "class_scheduler" in meta and meta["class_scheduler"] != parameters.get("classes"):
        raise AnalysisError(f"{meta_path}: class_scheduler {meta['class_scheduler']!r} is not "
                            f"parameters.classes {parameters.get('classes')!r}; not the record "
                            "of one run")
    counts = [int((fct[CLASS_COLUMN] == c).sum()) for c in sorted(CLASS_NAMES)]
    if ("class_flows" in meta and not isinstance(meta.get("window"), dict)
            and meta["class_flows"] != counts):
        raise AnalysisError(f"{meta_path}: class_flows is {meta['class_flows']!r}, but "
                            f"{fct_path} has {counts}; not the files of one run")


def check_classes_runs(runs: Sequence[Run]) -> None:
    """One figure's runs: pfabric-classes runs with a traffic_class column, the same experiment
    but for the class setting, one run per setting, all on the first run's flows and classes."""
    first = runs[0]
    seen: dict[str, Path] = {}
    for run in runs:
        if run.meta.get("workload") != "classes" or CLASS_COLUMN not in run.fct.columns:
            raise AnalysisError(f"{run.directory}: not a pfabric-classes run (workload "
                                f"{run.meta.get('workload')!r}, no {CLASS_COLUMN} column?)")
        if not set(run.fct[CLASS_COLUMN].unique()) <= set(CLASS_NAMES):
            raise AnalysisError(f"{run.directory}/fct.csv: {CLASS_COLUMN} must be 0 or 1")
        check_class_record(run.meta, run.fct, fct_file(run.directory), run.directory / "meta.json")
        check_same_as_first(run, first, SHARED_PARAMETERS)
        setting = setting_of(run)
        if setting in seen:
            raise AnalysisError(f"{run.directory}: setting {setting} again (also {seen[setting]})")
        seen[setting] = run.directory
        difference = flow_difference(run, first)
        if difference is not None:
            raise AnalysisError(f"{run.directory}: not the flows of {first.directory}: "
                                f"{difference}")
        a = first.fct.sort_values("flow_id")[CLASS_COLUMN].to_numpy()
        b = run.fct.sort_values("flow_id")[CLASS_COLUMN].to_numpy()
        if not np.array_equal(a, b):
            raise AnalysisError(f"{run.directory}: flow classes differ from {first.directory}")


def classes_table(runs: Sequence[Run], kb: int = 1000) -> pd.DataFrame:
    """Per setting (in the order given), class and bin (and all flows of the class):
    bin_statistics of FCT / ideal FCT."""
    rows = []
    for run in runs:
        frame = binned(run.fct, kb)
        parameters = run.meta["parameters"]
        for traffic_class in sorted(CLASS_NAMES):
            of_class = frame[frame[CLASS_COLUMN] == traffic_class]
            for panel in PANELS_BINS:
                rows.append({"setting": setting_of(run), "classes": parameters.get("classes"),
                             "class_weights": parameters.get("classWeights"),
                             "traffic_class": traffic_class, "bin": panel,
                             **bin_statistics(in_panel(of_class, panel)),
                             "run_dir": str(run.directory)})
    return pd.DataFrame(rows, columns=CLASSES_COLUMNS)


def classes_markdown(table: pd.DataFrame, document: dict) -> str:
    """A table per class: a row per setting, each bin's flows, mean and p99, with the multiple
    of the one-queue reference's where there is one; the inputs last."""
    flows = document["flows_per_class"]
    lines = ["# FCT / ideal FCT per traffic class", "",
             f"Web search (class 0) {flows[0]} flows and data mining (class 1) {flows[1]} "
             "flows per run, on the same flows in every run: a small run, not a citable scale. "
             "Between classes: strict priority (class 0 first) or DRR with the given weights; "
             "within each class a pFabric queue of its own; one queue: both classes in one "
             "pFabric queue per port (the reference). Mean and 99th percentile (nearest rank) "
             "over finished flows; (x) the multiple of the one-queue run's.", ""]
    settings = list(dict.fromkeys(table["setting"]))
    for traffic_class in sorted(CLASS_NAMES):
        lines += [f"## {CLASS_NAMES[traffic_class].capitalize()}", "",
                  "| setting | " + " | ".join(f"{b} mean | {b} p99" for b in PANELS_BINS)
                  + " | flows | unfinished |",
                  "|---|" + "---:|" * (2 * len(PANELS_BINS) + 2)]
        of_class = table[table["traffic_class"] == traffic_class]
        base = of_class[of_class["setting"] == "one queue"].set_index("bin")
        for setting in settings:
            stats = of_class[of_class["setting"] == setting].set_index("bin")
            cells = []
            for panel in PANELS_BINS:
                for statistic in ("mean", "p99"):
                    value = float(stats.loc[panel, statistic])
                    reference = (float(base.loc[panel, statistic]) if len(base) else math.nan)
                    ratio = (value / reference if reference and not math.isnan(reference)
                             else math.nan)
                    cells.append(number(value) + ("" if setting == "one queue"
                                                   or math.isnan(ratio) else f" ({ratio:.2f}x)"))
            lines.append(f"| {setting} | {' | '.join(cells)} | {int(stats.loc['all', 'flows'])} "
                         f"| {int(stats.loc['all', 'unfinished'])} |")
        lines.append("")
    return "\n".join(lines + runs_markdown(document))


def classes_figure(table: pd.DataFrame, flows: Sequence[int]) -> Figure:
    """A row per class, mean and 99th percentile side by side: FCT / ideal FCT per size bin (and
    all flows of the class), a bar per setting on a log axis; unfinished flows in the legend."""
    settings = list(dict.fromkeys(table["setting"]))
    width = 0.8 / max(len(settings), 1)
    with matplotlib.rc_context(STYLE):
        figure = new_figure(7.2, 5.6)
        axes = figure.subplots(2, 2)
        for row, traffic_class in enumerate(sorted(CLASS_NAMES)):
            of_class = table[table["traffic_class"] == traffic_class]
            for column, statistic in enumerate(("mean", "p99")):
                ax = axes[row][column]
                for i, setting in enumerate(settings):
                    stats = of_class[of_class["setting"] == setting].set_index("bin")
                    values = [float(stats.loc[b, statistic]) for b in PANELS_BINS]
                    unfinished = int(stats.loc["all", "unfinished"])
                    label = setting + (f" ({unfinished} unfinished)" if unfinished else "")
                    x = np.arange(len(PANELS_BINS)) + (i - (len(settings) - 1) / 2) * width
                    ax.bar(x, values, width, color=SETTING_COLORS[i % len(SETTING_COLORS)],
                           label=label if row == 0 and column == 0 else None)
                log_axis(ax.yaxis)
                ax.set_xticks(np.arange(len(PANELS_BINS)), [PANEL_TITLES[b] for b in PANELS_BINS],
                              fontsize=6)
                ax.set_ylabel("FCT / ideal FCT")
                name = "99th percentile" if statistic == "p99" else "Mean"
                ax.set_title(f"{CLASS_NAMES[traffic_class].capitalize()}: {name}")
        handles, names = axes[0][0].get_legend_handles_labels()
        figure.legend(handles, names, loc="outside upper center", ncols=min(len(settings), 5),
                      frameon=False)
        figure.supxlabel("Between classes: one pFabric queue for both (reference), strict "
                         "priority (web search first) or DRR with weights w0:w1; within a class "
                         f"pFabric.\n{flows[0]} web search + {flows[1]} data mining flows per "
                         "run, the same flows in every run: a small run, not a citable scale",
                         fontsize=7)
    return figure


def write_classes(directories: Sequence[Path], out_dir: Path, name: str = "classes",
                  kb: int = 1000, command: str = "",
                  versions: dict[str, str] | None = None) -> list[Path]:
    """NAME.png, NAME.pdf, NAME.csv (the table), NAME.md and NAME.json (provenance) into
    out_dir."""
    check_output_name(name)
    runs = read_runs(directories)
    check_classes_runs(runs)
    table = classes_table(runs, kb)
    fct = runs[0].fct
    flows = [int((fct[CLASS_COLUMN] == c).sum()) for c in sorted(CLASS_NAMES)]
    labels = [setting_of(run) for run in runs]
    document = provenance(runs, labels, command, versions or {}, kb, flows_per_class=flows,
                          class_parameters={
                              label: {key: run.meta["parameters"].get(key) for key in
                                      ("classes", "classWeights", "classLoads")}
                              for label, run in zip(labels, runs)},
                          class_buffer={label: run.meta.get("class_buffer")
                                        for label, run in zip(labels, runs)})
    figure = classes_figure(table, flows)
    return write_figure_set(out_dir, name, figure, table, classes_markdown(table, document),
                            document_bytes(document))
