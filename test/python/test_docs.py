"""The reStructuredText documents have no empty sections: every heading of doc/*.rst is followed
by some text of its own before the next heading of the same or a higher level (a heading followed
directly by its own subsection is fine). An empty section is a heading left behind by a move.

And a moved section takes its citations along: every `doc/<file>.rst, "Title"` of the repository
names a section of that file, and inside doc/ a section of another document is cited with that
document's name. The walk-through of doc/pfabric.rst names only classes, members and files
that the module has."""

from __future__ import annotations

import bisect
import re
import subprocess
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


# Citations of a document's sections, the repository's way of pointing into the docs:
# `doc/pfabric.rst, "Title"` (or ``pfabric.rst``, "Title", "Other title"; [`doc/x.rst`](...),
# "Title"; doc/x.rst, under "Title"; doc/x.rst ("Title")) and `"Title" in doc/x.rst` or
# `"Title" (x.rst)`. A title names a heading of that document, the start of one ("Custom
# schemes" for "Custom schemes: ns-3 parts by name"), or the run-in title a paragraph or list
# item begins with ("Host pacing" for "**Host pacing** (``HostPacing``...", "Which build runs
# the figure" for "Which build runs the figure. The runs..."). CHANGELOG.md is history: its
# entries cite the documents as they were. This file's examples cite documents and titles that
# do not exist.
CITED_DOC = r"(?:``|`)?(?:doc/)?(?P<doc>[a-z][\w-]*)\.rst(?:``|`)?(?:\]\([^)\s]*\))?"
QUOTED = r'"[^"\s](?:[^"]*[^"\s])?"'
FORWARD = re.compile(CITED_DOC + rf"(?:,\s+|\s+\()(?:under\s+)?"
                     rf"(?P<titles>{QUOTED}(?:,\s+{QUOTED})*)")
BACKWARD = re.compile(rf"(?P<titles>{QUOTED})\s+(?:in\s+|\(){CITED_DOC}")
# README.md's own short form: "the doc is `doc/pfabric.rst` unless named" (its Features table).
README_SHORT = re.compile(rf"(?<![\w/.`])doc,\s+(?P<titles>{QUOTED}(?:,\s+{QUOTED})*)")
# A quoted title after another file's name cites that file (``CONTRIBUTING.md``, "Title").
OTHER_FILE = re.compile(rf"(?:``|`)?[\w./-]+\.md(?:``|`)?(?:,\s+|\s+\()(?:{QUOTED}(?:,\s+)?)+")
NOT_CITING = {"CHANGELOG.md", "test/python/test_docs.py"}  # history; this file's examples
# A comment's leading marker on a continued line (C++, Python, shell, CMake).
COMMENT_MARKER = re.compile(r"^\s*(?:///?!?|#+|\*(?!\*)|--)?\s*")


class Citation(NamedTuple):
    source: str  # the citing file, relative to the repository
    line: int    # 1-based line where the citation starts
    doc: str     # the cited document's name, without .rst
    title: str


def flatten(text: str, code: bool) -> tuple[str, list[int]]:
    """The text as one line, each line's comment marker and indentation removed, with the
    offset at which each original line starts: citations wrap across lines and comments. In
    code, escaped quotes are unescaped and string literals continued on the next line joined
    first (the quotes that close and reopen them become spaces), so that a citation in a
    message or help text reads as written."""
    if code:
        text = text.replace('\\"', '"')
        text = re.sub(r'"([ \t]*\n[ \t]*)"', lambda m: f" {m.group(1)} ", text)
    starts, flat, offset = [], [], 0
    for line in text.split("\n"):
        piece = COMMENT_MARKER.sub("", line, count=1)
        starts.append(offset)
        flat.append(piece)
        offset += len(piece) + 1
    return " ".join(flat), starts


def citations_in(source: str, text: str) -> list[Citation]:
    """Every citation of a document's section in a file's text (code unless Markdown or rst)."""
    flat, starts = flatten(text, code=not source.endswith((".md", ".rst")))
    found = []
    for pattern in (FORWARD, BACKWARD):
        for match in pattern.finditer(flat):
            line = bisect.bisect_right(starts, match.start())
            for title in re.findall(QUOTED, match.group("titles")):
                found.append(Citation(source, line, match.group("doc"),
                                      re.sub(r"\s+", " ", title[1:-1])))
    if source == "README.md":
        for match in README_SHORT.finditer(flat):
            line = bisect.bisect_right(starts, match.start())
            found += [Citation(source, line, "pfabric", re.sub(r"\s+", " ", title[1:-1]))
                      for title in re.findall(QUOTED, match.group("titles"))]
    return sorted(found)


def run_in_titles(text: str) -> list[str]:
    """The first words of every paragraph and list item, flattened to one line each, with a
    leading bullet or bold marker removed: where a run-in title ("**Host pacing** (...", "Which
    build runs the figure. The runs ...") stands."""
    starts = []
    for paragraph in re.split(r"\n[ \t]*\n", text):
        items = re.split(r"\n[ \t]*(?=[*-] |#\. )", paragraph.strip())
        for item in items:
            words = " ".join(item.split())
            starts.append(re.sub(r"^(?:[*-] |#\. )?(?:\*\*)?", "", words))
    return starts


def names_title(title: str, text: str) -> bool:
    """Whether title is a heading of text, the start of one (up to ':', ',' or ' ('), or a
    run-in title of a paragraph or list item (followed by '.', ':', ' (' or nothing)."""
    def starts(whole: str, enders: tuple[str, ...]) -> bool:
        return whole == title or (whole.startswith(title) and
                                  whole[len(title):].removeprefix("**").startswith(enders))
    return (any(starts(heading.title, (":", ",", " (")) for heading in headings(text))
            or any(starts(start, (".", ":", " (")) for start in run_in_titles(text)))


def tracked_text_files() -> dict[str, str]:
    """Every tracked file of the repository but the committed data of doc/figures/ and binary
    files, by path: the files that may cite a document."""
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, check=True, capture_output=True,
                            text=True).stdout.split()
    texts = {}
    for name in listed:
        if name.startswith("doc/figures/") or not (ROOT / name).is_file():
            continue
        try:
            texts[name] = (ROOT / name).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
    return texts


def broken_citations(texts: dict[str, str]) -> list[str]:
    """One line per citation whose title is not a section (or run-in title) of the document it
    names, or whose document does not exist."""
    documents = {Path(name).stem: text for name, text in texts.items()
                 if name.startswith("doc/") and name.endswith(".rst") and name.count("/") == 1}
    broken = []
    for source, text in texts.items():
        if source in NOT_CITING:
            continue
        for citation in citations_in(source, text):
            cited = documents.get(citation.doc)
            if cited is None or not names_title(citation.title, cited):
                what = "no document" if cited is None else "not a section of it"
                broken.append(f'{source}:{citation.line}: doc/{citation.doc}.rst, '
                              f'"{citation.title}": {what}')
    return broken


def test_every_citation_names_a_section_of_its_document() -> None:
    """Every `doc/<file>.rst, "Title"` of the repository (code comments, messages, README.md,
    REPRODUCE.md, the docs themselves) names a section that the file has: a section moved to
    another document takes its citations along."""
    broken = broken_citations(tracked_text_files())
    assert not broken, "\n".join(broken)


def test_the_citations_are_found() -> None:
    """The parser finds the repository's citations, in each of their forms (a parser that found
    none would pass above)."""
    found = [citation for source, text in tracked_text_files().items()
             for citation in citations_in(source, text)]
    sources = {Path(citation.source).suffix or citation.source for citation in found}
    assert {".md", ".rst", ".py", ".h", ".cc", "pfabric"} <= sources
    assert len(found) >= 80


CITING = """\
// The presets (doc/pfabric.rst, "Presets"); the window, doc/experiments.rst, "The
// steady-state window".
help="stages (doc/pfabric.rst, "
     "\\"Releases and citation\\")"
See ``pfabric.rst``, "Gone", "Presets"; "Host pacing" in ``doc/pfabric.rst``, and
[`doc/testing.rst`](doc/testing.rst), "Fuzzing"; "Nowhere" (experiments.rst), and
doc/missing.rst, "Presets". doc, "Presets" is README.md's; doc/pfabric.rst ("Presets").
"""
DOCUMENTS = {
    "doc/pfabric.rst": "Model\n*****\n\nPresets\n=======\n\nText.\n\n* **Host pacing** (on). "
                       "Text.\n\nReleases and citation\n=====================\n\nText.\n",
    "doc/experiments.rst": "The steady-state window\n=======================\n\nText.\n",
    "doc/testing.rst": "Fuzzing: the parsers\n====================\n\nText.\n",
}


def test_a_citation_of_a_missing_section_is_caught() -> None:
    """Each form of citation is parsed, across lines and comment markers and in a continued
    string literal; a missing title, a missing document and README.md's short form are
    reported with their line, and heading prefixes and run-in titles count as sections."""
    assert [(c.line, c.doc, c.title) for c in citations_in("x.h", CITING)] == [
        (1, "experiments", "The steady-state window"), (1, "pfabric", "Presets"),
        (3, "pfabric", "Releases and citation"), (5, "pfabric", "Gone"),
        (5, "pfabric", "Host pacing"), (5, "pfabric", "Presets"), (6, "experiments", "Nowhere"),
        (6, "testing", "Fuzzing"), (7, "missing", "Presets"), (7, "pfabric", "Presets")]
    # README.md's short form: a second citation on line 7, of pfabric.rst.
    assert [c for c in citations_in("README.md", CITING) if c.line == 7 and c.doc == "pfabric"] \
        == [("README.md", 7, "pfabric", "Presets")] * 2
    assert broken_citations({**DOCUMENTS, "x.h": CITING, "README.md": CITING}) == [
        f'{source}:{line}: doc/{doc}.rst, "{title}": {what}' for source in ("x.h", "README.md")
        for line, doc, title, what in ((5, "pfabric", "Gone", "not a section of it"),
                                       (6, "experiments", "Nowhere", "not a section of it"),
                                       (7, "missing", "Presets", "no document"))]
    assert not names_title("Fuzz", DOCUMENTS["doc/testing.rst"])


def blank_literals(text: str) -> str:
    """The text with inline literals (``...``) blanked, offsets kept: quotes in them are code."""
    return re.sub(r"``.*?``", lambda match: " " * len(match.group(0)), text)


def paragraphs(text: str) -> list[tuple[int, str]]:
    """The text's paragraphs (blank lines apart; a table or a list is one), with the 1-based
    line each starts on."""
    found, start, lines = [], 0, text.split("\n")
    for index, line in enumerate([*lines, ""]):
        if not line.strip():
            if index > start:
                found.append((start + 1, "\n".join(lines[start:index])))
            start = index + 1
    return found


def section_lines(text: str, title: str) -> range:
    """The lines (1-based) of the section of that title, its subsections included."""
    found = headings(text)
    for heading, *after in (found[index:] for index in range(len(found))):
        if heading.title == title:
            stop = next((h.line for h in after if h.level <= heading.level),
                        len(text.split("\n")) + 1)
            return range(heading.line, stop)
    return range(0)


def uncited_titles(documents: dict[str, str],
                   unchecked: frozenset[tuple[str, str]] = frozenset()) -> list[str]:
    """One line per quoted title in a document of doc/ that is a section of another document
    but not of its own, nor (for the others, whose introductions say so) of pfabric.rst, nor of
    a document its paragraph names: a citation that a move left without its document."""
    found = []
    model = documents.get("pfabric", "")
    for name, text in documents.items():
        skipped = [section_lines(text, title) for doc, title in unchecked if doc == name]
        for first, paragraph in paragraphs(text):
            if any(first in lines for lines in skipped):
                continue
            flat, starts = flatten(paragraph, False)
            cited = [range(*match.span()) for pattern in (FORWARD, BACKWARD, OTHER_FILE)
                     for match in pattern.finditer(flat)]
            named = [documents.get(doc, "") for doc in re.findall(CITED_DOC, flat)]
            for match in re.finditer(r'"([^"]+)"', blank_literals(flat)):
                title = " ".join(match.group(1).split())
                if (not re.search(r"[A-Za-z]", title)
                        or any(match.start() in span for span in cited)
                        or any(names_title(title, its) for its in [text, *named])
                        or (name != "pfabric" and names_title(title, model))):
                    continue
                elsewhere = [other for other, its in documents.items()
                             if other != name and names_title(title, its)]
                if elsewhere:
                    line = first - 1 + bisect.bisect_right(starts, match.start())
                    found.append(f'doc/{name}.rst:{line}: "{title}" is a section of '
                                 f'{", ".join(f"doc/{other}.rst" for other in elsewhere)}: '
                                 f'name the document')
    return found


def test_a_title_of_another_document_names_it() -> None:
    """Inside doc/, a section of another document is cited with that document's name: the
    documents say that the titles they name without one are their own or the model's."""
    documents = {path.stem: path.read_text() for path in rst_files()}
    uncited = uncited_titles(documents)
    assert not uncited, "\n".join(uncited)


def test_a_title_of_another_document_without_it_is_caught() -> None:
    """A bare title of another document is reported with its line, unless its paragraph names
    that document; a title of the document itself, or of pfabric.rst for the others, is fine;
    an unchecked section is skipped, its subsections too."""
    documents = {
        "pfabric": "Model\n=====\n\nSee \"Incast\" and \"Model\".\n\n"
                   "See doc/experiments.rst, \"Incast\"; ``\"Incast\"`` is code.\n",
        "experiments": "Incast\n======\n\nSee \"Model\" and \"Incast\".\n\n"
                       "\"Tests\" in doc/testing.rst, and \"Tests\".\n\nA bare \"Tests\".\n\n"
                       "Old\n===\n\nA bare \"Tests\".\n\nSub\n---\n\n\"Tests\".\n\nNew\n===\n\n"
                       "\"Tests\".\n",
        "testing": "Tests\n=====\n\nText.\n"}
    assert uncited_titles(documents, frozenset({("experiments", "Old")})) == [
        'doc/pfabric.rst:4: "Incast" is a section of doc/experiments.rst: name the document',
        *(f'doc/experiments.rst:{line}: "Tests" is a section of doc/testing.rst: name the '
          f'document' for line in (8, 23))]
    assert len(uncited_titles(documents)) == 5


# The walk-through of doc/pfabric.rst: the classes a packet meets, in order. Every class of the
# module it names (``PfabricName``, ``PfabricName::Member``) is declared in a header of model/ or
# helper/, with that member, and every path it names (``model/...``) exists.
WALK_THROUGH = "How a packet's priority travels"
MODULE_NAME = re.compile(r"(Pfabric\w+)(?:::(\w+))?")
MODULE_PATH = re.compile(r"(?:model|helper|examples|test|analysis|workloads|bench)/\S+")


def section_text(text: str, title: str) -> str:
    """The text of the section of that title, its subsections included."""
    lines = section_lines(text, title)
    return "\n".join(text.split("\n")[lines.start - 1:lines.stop - 1])


def declarations(root: Path) -> dict[str, str]:
    """The module's classes and structs, each with the text of the header that declares it
    (a forward declaration, `class X;`, declares nothing); helper/ with its subfolders."""
    found = {}
    for header in sorted([*(root / "model").glob("*.h"), *(root / "helper").rglob("*.h")]):
        text = header.read_text()
        for name in re.findall(r"^\s*(?:class|struct)\s+(Pfabric\w+)\b(?!\s*;)", text,
                               re.MULTILINE):
            found[name] = text
    return found


def missing_names(section: str, root: Path) -> list[str]:
    """One line per class, member or path that the section names and the module lacks."""
    declared = declarations(root)
    missing = []
    for literal in sorted(set(re.findall(r"``(.+?)``", section, re.DOTALL))):
        literal = " ".join(literal.split())
        if MODULE_PATH.fullmatch(literal):
            if not list(root.glob(literal)):
                missing.append(f"{literal}: no such file")
        elif (match := MODULE_NAME.fullmatch(literal)):
            name, member = match.groups()
            if name not in declared:
                missing.append(f"{literal}: no header of model/ or helper/ declares {name}")
            elif member and not re.search(rf"\b{member}\b", declared[name]):
                missing.append(f"{literal}: the header of {name} declares no {member}")
    return missing


def test_the_walk_through_names_what_exists() -> None:
    """Every class, member and file that the walk-through names is the module's: a class
    renamed or split (as PfabricFlowSender took the sockets' place) fails here."""
    section = section_text((ROOT / "doc" / "pfabric.rst").read_text(), WALK_THROUGH)
    named = {match.group(1) for match in MODULE_NAME.finditer(section)}
    assert {"PfabricFlowApplication", "PfabricFlowSender", "PfabricTcpSocket",
            "PfabricQueueDisc", "PfabricSwitch", "PfabricTcpDemux"} <= named
    assert len(named) >= 25
    missing = missing_names(section, ROOT)
    assert not missing, "\n".join(f'doc/pfabric.rst, "{WALK_THROUGH}": {line}'
                                  for line in missing)


def test_a_name_the_module_lacks_is_caught(tmp_path: Path) -> None:
    """A class with no header, a forward declaration only, a member its header lacks and a
    missing file are reported; ns-3's classes and other literals are not checked."""
    (tmp_path / "model").mkdir()
    (tmp_path / "helper").mkdir()
    (tmp_path / "model" / "pfabric-a.h").write_text(
        "class PfabricB;\nclass PfabricA : public Object\n{\n    void Start();\n};\n")
    (tmp_path / "helper" / "pfabric-c.h").write_text("struct PfabricC\n{\n};\n")
    section = ("``PfabricA::Start`` and ``PfabricA::Stop``, ``PfabricB``, ``PfabricC``,\n"
               "``PfabricD``, ``model/pfabric-a.h``, ``helper/pfabric-e.h``, ``TcpSocketBase``,\n"
               "``--flows``.")
    assert missing_names(section, tmp_path) == [
        "PfabricA::Stop: the header of PfabricA declares no Stop",
        "PfabricB: no header of model/ or helper/ declares PfabricB",
        "PfabricD: no header of model/ or helper/ declares PfabricD",
        "helper/pfabric-e.h: no such file"]
