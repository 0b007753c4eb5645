"""cdf and compare on hand-made run directories whose every number is computed by hand, and the
README's commands on real runs of the programs."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.axes import Axes
from matplotlib.patches import Rectangle

from pfabric_analysis.cli import main
from pfabric_analysis.compare import (cdf_figure, cdf_table, check_same_flows, compare_figure,
                                      compare_table, panel_counts, parse_bins, read_runs,
                                      run_labels, run_styles, step_cdf)
from pfabric_analysis.plotting import CUSTOM_COLORS, SCHEMES
from pfabric_analysis.runs import BIN_NAMES, AnalysisError

REPOSITORY = Path(__file__).resolve().parents[3]
SMALL, MEDIUM, LARGE = BIN_NAMES
# (size_bytes, start_s) of the seven flows every hand-made run has: four small, two medium, one
# large.
FLOWS = [(1000, 0.0), (2000, 0.001), (50000, 0.002), (100000, 0.003), (200000, 0.004),
         (5000000, 0.005), (20000000, 0.006)]
# FCT / ideal FCT per flow (None: unfinished) and timeouts per flow.
PFABRIC = ([1, 2, 2, 4, 3, 5, None], [0, 0, 0, 1, 0, 0, 2])
TCP = ([1, 3, 5, 7, 6, 6, 12], [0, 1, 1, 2, 0, 3, 4])


def fct(slowdowns: Sequence[float | None], timeouts: Sequence[int],
        flows: Sequence[tuple[int, float]] = FLOWS) -> pd.DataFrame:
    rows = []
    for i, ((size, start), slowdown, timeout) in enumerate(zip(flows, slowdowns, timeouts)):
        ideal = 1e-4 * (i + 1)
        rows.append({"flow_id": i, "src": i % 3, "dst": (i + 1) % 3, "size_bytes": size,
                     "start_s": start, "fct_s": np.nan if slowdown is None else slowdown * ideal,
                     "ideal_fct_s": ideal, "timeouts": timeout,
                     "completed": 0 if slowdown is None else 1})
    return pd.DataFrame(rows)


def write_run(directory: Path, scheme: str, table: pd.DataFrame) -> Path:
    directory.mkdir(parents=True)
    table.to_csv(directory / "fct.csv", index=False)
    meta = {"program": "pfabric-websearch", "workload": "websearch",
            "parameters": {"preset": "hotnets12", "scheme": scheme, "load": 0.6, "flows": 7,
                           "seed": 1, "run": 1, "out": str(directory)},
            "module_version": "0.1.0", "ns3_version": "3.44"}
    (directory / "meta.json").write_text(json.dumps(meta))
    return directory


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Path, Path]:
    return (write_run(tmp_path / "pf", "pfabric", fct(*PFABRIC)),
            write_run(tmp_path / "tcp", "tcp", fct(*TCP)))


def steps(table: pd.DataFrame, label: str, size_bin: str) -> list[float]:
    """A run's step CDF in a bin: slowdown, CDF, slowdown, CDF, ..."""
    rows = table[(table["label"] == label) & (table["bin"] == size_bin)]
    return [float(v) for pair in zip(rows["slowdown"], rows["cdf"]) for v in pair]


def pairs(*points: tuple[float, float]):
    """Expected steps (slowdown, CDF), flattened as steps() gives them, to float precision."""
    return pytest.approx([float(v) for point in points for v in point])


def legend_texts(ax: Axes) -> list[str]:
    legend = ax.get_legend()
    assert legend is not None, f"panel {ax.get_title()!r} has no legend"
    return [text.get_text() for text in legend.get_texts()]


def test_step_cdf_counts_unfinished_flows_as_never_finishing() -> None:
    assert list(zip(*step_cdf(pd.Series([2.0, 1.0, 2.0, 4.0])).to_dict("list").values())) == [
        (1.0, 0.25), (2.0, 0.75), (4.0, 1.0)]
    with_unfinished = step_cdf(pd.Series([3.0, np.nan, 1.0, np.nan]))
    assert list(with_unfinished["slowdown"]) == [1.0, 3.0, np.inf]
    assert list(with_unfinished["cdf"]) == [0.25, 0.5, 1.0]
    assert step_cdf(pd.Series([], dtype=float)).empty


def test_cdf_table_is_the_exact_step_cdf_per_bin(runs: tuple[Path, Path]) -> None:
    loaded = read_runs(runs)
    table = cdf_table(loaded, ["pfabric", "tcp"], [SMALL, MEDIUM, LARGE, "all"])
    assert steps(table, "pfabric", SMALL) == pairs((1, 0.25), (2, 0.75), (4, 1.0))
    assert steps(table, "pfabric", MEDIUM) == pairs((3, 0.5), (5, 1.0))
    # The one large flow never finished: no finite step, the CDF is 1 only at infinity.
    assert steps(table, "pfabric", LARGE) == [np.inf, 1.0]
    assert steps(table, "pfabric", "all") == pairs(
        (1, 1 / 7), (2, 3 / 7), (3, 4 / 7), (4, 5 / 7), (5, 6 / 7), (np.inf, 1.0))
    assert steps(table, "tcp", MEDIUM) == pairs((6, 1.0))  # a tie: one step of two flows
    assert steps(table, "tcp", LARGE) == pairs((12, 1.0))
    pf_large = table[(table["label"] == "pfabric") & (table["bin"] == LARGE)].iloc[0]
    assert (pf_large["flows"], pf_large["unfinished"]) == (1, 1)
    pf_all = table[(table["label"] == "pfabric") & (table["bin"] == "all")]
    assert set(pf_all["flows"]) == {7} and set(pf_all["unfinished"]) == {1}
    assert set(table[table["label"] == "tcp"]["unfinished"]) == {0}


def test_cdf_figure_panels_curves_and_unfinished_in_the_legend(runs: tuple[Path, Path]) -> None:
    loaded = read_runs(runs)
    labels, panels = ["pfabric", "tcp"], [SMALL, LARGE, "all"]
    table = cdf_table(loaded, labels, panels)
    figure = cdf_figure(table, labels, panels, panel_counts(loaded, panels), run_styles(loaded))
    axes = [ax for ax in figure.axes if ax.get_visible()]
    assert [ax.get_title() for ax in axes] == ["(0, 100KB]", "(10MB, \u221e)", "All flows"]
    for ax in axes:
        assert ax.get_xscale() == "log"
        assert ax.get_xlabel() == "FCT / ideal FCT (log scale)"
        assert ax.get_ylabel() == "Fraction of flows"
    assert legend_texts(axes[1]) == [
        "pfabric (1 flows, 1 unfinished)", "tcp (1 flows)"]
    assert legend_texts(axes[2]) == [
        "pfabric (7 flows, 1 unfinished)", "tcp (7 flows)"]
    # The pfabric curve over all flows stops at 6/7 and stays there to the right edge.
    pf_all = axes[2].get_lines()[0]
    # np.asarray: Line2D's data as the array it holds (its stub says any ArrayLike).
    x, y = np.asarray(pf_all.get_xdata()), np.asarray(pf_all.get_ydata())
    assert y[-1] == pytest.approx(6 / 7)
    assert x[-1] == pytest.approx(axes[2].get_xlim()[1])
    assert list(y[:3]) == pytest.approx([0, 1 / 7, 3 / 7])
    # The large bin's pfabric curve has no finished flow: flat at 0.
    assert set(np.asarray(axes[1].get_lines()[0].get_ydata())) == {0.0}
    # Scheme colours as in Figures 2-4 (MinTCP+pFabric green, TCP-DropTail blue).
    assert [line.get_color() for line in axes[0].get_lines()] == ["#2ca02c", "#1f77b4"]


def test_cdf_command_writes_its_files(runs: tuple[Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "cdf"
    assert main(["cdf", *map(str, runs), "--out", str(out), "--bins", "small,all"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["cdf.csv", "cdf.json", "cdf.pdf", "cdf.png"]
    assert (out / "cdf.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "cdf.pdf").read_bytes()[:5] == b"%PDF-"
    table = pd.read_csv(out / "cdf.csv")
    assert list(dict.fromkeys(table["bin"])) == [SMALL, "all"]
    assert steps(table, "tcp", SMALL) == pairs((1, .25), (3, .5), (5, .75), (7, 1))
    assert steps(table, "pfabric", "all")[-2:] == [np.inf, 1.0]
    meta = json.loads((out / "cdf.json").read_text())
    assert meta["command"] == (f"pfabric-analysis cdf {runs[0]} {runs[1]} --out {out} "
                               "--bins small,all")
    assert meta["versions"]["pfabric"] == (REPOSITORY / "VERSION").read_text().strip()
    assert [run["label"] for run in meta["runs"]] == ["pfabric", "tcp"]
    assert meta["runs"][1]["parameters"] == {"preset": "hotnets12", "scheme": "tcp", "load": 0.6,
                                             "flows": 7, "seed": 1, "run": 1}
    assert meta["counts"]["pfabric"]["all"] == {"flows": 7, "unfinished": 1}
    assert meta["same_flows_as_first"] == {"pfabric": True, "tcp": True}


def test_compare_statistics_by_hand(runs: tuple[Path, Path]) -> None:
    loaded = read_runs(runs)
    table = compare_table(loaded, ["pfabric", "tcp"], [True, True]).set_index(["bin", "label"])
    pf, tcp = table.loc[(SMALL, "pfabric")], table.loc[(SMALL, "tcp")]
    # pfabric small: 1, 2, 2, 4: mean 2.25, median (nearest rank, 2nd of 4) 2, p99 4.
    assert (pf["flows"], pf["finished"], pf["unfinished"], pf["timeouts"]) == (4, 4, 0, 1)
    assert (pf["mean"], pf["median"], pf["p99"]) == pytest.approx((2.25, 2, 4))
    # tcp small: 1, 3, 5, 7: mean 4, median 3, p99 7; over the baseline 4/2.25, 1.5, 1.75.
    assert (tcp["mean"], tcp["median"], tcp["p99"]) == pytest.approx((4, 3, 7))
    assert (tcp["mean_vs_baseline"], tcp["median_vs_baseline"], tcp["p99_vs_baseline"]
            ) == pytest.approx((4 / 2.25, 1.5, 1.75))
    assert pf["mean_vs_baseline"] == 1.0 and tcp["timeouts"] == 4
    # The large bin: pfabric's only flow unfinished, so no statistic and no ratio for tcp.
    pf_large, tcp_large = table.loc[(LARGE, "pfabric")], table.loc[(LARGE, "tcp")]
    assert (pf_large["finished"], pf_large["unfinished"], pf_large["timeouts"]) == (0, 1, 2)
    assert np.isnan(pf_large["mean"]) and np.isnan(pf_large["p99"])
    assert tcp_large["p99"] == 12 and np.isnan(tcp_large["p99_vs_baseline"])
    # All flows: pfabric's six finished 1, 2, 2, 4, 3, 5 (mean 17/6, median 2, p99 5); tcp's
    # seven 1, 3, 5, 7, 6, 6, 12 (mean 40/7, median 6).
    pf_all, tcp_all = table.loc[("all", "pfabric")], table.loc[("all", "tcp")]
    assert (pf_all["flows"], pf_all["finished"], pf_all["unfinished"]) == (7, 6, 1)
    assert (pf_all["mean"], pf_all["median"], pf_all["p99"]) == pytest.approx((17 / 6, 2, 5))
    assert tcp_all["mean_vs_baseline"] == pytest.approx((40 / 7) / (17 / 6))
    assert tcp_all["median_vs_baseline"] == pytest.approx(3.0)
    assert (pf_all["timeouts"], tcp_all["timeouts"]) == (3, 11)


def test_compare_command_writes_table_markdown_and_figure(runs: tuple[Path, Path],
                                                          tmp_path: Path) -> None:
    out = tmp_path / "cmp"
    assert main(["compare", *map(str, runs), "--out", str(out), "--labels", "MinTCP,TCP"]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "compare.csv", "compare.json", "compare.md", "compare.pdf", "compare.png"]
    table = pd.read_csv(out / "compare.csv")
    assert list(table["label"]) == ["MinTCP", "TCP"] * 4
    assert list(dict.fromkeys(table["bin"])) == [SMALL, MEDIUM, LARGE, "all"]
    assert set(table["baseline"]) == {"MinTCP"} and table["same_flows_as_baseline"].all()
    markdown = (out / "compare.md").read_text()
    assert "| (0,100KB] | TCP | 4 | 0 | 4 | 4.000 | 1.78x | 3.000 | 1.50x | 7.000 | 1.75x |" in (
        markdown)
    assert "| (10MB,inf) | MinTCP | 1 | 1 | 2 | n/a | n/a | n/a | n/a | n/a | n/a |" in markdown
    assert "flows differ" not in markdown
    assert json.loads((out / "compare.json").read_text())["baseline"] == "MinTCP"
    loaded = read_runs(runs)
    figure = compare_figure(compare_table(loaded, ["MinTCP", "TCP"], [True, True]),
                            ["MinTCP", "TCP"], run_styles(loaded))
    mean, p99 = figure.axes
    assert (mean.get_title(), p99.get_title()) == ("Mean", "99th percentile (nearest rank)")
    assert mean.get_yscale() == "log" and mean.get_ylabel() == "FCT / ideal FCT (log scale)"
    assert figure.get_suptitle() == ""
    # Bars rise from 1 to the value: MinTCP's four bins, then TCP's (its large p99 12).
    bars = [bar for bar in p99.patches if isinstance(bar, Rectangle)]
    assert len(bars) == len(p99.patches)
    tops = [bar.get_y() + bar.get_height() for bar in bars]
    assert tops == pytest.approx([4, 5, 1, 5, 7, 6, 12, 12])  # MinTCP's large bin: n/a, no bar
    assert [text.get_text() for text in p99.texts][2] == "n/a"
    assert [text.get_text() for text in figure.legends[0].get_texts()] == [
        "MinTCP (1 unfinished)", "TCP"]


def test_compare_refuses_different_flows_unless_allowed(runs: tuple[Path, Path], tmp_path: Path,
                                                        capsys: pytest.CaptureFixture) -> None:
    moved = list(FLOWS)
    moved[3] = (100000, 0.0031)  # one flow starts 0.1 ms later
    other = write_run(tmp_path / "other", "dctcp", fct(*TCP, flows=moved))
    out = tmp_path / "cmp"
    assert main(["compare", *map(str, runs), str(other), "--out", str(out)]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith(f"pfabric-analysis: error: {other}: ")
    assert "start 0.0031 s" in error and "--allow-different-flows" in error
    assert not out.exists()
    fewer = write_run(tmp_path / "fewer", "dctcp", fct(*TCP, flows=FLOWS[:6]))
    with pytest.raises(AnalysisError, match=r"fewer: not the flows of .*pf: 6 flows, .* has 7"):
        check_same_flows(read_runs([runs[0], fewer]), allow_different=False)
    # A start time a tenth of a nanosecond off (C++ and Python print floats differently) is the
    # same flow.
    close = [(size, start + 1e-10) for size, start in FLOWS]
    near = write_run(tmp_path / "near", "dctcp", fct(*TCP, flows=close))
    assert check_same_flows(read_runs([runs[0], near]), allow_different=False) == [True, True]

    assert main(["compare", *map(str, runs), str(other), "--out", str(out),
                 "--allow-different-flows"]) == 0
    table = pd.read_csv(out / "compare.csv")
    assert list(table["same_flows_as_baseline"][:3]) == [True, True, False]
    assert "**The flows differ**: dctcp not on the flows of the baseline pfabric" in (
        (out / "compare.md").read_text())
    loaded = read_runs([*runs, other])
    figure = compare_figure(compare_table(loaded, ["pfabric", "tcp", "dctcp"], [True, True, False]),
                            ["pfabric", "tcp", "dctcp"], run_styles(loaded))
    assert figure.get_suptitle() == "The runs' flows differ: the ratios compare different flows"


@pytest.mark.parametrize("command", ["cdf", "compare"])
def test_bad_input_fails_in_one_line_and_writes_nothing(
        command: str, runs: tuple[Path, Path], tmp_path: Path,
        capsys: pytest.CaptureFixture) -> None:
    no_fct = tmp_path / "no-fct"
    no_fct.mkdir()
    (no_fct / "meta.json").write_text(json.dumps({"parameters": {"scheme": "tcp"}}))
    out = tmp_path / "out"
    cases = [([str(tmp_path / "absent")], f"{tmp_path / 'absent'}: not a directory"),
             ([str(no_fct)], f"{no_fct / 'fct.csv'}: missing"),
             (["--labels", "a,b,c"], "--labels: 3 label(s) for 2 run(s)"),
             (["--labels", "a,a"], "--labels 'a,a': a label given twice"),
             ([str(runs[0])], f"{runs[0]}: given twice (as {runs[0]})")]
    for extra, message in cases:
        arguments = [command, *map(str, runs), *extra, "--out", str(out)]
        if extra[0] != "--labels" and str(runs[0]) not in extra:
            arguments = [command, str(runs[0]), *extra, "--out", str(out)]
        assert main(arguments) == 1, extra
        assert capsys.readouterr().err == f"pfabric-analysis: error: {message}\n"
        assert not out.exists()
    if command == "cdf":
        assert main(["cdf", str(runs[0]), "--bins", "small,tiny", "--out", str(out)]) == 1
        assert "--bins: 'tiny' is not one of small, medium, large, all" in capsys.readouterr().err
        assert not out.exists()


def test_labels_default_to_the_scheme_and_name_the_directory_when_schemes_repeat(
        runs: tuple[Path, Path], tmp_path: Path) -> None:
    again = write_run(tmp_path / "pf-slow", "pfabric", fct(*TCP))
    assert run_labels(read_runs(runs), None) == ["pfabric", "tcp"]
    assert run_labels(read_runs([runs[0], again, runs[1]]), None) == [
        "pfabric (pf)", "pfabric (pf-slow)", "tcp"]
    assert run_labels(read_runs(runs), " A , B") == ["A", "B"]
    assert parse_bins("all,small") == ["all", SMALL]
    # Repeated schemes cannot take the schemes' colours: the colour cycle, all distinct.
    colours = [style["color"] for style in run_styles(read_runs([runs[0], again]))]
    assert len(set(colours)) == 2


def test_a_custom_run_is_labelled_and_drawn_as_its_scheme(runs: tuple[Path, Path],
                                                          tmp_path: Path) -> None:
    custom = write_run(tmp_path / "fq", "custom", fct(*TCP))
    meta = json.loads((custom / "meta.json").read_text())
    meta["parameters"].update(schemeLabel="fq-cubic", tcpCongestionOps="ns3::TcpCubic")
    meta["custom_scheme"] = {"label": "fq-cubic",
                             "parameters": ["schemeLabel", "tcpCongestionOps"]}
    (custom / "meta.json").write_text(json.dumps(meta))
    both = read_runs([runs[0], custom])
    assert run_labels(both, None) == ["pfabric", "fq-cubic"]
    assert [style["color"] for style in run_styles(both)] == [SCHEMES["pfabric"]["color"],
                                                              CUSTOM_COLORS[0]]
    table = compare_table(both, ["pfabric", "fq-cubic"], [True, True])
    assert list(table[table["bin"] == "all"]["scheme"]) == ["pfabric", "fq-cubic"]


def readme_commands() -> tuple[list[str], list[list[str]]]:
    """The example of compare and cdf (doc/pfabric.rst, "From the quick start to the figures";
    once the README's): the program arguments of the ./pfabric run line just before them, and
    each pfabric-analysis command's arguments (continuations joined)."""
    text = (REPOSITORY / "doc" / "pfabric.rst").read_text()
    lines = [line.strip() for line in re.sub(r"\\\n\s*", " ", text).splitlines()]
    first = next(i for i, line in enumerate(lines)
                 if line.startswith(".venv/bin/pfabric-analysis compare "))
    run = shlex.split(lines[first - 1], comments=True)
    assert run[:4] == ["./pfabric", "run", "pfabric-websearch", "--"], lines[first - 1]
    analysis = [shlex.split(line, comments=True)[1:] for line in lines
                if re.match(r"\.venv/bin/pfabric-analysis (cdf|compare) ", line)]
    return run[4:], analysis


def test_readme_cdf_and_compare_commands_on_real_runs(
        bin_dir: Path, tmp_path: Path) -> None:
    """The README's commands as written, on 40-flow runs of the programs at the directories they
    name: the main job (pfabric) and the README's TCP run, on the same flows by the programs'
    defaults (compare refuses different flows), and an Ideal run of them too."""
    tcp_arguments, commands = readme_commands()
    assert [command[0] for command in commands] == ["compare", "cdf"]
    pfabric_dir, tcp_dir = commands[0][1], commands[0][2]
    assert "-pfabric-" in pfabric_dir and "-tcp-" in tcp_dir
    program = str(bin_dir / "pfabric-websearch")
    small = ["--flows=40", "--quiet"]
    subprocess.run([program, *small, f"--out={tmp_path / pfabric_dir}",
                    f"--dumpFlows={tmp_path / 'flows.csv'}"], check=True, capture_output=True)
    # The README's TCP run without --out: its directory is the README's, but for the flow count.
    subprocess.run([program, *tcp_arguments, *small], check=True, capture_output=True,
                   cwd=tmp_path)
    (tmp_path / tcp_dir.replace("-flows2000-", "-flows40-")).rename(tmp_path / tcp_dir)
    ideal_dir = tmp_path / "ideal"
    assert main(["ideal", str(tmp_path / "flows.csv"), "--like", str(tmp_path / pfabric_dir),
                 "--out", str(ideal_dir)]) == 0
    for command in commands:
        absolute = [str(tmp_path / a) if a.startswith("results/") else a for a in command]
        assert main(absolute) == 0, command
    out = tmp_path / commands[0][commands[0].index("--out") + 1]
    table = pd.read_csv(out / "compare.csv")
    assert list(table["label"][:2]) == ["pfabric", "tcp"]
    assert table["same_flows_as_baseline"].all()
    assert table[table["bin"] == "all"]["flows"].tolist() == [40, 40]
    assert {"cdf.png", "compare.png", "compare.md"} <= {p.name for p in out.iterdir()}
    # The Ideal scheme's fct.csv, written by Python, holds the packet run's flows.
    assert main(["compare", str(tmp_path / pfabric_dir), str(ideal_dir),
                 "--out", str(tmp_path / "vs-ideal")]) == 0
    ideal = pd.read_csv(tmp_path / "vs-ideal" / "compare.csv").set_index(["bin", "label"])
    assert ideal.loc[("all", "ideal"), "finished"] == 40
    assert ideal.loc[("all", "ideal"), "mean"] >= 1.0
