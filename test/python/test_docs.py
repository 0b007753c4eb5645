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
