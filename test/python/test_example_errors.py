"""Bad parameters stop an example at setup with a message naming the parameter, a non-zero exit
status and nothing printed as a result."""

from __future__ import annotations

import pytest

from conftest import RunExample


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ("--scheme=red", "--scheme=red: expected pfabric, linerate, tcp or dctcp"),
        ("--preset=sigcomm14", "--preset=sigcomm14: expected hotnets12 or sigcomm13"),
        ("--shortBytes=0", "--longBytes and --shortBytes must be positive"),
        ("--buffer=0p", "PfabricQueueDisc: MaxSize must hold at least one packet or byte, got 0p"),
    ],
)
def test_bad_parameter_stops_with_its_name(run_example: RunExample, argument: str,
                                           message: str) -> None:
    result = run_example("pfabric-preemption", argument)
    assert result.returncode != 0
    assert message in result.stderr
    assert "completed in" not in result.stdout


def test_good_parameters_show_preemption(run_example: RunExample) -> None:
    result = run_example("pfabric-preemption", "--shortBytes=50000")
    assert result.returncode == 0, result.stderr
    assert "short flow finished first: yes" in result.stdout
