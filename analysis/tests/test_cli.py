from pathlib import Path

from pfabric_analysis import __version__
from pfabric_analysis.cli import main, versions

REPOSITORY = Path(__file__).resolve().parents[2]


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
    assert len(lines) == 9  # pfabric, ns3, numpy, pandas, scipy, matplotlib, dask, distributed, sem
