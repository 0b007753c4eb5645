"""C++ follows ns-3's .clang-format (copied from the ns-3 release CI builds against); a fact
with one home is not written again elsewhere (the size bins, the CLI's output options)."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def clang_format() -> str | None:
    """The clang-format pinned in requirements.txt, installed next to this Python."""
    candidate = Path(sys.executable).parent / "clang-format"
    return str(candidate) if candidate.exists() else shutil.which("clang-format")


def cpp_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "*.cc", "*.h"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.split()
    # Without git: the sources one and two directories down (helper/experiment/, test/fuzz/).
    return listed or [str(p.relative_to(ROOT))
                      for p in [*ROOT.glob("*/*.[ch]*"), *ROOT.glob("*/*/*.[ch]*")]
                      if p.suffix in (".cc", ".h") and ".venv" not in p.parts
                      and not p.relative_to(ROOT).parts[0].startswith("build")]


@pytest.mark.skipif(clang_format() is None, reason="clang-format not installed")
def test_cpp_sources_are_clang_formatted() -> None:
    formatter = clang_format()
    assert formatter is not None  # the skipif's
    result = subprocess.run([formatter, "--dry-run", "--Werror", *cpp_files()], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, "run clang-format -i on:\n" + result.stderr[-3000:]


def test_clang_format_file_is_ns3s() -> None:
    style = (ROOT / ".clang-format").read_text()
    assert "BasedOnStyle: Microsoft" in style and "ColumnLimit: 100" in style


# A size bin's name as a literal, "(0,100KB]", "(100KB,10MB]" or "(10MB,inf)", whatever the edges.
SIZE = r"[0-9]+[KM]?B"
BIN_NAME = re.compile(rf"\(0, ?{SIZE}\]|{SIZE}, ?{SIZE}\]|{SIZE}, ?(inf|\u221e)\)")
PYTHON_SOURCES = [*sorted((ROOT / "analysis" / "pfabric_analysis").rglob("*.py")),
                  ROOT / "bench" / "pfabric_bench.py"]


def string_literals(path: Path) -> list[tuple[int, str]]:
    """The string constants of a Python module but its docstrings, with their lines."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings]


def test_size_bins_are_written_only_in_size_bins_txt() -> None:
    """The bins' edges live in size-bins.txt, which the builds and pfabric_analysis.runs read:
    no Python module writes a bin's name or the large edge itself, and no C++ source but
    helper/experiment/pfabric-size-bins.cc (compiled with the edges) a bin's name or an edge
    constant."""
    found = [f"{path.relative_to(ROOT)}:{line}: {text!r}" for path in PYTHON_SOURCES
             for line, text in string_literals(path) if BIN_NAME.search(text)]
    found += [f"{path.relative_to(ROOT)}:{node.lineno}: {node.value}" for path in PYTHON_SOURCES
              for node in ast.walk(ast.parse(path.read_text()))
              if isinstance(node, ast.Constant) and node.value == 10_000_000]
    found += [f"{path}: {match.group(0)}" for path in cpp_files()
              if Path(path).name != "pfabric-size-bins.cc"
              for match in re.finditer(rf'"[^"\n]*({BIN_NAME.pattern})[^"\n]*"|'
                                       r"\b(SMALL|LARGE)_FLOW_BYTES\b|\b10000000\b",
                                       (ROOT / path).read_text())]
    assert found == []


def test_cli_defines_output_options_once() -> None:
    """--out DIR and --name are defined by commands.options.add_output_options alone, among the
    command line (cli.py) and its sub-commands (pfabric_analysis/commands)."""
    package = ROOT / "analysis" / "pfabric_analysis"
    sources = [package / "cli.py", *sorted((package / "commands").glob("*.py"))]
    # (call, its first argument)
    calls = [(node, node.args[0]) for path in sources
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
             and node.func.attr == "add_argument" and node.args
             and isinstance(node.args[0], ast.Constant)]
    names = [first.value for _, first in calls]
    required_dirs = [call for call, first in calls if first.value == "--out" and any(
        k.arg == "metavar" and isinstance(k.value, ast.Constant) and k.value.value == "DIR"
        for k in call.keywords) and any(k.arg == "required" for k in call.keywords)]
    assert names.count("--name") == 1 and len(required_dirs) == 1
