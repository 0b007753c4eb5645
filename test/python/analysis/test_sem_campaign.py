"""SEM campaigns (pfabric_analysis.sem_campaign): the pure pieces on hand-made inputs, always; a
real campaign of pfabric-websearch in an ns-3 tree when PFABRIC_NS3_TREE names one (.ci/in-tree
sets it to the ns-3.37 tree it has just built; ./pfabric test has none and skips that test)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pandas as pd
import pytest

from pfabric_analysis.cli import main
from pfabric_analysis.runs import AnalysisError
from pfabric_analysis.sem_campaign import (
    campaign_parameters,
    check_points,
    grid_points,
    parse_grid,
    parse_runs,
    point_rows,
    results_frame,
    to_xarray,
)
from pfabric_analysis.programs import parse_value, program_options

# The shape of ns-3.37's --PrintHelp, with the lines that matter: an option without a printed
# default, an option whose help names another option, and the general section after.
HELP = """pfabric-websearch [Program Options] [General Arguments]

Program Options:
    --scheme:            pfabric, linerate, tcp or dctcp [pfabric]
    --load:              offered load, fraction of the host link in wire bytes, in (0, 1) [0.6]
    --flows:             number of flows to generate [2000]
    --topology:          fattree, leafspine or star (default: the preset's)
    --dumpFlows:         write the flows run to this CSV
    --flowsOnly:         with --dumpFlows: write the flow list and stop, simulating nothing [false]
    --run:               ns-3 run number (independent replications) [1]
    --out:               run directory (default: results/<named after the parameters>)
    --quiet:             no progress on stderr [false]

General Arguments:
    --PrintGroup=[group]:        Print all TypeIds of group.
    --PrintHelp:                 Print this help message.
"""


def test_the_options_and_defaults_are_read_from_the_help() -> None:
    options = program_options(HELP)
    assert options == {"scheme": "pfabric", "load": 0.6, "flows": 2000, "topology": None,
                       "dumpFlows": None, "flowsOnly": False, "run": 1, "out": None,
                       "quiet": False}
    assert isinstance(options["flows"], int)
    # SEM 0.3.9.1's own reading (runner.get_available_parameters) names an option after the
    # last --word: of its line: flowsOnly's line would become a dumpFlows with default false.
    line = next(line for line in HELP.splitlines() if "--flowsOnly" in line)
    assert re.findall(r".*--(.*?)[?::|=].*", line) == ["dumpFlows"]
    with pytest.raises(AnalysisError, match="no 'Program Options:' section"):
        program_options("usage: something else\n")


def test_options_without_a_default_stay_out_unless_set() -> None:
    options = program_options(HELP)
    assert set(campaign_parameters(options, [])) == {"scheme", "load", "flows", "flowsOnly",
                                                     "run", "out", "quiet"}
    assert "topology" in campaign_parameters(options, ["topology"])


def test_values_and_grids_are_parsed_and_checked() -> None:
    assert [parse_value(text) for text in ("30", "0.5", "True", "false", "tcp")] == \
        [30, 0.5, True, False, "tcp"]
    assert parse_grid(["scheme=pfabric,tcp", "--load=0.5,0.8"]) == \
        {"scheme": ["pfabric", "tcp"], "load": [0.5, 0.8]}
    for pair, message in (("scheme", "expected KEY=VALUE"), ("scheme=", "expected KEY=VALUE"),
                          ("run=1,2", "set on every point"), ("RngRun=3", "set on every point"),
                          ("out=x", "set on every point"), ("flowsOnly=true", "no fct.csv")):
        with pytest.raises(AnalysisError, match=message):
            parse_grid([pair])
    with pytest.raises(AnalysisError, match="given twice"):
        parse_grid(["load=0.5", "load=0.6"])
    assert parse_runs("1,3") == [1, 3]
    for text in ("", "0", "a"):
        with pytest.raises(AnalysisError, match="--runs"):
            parse_runs(text)


def test_every_point_runs_in_its_directory_with_run_and_rngrun_equal() -> None:
    points = grid_points({"flows": [30], "scheme": ["pfabric", "tcp"], "load": [0.5, 0.8]},
                         [1, 2])
    assert len(points) == 8
    assert {(p["scheme"], p["load"], p["run"]) for p in points} == \
        {(s, load, r) for s in ("pfabric", "tcp") for load in (0.5, 0.8) for r in (1, 2)}
    for point in points:
        assert point["out"] == "." and point["quiet"] is True and point["flows"] == 30
        assert point["RngRun"] == point["run"]


def test_points_must_fit_the_campaign() -> None:
    parameters = campaign_parameters(program_options(HELP), ["topology"])
    good = grid_points({"topology": ["star"], "scheme": ["tcp"]}, [1])
    check_points(good, parameters)
    with pytest.raises(AnalysisError, match="^lb: not a parameter of this campaign"):
        check_points(grid_points({"lb": ["ecmp"]}, [1]), parameters)
    with pytest.raises(AnalysisError, match="^topology: this campaign was created with"):
        check_points(grid_points({"scheme": ["tcp"]}, [1]), parameters)


def write_run(directory: Path, scheme: str, run: int) -> Path:
    """A run directory: two small flows (FCT 2 and 4 times the ideal), a medium one (1.5 times)
    and an unfinished small one."""
    directory.mkdir(parents=True)
    pd.DataFrame({"flow_id": [0, 1, 2, 3], "src": [0, 1, 2, 3], "dst": [1, 2, 3, 0],
                  "size_bytes": [1000, 2000, 200000, 5000], "start_s": [0.0, 0.1, 0.2, 0.3],
                  "fct_s": [2e-5, 4e-5, 3e-4, float("nan")],
                  "ideal_fct_s": [1e-5, 1e-5, 2e-4, 1e-5], "timeouts": [0, 0, 0, 0],
                  "completed": [1, 1, 1, 0]}).to_csv(directory / "fct.csv", index=False)
    (directory / "meta.json").write_text(json.dumps(
        {"parameters": {"scheme": scheme, "load": 0.5, "flows": 4, "run": run, "out": "."}}))
    return directory


def test_a_run_becomes_rows_per_size_bin(tmp_path: Path) -> None:
    point = {"scheme": "pfabric", "load": 0.5, "flows": 4, "out": ".", "quiet": True, "run": 2,
             "RngRun": 2}
    rows = point_rows(point, ["scheme", "load"], write_run(tmp_path / "a", "pfabric", 2))
    frame = results_frame(rows, ["scheme", "load"])
    assert list(frame.columns) == ["scheme", "load", "run", "bin", "flows", "mean", "p99",
                                   "unfinished"]
    small = frame[frame["bin"] == "(0,100KB]"].iloc[0]
    assert (small["scheme"], small["load"], small["run"]) == ("pfabric", 0.5, 2)
    assert (small["flows"], small["mean"], small["p99"], small["unfinished"]) == (2, 3.0, 4.0, 1)
    overall = frame[frame["bin"] == "all"].iloc[0]
    assert overall["flows"] == 3 and overall["mean"] == pytest.approx(7.5 / 3)
    data = to_xarray(frame, ["scheme", "load"])
    assert set(data.sizes) == {"scheme", "load", "run", "bin"}
    medium = data["mean"].sel(scheme="pfabric", load=0.5, run=2, bin="(100KB,10MB]")
    assert float(medium) == pytest.approx(1.5)
    # A run whose meta.json records another value than the point asked for is refused.
    with pytest.raises(AnalysisError, match="scheme is 'tcp', but the campaign asked for"):
        point_rows(point, ["scheme"], write_run(tmp_path / "b", "tcp", 2))
    with pytest.raises(AnalysisError, match="run is 1, but the campaign asked for 2"):
        point_rows(point, ["scheme"], write_run(tmp_path / "c", "pfabric", 1))


def test_bad_command_lines_fail_in_one_line(tmp_path: Path, capsys) -> None:
    for arguments, message in (
            (["--grid", "scheme=tcp"], f"{tmp_path}: not a configured CMake ns-3 tree"),
            ([], "--grid: none given"),
            (["--grid", "scheme=tcp", "--set", "scheme=tcp"], "scheme: both fixed"),
            (["--grid", "scheme=tcp", "--runs", "0"], "--runs 0")):
        assert main(["sem", "--ns3", str(tmp_path), "--campaign", str(tmp_path / "c"),
                     *arguments]) == 1
        error = capsys.readouterr().err
        assert error.startswith(f"pfabric-analysis: error: {message}"), error
        assert error.count("\n") == 1
        assert not (tmp_path / "c").exists()


NS3_TREE = os.environ.get("PFABRIC_NS3_TREE")


@pytest.mark.skipif(not NS3_TREE, reason="needs an ns-3 tree with this module built in "
                                         "contrib/pfabric: PFABRIC_NS3_TREE (.ci/in-tree sets it)")
def test_a_campaign_in_an_ns3_tree(tmp_path: Path, capsys) -> None:
    """2 schemes x 2 loads of 30 web search flows on the hotnets12 fat-tree, through the CLI."""
    assert NS3_TREE is not None  # the skipif's
    campaign = tmp_path / "campaign"
    command = ["sem", "--ns3", NS3_TREE, "--campaign", str(campaign), "--grid",
               "scheme=pfabric,tcp", "--grid", "load=0.5,0.8", "--set", "flows=30", "-j", "2",
               "--out", str(tmp_path / "out")]
    assert main(command) == 0, capsys.readouterr().err
    frame = pd.read_csv(tmp_path / "out" / "sem.csv")
    assert len(frame) == 2 * 2 * 4  # points x (three size bins and all)
    overall = frame[frame["bin"] == "all"].set_index(["scheme", "load"])
    assert sorted(overall.index) == [("pfabric", 0.5), ("pfabric", 0.8), ("tcp", 0.5),
                                     ("tcp", 0.8)]
    # Every flow of every point completed, and FCT is never below the idle fabric's ideal.
    assert (overall["flows"] == 30).all() and (overall["unfinished"] == 0).all()
    assert (frame["mean"].dropna() >= 1.0).all()
    # pFabric serves small flows first: on these flows (seed 1, run 1) its small-flow mean FCT /
    # ideal is below TCP-DropTail's at both loads (1.026 vs 1.206 at 0.5, 1.032 vs 1.081 at 0.8,
    # ns-3.37 debug and optimized alike).
    small = frame[frame["bin"] == "(0,100KB]"].set_index(["scheme", "load"])["mean"]
    for load in (0.5, 0.8):
        assert small[("pfabric", load)] < small[("tcp", load)], small
    # SEM kept one directory per point holding what the run wrote there and nothing else (a
    # misread option once left a flow list named False in each).
    data = sorted((campaign / "data").iterdir())
    assert len(data) == 4
    for directory in data:
        assert {path.name for path in directory.iterdir()} == \
            {"fct.csv", "meta.json", "stdout", "stderr"}
    # A second call finds every point in the campaign and runs nothing.
    assert main(command) == 0
    assert len(list((campaign / "data").iterdir())) == 4
    assert pd.read_csv(tmp_path / "out" / "sem.csv").equals(frame)
    capsys.readouterr()
    # A point the program refuses stops the campaign with one line quoting the program's.
    assert main(["sem", "--ns3", NS3_TREE, "--campaign", str(tmp_path / "bad"), "--grid",
                 "scheme=xcp", "--set", "flows=30", "--out", str(tmp_path / "bad-out")]) == 1
    error = capsys.readouterr().err.splitlines()[-1]  # after SEM's progress bars
    assert error == ("pfabric-analysis: error: SEM: a run failed: pfabric-websearch: error: "
                     "--scheme=xcp: expected pfabric, linerate, tcp, dctcp or custom"), error
    assert not (tmp_path / "bad-out").exists()
