"""sweep/reproduce --until-citable: the runs a point that misses rule (a) takes, round by round,
planned by hand and then run on the Ideal scheme (a sweep of seconds)."""

from __future__ import annotations

import math
import socket
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from pfabric_analysis.cli import main
from pfabric_analysis.figures import load_sweep
from pfabric_analysis.until_citable import MoreRuns, more_runs, spans
from pfabric_analysis.sweep_spec import SweepSpec

RULE = (("(0,100KB]", "mean"), ("(0,100KB]", "p99"), ("(100KB,10MB]", "mean"))


def point(scheme: str, load: float, runs: list[int], relative: tuple[float, float, float],
          workload: str = "websearch") -> list[dict]:
    """A point's rows of the figures' table: rule (a)'s statistics at these relative
    half-widths, from these runs (replications: one batch value per run)."""
    failing = ";".join(f"{b} {s}" for (b, s), r in zip(RULE, relative) if not r <= 0.03)
    names = ";".join(f"{workload}-{scheme}-load{load:g}-run{run}" for run in runs)
    return [{"figure": "fig4", "workload": workload, "scheme": scheme, "label": scheme,
             "load": load, "bin": size_bin, "statistic": statistic, "ci_relative": value,
             "batches": len(runs), "runs": len(runs), "run_dirs": names,
             "citable": not failing, "not_citable": failing}
            for (size_bin, statistic), value in zip(RULE, relative)]


def test_spans() -> None:
    assert spans((4, 5, 6, 9)) == "4-6,9" and spans((7,)) == "7" and spans((1, 3)) == "1,3"


def test_the_runs_a_point_takes_by_hand() -> None:
    """After five runs: a p99 at 5.78% wants 12 runs (intervals.runs_for_rule), so 6-10 this
    round (at most double); a mean at 3.31% wants 6, so run 6 at both loads of that scheme, in
    one group; runs 1, 2, 3 and 5 with a mean at 4% want 6, so 4 and 6 (the lowest free
    numbers); 3.01% after 10 runs wants 11; a citable point, a point outside the grid, one past
    MAX_RUNS (two statistics named) and one without an estimate take none, the last two said
    so; a point of one run (run 3) takes a second (run 1), from which an estimate can be made."""
    spec = SweepSpec(("websearch",), ("pfabric", "linerate", "tcp", "dctcp", "ideal"),
                     (0.6, 0.8), (1, 2, 3, 4, 5), (("websearch", 10_000),))
    five = [1, 2, 3, 4, 5]
    table = pd.DataFrame(
        point("pfabric", 0.8, five, (0.003, 0.0578, 0.01))
        + point("linerate", 0.6, five, (0.003, 0.0331, 0.01))
        + point("linerate", 0.8, five, (0.003, 0.0331, 0.01))
        + point("tcp", 0.6, [1, 2, 3, 5], (0.04, 0.01, 0.01))
        + point("ideal", 0.8, list(range(1, 11)), (0.0, 0.0301, 0.01))
        + point("ideal", 0.6, five, (0.0, 0.01, 0.01))
        + point("pfabric", 0.4, five, (0.003, 0.0578, 0.01))  # not in the grid
        + point("dctcp", 0.8, five, (0.2, 0.05, 0.01))
        + point("tcp", 0.8, five, (math.nan, 0.01, 0.01))
        + point("dctcp", 0.6, [3], (math.nan, math.nan, math.nan)))
    wanted, left = more_runs(table, spec, 20)
    assert wanted == [MoreRuns("websearch", "pfabric", (0.8,), (6, 7, 8, 9, 10)),
                      MoreRuns("websearch", "linerate", (0.6, 0.8), (6,)),
                      MoreRuns("websearch", "tcp", (0.6,), (4, 6)),
                      MoreRuns("websearch", "ideal", (0.8,), (11,)),
                      MoreRuns("websearch", "dctcp", (0.6,), (1,))]
    assert left == [
        # s / value = 20% sqrt(5) / t(0.975, 4) = 16.1%: t(0.975, 113) 16.1% / sqrt(114) = 2.99%
        "websearch dctcp at load 0.8: (0,100KB] mean and (0,100KB] p99 not within 3% by 20 runs "
        "(about 114 runs in all)",
        "websearch tcp at load 0.8: (0,100KB] mean not within 3% by 20 runs (no estimate)"]
    # within MAX_RUNS only: at 6, the 5-run points that want 12 and 11 are left
    wanted, left = more_runs(table, spec, 6)
    assert wanted == [MoreRuns("websearch", "linerate", (0.6, 0.8), (6,)),
                      MoreRuns("websearch", "tcp", (0.6,), (4, 6)),
                      MoreRuns("websearch", "dctcp", (0.6,), (1,))]
    assert len(left) == 4


def arguments(out: Path, store: Path, bin_dir: Path, until: int | None) -> list[str]:
    return ["sweep", f"--out={out}", f"--store={store}", "--workloads=websearch",
            "--schemes=ideal", "--loads=0.2,0.5", "--runs=1,2,3", "--flows=3000",
            "--set=hosts=16", "--set=topology=star", f"--bin-dir={bin_dir}", "-j", "2",
            "--quiet"] + ([f"--until-citable={until}"] if until else [])


def test_a_sweep_adds_runs_until_its_points_are_citable(bin_dir: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture) -> None:
    """The grid (three runs of 3,000 flows per point), then rounds: the first adds what
    more_runs plans from the grid's points; at the end every point is citable or said to be
    left, with at most MAX_RUNS runs, numbered from 1 without a gap; the same command again
    runs nothing and says the same."""
    out, store = tmp_path / "sweep", tmp_path / "store"
    assert main(arguments(out, store, bin_dir, None)) == 0
    spec = SweepSpec(("websearch",), ("ideal",), (0.2, 0.5), (1, 2, 3), (("websearch", 3000),))
    first, _ = more_runs(load_sweep(store), spec, 12)
    assert first, "the grid's points should want more runs"
    capsys.readouterr()
    # Another sweep holds a claim on every run the first round wants: this one runs none of
    # them and stops instead of planning the same round again.
    holder = subprocess.Popen(["sleep", "60"])
    claims = [store / f".websearch-ideal-load{load:g}-run{run}.claim"
              for more in first for load in more.loads for run in more.runs]
    try:
        for claim in claims:
            claim.write_text(f"{socket.gethostname()} {holder.pid}\n")
        assert main(arguments(out, store, bin_dir, 12)) == 0
        held = capsys.readouterr().out
        assert held.count("until-citable: round") == 1 and held.endswith(
            "until-citable: the runs this round asked for are another sweep's; give the same "
            "command again when it has ended\n")
        assert "left to another sweep that claimed them" in held
    finally:
        holder.kill()
        holder.wait()
    for claim in claims:
        claim.unlink()
    assert main(arguments(out, store, bin_dir, 12)) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("sweep: 0 ran, 12 already finished")  # lists and points
    assert "until-citable: round 1, more runs for " + "; ".join(
        f"websearch ideal at {','.join(f'{load:g}' for load in more.loads)}: runs "
        f"{spans(more.runs)}" for more in first) + "\n" in printed
    final = printed[printed.rindex("until-citable: "):]
    table = load_sweep(store)
    for (load, runs, names, citable, label) in table[table["figure"] == "fig4"][
            ["load", "runs", "run_dirs", "citable", "label"]].drop_duplicates("load").itertuples(
                index=False):
        assert sorted(int(name.rsplit("run", 1)[1]) for name in names.split(";")) == \
            list(range(1, runs + 1))
        assert runs <= 12
        assert citable or f"  websearch {label} at load {load:g}: " in final
    assert main(arguments(out, store, bin_dir, 12)) == 0
    again = capsys.readouterr().out
    assert again.startswith("sweep: 0 ran, 12 already finished") and "round" not in again
    assert again.endswith(final)


def test_until_citable_needs_a_store(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "sweep"
    assert main(["sweep", f"--out={out}", "--schemes=ideal", "--until-citable=10",
                 "--quiet"]) == 1
    assert capsys.readouterr().err == ("pfabric-analysis: error: --until-citable: needs --store "
                                       "(the runs it adds are pooled with the grid's from the "
                                       "store)\n")
    assert not out.exists()
    assert main(["sweep", f"--out={out}", "--until-citable=1", "--quiet"]) == 1
    assert capsys.readouterr().err == ("pfabric-analysis: error: --until-citable 1: expected a "
                                       "whole number of at least 2\n")
