"""Incast: query completion time (QCT) against its ideal, against the number of workers N (runs
of pfabric-incast), a line per scheme, a column of panels per background load.

A run directory of pfabric-incast holds queries.csv (one line per query: qct_s, ideal_qct_s,
timeouts, ...) and meta.json (parameters, and an "incast" object: workers, response_bytes,
background_load, ...). Small pure functions over their frames; write_incast reads and checks
every run, renders every file in memory and only then writes NAME.png/.pdf/.csv/.md/.json.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, NullFormatter

from pfabric_analysis.plotting import (STYLE, document_bytes, new_figure, number, scheme_looks,
                                       write_figure_set)
from pfabric_analysis.runs import (AnalysisError, check_measurement,
                                   check_output_name, check_same_as_first, check_values,
                                   first_beyond_rounding, percentile_nearest_rank, read_fct_csv,
                                   read_json, read_rows_csv, scheme_name, written_row)

QUERY_COLUMNS = ["query_id", "workers", "response_bytes", "start_s", "qct_s", "ideal_qct_s",
                 "timeouts", "responses_with_timeouts", "responses_completed", "first_flow_id",
                 "overlaps_previous"]
INCAST_COLUMNS = ["background", "scheme", "workers", "response_bytes", "queries", "finished",
                  "unfinished", "overlapping", "ideal_qct_us", "mean", "p99", "max",
                  "timeouts_per_query", "responses_with_timeouts_per_query", "run_dir"]
# The panels' rows: (column of INCAST_COLUMNS, axis label).
ROWS = [("mean", "Mean QCT / ideal QCT"), ("p99", "99th pct. QCT / ideal QCT"),
        ("timeouts_per_query", "Timeouts per query")]
# Parameters every run of one figure must share (the scheme, workers and background are the
# figure's axes; out is where each run went).
SHARED_PARAMETERS = ["preset", "topology", "k", "leaves", "spines", "hostsPerLeaf", "hosts",
                     "lb", "buffer", "rto", "seed", "run"]
SHARED_INCAST = ["response_bytes", "queries", "aggregator"]
PLAIN = FuncFormatter(lambda value, _: f"{value:g}")


@dataclass
class IncastRun:
    """One run directory of pfabric-incast."""

    directory: Path
    queries: pd.DataFrame
    meta: dict


def _whole(values: pd.Series) -> pd.Series:
    return np.isfinite(values) & (values >= 0) & (values == np.floor(values))


def _positive(values: pd.Series) -> pd.Series:
    return np.isfinite(values) & (values > 0)


def _of_workers(values: pd.Series, frame: pd.DataFrame) -> pd.Series:
    return _whole(values) & (values <= frame["workers"])


# What each value of queries.csv must be, in runs.VALUE_RULES' form (issue 54's ninth probe: a
# truncated row and a query of 0 workers were averaged).
QUERY_RULES = (
    ("query_id", "a whole number", lambda v, f: _whole(v)),
    ("workers", "a positive whole number", lambda v, f: _whole(v) & (v > 0)),
    ("response_bytes", "a positive whole number", lambda v, f: _whole(v) & (v > 0)),
    ("start_s", "a time of at least 0", lambda v, f: np.isfinite(v) & (v >= 0)),
    ("qct_s", "a positive time (empty only for a query not completed)",
     lambda v, f: _positive(v) | v.isna()),
    ("ideal_qct_s", "a positive time", lambda v, f: _positive(v)),
    ("timeouts", "a whole number", lambda v, f: _whole(v)),
    ("responses_with_timeouts", "a whole number of at most the query's workers", _of_workers),
    ("responses_completed", "a whole number of at most the query's workers", _of_workers),
    ("first_flow_id", "a whole number", lambda v, f: _whole(v)),
    ("overlaps_previous", "0 or 1", lambda v, f: v.isin([0, 1])),
)
# meta.json's incast object: each number and what it must be.
META_RULES = {"workers": ("a positive whole number", lambda x: x >= 1 and x == int(x)),
              "response_bytes": ("a positive whole number", lambda x: x >= 1 and x == int(x)),
              "queries": ("a positive whole number", lambda x: x >= 1 and x == int(x)),
              "background_load": ("a load of at least 0 and below 1", lambda x: 0 <= x < 1)}


def check_incast_meta(meta: dict, meta_path: Path) -> None:
    """Refuse meta.json's incast object with a number outside META_RULES, or an aggregator that
    is no host of the run (the tenth probe: 9 of 4 hosts was taken), in one line."""
    incast = meta["incast"]
    hosts = meta.get("hosts")
    rules = dict(META_RULES)
    if "ideal_qct_s" in incast:  # recorded by the programs (older runs' may not have it)
        rules["ideal_qct_s"] = ("a positive time", lambda x: x > 0)
    if isinstance(hosts, int) and not isinstance(hosts, bool):
        rules["aggregator"] = (f"a host, a whole number below the run's {hosts} hosts",
                               lambda x: 0 <= x < hosts and x == int(x))
    for key, (expected, rule) in rules.items():
        value = incast.get(key)
        number = isinstance(value, (int, float)) and not isinstance(value, bool) \
            and math.isfinite(value)
        if not number or not rule(value):
            raise AnalysisError(f"{meta_path}: incast.{key} {value!r} is not {expected}")


# How far a query's ideal_qct_s may be from meta.json's incast.ideal_qct_s, in whole nanoseconds:
# the program computes one ideal for every query and prints each row's rounded to one.
IDEAL_QCT_ROUNDING_NS = 1


def check_queries_against_meta(queries: pd.DataFrame, incast: dict, queries_path: Path,
                               meta_path: Path) -> None:
    """Refuse a queries.csv that is not the run meta.json describes: another count of queries,
    another number of workers, response size or ideal QCT (beyond IDEAL_QCT_ROUNDING_NS) on a
    line, a QCT below its ideal beyond the times' rounding. One line naming the file and
    line."""
    if len(queries) != incast["queries"]:
        raise AnalysisError(f"{queries_path}: {len(queries)} queries, and {meta_path} says "
                            f"{incast['queries']}")
    # Each query once, in order (the tenth probe: a repeated query_id was taken).
    other = np.flatnonzero((queries["query_id"] != np.arange(len(queries))).to_numpy())
    if other.size:
        written = written_row(queries_path, int(other[0]), QUERY_COLUMNS)
        raise AnalysisError(f"{queries_path}:{int(other[0]) + 2}: query_id "
                            f"{written['query_id']!r}, and the queries are numbered from 0 in "
                            "their order, each once")
    for column in ("workers", "response_bytes"):
        other = np.flatnonzero((queries[column] != incast[column]).to_numpy())
        if other.size:
            written = written_row(queries_path, int(other[0]), QUERY_COLUMNS)
            raise AnalysisError(f"{queries_path}:{int(other[0]) + 2}: {column} "
                                f"{written[column]!r}, and {meta_path} says {incast[column]}")
    # Every query's ideal is the run's one (the twelfth probe: a row's and meta.json's changed
    # were taken, and the row's averaged).
    if "ideal_qct_s" in incast:
        off_ns = np.round((queries["ideal_qct_s"] - incast["ideal_qct_s"]).abs() * 1e9)
        other = np.flatnonzero((off_ns > IDEAL_QCT_ROUNDING_NS).to_numpy())
        if other.size:
            written = written_row(queries_path, int(other[0]), QUERY_COLUMNS)
            raise AnalysisError(f"{queries_path}:{int(other[0]) + 2}: ideal_qct_s "
                                f"{written['ideal_qct_s']!r}, and {meta_path} says "
                                f"incast.ideal_qct_s {incast['ideal_qct_s']!r}, every query's")
    below = first_beyond_rounding(queries["ideal_qct_s"], queries["qct_s"])
    if below is not None:
        written = written_row(queries_path, below, QUERY_COLUMNS)
        raise AnalysisError(f"{queries_path}:{below + 2}: qct_s {written['qct_s']!r} is below "
                            f"its ideal_qct_s {written['ideal_qct_s']!r} beyond the times' "
                            "rounding; no query completes faster than on an idle fabric")


# How far a query's recorded start and QCT may be from its responses' in fct.csv, in whole
# nanoseconds: each time is printed rounded to one, and a QCT is a difference of two of them.
RESPONSE_ROUNDING_NS = 2


def response_rows(queries: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Each query's responses: the flow ids first_flow_id to first_flow_id + workers - 1, with
    the row of their query."""
    workers = queries["workers"].to_numpy(dtype=np.int64)
    query_row = np.repeat(np.arange(len(queries)), workers)
    first = queries["first_flow_id"].to_numpy(dtype=np.int64)[query_row]
    offset = np.arange(len(query_row)) - np.repeat(np.cumsum(workers) - workers, workers)
    return first + offset, query_row


def check_responses(queries: pd.DataFrame, fct: pd.DataFrame, aggregator: int,
                    queries_path: Path, fct_path: Path) -> None:
    """Refuse a queries.csv its responses in fct.csv contradict (the tenth probe, G12: a response
    slower than its query was taken). A query's responses are its workers' flows from its
    first_flow_id on, of its response_bytes each, to the aggregator, started at its start; its
    responses_completed, timeouts and responses_with_timeouts are theirs, and its qct_s (empty
    unless every response completed) their last completion less its start, within
    RESPONSE_ROUNDING_NS. One line naming queries.csv's line."""
    ids, query_row = response_rows(queries)
    by_id = fct.set_index("flow_id")
    missing = ~np.isin(ids, by_id.index.to_numpy())
    if missing.any():
        row = int(query_row[np.flatnonzero(missing)[0]])
        raise AnalysisError(f"{queries_path}:{row + 2}: its response flow "
                            f"{int(ids[np.flatnonzero(missing)[0]])} is not in {fct_path}")
    responses = by_id.loc[ids].assign(query=query_row)
    of_query = queries.iloc[query_row].reset_index(drop=True)
    responses = responses.reset_index()
    late_ns = np.round((responses["start_s"] - of_query["start_s"]).abs() * 1e9)
    size = of_query["response_bytes"]
    wrong = ((responses["dst"] != aggregator) | (responses["size_bytes"] != size)
             | (late_ns > RESPONSE_ROUNDING_NS)).to_numpy()
    if wrong.any():
        first = int(np.flatnonzero(wrong)[0])
        raise AnalysisError(f"{queries_path}:{int(query_row[first]) + 2}: its response flow "
                            f"{int(ids[first])} in {fct_path} is not {size[first]} B to the "
                            f"aggregator {aggregator} from the query's start")
    completed = responses["completed"] == 1
    per_query = pd.DataFrame({
        "responses_completed": completed.groupby(responses["query"]).sum(),
        "timeouts": responses["timeouts"].groupby(responses["query"]).sum(),
        "responses_with_timeouts": (responses["timeouts"] > 0).groupby(responses["query"]).sum(),
        "last_end_s": (responses["start_s"] + responses["fct_s"]).where(completed)
        .groupby(responses["query"]).max()})
    for column in ("responses_completed", "timeouts", "responses_with_timeouts"):
        other = np.flatnonzero(per_query[column].to_numpy() != queries[column].to_numpy())
        if other.size:
            row = int(other[0])
            written = written_row(queries_path, row, QUERY_COLUMNS)[column]
            raise AnalysisError(f"{queries_path}:{row + 2}: {column} {written!r}, and its "
                                f"responses in {fct_path} have "
                                f"{int(per_query[column].iloc[row])}")
    every = (queries["responses_completed"] == queries["workers"]).to_numpy()
    qct = queries["qct_s"].to_numpy(dtype=float)
    theirs = (per_query["last_end_s"].to_numpy(dtype=float)
              - queries["start_s"].to_numpy(dtype=float))
    off = np.where(every, np.round(np.abs(qct - theirs) * 1e9) > RESPONSE_ROUNDING_NS,
                   ~np.isnan(qct))
    if off.any():
        row = int(np.flatnonzero(off)[0])
        expected = (f"{theirs[row]:.9f} s" if every[row]
                    else "empty (not every response completed)")
        raise AnalysisError(f"{queries_path}:{row + 2}: qct_s "
                            f"{written_row(queries_path, row, QUERY_COLUMNS)['qct_s']!r}, and "
                            f"its responses in {fct_path} make it {expected}")


# How far the previous query's end (its start_s + qct_s, each printed rounded to a nanosecond)
# may be from a query's start_s, in whole nanoseconds, for either overlaps_previous to be taken.
OVERLAP_ROUNDING_NS = 2


def check_overlaps(queries: pd.DataFrame, queries_path: Path) -> None:
    """Refuse a query whose overlaps_previous is not what the times say, as the program sets it:
    1 where the previous query did not complete or completed (start_s + qct_s) after this one's
    start_s, 0 where it completed before, and 0 for the first query; either within
    OVERLAP_ROUNDING_NS (the twelfth probe: a 1 after a finished query was counted). One line
    naming the file and line."""
    start = queries["start_s"].to_numpy(dtype=float)
    end = (queries["start_s"] + queries["qct_s"]).to_numpy(dtype=float)
    previous = np.concatenate([[-math.inf], end[:-1]])
    unfinished = np.isnan(previous)
    late_ns = np.round((previous - start) * 1e9)
    must = unfinished | (late_ns > OVERLAP_ROUNDING_NS)
    may = unfinished | (late_ns >= -OVERLAP_ROUNDING_NS)
    flag = (queries["overlaps_previous"] == 1).to_numpy()
    wrong = np.flatnonzero((flag & ~may) | (~flag & must))
    if not wrong.size:
        return
    row = int(wrong[0])
    written = written_row(queries_path, row, QUERY_COLUMNS)
    why = ("it is the first query" if row == 0 else
           "the previous query did not complete" if unfinished[row] else
           f"the previous query completed at {previous[row]:.9f} s, "
           f"{'after' if must[row] else 'before'} its start_s {written['start_s']!r}")
    raise AnalysisError(f"{queries_path}:{row + 2}: overlaps_previous "
                        f"{written['overlaps_previous']!r}, but {why}")


def read_incast_run(directory: Path) -> IncastRun:
    """Read and check a run directory of pfabric-incast: every value of queries.csv
    (QUERY_RULES), meta.json's incast numbers (META_RULES), and the two against each other."""
    queries_path = directory / "queries.csv"
    meta_path = directory / "meta.json"
    fct_path = directory / "fct.csv"
    for path in (queries_path, meta_path, fct_path):
        if not path.is_file():
            raise AnalysisError(f"{path}: missing")
    meta = read_json(meta_path)
    if not isinstance(meta, dict) or not isinstance(meta.get("incast"), dict) \
            or not isinstance(meta.get("parameters"), dict):
        raise AnalysisError(f"{meta_path}: not a pfabric-incast run (no 'incast' object)")
    queries = read_rows_csv(queries_path, QUERY_COLUMNS)
    if queries.empty:
        raise AnalysisError(f"{queries_path}: no queries")
    check_values(queries, queries_path, QUERY_RULES, QUERY_COLUMNS)
    queries = queries.apply(pd.to_numeric)
    check_incast_meta(meta, meta_path)
    check_queries_against_meta(queries, meta["incast"], queries_path, meta_path)
    check_overlaps(queries, queries_path)
    fct = read_fct_csv(fct_path)
    check_values(fct, fct_path)
    fct = fct.apply(pd.to_numeric)
    check_measurement(fct, fct_path)
    check_responses(queries, fct, int(meta["incast"]["aggregator"]), queries_path, fct_path)
    return IncastRun(directory, queries, meta)


def query_statistics(queries: pd.DataFrame) -> dict[str, float | int]:
    """Over one run's queries: QCT / ideal QCT of the finished ones (mean, 99th percentile by
    nearest rank, max), unfinished and overlapping queries, timeouts and responses with a
    timeout per query (over every query)."""
    finished = queries[queries["qct_s"].notna()]
    ratio = finished["qct_s"] / finished["ideal_qct_s"]
    count = len(queries)
    return {"queries": count, "finished": len(finished), "unfinished": count - len(finished),
            "overlapping": int(queries["overlaps_previous"].sum()),
            "ideal_qct_us": float(queries["ideal_qct_s"].iloc[0]) * 1e6,
            "mean": float(ratio.mean()) if len(ratio) else math.nan,
            "p99": percentile_nearest_rank(ratio, 99),
            "max": float(ratio.max()) if len(ratio) else math.nan,
            "timeouts_per_query": float(queries["timeouts"].sum()) / count,
            "responses_with_timeouts_per_query":
                float(queries["responses_with_timeouts"].sum()) / count}


def check_incast_runs(runs: Sequence[IncastRun]) -> None:
    """One figure's runs: the same fabric, response size and query count, one run per
    (background, scheme, workers)."""
    first = runs[0]
    seen: dict[tuple[float, str, int], Path] = {}
    for run in runs:
        check_same_as_first(run, first, SHARED_PARAMETERS)
        check_same_as_first(run, first, SHARED_INCAST, section="incast", what="")
        key = run_key(run)
        if key in seen:
            raise AnalysisError(f"{run.directory}: background {key[0]:g}, {key[1]}, "
                                f"{key[2]} workers again (also {seen[key]})")
        seen[key] = run.directory


def run_key(run: IncastRun) -> tuple[float, str, int]:
    """(background load, scheme (a custom scheme's label), workers) of a run."""
    return (float(run.meta["incast"]["background_load"]), str(scheme_name(run.meta)),
            int(run.meta["incast"]["workers"]))


def incast_table(runs: Sequence[IncastRun]) -> pd.DataFrame:
    """A row per run: its key and query_statistics; sorted by background, scheme (the paper's
    order, then custom labels: plotting.scheme_looks), workers."""
    rows = []
    for run in runs:
        background, scheme, workers = run_key(run)
        rows.append({"background": background, "scheme": scheme, "workers": workers,
                     "response_bytes": int(run.meta["incast"]["response_bytes"]),
                     **query_statistics(run.queries), "run_dir": str(run.directory)})
    table = pd.DataFrame(rows, columns=INCAST_COLUMNS)
    order = {name: i for i, name in enumerate(scheme_looks(table["scheme"]))}
    return (table.sort_values(["background", "scheme", "workers"],
                              key=lambda c: c.map(order) if c.name == "scheme" else c)
            .reset_index(drop=True))


def _background_title(background: float) -> str:
    return "No background" if background == 0 else f"Web search background, load {background:g}"


def incast_markdown(table: pd.DataFrame, document: dict) -> str:
    """The table as markdown: per background, a row per N, per scheme mean / p99 of QCT / ideal
    and timeouts per query; the inputs last."""
    looks = scheme_looks(table["scheme"])
    queries = document["queries_per_run"]
    lines = ["# Incast: query completion time / ideal against workers N", "",
             f"{queries} queries per run, {document['response_bytes']} B per response: a small "
             "run, not a citable scale. QCT: from the query's start (its responses handed to "
             "their sockets together) to the last response's last byte acknowledged; ideal: "
             "every response byte through the aggregator's host link at line rate after the "
             "fastest worker's idle path (PfabricFabricHelper::GetIdealIncastTime). Cells: mean "
             "/ 99th percentile (nearest rank, so the slowest of 20 queries) of QCT / ideal over "
             "finished queries; timeouts of the query's responses per query.", ""]
    header = "| N | ideal QCT (us) | " + " | ".join(
        f"{look['label']} mean / p99 | timeouts" for look in looks.values()) + " |"
    for background, group in table.groupby("background", sort=True):
        lines += [f"## {_background_title(background)}", "", header,
                  "|---:|---:|" + "---:|---:|" * len(looks)]
        for workers, row in group.groupby("workers", sort=True):
            by_scheme = row.set_index("scheme")
            cells = [str(workers), f"{float(row['ideal_qct_us'].iloc[0]):.1f}"]
            for scheme in looks:
                if scheme not in by_scheme.index:
                    cells += ["-", "-"]
                    continue
                r = by_scheme.loc[scheme]
                note = f" ({int(r['unfinished'])} unfinished)" if r["unfinished"] else ""
                cells += [f"{number(r['mean'])} / {number(r['p99'])}{note}",
                          f"{r['timeouts_per_query']:.1f}"]
            lines.append("| " + " | ".join(cells) + " |")
        overlapping = group[group["overlapping"] > 0]
        lines.append("")
        if len(overlapping):
            lines.append("Queries that started before the previous one completed: " + ", ".join(
                f"{looks[r.scheme]['label']} N = {r.workers}: "
                f"{r.overlapping}" for r in overlapping.itertuples()) + ".")
        else:
            lines.append("No query started before the previous one completed.")
        lines.append("")
    lines += ["## Runs", ""]
    for run in document["runs"]:
        lines.append(f"- `{run['run_dir']}`: {run['label']} (module {run['module_version']}, "
                     f"ns-3 {run['ns3_version']})")
    return "\n".join(lines + ["", f"Command: `{document['command']}` (pfabric-analysis "
                                  f"{document['versions'].get('pfabric')})", ""])


def incast_figure(table: pd.DataFrame, queries: int, response_bytes: int) -> Figure:
    """A column per background load, a row per ROWS: against N (log2 axis), a line per scheme;
    QCT / ideal from 1 up on a log axis, timeouts per query on a symlog axis."""
    backgrounds = sorted(table["background"].unique())
    looks = scheme_looks(table["scheme"])
    workers = sorted(table["workers"].unique())
    with matplotlib.rc_context(STYLE):
        figure = new_figure(max(4.4, 3.4 * len(backgrounds) + 0.4), 6.8)
        axes = figure.subplots(len(ROWS), len(backgrounds), squeeze=False, sharex=True)
        for column, background in enumerate(backgrounds):
            for row, (statistic, label) in enumerate(ROWS):
                ax = axes[row][column]
                for scheme, style in looks.items():
                    rows = table[(table["background"] == background)
                                 & (table["scheme"] == scheme)].sort_values("workers")
                    ax.plot(rows["workers"], rows[statistic], color=style["color"],
                            marker=style["marker"], linestyle=style["linestyle"],
                            label=style["label"])
                ax.set_xscale("log", base=2)
                ax.set_xticks(workers, [str(n) for n in workers])
                if statistic == "timeouts_per_query":
                    ax.set_yscale("symlog", linthresh=1)
                    ax.set_ylim(bottom=0)
                else:
                    ax.set_yscale("log")
                    ax.axhline(1.0, color="black", linewidth=0.8, linestyle=":")
                    # Ratios near 1: plain numbers on the log axis, not powers of ten.
                    ax.yaxis.set_major_formatter(PLAIN)
                    low, high = ax.get_ylim()
                    # Minor ticks labelled only where the axis spans less than a decade.
                    ax.yaxis.set_minor_formatter(PLAIN if high < 10 * low else NullFormatter())
                if column == 0:
                    ax.set_ylabel(label)
                if row == 0:
                    ax.set_title(_background_title(background))
                if row == len(ROWS) - 1:
                    ax.set_xlabel("Workers N")
        handles, names = axes[0][0].get_legend_handles_labels()
        figure.legend(handles, names, loc="outside upper center", ncols=2, frameon=False)
        figure.supxlabel(f"N workers answer {response_bytes} B each at once; {queries} queries "
                         "per point:\na small run, not a citable scale", fontsize=7)
    return figure


def write_incast(directories: Sequence[Path], out_dir: Path, name: str = "incast",
                 command: str = "", versions: dict[str, str] | None = None) -> list[Path]:
    """NAME.png, NAME.pdf, NAME.csv (the table), NAME.md and NAME.json (provenance) into
    out_dir."""
    check_output_name(name)
    if not directories:
        raise AnalysisError("no run directories")
    runs = [read_incast_run(Path(d)) for d in directories]
    check_incast_runs(runs)
    table = incast_table(runs)
    first = runs[0].meta
    queries = int(first["incast"]["queries"])
    response_bytes = int(first["incast"]["response_bytes"])
    entries = []
    for run in runs:
        background, scheme, workers = run_key(run)
        entries.append({"label": f"background {background:g}, {scheme}, N = {workers}",
                        "run_dir": str(run.directory), "program": run.meta.get("program"),
                        "command_line": run.meta.get("command_line"),
                        "incast": run.meta["incast"],
                        "parameters": {k: run.meta["parameters"].get(k)
                                       for k in ["scheme", *SHARED_PARAMETERS]},
                        "module_version": run.meta.get("module_version"),
                        "ns3_version": run.meta.get("ns3_version"),
                        "git_commit": run.meta.get("git_commit"),
                        "hosts": run.meta.get("hosts")})
    document = {"command": command, "versions": versions or {}, "queries_per_run": queries,
                "response_bytes": response_bytes, "runs": entries}
    figure = incast_figure(table, queries, response_bytes)
    return write_figure_set(out_dir, name, figure, table, incast_markdown(table, document),
                            document_bytes(document))
