"""classes on hand-made run directories whose every number is computed by hand."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pfabric_analysis.classes import check_classes_runs, classes_markdown, classes_table
from pfabric_analysis.cli import main
from pfabric_analysis.compare import read_runs
from pfabric_analysis.runs import BIN_NAMES, AnalysisError

SMALL, MEDIUM, LARGE = BIN_NAMES
# (size_bytes, start_s, class): web search small and medium, data mining small and large.
FLOWS = [(1000, 0.0, 0), (200000, 0.001, 0), (50000, 0.002, 1), (20000000, 0.003, 1)]


def write_run(directory: Path, classes: str, weights: str, slowdowns: list[float | None],
              flows: list[tuple[int, float, int]] = FLOWS, workload: str = "classes") -> Path:
    """A pfabric-classes run directory: FCT / ideal FCT per flow (None: unfinished)."""
    directory.mkdir(parents=True)
    rows = []
    for i, ((size, start, traffic_class), slowdown) in enumerate(zip(flows, slowdowns)):
        ideal = 1e-4 * (i + 1)
        rows.append({"flow_id": i, "src": i % 3, "dst": (i + 1) % 3, "size_bytes": size,
                     "start_s": start, "fct_s": np.nan if slowdown is None else slowdown * ideal,
                     "ideal_fct_s": ideal, "timeouts": 0,
                     "completed": 0 if slowdown is None else 1, "traffic_class": traffic_class})
    pd.DataFrame(rows).to_csv(directory / "fct.csv", index=False)
    parameters = {"preset": "hotnets12", "scheme": "pfabric", "flows": 2, "seed": 1, "run": 1,
                  "classLoads": "0.3,0.3", "classes": classes, "classWeights": weights,
                  "out": str(directory)}
    meta = {"program": "pfabric-classes", "workload": workload, "parameters": parameters,
            "module_version": "0.1.0", "ns3_version": "3.44",
            "class_buffer": "one per port" if classes == "none" else "one per class"}
    (directory / "meta.json").write_text(json.dumps(meta))
    return directory


@pytest.fixture
def runs(tmp_path: Path) -> list[Path]:
    return [write_run(tmp_path / "one", "none", "1,1", [1, 2, 3, 4]),
            write_run(tmp_path / "strict", "strict", "1,1", [1, 1, 6, None]),
            write_run(tmp_path / "drr31", "drr", "3,1", [2, 1, 4.5, 8])]


def test_table_per_setting_class_and_bin(runs: list[Path]) -> None:
    table = classes_table(read_runs(runs)).set_index(["setting", "traffic_class", "bin"])
    assert table.loc[("one queue", 0, "all"), "mean"] == pytest.approx(1.5)  # (1 + 2) / 2
    assert table.loc[("one queue", 1, SMALL), "mean"] == pytest.approx(3.0)
    assert table.loc[("strict", 1, LARGE), "unfinished"] == 1
    assert np.isnan(table.loc[("strict", 1, LARGE), "mean"])
    assert table.loc[("DRR 3:1", 1, "all"), "mean"] == pytest.approx(6.25)  # (4.5 + 8) / 2
    assert table.loc[("DRR 3:1", 0, SMALL), "p99"] == pytest.approx(2.0)
    assert table.loc[("DRR 3:1", 0, MEDIUM), "flows"] == 1
    # Web search has no large flow here: no flows, no mean.
    assert table.loc[("DRR 3:1", 0, LARGE), "flows"] == 0


def test_markdown_gives_multiples_of_one_queue(runs: list[Path]) -> None:
    table = classes_table(read_runs(runs))
    text = classes_markdown(table, {"flows_per_class": [2, 2], "runs": [], "command": "c",
                                    "versions": {}})
    assert "Web search (class 0) 2 flows and data mining (class 1) 2 flows" in text
    assert "a small run, not a citable scale" in text
    # Data mining under strict: small 6 = 2x one queue's 3, large unfinished, all = small.
    assert ("| strict | 6.000 (2.00x) | 6.000 (2.00x) | n/a | n/a | n/a | n/a | 6.000 (1.71x) "
            "| 6.000 (1.50x) | 2 | 1 |") in text
    assert ("| DRR 3:1 | 2.000 (2.00x) | 2.000 (2.00x) | 1.000 (0.50x) | 1.000 (0.50x) | n/a | "
            "n/a | 1.500 (1.00x) | 2.000 (1.00x) | 2 | 0 |") in text


def test_cli_writes_every_file(runs: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "figure"
    assert main(["classes", *map(str, runs), "--out", str(out), "--name", "c"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["c.csv", "c.json", "c.md", "c.pdf", "c.png"]
    document = json.loads((out / "c.json").read_text())
    assert document["flows_per_class"] == [2, 2]
    assert document["class_parameters"]["DRR 3:1"]["classWeights"] == "3,1"
    assert len(pd.read_csv(out / "c.csv")) == 3 * 2 * 4


@pytest.mark.parametrize(("change", "message"), [
    ("other-flows", "not the flows of"),
    ("other-classes", "flow classes differ"),
    ("websearch", "not a pfabric-classes run"),
    ("same-setting", "setting DRR 3:1 again"),
])
def test_bad_runs_are_refused(runs: list[Path], tmp_path: Path, change: str,
                              message: str) -> None:
    extra = tmp_path / "extra"
    if change == "other-flows":
        write_run(extra, "drr", "1,1", [1, 1, 1, 1],
                  flows=[(s + 1, t, c) for s, t, c in FLOWS])
    elif change == "other-classes":
        write_run(extra, "drr", "1,1", [1, 1, 1, 1], flows=[(s, t, 1 - c) for s, t, c in FLOWS])
    elif change == "websearch":
        write_run(extra, "drr", "1,1", [1, 1, 1, 1], workload="websearch")
    else:
        write_run(extra, "drr", "3,1", [1, 1, 1, 1])
    with pytest.raises(AnalysisError, match=message):
        check_classes_runs(read_runs([*runs, extra]))


def edit_meta(run: Path, **changes: object) -> None:
    """meta.json's members (parameters' under parameters=) changed."""
    meta = json.loads((run / "meta.json").read_text())
    meta["parameters"].update(changes.pop("parameters", {}))
    meta.update(changes)
    (run / "meta.json").write_text(json.dumps(meta))


@pytest.mark.parametrize(("run", "changes", "message"), [
    # The twelfth probe (F8): a record the program cannot write or fct.csv contradicts.
    (2, {"class_flows": [1, 1]},
     r"meta.json: class_flows is \[1, 1\], but .*fct.csv has \[2, 2\]; not the files of one run"),
    (2, {"class_scheduler": "strict"},
     r"meta.json: class_scheduler 'strict' is not parameters.classes 'drr'"),
    (2, {"parameters": {"classWeights": "0,1"}},
     r"meta.json: parameters.classWeights '0,1' is not two positive whole numbers such as 3,1"),
    (2, {"parameters": {"classWeights": "1000000,1"}}, r"parameters.classWeights '1000000,1'"),
    (2, {"parameters": {"classWeights": "3,1,1"}}, r"parameters.classWeights '3,1,1'"),
    (0, {"parameters": {"classLoads": "0.7,0.7"}},
     r"meta.json: parameters.classLoads '0.7,0.7' is not two loads above 0 summing to less "
     r"than 1"),
    (0, {"parameters": {"classLoads": "0,0.3"}}, r"parameters.classLoads '0,0.3'"),
])
def test_a_class_record_the_program_cannot_write_is_refused(runs: list[Path], run: int,
                                                            changes: dict, message: str) -> None:
    check_classes_runs(read_runs(runs))
    edit_meta(runs[run], **changes)
    with pytest.raises(AnalysisError, match=message):
        check_classes_runs(read_runs(runs))


def test_the_class_record_the_program_writes_is_taken(runs: list[Path]) -> None:
    for run, classes in zip(runs, ["none", "strict", "drr"]):
        edit_meta(run, class_flows=[2, 2], class_scheduler=classes)
    edit_meta(runs[2], parameters={"classWeights": "999999,1"})
    check_classes_runs(read_runs(runs))
