"""What a sweep is: its grid (workloads x schemes x loads x runs) and the knobs its points share
(SweepSpec), read from the command line (--set, --custom-scheme, --flows) and checked before
anything runs, the knobs and the schemes against the programs themselves (check_knobs,
check_schemes: the schemes are the programs' --listSchemes and Ideal). Part of the sweep
(pfabric_analysis.sweep, which describes the sweep directory)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

from pfabric_analysis import REPOSITORY, allocator
from pfabric_analysis.programs import program_option_names, run_program
from pfabric_analysis.runs import CUSTOM_SCHEME, IDEAL_SCHEME, AnalysisError
from pfabric_analysis.values import COUNT, LOAD, POSITIVE, BadValue

WORKLOADS = ("websearch", "datamining")
WORKLOADS_DIR = REPOSITORY / "workloads"  # their CDFs, where a checkout keeps them
# The programs' option that names a custom scheme's run (PfabricCustomScheme): the sweep sets it
# to the point's label.
LABEL_OPTION = "schemeLabel"
# Options the sweep sets itself; --set may not override them.
RESERVED_KNOBS = {"scheme", LABEL_OPTION, "load", "run", "seed", "flows", "out", "flowFile",
                  "dumpFlows", "flowsOnly", "quiet"}
# The programs' option that picks the packet schemes' host stack (ns3tcp, lean): the sweep sets it
# from --host-stack on packet points only (Ideal has no hosts), so --set may not.
HOST_STACK_OPTION = "hostStack"
# Options of the programs that a sweep option sets instead of --set, by the sweep option's name.
SWEEP_OPTION_KNOBS = {HOST_STACK_OPTION: "--host-stack"}
# A custom scheme's label, which names its points' directories: what the programs take too.
SCHEME_LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")
# An option name of the programs (ns-3's CommandLine, lowerCamelCase).
OPTION_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")
# An ns-3 attribute's default by its path, as the programs' command lines take it (--set
# ns3::PfabricLineRateTcpSocket::Window=24); meta.json records it in ns3_settings.
NS3_ATTRIBUTE = re.compile(r"ns3::[A-Za-z][A-Za-z0-9]*::[A-Za-z][A-Za-z0-9]*")
# The measurement window's options (the programs' --warmupFlows, --measureFlows and
# --measureMaxBytes), as knobs.
WARMUP_KNOB, MEASURE_KNOB, MAX_BYTES_KNOB = "warmupFlows", "measureFlows", "measureMaxBytes"
WINDOW_KNOBS = (WARMUP_KNOB, MEASURE_KNOB, MAX_BYTES_KNOB)


@dataclass(frozen=True)
class SweepSpec:
    """The grid and the knobs every point shares."""

    workloads: tuple[str, ...]
    schemes: tuple[str, ...]
    loads: tuple[float, ...]
    runs: tuple[int, ...]
    flows: tuple[tuple[str, int], ...]  # flows per point, by workload (unused with a window)
    seed: int = 1
    knobs: tuple[tuple[str, str], ...] = ()
    # Knobs of one workload only (e.g. its window), over the shared ones.
    workload_knobs: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    # Custom schemes by label, each with its options (--custom-scheme LABEL:KEY=VALUE).
    custom_schemes: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    # The packet schemes' host stack (the programs' --hostStack); None: the programs' default,
    # ns-3's TCP/IP.
    host_stack: str | None = None

    def flows_of(self, workload: str) -> int:
        return dict(self.flows)[workload]

    def knobs_of(self, workload: str) -> tuple[tuple[str, str], ...]:
        """The knobs of a workload's points: the shared ones, then its own over them."""
        return tuple(sorted({**dict(self.knobs),
                             **dict(dict(self.workload_knobs).get(workload, ()))}.items()))

    def packet_schemes(self) -> list[str]:
        """The schemes of the grid that run the program: all but Ideal."""
        return [scheme for scheme in self.schemes if scheme != IDEAL_SCHEME]

    def scheme_options(self, scheme: str) -> tuple[str, ...]:
        """The programs' options that select a scheme: --scheme, or a custom scheme's options."""
        custom = dict(self.custom_schemes)
        if scheme not in custom:
            return (f"--scheme={scheme}", *self.host_stack_options())
        return (f"--scheme={CUSTOM_SCHEME}", f"--{LABEL_OPTION}={scheme}",
                *(f"--{key}={value}" for key, value in custom[scheme]), *self.host_stack_options())

    def host_stack_options(self) -> tuple[str, ...]:
        """The programs' option for --host-stack, none for the programs' default."""
        return () if self.host_stack is None else (f"--{HOST_STACK_OPTION}={self.host_stack}",)

    def window_of(self, workload: str) -> tuple[int, int] | None:
        """(warm-up flows, measured flows) of a workload's points, None without the window."""
        knobs = dict(self.knobs_of(workload))
        if MEASURE_KNOB not in knobs:
            return None
        return int(knobs.get(WARMUP_KNOB, 0)), int(knobs[MEASURE_KNOB])

    def as_json(self) -> dict:
        found = {**asdict(self), "flows": dict(self.flows), "knobs": dict(self.knobs)}
        # Each absent when empty: sweeps written before it still resume.
        for key in ("workload_knobs", "custom_schemes"):
            found.pop(key)
            if getattr(self, key):
                found[key] = {name: dict(knobs) for name, knobs in getattr(self, key)}
        if self.host_stack is None:
            found.pop("host_stack")
        return found


def camel_case(dashed: str) -> str:
    """An option name in the programs' lowerCamelCase (ns-3's style): hash-demux -> hashDemux."""
    first, *rest = dashed.split("-")
    return first + "".join(word[:1].upper() + word[1:] for word in rest)


def parse_knobs(pairs: Iterable[str], reserved: set[str] = RESERVED_KNOBS,
                setter: str = "the sweep itself",
                flag: str = "--set ") -> tuple[tuple[str, str], ...]:
    """--set KEY=VALUE options into sorted (key, value) pairs; `reserved` keys are refused, each
    error naming the pair after `flag`.

    A dashed KEY (the programs' option names before they became lowerCamelCase, such as
    hash-demux) is refused with the name to use instead: mapping it silently would record a
    sweep's knobs under two spellings."""
    knobs = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.removeprefix("--")
        if not sep or not key:
            raise AnalysisError(f"{flag}{pair}: expected KEY=VALUE, e.g. preset=sigcomm13")
        if "-" in key:
            raise AnalysisError(f"{flag}{pair}: the programs' options are camelCase, e.g. "
                                f"{flag}{camel_case(key)}={value}")
        if not OPTION_NAME.fullmatch(key) and not NS3_ATTRIBUTE.fullmatch(key):
            raise AnalysisError(f"{flag}{pair}: {key!r} is not an option name (letters and "
                                "digits, e.g. --set preset=sigcomm13) or an ns-3 attribute "
                                "(e.g. --set ns3::PfabricLineRateTcpSocket::Window=24)")
        if key in reserved:
            raise AnalysisError(f"{flag}{pair}: {key} is set by {setter}")
        if key in SWEEP_OPTION_KNOBS:
            raise AnalysisError(f"{flag}{pair}: use {SWEEP_OPTION_KNOBS[key]} {value}, which sets "
                                f"{key} on the packet schemes only")
        knobs[key] = value
    return tuple(sorted(knobs.items()))


def parse_custom_schemes(pairs: Iterable[str]) -> tuple[tuple[str, tuple[tuple[str, str], ...]],
                                                         ...]:
    """--custom-scheme LABEL:KEY=VALUE options into (label, sorted (key, value) pairs), by label;
    the keys as --set's (parse_knobs), of the custom scheme's own options (the sweep sets
    --scheme and --schemeLabel)."""
    schemes: dict[str, list[str]] = {}
    for pair in pairs:
        label, sep, knob = pair.partition(":")
        if not sep or not SCHEME_LABEL.fullmatch(label) or "=" not in knob:
            raise AnalysisError(f"--custom-scheme {pair}: expected LABEL:KEY=VALUE, e.g. "
                                "fqcodel-cubic:portQueueDisc=ns3::FqCoDelQueueDisc (a label of "
                                "letters, digits, '.', '_', '+' or '-')")
        schemes.setdefault(label, []).append(knob)
    return tuple(sorted((label, parse_knobs(knobs, flag=f"--custom-scheme {label}:"))
                        for label, knobs in schemes.items()))


def windowless_options(knobs: Iterable[tuple[str, str]]) -> tuple[str, ...]:
    """Knobs as the programs' options, but the measurement window's, which a run outside a
    point's (a flow list alone, a one-flow run) does not take."""
    return tuple(f"--{key}={value}" for key, value in knobs if key not in WINDOW_KNOBS)


def check_knobs(knobs: Iterable[tuple[str, str]], program: Path,
                options: tuple[str, ...] = ()) -> None:
    """Refuse a --set key that is not an option of the program, and a value the program refuses
    (its own error line), before anything runs: the program would refuse it at every point,
    after the sweep directory was made. The values are tried on the program's flow list alone
    (--flowsOnly into a temporary directory), with `options` (e.g. --scheme=custom) before them;
    the measurement window's, which a flow list does not take, are the sweep's to check."""
    import tempfile

    knobs = tuple(knobs)
    for key, value in knobs:
        # An attribute is not in --PrintHelp: the trial below runs it, and the program names an
        # unknown one.
        if not NS3_ATTRIBUTE.fullmatch(key) and key not in program_option_names(program):
            raise AnalysisError(f"--set {key}={value}: unknown option {key} of {program.name} "
                                f"(its --PrintHelp lists its options)")
    tried = windowless_options(knobs)
    if not tried and not options:
        return
    with tempfile.TemporaryDirectory(prefix="pfabric-knobs-") as scratch:
        result = run_program([str(program), *options, *tried, "--flows=1", "--flowsOnly", "--quiet",
                            f"--dumpFlows={Path(scratch) / 'flows.csv'}"])
    lines = result.stderr.strip().splitlines() or [f"exit status {result.returncode}"]
    # A list that could not be written (a full disk) says nothing of the values: the sweep's own
    # writes report that.
    if result.returncode != 0 and scratch not in lines[-1]:
        raise AnalysisError(f"{program.name} refuses "
                            f"{lines[-1].removeprefix(f'{program.name}: error: ')}")


def check_spec(spec: SweepSpec) -> None:
    """Refuse an empty grid and unknown names before anything runs."""
    for label, values in (("--workloads", spec.workloads), ("--schemes", spec.schemes),
                          ("--loads", spec.loads), ("--runs", spec.runs)):
        if not values:
            raise AnalysisError(f"{label}: empty, nothing to sweep")
        twice = next((value for i, value in enumerate(values) if value in values[:i]), None)
        if twice is not None:
            # Two tasks of one point would run at once in one run directory.
            raise AnalysisError(f"{label}: {twice!r} given twice")
    try:
        allocator.preload(os.environ)
    except allocator.AllocatorError as error:
        raise AnalysisError(str(error)) from error
    for workload in spec.workloads:
        if workload not in WORKLOADS:
            raise AnalysisError(f"--workloads: unknown workload {workload!r}; expected "
                                f"{', '.join(WORKLOADS)}")
    custom = dict(spec.custom_schemes)
    for label in custom:
        if not SCHEME_LABEL.fullmatch(label):
            raise AnalysisError(f"--custom-scheme {label}: a label is letters, digits, '.', '_', "
                                "'+' or '-' (it names the points' directories)")
        if label in (IDEAL_SCHEME, CUSTOM_SCHEME):
            raise AnalysisError(built_in_label(label))
        if label not in spec.schemes:
            raise AnalysisError(f"--custom-scheme {label}: not in --schemes (name it there to "
                                "run it)")
    for load in spec.loads:
        if not LOAD.contains(load):
            raise AnalysisError(f"--loads: {load} is not in (0, 1)")
    for workload in spec.workloads:
        count = dict(spec.flows).get(workload)
        if count is None or count < 1:
            raise AnalysisError(f"--flows: {workload}: expected at least one flow")
        knobs = dict(spec.knobs_of(workload))
        for key, kind in ((WARMUP_KNOB, COUNT), (MEASURE_KNOB, POSITIVE), (MAX_BYTES_KNOB, COUNT)):
            if key not in knobs:
                continue
            try:
                kind(knobs[key])
            except BadValue as error:
                raise AnalysisError(f"--set {key}={knobs[key]}: expected {error.expected}"
                                    ) from error
        for key in (WARMUP_KNOB, MAX_BYTES_KNOB):
            if key in knobs and MEASURE_KNOB not in knobs:
                raise AnalysisError(f"--set {key}: needs --set {MEASURE_KNOB} (the window)")


def built_in_label(label: str) -> str:
    """The error of a custom scheme labelled with a built-in scheme's name."""
    return f"--custom-scheme {label}: a built-in scheme's name; label custom schemes otherwise"


def check_schemes(spec: SweepSpec, built_ins: Iterable[str]) -> None:
    """Refuse a scheme of --schemes that is none of the program's built-in schemes (its
    --listSchemes, programs.built_in_schemes), Ideal or a label of --custom-scheme, and a custom
    scheme labelled as a built-in one: each error one line naming the option and the schemes the
    program knows. Checked once the programs are found: a sweep whose every point is stored runs
    none, and its schemes are those of its stored points."""
    known = [*built_ins, IDEAL_SCHEME]
    custom = dict(spec.custom_schemes)
    for scheme in spec.schemes:
        if scheme not in known and scheme not in custom:
            raise AnalysisError(f"--schemes: unknown scheme {scheme!r}; expected "
                                f"{', '.join(known)} or a label of --custom-scheme")
    for label in custom:
        if label in known:
            raise AnalysisError(built_in_label(label))


def parse_flows(text: str, workloads: Iterable[str]) -> tuple[tuple[str, int], ...]:
    """--flows N (every workload) or --flows websearch=N,datamining=M; each N a count of at
    least one flow (values.POSITIVE)."""
    try:
        if "=" not in text:
            return tuple((w, POSITIVE(text)) for w in workloads)
        pairs = dict(item.split("=", 1) for item in text.split(","))
        unknown = sorted(set(pairs) - set(WORKLOADS))
        if unknown:
            raise AnalysisError(f"--flows {text}: unknown workload {unknown[0]!r}")
        return tuple((w, POSITIVE(pairs[w])) for w in workloads)
    except BadValue as error:
        raise AnalysisError(f"--flows {text}: {error}") from error
    except (ValueError, KeyError) as error:
        raise AnalysisError(f"--flows {text}: expected N or websearch=N,datamining=M "
                            f"covering every workload") from error
