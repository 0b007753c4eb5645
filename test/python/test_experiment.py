"""pfabric-websearch / pfabric-datamining end to end: outputs, provenance, determinism,
conservation, the bad inputs that must stop a run before it starts, and pFabric against
TCP-DropTail on the same flows."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from conftest import RunExample
from pfabric_analysis.runs import BIN_NAMES, read_run, summarize

ROOT = Path(__file__).resolve().parents[2]
# A 4-host star keeps these runs to a second or two.
STAR = ("--topology=star", "--hosts=4", "--quiet")


def read_fct(directory: Path) -> list[dict[str, str]]:
    with open(directory / "fct.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_the_program_bins_flow_sizes_as_the_analysis_does(run_example: RunExample,
                                                         tmp_path: Path) -> None:
    """One home for the size bins (size-bins.txt): the program's end-of-run table has the
    analysis's bins, by name and by the flows in each (data mining: flows in all three)."""
    out = tmp_path / "run"
    result = run_example("pfabric-datamining", *STAR, "--flows=60", "--load=0.3",
                         f"--out={out}")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("size "))
    printed = {line.split()[0]: int(line.split()[1]) for line in lines[header + 1:header + 5]}
    table = summarize(read_run(out).fct).set_index("bin")
    assert list(printed) == [*BIN_NAMES, "all"]
    assert printed == {name: int(table.loc[name, "flows"]) for name in printed}
    assert all(printed[name] > 0 for name in BIN_NAMES)


@pytest.mark.parametrize(("program", "arguments"), [
    ("pfabric-websearch", ("--flows=20",)), ("pfabric-datamining", ("--flows=20",)),
    ("pfabric-deadlines", ("--flows=20",)), ("pfabric-classes", ("--flows=20",)),
    ("pfabric-incast", ("--workers=3", "--queries=2", "--background=0.3"))])
def test_every_programs_run_is_read_by_the_analysis(run_example: RunExample, tmp_path: Path,
                                                    program: str,
                                                    arguments: tuple[str, ...]) -> None:
    """The analysis's checks of a meta.json against itself hold for every program's own runs:
    the first check of flows_total against --flows refused every run of pfabric-classes (whose
    classes add flows) and pfabric-incast (whose --flows is its background's), and no test read
    one (the eighth probe)."""
    out = tmp_path / "run"
    result = run_example(program, "--topology=star", "--hosts=4", "--quiet", *arguments,
                         f"--out={out}")
    assert result.returncode == 0, result.stderr
    run = read_run(out)
    assert len(run.fct) == json.loads((out / "meta.json").read_text())["flows_total"] > 0


def test_outputs_and_provenance(run_example: RunExample, tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = run_example("pfabric-websearch", *STAR, "--flows=30", "--load=0.4", "--seed=3",
                         "--run=2", f"--out={out}")
    assert result.returncode == 0, result.stderr
    assert "(0,100KB]" in result.stdout and f"{out}/fct.csv" in result.stdout
    rows = read_fct(out)
    assert list(rows[0]) == ["flow_id", "src", "dst", "size_bytes", "start_s", "fct_s",
                             "ideal_fct_s", "timeouts", "completed"]
    assert len(rows) == 30 and all(r["completed"] == "1" for r in rows)
    assert all(float(r["fct_s"]) >= float(r["ideal_fct_s"]) * 0.999 for r in rows)
    meta = json.loads((out / "meta.json").read_text())
    assert meta["parameters"]["scheme"] == "pfabric"
    assert meta["parameters"]["seed"] == 3 and meta["parameters"]["run"] == 2
    assert meta["parameters"]["load"] == 0.4
    assert meta["parameters"]["reuseConnections"] is True
    # Each parameter is named as the option that sets it, but connectLeadUs: meta.json keeps the
    # key and microseconds of the option before --connectLead took units (still taken, with a
    # notice), so that new runs compare and pool with earlier ones.
    help_text = run_example("pfabric-websearch", "--PrintHelp").stdout
    assert [key for key in meta["parameters"] if f"--{key}:" not in help_text] == ["connectLeadUs"]
    assert meta["parameters"]["connectLeadUs"] == 1000 and meta["parameters"]["maxSimTime"] == 100
    assert 0 < meta["connections_opened"] <= 30
    assert meta["ns3_version"] == "3.44"
    assert meta["module_version"] == (ROOT / "VERSION").read_text().strip()
    assert meta["flows_completed"] == 30 and meta["flows_unfinished"] == 0
    assert (meta["host_link_bps"], meta["segment_bytes"], meta["packet_overhead_bytes"]) == (
        10_000_000_000, 1460, 42)
    assert meta["events"] > 0 and meta["peak_rss_bytes"] > 0 and meta["wall_time_s"] > 0
    assert meta["simulated_time_s"] == pytest.approx(
        max(float(r["start_s"]) + float(r["fct_s"]) for r in rows), abs=1e-9)
    assert not list(out.glob("*.partial"))


# Lone flows: 1, 12, 100 and 1000 full packets, inside a rack (host 0 to 1) and across the core
# (host 2 to the last host, another pod or rack), each alone in the fabric (3 ms apart; the
# longest takes 1.2 ms). The flows of a pair follow each other: with connection reuse (the
# default) the four flows of each pair share one connection, each starting afresh (StartFlow).
LONE_PACKETS = (1, 12, 100, 1000)
FAR_HOST = {"hotnets12": 53, "sigcomm13": 143}


def lone_flows(path: Path, preset: str) -> Path:
    lines = ["src,dst,size_bytes,start_s"]
    start = 0.001
    for packets in LONE_PACKETS:
        for src, dst in ((0, 1), (2, FAR_HOST[preset])):
            lines.append(f"{src},{dst},{packets * 1460},{start:.3f}")
            start += 0.003
    path.write_text("\n".join(lines) + "\n")
    return path


def lone_slowdowns(run_example: RunExample, tmp_path: Path, preset: str, scheme: str,
                   *extra: str) -> dict[tuple[int, str], float]:
    """fct_s / ideal_fct_s of each lone flow, keyed by (packets, "rack" | "core")."""
    out = tmp_path / f"{preset}-{scheme}"
    result = run_example("pfabric-websearch", "--quiet", f"--preset={preset}",
                         f"--scheme={scheme}", f"--flowFile={lone_flows(tmp_path / 'f.csv', preset)}",
                         f"--out={out}", *extra)
    assert result.returncode == 0, result.stderr
    meta = json.loads((out / "meta.json").read_text())
    reuse = "--reuseConnections=0" not in extra
    assert meta["connections_opened"] == (2 if reuse else 2 * len(LONE_PACKETS))
    return {(int(r["size_bytes"]) // 1460, "rack" if r["dst"] == "1" else "core"):
            float(r["fct_s"]) / float(r["ideal_fct_s"]) for r in read_fct(out)}


@pytest.mark.parametrize(("switch_mode", "link_type"),
                         [("lean", "pfabric"), ("ip", "pfabric"), ("lean", "p2p")])
@pytest.mark.parametrize("preset", ["hotnets12", "sigcomm13"])
@pytest.mark.parametrize("scheme", ["pfabric", "linerate", "tcp", "dctcp"])
def test_a_lone_flow_takes_its_ideal_fct(run_example: RunExample, tmp_path: Path, preset: str,
                                         scheme: str, switch_mode: str, link_type: str) -> None:
    # Tolerance 1%: measured 1.000 everywhere except 1.002 for 100 packets across the
    # sigcomm13 spine under the window-based schemes (IW 12 segments is 0.2 segments short
    # of that path's bandwidth-delay product).
    slowdowns = lone_slowdowns(run_example, tmp_path, preset, scheme,
                               f"--switchMode={switch_mode}", f"--linkType={link_type}")
    assert len(slowdowns) == 2 * len(LONE_PACKETS)
    for flow, slowdown in slowdowns.items():
        assert slowdown == pytest.approx(1.0, abs=0.01), (flow, slowdown)


def test_link_delay_moves_every_ideal_fct_by_its_round_trip(run_example: RunExample,
                                                            tmp_path: Path) -> None:
    """--linkDelay=1us on hotnets12 (400 ns per link by the preset): each lone flow's ideal FCT
    grows by 600 ns per link, twice (the data's way and the last ACK's): 2 links on the rack
    path, 6 across the core. LineRate's window of 14 packets (16.8 us of sending) still covers
    the rack path's round trip, so those flows take their ideal FCT within 1%, but not the core
    path's (about 19.4 us with 1 us links): flows of 100 packets and more across the core are
    window-bound, 5-20% over their ideal. meta.json records the option."""
    ideal = {}
    for delay in ("", "1us"):
        out = tmp_path / (delay or "preset")
        extra = [f"--linkDelay={delay}"] if delay else []
        result = run_example("pfabric-websearch", "--quiet", "--scheme=linerate",
                             f"--flowFile={lone_flows(tmp_path / 'f.csv', 'hotnets12')}",
                             f"--out={out}", *extra)
        assert result.returncode == 0, result.stderr
        ideal[delay] = {(int(r["size_bytes"]) // 1460, r["dst"] == "1"):
                        (float(r["ideal_fct_s"]), float(r["fct_s"])) for r in read_fct(out)}
    for (packets, rack), (fct_ideal, fct) in ideal["1us"].items():
        links = 2 if rack else 6
        grown = fct_ideal - ideal[""][(packets, rack)][0]
        assert grown == pytest.approx(2 * links * 600e-9, abs=2e-9), (packets, rack)
        if rack or packets < 100:
            assert fct / fct_ideal == pytest.approx(1.0, abs=0.01), (packets, rack)
        else:
            assert 1.05 < fct / fct_ideal < 1.2, (packets, rack)
    meta = json.loads((tmp_path / "1us" / "meta.json").read_text())
    assert meta["parameters"]["linkDelay"] == "1us"


@pytest.mark.parametrize("preset", ["hotnets12", "sigcomm13"])
@pytest.mark.parametrize("scheme", ["pfabric", "linerate"])
def test_a_lone_flow_takes_its_ideal_fct_on_the_lean_host(run_example: RunExample,
                                                          tmp_path: Path, preset: str,
                                                          scheme: str) -> None:
    """The lean host (no ns-3 TCP/IP) across a whole fabric, rack and core paths: the same 1%
    as ns-3's TCP/IP, and meta.json says which host stack ran."""
    slowdowns = lone_slowdowns(run_example, tmp_path, preset, scheme, "--hostStack=lean")
    assert len(slowdowns) == 2 * len(LONE_PACKETS)
    for flow, slowdown in slowdowns.items():
        assert slowdown == pytest.approx(1.0, abs=0.01), (flow, slowdown)
    meta = json.loads((tmp_path / f"{preset}-{scheme}" / "meta.json").read_text())
    assert meta["parameters"]["hostStack"] == "lean"


@pytest.mark.parametrize("host_stack", ["ns3tcp", "lean"])
def test_line_rate_window(run_example: RunExample, tmp_path: Path, host_stack: str) -> None:
    """LineRate's Window: a window of 24 segments, above hotnets12's bandwidth-delay product (about
    10 segments across the core: 11 is the smallest window that leaves a lone 1,000-segment flow
    there at its ideal FCT, 10 makes it 1.6% slower), leaves every lone flow at its ideal FCT; a window of 2 sends 2 segments
    per round trip, so a flow of n segments takes n / 2 times a one-segment flow's FCT on the same
    path (measured within 0.6% from 100 segments on, 0.03% at 1,000, both host stacks)."""
    def fcts(window: int) -> tuple[dict[tuple[int, str], float], dict[tuple[int, str], float]]:
        out = tmp_path / f"w{window}"
        flows = lone_flows(tmp_path / "f.csv", "hotnets12")
        result = run_example("pfabric-websearch", "--quiet", "--preset=hotnets12",
                             "--scheme=linerate", f"--hostStack={host_stack}",
                             f"--ns3::PfabricLineRateTcpSocket::Window={window}",
                             f"--flowFile={flows}", f"--out={out}")
        assert result.returncode == 0, result.stderr
        rows = read_fct(out)
        key = [(int(r["size_bytes"]) // 1460, "rack" if r["dst"] == "1" else "core") for r in rows]
        return ({k: float(r["fct_s"]) for k, r in zip(key, rows)},
                {k: float(r["fct_s"]) / float(r["ideal_fct_s"]) for k, r in zip(key, rows)})

    _, wide = fcts(24)
    assert all(slowdown == pytest.approx(1.0, abs=0.01) for slowdown in wide.values()), wide
    narrow, slowdowns = fcts(2)
    for (packets, path), fct in narrow.items():
        if packets >= 100:
            assert fct == pytest.approx(packets / 2 * narrow[(1, path)], rel=0.01)
    assert slowdowns[(1000, "core")] > 4


# A small leaf-spine (2 leaves of 4 hosts, 2 spines): spraying, 2- and 4-link paths, queues
# that fill at load 0.6 (measured: pFabric ~1,100 timeouts over 40 flows, TCP about 80).
SMALL_LEAF_SPINE = ("--preset=sigcomm13", "--topology=leafspine", "--leaves=2",
                    "--hostsPerLeaf=4", "--spines=2", "--load=0.6", "--quiet")


@pytest.mark.parametrize("scheme", ["pfabric", "linerate", "tcp", "dctcp"])
def test_lean_and_ip_switches_give_the_same_results(run_example: RunExample, tmp_path: Path,
                                                    scheme: str) -> None:
    """The lean switch (no IP stack) against the IP-routed reference on the same flows: the
    issue's tolerance (per-bin means within 2%, (0,100KB] p99 within 5%) holds, and in fact
    fct.csv is byte-identical (same choices, same event order; only the TTL, which nothing
    reads, differs on the wire)."""
    flows = tmp_path / "flows.csv"
    texts = {}
    for mode in ("lean", "ip"):
        out = tmp_path / mode
        source = f"--flowFile={flows}" if flows.exists() else f"--dumpFlows={flows}"
        result = run_example("pfabric-websearch", *SMALL_LEAF_SPINE, "--flows=40",
                             f"--scheme={scheme}", f"--switchMode={mode}", source,
                             f"--out={out}")
        assert result.returncode == 0, result.stderr
        assert json.loads((out / "meta.json").read_text())["parameters"]["switchMode"] == mode
        texts[mode] = (out / "fct.csv").read_text()
    from pfabric_analysis.runs import read_run, summarize

    lean = summarize(read_run(tmp_path / "lean").fct).set_index("bin")
    ip = summarize(read_run(tmp_path / "ip").fct).set_index("bin")
    assert ip.loc["(0,100KB]", "flows"] > 10 and ip.loc["all", "flows"] == 40
    for bin_name in ip.index:
        if ip.loc[bin_name, "flows"]:
            assert lean.loc[bin_name, "mean"] == pytest.approx(ip.loc[bin_name, "mean"], rel=0.02)
    assert lean.loc["(0,100KB]", "p99"] == pytest.approx(ip.loc["(0,100KB]", "p99"], rel=0.05)
    assert texts["lean"] == texts["ip"]


@pytest.mark.parametrize("scheme", ["tcp", "dctcp"])
def test_the_baselines_give_the_same_flows_on_both_host_stacks(run_example: RunExample,
                                                              tmp_path: Path,
                                                              scheme: str) -> None:
    """The lean host's baselines against ns-3's TCP/IP on a whole experiment (hotnets12's fat-tree
    of 54 hosts, spraying, web search at load 0.8, 150 flows: drops, timeouts, ECN marks, lost
    handshake segments): fct.csv byte-identical, every flow's FCT and timeouts, as issue 51's
    bounds (per-bin means within 2%, the small flows' p99 within 5%) at their tightest. Without
    the receiver's own SYN-ACK timer (ns-3's socket in SYN_RCVD resends it) both schemes part
    here within the first flows. 150 flows: TCP-DropTail's meet 138 timeouts (61 flows), at 10 s
    of processor time on ns-3's TCP/IP against 24 s for 300 (AMD EPYC VM)."""
    texts = {}
    for stack in ("ns3tcp", "lean"):
        out = tmp_path / stack
        result = run_example("pfabric-websearch", "--quiet", "--preset=hotnets12", "--load=0.8",
                             "--flows=150", f"--scheme={scheme}", f"--hostStack={stack}",
                             f"--out={out}")
        assert result.returncode == 0, result.stderr
        texts[stack] = (out / "fct.csv").read_text()
    rows = [line.split(",") for line in texts["ns3tcp"].splitlines()[1:]]
    assert len(rows) == 150 and sum(int(row[7]) for row in rows) > 0  # timeouts happened
    assert texts["lean"] == texts["ns3tcp"]


def test_without_host_pacing_slow_start_overflows_the_senders_own_nic(
        run_example: RunExample, tmp_path: Path) -> None:
    # The control for the test above: unpaced, TCP's slow start bursts past its NIC's 150
    # packets and waits out a 200 us timeout (measured 1.20 in a rack, 1.36 across the core).
    slowdowns = lone_slowdowns(run_example, tmp_path, "hotnets12", "tcp",
                               "--ns3::PfabricTcpSocketFactory::HostPacing=false")
    assert slowdowns[(1000, "rack")] > 1.1 and slowdowns[(1000, "core")] > 1.1


@pytest.mark.parametrize("scheme", ["pfabric", "dctcp"])
def test_idle_connections_are_reused_and_every_byte_arrives(run_example: RunExample,
                                                           tmp_path: Path, scheme: str) -> None:
    """A busy 4-host star, the same 200 flows with and without connection reuse: reuse opens
    a small fraction of the connections (measured 41 under pFabric, 49 under DCTCP), and either
    way every flow completes, no flow waits for its handshake, and the receivers read exactly
    the bytes of all flows (sequence numbers continue across a reused connection's flows)."""
    flows = tmp_path / "flows.csv"
    for reuse in (1, 0):
        out = tmp_path / f"reuse{reuse}"
        source = f"--flowFile={flows}" if flows.exists() else f"--dumpFlows={flows}"
        result = run_example("pfabric-websearch", *STAR, "--flows=200", "--load=0.6",
                             f"--scheme={scheme}", f"--reuseConnections={reuse}", source,
                             f"--out={out}")
        assert result.returncode == 0, result.stderr
        rows = read_fct(out)
        meta = json.loads((out / "meta.json").read_text())
        assert meta["parameters"]["reuseConnections"] is bool(reuse)
        assert len(rows) == 200 and all(r["completed"] == "1" for r in rows)
        assert all(float(r["fct_s"]) >= float(r["ideal_fct_s"]) * 0.999 for r in rows)
        assert meta["bytes_received"] == sum(int(r["size_bytes"]) for r in rows)
        assert meta["flows_started_before_connected"] == 0
        if reuse:
            assert meta["connections_opened"] < 200 / 3, meta["connections_opened"]
        else:
            assert meta["connections_opened"] == 200


def test_the_original_scripts_pool_opens_connections_at_overlapping_flows(
        run_example: RunExample, tmp_path: Path) -> None:
    """--connectionPool=1 on a busy 4-host star: each pair's first flow gets a connection opened
    ahead; a flow arriving while its pair's connections all carry flows gets one opened at its
    start, so it is handed to a connecting socket. Hence connections opened - flows handed before
    connected = the pairs that carry flows, some flows overlap, and every byte still arrives."""
    out = tmp_path / "pool"
    result = run_example("pfabric-websearch", *STAR, "--flows=200", "--load=0.6",
                         "--connectionPool=1", "--restartSsThresh=0", f"--out={out}")
    assert result.returncode == 0, result.stderr
    rows = read_fct(out)
    meta = json.loads((out / "meta.json").read_text())
    assert meta["parameters"]["connectionPool"] == 1
    assert meta["parameters"]["restartSsThresh"] is False
    assert len(rows) == 200 and all(r["completed"] == "1" for r in rows)
    assert meta["bytes_received"] == sum(int(r["size_bytes"]) for r in rows)
    pairs = {(r["src"], r["dst"]) for r in rows}
    opened_at_start = meta["flows_started_before_connected"]
    assert opened_at_start > 0
    assert meta["connections_opened"] - opened_at_start == len(pairs)


def test_same_seed_same_flows_other_run_other_flows(run_example: RunExample,
                                                    tmp_path: Path) -> None:
    texts = []
    for name, run in (("a", "1"), ("b", "1"), ("c", "2")):
        result = run_example("pfabric-websearch", *STAR, "--flows=40", "--load=0.5",
                             f"--run={run}", f"--out={tmp_path / name}")
        assert result.returncode == 0, result.stderr
        texts.append((tmp_path / name / "fct.csv").read_bytes())
    assert texts[0] == texts[1]
    assert texts[0] != texts[2]


def test_ns2_arrivals_draw_the_original_scripts_flows_for_every_run(run_example: RunExample,
                                                                    tmp_path: Path) -> None:
    """--arrivals=ns2 (doc, "Workloads"): on sigcomm13's 144 hosts at web search load 0.6 the
    program writes the original scripts' first flows (their list's first three: pairs (5, 36),
    (10, 72), (15, 108), start_time_us 1000006.904216, ... less the scripts' 1 s), the same for
    every --seed and --run, others than the default generator's; a run records arrivals in
    meta.json. (All 10,000: the C++ suite.)"""
    lists = {}
    for arrivals, seed, run in (("ns2", 1, 1), ("ns2", 2, 3), ("poisson", 1, 1)):
        dump = tmp_path / f"{arrivals}-{seed}-{run}.csv"
        result = run_example("pfabric-websearch", "--preset=sigcomm13", "--load=0.6",
                             "--flows=3", f"--arrivals={arrivals}", f"--seed={seed}",
                             f"--run={run}", f"--dumpFlows={dump}", "--flowsOnly")
        assert result.returncode == 0, result.stderr
        lists[(arrivals, seed, run)] = dump.read_text()
    assert lists[("ns2", 1, 1)].splitlines() == [
        "src,dst,size_bytes,start_s", "5,36,477420,0.000006904", "10,72,26280,0.000013809",
        "15,108,5454560,0.000020713"]
    assert lists[("ns2", 2, 3)] == lists[("ns2", 1, 1)]
    assert lists[("poisson", 1, 1)] != lists[("ns2", 1, 1)]
    result = run_example("pfabric-websearch", *STAR, "--flows=5", "--load=0.3", "--arrivals=ns2",
                         f"--out={tmp_path / 'run'}")
    assert result.returncode == 0, result.stderr
    meta = json.loads((tmp_path / "run" / "meta.json").read_text())
    assert meta["parameters"]["arrivals"] == "ns2"


def test_event_schedulers_give_the_same_run(run_example: RunExample, tmp_path: Path) -> None:
    # The programs replace ns-3's default MapScheduler with PriorityQueueScheduler for speed;
    # ns-3 orders simultaneous events by insertion on every scheduler, so nothing may change.
    texts, events = [], []
    for name, extra in (("default", ()), ("map", ("--SchedulerType=ns3::MapScheduler",))):
        result = run_example("pfabric-websearch", *STAR, "--flows=60", "--load=0.7",
                             f"--out={tmp_path / name}", *extra)
        assert result.returncode == 0, result.stderr
        texts.append((tmp_path / name / "fct.csv").read_bytes())
        meta = json.loads((tmp_path / name / "meta.json").read_text())
        events.append((meta["scheduler"], meta["events"]))
    assert texts[0] == texts[1]
    assert events[0][0] == "ns3::PriorityQueueScheduler" and events[1][0] == "ns3::MapScheduler"
    assert events[0][1] == events[1][1] > 0


def test_dumped_flows_replay_identically(run_example: RunExample, tmp_path: Path) -> None:
    flows = tmp_path / "flows.csv"
    first = run_example("pfabric-websearch", *STAR, "--flows=40", "--scheme=tcp",
                        f"--dumpFlows={flows}", f"--out={tmp_path / 'generated'}")
    assert first.returncode == 0, first.stderr
    again = run_example("pfabric-websearch", *STAR, "--scheme=tcp", f"--flowFile={flows}",
                        f"--out={tmp_path / 'replayed'}")
    assert again.returncode == 0, again.stderr
    assert ((tmp_path / "generated" / "fct.csv").read_bytes()
            == (tmp_path / "replayed" / "fct.csv").read_bytes())


def test_flows_only_writes_the_flows_a_run_would_and_simulates_nothing(
        run_example: RunExample, tmp_path: Path) -> None:
    only = run_example("pfabric-websearch", *STAR, "--flows=40", "--flowsOnly",
                       f"--dumpFlows={tmp_path / 'only.csv'}", f"--out={tmp_path / 'none'}")
    assert only.returncode == 0, only.stderr
    assert only.stdout == f"flows: {tmp_path / 'only.csv'} (40)\n"
    assert not (tmp_path / "none").exists()
    run = run_example("pfabric-websearch", *STAR, "--flows=40", "--scheme=dctcp",
                      f"--dumpFlows={tmp_path / 'run.csv'}", f"--out={tmp_path / 'run'}")
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "only.csv").read_bytes() == (tmp_path / "run.csv").read_bytes()


def test_sprayed_dctcp_survives_duplicate_acks_counted_in_cwr(run_example: RunExample,
                                                              tmp_path: Path) -> None:
    # The first 60 flows of the quick reproduction's web search list at load 0.1: before
    # PfabricBaselineTcpSocket reset the duplicate-ACK count at the end of CA_CWR, ns-3 asserted
    # "From OPEN->DISORDER but with 2 dup ACKs" at 8.5 ms.
    generated = tmp_path / "all.csv"
    result = run_example("pfabric-websearch", "--flows=400", "--load=0.1", "--flowsOnly",
                         f"--dumpFlows={generated}")
    assert result.returncode == 0, result.stderr
    flows = tmp_path / "flows.csv"
    flows.write_text("".join(generated.read_text().splitlines(keepends=True)[:61]))
    result = run_example("pfabric-websearch", "--quiet", "--scheme=dctcp", f"--flowFile={flows}",
                         f"--out={tmp_path / 'run'}")
    assert result.returncode == 0, result.stderr[-300:]
    rows = read_fct(tmp_path / "run")
    assert len(rows) == 60 and all(r["completed"] == "1" for r in rows)


def test_every_replayed_flow_appears_once_with_its_size(run_example: RunExample,
                                                         tmp_path: Path) -> None:
    flows = tmp_path / "flows.csv"
    lines = ["src,dst,size_bytes,start_s"]
    expected = []
    for i in range(25):
        src, dst, size = i % 4, (i + 1 + i // 4) % 4, 1000 + 7919 * i
        if src == dst:
            dst = (dst + 1) % 4
        lines.append(f"{src},{dst},{size},{0.0001 * i:.9f}")
        expected.append((src, dst, size))
    flows.write_text("\n".join(lines) + "\n")
    for scheme in ("pfabric", "linerate", "tcp", "dctcp"):
        out = tmp_path / scheme
        result = run_example("pfabric-websearch", *STAR, f"--scheme={scheme}",
                             f"--flowFile={flows}", f"--out={out}")
        assert result.returncode == 0, result.stderr
        rows = read_fct(out)
        assert [int(r["flow_id"]) for r in rows] == list(range(25))
        assert [(int(r["src"]), int(r["dst"]), int(r["size_bytes"])) for r in rows] == expected
        assert all(r["completed"] == "1" for r in rows), scheme


def test_a_safety_limit_writes_unfinished_flows(run_example: RunExample, tmp_path: Path) -> None:
    out = tmp_path / "cut"
    result = run_example("pfabric-datamining", *STAR, "--flows=20", "--maxSimTime=1ms",
                         f"--out={out}")
    assert result.returncode == 0, result.stderr
    rows = read_fct(out)
    assert len(rows) == 20
    unfinished = [r for r in rows if r["completed"] == "0"]
    assert unfinished and all(r["fct_s"] == "" for r in unfinished)
    meta = json.loads((out / "meta.json").read_text())
    assert meta["flows_unfinished"] == len(unfinished)
    # Cut short: said on stderr in one line and in meta.json, with the unfinished flows' state.
    stop = meta["stop"]
    assert stop["reason"] == "safety limit" and stop["early"] is True
    assert stop["end_s"] == 0.001 and stop["flows_in_progress"] == len(unfinished)
    assert stop["timeouts"] == sum(int(r["timeouts"]) for r in unfinished)
    sizes = sum(int(r["size_bytes"]) for r in unfinished)
    assert 0 < stop["bytes_unacknowledged"] <= sizes
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert warnings == [
        f"pfabric-datamining: warning: stopped at the safety limit (--maxSimTime=0.001 s) with "
        f"{len(unfinished)} flows unfinished: {stop['not_started']} not started, "
        f"{stop['not_connected']} without a connection, {stop['no_bytes_acknowledged']} with no "
        f"byte acknowledged, 0 in probe mode; {stop['timeouts']} timeouts and "
        f"{stop['bytes_unacknowledged']} bytes unacknowledged among them, last progress at "
        f"{stop['last_progress_s']:g} s (meta.json: stop)"]


@pytest.mark.parametrize("preset", ["hotnets12", "sigcomm13"])
def test_a_buffer_smaller_than_a_packet_stalls_every_flow_and_says_so(
        run_example: RunExample, tmp_path: Path, preset: str) -> None:
    """A made-up pathological case: no full segment fits a switch's 1,000-byte buffer, so no flow
    completes. The run stops at the safety limit, says so, and --strict turns it into exit
    status 3 with the same files written; hotnets12's MinTCP retransmits every 40 us and never
    gets a byte acknowledged, sigcomm13's falls back to one-byte probes, which fit."""
    options = ("--quiet", f"--preset={preset}", "--flows=5", "--buffer=1000B",
               "--maxSimTime=50ms")
    lenient = run_example("pfabric-websearch", *options, f"--out={tmp_path / 'lenient'}")
    strict = run_example("pfabric-websearch", *options, "--strict", f"--out={tmp_path / 'strict'}")
    assert (lenient.returncode, strict.returncode) == (0, 3), lenient.stderr + strict.stderr
    assert strict.stderr == lenient.stderr.replace("lenient", "strict")
    assert (tmp_path / "lenient" / "fct.csv").read_bytes() == \
        (tmp_path / "strict" / "fct.csv").read_bytes()
    rows = read_fct(tmp_path / "strict")
    assert len(rows) == 5 and all(r["completed"] == "0" and r["fct_s"] == "" for r in rows)
    # Every flow timed out again and again (hotnets12: a timeout every 40 us, 50 ms / 40 us =
    # 1,250 less the flow's start), and fct.csv says how often.
    assert all(int(r["timeouts"]) > 1000 for r in rows)
    stop = json.loads((tmp_path / "strict" / "meta.json").read_text())["stop"]
    assert stop["reason"] == "safety limit" and stop["flows_in_progress"] == 5
    assert stop["not_started"] == stop["not_connected"] == 0  # SYNs fit: handshakes complete
    assert stop["timeouts"] == sum(int(r["timeouts"]) for r in rows)
    if preset == "hotnets12":  # no probe mode: not one byte through
        assert stop["no_bytes_acknowledged"] == 5 and stop["probing"] == 0
        assert stop["bytes_unacknowledged"] == sum(int(r["size_bytes"]) for r in rows)
    else:  # probe mode after 5 timeouts: one-byte probes get through, and a flow whose probe
        # was acknowledged sends full segments again, times out and probes again: at the end
        # (deterministic for the seed) one flow is probing
        assert stop["probing"] >= 1 and stop["no_bytes_acknowledged"] < 5
        assert stop["bytes_unacknowledged"] < sum(int(r["size_bytes"]) for r in rows)
    assert "5 flows unfinished" in strict.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize(("arguments", "reason"), [
    (("--flows=20", "--maxSimTime=1ms"), "stopped at the safety limit (--maxSimTime=0.001 s)"),
    # Every flow unfinished (none starts before the safety limit): still status 0 unless
    # --strict, and said so.
    (("--flows=5", "--load=1e-15"), "stopped at the safety limit (--maxSimTime=100 s)")])
def test_a_run_with_unfinished_flows_says_so_in_its_summary(run_example: RunExample,
                                                           tmp_path: Path, arguments,
                                                           reason: str) -> None:
    """The summary's table alone read as results (issue 54): its last line says how many flows
    did not finish (meta.json's flows_unfinished of flows_total), why, and the exit status: 0,
    or 3 with --strict; the files are the same either way."""
    results = {}
    for strict in (False, True):
        out = tmp_path / ("strict" if strict else "lenient")
        results[strict] = run_example("pfabric-websearch", *STAR, *arguments, f"--out={out}",
                                      *(["--strict"] if strict else []))
    assert (results[False].returncode, results[True].returncode) == (0, 3), results[False].stderr
    meta = json.loads((tmp_path / "lenient" / "meta.json").read_text())
    unfinished = meta["flows_unfinished"]
    assert unfinished > 0 and unfinished == sum(r["completed"] == "0"
                                                for r in read_fct(tmp_path / "lenient"))
    line = f"unfinished: {unfinished} of {meta['flows_total']} flows, {reason}; exit status "
    for strict, status in ((False, "0 (3 with --strict)"), (True, "3 (--strict)")):
        lines = results[strict].stdout.splitlines()
        assert lines[-2] == line + status, results[strict].stdout
        assert lines[-1].startswith("files: ")
        # The warning on stderr counts them too, and says where the details are.
        warning = results[strict].stderr.strip().splitlines()[-1]
        assert f"{reason} with {meta['stop']['flows_in_progress']} flow" in warning
    assert (tmp_path / "lenient" / "fct.csv").read_bytes() == \
        (tmp_path / "strict" / "fct.csv").read_bytes()


def test_a_run_that_completes_reports_no_early_stop(run_example: RunExample,
                                                    tmp_path: Path) -> None:
    result = run_example("pfabric-websearch", *STAR, "--flows=10", "--strict",
                         f"--out={tmp_path / 'run'}")
    assert result.returncode == 0 and "warning" not in result.stderr
    assert "unfinished:" not in result.stdout
    stop = json.loads((tmp_path / "run" / "meta.json").read_text())["stop"]
    assert stop == {"reason": "flows completed", "early": False, "end_s": stop["end_s"],
                    "flows_in_progress": 0, "not_started": 0, "not_connected": 0,
                    "no_bytes_acknowledged": 0, "probing": 0, "timeouts": 0,
                    "bytes_unacknowledged": 0, "last_progress_s": 0}
    assert 0 < stop["end_s"] < 1


def test_a_window_measures_flows_while_flows_keep_arriving(run_example: RunExample,
                                                          tmp_path: Path) -> None:
    """--warmupFlows and --measureFlows: fct.csv marks the measured flows (a last column), holds
    every flow started by the end (the --flows list's flows, more of them than W + N), meta.json
    records the window, the summary covers the measured flows; a flow file that runs out first
    is reported on stderr and in meta.json."""
    out = tmp_path / "window"
    result = run_example("pfabric-websearch", *STAR, "--load=0.5", "--warmupFlows=10",
                         "--measureFlows=20", f"--out={out}")
    assert result.returncode == 0, result.stderr
    rows = read_fct(out)
    assert list(rows[0])[-2:] == ["completed", "measured"]
    assert [r["flow_id"] for r in rows if r["measured"] == "1"] == [str(i) for i in range(10, 30)]
    assert all(r["completed"] == "1" for r in rows if r["measured"] == "1")
    assert len(rows) > 30
    meta = json.loads((out / "meta.json").read_text())
    assert meta["window"] == {"warmup_flows": 10, "measure_flows": 20,
                              "flows_simulated": len(rows), "measure_max_bytes": 0,
                              "arrivals_through_end": True}
    assert meta["parameters"]["warmupFlows"] == 10 and meta["parameters"]["measureFlows"] == 20
    assert "all                 20" in result.stdout
    # The later flows still open are the window's, not a stall.
    stop = meta["stop"]
    assert stop["reason"] == "measured flows completed" and stop["early"] is False
    # (fct.csv has the flows started by the end; flows handed over ahead of their start too)
    assert stop["flows_in_progress"] - stop["not_started"] == sum(r["completed"] == "0" for r in rows)
    assert stop["flows_in_progress"] > 0
    assert "warning" not in result.stderr
    listed = tmp_path / "list.csv"
    assert run_example("pfabric-websearch", *STAR, "--load=0.5", f"--flows={len(rows)}",
                       f"--dumpFlows={listed}", "--flowsOnly").returncode == 0
    with open(listed, newline="") as f:
        flows = list(csv.DictReader(f))
    columns = ("src", "dst", "size_bytes", "start_s")
    assert [[r[c] for c in columns] for r in rows] == [[f[c] for c in columns] for f in flows]

    # The same flows from the file: the first 30 run out before the measured ones complete.
    short = tmp_path / "short.csv"
    short.write_text("".join(listed.read_text().splitlines(keepends=True)[:31]))
    out = tmp_path / "short"
    result = run_example("pfabric-websearch", *STAR, f"--flowFile={short}", "--warmupFlows=10",
                         "--measureFlows=20", f"--out={out}")
    assert result.returncode == 0, result.stderr
    assert "ran out of flows before the measured flows completed" in result.stderr
    assert json.loads((out / "meta.json").read_text())["window"]["arrivals_through_end"] is False


def bad_files(tmp: Path) -> dict[str, Path]:
    files = {
        "cdf": "100 0.5\n200 x\n300 1\n",
        "huge": "10000 0.5\n3000000000 1\n",
        "header": "source,dst,size_bytes,start_s\n0,1,100,0\n",
        "negative": "src,dst,size_bytes,start_s\n0,1,-5,0\n",
        "outside": "src,dst,size_bytes,start_s\n0,9,100,0\n",
        "short": "src,dst,size_bytes,start_s\n0,1,100,0.001\n",
    }
    paths = {}
    for name, text in files.items():
        paths[name] = tmp / f"{name}.txt"
        paths[name].write_text(text)
    (tmp / "plain-file").write_text("")
    return paths


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--load=0",), "--load=0: expected a load in (0, 1)"),
        (("--load=1",), "--load=1: expected a load in (0, 1)"),
        (("--scheme=xcp",), "--scheme=xcp: expected pfabric, linerate, tcp, dctcp or custom"),
        (("--preset=sigcomm14",), "--preset=sigcomm14: expected hotnets12 or sigcomm13"),
        (("--lb=hash",), "--lb=hash: expected spray, ecmp, flowcell or random"),
        (("--topology=ring",), "--topology=ring: expected fattree, leafspine or star"),
        (("--topology=fattree", "--hosts=16", "--k=5"),  # --hosts back to its default
         "PfabricFatTreeHelper: k must be even and at least 2, got k = 5"),
        (("--buffer=lots",), "--buffer=lots: expected a positive size such as 22500B or 150p"),
        (("--rto=soon",), "--rto=soon: expected a time such as 40us"),
        (("--linkDelay=far",), "--linkDelay=far: expected a time such as 400ns"),
        (("--cdf={cdf}",), "{cdf}:2: 'x' is not a number"),
        # The twelfth probe: taken, then the hosts' senders stopped the run (SIGABRT, 4 lines).
        (("--cdf={huge}",), "{huge}:2: size 3000000000 is more than a flow's 2147483647 bytes"),
        (("--flowFile={header}",), "{header}:1: the header must be src,dst,size_bytes,start_s"),
        (("--flowFile={negative}",), "{negative}:2: size_bytes '-5' is not a positive integer"),
        (("--flowFile={outside}",), "{outside}:2: host 9 is outside the fabric (hosts 0 to 3)"),
        (("--out={tmp}/plain-file/run",), "--out={tmp}/plain-file/run: cannot create the directory"),
        (("--flowsOnly",), "--flowsOnly: needs --dumpFlows=PATH"),
        (("--switchMode=bridge",), "--switchMode=bridge: expected lean or ip"),
        (("--linkType=csma",), "--linkType=csma: expected pfabric or p2p"),
        (("--priorityLevels=65",), "--priorityLevels=65: expected 0 to 64"),
        (("--scheme=tcp", "--priorityLevels=4"),
         "--priorityLevels needs --scheme=pfabric or linerate"),
        (("--warmupFlows=5",), "--warmupFlows=5: needs --measureFlows"),
        (("--measureFlows=5", "--dumpFlows={tmp}/flows.csv"),
         "--measureFlows: not with --dumpFlows, --flowsOnly or --idealOnly"),
        (("--measureFlows=3", "--flowFile={short}"),
         "{short}: fewer flows (1) than --warmupFlows + --measureFlows (3)"),
        (("--connectionPool=1", "--reuseConnections=0"),
         "--connectionPool needs --reuseConnections"),
        (("--hostStack=kernel",), "--hostStack=kernel: expected ns3tcp or lean"),
        (("--arrivals=uniform",), "--arrivals=uniform: expected poisson or ns2"),
        (("--arrivals=ns2", "--flowFile={short}"),
         "--arrivals=ns2: generates flows; --flowFile replays a list instead"),
        (("--arrivals=ns2", "--sampling=bytes"),
         "--arrivals=ns2 draws sizes as ns-2 does, in packets: expected --sampling=packets"),
        (("--hostStack=lean", "--connectionPool=2"),
         "--hostStack=lean has no handshake to model --connectionPool's new connections"),
    ],
)
def test_bad_input_stops_before_the_run_and_leaves_nothing(run_example: RunExample,
                                                          tmp_path: Path,
                                                          arguments: tuple[str, ...],
                                                          message: str) -> None:
    paths = {name: str(path) for name, path in bad_files(tmp_path).items()}
    paths["tmp"] = str(tmp_path)
    out = tmp_path / "out"
    arguments = tuple(a.format(**paths) for a in arguments)
    if not any(a.startswith("--out=") for a in arguments):
        arguments += (f"--out={out}",)
    result = run_example("pfabric-websearch", "--topology=star", "--hosts=4", "--flows=5",
                         *arguments)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert lines == [f"pfabric-websearch: error: {message.format(**paths)}"] or (
        len(lines) == 1 and message.format(**paths) in lines[0]), result.stderr
    assert not out.exists()
    assert result.stdout == ""


def test_pfabric_beats_tcp_for_small_flows_on_the_same_flows(run_example: RunExample,
                                                              tmp_path: Path) -> None:
    """hotnets12 fat-tree, web search at load 0.5, 200 flows (about 100 of them small)."""
    flows = tmp_path / "flows.csv"
    means = {}
    for scheme in ("pfabric", "tcp"):
        arguments = ["--quiet", f"--scheme={scheme}", "--load=0.5", "--flows=200",
                     f"--out={tmp_path / scheme}"]
        arguments.append(f"--flowFile={flows}" if flows.exists() else f"--dumpFlows={flows}")
        result = run_example("pfabric-websearch", *arguments)
        assert result.returncode == 0, result.stderr
        small = [float(r["fct_s"]) / float(r["ideal_fct_s"]) for r in read_fct(tmp_path / scheme)
                 if int(r["size_bytes"]) <= 100000]
        assert len(small) > 80
        means[scheme] = sum(small) / len(small)
    assert means["pfabric"] < means["tcp"], means


def test_python_summary_agrees_with_the_program(run_example: RunExample, tmp_path: Path) -> None:
    """pfabric-analysis summarize reads fct.csv back to the numbers the program printed."""
    from pfabric_analysis.runs import read_run, summarize

    out = tmp_path / "run"
    result = run_example("pfabric-websearch", *STAR, "--flows=60", "--load=0.6", f"--out={out}")
    assert result.returncode == 0, result.stderr
    printed = {line.split()[0]: line.split()[1:] for line in result.stdout.splitlines()
               if line.startswith(("(", "all"))}
    table = summarize(read_run(out).fct).set_index("bin")
    for name, (flows, mean, p99, unfinished) in printed.items():
        assert int(flows) == table.loc[name, "flows"]
        assert int(unfinished) == table.loc[name, "unfinished"]
        if mean != "-":
            assert float(mean) == pytest.approx(table.loc[name, "mean"], abs=5e-4)
            assert float(p99) == pytest.approx(table.loc[name, "p99"], abs=5e-4)


def test_priority_levels_record_their_thresholds(run_example: RunExample, tmp_path: Path) -> None:
    """--priorityLevels=4 on web search: the equal-load thresholds of the shipped CDF (1.11, 3.13
    and 7.17 MB) in meta.json, every flow completed; --priorityLevels=0 records none."""
    for levels, thresholds in ((4, "1110720,3134436,7165710"), (0, "")):
        out = tmp_path / f"levels{levels}"
        result = run_example("pfabric-websearch", *STAR, "--flows=20", "--load=0.5",
                             f"--priorityLevels={levels}", f"--out={out}")
        assert result.returncode == 0, result.stderr
        meta = json.loads((out / "meta.json").read_text())
        assert meta["parameters"]["priorityLevels"] == levels
        assert meta["priority_thresholds_bytes"] == thresholds
        assert bool(meta["priority_level_rule"]) == bool(levels)
        assert meta["flows_completed"] == 20


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--deadlineMean=soon",), "--deadlineMean=soon: expected a time such as 1ms"),
        (("--deadlineMinFactor=0.5",),
         "--deadlineMinFactor=0.5: expected at least 1 (no deadline shorter than the ideal FCT)"),
        (("--deadlineFraction=1.5",), "--deadlineFraction=1.5: expected a share in [0, 1]"),
        (("--priority=fifo",), "--priority=fifo: expected edf or remaining"),
        (("--onMiss=drop",), "--onMiss=drop: expected continue or terminate"),
        (("--priorityLevels=4",),
         "--priorityLevels: not with deadlines (the levels quantise the remaining size)"),
        (("--measureFlows=10",), "--measureFlows: not with deadlines (pfabric-deadlines)"),
    ],
)
def test_bad_deadline_input_stops_before_the_run(run_example: RunExample, tmp_path: Path,
                                                  arguments: tuple[str, ...],
                                                  message: str) -> None:
    out = tmp_path / "out"
    result = run_example("pfabric-deadlines", *STAR, "--flows=5", f"--out={out}", *arguments)
    assert result.returncode != 0
    assert result.stderr.strip().splitlines() == [f"pfabric-deadlines: error: {message}"]
    assert not out.exists() and result.stdout == ""


def test_deadlines_end_to_end(run_example: RunExample, tmp_path: Path) -> None:
    """pfabric-deadlines on a star: fct.csv's deadline columns agree with its FCTs (met exactly
    when start + fct <= deadline; terminated flows unfinished and missed), every deadline at
    least 1.25 ideal FCTs after its start, about half the flows with one, the same flows and
    deadlines under every scheme and priority, its meta.json counts; pfabric-websearch's fct.csv
    keeps its nine columns."""
    runs = {}
    for name, options in (("edf", ("--priority=edf",)),
                          ("remaining", ("--priority=remaining", "--onMiss=terminate")),
                          ("tcp", ("--scheme=tcp", "--onMiss=terminate"))):
        out = tmp_path / name
        result = run_example("pfabric-deadlines", *STAR, "--flows=60", "--load=0.7",
                             "--deadlineMean=200us", "--deadlineFraction=0.5", f"--out={out}",
                             *options)
        assert result.returncode == 0, result.stderr
        assert "deadlines: " in result.stdout
        runs[name] = (read_fct(out), json.loads((out / "meta.json").read_text()))
    for name, (rows, meta) in runs.items():
        with_deadline = [r for r in rows if r["deadline_s"]]
        assert 15 <= len(with_deadline) <= 45, name
        met = 0
        for r in with_deadline:
            start, deadline = float(r["start_s"]), float(r["deadline_s"])
            assert deadline - start >= 1.25 * float(r["ideal_fct_s"]) - 1e-9
            in_time = r["completed"] == "1" and start + float(r["fct_s"]) <= deadline + 1e-10
            assert r["met"] == ("1" if in_time else "0"), (name, r)
            if r["terminated"] == "1":
                assert r["completed"] == "0" and r["met"] == "0"
            met += in_time
        assert all(r["met"] == "" and r["terminated"] == "0" for r in rows if not r["deadline_s"])
        assert meta["flows_with_deadline"] == len(with_deadline)
        assert meta["deadlines_met"] == met
        assert meta["flows_terminated"] == sum(r["terminated"] == "1" for r in rows)
        assert meta["flows_completed"] + meta["flows_terminated"] == 60
        assert meta["parameters"]["priority"] == ("none" if name == "tcp" else name)
        columns = ("src", "dst", "size_bytes", "start_s", "deadline_s")
        assert [[r[c] for c in columns] for r in rows] == \
            [[r[c] for c in columns] for r in runs["edf"][0]]
    assert runs["edf"][1]["flows_terminated"] == 0  # onMiss continue: every flow completes
    plain = tmp_path / "plain"
    result = run_example("pfabric-websearch", *STAR, "--flows=10", f"--out={plain}")
    assert result.returncode == 0, result.stderr
    assert (plain / "fct.csv").read_text().splitlines()[0] == \
        "flow_id,src,dst,size_bytes,start_s,fct_s,ideal_fct_s,timeouts,completed"


def test_classes_run_the_same_flows_under_every_setting(run_example: RunExample,
                                                        tmp_path: Path) -> None:
    """pfabric-classes: the web search flows (class 0) are pfabric-websearch's at their load
    (streams 1-3), the data mining flows (class 1) come from streams of their own, as many as
    span the same time, and every class setting runs the same flows; fct.csv has the
    traffic_class column, meta.json the class parameters and the total load."""
    flows = {}
    for setting in ("--classes=none", "--classes=strict", "--classWeights=3,1"):
        out = tmp_path / setting.split("=")[1]
        result = run_example("pfabric-classes", *STAR, "--flows=30", "--classLoads=0.3,0.2",
                             setting, f"--out={out}")
        assert result.returncode == 0, result.stderr
        assert "class 1 (data mining)" in result.stdout
        rows = read_fct(out)
        assert list(rows[0])[-1] == "traffic_class"
        flows[setting] = [(r["src"], r["dst"], r["size_bytes"], r["start_s"], r["traffic_class"])
                          for r in rows]
        meta = json.loads((out / "meta.json").read_text())
        assert meta["parameters"]["load"] == pytest.approx(0.5)
        assert meta["parameters"]["classLoads"] == "0.3,0.2"
        assert meta["flows_completed"] == len(rows)
        assert meta["class_flows"] == [30, len(rows) - 30]
    assert flows["--classes=none"] == flows["--classes=strict"] == flows["--classWeights=3,1"]
    web = run_example("pfabric-websearch", *STAR, "--flows=30", "--load=0.3",
                      f"--out={tmp_path / 'web'}")
    assert web.returncode == 0, web.stderr
    alone = [(r["src"], r["dst"], r["size_bytes"], r["start_s"], "0")
             for r in read_fct(tmp_path / "web")]
    assert [f for f in flows["--classes=none"] if f[4] == "0"] == alone
    mining = [f for f in flows["--classes=none"] if f[4] == "1"]
    assert mining
    # The data mining flows start within the web search flows' span, give or take one gap.
    assert max(float(f[3]) for f in mining) < 2 * max(float(f[3]) for f in alone)


@pytest.mark.parametrize("program, options", [("pfabric-websearch", ("--load=0.2",)),
                                              ("pfabric-classes", ())])
def test_the_start_line_says_what_the_run_will_cost(run_example: RunExample, tmp_path: Path,
                                                    program: str,
                                                    options: tuple[str, ...]) -> None:
    """Every run says at its start how long it will take: the packet hops it needs at least
    (each data packet and its ACK on every link of the path) and what they cost on the
    reference machines. The count is a lower bound of the packet_hops the run then takes
    (losses, retransmissions and handshakes come on top) and, at a low load, within 5% of it
    (a further 1% for the two digits printed)."""
    out = tmp_path / "run"
    result = run_example(program, "--flows=100", *options, f"--out={out}")
    assert result.returncode == 0, result.stderr
    start = next(line for line in result.stderr.splitlines() if "packet hops" in line)
    assert start.startswith(f"{program}: at least ") and "of processor time on" in start
    estimate = float(start.split("at least ")[1].split()[0])
    measured = json.loads((out / "meta.json").read_text())["packet_hops"]
    assert 0.99 * estimate <= measured <= 1.06 * estimate, (estimate, measured)
