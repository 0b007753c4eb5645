"""Re-running a point from its meta.json alone: the program's command line rebuilt from what the
run recorded (its program, every parameter with its effective value, the ns-3 settings and
environment it was given), run into another directory, and its fct.csv compared with the
recorded one, byte for byte.

A run directory (fct.csv + meta.json) or a store's point (its compact flows,
pfabric_analysis.store) is compared whole, the point's measured lines with the rerun's measured
lines. A recorded --flowFile that is not there any more (a sweep's flow list: the store keeps
none) is made again as the sweep made it, by the program's --flowsOnly with the point's
parameters but the scheme's. An Ideal point (pfabric-analysis ideal's) is re-run by the same
sub-command: on the fabric its program's --idealOnly gave (meta.json's ideal_fct_command, its
list made again as the sweep made it when gone) or like the packet run it names (like_run, whose
list must be there), with the window and link values it recorded. A parameter the program records
but takes no option for (meta.json's parameters_not_options: pfabric-incast's workload,
pfabric-classes' load) is left out, as is a value it records for an option its run has no use
for (pfabric-deadlines' priority none under a scheme without pFabric's queues); pfabric-incast's
own options come from its incast object. A meta.json without a key the
rerun needs (points recorded before the programs wrote it) is refused: the programs' git commit
among them, without which a difference could not be told from a change of code.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

from pfabric_analysis.deadlines import NO_PRIORITY
from pfabric_analysis.files import missing_levels, remove_levels
from pfabric_analysis.programs import find_program, program_option_names, run_program
from pfabric_analysis.runs import (ADDED_PARAMETERS, AnalysisError, current_names, read_json,
                                   scheme_parameters)
from pfabric_analysis.store import compact_lines, stored_fct, stored_lines

FCT = "fct.csv"
META = "meta.json"
# What a rerun needs of meta.json beside its parameters, and of those.
REQUIRED_KEYS = ("program", "parameters", "git_commit")
REQUIRED_PARAMETERS = ("scheme", "seed", "run")
# What meta.json records as objects of name and value, which the rerun gives again when present
# (the twelfth probe, F9: a list of ns3_settings ended in a traceback).
OBJECT_KEYS = ("parameters", "ns3_settings", "ns3_environment")
# Parameters that name the run's outputs: the rerun writes its own.
OUTPUT_PARAMETERS = ("out", "dumpFlows")
FLOW_FILE = "flowFile"
# meta.json's list of the parameters the program records but takes no option for.
NOT_OPTIONS = "parameters_not_options"
# Values the programs record for an option that shapes nothing in the run, which its option does
# not take: the option is left at its default (the tenth probe: every pfabric-deadlines run under
# tcp or dctcp was refused).
UNUSED_VALUES = {"priority": NO_PRIORITY}
# pfabric-incast records its own options in meta.json's incast object (pfabric_analysis.incast
# reads them there), under these keys; its times under RECORDED_TIMES' keys.
INCAST = "incast"
INCAST_OPTIONS = {"workers": "workers", "response_bytes": "responseBytes", "queries": "queries",
                  "aggregator": "aggregator", "background_load": "background"}
# What else of meta.json says which code ran: a rerun whose programs record another says so.
BUILD_KEYS = ("git_commit", "ns3_version")
# The flow list made again for a point whose recorded --flowFile is gone.
REMADE_FLOWS = "flows.csv"
# The Ideal scheme's points: the sub-command that made them, and the options of its recorded
# command line that a rerun gives again (the link values it was told instead of the fabric's).
IDEAL_PROGRAM = "pfabric-analysis ideal"
IDEAL_LINK_OPTIONS = ("--rate-bps", "--segment-bytes", "--overhead-bytes")
# The options of an ideal_fct_command that are not the fabric's (the run's own, and its list).
IDEAL_ONLY_OPTIONS = ("--idealOnly", "--quiet")
# Times meta.json records as a bare number in a fixed unit under the key of before the options
# took units (the programs' PfabricOptionTable::Option::RecordTime): the option that sets each and
# the unit. The programs' one record that is not its option's spelling; the rerun refuses any
# other key their --PrintHelp does not list.
RECORDED_TIMES = {"maxSimTime": ("maxSimTime", "s"), "connectLeadUs": ("connectLead", "us"),
                  "interval_option_us": ("interval", "us"), "first_query_s": ("firstQuery", "s")}


@dataclass(frozen=True)
class Rerun:
    """The commands that re-run a point, in order (a flow list first when it is made again), and
    the ns-3 environment variables the run was given."""

    commands: tuple[tuple[str, ...], ...]
    environment: dict[str, str] = field(default_factory=dict)
    remade_flows: bool = False


def read_meta(run_dir: Path) -> dict:
    """RUN_DIR/meta.json, checked to hold what a rerun needs (REQUIRED_KEYS,
    REQUIRED_PARAMETERS), each of OBJECT_KEYS it holds an object; its parameters under their
    current names."""
    path = run_dir / META
    try:
        meta = read_json(path)
    except FileNotFoundError as error:
        raise AnalysisError(f"{path}: missing") from error
    except OSError as error:
        raise AnalysisError(f"{path}: not JSON ({error})") from error
    if not isinstance(meta, dict):
        raise AnalysisError(f"{path}: not a run's meta.json (a JSON object)")
    for key in REQUIRED_KEYS:
        if key not in meta:
            raise AnalysisError(f"{path}: no {key}, which a rerun needs (a point recorded "
                                "before the programs wrote it)")
    for key in OBJECT_KEYS:
        if key in meta and not isinstance(meta[key], dict):
            raise AnalysisError(f"{path}: {key} is not an object")
    for key in REQUIRED_PARAMETERS:
        if key not in meta["parameters"]:
            raise AnalysisError(f"{path}: no parameters.{key}, which a rerun needs")
    return {**meta, "parameters": current_names(meta["parameters"])}


def option(key: str, value: object) -> str:
    """A recorded parameter as the programs' option: --key=value, a time of RECORDED_TIMES
    under its option's name with its unit."""
    if key in RECORDED_TIMES:
        name, unit = RECORDED_TIMES[key]
        return f"--{name}={option_value(value)}{unit}"
    return f"--{key}={option_value(value)}"


def option_value(value: object) -> str:
    """A meta.json value as the programs' command line takes it: true/false, numbers as JSON
    writes them, text as it is."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else json.dumps(value)


def not_options(meta: dict) -> list[str]:
    """The parameters meta.json says its program takes no option for (NOT_OPTIONS)."""
    names = meta.get(NOT_OPTIONS) or []
    return [str(name) for name in names] if isinstance(names, list) else []


def incast_options(meta: dict) -> list[str]:
    """pfabric-incast's own options, from meta.json's incast object (INCAST_OPTIONS,
    RECORDED_TIMES); none for another program's run."""
    incast = meta.get(INCAST)
    if meta.get("program") != "pfabric-incast" or not isinstance(incast, dict):
        return []
    return [option(key, value) if key in RECORDED_TIMES
            else f"--{INCAST_OPTIONS[key]}={option_value(value)}"
            for key, value in incast.items() if key in INCAST_OPTIONS or key in RECORDED_TIMES]


def recorded_options(meta: dict, leave_out: Collection[str] = ()) -> list[str]:
    """The run's options: every parameter (those added since it was recorded at the value it ran
    with, runs.ADDED_PARAMETERS) but its outputs, the flow file, those its program takes no
    option for (NOT_OPTIONS), an unused value (UNUSED_VALUES) and `leave_out`; an empty value is
    the option's default, left to the program. Then pfabric-incast's own options and the ns-3
    settings it was given."""
    parameters = dict(meta["parameters"])
    for key, value in ADDED_PARAMETERS.items():
        parameters.setdefault(key, value)
    skipped = (*OUTPUT_PARAMETERS, FLOW_FILE, *not_options(meta), *leave_out)
    options = [option(key, value) for key, value in parameters.items()
               if key not in skipped and value != "" and UNUSED_VALUES.get(key) != value]
    settings = meta.get("ns3_settings") or {}
    return options + incast_options(meta) + [f"--{name}={option_value(value)}"
                                             for name, value in settings.items()]


def check_options(meta: dict, program: Path, meta_path: Path) -> None:
    """Refuse a recorded parameter that is not an option of the program (one it lost since):
    the rerun would not be the run."""
    known = program_option_names(program)
    for key in set(meta["parameters"]) - set(not_options(meta)):
        if key not in known and RECORDED_TIMES.get(key, ("",))[0] not in known:
            raise AnalysisError(f"{meta_path}: parameter {key} is not an option of "
                                f"{program.name} (its --PrintHelp)")


def recorded_link_options(command_line: str) -> list[str]:
    """The link values an Ideal run was told (IDEAL_LINK_OPTIONS) in its recorded command line,
    as --option=value."""
    words = command_line.split()
    given = []
    for i, word in enumerate(words):
        name, equals, value = word.partition("=")
        if name in IDEAL_LINK_OPTIONS:
            given.append(f"{name}={value if equals else (words[i + 1] if i + 1 < len(words) else '')}")
    return given


def plan_ideal_rerun(meta: dict, meta_path: Path, out: Path, bin_dir: Path | None) -> Rerun:
    """The commands that re-run an Ideal point: pfabric-analysis ideal on its flow list (made
    again by its program's --flowsOnly with the fabric's options when gone: as long as the list
    it scheduled), with the fabric, window and link values it recorded."""
    flow_list = Path(str(meta.get("flow_list", "")))
    window = meta.get("window")
    window_options = [] if not isinstance(window, dict) else [
        f"--warmup-flows={window['warmup_flows']}", f"--measure-flows={window['measure_flows']}",
        f"--measure-max-bytes={window.get('measure_max_bytes', 0)}"]
    commands: list[tuple[str, ...]] = []
    if "like_run" in meta:
        like = Path(str(meta["like_run"]))
        for needed in (like / META, flow_list):
            if not needed.is_file():
                raise AnalysisError(f"{meta_path}: an Ideal point like {like}, and {needed} is "
                                    "gone: its flows cannot be made again")
        fabric = [f"--like={like}"]
    else:
        command = str(meta.get("ideal_fct_command", "")).split()
        named = re.search(r"pfabric-[a-z]+", command[0]) if command else None
        if named is None:
            raise AnalysisError(f"{meta_path}: an Ideal point with neither like_run nor an "
                                "ideal_fct_command of the module's programs")
        program = find_program(bin_dir, named.group()).resolve()
        options = [word for word in command[1:] if word not in IDEAL_ONLY_OPTIONS
                   and not word.startswith(f"--{FLOW_FILE}=")]
        preset = [word for word in options if word.startswith("--preset=")]
        fabric = [*(preset or [f"--preset={meta['parameters']['preset']}"]),
                  f"--workload={named.group().removeprefix('pfabric-')}",
                  f"--bin-dir={program.parent}",
                  *(f"--set={word[2:]}" for word in options if word not in preset)]
        if not flow_list.is_file():
            flow_list = out / REMADE_FLOWS
            length = [] if any(word.startswith("--flows=") for word in options) else [
                f"--flows={meta.get('ideal_flows_scheduled', meta.get('flows_total'))}"]
            commands.append((str(program), "--quiet", "--flowsOnly", f"--dumpFlows={flow_list}",
                             *options, *length))
    # The sub-command as the sweep runs it (its package, wherever it is installed).
    package = str(Path(__file__).resolve().parents[1])
    commands.append((sys.executable, "-m", "pfabric_analysis.cli", "ideal", str(flow_list),
                     *fabric, *window_options,
                     *recorded_link_options(str(meta.get("command_line", ""))),
                     f"--out={out}"))
    return Rerun(tuple(commands), {"PYTHONPATH": os.pathsep.join(
        filter(None, [package, os.environ.get("PYTHONPATH")]))})


def plan_rerun(run_dir: Path, out: Path, bin_dir: Path | None) -> Rerun:
    """The commands that re-run RUN_DIR's point into `out`, from its meta.json alone."""
    meta_path = run_dir / META
    meta = read_meta(run_dir)
    name = meta["program"]
    if name == IDEAL_PROGRAM:
        return plan_ideal_rerun(meta, meta_path, out, bin_dir)
    if not isinstance(name, str) or not name.startswith("pfabric-") or " " in name:
        raise AnalysisError(f"{meta_path}: program {name!r} is not one of the module's "
                            f"programs nor {IDEAL_PROGRAM}")
    program = find_program(bin_dir, name).resolve()
    check_options(meta, program, meta_path)
    run = (str(program), "--quiet", *recorded_options(meta), f"--out={out}")
    flow_file = meta["parameters"].get(FLOW_FILE) or ""
    environment = {str(k): option_value(v) for k, v in (meta.get("ns3_environment") or {}).items()}
    if not flow_file:
        return Rerun((run,), environment)
    if not Path(flow_file).is_absolute():
        # The programs record it absolute; a relative one (recorded before, or edited) would be
        # read against the rerun's directory, perhaps another file (the tenth probe, G5).
        raise AnalysisError(f"{meta_path}: parameters.{FLOW_FILE} {flow_file!r} is relative: "
                            "which file the run read cannot be told (the programs record it "
                            "absolute)")
    if Path(flow_file).is_file():
        return Rerun((run + (f"--{FLOW_FILE}={flow_file}",),), environment)
    # The sweep's flow list: the program's own, made without the scheme's options (as the sweep
    # makes the list every scheme of a point runs).
    remade = out / REMADE_FLOWS
    flows = (str(program), "--quiet", "--flowsOnly", f"--dumpFlows={remade}",
             *recorded_options(meta, scheme_parameters(meta)))
    return Rerun((flows, run + (f"--{FLOW_FILE}={remade}",)), environment, remade_flows=True)


def recorded_fct(run_dir: Path) -> tuple[bytes, Path, bool]:
    """The recorded flows: RUN_DIR/fct.csv, else a store point's measured lines; the file they
    are from, and whether they are a store point's (compared with the rerun's measured lines)."""
    if (run_dir / FCT).is_file():
        return (run_dir / FCT).read_bytes(), run_dir / FCT, False
    compact = stored_fct(run_dir)
    if compact is not None:
        return stored_lines(run_dir), compact, True
    raise AnalysisError(f"{run_dir / FCT}: missing")


def first_difference(recorded: bytes, rerun: bytes) -> tuple[int, str, str] | None:
    """The first line (1-based) where two fct.csv texts differ, with each one's line ('(none)'
    past its end); None when they are the same bytes."""
    if recorded == rerun:
        return None
    old, new = recorded.splitlines(keepends=True), rerun.splitlines(keepends=True)
    for number in range(max(len(old), len(new))):
        a = old[number] if number < len(old) else None
        b = new[number] if number < len(new) else None
        if a != b:
            def shown(line: bytes | None) -> str:
                return "(none)" if line is None else repr(line.decode(errors="replace"))
            return number + 1, shown(a), shown(b)
    raise AssertionError("different texts with the same lines")  # pragma: no cover


def build_warnings(recorded: dict, rerun: dict, meta_path: Path) -> list[str]:
    """A line per BUILD_KEYS value the rerun's programs record otherwise than the run did."""
    return [f"{meta_path}: {key} {recorded.get(key)!r}, but the rerun's programs record "
            f"{rerun.get(key)!r}; a difference may be the code's" for key in BUILD_KEYS
            if recorded.get(key) != rerun.get(key)]


def execute(plan: Rerun) -> None:
    """Run the plan's commands in order; a failure is one line: the program's last error line."""
    environment = {**os.environ, **plan.environment}
    for command in plan.commands:
        try:
            result = run_program(command, environment)
        except OSError as error:
            raise AnalysisError(f"{command[0]}: cannot run ({error.strerror or error})") from error
        if result.returncode != 0:
            lines = result.stderr.strip().splitlines() or [f"exit status {result.returncode}"]
            raise AnalysisError(f"{Path(command[0]).name} failed: {lines[-1]}")


def rerun(run_dir: Path, out: Path, bin_dir: Path | None, dry_run: bool = False) -> int:
    """The rerun sub-command: 0 when the rerun's fct.csv is the recorded one byte for byte
    (or, dry, once the commands are planned), 1 when it differs (its first differing line
    printed)."""
    out = out.resolve()
    if out == run_dir.resolve():
        raise AnalysisError(f"--out {out}: the run directory itself; rerun into another")
    plan = plan_rerun(run_dir, out, bin_dir)
    if dry_run:
        for name, value in plan.environment.items():
            print(f"{name}={shlex.quote(value)}")
        for command in plan.commands:
            print(shlex.join(command))
        return 0
    recorded, recorded_path, compact = recorded_fct(run_dir)
    # A refused rerun leaves no level made here (the tenth probe: an empty --out stayed when the
    # program refused the recorded settings); out holds what the plan's first commands wrote.
    created = missing_levels(out)
    try:
        out.mkdir(parents=True, exist_ok=True)  # a remade flow list goes there first
    except OSError as error:
        raise AnalysisError(f"--out {out}: cannot create ({error.strerror or error})") from error
    try:
        execute(plan)
    except AnalysisError:
        remove_levels(created)
        raise
    meta = read_meta(run_dir)
    try:
        new_meta = json.loads((out / META).read_text())
        new = (out / FCT).read_bytes()
    except (OSError, ValueError) as error:
        raise AnalysisError(f"{out}: the rerun wrote no readable {FCT} and {META} ({error})"
                            ) from error
    if plan.remade_flows and new_meta.get("flows_total") != meta.get("flows_total"):
        # Not the list the run replayed (one of its own, not a sweep's, now gone): its lines
        # would differ for that alone.
        remove_levels(created)
        raise AnalysisError(f"{run_dir / META}: its --{FLOW_FILE} is gone, and the list made "
                            f"again ran {new_meta.get('flows_total')} flows where the run ran "
                            f"{meta.get('flows_total')}: not the list it replayed (a sweep's "
                            "lists alone can be made again)")
    for line in build_warnings(meta, new_meta, run_dir / META):
        print(f"pfabric-analysis rerun: warning: {line}", file=sys.stderr)
    if compact:
        new = compact_lines(new, out / FCT)
    difference = first_difference(recorded, new)
    if difference is None:
        flows = len(recorded.splitlines()) - 1
        print(f"rerun: {out / FCT} is {recorded_path} byte for byte ({flows} flows)")
        return 0
    number, old, new_line = difference
    print(f"rerun: {out / FCT} differs from {recorded_path} from line {number}: recorded "
          f"{old}, rerun {new_line}")
    return 1
