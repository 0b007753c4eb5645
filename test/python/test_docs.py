"""The reStructuredText documents have no empty sections: every heading of doc/*.rst is followed
by some text of its own before the next heading of the same or a higher level (a heading followed
directly by its own subsection is fine). An empty section is a heading left behind by a move."""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The characters docutils accepts as section adornment.
ADORNMENT = re.compile(r"""([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])\1*""")


class Heading(NamedTuple):
    line: int   # 1-based line of the title text
    level: int  # 0 for the first adornment style met, 1 for the second, ...
    title: str
    end: int    # 0-based index of the first line after the heading's adornment


def is_adornment(line: str, title: str) -> bool:
    """A line of one repeated punctuation character, at least as long as the title."""
    line = line.rstrip()
    return ADORNMENT.fullmatch(line) is not None and len(line) >= len(title.rstrip())


def headings(text: str) -> list[Heading]:
    """Every section heading, underlined or over- and underlined, with its level: docutils ranks
    styles (character, with or without overline) in the order a document first uses them."""
    lines = text.splitlines()
    styles: list[tuple[str, bool]] = []
    found = []
    index = 0
    while index + 1 < len(lines):
        title = lines[index]
        overline = (index + 2 < len(lines) and is_adornment(title, lines[index + 1].strip())
                    and lines[index + 2].rstrip() == title.rstrip())
        if overline:
            title, first = lines[index + 1], index + 1
        else:
            first = index
        plain = title.strip() and not title[0].isspace() and not ADORNMENT.fullmatch(title.rstrip())
        if plain and (overline or is_adornment(lines[index + 1], title)):
            under = lines[first + 1].rstrip()
            style = (under[0], bool(overline))
            if style not in styles:
                styles.append(style)
            found.append(Heading(first + 1, styles.index(style), title.strip(), first + 2))
            index = first + 2
        else:
            index += 1
    return found


def empty_sections(text: str) -> list[Heading]:
    """The headings whose section holds no text: the next heading is of the same or a higher
    level (or the document ends) with only blank lines in between."""
    lines = text.splitlines()
    found = headings(text)
    empty = []
    for heading, after in zip(found, found[1:] + [None]):
        stop = (after.line - 1 if after else len(lines))
        has_body = any(line.strip() for line in lines[heading.end:stop])
        if not has_body and (after is None or after.level <= heading.level):
            empty.append(heading)
    return empty


def rst_files() -> list[Path]:
    return sorted((ROOT / "doc").glob("*.rst"))


@pytest.mark.parametrize("path", rst_files(), ids=lambda path: path.name)
def test_no_section_is_empty(path: Path) -> None:
    empty = empty_sections(path.read_text())
    assert not empty, "\n".join(f"{path.relative_to(ROOT)}:{heading.line}: section "
                                f"'{heading.title}' has no text before the next heading"
                                for heading in empty)


def test_the_documents_have_headings() -> None:
    """The parser finds the documents' headings (a parser that found none would pass above)."""
    titles = [heading.title for path in rst_files() for heading in headings(path.read_text())]
    assert "Model Description" in titles and "Validation" in titles
    assert len(titles) >= 50


EXAMPLE = """\
Title
=====

Text.

Empty
-----

Also empty
----------

Parent
------

Child
~~~~~

Child text.

########
Overline
########
"""


def test_an_empty_section_is_caught() -> None:
    """A heading directly followed by one of its level ("Empty"), and one at the end of the
    document ("Overline", a higher level) are empty; a heading followed by its own subsection
    ("Parent") is not."""
    assert [(h.title, h.level) for h in headings(EXAMPLE)] == \
        [("Title", 0), ("Empty", 1), ("Also empty", 1), ("Parent", 1), ("Child", 2),
         ("Overline", 3)]
    assert [(h.line, h.title) for h in empty_sections(EXAMPLE)] == \
        [(6, "Empty"), (9, "Also empty"), (21, "Overline")]


def test_tables_and_short_underlines_are_not_headings() -> None:
    text = "run       wall\n========= ====\nA         1\n\nLonger title\n===\n\nText.\n"
    assert headings(text) == []


# A git commit in prose: 7 to 40 hexadecimal digits with a letter and a digit among them.
COMMIT = re.compile(r"(?<![\w-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![\w-])")
SIMPLE_TABLE_BORDER = re.compile(r"^=+( +=+)+\s*$")


def prose(text: str) -> str:
    """The text with tables (simple tables and table directives with their content) and inline
    literals (file names, commands) blanked out, line numbers kept."""
    lines = text.splitlines()
    kept = []
    in_table = False
    directive: int | None = None  # the indentation of a table directive being skipped
    for index, line in enumerate(lines):
        indent = len(line) - len(line.lstrip())
        if directive is not None and (not line.strip() or indent > directive):
            kept.append("")
            continue
        directive = None
        if re.match(r"\s*\.\. [\w-]*table::", line):
            directive = indent
        elif SIMPLE_TABLE_BORDER.match(line):
            after = lines[index + 1] if index + 1 < len(lines) else ""
            # A simple table has three borders; the last one is followed by a blank line.
            in_table = not (in_table and not after.strip())
            kept.append("")
            continue
        kept.append("" if in_table or directive is not None else line)
    return re.sub(r"``.*?``", lambda m: "\n" * m.group(0).count("\n"), "\n".join(kept),
                  flags=re.DOTALL)


def commits_in_prose(text: str) -> list[tuple[int, str]]:
    blanked = prose(text)
    return [(blanked.count("\n", 0, match.start()) + 1, match.group(0))
            for match in COMMIT.finditer(blanked)]


def test_performance_names_commits_only_in_tables() -> None:
    """doc/performance.rst keeps commit hashes in tables ("Measured changes"): the prose names
    the rows."""
    path = ROOT / "doc" / "performance.rst"
    found = commits_in_prose(path.read_text())
    assert not found, "\n".join(f"doc/performance.rst:{line}: commit {commit} in prose; add it "
                                f"to a table and name its row" for line, commit in found)


def test_a_commit_in_prose_is_caught() -> None:
    text = ("Since 6e11c08 it is faster; ``a-74ef159.json`` is a file.\n\n"
            "===== ==========\nrun   commit\n===== ==========\nlean  b5a5fd3\n===== ==========\n\n"
            ".. list-table:: Changes\n\n   * - c0b66e3\n\nAgainst 52be8f3, not 1234567 or "
            "decade.\n")
    assert commits_in_prose(text) == [(1, "6e11c08"), (13, "52be8f3")]
