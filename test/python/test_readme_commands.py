"""The README's and the docs' commands cannot go stale unnoticed: every program, sub-command and
option a command line of the README's or the docs' (doc/*.rst) code blocks names exists, as
written, and so does every one that a command written inline in their prose names.
(test_doc_commands.py runs every command of the code blocks, shrunk to a few flows.)"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from test_doc_commands import all_blocks, doc_files

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


def command_lines() -> list[tuple[str, str]]:
    """(file, line) for every line of the README's sh blocks and the docs' shell literal blocks,
    continuation lines joined, comments dropped (a loop's lines one by one)."""
    return [(source, line) for source, block in all_blocks() for command in block
            for line in command.split("\n")]


def invocations(line: str, program: str) -> list[list[str]]:
    """The words after each occurrence of a program in a line (up to ';' or the end)."""
    return [shlex.split(match) for match in
            re.findall(re.escape(program) + r"((?:\s+[^;]+)?)", line)]


def options(words: list[str]) -> list[str]:
    """The option names among a command's words (--name or --name=value)."""
    return [word.split("=", 1)[0] for word in words if word.startswith("--")]


@cache
def help_text(*command: str) -> str:
    result = subprocess.run(list(command), capture_output=True, text=True, timeout=120,
                            cwd=ROOT)
    assert result.returncode == 0, f"{' '.join(command)}: {result.stderr[-500:]}"
    return result.stdout


def example_names() -> list[str]:
    return re.findall(r"^\s*NAME\s+(\S+)", (ROOT / "examples" / "CMakeLists.txt").read_text(),
                      re.MULTILINE)


def test_the_readme_has_commands_of_each_kind() -> None:
    lines = [line for source, line in command_lines() if source == "README.md"]
    for program in ("./pfabric run", ".venv/bin/pfabric-analysis", "./pfabric bench",
                    "examples/pfabric-python.py"):
        assert any(program in line for line in lines), program


def test_every_pfabric_run_names_an_example_and_its_options() -> None:
    build = os.environ.get("PFABRIC_BUILD_DIR")
    if not build:
        pytest.skip("needs the build: run through ./pfabric test")
    checked = 0
    for source, line in command_lines():
        for words in invocations(line, "./pfabric run"):
            name, arguments = words[0], words[2:] if words[1:2] == ["--"] else words[1:]
            assert name in example_names(), line
            listed = help_text(str(Path(build) / "bin" / name), "--PrintHelp")
            for option in options(arguments):
                if option.startswith("--ns3::"):
                    continue
                assert re.search(rf"^\s*{re.escape(option)}[:=\s]", listed, re.MULTILINE), \
                    f"{source}: {line}: {name} has no option {option}"
                checked += 1
    assert checked >= 10


def test_every_pfabric_analysis_line_names_a_command_and_its_options() -> None:
    analysis = str(VENV_BIN / "pfabric-analysis")
    if not Path(analysis).exists():
        pytest.skip("pfabric-analysis is not installed next to this Python")
    checked = 0
    for source, line in command_lines():
        for words in invocations(line, ".venv/bin/pfabric-analysis"):
            command = words[0]
            listed = help_text(analysis, command, "--help")
            for option in options(words[1:]):
                assert re.search(rf"(^|[\s\[,]){re.escape(option)}\b", listed, re.MULTILINE), \
                    f"{source}: {line}: pfabric-analysis {command} has no option {option}"
                checked += 1
    assert checked >= 10


def test_every_bench_and_python_example_line_names_its_options() -> None:
    bench = help_text(sys.executable, str(ROOT / "bench" / "pfabric_bench.py"), "--help")
    example = help_text(sys.executable, str(ROOT / "examples" / "pfabric-python.py"), "--help")
    checked = 0
    for source, line in command_lines():
        for program, listed in (("./pfabric bench", bench),
                                ("examples/pfabric-python.py", example)):
            for words in invocations(line, program):
                for option in options(words):
                    assert re.search(rf"(^|[\s\[,]){re.escape(option)}\b", listed, re.MULTILINE), \
                        f"{source}: {line}: {program} has no option {option}"
                    checked += 1
    assert checked >= 6


def test_a_stale_option_would_be_caught() -> None:
    """The checks above fail on an option the program does not have."""
    listed = "  --flowFile:  replay the flows of this CSV\n"
    assert re.search(r"^\s*--flowFile[:=\s]", listed, re.MULTILINE)
    assert not re.search(r"^\s*--flow-file[:=\s]", listed, re.MULTILINE)
    assert invocations("for k in 1 2; do ./pfabric run x -- --a=$k --b; done", "./pfabric run") \
        == [["x", "--", "--a=$k", "--b"]]


# Commands written inline, in the prose: `...` in the README, ``...`` in the doc. Most are
# synopses with placeholders (RUN_DIR..., [--name NAME]) or records of how a figure was made, so
# they are not run (test_doc_commands.py runs the code blocks); their programs, sub-commands and
# options are checked here, so that none can name something that no longer exists.
INLINE = re.compile(r"(?<!`)``?((?:\./pfabric|\.venv/bin/pfabric-analysis|pfabric-analysis|"
                    r"pfabric-[a-z]+)(?: [^`]*)?)``?(?!`)")


def inline_commands() -> list[tuple[str, str]]:
    """(file, fragment) for every inline command of README.md and doc/*.rst."""
    found = []
    for name in ("README.md", *doc_files()):
        text = (ROOT / name).read_text()
        found += [(name, re.sub(r"\s+", " ", match)) for match in INLINE.findall(text)]
    return found


def fragment_options(words: list[str]) -> list[str]:
    """The options a synopsis names: --a, [--a B], --a|--b, --a=..."""
    names = []
    for word in words:
        for part in word.strip("[]").split("|"):
            if part.startswith("--") and len(part) > 2:
                names.append(part.split("=", 1)[0].rstrip(",.;:"))
    return names


def test_every_inline_command_names_what_exists() -> None:
    build = os.environ.get("PFABRIC_BUILD_DIR")
    analysis = str(VENV_BIN / "pfabric-analysis")
    if not build or not Path(analysis).exists():
        pytest.skip("needs the build and pfabric-analysis: run through ./pfabric test")
    usage = (ROOT / "pfabric").read_text().split('"""')[1]
    bench = help_text(sys.executable, str(ROOT / "bench" / "pfabric_bench.py"), "--help")
    sub_commands = re.findall(r"^\s+\./pfabric (\w+)", usage, re.MULTILINE)
    checked = 0
    for name, fragment in inline_commands():
        words = fragment.replace("...", " ").split()
        program, rest = words[0], words[1:]
        if program == "./pfabric":
            if not rest:
                continue
            assert rest[0] in sub_commands, f"{name}: ``{fragment}``: no ./pfabric {rest[0]}"
            listed = bench + usage if rest[0] == "bench" else usage
            rest = rest[1:]
        elif program.endswith("pfabric-analysis"):
            if not rest:
                continue
            listed = help_text(analysis, rest[0], "--help")
            rest = rest[1:]
            # Its sub-commands, as {add,...} or by their metavar (store: add).
            nested = re.search(r"^usage: \S+ \S+ \[-h\] \{?([\w,-]+)\}? \.\.\.", listed,
                               re.MULTILINE)
            if nested and rest and rest[0] in nested.group(1).split(","):
                # A command of a command (store add): its own options.
                listed = help_text(analysis, words[1], rest[0], "--help")
                rest = rest[1:]
        elif program in example_names():
            listed = help_text(str(Path(build) / "bin" / program), "--PrintHelp")
        else:
            continue  # a file name such as pfabric-python.py or a run directory
        for option in fragment_options(rest):
            assert re.search(rf"(^|[\s\[,|]){re.escape(option)}[\s:=\],|]", listed, re.MULTILINE), \
                f"{name}: ``{fragment}``: {program} has no option {option}"
            checked += 1
    assert checked >= 30


def test_a_stale_inline_option_would_be_caught() -> None:
    assert fragment_options(["RUN_DIR", "[--name", "NAME]", "--quick|--full", "--flows=N"]) == \
        ["--name", "--quick", "--full", "--flows"]
    assert ("doc", "pfabric-analysis ideal FLOWS.csv --preset hotnets12") in \
        [("doc", m) for m in INLINE.findall("``pfabric-analysis ideal FLOWS.csv --preset "
                                            "hotnets12``")]
