"""Every value parsed strictly (issue 32, point 0, Python): a table of bad inputs to the readers
(fct.csv, flow lists, CDFs) and the command line (numbers, lists, --set), each refused in one
line quoting what was written, exit status 1 and nothing left behind; outputs that cannot be
written; a byte-order mark accepted. (hypothesis is not installed: the cases are a table.)"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from pfabric_analysis.cli import main
from pfabric_analysis.ideal import read_cdf, read_flow_list
from pfabric_analysis.runs import AnalysisError, read_run

HEADER = "flow_id,src,dst,size_bytes,start_s,fct_s,ideal_fct_s,timeouts,completed"
GOOD = "0,0,1,1000,0,2e-05,1e-05,0,1"
BOM = "\ufeff"


def write_run(directory: Path, lines: list[str], header: str = HEADER) -> Path:
    """A run directory whose fct.csv is header and lines exactly as given."""
    directory.mkdir(parents=True)
    (directory / "fct.csv").write_text("".join(f"{line}\n" for line in [header, *lines]))
    (directory / "meta.json").write_text(json.dumps(
        {"parameters": {"scheme": "pfabric", "load": 0.5, "seed": 1, "run": 1}}))
    return directory


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    """What the command printed on stderr, which must be one line."""
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


# --- fct.csv: values, not only shapes ----------------------------------------------------------

# (the bad data line, the column named, the value quoted as written); the line is line 3.
BAD_FCT_LINES = [
    ("1,0,1,1000,0,inf,1e-05,0,1", "fct_s", "inf"),
    ("1,0,1,1000,0,-inf,1e-05,0,1", "fct_s", "-inf"),
    ("1,0,1,1000,0,nan,1e-05,0,1", "fct_s", "nan"),
    ("1,0,1,1000,0,NaN,1e-05,0,1", "fct_s", "NaN"),
    ("1,0,1,1000,0,,1e-05,0,1", "fct_s", ""),
    ("1,0,1,1000,0,-2e-05,1e-05,0,1", "fct_s", "-2e-05"),
    ("1,0,1,1000,0,0,1e-05,0,1", "fct_s", "0"),
    ("1,0,1,1000,0,fast,1e-05,0,1", "fct_s", "fast"),
    ("1,0,1,1000,0,2e-05,0,0,1", "ideal_fct_s", "0"),
    ("1,0,1,1000,0,2e-05,-1e-05,0,1", "ideal_fct_s", "-1e-05"),
    ("1,0,1,1000,0,2e-05,inf,0,1", "ideal_fct_s", "inf"),
    ("1,0,1,1000,0,2e-05,,0,1", "ideal_fct_s", ""),
    ("1,0,1,1000,0,2e-05,1e-05,0,2", "completed", "2"),
    ("1,0,1,1000,0,2e-05,1e-05,0,-1", "completed", "-1"),
    ("1,0,1,1000,0,2e-05,1e-05,0,0.5", "completed", "0.5"),
    ("1,0,1,1000,0,2e-05,1e-05,0,yes", "completed", "yes"),
    ("1,0,1,1000,0,2e-05,1e-05,0,", "completed", ""),
    ("1,0,1,-1000,0,2e-05,1e-05,0,1", "size_bytes", "-1000"),
    ("1,0,1,0,0,2e-05,1e-05,0,1", "size_bytes", "0"),
    ("1,0,1,1000.5,0,2e-05,1e-05,0,1", "size_bytes", "1000.5"),
    ("1,0,1,1000,-1,2e-05,1e-05,0,1", "start_s", "-1"),
    ("1,0,1,1000,inf,2e-05,1e-05,0,1", "start_s", "inf"),
    ("1,0,1,1000,0,2e-05,1e-05,-1,1", "timeouts", "-1"),
    ("1,-1,1,1000,0,2e-05,1e-05,0,1", "src", "-1"),
    ("x,0,1,1000,0,2e-05,1e-05,0,1", "flow_id", "x"),
]


@pytest.mark.parametrize(("line", "column", "written"), BAD_FCT_LINES)
def test_a_bad_fct_value_is_refused_naming_its_line_and_value(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, column: str,
        written: str) -> None:
    run = write_run(tmp_path / "run", [GOOD, line, GOOD.replace("0,", "2,", 1)])
    assert main(["summarize", str(run)]) == 1
    error = one_error_line(capsys)
    assert error.startswith(f"pfabric-analysis: error: {run / 'fct.csv'}:3: "
                            f"{column} {written!r} is not "), error
    assert capsys.readouterr().out == ""


def test_the_line_number_counts_the_header_as_line_1(tmp_path: Path) -> None:
    lines = [GOOD.replace("0,", f"{i},", 1) for i in range(5)]
    lines[3] = lines[3].replace(",1e-05,", ",inf,")
    with pytest.raises(AnalysisError, match=r"fct.csv:5: ideal_fct_s 'inf' is not a positive "
                                            r"time \(empty only for a flow not completed\)$"):
        read_run(write_run(tmp_path / "run", lines))


def test_a_measured_flag_and_an_empty_line_are_checked(tmp_path: Path) -> None:
    windowed = write_run(tmp_path / "windowed", [f"{GOOD},1", f"{GOOD},yes"],
                         f"{HEADER},measured")
    with pytest.raises(AnalysisError, match=r"fct.csv:3: measured 'yes' is not 0 or 1$"):
        read_run(windowed)
    blank = write_run(tmp_path / "blank", [GOOD, "", GOOD])
    with pytest.raises(AnalysisError, match=r"fct.csv:3: an empty line$"):
        read_run(blank)


def test_a_deadline_runs_columns_are_checked(tmp_path: Path) -> None:
    """Issue 54's ninth probe: a deadline_s of 'x' ended `pfabric-analysis deadlines` in a
    traceback, and a deadline before its flow's start was taken. A flow without a deadline has
    neither a deadline nor met."""
    header = f"{HEADER},deadline_s,met,terminated"
    good = [f"{GOOD},0.002,1,0", GOOD.replace("0,", "1,", 1) + ",,,0"]
    assert len(read_run(write_run(tmp_path / "good", good, header)).fct) == 2
    for name, line, column, written, expected in [
            ("text", f"{GOOD},x,1,0", "deadline_s", "x", "a time at or after the flow's start"),
            ("early", f"{GOOD},-0.001,1,0", "deadline_s", "-0.001",
             "a time at or after the flow's start"),
            ("met", f"{GOOD},0.002,,0", "met", "", "0 or 1"),
            ("terminated", f"{GOOD},0.002,1,2", "terminated", "2", "0 or 1")]:
        run = write_run(tmp_path / name, [good[1], line], header)
        with pytest.raises(AnalysisError, match=f"fct.csv:3: {column} '{written}' is not "
                                                f"{expected}"):
            read_run(run)


def test_an_unfinished_flow_has_no_fct_and_is_read(tmp_path: Path) -> None:
    run = read_run(write_run(tmp_path / "run", [GOOD, "1,0,1,1000,0,,1e-05,0,0",
                                                "2,0,1,1000,0,nan,1e-05,0,0"]))
    assert run.fct["completed"].tolist() == [1, 0, 0]


def test_a_header_only_fct_csv_has_no_flows(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    run = write_run(tmp_path / "run", [])
    assert main(["summarize", str(run)]) == 1
    assert one_error_line(capsys) == (f"pfabric-analysis: error: {run / 'fct.csv'}: no flows "
                                      "(a header alone)")


def test_a_byte_order_mark_in_fct_csv_is_accepted(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", [GOOD], BOM + HEADER)
    assert read_run(run).fct["fct_s"].tolist() == [2e-05]


# --- flow lists and CDFs ----------------------------------------------------------------------

def test_a_byte_order_mark_starting_a_flow_list_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "flows.csv"
    path.write_bytes(f"{BOM}src,dst,size_bytes,start_s\n0,1,1000,0.5\n".encode())
    flows = read_flow_list(path)
    assert flows[["src", "dst", "size_bytes", "start_s"]].values.tolist() == [[0, 1, 1000, 0.5]]


def test_a_byte_order_mark_starting_a_cdf_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "sizes.cdf"
    path.write_bytes(f"{BOM}1460 0\n2920 0.5\n14600 1\n".encode())
    sizes, cdf = read_cdf(path)
    assert sizes.tolist() == [1460, 2920, 14600] and cdf.tolist() == [0, 0.5, 1]


@pytest.mark.parametrize(("text", "message"), [
    ("1460 0\n2920 nan\n14600 1\n", ":2: 'nan': expected a finite number$"),
    ("1460 0\n2920 0.5\ninf 1\n", ":3: 'inf': expected a finite number$"),
    ("1460 0\n2920 0.5 7\n14600 1\n", ":2: '2920 0.5 7': expected 'size_bytes "
                                      "cumulative_probability'$"),
    ("# sizes\n1460 0\n2920 1_0\n", ":3: '1_0': expected a finite number$"),
])
def test_a_bad_cdf_value_is_refused_naming_its_line(tmp_path: Path, text: str,
                                                   message: str) -> None:
    path = tmp_path / "sizes.cdf"
    path.write_text(text)
    with pytest.raises(AnalysisError, match=message):
        read_cdf(path)


@pytest.mark.parametrize(("line", "message"), [
    ("0,1,1000,inf", ":2: start_s 'inf' is not a non-negative number$"),
    ("0,1,1000,nan", ":2: start_s 'nan' is not a non-negative number$"),
    ("0,1,1000, 1", ":2: start_s ' 1' is not a non-negative number$"),
    ("0,1,-5,0", ":2: size_bytes '-5' is not a positive integer$"),
])
def test_a_bad_flow_list_value_is_refused_naming_its_line(tmp_path: Path, line: str,
                                                         message: str) -> None:
    path = tmp_path / "flows.csv"
    path.write_text(f"src,dst,size_bytes,start_s\n{line}\n")
    with pytest.raises(AnalysisError, match=message):
        read_flow_list(path)


# --- numbers and lists on the command line ----------------------------------------------------

# (arguments after the sub-command, the error after "pfabric-analysis: error: ").
BAD_COMMAND_LINES = [
    (["bottleneck", "--load=1.5"], "--load 1.5: expected a number in (0, 1)"),
    (["bottleneck", "--load=0"], "--load 0: expected a number in (0, 1)"),
    (["bottleneck", "--load=nan"], "--load nan: expected a number in (0, 1)"),
    (["bottleneck", "--load=inf"], "--load inf: expected a number in (0, 1)"),
    (["bottleneck", "--load=0.5x"], "--load 0.5x: expected a number in (0, 1)"),
    (["bottleneck", "--flows=1e1"], "--flows 1e1: expected a whole number of at least 1"),
    (["bottleneck", "--flows=-1"], "--flows -1: expected a whole number of at least 1"),
    (["bottleneck", "--hosts=4x"], "--hosts 4x: expected a whole number of at least 2"),
    (["bottleneck", "--seed=0"], "--seed 0: expected a whole number of at least 1"),
    (["sweep", "--seed=1_000"], "--seed 1_000: expected a whole number of at least 1"),
    (["sweep", "-j", "0"], "--jobs 0: expected a whole number of at least 1"),
    (["sweep", "--jobs=2.0"], "--jobs 2.0: expected a whole number of at least 1"),
    (["sweep", "--jobs= 2"], "--jobs ' 2': expected a whole number of at least 1"),
    (["sweep", "--seed="], "--seed '': expected a whole number of at least 1"),
    (["sweep", "--loads=0.2,1.5"], "--loads 0.2,1.5: '1.5': expected a number in (0, 1)"),
    (["sweep", "--loads=0.2,,0.5"], "--loads 0.2,,0.5: an empty item"),
    (["sweep", "--loads=NaN"], "--loads NaN: 'NaN': expected a number in (0, 1)"),
    (["sweep", "--loads=0.5,-0.1"], "--loads 0.5,-0.1: '-0.1': expected a number in (0, 1)"),
    (["sweep", "--runs=1,0"], "--runs 1,0: '0': expected a whole number of at least 1"),
    (["sweep", "--runs=1,2x"], "--runs 1,2x: '2x': expected a whole number of at least 1"),
    (["sweep", "--flows=1e3"], "--flows 1e3: '1e3': expected a whole number of at least 1"),
    (["sweep", "--flows=websearch=10x"],
     "--flows websearch=10x: '10x': expected a whole number of at least 1"),
    (["sweep", "--flows=websearch=5,hadoop=3"],
     "--flows websearch=5,hadoop=3: unknown workload 'hadoop'"),
    (["sweep", "--set=1abc=2"],
     "--set 1abc=2: '1abc' is not an option name (letters and digits, e.g. --set "
     "preset=sigcomm13) or an ns-3 attribute (e.g. --set "
     "ns3::PfabricLineRateTcpSocket::Window=24)"),
    (["sweep", "--set=foo.bar=1"],
     "--set foo.bar=1: 'foo.bar' is not an option name (letters and digits, e.g. --set "
     "preset=sigcomm13) or an ns-3 attribute (e.g. --set "
     "ns3::PfabricLineRateTcpSocket::Window=24)"),
    (["sweep", "--set=ns3::TcpSocket=1"],
     "--set ns3::TcpSocket=1: 'ns3::TcpSocket' is not an option name (letters and digits, e.g. "
     "--set preset=sigcomm13) or an ns-3 attribute (e.g. --set "
     "ns3::PfabricLineRateTcpSocket::Window=24)"),
    (["sweep", "--set=measureFlows=1e3"],
     "--set measureFlows=1e3: expected a whole number of at least 1"),
    (["flow-count", "--tolerance=NaN"], "--tolerance NaN: expected a number in (0, 1)"),
    (["flow-count", "--seconds-per-hop=-1"], "--seconds-per-hop -1: expected a positive number"),
    (["flow-count", "--counts=100,-5"],
     "--counts 100,-5: '-5': expected a whole number of at least 1"),
    (["flow-count", "--warmup=-1", "--window"],
     "--warmup -1: '-1': expected a whole number of at least 0"),
    (["ideal-bench", "--flows= 5"], "--flows ' 5': expected a whole number of at least 1"),
    (["ideal-bench", "--load=1"], "--load 1: expected a number in (0, 1)"),
    (["summarize", "RUN", "--kb=1_000"], "--kb 1_000: expected a whole number of at least 1"),
    (["summarize", "RUN", "--blocks=-1"], "--blocks -1: expected a whole number of at least 0"),
    (["ideal", "FLOWS", "--like=RUN", "--rate-bps=inf"],
     "--rate-bps inf: expected a positive number"),
    (["ideal", "FLOWS", "--like=RUN", "--measure-flows=1.5"],
     "--measure-flows 1.5: expected a whole number of at least 0"),
]


@pytest.mark.parametrize(("arguments", "message"), BAD_COMMAND_LINES)
def test_a_bad_number_on_the_command_line_is_one_line_quoting_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str],
        message: str) -> None:
    out = tmp_path / "out"
    outputs = {"sweep": [f"--out={out}", f"--bin-dir={tmp_path}", "--quiet"],
               "flow-count": [f"--out={out}", f"--bin-dir={tmp_path}"],
               "bottleneck": [f"--out={out}", f"--bin-dir={tmp_path}"],
               "ideal": [f"--out={out}"]}.get(arguments[0], [])
    assert main([*arguments, *outputs]) == 1
    assert one_error_line(capsys) == f"pfabric-analysis: error: {message}"
    assert list(tmp_path.iterdir()) == []


def test_a_set_key_the_program_lacks_is_named(bin_dir: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Checked against the program's --PrintHelp before anything is written; a known key
    passes (the sweep of one Ideal point runs)."""
    out = tmp_path / "sweep"
    arguments = ["sweep", f"--out={out}", "--schemes=ideal", "--flows=4", "--quiet",
                 f"--bin-dir={bin_dir}", "--set=topology=star", "--set=hosts=4"]
    assert main([*arguments, "--set=fooBar=1"]) == 1
    assert one_error_line(capsys) == ("pfabric-analysis: error: --set fooBar=1: unknown option "
                                      "fooBar of pfabric-websearch (its --PrintHelp lists its "
                                      "options)")
    assert not out.exists()
    flow_list = tmp_path / "flows.csv"
    flow_list.write_text("src,dst,size_bytes,start_s\n0,1,1000,0\n")
    assert main(["ideal", str(flow_list), "--preset=hotnets12", f"--bin-dir={bin_dir}",
                 "--set=Hosts=4", f"--out={tmp_path / 'ideal'}"]) == 1
    assert one_error_line(capsys).endswith("--set Hosts=4: unknown option Hosts of "
                                           "pfabric-websearch (its --PrintHelp lists its options)")
    assert main(arguments) == 0
    assert sorted(p.name for p in (out / "runs").iterdir()) == ["websearch-ideal-load0.5-run1"]


# --- outputs that cannot be written -----------------------------------------------------------

def test_an_unwritable_csv_or_out_is_one_line_and_leaves_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = write_run(tmp_path / "run", [GOOD])
    a_file = tmp_path / "a-file"
    a_file.write_text("kept\n")
    flows = tmp_path / "flows.csv"
    flows.write_text("src,dst,size_bytes,start_s\n0,1,1000,0\n")
    cases = [(["summarize", str(run), f"--csv={tmp_path}"],
              f"{tmp_path}: cannot write ({os.strerror(errno.EISDIR)})"),
             (["summarize", str(run), f"--csv={a_file / 'table.csv'}"],
              f"{a_file}: cannot write ({os.strerror(errno.ENOTDIR)})"),
             (["compare", str(run), f"--out={a_file}"],
              f"{a_file}: cannot write ({os.strerror(errno.ENOTDIR)})"),
             (["cdf", str(run), f"--out={a_file / 'deeper'}"],
              f"{a_file / 'deeper'}: cannot write ({os.strerror(errno.ENOTDIR)})"),
             (["ideal", str(flows), f"--like={run}", f"--out={a_file}"],
              f"{a_file}: cannot write ({os.strerror(errno.ENOTDIR)})")]
    before = sorted(tmp_path.rglob("*"))
    for arguments, message in cases:
        assert main(arguments) == 1
        assert one_error_line(capsys) == f"pfabric-analysis: error: {message}"
        assert sorted(tmp_path.rglob("*")) == before and a_file.read_text() == "kept\n"


def test_a_write_failing_midway_leaves_none_of_the_files(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The second file cannot be written (a full disk): the error names it, and neither file,
    nor a temporary, nor the directory this call created is left."""
    from pfabric_analysis.files import write_files

    original = Path.write_text

    def full_disk(self: Path, data: str, *args, **kwargs) -> int:
        if "second" in self.name:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return original(self, data, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full_disk)
    out = tmp_path / "out"
    with pytest.raises(AnalysisError, match=f"^{out / 'second.csv'}: cannot write "
                                            f"\\({os.strerror(errno.ENOSPC)}\\)$"):
        write_files(out, {"first.csv": "a\n", "second.csv": "b\n"})
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    assert [p.name for p in write_files(out, {"first.csv": "a\n", "second.csv": "b\n"})] == [
        "first.csv", "second.csv"]
    assert sorted(p.name for p in out.iterdir()) == ["first.csv", "second.csv"]


def test_a_refused_last_level_leaves_none_of_the_levels_above_it(tmp_path: Path) -> None:
    """The tenth probe: a last level whose name is too long was refused and left the levels
    above it, which this call had made."""
    from pfabric_analysis.files import write_files

    out = tmp_path / "a" / "b" / ("n" * 300)
    with pytest.raises(AnalysisError, match="cannot write"):
        write_files(out, {"first.csv": "a\n"})
    assert list(tmp_path.iterdir()) == []


# --- the validators themselves ----------------------------------------------------------------

@pytest.mark.parametrize("text", ["1", "+7", "007", "1000000"])
def test_a_whole_number_is_digits(text: str) -> None:
    from pfabric_analysis.values import POSITIVE

    assert POSITIVE(text) == int(text)


@pytest.mark.parametrize("text", ["", " 1", "1 ", "1_0", "1.0", "1e3", "0x10", "١", "²", "-0"])
def test_anything_else_is_not_a_whole_number(text: str) -> None:
    from pfabric_analysis.values import POSITIVE, BadValue

    with pytest.raises(BadValue) as refused:
        POSITIVE(text)
    assert str(refused.value) == f"{text!r}: expected a whole number of at least 1"


@pytest.mark.parametrize(("text", "value"), [("0.5", 0.5), (".5", 0.5), ("5e-1", 0.5),
                                             ("+0.25", 0.25), ("1e-3", 0.001)])
def test_a_load_is_a_decimal_number_in_its_range(text: str, value: float) -> None:
    from pfabric_analysis.values import LOAD

    assert LOAD(text) == value


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "Infinity", "1e999", "0", "1", "0,5",
                                  "½", "0.5 ", "1.", "0x1p-1"])
def test_a_load_refuses_the_rest(text: str) -> None:
    from pfabric_analysis.values import LOAD, BadValue

    with pytest.raises(BadValue) as refused:
        LOAD(text)
    assert str(refused.value) == f"{text!r}: expected a number in (0, 1)"


# --- the re-audit of issue 32 (a new list of bad and edge inputs): what it found -----------------

def test_blank_lines_ending_fct_csv_and_a_marked_meta_json_are_read(tmp_path: Path) -> None:
    """An editor's trailing blank lines and byte-order mark: the run is read as it is without."""
    run = write_run(tmp_path / "run", [GOOD, "", ""])
    meta = run / "meta.json"
    meta.write_text(BOM + meta.read_text())
    assert read_run(run).fct["fct_s"].tolist() == [2e-05]


def test_a_size_past_what_a_float_holds_is_refused(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", [GOOD, "1,0,1,99999999999999999999999,0,2e-05,1e-05,0,1"])
    with pytest.raises(AnalysisError, match=r"fct.csv:3: size_bytes '99999999999999999999999' "
                                            r"is not a positive whole number \(at most 2\^53\)$"):
        read_run(run)


def test_levels_without_a_quantised_run_is_one_line(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Only unquantised runs: nothing to draw against (a log axis of no points raised)."""
    run = write_run(tmp_path / "run", [GOOD])
    out = tmp_path / "out"
    assert main(["levels", str(run), f"--out={out}"]) == 1
    assert one_error_line(capsys) == (f"pfabric-analysis: error: {run}: no run with priority "
                                      "levels (a run of --priorityLevels=K, K > 0, to draw "
                                      "against the unquantised ones)")
    assert not out.exists()


def test_a_cdf_of_negative_sizes_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "sizes.cdf"
    path.write_text("-1460 0\n14600 0.5\n146000 1\n")
    with pytest.raises(AnalysisError, match=r"sizes.cdf: the sizes must be positive, not -1460$"):
        read_cdf(path)


def test_an_output_that_is_not_a_regular_file_is_left_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--csv /dev/null (here a FIFO) was replaced by a file (the rename of a whole write): as
    root, /dev/null itself."""
    run = write_run(tmp_path / "run", [GOOD])
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert main(["summarize", str(run), f"--csv={fifo}"]) == 1
    assert one_error_line(capsys) == f"pfabric-analysis: error: {fifo}: cannot write (not a " \
                                     "regular file)"
    assert fifo.is_fifo() and sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "run"]


@pytest.mark.parametrize(("arguments", "message"), [
    (["summarize", "RUN", "--csv="], "--csv '': expected a file or directory name"),
    (["cdf", "RUN", "--out="], "--out '': expected a file or directory name"),
    (["store"], "the following arguments are required: add"),
    (["sweep", "--out=OUT", "--schemes=pfabric,tcp,pfabric"], "--schemes: 'pfabric' given twice"),
    (["sweep", "--out=OUT", "--loads=0.5,0.50"], "--loads: 0.5 given twice"),
])
def test_an_empty_path_a_missing_sub_command_and_a_repeated_point_are_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str],
        message: str) -> None:
    run = write_run(tmp_path / "run", [GOOD])
    out = tmp_path / "out"
    arguments = [str(run) if a == "RUN" else a.replace("OUT", str(out)) for a in arguments]
    extra = [f"--bin-dir={tmp_path}", "--quiet"] if arguments[0] == "sweep" else []
    assert main([*arguments, *extra]) == 1
    assert one_error_line(capsys) == f"pfabric-analysis: error: {message}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]


def test_out_of_memory_is_one_line_quoting_the_command(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """ideal-bench --flows 10000000000 asks numpy for 75 GiB: a traceback before."""
    from pfabric_analysis import ideal

    def too_many(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(ideal, "bench", too_many)
    assert main(["ideal-bench", "--flows=10000000000"]) == 1
    assert one_error_line(capsys) == ("pfabric-analysis: error: pfabric-analysis ideal-bench "
                                      "--flows=10000000000: out of memory (a count too large "
                                      "for this machine?)")


def test_a_store_that_is_a_file_or_a_scheduler_out_of_reach_leaves_nothing(
        bin_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Both failed at every point after the sweep directory was made (the store), or after 30 s
    with the directory made (the scheduler): now refused before anything is written."""
    import distributed

    a_file = tmp_path / "a-file"
    a_file.write_text("kept\n")
    out = tmp_path / "sweep"
    sweep = ["sweep", f"--out={out}", "--flows=4", "--quiet", f"--bin-dir={bin_dir}"]
    assert main([*sweep, f"--store={a_file}"]) == 1
    assert one_error_line(capsys) == f"pfabric-analysis: error: --store {a_file}: not a directory"

    def unreachable(address: str, timeout: str) -> None:
        raise OSError(f"Timed out trying to connect to {address} after {timeout}")

    monkeypatch.setattr(distributed, "Client", unreachable)
    assert main([*sweep, "--scheduler=tcp://nohost:1"]) == 1
    assert one_error_line(capsys) == ("pfabric-analysis: error: --scheduler tcp://nohost:1: cannot "
                                      "connect (Timed out trying to connect to tcp://nohost:1 "
                                      "after 30s)")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


@pytest.mark.parametrize(("knob", "refused"), [
    ("--set=hosts=1x", "--hosts=1x: not a whole number"),
    ("--set=topology=ring", "--topology=ring: expected fattree, leafspine or star"),
    ("--custom-scheme=fq:portQueueDiscAttributes=MaxSize=10q",
     "--portQueueDiscAttributes=MaxSize=10q: '10q' is not a value of "
     "ns3::FifoQueueDisc::MaxSize (ns3::QueueSizeValue)"),
])
def test_a_value_the_program_refuses_is_named_before_the_sweep_writes(
        bin_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], knob: str,
        refused: str) -> None:
    """A --set value was refused by the program at every point, after the sweep directory was
    made, in two lines of the sweep's summary; now one line, before anything is written."""
    out = tmp_path / "sweep"
    schemes = "--schemes=fq" if knob.startswith("--custom") else "--schemes=pfabric"
    assert main(["sweep", f"--out={out}", "--flows=4", "--quiet", f"--bin-dir={bin_dir}",
                 schemes, knob]) == 1
    assert one_error_line(capsys) == f"pfabric-analysis: error: pfabric-websearch refuses {refused}"
    assert list(tmp_path.iterdir()) == []
