"""doc/results.rst's tables of Figures 3 and 4 at the standard tier are the numbers of the
committed figures.csv (doc/figures/standard/), as `pfabric-analysis figure-table` prints them: a
redraw that moves a number fails here until the doc's table is regenerated with it. And every
committed figures.csv and figures.md is what `figures` computes from its committed store today,
so that neither a change of the analysis nor a point added to a store leaves a published number
stale. The doc's tables of the steady-state tier and of the setup candidates are checked against
the same data, each number to the decimals it is printed with."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from pfabric_analysis.cli import main
from pfabric_analysis.figures import figures_markdown, load_sweep
from pfabric_analysis.plotting import SCHEMES
from pfabric_analysis.runs import SIZE_BIN_EDGES, core_seconds, read_run, summarize

ROOT = Path(__file__).resolve().parents[2]
# The document of the tiers' narratives and the figures against the paper.
RESULTS = ROOT / "doc" / "results.rst"
# A Section heading of it (a title underlined with *): where a section ends.
NEXT_SECTION = re.compile(r"\n[^\n]+\n\*{3,}\n")
FIGURES_CSV = ROOT / "doc" / "figures" / "standard" / "figures.csv"
# Each published figure set (figures.csv, figures.md), the store it is drawn from, and for the
# steady-state tier the runs to completion and flow counts its largest flows' bin is drawn from
# (REPRODUCE.md entry 24): the commit loop that adds a steady point redraws this set with it.
FIGURE_SETS: dict[str, tuple[str, str, tuple[str, str] | None]] = {
    "standard": ("doc/figures/standard", "doc/figures/store", None),
    "reproduce-quick": ("doc/figures/reproduce-quick", "doc/figures/reproduce-quick/store", None),
    "worked-comparison": ("doc/figures/worked-comparison/figures",
                          "doc/figures/worked-comparison/store", None),
    "steady": ("doc/figures/steady", "doc/figures/store-steady",
               ("doc/figures/store", "doc/figures/flowcount-hotnets12-300k.csv"))}
SECTIONS = {"datamining": "Figure 3 at the standard tier against the paper",
            "websearch": "Figure 4 at the standard tier against the paper"}


@pytest.mark.parametrize("workload", SECTIONS)
def test_the_doc_table_is_the_committed_figures_csv(workload: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["figure-table", str(FIGURES_CSV), "--workload", workload]) == 0
    table = capsys.readouterr().out
    doc = RESULTS.read_text(encoding="utf-8")
    section = doc.split(f"\n{SECTIONS[workload]}\n", 1)[1]
    assert table.count("\n") > 20 and f"\n\n{table}\n" in section.split("\n****", 1)[0]


def test_a_table_of_a_missing_file_is_one_line(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["figure-table", str(tmp_path / "figures.csv"), "--workload", "websearch"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "figures.csv" in error


@pytest.mark.parametrize("name", FIGURE_SETS)
def test_every_published_figure_table_is_its_store_recomputed(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The committed figures.csv and figures.md, byte for byte, from the committed store (the
    images are drawn from the same table; rendering them is left to the figures' own tests).
    From the clone's root, as REPRODUCE.md's commands run: the table names its sources as given."""
    monkeypatch.chdir(ROOT)
    figure_set, store, large = FIGURE_SETS[name]
    table = (load_sweep(Path(store)) if large is None else
             load_sweep(Path(store), large_from=Path(large[0]), ideal_counts=Path(large[1])))
    published = ROOT / figure_set
    assert table.to_csv(index=False) == (published / "figures.csv").read_text(encoding="utf-8")
    assert figures_markdown(table) == (published / "figures.md").read_text(encoding="utf-8")


# The setup candidates' tables (results.rst, "The setup candidates"; REPRODUCE.md entry 26):
# each row is one candidate run of doc/figures/candidates/ and, in parentheses, the standard
# store's run 1 of the same point, on the same flows.
CANDIDATES_SECTION = "The setup candidates (issue 50), one row each"
CANDIDATE_RUNS = {"initial window 4": "iw4", "initial window 2": "iw2", "1 us per link": "link1us",
                  "additive increase": "additive", "most urgent packet": "mosturgent"}
# The tables' columns after candidate and scheme: (size bin, statistic) of runs.summarize.
CANDIDATE_COLUMNS = [("(0,100KB]", "mean"), ("(0,100KB]", "p99"), ("(100KB,10MB]", "mean"),
                     ("(10MB,inf)", "mean")]


def rst_table_rows(text: str) -> list[list[str]]:
    """The body rows of the first simple rst table in text, as cells cut at the border's column
    spans (a row's continuation lines, as a header's wrapped words, are not body rows)."""
    lines = text.split("\n")
    borders = [i for i, line in enumerate(lines) if re.fullmatch(r"=+( +=+)+", line)]
    starts = [match.start() for match in re.finditer(r"=+", lines[borders[0]])]
    # Each cell from its column's start to the next column's (the last column's text may run
    # past its border).
    ends: list[int | None] = [*starts[1:], None]
    return [[line[start:end].strip() for start, end in zip(starts, ends, strict=True)]
            for line in lines[borders[1] + 1:borders[2]] if line.strip()]


def as_printed(value: float, printed: str) -> str:
    """value with as many decimals as the printed number has."""
    decimals = len(printed.split(".", 1)[1]) if "." in printed else 0
    return f"{value:.{decimals}f}"


def test_the_setup_candidates_tables_are_their_committed_runs() -> None:
    doc = RESULTS.read_text(encoding="utf-8")
    section = NEXT_SECTION.split(doc.split(CANDIDATES_SECTION, 1)[1], maxsplit=1)[0]
    web_search, data_mining = section.split("\nOn data mining", 1)
    labels = {look["label"]: scheme for scheme, look in SCHEMES.items()}
    checked = 0
    for workload, table in (("websearch", web_search), ("datamining", data_mining)):
        for candidate, label, *cells in rst_table_rows(table):
            scheme = labels[label]
            point = f"{workload}-{scheme}-load0.8-run1"
            runs = [ROOT / "doc" / "figures" / "candidates" / f"{point}-{CANDIDATE_RUNS[candidate]}",
                    ROOT / "doc" / "figures" / "store" / point]
            summaries = [summarize(read_run(run).fct).set_index("bin") for run in runs]
            for (size_bin, statistic), cell in zip(CANDIDATE_COLUMNS, cells, strict=True):
                mine, _, standard = cell.removesuffix(")").partition(" (")
                assert (as_printed(summaries[0].loc[size_bin, statistic], mine),
                        as_printed(summaries[1].loc[size_bin, statistic], standard)) == \
                    (mine, standard), f"{candidate}, {label}, {workload}: {size_bin} {statistic}"
                checked += 1
    assert checked == 4 * 22


# The steady-state tier's table of its web search points at 0.8 (results.rst, "The points so
# far"), each against the standard tier's point: the published figures.csv of each tier, which
# the test above recomputes from its store. Cells: warm-up, then Figure 4's panels (a)-(c) as
# "value +- half-width" (or the value alone), then the point's core-hours ("-" for Ideal).
STEADY_SECTION = "The points so far (REPRODUCE.md, entry 24)"
TIER_FIGURES = {"steady": "doc/figures/steady/figures.csv",
                "standard": "doc/figures/standard/figures.csv"}


def test_the_steady_tier_table_is_the_committed_figures_csv() -> None:
    doc = RESULTS.read_text(encoding="utf-8")
    tiers = {tier: pd.read_csv(ROOT / path) for tier, path in TIER_FIGURES.items()}
    schemes = {look["label"].split("+")[0]: scheme for scheme, look in SCHEMES.items()}
    rows = rst_table_rows(doc.split(STEADY_SECTION, 1)[1])
    for point, warmup, *panels, core_hours in rows:
        name, tier = (part.strip() for part in point.split(",")[:2])
        table = tiers[tier]
        table = table[(table["figure"] == "fig4") & (table["scheme"] == schemes[name]) &
                      (table["load"] == 0.8)].set_index("panel")
        first = table.iloc[0]
        assert warmup == ("(none)" if tier == "standard" else f"{int(first['warmup_flows']):,}")
        for panel, cell in zip("abc", panels, strict=True):
            value, _, halfwidth = cell.partition(" +- ")
            printed = [as_printed(table.loc[panel, "value"], value)]
            if halfwidth:
                printed.append(as_printed(table.loc[panel, "ci_halfwidth"], halfwidth))
            assert " +- ".join(printed) == cell, f"{point}: panel ({panel})"
        assert core_hours == ("-" if name == "Ideal" else as_printed(first["core_hours"], "0.00"))
    assert len(rows) == 2 * len(SCHEMES)


# Ideal's (10MB,inf) means over runs to completion of 10,000, 100,000 and 300,000 flows
# (results.rst, the steady-state tier; REPRODUCE.md entry 25): the mean over the study's runs
# at each count, and the distance of 10,000 flows from 300,000 in percent.
IDEAL_COUNTS_SECTION = "300,000 flows per workload and load; REPRODUCE.md, entry 25)"
IDEAL_COUNTS = ROOT / "doc" / "figures" / "flowcount-hotnets12-300k.csv"


def test_ideals_large_flow_table_is_the_committed_flow_count_study() -> None:
    doc = RESULTS.read_text(encoding="utf-8")
    study = pd.read_csv(IDEAL_COUNTS)
    means = (study[study["metric"] == "(10MB,inf) mean"]
             .groupby(["workload", "load", "count"])["value"].mean())
    workloads = {"web search": "websearch", "data mining": "datamining"}
    rows = rst_table_rows(doc.split(IDEAL_COUNTS_SECTION, 1)[1])
    for workload, load, *values, distance in rows:
        key = (workloads[workload], float(load))
        counts = [means[(*key, count)] for count in (10_000, 100_000, 300_000)]
        assert [as_printed(mean, cell) for mean, cell in zip(counts, values, strict=True)] == \
            values, f"{workload} {load}"
        assert f"{100 * (counts[0] / counts[2] - 1):+.1f}%" == distance, f"{workload} {load}"
    assert len(rows) == 8


# The original scripts' workload on hotnets12 (results.rst, "The original scripts' workload on
# this paper's fabric"): one candidate run per scheme (--arrivals=ns2; Ideal on the same flows)
# and, in parentheses, the standard tier's point (figures.csv, the panels (a)-(d) at 0.8 of
# Figure 4 for web search, Figure 3 for data mining).
NS2_SECTION = "REPRODUCE.md entry 26. With ``--arrivals=ns2`` every ``--run`` draws the same flows"


# Each of its tables: the sentence that leads to it, the workload, the standard tier's figure it
# is set against, and its rows.
def ns2_run(workload: str, scheme: str) -> Path:
    """The committed --arrivals=ns2 run of a scheme at 0.8 (doc/figures/candidates/)."""
    return ROOT / "doc" / "figures" / "candidates" / f"{workload}-{scheme}-load0.8-run1-ns2"


NS2_TABLES = [(NS2_SECTION, "websearch", "fig4", 5),
              ("On data mining, the original scripts' workload", "datamining", "fig3", 5)]


def assert_run_beside_tier(cells: list[str], summary: pd.DataFrame, point: pd.DataFrame,
                           row: str) -> None:
    """Each cell "run (tier)" of a row of Figure 3's or 4's panels (a)-(d): the run's statistic
    (summary, by bin) and the tier's point (a figures.csv's rows of one scheme, by panel), each to
    the decimals it is printed with."""
    for panel, (size_bin, statistic), cell in zip("abcd", CANDIDATE_COLUMNS, cells, strict=True):
        mine, _, tier = cell.removesuffix(")").partition(" (")
        assert (as_printed(summary.loc[size_bin, statistic], mine),
                as_printed(point.loc[panel, "value"], tier)) == (mine, tier), \
            f"{row}: {size_bin} {statistic}"


@pytest.mark.parametrize(("section", "workload", "figure", "schemes"), NS2_TABLES)
def test_the_original_workloads_tables_are_their_committed_runs(section: str, workload: str,
                                                                figure: str,
                                                                schemes: int) -> None:
    doc = RESULTS.read_text(encoding="utf-8")
    standard = pd.read_csv(FIGURES_CSV)
    standard = standard[(standard["figure"] == figure) & (standard["load"] == 0.8)]
    labels = {look["label"]: scheme for scheme, look in SCHEMES.items()}
    rows = rst_table_rows(doc.split(section, 1)[1])
    for label, *cells in rows:
        scheme = labels[label]
        summary = summarize(read_run(ns2_run(workload, scheme)).fct).set_index("bin")
        point = standard[standard["scheme"] == scheme].set_index("panel")
        assert_run_beside_tier(cells, summary, point, f"{workload}, {label}")
    assert len(rows) == schemes


# The gap table's last column (results.rst, "Every gap to the paper's text"): each row's numbers
# before its colon, from the original scripts' workload's runs (doc/figures/candidates/*-ns2), by
# the row's gap as the table names it; "not run" rows have none.
GAP_SECTION = "Every gap to the paper's text, and what stands behind its explanation"
SMALL, LARGE = "(0,100KB]", "(10MB,inf)"
GapValue = tuple[tuple[str, str, str, str], tuple[str, str, str, str] | None]
GAP_ORIGINAL_WORKLOAD: dict[str, list[GapValue]] = {
    # (workload, scheme, bin, statistic) of a run, over another's when there is a second
    "pFabric's small flows' p99, data mining, at 0.8": [
        (("datamining", "pfabric", SMALL, "p99"), None),
        (("datamining", "linerate", SMALL, "p99"), None)],
    "DCTCP over pFabric, small flows' mean": [
        (("websearch", "dctcp", SMALL, "mean"), ("websearch", "pfabric", SMALL, "mean")),
        (("datamining", "dctcp", SMALL, "mean"), ("datamining", "pfabric", SMALL, "mean"))],
    "DCTCP's small flows' p99, web search, 0.8": [(("websearch", "dctcp", SMALL, "p99"), None)],
    "TCP-DropTail's small flows' p99, web search, 0.8": [
        (("websearch", "tcp", SMALL, "p99"), None)],
    "TCP and DCTCP over pFabric, small flows' p99": [
        (("websearch", "tcp", SMALL, "p99"), ("websearch", "pfabric", SMALL, "p99")),
        (("websearch", "dctcp", SMALL, "p99"), ("websearch", "pfabric", SMALL, "p99")),
        (("datamining", "tcp", SMALL, "p99"), ("datamining", "pfabric", SMALL, "p99")),
        (("datamining", "dctcp", SMALL, "p99"), ("datamining", "pfabric", SMALL, "p99"))],
    "MinTCP+pFabric's large flows over TCP's and DCTCP's": [
        (("websearch", "pfabric", LARGE, "mean"), ("websearch", "tcp", LARGE, "mean")),
        (("websearch", "pfabric", LARGE, "mean"), ("websearch", "dctcp", LARGE, "mean"))],
    "TCP-DropTail's large flows over DCTCP's": [
        (("websearch", "tcp", LARGE, "mean"), ("websearch", "dctcp", LARGE, "mean"))],
    "overall mean, DCTCP over MinTCP+pFabric": [
        (("websearch", "dctcp", "all", "mean"), ("websearch", "pfabric", "all", "mean")),
        (("datamining", "dctcp", "all", "mean"), ("datamining", "pfabric", "all", "mean"))],
    "LineRate+pFabric's small flows' p99, web search, 0.8": [
        (("websearch", "linerate", SMALL, "p99"), None)],
}


def test_the_gap_tables_original_workload_column_is_its_committed_runs() -> None:
    doc = RESULTS.read_text(encoding="utf-8")
    table = NEXT_SECTION.split(doc.split(GAP_SECTION, 1)[1], maxsplit=1)[0]
    rows = re.split(r"\n   \* - ", table.split(":widths:", 1)[1])[2:]  # after the header row
    summaries: dict[tuple[str, str], pd.DataFrame] = {}

    def value(key: tuple[str, str, str, str]) -> float:
        workload, scheme, size_bin, statistic = key
        if (workload, scheme) not in summaries:
            run = read_run(ns2_run(workload, scheme))
            summaries[workload, scheme] = summarize(run.fct).set_index("bin")
        return float(summaries[workload, scheme].loc[size_bin, statistic])

    checked = set()
    for row in rows:
        cells = [" ".join(cell.split()) for cell in re.split(r"\n     - ", row)]
        gap, last = cells[0], cells[-1]
        assert len(cells) == 6, gap
        found = [name for name in GAP_ORIGINAL_WORKLOAD if gap.startswith(name)]
        if not found:
            assert last == "not run (0.8 only)", gap
            continue
        printed = re.findall(r"\d+\.\d+", last.split(":", 1)[0])
        expected = [value(top) / (value(bottom) if bottom else 1.0)
                    for top, bottom in GAP_ORIGINAL_WORKLOAD[found[0]]]
        assert [as_printed(number, text) for number, text in
                zip(expected, printed, strict=True)] == printed, gap
        checked.add(found[0])
    assert checked == set(GAP_ORIGINAL_WORKLOAD)


# The paper's method (results.rst, "The paper's method: 100,000 flows to completion"; REPRODUCE.md
# entry 27): one run of 100,000 flows to completion per scheme, web search at 0.8, from
# doc/figures/store-100k/, each cell beside its steady-state tier's value (the steady figures.csv
# at 0.8, Figure 4's panels (a)-(d); panel (d) there is the standard tier's runs to completion).
PAPER_METHOD_SECTION = "The paper's method: 100,000 flows to completion"
PAPER_METHOD_STORE = ROOT / "doc" / "figures" / "store-100k"


def test_the_paper_method_table_is_its_committed_runs() -> None:
    doc = RESULTS.read_text(encoding="utf-8")
    section = NEXT_SECTION.split(doc.split(f"\n{PAPER_METHOD_SECTION}\n", 1)[1], maxsplit=1)[0]
    steady = pd.read_csv(ROOT / TIER_FIGURES["steady"])
    steady = steady[(steady["figure"] == "fig4") & (steady["load"] == 0.8)]
    labels = {look["label"]: scheme for scheme, look in SCHEMES.items()}
    rows = rst_table_rows(section)
    for label, *cells, core_hours in rows:
        scheme = labels[label]
        run = read_run(PAPER_METHOD_STORE / f"websearch-{scheme}-load0.8-run1")
        assert run.meta["parameters"]["flows"] == 100_000 and \
            run.meta["parameters"]["measureFlows"] == 0, label
        summary = summarize(run.fct).set_index("bin")
        assert int(summary.loc["all", "flows"]) == 100_000, label  # every flow completed
        point = steady[steady["scheme"] == scheme].set_index("panel")
        assert_run_beside_tier(cells, summary, point, label)
        hours = core_seconds(run.meta)
        assert core_hours == ("-" if hours is None or scheme == "ideal" else
                              as_printed(hours / 3600, "0.00")), label
    assert sorted(labels[row[0]] for row in rows) == \
        sorted(path.name.split("-")[1] for path in PAPER_METHOD_STORE.glob("websearch-*"))


# Its large flows by arrival block: what they did over the run (results.rst, "The large flows by
# arrival block"), recomputed from the same runs' fct.csv.
LARGE_BLOCKS_MARK = "**The large flows by arrival block.**"
LARGE_BYTES = SIZE_BIN_EDGES[1]  # (10MB,inf): above the medium bin's upper edge
ARRIVAL_BLOCK = 20_000


def large_flows_row(fct: pd.DataFrame) -> list[float]:
    """A run's large flows: mean slowdown, the share done after the last arrival (%), the mean of
    those done before and after it, timeouts per flow, and the mean of each block of arrivals."""
    slowdown = fct["fct_s"] / fct["ideal_fct_s"]
    large = fct["size_bytes"] > LARGE_BYTES
    after = fct["start_s"] + fct["fct_s"] > fct["start_s"].max()
    blocks = fct["flow_id"] // ARRIVAL_BLOCK
    return [slowdown[large].mean(), 100 * after[large].mean(), slowdown[large & ~after].mean(),
            slowdown[large & after].mean(), fct["timeouts"][large].mean(),
            *(slowdown[large & (blocks == block)].mean() for block in sorted(blocks.unique()))]


def test_the_large_flows_by_arrival_block_are_the_committed_runs() -> None:
    doc = RESULTS.read_text(encoding="utf-8")
    section = NEXT_SECTION.split(doc.split(f"\n{PAPER_METHOD_SECTION}\n", 1)[1], maxsplit=1)[0]
    labels = {look["label"]: scheme for scheme, look in SCHEMES.items()}
    rows = rst_table_rows(section.split(LARGE_BLOCKS_MARK, 1)[1])
    for label, *cells in rows:
        run = read_run(PAPER_METHOD_STORE / f"websearch-{labels[label]}-load0.8-run1")
        printed = [cell.rstrip("%") for cell in cells[:-1]] + cells[-1].split(" / ")
        expected = large_flows_row(run.fct)
        assert [as_printed(value, text) for value, text in
                zip(expected, printed, strict=True)] == printed, label
    assert sorted(labels[row[0]] for row in rows) == \
        sorted(path.name.split("-")[1] for path in PAPER_METHOD_STORE.glob("websearch-*"))
