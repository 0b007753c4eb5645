"""C++ follows ns-3's .clang-format (copied from the ns-3 release CI builds against)."""

from __future__ import annotations

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
    return listed or [str(p.relative_to(ROOT)) for p in ROOT.glob("*/*.[ch]*")
                      if p.suffix in (".cc", ".h") and ".venv" not in p.parts]


@pytest.mark.skipif(clang_format() is None, reason="clang-format not installed")
def test_cpp_sources_are_clang_formatted() -> None:
    result = subprocess.run([clang_format(), "--dry-run", "--Werror", *cpp_files()], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, "run clang-format -i on:\n" + result.stderr[-3000:]


def test_clang_format_file_is_ns3s() -> None:
    style = (ROOT / ".clang-format").read_text()
    assert "BasedOnStyle: Microsoft" in style and "ColumnLimit: 100" in style
