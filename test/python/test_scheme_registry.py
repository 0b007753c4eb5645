"""The scheme registry (PfabricSchemeRegistry): the built-in schemes are its entries, --scheme is a
choice over them (--listSchemes prints them, the error lists them) and meta.json's scheme_recipe
records every part as the run created it, with the preset's numbers where the recipe puts them."""

from __future__ import annotations

import ast
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


def test_the_analysis_takes_its_schemes_from_the_programs(bin_dir: Path) -> None:
    """What the analysis derives from a program's --listSchemes (programs.program_schemes, cached
    per program) is what the program prints: sweep's default grid and the schemes --schemes
    takes, reproduce's order, bottleneck's queueing model of each (SRPT for pFabric's queues),
    and the presentation table names no scheme the programs lack."""
    from pfabric_analysis import reproduce
    from pfabric_analysis.bottleneck import BottleneckSpec, scheme_models
    from pfabric_analysis.plotting import SCHEMES
    from pfabric_analysis.programs import built_in_schemes, find_program, run_program
    from pfabric_analysis.runs import CUSTOM_SCHEME, IDEAL_SCHEME, AnalysisError
    from pfabric_analysis.sweep_spec import SweepSpec, check_schemes

    for name in ("pfabric-websearch", "pfabric-datamining"):
        program = find_program(bin_dir, name)
        printed = run_program([str(program), "--listSchemes"]).stdout.splitlines()
        rows = [line.split("\t") for line in printed]
        flags = {row[0]: row[1] == "1" for row in rows if row[0] != CUSTOM_SCHEME}
        assert built_in_schemes(program) == flags and list(built_in_schemes(program)) == list(flags)
        workload = name.removeprefix("pfabric-")
        assert reproduce.every_scheme(bin_dir, (workload,)) == (*flags, IDEAL_SCHEME)
        tier = reproduce.tier_schemes(bin_dir, (workload,))
        assert set(tier) == set(SCHEMES) and set(SCHEMES) <= {*flags, IDEAL_SCHEME}
        assert [s for s in tier if s in flags] == [s for s in flags if s in SCHEMES]
        spec = BottleneckSpec(schemes=tuple(flags))
        assert scheme_models(spec, built_in_schemes(program)) == {
            scheme: "srpt" if queues else "ps" for scheme, queues in flags.items()}
        grid = SweepSpec((workload,), ("xcp",), (0.5,), (1,), ((workload, 1),))
        with pytest.raises(AnalysisError, match=re.escape(
                f"--schemes: unknown scheme 'xcp'; expected {', '.join([*flags, IDEAL_SCHEME])} "
                "or a label of --custom-scheme")):
            check_schemes(grid, built_in_schemes(program))


# Assignments that may hold several scheme names, each with why: the figures' one presentation
# table, the paper's sentences (each claim names the schemes its sentence names), and the record of
# the registry before meta.json recorded a run's recipe.
SCHEME_TABLES = {("plotting.py", "SCHEMES"), ("paper.py", "CLAIMS"),
                 ("runs.py", "PFABRIC_QUEUE_SCHEMES_BEFORE_RECIPES")}
COLLECTIONS = (ast.Tuple, ast.List, ast.Set, ast.Dict)


def scheme_names_in(node: ast.AST, names: set[str]) -> set[str]:
    """The scheme names a collection literal holds as strings, in nested collections too (a
    dict's keys and values, a tuple of pairs)."""
    found: set[str] = set()
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Constant) and child.value in names:
            found.add(child.value)
        elif isinstance(child, COLLECTIONS):
            found |= scheme_names_in(child, names)
    return found


def scheme_lists(tree: ast.Module, module: str, names: set[str]) -> list[str]:
    """Each collection literal of a module that holds two or more scheme names, as line: names,
    outside SCHEME_TABLES."""
    skipped = {id(node) for statement in tree.body
               if isinstance(statement, (ast.Assign, ast.AnnAssign))
               for target in (statement.targets if isinstance(statement, ast.Assign)
                              else [statement.target])
               if isinstance(target, ast.Name) and (module, target.id) in SCHEME_TABLES
               for node in ast.walk(statement)}
    return [f"{module}:{node.lineno}: {sorted(found)}" for node in ast.walk(tree)
            if isinstance(node, COLLECTIONS) and id(node) not in skipped
            and len(found := scheme_names_in(node, names)) >= 2]


def test_the_analysis_keeps_no_list_of_schemes(bin_dir: Path) -> None:
    """No module of pfabric_analysis holds a literal list of scheme names (the programs' and
    Ideal) but SCHEME_TABLES: a list that came back would drift from the programs' registry.
    The check itself finds one (a copy of the old bottleneck.MODELS)."""
    from pfabric_analysis.programs import find_program, program_schemes
    from pfabric_analysis.runs import IDEAL_SCHEME

    names = {*program_schemes(find_program(bin_dir, "pfabric-websearch")), IDEAL_SCHEME}
    package = Path(__file__).resolve().parents[2] / "analysis" / "pfabric_analysis"
    found = [line for path in sorted(package.rglob("*.py"))
             for line in scheme_lists(ast.parse(path.read_text()), path.name, names)]
    assert found == []
    old = 'MODELS = {"pfabric": "srpt", "linerate": "srpt", "tcp": "ps", "dctcp": "ps"}'
    assert scheme_lists(ast.parse(old), "bottleneck.py", names) == [
        "bottleneck.py:1: ['dctcp', 'linerate', 'pfabric', 'tcp']"]
    assert scheme_lists(ast.parse('x = scheme in ("pfabric", "linerate")'), "levels.py",
                        names) == ["levels.py:1: ['linerate', 'pfabric']"]


ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIRS = ("model", "helper", "examples")


def code_lines(text: str) -> list[str]:
    """A C++ file's lines without its comments (// and /* */; a comment's lines stay, empty)."""
    text = re.sub(r"/\*.*?\*/", lambda comment: "\n" * comment.group(0).count("\n"), text,
                  flags=re.DOTALL)
    return [re.sub(r"//.*", "", line) for line in text.splitlines()]


def footprint(root: Path, pattern: str) -> list[str]:
    """The C++ files under model/, helper/ and examples/ whose code (not comments) matches."""
    found = re.compile(pattern)
    return sorted(str(path.relative_to(root)) for directory in SOURCE_DIRS
                  for path in (root / directory).rglob("*") if path.suffix in (".cc", ".h")
                  and any(found.search(line) for line in code_lines(path.read_text())))


# doc/pfabric.rst, "Transports and schemes": a setting of a scheme lives in its class (the socket class with the
# lean twin that class configures, or the queue disc) and the recipe's line that sets it, with a
# number that differs between the presets in PfabricPreset. Each setting with its code's names.
MIN_TCP = ["model/pfabric-lean-min-tcp-sender.cc", "model/pfabric-lean-min-tcp-sender.h",
           "model/pfabric-min-tcp-socket.cc", "model/pfabric-min-tcp-socket.h"]
BASELINE = ["model/pfabric-baseline-tcp-socket.cc", "model/pfabric-baseline-tcp-socket.h",
            "model/pfabric-lean-baseline-sender.cc", "model/pfabric-lean-baseline-sender.h"]
RECIPE = ["helper/pfabric-scheme-recipe.cc"]
PRESET = ["helper/pfabric-preset.cc", "helper/pfabric-preset.h"]
SETTINGS = [
    (r"\b[Pp]robeAfterTimeouts\b", MIN_TCP + RECIPE + PRESET),
    # LineRate's socket, a MinTCP socket, says that its fixed window reads no MaxWindow.
    (r"\bMaxWindow\b|\bm_maxWindow\b", [*MIN_TCP, "model/pfabric-line-rate-tcp-socket.cc", *RECIPE]),
    (r"\bDupAckThreshold\b|\bm_minDupAckThreshold\b", BASELINE + RECIPE),
    (r"\bTieBreak\b|\bm_tieBreak\b", ["model/pfabric-queue-disc.cc", "model/pfabric-queue-disc.h"]),
]


@pytest.mark.parametrize(("pattern", "home"), SETTINGS)
def test_a_scheme_setting_lives_in_its_class_and_its_recipe(pattern: str, home: list[str]) -> None:
    found = footprint(ROOT, pattern)
    assert found and set(found) <= set(home), found


def test_a_setting_used_outside_its_home_is_caught(tmp_path: Path) -> None:
    (tmp_path / "model").mkdir()
    (tmp_path / "helper").mkdir()
    (tmp_path / "model" / "a.cc").write_text('// MaxWindow in a comment\n/* MaxWindow\n */ int x;\n')
    (tmp_path / "helper" / "b.cc").write_text('factory.Set("MaxWindow", UintegerValue(4));\n')
    assert footprint(tmp_path, r"\bMaxWindow\b") == ["helper/b.cc"]
