"""The scheme registry (PfabricSchemeRegistry): the built-in schemes are its entries, --scheme is a
choice over them (--listSchemes prints them, the error lists them) and meta.json's scheme_recipe
records every part as the run created it, with the preset's numbers where the recipe puts them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import RunExample

# A 4-host star keeps these runs to a second or two.
STAR = ("--topology=star", "--hosts=4", "--quiet", "--flows=5", "--load=0.5")
BUILT_IN = ["pfabric", "linerate", "tcp", "dctcp"]


def seconds(text: str) -> float:
    """An ns-3 Time as meta.json records it (e.g. +200000ns), in seconds."""
    parsed = re.fullmatch(r"\+?([0-9.e+-]+)(ns|us|ms|s)", text)
    assert parsed is not None, text
    number, unit = parsed.groups()
    return float(number) * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[unit]


def list_schemes(run_example: RunExample) -> list[list[str]]:
    result = run_example("pfabric-websearch", "--listSchemes")
    assert result.returncode == 0, result.stderr
    return [line.split("\t") for line in result.stdout.splitlines()]


def test_the_registry_lists_the_four_built_ins_then_custom(run_example: RunExample) -> None:
    rows = list_schemes(run_example)
    assert [row[0] for row in rows] == [*BUILT_IN, "custom"]
    # Whether each runs pFabric's queues: what ranks flows and takes priority levels.
    assert {row[0]: row[1] for row in rows} == {"pfabric": "1", "linerate": "1", "tcp": "0",
                                                "dctcp": "0", "custom": "0"}
    assert all(row[2] for row in rows)


@pytest.mark.parametrize("program", ["pfabric-websearch", "pfabric-datamining"])
def test_an_unknown_scheme_is_refused_in_one_line_listing_the_registry(
        run_example: RunExample, program: str, tmp_path: Path) -> None:
    names = [row[0] for row in list_schemes(run_example)]
    result = run_example(program, "--scheme=xcp", f"--out={tmp_path / 'x'}")
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    expected = ", ".join(names[:-1]) + " or " + names[-1]
    assert lines[0].endswith(f"--scheme=xcp: expected {expected}"), lines[0]


def run(run_example: RunExample, tmp_path: Path, *arguments: str) -> dict:
    out = tmp_path / "run"
    result = run_example("pfabric-websearch", *STAR, *arguments, f"--out={out}")
    assert result.returncode == 0, result.stderr
    return json.loads((out / "meta.json").read_text())


def test_meta_json_records_dctcp_as_it_ran(run_example: RunExample, tmp_path: Path) -> None:
    meta = run(run_example, tmp_path, "--scheme=dctcp")
    recipe = meta["scheme_recipe"]
    assert recipe["name"] == "dctcp" and recipe["preset"] == "hotnets12"
    assert not recipe["pfabric_queues"] and recipe["device_rate_attribute"] == "LinkBandwidth"
    port = recipe["port_queue_disc"]
    assert port["type_id"] == "ns3::RedQueueDisc"
    # K = 15 packets (hotnets12), in a 150-packet buffer, marking, never dropping early.
    attributes = port["attributes"]
    assert attributes["MinTh"] == attributes["MaxTh"] == "15"
    assert attributes["MaxSize"] == "150p" and attributes["UseEcn"] == "true"
    assert recipe["host_queue_disc"]["type_id"] == "ns3::RedQueueDisc"
    tcp = recipe["tcp"]
    assert tcp["type_id"] == "ns3::PfabricBaselineTcpSocket"
    assert seconds(tcp["attributes"]["MinRto"]) == pytest.approx(200e-6)
    assert tcp["attributes"]["UseEcn"] == "On"
    ops = recipe["tcp_congestion_ops"]
    assert ops["type_id"] == "ns3::PfabricDctcp" and ops["attributes"]["DctcpShiftG"] == "0.0625"
    factory = recipe["tcp_socket_factory"]["attributes"]
    assert factory["InitialWindow"] == "12" and factory["SegmentSize"] == "1460"
    assert meta["links"]["link_delay_ns"] == 400 and meta["links"]["host_link_bps"] == 10**10


@pytest.mark.parametrize(("preset", "rto", "buffer", "window"),
                         [("hotnets12", 40e-6, "22500B", "0"),
                          ("sigcomm13", 45e-6, "35999B", "23")])
def test_meta_json_records_pfabric_with_its_presets_numbers(run_example: RunExample,
                                                           tmp_path: Path, preset: str,
                                                           rto: float, buffer: str,
                                                           window: str) -> None:
    meta = run(run_example, tmp_path, "--scheme=pfabric", f"--preset={preset}")
    recipe = meta["scheme_recipe"]
    assert recipe["pfabric_queues"] and recipe["preset"] == preset
    assert recipe["port_queue_disc"]["attributes"]["MaxSize"] == buffer
    socket = recipe["tcp"]["attributes"]
    assert recipe["tcp"]["type_id"] == "ns3::PfabricMinTcpSocket"
    assert seconds(socket["Rto"]) == pytest.approx(rto) and socket["MaxWindow"] == window


def test_an_override_shows_in_the_recorded_recipe(run_example: RunExample,
                                                  tmp_path: Path) -> None:
    """A value given on the command line is the one the run's objects had: meta.json reads them
    back from the objects, not from the recipe."""
    meta = run(run_example, tmp_path, "--scheme=linerate", "--rto=70us", "--buffer=30000B",
               "--ns3::PfabricLineRateTcpSocket::Window=9")
    recipe = meta["scheme_recipe"]
    assert seconds(recipe["tcp"]["attributes"]["Rto"]) == pytest.approx(70e-6)
    assert recipe["tcp"]["attributes"]["Window"] == "9"
    assert recipe["port_queue_disc"]["attributes"]["MaxSize"] == "30000B"
    assert meta["line_rate_window_segments"] == 9


def test_the_analysis_reads_the_schemes_from_the_programs(bin_dir: Path) -> None:
    """pfabric_analysis.programs.program_schemes reads --listSchemes; the analysis's grid of
    packet schemes and the schemes it models as SRPT (pFabric's queues) are the registry's."""
    from pfabric_analysis.bottleneck import MODELS
    from pfabric_analysis.programs import find_program, program_schemes
    from pfabric_analysis.sweep_spec import PACKET_SCHEMES, CUSTOM_SCHEME

    for name in ("pfabric-websearch", "pfabric-datamining"):
        schemes = program_schemes(find_program(bin_dir, name))
        assert [*PACKET_SCHEMES, CUSTOM_SCHEME] == list(schemes)
        assert {s: MODELS[s] == "srpt" for s in PACKET_SCHEMES} == {
            s: schemes[s] for s in PACKET_SCHEMES}
