"""Figures 2-4 from a hand-made sweep whose every plotted number can be computed by hand."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from pfabric_analysis import figures as figures_module
from pfabric_analysis.cli import main
from pfabric_analysis.figures import breakdown_figure, load_sweep, overall_figure, write_figures
from pfabric_analysis.plotting import CUSTOM_COLORS, CUSTOM_MARKERS, SCHEMES
from pfabric_analysis.runs import AnalysisError

WORKLOADS = ("websearch", "datamining")
LOADS = (0.2, 0.5, 0.8)
LABELS = ["TCP-DropTail", "DCTCP", "MinTCP+pFabric", "LineRate+pFabric", "Ideal"]
BASE = {"tcp": 4.0, "dctcp": 3.0, "pfabric": 1.5, "linerate": 1.25, "ideal": 1.0}
FACTOR = {"websearch": 1.0, "datamining": 2.0}
# The hand-made runs have 4 flows each, too few for 10 batches (the pictures test asks for batch
# means): no interval, no citable point.
HOLLOW = "hollow: not citable (CI > 3%)"
# Two runs per point give t(0.975, 1) = 12.7 times their spread: the fixture's intervals reach below
# 0, and the legend says so (test_an_interval_reaching_below_0_ends_in_an_arrow_at_the_axis).
CUT = "interval reaches below 0"
FIGURE_FILES = ["fig2-overall.png", "fig2-overall.pdf", "fig3-datamining.png",
                "fig3-datamining.pdf", "fig4-websearch.png", "fig4-websearch.pdf"]


def slowdown_a(workload: str, scheme: str, load: float) -> float:
    """The smallest slowdown of a point; every flow's slowdown is this plus a known offset."""
    return BASE[scheme] * FACTOR[workload] * (1 + load)


def flows(a: float, run: int, unfinished_large: bool = False) -> pd.DataFrame:
    """Run r: small flows at a+2(r-1) and a+2(r-1)+1, a medium one at a+(r-1), a large one at
    2a+2(r-1); optionally one more large flow that never finished."""
    r = run - 1
    rows = [(1000, a + 2 * r), (100000, a + 2 * r + 1), (100001, a + r), (20000000, 2 * a + 2 * r)]
    table = [{"flow_id": i, "src": 0, "dst": 1, "size_bytes": size, "start_s": 0.0,
              "fct_s": slowdown * 1e-4 * (i + 1), "ideal_fct_s": 1e-4 * (i + 1), "timeouts": 0,
              "completed": 1} for i, (size, slowdown) in enumerate(rows)]
    if unfinished_large:
        table.append({"flow_id": 4, "src": 1, "dst": 0, "size_bytes": 30000000, "start_s": 0.0,
                      "fct_s": np.nan, "ideal_fct_s": 1e-2, "timeouts": 3, "completed": 0})
    return pd.DataFrame(table)


def expected(workload: str, scheme: str, load: float) -> dict[str, float]:
    """The pooled statistics of the two replications, by hand: small 1a..a+3 (mean a+1.5, nearest
    rank p99 the largest, a+3), medium a, a+1 (a+0.5), large 2a, 2a+2 (2a+1), all eight
    (10a+9)/8."""
    a = slowdown_a(workload, scheme, load)
    return {"a": a + 1.5, "b": a + 3, "c": a + 0.5, "d": 2 * a + 1, "all": (10 * a + 9) / 8}


def replication_shift(seed: object, run: object) -> float:
    """How much later a replication's flows start than run 1 of seed 1's, in seconds: 1,000 a
    seed and 1 a run after the first, so that replications of one point run flows of their own,
    as the programs' do (check_poolable refuses two runs of the same flows). A start time enters
    no FCT, ideal FCT or slowdown: every number the tests compute by hand stays."""
    if isinstance(seed, int) and isinstance(run, int):
        return float((seed - 1) * 1000 + run - 1)
    return 0.0


def write_run(directory: Path, workload: str, fct: pd.DataFrame, **parameters: object) -> Path:
    """A run directory of fct's flows (started replication_shift later) and its meta.json."""
    directory.mkdir(parents=True)
    written = {"preset": "hotnets12", "topology": "fattree", "flows": 4, "flowFile": "",
               "dumpFlows": "", "seed": 1, "out": str(directory), **parameters}
    meta = {"program": f"pfabric-{workload}", "workload": workload, "parameters": written,
            "module_version": "0.1.0", "ns3_version": "3.44", "git_commit": "0123abc"}
    shift = replication_shift(written["seed"], written.get("run", 1))
    fct.assign(start_s=fct["start_s"] + shift).to_csv(directory / "fct.csv", index=False)
    (directory / "meta.json").write_text(json.dumps(meta, indent=2))
    return directory


def run_name(workload: str, scheme: str, load: float, run: int) -> str:
    return f"{workload}-{scheme}-{load:g}-r{run}"


def make_sweep(root: Path, workloads: tuple[str, ...] = WORKLOADS) -> Path:
    """2 workloads x 5 schemes x 3 loads x 2 replications below root/runs; one unfinished flow:
    data mining, TCP, load 0.8, replication 2."""
    for workload in workloads:
        for scheme in BASE:
            for load in LOADS:
                for run in (1, 2):
                    unfinished = (workload, scheme, load, run) == ("datamining", "tcp", 0.8, 2)
                    write_run(root / "runs" / run_name(workload, scheme, load, run), workload,
                              flows(slowdown_a(workload, scheme, load), run, unfinished),
                              scheme=scheme, load=load, run=run)
    return root


@pytest.fixture(scope="module")
def sweep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_sweep(tmp_path_factory.mktemp("sweep"))


@pytest.fixture(scope="module")
def table(sweep: Path) -> pd.DataFrame:
    return load_sweep(sweep)


def scheme_lines(ax) -> list:
    """Each scheme's line (the data line of its error bar container), in legend order."""
    return [container.lines[0] for container in ax.containers]


def check_panel(ax, title: str, workload: str, panel: str) -> None:
    """A panel's title, axis labels and one line per scheme through the hand-computed points."""
    assert ax.get_title() == title
    assert ax.get_xlabel() == "Load" and ax.get_ylabel() == "Normalized FCT"
    lines = scheme_lines(ax)
    assert [container.get_label() for container in ax.containers] == LABELS
    for line, scheme in zip(lines, BASE):
        assert list(line.get_xdata()) == pytest.approx(list(LOADS))
        want = [expected(workload, scheme, load)[panel] for load in LOADS]
        assert list(line.get_ydata()) == pytest.approx(want)
    assert [tick.get_text() for tick in ax.get_xticklabels()] == ["0.2", "0.5", "0.8"]


def test_replications_are_pooled_by_hand(table: pd.DataFrame) -> None:
    point = table[(table["figure"] == "fig3") & (table["panel"] == "d") &
                  (table["scheme"] == "dctcp") & (table["load"] == 0.5)]
    assert len(point) == 1
    row = point.iloc[0]
    assert row["workload"] == "datamining" and row["bin"] == "(10MB,inf)"
    assert row["runs"] == 2 and row["flows"] == 2 and row["unfinished"] == 0
    assert row["value"] == pytest.approx(2 * (3.0 * 2 * 1.5) + 1)  # 2a+1, a = 9
    assert row["run_dirs"] == ("runs/datamining-dctcp-0.5-r1;runs/datamining-dctcp-0.5-r2")
    overall = table[(table["figure"] == "fig2") & (table["workload"] == "websearch") &
                    (table["scheme"] == "ideal") & (table["load"] == 0.2)].iloc[0]
    assert overall["panel"] == "a" and overall["flows"] == 8
    assert overall["value"] == pytest.approx((10 * 1.2 + 9) / 8)


def test_the_unfinished_flow_is_counted_not_averaged(table: pd.DataFrame) -> None:
    rows = table[(table["workload"] == "datamining") & (table["scheme"] == "tcp") &
                 (table["load"] == 0.8)].set_index(["figure", "panel"])
    assert rows.loc[("fig3", "d"), "unfinished"] == 1
    assert rows.loc[("fig3", "d"), "flows"] == 2
    assert rows.loc[("fig2", "b"), "unfinished"] == 1
    assert rows.loc[("fig3", "a"), "unfinished"] == 0
    want = expected("datamining", "tcp", 0.8)["d"]
    assert rows.loc[("fig3", "d"), "value"] == pytest.approx(want)


def test_figure_2_has_a_panel_per_workload_and_every_scheme(table: pd.DataFrame) -> None:
    figure = overall_figure(table)
    axes = figure.axes
    assert len(axes) == 2
    check_panel(axes[0], "(a) Web search workload", "websearch", "all")
    check_panel(axes[1], "(b) Data mining workload", "datamining", "all")
    assert [text.get_text() for text in figure.legends[0].get_texts()] == LABELS + [HOLLOW, CUT]


@pytest.mark.parametrize("workload", WORKLOADS)
def test_figures_3_and_4_have_the_four_size_bin_panels(table: pd.DataFrame,
                                                       workload: str) -> None:
    figure = breakdown_figure(table, workload)
    titles = ["(a) (0, 100KB]: Avg", "(b) (0, 100KB]: 99th Percentile",
              "(c) (100KB, 10MB]: Avg", "(d) (10MB, \u221e): Avg"]
    assert len(figure.axes) == 4
    for ax, title, panel in zip(figure.axes, titles, "abcd"):
        check_panel(ax, title, workload, panel)
    assert [text.get_text() for text in figure.legends[0].get_texts()] == LABELS + [HOLLOW, CUT]


def visible_yticks(ax) -> list[float]:
    low, high = ax.get_ylim()
    return [float(tick) for tick in ax.get_yticks() if low <= tick <= high]


def test_panels_are_log_by_default_with_1_on_every_axis(table: pd.DataFrame) -> None:
    # Figure 3's p99 panel: 5.4 (Ideal, 0.2) to 17.4 (TCP, 0.8) with intervals, shown from 1:
    # more than a decade, 1-2-5 ticks.
    for figure in (overall_figure(table), breakdown_figure(table, "datamining")):
        for ax in figure.axes:
            low, high = ax.get_ylim()
            assert ax.get_yscale() == "log" and low <= 1.0 < high
    wide = breakdown_figure(table, "datamining").axes[1]
    assert visible_yticks(wide) == [1.0, 2.0, 5.0, 10.0]
    assert [label.get_text() for label in wide.get_yticklabels()
            if float(label.get_text()) in visible_yticks(wide)] == ["1", "2", "5", "10"]


def test_a_log_axis_under_a_decade_has_evenly_spaced_ticks() -> None:
    # pFabric against Ideal alone: 1.1 to 1.6, shown from 0.95; 1-2-5 ticks would label only 1.
    figure = Figure()
    ax = figure.subplots()
    ax.plot([0.2, 0.8], [1.1, 1.6])
    figures_module._scale_y_axis(ax, "log")
    assert ax.get_yscale() == "log" and ax.get_ylim()[0] == pytest.approx(0.95)
    assert visible_yticks(ax) == pytest.approx([1.0, 1.2, 1.4, 1.6])


@pytest.mark.parametrize("yscale", ["log", "linear"])
def test_an_interval_reaching_below_0_ends_in_an_arrow_at_the_axis(table: pd.DataFrame,
                                                                  yscale: str) -> None:
    """Every half-width 1% of its value but TCP-DropTail's small flows' at 0.2, 1.5 times its
    value (as five heavy-tailed runs give): the axis cuts that bar, so an arrow in TCP's colour
    marks the panel's foot under it, in that panel alone, and the legend says what it means."""
    narrow = table.assign(ci_halfwidth=0.01 * table["value"])
    cut = ((narrow["figure"] == "fig3") & (narrow["panel"] == "a") & (narrow["scheme"] == "tcp")
           & (narrow["load"] == 0.2))
    assert cut.sum() == 1
    changed = narrow.copy()
    changed.loc[cut, "ci_halfwidth"] = 1.5 * changed.loc[cut, "value"]
    figure = breakdown_figure(changed, "datamining", yscale)
    arrows = [[line for line in ax.get_lines() if line.get_label() == "_cut"]
              for ax in figure.axes]
    assert [len(lines) for lines in arrows] == [1, 0, 0, 0]
    arrow = arrows[0][0]
    # np.asarray: Line2D's data as the array it holds (its stub says any ArrayLike).
    assert list(np.asarray(arrow.get_xdata())) == [0.2]
    assert list(np.asarray(arrow.get_ydata())) == [0.0]
    assert arrow.get_marker() == figures_module.CUT_INTERVAL_MARKER
    assert arrow.get_color() == SCHEMES["tcp"]["color"]
    assert arrow.get_marker() not in CUSTOM_MARKERS + tuple(look["marker"] for look in SCHEMES.values())
    assert arrow.get_transform() == figure.axes[0].get_xaxis_transform()  # y 0: the axis foot
    low, _ = figure.axes[0].get_ylim()
    assert low <= 1.0 and low > 0 if yscale == "log" else low == 0
    legend = [text.get_text() for text in figure.legends[0].get_texts()]
    assert legend == LABELS + [HOLLOW, CUT] and CUT == figures_module.CUT_INTERVAL_LABEL
    # Without the cut interval: no arrow, no legend entry.
    uncut = breakdown_figure(narrow, "datamining", yscale)
    assert not [line for ax in uncut.axes for line in ax.get_lines() if line.get_label() == "_cut"]
    assert [text.get_text() for text in uncut.legends[0].get_texts()] == LABELS + [HOLLOW]


def test_linear_panels_start_at_0(table: pd.DataFrame) -> None:
    for ax in (breakdown_figure(table, "datamining", "linear").axes +
               overall_figure(table, "linear").axes):
        assert ax.get_yscale() == "linear" and ax.get_ylim()[0] == 0


def test_cli_yscale_is_one_of_the_scales(sweep: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["figures", str(sweep), "--out", str(tmp_path / "f"), "--yscale",
                 "logarithmic"]) == 1
    assert capsys.readouterr().err.startswith("pfabric-analysis: error: argument --yscale: ")
    assert not (tmp_path / "f").exists()
    assert main(["figures", str(sweep), "--out", str(tmp_path / "f"), "--yscale", "linear"]) == 0


def test_each_scheme_keeps_its_look_across_figures(table: pd.DataFrame) -> None:
    for figure in (overall_figure(table), breakdown_figure(table, "websearch")):
        for ax in figure.axes:
            for line, look in zip(scheme_lines(ax), SCHEMES.values()):
                assert line.get_color() == look["color"]
                assert line.get_linestyle() == {"-": "-", "--": "--"}[look["linestyle"]]
            markers = {line.get_color(): line.get_marker() for line in ax.get_lines()
                       if line.get_label() == "_marker"}
            assert markers == {look["color"]: look["marker"] for look in SCHEMES.values()}
        for handle, look in zip(figure.legends[0].legend_handles, SCHEMES.values()):
            assert isinstance(handle, Line2D), handle
            assert (handle.get_color(), handle.get_marker()) == (look["color"], look["marker"])


def test_write_figures_writes_pictures_table_and_notes(sweep: Path, tmp_path: Path) -> None:
    out = tmp_path / "figures"
    written = write_figures(sweep, out, 1000, batches=10)
    names = FIGURE_FILES + ["figures.csv", "figures.md"]
    assert sorted(path.name for path in written) == sorted(names)
    assert sorted(path.name for path in out.iterdir()) == sorted(names)  # no temporaries left
    for name in FIGURE_FILES:
        magic = b"\x89PNG\r\n\x1a\n" if name.endswith(".png") else b"%PDF-"
        assert (out / name).read_bytes().startswith(magic)
    csv = pd.read_csv(out / "figures.csv")
    assert len(csv) == 2 * 5 * 3 * (1 + 4)  # Figure 2 point + four Figure 3/4 points each
    for column in ("figure", "panel", "workload", "scheme", "load", "value", "flows",
                   "unfinished", "runs", "run_dirs", "parameters", "module_version",
                   "ns3_version", "git_commit"):
        assert column in csv.columns
    assert set(csv["runs"]) == {2}
    assert set(csv["module_version"]) == {"0.1.0"} and set(csv["ns3_version"].astype(str)) == {
        "3.44"} and set(csv["git_commit"]) == {"0123abc"}
    parameters = json.loads(csv["parameters"].iloc[0])
    assert parameters["preset"] == "hotnets12" and parameters["seed"] == 1
    assert "run" not in parameters and "out" not in parameters  # differ between replications
    assert csv.groupby(["figure", "panel", "workload", "scheme", "load"]).size().max() == 1
    markdown = (out / "figures.md").read_text()
    assert "### (a) Web search workload" in markdown
    assert "### Data mining workload: (b) (0, 100KB]: 99th Percentile" in markdown
    assert "| scheme | 0.2 | 0.5 | 0.8 |" in markdown
    cells = [f"{expected('websearch', 'tcp', load)['all']:.3f} +- n/a \u2020" for load in LOADS]
    assert "| TCP-DropTail | " + " | ".join(cells) + " |" in markdown  # Figure 2 (a)
    assert "TCP-DropTail at load 0.8: 1 of 3" in markdown
    assert "Smoke test" not in markdown  # the per-point status replaced it
    assert "| TCP-DropTail | 0.8 | 2 | 9 | 9 | n/a | no: (0,100KB] mean n/a, (0,100KB] p99 " \
        "n/a, (100KB,10MB] mean n/a | n/a |" in markdown
    assert set(csv["citable"]) == {False} and csv["ci_halfwidth"].isna().all()
    # The same input, the same bytes.
    again = write_figures(sweep, tmp_path / "again", 1000, batches=10)
    for path in again:
        assert path.read_bytes() == (out / path.name).read_bytes(), path.name


def test_a_missing_workload_has_no_breakdown_figure(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    sweep = make_sweep(tmp_path / "sweep", ("websearch",))
    out = tmp_path / "out"
    (out).mkdir()
    (out / "fig3-datamining.png").write_bytes(b"stale")  # from an earlier, fuller sweep
    assert main(["figures", str(sweep), "--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert sorted(printed) == sorted(f"wrote {out / name}" for name in [
        "fig2-overall.png", "fig2-overall.pdf", "fig4-websearch.png", "fig4-websearch.pdf",
        "figures.csv", "figures.md"])
    assert not (out / "fig3-datamining.png").exists()
    assert len(overall_figure(load_sweep(sweep)).axes) == 1


def test_cli_default_output_directory(sweep: Path, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    copy = make_sweep(tmp_path / "sweep", ("datamining",))
    assert main(["figures", str(copy)]) == 0
    assert (copy / "figures" / "fig3-datamining.pdf").is_file()
    assert not (copy / "figures" / "fig4-websearch.pdf").exists()
    assert f"wrote {copy / 'figures' / 'figures.md'}" in capsys.readouterr().out


def test_kb_moves_the_bin_edge(tmp_path: Path) -> None:
    fct = flows(1.0, 1)
    fct.loc[1, "size_bytes"] = 102000  # above 100 KB of 1000 B, below 100 KB of 1024 B
    fct.loc[2, "size_bytes"] = 200000  # medium either way
    write_run(tmp_path / "s" / "r", "websearch", fct, scheme="ideal", load=0.5, run=1)
    for kb, small in ((1000, 1), (1024, 2)):
        table = load_sweep(tmp_path / "s", kb)
        row = table[(table["figure"] == "fig4") & (table["panel"] == "a")].iloc[0]
        assert row["flows"] == small and row["kb"] == kb
    with pytest.raises(AnalysisError, match="--kb 1023: must be 1000 or 1024"):
        load_sweep(tmp_path / "s", 1023)


def break_unknown_scheme(sweep: Path) -> str:
    run = sweep / "runs" / run_name("websearch", "dctcp", 0.5, 2)
    meta = json.loads((run / "meta.json").read_text())
    meta["parameters"]["scheme"] = "re no"
    (run / "meta.json").write_text(json.dumps(meta))
    return f"{run / 'meta.json'}: scheme 're no' is not a scheme's name"


def break_mixed_presets(sweep: Path) -> str:
    run = sweep / "runs" / run_name("datamining", "pfabric", 0.8, 1)
    meta = json.loads((run / "meta.json").read_text())
    meta["parameters"]["preset"] = "sigcomm13"
    (run / "meta.json").write_text(json.dumps(meta))
    first = sweep / "runs" / run_name("datamining", "dctcp", 0.2, 1)  # first in sorted order
    return f"{run}: parameter preset is 'sigcomm13', but {first} has 'hotnets12'"


def break_meta_json(sweep: Path) -> str:
    run = sweep / "runs" / run_name("websearch", "tcp", 0.2, 1)
    (run / "meta.json").write_text('{"parameters": {')
    return f"{run / 'meta.json'}: not JSON"


def break_duplicate_replication(sweep: Path) -> str:
    run = sweep / "runs" / run_name("websearch", "linerate", 0.5, 2)
    meta = json.loads((run / "meta.json").read_text())
    meta["parameters"]["run"] = 1
    (run / "meta.json").write_text(json.dumps(meta))
    first = sweep / "runs" / run_name("websearch", "linerate", 0.5, 1)
    return f"{run}: the same replication (seed 1, run 1) as {first}"


def break_copied_workload(sweep: Path) -> str:
    """A replication's directory copied and its meta.json's seed and run edited by hand: a third
    run of the point under labels of its own, but run 1's flows (issue 54's tenth probe)."""
    first = sweep / "runs" / run_name("websearch", "linerate", 0.5, 1)
    copy = sweep / "runs" / run_name("websearch", "linerate", 0.5, 3)
    shutil.copytree(first, copy)
    meta = json.loads((copy / "meta.json").read_text())
    meta["parameters"].update(seed=2, run=3)
    (copy / "meta.json").write_text(json.dumps(meta))
    return (f"{copy}: the same flows as {first} (src, dst, size_bytes and start_s of every "
            "flow), a copy of its workload, not a replication")


def break_missing_fct(sweep: Path) -> str:
    run = sweep / "runs" / run_name("datamining", "ideal", 0.2, 2)
    (run / "fct.csv").unlink()
    return f"{run / 'fct.csv'}: missing"


def break_workload(sweep: Path) -> str:
    run = sweep / "runs" / run_name("datamining", "ideal", 0.2, 2)
    meta = json.loads((run / "meta.json").read_text())
    del meta["workload"]
    (run / "meta.json").write_text(json.dumps(meta))
    return f"{run / 'meta.json'}: workload None is not one of websearch, datamining"


@pytest.mark.parametrize("damage", [break_unknown_scheme, break_mixed_presets, break_meta_json,
                                    break_duplicate_replication, break_copied_workload,
                                    break_missing_fct, break_workload])
def test_bad_sweeps_fail_with_one_line_and_no_output(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], damage) -> None:
    sweep = make_sweep(tmp_path / "sweep")
    message = damage(sweep)
    assert main(["figures", str(sweep)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1
    assert captured.err.startswith(f"pfabric-analysis: error: {message}")
    assert not (sweep / "figures").exists()


def test_an_empty_sweep_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "sweep" / "runs" / "nothing").mkdir(parents=True)
    assert main(["figures", str(tmp_path / "sweep")]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"pfabric-analysis: error: {tmp_path / 'sweep'}: no run directories (fct.csv + meta.json) "
        "below it"]
    assert not (tmp_path / "sweep" / "figures").exists()
    assert main(["figures", str(tmp_path / "nowhere")]) == 1
    assert capsys.readouterr().err.strip() == (
        f"pfabric-analysis: error: {tmp_path / 'nowhere'}: not a directory")


def test_a_parameter_only_one_run_has_is_a_difference(tmp_path: Path) -> None:
    write_run(tmp_path / "s" / "a", "websearch", flows(1.0, 1), scheme="tcp", load=0.5, run=1)
    write_run(tmp_path / "s" / "b", "websearch", flows(1.0, 1), scheme="dctcp", load=0.5, run=1,
              lb="ecmp")
    with pytest.raises(AnalysisError, match="b: parameter lb is 'ecmp', but .*a has '<absent>'"):
        load_sweep(tmp_path / "s")
    # Paths and seeds may differ: other replications, other flow files.
    write_run(tmp_path / "t" / "a", "websearch", flows(1.0, 1), scheme="tcp", load=0.5, run=1)
    write_run(tmp_path / "t" / "b", "websearch", flows(1.0, 2), scheme="dctcp", load=0.8, run=2,
              seed=7, flowFile="other.csv")
    assert set(load_sweep(tmp_path / "t")["scheme"]) == {"tcp", "dctcp"}


def write_custom_run(directory: Path, label: str, port: str, a: float, load: float,
                     **parameters: object) -> Path:
    """A custom scheme's run as the programs write it: scheme custom, its label and parts among
    the parameters, and meta.json's custom_scheme naming the parameters that make it."""
    write_run(directory, "websearch", flows(a, 1), scheme="custom", load=load, run=1,
              schemeLabel=label, portQueueDisc=port, **parameters)
    meta = json.loads((directory / "meta.json").read_text())
    meta["custom_scheme"] = {"label": label, "parameters": ["schemeLabel", "portQueueDisc"]}
    (directory / "meta.json").write_text(json.dumps(meta))
    return directory


def test_a_scheme_the_analysis_does_not_know_is_drawn_after_the_papers(tmp_path: Path) -> None:
    """A built-in scheme of a newer program (in no table of the analysis's: the schemes are the
    programs') is placed and drawn as a custom scheme is, by its name, in the first custom look."""
    root = tmp_path / "sweep"
    for load in (0.2, 0.5):
        write_run(root / f"tcp-{load}", "websearch", flows(4.0, 1), scheme="tcp", load=load, run=1)
        write_run(root / f"hpcc-{load}", "websearch", flows(2.0, 1), scheme="hpcc", load=load,
                  run=1)
    table = load_sweep(root)
    overall = table[table["figure"] == "fig2"]
    assert list(dict.fromkeys(overall["label"])) == ["TCP-DropTail", "hpcc"]
    lines = scheme_lines(overall_figure(table).axes[0])
    assert [line.get_color() for line in lines] == [SCHEMES["tcp"]["color"], CUSTOM_COLORS[0]]


def test_custom_schemes_are_drawn_by_their_labels_after_the_papers(tmp_path: Path) -> None:
    root = tmp_path / "sweep"
    for load in (0.2, 0.5):
        write_run(root / f"tcp-{load}", "websearch", flows(4.0, 1), scheme="tcp", load=load,
                  run=1)
        # Two custom schemes whose parts differ: parameters that make a scheme may.
        write_custom_run(root / f"zz-{load}", "zz-fq", "ns3::FqCoDelQueueDisc", 3.0, load)
        write_custom_run(root / f"pie-{load}", "pie-bbr", "ns3::PieQueueDisc", 2.0, load)
    table = load_sweep(root)
    overall = table[table["figure"] == "fig2"]
    assert list(dict.fromkeys(overall["label"])) == ["TCP-DropTail", "pie-bbr", "zz-fq"]
    # A run's four flows (flows(), run 1) at slowdowns a, a + 1, a and 2a.
    values = overall.set_index(["scheme", "load"])["value"]
    assert values[("zz-fq", 0.5)] == pytest.approx((3.0 + 4.0 + 3.0 + 6.0) / 4)
    assert values[("pie-bbr", 0.2)] == pytest.approx((2.0 + 3.0 + 2.0 + 4.0) / 4)
    figure = overall_figure(table)
    assert [text.get_text() for text in figure.legends[0].get_texts()][:3] == [
        "TCP-DropTail", "pie-bbr", "zz-fq"]
    lines = scheme_lines(figure.axes[0])
    assert [line.get_color() for line in lines] == [SCHEMES["tcp"]["color"], *CUSTOM_COLORS[:2]]
    assert lines[1].get_linestyle() == "-."
    markers = {line.get_color(): line.get_marker() for line in figure.axes[0].get_lines()
               if line.get_label() == "_marker"}
    assert markers[CUSTOM_COLORS[1]] == CUSTOM_MARKERS[1]
    write_figures(root, tmp_path / "out")
    markdown = (tmp_path / "out" / "figures.md").read_text()
    assert "| pie-bbr | " in markdown and "| zz-fq | " in markdown
    # Anything but the scheme's own parameters must still be the same experiment.
    write_custom_run(root / "zz-0.8", "zz-fq", "ns3::FqCoDelQueueDisc", 3.0, 0.8, buffer="300p")
    with pytest.raises(AnalysisError, match="zz-0.8: parameter buffer is '300p', but"):
        load_sweep(root)


@pytest.mark.parametrize(("label", "message"), [
    (None, "a custom scheme labelled None"), ("tcp", "a custom scheme labelled 'tcp'")])
def test_a_custom_run_needs_a_label_of_its_own(tmp_path: Path, label: str | None,
                                               message: str) -> None:
    run = write_custom_run(tmp_path / "s" / "a", "fq", "ns3::FqCoDelQueueDisc", 1.0, 0.5)
    meta = json.loads((run / "meta.json").read_text())
    meta["custom_scheme"]["label"] = label
    (run / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(AnalysisError, match=message):
        load_sweep(tmp_path / "s")


def test_schemes_of_a_figure_run_on_two_ns3_versions_are_refused(tmp_path: Path) -> None:
    write_run(tmp_path / "s" / "a", "datamining", flows(1.0, 1), scheme="tcp", load=0.5, run=1)
    b = write_run(tmp_path / "s" / "b", "datamining", flows(1.0, 1), scheme="ideal", load=0.5,
                  run=1)
    meta = json.loads((b / "meta.json").read_text())
    (b / "meta.json").write_text(json.dumps({**meta, "ns3_version": "3.37"}))
    with pytest.raises(AnalysisError, match="b: ns3_version is '3.37', but .*a has '3.44'"):
        load_sweep(tmp_path / "s")


def test_a_sweep_written_under_the_old_dashed_parameter_names_still_loads(tmp_path: Path) -> None:
    # Before the programs' options became camelCase, meta.json said flow-file, dump-flows: the
    # flow lists still differ between loads, and the runs stay one experiment.
    for name, load in (("a", 0.5), ("b", 0.8)):
        directory = write_run(tmp_path / "s" / name, "websearch", flows(1.0, 1), scheme="tcp",
                              load=load, run=1)
        meta = json.loads((directory / "meta.json").read_text())
        parameters = meta["parameters"]
        parameters.pop("flowFile"), parameters.pop("dumpFlows")
        parameters.update({"flow-file": f"{name}.csv", "dump-flows": "", "hash-demux": True})
        (directory / "meta.json").write_text(json.dumps(meta))
    table = load_sweep(tmp_path / "s")
    assert set(table["load"]) == {0.5, 0.8}
    recorded = [json.loads(text) for text in table["parameters"]]
    assert {(p["flowFile"], p["hashDemux"]) for p in recorded} == {("a.csv", True),
                                                                   ("b.csv", True)}
    assert not any("flow-file" in p for p in recorded)


def windowed_run(directory: Path, scheme: str, load: float, run: int, measured: int,
                 seed: int, small_every: int = 2) -> pd.DataFrame:
    """A data mining run with a window: 50 warm-up flows (slowdown 100, not to be counted), then
    `measured` flows, every small_every-th small, the others medium, with slowdowns about 1.2
    and 2, and 20 flows after them (unmeasured, unfinished); wall_time_s 1800 (half a
    core-hour)."""
    rng = np.random.default_rng(seed)
    total = 50 + measured + 20
    sizes = np.where(np.arange(total) % small_every == 0, 50_000, 1_000_000)
    slowdown = np.where(sizes == 50_000, rng.normal(1.2, 0.05, total), rng.normal(2, 0.1, total))
    slowdown[:50] = 100.0
    slowdown = np.maximum(slowdown, 1.0)  # no flow beats its ideal (read_run refuses it)
    fct = pd.DataFrame({"flow_id": np.arange(total), "src": 0, "dst": 1, "size_bytes": sizes,
                        "start_s": np.arange(total) * 1e-5, "fct_s": slowdown * 1e-3,
                        "ideal_fct_s": 1e-3, "timeouts": 0, "completed": 1,
                        "measured": 0})
    fct.loc[50:50 + measured - 1, "measured"] = 1
    fct.loc[50 + measured:, ["completed", "fct_s"]] = [0, np.nan]
    write_run(directory, "datamining", fct, scheme=scheme, load=load, run=run, warmupFlows=50,
              measureFlows=measured)
    meta = json.loads((directory / "meta.json").read_text())
    meta["window"] = {"warmup_flows": 50, "measure_flows": measured, "flows_simulated": total,
                      "arrivals_through_end": True}
    meta["wall_time_s"] = 1800.0
    (directory / "meta.json").write_text(json.dumps(meta))
    return fct[fct["measured"] == 1]


def test_intervals_citable_status_and_provenance_per_point(tmp_path: Path) -> None:
    """Windowed runs, 2 per point, 4,000 measured flows each: half of them small gives every
    rule (a) statistic a half-width under 3% (citable, filled markers); one in 40 small gives
    batches of 10 small flows, no p99 interval (not citable, hollow markers, the p99 named). The
    small flows' half-width is the batch means' by hand; warm-up and late flows count in
    flows_simulated, not in statistics."""
    from pfabric_analysis.figures import figures_markdown
    from scipy import stats as scipy_stats

    root = tmp_path / "sweep"
    small_every = {0.2: 2, 0.5: 40}
    kept = {}
    for load, every in small_every.items():
        for run in (1, 2):
            kept[load, run] = windowed_run(root / "runs" / run_name("datamining", "pfabric", load,
                                                                    run),
                                           "pfabric", load, run, 4_000, seed=10 * run + every,
                                           small_every=every)
    table = load_sweep(root, batches=10)
    rows = table[table["figure"] == "fig3"].set_index(["load", "panel"])
    small = rows.loc[(0.2, "a")]
    batch_means = []
    for run in (1, 2):
        values = kept[0.2, run]
        values = (values["fct_s"] / values["ideal_fct_s"]).to_numpy()
        sizes = kept[0.2, run]["size_bytes"].to_numpy()
        for part, part_sizes in zip(np.array_split(values, 10), np.array_split(sizes, 10)):
            batch_means.append(part[part_sizes == 50_000].mean())
    want = scipy_stats.t.ppf(0.975, 19) * np.std(batch_means, ddof=1) / np.sqrt(20)
    assert small["ci_halfwidth"] == pytest.approx(want, rel=1e-12)
    assert small["value"] == pytest.approx(np.mean(batch_means), rel=1e-3)  # pooled ~ 1.2
    assert small["ci_relative"] == pytest.approx(want / small["value"])
    assert small["batches"] == 20 and small["point_flows"] == 8_000
    assert small["flows_simulated"] == 2 * 4_070 and small["core_hours"] == pytest.approx(1.0)
    assert bool(small["citable"]) and small["not_citable"] == ""
    assert (rows.loc[0.2, "ci_relative"].iloc[:3] < 0.03).all()
    few = rows.loc[(0.5, "b")]
    assert not few["citable"] and few["not_citable"] == "(0,100KB] p99"
    assert np.isnan(few["ci_halfwidth"]) and rows.loc[(0.5, "a"), "ci_halfwidth"] > 0
    figure = breakdown_figure(table, "datamining")
    markers = [line for line in figure.axes[0].get_lines() if line.get_label() == "_marker"]
    assert [(list(np.asarray(line.get_xdata())), line.get_markerfacecolor())
            for line in markers] == [
        ([0.2], SCHEMES["pfabric"]["color"]), ([0.5], "none")]
    markdown = figures_markdown(table)
    assert f"| MinTCP+pFabric | {small['value']:.3f} +- {want:.3f} | " in markdown
    assert "| MinTCP+pFabric | 0.5 | 2 | 8,000 | 8,140 | 1.00 | no: (0,100KB] p99 n/a |" in markdown


def test_a_point_that_misses_rule_a_says_about_how_many_runs_it_needs() -> None:
    """figures.md's table of points: the failing statistics' half-widths and, from their runs'
    spread, the runs in all that rule (a) would take (the largest of intervals.runs_for_rule;
    12 for a p99 at 5.78% after five runs, 6 for a mean at 3.31%), "over 1,000" past what it looks
    at; none when one is undefined."""
    from pfabric_analysis.figures import points_markdown

    def point(load: float, relative: dict[tuple[str, str], float]) -> list[dict]:
        failing = ";".join(f"{b} {s}" for (b, s), r in relative.items() if not r <= 0.03)
        return [{"figure": "fig4", "workload": "websearch", "scheme": "pfabric",
                 "label": "MinTCP+pFabric", "load": load, "bin": size_bin, "statistic": stat,
                 "ci_relative": value, "batches": 5, "runs": 5, "point_flows": 50_000,
                 "flows_simulated": 50_000, "core_hours": 0.39, "citable": not failing,
                 "not_citable": failing, "lag1": math.nan}
                for (size_bin, stat), value in relative.items()]

    table = pd.DataFrame(
        point(0.8, {("(0,100KB]", "mean"): 0.0031, ("(0,100KB]", "p99"): 0.0578,
                    ("(100KB,10MB]", "mean"): 0.0331})
        + point(0.6, {("(0,100KB]", "mean"): 0.0065, ("(0,100KB]", "p99"): math.nan,
                      ("(100KB,10MB]", "mean"): 0.0331})
        # TCP-DropTail's small flows at 0.2 in Figure 3: 148% after five runs, about 6,000
        + point(0.2, {("(0,100KB]", "mean"): 1.48, ("(0,100KB]", "p99"): 0.0100,
                      ("(100KB,10MB]", "mean"): 0.0100}))
    lines = points_markdown(table)
    assert "| MinTCP+pFabric | 0.2 | 5 | 50,000 | 50,000 | 0.39 | no: (0,100KB] mean 148.0% " \
        "(over 1,000 runs in all) | n/a |" in lines
    assert "| MinTCP+pFabric | 0.8 | 5 | 50,000 | 50,000 | 0.39 | no: (0,100KB] p99 5.8%, " \
        "(100KB,10MB] mean 3.3% (about 12 runs in all) | n/a |" in lines
    assert "| MinTCP+pFabric | 0.6 | 5 | 50,000 | 50,000 | 0.39 | no: (0,100KB] p99 n/a, " \
        "(100KB,10MB] mean 3.3% | n/a |" in lines


def test_the_rst_table_of_figure_3() -> None:
    """doc/results.rst's table of a figure: a row per scheme (figures.md's order) and load, each
    panel's value +- half-width to three or four significant digits, the pFabric schemes by their
    host half, a mark after a point that misses rule (a), "-" for Ideal's seconds, and the size
    bin that does not fit its column wrapped onto a second header line."""
    from pfabric_analysis.figures import rst_table

    def point(scheme: str, label: str, load: float, values: list[float], halfwidths: list[float],
              citable: bool, core_hours: float) -> list[dict]:
        return [{"figure": "fig3", "workload": "datamining", "scheme": scheme, "label": label,
                 "load": load, "panel": panel, "value": value, "ci_halfwidth": halfwidth,
                 "citable": citable, "core_hours": core_hours}
                for panel, value, halfwidth in zip("abcd", values, halfwidths)]

    table = pd.DataFrame(
        point("ideal", "Ideal", 0.8, [1.0, 1.0, 1.0123, 1.4351], [0.0, 0.0, 0.0031, 0.052],
              True, 0.0001)
        + point("pfabric", "MinTCP+pFabric", 0.8, [1.2094, 1.5451, 1.0679, 1.6153],
                [0.0142, 0.0221, 0.0031, 0.0569], True, 1.4249)
        + point("tcp", "TCP-DropTail", 0.2, [10.08, 26.21, 2.5962, 1.5561],
                [14.87, 6.49, 0.8081, math.nan], False, 1.1813)
        + point("pfabric", "MinTCP+pFabric", 0.2, [1.0779, 1.3243, 1.0262, 1.1549],
                [0.0081, 0.0119, 0.0012, 0.0161], True, 1.0702))
    rule = "============== ==== ================ ================ ================ " \
        "================ ======"
    assert rst_table(table, "datamining").splitlines() == [
        rule,
        "data mining    load (0,100KB] mean   (0,100KB] p99    (100KB,10MB]     (10MB,inf) mean  "
        "core-h",
        "                                                      mean",
        rule,
        "TCP-DropTail † 0.2  10.1 +- 14.9     26.2 +- 6.5      2.596 +- 0.808   1.556 +- n/a     "
        "1.18",
        "MinTCP         0.2  1.078 +- 0.008   1.324 +- 0.012   1.026 +- 0.001   1.155 +- 0.016   "
        "1.07",
        "MinTCP         0.8  1.209 +- 0.014   1.545 +- 0.022   1.068 +- 0.003   1.615 +- 0.057   "
        "1.42",
        "Ideal          0.8  1.000 +- 0.000   1.000 +- 0.000   1.012 +- 0.003   1.435 +- 0.052   -",
        rule]
    with pytest.raises(AnalysisError, match="no websearch rows for its figure"):
        rst_table(table, "websearch")


def test_windowed_ideal_and_packet_runs_compare_by_their_window(tmp_path: Path) -> None:
    """An Ideal run records its window in "window" (its program's parameters may say 0): the
    figures compare that; a different window is another experiment."""
    root = tmp_path / "sweep"
    windowed_run(root / "runs" / "p", "pfabric", 0.5, 1, 400, seed=1)
    ideal = root / "runs" / "i"
    windowed_run(ideal, "ideal", 0.5, 1, 400, seed=2)
    meta = json.loads((ideal / "meta.json").read_text())
    meta["parameters"].update({"warmupFlows": 0, "measureFlows": 0, "flows": 123})
    (ideal / "meta.json").write_text(json.dumps(meta))
    assert set(load_sweep(root)["scheme"]) == {"pfabric", "ideal"}
    shutil.rmtree(ideal)  # the same Ideal run, measuring one flow more
    windowed_run(ideal, "ideal", 0.5, 1, 401, seed=2)
    meta["window"].update(measure_flows=401, flows_simulated=471)
    (ideal / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(AnalysisError, match="parameter measureFlows is 400, but .* has 401"):
        load_sweep(root)


def steady_run(directory: Path, scheme: str, run: int, level: float, seed: int,
               flows_count: int = 20_000) -> None:
    """A web search run of the steady-state tier (W = 0, N = flows_count, up to 10 MB): slowdowns
    rising from 1 to `level` with a time constant of 1,000 flows, every other flow small (the rest
    medium), none larger, every flow measured."""
    rng = np.random.default_rng(seed)
    ids = np.arange(flows_count)
    sizes = np.where(ids % 2 == 0, 50_000, 1_000_000)
    slowdown = level - (level - 1) * np.exp(-ids / 1_000) + rng.normal(0, 0.05 * level, ids.size)
    slowdown = np.maximum(slowdown, 1.0)  # no flow beats its ideal (read_run refuses it)
    fct = pd.DataFrame({"flow_id": ids, "src": 0, "dst": 1, "size_bytes": sizes,
                        "start_s": ids * 1e-5, "fct_s": slowdown * 1e-3, "ideal_fct_s": 1e-3,
                        "timeouts": 0, "completed": 1, "measured": 1})
    write_run(directory, "websearch", fct, scheme=scheme, load=0.8, run=run, warmupFlows=0,
              measureFlows=flows_count, measureMaxBytes=10_000_000)
    meta = json.loads((directory / "meta.json").read_text())
    meta["window"] = {"warmup_flows": 0, "measure_flows": flows_count,
                      "flows_simulated": flows_count, "measure_max_bytes": 10_000_000,
                      "arrivals_through_end": True}
    meta["cpu_time_s"] = 600.0
    (directory / "meta.json").write_text(json.dumps(meta))


def test_steady_state_points_are_measured_after_their_warmup(tmp_path: Path) -> None:
    """Two schemes of the steady-state tier, two runs each, their slowdowns settling within about
    5,000 flows: every statistic is taken after the point's warm-up (found, between 2,000 and
    10,000 flows; the flows counted are the rest), with 10 batches per run; the settled level is
    the value within its interval; the large flows' bin has no value; figures.md states the
    method and each point's warm-up; a point whose slowdowns still rise through its runs is not
    citable, for its bias and its warm-up; and the figures draw."""
    root = tmp_path / "store"
    for run in (1, 2):
        steady_run(root / f"websearch-pfabric-load0.8-run{run}", "pfabric", run, 1.2, run)
        steady_run(root / f"websearch-tcp-load0.8-run{run}", "tcp", run, 8.0, 10 + run)
    table = load_sweep(root)
    small = table[(table["bin"] == "(0,100KB]") & (table["statistic"] == "mean")]
    for row in small.itertuples():
        assert 2_000 <= row.warmup_flows <= 10_000
        assert row.point_flows == 2 * (20_000 - row.warmup_flows)
        assert row.batches == 20
        level = 1.2 if row.scheme == "pfabric" else 8.0
        assert abs(row.value - level) <= row.ci_halfwidth + 0.002 * level
    overall = table[table["figure"] == "fig2"]
    assert set(overall["title"]) == {"(a) Web search workload, flows up to 10 MB"}
    large = table[table["bin"] == "(10MB,inf)"]
    assert large["value"].isna().all() and (large["flows"] == 0).all()
    markdown = figures_module.figures_markdown(table)
    assert "Steady state (pfabric_analysis.steady)" in markdown and "10,000,000 bytes" in markdown
    assert "| scheme | load | runs | warm-up |" in markdown
    # A point still moving through its runs: not citable, for its bias and its warm-up.
    for run in (1, 2):
        directory = root / f"websearch-tcp-load0.8-run{run}"
        fct = pd.read_csv(directory / "fct.csv")
        fct["fct_s"] = fct["fct_s"] * np.linspace(1.0, 2.0, len(fct))
        fct.to_csv(directory / "fct.csv", index=False)
    moving = load_sweep(root)
    reasons = moving.loc[moving["scheme"] == "tcp", "not_citable"].iloc[0]
    assert "warm-up not found" in reasons and "(0,100KB] mean bias" in reasons
    assert "warm-up not found" in figures_module.figures_markdown(moving)
    outputs = figures_module.render_outputs(moving)
    assert set(outputs) >= {"fig2-overall.png", "fig4-websearch.png", "figures.csv"}


def _stack_rows(points: list[tuple[str, str, float, str | None]]) -> pd.DataFrame:
    """One row per (scheme, workload, load, hostStack; None: a run written before the option)."""
    return pd.DataFrame([{"scheme": scheme, "label": SCHEMES[scheme]["label"],
                          "workload": workload, "load": load,
                          "parameters": json.dumps({} if stack is None else {"hostStack": stack})}
                         for scheme, workload, load, stack in points])


def test_the_host_stack_line_names_each_scheme_workload_and_load_where_stacks_differ() -> None:
    same = _stack_rows([("tcp", "websearch", 0.8, None), ("pfabric", "websearch", 0.8, "ns3tcp"),
                        ("ideal", "websearch", 0.8, "ns3tcp")])
    assert figures_module.host_stack_markdown(same) == \
        "Host stack: ns-3's TCP/IP for every scheme."
    mixed = _stack_rows([("tcp", "websearch", 0.8, "ns3tcp"), ("tcp", "websearch", 0.6, "lean"),
                         ("tcp", "websearch", 0.4, "lean"), ("tcp", "datamining", 0.8, "lean"),
                         ("dctcp", "datamining", 0.8, "lean"),
                         ("pfabric", "websearch", 0.8, "ns3tcp"),
                         ("pfabric", "datamining", 0.8, "ns3tcp")])
    assert figures_module.host_stack_markdown(mixed) == (
        "Host stacks: TCP-DropTail (web search at 0.8), MinTCP+pFabric on ns-3's TCP/IP; "
        "TCP-DropTail (web search at 0.6, 0.4), TCP-DropTail (data mining), DCTCP on the lean "
        "host (--hostStack=lean).")


def test_a_steady_points_stack_is_its_own_not_that_of_its_runs_to_completion() -> None:
    """A steady point's (10MB,inf) row comes from runs to completion (no warm-up) on another
    stack: the line names the stack the point itself ran on."""
    rows = _stack_rows([("tcp", "websearch", 0.6, "lean"), ("tcp", "websearch", 0.6, "ns3tcp"),
                        ("pfabric", "websearch", 0.6, "ns3tcp")])
    rows["warmup_flows"] = [16000, None, 15000]
    assert figures_module.host_stack_markdown(rows) == (
        "Host stacks: TCP-DropTail on the lean host (--hostStack=lean); MinTCP+pFabric on ns-3's "
        "TCP/IP.")
