"""Reading run directories (fct.csv + meta.json written by pfabric-websearch/-datamining) and
summarising their normalised flow completion times: small pure functions over pandas frames."""

from __future__ import annotations

import hashlib
import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pfabric_analysis import REPOSITORY, columnar

FCT_COLUMNS = ["flow_id", "src", "dst", "size_bytes", "start_s", "fct_s", "ideal_fct_s",
               "timeouts", "completed"]
# Parameters that may differ between pooled runs: replication, outputs, and hashDemux, which
# changes only how fast the same run is computed (tested to give identical results).
REPLICATION_PARAMETERS = {"seed", "run", "out", "dumpFlows", "flowFile", "hashDemux"}
# meta.json parameters as the programs' options were named before they took ns-3's camelCase:
# run directories written before then, and the results committed in doc/figures, keep these
# keys. They are read under the current names, so that old and new runs compare and pool.
RENAMED_PARAMETERS = {"flow-file": "flowFile", "dump-flows": "dumpFlows",
                      "reuse-connections": "reuseConnections", "hash-demux": "hashDemux"}
# meta.json parameters the programs gained later, with the value that gives the behaviour of the
# programs before them: a run written earlier (the results committed in doc/figures among them)
# is compared as having that value (compared_parameters), so that it pools with a new run of the
# same experiment.
ADDED_PARAMETERS = {"connectionPool": 0, "restartSsThresh": True, "warmupFlows": 0,
                    "measureFlows": 0, "hostStack": "ns3tcp", "measureMaxBytes": 0,
                    "arrivals": "poisson", "linkDelay": ""}
# Numbers a run records outside its parameters because no option sets them (a preset's or a
# model default's), that change its results, each with the value a run written before it recorded
# them ran with: LineRate's window (written by LineRate runs only; none before hotnets12 took one,
# and a run of another scheme, which has no such window, compares as none too), DCTCP's floor
# under its window cut (DCTCP runs only; none before PfabricDctcp) and the alpha a DCTCP
# connection starts from (ns-3's 1 before the factory set the original code's 0).
# compared_parameters compares them as parameters, and a scheme's may differ between the schemes
# of one figure.
RECORDED_NUMBERS = {"line_rate_window_segments": 0, "dctcp_min_window_segments": 0,
                    "dctcp_initial_alpha": 1.0}
# Settings of ns-3's own (meta.json's ns3_settings) that do not change a run's results, so runs
# that differ in them pool: the event scheduler (every scheduler of ns-3 runs events in the same
# order, ties by insertion; meta.json's scheduler says which ran).
RESULT_NEUTRAL_SETTINGS = {"SchedulerType"}
# The size bins' two edges in bytes (KB = 1000 B), in their one home, size-bins.txt at the
# module's top, which the C++ builds read too (doc, "Size bins").
SIZE_BINS_FILE = REPOSITORY / "size-bins.txt"
SIZE_UNITS = ("B", "KB", "MB")  # a unit's index is its power of KB
# What a run cost, in meta.json, best first: its processor time (cpu_time_s, recorded by the
# programs since the window), else its wall time, which for a single-threaded program is its
# processor time on an otherwise idle core (more on a busy machine).
CORE_SECONDS_KEYS = ("cpu_time_s", "wall_time_s")
# A run's flows, as the program writes them and as a committed compact point keeps them
# (pfabric_analysis.columnar; points committed before it, gzip).
FCT_FILES = ("fct.csv", f"fct{columnar.SUFFIX}", "fct.csv.gz")
# The column a run with a measurement window (--warmupFlows, --measureFlows) adds, last: 1 for a
# measured flow, 0 for a warm-up flow or one that arrived while the measured flows finished.
MEASURED_COLUMN = "measured"
# The programs' scheme assembled from ns-3 parts (--scheme=custom): the analysis knows a custom run
# by its label and its parts by meta.json's CUSTOM_SCHEME_KEY object (label, the names of the
# parameters that make the scheme, every part as created).
CUSTOM_SCHEME = "custom"
CUSTOM_SCHEME_KEY = "custom_scheme"
# The analysis's own scheme (pfabric_analysis.ideal), flow-level: no program's --scheme takes it.
# Every other scheme name is the programs' (their --listSchemes, pfabric_analysis.programs) or a
# run's (its meta.json).
IDEAL_SCHEME = "ideal"
# The schemes of pFabric's queues of the programs' registry before meta.json recorded each run's
# recipe (scheme_recipe's pfabric_queues): what reads a run written before then. A record of the
# past, not a list kept up to date: every run since records its own.
PFABRIC_QUEUE_SCHEMES_BEFORE_RECIPES = ("pfabric", "linerate")
# A file a sweep puts in a point's run directory before the program starts and removes once it has
# exited successfully: a directory holding it is unfinished whatever else it holds (the sweep was
# killed, or the program failed after writing its files, before the sweep cleared it).
UNFINISHED_MARK = ".unfinished"


class AnalysisError(Exception):
    """Bad input; the message is one line naming the file or parameter."""


def read_size_bin_edges(path: Path) -> tuple[int, int]:
    """The two edges of size-bins.txt: its lines that are not blank or a # comment, two
    increasing positive whole numbers of bytes."""
    try:
        lines = [line.strip() for line in path.read_text().splitlines()
                 if line.strip() and not line.lstrip().startswith("#")]
    except (OSError, UnicodeDecodeError) as error:
        raise AnalysisError(f"{path}: cannot read the size bins ({error})") from error
    if (len(lines) != 2 or not all(line.isascii() and line.isdigit() for line in lines)
            or not 0 < int(lines[0]) < int(lines[1])):
        raise AnalysisError(f"{path}: expected two increasing positive whole numbers of bytes, "
                            "one a line")
    return int(lines[0]), int(lines[1])


def size_in_unit(size_bytes: int) -> tuple[int, int]:
    """A bin edge as (count, power of KB) in the largest unit of SIZE_UNITS that divides it:
    100000 is (100, 1), 100 KB."""
    power = max(p for p in range(len(SIZE_UNITS)) if size_bytes % 1000**p == 0)
    return size_bytes // 1000**power, power


def size_text(size_bytes: int, separator: str = "") -> str:
    """A bin edge in its unit (size_in_unit): 100000 is 100KB."""
    count, power = size_in_unit(size_bytes)
    return f"{count}{separator}{SIZE_UNITS[power]}"


def bin_names(edges: tuple[int, int]) -> list[str]:
    """The bins' names, as the programs print them: (0,100KB], (100KB,10MB], (10MB,inf)."""
    small, large = map(size_text, edges)
    return [f"(0,{small}]", f"({small},{large}]", f"({large},inf)"]


SIZE_BIN_EDGES = read_size_bin_edges(SIZE_BINS_FILE)
BIN_NAMES = bin_names(SIZE_BIN_EDGES)
# The bins as figure titles and legends write them: (0, 100KB], ..., (10MB, \u221e).
BIN_TITLES = {name: name.replace(",", ", ").replace("inf", "\u221e") for name in BIN_NAMES}


@dataclass(frozen=True)
class Run:
    """One run directory."""

    directory: Path
    fct: pd.DataFrame  # the measured flows only (every flow of a run without a window)
    meta: dict  # meta.json, its parameters under their current names (current_names)
    flows_simulated: int = 0  # every flow the run simulated, measured or not

    @property
    def windowed(self) -> bool:
        """Whether the run measured a window of flows (meta.json's "window" object)."""
        return isinstance(self.meta.get("window"), dict)


def fct_file(directory: Path) -> Path:
    """The run's flows file: fct.csv, else the compact point's (fct.columns.xz, or fct.csv.gz
    before it)."""
    for name in FCT_FILES:
        if (directory / name).is_file():
            return directory / name
    raise AnalysisError(f"{directory / FCT_FILES[0]}: missing")


def unique_members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's members as a dict, refusing a name given twice (ValueError)."""
    members: dict[str, Any] = {}
    for name, value in pairs:
        if name in members:
            raise ValueError(f"the name {name!r} twice in one object")
        members[name] = value
    return members


def read_json(path: Path) -> Any:
    """A JSON file (a meta.json), a byte-order mark (an editor's) dropped as files.read_text
    drops it. What is not JSON (JSONDecodeError, UnicodeDecodeError), an integer past Python's
    4300 digits (ValueError), nesting past its recursion limit (RecursionError) or a name twice
    in one object (unique_members; JSON leaves it to the reader, and Python keeps the last: the
    tenth probe's "seed" twice read as the second) is AnalysisError, one line naming the file."""
    try:
        return json.loads(path.read_text(encoding="utf-8-sig"), object_pairs_hook=unique_members)
    except (ValueError, RecursionError) as error:
        raise AnalysisError(f"{path}: not JSON ({error})") from error


def read_run(directory: Path) -> Run:
    """Read and check a run directory (fct.csv or a compact point's file, and meta.json). With a
    `measured` column, Run.fct keeps only the measured flows: every statistic is over them."""
    if (directory / UNFINISHED_MARK).exists():
        raise AnalysisError(f"{directory}: unfinished ({UNFINISHED_MARK}: its sweep stopped before "
                            "the point succeeded; resume the sweep)")
    fct_path = fct_file(directory)
    meta_path = directory / "meta.json"
    if not meta_path.is_file():
        raise AnalysisError(f"{meta_path}: missing")
    fct = read_fct_csv(fct_path)
    if fct.empty:
        raise AnalysisError(f"{fct_path}: no flows (a header alone)")
    check_values(fct, fct_path)
    check_measurement(fct, fct_path)
    check_deadlines_met(fct, fct_path)
    meta = read_json(meta_path)
    if not isinstance(meta, dict) or not isinstance(meta.get("parameters"), dict):
        raise AnalysisError(f"{meta_path}: no 'parameters' object")
    check_replication(meta, meta_path)
    check_load(meta, meta_path)
    check_meta_agrees_with_itself(meta, meta_path)
    check_fabric_agrees_with_itself(meta, meta_path)
    simulated = flows_simulated(meta, len(fct), meta_path)
    check_meta_counts(meta, fct, fct_path, meta_path)
    check_ideal_against_size(meta, fct, fct_path, meta_path)
    if MEASURED_COLUMN in fct.columns:
        fct = fct[fct[MEASURED_COLUMN] == 1].reset_index(drop=True)
    return Run(directory, fct, {**meta, "parameters": current_names(meta["parameters"])},
               simulated)


def read_csv_checked(path: Path, columns: Sequence[str], **options) -> pd.DataFrame:
    """A CSV file (or .gz) with at least `columns`, as pandas reads it (options: read_csv's): the
    one reader of the files runs and sub-commands leave; a compact point's columnar file reads as
    the CSV it holds. A file that is not CSV or lacks a column is refused in one line naming it."""
    try:
        source: Path | io.BytesIO = path
        if path.name.endswith(columnar.SUFFIX):
            source = io.BytesIO(columnar.read(path))
        frame = pd.read_csv(source, **options)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError, OSError,
            EOFError, columnar.NotColumnar) as error:
        raise AnalysisError(f"{path}: not a CSV file ({error})".splitlines()[0]) from error
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise AnalysisError(f"{path}: missing column(s) {', '.join(missing)}")
    return frame


def read_rows_csv(path: Path, columns: Sequence[str], **options) -> pd.DataFrame:
    """A run's CSV file of one row per flow or query, with `columns`. Blank lines are rows (of
    empty values), so that row i is line i + 2 of the file, as check_values reports it; blank
    lines ending the file (an editor's) are dropped."""
    frame = read_csv_checked(path, columns, skip_blank_lines=False, **options)
    filled = np.flatnonzero(frame.notna().any(axis=1).to_numpy()
                            & (frame != "").any(axis=1).to_numpy())
    return frame.iloc[:filled[-1] + 1 if filled.size else 0]


def read_fct_csv(path: Path, **options) -> pd.DataFrame:
    """fct.csv (or .gz) with its columns (read_rows_csv)."""
    return read_rows_csv(path, FCT_COLUMNS, **options)


# The largest whole number a value of fct.csv may be: 2^53, past which a float64 (what pandas
# reads a column of larger numbers as) no longer holds every whole number.
LARGEST_WHOLE = 2**53


def _whole(values: pd.Series) -> pd.Series:
    return (np.isfinite(values) & (values >= 0) & (values == np.floor(values))
            & (values <= LARGEST_WHOLE))


def _positive(values: pd.Series) -> pd.Series:
    return np.isfinite(values) & (values > 0)


def _flag(values: pd.Series) -> pd.Series:
    return values.isin([0, 1])


def _time(values: pd.Series, frame: pd.DataFrame) -> pd.Series:
    """A positive time, absent only for a flow not completed."""
    return _positive(values) | (values.isna() & (frame["completed"] == 0))


def _deadline(values: pd.Series, frame: pd.DataFrame) -> pd.Series:
    """A time at or after the flow's start, absent only for a flow without a deadline (whose met
    is absent too)."""
    met = frame["met"] if "met" in frame else pd.Series(np.nan, index=frame.index)
    return (np.isfinite(values) & (values >= frame["start_s"])) | (values.isna() & met.isna())


def _met(values: pd.Series, frame: pd.DataFrame) -> pd.Series:
    """0 or 1, absent only for a flow without a deadline."""
    deadline = frame["deadline_s"] if "deadline_s" in frame else pd.Series(0.0, index=frame.index)
    return _flag(values) | (values.isna() & deadline.isna())


def _terminated(values: pd.Series, frame: pd.DataFrame) -> pd.Series:
    """0 or 1; 1 only for a flow given up at its deadline, which has one and did not complete
    (the twelfth probe: a terminated and completed flow was counted as terminated)."""
    deadline = (frame["deadline_s"] if "deadline_s" in frame
                else pd.Series(np.nan, index=frame.index))
    return (values == 0) | ((values == 1) & (frame["completed"] == 0) & deadline.notna())


# What each value of fct.csv must be (a column's values as numbers, NaN where empty or not a
# number), checked in this order on every line, and how the refusal describes it.
VALUE_RULES = (
    ("flow_id", "a whole number (at most 2^53)", lambda v, f: _whole(v)),
    ("src", "a whole number (at most 2^53)", lambda v, f: _whole(v)),
    ("dst", "a whole number (at most 2^53)", lambda v, f: _whole(v)),
    ("size_bytes", "a positive whole number (at most 2^53)", lambda v, f: _whole(v) & (v > 0)),
    ("start_s", "a time of at least 0", lambda v, f: np.isfinite(v) & (v >= 0)),
    ("timeouts", "a whole number (at most 2^53)", lambda v, f: _whole(v)),
    ("completed", "0 or 1", lambda v, f: _flag(v)),
    (MEASURED_COLUMN, "0 or 1", lambda v, f: _flag(v)),
    ("fct_s", "a positive time (empty only for a flow not completed)", _time),
    ("ideal_fct_s", "a positive time (empty only for a flow not completed)", _time),
    # pfabric-deadlines' columns (issue 54's ninth probe: a deadline of 'x' ended `deadlines`
    # in a traceback, one before its flow's start was taken)
    ("deadline_s", "a time at or after the flow's start (empty only for a flow without a "
     "deadline)", _deadline),
    ("met", "0 or 1 (empty only for a flow without a deadline)", _met),
    ("terminated", "0 or 1 (1 only for a flow with a deadline_s that did not complete)",
     _terminated),
)


def check_values(fct: pd.DataFrame, path: Path, rules: Sequence[tuple] = VALUE_RULES,
                 columns: Sequence[str] = FCT_COLUMNS) -> None:
    """Refuse fct.csv's first line with a value outside VALUE_RULES (infinite, NaN, negative, a
    flag other than 0 or 1...): one line naming the file, the line (the header is line 1) and
    the value as written. Another file of rows (read_rows_csv with `columns`) gives its own
    `rules`, in VALUE_RULES' form."""
    numbers = pd.DataFrame({column: pd.to_numeric(fct[column], errors="coerce")
                            for column, _, _ in rules if column in fct.columns})
    bad = [(int(np.flatnonzero(~ok)[0]), order) for order, ok in
           ((order, rule(numbers[column], numbers).to_numpy(dtype=bool))
            for order, (column, _, rule) in enumerate(rules) if column in numbers)
           if not ok.all()]
    if not bad:
        return
    row, order = min(bad)
    column, expected, _ = rules[order]
    written = written_row(path, row, columns)
    if not "".join(written.to_numpy()):
        raise AnalysisError(f"{path}:{row + 2}: an empty line")
    raise AnalysisError(f"{path}:{row + 2}: {column} {written[column]!r} is not {expected}")


def written_row(path: Path, row: int, columns: Sequence[str] = FCT_COLUMNS) -> pd.Series:
    """Row `row` of fct.csv (line row + 2; another file of rows with `columns`) as written, for
    a refusal to quote: read again as text, only when a check has failed."""
    return read_rows_csv(path, columns, dtype=str, keep_default_na=False).iloc[row]


# How far a flow's fct_s may be printed below its ideal_fct_s and still be a measurement, in whole
# nanoseconds (the difference is rounded to one): one unit of the ninth decimal the programs print
# times to (std::fixed). A flow completes no faster than alone on an idle fabric, so its FCT is at
# least its ideal; both are rounded to the nanosecond as printed, and Ideal's FCT is a difference
# of two such times computed in floating point, so a nanosecond below can be the rounding;
# anything more is no flow that ran.
FCT_BELOW_IDEAL_TOLERANCE_NS = 1


def first_beyond_rounding(least_s: pd.Series, time_s: pd.Series) -> int | None:
    """The first row whose time is below its least possible value (seconds) by more than
    FCT_BELOW_IDEAL_TOLERANCE_NS, the difference rounded to a nanosecond; None if no row is."""
    beyond = np.flatnonzero((np.round((least_s - time_s) * 1e9)
                             > FCT_BELOW_IDEAL_TOLERANCE_NS).to_numpy())
    return int(beyond[0]) if beyond.size else None


def check_measurement(fct: pd.DataFrame, path: Path) -> None:
    """Refuse fct.csv's first line that cannot be a measurement, its values each valid
    (check_values): a flow id an earlier line has (a run has one row per flow), or an FCT below
    its ideal by more than FCT_BELOW_IDEAL_TOLERANCE_NS. One line naming the file and the line."""
    ids = pd.to_numeric(fct["flow_id"])
    repeated = np.flatnonzero(ids.duplicated().to_numpy())
    if repeated.size:
        row = int(repeated[0])
        first = int(np.flatnonzero((ids == ids.iloc[row]).to_numpy())[0])
        raise AnalysisError(f"{path}:{row + 2}: flow_id {written_row(path, row)['flow_id']!r} "
                            f"is line {first + 2}'s too; a run has one line per flow")
    below = first_beyond_rounding(pd.to_numeric(fct["ideal_fct_s"]), pd.to_numeric(fct["fct_s"]))
    if below is not None:
        written = written_row(path, below)
        raise AnalysisError(f"{path}:{below + 2}: fct_s {written['fct_s']!r} is below its "
                            f"ideal_fct_s {written['ideal_fct_s']!r} by more than "
                            f"{FCT_BELOW_IDEAL_TOLERANCE_NS} ns (the times' rounding); "
                            "no flow completes faster than alone on an idle fabric")


def check_deadlines_met(fct: pd.DataFrame, path: Path) -> None:
    """Refuse fct.csv's first flow with a deadline whose `met` is not what its times say: 1 for
    a flow that completed (start_s + fct_s) by its deadline_s, else 0, either where the two are
    within the times' rounding (FCT_BELOW_IDEAL_TOLERANCE_NS). The tenth probe: a met of 0 on a
    flow that completed early was taken."""
    if not {"deadline_s", "met"} <= set(fct.columns):
        return
    deadline = pd.to_numeric(fct["deadline_s"])
    met = pd.to_numeric(fct["met"])
    completed = pd.to_numeric(fct["completed"]) == 1
    margin_ns = np.round((deadline - pd.to_numeric(fct["start_s"])
                          - pd.to_numeric(fct["fct_s"])) * 1e9)
    could_meet = completed & (margin_ns >= -FCT_BELOW_IDEAL_TOLERANCE_NS)
    must_meet = completed & (margin_ns > FCT_BELOW_IDEAL_TOLERANCE_NS)
    wrong = np.flatnonzero((deadline.notna() & (((met == 1) & ~could_meet)
                                                | ((met == 0) & must_meet))).to_numpy())
    if not wrong.size:
        return
    row = int(wrong[0])
    written = written_row(path, row, list(fct.columns))
    outcome = ("completed by its deadline_s" if must_meet.iloc[row] else
               "did not complete by its deadline_s")
    raise AnalysisError(f"{path}:{row + 2}: met {written['met']!r}, but the flow {outcome} "
                        f"{written['deadline_s']!r} (start_s {written['start_s']!r} + fct_s "
                        f"{written['fct_s']!r}, completed {written['completed']!r})")


# The values of each parameter that names a replication, as the programs take them: ns-3's
# seeds are 1 to 4294944442 (RngStream aborts on more; PfabricCommandLine::MAX_SEED), its run
# numbers 0 to 2^64 - 1 (RngRun's 64 bits).
REPLICATION_RANGE = {"seed": (1, 4294944442), "run": (0, 2**64 - 1)}


def check_replication(meta: dict, meta_path: Path) -> None:
    """Refuse a meta.json whose parameters.seed or parameters.run, when it records them, is not
    a whole number the programs take: the analysis tells replications apart by them (a seed of
    "abc" was taken; the fourth probe's seed 4294944443 and run 2^64, which no program runs)."""
    for key, (least, most) in REPLICATION_RANGE.items():
        value = meta["parameters"].get(key, least)
        if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
            raise AnalysisError(f"{meta_path}: parameters.{key} {value!r} is not a whole number "
                                f"from {least} to {most}")


def check_load(meta: dict, meta_path: Path) -> None:
    """Refuse a meta.json whose parameters.load, when it records one, is not a load the programs
    take, a number in (0, 1) (the ninth probe's 1.5 was stored and drawn as a point); a
    pfabric-incast run's is its background's (incast.background_load, the same number), in
    [0, 1): 0 is none (the tenth probe: every incast run without one was refused)."""
    value = meta["parameters"].get("load", 0.5)
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    incast = meta.get("incast")
    recorded = incast.get("background_load") if isinstance(incast, dict) else None
    background = recorded is not None
    if not number or not (0 <= value < 1 if background else 0 < value < 1):
        loads = "[0, 1)" if background else "(0, 1)"
        raise AnalysisError(f"{meta_path}: parameters.load {value!r} is not a load in {loads}")
    if background and recorded != value:
        raise AnalysisError(f"{meta_path}: parameters.load {value!r} is not "
                            f"incast.background_load {recorded!r}; not the record of one run")


# The programs whose --flows is every flow they draw, when no window or flow list sets them:
# pfabric-classes adds its classes' flows to it, and pfabric-incast's is its background's only
# (the eighth probe: a first check without this list refused every run of theirs).
FLOWS_OPTION_COUNTS_EVERY_FLOW = ("pfabric-websearch", "pfabric-datamining", "pfabric-deadlines")


def check_meta_agrees_with_itself(meta: dict, meta_path: Path) -> None:
    """Refuse a meta.json whose fields contradict one another, as when two runs' records were
    joined (issue 54's seventh probe: each was taken without a word): the scheme recipe's name
    and preset against parameters.scheme and preset (a custom scheme's recipe is named after its
    parts; an Ideal run's is the packet program's it was computed from); segment_bytes, a
    positive whole number, against the recipe's socket factory's SegmentSize; hosts against
    parameters.hosts on a star (its size is that option); flows_total against parameters.flows
    where the program drew that many (FLOWS_OPTION_COUNTS_EVERY_FLOW, no window, no flow list);
    stop.end_s against simulated_time_s, both the time the packet run ended (an Ideal run keeps
    its stop at 0: it simulated no packet; the eighth probe's 5 s beside 0.02 s was taken).
    A field a meta.json does not record (older runs') is not checked."""
    parameters = meta["parameters"]
    recipe = meta.get("scheme_recipe")
    if isinstance(recipe, dict):
        scheme = parameters.get("scheme")
        if "name" in recipe and scheme not in (None, CUSTOM_SCHEME, IDEAL_SCHEME) \
                and recipe["name"] != scheme:
            raise AnalysisError(f"{meta_path}: scheme_recipe.name {recipe['name']!r} is not "
                                f"parameters.scheme {scheme!r}; not the record of one run")
        if "preset" in recipe and "preset" in parameters \
                and recipe["preset"] != parameters["preset"]:
            raise AnalysisError(f"{meta_path}: scheme_recipe.preset {recipe['preset']!r} is not "
                                f"parameters.preset {parameters['preset']!r}; not the record of "
                                "one run")
    if "segment_bytes" in meta:
        segment = meta["segment_bytes"]
        if isinstance(segment, bool) or not isinstance(segment, int) or segment < 1:
            raise AnalysisError(f"{meta_path}: segment_bytes {segment!r} is not a positive whole "
                                "number of bytes")
        factory = recipe.get("tcp_socket_factory") if isinstance(recipe, dict) else None
        attributes = factory.get("attributes") if isinstance(factory, dict) else None
        recorded = attributes.get("SegmentSize") if isinstance(attributes, dict) else None
        if recorded is not None and str(recorded) != str(segment):
            raise AnalysisError(f"{meta_path}: segment_bytes {segment!r} is not the scheme "
                                f"recipe's SegmentSize {recorded!r}; not the record of one run")
    if parameters.get("topology") == "star" and "hosts" in meta and "hosts" in parameters \
            and meta["hosts"] != parameters["hosts"]:
        raise AnalysisError(f"{meta_path}: hosts {meta['hosts']!r} is not parameters.hosts "
                            f"{parameters['hosts']!r}, the size of its star; not the record of "
                            "one run")
    stop = meta.get("stop")
    ended = stop.get("end_s") if isinstance(stop, dict) else None
    simulated = meta.get("simulated_time_s")
    if (parameters.get("scheme") != IDEAL_SCHEME and isinstance(ended, (int, float))
            and isinstance(simulated, (int, float)) and not isinstance(ended, bool)
            and not math.isclose(ended, simulated, rel_tol=1e-9, abs_tol=1e-12)):
        raise AnalysisError(f"{meta_path}: stop.end_s {ended!r} is not simulated_time_s "
                            f"{simulated!r}, the time the run ended; not the record of one run")
    drew = (meta.get("program") in FLOWS_OPTION_COUNTS_EVERY_FLOW and "flows" in parameters
            and "flows_total" in meta and not parameters.get("flowFile")
            and "window" not in meta and not parameters.get("warmupFlows")
            and not parameters.get("measureFlows"))
    if drew and meta["flows_total"] != parameters["flows"]:
        raise AnalysisError(f"{meta_path}: flows_total {meta['flows_total']!r} is not "
                            f"parameters.flows {parameters['flows']!r}, the flows the run drew; "
                            "not the record of one run")
    check_window_record(meta, meta_path)


# The window's record in meta.json (PfabricMeasurementWindow::AddProvenance) and the parameter
# each repeats.
WINDOW_PARAMETERS = {"warmup_flows": "warmupFlows", "measure_flows": "measureFlows",
                     "measure_max_bytes": "measureMaxBytes"}


def check_window_record(meta: dict, meta_path: Path) -> None:
    """Refuse a window object without parameters.measureFlows above 0, or one the other way
    round, or window values other than the parameters' (the tenth probe, U4: measureFlows of
    40,000 beside no window was taken). Where parameters.measureFlows is not recorded (older
    runs), or of an Ideal run (its window is pfabric-analysis ideal's own, its parameters its
    packet program's, which may say 0), nothing is checked."""
    parameters = meta["parameters"]
    measure = parameters.get("measureFlows")
    if not isinstance(measure, int) or isinstance(measure, bool) \
            or parameters.get("scheme") == IDEAL_SCHEME:
        return
    window = meta.get("window")
    if (measure > 0) != isinstance(window, dict):
        raise AnalysisError(f"{meta_path}: parameters.measureFlows {measure!r} "
                            + ("and no window object" if measure > 0 else
                               "and a window object") + "; not the record of one run")
    for key, name in WINDOW_PARAMETERS.items():
        if isinstance(window, dict) and key in window and name in parameters \
                and window[key] != parameters[name]:
            raise AnalysisError(f"{meta_path}: window.{key} {window[key]!r} is not "
                                f"parameters.{name} {parameters[name]!r}; not the record of one "
                                "run")


def fabric_hosts(parameters: dict) -> int | None:
    """The hosts of the fabric parameters.topology names, when its shape options set it (a
    fat-tree's k, a leaf-spine's leaves and hosts per leaf; 0: the preset's, not recorded)."""
    topology = str(parameters.get("topology"))
    keys = {"fattree": ("k",), "leafspine": ("leaves", "hostsPerLeaf")}.get(topology, ())
    shape = [parameters.get(key) for key in keys]
    sizes = [n for n in shape if isinstance(n, int) and not isinstance(n, bool) and n > 0]
    if not shape or len(sizes) != len(shape):
        return None
    return sizes[0] ** 3 // 4 if topology == "fattree" else sizes[0] * sizes[1]


def check_fabric_agrees_with_itself(meta: dict, meta_path: Path) -> None:
    """Refuse a meta.json whose fabric fields contradict one another (the eighth probe's joined
    records): links.host_link_bps against host_link_bps, and hosts against the fat-tree's k^3/4
    or the leaf-spine's leaves x hostsPerLeaf where the run set them. A field not recorded is not
    checked."""
    links = meta.get("links")
    rate = links.get("host_link_bps") if isinstance(links, dict) else None
    if rate is not None and "host_link_bps" in meta and rate != meta["host_link_bps"]:
        raise AnalysisError(f"{meta_path}: links.host_link_bps {rate!r} is not host_link_bps "
                            f"{meta['host_link_bps']!r}; not the record of one run")
    shaped = fabric_hosts(meta["parameters"])
    if shaped is not None and "hosts" in meta and meta["hosts"] != shaped:
        raise AnalysisError(f"{meta_path}: hosts {meta['hosts']!r} is not the {shaped} of its "
                            f"parameters' {meta['parameters']['topology']}; not the record of "
                            "one run")


def check_ideal_against_size(meta: dict, fct: pd.DataFrame, fct_path: Path,
                             meta_path: Path) -> None:
    """Refuse fct.csv's first ideal_fct_s shorter than its flow's bytes take on the host's link
    alone (size_bytes * 8 / meta.json's host_link_bps, headers left out), by more than
    FCT_BELOW_IDEAL_TOLERANCE_NS: that ideal is not this flow's (100 MB with a 30 KB flow's
    ideal was taken). A rate that is not a positive number is refused; a meta.json without one
    (older runs') is not checked."""
    if "host_link_bps" not in meta:
        return
    rate = meta["host_link_bps"]
    if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0 < rate < math.inf:
        raise AnalysisError(f"{meta_path}: host_link_bps {rate!r} is not a rate in bit/s")
    row = first_beyond_rounding(pd.to_numeric(fct["size_bytes"]) * 8 / rate,
                                pd.to_numeric(fct["ideal_fct_s"]))
    if row is not None:
        written = written_row(fct_path, row)
        raise AnalysisError(f"{fct_path}:{row + 2}: ideal_fct_s {written['ideal_fct_s']!r} is "
                            f"shorter than size_bytes {written['size_bytes']!r} take on the "
                            f"host's link alone at {meta_path}'s host_link_bps {rate!r}; not "
                            "this flow's ideal")


def flows_simulated(meta: dict, rows: int, meta_path: Path) -> int:
    """Every flow a run simulated: the window's flows_simulated (a compact point keeps only the
    measured rows), else the rows of its fct.csv."""
    window = meta.get("window")
    if window is None:
        return rows
    count = window.get("flows_simulated") if isinstance(window, dict) else None
    if isinstance(count, bool) or not isinstance(count, int) or count < rows:
        raise AnalysisError(f"{meta_path}: window.flows_simulated {count!r} is not a count of "
                            f"at least the {rows} rows of its fct file")
    return count


def check_meta_counts(meta: dict, fct: pd.DataFrame, fct_path: Path, meta_path: Path) -> None:
    """Refuse a meta.json whose counts contradict its fct file, as when the two files are of two
    runs: flows_total, flows_completed and flows_unfinished against the file's rows when it holds
    every flow (a run without a window, or a program's own fct.csv; a compact point of a windowed
    run keeps its measured rows only), and the measured rows against the window (their flow ids
    the window's, W to W + N - 1; all N of them when every size is measured, at most
    measure_max_bytes each otherwise). A count meta.json does not record is not checked (Ideal's
    and older runs' have fewer)."""
    check_hosts(meta, fct, fct_path, meta_path)
    check_completions_by_end(meta, fct, fct_path, meta_path)
    check_bytes_received(meta, fct, fct_path, meta_path)
    window = meta.get("window")
    if window is None or fct_path.name == FCT_FILES[0]:
        completed = int((fct["completed"] == 1).sum())
        for key, count in (("flows_total", len(fct)), ("flows_completed", completed),
                           ("flows_unfinished", len(fct) - completed)):
            if key in meta and meta[key] != count:
                raise AnalysisError(f"{meta_path}: {key} is {meta[key]!r}, but {fct_path} has "
                                    f"{count}; not the files of one run")
        check_ids_in_order(meta, fct, fct_path, meta_path)
    if not isinstance(window, dict) or MEASURED_COLUMN not in fct.columns:
        return
    first, count = (window_count(window, key, meta_path) for key in ("warmup_flows",
                                                                      "measure_flows"))
    # 0 (every size) for a run written before the window had the bound
    max_bytes = window_count({"measure_max_bytes": 0, **window}, "measure_max_bytes", meta_path)
    measured = np.flatnonzero((fct[MEASURED_COLUMN] == 1).to_numpy())
    ids = pd.to_numeric(fct["flow_id"]).to_numpy()[measured]
    sizes = pd.to_numeric(fct["size_bytes"]).to_numpy()[measured]
    outside = np.flatnonzero((ids < first) | (ids >= first + count)
                             | ((sizes > max_bytes) if max_bytes else False))
    if outside.size:
        row = int(measured[outside[0]])
        raise AnalysisError(f"{fct_path}:{row + 2}: flow {int(ids[outside[0]])} of "
                            f"{int(sizes[outside[0]])} bytes is measured, but {meta_path}'s "
                            f"window measures flows {first} to {first + count - 1}"
                            + (f" of at most {max_bytes} bytes" if max_bytes else ""))
    if not max_bytes and len(measured) != count:
        raise AnalysisError(f"{fct_path}: {len(measured)} measured flows, but {meta_path}'s "
                            f"window measures {count}")


def first_outside(values: pd.Series, count: int) -> int | None:
    """The first row whose value is not one of 0 to count - 1 (a host, a flow id), or None."""
    numbers = pd.to_numeric(values).to_numpy()
    outside = np.flatnonzero((numbers < 0) | (numbers >= count))
    return int(outside[0]) if outside.size else None


def check_hosts(meta: dict, fct: pd.DataFrame, fct_path: Path, meta_path: Path) -> None:
    """Refuse a flow whose src or dst is no host of its run (0 to meta.json's hosts - 1) or that
    goes from a host to itself, which no program draws (issue 54's third probe: src 54 in a run
    of 54 hosts, a meta.json of 2 hosts beside flows of 54, a flow from 53 to 53 were taken). A
    meta.json without hosts (older runs) is not checked."""
    if "hosts" not in meta:
        return
    hosts = meta["hosts"]
    if isinstance(hosts, bool) or not isinstance(hosts, int) or hosts < 2:
        # "2" as text skipped the check (the fifth probe)
        raise AnalysisError(f"{meta_path}: hosts {hosts!r} is not a count of hosts (2 or more)")
    for column in ("src", "dst"):
        row = first_outside(fct[column], hosts)
        if row is not None:
            raise AnalysisError(f"{fct_path}:{row + 2}: {column} "
                                f"{written_row(fct_path, row)[column]!r} is no host of "
                                f"{meta_path}'s {hosts} (0 to {hosts - 1})")
    same = np.flatnonzero(pd.to_numeric(fct["src"]).to_numpy()
                          == pd.to_numeric(fct["dst"]).to_numpy())
    if same.size:
        row = int(same[0])
        raise AnalysisError(f"{fct_path}:{row + 2}: a flow from host "
                            f"{written_row(fct_path, row)['src']!r} to itself")


def check_completions_by_end(meta: dict, fct: pd.DataFrame, fct_path: Path,
                             meta_path: Path) -> None:
    """Refuse a completed flow that ends (start_s + fct_s) after meta.json's simulated_time_s by
    more than FCT_BELOW_IDEAL_TOLERANCE_NS: no flow completes after its run stopped (issue 54's
    third probe: an fct_s of 1e308 was taken and made a bin's mean infinite). A meta.json
    without the time (older runs) is not checked, nor Ideal's: its simulated_time_s is when the
    schedule serves its last wire byte, and its FCTs add the packet run's latency to that."""
    if "simulated_time_s" not in meta or meta["parameters"].get("scheme") == IDEAL_SCHEME:
        return
    end = meta["simulated_time_s"]
    if isinstance(end, bool) or not isinstance(end, (int, float)) or not 0 <= end < math.inf:
        raise AnalysisError(f"{meta_path}: simulated_time_s {end!r} is not a time")
    done = fct["completed"] == 1
    finish = pd.to_numeric(fct["start_s"]) + pd.to_numeric(fct["fct_s"])
    late = first_beyond_rounding(finish.where(done, 0.0), pd.Series(float(end), fct.index))
    if late is not None:
        written = written_row(fct_path, late)
        raise AnalysisError(f"{fct_path}:{late + 2}: start_s {written['start_s']!r} + fct_s "
                            f"{written['fct_s']!r} ends after {meta_path}'s simulated_time_s "
                            f"{end!r}; no flow completes after its run stopped")


def check_bytes_received(meta: dict, fct: pd.DataFrame, fct_path: Path, meta_path: Path) -> None:
    """Refuse a meta.json whose bytes_received is below the bytes of fct's completed flows: a
    completed flow's bytes were all received (issue 54's third probe: 5 bytes beside 30
    completed flows was taken). More is possible (an unfinished flow's first bytes; a compact
    point keeps the measured rows only). A meta.json without it (Ideal's) is not checked."""
    if "bytes_received" not in meta:
        return
    received = meta["bytes_received"]
    completed = int(pd.to_numeric(fct["size_bytes"])[fct["completed"] == 1].sum())
    if isinstance(received, bool) or not isinstance(received, int) or received < completed:
        raise AnalysisError(f"{meta_path}: bytes_received {received!r} is not a count of at "
                            f"least the {completed} bytes of {fct_path}'s completed flows")


def check_ids_in_order(meta: dict, fct: pd.DataFrame, fct_path: Path, meta_path: Path) -> None:
    """Refuse a flow id outside 0 to flows_total - 1 in a file that holds every flow of its run:
    a program numbers its flows from 0 as it hands them over (with one line per flow and the
    counts checked, the ids are then exactly those); 999 in a run of 30 was taken."""
    total = meta.get("flows_total")
    if isinstance(total, bool) or not isinstance(total, int):
        return
    row = first_outside(fct["flow_id"], total)
    if row is not None:
        raise AnalysisError(f"{fct_path}:{row + 2}: flow_id "
                            f"{written_row(fct_path, row)['flow_id']!r} is outside 0 to "
                            f"{total - 1}, the ids of {meta_path}'s {total} flows")


def window_count(window: dict, key: str, meta_path: Path) -> int:
    """A count of meta.json's window object, refused in one line unless a whole number >= 0."""
    value = window.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise AnalysisError(f"{meta_path}: window.{key} {value!r} is not a count")
    return value


def current_names(parameters: dict) -> dict:
    """meta.json parameters keyed by the programs' current option names (RENAMED_PARAMETERS)."""
    return {RENAMED_PARAMETERS.get(key, key): value for key, value in parameters.items()}


def scheme_name(meta: dict) -> str | None:
    """A run's scheme as the analysis names it: its scheme parameter (pfabric, tcp, ...), or a
    custom scheme's label; None when a custom run's meta.json does not record its label."""
    scheme = meta["parameters"].get("scheme")
    if scheme != CUSTOM_SCHEME:
        return scheme
    custom = meta.get(CUSTOM_SCHEME_KEY)
    label = custom.get("label") if isinstance(custom, dict) else None
    return label if isinstance(label, str) and label else None


def runs_pfabric_queues(meta: dict) -> bool:
    """Whether a run's scheme runs pFabric's queues: meta.json's scheme_recipe says (the
    programs' registry, PfabricSchemeRegistry); a run written before it recorded its recipe, by
    the registry's schemes of pFabric's queues then."""
    recipe = meta.get("scheme_recipe")
    if isinstance(recipe, dict) and "pfabric_queues" in recipe:
        return bool(recipe["pfabric_queues"])
    return meta["parameters"].get("scheme") in PFABRIC_QUEUE_SCHEMES_BEFORE_RECIPES


def scheme_parameters(meta: dict) -> set[str]:
    """The parameters that make a run's scheme, which may differ between the schemes of one
    experiment: scheme, its host stack (a sweep may run some schemes on the lean host and
    others on ns-3's TCP/IP), LineRate's window and DCTCP's floor and initial alpha
    (RECORDED_NUMBERS), and a custom
    scheme's own (its meta.json lists them)."""
    custom = meta.get(CUSTOM_SCHEME_KEY)
    names = custom.get("parameters", []) if isinstance(custom, dict) else []
    return {"scheme", "hostStack", *RECORDED_NUMBERS,
            *(name for name in names if isinstance(name, str))}


def result_settings(meta: dict) -> dict:
    """The settings of ns-3's own a run was given (meta.json's ns3_settings) that can change its
    results: all but RESULT_NEUTRAL_SETTINGS."""
    return {name: value for name, value in meta.get("ns3_settings", {}).items()
            if name not in RESULT_NEUTRAL_SETTINGS}


# ns-3's variables that give its settings (meta.json's ns3_environment records them as set):
# NS_ATTRIBUTE_DEFAULT's attribute paths (ns3::Type::Attribute=value;...) and NS_GLOBAL_VALUE's
# global values (Name=value;...), each the setting the command line gives as --Name=value and
# meta.json's ns3_settings records under Name. RngRun and RngSeed, wherever given, are the run's
# --run and --seed (parameters run and seed, which tell replications apart), not settings of the
# experiment (issue 54's sixth probe).
ATTRIBUTE_VARIABLE = "NS_ATTRIBUTE_DEFAULT"
GLOBAL_VARIABLE = "NS_GLOBAL_VALUE"
SEEDING_GLOBALS = frozenset({"RngRun", "RngSeed"})


def variable_settings(text: str) -> list[tuple[str, str]]:
    """The settings of one of ns-3's variables as ns-3 splits them: entries by ';' (empty ones
    skipped), each its name and the text after its first '=' ('' without one), in order."""
    return [(name, value)
            for name, _, value in (entry.partition("=") for entry in text.split(";") if entry)]


def environment_settings(environment: dict, variable: str) -> dict[str, str]:
    """The settings one of ns-3's variables gave a run (meta.json's ns3_environment), by name;
    a name given twice, its last value (the one ns-3 keeps); none when it was not set."""
    text = environment.get(variable)
    return dict(variable_settings(text)) if isinstance(text, str) else {}


def given_settings(meta: dict) -> dict[str, object]:
    """Every setting of ns-3's own a run was given that can change its results, by name, however
    it was given: on the command line (ns3_settings) or through NS_GLOBAL_VALUE or
    NS_ATTRIBUTE_DEFAULT (ns3_environment). The command line's global values are applied after
    the variable's; NS_ATTRIBUTE_DEFAULT's over the command line's default (the programs refuse
    the two differing). Left out: RESULT_NEUTRAL_SETTINGS, and SEEDING_GLOBALS, which the run's
    parameters carry."""
    environment = meta.get("ns3_environment", {})
    merged = {**environment_settings(environment, GLOBAL_VARIABLE), **result_settings(meta),
              **environment_settings(environment, ATTRIBUTE_VARIABLE)}
    return {name: value for name, value in merged.items()
            if name not in RESULT_NEUTRAL_SETTINGS | SEEDING_GLOBALS}


def other_variables(meta: dict) -> dict[str, object]:
    """What ns3_environment holds besides the settings given_settings reads: a variable it does
    not know, or one whose value is not text, whole under $NAME."""
    known = (ATTRIBUTE_VARIABLE, GLOBAL_VARIABLE)
    return {f"${name}": value for name, value in meta.get("ns3_environment", {}).items()
            if name not in known or not isinstance(value, str)}


def compared_parameters(meta: dict) -> dict:
    """A run's parameters (meta.json's) as compared with another run's: those added since it was
    written at the value it ran with (ADDED_PARAMETERS), and the settings of ns-3's own that it
    was given (ns3_settings, ns3_environment; a run written before they were recorded had none
    that mattered, as the sweeps pass none), each under the name the command line gives it by,
    such as --ns3::PfabricHostTransport::HostPacing, whether given there or through ns-3's
    variables (given_settings): an attribute changes a run as much as an option. Settings that
    cannot change results (RESULT_NEUTRAL_SETTINGS) are left out, and so are RngRun and RngSeed,
    which are the parameters run and seed. The numbers of RECORDED_NUMBERS come last, under
    their meta.json names."""
    settings = {f"--{name}": value for name, value in given_settings(meta).items()}
    numbers = {name: meta.get(name, before) for name, before in RECORDED_NUMBERS.items()}
    return {**ADDED_PARAMETERS, **meta["parameters"], **settings, **other_variables(meta),
            **numbers}


# What a run's meta.json says about the build that must agree between runs compared as one
# experiment: ns-3's own changes move FCTs (3.37 and 3.44 finish some flows microseconds apart
# on the same flows; doc, "Which build runs the figure"), so runs of two versions are two setups.
BUILD_KEYS = ("ns3_version",)


def check_same_build(run, first) -> None:
    """Refuse a run (a Run, or any run with .directory and .meta) whose ns-3 version differs
    from the first run's."""
    for key in BUILD_KEYS:
        value, expected = run.meta.get(key), first.meta.get(key)
        if value != expected:
            raise AnalysisError(f"{run.directory}: {key} is {value!r}, but {first.directory} has "
                                f"{expected!r}; runs of two builds are not one experiment")


def key_name(key: str) -> str:
    """A key of a file (meta.json, sweep.json) as a message names it: as it is when it is a name,
    else quoted, as it may hold anything, a line break too."""
    return key if key.isidentifier() else repr(key)


# What makes a run's workload, per flow (fct.csv's columns): two runs whose flows agree in these
# are one workload, whatever their parameters say (workload_digest).
WORKLOAD_COLUMNS = ("start_s", "src", "dst", "size_bytes")


def workload_digest(fct: pd.DataFrame) -> str:
    """A digest of a run's flows (Run.fct: a windowed run's measured ones) as a set
    (WORKLOAD_COLUMNS of every row, in any order), start times to the nanosecond the programs
    print them to, so that fct.csv and a store's compact copy of it agree: two runs have the same
    one exactly when they ran the same flows, whichever labels (seed, run, flow list's name) they
    ran under. Every value is a float64 that holds it exactly (check_values: whole numbers at
    most 2^53), and the rows are sorted, so that one digest per run compares it with any other."""
    starts = np.round(fct["start_s"].to_numpy(dtype=np.float64) * 1e9) + 0.0  # -0.0 is 0.0
    columns = [starts, *(fct[c].to_numpy(dtype=np.float64) for c in WORKLOAD_COLUMNS[1:])]
    rows = np.column_stack(columns)[np.lexsort(columns[::-1])]
    return hashlib.sha256(np.ascontiguousarray(rows).tobytes()).hexdigest()


def check_poolable(runs: list[Run]) -> None:
    """Refuse to pool runs whose parameters differ beyond replication (seed, run, outputs), or
    whose builds differ (BUILD_KEYS), or two runs of the same (seed, run): the same replication
    counted twice (one run directory given twice, or copied), not more data; or two runs of one
    workload: --arrivals=ns2 draws the same flows for every seed and run, and one flow list
    (--flowFile) replayed under two runs is one workload, so their pool would narrow an
    interval with copies (issue 54's eighth probe); and so are two runs of the same flows under
    any other labels (a flow list copied under another name, a run directory copied and its
    seed or run edited: issue 54's tenth probe), found by their flows (workload_digest)."""
    first = runs[0]
    for run in runs[1:]:
        check_same_build(run, first)
        first_parameters = compared_parameters(first.meta)
        parameters = compared_parameters(run.meta)
        for key in sorted((set(first_parameters) | set(parameters)) - REPLICATION_PARAMETERS):
            a = first_parameters.get(key)
            b = parameters.get(key)
            if a != b:
                raise AnalysisError(f"{run.directory}: parameter {key_name(key)} is {b!r}, but "
                                    f"{first.directory} has {a!r}; not the same experiment")
    seen: dict[tuple[object, object], Run] = {}
    for run in runs:
        key = (run.meta["parameters"].get("seed"), run.meta["parameters"].get("run"))
        if key in seen:
            raise AnalysisError(f"{run.directory}: the same replication (seed {key[0]}, run "
                                f"{key[1]}) as {seen[key].directory}")
        seen[key] = run
    workloads: dict[str, Run] = {}
    for run in runs:
        parameters = run.meta["parameters"]
        workload = ("--arrivals=ns2" if parameters.get("arrivals") == "ns2"
                    else f"--flowFile={parameters['flowFile']}" if parameters.get("flowFile")
                    else "")
        if workload in workloads and workload:
            raise AnalysisError(f"{run.directory}: the same flows as {workloads[workload].directory} "
                                f"({workload}: the same flows for every seed and run), a copy of "
                                "its workload, not a replication")
        workloads[workload] = run
    digests: dict[str, Run] = {}
    for run in runs:
        digest = workload_digest(run.fct)
        if digest in digests:
            raise AnalysisError(f"{run.directory}: the same flows as {digests[digest].directory} "
                                "(src, dst, size_bytes and start_s of every flow), a copy of its "
                                "workload, not a replication")
        digests[digest] = run


def replication_identity(meta: dict, with_replication: bool = True) -> str:
    """What makes two runs one replication of one experiment, as text to key by: their
    parameters beyond replication (compared_parameters less REPLICATION_PARAMETERS), their build
    (BUILD_KEYS), seed and run (with_replication False: the experiment alone, which its
    replications share); check_poolable refuses two runs of one identity. meta is a meta.json as
    written (its parameters under any of their names)."""
    parameters = current_names(meta["parameters"])
    compared = compared_parameters({**meta, "parameters": parameters})
    replication = [parameters.get("seed"), parameters.get("run")] if with_replication else []
    return json.dumps([{key: value for key, value in compared.items()
                        if key not in REPLICATION_PARAMETERS},
                       [meta.get(key) for key in BUILD_KEYS], *replication], sort_keys=True,
                      default=str)


def check_same_as_first(run, first, keys: list[str], section: str = "parameters",
                        what: str = "parameter ") -> None:
    """Refuse a run (a Run, or any run with .directory and .meta) of a figure whose meta.json
    differs from the figure's first run in one of keys (of its section)."""
    for key in keys:
        value, expected = run.meta[section].get(key), first.meta[section].get(key)
        if value != expected:
            raise AnalysisError(f"{run.directory}: {what}{key} is {value!r}, but "
                                f"{first.directory} has {expected!r}")


def check_output_name(name: str) -> None:
    """Refuse an output file name stem (--name) that is empty or names a directory."""
    if not name or "/" in name:
        raise AnalysisError(f"--name {name!r}: expected a file name stem")


def bin_edges(kb: int = 1000) -> list[int]:
    """SIZE_BIN_EDGES in bytes when a KB is kb bytes (1024: 100KB is 102,400 B, 10MB 10 MiB)."""
    return [count * kb**power for count, power in map(size_in_unit, SIZE_BIN_EDGES)]


def size_bins(size_bytes: pd.Series, kb: int = 1000) -> pd.Series:
    """The size bin of each flow, BIN_NAMES: (0,100KB], (100KB,10MB], (10MB,inf)."""
    return pd.cut(size_bytes, bins=[0, *bin_edges(kb), np.inf], labels=BIN_NAMES, right=True)


def normalise(fct: pd.DataFrame) -> pd.DataFrame:
    """Add slowdown = fct_s / ideal_fct_s (NaN for unfinished flows)."""
    out = fct.copy()
    out["slowdown"] = np.where(out["completed"] == 1, out["fct_s"] / out["ideal_fct_s"], np.nan)
    return out


def percentile_nearest_rank(values: pd.Series, q: float) -> float:
    """The q-th percentile by nearest rank (as pfabric-websearch prints it)."""
    values = values.dropna()
    if values.empty:
        return float("nan")
    return float(np.percentile(values.to_numpy(), q, method="inverted_cdf"))


def summarize(fct: pd.DataFrame, kb: int = 1000) -> pd.DataFrame:
    """Per size bin and overall: completed flows, mean and p99 slowdown, unfinished flows."""
    frame = normalise(fct)
    frame["bin"] = size_bins(frame["size_bytes"], kb)
    rows = []
    groups = [(name, frame[frame["bin"] == name]) for name in BIN_NAMES] + [("all", frame)]
    for name, group in groups:
        done = group["slowdown"].dropna()
        rows.append({"bin": name,
                     "flows": int(done.size),
                     "mean": float(done.mean()) if done.size else float("nan"),
                     "p99": percentile_nearest_rank(done, 99),
                     "unfinished": int((group["completed"] == 0).sum())})
    return pd.DataFrame(rows)


def core_seconds(meta: dict) -> float | None:
    """A run's cost in processor seconds (CORE_SECONDS_KEYS), None if its meta.json records none."""
    return next((float(meta[key]) for key in CORE_SECONDS_KEYS
                 if isinstance(meta.get(key), (int, float))), None)
