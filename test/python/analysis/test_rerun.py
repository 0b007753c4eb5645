"""pfabric-analysis rerun: a point re-run from its meta.json alone gives its fct.csv byte for byte,
for every built-in scheme, a custom one, a data mining point of a sweep's store (its flow list
made again) and Ideal points (a sweep's, with and without the window, their lists made again; one
like a packet run); a tampered parameter gives another fct.csv and a non-zero exit, a meta.json
without a key the rerun needs is refused in one line, and another build is a warning."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from pfabric_analysis.cli import main
from pfabric_analysis.rerun import first_difference, option

# Small runs: a 4-host star, 200 flows at a low load (seconds each); data mining, 80 (its
# flows 81-100 of a list of seed 1 include a 1.45 GB flow: minutes).
SMALL = ("--topology=star", "--hosts=4", "--flows=200", "--load=0.3", "--quiet")
CUSTOM = ("--scheme=custom", "--schemeLabel=fq-cubic", "--portQueueDisc=ns3::FqCoDelQueueDisc",
          "--portQueueDiscAttributes=Interval=100us|Target=10us",
          "--tcpCongestionOps=ns3::TcpCubic")
SCHEMES = {"pfabric": ("--scheme=pfabric",), "linerate": ("--scheme=linerate",),
           "tcp": ("--scheme=tcp", "--ns3::TcpSocket::InitialSlowStartThreshold=17520"),
           "dctcp": ("--scheme=dctcp",), "fq-cubic": CUSTOM}


def make_run(bin_dir: Path, out: Path, program: str, *options: str) -> Path:
    result = subprocess.run([str(bin_dir / program), *SMALL, *options, f"--out={out}"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A websearch run per scheme (tcp with an ns-3 attribute set, so that meta.json's
    ns3_settings count), made by the current programs."""
    from conftest import build_bin_dir

    bin_dir = build_bin_dir()
    root = tmp_path_factory.mktemp("runs")
    return {name: make_run(bin_dir, root / name, "pfabric-websearch", *options)
            for name, options in SCHEMES.items()}


@pytest.mark.parametrize("scheme", list(SCHEMES))
def test_a_run_is_reproduced_from_its_meta_json(bin_dir: Path, runs: dict[str, Path],
                                                scheme: str, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "again"
    assert main(["rerun", str(runs[scheme]), f"--out={out}", f"--bin-dir={bin_dir}"]) == 0
    captured = capsys.readouterr()
    assert captured.out == (f"rerun: {out / 'fct.csv'} is {runs[scheme] / 'fct.csv'} byte for "
                            "byte (200 flows)\n")
    assert captured.err == ""
    assert (out / "fct.csv").read_bytes() == (runs[scheme] / "fct.csv").read_bytes()


# The experiment programs beyond a workload's, each away from its defaults where a rerun could
# lose a setting (the tenth probe, G4: every pfabric-incast and pfabric-classes run was refused,
# for parameters they record but take no option for, and pfabric-deadlines under tcp for its
# recorded --priority=none).
EXPERIMENTS = {
    "deadlines-tcp": ("pfabric-deadlines", "--topology=star", "--hosts=4", "--flows=100",
                      "--load=0.3", "--scheme=tcp", "--deadlineMean=2ms"),
    "deadlines-edf": ("pfabric-deadlines", "--topology=star", "--hosts=4", "--flows=100",
                      "--load=0.3", "--priority=edf", "--onMiss=terminate"),
    "classes": ("pfabric-classes", "--topology=star", "--hosts=4", "--flows=100",
                "--classLoads=0.2,0.3", "--classWeights=3,1"),
    "incast": ("pfabric-incast", "--topology=star", "--hosts=6", "--workers=4", "--queries=4",
               "--responseBytes=20000", "--interval=700us", "--firstQuery=3ms",
               "--aggregator=2", "--background=0.2"),
}


@pytest.mark.parametrize("name", list(EXPERIMENTS))
def test_an_experiment_programs_run_is_reproduced(bin_dir: Path, tmp_path: Path, name: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    program, *options = EXPERIMENTS[name]
    run = tmp_path / "run"
    result = subprocess.run([str(bin_dir / program), "--quiet", *options, f"--out={run}"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    out = tmp_path / "again"
    assert main(["rerun", str(run), f"--out={out}", f"--bin-dir={bin_dir}"]) == 0, \
        capsys.readouterr().err
    assert (out / "fct.csv").read_bytes() == (run / "fct.csv").read_bytes()
    for extra in ("queries.csv", "classes.csv"):
        if (run / extra).exists():
            assert (out / extra).read_bytes() == (run / extra).read_bytes()
    # What the program takes no option for is recorded as such, and nothing else.
    meta = json.loads((run / "meta.json").read_text())
    unset = {"pfabric-incast": {"load", "flows", "cdf", "flowFile", "warmupFlows"},
             "pfabric-classes": {"load", "cdf", "flowFile"}}.get(program, set())
    assert unset <= set(meta["parameters_not_options"])
    assert "scheme" not in meta["parameters_not_options"]
    assert bool(meta["parameters_not_options"]) == bool(unset)


def test_a_stored_data_mining_point_is_reproduced_with_its_flow_list_made_again(
        bin_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A sweep's point runs a flow list of the sweep's (--flowFile); the store keeps neither the
    list nor fct.csv (its compact flows): the rerun makes the list again and compares the
    point's lines."""
    sweep, store = tmp_path / "sweep", tmp_path / "store"
    assert main(["sweep", f"--out={sweep}", f"--store={store}", "--workloads=datamining",
                 "--schemes=pfabric", "--loads=0.3", "--flows=80", "--set=topology=star",
                 "--set=hosts=4", "--quiet", "-j", "1", f"--bin-dir={bin_dir}"]) == 0
    shutil.rmtree(sweep)  # the flow list and the run directory gone: the store's point alone
    point = store / "datamining-pfabric-load0.3-run1"
    capsys.readouterr()
    out = tmp_path / "again"
    assert main(["rerun", str(point), f"--out={out}", f"--bin-dir={bin_dir}"]) == 0
    assert capsys.readouterr().out == (f"rerun: {out / 'fct.csv'} is {point / 'fct.columns.xz'} "
                                       "byte for byte (80 flows)\n")
    assert (out / "flows.csv").is_file()


def test_a_relative_flow_file_is_recorded_absolute_and_reproduced_from_elsewhere(
        bin_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The tenth probe, G5: meta.json kept --flowFile as typed, and the rerun read it against its
    own directory (another file, or none: then a list of its own made again)."""
    made = tmp_path / "made"
    made.mkdir()
    (made / "flows.csv").write_text("src,dst,size_bytes,start_s\n0,1,5000,0.001\n"
                                    "2,3,90000,0.0012\n1,0,1500,0.0015\n")
    monkeypatch.chdir(made)
    run = make_run(bin_dir, tmp_path / "run", "pfabric-websearch", "--flowFile=flows.csv")
    meta = json.loads((run / "meta.json").read_text())
    assert meta["parameters"]["flowFile"] == str(made / "flows.csv")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "flows.csv").write_text("src,dst,size_bytes,start_s\n0,1,7000,0.001\n")
    monkeypatch.chdir(elsewhere)
    out = tmp_path / "again"
    assert main(["rerun", str(run), f"--out={out}", f"--bin-dir={bin_dir}"]) == 0
    assert capsys.readouterr().out.endswith("byte for byte (3 flows)\n")
    # A relative path (recorded before, or edited) is refused, not read against this directory.
    meta["parameters"]["flowFile"] = "flows.csv"
    (run / "meta.json").write_text(json.dumps(meta))
    assert main(["rerun", str(run), f"--out={tmp_path / 'third'}", f"--bin-dir={bin_dir}"]) == 1
    error = capsys.readouterr().err
    assert error == (f"pfabric-analysis: error: {run / 'meta.json'}: parameters.flowFile "
                     "'flows.csv' is relative: which file the run read cannot be told (the "
                     "programs record it absolute)\n")
    # A list of the user's own that is gone is not made again as if it were a sweep's.
    meta["parameters"]["flowFile"] = str(made / "flows.csv")
    (run / "meta.json").write_text(json.dumps(meta))
    (made / "flows.csv").unlink()
    assert main(["rerun", str(run), f"--out={tmp_path / 'fourth'}", f"--bin-dir={bin_dir}"]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"pfabric-analysis: error: {run / 'meta.json'}: its --flowFile is "
                            "gone, and the list made again ran 200 flows where the run ran 3: "
                            "not the list it replayed"), error
    assert error.count("\n") == 1 and not (tmp_path / "fourth").exists()


@pytest.mark.parametrize("length", [("--flows=80",), ("--set=warmupFlows=20",
                                                     "--set=measureFlows=40")])
def test_a_stored_ideal_point_is_reproduced_with_its_flow_list_made_again(
        bin_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        length: tuple[str, ...]) -> None:
    """Issue 53: an Ideal point was refused. A sweep's, run to completion or in the window (its
    list as long as the one it scheduled), is made again from the store alone: the list by its
    program's --flowsOnly, the schedule by pfabric-analysis ideal."""
    sweep, store = tmp_path / "sweep", tmp_path / "store"
    assert main(["sweep", f"--out={sweep}", f"--store={store}", "--workloads=datamining",
                 "--schemes=ideal", "--loads=0.3", *length, "--set=topology=star",
                 "--set=hosts=4", "--quiet", "-j", "1", f"--bin-dir={bin_dir}"]) == 0
    shutil.rmtree(sweep)
    point = store / "datamining-ideal-load0.3-run1"
    flows = json.loads((point / "meta.json").read_text())["flows_total"]
    capsys.readouterr()
    out = tmp_path / "again"
    assert main(["rerun", str(point), f"--out={out}", f"--bin-dir={bin_dir}"]) == 0
    captured = capsys.readouterr()
    assert captured.out == (f"rerun: {out / 'fct.csv'} is {point / 'fct.columns.xz'} byte for "
                            f"byte ({flows if length[0] == '--flows=80' else 40} flows)\n")
    assert (out / "flows.csv").is_file() and "Traceback" not in captured.err


def test_an_ideal_point_like_a_packet_run_is_reproduced_while_its_list_is_there(
        bin_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    flows = tmp_path / "flows.csv"
    make_run(bin_dir, tmp_path / "unused", "pfabric-websearch", "--flowsOnly",
             f"--dumpFlows={flows}")
    like = make_run(bin_dir, tmp_path / "like", "pfabric-websearch", f"--flowFile={flows}")
    ideal = tmp_path / "ideal"
    assert main(["ideal", str(flows), f"--like={like}", f"--out={ideal}"]) == 0
    capsys.readouterr()
    assert main(["rerun", str(ideal), f"--out={tmp_path / 'again'}"]) == 0
    assert capsys.readouterr().out == (f"rerun: {tmp_path / 'again' / 'fct.csv'} is "
                                       f"{ideal / 'fct.csv'} byte for byte (200 flows)\n")
    flows.unlink()
    assert main(["rerun", str(ideal), f"--out={tmp_path / 'third'}"]) == 1
    assert capsys.readouterr().err == (
        f"pfabric-analysis: error: {ideal / 'meta.json'}: an Ideal point like {like.resolve()}, "
        f"and {flows.resolve()} is gone: its flows cannot be made again\n")
    assert not (tmp_path / "third").exists()


def test_a_tampered_parameter_gives_another_fct_and_a_non_zero_exit(
        bin_dir: Path, runs: dict[str, Path], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    tampered = tmp_path / "tampered"
    shutil.copytree(runs["pfabric"], tampered)
    meta = json.loads((tampered / "meta.json").read_text())
    meta["parameters"]["load"] = 0.35
    (tampered / "meta.json").write_text(json.dumps(meta))
    out = tmp_path / "again"
    assert main(["rerun", str(tampered), f"--out={out}", f"--bin-dir={bin_dir}"]) == 1
    line = capsys.readouterr().out
    assert line.startswith(f"rerun: {out / 'fct.csv'} differs from {tampered / 'fct.csv'} from "
                           "line 2: recorded '0,") and line.count("\n") == 1, line


def test_another_build_is_a_warning(bin_dir: Path, runs: dict[str, Path], tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    older = tmp_path / "older"
    shutil.copytree(runs["dctcp"], older)
    meta = json.loads((older / "meta.json").read_text())
    built = meta["git_commit"]
    meta["git_commit"] = "0" * 40
    (older / "meta.json").write_text(json.dumps(meta))
    assert main(["rerun", str(older), f"--out={tmp_path / 'again'}",
                 f"--bin-dir={bin_dir}"]) == 0
    assert capsys.readouterr().err == (
        f"pfabric-analysis rerun: warning: {older / 'meta.json'}: git_commit '{'0' * 40}', but "
        f"the rerun's programs record '{built}'; a difference may be the code's\n")


@pytest.mark.parametrize(("damage", "message"), [
    (lambda meta: meta.pop("git_commit"), "no git_commit, which a rerun needs"),
    (lambda meta: meta["parameters"].pop("seed"), "no parameters.seed, which a rerun needs"),
    (lambda meta: meta.update(program="pfabric-analysis summarize"),
     "program 'pfabric-analysis summarize' is not one of the module's programs nor "
     "pfabric-analysis ideal"),
    (lambda meta: meta.update(program="pfabric-analysis ideal"),
     "an Ideal point with neither like_run nor an ideal_fct_command of the module's programs"),
    (lambda meta: meta["parameters"].update(xcp=1),
     "parameter xcp is not an option of pfabric-websearch"),
    # The twelfth probe, F9: a list of settings ended in a traceback (AttributeError).
    (lambda meta: meta.update(ns3_settings=["x"]), "ns3_settings is not an object"),
    (lambda meta: meta.update(ns3_environment="x"), "ns3_environment is not an object"),
])
def test_what_a_rerun_cannot_run_is_refused_in_one_line(
        bin_dir: Path, runs: dict[str, Path], tmp_path: Path,
        capsys: pytest.CaptureFixture[str], damage, message: str) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(runs["tcp"], broken)
    meta = json.loads((broken / "meta.json").read_text())
    damage(meta)
    (broken / "meta.json").write_text(json.dumps(meta))
    out = tmp_path / "again"
    assert main(["rerun", str(broken), f"--out={out}", f"--bin-dir={bin_dir}"]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"pfabric-analysis: error: {broken / 'meta.json'}: {message}"), error
    assert error.count("\n") == 1 and not out.exists()


def test_a_rerun_its_program_refuses_leaves_no_directory(
        bin_dir: Path, runs: dict[str, Path], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The tenth probe: a rerun whose program refused the recorded settings (here a buffer of
    0p) left its empty --out, and the levels above it."""
    broken = tmp_path / "broken"
    shutil.copytree(runs["tcp"], broken)
    meta = json.loads((broken / "meta.json").read_text())
    meta["parameters"]["buffer"] = "0p"
    (broken / "meta.json").write_text(json.dumps(meta))
    out = tmp_path / "a" / "again"
    assert main(["rerun", str(broken), f"--out={out}", f"--bin-dir={bin_dir}"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("pfabric-analysis: error: pfabric-websearch failed: "), error
    assert sorted(path.name for path in tmp_path.iterdir()) == ["broken"]


def test_a_dry_run_prints_the_command_and_runs_nothing(bin_dir: Path, runs: dict[str, Path],
                                                       tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "again"
    assert main(["rerun", str(runs["tcp"]), f"--out={out}", f"--bin-dir={bin_dir}",
                 "--dry-run"]) == 0
    [command] = capsys.readouterr().out.splitlines()
    assert "--scheme=tcp " in command and "--ns3::TcpSocket::InitialSlowStartThreshold=17520 " in command
    assert "--connectLead=1000us " in command and command.endswith(f"--out={out}")
    assert not out.exists()


def test_first_difference_and_options() -> None:
    assert first_difference(b"a\nb\n", b"a\nb\n") is None
    assert first_difference(b"a\nb\n", b"a\nc\n") == (2, "'b\\n'", "'c\\n'")
    assert first_difference(b"a\n", b"a\nb\n") == (2, "(none)", "'b\\n'")
    assert option("connectLeadUs", 1000) == "--connectLead=1000us"
    assert option("maxSimTime", 100) == "--maxSimTime=100s"
    assert option("reuseConnections", True) == "--reuseConnections=true"
    assert option("load", 0.3) == "--load=0.3"
