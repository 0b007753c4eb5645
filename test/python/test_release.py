"""The release files agree with VERSION, the version's one home: CITATION.cff, CHANGELOG.md and
the bake module configuration (bake/pfabric.xml) each repeat it in a form their readers need,
and these tests keep the copies equal (doc/testing.rst, "Releases and citation")."""

from __future__ import annotations

import re
import subprocess
from xml.etree import ElementTree
from pathlib import Path

import pytest
import yaml  # PyYAML: dask, pinned in requirements.txt, requires it
from test_ns3_versions import key, supported_ns3

ROOT = Path(__file__).resolve().parents[2]
BAKE_FILE = ROOT / "bake" / "pfabric.xml"
# A release heading of CHANGELOG.md: "## [X.Y.Z] - YYYY-MM-DD", or "not yet tagged" before.
RELEASE_HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\] - (?P<date>\S.*)$", re.MULTILINE)
UNTAGGED = "not yet tagged"
# The bake url before the repository is published (a release needs it set).
URL_PLACEHOLDER = "TO_BE_SET"


def version() -> str:
    return (ROOT / "VERSION").read_text().strip()


def citation() -> dict:
    return yaml.safe_load((ROOT / "CITATION.cff").read_text())


def changelog_releases(text: str) -> list[tuple[str, str]]:
    """(version, date) of every release heading, newest first; [Unreleased] is not one."""
    return [(m["version"], m["date"]) for m in RELEASE_HEADING.finditer(text)
            if m["version"] != "Unreleased"]


def bake_module() -> ElementTree.Element:
    modules = ElementTree.parse(BAKE_FILE).getroot().findall("modules/module")
    assert len(modules) == 1, f"{BAKE_FILE}: one module expected, found {len(modules)}"
    return modules[0]


def bake_source(module: ElementTree.Element) -> dict[str, str]:
    return {attribute.attrib["name"]: attribute.attrib["value"]
            for attribute in module.findall("source/attribute")}


def bake_child(module: ElementTree.Element, tag: str) -> ElementTree.Element:
    child = module.find(tag)
    assert child is not None, f"{BAKE_FILE}: the module has no <{tag}>"
    return child


def cmake_library() -> str:
    library = re.search(r"LIBNAME (\S+)", (ROOT / "CMakeLists.txt").read_text())
    assert library is not None, "CMakeLists.txt names no LIBNAME"
    return library[1]


def oldest_supported_ns3() -> str:
    """The oldest release in README.md's "Supported ns-3 versions" table, as "3.NN"."""
    return min(supported_ns3((ROOT / "README.md").read_text()), key=key)


def release_gaps(changelog: str, bake_url: str, number: str) -> list[str]:
    """The placeholders a tagged release of version number may not keep."""
    gaps = []
    if dict(changelog_releases(changelog)).get(number) == UNTAGGED:
        gaps.append(f"CHANGELOG.md: {number} is {UNTAGGED}")
    if bake_url == URL_PLACEHOLDER:
        gaps.append(f"{BAKE_FILE.name}: url is {URL_PLACEHOLDER}")
    return gaps


def test_citation_names_this_version_and_the_paper() -> None:
    cff = citation()
    assert cff["cff-version"] == "1.2.0"
    assert cff["version"] == version()
    assert cff["type"] == "software" and cff["title"] and cff["message"] and cff["authors"]
    paper = cff["references"][0]
    assert paper["type"] == "conference-paper"
    assert paper["title"] == "Deconstructing Datacenter Packet Transport" and paper["year"] == 2012
    assert [author["family-names"] for author in paper["authors"]] == [
        "Alizadeh", "Yang", "Katti", "McKeown", "Prabhakar", "Shenker"]


def test_citation_license_is_the_license_files() -> None:
    license_text = (ROOT / "LICENSE").read_text()
    assert "GNU GENERAL PUBLIC LICENSE" in license_text and "Version 2, June 1991" in license_text
    readme_license = (ROOT / "README.md").read_text().split("## License", 1)[1]
    assert citation()["license"] == "GPL-2.0-only" and "GPL-2.0-only" in readme_license


def test_changelog_has_this_version_as_its_newest_release() -> None:
    releases = changelog_releases((ROOT / "CHANGELOG.md").read_text())
    assert releases, "CHANGELOG.md: no release heading"
    assert releases[0][0] == version()
    for number, date in releases:
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", date) or (number == version()
                                                            and date == UNTAGGED), (number, date)


def test_citation_release_date_is_the_changelogs() -> None:
    date = dict(changelog_releases((ROOT / "CHANGELOG.md").read_text()))[version()]
    released = citation().get("date-released")
    assert (str(released) if released else UNTAGGED) == date


def test_bake_entry_installs_the_tagged_release_as_contrib_pfabric() -> None:
    module = bake_module()
    source = bake_source(module)
    assert module.get("name") == cmake_library() and module.get("type") == "ns-contrib"
    assert bake_child(module, "source").get("type") == "git"
    assert source["revision"] == f"v{version()}"
    assert source["module_directory"] == cmake_library()  # ns-3 builds contrib/<it>
    assert bake_child(module, "build").get("type") == "none"
    assert module.get("min_version") == f"ns-{oldest_supported_ns3()}"


def test_bake_url_is_the_citations_repository() -> None:
    url = bake_source(bake_module())["url"]
    published = citation().get("repository-code")
    if published:
        assert url == published
    else:
        assert url == URL_PLACEHOLDER or url.startswith("https://"), url


def test_release_gaps_names_each_placeholder() -> None:
    untagged = "## [Unreleased]\n\n## [1.2.0] - not yet tagged\n"
    assert release_gaps(untagged, URL_PLACEHOLDER, "1.2.0") == [
        "CHANGELOG.md: 1.2.0 is not yet tagged", "pfabric.xml: url is TO_BE_SET"]
    assert release_gaps("## [1.2.0] - 2026-12-01\n", "https://example.org/p.git", "1.2.0") == []


def test_a_tagged_release_has_no_placeholders() -> None:
    tags = subprocess.run(["git", "tag", "--points-at", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.split()
    if f"v{version()}" not in tags:
        pytest.skip(f"HEAD is not tagged v{version()}")
    assert release_gaps((ROOT / "CHANGELOG.md").read_text(), bake_source(bake_module())["url"],
                        version()) == []
