"""The custom scheme (--scheme=custom, PfabricCustomScheme): ns-3 parts by name on pFabric's
flows and FCT measurement, recorded in meta.json; assembled from the built-in schemes' own parts it
is those schemes, byte for byte."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from conftest import RunExample

# A 4-host star keeps these runs to a second or two.
STAR = ("--topology=star", "--hosts=4", "--quiet")
# CoDel tuned for a 10 Gb/s fabric (ns-3's 5 ms target would never act on a 150-packet queue).
FQCODEL_CUBIC = ("--scheme=custom", "--portQueueDisc=ns3::FqCoDelQueueDisc",
                 "--portQueueDiscAttributes=Interval=100us|Target=10us",
                 "--tcpCongestionOps=ns3::TcpCubic", "--tcpCongestionOpsAttributes=Beta=0.8")
# TCP-DropTail's and DCTCP's parts (PfabricSchemeHelper, hotnets12): what --scheme=tcp and
# --scheme=dctcp install, named as a custom scheme.
TCP_PARTS = ("--scheme=custom", "--portQueueDisc=ns3::FifoQueueDisc",
             "--tcpCongestionOps=ns3::TcpNewReno")
DCTCP_PARTS = ("--scheme=custom", "--portQueueDisc=ns3::RedQueueDisc",
               "--portQueueDiscAttributes=MinTh=15|MaxTh=15|QW=1|UseEcn=true|UseHardDrop=false"
               "|Gentle=false|MeanPktSize=1500|LinkBandwidth=10Gbps",
               "--tcpCongestionOps=ns3::PfabricDctcp",
               "--tcpCongestionOpsAttributes=DctcpAlphaOnInit=0", "--tcpAttributes=UseEcn=On")
# pFabric's parts (hotnets12): its queue disc with its buffer and modes, MinTCP's sockets.
PFABRIC_PARTS = ("--scheme=custom", "--portQueueDisc=ns3::PfabricQueueDisc",
                 "--portQueueDiscAttributes=MaxSize=22500B|DequeueMode=EarliestOfMostUrgentFlow"
                 "|AdmissionMode=Strict", "--tcpAttributes=SocketType=ns3::PfabricMinTcpSocket")
OPTIONS = ["schemeLabel", "portQueueDisc", "portQueueDiscAttributes", "hostQueueDisc",
           "hostQueueDiscAttributes", "tcpCongestionOps", "tcpCongestionOpsAttributes",
           "tcpAttributes"]


def seconds(text: str) -> float:
    """An ns-3 Time as meta.json records it (e.g. +200000ns), in seconds."""
    parsed = re.fullmatch(r"\+?([0-9.e+-]+)(ns|us|ms|s)", text)
    assert parsed is not None, text
    number, unit = parsed.groups()
    return float(number) * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[unit]


def read_fct(directory: Path) -> list[dict[str, str]]:
    with open(directory / "fct.csv", newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture
def flow_file(run_example: RunExample, tmp_path: Path) -> Path:
    """40 web search flows at load 0.8 on the star: queues build, RED marks, FqCoDel drops."""
    flows = tmp_path / "flows.csv"
    result = run_example("pfabric-websearch", *STAR, "--flows=40", "--load=0.8", "--flowsOnly",
                         f"--dumpFlows={flows}")
    assert result.returncode == 0, result.stderr
    return flows


def test_ns3_parts_run_the_flows_and_meta_json_records_them(run_example: RunExample,
                                                            tmp_path: Path,
                                                            flow_file: Path) -> None:
    out = tmp_path / "fq"
    result = run_example("pfabric-websearch", *STAR, *FQCODEL_CUBIC, f"--flowFile={flow_file}",
                         f"--out={out}")
    assert result.returncode == 0, result.stderr
    rows = read_fct(out)
    assert len(rows) == 40 and all(r["completed"] == "1" for r in rows)
    assert all(float(r["fct_s"]) >= float(r["ideal_fct_s"]) for r in rows)
    meta = json.loads((out / "meta.json").read_text())
    parameters = meta["parameters"]
    assert parameters["scheme"] == "custom"
    # No --schemeLabel: the parts' short names.
    assert parameters["schemeLabel"] == "fqcodel-cubic"
    assert parameters["portQueueDiscAttributes"] == "Interval=100us|Target=10us"
    custom = meta["custom_scheme"]
    assert custom["label"] == "fqcodel-cubic"
    assert custom["parameters"] == OPTIONS
    port = custom["port_queue_disc"]
    assert port["type_id"] == "ns3::FqCoDelQueueDisc"
    # The given attributes, the preset's buffer and ns-3's defaults, as the run created them.
    assert port["attributes"]["Interval"] == "100us" and port["attributes"]["Target"] == "10us"
    assert port["attributes"]["MaxSize"] == "150p" and port["attributes"]["Flows"] == "1024"
    assert custom["host_queue_disc"] == port
    assert custom["tcp_congestion_ops"]["type_id"] == "ns3::TcpCubic"
    assert custom["tcp_congestion_ops"]["attributes"]["Beta"] == "0.8"
    # The sockets: their class's and TcpSocketBase's attributes (the preset's MinRto, no ECN
    # set), not those their factory sets on every socket; the factory's common settings.
    tcp = custom["tcp"]["attributes"]
    assert custom["tcp"]["type_id"] == "ns3::PfabricBaselineTcpSocket"
    assert seconds(tcp["MinRto"]) == pytest.approx(200e-6) and "UseEcn" not in tcp
    assert tcp["CongestionControl"].startswith("ns3::TcpCubic[") and "Sack" not in tcp
    factory = custom["tcp_socket_factory"]
    assert factory["type_id"] == "ns3::PfabricTcpSocketFactory"
    assert factory["attributes"]["InitialWindow"] == "12"
    assert "SocketType" not in factory["attributes"]


def test_a_label_names_the_run_directory(run_example: RunExample, tmp_path: Path) -> None:
    # run_example only to skip without the build; the default directory is under the cwd.
    program = Path(os.environ["PFABRIC_BUILD_DIR"]) / "bin" / "pfabric-websearch"
    result = subprocess.run([str(program), *STAR, "--flows=5", *FQCODEL_CUBIC,
                             "--schemeLabel=fq.cubic-0.8",
                             "--hostQueueDisc=ns3::PfifoFastQueueDisc"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    out = tmp_path / "results" / "websearch-hotnets12-fq.cubic-0.8-load0.6-flows5-seed1-run1"
    meta = json.loads((out / "meta.json").read_text())
    assert meta["parameters"]["schemeLabel"] == "fq.cubic-0.8"
    host = meta["custom_scheme"]["host_queue_disc"]
    # The host NICs' own queue disc: the preset's buffer, none of the ports' attributes.
    assert host["type_id"] == "ns3::PfifoFastQueueDisc" and host["attributes"]["MaxSize"] == "150p"


@pytest.mark.parametrize(("builtin", "parts"), [("tcp", TCP_PARTS), ("dctcp", DCTCP_PARTS),
                                                ("pfabric", PFABRIC_PARTS)])
def test_the_built_in_schemes_parts_are_the_built_in_scheme(run_example: RunExample,
                                                            tmp_path: Path, flow_file: Path,
                                                            builtin: str,
                                                            parts: tuple[str, ...]) -> None:
    outputs = {}
    for name, scheme in ((builtin, (f"--scheme={builtin}",)), ("custom", parts)):
        outputs[name] = tmp_path / name
        result = run_example("pfabric-websearch", *STAR, *scheme, f"--flowFile={flow_file}",
                             f"--out={outputs[name]}")
        assert result.returncode == 0, result.stderr
    fct = (outputs["custom"] / "fct.csv").read_bytes()
    assert fct == (outputs[builtin] / "fct.csv").read_bytes()
    # Not a trivially quiet run: flows queue behind each other (slowdowns well above 1).
    slowdowns = [float(r["fct_s"]) / float(r["ideal_fct_s"]) for r in read_fct(outputs[builtin])]
    assert max(slowdowns) > 2
    meta = [json.loads((outputs[name] / "meta.json").read_text()) for name in (builtin, "custom")]
    assert meta[0]["events"] == meta[1]["events"] and "custom_scheme" not in meta[0]


def test_ecn_marks_change_cubic_over_fqcodel(run_example: RunExample, tmp_path: Path,
                                            flow_file: Path) -> None:
    """The parts' attributes reach the run: FqCoDel (UseEcn true, ns-3's default) marks
    ECN-capable Cubic senders instead of dropping their packets, and the same flows complete at
    other times."""
    events = {}
    for name, extra in (("drop", ()), ("ecn", ("--tcpAttributes=UseEcn=On",))):
        out = tmp_path / name
        result = run_example("pfabric-websearch", *STAR, *FQCODEL_CUBIC, *extra,
                             f"--flowFile={flow_file}", f"--out={out}")
        assert result.returncode == 0, result.stderr
        meta = json.loads((out / "meta.json").read_text())
        assert meta["flows_completed"] == 40
        events[name] = (meta["events"], (out / "fct.csv").read_bytes())
        assert meta["custom_scheme"]["tcp"]["attributes"].get("UseEcn") == ("On" if extra else None)
    assert events["drop"] != events["ecn"]


def test_print_help_shows_the_custom_options(run_example: RunExample) -> None:
    for program in ("pfabric-websearch", "pfabric-datamining", "pfabric-deadlines",
                    "pfabric-classes", "pfabric-incast"):
        result = run_example(program, "--PrintHelp")
        assert result.returncode == 0, result.stderr
        assert "pfabric, linerate, tcp, dctcp or custom" in result.stdout
        lines = {line.split(":")[0].strip(): line for line in result.stdout.splitlines()
                 if line.strip().startswith("--")}
        for option in OPTIONS:
            assert f"--{option}" in lines and "custom: " in lines[f"--{option}"], program
        assert "[ns3::FifoQueueDisc]" in lines["--portQueueDisc"]
        assert "[ns3::TcpNewReno]" in lines["--tcpCongestionOps"]
