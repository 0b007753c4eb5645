"""What cannot be a measurement is refused (issue 54): an FCT below its ideal beyond the times'
rounding, a flow id twice, a meta.json whose counts contradict its fct file, one run pooled
twice; each in one line naming the file (and line), exit status 1. And `store add` onto a file is
one line, not a traceback. Every run directory committed under doc/figures still reads."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import RunExample

from pfabric_analysis import columnar
from pfabric_analysis.cli import main
from pfabric_analysis.runs import (FCT_BELOW_IDEAL_TOLERANCE_NS, REPLICATION_RANGE, AnalysisError,
                                  read_run)

HEADER = "flow_id,src,dst,size_bytes,start_s,fct_s,ideal_fct_s,timeouts,completed"
# Three flows as the programs print them (nine decimals): completed, at their ideal + 1 ns.
LINES = ["0,0,1,1000,0.000000000,0.000020001,0.000020000,0,1",
         "1,1,0,2000,0.000001000,0.000030001,0.000030000,0,1",
         "2,0,1,3000,0.000002000,0.000040001,0.000040000,0,1"]
FIGURES = Path(__file__).resolve().parents[3] / "doc" / "figures"


def write_run(directory: Path, lines: list[str], header: str = HEADER, /, run: int = 1,
              **meta: object) -> Path:
    """A run directory: fct.csv of header and lines, meta.json with its counts as a program
    writes them (flows_total, flows_completed, flows_unfinished) unless given (positional only
    before run: no meta key is taken for them)."""
    directory.mkdir(parents=True)
    (directory / "fct.csv").write_text("".join(f"{line}\n" for line in [header, *lines]))
    completed = sum(line.split(",")[8] == "1" for line in lines)
    counts = {"flows_total": len(lines), "flows_completed": completed,
              "flows_unfinished": len(lines) - completed}
    (directory / "meta.json").write_text(json.dumps(
        {"workload": "websearch", **counts,
         "parameters": {"scheme": "pfabric", "load": 0.5, "seed": 1, "run": run}, **meta}))
    return directory


def started_later(lines: list[str], seconds: int) -> list[str]:
    """lines with every flow starting `seconds` later (start_s, the fifth column, to nine
    decimals): another replication's flows, as the programs draw them (check_poolable refuses two
    runs of the same flows); their FCTs and ideal FCTs are lines'."""
    fields = [line.split(",") for line in lines]
    return [",".join([*f[:4], f"{float(f[4]) + seconds:.9f}", *f[5:]]) for f in fields]


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one line `pfabric-analysis argv` fails with (exit status 1), less its prefix."""
    assert main(list(argv)) == 1
    return one_error_line(capsys).removeprefix("pfabric-analysis: error: ")


# --- an FCT below its ideal -------------------------------------------------------------------

def test_the_good_run_reads(tmp_path: Path) -> None:
    assert len(read_run(write_run(tmp_path / "run", LINES)).fct) == 3


def test_an_fct_below_its_ideal_is_refused_naming_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    below = LINES[1].replace("0.000030001,0.000030000", "0.000015000,0.000030000")
    run = write_run(tmp_path / "run", [LINES[0], below, LINES[2]])
    assert refused(capsys, "summarize", str(run)) == (
        f"{run / 'fct.csv'}:3: fct_s '0.000015000' is below its ideal_fct_s '0.000030000' by "
        "more than 1 ns (the times' rounding); no flow completes faster than alone on an idle "
        "fabric")


def test_an_fct_within_the_rounding_below_its_ideal_reads(tmp_path: Path) -> None:
    """The tolerance is one unit of the ninth decimal the programs print: 1 ns below reads, 2 ns
    below is refused."""
    assert FCT_BELOW_IDEAL_TOLERANCE_NS == 1
    one = LINES[1].replace("0.000030001,", "0.000029999,")
    assert len(read_run(write_run(tmp_path / "one", [LINES[0], one])).fct) == 2
    two = LINES[1].replace("0.000030001,", "0.000029998,")
    with pytest.raises(AnalysisError, match=r"fct.csv:3: fct_s '0.000029998' is below"):
        read_run(write_run(tmp_path / "two", [LINES[0], two]))


def test_an_fct_below_its_ideal_in_a_compact_point_is_refused(tmp_path: Path) -> None:
    point = tmp_path / "point"
    point.mkdir()
    below = LINES[2].replace("0.000040001,", "0.000004000,")
    text = "".join(f"{line}\n" for line in [HEADER, LINES[0], LINES[1], below])
    (point / "fct.columns.xz").write_bytes(columnar.encode(text.encode()))
    shutil.copy(write_run(tmp_path / "run", LINES) / "meta.json", point)
    with pytest.raises(AnalysisError, match=r"^.*point/fct.columns.xz:4: fct_s '0.000004000' is "
                                            "below its ideal_fct_s '0.000040000'"):
        read_run(point)


# --- a flow id twice ---------------------------------------------------------------------------

def test_a_flow_id_twice_is_refused_naming_both_lines(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = write_run(tmp_path / "run", [LINES[0], LINES[1], LINES[1].replace("1,1,0,", "0,1,0,")])
    assert refused(capsys, "summarize", str(run)) == (
        f"{run / 'fct.csv'}:4: flow_id '0' is line 2's too; a run has one line per flow")


# --- meta.json against its fct file ------------------------------------------------------------

@pytest.mark.parametrize(("key", "value", "count"), [
    ("flows_total", 4, 3), ("flows_completed", 2, 3), ("flows_unfinished", 1, 0)])
def test_meta_json_counts_against_fct_csv_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, value: int,
        count: int) -> None:
    run = write_run(tmp_path / "run", LINES, **{key: value})
    assert refused(capsys, "summarize", str(run)) == (
        f"{run / 'meta.json'}: {key} is {value}, but {run / 'fct.csv'} has {count}; not the "
        "files of one run")


# meta.json against itself: the seventh probe's 13 "unsure" records, fields of two runs joined,
# were taken by summarize, steady and store without a word.
PARAMETERS = {"scheme": "pfabric", "preset": "hotnets12", "load": 0.5, "seed": 1, "run": 1}
RECIPE = {"name": "pfabric", "preset": "hotnets12",
          "tcp_socket_factory": {"attributes": {"SegmentSize": 1460}}}


@pytest.mark.parametrize(("meta", "error"), [
    ({"scheme_recipe": {**RECIPE, "name": "tcp"}},
     "scheme_recipe.name 'tcp' is not parameters.scheme 'pfabric'"),
    ({"scheme_recipe": {**RECIPE, "preset": "sigcomm13"}},
     "scheme_recipe.preset 'sigcomm13' is not parameters.preset 'hotnets12'"),
    ({"segment_bytes": 0}, "segment_bytes 0 is not a positive whole number of bytes"),
    ({"segment_bytes": "1460"}, "segment_bytes '1460' is not a positive whole number of bytes"),
    ({"segment_bytes": 1000, "scheme_recipe": RECIPE},
     "segment_bytes 1000 is not the scheme recipe's SegmentSize 1460"),
    ({"hosts": 2, "parameters": {**PARAMETERS, "topology": "star", "hosts": 4}},
     "hosts 2 is not parameters.hosts 4, the size of its star"),
    ({"program": "pfabric-datamining", "parameters": {**PARAMETERS, "flows": 5}},
     "flows_total 3 is not parameters.flows 5, the flows the run drew"),
    # the eighth probe: a stop from another run
    ({"simulated_time_s": 0.02, "stop": {"reason": "flows completed", "end_s": 5}},
     "stop.end_s 5 is not simulated_time_s 0.02, the time the run ended"),
    # the eighth probe, unsure: a fabric from another run
    ({"host_link_bps": 10000000000, "links": {"host_link_bps": 1000000000}},
     "links.host_link_bps 1000000000 is not host_link_bps 10000000000"),
    ({"hosts": 54, "parameters": {**PARAMETERS, "topology": "fattree", "k": 4}},
     "hosts 54 is not the 16 of its parameters' fattree"),
    ({"hosts": 54, "parameters": {**PARAMETERS, "topology": "leafspine", "leaves": 4,
                                  "hostsPerLeaf": 4, "spines": 2}},
     "hosts 54 is not the 16 of its parameters' leafspine"),
    # the tenth probe (U4): a window's parameters without its record, or another's record
    ({"parameters": {**PARAMETERS, "measureFlows": 40000}},
     "parameters.measureFlows 40000 and no window object"),
    ({"parameters": {**PARAMETERS, "measureFlows": 0},
      "window": {"warmup_flows": 0, "measure_flows": 2}},
     "parameters.measureFlows 0 and a window object"),
    ({"parameters": {**PARAMETERS, "warmupFlows": 0, "measureFlows": 3},
      "window": {"warmup_flows": 1, "measure_flows": 3}},
     "window.warmup_flows 1 is not parameters.warmupFlows 0"),
])
def test_a_meta_json_that_contradicts_itself_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], meta: dict, error: str) -> None:
    run = write_run(tmp_path / "run", LINES, **{"parameters": PARAMETERS, **meta})
    assert refused(capsys, "summarize", str(run)) == f"{run / 'meta.json'}: {error}" + (
        "" if "positive whole" in error else "; not the record of one run")


@pytest.mark.parametrize("meta", [
    {"scheme_recipe": RECIPE, "segment_bytes": 1460},
    # a custom scheme's recipe is named after its parts; an Ideal run's is its packet program's
    {"scheme_recipe": {**RECIPE, "name": "fifo-cubic"},
     "parameters": {**PARAMETERS, "scheme": "custom"}},
    {"scheme_recipe": RECIPE, "parameters": {**PARAMETERS, "scheme": "ideal"}},
    # a fat-tree's size is k's: parameters.hosts is the star's option at its default
    {"hosts": 2, "parameters": {**PARAMETERS, "topology": "fattree", "hosts": 16}},
    # k, leaves and hostsPerLeaf at 0: the preset's, which meta.json does not record
    {"hosts": 54, "parameters": {**PARAMETERS, "topology": "fattree", "k": 0}},
    {"hosts": 16, "parameters": {**PARAMETERS, "topology": "fattree", "k": 4}},
    {"hosts": 144, "parameters": {**PARAMETERS, "topology": "leafspine", "leaves": 0,
                                  "hostsPerLeaf": 16}},
    # flows from a list, or a window's (parameters.flows is then not what ran), or of programs
    # that draw others beside them (pfabric-classes' classes, pfabric-incast's queries)
    {"program": "pfabric-websearch", "parameters": {**PARAMETERS, "flows": 5,
                                                    "flowFile": "flows.csv"}},
    {"program": "pfabric-websearch", "parameters": {**PARAMETERS, "flows": 2000,
                                                    "warmupFlows": 1, "measureFlows": 2},
     "window": {"warmup_flows": 1, "measure_flows": 2, "flows_simulated": 3}},
    {"program": "pfabric-classes", "parameters": {**PARAMETERS, "flows": 2}},
    {"program": "pfabric-incast", "parameters": {**PARAMETERS, "flows": 0}},
    # the packet run's end; an Ideal run simulated no packet
    {"simulated_time_s": 0.0123456789, "stop": {"end_s": 0.0123456789}},
    {"simulated_time_s": 0.5, "stop": {"end_s": 0}, "parameters": {**PARAMETERS,
                                                                   "scheme": "ideal"}},
])
def test_a_meta_json_that_agrees_with_itself_is_taken(tmp_path: Path, meta: dict) -> None:
    run = write_run(tmp_path / "run", LINES, **{"parameters": PARAMETERS, **meta})
    assert len(read_run(run).fct) == 3


def test_a_flow_id_outside_the_runs_flows_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A program numbers its flows 0 to flows_total - 1 (issue 54's second probe: 999 in a run of
    30, the counts right, was taken)."""
    run = write_run(tmp_path / "run", [LINES[0], LINES[1].replace("1,1,0,", "999,1,0,"), LINES[2]])
    assert refused(capsys, "summarize", str(run)) == (
        f"{run / 'fct.csv'}:3: flow_id '999' is outside 0 to 2, the ids of "
        f"{run / 'meta.json'}'s 3 flows")


@pytest.mark.parametrize(("line", "hosts", "error"), [
    ("1,2,0,", 2, "fct.csv:3: src '2' is no host of {meta}'s 2 (0 to 1)"),
    ("1,1,5,", 2, "fct.csv:3: dst '5' is no host of {meta}'s 2 (0 to 1)"),
    ("1,1,1,", 2, "fct.csv:3: a flow from host '1' to itself")])
def test_a_flow_between_no_two_hosts_of_the_run_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, hosts: int,
        error: str) -> None:
    """Issue 54's third probe: src 54 in a run of 54 hosts, a meta.json of 2 hosts beside flows
    among 54, and a flow from a host to itself were taken."""
    run = write_run(tmp_path / "run", [LINES[0], LINES[1].replace("1,1,0,", line), LINES[2]],
                    hosts=hosts)
    assert refused(capsys, "summarize", str(run)) == (
        f"{run}/" + error.format(meta=run / "meta.json"))


def test_flows_among_the_runs_hosts_are_taken(tmp_path: Path) -> None:
    assert len(read_run(write_run(tmp_path / "run", LINES, hosts=2)).fct) == 3


# LINES' last flow ends at 0.000002000 + 0.000040001 s.
LAST_END_S = 0.000042001


def test_a_flow_completed_after_its_run_stopped_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 54's third probe: an fct_s of 1e308 was taken and made its bin's mean infinite."""
    huge = LINES[1].replace("0.000030001,", "1e308,")
    run = write_run(tmp_path / "run", [LINES[0], huge, LINES[2]], simulated_time_s=LAST_END_S)
    assert refused(capsys, "summarize", str(run)) == (
        f"{run / 'fct.csv'}:3: start_s '0.000001000' + fct_s '1e308' ends after "
        f"{run / 'meta.json'}'s simulated_time_s {LAST_END_S}; no flow completes after its run "
        "stopped")


@pytest.mark.parametrize(("end_s", "reads"), [(LAST_END_S, True), (LAST_END_S - 1e-9, True),
                                              (LAST_END_S - 2e-9, False)])
def test_a_flow_ending_at_its_runs_end_reads_within_the_rounding(
        tmp_path: Path, end_s: float, reads: bool) -> None:
    """start_s and fct_s are each rounded to the nanosecond: an end 1 ns before the last
    completion reads (FCT_BELOW_IDEAL_TOLERANCE_NS), 2 ns before is refused."""
    run = write_run(tmp_path / "run", LINES, simulated_time_s=end_s)
    if reads:
        assert len(read_run(run).fct) == 3
    else:
        with pytest.raises(AnalysisError, match=r"fct.csv:4: start_s '0.000002000' \+ fct_s "
                                                "'0.000040001' ends after"):
            read_run(run)


def test_an_unfinished_flow_has_no_end_to_check(tmp_path: Path) -> None:
    unfinished = LINES[2].replace("0.000040001,", ",")[:-1] + "0"
    run = write_run(tmp_path / "run", [LINES[0], LINES[1], unfinished],
                    simulated_time_s=0.000031001)
    assert len(read_run(run).fct) == 3


def test_ideals_end_is_its_last_wire_byte_not_checked(tmp_path: Path) -> None:
    """Ideal's simulated_time_s is when its schedule serves the last wire byte; its FCTs add the
    packet run's latency (the committed ns-2 data mining Ideal ends 259 us past it)."""
    run = write_run(tmp_path / "run", LINES, simulated_time_s=LAST_END_S - 1e-6)
    meta = json.loads((run / "meta.json").read_text())
    meta["parameters"]["scheme"] = "ideal"
    (run / "meta.json").write_text(json.dumps(meta))
    assert len(read_run(run).fct) == 3


@pytest.mark.parametrize("value", [5, 5999, "6000", -1])
def test_fewer_bytes_received_than_the_completed_flows_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], value: object) -> None:
    """Issue 54's third probe: bytes_received 5 beside 30 completed flows was taken. LINES'
    flows complete 6,000 bytes."""
    run = write_run(tmp_path / "run", LINES, bytes_received=value)
    assert refused(capsys, "summarize", str(run)) == (
        f"{run / 'meta.json'}: bytes_received {value!r} is not a count of at least the 6000 "
        f"bytes of {run / 'fct.csv'}'s completed flows")


@pytest.mark.parametrize("value", [6000, 7000])
def test_the_completed_flows_bytes_received_or_more_read(tmp_path: Path, value: int) -> None:
    """More than the completed flows' bytes is possible: an unfinished flow's first bytes."""
    assert len(read_run(write_run(tmp_path / "run", LINES, bytes_received=value)).fct) == 3


RATE_BPS = 10_000_000_000


def test_an_ideal_shorter_than_its_bytes_on_the_host_link_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 54's second probe: 100 MB with a 30 KB flow's ideal FCT was taken (100 MB take 80 ms
    on a 10 Gb/s link alone)."""
    run = write_run(tmp_path / "run", [LINES[0], LINES[1].replace(",2000,", ",100000000,"),
                                       LINES[2]], host_link_bps=RATE_BPS)
    assert refused(capsys, "summarize", str(run)) == (
        f"{run / 'fct.csv'}:3: ideal_fct_s '0.000030000' is shorter than size_bytes '100000000' "
        f"take on the host's link alone at {run / 'meta.json'}'s host_link_bps {RATE_BPS}; not "
        "this flow's ideal")


@pytest.mark.parametrize(("size", "reads"), [(37500, True), (37501, True), (37502, False)])
def test_an_ideal_at_its_bytes_on_the_host_link_reads_within_the_rounding(
        tmp_path: Path, size: int, reads: bool) -> None:
    """37,500 B take exactly 30 us at 10 Gb/s; one byte more 30.0008 us, rounded to 1 ns below
    the ideal printed (within FCT_BELOW_IDEAL_TOLERANCE_NS); two bytes 30.0016 us, 2 ns."""
    run = write_run(tmp_path / "run", [LINES[0], LINES[1].replace(",2000,", f",{size},"),
                                       LINES[2]], host_link_bps=RATE_BPS)
    if reads:
        assert len(read_run(run).fct) == 3
    else:
        with pytest.raises(AnalysisError, match="not this flow's ideal"):
            read_run(run)


@pytest.mark.parametrize("rate", ["10Gbps", 0, True, None])
def test_a_host_link_rate_that_is_no_rate_is_refused(tmp_path: Path, rate: object) -> None:
    run = write_run(tmp_path / "run", LINES, host_link_bps=rate)
    with pytest.raises(AnalysisError) as refusal:
        read_run(run)
    assert str(refusal.value) == (f"{run / 'meta.json'}: host_link_bps {rate!r} is not a rate "
                                  "in bit/s")


SEEDS, RUNS = "from 1 to 4294944442", f"from 0 to {2**64 - 1}"


@pytest.mark.parametrize(("key", "value", "values"), [
    ("seed", "abc", SEEDS), ("seed", 0, SEEDS), ("seed", 1.5, SEEDS), ("seed", True, SEEDS),
    ("run", -1, RUNS), ("run", "1", RUNS),
    # the fifth probe: a seed or run no program takes
    ("seed", 4294944443, SEEDS), ("seed", 2**32, SEEDS), ("run", 2**64, RUNS)])
def test_a_replication_that_is_no_whole_number_is_refused(
        tmp_path: Path, key: str, value: object, values: str) -> None:
    """Issue 54's second probe: a meta.json whose seed was text was taken; the analysis tells
    replications apart by seed and run."""
    run = write_run(tmp_path / "run", LINES)
    meta = json.loads((run / "meta.json").read_text())
    meta["parameters"][key] = value
    (run / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(AnalysisError) as refusal:
        read_run(run)
    assert str(refusal.value) == (f"{run / 'meta.json'}: parameters.{key} {value!r} is not a "
                                  f"whole number {values}")


@pytest.mark.parametrize("load", [1.5, 1, 0, -0.2, "0.5", True, float("nan")])
def test_a_load_no_program_takes_is_refused(tmp_path: Path, load: object) -> None:
    """Issue 54's ninth probe: a meta.json whose load was 1.5 was stored and drawn as a point;
    the programs take a load in (0, 1)."""
    run = write_run(tmp_path / "run", LINES)
    meta = json.loads((run / "meta.json").read_text())
    meta["parameters"]["load"] = load
    (run / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(AnalysisError) as refusal:
        read_run(run)
    assert str(refusal.value) == (f"{run / 'meta.json'}: parameters.load {load!r} is not a load "
                                  "in (0, 1)")


@pytest.mark.parametrize(("load", "background", "message"), [
    (0, 0, None), (0.3, 0.3, None), (1, 1, "is not a load in [0, 1)"),
    (-0.1, -0.1, "is not a load in [0, 1)"),
    (0.3, 0, "is not incast.background_load 0; not the record of one run")])
def test_an_incast_runs_load_is_its_background(tmp_path: Path, load: float, background: float,
                                               message: str | None) -> None:
    """The tenth probe: pfabric-incast records its background's load, 0 for none, and every
    run of it without one was refused."""
    run = write_run(tmp_path / "run", LINES)
    meta = json.loads((run / "meta.json").read_text())
    meta["parameters"]["load"] = load
    meta["incast"] = {"background_load": background}
    (run / "meta.json").write_text(json.dumps(meta))
    if message is None:
        read_run(run)
        return
    with pytest.raises(AnalysisError) as refusal:
        read_run(run)
    assert str(refusal.value) == f"{run / 'meta.json'}: parameters.load {load!r} {message}"


def test_an_incast_run_without_background_is_read(run_example: RunExample,
                                                  tmp_path: Path) -> None:
    out = tmp_path / "incast"
    result = run_example("pfabric-incast", "--topology=star", "--hosts=4", "--workers=3",
                         "--queries=4", "--quiet", f"--out={out}")
    assert result.returncode == 0, result.stderr
    assert len(read_run(out).fct) == 12


@pytest.mark.parametrize("key", sorted(REPLICATION_RANGE))
def test_the_replication_range_is_what_the_programs_take(bin_dir: Path, tmp_path: Path,
                                                         key: str) -> None:
    """The analysis's range of seeds and runs (REPLICATION_RANGE, written out in Python) is the
    one a program takes (PfabricCommandLine::MAX_SEED; RngRun's 64 bits): its ends draw flows,
    one past either end is refused."""
    least, most = REPLICATION_RANGE[key]
    for value, takes in ((least, True), (most, True), (least - 1, False), (most + 1, False)):
        flows = tmp_path / f"{value}.csv"
        result = subprocess.run([str(bin_dir / "pfabric-websearch"), "--flows=2", "--flowsOnly",
                                 f"--dumpFlows={flows}", f"--{key}={value}"],
                                capture_output=True, text=True)
        assert (result.returncode == 0, flows.exists()) == (takes, takes), (value, result.stderr)


@pytest.mark.parametrize("hosts", ["2", 1, True, 2.0])
def test_a_host_count_that_is_no_count_is_refused(tmp_path: Path, hosts: object) -> None:
    """Issue 54's fifth probe: "hosts": "2" (text) skipped the host check, and flows among 54
    hosts were summarised."""
    run = write_run(tmp_path / "run", LINES, hosts=hosts)
    with pytest.raises(AnalysisError) as refusal:
        read_run(run)
    assert str(refusal.value) == (f"{run / 'meta.json'}: hosts {hosts!r} is not a count of "
                                  "hosts (2 or more)")


def test_run_zero_reads(tmp_path: Path) -> None:
    assert read_run(write_run(tmp_path / "run", LINES, run=0)).meta["parameters"]["run"] == 0


def test_an_unfinished_flow_counts_as_meta_json_says(tmp_path: Path) -> None:
    unfinished = "3,1,0,4000,0.000003000,,0.000050000,2,0"
    run = read_run(write_run(tmp_path / "run", [*LINES, unfinished]))
    assert run.meta["flows_unfinished"] == 1 and len(run.fct) == 4


def test_meta_json_without_counts_is_not_checked(tmp_path: Path) -> None:
    """Runs written before a count was recorded (and hand-made ones) have none to check."""
    run = write_run(tmp_path / "run", LINES)
    meta = json.loads((run / "meta.json").read_text())
    for key in ("flows_total", "flows_completed", "flows_unfinished"):
        del meta[key]
    (run / "meta.json").write_text(json.dumps(meta))
    assert len(read_run(run).fct) == 3


WINDOW = {"warmup_flows": 1, "measure_flows": 2, "flows_simulated": 4, "measure_max_bytes": 0,
          "arrivals_through_end": True}
# Four flows, the middle two measured (W = 1, N = 2), the last unfinished.
WINDOWED = [f"{line},{flag}" for line, flag in
            zip([*LINES, "3,1,0,4000,0.000003000,,0.000050000,0,0"], (0, 1, 1, 0), strict=True)]


def test_a_windowed_run_whose_counts_agree_reads_and_compacts(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", WINDOWED, HEADER + ",measured", window=WINDOW)
    assert read_run(run).fct["flow_id"].tolist() == [1, 2]
    assert main(["store", "add", str(run), "--store", str(tmp_path / "store")]) == 0
    # the point keeps the measured lines only: its meta.json's flows_total (4) is not its rows
    assert read_run(tmp_path / "store" / "run").fct["flow_id"].tolist() == [1, 2]


@pytest.mark.parametrize(("window", "lines", "error"), [
    ({**WINDOW, "warmup_flows": 0}, None,
     "fct.csv:4: flow 2 of 3000 bytes is measured, but {meta}'s window measures flows 0 to 1"),
    ({**WINDOW, "measure_flows": 3}, None,
     "fct.csv: 2 measured flows, but {meta}'s window measures 3"),
    ({**WINDOW, "measure_max_bytes": 2500}, None,
     ("fct.csv:4: flow 2 of 3000 bytes is measured, but {meta}'s window measures flows 1 to 2 "
      "of at most 2500 bytes")),
    (WINDOW, [*WINDOWED[:3], WINDOWED[3][:-1] + "1"],
     "fct.csv:5: flow 3 of 4000 bytes is measured, but {meta}'s window measures flows 1 to 2"),
])
def test_measured_flows_against_the_window_are_refused(
        tmp_path: Path, window: dict, lines: list[str] | None, error: str) -> None:
    run = write_run(tmp_path / "run", lines or WINDOWED, HEADER + ",measured", window=window)
    with pytest.raises(AnalysisError) as refusal:
        read_run(run)
    assert str(refusal.value) == f"{run}/" + error.format(meta=run / "meta.json")


def test_a_compact_point_of_a_window_is_checked_against_it(tmp_path: Path) -> None:
    """A store keeps a windowed run's measured lines only: their flows are checked against the
    window (here a meta.json of another window beside them)."""
    run = write_run(tmp_path / "run", WINDOWED, HEADER + ",measured", window=WINDOW)
    assert main(["store", "add", str(run), "--store", str(tmp_path / "store")]) == 0
    point = tmp_path / "store" / "run"
    meta = json.loads((point / "meta.json").read_text())
    meta["window"]["warmup_flows"] = 2
    (point / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(AnalysisError, match=r"run/fct.columns.xz:2: flow 1 of 2000 bytes is "
                                            r"measured, but .*'s window measures flows 2 to 3$"):
        read_run(point)


# --- one run pooled twice ----------------------------------------------------------------------

@pytest.mark.parametrize("command", ["summarize", "steady"])
def test_one_run_given_twice_is_not_pooled(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           command: str) -> None:
    run = write_run(tmp_path / "run", LINES)
    assert refused(capsys, command, str(run), str(run)) == (
        f"{run}: the same replication (seed 1, run 1) as {run}")


def test_a_copy_of_a_run_is_not_pooled_with_it(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    run = write_run(tmp_path / "run", LINES)
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    other = write_run(tmp_path / "other", started_later(LINES, 1), run=2)
    assert main(["summarize", str(run), str(other)]) == 0  # two replications pool
    capsys.readouterr()
    assert refused(capsys, "summarize", str(run), str(other), str(copy)) == (
        f"{copy}: the same replication (seed 1, run 1) as {run}")


@pytest.mark.parametrize("apart", [False, True])
def test_a_copy_of_a_run_is_not_stored_as_a_second_replication(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], apart: bool) -> None:
    """Issue 54's fourth probe: `store add` took run1 and a copy of it under another name, in one
    call or in two (figures then refused the store); a second replication (run 2) is taken, and
    so is adding the same run again (its point is not compared with itself). The copy is refused
    alone or beside run 2, which is already stored."""
    run = write_run(tmp_path / "run1", LINES)
    copy = tmp_path / "copy1"
    shutil.copytree(run, copy)
    other = write_run(tmp_path / "run2", started_later(LINES, 1), run=2)
    store = tmp_path / "store"
    assert main(["store", "add", str(run), str(other), "--store", str(store)]) == 0
    assert main(["store", "add", str(run), "--store", str(store)]) == 0
    capsys.readouterr()
    given = [str(copy)] if apart else [str(copy), str(other)]
    assert refused(capsys, "store", "add", *given, "--store", str(store)) == (
        f"{copy}: the same replication (seed 1, run 1) as {store / 'run1'}; a store keeps each "
        "once")
    assert sorted(path.name for path in store.iterdir() if path.name != "columns") == [
        "run1", "run2"]


def test_a_copy_under_edited_labels_is_not_stored(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """The tenth probe's G6 at the store: a run directory copied and its run edited was stored
    (its check read meta.json alone) and `figures` then refused the pair. Another scheme on the
    same flows is another experiment, and stored."""
    run = write_run(tmp_path / "run1", LINES)
    copy = tmp_path / "run2"
    shutil.copytree(run, copy)
    meta = json.loads((copy / "meta.json").read_text())
    meta["parameters"]["run"] = 2
    (copy / "meta.json").write_text(json.dumps(meta))
    store = tmp_path / "store"
    assert main(["store", "add", str(run), "--store", str(store)]) == 0
    capsys.readouterr()
    assert refused(capsys, "store", "add", str(copy), "--store", str(store)) == (
        f"{copy}: the same flows as {store / 'run1'} (src, dst, size_bytes and start_s of every "
        "flow) under other labels, a copy of its workload; a store keeps each once")
    assert sorted(path.name for path in store.iterdir() if path.name != "columns") == ["run1"]
    other = tmp_path / "tcp"
    shutil.copytree(run, other)
    meta["parameters"].update(run=1, scheme="tcp")
    (other / "meta.json").write_text(json.dumps(meta))
    assert main(["store", "add", str(other), "--store", str(store)]) == 0


def test_two_copies_given_at_once_are_not_stored(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = write_run(tmp_path / "run1", LINES)
    copy = tmp_path / "copy1"
    shutil.copytree(run, copy)
    store = tmp_path / "store"
    assert refused(capsys, "store", "add", str(run), str(copy), "--store", str(store)) == (
        f"{copy}: the same replication (seed 1, run 1) as {run}; a store keeps each once")
    assert not store.exists()


# --- store add onto a file ---------------------------------------------------------------------

def test_store_add_onto_a_file_is_one_line_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = write_run(tmp_path / "run", LINES)
    target = tmp_path / "store"
    target.write_text("a file\n")
    assert refused(capsys, "store", "add", str(run), "--store", str(target)) == (
        f"--store {target}: not a directory")
    assert target.read_text() == "a file\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["run", "store"]


def test_a_point_written_into_a_file_is_one_line(tmp_path: Path) -> None:
    """The writer a sweep's --store uses: the shared column it cannot write is named, and the
    failure is AnalysisError, not the NotADirectoryError of removing its temporary."""
    from pfabric_analysis import store

    target = tmp_path / "store"
    target.write_text("a file\n")
    with pytest.raises(AnalysisError, match=r"^.*store/columns/[0-9a-f]{64}.xz: cannot write the "
                                            r"shared column \(Not a directory\)$"):
        store.write_point(write_run(tmp_path / "run", LINES), target)


# --- the committed data ------------------------------------------------------------------------

def test_every_committed_run_directory_reads() -> None:
    """Every run directory under doc/figures but its standard store (test_store reads those) is
    read through every check: no committed measurement is refused."""
    directories = sorted({path.parent for path in FIGURES.rglob("meta.json")
                          if FIGURES / "store" not in path.parents})
    assert len(directories) >= 190
    for directory in directories:
        read_run(directory)
