"""levels on hand-made run directories whose every number is computed by hand."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pfabric_analysis.cli import main
from pfabric_analysis.compare import read_runs
from pfabric_analysis.levels import check_levels_runs, levels_markdown, levels_table
from pfabric_analysis.runs import BIN_NAMES, AnalysisError

SMALL, MEDIUM, LARGE = BIN_NAMES
# (size_bytes, start_s): two small flows, one medium, one large.
FLOWS = [(1000, 0.0), (50000, 0.001), (200000, 0.002), (20000000, 0.003)]


def write_run(directory: Path, load: float, levels: int | None, slowdowns: list[float | None],
              flows: list[tuple[int, float]] = FLOWS, scheme: str = "pfabric",
              timeouts: int = 0) -> Path:
    """A run directory: FCT / ideal FCT per flow (None: unfinished), the same timeouts for every
    flow; levels None: a meta.json written before --priorityLevels existed."""
    directory.mkdir(parents=True)
    rows = []
    for i, ((size, start), slowdown) in enumerate(zip(flows, slowdowns)):
        ideal = 1e-4 * (i + 1)
        rows.append({"flow_id": i, "src": i % 3, "dst": (i + 1) % 3, "size_bytes": size,
                     "start_s": start, "fct_s": np.nan if slowdown is None else slowdown * ideal,
                     "ideal_fct_s": ideal, "timeouts": timeouts,
                     "completed": 0 if slowdown is None else 1})
    pd.DataFrame(rows).to_csv(directory / "fct.csv", index=False)
    parameters = {"preset": "hotnets12", "scheme": scheme, "load": load, "flows": len(flows),
                  "seed": 1, "run": 1, "out": str(directory)}
    if levels is not None:
        parameters["priorityLevels"] = levels
    meta = {"program": "pfabric-websearch", "workload": "websearch", "parameters": parameters,
            "module_version": "0.1.0", "ns3_version": "3.44",
            "priority_thresholds_bytes": "" if not levels else "1000"}
    (directory / "meta.json").write_text(json.dumps(meta))
    return directory


@pytest.fixture
def runs(tmp_path: Path) -> list[Path]:
    return [write_run(tmp_path / "pf6", 0.6, None, [1, 3, 2, 4]),
            write_run(tmp_path / "k1-6", 0.6, 1, [5, 7, 4, 2], timeouts=1),
            write_run(tmp_path / "k4-6", 0.6, 4, [2, 4, 3, None]),
            write_run(tmp_path / "pf8", 0.8, 0, [2, 2, 2, 2],
                      flows=[(s, t + 1) for s, t in FLOWS]),
            write_run(tmp_path / "k1-8", 0.8, 1, [8, 6, 5, 3],
                      flows=[(s, t + 1) for s, t in FLOWS])]


def test_table_per_load_levels_and_bin(runs: list[Path]) -> None:
    table = levels_table(read_runs(runs)).set_index(["load", "levels", "bin"])
    assert table.loc[(0.6, 0, SMALL), "mean"] == pytest.approx(2.0)  # (1 + 3) / 2
    assert table.loc[(0.6, 1, SMALL), "mean"] == pytest.approx(6.0)
    assert table.loc[(0.6, 1, SMALL), "p99"] == pytest.approx(7.0)
    assert table.loc[(0.6, 4, LARGE), "unfinished"] == 1
    assert np.isnan(table.loc[(0.6, 4, LARGE), "mean"])
    assert table.loc[(0.8, 1, MEDIUM), "mean"] == pytest.approx(5.0)
    assert table.loc[(0.8, 1, "all"), "mean"] == pytest.approx(5.5)
    assert list(table.index.get_level_values("levels")[::4]) == [0, 1, 4, 0, 1]


def test_markdown_gives_multiples_of_pfabric(runs: list[Path]) -> None:
    loaded = read_runs(runs)
    table = levels_table(loaded)
    text = levels_markdown(table, {"flows_per_run": 4, "runs": [], "command": "c",
                                   "versions": {}})
    assert "| 0.6 | pFabric | 2.000 | 3.000 | 2.000 | 4.000 | 0 | 0 |" in text
    # K = 1 at 0.6: small mean 6 = 3x pFabric's 2, p99 7 = 2.33x 3, medium 4 = 2x, large 2 = 0.5x
    assert "| 0.6 | K = 1 | 6.000 (3.00x) | 7.000 (2.33x) | 4.000 (2.00x) | 2.000 (0.50x) | 2 | 0 |" \
        in text
    assert "| 0.6 | K = 4 | 3.000 (1.50x) | 4.000 (1.33x) | 3.000 (1.50x) | n/a | 0 | 1 |" in text
    assert "4 flows per run: a small run, not a citable scale" in text


def test_refuses_other_flows_repeats_and_other_experiments(tmp_path: Path,
                                                           runs: list[Path]) -> None:
    other = write_run(tmp_path / "other", 0.6, 2, [1, 1, 1, 1],
                      flows=[(s + 1, t) for s, t in FLOWS])
    with pytest.raises(AnalysisError, match="not the flows of"):
        check_levels_runs(read_runs([*runs, other]))
    again = write_run(tmp_path / "again", 0.6, 1, [5, 7, 4, 2])
    with pytest.raises(AnalysisError, match="with 1 levels again"):
        check_levels_runs(read_runs([*runs, again]))
    tcp = write_run(tmp_path / "tcp", 0.6, 0, [1, 1, 1, 1], scheme="tcp")
    with pytest.raises(AnalysisError, match="parameter scheme"):
        check_levels_runs(read_runs([*runs, tcp]))


def test_command_writes_every_output(tmp_path: Path, runs: list[Path], capsys) -> None:
    out = tmp_path / "figures"
    assert main(["levels", *map(str, runs), "--out", str(out), "--name", "lv"]) == 0
    names = sorted(path.name for path in out.iterdir())
    assert names == ["lv.csv", "lv.json", "lv.md", "lv.pdf", "lv.png"]
    document = json.loads((out / "lv.json").read_text())
    assert document["flows_per_run"] == 4
    assert len(document["runs"]) == 5
    assert pd.read_csv(out / "lv.csv").shape[0] == 5 * 4
    assert "wrote" in capsys.readouterr().out


def test_a_bin_without_flows_gets_a_panel_that_says_so(tmp_path: Path) -> None:
    """Runs with no large flow (a small run): the large-flow panel has no point; the figure is
    still drawn (matplotlib refused the log axis of an empty panel: 'Data cannot be
    log-scaled')."""
    flows = FLOWS[:3]
    directories = [write_run(tmp_path / "pf", 0.6, 0, [1, 2, 3], flows=flows),
                   write_run(tmp_path / "k2", 0.6, 2, [2, 3, 4], flows=flows),
                   write_run(tmp_path / "k4", 0.6, 4, [1, 3, 3], flows=flows)]
    out = tmp_path / "figures"
    assert main(["levels", *map(str, directories), "--out", str(out)]) == 0
    assert (out / "levels.png").stat().st_size > 0
    table = pd.read_csv(out / "levels.csv")
    assert table[table["bin"] == LARGE]["mean"].isna().all()
