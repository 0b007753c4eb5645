"""doc/pfabric.rst's tables of Figures 3 and 4 at the standard tier are the numbers of the
committed figures.csv (doc/figures/standard/), as `pfabric-analysis figure-table` prints them: a
redraw that moves a number fails here until the doc's table is regenerated with it. And every
committed figures.csv and figures.md is what `figures` computes from its committed store today,
so that neither a change of the analysis nor a point added to a store leaves a published number
stale."""

from __future__ import annotations

from pathlib import Path

import pytest

from pfabric_analysis.cli import main
from pfabric_analysis.figures import figures_markdown, load_sweep

ROOT = Path(__file__).resolve().parents[2]
FIGURES_CSV = ROOT / "doc" / "figures" / "standard" / "figures.csv"
# Each published figure set (figures.csv, figures.md), the store it is drawn from, and for the
# steady-state tier the runs to completion and flow counts its largest flows' bin is drawn from
# (REPRODUCE.md entry 24): the commit loop that adds a steady point redraws this set with it.
FIGURE_SETS: dict[str, tuple[str, str, dict[str, str]]] = {
    "standard": ("doc/figures/standard", "doc/figures/store", {}),
    "reproduce-quick": ("doc/figures/reproduce-quick", "doc/figures/reproduce-quick/store", {}),
    "worked-comparison": ("doc/figures/worked-comparison/figures",
                          "doc/figures/worked-comparison/store", {}),
    "steady": ("doc/figures/steady", "doc/figures/store-steady",
               {"large_from": "doc/figures/store",
                "ideal_counts": "doc/figures/flowcount-hotnets12-300k.csv"})}
SECTIONS = {"datamining": "Figure 3 at the standard tier against the paper",
            "websearch": "Figure 4 at the standard tier against the paper"}


@pytest.mark.parametrize("workload", SECTIONS)
def test_the_doc_table_is_the_committed_figures_csv(workload: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["figure-table", str(FIGURES_CSV), "--workload", workload]) == 0
    table = capsys.readouterr().out
    doc = (ROOT / "doc" / "pfabric.rst").read_text(encoding="utf-8")
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
    figure_set, store, sources = FIGURE_SETS[name]
    table = load_sweep(Path(store), **{option: Path(path) for option, path in sources.items()})
    published = ROOT / figure_set
    assert table.to_csv(index=False) == (published / "figures.csv").read_text(encoding="utf-8")
    assert figures_markdown(table) == (published / "figures.md").read_text(encoding="utf-8")
