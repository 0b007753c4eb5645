#!/usr/bin/env python3
# Copyright (c) 2026 The pfabric authors
# SPDX-License-Identifier: GPL-2.0-only
"""pfabric from Python: web search flows on a small fabric under two schemes, through the ns-3
wheel's cppyy bindings (pfabric_analysis.bindings), with a summary per flow-size bin.

    .venv/bin/python examples/pfabric-python.py
    .venv/bin/python examples/pfabric-python.py --schemes pfabric,dctcp --flows 500 --load 0.8
    .venv/bin/python examples/pfabric-python.py --flow-file flows.csv --topology fattree --k 4
    .venv/bin/python examples/pfabric-python.py --schemes tcp,custom \
        --custom portQueueDisc=ns3::FqCoDelQueueDisc --custom tcpCongestionOps=ns3::TcpCubic

Needs the module built (./pfabric build; or --build-dir / PFABRIC_BUILD_DIR). Flows: generated
as pfabric-websearch generates them (--flows, --load, --seed, --run), or read from a flow list
(src,dst,size_bytes,start_s[,deadline_s], e.g. pfabric-websearch --dumpFlows). With --out DIR,
each scheme's DataFrame is also written to DIR/<scheme>.csv (fct.csv's columns).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pandas as pd

from pfabric_analysis import bindings, runs


def option_value(text: str) -> tuple[str, str]:
    """--custom OPTION=VALUE as (option, value)."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"{text!r}: expected OPTION=VALUE")
    return name, value


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schemes", default="pfabric,tcp",
                        help="comma-separated: pfabric, linerate, tcp, dctcp, custom")
    parser.add_argument("--custom", action="append", default=[], type=option_value,
                        metavar="OPTION=VALUE",
                        help="custom: one of its parts, as the programs' option of that name, "
                             "e.g. portQueueDisc=ns3::FqCoDelQueueDisc (repeatable)")
    parser.add_argument("--preset", default="hotnets12")
    parser.add_argument("--topology", default="star", choices=bindings.TOPOLOGIES)
    parser.add_argument("--hosts", type=int, default=8, help="star: hosts")
    parser.add_argument("--k", type=int, help="fattree: radix (default: the preset's)")
    parser.add_argument("--lb", choices=bindings.LOAD_BALANCING,
                        help="load balancing (default: the preset's)")
    parser.add_argument("--flows", type=int, default=300, help="web search flows to generate")
    parser.add_argument("--load", type=float, default=0.6)
    parser.add_argument("--flow-file", type=Path, help="run these flows instead")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--run", type=int, default=1)
    parser.add_argument("--out", type=Path, help="write DIR/<scheme>.csv")
    parser.add_argument("--build-dir", type=Path, help="default PFABRIC_BUILD_DIR or build/")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse(argv)
    started = time.monotonic()
    try:
        bindings.load(args.build_dir)
    except bindings.BindingsError as error:
        print(f"pfabric-python: error: {error}", file=sys.stderr)
        return 1
    print(f"ns-3 and pfabric loaded in {time.monotonic() - started:.1f} s")

    def fabric():
        return bindings.build_fabric(args.topology, hosts=args.hosts, k=args.k, lb=args.lb,
                                     preset=args.preset, seed=args.seed, run=args.run)

    try:
        if args.flow_file:
            flows = pd.read_csv(args.flow_file)
        else:
            flows = bindings.generate_flows(fabric(), args.flows, args.load, preset=args.preset,
                                            seed=args.seed, run=args.run)
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
        for scheme in args.schemes.split(","):
            started = time.monotonic()
            net = fabric()
            bindings.install_scheme(net, scheme, args.preset,
                                    custom=dict(args.custom) if scheme == "custom" else None)
            result = bindings.run_flows(net, flows)
            print(f"\n{scheme}: {len(flows)} flows on {args.topology} ({args.preset}), "
                  f"{result.attrs['simulated_time_s'] * 1e3:.3f} ms simulated in "
                  f"{time.monotonic() - started:.1f} s; FCT / ideal FCT (KB = 1000 B)")
            print(runs.summarize(result).to_string(index=False, float_format="%.3f"))
            if args.out:
                result.to_csv(args.out / f"{scheme}.csv", index=False)
    except (ValueError, OSError) as error:
        print(f"pfabric-python: error: {error}".splitlines()[0], file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
