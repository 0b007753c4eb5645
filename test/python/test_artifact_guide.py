"""The artifact guide, REPRODUCE.md, cannot fall behind the documents: every file of doc/figures/
that README.md or a document of doc/ (pfabric.rst, the documents beside it, performance.rst) names
(a figure, a table's data, a run's meta.json) is named in the guide too, where its command,
core-hours and tolerance are given. A name may be a path (doc/figures/x.json; an image's
figures/x.png), a bare file name of doc/figures/, a brace list (x.{png,pdf}), a glob (x-*.json)
or an elision (...-run2.json); each is resolved to the committed files it names, and the
documents' and the guide's sets of files are compared. And every option the guide's commands
pass is one their program takes (its --PrintHelp, or the analysis sub-command's or the
benchmark's --help), so that a renamed option cannot leave a command behind."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "doc" / "figures"
GUIDE = "REPRODUCE.md"
DOCUMENTS = ("README.md",
             *(f"doc/{path.name}" for path in sorted((ROOT / "doc").glob("*.rst"))))
# A name in running text: path characters, with brace lists kept whole.
TOKEN = re.compile(r"(?:[\w.*+-]|\{[\w.,+-]*\}|/)+")
# A bare name (no directory) of a file of doc/figures/: with an extension, or elided ("...-x").
BARE = re.compile(r"[\w*+.-]*\.(json|csv|png|pdf|md|gz|\*|\{[\w.,+-]*\})|\*[\w*+.-]{6,}")


def expand_braces(pattern: str) -> list[str]:
    """x.{a,b} -> [x.a, x.b], every brace list in turn."""
    match = re.search(r"\{([^{}]*)\}", pattern)
    if not match:
        return [pattern]
    return [expanded for choice in match.group(1).split(",")
            for expanded in expand_braces(pattern[:match.start()] + choice +
                                          pattern[match.end():])]


def figure_pattern(token: str) -> str | None:
    """The glob, relative to doc/figures/, that a name in the text stands for; None when it
    names no file there."""
    token = re.sub(r"\*+", "*", token.replace("...", "*")).rstrip(".")
    for prefix in ("doc/figures/", "figures/"):
        if token.startswith(prefix):
            return token[len(prefix):] or None
    return token if "/" not in token and BARE.fullmatch(token) else None


def files_named(pattern: str, figures: Path) -> set[Path]:
    """The committed files a pattern names: a directory's files, or the files its globs match."""
    found: set[Path] = set()
    for expanded in expand_braces(pattern):
        for match in figures.glob(expanded.rstrip("/")):
            found |= {p for p in match.rglob("*") if p.is_file()} if match.is_dir() else {match}
    return found


def references(text: str, figures: Path) -> dict[Path, int]:
    """Every file of figures a text names, with the line of its first mention."""
    found: dict[Path, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        for token in TOKEN.findall(line):
            pattern = figure_pattern(token)
            for path in sorted(files_named(pattern, figures)) if pattern else []:
                found.setdefault(path, number)
    return found


def dangling(text: str, figures: Path) -> list[tuple[int, str]]:
    """The paths into doc/figures/ that name no committed file, with their lines."""
    return [(number, token) for number, line in enumerate(text.splitlines(), 1)
            for token in TOKEN.findall(line)
            if token.startswith(("doc/figures/", "figures/"))
            and (pattern := figure_pattern(token)) and not files_named(pattern, figures)]


def missing_from_guide(documents: dict[str, str], guide: str, figures: Path) -> list[str]:
    """One line per file a document names that the guide does not."""
    covered = set(references(guide, figures))
    return [f"{name}:{line}: {path.relative_to(figures.parent.parent)} is not in {GUIDE}"
            for name, text in documents.items()
            for path, line in sorted(references(text, figures).items(), key=lambda i: i[1])
            if path not in covered]


def test_the_guide_names_every_figure_file_the_documents_name() -> None:
    documents = {name: (ROOT / name).read_text() for name in DOCUMENTS}
    missing = missing_from_guide(documents, (ROOT / GUIDE).read_text(), FIGURES)
    assert not missing, "\n".join(missing)


def test_the_documents_name_figure_files() -> None:
    """The resolution finds the documents' files (one that found none would pass above)."""
    named = {path.relative_to(FIGURES).as_posix() for name in DOCUMENTS
             for path in references((ROOT / name).read_text(), FIGURES)}
    assert {"levels-websearch-hotnets12.png", "reproduce-quick/fig3-datamining.png",
            "store/datamining-tcp-load0.8-run5/meta.json",
            "bench-scale-74ef159-standalone-20261124.json",
            "bench-websearch-2000-experiments-vs-09486c8-standalone-epyc-20261125-run2.json",
            "bench-websearch-2000-arch-final-vs-a4e15bd-standalone-epyc-20261125.json",
            "flowcount-cost-websearch-hotnets12-2000-meta.json"} <= named
    assert len(named) >= 100


def test_every_path_into_doc_figures_names_a_file() -> None:
    found = [f"{name}:{line}: {token} names no file of doc/figures/"
             for name in (*DOCUMENTS, GUIDE)
             for line, token in dangling((ROOT / name).read_text(), FIGURES)]
    assert not found, "\n".join(found)


def test_the_readme_links_the_guide() -> None:
    assert f"]({GUIDE})" in (ROOT / "README.md").read_text()


def test_a_missing_file_is_caught(tmp_path: Path) -> None:
    """Each way of naming a file resolves, and a file the guide lacks is reported with the
    line of the document that names it."""
    figures = tmp_path / "doc" / "figures"
    for name in ("a.png", "a.csv", "bench-x-20260101.json", "bench-y-20260101.json",
                 "long-name-run2.json", "runs/p1/meta.json", "runs/p2/meta.json"):
        (figures / name).parent.mkdir(parents=True, exist_ok=True)
        (figures / name).write_text("")
    document = ("Intro.\n\n.. image:: figures/a.png\n\n``doc/figures/a.{png,csv}``, "
                "``doc/figures/bench-*-20260101.json`` and ``...-run2.json``.\n"
                "Runs in ``doc/figures/runs/``; ``meta.json`` of each; ``doc/figures/``.\n")
    assert sorted((p.relative_to(figures).as_posix(), line)
                  for p, line in references(document, figures).items()) == [
        ("a.csv", 5), ("a.png", 3), ("bench-x-20260101.json", 5), ("bench-y-20260101.json", 5),
        ("long-name-run2.json", 5), ("runs/p1/meta.json", 6), ("runs/p2/meta.json", 6)]
    guide = "`doc/figures/a.png`, `doc/figures/bench-x-20260101.json`, `doc/figures/runs/p1/`\n"
    assert missing_from_guide({"doc.rst": document}, guide, figures) == [
        f"doc.rst:5: doc/figures/{name} is not in {GUIDE}"
        for name in ("a.csv", "bench-y-20260101.json", "long-name-run2.json")] + [
        f"doc.rst:6: doc/figures/runs/p2/meta.json is not in {GUIDE}"]
    assert dangling("see ``doc/figures/b.png`` and figures/a.png.", figures) == [
        (1, "doc/figures/b.png")]


# Where a segment of a shell block starts a program: ./pfabric run P [--], ./pfabric bench,
# .venv/bin/pfabric-analysis SUB, a build's P (valgrind's included), or a function wrapping one.
SEGMENT_END = re.compile(r";|&&|\|\||\bdo\b|\bthen\b|\{|\}|\n")


def guide_blocks(text: str) -> list[str]:
    """The guide's sh blocks, continuation lines joined and comments removed."""
    return [re.sub(r"\s+#.*$", "", block.replace("\\\n", " "), flags=re.MULTILINE)
            for block in re.findall(r"^```sh\n(.*?)^```", text, re.DOTALL | re.MULTILINE)]


def program_of(words: list[str]) -> tuple[str, list[str]] | None:
    """(program, its arguments) of a command's words, or None for anything else."""
    while words and re.fullmatch(r"\w+=\S*", words[0]):   # VAR=value before a command
        words = words[1:]
    if words[:2] == ["./pfabric", "run"] and len(words) > 2:
        return words[2], [w for w in words[3:] if w != "--"]
    if words[:2] == ["./pfabric", "bench"]:
        return "bench", words[2:]
    if words and words[0].endswith("pfabric-analysis") and len(words) > 1:
        return f"pfabric-analysis {words[1]}", words[2:]
    if words and words[0] == "valgrind":
        words = [w for w in words if not w.startswith("--tool")][1:]
    if words and re.fullmatch(r"(\S*/)?bin/pfabric-[\w-]+", words[0]):
        return Path(words[0]).name, words[1:]
    return None


def invocations(block: str) -> list[tuple[str, str]]:
    """(program, option name) of every --option the block passes to a program of the module;
    a shell function that wraps one (name() { ./pfabric run P -- ... "$@"; }) counts as P."""
    wrappers: dict[str, str] = {}
    found = []
    for definition in re.finditer(r"(\w+)\(\)\s*\{([^}]*)\}", block):
        wrapped = program_of(definition.group(2).split())
        if wrapped:
            wrappers[definition.group(1)] = wrapped[0]
    for segment in SEGMENT_END.split(block):
        words = segment.split()
        if words and words[0] in wrappers:
            called: tuple[str, list[str]] | None = (wrappers[words[0]], words[1:])
        else:
            called = program_of(words)
        if called is None:
            continue
        for argument in called[1]:
            option = re.match(r"--([A-Za-z][\w-]*)(?=[=\s]|$)", argument)
            if option:   # ns-3 attribute paths (--ns3::Type::Name) are not the program's options
                found.append((called[0], option.group(1)))
    return found


@functools.cache
def help_text(program: str, build: str) -> str:
    """What a program lists as its options."""
    if program == "bench":
        command = [sys.executable, str(ROOT / "bench" / "pfabric_bench.py"), "--help"]
    elif program.startswith("pfabric-analysis "):
        command = [sys.executable, "-m", "pfabric_analysis.cli", program.split()[1], "--help"]
    else:
        command = [str(Path(build) / "bin" / program), "--PrintHelp"]
    return subprocess.run(command, capture_output=True, text=True, timeout=120).stdout


def unknown_options(text: str, build: str) -> list[str]:
    """One line per option a command passes that its program does not list (a program named
    by a shell variable cannot be looked up, and is reported as such)."""
    found = set()
    for program, option in (pair for block in guide_blocks(text) for pair in invocations(block)):
        if "$" in program:
            found.add(f"{program}: named by a shell variable; write the program's name")
        elif not re.search(rf"--{re.escape(option)}\b", help_text(program, build)):
            found.add(f"{program}: --{option}")
    return sorted(found)


def test_the_guides_commands_pass_only_options_their_programs_take() -> None:
    build = os.environ.get("PFABRIC_BUILD_DIR")
    if not build:
        pytest.skip("needs the build: run through ./pfabric test")
    text = (ROOT / GUIDE).read_text()
    checked = {program for block in guide_blocks(text) for program, _ in invocations(block)}
    assert {"pfabric-websearch", "pfabric-incast", "pfabric-deadlines", "bench",
            "pfabric-analysis flow-count"} <= checked
    unknown = unknown_options(text, build)
    assert not unknown, f"options {GUIDE} passes that the program does not list:\n" + \
        "\n".join(unknown)


def test_the_guides_commands_parse() -> None:
    """bash -n: every block is shell that parses (nothing runs)."""
    broken = [block for block in guide_blocks((ROOT / GUIDE).read_text())
              if subprocess.run(["bash", "-n", "-c", block], capture_output=True).returncode]
    assert not broken, "\n\n".join(broken)


def test_the_options_of_a_command_are_found() -> None:
    block = ("d=out\nrun() { ./pfabric run pfabric-websearch -- --quiet --load=0.6 \"$@\"; }\n"
             "for k in 4 8; do ./pfabric run pfabric-routing-cost -- --k=$k --json; done\n"
             "run --flows=2000 --ns3::PfabricTcpSocketFactory::HostPacing=false --out=$d/x\n"
             "LD_LIBRARY_PATH=lib .venv/bin/pfabric-analysis figures doc/figures/store --out d\n"
             "./pfabric bench --only scale --bin-dir OLD/build/bin\n"
             "valgrind --tool=callgrind build/bin/pfabric-websearch --flowFile=f.csv\n"
             "python -m pytest -q --co\n")
    assert invocations(block) == [
        ("pfabric-websearch", "quiet"), ("pfabric-websearch", "load"),
        ("pfabric-routing-cost", "k"), ("pfabric-routing-cost", "json"),
        ("pfabric-websearch", "flows"), ("pfabric-websearch", "out"),
        ("pfabric-analysis figures", "out"), ("bench", "only"), ("bench", "bin-dir"),
        ("pfabric-websearch", "flowFile")]
