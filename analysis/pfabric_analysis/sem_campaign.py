"""SEM campaigns of pfabric-websearch / pfabric-datamining in an ns-3 source tree.

SEM (the ns-3 Simulation Execution Manager, PyPI `sem`) runs a program of an ns-3 tree over a grid
of its CommandLine options, one process per point in a directory of its own, and keeps every
point's parameters and output files in a campaign database that later calls resume and query.
This module creates or loads such a campaign for this module's experiment programs, runs the
missing points of a grid, and reads every point's fct.csv back through pfabric_analysis.runs
(read_run, summarize): per point and size bin, the completed flows, mean and 99th percentile of
FCT / ideal FCT and the unfinished flows, as a pandas DataFrame (to_xarray: an xarray Dataset).

How SEM 0.3.9.1 and the programs are made to meet (each checked against ns-3.37):
- The tree is used as it is configured and built (skip_configuration): SEM's own configure would
  replace the tree's profile and module selection. SEM still runs `./ns3 build` before a campaign,
  which rebuilds only what changed.
- SEM's `optimized` flag names the output directory build/optimized of its own configure, not the
  build profile: the runner is opened with optimized=False, which finds build/ (every profile of
  `./ns3 configure -d PROFILE` writes there).
- No git commit is recorded (check_repo=False): a tree from a source package or tarball is no
  git repository, and a contributed module under development leaves it dirty. The program's
  meta.json records the module version and every parameter of each run instead.
- SEM passes every parameter of a campaign on every run as --name=value. The parameters and
  their defaults are read from the program's --PrintHelp here (programs.program_options), not by SEM,
  whose reading names an option after the last --word: of its line (--flowsOnly's help mentions
  --dumpFlows: SEM's campaign had no flowsOnly and ran every point with --dumpFlows=False, a flow
  list written to a file named False). ns-3.37's CommandLine refuses an empty value
  (--topology=) and prints no default for an option whose default is empty, so such options
  (topology, lb, buffer, rto, cdf, flowFile, dumpFlows: "the preset's" or none) are left out of
  the campaign's parameters unless the campaign sets them; a later grid of the same campaign
  must set them too.
- SEM collects the files a run writes in its own working directory: every point runs with
  --out=. (fct.csv, meta.json next to SEM's stdout and stderr) and --quiet.
- SEM numbers replications by ns-3's RngRun. The programs take their replication from --run
  (which sets RngRun), so every point passes run and RngRun equal, and each run's meta.json is
  checked to carry the run and every grid value that was asked for.
"""

from __future__ import annotations

import itertools
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path

import pandas as pd

from pfabric_analysis.files import write_files
from pfabric_analysis.programs import parse_value, program_options, run_program
from pfabric_analysis.runs import AnalysisError, read_run, summarize
from pfabric_analysis.values import RUN, parse_list

PROGRAMS = ("pfabric-websearch", "pfabric-datamining")
# Set on every point by the campaign itself: where the files go, no progress lines, replication.
SET_BY_CAMPAIGN = ("out", "quiet", "run", "RngRun")
# Options that make a program write no fct.csv.
NO_RESULTS = ("flowsOnly", "idealOnly")
SUMMARY_COLUMNS = ["bin", "flows", "mean", "p99", "unfinished"]


def parse_grid(pairs: Iterable[str], option: str = "--grid") -> dict[str, list]:
    """KEY=V1,V2,... options into {key: [values]} (in the order given); a key set twice, an empty
    value list, or a key the campaign sets itself is refused."""
    grid: dict[str, list] = {}
    for pair in pairs:
        key, sep, values = pair.partition("=")
        key = key.removeprefix("--")
        items = [value for value in values.split(",") if value != ""]
        if not sep or not key or not items:
            raise AnalysisError(f"{option} {pair}: expected KEY=VALUE[,VALUE...], "
                                "e.g. scheme=pfabric,tcp")
        if key in SET_BY_CAMPAIGN or key in NO_RESULTS:
            why = "set on every point" if key in SET_BY_CAMPAIGN else "no fct.csv"
            raise AnalysisError(f"{option} {pair}: {key} is not for a campaign to set ({why})")
        if key in grid:
            raise AnalysisError(f"{option} {pair}: {key} is given twice")
        grid[key] = [parse_value(item) for item in items]
    return grid


def campaign_parameters(options: Mapping[str, object], setting: Iterable[str]) -> dict:
    """The campaign's parameters and their defaults: the program's options, less those without a
    default (an empty one, which ns-3.37's CommandLine cannot take back as --name=) unless the
    campaign sets them. --out is always set (to .)."""
    setting = set(setting) | {"out"}
    return {key: value for key, value in options.items()
            if value is not None or key in setting}


def grid_points(grid: Mapping[str, list], runs: Iterable[int]) -> list[dict]:
    """Every combination of the grid's values for every run, with what the campaign sets on each
    point: --out=. (SEM keeps the files of the run's working directory), --quiet, and the run
    number as both the program's --run and SEM's RngRun."""
    keys = list(grid)
    points = []
    for values in itertools.product(*(grid[key] for key in keys)):
        for run in runs:
            points.append({**dict(zip(keys, values)), "out": ".", "quiet": True,
                           "run": int(run), "RngRun": int(run)})
    return points


def check_points(points: list[dict], parameters: Mapping[str, object]) -> None:
    """Refuse points that name an option the campaign's program lacks, or that leave unset an
    option the campaign keeps without a default (SEM would pass --name=None)."""
    for point in points:
        for key in point:
            if key != "RngRun" and key not in parameters:
                raise AnalysisError(f"{key}: not a parameter of this campaign (an option with an "
                                    "empty default is one only if set when the campaign is "
                                    f"created; its parameters: {', '.join(sorted(parameters))})")
        for key, value in parameters.items():
            if value is None and key not in point:
                raise AnalysisError(f"{key}: this campaign was created with {key} set; set it "
                                    "again (--set or --grid)")


def same_value(asked: object, recorded: object) -> bool:
    """Whether a value asked for and the one a run's meta.json records are the same."""
    if isinstance(asked, bool) or isinstance(recorded, bool):
        return str(asked).lower() == str(recorded).lower()
    try:
        return float(asked) == float(recorded)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return str(asked) == str(recorded)


def point_rows(point: Mapping[str, object], keys: list[str], directory: Path,
               kb: int = 1000) -> list[dict]:
    """The rows of one run directory: per size bin (and all), its statistics beside the grid
    values and the run. The run's meta.json must record every option the point asked for."""
    run = read_run(directory)
    recorded = run.meta["parameters"]
    for key in [key for key in point if key not in ("out", "quiet", "RngRun")]:
        if key in recorded and not same_value(point[key], recorded[key]):
            raise AnalysisError(f"{directory}/meta.json: {key} is {recorded[key]!r}, but the "
                                f"campaign asked for {point[key]!r}")
    labels = {key: point[key] for key in keys}
    return [{**labels, "run": point["run"], **row}
            for row in summarize(run.fct, kb).to_dict("records")]


def results_frame(rows: list[dict], keys: list[str]) -> pd.DataFrame:
    """The rows as a DataFrame: the grid's keys, run, then the statistics per size bin."""
    return pd.DataFrame(rows, columns=[*keys, "run", *SUMMARY_COLUMNS])


def to_xarray(frame: pd.DataFrame, keys: list[str]):
    """The frame as an xarray Dataset over the grid's keys, run and size bin (flows, mean, p99,
    unfinished), for SEM's users who slice results by dimension name."""
    return frame.set_index([*keys, "run", "bin"]).to_xarray()


def open_campaign(ns3: Path, campaign_dir: Path, program: str, setting: Iterable[str],
                  jobs: int | None = None):
    """Load the SEM campaign of campaign_dir, or create it for program in the ns-3 tree ns3
    (built already, with this module's examples)."""
    import sem

    if program not in PROGRAMS:
        raise AnalysisError(f"--program {program}: expected one of {', '.join(PROGRAMS)}")
    if not (ns3 / "ns3").is_file() or not list(ns3.glob(".lock-ns3_*_build")):
        raise AnalysisError(f"{ns3}: not a configured CMake ns-3 tree (no ns3 script or "
                            ".lock-ns3_*_build; run ./ns3 configure --enable-examples and "
                            "./ns3 build there)")
    options = {"runner_type": "ParallelRunner", "optimized": False, "skip_configuration": True,
               "max_parallel_processes": jobs}
    campaign_dir = campaign_dir.resolve()
    try:
        if campaign_dir.exists():
            campaign = sem.CampaignManager.load(str(campaign_dir), str(ns3.resolve()),
                                                check_repo=False, **options)
            if campaign.db.get_script() != program:
                raise AnalysisError(f"{campaign_dir}: a campaign of "
                                    f"{campaign.db.get_script()}, not {program}")
            return campaign
        runner = sem.CampaignManager.create_runner(str(ns3.resolve()), program, **options)
        if program not in Path(runner.script_executable).name:
            raise AnalysisError(f"{ns3}: no {program} among the built programs (configure "
                                "with --enable-examples and this module in contrib/pfabric)")
        printed = run_program([runner.script_executable, "--PrintHelp"],
                              env=dict(runner.environment))
        if printed.returncode != 0:
            raise AnalysisError(f"{runner.script_executable} --PrintHelp: exit status "
                                f"{printed.returncode}: {printed.stderr.strip()}")
        help_text = printed.stdout
        parameters = campaign_parameters(program_options(help_text), setting)
        database = sem.DatabaseManager.new(script=program, commit="", params=parameters,
                                           campaign_dir=str(campaign_dir))
        return sem.CampaignManager(database, runner, check_repo=False)
    except (ValueError, OSError, subprocess.CalledProcessError) as error:
        raise AnalysisError(f"{ns3}: SEM could not open the campaign: {error}") from error


def run_campaign(ns3: Path, campaign_dir: Path, grid: Mapping[str, list],
                 fixed: Mapping[str, object] | None = None, runs: Iterable[int] = (1,),
                 program: str = "pfabric-websearch", jobs: int | None = None,
                 kb: int = 1000) -> pd.DataFrame:
    """Run the points of grid x runs (with the fixed options) that campaign_dir lacks, then read
    every point back: one row per point, run and size bin."""
    fixed = dict(fixed or {})
    overlap = set(fixed) & set(grid)
    if overlap:
        raise AnalysisError(f"{', '.join(sorted(overlap))}: both fixed (--set) and swept (--grid)")
    keys = list(grid)
    points = grid_points({**{key: [value] for key, value in fixed.items()}, **grid}, runs)
    campaign = open_campaign(ns3, campaign_dir, program, [*fixed, *grid], jobs)
    check_points(points, campaign.db.get_params())
    try:
        campaign.run_missing_simulations([dict(point) for point in points])
    except AnalysisError:
        raise
    except Exception as error:  # SEM reports a failed run or build as a bare Exception
        lines = [line.strip() for line in str(error).splitlines() if line.strip()]
        stderr = [line.removeprefix("Stderr:").strip() for line in lines
                  if line.startswith("Stderr:") and line.removeprefix("Stderr:").strip()]
        raise AnalysisError(f"SEM: a run failed: {stderr[0]}" if stderr
                            else f"SEM: {' / '.join(lines[:4])}") from error
    data_dir = Path(campaign.db.get_data_dir())
    rows = []
    for point in points:
        found = campaign.db.get_results(dict(point))
        if not found:
            raise AnalysisError(f"{campaign_dir}: no result for {point} after the campaign ran")
        result = found[0]
        if result["meta"].get("exitcode", 0) != 0:
            raise AnalysisError(f"{data_dir / result['meta']['id']}: the run exited with "
                                f"{result['meta']['exitcode']}")
        rows += point_rows(point, keys, data_dir / result["meta"]["id"], kb)
    return results_frame(rows, keys)


def parse_runs(text: str) -> list[int]:
    """--runs: comma-separated run numbers (values.RUN), at least one."""
    runs = list(parse_list(text, "--runs", RUN))
    if not runs:
        raise AnalysisError(f"--runs {text}: expected run numbers, e.g. 1,2,3")
    return runs


def main(args, versions: Mapping[str, str]) -> int:
    """pfabric-analysis sem: run the campaign, print the table, write it with --out."""
    import json

    grid = parse_grid(args.grid)
    fixed = {key: values[0] for key, values in parse_grid(args.set, "--set").items()}
    if not grid:
        raise AnalysisError("--grid: none given, nothing to sweep (e.g. --grid scheme=pfabric,tcp)")
    runs = parse_runs(args.runs)
    frame = run_campaign(args.ns3, args.campaign, grid, fixed, runs, args.program, args.jobs,
                         args.kb)
    print(f"FCT / ideal FCT per point of the SEM campaign {args.campaign} ({args.program}, "
          f"KB = {args.kb} B)")
    print(frame.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    if args.out:
        provenance = {"command": args.command_line, "versions": dict(versions),
                      "ns3": str(args.ns3.resolve()), "campaign": str(args.campaign.resolve()),
                      "program": args.program, "grid": grid, "fixed": fixed, "runs": runs,
                      "kb": args.kb}
        write_files(args.out, {"sem.csv": frame.to_csv(index=False),
                               "sem.json": json.dumps(provenance, indent=2) + "\n"})
        print(f"wrote {args.out / 'sem.csv'}, {args.out / 'sem.json'}")
    return 0
