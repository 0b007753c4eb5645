"""The store checks of a sweep: a point already in the store must be the point this sweep would
make (grid point, knobs, window, ns-3 settings) and come from programs of the same build as the
ones about to add to it; both are refused before anything runs, not found by the figures after
hours of runs."""

from __future__ import annotations

import json
import math
from pathlib import Path

from pfabric_analysis import store as compact
from pfabric_analysis.programs import run_program
from pfabric_analysis.runs import (ADDED_PARAMETERS, BUILD_KEYS, CUSTOM_SCHEME, IDEAL_SCHEME,
                                   RECORDED_NUMBERS,
                                   AnalysisError, read_json, result_settings)
from pfabric_analysis.sweep_plan import Task, is_run
from pfabric_analysis.sweep_spec import (HOST_STACK_OPTION, LABEL_OPTION, MEASURE_KNOB,
                                         NS3_ATTRIBUTE, WARMUP_KNOB, SweepSpec, windowless_options)


def same_value(recorded: object, asked: str) -> bool:
    """Whether a meta.json parameter is the value a knob or option asked for (as text)."""
    if isinstance(recorded, bool):
        return asked.lower() in (("1", "true") if recorded else ("0", "false"))
    if isinstance(recorded, (int, float)):
        try:
            return math.isclose(float(asked), float(recorded), rel_tol=1e-12)
        except ValueError:
            return False
    return str(recorded) == asked


def check_store(tasks: list[Task], spec: SweepSpec) -> dict[Path, tuple[str, str, dict]]:
    """Refuse a store point that is not the point this sweep would make (another sweep's store:
    scheme, load, run, seed, flows or window, or a knob, differ); the store points of the sweep,
    each with its workload, scheme and meta.json."""
    from pfabric_analysis.runs import current_names

    stored: dict[Path, tuple[str, str, dict]] = {}
    for task in tasks:
        if (task.kind == "flows" or task.store is None or task.point is None or is_run(task)
                or not compact.is_stored(task.store, task.name)):
            continue
        meta_path = compact.point_path(task.store, task.name) / compact.META
        meta = read_json(meta_path)
        if not isinstance(meta, dict) or not isinstance(meta.get("parameters"), dict):
            raise AnalysisError(f"{meta_path}: not a run's meta.json (no 'parameters' object)")
        parameters = current_names(meta["parameters"])
        workload, scheme, load, run = task.point
        if meta.get("workload") != workload:
            raise AnalysisError(f"{meta_path}: workload {meta.get('workload')!r}, not "
                                f"{workload!r}; another sweep's store")
        window = spec.window_of(workload)
        asked = dict(spec.knobs_of(workload))
        asked.update({"scheme": scheme, "load": f"{load:g}", "run": str(run),
                      "seed": str(spec.seed)})
        custom = dict(spec.custom_schemes)
        if scheme in custom:  # its options, as the programs record them
            asked.update({**dict(custom[scheme]), "scheme": CUSTOM_SCHEME, LABEL_OPTION: scheme})
        if window is None:
            asked["flows"] = str(spec.flows_of(workload))
        if scheme != IDEAL_SCHEME:  # Ideal has no hosts; its runs record the programs' default
            asked[HOST_STACK_OPTION] = spec.host_stack or str(ADDED_PARAMETERS[HOST_STACK_OPTION])
        recorded_window = meta.get("window")
        if window is not None:
            if not isinstance(recorded_window, dict):
                recorded_window = {}
            recorded = recorded_window.get("warmup_flows"), recorded_window.get("measure_flows")
            if recorded != window:
                raise AnalysisError(f"{meta_path}: window {recorded} but the sweep asks "
                                    f"{window}; another sweep's store")
            asked = {k: v for k, v in asked.items() if k not in (WARMUP_KNOB, MEASURE_KNOB)}
        settings = {key: asked.pop(key) for key in list(asked) if NS3_ATTRIBUTE.fullmatch(key)}
        for key, value in sorted(asked.items()):
            # A point written before a parameter existed ran with its ADDED_PARAMETERS value.
            found = parameters.get(key, ADDED_PARAMETERS.get(key))
            if found is not None and not same_value(found, value):
                raise AnalysisError(f"{meta_path}: parameter {key} is {found!r} but "
                                    f"the sweep asks {value}; another sweep's store")
        check_stored_settings(meta_path, meta, settings)
        stored[meta_path.parent] = (workload, scheme, meta)
    return stored


def check_stored_settings(meta_path: Path, meta: dict, asked: dict[str, str]) -> None:
    """Refuse a store point whose ns-3 settings (meta.json's ns3_settings, but those that change
    no result) are not the ns-3 attributes the sweep sets: unlike an option, which every run
    records, a setting a point was not given is absent, so a point made without the sweep's
    attribute, or by hand with one the sweep does not set, would otherwise pass as this sweep's."""
    if not isinstance(meta.get("ns3_settings", {}), dict):
        raise AnalysisError(f"{meta_path}: not a run's meta.json ('ns3_settings' is not an "
                            "object)")
    recorded = result_settings(meta)
    for key in sorted(set(recorded) | set(asked)):
        if key not in asked:
            raise AnalysisError(f"{meta_path}: ns-3 setting {key} is {recorded[key]!r} but the "
                                "sweep does not set it; another sweep's store")
        if key not in recorded or not same_value(recorded[key], asked[key]):
            found = repr(recorded[key]) if key in recorded else "not set"
            raise AnalysisError(f"{meta_path}: ns-3 setting {key} is {found} but the sweep asks "
                                f"{asked[key]}; another sweep's store")


def program_build(program: Path, options: tuple[str, ...] = ()) -> dict[str, object]:
    """What a program records in meta.json of its build (runs.BUILD_KEYS) and of the numbers
    that no option records (runs.RECORDED_NUMBERS, at their value before they were recorded when
    absent), from a run of one 1,000-byte flow with `options` (a fraction of a second)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="pfabric-build-") as scratch:
        flows, out = Path(scratch) / "flows.csv", Path(scratch) / "run"
        flows.write_text("src,dst,size_bytes,start_s\n0,1,1000,0\n")
        result = run_program([str(program), *options, f"--flowFile={flows}", f"--out={out}",
                            "--quiet"])
        lines = result.stderr.strip().splitlines() or [f"exit status {result.returncode}"]
        if result.returncode != 0 or not (out / compact.META).is_file():
            raise AnalysisError(f"{program}: cannot tell its ns-3 version, a run of one flow "
                                f"failed ({lines[-1]})")
        meta = json.loads((out / compact.META).read_text())
    return {**{key: meta.get(key) for key in BUILD_KEYS},
            **{key: meta.get(key, before) for key, before in RECORDED_NUMBERS.items()}}


def check_store_build(stored: dict[Path, tuple[str, str, dict]], programs: dict[str, Path],
                      spec: SweepSpec) -> None:
    """Refuse to add points made by programs of another build (ns-3 version) than the store's
    points of this sweep (check_store's), or that record another number no option sets (a
    preset's, RECORDED_NUMBERS: LineRate's window), before anything runs: the figures refuse to
    pool such runs, which they would find only after hours of runs. The programs are asked with
    each stored scheme's options and the sweep's knobs (Ideal's points: the programs' default
    scheme, as Ideal records none of these numbers)."""
    builds: dict[tuple[str, str], dict[str, object]] = {}
    for point, (workload, scheme, meta) in stored.items():
        if (workload, scheme) not in builds:
            options = spec.scheme_options(scheme) if scheme in spec.packet_schemes() else ()
            knobs = windowless_options(spec.knobs_of(workload))
            builds[workload, scheme] = program_build(programs[workload], (*options, *knobs))
        for key, value in builds[workload, scheme].items():
            found = meta.get(key, RECORDED_NUMBERS.get(key))
            if found == value:
                continue
            if key in RECORDED_NUMBERS:
                raise AnalysisError(f"{programs[workload]}: {key} {value!r} for {scheme}, but the "
                                    f"store's {point} has {found!r} (made before the preset "
                                    f"changed it, or by hand): not this sweep's point; remove it "
                                    f"from the store to make it again")
            raise AnalysisError(f"{programs[workload]}: {key} {value!r}, but the store's "
                                f"{point} has {found!r}; runs of two builds are not one "
                                f"experiment (--bin-dir: programs of the store's build)")
