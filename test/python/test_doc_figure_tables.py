"""doc/pfabric.rst's tables of Figures 3 and 4 at the standard tier are the numbers of the
committed figures.csv (doc/figures/standard/), as `pfabric-analysis figure-table` prints them: a
redraw that moves a number fails here until the doc's table is regenerated with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from pfabric_analysis.cli import main

ROOT = Path(__file__).resolve().parents[2]
FIGURES_CSV = ROOT / "doc" / "figures" / "standard" / "figures.csv"
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
