"""Shared by the tests that run the module's examples: the build that ./pfabric test passes in
PFABRIC_BUILD_DIR (tests that need it are skipped without it)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Callable

import pytest

RunExample = Callable[..., subprocess.CompletedProcess]


@pytest.fixture
def run_example() -> RunExample:
    """Run an example of the build: run_example("pfabric-fabric", "--k=4")."""
    build = os.environ.get("PFABRIC_BUILD_DIR")
    if not build:
        pytest.skip("needs the build: run through ./pfabric test")

    def run(name: str, *arguments: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(Path(build) / "bin" / name), *arguments],
                              capture_output=True, text=True, timeout=300)

    return run
