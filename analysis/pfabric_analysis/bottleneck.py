"""The single-bottleneck fidelity check: all flows into one host of a star, so the receiver's
downlink is one queue, and the packet schemes are compared with queueing theory for it.

Flows: every flow goes to host 0 from a uniformly random other host, Poisson arrivals at
lam = load * C / (8 * mean wire bytes) (the mean over the sampled sizes, so the offered load of
the flow list is exactly `load`), sizes from a workload CDF as whole packets. The job size of a
flow at the bottleneck is its wire time, wire bytes * 8 / C; a flow's measured response time is
its FCT minus its base latency (what a lone flow takes beyond its wire time):
fct_s - (ideal_fct_s - wire * 8 / C).

Models: a scheme of pFabric's queues (pfabric and linerate: the switches serve the flow with the
least remaining first) against M/G/1 preemptive SRPT, any other (tcp and dctcp: fair sharing)
against M/G/1 processor sharing, as the program's --listSchemes flags it (for --reuse, each run's
meta.json: its scheme_recipe), both for the empirical size distribution of the
flow list and the same lam and C (`theory`). A second reference removes the sampling noise of a
heavy-tailed workload: the same model run on the very arrivals and sizes of the flow list (SRPT:
the Ideal scheduler, which on one link is exactly preemptive SRPT; PS: `theory.ps_sample_path`).

Edges: flows that start in the first 10% (empty system) or the last 10% (arrivals stop, the
queue drains faster than in steady state) of the flow list, by start time, are not reported.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from pfabric_analysis import module_provenance
from pfabric_analysis.programs import built_in_schemes, find_program, run_program
from pfabric_analysis.files import write_file, write_files
from pfabric_analysis.ideal import (Link, default_cdf, link_from_meta, read_cdf, sample_sizes,
                                    schedule, wire_bytes)
from pfabric_analysis.runs import (AnalysisError, read_csv_checked, read_run, runs_pfabric_queues,
                                   scheme_name)
from pfabric_analysis.theory import (SizeDistribution, bin_means, ps_response_time,
                                     ps_sample_path, srpt_response_time)
from pfabric_analysis.values import LOAD

MODEL_NAMES = {"srpt": "M/G/1 preemptive SRPT", "ps": "M/G/1 processor sharing"}
# --schemes when not given: one scheme of each model.
DEFAULT_SCHEMES = "pfabric,tcp"
RECEIVER = 0
FIRST_START_S = 0.001  # the programs open each connection 1 ms (connectLead) before its flow
WARMUP_FRACTION = 0.1
TAIL_FRACTION = 0.1
STDERR_TAIL_LINES = 1


@dataclass(frozen=True)
class BottleneckSpec:
    """One bottleneck experiment: the flow list's parameters and the schemes to run."""

    load: float = 0.5
    flows: int = 2000
    hosts: int = 16
    seed: int = 1
    schemes: tuple[str, ...] = tuple(DEFAULT_SCHEMES.split(","))
    preset: str = "hotnets12"
    cdf: Path = field(default_factory=default_cdf)
    link: Link = field(default_factory=Link)

    def check(self) -> None:
        if not LOAD.contains(self.load):
            raise AnalysisError(f"--load {self.load:g}: must be in (0, 1)")
        if self.flows < 20:
            raise AnalysisError(f"--flows {self.flows}: at least 20 (10% at each end are "
                                f"not reported)")
        if self.hosts < 2:
            raise AnalysisError(f"--hosts {self.hosts}: at least 2 (a sender and host 0)")
        if not self.schemes:
            raise AnalysisError("--schemes: empty, nothing to compare")
        if len(set(self.schemes)) != len(self.schemes):
            raise AnalysisError(f"--schemes {','.join(self.schemes)}: a scheme twice")


def queueing_model(pfabric_queues: bool) -> str:
    """The model of a scheme's bottleneck: preemptive SRPT for pFabric's queues (the switch
    serves the flow with the least remaining first), processor sharing for any other (the
    senders share the link)."""
    return "srpt" if pfabric_queues else "ps"


def scheme_models(spec: BottleneckSpec, built_ins: dict[str, bool]) -> dict[str, str]:
    """Each scheme's model, from the program's built-in schemes (programs.built_in_schemes);
    one that is none of them is refused in one line naming them."""
    unknown = [scheme for scheme in spec.schemes if scheme not in built_ins]
    if unknown:
        raise AnalysisError(f"--schemes {','.join(spec.schemes)}: choose from "
                            f"{', '.join(built_ins)}")
    return {scheme: queueing_model(built_ins[scheme]) for scheme in spec.schemes}


def arrival_rate(wire: np.ndarray, load: float, link: Link) -> float:
    """Flows per second into the receiver: load * C / (8 * mean wire bytes)."""
    return load * link.rate_bps / (8 * float(np.mean(wire)))


def all_to_one_flows(spec: BottleneckSpec) -> tuple[pd.DataFrame, float]:
    """The flow list (src, dst, size_bytes, start_s) and its arrival rate lam (flows/s)."""
    spec.check()
    rng = np.random.default_rng(spec.seed)
    sizes, cdf = read_cdf(spec.cdf)
    size = sample_sizes(sizes, cdf, spec.flows, rng, spec.link.segment_bytes)
    lam = arrival_rate(wire_bytes(size, spec.link), spec.load, spec.link)
    start = FIRST_START_S + np.cumsum(rng.exponential(1 / lam, spec.flows))
    src = rng.integers(1, spec.hosts, spec.flows)  # uniform over the other hosts
    # The programs read start times to the nanosecond: round here, so that what is written,
    # simulated and predicted are the same flows.
    return pd.DataFrame({"src": src, "dst": RECEIVER, "size_bytes": size,
                         "start_s": np.round(start, 9)}), lam


def write_flow_list(flows: pd.DataFrame, path: Path) -> None:
    write_file(path, flows[["src", "dst", "size_bytes", "start_s"]].to_csv(index=False,
                                                                           float_format="%.9f"))


def reported(start_s: np.ndarray, warmup: float = WARMUP_FRACTION,
             tail: float = TAIL_FRACTION) -> np.ndarray:
    """Which flows are reported: all but the first `warmup` and the last `tail` fraction of
    them in start order (ties in start time by position)."""
    n = len(start_s)
    rank = np.empty(n, dtype=np.int64)
    rank[np.argsort(start_s, kind="stable")] = np.arange(n)
    return (rank >= int(n * warmup)) & (rank < n - int(n * tail))


def measured_response(fct: pd.DataFrame, link: Link) -> np.ndarray:
    """FCT minus base latency: fct_s - (ideal_fct_s - wire * 8 / C); NaN for unfinished flows."""
    service = wire_bytes(fct["size_bytes"].to_numpy(), link) * 8 / link.rate_bps
    response = fct["fct_s"].to_numpy(dtype=np.float64) - fct["ideal_fct_s"].to_numpy(
        dtype=np.float64) + service
    return np.where(fct["completed"].to_numpy() == 1, response, np.nan)


def sample_path(model: str, flows: pd.DataFrame, link: Link) -> np.ndarray:
    """Response times of the flows under the model on their own arrivals (one server, rate C)."""
    wire = wire_bytes(flows["size_bytes"].to_numpy(), link)
    start = flows["start_s"].to_numpy(dtype=np.float64)
    if model == "srpt":
        result = schedule(flows["src"].to_numpy(), flows["dst"].to_numpy(), wire, start,
                          link.rate_bps)
        return result.wait_s + wire * 8 / link.rate_bps
    return ps_sample_path(start, wire * 8 / link.rate_bps)


def compare(flows: pd.DataFrame, fct: pd.DataFrame, scheme: str, model: str, lam: float,
            link: Link, kb: int = 1000) -> pd.DataFrame:
    """Per size bin (and all) over the reported flows: measured mean response time, the
    model's (srpt or ps, queueing_model) prediction (theory, for the flow list's size
    distribution), its value on the flow list's own arrivals (sample path), and the ratios, times
    in seconds."""
    if model not in MODEL_NAMES:
        raise AnalysisError(f"scheme {scheme!r}: no queueing model {model!r} (choose from "
                            f"{', '.join(MODEL_NAMES)})")
    flows = flows.reset_index(drop=True)
    if len(fct) == len(flows):
        fct = fct.sort_values("flow_id", kind="stable").reset_index(drop=True)
    if not (len(fct) == len(flows)
            and (fct["flow_id"].to_numpy() == np.arange(len(flows))).all()
            and (fct["size_bytes"].to_numpy() == flows["size_bytes"].to_numpy()).all()
            and np.allclose(fct["start_s"].to_numpy(dtype=np.float64),
                            flows["start_s"].to_numpy(dtype=np.float64), rtol=0, atol=1e-9)):
        raise AnalysisError(f"{scheme}: the run's flows are not the flow list's")
    wire = wire_bytes(flows["size_bytes"].to_numpy(), link)
    service = wire * 8 / link.rate_bps
    distribution = SizeDistribution.from_samples(service)
    predict = srpt_response_time if model == "srpt" else ps_response_time
    predicted = predict(service, lam, distribution)
    path = sample_path(model, flows, link)
    measured = measured_response(fct, link)
    keep = reported(flows["start_s"].to_numpy(dtype=np.float64))
    done = keep & ~np.isnan(measured)
    size = flows["size_bytes"].to_numpy()
    table = bin_means(size[done], measured[done], kb).rename(columns={"mean": "measured_s"})
    table["predicted_s"] = bin_means(size[done], predicted[done], kb)["mean"]
    table["sample_path_s"] = bin_means(size[done], path[done], kb)["mean"]
    table["ratio"] = table["measured_s"] / table["predicted_s"]
    table["ratio_sample_path"] = table["measured_s"] / table["sample_path_s"]
    table["timeouts_per_flow"] = bin_means(
        size[done], fct["timeouts"].to_numpy(dtype=np.float64)[done], kb)["mean"]
    table["unfinished"] = bin_means(size[keep & np.isnan(measured)],
                                    np.zeros(int((keep & np.isnan(measured)).sum())),
                                    kb)["flows"]
    table.insert(0, "model", model)
    table.insert(0, "scheme", scheme)
    return table


def run_command(program: Path, spec: BottleneckSpec, scheme: str, flow_file: Path,
                out: Path) -> list[str]:
    return [str(program), "--quiet", f"--preset={spec.preset}", f"--scheme={scheme}",
            "--topology=star", f"--hosts={spec.hosts}", f"--load={spec.load:g}",
            f"--flows={spec.flows}", f"--seed={spec.seed}", f"--flowFile={flow_file}",
            f"--out={out}"]


def simulate(command: list[str], scheme: str) -> float:
    """Run one packet simulation; its wall time in seconds."""
    began = time.perf_counter()
    try:
        result = run_program(command)
    except OSError as error:
        raise AnalysisError(f"{command[0]}: cannot run ({error.strerror or error})") from error
    if result.returncode != 0:
        tail = " ".join(result.stderr.strip().splitlines()[-STDERR_TAIL_LINES:])
        status = (f"killed by signal {-result.returncode}" if result.returncode < 0
                  else f"exit status {result.returncode}")
        raise AnalysisError(f"{scheme}: {Path(command[0]).name} {status}"
                            + (f": {tail}" if tail else ""))
    return time.perf_counter() - began


def check_link(meta: dict, meta_path: Path, link: Link) -> None:
    """The run must have the link the flow list was generated (and is predicted) for."""
    found = link_from_meta(meta, meta_path)
    if found != link:
        raise AnalysisError(f"{meta_path}: link {found} but the flows were made for {link}")


def run_bottleneck(spec: BottleneckSpec, out: Path, bin_dir: Path | None, reuse: bool = False,
                   kb: int = 1000, command_line: str = "") -> pd.DataFrame:
    """The `bottleneck` sub-command: flow list, packet runs, comparison table; writes
    OUT/flows.csv, OUT/runs/SCHEME/, OUT/bottleneck.csv and OUT/bottleneck.json."""
    spec.check()
    out = out.resolve()
    flows, lam = all_to_one_flows(spec)
    flow_file = out / "flows.csv"
    commands: dict[str, list[str]] = {}
    wall: dict[str, float | None] = {}
    models: dict[str, str] = {}
    if reuse:
        if not flow_file.is_file():
            raise AnalysisError(f"{flow_file}: missing (--reuse needs an earlier run)")
        on_disk = read_csv_checked(flow_file, ["src", "size_bytes", "start_s"])
        if not (len(on_disk) == len(flows)
                and (on_disk["size_bytes"].to_numpy() == flows["size_bytes"].to_numpy()).all()
                and np.allclose(on_disk["start_s"], flows["start_s"], rtol=0, atol=1e-9)
                and (on_disk["src"].to_numpy() == flows["src"].to_numpy()).all()):
            raise AnalysisError(f"{flow_file}: not the flows of these options (--load, --flows, "
                                f"--hosts, --seed)")
    else:
        program = find_program(bin_dir, "pfabric-websearch").resolve()
        models = scheme_models(spec, built_in_schemes(program))
        write_flow_list(flows, flow_file)
    tables = []
    for scheme in spec.schemes:
        run_dir = out / "runs" / scheme
        if not reuse:
            commands[scheme] = run_command(program, spec, scheme, flow_file, run_dir)
            wall[scheme] = simulate(commands[scheme], scheme)
        run = read_run(run_dir)
        check_link(run.meta, run_dir / "meta.json", spec.link)
        if run.meta.get("hosts") not in (None, spec.hosts):
            raise AnalysisError(f"{run_dir / 'meta.json'}: hosts {run.meta['hosts']}, "
                                f"expected {spec.hosts}")
        if reuse:
            if scheme_name(run.meta) != scheme:
                raise AnalysisError(f"{run_dir / 'meta.json'}: scheme "
                                    f"{scheme_name(run.meta)!r}, expected {scheme!r}")
            models[scheme] = queueing_model(runs_pfabric_queues(run.meta))
            commands[scheme] = run.meta.get("command_line", "").split()
            wall[scheme] = run.meta.get("wall_time_s")
        tables.append(compare(flows, run.fct, scheme, models[scheme], lam, spec.link, kb))
    table = pd.concat(tables, ignore_index=True)
    service = wire_bytes(flows["size_bytes"].to_numpy(), spec.link) * 8 / spec.link.rate_bps
    start = flows["start_s"].to_numpy()
    parameters = {key: (str(value) if isinstance(value, Path) else value)
                  for key, value in asdict(spec).items() if key != "link"}
    parameters["schemes"] = list(spec.schemes)
    meta = {
        "program": "pfabric-analysis bottleneck",
        "command_line": command_line,
        **module_provenance(),
        "parameters": parameters,
        "topology": "star",
        "receiver": RECEIVER,
        "host_link_bps": spec.link.rate_bps,
        "segment_bytes": spec.link.segment_bytes,
        "packet_overhead_bytes": spec.link.overhead_bytes,
        "lam_per_s": lam,
        "offered_load": float(lam * service.mean()),
        "realised_lam_per_s": float((len(start) - 1) / (start[-1] - start[0])),
        "mean_wire_bytes": float(wire_bytes(flows["size_bytes"].to_numpy(), spec.link).mean()),
        "distinct_sizes": int(flows["size_bytes"].nunique()),
        "kb": kb,
        "reported": f"flows ranked {WARMUP_FRACTION:g} to {1 - TAIL_FRACTION:g} by start time",
        "response_time": "fct_s - (ideal_fct_s - wire_bytes * 8 / host_link_bps)",
        "models": {scheme: MODEL_NAMES[models[scheme]] for scheme in spec.schemes},
        "runs": {scheme: {"directory": str(out / "runs" / scheme),
                          "command": " ".join(commands[scheme]),
                          "wall_time_s": wall[scheme]} for scheme in spec.schemes},
    }
    write_files(out, {"bottleneck.csv": table.to_csv(index=False),
                      "bottleneck.json": json.dumps(meta, indent=2) + "\n"})
    return table


def format_table(table: pd.DataFrame) -> str:
    """The comparison as text, times in microseconds."""
    lines = []
    for scheme, rows in table.groupby("scheme", sort=False):
        model = MODEL_NAMES[rows["model"].iloc[0]]
        lines.append(f"{scheme} vs {model}: mean FCT minus base latency (us)")
        shown = pd.DataFrame({
            "bin": rows["bin"], "flows": rows["flows"],
            "measured": rows["measured_s"] * 1e6, "predicted": rows["predicted_s"] * 1e6,
            "ratio": rows["ratio"], "sample_path": rows["sample_path_s"] * 1e6,
            "ratio_path": rows["ratio_sample_path"], "timeouts": rows["timeouts_per_flow"],
            "unfinished": rows["unfinished"]})
        lines.append(shown.to_string(index=False, float_format=lambda v: f"{v:.3f}",
                                     na_rep="-"))
    return "\n".join(lines)


def default_out(spec: BottleneckSpec) -> Path:
    return Path("results") / f"bottleneck-load{spec.load:g}-flows{spec.flows}-seed{spec.seed}"


def main(args) -> int:
    """Entry point from cli.py."""
    schemes = tuple(s.strip() for s in args.schemes.split(",") if s.strip())
    spec = BottleneckSpec(load=args.load, flows=args.flows, hosts=args.hosts, seed=args.seed,
                          schemes=schemes, cdf=args.cdf or default_cdf())
    out = args.out or default_out(spec)
    table = run_bottleneck(spec, out, args.bin_dir, args.reuse,
                           args.kb, " ".join(sys.argv))
    print(f"bottleneck: {spec.flows} flows into host 0 of a {spec.hosts}-host star, "
          f"load {spec.load:g}, seed {spec.seed}; reported: flows {WARMUP_FRACTION:.0%} to "
          f"{1 - TAIL_FRACTION:.0%} by start time (KB = {args.kb} B)")
    print(format_table(table))
    print(f"wrote {out / 'bottleneck.csv'}, {out / 'bottleneck.json'}")
    return 0
