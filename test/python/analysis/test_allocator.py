"""The allocator the runners preload: PFABRIC_ALLOCATOR's choices, a caller's own LD_PRELOAD
left alone, one-line errors, and (with the build and the wheel) a program served by mimalloc
saying so in meta.json and writing the same fct.csv as on the system allocator."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pfabric_analysis import allocator
from pfabric_analysis.sweep_spec import SweepSpec, check_spec
from pfabric_analysis.runs import AnalysisError

FAKE = Path("/opt/lib/libmimalloc.so.3")


@pytest.fixture
def wheel(monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(allocator, "mimalloc_library", lambda: FAKE)
    return FAKE


@pytest.fixture
def no_wheel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(allocator, "mimalloc_library", lambda: None)


@pytest.mark.parametrize("value", [None, "", " auto ", "mimalloc"])
def test_mimalloc_is_preloaded_by_default_and_on_request(wheel: Path, value: str | None) -> None:
    environ = {"PATH": "/bin"} if value is None else {"PATH": "/bin", allocator.VARIABLE: value}
    env = allocator.child_environment(environ)
    assert env == {**environ, "LD_PRELOAD": str(wheel)}
    assert environ.get("LD_PRELOAD") is None  # the caller's mapping is not changed


def test_system_preloads_nothing(wheel: Path) -> None:
    environ = {allocator.VARIABLE: "system"}
    assert allocator.child_environment(environ) == environ


def test_a_callers_own_preload_is_left_alone(wheel: Path) -> None:
    environ = {"LD_PRELOAD": "/usr/lib/libjemalloc.so.2"}
    assert allocator.child_environment(environ) == environ


def test_without_the_wheel_auto_is_the_system_allocator(no_wheel: None) -> None:
    assert allocator.child_environment({}) == {}


def test_without_the_wheel_mimalloc_is_an_error(no_wheel: None) -> None:
    with pytest.raises(allocator.AllocatorError, match="PFABRIC_ALLOCATOR=mimalloc: the "
                       "cmeel-mimalloc wheel is not installed"):
        allocator.child_environment({allocator.VARIABLE: "mimalloc"})


@pytest.mark.parametrize("value", ["glibc", "Mimalloc", "off", "1"])
def test_unknown_choice_is_an_error_naming_it(value: str) -> None:
    with pytest.raises(allocator.AllocatorError,
                       match=f"PFABRIC_ALLOCATOR='{value}': expected one of auto, mimalloc, "
                             "system"):
        allocator.child_environment({allocator.VARIABLE: value})


def test_a_sweep_refuses_an_unknown_choice_before_running(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(allocator.VARIABLE, "jemalloc")
    spec = SweepSpec(workloads=("websearch",), schemes=("pfabric",), loads=(0.5,), runs=(1,),
                     flows=(("websearch", 10),))
    with pytest.raises(AnalysisError, match="PFABRIC_ALLOCATOR='jemalloc'"):
        check_spec(spec)


def test_command_prints_the_library_or_nothing_or_one_line_error() -> None:
    def call(value: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pfabric_analysis.allocator"],
                              capture_output=True, text=True,
                              env={"PATH": "/usr/bin:/bin", allocator.VARIABLE: value,
                                   "PYTHONPATH": str(Path(allocator.__file__).parents[1])})

    library = allocator.mimalloc_library()
    auto = call("auto")
    assert auto.returncode == 0 and auto.stdout.strip() == (str(library) if library else "")
    system = call("system")
    assert system.returncode == 0 and system.stdout == ""
    bad = call("tcmalloc")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [
        "pfabric-analysis: error: PFABRIC_ALLOCATOR='tcmalloc': expected one of auto, "
        "mimalloc, system"]


def test_mimalloc_serves_the_program_and_changes_no_result(bin_dir: Path,
                                                            tmp_path: Path) -> None:
    library = allocator.mimalloc_library()
    if library is None:
        pytest.skip("the cmeel-mimalloc wheel is not installed")
    if os.environ.get("PFABRIC_SANITIZE") == "1":
        pytest.skip("nothing may load before a sanitizer build's ASan runtime")
    outputs = {}
    for choice in ("system", "mimalloc"):
        out = tmp_path / choice
        env = allocator.child_environment({"PATH": "/usr/bin:/bin", allocator.VARIABLE: choice})
        # Load 0.8: drops and hundreds of timeouts, so a result that hung on an address (an
        # allocation order) would show.
        result = subprocess.run([str(bin_dir / "pfabric-websearch"), "--quiet", "--flows=100",
                                 "--load=0.8", "--seed=3", f"--out={out}"],
                                capture_output=True, text=True, env=env)
        assert result.returncode == 0, result.stderr
        outputs[choice] = out
    meta = {c: json.loads((o / "meta.json").read_text()) for c, o in outputs.items()}
    assert meta["system"]["allocator"] == "system"
    version = library.name  # libmimalloc.so.3: the major version
    assert meta["mimalloc"]["allocator"].startswith(f"mimalloc {version.rsplit('.', 1)[1]}.")
    assert (outputs["system"] / "fct.csv").read_bytes() == \
        (outputs["mimalloc"] / "fct.csv").read_bytes()
    assert meta["system"]["events"] == meta["mimalloc"]["events"]
    assert meta["system"]["flows_completed"] == 100
