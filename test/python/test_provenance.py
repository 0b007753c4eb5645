"""What the C++ programs record of the module in meta.json: its version (VERSION) and its git
commit, found at build time by cmake/pfabric-git-commit.cmake (CMake) or wscript (waf) and
compiled into helper/experiment/pfabric-provenance.cc alone (a new commit recompiles that one
file)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import RunExample
from pfabric_analysis import git_commit
from test_build_files import WafError, run_wscript

ROOT = Path(__file__).resolve().parents[2]
GENERATED = "pfabric-git-commit.h"
SCRIPT = ROOT / "cmake" / "pfabric-git-commit.cmake"
COMMIT = re.compile(r"[0-9a-f]{40}(-dirty)?")


def recorded_commit(header: Path) -> str:
    """The PFABRIC_GIT_COMMIT a generated header defines."""
    (commit,) = re.findall(r'^#define PFABRIC_GIT_COMMIT "(.*)"$', header.read_text(), re.MULTILINE)
    return commit


def head(repository: Path) -> str:
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=repository, check=True,
                          capture_output=True, text=True).stdout.strip()


def source_copy(tmp_path: Path) -> Path:
    """A copy of what the builds read, without .git: contrib/pfabric as .ci/in-tree makes it."""
    copy = tmp_path / "copy"
    for name in ("VERSION", "size-bins.txt", "wscript", "examples/wscript"):
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, copy / name)
    (copy / "workloads").mkdir()
    return copy


def test_only_the_provenance_source_includes_the_generated_header() -> None:
    sources = [p for directory in ("model", "helper", "helper/experiment", "examples", "test")
               for p in (ROOT / directory).glob("*.[ch]*")]
    including = sorted(str(p.relative_to(ROOT)) for p in sources
                       if f'#include "{GENERATED}"' in p.read_text())
    assert including == ["helper/experiment/pfabric-provenance.cc"]


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_both_builds_record_the_checkouts_commit(tmp_path: Path) -> None:
    commit = git_commit(ROOT)
    assert commit is not None and COMMIT.fullmatch(commit)
    assert commit.removesuffix("-dirty") == head(ROOT)
    run_wscript(ROOT, tmp_path / "waf")
    assert recorded_commit(tmp_path / "waf" / "pfabric-generated" / GENERATED) == commit
    if shutil.which("cmake"):
        header = tmp_path / "cmake" / GENERATED
        subprocess.run(["cmake", f"-DSOURCE_DIR={ROOT}", f"-DGIT={shutil.which('git')}",
                        "-DGIVEN=", f"-DHEADER={header}", "-P", str(SCRIPT)], check=True)
        assert recorded_commit(header) == commit


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake not installed")
def test_cmake_outside_a_checkout_records_the_given_commit_or_unknown(tmp_path: Path) -> None:
    copy = source_copy(tmp_path)
    header = tmp_path / GENERATED

    def generate(given: str) -> subprocess.CompletedProcess:
        return subprocess.run(["cmake", f"-DSOURCE_DIR={copy}", f"-DGIT={shutil.which('git')}",
                               f"-DGIVEN={given}", f"-DHEADER={header}", "-P", str(SCRIPT)],
                              capture_output=True, text=True)

    assert generate("").returncode == 0 and recorded_commit(header) == "unknown"
    assert generate("0123abc-dirty").returncode == 0
    assert recorded_commit(header) == "0123abc-dirty"
    # An unchanged commit leaves the header alone: nothing that includes it recompiles.
    os.utime(header, (0, 0))
    assert generate("0123abc-dirty").returncode == 0 and header.stat().st_mtime == 0
    bad = generate('0123"; rm')
    assert bad.returncode != 0 and "PFABRIC_GIT_COMMIT='0123\"; rm' is not a git commit" in (
        bad.stderr.replace("\n  ", " "))
    assert recorded_commit(header) == "0123abc-dirty"


def test_waf_outside_a_checkout_records_the_given_commit_or_unknown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = source_copy(tmp_path)
    header = tmp_path / "build" / "pfabric-generated" / GENERATED
    monkeypatch.delenv("PFABRIC_GIT_COMMIT", raising=False)
    run_wscript(copy, tmp_path / "build")
    assert recorded_commit(header) == "unknown"
    monkeypatch.setenv("PFABRIC_GIT_COMMIT", "0123abc")
    run_wscript(copy, tmp_path / "build")
    assert recorded_commit(header) == "0123abc"
    monkeypatch.setenv("PFABRIC_GIT_COMMIT", "not a commit")
    with pytest.raises(WafError, match="PFABRIC_GIT_COMMIT='not a commit' is not a git commit"):
        run_wscript(copy, tmp_path / "build")


def built_from(build: Path) -> tuple[Path, str]:
    """The checkout a standalone build was configured from (its CMakeCache.txt) and the commit
    its programs should record: the checkout's, else the PFABRIC_GIT_COMMIT the build was
    given, else unknown."""
    cache = (build / "CMakeCache.txt").read_text()
    home = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", cache, re.MULTILINE)
    assert home is not None, f"{build / 'CMakeCache.txt'}: no CMAKE_HOME_DIRECTORY"
    source = Path(home[1])
    given = re.search(r"^PFABRIC_GIT_COMMIT:STRING=(.*)$", cache, re.MULTILINE)
    return source, git_commit(source) or (given[1] if given and given[1] else "unknown")


@pytest.mark.parametrize("program, arguments", [
    ("pfabric-websearch", ("--topology=star", "--hosts=4", "--flows=10", "--load=0.4")),
    ("pfabric-websearch", ("--topology=star", "--hosts=4", "--flows=10", "--idealOnly")),
    ("pfabric-incast", ("--topology=star", "--hosts=8", "--workers=4", "--queries=2")),
])
def test_meta_json_records_the_version_and_the_commit_built_from(
        run_example: RunExample, tmp_path: Path, program: str, arguments: tuple[str, ...]) -> None:
    out = tmp_path / "run"
    result = run_example(program, *arguments, "--quiet", f"--out={out}")
    assert result.returncode == 0, result.stderr
    meta = json.loads((out / "meta.json").read_text())
    assert meta["module_version"] == (ROOT / "VERSION").read_text().strip()
    source, expected = built_from(Path(os.environ["PFABRIC_BUILD_DIR"]))
    assert meta["git_commit"] == expected, f"the build is older than {source}: rebuild it"
    if (source / ".git").exists():
        assert COMMIT.fullmatch(expected) and expected.removesuffix("-dirty") == head(source)
