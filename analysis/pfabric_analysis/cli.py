"""The pfabric-analysis command: summarise runs, compare them (CDFs, side-by-side tables), compute
the Ideal scheme, run sweeps (locally or on a Dask cluster), draw Figures 2-4 of the paper, and
report the versions provenance records need."""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import shlex
import sys
from typing import NoReturn

from pfabric_analysis import __version__, git_commit
from pfabric_analysis.flowcount import WINDOW_WARMUPS
from pfabric_analysis.runs import (BIN_NAMES, AnalysisError, check_poolable, read_csv_checked,
                                   read_run, summarize)
from pfabric_analysis.steady import BATCHES as STEADY_BATCHES
from pfabric_analysis.steady import BLOCK_FLOWS as STEADY_BLOCK_FLOWS
from pfabric_analysis.sweep_spec import WORKLOADS
from pfabric_analysis.values import (COUNT, FRACTION, HOSTS, LOAD, PATH, POSITIVE, RATE,
                                     REPLICATIONS, SECONDS, SEED, BadValue)


class Parser(argparse.ArgumentParser):
    """argparse, but a bad command line is one line (AnalysisError, as every bad input) instead
    of the usage and an exit status of 2: -h gives the usage. A value its type refused is named
    as the other errors name theirs: --load 1.5: expected a number in (0, 1)."""

    def error(self, message: str) -> NoReturn:
        failure = sys.exc_info()[1]  # argparse calls error() handling the ArgumentError
        refused = getattr(failure, "__context__", None)
        if isinstance(failure, argparse.ArgumentError) and isinstance(refused, BadValue):
            option = (failure.argument_name or "").split("/")[-1]
            message = f"{option} {shlex.quote(refused.text)}: expected {refused.expected}"
        raise AnalysisError(message)


def versions() -> dict[str, str]:
    """The module version and git commit, and the installed versions of the packages analysis
    depends on."""
    found = {"pfabric": __version__, "git_commit": git_commit() or "not a git checkout"}
    for package in ("ns3", "numpy", "pandas", "scipy", "matplotlib", "dask", "distributed",
                    "sem"):
        try:
            found[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            found[package] = "not installed"
    return found


def add_sweep_options(parser: argparse.ArgumentParser, required_out: bool) -> None:
    """Where a sweep runs and writes: shared by sweep and reproduce."""
    parser.add_argument("--out", type=PATH, required=required_out, metavar="SWEEP_DIR",
                        help="sweep directory (a re-run resumes it)"
                             + ("" if required_out else
                                "; default results/reproduce-quick|standard|full"))
    parser.add_argument("-j", "--jobs", type=POSITIVE, default=os.cpu_count() or 1,
                        help="local processes at once (default: one per core)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run on this Dask distributed scheduler (tcp://host:8786) instead")
    parser.add_argument("--bin-dir", type=PATH,
                        help="where pfabric-websearch/-datamining are (default: $PFABRIC_BUILD_DIR"
                             "/bin, else build/bin of the module)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--host-stack", metavar="STACK",
                        help="the packet schemes' host stack, the programs' --hostStack (ns3tcp: "
                             "ns-3's TCP/IP, the programs' default; lean: the lean host, doc 'The "
                             "lean host'); recorded in each run's meta.json, and runs of two "
                             "stacks never pool")
    parser.add_argument("--store", type=PATH, metavar="STORE_DIR",
                        help="also write every finished point there, compact (fct.columns.xz of its "
                             "measured flows, meta.json), to commit; a point there is finished, "
                             "so a sweep resumes from a store alone (a fresh clone)")
    parser.add_argument("--until-citable", type=REPLICATIONS, metavar="MAX_RUNS",
                        help="with --store: after the grid, add runs to each point that misses "
                             "rule (a) (a statistic's 95%% interval wider than 3%%), as many as "
                             "the spread of its runs says it needs, round after round, until it "
                             "is citable or would need more than MAX_RUNS runs in all")


def add_output_options(parser: argparse.ArgumentParser,
                       files: str = "NAME.png/.pdf/.csv/.md/.json", name: str | None = None) -> None:
    """--out DIR, where a command writes its files, and for a command given a default stem
    `name`, --name, the files' stem: the one definition of the pair."""
    parser.add_argument("--out", type=PATH, required=True, metavar="DIR",
                        help=f"where {files} go")
    if name is not None:
        parser.add_argument("--name", default=name,
                            help=f"the output files' stem (default {name})")


def add_kb_option(parser: argparse.ArgumentParser) -> None:
    """--kb: the size bins' unit, for every command that bins flows by size."""
    parser.add_argument("--kb", type=POSITIVE, choices=(1000, 1024), default=1000,
                        help="bytes per KB of the size bins (default 1000)")


def add_batches_option(parser: argparse.ArgumentParser) -> None:
    """--batches: batches per run of the figures' 95% intervals (1: replications)."""
    from pfabric_analysis.intervals import DEFAULT_BATCHES

    parser.add_argument("--batches", type=POSITIVE, default=DEFAULT_BATCHES, metavar="B",
                        help="batches per run behind each 95%% interval: 1 (default "
                             f"{DEFAULT_BATCHES}), independent replications, one value per run; "
                             "more, batch means over each run's measured flows in flow id order "
                             "(for runs at steady state)")


def add_yscale_option(parser: argparse.ArgumentParser) -> None:
    """--yscale: the figures' y axis."""
    from pfabric_analysis.scales import DEFAULT_Y_SCALE, Y_SCALES

    parser.add_argument("--yscale", choices=Y_SCALES, default=DEFAULT_Y_SCALE,
                        help=f"the panels' y axis (default {DEFAULT_Y_SCALE}: the baselines are "
                             "up to 40x above ideal, pFabric a few %% above it)")


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="pfabric-analysis", description=__doc__)
    parser.add_argument("--version", action="version", version=f"pfabric {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("versions", help="print the module and package versions")
    summary = sub.add_parser("summarize", help="FCT / ideal FCT per size bin of run directories "
                                              "(several: replications, pooled)")
    summary.add_argument("runs", nargs="+", type=PATH, metavar="RUN_DIR")
    add_kb_option(summary)
    summary.add_argument("--csv", type=PATH, help="also write the table to this CSV file")
    summary.add_argument("--blocks", type=COUNT, default=0, metavar="B",
                         help="one run: also its flows in arrival order in B blocks, each "
                              "block's statistics and the flows in progress at its last "
                              "arrival (is the run at steady state?)")
    steady = sub.add_parser("steady", help="a point's steady-state statistics from its runs "
                                           "(replications, windowed): the warm-up by MSER, "
                                           "rule (a)'s statistics after it with batch-means "
                                           "intervals, and the bias check")
    steady.add_argument("runs", nargs="+", type=PATH, metavar="RUN_DIR")
    add_kb_option(steady)
    steady.add_argument("--block", type=COUNT, default=STEADY_BLOCK_FLOWS, metavar="FLOWS",
                        help="flows per block of the warm-up's trajectory (default "
                             f"{STEADY_BLOCK_FLOWS})")
    steady.add_argument("--batches", type=COUNT, default=STEADY_BATCHES, metavar="B",
                        help="batches per run of the intervals after the warm-up (default "
                             f"{STEADY_BATCHES})")
    steady.add_argument("--csv", type=PATH, help="also write the table to this CSV file")
    cdf = sub.add_parser("cdf", help="the CDF of FCT / ideal FCT per size bin of several runs on "
                                     "one figure (PNG, PDF, cdf.csv, cdf.json)")
    cdf.add_argument("runs", nargs="+", type=PATH, metavar="RUN_DIR")
    add_output_options(cdf, "cdf.png/.pdf/.csv/.json")
    cdf.add_argument("--labels", metavar="A,B,...",
                     help="legend labels, one per RUN_DIR (default: each run's scheme)")
    cdf.add_argument("--bins", default="small,medium,large,all", metavar="BIN,...",
                     help=f"panels, of small {BIN_NAMES[0]}, medium {BIN_NAMES[1]}, large "
                          f"{BIN_NAMES[2]} and all (default all four)")
    add_kb_option(cdf)
    compare = sub.add_parser("compare", help="runs side by side (the first the baseline): "
                                             "statistics per size bin as a table and a figure")
    compare.add_argument("runs", nargs="+", type=PATH, metavar="RUN_DIR")
    add_output_options(compare, "compare.csv/.md/.png/.pdf/.json")
    compare.add_argument("--labels", metavar="A,B,...",
                         help="labels, one per RUN_DIR (default: each run's scheme)")
    compare.add_argument("--allow-different-flows", action="store_true",
                         help="compare runs whose flows (src, dst, size, start) are not the "
                              "baseline's; the table says so")
    add_kb_option(compare)
    levels = sub.add_parser("levels", help="FCT / ideal FCT against priority levels K "
                                           "(--priorityLevels runs), a line per load, "
                                           "unquantised pFabric as reference (PNG, PDF, CSV, "
                                           "markdown, JSON)")
    levels.add_argument("runs", nargs="+", type=PATH, metavar="RUN_DIR",
                        help="one run per load and K on each load's flows, K = 0 the reference")
    add_output_options(levels, name="levels")
    add_kb_option(levels)
    incast = sub.add_parser("incast", help="query completion time / ideal against workers N "
                                           "(pfabric-incast runs), a line per scheme, a column "
                                           "per background load, timeouts per query (PNG, PDF, "
                                           "CSV, markdown, JSON)")
    incast.add_argument("runs", nargs="+", type=PATH, metavar="RUN_DIR",
                        help="pfabric-incast runs: one per background load, scheme and N")
    add_output_options(incast, name="incast")
    deadlines = sub.add_parser("deadlines", help="fraction of deadlines met against load, a line "
                                                 "per scheme, and the FCT / ideal FCT of the "
                                                 "flows without a deadline (pfabric-deadlines "
                                                 "runs; PNG, PDF, CSV, markdown, JSON)")
    deadlines.add_argument("runs", nargs="+", type=PATH, metavar="RUN_DIR",
                           help="pfabric-deadlines runs, one per scheme, priority, onMiss and "
                                "load, each load's on the same flows and deadlines")
    add_output_options(deadlines, name="deadlines")
    classes = sub.add_parser("classes", help="FCT / ideal FCT per traffic class (pfabric-classes "
                                             "runs), a bar per class setting, one queue as "
                                             "reference (PNG, PDF, CSV, markdown, JSON)")
    classes.add_argument("runs", nargs="+", type=PATH, metavar="RUN_DIR",
                         help="one run per class setting (--classes, --classWeights) on the "
                              "same flows")
    add_output_options(classes, name="classes")
    add_kb_option(classes)
    figures = sub.add_parser("figures", help="Figures 2-4 (PNG, PDF), figures.csv and figures.md "
                                             "of a sweep directory of runs or a store of "
                                             "compact points, with 95%% intervals and each "
                                             "point's citable status")
    figures.add_argument("sweep", type=PATH, metavar="SWEEP_DIR",
                         help="a sweep directory, or a store (sweep --store)")
    figures.add_argument("--out", type=PATH, metavar="DIR", help="default SWEEP_DIR/figures")
    figures.add_argument("--large-from", type=PATH, metavar="DIR",
                         help="with steady-state points (--measureMaxBytes): draw their "
                              "largest flows' bin from this sweep or store of runs to completion, "
                              "hollow")
    figures.add_argument("--ideal-counts", type=PATH, metavar="FLOWCOUNT_CSV",
                         help="with --large-from: Ideal's mean of the largest flows at the "
                              "longer counts of this flow-count study (flowcount.csv) beside it")
    add_kb_option(figures)
    add_batches_option(figures)
    add_yscale_option(figures)
    table = sub.add_parser("figure-table", help="a workload's Figure 3 or 4 numbers, from the "
                                                "figures.csv that figures wrote, as the "
                                                "reStructuredText table of doc/pfabric.rst")
    table.add_argument("csv", type=PATH, metavar="FIGURES_CSV")
    table.add_argument("--workload", choices=WORKLOADS, required=True)
    ideal = sub.add_parser("ideal", help="the Ideal scheme (greedy shortest-remaining-first over "
                                         "host links) on a flow list")
    ideal.add_argument("flow_list", type=PATH, metavar="FLOWS_CSV",
                       help="flow list as --dumpFlows wrote it (src,dst,size_bytes,start_s)")
    fabric = ideal.add_mutually_exclusive_group(required=True)
    fabric.add_argument("--like", type=PATH, metavar="RUN_DIR",
                        help="packet run on the same flows: ideal_fct_s, link, parameters")
    fabric.add_argument("--preset", help="or the fabric of this preset (hotnets12, sigcomm13), "
                                         "from pfabric-WORKLOAD --idealOnly: no packet run")
    ideal.add_argument("--workload", choices=WORKLOADS, default=WORKLOADS[0],
                       help="with --preset: the program, and the run's label (default %(default)s)")
    ideal.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                       help="with --preset: any other option of the program, e.g. --set "
                            "hostsPerLeaf=8 or --set load=0.8 (a parameter recorded; repeatable)")
    ideal.add_argument("--bin-dir", type=PATH,
                       help="with --preset: where pfabric-websearch/-datamining are (default: "
                            "$PFABRIC_BUILD_DIR/bin, else build/bin of the module)")
    ideal.add_argument("--out", type=PATH, required=True, metavar="OUT_DIR",
                       help="run directory to write (fct.csv, meta.json)")
    ideal.add_argument("--force", action="store_true", help="replace an existing OUT_DIR/fct.csv")
    ideal.add_argument("--rate-bps", type=RATE, help="host line rate (default: RUN_DIR's)")
    ideal.add_argument("--segment-bytes", type=POSITIVE,
                       help="payload per packet (default: RUN_DIR's)")
    ideal.add_argument("--overhead-bytes", type=COUNT,
                       help="header bytes per packet (default: RUN_DIR's)")
    ideal.add_argument("--measure-flows", type=COUNT, default=0, metavar="N",
                       help="measurement window: measure N flows (those after the warm-up) "
                            "while the list's arrivals go on; fct.csv then holds the flows "
                            "arrived by the last measured completion, with a 'measured' column "
                            "(default 0: every flow to completion)")
    ideal.add_argument("--warmup-flows", type=COUNT, default=0, metavar="W",
                       help="with --measure-flows: the list's first W flows are not measured "
                            "(default 0)")
    ideal.add_argument("--measure-max-bytes", type=COUNT, default=0, metavar="S",
                       help="with --measure-flows: measure only the window's flows of at most "
                            "S bytes and end when they have completed, as the programs' "
                            "--measureMaxBytes (default 0: every size)")
    bench = sub.add_parser("ideal-bench", help="time the Ideal scheduler on synthetic flows")
    bench.add_argument("--flows", type=POSITIVE, default=100000)
    bench.add_argument("--load", type=LOAD, default=0.8)
    bench.add_argument("--hosts", type=HOSTS, default=144)
    bench.add_argument("--seed", type=SEED, default=1)
    bench.add_argument("--cdf", type=PATH, help="flow size CDF (default workloads/websearch.cdf)")
    grid = sub.add_parser("sweep", help="run a grid of experiments (local processes or Dask), "
                                        "resumable, one run directory per point")
    add_sweep_options(grid, required_out=True)
    grid.add_argument("--workloads", default="websearch",
                      help="comma-separated: websearch, datamining (default websearch)")
    grid.add_argument("--schemes", default="pfabric,linerate,tcp,dctcp,ideal",
                      help="comma-separated: pfabric, linerate, tcp, dctcp, ideal (default all) "
                           "and the labels of --custom-scheme")
    grid.add_argument("--loads", default="0.5", help="comma-separated loads (default 0.5)")
    grid.add_argument("--runs", default="1", help="comma-separated run numbers (default 1)")
    grid.add_argument("--flows", default="1000",
                      help="flows per point: N, or websearch=N,datamining=M (default 1000)")
    grid.add_argument("--seed", type=SEED, default=1)
    grid.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                      help="any other option of the programs, by its camelCase name, e.g. --set "
                           "preset=sigcomm13 or --set reuseConnections=0, or an ns-3 attribute "
                           "by its path, e.g. --set "
                           "ns3::PfabricTcpSocketFactory::LineRateWindow=24 (repeatable)")
    grid.add_argument("--custom-scheme", action="append", default=[],
                      metavar="LABEL:KEY=VALUE",
                      help="a custom scheme of --schemes (the programs' --scheme=custom, ns-3 "
                           "parts by name) and one of its options, e.g. --custom-scheme "
                           "fqcodel-cubic:portQueueDisc=ns3::FqCoDelQueueDisc (repeatable); only "
                           "its points get them, with --schemeLabel=LABEL")
    kept = sub.add_parser("store", help="committed compact points: store add RUN_DIR... "
                                         "--store DIR compacts finished run directories")
    kept_sub = kept.add_subparsers(dest="store_command", required=True, metavar="add")
    kept_add = kept_sub.add_parser("add", help="compact run directories into a store (one "
                                               "point each, named by its directory)")
    kept_add.add_argument("runs", nargs="+", type=PATH, metavar="RUN_DIR")
    kept_add.add_argument("--store", type=PATH, required=True, metavar="STORE_DIR")
    campaign = sub.add_parser("sem", help="an SEM campaign (PyPI sem) of pfabric-websearch or "
                                          "-datamining in an ns-3 tree: a grid of the program's "
                                          "options, FCT / ideal FCT per point and size bin")
    campaign.add_argument("--ns3", type=PATH, required=True, metavar="NS3_DIR",
                          help="ns-3 source tree (CMake, 3.36 or later) with this module in "
                               "contrib/pfabric, configured with --enable-examples and built")
    campaign.add_argument("--campaign", type=PATH, required=True, metavar="DIR",
                          help="SEM campaign directory: created, or loaded and extended (points "
                               "it has are not run again)")
    campaign.add_argument("--program", default="pfabric-websearch",
                          choices=("pfabric-websearch", "pfabric-datamining"),
                          help="the program to run (default pfabric-websearch)")
    campaign.add_argument("--grid", action="append", default=[], metavar="KEY=V1,V2,...",
                          help="an option of the program and its values, by its camelCase name, "
                               "e.g. --grid scheme=pfabric,tcp (repeatable; the grid is every "
                               "combination)")
    campaign.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                          help="an option of the program held at one value on every point, e.g. "
                               "--set flows=500 (repeatable)")
    campaign.add_argument("--runs", default="1",
                          help="comma-separated run numbers (--run and SEM's RngRun; default 1)")
    campaign.add_argument("-j", "--jobs", type=POSITIVE, default=os.cpu_count() or 1,
                          help="runs at once (default: one per core)")
    add_kb_option(campaign)
    campaign.add_argument("--out", type=PATH, metavar="DIR",
                          help="also write the table to DIR/sem.csv, its provenance to "
                               "DIR/sem.json")
    again = sub.add_parser("reproduce", help="the paper's Figures 2-4: both workloads, all five "
                                             "schemes, loads 0.1 to 0.8, then the figures")
    size = again.add_mutually_exclusive_group(required=True)
    size.add_argument("--quick", action="store_true", help="one short run per point (flows: "
                      "pfabric_analysis.reproduce.SCALES): minutes, not citable")
    size.add_argument("--standard", action="store_true",
                      help="the citable tier: several runs per point, intervals from the "
                           "replications (runs and flows: pfabric_analysis.reproduce.SCALES; "
                           "doc, 'The standard tier')")
    size.add_argument("--full", action="store_true", help="the paper's 100,000 flows per point "
                                                          "(a cluster: --scheduler)")
    add_sweep_options(again, required_out=False)
    add_batches_option(again)
    add_yscale_option(again)
    again.add_argument("--size", choices=("smoke",), help=argparse.SUPPRESS)  # the doc test's
    count = sub.add_parser("flow-count", help="how many flows a point needs: the Ideal scheme's "
                                              "statistics for growing flow counts against the "
                                              "largest, over several runs")
    add_output_options(count, "flowcount.csv/.md/.json")
    count.add_argument("--workloads", default="websearch,datamining",
                       help="comma-separated (default websearch,datamining)")
    count.add_argument("--loads", default="0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8",
                       help="comma-separated (default the paper's 0.1 to 0.8)")
    count.add_argument("--runs", default="1,2,3,4,5",
                       help="run numbers, independent flow lists (default 1 to 5)")
    count.add_argument("--counts", help="comma-separated flow counts; the largest is the "
                                        "reference (default 1000, 2000, 5000, ... 100000)")
    count.add_argument("--preset", default="hotnets12", help="fabric (default hotnets12)")
    count.add_argument("--seed", type=SEED, default=1)
    count.add_argument("--tolerance", type=FRACTION,
                       help="largest relative error a sufficient count allows (default 0.03)")
    count.add_argument("--cost", type=PATH, action="append", default=[], metavar="RUN_DIR",
                       help="a finished packet run of a workload on the same preset: its hops "
                            "per byte and seconds per hop price each count (repeatable)")
    count.add_argument("--seconds-per-hop", type=SECONDS, metavar="S",
                       help="price every --cost run's hops at S seconds each instead of its own "
                            "(a run's cost per hop grows with its length: price with a long run's)")
    count.add_argument("--window", action="store_true",
                       help="measure a count N as flows W .. W+N-1 of a longer list while its "
                            "arrivals go on (the programs' --warmupFlows/--measureFlows), and "
                            "report the flows each count simulates")
    count.add_argument("--warmup", metavar="W,...",
                       help="with --window: comma-separated warm-ups in flows, each studied "
                            "with its own reference (default "
                            f"{','.join(map(str, WINDOW_WARMUPS))})")
    count.add_argument("-j", "--jobs", type=POSITIVE, default=os.cpu_count() or 1,
                       help="processes at once (default: one per core)")
    count.add_argument("--bin-dir", type=PATH,
                       help="where pfabric-websearch/-datamining are (default: $PFABRIC_BUILD_DIR"
                            "/bin, else build/bin of the module)")
    neck = sub.add_parser("bottleneck", help="all flows into one host of a star: measured FCT "
                                             "minus base latency vs M/G/1 SRPT (pfabric) and "
                                             "processor sharing (tcp)")
    neck.add_argument("--load", type=LOAD, default=0.5, help="load of the receiver's link "
                                                               "(default 0.5)")
    neck.add_argument("--flows", type=POSITIVE, default=2000, help="flows (default 2000)")
    neck.add_argument("--hosts", type=HOSTS, default=16, help="hosts on the star (default 16)")
    neck.add_argument("--seed", type=SEED, default=1, help="seed of the flow list (default 1)")
    neck.add_argument("--schemes", default="pfabric,tcp",
                      help="comma-separated: pfabric, linerate (vs SRPT), tcp, dctcp (vs PS); "
                           "default pfabric,tcp")
    neck.add_argument("--cdf", type=PATH, help="flow size CDF (default workloads/websearch.cdf)")
    add_kb_option(neck)
    neck.add_argument("--out", type=PATH, metavar="DIR",
                      help="default results/bottleneck-loadL-flowsN-seedS")
    neck.add_argument("--bin-dir", type=PATH,
                      help="where pfabric-websearch is (default: $PFABRIC_BUILD_DIR/bin, else "
                           "build/bin of the module)")
    neck.add_argument("--reuse", action="store_true",
                      help="compare the runs already in --out, simulating nothing")
    try:
        args = parser.parse_args(argv)
        args.command_line = shlex.join(["pfabric-analysis",
                                        *(sys.argv[1:] if argv is None else argv)])
        return run_command(args)
    except AnalysisError as error:
        print(f"pfabric-analysis: error: {error}", file=sys.stderr)
        return 1
    except MemoryError:
        # A count beyond this machine (ideal-bench --flows 10000000000): numpy's allocation fails.
        print(f"pfabric-analysis: error: {args.command_line}: out of memory (a count too large "
              "for this machine?)", file=sys.stderr)
        return 1


def ideal_window(warmup_flows: int, measure_flows: int, max_bytes: int = 0):
    """The `ideal` command's measurement window, None when off (--measure-flows 0)."""
    from pfabric_analysis.ideal import Window

    if measure_flows == 0:
        if warmup_flows:
            raise AnalysisError("--warmup-flows: needs --measure-flows (the window)")
        if max_bytes:
            raise AnalysisError("--measure-max-bytes: needs --measure-flows (the window)")
        return None
    return Window(warmup_flows, measure_flows, max_bytes)


def steady_command(args: argparse.Namespace) -> int:
    """pfabric-analysis steady: one point's runs, pooled."""
    from pfabric_analysis import steady

    runs = [read_run(directory) for directory in args.runs]
    check_poolable(runs)
    table = steady.steady_point([run.fct for run in runs], args.block, args.batches, args.kb)
    warmup = int(table["warmup_flows"].iloc[0])
    found = bool(table["warmup_found"].iloc[0])
    print(f"steady state of {len(runs)} run(s): warm-up {warmup} flows "
          f"({'found' if found else 'NOT found: still moving at the end of the search'}; "
          f"MSER over blocks of {args.block} flows), then {args.batches} batches per run "
          f"(KB = {args.kb} B)")
    print(table.drop(columns=["warmup_flows", "warmup_found"])
          .to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    failures = steady.citable(table)
    print("citable" if not failures else f"not citable: {'; '.join(failures)}")
    if args.csv:
        from pfabric_analysis.files import write_file

        write_file(args.csv, table.to_csv(index=False))
    return 0


def run_command(args: argparse.Namespace) -> int:
    """Carry out one sub-command; bad input raises AnalysisError. Modules that pull in
    matplotlib or Dask are imported only by the commands that need them."""
    if args.command == "versions":
        for name, version in versions().items():
            print(f"{name} {version}")
        return 0
    if args.command == "flow-count":
        from pfabric_analysis import flowcount

        return flowcount.main(args)
    if args.command == "bottleneck":
        from pfabric_analysis import bottleneck

        return bottleneck.main(args)
    if args.command == "sem":
        from pfabric_analysis import sem_campaign

        return sem_campaign.main(args, versions())
    if args.command == "store":
        from pfabric_analysis import store

        for point, status in store.add(args.runs, args.store):
            count, shared = store.shared_bytes(args.store, point.name)
            print(f"{status} {point} ({store.point_bytes(args.store, point.name):,} bytes"
                  + (f"; it names {count} shared columns of {shared:,} bytes" if count else "")
                  + ")")
        return 0
    if args.command in ("sweep", "reproduce"):
        from pfabric_analysis import reproduce

        return reproduce.main(args)
    if args.command in ("cdf", "compare"):
        from pfabric_analysis import compare

        if args.command == "cdf":
            written = compare.write_cdf(args.runs, args.out, labels=args.labels, bins=args.bins,
                                        kb=args.kb, command=args.command_line,
                                        versions=versions())
        else:
            written = compare.write_compare(args.runs, args.out, labels=args.labels,
                                            allow_different_flows=args.allow_different_flows,
                                            kb=args.kb, command=args.command_line,
                                            versions=versions())
        for path in written:
            print(f"wrote {path}")
        return 0
    if args.command == "levels":
        from pfabric_analysis.levels import write_levels

        for path in write_levels(args.runs, args.out, name=args.name, kb=args.kb,
                                 command=args.command_line, versions=versions()):
            print(f"wrote {path}")
        return 0
    if args.command == "incast":
        from pfabric_analysis.incast import write_incast

        for path in write_incast(args.runs, args.out, name=args.name,
                                 command=args.command_line, versions=versions()):
            print(f"wrote {path}")
        return 0
    if args.command == "deadlines":
        from pfabric_analysis.deadlines import write_deadlines

        for path in write_deadlines(args.runs, args.out, name=args.name,
                                    command=args.command_line, versions=versions()):
            print(f"wrote {path}")
        return 0
    if args.command == "classes":
        from pfabric_analysis.classes import write_classes

        for path in write_classes(args.runs, args.out, name=args.name, kb=args.kb,
                                  command=args.command_line, versions=versions()):
            print(f"wrote {path}")
        return 0
    if args.command == "figures":
        from pfabric_analysis.figures import write_figures

        for path in write_figures(args.sweep, args.out or args.sweep / "figures", args.kb,
                                  args.batches, args.yscale, args.large_from, args.ideal_counts):
            print(f"wrote {path}")
        return 0
    if args.command == "figure-table":
        from pfabric_analysis.figures import TABLE_COLUMNS, rst_table

        print(rst_table(read_csv_checked(args.csv, TABLE_COLUMNS), args.workload), end="")
        return 0
    if args.command == "ideal":
        from pfabric_analysis import ideal as scheduler

        program, options = None, []
        if args.preset is not None:
            from pfabric_analysis.programs import find_program
            from pfabric_analysis.sweep_spec import check_knobs, parse_knobs

            program = find_program(args.bin_dir, f"pfabric-{args.workload}")
            reserved = {"preset", "flowFile", "out", "idealOnly", "flowsOnly", "quiet",
                        "warmupFlows", "measureFlows"}
            knobs = parse_knobs(args.set, reserved, "pfabric-analysis ideal")
            check_knobs(knobs, program)
            options = [f"--preset={args.preset}",
                       *(f"--{key}={value}" for key, value in knobs)]
        elif args.set or args.bin_dir:
            raise AnalysisError("--set and --bin-dir go with --preset, not --like (the like "
                                "run's parameters are used)")
        result = scheduler.run_ideal(args.flow_list, args.out, like_run=args.like,
                                     program=program, options=options, force=args.force,
                                     rate_bps=args.rate_bps, segment_bytes=args.segment_bytes,
                                     overhead_bytes=args.overhead_bytes,
                                     command_line=scheduler.command_line(),
                                     window=ideal_window(args.warmup_flows, args.measure_flows,
                                                        args.measure_max_bytes))
        print(f"ideal: {len(result.finish_s)} flows, {result.events} events, "
              f"{result.preemptions} preemptions -> {args.out}")
        return 0
    if args.command == "ideal-bench":
        from pfabric_analysis import ideal as scheduler

        figures = scheduler.bench(args.flows, args.load, args.hosts, args.seed,
                                  args.cdf or scheduler.default_cdf())
        print(f"ideal-bench: {args.hosts} hosts, load {args.load}, seed {args.seed}")
        for name in ("flows", "events", "preemptions", "peak_active"):
            print(f"{name} {figures[name]}")
        print(f"wall time {figures['wall_time_s']:.3f} s")
        print(f"flows/s {figures['flows_per_s']:.0f}")
        return 0
    if args.command == "steady":
        return steady_command(args)
    if args.blocks and len(args.runs) != 1:
        raise AnalysisError(f"--blocks {args.blocks}: expected one RUN_DIR")
    runs = [read_run(directory) for directory in args.runs]
    check_poolable(runs)
    import pandas as pd

    table = summarize(pd.concat([run.fct for run in runs], ignore_index=True), kb=args.kb)
    print(f"FCT / ideal FCT of {len(runs)} run(s) (KB = {args.kb} B)")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    if args.blocks:
        from pfabric_analysis.intervals import arrival_blocks

        blocks = arrival_blocks(runs[0].fct, args.blocks, args.kb)
        print(f"\nIn arrival order, {args.blocks} blocks (in progress: at the block's last "
              "arrival)")
        print(blocks.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    if args.csv:
        from pfabric_analysis.files import write_file

        write_file(args.csv, table.to_csv(index=False))
    return 0

if __name__ == "__main__":
    sys.exit(main())
