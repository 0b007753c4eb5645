"""Bad parameters stop an example at setup with a message naming the parameter, a non-zero exit
status and nothing printed as a result. Needs the build that ./pfabric test passes in
PFABRIC_BUILD_DIR."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

BUILD = os.environ.get("PFABRIC_BUILD_DIR")
pytestmark = pytest.mark.skipif(not BUILD, reason="run through ./pfabric test")


def run_example(*args: str) -> subprocess.CompletedProcess:
    example = Path(BUILD) / "bin" / "pfabric-preemption"
    return subprocess.run([str(example), *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ("--queue=red", "--queue=red: expected pfabric or fifo"),
        ("--shortBytes=0", "--longBytes and --shortBytes must be positive"),
        ("--buffer=0p", "PfabricQueueDisc: MaxSize must hold at least one packet or byte, got 0p"),
        ("--dequeueMode=Fastest", "Fastest is not a valid enum value"),
    ],
)
def test_bad_parameter_stops_with_its_name(argument: str, message: str) -> None:
    result = run_example(argument)
    assert result.returncode != 0
    assert message in result.stderr
    assert "completed in" not in result.stdout


def test_good_parameters_show_preemption() -> None:
    result = run_example("--shortBytes=50000")
    assert result.returncode == 0, result.stderr
    assert "short flow finished first: yes" in result.stdout
