"""deadlines on hand-made run directories whose every number is computed by hand."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pfabric_analysis.cli import main
from pfabric_analysis.compare import read_runs
from pfabric_analysis.deadlines import (check_deadline_runs, deadline_markdown,
                                        deadline_statistics, deadline_table)
from pfabric_analysis.runs import AnalysisError

# (size_bytes, start_s, deadline_s or None): three flows with a deadline, two without (one small,
# one medium).
FLOWS = [(1000, 0.0, 0.001), (50000, 0.001, 0.002), (200000, 0.002, 0.004),
         (20000, 0.003, None), (300000, 0.004, None)]
IDEAL = 1e-4  # every flow's ideal FCT, s


def write_run(directory: Path, load: float, scheme: str, priority: str, fcts: list[float | None],
              on_miss: str = "continue", terminated: tuple[int, ...] = (),
              flows: list = FLOWS, deadline_shift: float = 0.0) -> Path:
    """A pfabric-deadlines run directory: each flow's FCT in s (None: unfinished, or terminated
    if its index is in terminated); met computed as the program does."""
    directory.mkdir(parents=True)
    rows = []
    for i, ((size, start, deadline), fct) in enumerate(zip(flows, fcts)):
        deadline = None if deadline is None else deadline + deadline_shift
        met = (None if deadline is None
               else int(fct is not None and start + fct <= deadline))
        rows.append({"flow_id": i, "src": i % 3, "dst": (i + 1) % 3, "size_bytes": size,
                     "start_s": start, "fct_s": np.nan if fct is None else fct,
                     "ideal_fct_s": IDEAL, "timeouts": 0, "completed": int(fct is not None),
                     "deadline_s": deadline, "met": met, "terminated": int(i in terminated)})
    pd.DataFrame(rows).to_csv(directory / "fct.csv", index=False)
    parameters = {"preset": "hotnets12", "scheme": scheme, "load": load, "flows": len(flows),
                  "seed": 1, "run": 1, "out": str(directory), "deadlineMean": "1ms",
                  "deadlineMinFactor": 1.25, "deadlineFraction": 0.6, "priority": priority,
                  "onMiss": on_miss}
    meta = {"program": "pfabric-deadlines", "workload": "websearch", "parameters": parameters,
            "module_version": "0.1.0", "ns3_version": "3.44", "deadline_rule": "by hand"}
    (directory / "meta.json").write_text(json.dumps(meta))
    return directory


@pytest.fixture
def runs(tmp_path: Path) -> list[Path]:
    # EDF: all three deadlines met (finish 0.0005, 0.0015, 0.0035 by 0.001, 0.002, 0.004);
    # flows without: 0.0004 and 0.0008 s, i.e. 4 and 8 ideal FCTs.
    return [write_run(tmp_path / "edf", 0.5, "pfabric", "edf",
                      [0.0005, 0.0005, 0.0015, 0.0004, 0.0008]),
            # remaining size: flow 2 finishes at 0.0045 > 0.004, missed; without: 1 and 3.
            write_run(tmp_path / "size", 0.5, "pfabric", "remaining",
                      [0.0001, 0.0002, 0.0025, 0.0001, 0.0003]),
            # TCP: flow 0 unfinished, flow 1 late (0.0025 > 0.002), flow 2 in time; without: one
            # unfinished, the other 2.
            write_run(tmp_path / "tcp", 0.5, "tcp", "none",
                      [None, 0.0015, 0.001, 0.0002, None]),
            # EDF at 0.7 on other flows (starts shifted), flow 2 terminated (onMiss terminate:
            # under continue, which this fixture said before the twelfth probe, no flow is).
            write_run(tmp_path / "edf7", 0.7, "pfabric", "edf", [0.0005, 0.0005, None, 0.0004,
                                                                 0.0008],
                      on_miss="terminate", terminated=(2,),
                      flows=[(s, t + 1, None if d is None else d + 1) for s, t, d in FLOWS])]


def test_statistics_of_one_run(runs: list[Path]) -> None:
    edf, size, tcp, edf7 = (read_runs([path])[0].fct for path in runs)
    stats = deadline_statistics(edf)
    assert (stats["with_deadline"], stats["met"], stats["terminated"]) == (3, 3, 0)
    assert stats["fraction_met"] == pytest.approx(1.0)
    assert stats["without_deadline"] == 2 and stats["without_finished"] == 2
    assert stats["without_mean"] == pytest.approx(6.0)  # (4 + 8) / 2
    assert stats["without_p99"] == pytest.approx(8.0)
    assert stats["small_without_mean"] == pytest.approx(4.0)  # the 20 KB flow only
    stats = deadline_statistics(size)
    assert stats["met"] == 2 and stats["fraction_met"] == pytest.approx(2 / 3)
    assert stats["without_mean"] == pytest.approx(2.0)  # (1 + 3) / 2
    stats = deadline_statistics(tcp)
    assert stats["met"] == 1  # unfinished, late, in time
    assert stats["without_finished"] == 1 and stats["without_mean"] == pytest.approx(2.0)
    stats = deadline_statistics(edf7)
    assert (stats["met"], stats["terminated"]) == (2, 1)
    # No flow without a deadline: NaN statistics, not an error.
    only = deadline_statistics(edf[edf["deadline_s"].notna()])
    assert only["without_deadline"] == 0 and math.isnan(only["without_mean"])


def test_table_and_markdown(runs: list[Path]) -> None:
    table = deadline_table(read_runs(runs))
    assert list(table["label"]) == ["MinTCP+pFabric, EDF", "MinTCP+pFabric, remaining size",
                                    "TCP-DropTail", "MinTCP+pFabric, EDF"]
    assert list(table["load"]) == [0.5, 0.5, 0.5, 0.7]
    text = deadline_markdown(table, {"flows_per_run": 5, "deadline_rule": "by hand",
                                     "runs": [], "command": "c", "versions": {}})
    assert ("| continue | MinTCP+pFabric, remaining size | 0.5 | 3 | 2 | 0.667 | 0 | 2 | "
            "2.000 | 1.000 | 3.000 | 1.000 |") in text
    assert "| terminate | MinTCP+pFabric, EDF | 0.7 | 3 | 2 | 0.667 | 1 | 2 |" in text
    assert "5 flows per run: a small run, not a citable scale" in text


def test_refuses_other_flows_deadlines_repeats_and_other_runs(tmp_path: Path,
                                                              runs: list[Path]) -> None:
    shifted = write_run(tmp_path / "shifted", 0.5, "dctcp", "none", [0.0001] * 5,
                        deadline_shift=0.0005)
    with pytest.raises(AnalysisError, match="other deadlines"):
        check_deadline_runs(read_runs([*runs, shifted]))
    again = write_run(tmp_path / "again", 0.5, "tcp", "none", [0.0001] * 5)
    with pytest.raises(AnalysisError, match="at load 0.5 again"):
        check_deadline_runs(read_runs([*runs, again]))
    other = write_run(tmp_path / "other", 0.5, "dctcp", "none", [0.0001] * 5,
                      flows=[(s + 1, t, d) for s, t, d in FLOWS])
    with pytest.raises(AnalysisError, match="not the flows of"):
        check_deadline_runs(read_runs([*runs, other]))
    plain = tmp_path / "plain"
    write_run(plain, 0.5, "dctcp", "none", [0.0001] * 5)
    fct = pd.read_csv(plain / "fct.csv").drop(columns=["deadline_s", "met", "terminated"])
    fct.to_csv(plain / "fct.csv", index=False)
    with pytest.raises(AnalysisError, match="not a pfabric-deadlines run"):
        check_deadline_runs(read_runs([*runs, plain]))


def test_command_writes_every_output(tmp_path: Path, runs: list[Path], capsys) -> None:
    out = tmp_path / "figures"
    assert main(["deadlines", *map(str, runs), "--out", str(out), "--name", "dl"]) == 0
    names = sorted(path.name for path in out.iterdir())
    assert names == ["dl.csv", "dl.json", "dl.md", "dl.pdf", "dl.png"]
    document = json.loads((out / "dl.json").read_text())
    assert document["flows_per_run"] == 5 and len(document["runs"]) == 4
    assert document["deadline_parameters"]["deadlineFraction"] == 0.6
    assert pd.read_csv(out / "dl.csv").shape[0] == 4
    assert "wrote" in capsys.readouterr().out


def test_a_priority_other_than_its_schemes_is_refused_and_looks_follow_the_queues(
        tmp_path: Path, runs: list[Path]) -> None:
    """A scheme of pFabric's queues carries edf or remaining, any other none (meta.json's
    scheme_recipe, else the registry before it): TCP with EDF is refused. The legend puts the
    schemes of pFabric's queues first, the remaining size priority in the scheme's second look."""
    from pfabric_analysis.deadlines import deadline_looks
    from pfabric_analysis.plotting import SCHEMES

    edf_tcp = write_run(tmp_path / "edf-tcp", 0.5, "tcp", "edf", [0.0001] * 5)
    with pytest.raises(AnalysisError, match="scheme 'tcp' with priority 'edf' is not a "
                                            "pfabric-deadlines scheme"):
        check_deadline_runs(read_runs([*runs, edf_tcp]))
    looks = deadline_looks(read_runs(runs))
    assert list(looks) == [("pfabric", "edf"), ("pfabric", "remaining"), ("tcp", "none")]
    assert looks[("pfabric", "remaining")]["color"] == SCHEMES["pfabric"]["second_color"]
    assert looks[("tcp", "none")] == {key: SCHEMES["tcp"][key]
                                      for key in ("label", "color", "marker")}


@pytest.mark.parametrize(("row", "met", "outcome"), [
    (0, 0, "completed by its deadline_s"), (1, 1, "did not complete by its deadline_s")])
def test_a_met_its_times_contradict_is_refused(tmp_path: Path, row: int, met: int,
                                               outcome: str) -> None:
    """The tenth probe: a met of 0 on a flow that completed early was taken (flow 0 ends at
    0.0005 by 0.001; flow 1 at 0.0025, after 0.002)."""
    run = write_run(tmp_path / "run", 0.5, "tcp", "none", [0.0005, 0.0015, 0.001, 0.0002, None])
    fct = pd.read_csv(run / "fct.csv")
    assert fct.loc[row, "met"] == 1 - met
    lines = (run / "fct.csv").read_text().splitlines()
    fields = lines[row + 1].split(",")
    fields[fct.columns.get_loc("met")] = f"{met}.0"
    lines[row + 1] = ",".join(fields)
    (run / "fct.csv").write_text("\n".join(lines) + "\n")
    with pytest.raises(AnalysisError) as refusal:
        read_runs([run])
    assert str(refusal.value).startswith(f"{run / 'fct.csv'}:{row + 2}: met '{met}.0', but the "
                                         f"flow {outcome}")


def test_a_met_within_the_times_rounding_is_taken(tmp_path: Path) -> None:
    """A flow ending a nanosecond after its deadline, as printed, may have met it."""
    flows = [(1000, 0.0, 0.001), *FLOWS[1:]]
    run = write_run(tmp_path / "run", 0.5, "tcp", "none", [0.001000001, 0.0005, 0.001, 0.0002,
                                                            None], flows=flows)
    fct = pd.read_csv(run / "fct.csv")
    fct.loc[0, "met"] = 1
    fct.to_csv(run / "fct.csv", index=False)
    assert len(read_runs([run])[0].fct) == 5


@pytest.mark.parametrize("fraction", [1.5, -0.1, "0.6", True, None])
def test_a_deadline_fraction_no_program_takes_is_refused(tmp_path: Path, runs: list[Path],
                                                         fraction: object) -> None:
    meta = json.loads((runs[0] / "meta.json").read_text())
    meta["parameters"]["deadlineFraction"] = fraction
    (runs[0] / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(AnalysisError) as refusal:
        check_deadline_runs(read_runs(runs))
    assert str(refusal.value) == (f"{runs[0]}/meta.json: parameters.deadlineFraction "
                                  f"{fraction!r} is not a fraction in [0, 1]")


def edit_meta(run: Path, **changes: object) -> None:
    """meta.json's members (parameters' under parameters=) changed."""
    meta = json.loads((run / "meta.json").read_text())
    meta["parameters"].update(changes.pop("parameters", {}))
    meta.update(changes)
    (run / "meta.json").write_text(json.dumps(meta))


def edit_fct(run: Path, row: int, **values: int) -> None:
    fct = pd.read_csv(run / "fct.csv")
    for column, value in values.items():
        fct.loc[row, column] = value
    fct.to_csv(run / "fct.csv", index=False)


@pytest.mark.parametrize(("run", "spoil", "message"), [
    # The twelfth probe (F8): counts, parameters and outcomes meta.json and fct.csv contradict.
    (0, lambda run: edit_meta(run, deadlines_met=1),
     r"meta.json: deadlines_met is 1, but .*fct.csv has 3; not the files of one run"),
    (0, lambda run: edit_meta(run, flows_with_deadline=5),
     r"meta.json: flows_with_deadline is 5, but .*fct.csv has 3; not the files of one run"),
    (0, lambda run: edit_meta(run, flows_terminated=1),
     r"meta.json: flows_terminated is 1, but .*fct.csv has 0; not the files of one run"),
    (0, lambda run: edit_meta(run, parameters={"deadlineMean": "-1ms"}),
     r"meta.json: parameters.deadlineMean '-1ms' is not a positive time such as 1ms"),
    (0, lambda run: edit_meta(run, parameters={"deadlineMean": "1"}),
     r"meta.json: parameters.deadlineMean '1' is not a positive time"),
    (0, lambda run: edit_meta(run, parameters={"deadlineMean": "0.5ns"}),
     r"meta.json: parameters.deadlineMean '0.5ns' is not a positive time"),
    (0, lambda run: edit_meta(run, parameters={"deadlineMinFactor": 0.5}),
     r"meta.json: parameters.deadlineMinFactor 0.5 is not a number of at least 1"),
    (0, lambda run: edit_meta(run, parameters={"onMiss": "drop"}),
     r"meta.json: parameters.onMiss 'drop' is not continue or terminate"),
    # tcp's flow 1 completed after its deadline: no run under terminate has it
    (2, lambda run: edit_meta(run, parameters={"onMiss": "terminate"}),
     r"fct.csv:3: a flow that completed after its deadline, and onMiss is terminate"),
    # tcp's flow 0 did not complete; under continue it is not given up
    (2, lambda run: edit_fct(run, 0, terminated=1),
     r"fct.csv:2: a flow terminated, and onMiss is continue"),
    (0, lambda run: edit_fct(run, 0, terminated=1),
     r"fct.csv:2: terminated '1' is not 0 or 1 \(1 only for a flow with a deadline_s that did "
     r"not complete\)"),
    (0, lambda run: edit_fct(run, 3, terminated=1),
     r"fct.csv:5: terminated '1' is not 0 or 1"),
])
def test_deadline_records_the_flows_contradict_are_refused(runs: list[Path], run: int, spoil,
                                                           message: str) -> None:
    check_deadline_runs(read_runs(runs))
    spoil(runs[run])
    with pytest.raises(AnalysisError, match=message):
        check_deadline_runs(read_runs(runs))


def test_the_counts_the_program_records_are_taken(runs: list[Path]) -> None:
    for run, (with_deadline, met, terminated) in zip(runs, [(3, 3, 0), (3, 2, 0), (3, 1, 0),
                                                            (3, 2, 1)]):
        edit_meta(run, flows_with_deadline=with_deadline, deadlines_met=met,
                  flows_terminated=terminated)
    check_deadline_runs(read_runs(runs))
