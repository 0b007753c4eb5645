"""pfabric_analysis.bindings: the module driven from Python through the ns-3 wheel's cppyy
bindings gives exactly what the C++ program gives.

The end-to-end test runs the example (examples/pfabric-python.py) in a subprocess, so that ns-3
and cppyy are never loaded into the pytest process, and compares its DataFrames with
pfabric-websearch's fct.csv."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pfabric_analysis import bindings
from pfabric_analysis.runs import FCT_COLUMNS

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "pfabric-python.py"
TIME_COLUMNS = ("start_s", "fct_s", "ideal_fct_s")
# A 16-host fat-tree with per-packet random load balancing: the paths depend on the seed and run
# (runs 2 and 5 give different FCTs), so the match checks that they are set as the program sets
# them. 60 web search flows at load 0.6 take a few seconds per scheme.
SETUP = {"topology": "fattree", "k": "4", "lb": "random", "seed": "3", "run": "2"}
FLOWS = 60


def as_nanoseconds(frame: pd.DataFrame) -> pd.DataFrame:
    """fct.csv writes times in seconds with 9 decimals, i.e. ns-3's whole nanoseconds (its Time
    resolution): compare times as integers of nanoseconds, everything else as it is."""
    out = frame.copy()
    for column in TIME_COLUMNS:
        out[column] = np.floor(out[column].to_numpy() * 1e9 + 0.5).astype("int64")
    return out


@pytest.mark.skipif(os.environ.get("PFABRIC_SANITIZE") == "1",
                    reason="an ASan-instrumented library cannot be loaded into the venv's "
                           "uninstrumented Python; ./pfabric test (the plain build) runs this")
def test_python_run_equals_the_programs_fct_csv(bin_dir: Path, tmp_path: Path) -> None:
    """pfabric-websearch generates 60 flows and runs them under pFabric, then TCP-DropTail on
    the same flows (--flowFile). The example, in one Python process, generates its flows with
    the same seed and run (generate_flows), builds the same fabric twice and runs both schemes:
    every flow's source, destination, size, start, FCT, ideal FCT and timeouts are the program's,
    to the nanosecond."""
    program_options = [f"--{key}={value}" for key, value in SETUP.items()]
    flow_list = tmp_path / "flows.csv"
    expected = {}
    for scheme in ("pfabric", "tcp"):
        source = ([f"--flows={FLOWS}", f"--dumpFlows={flow_list}"] if scheme == "pfabric"
                  else [f"--flowFile={flow_list}"])
        out = tmp_path / f"cpp-{scheme}"
        result = subprocess.run([str(bin_dir / "pfabric-websearch"), *program_options, *source,
                                 f"--scheme={scheme}", "--quiet", f"--out={out}"],
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        expected[scheme] = pd.read_csv(out / "fct.csv")

    example_options = [option for key, value in SETUP.items() for option in (f"--{key}", value)]
    result = subprocess.run([sys.executable, str(EXAMPLE), *example_options,
                             f"--flows={FLOWS}", "--schemes=pfabric,tcp",
                             f"--out={tmp_path / 'python'}",
                             f"--build-dir={bin_dir.parent}"],
                            capture_output=True, text=True, timeout=600,
                            env=dict(os.environ, PYTHONPATH=str(ROOT / "analysis")))
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.count("(0,100KB]") == 2
    # Loading libns3-core before the wheel's loader runs keeps cling from failing to link
    # nstime.h's static initialiser (bindings.load).
    assert "Failed to materialize symbols" not in result.stderr

    for scheme in ("pfabric", "tcp"):
        got = pd.read_csv(tmp_path / "python" / f"{scheme}.csv")
        assert list(got.columns) == FCT_COLUMNS
        pd.testing.assert_frame_equal(as_nanoseconds(got), as_nanoseconds(expected[scheme]))
    # Not a comparison of two idle fabrics: queueing delays every scheme's flows, and the two
    # schemes differ.
    for frame in expected.values():
        assert (frame.fct_s > 1.2 * frame.ideal_fct_s).sum() >= 5
    assert (expected["pfabric"].fct_s != expected["tcp"].fct_s).sum() >= FLOWS // 2


@pytest.mark.skipif(os.environ.get("PFABRIC_SANITIZE") == "1",
                    reason="an ASan-instrumented library cannot be loaded into the venv's "
                           "uninstrumented Python; ./pfabric test (the plain build) runs this")
def test_a_custom_scheme_from_python_equals_the_programs(bin_dir: Path, tmp_path: Path) -> None:
    """FqCoDel and Cubic by name (install_scheme's custom, the programs' option names): the
    example's run is pfabric-websearch --scheme=custom's, flow for flow, to the nanosecond."""
    parts = {"portQueueDisc": "ns3::FqCoDelQueueDisc",
             "portQueueDiscAttributes": "Interval=100us|Target=10us",
             "tcpCongestionOps": "ns3::TcpCubic"}
    program_options = [f"--{key}={value}" for key, value in SETUP.items()]
    out = tmp_path / "cpp"
    result = subprocess.run([str(bin_dir / "pfabric-websearch"), *program_options,
                             f"--flows={FLOWS}", "--scheme=custom", "--quiet", f"--out={out}",
                             *(f"--{key}={value}" for key, value in parts.items())],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    expected = pd.read_csv(out / "fct.csv")
    example_options = [option for key, value in SETUP.items() for option in (f"--{key}", value)]
    result = subprocess.run([sys.executable, str(EXAMPLE), *example_options,
                             f"--flows={FLOWS}", "--schemes=custom",
                             *(f"--custom={key}={value}" for key, value in parts.items()),
                             f"--out={tmp_path / 'python'}", f"--build-dir={bin_dir.parent}"],
                            capture_output=True, text=True, timeout=600,
                            env=dict(os.environ, PYTHONPATH=str(ROOT / "analysis")))
    assert result.returncode == 0, result.stderr[-3000:]
    got = pd.read_csv(tmp_path / "python" / "custom.csv")
    pd.testing.assert_frame_equal(as_nanoseconds(got), as_nanoseconds(expected))
    assert (expected.fct_s > 1.2 * expected.ideal_fct_s).sum() >= 5


def test_load_names_a_missing_build(tmp_path: Path) -> None:
    with pytest.raises(bindings.BindingsError,
                       match=rf"^{tmp_path}/lib/libns3-pfabric\.so not found: run ./pfabric "
                             "build, or pass build_dir / set PFABRIC_BUILD_DIR") as error:
        bindings.load(tmp_path)
    assert "\n" not in str(error.value)
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "libns3-pfabric.so").touch()
    with pytest.raises(bindings.BindingsError, match="pfabric-preset.h not found: an incomplete "
                                                     "build"):
        bindings.load(tmp_path)


FLOWS_OK = [{"src": 0, "dst": 1, "size_bytes": 1460, "start_s": 0.0},
            {"src": 2, "dst": 0, "size_bytes": 3000, "start_s": 1e-6}]


def test_flow_table_accepts_records_and_frames() -> None:
    table = bindings.flow_table(FLOWS_OK, hosts=3)
    assert list(table.columns) == ["src", "dst", "size_bytes", "start_s"]
    assert table.src.dtype == "int64" and table.start_s.dtype == "float64"
    pd.testing.assert_frame_equal(bindings.flow_table(pd.DataFrame(FLOWS_OK), hosts=3), table)
    with_deadline = bindings.flow_table([{**FLOWS_OK[0], "deadline_s": 1e-3},
                                         {**FLOWS_OK[1], "deadline_s": float("nan")}], hosts=3)
    assert with_deadline.deadline_s[0] == 1e-3 and math.isnan(with_deadline.deadline_s[1])


@pytest.mark.parametrize("change, message", [
    ({"src": 3}, "flows row 1: src is not a host of 0..2"),
    ({"dst": -1}, "flows row 1: dst is not a host of 0..2"),
    ({"dst": 2}, "flows row 1: src and dst are the same host"),
    ({"size_bytes": 0}, "flows row 1: size_bytes is not positive"),
    ({"size_bytes": 1.5}, "flows row 1: size_bytes '1.5' is not an integer"),
    ({"start_s": -1.0}, "flows row 1: start_s is not a time >= 0"),
    ({"start_s": float("inf")}, "flows row 1: start_s is not a time >= 0"),
    ({"deadline_s": 1e-6}, "flows row 1: deadline_s is not after start_s"),
])
def test_flow_table_names_the_bad_row(change: dict, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message.replace('.', '[.]')}$"):
        bindings.flow_table([FLOWS_OK[0], {**FLOWS_OK[1], **change}], hosts=3)


def test_flow_table_names_missing_columns() -> None:
    with pytest.raises(ValueError, match="^flows: missing column[(]s[)] start_s; expected src"):
        bindings.flow_table([{"src": 0, "dst": 1, "size_bytes": 10}], hosts=2)
    with pytest.raises(ValueError, match="^flows: no flows$"):
        bindings.flow_table(pd.DataFrame(columns=["src", "dst", "size_bytes", "start_s"]), 2)


def test_results_frame_has_fct_csv_columns_and_marks_unfinished_flows() -> None:
    table = bindings.flow_table(FLOWS_OK, hosts=3)
    # Flow 1 completed (in 12 us, 2 timeouts); flow 0 did not.
    frame = bindings.results_frame(table, ids=np.array([1]), fct_ns=np.array([12000]),
                                   timeouts=np.array([2]), ideal_ns=np.array([5000, 6000]),
                                   end_s=0.5)
    assert list(frame.columns) == FCT_COLUMNS
    assert frame.completed.tolist() == [0, 1] and frame.timeouts.tolist() == [0, 2]
    assert math.isnan(frame.fct_s[0]) and frame.fct_s[1] == 12e-6
    assert frame.ideal_fct_s.tolist() == [5e-6, 6e-6]
    assert frame.attrs == {"flows_unfinished": 1, "simulated_time_s": 0.5}


def test_nanoseconds_round_as_the_flow_list_reader() -> None:
    # PfabricFlowList::Read: NanoSeconds(llround(start * 1e9)).
    assert bindings.nanoseconds(pd.Series([0.000104883, 1.0000000005, 2.4e-9])).tolist() == [
        104883, 1000000001, 2]
