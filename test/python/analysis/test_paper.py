"""The paper's numbers beside this module's (pfabric_analysis.paper): values and ratios at the
claim's loads, verdicts, and the section of figures.md, on hand-made figure tables."""

from __future__ import annotations

import math
from collections.abc import Set as AbstractSet

import pandas as pd
import pytest

from pfabric_analysis import paper
from pfabric_analysis.figures import paper_markdown

SMALL, MEDIUM, LARGE = paper.SMALL, paper.MEDIUM, paper.LARGE


def table(values: dict[tuple[str, str, str, str, float], float],
          not_citable: AbstractSet[tuple[str, str, float]] = frozenset()) -> pd.DataFrame:
    """A figure table (the columns paper reads) from {(workload, scheme, bin, statistic, load):
    value}; every point citable but the (workload, scheme, load) in not_citable."""
    labels = {"pfabric": "MinTCP+pFabric", "linerate": "LineRate+pFabric", "tcp": "TCP-DropTail",
              "dctcp": "DCTCP", "ideal": "Ideal"}
    return pd.DataFrame([{"workload": w, "scheme": s, "label": labels[s], "bin": b,
                          "statistic": st, "load": load, "value": v,
                          "citable": (w, s, load) not in not_citable}
                         for (w, s, b, st, load), v in values.items()])


def claim(**changes) -> paper.Claim:
    base = {"workload": "datamining", "size_bin": SMALL, "statistic": "mean",
            "scheme": "pfabric", "low": 1.04, "high": 1.21, "quote": "q"}
    return paper.Claim(**{**base, **changes})


def test_a_range_over_every_load_of_the_sweep() -> None:
    frame = table({("datamining", "pfabric", SMALL, "mean", 0.2): 1.08,
                   ("datamining", "pfabric", SMALL, "mean", 0.8): 1.25,
                   ("datamining", "pfabric", SMALL, "p99", 0.8): 9.0})
    found = paper.compare(claim(), frame, "datamining")
    assert found.values == {0.2: 1.08, 0.8: 1.25}
    assert found.verdict == "overlaps"
    assert paper.compare(claim(high=1.3), frame, "datamining").verdict == "inside"
    assert paper.compare(claim(low=1.3, high=1.5), frame, "datamining").verdict == "below"
    assert paper.compare(claim(low=1.0, high=1.05), frame, "datamining").verdict == "above"
    assert paper.compare(claim(words=True), frame, "datamining").verdict == ""


def test_a_ratio_at_the_claims_load_only() -> None:
    frame = table({("websearch", "pfabric", LARGE, "mean", 0.6): 2.0,
                   ("websearch", "pfabric", LARGE, "mean", 0.8): 3.0,
                   ("websearch", "tcp", LARGE, "mean", 0.6): 2.0,
                   ("websearch", "tcp", LARGE, "mean", 0.8): 2.4})
    ratio = claim(workload="websearch", size_bin=LARGE, low=1.2, high=1.28, over="tcp",
                  loads=(0.8,))
    found = paper.compare(ratio, frame, "websearch")
    assert found.values == {0.8: pytest.approx(1.25)} and found.verdict == "inside"
    # The load it names not run, or the other scheme not run: nothing to compare.
    assert paper.compare(claim(workload="websearch", size_bin=LARGE, loads=(0.7,)), frame,
                         "websearch").verdict == "not run"
    assert paper.compare(claim(workload="websearch", size_bin=LARGE, over="dctcp"), frame,
                         "websearch").values == {}


def test_a_value_resting_on_a_point_not_citable_is_marked() -> None:
    """TCP's small flows over MinTCP's at 0.2, 0.5 and 0.8: TCP's point at 0.2 and MinTCP's at
    0.8 miss rule (a), so the ratios at 0.2 and 0.8 are marked, in the comparison and in
    figures.md; MinTCP's own range is marked at 0.8 only. The verdict is over every value."""
    frame = table({("datamining", s, SMALL, "mean", load): v
                   for s, by_load in (("tcp", {0.2: 10.0, 0.5: 8.5, 0.8: 9.0}),
                                      ("pfabric", {0.2: 1.08, 0.5: 1.15, 0.8: 1.2}))
                   for load, v in by_load.items()},
                  not_citable={("datamining", "tcp", 0.2), ("datamining", "pfabric", 0.8)})
    ratio = paper.compare(claim(scheme="tcp", over="pfabric", low=7.0, high=11.0), frame,
                          "datamining")
    assert ratio.not_citable == {0.2, 0.8} and ratio.verdict == "inside"
    assert paper.compare(claim(), frame, "datamining").not_citable == {0.8}
    lines = paper_markdown(frame)
    assert any("| 0.2 / 0.5 / 0.8 | 9.26 † / 7.39 / 7.5 † | inside |" in line and
               "| TCP-DropTail / MinTCP+pFabric | 7-11 |" in line for line in lines)
    assert any("| MinTCP+pFabric | 1.04-1.21 | 0.2 / 0.5 / 0.8 | 1.080 / 1.150 / 1.200 † | "
               in line for line in lines)
    assert "†: the value rests on a point not citable by rule (a)" in lines[2]


def test_an_undefined_value_has_no_verdict() -> None:
    frame = table({("datamining", "pfabric", SMALL, "p99", 0.8): math.nan})
    assert paper.compare(claim(statistic="p99"), frame, "datamining").verdict == "n/a"


def test_a_claim_without_a_workload_is_compared_in_each() -> None:
    frame = table({(w, s, "all", "mean", 0.8): v for w in ("websearch", "datamining")
                   for s, v in (("tcp", 6.0), ("pfabric", 1.5))})
    overall = [c for c in paper.comparisons(frame) if c.claim.size_bin == paper.OVERALL and
               c.claim.scheme == "tcp" and c.claim.over == "pfabric"]
    assert [c.workload for c in overall] == ["websearch", "datamining"]
    assert all(c.values == {0.8: 4.0} and c.verdict == "inside" for c in overall)


def test_every_data_mining_number_of_the_text_is_a_claim() -> None:
    # The data mining paragraph of section 3: four ranges of the small flows, the order of
    # magnitude over TCP and DCTCP (both pFabric schemes), LineRate within 10% of Ideal on
    # medium and large flows.
    mining = [c for c in paper.CLAIMS if c.workload == "datamining"]
    ranges = {(c.scheme, c.statistic): (c.low, c.high) for c in mining if not c.over}
    assert ranges == {("linerate", "mean"): (1.04, 1.25), ("linerate", "p99"): (1.68, 2.18),
                      ("pfabric", "mean"): (1.04, 1.21), ("pfabric", "p99"): (1.90, 2.12)}
    assert {(c.scheme, c.over) for c in mining if c.words} == {
        (b, p) for b in ("tcp", "dctcp") for p in ("pfabric", "linerate")}
    assert {c.size_bin for c in mining if c.over == "ideal"} == {MEDIUM, LARGE}


def test_the_section_of_figures_md() -> None:
    frame = table({("websearch", s, SMALL, "p99", 0.8): v
                   for s, v in (("linerate", 1.77), ("dctcp", 16.5), ("tcp", 37.8))})
    lines = paper_markdown(frame)
    assert lines[0] == "## Against the paper's text"
    rows = [line for line in lines if line.startswith("| Web search workload | (0,100KB] p99")]
    assert rows[:3] == [
        "| Web search workload | (0,100KB] p99 | LineRate+pFabric | 1.75 | 0.8 | 1.770 | above "
        "| at 80% load, the 99th percentile FCT for the (0,100KB] flows is only 1.75 with "
        "LineRate+pFabric |",
        "| Web search workload | (0,100KB] p99 | DCTCP | 16.97 | 0.8 | 16.500 | below | while "
        "it is 16.97 and 66.03 respectively for DCTCP and TCP |",
        "| Web search workload | (0,100KB] p99 | TCP-DropTail | 66.03 | 0.8 | 37.800 | below | "
        "while it is 16.97 and 66.03 respectively for DCTCP and TCP |"]
    # A ratio whose denominator did not run says so.
    assert any("| TCP-DropTail / MinTCP+pFabric | 33-69 | - | - | not run |" in line
               for line in lines)
