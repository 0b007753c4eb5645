"""Fixtures of the tests that run the module's programs: the build that ./pfabric test passes in
PFABRIC_BUILD_DIR (tests that need it are skipped without it). One conftest for the whole tree:
the module's tests here and the analysis package's in analysis/."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from collections.abc import Callable

import pytest

RunExample = Callable[..., subprocess.CompletedProcess]


def build_bin_dir() -> Path:
    """The build's programs directory, or skip the test when no build was given."""
    build = os.environ.get("PFABRIC_BUILD_DIR")
    if not build:
        pytest.skip("needs the build: run through ./pfabric test")
    return Path(build) / "bin"


@pytest.fixture
def bin_dir() -> Path:
    """Where pfabric-websearch, pfabric-datamining and the other programs are."""
    return build_bin_dir()


@pytest.fixture
def run_example() -> RunExample:
    """Run an example of the build: run_example("pfabric-fabric", "--k=4")."""
    programs = build_bin_dir()

    def run(name: str, *arguments: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(programs / name), *arguments],
                              capture_output=True, text=True, timeout=300)

    return run
