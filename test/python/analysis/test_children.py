"""A program run as a child loads the module library of its own build: a copy of a build's bin/
and lib/ runs the copy's library, not that of the build it was copied from (RUNPATH)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pfabric_analysis.programs import program_environment, run_program


def test_a_program_beside_the_module_library_gets_it_first(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    (tmp_path / "lib").mkdir()
    program = tmp_path / "bin" / "pfabric-websearch"
    environ = {"HOME": "/root", "LD_LIBRARY_PATH": "/opt/a:/opt/b"}
    assert program_environment(program, environ) == environ  # no module library there
    (tmp_path / "lib" / "libns3.37-pfabric-optimized.so").write_bytes(b"")
    env = program_environment(program, environ)
    assert env["LD_LIBRARY_PATH"] == f"{tmp_path / 'lib'}:/opt/a:/opt/b"
    assert env["HOME"] == "/root" and environ["LD_LIBRARY_PATH"] == "/opt/a:/opt/b"
    assert program_environment(program, {})["LD_LIBRARY_PATH"] == str(tmp_path / "lib")
    # A command that is not a build's program (the Python of an Ideal task) is left alone.
    assert program_environment("/usr/bin/python3", environ) == environ


def test_a_copied_build_runs_its_own_library(tmp_path: Path) -> None:
    build = os.environ.get("PFABRIC_BUILD_DIR")
    if not build or not (Path(build) / "lib").is_dir():
        pytest.skip("needs a standalone build: run through ./pfabric test")
    copy = tmp_path / "copy"
    shutil.copytree(Path(build) / "lib", copy / "lib")
    (copy / "bin").mkdir()
    shutil.copy2(Path(build) / "bin" / "pfabric-websearch", copy / "bin")
    env = {**os.environ, "LD_DEBUG": "libs"}
    env.pop("LD_LIBRARY_PATH", None)
    result = run_program([str(copy / "bin" / "pfabric-websearch"), "--PrintHelp"], env=env)
    # The module's library by its name: a checkout's own path may contain "pfabric" too.
    loaded = [line for line in result.stderr.splitlines()
              if "calling init:" in line and "/libns3-pfabric" in line]
    assert loaded and all(str(copy / "lib") in line for line in loaded), loaded
