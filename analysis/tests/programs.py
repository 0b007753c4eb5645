"""The bin_dir fixture of the tests that run the packet programs: the build ./pfabric test passes
in PFABRIC_BUILD_DIR (those tests are skipped without it). Not a conftest.py: test/python has one,
and ./pfabric test collects both directories, where two modules named conftest clash."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture
def bin_dir() -> Path:
    """Where pfabric-websearch and pfabric-datamining are."""
    build = os.environ.get("PFABRIC_BUILD_DIR")
    if not build:
        pytest.skip("needs the build: run through ./pfabric test")
    return Path(build) / "bin"
