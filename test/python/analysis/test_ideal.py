"""The Ideal flow-level scheduler: hand-computed schedules, a brute-force reference on random
instances, and the `ideal` / `ideal-bench` commands.

Most schedules use a 8 bit/s link (1 byte per second) and no packet overhead, so wire bytes are
payload bytes, times are byte counts and every number below can be checked on paper."""

from __future__ import annotations

import json
import os
import subprocess
import threading
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pfabric_analysis import __version__, git_commit
from pfabric_analysis.cli import main
from pfabric_analysis.ideal import (FLOW_LIST_HEADER, Link, Window, default_cdf, ideal_fct,
                                    read_flow_list, sample_sizes, schedule, synthetic_flows,
                                    window_cut, windowed_fct, wire_bytes)
from pfabric_analysis.runs import FCT_COLUMNS, AnalysisError

BYTE_PER_S = Link(rate_bps=8, segment_bytes=1000, overhead_bytes=0)
BASE = 0.5  # base latency added to every ideal FCT in the hand-made examples


def flows(rows: list[tuple[int, int, int, float]]) -> pd.DataFrame:
    """Flows from (src, dst, size_bytes, start_s)."""
    return pd.DataFrame(rows, columns=["src", "dst", "size_bytes", "start_s"])


def run(rows: list[tuple[int, int, int, float]], link: Link = BYTE_PER_S) -> pd.DataFrame:
    """Ideal FCTs of the flows, with ideal FCT = base + wire time."""
    frame = flows(rows)
    ideal = BASE + wire_bytes(frame["size_bytes"].to_numpy(), link) * 8 / link.rate_bps
    return ideal_fct(frame, ideal, link)[0]


def test_wire_bytes_add_the_overhead_of_every_packet() -> None:
    link = Link()  # 1460 B segments, 42 B per packet
    sizes = np.array([1, 1460, 1461, 2920, 8760])
    assert wire_bytes(sizes, link).tolist() == [43, 1502, 1545, 3004, 9012]


def test_one_link_three_flows_shortest_remaining_first() -> None:
    # t=0 A(10) runs; t=2 B(4) arrives, A has 8 left: B preempts A; t=3 C(3) arrives, B has 3
    # left: a tie, the earlier start (B) keeps the link; t=6 B done, C(3) runs before A(8);
    # t=9 C done, A runs its 8 bytes: t=17.
    out = run([(0, 1, 10, 0.0), (0, 1, 4, 2.0), (0, 1, 3, 3.0)])
    assert list(out.columns) == FCT_COLUMNS
    # FCT = ideal (base + size) + time waited: A 17-0-10 = 7, B 0, C 9-3-3 = 3.
    assert out["fct_s"].tolist() == [10.5 + 7, 4.5, 3.5 + 3]
    assert out["timeouts"].tolist() == [0, 0, 0] and out["completed"].tolist() == [1, 1, 1]


def test_two_flows_sharing_a_source() -> None:
    # 0->1 (5 B) at 0; 0->2 (2 B) at 1 is smaller than the 4 B left: it runs 1..3, then 0->1
    # ends at 7 (waited 2). 3->4 shares no link and is never delayed.
    out = run([(0, 1, 5, 0.0), (0, 2, 2, 1.0), (3, 4, 9, 0.0)])
    assert out["fct_s"].tolist() == [5.5 + 2, 2.5, 9.5]


def test_two_flows_sharing_a_destination() -> None:
    out = run([(1, 0, 5, 0.0), (2, 0, 2, 1.0), (3, 4, 9, 0.0)])
    assert out["fct_s"].tolist() == [5.5 + 2, 2.5, 9.5]


def test_a_flow_blocked_at_its_destination_waits_although_its_source_is_free() -> None:
    # 2->1 (6 B) waits for 0->1 (2 B) although nothing else uses host 2's uplink.
    out = run([(0, 1, 2, 0.0), (2, 1, 6, 0.0)])
    assert out["fct_s"].tolist() == [2.5, 6.5 + 2]


def test_a_preemption_frees_a_link_for_a_flow_further_down() -> None:
    # A 0->1 (8 B) at 0; D 4->3 (7 B) at 0.5 runs beside it; B 2->3 (5 B) at 1 preempts D at
    # host 3 (5 < 6.5); C 2->1 (2 B) at 2 preempts B (uplink 2) and A (downlink 1), which frees
    # downlink 3: D (6.5 B left) runs again. t=4 C done: B (4) preempts D (4.5) at host 3, A
    # (6) resumes. t=8 B done, D runs its 4.5 B: t=12.5; A ends at 10.
    out = run([(0, 1, 8, 0.0), (2, 3, 5, 1.0), (2, 1, 2, 2.0), (4, 3, 7, 0.5)])
    waited = [10 - 0 - 8, 8 - 1 - 5, 0, 12.5 - 0.5 - 7]
    assert out["fct_s"].tolist() == [BASE + size + w for size, w in zip([8, 5, 2, 7], waited)]


def test_a_lone_flow_gets_exactly_its_ideal_fct() -> None:
    frame = flows([(3, 7, 123457, 0.012345678)])
    ideal = np.array([0.000123456789])
    out, result = ideal_fct(frame, ideal, Link())
    assert out["fct_s"].iloc[0] == 0.000123456789
    wire = 123457 + 85 * 42
    assert result.finish_s[0] == pytest.approx(0.012345678 + wire * 8 / 10e9, rel=1e-15)
    assert result.events == 2 and result.preemptions == 0


def test_bytes_and_rate_scale_the_schedule() -> None:
    # The one-link example at 10 Gb/s (0.8 ns per byte) with packet overhead: wire bytes
    # 15020, 6008, 4506. B arrives at 2400 ns, when A has 15020 - 3000 B left: B preempts A and
    # ends at 2400 + 4806.4 ns. C arrives at 4000 ns, when B has 4008 B left: B keeps the link;
    # C runs from 7206.4 ns, then A; A waited for all of B and C.
    link = Link()
    out = run([(0, 1, 10 * 1460, 0.0), (0, 1, 4 * 1460, 2400e-9), (0, 1, 3 * 1460, 4000e-9)],
              link)
    ideal = BASE + np.array([15020, 6008, 4506]) * 0.8e-9
    waited = np.array([(6008 + 4506) * 0.8, 0, 7206.4 - 4000]) * 1e-9
    assert out["fct_s"].to_numpy() == pytest.approx(ideal + waited, rel=1e-15)


def test_exact_ties_in_remaining_size_go_to_the_earlier_start() -> None:
    # 1 B/s, all to host 1. B (4 B) at 0 runs; A (3 B) arrives at 1 when B has 3 B left: a tie,
    # B started first and keeps the link; so against C (3 B, at 2). At 4 A and C tie at 3 B:
    # A started first. A 4..7, C 7..10.
    out = run([(0, 1, 3, 1.0), (2, 1, 4, 0.0), (3, 1, 3, 2.0)])
    assert out["fct_s"].tolist() == [3.5 + 3, 4.5, 3.5 + 5]
    # A waiting flow wins the tie against a running one that started later: X 0->1 (4 B) at 0
    # blocks W 2->1 (6 B, at 0) at host 1; R 2->3 (9 B) at 1 uses host 2's free uplink. At 4
    # X is done and R has 6 B left, as W: W (started at 0) preempts R, 4..10; R 10..16.
    out = run([(0, 1, 4, 0.0), (2, 1, 6, 0.0), (2, 3, 9, 1.0)])
    assert out["fct_s"].tolist() == [4.5, 6.5 + 4, 9.5 + 6]


# --- the brute-force reference --------------------------------------------------------------

def brute_force(src: list[int], dst: list[int], wire: list[int], start: list[float],
                rate_bps: int) -> list[float]:
    """Time each flow waited: at every arrival and completion, sort the active flows by
    (remaining, start, index) and give each the line rate unless an earlier one holds its
    uplink or downlink; advance to the next arrival or completion. Exact rational arithmetic,
    start times to the nanosecond (as the packet simulator and the scheduler take them)."""
    bytes_per_s = Fraction(rate_bps, 8)
    begin = [Fraction(round(t * 1e9), 10**9) for t in start]
    n = len(wire)
    remaining = [Fraction(w) for w in wire]
    finish = [Fraction(0)] * n
    arrived: set[int] = set()
    active: set[int] = set()
    now = Fraction(0)
    while len(arrived) < n or active:
        for i in range(n):
            if i not in arrived and begin[i] <= now:
                arrived.add(i)
                active.add(i)
        uplinks: set[int] = set()
        downlinks: set[int] = set()
        running = []
        for i in sorted(active, key=lambda i: (remaining[i], begin[i], i)):
            if src[i] not in uplinks and dst[i] not in downlinks:
                uplinks.add(src[i])
                downlinks.add(dst[i])
                running.append(i)
        later = [begin[i] for i in range(n) if i not in arrived]
        step = min(later + [now + remaining[i] / bytes_per_s for i in running])
        for i in running:
            remaining[i] -= (step - now) * bytes_per_s
            if remaining[i] == 0:
                finish[i] = step
                active.discard(i)
        now = step
    return [float(finish[i] - begin[i] - wire[i] / bytes_per_s) for i in range(n)]


@pytest.mark.parametrize("integral", [True, False], ids=["integer-ties", "packets-10g"])
def test_the_scheduler_matches_the_brute_force_greedy_on_random_instances(
        integral: bool) -> None:
    rng = np.random.default_rng(2012 if integral else 2013)
    for _ in range(200):
        hosts = int(rng.integers(2, 6))
        n = int(rng.integers(1, 16))
        src = rng.integers(0, hosts, n)
        dst = (src + rng.integers(1, hosts, n)) % hosts
        if integral:  # 1 byte per second, integer sizes and starts: many ties
            rate = 8
            wire = rng.integers(1, 12, n)
            start = rng.integers(0, 12, n).astype(float)
        else:  # whole packets at 10 Gb/s, starts in ns: ties when flows resume
            rate = 10**10
            wire = rng.integers(1, 50, n) * 1502
            start = np.sort(rng.integers(0, n * 4000, n)) * 1e-9
        expected = np.array(brute_force(src.tolist(), dst.tolist(), wire.tolist(),
                                        start.tolist(), rate))
        result = schedule(src, dst, wire, start, rate)
        ideal = 1e-6 + wire * 8 / rate  # compare FCTs, as the scheduler reports them
        assert ideal + result.wait_s == pytest.approx(ideal + expected, rel=1e-12, abs=0)
        assert result.finish_s == pytest.approx(start + wire * 8 / rate + result.wait_s,
                                                rel=1e-12)


def test_a_long_busy_instance_matches_the_brute_force_exactly() -> None:
    """Many flows on few hosts: long waiting lists, chains of preemptions."""
    rng = np.random.default_rng(7)
    hosts, n = 6, 80
    src = rng.integers(0, hosts, n)
    dst = (src + rng.integers(1, hosts, n)) % hosts
    wire = rng.integers(1, 30, n)
    start = np.sort(rng.integers(0, 200, n)).astype(float)
    result = schedule(src, dst, wire, start, 8)
    assert result.wait_s.tolist() == brute_force(src.tolist(), dst.tolist(), wire.tolist(),
                                                 start.tolist(), 8)
    assert result.preemptions > 0 and result.events == 2 * n


# --- inputs and the benchmark generator -----------------------------------------------------

def test_read_flow_list_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "flows.csv"
    path.write_text("src,dst,size_bytes,start_s\n0,1,1000,0.000001000\n\n2,3,5,0.5\n")
    frame = read_flow_list(path)
    assert frame["line"].tolist() == [2, 4]
    assert frame["size_bytes"].tolist() == [1000, 5]
    for body, message in [("0,0,5,0\n", ":2: a flow from host 0 to itself"),
                          ("0,1,0,0\n", ":2: size_bytes '0' is not a positive integer"),
                          ("0,-1,5,0\n", ":2: hosts must be non-negative integers"),
                          # a dst of 2^64 was an OverflowError traceback (the fourth probe)
                          ("0,18446744073709551616,5,0\n", ":2: host '18446744073709551616' is "
                                                            "past any run's hosts"),
                          ("0,1,5,-1\n", ":2: start_s '-1' is not a non-negative number"),
                          ("0,1,5,nan\n", ":2: start_s 'nan' is not a non-negative number"),
                          ("0,1,5\n", ":2: expected 4 fields")]:
        path.write_text("src,dst,size_bytes,start_s\n" + body)
        with pytest.raises(AnalysisError, match=f"^{path}{message}"):
            read_flow_list(path)
    path.write_text("src,dst,bytes,start\n0,1,5,0\n")
    with pytest.raises(AnalysisError, match=f"^{path}:1: the header must be"):
        read_flow_list(path)
    # A list with deadlines (pfabric-deadlines): the same flows, the deadlines ignored.
    path.write_text("src,dst,size_bytes,start_s,deadline_s\n0,1,1000,0.000001000,0.001\n"
                    "2,3,5,0.5,\n")
    frame = read_flow_list(path)
    assert frame["size_bytes"].tolist() == [1000, 5]
    assert frame["start_s"].tolist() == [0.000001, 0.5]
    path.write_text("src,dst,size_bytes,start_s,deadline_s\n0,1,5,0\n")
    with pytest.raises(AnalysisError, match=f"^{path}:2: expected 5 fields"):
        read_flow_list(path)


def test_sizes_are_sampled_in_whole_packets_from_the_cdf() -> None:
    sizes = np.array([1460.0, 1460.0, 14600.0])
    cdf = np.array([0.0, 0.5, 1.0])
    drawn = sample_sizes(sizes, cdf, 20000, np.random.default_rng(1))
    assert (drawn % 1460 == 0).all() and drawn.min() == 1460 and drawn.max() == 14600
    # Half the mass on 1 packet, half spread over (1, 10] and rounded up: 2..10 packets.
    assert (drawn == 1460).mean() == pytest.approx(0.5, abs=0.02)
    assert drawn.mean() / 1460 == pytest.approx(0.5 * 1 + 0.5 * 6, rel=0.02)


def test_synthetic_flows_offer_the_asked_load() -> None:
    link = Link()
    frame = synthetic_flows(20000, 0.5, 10, 3, Path(__file__).resolve().parents[3]
                            / "workloads" / "websearch.cdf")
    assert (frame["src"] != frame["dst"]).all()
    assert frame["start_s"].is_monotonic_increasing
    offered = wire_bytes(frame["size_bytes"].to_numpy(), link).sum() * 8
    per_host = offered / frame["start_s"].iloc[-1] / 10 / link.rate_bps
    assert per_host == pytest.approx(0.5, rel=0.05)


# --- the command ----------------------------------------------------------------------------

HAND_FLOWS = [(0, 1, 10, 0.0), (0, 1, 4, 2.0), (0, 1, 3, 3.0)]  # the one-link example


def write_flow_list(path: Path, rows: list[tuple[int, int, int, float]]) -> Path:
    path.write_text("src,dst,size_bytes,start_s\n"
                    + "".join(f"{s},{d},{b},{t:.9f}\n" for s, d, b, t in rows))
    return path


def write_like_run(directory: Path, rows: list[tuple[int, int, int, float]],
                   **link: object) -> Path:
    """A packet run on the flows: ideal FCT = base + size at 1 byte per second."""
    directory.mkdir()
    pd.DataFrame([{"flow_id": i, "src": s, "dst": d, "size_bytes": b, "start_s": t,
                   "fct_s": 99.0, "ideal_fct_s": BASE + b, "timeouts": 1, "completed": 1}
                  for i, (s, d, b, t) in enumerate(rows)]).to_csv(directory / "fct.csv",
                                                                  index=False)
    meta = {"program": "pfabric-websearch", "parameters": {"scheme": "pfabric", "load": 0.5},
            "hosts": max(max(src, dst) for src, dst, _, _ in rows) + 1, "events": 12345, **link}
    (directory / "meta.json").write_text(json.dumps(meta))
    return directory


def byte_per_s_meta() -> dict[str, object]:
    return {"host_link_bps": 8, "segment_bytes": 1000, "packet_overhead_bytes": 0}


def test_cli_writes_the_ideal_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    flow_list = write_flow_list(tmp_path / "flows.csv", HAND_FLOWS)
    like = write_like_run(tmp_path / "like", HAND_FLOWS, **byte_per_s_meta())
    out = tmp_path / "ideal"
    assert main(["ideal", str(flow_list), "--like", str(like), "--out", str(out)]) == 0
    assert "3 flows" in capsys.readouterr().out
    fct = pd.read_csv(out / "fct.csv")
    assert list(fct.columns) == FCT_COLUMNS
    assert fct["fct_s"].tolist() == [17.5, 4.5, 6.5]
    assert fct["ideal_fct_s"].tolist() == [10.5, 4.5, 3.5]
    assert fct["timeouts"].tolist() == [0, 0, 0] and fct["completed"].tolist() == [1, 1, 1]
    meta = json.loads((out / "meta.json").read_text())
    assert meta["parameters"] == {"scheme": "ideal", "load": 0.5}
    assert meta["program"] == "pfabric-analysis ideal"
    assert meta["module_version"] == __version__ and meta["git_commit"] == git_commit()
    assert meta["flow_list"] == str(flow_list.resolve())
    assert meta["like_run"] == str(like.resolve())
    assert meta["ideal_events"] == 6 and meta["wall_time_s"] >= 0
    assert meta["hosts"] == 2 and meta["flows_unfinished"] == 0
    assert sorted(p.name for p in out.iterdir()) == ["fct.csv", "meta.json"]
    # Options override the like run's link; --force replaces: 2 B of overhead per 1000 B.
    assert main(["ideal", str(flow_list), "--like", str(like), "--out", str(out), "--force",
                 "--overhead-bytes", "2", "--rate-bps", "16"]) == 0
    fct = pd.read_csv(out / "fct.csv")
    # Wire 12, 6, 5 B at 2 B/s: A runs 0..2 (8 left), B 2..5, C 5..7.5, A 7.5..11.5.
    assert fct["fct_s"].tolist() == [10.5 + 11.5 - 6, 4.5, 3.5 + 2]


def test_cli_fct_is_precise_to_the_last_digit(tmp_path: Path) -> None:
    rows = [(0, 1, 1460 * 700, 0.000001), (2, 1, 1460, 0.000003)]
    flow_list = write_flow_list(tmp_path / "flows.csv", rows)
    like = write_like_run(tmp_path / "like", rows)  # no link keys: 10 Gb/s, 1460 B, 42 B
    fct = pd.read_csv(like / "fct.csv")
    fct["ideal_fct_s"] = [0.000843123456789, 0.000012345678912]
    fct.to_csv(like / "fct.csv", index=False)
    out = tmp_path / "ideal"
    assert main(["ideal", str(flow_list), "--like", str(like), "--out", str(out)]) == 0
    written = pd.read_csv(out / "fct.csv")
    # The big flow waits while the 1-packet flow (1502 B: 1.2016 us) uses downlink 1.
    assert written["fct_s"].iloc[0] == pytest.approx(0.000843123456789 + 1.2016e-6,
                                                     rel=1e-14)
    assert written["fct_s"].iloc[1] == 0.000012345678912


def test_cli_bad_inputs_fail_with_one_line_and_no_output(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    flow_list = write_flow_list(tmp_path / "flows.csv", HAND_FLOWS)
    like = write_like_run(tmp_path / "like", HAND_FLOWS, **byte_per_s_meta())
    other = write_like_run(tmp_path / "other", [HAND_FLOWS[0], (0, 1, 5, 2.0), HAND_FLOWS[2]])
    bad_header = tmp_path / "bad-header.csv"
    bad_header.write_text("a,b,c,d\n0,1,10,0\n")
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("")
    out = tmp_path / "out"
    cases = [
        ([str(tmp_path / "nowhere.csv"), "--like", str(like)],
         f"{tmp_path / 'nowhere.csv'}: missing"),
        ([str(bad_header), "--like", str(like)],
         f"{bad_header}:1: the header must be src,dst,size_bytes,start_s or "
         "src,dst,size_bytes,start_s,deadline_s"),
        ([str(flow_list), "--like", str(other)],
         f"{other / 'fct.csv'}: flow 1 is 0,1,5,2.0 but {flow_list}:3 is 0,1,4,2.0; "
         "not the same flows"),
        ([str(flow_list), "--like", str(tmp_path / "no-run")],
         f"{tmp_path / 'no-run' / 'fct.csv'}: missing"),
        ([str(flow_list), "--like", str(like), "--segment-bytes", "0"],
         "--segment-bytes 0: expected a whole number of at least 1"),
        ([str(flow_list), "--like", str(like), "--rate-bps", "2.5"],
         "--rate-bps: must be a positive whole number of bit/s, got 2.5"),
    ]
    for arguments, message in cases:
        assert main(["ideal", *arguments, "--out", str(out)]) == 1
        assert capsys.readouterr().err.splitlines() == [f"pfabric-analysis: error: {message}"]
        assert not out.exists()
    assert main(["ideal", str(flow_list), "--like", str(like), "--out",
                 str(not_a_dir / "out")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"pfabric-analysis: error: {not_a_dir / 'out'}")
    # An existing run is not overwritten without --force.
    out.mkdir()
    (out / "fct.csv").write_text("keep me\n")
    assert main(["ideal", str(flow_list), "--like", str(like), "--out", str(out)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"pfabric-analysis: error: {out}: already holds fct.csv (use --force to replace it)"]
    assert (out / "fct.csv").read_text() == "keep me\n"
    assert sorted(p.name for p in out.iterdir()) == ["fct.csv"]


def test_cli_bench_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ideal-bench", "--flows", "2000", "--hosts", "8", "--load", "0.7"]) == 0
    out = capsys.readouterr().out
    for word in ("flows 2000", "events 4000", "wall time", "flows/s"):
        assert word in out


# --- the fabric from the program (--preset) -----------------------------------------------------

def program_run(bin_dir: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(bin_dir / "pfabric-websearch"), "--quiet", *options],
                          capture_output=True, text=True, check=True)


@pytest.mark.parametrize("fabric", [(), ("--set", "topology=star", "--set", "hosts=4")])
def test_preset_gives_what_a_packet_run_of_the_same_flows_gives(
        bin_dir: Path, tmp_path: Path, fabric: tuple[str, ...]) -> None:
    """The Ideal run from the program's --idealOnly mode equals the one from a packet run of
    the same flows, to the byte: on the hotnets12 fat-tree (paths of 2, 4 and 6 links) and on a
    star whose preset is sigcomm13's."""
    preset = "hotnets12" if not fabric else "sigcomm13"
    options = [f"--preset={preset}", "--load=0.5",
               *(f"--{value}" for value in fabric[1::2])]
    flow_list = tmp_path / "flows.csv"
    program_run(bin_dir, "--flows=40", "--flowsOnly", f"--dumpFlows={flow_list}", *options)
    like = tmp_path / "like"
    program_run(bin_dir, f"--flowFile={flow_list.resolve()}", f"--out={like}", *options)
    assert main(["ideal", str(flow_list), "--like", str(like), "--out",
                 str(tmp_path / "a")]) == 0
    assert main(["ideal", str(flow_list), "--preset", preset, "--set", "load=0.5", *fabric,
                 "--bin-dir", str(bin_dir), "--out", str(tmp_path / "b")]) == 0
    a = (tmp_path / "a" / "fct.csv").read_text()
    assert (tmp_path / "b" / "fct.csv").read_text() == a
    ideal = pd.read_csv(tmp_path / "b" / "fct.csv")["ideal_fct_s"]
    if not fabric:
        assert ideal.nunique() > 20  # sizes and path lengths differ: a real comparison
    meta_a, meta_b = (json.loads((tmp_path / d / "meta.json").read_text()) for d in "ab")
    assert meta_a["parameters"] == meta_b["parameters"]
    assert meta_b["parameters"]["scheme"] == "ideal"
    assert meta_b["ideal_fct_command"].startswith("pfabric-websearch --idealOnly --quiet ")
    assert "like_run" not in meta_b and "ideal_fct_command" not in meta_a
    for meta in (meta_a, meta_b):
        assert not {"packet_hops", "rss_samples", "scheduler", "ideal_fct_only"} & set(meta)
        assert meta["flows_total"] == meta["flows_completed"] == 40
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == ["fct.csv", "meta.json"]


def test_preset_bad_inputs_fail_with_one_line_and_no_output(
        bin_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    flow_list = write_flow_list(tmp_path / "flows.csv", HAND_FLOWS)
    wide = write_flow_list(tmp_path / "wide.csv", [(0, 200, 1000, 0.0)])
    out = tmp_path / "out"
    cases = [
        (["--preset", "nope"], "pfabric-websearch: error: "),
        ([str(wide), "--preset", "hotnets12"], f"{wide}:2: "),
        (["--preset", "hotnets12", "--set", "out=x"], "out is set by pfabric-analysis ideal"),
        (["--like", str(tmp_path), "--set", "load=0.5"], "--set and --bin-dir go with --preset"),
        (["--preset", "hotnets12", "--bin-dir", str(tmp_path)], f"--bin-dir {tmp_path}: no "),
    ]
    for arguments, message in cases:
        if not arguments[0].endswith(".csv"):
            arguments = [str(flow_list), *arguments]
        if "--bin-dir" not in arguments:
            arguments += ["--bin-dir", str(bin_dir)]
        assert main(["ideal", *arguments, "--out", str(out)]) == 1, arguments
        err = capsys.readouterr().err
        assert err.startswith("pfabric-analysis: error: ") and message in err, err
        assert err.count("\n") == 1
        assert not out.exists()


def pipe_of(data: bytes) -> tuple[Path, threading.Thread]:
    """A pipe's /dev/fd path (bash's <(...)), written in a thread; it can be read once."""
    read, write = os.pipe()

    def feed() -> None:
        with os.fdopen(write, "wb") as end:
            end.write(data)

    writer = threading.Thread(target=feed)
    writer.start()
    return Path(f"/dev/fd/{read}"), writer


def test_preset_reads_a_flow_list_from_a_pipe_once(
        bin_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 54's fifth probe: `ideal <(cat flows.csv) --preset hotnets12` failed, for the
    program was given the pipe's path to read again after the analysis had read it. Now the
    Ideal run is the one of the file, and the program's refusal still names the pipe."""
    flow_list = tmp_path / "flows.csv"
    program_run(bin_dir, "--flows=20", "--flowsOnly", f"--dumpFlows={flow_list}",
                "--preset=hotnets12", "--load=0.5")
    preset = ["--preset", "hotnets12", "--set", "load=0.5", "--bin-dir", str(bin_dir)]
    assert main(["ideal", str(flow_list), *preset, "--out", str(tmp_path / "file")]) == 0
    pipe, writer = pipe_of(flow_list.read_bytes())
    try:
        assert main(["ideal", str(pipe), *preset, "--out", str(tmp_path / "pipe")]) == 0, \
            capsys.readouterr().err
    finally:
        writer.join()
        os.close(int(pipe.name))
    assert (tmp_path / "pipe" / "fct.csv").read_text() == \
        (tmp_path / "file" / "fct.csv").read_text()
    meta = json.loads((tmp_path / "pipe" / "meta.json").read_text())
    assert f"--flowFile={pipe} " in meta["ideal_fct_command"] and meta["flow_list"] == str(pipe)

    wide = f"{FLOW_LIST_HEADER}\n0,200,1000,0\n".encode()
    pipe, writer = pipe_of(wide)
    try:
        assert main(["ideal", str(pipe), *preset, "--out", str(tmp_path / "wide")]) == 1
    finally:
        writer.join()
        os.close(int(pipe.name))
    err = capsys.readouterr().err
    assert err == (f"pfabric-analysis: error: pfabric-websearch: error: {pipe}:2: host 200 is "
                   "outside the fabric (hosts 0 to 53)\n")
    assert not (tmp_path / "wide").exists()


# --- the measurement window ---------------------------------------------------------------------

# The one-link example and a 1-byte flow D arriving at 7 while C (3 B, from 6) has 2 B left: D
# runs 7..8, C 8..10, A 10..19. E, on other hosts at 20, keeps the list arriving past 10.
WINDOW_FLOWS = [*HAND_FLOWS, (0, 1, 1, 7.0), (2, 3, 1, 20.0)]
# Today's fct.csv of the one-link example (0570372, before the window): FCT = ideal + waited.
HAND_FCT_CSV = ("flow_id,src,dst,size_bytes,start_s,fct_s,ideal_fct_s,timeouts,completed\n"
                "0,0,1,10,0.0,17.5,10.5,0,1\n1,0,1,4,2.0,4.5,4.5,0,1\n2,0,1,3,3.0,6.5,3.5,0,1\n")


def ideal_cli(tmp_path: Path, rows: list[tuple[int, int, int, float]], out: str,
              *window: str) -> int:
    flow_list = write_flow_list(tmp_path / f"{out}.csv", rows)
    like = tmp_path / f"{out}-like"
    if not like.exists():
        write_like_run(like, rows, **byte_per_s_meta())
    return main(["ideal", str(flow_list), "--like", str(like), "--out", str(tmp_path / out),
                 *window])


def test_window_off_writes_todays_fct_csv_to_the_byte(tmp_path: Path) -> None:
    assert ideal_cli(tmp_path, HAND_FLOWS, "off") == 0
    assert ideal_cli(tmp_path, HAND_FLOWS, "zero", "--measure-flows", "0") == 0
    assert (tmp_path / "off" / "fct.csv").read_text() == HAND_FCT_CSV
    assert (tmp_path / "zero" / "fct.csv").read_text() == HAND_FCT_CSV
    meta = json.loads((tmp_path / "off" / "meta.json").read_text())
    assert "window" not in meta and "measureFlows" not in meta["parameters"]


def test_the_window_measures_its_flows_inside_the_arrivals(tmp_path: Path) -> None:
    # Measure B and C (W = 1, N = 2): the run ends when C completes at 10, after D (7) has
    # delayed it by D's 1 s: C's FCT is 3.5 + 4 (waited 3..8 but for 6..7) = 7.5, where the
    # first W + N flows run alone give it 6.5 (HAND_FCT_CSV). E arrives after the end.
    assert ideal_cli(tmp_path, WINDOW_FLOWS, "w", "--warmup-flows", "1",
                     "--measure-flows", "2") == 0
    # A still runs (until 19): completed 0, no fct_s; D completed at 8, not measured.
    assert (tmp_path / "w" / "fct.csv").read_text() == (
        ",".join([*FCT_COLUMNS, "measured"]) + "\n"
        "0,0,1,10,0.0,,10.5,0,0,0\n1,0,1,4,2.0,4.5,4.5,0,1,1\n2,0,1,3,3.0,7.5,3.5,0,1,1\n"
        "3,0,1,1,7.0,1.5,1.5,0,1,0\n")
    meta = json.loads((tmp_path / "w" / "meta.json").read_text())
    assert meta["window"] == {"warmup_flows": 1, "measure_flows": 2, "flows_simulated": 4,
                              "measure_max_bytes": 0, "arrivals_through_end": True}
    assert meta["parameters"]["warmupFlows"] == 1 and meta["parameters"]["measureFlows"] == 2
    assert meta["simulated_time_s"] == 10.0
    assert (meta["flows_total"], meta["flows_completed"], meta["flows_unfinished"]) == (4, 3, 1)
    assert meta["ideal_flows_scheduled"] == 5


def test_a_size_limit_measures_and_awaits_only_the_windows_smaller_flows(tmp_path: Path) -> None:
    # Measure A, B and C (W = 0, N = 3) but only flows of at most 4 B: A (10 B) is neither
    # measured nor awaited, so the run ends when C completes at 10 (as above), not when A does
    # (at 18), which the same window without the limit waits for.
    assert ideal_cli(tmp_path, WINDOW_FLOWS, "s", "--measure-flows", "3",
                     "--measure-max-bytes", "4") == 0
    assert (tmp_path / "s" / "fct.csv").read_text() == (
        ",".join([*FCT_COLUMNS, "measured"]) + "\n"
        "0,0,1,10,0.0,,10.5,0,0,0\n1,0,1,4,2.0,4.5,4.5,0,1,1\n2,0,1,3,3.0,7.5,3.5,0,1,1\n"
        "3,0,1,1,7.0,1.5,1.5,0,1,0\n")
    meta = json.loads((tmp_path / "s" / "meta.json").read_text())
    assert meta["window"]["measure_max_bytes"] == 4 and meta["simulated_time_s"] == 10.0
    assert meta["parameters"]["measureMaxBytes"] == 4
    assert ideal_cli(tmp_path, WINDOW_FLOWS, "all", "--measure-flows", "3") == 0
    assert json.loads((tmp_path / "all" / "meta.json").read_text())["simulated_time_s"] == 18.0


def test_a_list_that_stops_arriving_before_the_window_ends_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    short = WINDOW_FLOWS[:4]  # without E: the last arrival (7) is before C completes (10)
    cases = [(short, ["--warmup-flows", "1", "--measure-flows", "2"],
              "its 4 flows stop arriving at 7.000000000 s, before the last measured flow "
              "completes at 10.000000000 s; a longer list is needed"),
             (WINDOW_FLOWS, ["--warmup-flows", "4", "--measure-flows", "2"],
              "5 flows, fewer than --warmup-flows + --measure-flows = 6")]
    for rows, window, message in cases:
        assert ideal_cli(tmp_path, rows, "short", *window) == 1
        flow_list = tmp_path / "short.csv"
        assert capsys.readouterr().err.splitlines() == [
            f"pfabric-analysis: error: {flow_list}: {message}"]
        assert not (tmp_path / "short").exists()
        (tmp_path / "short-like" / "fct.csv").unlink()
        (tmp_path / "short-like" / "meta.json").unlink()
        (tmp_path / "short-like").rmdir()
    for window, message in ((["--warmup-flows", "1"], "--warmup-flows: needs --measure-flows"),
                            (["--measure-max-bytes", "4"],
                             "--measure-max-bytes: needs --measure-flows"),
                            (["--measure-flows", "-1"],
                             "--measure-flows -1: expected a whole number of at least 0"),
                            (["--warmup-flows", "-1", "--measure-flows", "1"],
                             "--warmup-flows -1: expected a whole number")):
        assert ideal_cli(tmp_path, WINDOW_FLOWS, "bad", *window) == 1
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1
        assert not (tmp_path / "bad").exists()


def test_the_windows_cut_is_a_schedule_of_the_list_up_to_its_end() -> None:
    """Cutting the schedule of a long list at the window's end gives every flow completed by
    then exactly the FCT a separate schedule of only the flows arrived by then gives it."""
    link = Link()
    flows_all = synthetic_flows(6000, 0.8, 8, 7, default_cdf())
    ideal = flows_all["ideal_fct_s"].to_numpy()
    fct, result = ideal_fct(flows_all, ideal, link)
    window = Window(1000, 2000)
    cut = window_cut(result, window, "synthetic")
    assert window.stop < cut.flows_simulated < len(flows_all)  # a tail, and a longer list
    assert not cut.completed[cut.started].all()  # some flows still run at the end
    alone, _ = ideal_fct(flows_all[cut.started].reset_index(drop=True), ideal[cut.started],
                         link)
    done = cut.completed[cut.started]
    assert done[window.warmup_flows:window.stop].all()
    np.testing.assert_array_equal(fct["fct_s"].to_numpy()[cut.started][done],
                                  alone["fct_s"].to_numpy()[done])
    # The window matters: the first W + N flows run alone give some measured flow another FCT.
    prefix, _ = ideal_fct(flows_all.iloc[:window.stop], ideal[:window.stop], link)
    measured = slice(window.warmup_flows, window.stop)
    assert (prefix["fct_s"].to_numpy()[measured] != fct["fct_s"].to_numpy()[measured]).any()
    written = windowed_fct(fct, window, cut)
    assert len(written) == cut.flows_simulated
    assert written["measured"].sum() == window.measure_flows
    assert written.loc[written["measured"] == 1, "flow_id"].tolist() == list(range(1000, 3000))
    assert written.loc[written["completed"] == 0, "fct_s"].isna().all()
