import os
import subprocess
from pathlib import Path

import pytest

import pfabric_analysis
from pfabric_analysis import __version__, git_commit
from pfabric_analysis.cli import main
from pfabric_analysis.commands.versions import versions

REPOSITORY = Path(__file__).resolve().parents[3]


def test_version_is_the_repository_version_file() -> None:
    assert __version__ == (REPOSITORY / "VERSION").read_text().strip()


def test_versions_names_the_pinned_ns3_wheel() -> None:
    pinned = {
        line.split("==")[0]: line.split("==")[1]
        for line in (REPOSITORY / "requirements.txt").read_text().splitlines()
        if "==" in line and not line.startswith("#")
    }
    found = versions()
    assert found["ns3"] == pinned["ns3"]
    assert found["pandas"] == pinned["pandas"]


def test_versions_command_prints_one_line_per_package(capsys) -> None:
    assert main(["versions"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"pfabric {__version__}"
    # pfabric, git_commit, ns3, numpy, pandas, scipy, matplotlib, dask, distributed, sem
    assert len(lines) == 10


@pytest.mark.skipif(not (REPOSITORY / ".git").exists(), reason="not a git checkout")
def test_versions_name_the_checkouts_commit() -> None:
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPOSITORY, check=True,
                          capture_output=True, text=True).stdout.strip()
    assert versions()["git_commit"] in (head, f"{head}-dirty")


def test_no_commit_outside_a_git_checkout(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "VERSION").write_text("9.9.9\n")  # a source tarball: VERSION without .git
    monkeypatch.setattr(pfabric_analysis, "REPOSITORY", tmp_path)
    git_commit.cache_clear()
    try:
        assert git_commit() is None
        assert versions()["git_commit"] == "not a git checkout"
    finally:
        git_commit.cache_clear()


def test_a_reader_that_goes_away_ends_the_command_quietly() -> None:
    """Issue 54's ninth probe: `pfabric-analysis summarize RUN | head -1` ended in a
    BrokenPipeError traceback."""
    import sys

    run = Path(__file__).resolve().parents[3] / "doc/figures/store/websearch-tcp-load0.2-run1"
    command = [sys.executable, "-c", "import sys; from pfabric_analysis.cli import main; "
               "sys.exit(main())", "summarize", str(run)]
    # The reader is gone before the command writes (it takes a second to import pandas): read
    # after its first line, as `head -1`, the command could have written all of its few lines
    # into the pipe first, and exited 0 on a busy machine.
    reader, writer = os.pipe()
    process = subprocess.Popen(command, stdout=writer, stderr=subprocess.PIPE)
    os.close(reader)
    os.close(writer)
    assert process.stderr is not None
    errors = process.stderr.read().decode()
    assert process.wait(timeout=120) == 1
    assert errors == ""
