"""./pfabric test's accounting (issue 54): it counts the C++ cases the runner reports, fails a
suite that ran none, and fails on a Python test skipped for a reason it does not expect
(EXPECTED_SKIPS), so that a mass skip cannot print "passed". The parsing is tried on pytest's
real output of a small test file, and command_test on stand-in runs: nothing is built."""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_driver() -> ModuleType:
    """The ./pfabric script as a module (it has no .py suffix)."""
    loader = importlib.machinery.SourceFileLoader("pfabric_driver", str(ROOT / "pfabric"))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


driver = load_driver()

# A file of tests, as ./pfabric test's pytest command (-q -rA) reports them: one passes, three
# skip for reasons ./pfabric test expects (the cppyy one with --sanitize only), MASS_SKIP more
# for one it does not.
SKIPPING_TESTS = """
import pytest

def test_runs():
    pass

def test_release():
    pytest.skip("HEAD is not tagged v9.9.9")

@pytest.mark.skipif(True, reason="not a git checkout (a release tarball)")
def test_provenance():
    pass

@pytest.mark.skipif(True, reason="an ASan-instrumented library cannot be loaded into the venv's "
                                 "uninstrumented Python")
def test_cppyy():
    pass
"""
MASS_SKIP = """
@pytest.mark.parametrize("n", range(40))
def test_needs_the_build(n):
    pytest.skip("needs the build: run through ./pfabric test")
"""


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[int, str]:
    """pytest's output on the file without (0) and with the 40 skips (40)."""
    found = {}
    for mass, text in ((0, SKIPPING_TESTS), (40, SKIPPING_TESTS + MASS_SKIP)):
        directory = tmp_path_factory.mktemp(f"mass{mass}")
        (directory / "test_skipping.py").write_text(text)
        found[mass] = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider",
             str(directory)], cwd=directory, capture_output=True, text=True, check=False).stdout
    return found


def test_a_mass_skip_is_found_in_pytests_output(outputs: dict[int, str]) -> None:
    output = outputs[40]
    tests, skips = driver.pytest_results(output)
    assert tests == [("PASSED", "test_skipping.py::test_runs")]
    assert sum(count for count, _, _ in skips) == 43
    assert driver.pytest_totals(output) == {"passed": 1, "skipped": 43}
    unexpected = driver.unexpected_skips(skips, sanitize=False)
    assert sorted((count, reason) for count, _, reason in unexpected) == [
        (1, ("an ASan-instrumented library cannot be loaded into the venv's uninstrumented "
             "Python")),
        (40, "needs the build: run through ./pfabric test")]
    # the sanitizer build expects the cppyy skip too, never the mass skip
    assert [count for count, _, _ in driver.unexpected_skips(skips, sanitize=True)] == [40]


def test_the_expected_skips_alone_pass(outputs: dict[int, str]) -> None:
    _, skips = driver.pytest_results(outputs[0])
    assert sum(count for count, _, _ in skips) == 3
    assert driver.unexpected_skips(skips, sanitize=True) == []


def test_every_expected_skip_is_a_reason_a_test_gives() -> None:
    """EXPECTED_SKIPS and SANITIZER_SKIPS name reasons of this tree's tests: a reason reworded in
    a test would otherwise make its skip unexpected, and one left in the list after its test is
    gone would let another test's skip through."""
    sources = " ".join(re.sub(r'"\s+"', "", path.read_text())
                       for path in (ROOT / "test" / "python").rglob("test_*.py")
                       if path.name != "test_driver.py")
    for reason in (*driver.EXPECTED_SKIPS, *driver.SANITIZER_SKIPS):
        assert reason in sources, reason


# A test blocked for good (a FIFO's read end opened with no writer left, as a CI run once hung),
# beside one that passes, in one file on one xdist worker as ./pfabric test runs them.
BLOCKING_TESTS = """
import os


def test_blocks(tmp_path):
    fifo = tmp_path / "never-written.fifo"
    os.mkfifo(fifo)
    with open(fifo) as f:
        f.read()


def test_after_it():
    assert True
"""


def test_a_hung_test_fails_and_the_run_goes_on(tmp_path: Path) -> None:
    """./pfabric test's timeout options, with 3 seconds: the blocked test fails with its
    traceback, the next one passes, and pytest returns long before this test's own limit."""
    (tmp_path / "test_blocking.py").write_text(BLOCKING_TESTS)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider",
         *driver.hung_test_options(3), "-n", "2", "--dist", "loadfile", str(tmp_path)],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=120)
    tests, _ = driver.pytest_results(result.stdout)
    assert tests == [("PASSED", "test_blocking.py::test_after_it"),
                     ("FAILED", "test_blocking.py::test_blocks")], result.stdout
    assert "Timeout (>3.0s)" in result.stdout
    assert result.returncode == 1


def test_ruff_and_mypy_check_every_python_file() -> None:
    """Both static checks run on every Python file: the package, bench/, the tests, the driver,
    the Python example and the examples' list (issue 53)."""
    assert {"pfabric_analysis", "../bench", "../test/python", "../pfabric",
            "../examples/pfabric-python.py", "../test/examples-to-run.py"} <= \
        set(driver.PYTHON_CHECKED)
    for name, arguments in driver.PYTHON_CHECKS.items():
        assert arguments[-len(driver.PYTHON_CHECKED):] == driver.PYTHON_CHECKED, name


CPP_OUTPUT = """PASS pfabric 12.5 s
    PASS queue disc: the packet of least remaining size leaves first 0.010 s
    PASS window: measured flows are W to W + N - 1 0.250 s
    FAIL transport: LineRate keeps its window 1.000 s
"""


def test_the_cpp_cases_are_counted() -> None:
    assert driver.cpp_cases(CPP_OUTPUT) == [
        ("PASS", "queue disc: the packet of least remaining size leaves first"),
        ("PASS", "window: measured flows are W to W + N - 1"),
        ("FAIL", "transport: LineRate keeps its window")]
    assert driver.cpp_cases("PASS pfabric 0.001 s\n") == []


def stand_in(cpp: str, python: str):
    """A stand-in for driver.run and driver.run_streamed: the runner's --list and suite, the examples, ruff, mypy and
    pytest, each succeeding with the given output."""
    def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
        words = " ".join(map(str, command))
        if "--list" in words:
            return subprocess.CompletedProcess(command, 0, "pfabric\n", "")
        if "--suite=" in words:
            return subprocess.CompletedProcess(command, 0, cpp, "")
        if "pytest" in words:
            return subprocess.CompletedProcess(command, 0, python, "")
        return subprocess.CompletedProcess(command, 0, "", "")
    return run


@pytest.mark.parametrize(("mass", "sanitize", "status"), [
    (0, True, 0),    # the expected skips alone
    (40, True, 1),   # 40 tests that need the build skipped
    (0, False, 1)])  # the cppyy test skipped on the plain build, which runs it
def test_command_test_fails_on_an_unexpected_skip_and_counts_the_cpp_cases(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        outputs: dict[int, str], mass: int, sanitize: bool, status: int) -> None:
    monkeypatch.setattr(driver, "build", lambda *args: tmp_path)
    monkeypatch.setattr(driver, "examples_to_run", list)
    fake = stand_in(CPP_OUTPUT.replace("FAIL", "PASS"), outputs[mass])
    monkeypatch.setattr(driver, "run", fake)
    monkeypatch.setattr(driver, "run_streamed", fake)  # pytest's output, printed as it comes
    assert driver.command_test(argparse.Namespace(sanitize=sanitize, suites_only=False,
                                                  jobs=1)) == status
    out = capsys.readouterr().out
    failures = [line for line in out.splitlines() if line.startswith("FAIL: ")]
    # 3 C++ cases, ruff, mypy and the Python test passed
    assert out.splitlines()[-1] == (f"pfabric test: 6 passed, {len(failures)} failed (C++: 3 "
                                    f"cases in 1 suite; Python: 1 passed, {mass + 3} skipped)")
    if mass:
        assert len(failures) == 1 and re.fullmatch(
            r"FAIL: pytest test_skipping.py:\d+: 40 skipped, not a skip \./pfabric test expects "
            r"\(EXPECTED_SKIPS\): needs the build: run through \./pfabric test", failures[0])
    assert bool(failures) == bool(status)


def test_a_suite_that_ran_no_case_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(driver, "build", lambda *args: tmp_path)
    monkeypatch.setattr(driver, "run", stand_in("PASS pfabric 0.001 s\n", ""))
    assert driver.command_test(argparse.Namespace(sanitize=False, suites_only=True, jobs=1)) == 1
    out = capsys.readouterr().out
    assert "FAIL: pfabric (no test case ran)" in out
    assert out.splitlines()[-1] == ("pfabric test: 0 passed, 1 failed (C++: 0 cases in 1 suite; "
                                    "C++ suites only)")


def test_a_streamed_command_prints_its_lines_as_they_come_and_returns_them(
        capsys: pytest.CaptureFixture[str]) -> None:
    result = driver.run_streamed(["sh", "-c", "echo one; echo two >&2; exit 3"])
    assert result.returncode == 3
    assert result.stdout == "one\ntwo\n"
    assert capsys.readouterr().out == "one\ntwo\n"
