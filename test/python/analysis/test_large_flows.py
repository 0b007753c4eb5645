"""The (10MB,inf) bin of steady-state figures from runs to completion, with Ideal's longer counts
beside it (pfabric_analysis.large_flows, `figures --large-from --ideal-counts`): values by hand."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from pfabric_analysis import figures, large_flows, paper
from pfabric_analysis.cli import main
from pfabric_analysis.runs import AnalysisError
from test_figures import flows, slowdown_a, steady_run, write_run

LARGE = "(10MB,inf)"
# Ideal's (10MB,inf) mean in the hand-made flow-count study: three runs per count.
COUNT_VALUES = {100: (9.0, 10.0, 11.0), 300: (12.0, 12.5, 13.0)}


def make_steady(root: Path) -> Path:
    """Steady-state points at web search 0.8 (two runs each, no flow above 10 MB): TCP, Ideal."""
    for run in (1, 2):
        steady_run(root / f"websearch-tcp-load0.8-run{run}", "tcp", run, 8.0, 10 + run)
        steady_run(root / f"websearch-ideal-load0.8-run{run}", "ideal", run, 1.0, 20 + run)
    return root


def make_complete(root: Path) -> Path:
    """Runs of 4 flows to completion (test_figures.flows) at web search 0.8, two runs each, for
    TCP and Ideal: the large flows' mean is 2a + 1 by hand."""
    for scheme in ("tcp", "ideal"):
        for run in (1, 2):
            write_run(root / f"websearch-{scheme}-load0.8-run{run}", "websearch",
                      flows(slowdown_a("websearch", scheme, 0.8), run), scheme=scheme, load=0.8,
                      run=run)
    return root


def make_counts(path: Path) -> Path:
    """A flowcount.csv: Ideal's values at 4 flows (not drawn: not above N), 100 and 300."""
    rows = [{"workload": "websearch", "load": 0.8, "run": run, "count": 4,
             "metric": f"{LARGE} mean", "value": 1.0, "bytes": 1} for run in (1, 2, 3)]
    for count, values in COUNT_VALUES.items():
        rows += [{"workload": "websearch", "load": 0.8, "run": run, "count": count,
                  "metric": metric, "value": value if metric.startswith(LARGE) else 1.0,
                  "bytes": 1}
                 for run, value in enumerate(values, start=1)
                 for metric in (f"{LARGE} mean", "(0,100KB] mean")]
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    root = tmp_path_factory.mktemp("large")
    return (make_steady(root / "steady"), make_complete(root / "complete"),
            make_counts(root / "flowcount.csv"))


def large_row(table: pd.DataFrame, scheme: str) -> pd.Series:
    rows = table[(table["bin"] == LARGE) & (table["scheme"] == scheme)]
    assert len(rows) == 1
    return rows.iloc[0]


def test_the_large_bin_comes_from_runs_to_completion_hollow(stores) -> None:
    """Each steady point's (10MB,inf) row is the runs to completion's (mean 2a + 1 over the two
    runs' large flows, its runs and provenance), not citable, titled with their N; every other row
    of the point is as without --large-from."""
    steady, complete, _ = stores
    alone = figures.load_sweep(steady)
    table = figures.load_sweep(steady, large_from=complete)
    for scheme in ("tcp", "ideal"):
        row = large_row(table, scheme)
        assert row["value"] == pytest.approx(2 * slowdown_a("websearch", scheme, 0.8) + 1)
        assert row["runs"] == 2 and row["flows"] == 2
        assert not row["citable"] and row["not_citable"] == large_flows.TO_COMPLETION
        assert row["title"] == "(d) (10MB, ∞): Avg, 4 flows to completion"
        assert row["run_dirs"] == ";".join(f"{complete}/websearch-{scheme}-load0.8-run{run}"
                                           for run in (1, 2))
        assert pd.isna(row["warmup_flows"]) and math.isnan(row["bias"])
    others = table[table["bin"] != LARGE].reset_index(drop=True)
    pd.testing.assert_frame_equal(others, alone[alone["bin"] != LARGE].reset_index(drop=True))
    # The paper's claims on the small flows do not take the large bin's status.
    assert paper.loads_not_citable(table, "websearch", LARGE, "mean", "tcp") == {0.8}
    small_status = set() if alone.loc[alone["scheme"] == "tcp", "citable"].iloc[0] else {0.8}
    assert paper.loads_not_citable(table, "websearch", "(0,100KB]", "p99", "tcp") == small_status


def test_ideal_at_longer_counts_is_drawn_beside_with_its_distance(stores) -> None:
    """Ideal at the study's counts above N: the mean of its runs with t(0.975, 2) s / sqrt(3);
    figures.md tabulates Ideal at N against each, the distance N's value over theirs minus 1; the
    breakdown figure's panel (d) draws them, titled with N, and the legend names the reason."""
    steady, complete, counts = stores
    table = figures.load_sweep(steady, large_from=complete, ideal_counts=counts)
    halfwidth = stats.t.ppf(0.975, 2) * 1.0 / math.sqrt(3)
    for count, values in COUNT_VALUES.items():
        row = large_row(table, f"ideal@{count}")
        assert row["value"] == pytest.approx(sum(values) / 3)
        spread = pd.Series(values).std()
        assert row["ci_halfwidth"] == pytest.approx(halfwidth * spread / 1.0)
        assert row["label"] == f"Ideal, {count:,} flows" and row["runs"] == 3
        assert row["point_flows"] == 3 * count and not row["citable"]
    assert "ideal@4" not in set(table["scheme"])
    ideal_n = 2 * slowdown_a("websearch", "ideal", 0.8) + 1
    markdown = figures.figures_markdown(table)
    distance = f"{100 * (ideal_n / 10.0 - 1):+.1f}%"
    assert (f"| websearch | 0.8 | {ideal_n:.3f} | 10.000 +- {halfwidth:.3f} | {distance} | "
            f"12.500 +- {halfwidth * 0.5:.3f} | {100 * (ideal_n / 12.5 - 1):+.1f}% |") in markdown
    assert "| Ideal, 100,000 flows |" not in markdown  # not a point of the Points section
    assert "## The (10MB,inf) bin: runs to completion" in markdown
    figure = figures.breakdown_figure(table, "websearch")
    panel_d = figure.axes[3]
    assert panel_d.get_title() == "(d) (10MB, ∞): Avg, 4 flows to completion"
    drawn = {round(float(np.asarray(line.get_ydata())[0]), 6) for line in panel_d.get_lines()
             if line.get_label() == "_marker"}
    assert {10.0, 12.5} <= drawn
    legend = [text.get_text() for text in figure.legends[0].get_texts()]
    assert "Ideal, 100,000 flows" not in legend and "Ideal, 100 flows" in legend
    assert any(text.startswith("hollow: not citable (") and "run to completion" in text
               for text in legend)


def test_standard_tables_are_unchanged_without_the_options(stores) -> None:
    """A table of runs to completion alone has no steady columns and no rows of Ideal's counts;
    its (10MB,inf) rows are its own."""
    _, complete, _ = stores
    table = figures.load_sweep(complete)
    assert "warmup_flows" not in table.columns
    assert not table["scheme"].str.startswith(large_flows.IDEAL_COUNT_PREFIX).any()
    assert (table["not_citable"] != large_flows.TO_COMPLETION).all()


def break_counts_columns(root: Path, stores) -> list[str]:
    path = root / "bad.csv"
    path.write_text("workload,load\nwebsearch,0.8\n")
    return ["--large-from", str(stores[1]), "--ideal-counts", str(path)]


def break_counts_alone(root: Path, stores) -> list[str]:
    return ["--ideal-counts", str(stores[2])]


def break_windowed_source(root: Path, stores) -> list[str]:
    return ["--large-from", str(stores[0])]


def break_other_version(root: Path, stores) -> list[str]:
    other = make_complete(root / "other")
    for meta_path in other.rglob("meta.json"):
        meta_path.write_text(meta_path.read_text().replace('"3.44"', '"3.37"'))
    return ["--large-from", str(other)]


@pytest.mark.parametrize("breaker, message", [
    (break_counts_columns, "--ideal-counts .*bad.csv: no column run, count, metric, value"),
    (break_counts_alone, "--ideal-counts .*: needs --large-from"),
    (break_windowed_source, "--large-from .*: its runs use the measurement window"),
    (break_other_version, "--large-from .*: ns-3 version 3.37, but the figures' points have 3.44"),
])
def test_bad_sources_fail_with_one_line_and_no_output(stores, tmp_path: Path, breaker, message,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    extra = breaker(tmp_path, stores)
    out = tmp_path / "out"
    assert main(["figures", str(stores[0]), "--out", str(out), *extra]) != 0
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1
    assert re.search(message, error), error
    assert not out.exists()


def test_large_from_needs_steady_points(stores) -> None:
    _, complete, _ = stores
    with pytest.raises(AnalysisError, match="has no steady-state points"):
        figures.load_sweep(complete, large_from=complete)


def test_cli_writes_the_figures_with_both_options(stores, tmp_path: Path) -> None:
    steady, complete, counts = stores
    out = tmp_path / "out"
    assert main(["figures", str(steady), "--out", str(out), "--large-from", str(complete),
                 "--ideal-counts", str(counts)]) == 0
    written = pd.read_csv(out / "figures.csv")
    assert {"ideal@100", "ideal@300"} <= set(written["scheme"])
    assert (out / "fig4-websearch.png").stat().st_size > 0
