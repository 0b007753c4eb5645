"""Property-based tests (hypothesis) of the readers of files users and sweeps hand over: fct.csv,
meta.json, flow lists, CDFs and a sweep's state (sweep.json, sweep.lock, a store's points and
leftovers). Whatever the bytes or rows, a reader gives a valid result or AnalysisError, the
one-line error the CLI turns into exit status 1, never another exception (a traceback). The C++
parsers are fuzzed with libFuzzer (test/fuzz, ./pfabric fuzz)."""

from __future__ import annotations

import io
import json
import lzma
import os
import socket
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pfabric_analysis import columnar, store
from pfabric_analysis.ideal import read_cdf, read_flow_list
from pfabric_analysis.lock import LOCK_NAME, parse_holder, sweep_lock
from pfabric_analysis.runs import (FCT_COLUMNS, MEASURED_COLUMN, AnalysisError, Run,
                                   check_poolable, read_run)
from pfabric_analysis.sweep import prepare_directory
from pfabric_analysis.sweep_checks import check_store
from pfabric_analysis.sweep_plan import Task
from pfabric_analysis.sweep_spec import SweepSpec

# Examples per test: enough to find what the hand-made cases missed (each test's first run found
# its bugs within 100), few enough for the suite's time on a busy 2-core machine;
# PFABRIC_HYPOTHESIS_EXAMPLES=N for a longer search (doc/testing.rst, "Fuzzing").
EXAMPLES = settings(max_examples=int(os.environ.get("PFABRIC_HYPOTHESIS_EXAMPLES", "150")),
                    deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Values as a field may hold them: good ones, the edges the readers must refuse, and noise.
FIELDS = st.one_of(
    st.sampled_from(["0", "1", "2", "7", "1460", "100000", "0.5", "1e-05", "2.5e-05", "",
                     "-1", "-0", "inf", "-inf", "nan", "NaN", "1e400", "1e-400", " 1", "1 ",
                     "0x10", "1_0", "1.0", "True", "\ufeff1", "٣", "²", "9" * 30, '"1"']),
    st.text(max_size=6))
GOOD_META = {"workload": "websearch", "parameters": {"scheme": "pfabric", "load": 0.5,
                                                     "seed": 1, "run": 1}}
GOOD_FCT = "\n".join([",".join(FCT_COLUMNS), "0,0,1,1000,0,2e-05,1e-05,0,1",
                      "1,1,0,2000,1e-06,3e-05,2e-05,0,1"]) + "\n"
# Keys of a JSON object: names, and what a message must not print raw.
KEYS = st.sampled_from(["scheme", "load", "\n", "a b"]) | st.text(max_size=6)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(KEYS, children, max_size=4),
    max_leaves=12)
# meta.json objects near the real ones: the keys the readers look up, with any JSON under them.
META = st.fixed_dictionaries({}, optional={
    "workload": JSON | st.sampled_from(["websearch", "datamining"]),
    "parameters": JSON | st.dictionaries(st.sampled_from(["scheme", "load", "seed", "run",
                                                          "flows", "flow-file", "preset"]),
                                         JSON, max_size=5),
    "window": JSON | st.fixed_dictionaries({}, optional={
        "flows_simulated": JSON, "warmup_flows": JSON, "measure_flows": JSON}),
    "ns3_version": JSON})


@contextmanager
def directory() -> Iterator[Path]:
    """A fresh directory per example (pytest's tmp_path is one per test, not per example)."""
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


Result = TypeVar("Result")


def refused_in_one_line(read: Callable[[], Result]) -> Result | None:
    """read()'s result, or None if it raised AnalysisError of one non-empty line; any other
    exception fails the test."""
    try:
        return read()
    except AnalysisError as error:
        message = str(error)
        assert message and "\n" not in message, repr(message)
        return None


def lines(rows: list[list[str]], header: str) -> bytes:
    return "\n".join([header, *(",".join(row) for row in rows)]).encode() + b"\n"


def write_run(run_dir: Path, fct: bytes, meta: bytes) -> None:
    run_dir.mkdir(exist_ok=True)
    (run_dir / "fct.csv").write_bytes(fct)
    (run_dir / "meta.json").write_bytes(meta)


def check_valid_run(run: Run) -> None:
    """What read_run promises of the flows it returns (runs.VALUE_RULES)."""
    fct = run.fct
    assert not fct.empty or MEASURED_COLUMN in fct.columns
    for column in ("flow_id", "src", "dst", "size_bytes", "timeouts"):
        values = pd.to_numeric(fct[column])
        assert (np.isfinite(values) & (values >= 0) & (values == np.floor(values))).all()
    assert (pd.to_numeric(fct["size_bytes"]) > 0).all()
    assert pd.to_numeric(fct["completed"]).isin([0, 1]).all()
    done = pd.to_numeric(fct["completed"]) == 1
    for column in ("fct_s", "ideal_fct_s"):
        values = pd.to_numeric(fct[column])[done]
        assert (np.isfinite(values) & (values > 0)).all()
    assert run.flows_simulated >= len(fct)


# --- fct.csv and meta.json --------------------------------------------------------------------

@EXAMPLES
@given(st.binary(max_size=600))
def test_fct_csv_of_any_bytes_reads_or_is_refused_in_one_line(fct: bytes) -> None:
    with directory() as path:
        write_run(path, fct, json.dumps(GOOD_META).encode())
        run = refused_in_one_line(lambda: read_run(path))
        if run is not None:
            check_valid_run(run)


@EXAMPLES
@given(st.lists(st.lists(FIELDS, min_size=8, max_size=10), max_size=6), st.booleans())
def test_fct_csv_of_any_rows_reads_or_is_refused_in_one_line(rows: list[list[str]],
                                                               measured: bool) -> None:
    header = ",".join(FCT_COLUMNS + ([MEASURED_COLUMN] if measured else []))
    with directory() as path:
        write_run(path, lines(rows, header), json.dumps(GOOD_META).encode())
        run = refused_in_one_line(lambda: read_run(path))
        if run is not None:
            check_valid_run(run)


@EXAMPLES
@given(st.one_of(META.map(lambda meta: json.dumps(meta).encode()),
                 JSON.map(lambda value: json.dumps(value).encode()),
                 st.binary(max_size=200)))
def test_meta_json_of_any_content_reads_or_is_refused_in_one_line(meta: bytes) -> None:
    with directory() as path:
        write_run(path, GOOD_FCT.encode(), meta)
        run = refused_in_one_line(lambda: read_run(path))
        if run is not None:
            check_valid_run(run)
            assert isinstance(run.meta["parameters"], dict)


@EXAMPLES
@given(st.lists(st.dictionaries(KEYS, JSON, max_size=4), min_size=2, max_size=3))
def test_runs_of_any_parameters_pool_or_are_refused_in_one_line(parameters: list[dict]) -> None:
    """compare and figures pool runs whose meta.json parameters agree (runs.check_poolable); a
    run whose parameters no program writes (a load outside (0, 1): runs.check_load) is refused
    when read, in one line too."""
    with directory() as path:
        runs = []
        for i, each in enumerate(parameters):
            write_run(path / str(i), GOOD_FCT.encode(),
                      json.dumps({**GOOD_META, "parameters": each}).encode())
            run = refused_in_one_line(lambda: read_run(path / str(i)))  # noqa: B023
            if run is None:
                return
            runs.append(run)
        refused_in_one_line(lambda: check_poolable(runs))


# --- flow lists and CDFs ----------------------------------------------------------------------

@EXAMPLES
@given(st.one_of(st.binary(max_size=400),
                 st.lists(st.lists(FIELDS, min_size=3, max_size=6), max_size=6).map(
                     lambda rows: lines(rows, "src,dst,size_bytes,start_s")),
                 st.lists(st.lists(FIELDS, min_size=4, max_size=6), max_size=6).map(
                     lambda rows: lines(rows, "src,dst,size_bytes,start_s,deadline_s"))))
def test_a_flow_list_of_any_content_reads_or_is_refused_in_one_line(text: bytes) -> None:
    with directory() as path:
        (path / "flows.csv").write_bytes(text)
        flows = refused_in_one_line(lambda: read_flow_list(path / "flows.csv"))
    if flows is not None:
        assert len(flows) > 0
        assert (flows["src"] >= 0).all() and (flows["dst"] >= 0).all()
        assert (flows["src"] != flows["dst"]).all() and (flows["size_bytes"] > 0).all()
        assert (np.isfinite(flows["start_s"]) & (flows["start_s"] >= 0)).all()


@EXAMPLES
@given(st.one_of(st.binary(max_size=300),
                 st.lists(st.tuples(FIELDS, st.sampled_from([" ", "\t", "  "]), FIELDS),
                          max_size=6).map(
                     lambda rows: "\n".join(a + blank + b for a, blank, b in rows).encode())))
def test_a_cdf_of_any_content_reads_or_is_refused_in_one_line(text: bytes) -> None:
    with directory() as path:
        (path / "sizes.cdf").write_bytes(text)
        cdf = refused_in_one_line(lambda: read_cdf(path / "sizes.cdf"))
    if cdf is not None:
        sizes, probabilities = cdf
        assert np.isfinite(sizes).all() and probabilities[0] == 0 and probabilities[-1] == 1
        assert (np.diff(probabilities) >= 0).all() and (np.diff(sizes) >= 0).all()


# --- a sweep's state --------------------------------------------------------------------------

SPEC = SweepSpec(workloads=("websearch",), schemes=("pfabric",), loads=(0.5,), runs=(1,),
                 flows=(("websearch", 10),))
WINDOWED = SweepSpec(workloads=("websearch",), schemes=("pfabric",), loads=(0.5,), runs=(1,),
                     flows=(("websearch", 10),),
                     knobs=(("measureFlows", "10"), ("warmupFlows", "2")))


@EXAMPLES
@given(st.one_of(st.binary(max_size=200), JSON.map(lambda value: json.dumps(value).encode()),
                 st.just(json.dumps(SPEC.as_json()).encode())))
def test_a_sweep_json_of_any_content_resumes_or_is_refused_in_one_line(text: bytes) -> None:
    with directory() as path:
        (path / "sweep.json").write_bytes(text)
        def resume() -> bool:
            prepare_directory(SPEC, path)
            return True

        resumed = refused_in_one_line(resume)
    if text == json.dumps(SPEC.as_json()).encode():
        assert resumed  # the same sweep resumes


@EXAMPLES
@given(st.one_of(st.text(max_size=40),
                 st.tuples(st.integers(min_value=0) | st.sampled_from(["²", "٣", "1²"]),
                           st.text(min_size=1, max_size=8),
                           st.text(min_size=1, max_size=8)).map(
                     lambda holder: f"{holder[0]} {holder[1]} {holder[2]}")))
def test_a_lock_file_of_any_content_is_taken_over_or_refused_in_one_line(text: str) -> None:
    """A lock file no process holds (its sweep was killed), whatever it says: the next sweep
    takes it over. Its holder's line is read, never trusted to be well formed."""
    holder = parse_holder(text)
    assert holder is None or (holder.pid >= 0 and holder.host and holder.since)
    with directory() as path:
        (path / LOCK_NAME).write_text(text, encoding="utf-8", errors="surrogateescape")

        def take() -> bool:
            with sweep_lock(path, notices=io.StringIO()):
                return True

        assert refused_in_one_line(take)


@EXAMPLES
@given(META.map(lambda meta: json.dumps(meta).encode()) | st.binary(max_size=200),
       st.sampled_from([SPEC, WINDOWED]))
def test_a_store_point_of_any_meta_json_is_checked_or_refused_in_one_line(
        meta: bytes, spec: SweepSpec) -> None:
    with directory() as path:
        point = path / "store" / "websearch-pfabric-load0.5-run1"
        point.mkdir(parents=True)
        (point / store.COMPACT_FCT).write_bytes(columnar.encode(GOOD_FCT.encode()))
        (point / store.META).write_bytes(meta)
        task = Task("packet", point.name, path / "runs" / point.name, store=path / "store",
                    point=("websearch", "pfabric", 0.5, 1))
        refused_in_one_line(lambda: check_store([task], spec))


FIELD = st.binary(max_size=6).filter(lambda b: b"," not in b and b"\n" not in b)


@EXAMPLES
@given(st.integers(min_value=1, max_value=5).flatmap(
    lambda width: st.lists(st.lists(FIELD, min_size=width, max_size=width), min_size=1,
                           max_size=8)))
def test_a_table_stored_by_column_gives_back_its_bytes(rows: list[list[bytes]]) -> None:
    """Any table of any bytes (a field without comma or newline; \r and empty fields too) comes
    back from the compact points' columnar format byte for byte."""
    text = b"".join(b",".join(row) + b"\n" for row in rows)
    assert columnar.decode(columnar.encode(text)) == text


@EXAMPLES
@given(st.binary(max_size=300) | st.binary(max_size=100).map(lzma.compress))
def test_any_bytes_decode_as_a_table_or_are_refused(data: bytes) -> None:
    try:
        text = columnar.decode(data)
    except columnar.NotColumnar:
        return
    assert columnar.decode(columnar.encode(text)) == text


@EXAMPLES
@given(st.one_of(st.text(max_size=30),
                 st.tuples(st.sampled_from(["tmp", "old"]), st.integers(min_value=0)).map(
                     lambda kind_pid: f".websearch-pfabric-load0.5-run1.{kind_pid[0]}-"
                                      f"{socket.gethostname()}-{kind_pid[1]}")))
def test_a_store_of_any_leftover_names_is_cleared_or_refused_in_one_line(name: str) -> None:
    """What a killed writer leaves (.<point>.tmp-<host>-<pid>), or any other hidden name: the next
    sweep clears its own host's dead writers' leftovers and leaves the rest."""
    if "/" in name or "\0" in name or name in ("", ".", ".."):
        return
    with directory() as path:
        leftover = path / name
        leftover.mkdir()
        cleared = refused_in_one_line(
            lambda: store.remove_leftovers(path, {"websearch-pfabric-load0.5-run1"}))
        parsed = store.parse_leftover(name)
        if cleared is not None and parsed is None:
            assert cleared == [] and leftover.is_dir()  # not a leftover: left alone


@EXAMPLES
@given(st.binary(max_size=300))
def test_compacting_any_fct_bytes_keeps_lines_or_is_refused_in_one_line(fct: bytes) -> None:
    """A store keeps fct.csv's header and its measured lines, unchanged (all of them without a
    measured column)."""
    kept = refused_in_one_line(lambda: store.compact_lines(fct, Path("fct.csv")))
    if kept is not None:
        assert kept.splitlines()[:1] == fct.splitlines()[:1]
        assert set(kept.splitlines()) <= set(fct.splitlines())
        if MEASURED_COLUMN.encode() not in fct.splitlines()[0].split(b","):
            assert kept == fct
