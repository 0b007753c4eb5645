"""pfabric-analysis ideal and ideal-bench: the Ideal scheme on a flow list (a run directory), and
its scheduler timed on synthetic flows."""

from __future__ import annotations

import argparse

from pfabric_analysis.commands import Subcommands
from pfabric_analysis.runs import AnalysisError
from pfabric_analysis.sweep_spec import WORKLOADS
from pfabric_analysis.values import COUNT, HOSTS, LOAD, PATH, POSITIVE, RATE, SEED


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



def ideal_command(args: argparse.Namespace) -> int:
    """pfabric-analysis ideal: the Ideal scheme of a packet run's fabric or a preset's."""
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


def ideal_bench_command(args: argparse.Namespace) -> int:
    """pfabric-analysis ideal-bench: the scheduler's counts and speed."""
    from pfabric_analysis import ideal as scheduler

    figures = scheduler.bench(args.flows, args.load, args.hosts, args.seed,
                              args.cdf or scheduler.default_cdf())
    print(f"ideal-bench: {args.hosts} hosts, load {args.load}, seed {args.seed}")
    for name in ("flows", "events", "preemptions", "peak_active"):
        print(f"{name} {figures[name]}")
    print(f"wall time {figures['wall_time_s']:.3f} s")
    print(f"flows/s {figures['flows_per_s']:.0f}")
    return 0


def register_ideal(sub: Subcommands) -> None:
    """pfabric-analysis ideal: the Ideal scheme on a flow list."""
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
    ideal.set_defaults(handler=ideal_command)


def register_ideal_bench(sub: Subcommands) -> None:
    """pfabric-analysis ideal-bench: the Ideal scheduler timed."""
    bench = sub.add_parser("ideal-bench", help="time the Ideal scheduler on synthetic flows")
    bench.add_argument("--flows", type=POSITIVE, default=100000)
    bench.add_argument("--load", type=LOAD, default=0.8)
    bench.add_argument("--hosts", type=HOSTS, default=144)
    bench.add_argument("--seed", type=SEED, default=1)
    bench.add_argument("--cdf", type=PATH, help="flow size CDF (default workloads/websearch.cdf)")
    bench.set_defaults(handler=ideal_bench_command)
