"""CI's stages and the release check's parse, and the docs name only stages that exist:
`./pfabric check --release --list` (.ci/run --release --list) names every stage and its command
without running any, and every stage that README.md, CONTRIBUTING.md or doc/*.rst quotes by its
log's name (`ci: NAME`, ``release: NAME``) is among them."""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = ("README.md", "CONTRIBUTING.md", *(f"doc/{path.name}"
                                               for path in sorted((ROOT / "doc").glob("*.rst"))))
# A stage quoted as an inline literal, `ci: NAME` in Markdown or ``release: NAME`` in the rst
# (names are lower case: NAME itself is no stage).
QUOTED = re.compile(r"(?<!`)``?((?:ci|release): [a-z0-9][a-z0-9.-]*)``?(?!`)")
LISTED = re.compile(r"^((?:ci|release): [\w.-]+) \((.*)\): (.+)$")


@cache
def stages(*flags: str) -> dict[str, str]:
    """{"ci: NAME": command} of `./pfabric check FLAGS --list`, in order."""
    result = subprocess.run([str(ROOT / "pfabric"), "check", *flags, "--list"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    found = [LISTED.match(line) for line in lines]
    assert all(found), [line for line, match in zip(lines, found) if not match]
    return {match.group(1): match.group(3) for match in found if match}


def quoted(text: str) -> list[str]:
    return QUOTED.findall(text)


def test_ci_and_the_release_check_list_their_stages() -> None:
    ci, release = stages(), stages("--release")
    # The release check is CI's stages, then its own.
    assert list(release)[:len(ci)] == list(ci)
    assert all(name.startswith("ci: ") for name in ci)
    assert [name for name in release if name not in ci] and \
        all(name.startswith("release: ") for name in release if name not in ci)
    # What CI keeps: the README's test command, the sanitizers, the fuzz targets, ns-3.37.
    assert release["ci: test"] == "./pfabric test"
    assert "--sanitize" in release["ci: sanitize"]
    assert release["release: sanitize-python"] == "./pfabric test --sanitize"
    assert ".ci/in-tree" in release["ci: in-tree-debug"]
    assert "PFABRIC_NS3_PROFILE=optimized" in release["release: in-tree-optimized"]


def test_every_stage_runs_a_command_that_exists() -> None:
    for name, command in stages("--release").items():
        words = command.split()
        while words[0] == "env" or "=" in words[0]:
            words = words[1:]
        assert (ROOT / words[0]).is_file(), f"{name}: no {words[0]}"
        if words[0] == "./pfabric":
            # The sub-command and its options parse (--help exits before building anything).
            result = subprocess.run([str(ROOT / "pfabric"), *words[1:], "--help"], cwd=ROOT,
                                    capture_output=True, text=True, timeout=60)
            assert result.returncode == 0, f"{name}: {command}: {result.stderr}"


def test_every_stage_the_docs_quote_exists() -> None:
    names = stages("--release")
    quotes = {(document, stage) for document in DOCUMENTS if (ROOT / document).exists()
              for stage in quoted((ROOT / document).read_text())}
    assert {stage for _, stage in quotes} >= {"ci: test", "release: in-tree-optimized"}
    missing = sorted(f"{document}: {stage}" for document, stage in quotes if stage not in names)
    assert not missing, "stages quoted but not in .ci/run:\n" + "\n".join(missing)


def test_a_stale_stage_name_would_be_caught() -> None:
    assert quoted("the `ci: fuzz` stage, ``release: fuzz-long`` and ``ci: gone``, "
                  "not ci: bare") == ["ci: fuzz", "release: fuzz-long", "ci: gone"]
    assert "ci: gone" not in stages("--release")
