"""incast on hand-made pfabric-incast run directories whose every number is computed by hand."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
import pytest

from pfabric_analysis.cli import main
from pfabric_analysis.incast import (check_incast_runs, incast_markdown, incast_table,
                                     query_statistics, read_incast_run)
from pfabric_analysis.runs import AnalysisError

IDEAL = 1e-4  # s


def queries_frame(ratios: Sequence[float | None], timeouts: Sequence[int],
                  overlaps: Sequence[int] | None = None, workers: int = 4,
                  response_bytes: int = 1000) -> pd.DataFrame:
    """Queries of `workers` responses with these QCT / ideal (None: unfinished) and timeouts."""
    rows = []
    for i, (ratio, count) in enumerate(zip(ratios, timeouts)):
        rows.append({"query_id": i, "workers": workers, "response_bytes": response_bytes,
                     "start_s": 0.002 + 0.001 * i,
                     "qct_s": math.nan if ratio is None else ratio * IDEAL,
                     "ideal_qct_s": IDEAL, "timeouts": count,
                     "responses_with_timeouts": min(count, workers),
                     "responses_completed": workers if ratio is not None else workers - 1,
                     "first_flow_id": workers * i,
                     "overlaps_previous": 0 if overlaps is None else overlaps[i]})
    return pd.DataFrame(rows)


def responses_frame(queries: pd.DataFrame) -> pd.DataFrame:
    """fct.csv of the queries' responses, as the program writes it: each query's workers flows
    from first_flow_id on, host 1, 2, ... to the aggregator 0 at the query's start; the first
    responses_completed of them completed, the last of those at the query's QCT (the others at
    half of it, or at IDEAL where the query did not complete); its timeouts one per response with
    any, the rest on the first."""
    rows = []
    for query in queries.itertuples():
        done = int(query.responses_completed)
        for j in range(int(query.workers)):
            if j >= done:
                fct = math.nan
            elif done < query.workers:
                fct = IDEAL
            else:
                fct = query.qct_s if j == done - 1 else query.qct_s / 2
            count = (int(query.timeouts) - int(query.responses_with_timeouts) + 1 if j == 0
                     else 1) if j < query.responses_with_timeouts else 0
            rows.append({"flow_id": query.first_flow_id + j, "src": 1 + j, "dst": 0,
                         "size_bytes": query.response_bytes, "start_s": f"{query.start_s:.9f}",
                         "fct_s": "" if math.isnan(fct) else f"{fct:.9f}",
                         "ideal_fct_s": f"{IDEAL / 4:.9f}", "timeouts": count,
                         "completed": int(j < done)})
    return pd.DataFrame(rows)


def write_run(directory: Path, scheme: str, workers: int, background: float,
              ratios: list[float | None], timeouts: list[int],
              overlaps: list[int] | None = None, response_bytes: int = 1000) -> Path:
    directory.mkdir(parents=True)
    queries = queries_frame(ratios, timeouts, overlaps, workers, response_bytes)
    queries.to_csv(directory / "queries.csv", index=False)
    responses_frame(queries).to_csv(directory / "fct.csv", index=False)
    meta = {"program": "pfabric-incast", "command_line": "pfabric-incast",
            "parameters": {"preset": "hotnets12", "scheme": scheme, "topology": "fattree",
                           "k": 0, "seed": 1, "run": 1, "out": str(directory)},
            "module_version": "0.1.0", "ns3_version": "3.44", "hosts": 54,
            "incast": {"workers": workers, "response_bytes": response_bytes,
                       "queries": len(ratios), "aggregator": 0,
                       "background_load": background, "ideal_qct_s": IDEAL}}
    (directory / "meta.json").write_text(json.dumps(meta))
    return directory


def test_query_statistics_by_hand() -> None:
    stats = query_statistics(queries_frame([1.0, 3.0, None, 2.0], [0, 6, 2, 0], [0, 1, 0, 1]))
    assert stats["queries"] == 4
    assert stats["finished"] == 3
    assert stats["unfinished"] == 1
    assert stats["overlapping"] == 2
    assert stats["mean"] == pytest.approx(2.0)  # (1 + 3 + 2) / 3, the unfinished one left out
    assert stats["p99"] == pytest.approx(3.0)  # nearest rank of 3: the largest
    assert stats["max"] == pytest.approx(3.0)
    assert stats["timeouts_per_query"] == pytest.approx(2.0)  # 8 / 4, over every query
    assert stats["responses_with_timeouts_per_query"] == pytest.approx(1.5)  # (0+4+2+0) / 4
    assert stats["ideal_qct_us"] == pytest.approx(100.0)


def test_p99_is_the_nearest_rank() -> None:
    # 200 queries, ratios 1.00 ... 2.99: the 99th percentile by nearest rank is the 198th.
    ratios = [1 + i / 100 for i in range(200)]
    stats = query_statistics(queries_frame(ratios, [0] * 200))
    assert stats["p99"] == pytest.approx(2.97)
    assert stats["max"] == pytest.approx(2.99)


@pytest.fixture
def runs(tmp_path: Path) -> list[Path]:
    return [write_run(tmp_path / "tcp8", "tcp", 8, 0, [2.0, 4.0], [3, 5]),
            write_run(tmp_path / "pf8", "pfabric", 8, 0, [1.1, 1.3], [10, 20]),
            # query 1 overlaps query 0, which did not complete (the twelfth probe: query 0
            # completed here, long before query 1, and an overlap of 1 was taken)
            write_run(tmp_path / "pf32", "pfabric", 32, 0, [None, 1.2], [40, 0], [0, 1]),
            write_run(tmp_path / "pf8bg", "pfabric", 8, 0.5, [1.5, 1.5], [1, 1])]


def test_table_a_row_per_run_in_the_papers_order(runs: list[Path]) -> None:
    table = incast_table([read_incast_run(r) for r in runs])
    assert list(zip(table["background"], table["scheme"], table["workers"])) == [
        (0.0, "tcp", 8), (0.0, "pfabric", 8), (0.0, "pfabric", 32), (0.5, "pfabric", 8)]
    by_key = table.set_index(["background", "scheme", "workers"])
    assert by_key.loc[(0.0, "tcp", 8), "mean"] == pytest.approx(3.0)
    assert by_key.loc[(0.0, "tcp", 8), "timeouts_per_query"] == pytest.approx(4.0)
    assert by_key.loc[(0.0, "pfabric", 32), "unfinished"] == 1
    assert by_key.loc[(0.0, "pfabric", 32), "mean"] == pytest.approx(1.2)


def test_a_custom_scheme_is_a_column_by_its_label(runs: list[Path], tmp_path: Path) -> None:
    custom = write_run(tmp_path / "fq8", "custom", 8, 0, [1.5, 2.5], [0, 2])
    meta = json.loads((custom / "meta.json").read_text())
    meta["custom_scheme"] = {"label": "fq-cubic", "parameters": ["schemeLabel"]}
    (custom / "meta.json").write_text(json.dumps(meta))
    table = incast_table([read_incast_run(r) for r in [*runs, custom]])
    assert list(table[table["background"] == 0]["scheme"]) == ["tcp", "pfabric", "pfabric",
                                                               "fq-cubic"]
    by_key = table.set_index(["background", "scheme", "workers"])
    assert by_key.loc[(0.0, "fq-cubic", 8), "mean"] == pytest.approx(2.0)
    document = {"command": "pfabric-analysis incast", "versions": {"pfabric": "0.1.0"},
                "queries_per_run": 2, "response_bytes": 1000, "runs": []}
    assert "| fq-cubic mean / p99 | timeouts |" in incast_markdown(table, document)


def test_markdown_names_every_cell_and_the_overlap(runs: list[Path]) -> None:
    table = incast_table([read_incast_run(r) for r in runs])
    document = {"command": "pfabric-analysis incast", "versions": {"pfabric": "0.1.0"},
                "queries_per_run": 2, "response_bytes": 1000,
                "runs": [{"run_dir": "x", "label": "y", "module_version": "0.1.0",
                          "ns3_version": "3.44"}]}
    text = incast_markdown(table, document)
    assert "## No background" in text
    assert "## Web search background, load 0.5" in text
    assert "| 8 | 100.0 | 3.000 / 4.000 | 4.0 | 1.200 / 1.300 | 15.0 |" in text
    assert "| 32 | 100.0 | - | - | 1.200 / 1.200 (1 unfinished) | 20.0 |" in text
    assert "MinTCP+pFabric N = 32: 1" in text


def test_cli_writes_every_file(runs: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "figure"
    assert main(["incast", *map(str, runs), "--out", str(out), "--name", "inc"]) == 0
    for suffix in ("png", "pdf", "csv", "md", "json"):
        assert (out / f"inc.{suffix}").stat().st_size > 0
    document = json.loads((out / "inc.json").read_text())
    assert len(document["runs"]) == 4
    assert document["queries_per_run"] == 2
    assert pd.read_csv(out / "inc.csv")["workers"].tolist() == [8, 8, 32, 8]


def test_refuses_mixed_and_repeated_runs(runs: list[Path], tmp_path: Path) -> None:
    other = write_run(tmp_path / "big", "tcp", 16, 0, [2.0, 2.0], [0, 0], response_bytes=2000)
    with pytest.raises(AnalysisError, match="response_bytes is 2000"):
        check_incast_runs([read_incast_run(r) for r in [*runs, other]])
    again = write_run(tmp_path / "again", "tcp", 8, 0, [2.0, 2.0], [0, 0])
    with pytest.raises(AnalysisError, match="background 0, tcp, 8 workers again"):
        check_incast_runs([read_incast_run(r) for r in [*runs, again]])


def test_refuses_a_directory_that_is_not_an_incast_run(tmp_path: Path) -> None:
    with pytest.raises(AnalysisError, match="queries.csv: missing"):
        read_incast_run(tmp_path)
    run = write_run(tmp_path / "r", "tcp", 8, 0, [1.0], [0])
    (run / "meta.json").write_text(json.dumps({"parameters": {}}))
    with pytest.raises(AnalysisError, match="not a pfabric-incast run"):
        read_incast_run(run)
    out = tmp_path / "out"
    assert main(["incast", str(run), "--out", str(out)]) != 0
    assert not out.exists()


@pytest.mark.parametrize(("spoil", "message"), [
    # the ninth probe: a truncated last row and a run of 0 workers were averaged
    (lambda run: (run / "queries.csv").write_text(
        (run / "queries.csv").read_text().rstrip("\n").rsplit(",", 4)[0] + "\n"),
     r"queries.csv:3: responses_with_timeouts '' is not a whole number of at most the "
     r"query's workers"),
    (lambda run: edit_meta(run, workers=0), r"meta.json: incast.workers 0 is not a positive whole "
                                             r"number"),
    (lambda run: edit_meta(run, queries=3), r"queries.csv: 2 queries, and .*meta.json says 3"),
    (lambda run: edit_meta(run, workers=16), r"queries.csv:2: workers '8', and .*meta.json says "
                                              r"16"),
    (lambda run: edit_meta(run, background_load=1.5), r"incast.background_load 1.5 is not a load "
                                                       r"of at least 0 and below 1"),
    (lambda run: replace_in(run / "queries.csv", "0.0002,0.0001", "0.00005,0.0001"),
     r"queries.csv:2: qct_s '0.00005' is below its ideal_qct_s '0.0001'"),
    # the tenth probe: a repeated query and an aggregator no host of the run were taken
    (lambda run: replace_in(run / "queries.csv", "\n1,", "\n0,"),
     r"queries.csv:3: query_id '0', and the queries are numbered from 0 in their order, each "
     r"once"),
    (lambda run: edit_meta(run, aggregator=54), r"incast.aggregator 54 is not a host, a whole "
                                                 r"number below the run's 54 hosts"),
    # the tenth probe (G12): fct.csv's responses were not read against their queries
    (lambda run: replace_in(run / "fct.csv", "0.000200000", "0.000300000"),
     r"queries.csv:2: qct_s '0.0002', and its responses in .*fct.csv make it 0.000300000 s"),
    (lambda run: replace_in(run / "fct.csv", "0.002000000,0.000100000,0.000025000,0,1",
                            "0.002000000,0.000100000,0.000025000,1,1"),
     r"queries.csv:2: timeouts '0', and its responses in .*fct.csv have 1"),
    (lambda run: replace_in(run / "fct.csv", "\n9,", "\n99,"),
     r"queries.csv:3: its response flow 9 is not in .*fct.csv"),
    (lambda run: edit_meta(run, aggregator=1),
     r"queries.csv:2: its response flow 0 in .*fct.csv is not 1000 B to the aggregator 1 from "
     r"the query's start"),
    (lambda run: (run / "fct.csv").unlink(), r"fct.csv: missing"),
    # the twelfth probe (F8): an ideal QCT other than the run's, an overlap of 1 after a
    # finished query
    (lambda run: replace_in(run / "queries.csv", "0.0002,0.0001,", "0.0002,0.00005,"),
     r"queries.csv:2: ideal_qct_s '0.00005', and .*meta.json says incast.ideal_qct_s 0.0001, "
     r"every query's"),
    (lambda run: edit_meta(run, ideal_qct_s=1e-6),
     r"queries.csv:2: ideal_qct_s '0.0001', and .*meta.json says incast.ideal_qct_s 1e-06"),
    (lambda run: edit_meta(run, ideal_qct_s=0), r"incast.ideal_qct_s 0 is not a positive time"),
    (lambda run: replace_in(run / "queries.csv", ",8,8,0\n", ",8,8,1\n"),
     r"queries.csv:3: overlaps_previous '1', but the previous query completed at 0.002200000 s, "
     r"before its start_s '0.003'"),
    (lambda run: replace_in(run / "queries.csv", ",8,0,0\n", ",8,0,1\n"),
     r"queries.csv:2: overlaps_previous '1', but it is the first query")])
def test_refuses_a_run_that_cannot_be_a_measurement(tmp_path: Path, spoil, message: str) -> None:
    run = write_run(tmp_path / "r", "tcp", 8, 0, [2.0, 2.0], [0, 0])
    read_incast_run(run)
    spoil(run)
    with pytest.raises(AnalysisError, match=message):
        read_incast_run(run)


def edit_meta(run: Path, **incast: float) -> None:
    meta = json.loads((run / "meta.json").read_text())
    meta["incast"].update(incast)
    (run / "meta.json").write_text(json.dumps(meta))


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
