"""The TcpSocketBase internals the module's ns-3 sockets rely on are listed in one place, the
"ns-3 internals" paragraph of model/pfabric-tcp-socket.h: every protected member of ns-3's
TcpSocketBase or TcpSocketState that the sockets' sources use must be in it (and nothing listed
that is no longer used), so that a reader checking a new ns-3 release knows what to look at."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "model"
SOCKETS = ("pfabric-tcp-socket", "pfabric-min-tcp-socket", "pfabric-line-rate-tcp-socket",
           "pfabric-baseline-tcp-socket")
MARK = "@par ns-3 internals"
MEMBER = re.compile(r"\bm_[A-Za-z]+\b")


def listed_members(header: str) -> set[str]:
    """The m_ names of the paragraph that starts at MARK and ends with the comment."""
    paragraph = header.split(MARK, 1)[1].split("*/", 1)[0]
    return set(MEMBER.findall(paragraph))


def own_members(headers: list[str]) -> set[str]:
    """Members the module's socket classes declare themselves (outside comments)."""
    code = "\n".join(re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.DOTALL) for text in headers)
    return set(MEMBER.findall(code))


def used_members(sources: list[str]) -> set[str]:
    code = "\n".join(re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.DOTALL) for text in sources)
    return set(MEMBER.findall(code))


def test_every_ns3_internal_used_is_listed() -> None:
    headers = [(MODEL / f"{name}.h").read_text() for name in SOCKETS]
    sources = [(MODEL / f"{name}.cc").read_text() for name in SOCKETS]
    listed = listed_members(headers[0])
    internals = used_members(sources) - own_members(headers)
    assert internals, "the sockets use no ns-3 internals: the parser is broken"
    assert internals - listed == set(), (
        f"model/pfabric-tcp-socket.h, '{MARK}': used but not listed: "
        f"{sorted(internals - listed)}")
    assert listed - internals == set(), (
        f"model/pfabric-tcp-socket.h, '{MARK}': listed but no longer used: "
        f"{sorted(listed - internals)}")


def test_the_check_fails_on_an_unlisted_member() -> None:
    header = "/**\n * @par ns-3 internals\n * - m_tcb\n */\nclass X { int m_own; };"
    source = "void X::F() { m_tcb->m_cWnd = m_own; m_retxEvent.Cancel(); }"
    internals = used_members([source]) - own_members([header])
    assert internals - listed_members(header) == {"m_cWnd", "m_retxEvent"}
