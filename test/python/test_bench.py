"""The benchmark's counters and driver: meta.json's packet_hops is exactly the number of packet
transmissions a lone flow needs, rss_samples follows the run, and ./pfabric bench writes every
scenario's fields (at a size that takes seconds); its parsing and aggregation by hand."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import RunExample

ROOT = Path(__file__).resolve().parents[2]
SEGMENT = 1460


def load_bench():
    path = ROOT / "bench" / "pfabric_bench.py"
    spec = importlib.util.spec_from_file_location("pfabric_bench", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules["pfabric_bench"] = module
    spec.loader.exec_module(module)
    return module


bench = load_bench()


def lone_flow_meta(run_example: RunExample, tmp_path: Path, fabric: tuple[str, ...], src: int,
                   dst: int, packets: int, scheme: str) -> dict:
    flows = tmp_path / "flow.csv"
    flows.write_text(f"src,dst,size_bytes,start_s\n{src},{dst},{packets * SEGMENT},0.001\n")
    out = tmp_path / "run"
    result = run_example("pfabric-websearch", "--quiet", *fabric, f"--scheme={scheme}",
                         f"--flowFile={flows}", f"--out={out}")
    assert result.returncode == 0, result.stderr
    rows = (out / "fct.csv").read_text().splitlines()
    assert rows[1].split(",")[-2:] == ["0", "1"]  # no timeout, completed
    return json.loads((out / "meta.json").read_text())


# A lone flow of n full segments over a path of L links is, on every one of the L links, one
# transmission each of:
#   the handshake: SYN, SYN-ACK and the ACK that completes it (the connection opens
#     --connectLead = 1ms before the data, so that ACK carries no data and the first data
#     segment does not carry it)                                                       3
#   the data: n segments, no loss and no retransmission (a lone flow takes its ideal FCT; the
#     timeouts column is checked to be 0)                                              n
#   the ACKs: one per segment (DelAckCount 1), nothing piggybacked (the receiver sends no data),
#     no window updates (the receive buffer is 1 GiB)                                  n
# and nothing else: connections are never closed (no FIN, see PfabricFlowApplication),
# the fabric's links have no ARP, and the run stops at the last ACK's arrival. So
# packet_hops = (3 + 2 n) x L, whatever the scheme (pFabric, TCP-DropTail).
PATHS = {
    # name: (fabric options, src, dst, links)
    "star": (("--topology=star", "--hosts=2"), 0, 1, 2),
    "fattree-rack": (("--topology=fattree", "--k=4"), 0, 1, 2),
    "fattree-pod": (("--topology=fattree", "--k=4"), 0, 2, 4),
    "fattree-core": (("--topology=fattree", "--k=4"), 0, 15, 6),
}


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("packets", [1, 100])
@pytest.mark.parametrize("scheme", ["pfabric", "tcp"])
def test_packet_hops_of_a_lone_flow(run_example: RunExample, tmp_path: Path, path: str,
                                    packets: int, scheme: str) -> None:
    fabric, src, dst, links = PATHS[path]
    meta = lone_flow_meta(run_example, tmp_path, fabric, src, dst, packets, scheme)
    assert meta["packet_hops"] == (3 + 2 * packets) * links
    assert meta["drops_host_ports"] == meta["drops_switch_ports"] == 0


@pytest.mark.parametrize("pairs,where", [("0,1 0,2", "host"), ("0,2 1,2", "switch")])
def test_drops_are_counted_at_the_overloaded_kind_of_port(run_example: RunExample,
                                                          tmp_path: Path, pairs: str,
                                                          where: str) -> None:
    """Two LineRate flows of 200 segments at once, each sent at line rate: from one host to two
    (its own port takes twice its rate and drops; the switch forwards at most line rate to each
    receiver), or from two hosts to one (the switch's port to the receiver drops). Every drop is
    then resent, so the run completes, and the drops are counted at that kind of port only."""
    flows = tmp_path / "flows.csv"
    flows.write_text("src,dst,size_bytes,start_s\n" + "".join(
        f"{pair},{200 * SEGMENT},0.001\n" for pair in pairs.split()))
    out = tmp_path / "run"
    result = run_example("pfabric-websearch", "--quiet", "--topology=star", "--hosts=3",
                         "--scheme=linerate", f"--flowFile={flows}", f"--out={out}")
    assert result.returncode == 0, result.stderr
    meta = json.loads((out / "meta.json").read_text())
    assert meta["flows_completed"] == 2
    other = "switch" if where == "host" else "host"
    assert meta[f"drops_{where}_ports"] > 0 and meta[f"drops_{other}_ports"] == 0


def test_rss_samples_follow_the_run(run_example: RunExample, tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = run_example("pfabric-websearch", "--quiet", "--topology=star", "--hosts=4",
                         "--flows=250", "--load=0.4", f"--out={out}")
    assert result.returncode == 0, result.stderr
    meta = json.loads((out / "meta.json").read_text())
    samples = meta["rss_samples"]
    # Before the run, then every 3rd flow (ceil(250 / 100)), then the last.
    assert [s[1] for s in samples] == [0, *range(3, 250, 3), 250]
    assert samples[0][0] == 0 and samples[-1][0] == pytest.approx(meta["simulated_time_s"])
    assert all(len(s) == 4 for s in samples)
    times = [s[0] for s in samples]
    rss = [s[2] for s in samples]
    walls = [s[3] for s in samples]
    assert times == sorted(times) and rss == sorted(rss)  # peak RSS never falls
    assert walls == sorted(walls) and 0 <= walls[0] and walls[-1] <= meta["wall_time_s"]
    assert 0 < rss[0] and rss[-1] <= meta["peak_rss_bytes"]
    assert meta["packet_hops"] > 0


def test_unfinished_run_samples_its_end(run_example: RunExample, tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = run_example("pfabric-datamining", "--quiet", "--topology=star", "--hosts=4",
                         "--flows=50", "--scheme=tcp", "--maxSimTime=2ms", f"--out={out}")
    assert result.returncode == 0, result.stderr
    meta = json.loads((out / "meta.json").read_text())
    assert meta["flows_unfinished"] > 0
    assert meta["rss_samples"][-1][:2] == [pytest.approx(0.002), meta["flows_completed"]]


# ---------------------------------------------------------------------------------------------
# The driver.

RUN_FIELDS = {"name", "wall_time_s", "process_wall_s", "process_cpu_s", "simulated_time_s",
              "events", "events_per_s", "packet_hops", "packet_hops_per_s", "ns_per_packet_hop",
              "cpu_ns_per_packet_hop", "flows", "flows_per_s", "peak_rss_bytes"}


def test_bench_smoke_writes_every_scenario(tmp_path: Path) -> None:
    build = os.environ.get("PFABRIC_BUILD_DIR")
    if not build:
        pytest.skip("needs the build: run through ./pfabric test")
    out = tmp_path / "bench.json"
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "pfabric_bench.py"),
                             "--size=smoke", f"--build-dir={build}", f"--out={out}"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    document = json.loads(out.read_text())
    assert document["complete"] and document["size"] == "smoke"
    assert set(document["scenarios"]) == set(bench.SCENARIOS)
    assert document["machine"]["cores"] >= 1 and document["machine"]["cpu_model"]
    software = document["software"]
    assert software["module_version"] == (ROOT / "VERSION").read_text().strip()
    assert software["build_type"] and "ns3_version" in software
    for name, scenario in document["scenarios"].items():
        assert scenario["status"] == "ok", name
        assert scenario["runs"], name
        for run in scenario["runs"]:
            assert RUN_FIELDS <= set(run), (name, RUN_FIELDS - set(run))
            assert run["wall_time_s"] > 0 and run["peak_rss_bytes"] > 0, name
            assert run["events"] > 0 and run["events_per_s"] > 0, name
            if name != "ideal":  # a flow-level scheduler: no packets
                assert run["packet_hops"] > 0 and run["simulated_time_s"] > 0, name
                assert run["packet_hops_per_s"] == pytest.approx(
                    run["packet_hops"] / run["wall_time_s"])
            if name != "forwarding":  # UDP packets, no flows
                assert run["flows"] > 0 and run["flows_per_s"] > 0, name
    forwarding = document["scenarios"]["forwarding"]
    assert {r["name"] for r in forwarding["runs"]} == {"k4-pfabric", "k4-ns3"}
    pfabric, ns3 = forwarding["runs"]
    # The same packets over the same links: the same hops, every packet delivered.
    assert pfabric["packet_hops"] == ns3["packet_hops"]
    assert pfabric["delivered"] == ns3["delivered"] == pfabric["packets"]
    assert forwarding["pfabric_over_ns3_per_packet_hop"]["k4"] > 0
    assert forwarding["pfabric_over_ns3_per_packet_hop_cpu"]["k4"] > 0
    websearch = document["scenarios"]["websearch-sigcomm13"]
    assert [r["name"] for r in websearch["runs"]] == ["pfabric", "tcp"]
    assert all(r["hosts"] == 144 and r["flows"] == 20 for r in websearch["runs"])
    assert all(0 < r["connections_opened"] <= r["flows"] for r in websearch["runs"])
    assert all(r["scheduler"] == "ns3::PriorityQueueScheduler" for r in websearch["runs"])
    assert "--flowFile" in " ".join(websearch["runs"][1]["command"])
    scale = document["scenarios"]["scale"]
    assert [(r["hosts"], r["host_stack"]) for r in scale["runs"]] == [
        (16, "ns3tcp"), (16, "lean"), (8, "ns3tcp"), (8, "lean")]
    assert all(r["fabric_build_s"] > 0 and r["flows"] == r["hosts"] for r in scale["runs"])
    assert "--hostStack=lean" in scale["runs"][1]["command"]
    assert scale["growth"] == {}  # the smoke size has no 432-host fat-tree
    (memory,) = document["scenarios"]["memory"]["runs"]
    assert memory["rss_samples"] and memory["rss_end_bytes"] >= memory["rss_start_bytes"]
    assert "late_over_early_pace" in memory
    (ideal,) = document["scenarios"]["ideal"]["runs"]
    assert ideal["flows"] == 1000 and ideal["preemptions"] >= 0
    assert "forwarding k4: pfabric / ns-3 per packet hop" in result.stdout
    host_stack = document["scenarios"]["host-stack"]
    # Two repetitions at the smoke size, the second in the reverse order.
    assert [(r["scheme"], r["host_stack"], r["repetition"]) for r in host_stack["runs"]] == [
        (scheme, stack, n) for scheme in ("pfabric", "linerate", "tcp", "dctcp")
        for stack, n in (("ns3tcp", 1), ("lean", 1), ("lean", 2), ("ns3tcp", 2))]
    assert all(r["flows"] == 20 for r in host_stack["runs"])
    assert all(f"--hostStack={r['host_stack']}" in r["command"] for r in host_stack["runs"])
    for scheme in ("pfabric", "linerate", "tcp", "dctcp"):
        summary = host_stack["summary"][scheme]
        repeated = summary["lean_cpu_over_ns3tcp_repetitions"]
        assert len(repeated["by_repetition"]) == 2
        assert all(value > 0 for value in repeated["by_repetition"])
        assert summary["lean_cpu_over_ns3tcp"] == pytest.approx(
            sum(repeated["by_repetition"]) / 2)  # the median of two
        assert summary["same_fct_every_repetition"] is True  # the same seed, the same fct.csv
        assert summary["lean_events_per_packet_hop"] > 0
        assert "(0,100KB] p99" in summary["lean_fct_over_ns3tcp"]
        assert isinstance(summary["within_fidelity_bounds"], bool)
        # Events per packet hop are a measurement; their target is retired (issue 51).
        assert "within_events_target" not in summary
    # Without --against, the lean host's ratio to 74ef159 is not measured.
    (baseline,) = host_stack["targets"]
    assert (baseline["target"], baseline["verdict"], baseline["measured"]) == (
        "lean_pfabric_cpu_over_baseline", "not measured", None)
    assert baseline["no_verdict_reason"] == "no --against"
    datamining = document["scenarios"]["datamining-sigcomm13"]
    # Every scheme on the lean host, on the same 20 flows (the list written before the runs).
    assert [(r["scheme"], r["host_stack"], r["build"]) for r in datamining["runs"]] == [
        (scheme, "lean", "this") for scheme in ("pfabric", "linerate", "tcp", "dctcp")]
    assert all(r["flows"] == 20 and r["flows_unfinished"] == 0 for r in datamining["runs"])
    assert all(r["command"][0] == "pfabric-datamining" and "--hostStack=lean" in r["command"]
               and "--load=0.8" in r["command"] and "--preset=sigcomm13" in r["command"]
               and any(w.startswith("--flowFile=") for w in r["command"])
               for r in datamining["runs"])
    for scheme, run in zip(("pfabric", "linerate", "tcp", "dctcp"), datamining["runs"]):
        assert datamining["summary"][scheme]["cpu_s"] == run["process_cpu_s"] > 0
        assert datamining["summary"][scheme]["events_per_packet_hop"] > 0
    # The 15-minute target is for 10,000 flows: reported on 20, with no verdict.
    assert [(t["target"], t["verdict"], t["limit"], t["stated_cpu"])
            for t in datamining["targets"]] == [
        (f"datamining_{scheme}_cpu", "no verdict", 900, "Intel Xeon")
        for scheme in ("pfabric", "linerate", "tcp", "dctcp")]
    assert all(t["measured"] > 0 and t["cpu_model"] == document["machine"]["cpu_model"]
               for t in datamining["targets"])
    (rss,) = document["scenarios"]["memory"]["targets"]
    assert (rss["verdict"], rss["measured"], rss["limit"]) == (
        "no verdict", memory["peak_rss_bytes"], 10 ** 9)
    assert [t["target"] for t in document["targets"]] == [
        "memory_peak_rss", "lean_pfabric_cpu_over_baseline",
        *(f"datamining_{scheme}_cpu" for scheme in ("pfabric", "linerate", "tcp", "dctcp"))]
    assert result.stdout.count("target: ") == 2 * 6  # under its scenario, then at the end
    allocator = document["scenarios"]["allocator"]
    if software["allocator_preload"] is None:  # the sanitizer build's run, or no wheel
        assert allocator["summary"]["compared"] is False
        assert {r["allocator"] for r in allocator["runs"]} == {"system"}
        return
    assert allocator["summary"]["compared"] is True
    # Each scheme once per allocator (smoke: one repetition), every run saying which allocator
    # served it, and the allocator changing no result.
    assert [(r["scheme"], r["allocator_choice"]) for r in allocator["runs"]] == [
        ("pfabric", "system"), ("pfabric", "mimalloc"), ("tcp", "system"), ("tcp", "mimalloc")]
    for run in allocator["runs"]:
        assert run["allocator"] == "system" if run["allocator_choice"] == "system" \
            else run["allocator"].startswith("mimalloc ")
    for scheme in ("pfabric", "tcp"):
        summary = allocator["summary"][scheme]
        assert summary["same_fct"] is True
        assert len(summary["mimalloc_cpu_over_system"]) == 1 and summary["median"] > 0
    # The other scenarios ran under the preloaded allocator.
    assert all(r["allocator"].startswith("mimalloc ") for r in websearch["runs"])


def test_bench_runs_the_programs_of_an_ns3_tree(tmp_path: Path) -> None:
    """--bin-dir: programs named as an ns-3 tree names them (ns3.37-NAME-optimized) are found,
    run, and the JSON says which build ran, down to the commit of the tree's contrib/pfabric."""
    build = os.environ.get("PFABRIC_BUILD_DIR")
    if not build:
        pytest.skip("needs the build: run through ./pfabric test")
    examples = tmp_path / "ns-3.37" / "build" / "contrib" / "pfabric" / "examples"
    examples.mkdir(parents=True)
    module = tmp_path / "ns-3.37" / "contrib" / "pfabric"
    module.mkdir(parents=True)
    git = ["git", "-C", str(module), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "tree"], check=True)
    tree_commit = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True,
                                 check=True).stdout.strip()
    for name in ("pfabric-websearch", "pfabric-fabric"):
        (examples / f"ns3.37-{name}-optimized").symlink_to(Path(build) / "bin" / name)
    out = tmp_path / "bench.json"
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "pfabric_bench.py"),
                             "--size=smoke", "--only=scale", f"--bin-dir={examples.parents[2]}",
                             f"--out={out}"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    document = json.loads(out.read_text())
    assert document["complete"]
    software = document["software"]
    assert (software["ns3_version"], software["ns3_profile"]) == ("3.37", "optimized")
    assert software["bin_dir"] == str(examples.parents[2])
    assert software["bin_dir_git_commit"] == tree_commit != software["git_commit"]
    runs = document["scenarios"]["scale"]["runs"]
    assert [r["command"][0] for r in runs] == ["ns3.37-pfabric-websearch-optimized"] * 4
    assert all(r["packet_hops"] > 0 for r in runs)


def test_bench_against_another_build_on_the_same_flows(tmp_path: Path) -> None:
    """--against: each scheme runs with the other build's programs, then this build's, on the
    same flows (--websearch-flows of them); the JSON has both runs, the ratio of processor times and whether fct.csv is
    identical (here the other build is this one, so it is, and the ratio is near 1)."""
    build = os.environ.get("PFABRIC_BUILD_DIR")
    if not build:
        pytest.skip("needs the build: run through ./pfabric test")
    out = tmp_path / "bench.json"
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "pfabric_bench.py"),
                             "--size=smoke", "--only=websearch-sigcomm13", "--websearch-flows=12",
                             f"--build-dir={build}", f"--against={Path(build) / 'bin'}",
                             f"--out={out}"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    document = json.loads(out.read_text())
    assert document["against"]["bin_dir"] == str(Path(build) / "bin")
    # built inside this checkout (or, with PFABRIC_BUILD_DIR elsewhere, not in one)
    assert document["against"]["git_commit"] in (document["software"]["git_commit"], None)
    scenario = document["scenarios"]["websearch-sigcomm13"]
    assert [r["name"] for r in scenario["runs"]] == [
        "pfabric-against", "pfabric", "tcp-against", "tcp"]
    assert all(r["flows"] == 12 for r in scenario["runs"])  # --websearch-flows
    summary = scenario["summary"]
    for scheme in ("pfabric", "tcp"):
        assert summary[f"{scheme}_same_fct_as_against"] is True
        # The same program twice: processor times agree within a factor of 2 on any machine.
        assert 0.5 < summary[f"{scheme}_cpu_over_against"] < 2.0
        assert summary[f"{scheme}_events_per_packet_hop"] == pytest.approx(
            summary[f"{scheme}_events_per_packet_hop_against"])
    assert "processor time" in result.stdout and "fct.csv identical" in result.stdout


def test_bench_datamining_against_another_build_on_the_same_flows(tmp_path: Path) -> None:
    """datamining-sigcomm13 with --against: each scheme first with the other build's programs,
    on its lean host (it has one: here it is this build), then this build's, on the same flows;
    the ratio of processor times and whether fct.csv is identical (it is)."""
    build = os.environ.get("PFABRIC_BUILD_DIR")
    if not build:
        pytest.skip("needs the build: run through ./pfabric test")
    out = tmp_path / "bench.json"
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "pfabric_bench.py"),
                             "--size=smoke", "--only=datamining-sigcomm13", f"--build-dir={build}",
                             f"--against={Path(build) / 'bin'}", "--against-label=8721607",
                             f"--out={out}"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    document = json.loads(out.read_text())
    assert document["against"]["label"] == "8721607"
    scenario = document["scenarios"]["datamining-sigcomm13"]
    schemes = ("pfabric", "linerate", "tcp", "dctcp")
    assert [(r["name"], r["build"], r["host_stack"]) for r in scenario["runs"]] == [
        (name, build, "lean") for scheme in schemes
        for name, build in ((f"{scheme}-against", "against"), (scheme, "this"))]
    flow_files = {w for r in scenario["runs"] for w in r["command"] if w.startswith("--flowFile=")}
    assert len(flow_files) == 1
    summary = scenario["summary"]
    assert summary["against_build"] == "8721607"
    for scheme in schemes:
        figures = summary[scheme]
        assert figures["same_fct_as_against"] is True and figures["against_host_stack"] == "lean"
        assert figures["cpu_over_against"] == pytest.approx(
            figures["cpu_s"] / figures["against_cpu_s"])
    # The data mining target is this build's, whatever --against is; at 20 flows no verdict.
    assert {t["verdict"] for t in scenario["targets"]} == {"no verdict"}
    assert "of --against's (lean), fct.csv identical" in result.stdout


def test_against_a_build_older_than_the_camel_case_options_gets_their_old_names(
        tmp_path: Path) -> None:
    """Before the programs' options took ns-3's camelCase, pfabric-websearch took --flow-file and
    --dump-flows: the driver reads an --against program's --PrintHelp and names them so."""
    old = tmp_path / "pfabric-websearch"
    old.write_text("#!/bin/sh\necho 'Program Options:'\necho '    --flow-file:  replay'\n"
                   "echo '    --dump-flows:  write'\n")
    old.chmod(0o755)
    assert not bench.takes_camel_case_options(str(old))
    assert bench.dashed(["--scheme=tcp", "--flowFile=f.csv", "--dumpFlows=g.csv", "--flows=5",
                         "flowFile"]) == ["--scheme=tcp", "--flow-file=f.csv",
                                          "--dump-flows=g.csv", "--flows=5", "flowFile"]
    build = os.environ.get("PFABRIC_BUILD_DIR")
    if not build:
        pytest.skip("needs the build: run through ./pfabric test")
    assert bench.takes_camel_case_options(str(Path(build) / "bin" / "pfabric-websearch"))


def test_bench_against_without_programs_is_one_line_error(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "pfabric_bench.py"),
                             "--size=smoke", "--only=websearch-sigcomm13",
                             f"--against={tmp_path}", f"--out={out}"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr.strip().startswith(f"pfabric bench: error: --against {tmp_path}")
    assert result.stderr.strip().count("\n") == 0 and not out.exists()


@pytest.mark.parametrize("setup", ["missing", "empty"])
def test_bench_bin_dir_without_programs_is_one_line_error(tmp_path: Path, setup: str) -> None:
    bin_dir = tmp_path / "build"
    if setup == "empty":
        bin_dir.mkdir()
    out = tmp_path / "bench.json"
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "pfabric_bench.py"),
                             "--size=smoke", "--only=scale", f"--bin-dir={bin_dir}",
                             f"--out={out}"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() + result.stdout.splitlines()
              if "bin-dir" in line]
    assert errors and str(bin_dir) in errors[0], result.stdout + result.stderr
    assert result.stderr.strip().count("\n") == 0 and not out.exists()


def test_scale_growth_per_host_stack() -> None:
    small, large = bench.SCALE_GROWTH_SHAPES
    runs = [{"name": small, "host_stack": "ns3tcp", "cpu_ns_per_packet_hop": 2000.0},
            {"name": small, "host_stack": "lean", "cpu_ns_per_packet_hop": 1000.0},
            {"name": "leafspine-9x16x4", "host_stack": "lean", "cpu_ns_per_packet_hop": 9e9},
            {"name": large, "host_stack": "ns3tcp", "cpu_ns_per_packet_hop": 3000.0},
            {"name": large, "host_stack": "lean", "cpu_ns_per_packet_hop": 1250.0}]
    assert bench.scale_growth(runs) == {
        "ns3tcp": {"cpu_per_hop_growth": 1.5, "within_target": False},
        "lean": {"cpu_per_hop_growth": 1.25, "within_target": True}}
    assert bench.scale_growth(runs[:3]) == {}


def test_verdict_against_a_limit() -> None:
    assert bench.verdict(0.24, 0.25) == bench.verdict(0.25, 0.25) == "met"
    assert bench.verdict(0.2501, 0.25) == "not met"
    # under the limit: equal is not under
    assert bench.verdict(10 ** 9, 10 ** 9, strictly=True) == "not met"
    assert bench.verdict(10 ** 9 - 1, 10 ** 9, strictly=True) == "met"
    assert bench.verdict(None, 0.25) == "not measured"
    assert bench.verdict(None, 0.25, no_verdict="why") == "not measured"
    assert bench.verdict(0.1, 0.25, no_verdict="20 flows") == "no verdict"
    assert bench.verdict(9.0, 0.25, no_verdict="20 flows") == "no verdict"


def test_a_target_has_a_verdict_only_at_its_size() -> None:
    assert bench.size_no_verdict(10000, 10000) is None
    assert bench.size_no_verdict(300, 10000) == "300 flows, the target is for 10,000"
    for size in ("quick", "smoke"):
        assert bench.size_no_verdict(bench.DATAMINING_FLOWS[size],
                                     bench.DATAMINING_FLOWS["full"]) is not None
        assert bench.size_no_verdict(bench.MEMORY_FLOWS[size], bench.MEMORY_FLOWS["full"])
    assert (bench.DATAMINING_FLOWS["full"], bench.MEMORY_FLOWS["full"]) == (10000, 100000)


@pytest.mark.parametrize("against,flows,reason", [
    ("74ef159", 2000, None),
    ("74ef159a4a0e5a1bb9a5d5e9ec8b0bd8e6a0c6d2", 2000, None),  # a full commit
    ("74EF159", 2000, None),
    ("74ef159", 10000, "10,000 flows, the target is for 2,000"),
    ("74ef159", 20, "20 flows, the target is for 2,000"),
    ("d189825", 2000, "--against is d189825, not 74ef159; --against-label 74ef159 if it is"),
    ("74ef159a4a0e-dirty", 2000, "--against is 74ef159a4a0e-dirty, not 74ef159; "
                                 "--against-label 74ef159 if it is"),
    ("74ef", 2000, "--against is 74ef, not 74ef159; --against-label 74ef159 if it is"),
    (None, 2000, "--against is a build of unknown commit, not 74ef159; "
                 "--against-label 74ef159 if it is"),
])
def test_the_baseline_ratio_has_a_verdict_only_against_74ef159_at_2000_flows(
        against: str | None, flows: int, reason: str | None) -> None:
    assert bench.baseline_no_verdict(flows, against) == reason


def test_the_against_build_is_named_by_label_then_meta_then_checkout() -> None:
    assert bench.build_name("74ef159", "abc1234", "def5678") == "74ef159"
    assert bench.build_name(None, "unknown", "abc1234-dirty", "def5678") == "abc1234-dirty"
    assert bench.build_name(None, None, "unknown") is None
    ctx = bench.Context(build=Path("b"), size="smoke", work=Path("w"), say=print,
                        against=Path("a"), against_checkout="def5678")
    runs = [{"build": "this", "_meta": {"git_commit": "1111111"}},
            {"build": "against", "_meta": {"git_commit": "unknown"}},
            {"build": "against", "_meta": {}}]  # 74ef159's meta.json has no git_commit
    assert bench.against_build(ctx, runs) == "def5678"
    runs.append({"build": "against", "_meta": {"git_commit": "2222222"}})
    assert bench.against_build(ctx, runs) == "2222222"
    ctx.against_label = "74ef159"
    assert bench.against_build(ctx, runs) == "74ef159"
    ctx.against = None
    assert bench.against_build(ctx, runs) is None


def test_cpu_kind() -> None:
    assert bench.cpu_kind("Intel(R) Xeon(R) Processor") == "Intel Xeon"
    assert bench.cpu_kind("Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz") == "Intel Xeon"
    assert bench.cpu_kind("AMD EPYC 7B13") == "AMD EPYC"
    assert bench.cpu_kind("Apple M2") is None and bench.cpu_kind(None) is None


def test_target_records_and_lines_name_the_cpu() -> None:
    xeon, epyc = "Intel(R) Xeon(R) Processor", "AMD EPYC 7B13"
    met = bench.target_record(bench.BASELINE_RATIO, 0.2, epyc)
    assert (met["verdict"], met["within_target"], met["no_verdict_reason"]) == ("met", True, None)
    assert (met["limit"], met["comparison"], met["cpu_kind"]) == (0.25, "at most", "AMD EPYC")
    assert bench.target_line(met) == (
        "target: MinTCP+pFabric on the lean host, processor time over 74ef159's, 2,000 web "
        "search flows (sigcomm13, load 0.6): at most 0.250; measured 0.200 on AMD EPYC 7B13: met")
    missed = bench.target_record(bench.BASELINE_RATIO, 0.41, xeon,
                                 bench.baseline_no_verdict(2000, "74ef159"))
    assert (missed["verdict"], missed["within_target"]) == ("not met", False)
    assert bench.target_line(missed).endswith("measured 0.410 on Intel(R) Xeon(R) Processor: "
                                              "not met")
    other = bench.target_record(bench.BASELINE_RATIO, 0.2, xeon,
                                bench.baseline_no_verdict(2000, "d189825"))
    assert (other["verdict"], other["within_target"]) == ("no verdict", None)
    assert bench.target_line(other).endswith(
        ": no verdict (--against is d189825, not 74ef159; --against-label 74ef159 if it is)")
    # The data mining target is stated on a Xeon: a verdict elsewhere says so.
    dm = bench.target_record(bench.datamining_target("tcp"), 901.0, xeon)
    assert (dm["target"], dm["verdict"], dm["cpu_as_stated"]) == (
        "datamining_tcp_cpu", "not met", True)
    assert bench.target_line(dm) == (
        "target: TCP-DropTail on the lean host, processor time of 10,000 data mining flows "
        "(sigcomm13, load 0.8): at most 900.0 s (15.0 min); measured 901.0 s (15.0 min) on "
        "Intel(R) Xeon(R) Processor: not met")
    on_amd = bench.target_record(bench.datamining_target("pfabric"), 600.0, epyc)
    assert (on_amd["verdict"], on_amd["cpu_as_stated"]) == ("met", False)
    assert bench.target_line(on_amd).endswith(
        ": met; the target is stated on an Intel Xeon, not measured on one")
    small = bench.target_record(bench.datamining_target("dctcp"), 0.5, xeon,
                                bench.size_no_verdict(20, 10000))
    assert small["verdict"] == "no verdict" and small["within_target"] is None
    rss = bench.target_record(bench.MEMORY_RSS, 468_500_000, xeon)
    assert (rss["verdict"], rss["comparison"]) == ("met", "under")
    assert "under 1.000 GB (953.7 MiB); measured 0.469 GB (446.8 MiB)" in bench.target_line(rss)
    unmeasured = bench.target_record(bench.BASELINE_RATIO, None, None, "no --against")
    assert bench.target_line(unmeasured).endswith(
        "measured nothing on an unknown CPU: not measured (no --against)")


def test_all_targets_in_scenario_order() -> None:
    scenarios = {"memory": {"targets": [{"target": "a"}]}, "scale": {"runs": []},
                 "host-stack": {"targets": [{"target": "b"}, {"target": "c"}]}}
    assert bench.all_targets(scenarios) == [
        {"scenario": "memory", "target": "a"}, {"scenario": "host-stack", "target": "b"},
        {"scenario": "host-stack", "target": "c"}]


def test_parse_ideal_bench() -> None:
    text = ("ideal-bench: 144 hosts, load 0.8, seed 1\nflows 100000\nevents 200000\n"
            "preemptions 226699\npeak_active 661\nwall time 1.012 s\nflows/s 98814\n")
    assert bench.parse_ideal_bench(text) == {
        "flows": 100000, "events": 200000, "preemptions": 226699, "peak_active": 661,
        "wall_time_s": 1.012, "hosts": 144, "load": 0.8, "seed": 1}
    with pytest.raises(bench.BenchError, match="wall time"):
        bench.parse_ideal_bench(text.replace("wall time", "time"))


def test_parse_fabric() -> None:
    text = ("topology leafspine: 144 hosts, 13 switches, 180 links; built in 0.0212 s\n"
            "host 0 -> host 1 (10.0.0.2, same rack, 2 links): base RTT +5.2us\n")
    assert bench.parse_fabric(text) == {"topology": "leafspine", "hosts": 144, "switches": 13,
                                        "links": 180, "build_s": 0.0212}


def test_rss_growth_is_the_least_squares_slope() -> None:
    samples = [[0, 0, 1000], [0.1, 10, 1500], [0.2, 20, 2000], [0.3, 30, 2500]]
    assert bench.rss_growth(samples) == {"rss_start_bytes": 1000, "rss_end_bytes": 2500,
                                         "rss_bytes_per_flow": pytest.approx(50)}
    assert bench.rss_growth([[0, 0, 1000]])["rss_bytes_per_flow"] is None


def test_flow_pace_compares_early_and_late_flows() -> None:
    # 100 flows; a flow takes 10 ms until 50 are done, then 30 ms.
    samples = [[0, 0, 1, 0.0]]
    for done in range(10, 101, 10):
        samples.append([done * 1e-3, done, 1, 0.01 * min(done, 50) + 0.03 * max(done - 50, 0)])
    pace = bench.flow_pace(samples)
    assert pace["wall_s_per_flow_10_20pct"] == pytest.approx(0.01)
    assert pace["wall_s_per_flow_80_90pct"] == pytest.approx(0.03)
    assert pace["late_over_early_pace"] == pytest.approx(3)
    assert bench.flow_pace([s[:3] for s in samples])["late_over_early_pace"] is None


def write_fct_run(directory: Path, rows: list[tuple[int, float, float]]) -> Path:
    """A run directory with one flow per (size_bytes, fct_s, ideal_fct_s)."""
    directory.mkdir()
    lines = ["flow_id,src,dst,size_bytes,start_s,fct_s,ideal_fct_s,timeouts,completed"]
    lines += [f"{i},0,1,{size},0,{fct},{ideal},0,1" for i, (size, fct, ideal) in enumerate(rows)]
    (directory / "fct.csv").write_text("\n".join(lines) + "\n")
    (directory / "meta.json").write_text(json.dumps({"parameters": {}}))
    return directory


def test_fct_ratios_compare_bin_means_and_small_flow_p99(tmp_path: Path) -> None:
    # Small flows: slowdowns 1 and 3 (mean 2, p99 3) against 1 and 1; a medium flow 2 against 4.
    mine = write_fct_run(tmp_path / "mine", [(1000, 1, 1), (2000, 3, 1), (200000, 2, 1)])
    theirs = write_fct_run(tmp_path / "theirs", [(1000, 1, 1), (2000, 1, 1), (200000, 4, 1)])
    ratios = bench.fct_ratios(mine, theirs)
    assert ratios["(0,100KB] mean"] == pytest.approx(2.0)
    assert ratios["(0,100KB] p99"] == pytest.approx(3.0)
    assert ratios["(100KB,10MB] mean"] == pytest.approx(0.5)
    assert ratios["all mean"] == pytest.approx(2.0 / 2.0)
    assert "(10MB,inf) mean" not in ratios  # no flow there


def test_allocator_summary_pairs_runs_of_a_repetition() -> None:
    runs = [{"scheme": scheme, "allocator_choice": choice, "repetition": n, "process_cpu_s": cpu}
            for scheme, choice, n, cpu in [
                ("pfabric", "system", 1, 10.0), ("pfabric", "mimalloc", 1, 9.0),
                ("pfabric", "mimalloc", 2, 8.0), ("pfabric", "system", 2, 10.0),
                ("pfabric", "system", 3, 10.0), ("pfabric", "mimalloc", 3, 9.5),
                ("tcp", "system", 1, 4.0), ("tcp", "mimalloc", 1, 5.0)]]
    summary = bench.allocator_summary(runs, {"pfabric": True, "tcp": False})
    assert summary["pfabric"] == {"mimalloc_cpu_over_system": [0.9, 0.8, 0.95], "median": 0.9,
                                  "min": 0.8, "max": 0.95, "same_fct": True}
    assert summary["tcp"]["mimalloc_cpu_over_system"] == [1.25]
    assert summary["tcp"]["same_fct"] is False


def test_repeated_ratios_pair_the_runs_of_a_repetition() -> None:
    records = {(stack, n): {"process_cpu_s": cpu} for stack, n, cpu in [
        ("ns3tcp", 1, 10.0), ("lean", 1, 4.0), ("lean", 2, 6.0), ("ns3tcp", 2, 12.0),
        ("lean", 3, 3.0), ("ns3tcp", 3, 10.0)]}
    assert bench.repeated_ratios(records, "lean", "ns3tcp") == {
        "by_repetition": [0.4, 0.5, 0.3], "median": 0.4, "min": 0.3, "max": 0.5}


def test_metrics_derive_rates() -> None:
    record = bench.metrics("x", wall_s=2.0, simulated_s=0.01, events=1000, packet_hops=400,
                           flows=10, peak_rss_bytes=1, process_wall_s=2.5, process_cpu_s=1.2)
    assert (record["events_per_s"], record["packet_hops_per_s"], record["flows_per_s"]) == (
        500, 200, 5)
    assert record["ns_per_packet_hop"] == pytest.approx(5e6)
    assert record["cpu_ns_per_packet_hop"] == pytest.approx(3e6)
    own = bench.metrics("z", wall_s=2.0, simulated_s=0.01, events=1000, packet_hops=400,
                        flows=None, peak_rss_bytes=1, process_wall_s=2.5, process_cpu_s=1.2,
                        cpu_s=0.4)
    assert own["cpu_ns_per_packet_hop"] == pytest.approx(1e6)
    none = bench.metrics("y", wall_s=1.0, simulated_s=None, events=5, packet_hops=None,
                         flows=None, peak_rss_bytes=1, process_wall_s=1.0, process_cpu_s=1.0)
    assert none["packet_hops_per_s"] is None and none["ns_per_packet_hop"] is None
    assert bench.row("s", none).split()[:2] == ["s", "y"]


def test_shapes_and_options() -> None:
    assert bench.shape_options("fattree-k12") == (
        "hotnets12", ["--topology=fattree", "--k=12"], 432)
    assert bench.shape_options("leafspine-32x32x8")[2] == 1024
    for size in bench.SIZES:
        for shape in bench.SCALE_SHAPES[size]:
            bench.shape_options(shape)
    assert bench.parse_args(["--quick"]).size == "quick"
    assert bench.parse_args([]).size == "full"
    assert bench.parse_args(["--only", "scale,ideal"]).only == ("scale", "ideal")
    with pytest.raises(SystemExit):
        bench.parse_args(["--only", "nonsense"])
    assert bench.parse_args(["--against", "d", "--against-label", "74ef159"]).against_label \
        == "74ef159"
    with pytest.raises(SystemExit):
        bench.parse_args(["--against-label", "74ef159"])  # names no --against build
