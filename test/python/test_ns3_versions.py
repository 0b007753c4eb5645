"""One list of supported ns-3 versions: the table of README.md's "Supported ns-3 versions" (the
ns-3 releases in its first column, the build of each in its second). Every other statement of the
range is checked against it here, so that they cannot disagree: model/pfabric-compat.h (the
releases its wrappers cover), CMakeLists.txt and wscript (which ns-3 trees each build serves),
the wheel pinned in requirements.txt, the README's and the doc's build instructions, and the
analysis's help text. (bake/pfabric.xml's min_version: test_release.py.)"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SECTION = "### Supported ns-3 versions"


def supported_ns3(readme: str) -> dict[str, str]:
    """{"3.NN": build} from the table of the README's section: every release of a row's first
    column, with its build ("standalone CMake", "in-tree CMake" or "in-tree waf")."""
    section = readme.split(SECTION, 1)[1]
    rows = [line for line in section.split("\n\n", 2)[1].splitlines() if line.startswith("| 3.")]
    releases = {}
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        build = re.match(r"(standalone|in-tree) (CMake|waf)", cells[1])
        assert build, f"README.md, {SECTION}: no build in '{cells[1]}'"
        for release in re.findall(r"\b3\.\d+\b", cells[0]):
            releases[release] = build[0]
    return releases


def key(release: str) -> int:
    return int(release.split(".")[1])


def expected_statements(releases: dict[str, str]) -> list[tuple[str, str]]:
    """(file, text) that each file must contain, derived from the table."""
    every = sorted(releases, key=key)
    cmake = sorted((r for r, b in releases.items() if b == "in-tree CMake"), key=key)
    waf = sorted((r for r, b in releases.items() if b == "in-tree waf"), key=key)
    (wheel,) = [r for r, b in releases.items() if b == "standalone CMake"]
    return [
        ("model/pfabric-compat.h", f"releases this module supports ({every[0]} to {every[-1]};"),
        ("CMakeLists.txt", f"(contrib/pfabric, ns-3 >= {cmake[0]})"),
        ("CMakeLists.txt", f"for waf trees (<= {waf[-1]})"),
        ("wscript", f"for ns-3 trees up to {waf[-1]} "),
        ("requirements.txt", f"\nns3=={wheel}.post"),
        ("cmake/standalone.cmake", f"the PyPI wheel (ns3=={wheel}.post"),
        ("README.md", f"With CMake (ns-{cmake[0]} and later)"),
        ("README.md", f"With waf (ns-{waf[-1]} and earlier)"),
        ("doc/pfabric.rst", f"(CMake for ns-{cmake[0]} and later, waf up to {waf[-1]})"),
        ("test/python/test_build_files.py", f"(ns-3 >= {cmake[0]} and standalone)"),
        ("test/python/test_build_files.py", f"(waf, ns-3 <= {waf[-1]})"),
        ("analysis/pfabric_analysis/commands/sem.py", f"(CMake, {cmake[0]} or later)"),
    ]


def disagreements(texts: dict[str, str]) -> list[str]:
    """Each statement of the supported range that is missing from its file, one line each."""
    releases = supported_ns3(texts["README.md"])
    return [f"{name}: expected '{statement.strip()}' (README.md, {SECTION})"
            for name, statement in expected_statements(releases)
            if statement not in texts[name]]


def files() -> dict[str, str]:
    names = {name for name, _ in expected_statements(supported_ns3(readme()))}
    return {name: (ROOT / name).read_text() for name in names | {"README.md"}}


def readme() -> str:
    return (ROOT / "README.md").read_text()


def test_the_table_lists_each_build() -> None:
    releases = supported_ns3(readme())
    assert set(releases.values()) == {"standalone CMake", "in-tree CMake", "in-tree waf"}
    waf = [key(r) for r, b in releases.items() if b == "in-tree waf"]
    cmake = [key(r) for r, b in releases.items() if b == "in-tree CMake"]
    assert max(waf) < min(cmake), "waf trees end where CMake trees begin (ns-3.36)"


def test_every_statement_agrees_with_the_table() -> None:
    found = disagreements(files())
    assert not found, "\n".join(found)


def test_a_disagreement_is_caught() -> None:
    texts = files()
    texts["model/pfabric-compat.h"] = texts["model/pfabric-compat.h"].replace(
        "(3.35 to 3.48;", "(3.35 to 3.47;")
    texts["README.md"] = texts["README.md"].replace("| 3.36, 3.48 |", "| 3.36, 3.49 |")
    found = disagreements(texts)
    assert any(line.startswith("model/pfabric-compat.h: expected 'releases this module supports "
                               "(3.35 to 3.49;'") for line in found), found
    assert len(found) == 1, found
