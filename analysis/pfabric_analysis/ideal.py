"""The paper's "Ideal" scheme: a central flow-level scheduler that, at every flow arrival and
completion, serves the active flows greedily in order of remaining size, each at the full host
line rate unless its source uplink or destination downlink is already taken by a smaller flow.

Only host access links count (the core is ignored), so Ideal is the yardstick the packet-level
schemes are compared against. The FCT of a flow under Ideal is its FCT alone in the idle fabric
plus the time the schedule made it wait. That ideal FCT comes from the simulator's fabric model,
never from a copy of it here: either a packet run of the same flows (its fct.csv's ideal_fct_s,
`--like`) or the program itself in its `--idealOnly` mode, which computes it without simulating
(`--preset`, and every sweep).

The scheduler is incremental, see `schedule`: a full greedy pass over the active flows at
every event gives the same schedule but took 38 s instead of 1 s for 100,000 web search flows
at load 0.8 on 144 hosts (hundreds of flows active at once).
"""

from __future__ import annotations

import json
import re
import resource
import sys
import tempfile
import time
from bisect import bisect_left, bisect_right, insort
from collections.abc import Sequence
from dataclasses import dataclass, field
from heapq import heappop, heappush
from math import gcd
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pfabric_analysis import module_provenance
from pfabric_analysis import allocator
from pfabric_analysis.programs import run_program
from pfabric_analysis.files import read_text, write_files
from pfabric_analysis.runs import FCT_COLUMNS, IDEAL_SCHEME, AnalysisError, read_run
from pfabric_analysis.values import FINITE, LOAD, BadValue

FLOW_LIST_HEADER = "src,dst,size_bytes,start_s"
# A list with deadlines (pfabric-deadlines --dumpFlows): a fifth column, which Ideal ignores.
FLOW_LIST_HEADER_DEADLINES = FLOW_LIST_HEADER + ",deadline_s"
DEFAULT_RATE_BPS = 10**10
DEFAULT_SEGMENT_BYTES = 1460
DEFAULT_OVERHEAD_BYTES = 42  # 40 B TCP/IP + 2 B link framing per packet
# meta.json keys of a packet run that give the link parameters, and their defaults.
META_LINK_KEYS = {"host_link_bps": DEFAULT_RATE_BPS, "segment_bytes": DEFAULT_SEGMENT_BYTES,
                  "packet_overhead_bytes": DEFAULT_OVERHEAD_BYTES}
_COUNT = re.compile(r"[0-9]+\Z")
# The most hosts a flow list can name: the programs number hosts in 32 bits (a dst of 2^64 ended
# in an OverflowError traceback here); the packet run checks the list against its fabric's.
MAX_HOST = 2**32 - 1
# What pfabric-<workload> --idealOnly writes next to its meta.json.
IDEAL_FCT_FILE = "ideal_fct.csv"
IDEAL_FCT_COLUMNS = ["flow_id", "src", "dst", "size_bytes", "start_s", "ideal_fct_s"]
# meta.json keys that describe a packet simulation (or its absence), which an Ideal run has not.
PACKET_SIMULATION_KEYS = ("connections_opened", "bytes_received", "packet_hops", "rss_samples",
                          "scheduler", "ideal_fct_only")


@dataclass(frozen=True)
class Link:
    """Host line rate and packetisation: what turns a flow's payload into service time."""

    rate_bps: int = DEFAULT_RATE_BPS  # whole bits per second: exact time units
    segment_bytes: int = DEFAULT_SEGMENT_BYTES
    overhead_bytes: int = DEFAULT_OVERHEAD_BYTES


@dataclass(frozen=True)
class Schedule:
    """The Ideal schedule of a flow set; arrays are indexed by flow."""

    finish_s: np.ndarray   # when the flow's last wire byte is served
    wait_s: np.ndarray     # time active but not served: the schedule's delay over line rate
    events: int            # arrivals + completions processed
    preemptions: int       # running flows stopped by a smaller one
    peak_active: int       # largest number of flows active at once
    # The exact times behind start_s and finish_s, in the schedule's integer units
    # (`time_units`): what a measurement window compares arrivals and completions in.
    start_units: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    finish_units: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    units_per_s: int = 1


def wire_bytes(size_bytes: np.ndarray, link: Link) -> np.ndarray:
    """Bytes on the wire: payload plus the per-packet overhead of ceil(size / segment) packets.

    Ideal serves the same bytes the packet schemes transmit, so that a flow alone gets exactly
    its packet-level ideal FCT."""
    size = np.asarray(size_bytes, dtype=np.int64)
    packets = -(-size // link.segment_bytes)
    return size + packets * link.overhead_bytes


def time_units(rate_bps: int) -> tuple[int, int]:
    """Integer time units per nanosecond and per byte time (8 / rate_bps s).

    Start times (whole nanoseconds, as the packet simulator reads flow lists) and byte times
    are then both whole numbers, and the schedule is computed in exact integer arithmetic: its
    many exact ties in remaining size (sizes are whole packets, and flows resume when others
    complete) are broken by the stated rule, not by rounding."""
    common = gcd(8 * 10**9, rate_bps)
    return rate_bps // common, 8 * 10**9 // common


def schedule(src: np.ndarray, dst: np.ndarray, wire: np.ndarray, start_s: np.ndarray,
             rate_bps: float) -> Schedule:
    """Run the greedy shortest-remaining-first schedule over host access links.

    `wire` is whole bytes, `start_s` is taken to the nanosecond, `rate_bps` must be a whole
    number of bits per second.

    Exactness: between events running flows' remaining sizes fall and waiting ones stay, so a
    running flow can only overtake waiting ones; a waiting flow stays blocked by the (running,
    smaller) flow that blocked it, so the greedy result cannot change between events.

    Algorithm: in integer time units (`time_units`) a running flow with finish time T has
    T - now left to serve. Each host uplink and downlink holds at most one running flow and a
    sorted list of its waiting flows' keys (remaining, start, index), which are fixed while
    they wait. An event changes the greedy result only from the flow it adds or removes
    onwards in key order, so changes are propagated in increasing key order with a heap: a
    flow runs iff neither of its links is held by a smaller flow; when it starts it preempts
    the (larger) holders, whose other link is freed; a freed link is offered to its waiting
    flows in key order, skipping those already blocked for good at their other link, until
    one runs. Flows popped later never precede earlier ones, so each decision is final.
    """
    n = len(wire)
    if n == 0:
        return Schedule(np.zeros(0), np.zeros(0), 0, 0, 0)
    if not (float(rate_bps).is_integer() and rate_bps > 0):
        raise ValueError(f"rate_bps must be a positive whole number, got {rate_bps}")
    per_ns, per_byte = time_units(int(rate_bps))
    units_per_s = per_ns * 10**9
    st = [t * per_ns for t in np.rint(np.asarray(start_s, dtype=np.float64) * 1e9)
          .astype(np.int64).tolist()]
    arrivals = sorted(range(n), key=st.__getitem__)  # stable: ties by index
    rem0 = [int(w) * per_byte for w in np.asarray(wire).tolist()]
    src_l = np.asarray(src, dtype=np.int64).tolist()
    dst_l = np.asarray(dst, dtype=np.int64).tolist()
    hosts = max(max(src_l), max(dst_l)) + 1

    up_hold = [-1] * hosts     # flow running on each host's uplink, -1 if none
    down_hold = [-1] * hosts   # ... on each host's downlink
    up_wait: list[list[tuple]] = [[] for _ in range(hosts)]    # waiting keys by source
    down_wait: list[list[tuple]] = [[] for _ in range(hosts)]  # waiting keys by destination
    ends = [0] * n             # while running: when it will complete
    running = [False] * n
    wait_since = [0] * n
    waited = [0] * n
    completions: list[tuple[int, int]] = []  # (finish, flow), stale entries skipped
    work: list[tuple] = []                     # (remaining, start, flow, side): to decide
    preemptions = 0
    events = 0
    active = 0
    peak = 0
    done_at = [0] * n

    def offer(wait_lists: list[list[tuple]], holders: list[int], others: list[int], host: int,
              side: int, after: tuple, cur: tuple, now: int) -> None:
        """A link became free: queue its first waiting flow after `after` that may run.

        Flows whose other link is held by a flow no larger than `cur` (the key being
        decided: everything up to it is final) are blocked for good and skipped."""
        keys = wait_lists[host]
        j = bisect_right(keys, after)
        count = len(keys)
        while j < count:
            c = keys[j]
            e = holders[others[c[2]]]
            if e >= 0 and (ends[e] - now, st[e], e) <= cur:
                j += 1
                continue
            heappush(work, (c[0], c[1], c[2], side))
            return

    never = (-1,)  # smaller than every key: nothing is final yet
    k = 0
    while k < n or completions:
        if completions and (k >= n or completions[0][0] <= st[arrivals[k]]):
            now, g = heappop(completions)
            if not running[g] or ends[g] != now:
                continue  # preempted since
            events += 1
            running[g] = False
            done_at[g] = now
            active -= 1
            sg = src_l[g]
            dg = dst_l[g]
            up_hold[sg] = -1
            down_hold[dg] = -1
            offer(up_wait, down_hold, dst_l, sg, 0, never, never, now)
            offer(down_wait, up_hold, src_l, dg, 1, never, never, now)
        else:
            g = arrivals[k]
            k += 1
            events += 1
            now = st[g]
            key = (rem0[g], now, g)
            insort(up_wait[src_l[g]], key)
            insort(down_wait[dst_l[g]], key)
            wait_since[g] = now
            heappush(work, (rem0[g], now, g, -1))
            active += 1
            if active > peak:  # noqa: PLR1730 (per flow in the scheduler's loop: no call)
                peak = active
        while work:
            r, s, g, side = heappop(work)
            if running[g]:
                continue
            gkey = (r, s, g)
            sg = src_l[g]
            dg = dst_l[g]
            u = up_hold[sg]
            d = down_hold[dg]
            up_blocks = u >= 0 and (ends[u] - now, st[u], u) < gkey
            down_blocks = d >= 0 and (ends[d] - now, st[d], d) < gkey
            if not up_blocks and not down_blocks:
                keys = up_wait[sg]
                del keys[bisect_left(keys, gkey)]
                keys = down_wait[dg]
                del keys[bisect_left(keys, gkey)]
                waited[g] += now - wait_since[g]
                ends[g] = now + r
                running[g] = True
                heappush(completions, (now + r, g))
                up_hold[sg] = g
                down_hold[dg] = g
                for x in (u, d) if u != d else (u,):  # larger holders lose their link(s)
                    if x < 0:
                        continue
                    preemptions += 1
                    running[x] = False
                    xkey = (ends[x] - now, st[x], x)
                    insort(up_wait[src_l[x]], xkey)
                    insort(down_wait[dst_l[x]], xkey)
                    wait_since[x] = now
                    if u == d:
                        continue  # same links as g: none freed
                    if x == u:  # its downlink is free now
                        down_hold[dst_l[x]] = -1
                        offer(down_wait, up_hold, src_l, dst_l[x], 1, xkey, gkey, now)
                    else:       # its uplink is free now
                        up_hold[src_l[x]] = -1
                        offer(up_wait, down_hold, dst_l, src_l[x], 0, xkey, gkey, now)
            elif side == 0 and not up_blocks:    # blocked at its downlink: try the next
                offer(up_wait, down_hold, dst_l, sg, 0, gkey, gkey, now)
            elif side == 1 and not down_blocks:  # blocked at its uplink: try the next
                offer(down_wait, up_hold, src_l, dg, 1, gkey, gkey, now)
    finish = np.array([t / units_per_s for t in done_at])
    wait = np.array([t / units_per_s for t in waited])
    return Schedule(finish, wait, events, preemptions, peak, np.array(st, dtype=np.int64),
                    np.array(done_at, dtype=np.int64), units_per_s)


def ideal_fct(flows: pd.DataFrame, ideal_fct_s: np.ndarray, link: Link
              ) -> tuple[pd.DataFrame, Schedule]:
    """Flows (src, dst, size_bytes, start_s) under Ideal, as an fct.csv frame.

    The schedule replaces only the transmission at line rate, so FCT = ideal FCT + the time
    the schedule kept the flow waiting; a flow never blocked gets exactly its ideal FCT."""
    wire = wire_bytes(flows["size_bytes"].to_numpy(), link)
    result = schedule(flows["src"].to_numpy(), flows["dst"].to_numpy(), wire,
                      flows["start_s"].to_numpy(), link.rate_bps)
    ideal = np.asarray(ideal_fct_s, dtype=np.float64)
    out = pd.DataFrame({"flow_id": np.arange(len(flows), dtype=np.int64),
                        "src": flows["src"].to_numpy(), "dst": flows["dst"].to_numpy(),
                        "size_bytes": flows["size_bytes"].to_numpy(),
                        "start_s": flows["start_s"].to_numpy(),
                        "fct_s": ideal + result.wait_s, "ideal_fct_s": ideal,
                        "timeouts": 0, "completed": 1})
    return out[FCT_COLUMNS], result


# --- the measurement window -----------------------------------------------------------------

# fct.csv's last column with the window on: 1 for the measured flows (INTERFACE of issue 29).
MEASURED_COLUMN = "measured"


@dataclass(frozen=True)
class Window:
    """Measure flows warmup_flows .. warmup_flows + measure_flows - 1 of a list while the list's
    arrivals go on, instead of running the whole list to completion; with max_bytes > 0 only
    those of at most max_bytes bytes, and the run ends when they have completed (the programs'
    --measureMaxBytes)."""

    warmup_flows: int
    measure_flows: int
    max_bytes: int = 0

    def __post_init__(self) -> None:
        if self.measure_flows < 1:
            raise AnalysisError("--measure-flows: expected at least one measured flow")
        if self.warmup_flows < 0:
            raise AnalysisError("--warmup-flows: expected a non-negative number of flows")
        if self.max_bytes < 0:
            raise AnalysisError("--measure-max-bytes: expected a non-negative number of bytes")

    @property
    def stop(self) -> int:
        """One past the last measured flow."""
        return self.warmup_flows + self.measure_flows

    def awaited(self, flow_ids: np.ndarray, size_bytes: np.ndarray) -> np.ndarray:
        """Per flow: in the window and, with max_bytes, of at most max_bytes bytes."""
        ids = np.asarray(flow_ids)
        inside = (ids >= self.warmup_flows) & (ids < self.stop)
        if self.max_bytes:
            inside &= np.asarray(size_bytes) <= self.max_bytes
        return inside


@dataclass(frozen=True)
class Cut:
    """Where a window ends a schedule of a longer list."""

    end_s: float            # the last measured flow's completion: the end of the run
    started: np.ndarray     # per flow of the list: arrived at or before the end
    completed: np.ndarray   # per flow of the list: completed by the end
    flows_simulated: int    # flows that arrived by the end: what a run with the window holds


def awaited_flows(result: Schedule, window: Window, size_bytes: np.ndarray | None) -> np.ndarray:
    """Per flow of the schedule: whether the window waits for it (Window.awaited); the sizes
    are needed only with max_bytes."""
    flows = len(result.finish_s)
    if window.max_bytes and size_bytes is None:
        raise AnalysisError("the window's --measure-max-bytes needs the flows' sizes")
    return window.awaited(np.arange(flows), np.zeros(flows) if size_bytes is None else size_bytes)


def measured_end_s(result: Schedule, window: Window, size_bytes: np.ndarray | None = None) -> float:
    """When the window's last awaited flow completes in the schedule."""
    return float(result.finish_s[awaited_flows(result, window, size_bytes)].max())


def window_cut(result: Schedule, window: Window, flow_list: Path | str,
               size_bytes: np.ndarray | None = None) -> Cut:
    """The run the window describes, cut from the schedule of the whole list.

    Exact because Ideal is causal: whether and when a flow completes by time T depends only on
    the flows that arrived before T, so every flow completed by the end (the measured ones
    among them) has the FCT a schedule of only the flows arrived by the end gives it. That
    needs the list to go on arriving until the end; a list that stops earlier is refused
    (arrivals it does not hold would have delayed the measured flows)."""
    flows = len(result.finish_units)
    if window.stop > flows:
        raise AnalysisError(f"{flow_list}: {flows} flows, fewer than --warmup-flows + "
                            f"--measure-flows = {window.stop}")
    end = int(result.finish_units[awaited_flows(result, window, size_bytes)].max())
    last = int(result.start_units.max())
    if last < end:
        raise AnalysisError(
            f"{flow_list}: its {flows} flows stop arriving at {last / result.units_per_s:.9f} s, "
            f"before the last measured flow completes at {end / result.units_per_s:.9f} s; a "
            "longer list is needed")
    started = result.start_units <= end
    completed = started & (result.finish_units <= end)
    return Cut(measured_end_s(result, window, size_bytes), started, completed,
               int(started.sum()))


def windowed_fct(fct: pd.DataFrame, window: Window, cut: Cut) -> pd.DataFrame:
    """The fct.csv frame of the run with the window: the flows arrived by the end, in flow
    order; those still running then have completed 0 and no fct_s; `measured` marks the
    window's flows (with max_bytes, those of at most max_bytes bytes)."""
    out = fct[cut.started].copy()
    done = cut.completed[cut.started]
    out["fct_s"] = out["fct_s"].where(done)
    out["completed"] = done.astype(np.int64)
    ids = out["flow_id"].to_numpy()
    out[MEASURED_COLUMN] = window.awaited(ids, out["size_bytes"].to_numpy()).astype(np.int64)
    return out


def window_meta(meta: dict, window: Window, cut: Cut, flows_in_list: int) -> dict:
    """An Ideal run's meta.json for the window: its parameters, the window object and the run's
    extent (flows and simulated time up to the end). The schedule's counters (events,
    preemptions) stay those of the whole list it was computed on (ideal_flows_scheduled)."""
    out = json.loads(json.dumps(meta))
    out["parameters"]["warmupFlows"] = window.warmup_flows
    out["parameters"]["measureFlows"] = window.measure_flows
    out["parameters"]["measureMaxBytes"] = window.max_bytes
    out["window"] = {"warmup_flows": window.warmup_flows,
                     "measure_flows": window.measure_flows,
                     "flows_simulated": cut.flows_simulated,
                     "measure_max_bytes": window.max_bytes, "arrivals_through_end": True}
    completed = int(cut.completed.sum())
    out["simulated_time_s"] = cut.end_s
    out["flows_total"] = cut.flows_simulated
    out["flows_completed"] = completed
    out["flows_unfinished"] = cut.flows_simulated - completed
    out["ideal_flows_scheduled"] = flows_in_list
    return out


# --- inputs ---------------------------------------------------------------------------------

def read_flow_list(path: Path) -> pd.DataFrame:
    """Read a flow list as --dumpFlows writes it; flow i is the i-th data line.

    Checked like the simulator's reader, so a list Ideal accepts is one a packet run can
    replay; columns src, dst, size_bytes, start_s and line (for error messages)."""
    return parse_flow_list(read_flow_list_text(path), path)


def read_flow_list_text(path: Path) -> str:
    """A flow list's text, read once (a pipe, `<(...)`, gives it only once)."""
    try:
        return read_text(path)
    except (OSError, UnicodeDecodeError) as error:
        reason = "missing" if isinstance(error, FileNotFoundError) else "cannot read the file"
        raise AnalysisError(f"{path}: {reason}") from error


def parse_flow_list(text: str, path: Path) -> pd.DataFrame:
    """read_flow_list of a flow list's text, read from path (which names its lines)."""
    lines = text.splitlines()
    header = lines[0].strip("\r") if lines else ""
    if header not in (FLOW_LIST_HEADER, FLOW_LIST_HEADER_DEADLINES):
        raise AnalysisError(f"{path}:1: the header must be {FLOW_LIST_HEADER} or "
                            f"{FLOW_LIST_HEADER_DEADLINES}")
    columns = header.count(",") + 1
    src, dst, size, start, where = [], [], [], [], []
    for number, line in enumerate(lines[1:], start=2):
        line = line.rstrip("\r")
        if not line:
            continue
        fields = line.split(",")
        here = f"{path}:{number}: "
        if len(fields) != columns:
            raise AnalysisError(f"{here}expected {columns} fields ({header}), got {len(fields)}")
        a, b, c, t = fields[:4]  # a deadline is not the Ideal scheduler's concern
        if not (_COUNT.match(a) and _COUNT.match(b)):
            raise AnalysisError(f"{here}hosts must be non-negative integers")
        for host in (a, b):
            if int(host) > MAX_HOST:
                raise AnalysisError(f"{here}host '{host}' is past any run's hosts (at most "
                                    f"{MAX_HOST})")
        if int(a) == int(b):
            raise AnalysisError(f"{here}a flow from host {int(a)} to itself")
        if not _COUNT.match(c) or int(c) == 0 or len(c) > 15:
            raise AnalysisError(f"{here}size_bytes '{c}' is not a positive integer")
        try:
            seconds = FINITE(t)
        except BadValue:
            seconds = -1.0
        if seconds < 0:
            raise AnalysisError(f"{here}start_s '{t}' is not a non-negative number")
        src.append(int(a))
        dst.append(int(b))
        size.append(int(c))
        start.append(seconds)
        where.append(number)
    if not src:
        raise AnalysisError(f"{path}: no flows")
    return pd.DataFrame({"src": np.array(src, dtype=np.int64),
                         "dst": np.array(dst, dtype=np.int64),
                         "size_bytes": np.array(size, dtype=np.int64),
                         "start_s": np.array(start, dtype=np.float64),
                         "line": np.array(where, dtype=np.int64)})


def match_like_run(flows: pd.DataFrame, flow_list: Path, like_fct: pd.DataFrame,
                   like_path: Path) -> np.ndarray:
    """The like run's (or --idealOnly's) ideal_fct_s per flow, after checking it is of exactly
    these flows.

    Start times are compared to the nanosecond, the resolution both files are written at."""
    fct = like_fct.sort_values("flow_id", kind="stable").reset_index(drop=True)
    if len(fct) != len(flows):
        raise AnalysisError(f"{like_path}: {len(fct)} flows, but {flow_list} has {len(flows)}; "
                            "not the same flows")
    if not np.array_equal(fct["flow_id"].to_numpy(), np.arange(len(fct))):
        raise AnalysisError(f"{like_path}: flow_id is not 0 to {len(fct) - 1}")
    theirs = {column: pd.to_numeric(fct[column], errors="coerce").to_numpy(dtype=np.float64)
              for column in ("src", "dst", "size_bytes", "start_s")}
    same = np.ones(len(flows), dtype=bool)
    for column in ("src", "dst", "size_bytes"):
        same &= theirs[column] == flows[column].to_numpy()
    same &= np.rint(theirs["start_s"] * 1e9) == np.rint(flows["start_s"].to_numpy() * 1e9)
    if not same.all():
        i = int(np.flatnonzero(~same)[0])
        a = ",".join(f"{theirs[c][i]:g}" for c in ("src", "dst", "size_bytes"))
        b = ",".join(str(flows[c].iloc[i]) for c in ("src", "dst", "size_bytes"))
        raise AnalysisError(
            f"{like_path}: flow {i} is {a},{float(theirs['start_s'][i])!r} but "
            f"{flow_list}:{flows['line'].iloc[i]} is {b},{float(flows['start_s'].iloc[i])!r}; "
            "not the same flows")
    ideal = pd.to_numeric(fct["ideal_fct_s"], errors="coerce").to_numpy(dtype=np.float64)
    if not (np.isfinite(ideal) & (ideal > 0)).all():
        i = int(np.flatnonzero(~(np.isfinite(ideal) & (ideal > 0)))[0])
        raise AnalysisError(f"{like_path}: flow {i} has no positive ideal_fct_s")
    return ideal


@dataclass(frozen=True)
class FabricIdeal:
    """Per-flow ideal FCTs and the parameters of the fabric they were computed on."""

    fct: pd.DataFrame  # flow_id, src, dst, size_bytes, start_s, ideal_fct_s
    meta: dict         # the program's meta.json
    fct_label: Path    # names the per-flow file in error messages
    meta_label: Path   # names meta.json in error messages
    source: dict       # where the ideal FCTs came from, for the Ideal run's meta.json


def like_run_ideal(like_run: Path) -> FabricIdeal:
    """The ideal FCTs of a packet run of the same flows (`--like`)."""
    like = read_run(like_run)
    return FabricIdeal(like.fct, like.meta, like_run / "fct.csv", like_run / "meta.json",
                       {"like_run": str(like_run.resolve())})


def run_checked(command: Sequence[str]) -> None:
    """Run one of the module's programs; on failure, the error is the last line it printed
    (its one-line error) or its exit status."""
    try:
        result = run_program(command, env=allocator.child_environment())
    except allocator.AllocatorError as error:
        raise AnalysisError(str(error)) from error
    except OSError as error:
        raise AnalysisError(f"{command[0]}: cannot run ({error.strerror or error})") from error
    if result.returncode != 0:
        lines = result.stderr.strip().splitlines() or [f"exit status {result.returncode}"]
        raise AnalysisError(lines[-1])


def recorded_path(path: Path) -> str:
    """How meta.json records an input: a file by its absolute path; a pipe (/dev/fd/63 of
    bash's <(...)) as given, for its absolute path names a pipe of a process gone."""
    return str(path.resolve()) if path.is_file() else str(path)


def renamed(value: object, old: str, new: str) -> Any:
    """A meta.json's value with every text `old` in it (a path) replaced by `new`."""
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, dict):
        return {key: renamed(item, old, new) for key, item in value.items()}
    if isinstance(value, list):
        return [renamed(item, old, new) for item in value]
    return value


def program_ideal(program: Path, flow_list: Path, options: Sequence[str],
                  text: str | None = None) -> FabricIdeal:
    """The ideal FCTs of the flows on the fabric the program builds from `options` (e.g.
    --preset=sigcomm13), from its `--idealOnly` mode: nothing is simulated.

    With `text`, the flow list as already read: the program reads a copy of it, for a pipe
    (`<(...)`) gives its text once; its errors and the command recorded still name flow_list."""
    command = [str(program), "--idealOnly", "--quiet", f"--flowFile={recorded_path(flow_list)}",
               *options]
    with tempfile.TemporaryDirectory(prefix="pfabric-ideal-") as scratch:
        out = Path(scratch) / "fabric"
        given = command
        if text is not None:
            copy = Path(scratch) / "flows.csv"
            copy.write_text(text, encoding="utf-8")
            given = [*command[:3], f"--flowFile={copy}", *command[4:]]
        try:
            run_checked([*given, f"--out={out}"])
        except AnalysisError as error:
            if text is None:
                raise
            raise AnalysisError(str(error).replace(str(copy), str(flow_list))) from error
        try:
            fct = pd.read_csv(out / IDEAL_FCT_FILE)
            meta = json.loads((out / "meta.json").read_text())
        except (OSError, ValueError) as error:
            raise AnalysisError(f"{program}: --idealOnly wrote no readable "
                                f"{IDEAL_FCT_FILE} and meta.json ({error})") from error
        if text is not None:
            meta = renamed(meta, str(copy), recorded_path(flow_list))
    missing = [c for c in IDEAL_FCT_COLUMNS if c not in fct.columns]
    if missing:
        raise AnalysisError(f"{program}: {IDEAL_FCT_FILE} lacks {', '.join(missing)}; "
                            "a build of another version?")
    label = Path(program.name) / IDEAL_FCT_FILE
    return FabricIdeal(fct, meta, label, Path(program.name) / "meta.json",
                       {"ideal_fct_command": " ".join([program.name, *command[1:]])})


def link_from_meta(meta: dict, meta_path: Path, rate_bps: float | None = None,
                   segment_bytes: int | None = None, overhead_bytes: int | None = None) -> Link:
    """The link parameters: an explicit option, else the like run's meta.json, else the
    default (runs written before meta.json recorded them used the defaults)."""
    values = {}
    for key, default in META_LINK_KEYS.items():
        value = meta.get(key, default)
        may_be_zero = key == "packet_overhead_bytes"
        if (isinstance(value, bool) or not isinstance(value, (int, float))
                or not (value >= 0 if may_be_zero else value > 0)):
            kind = "non-negative" if may_be_zero else "positive"
            raise AnalysisError(f"{meta_path}: {key} must be a {kind} number, got {value!r}")
        values[key] = value
    rate = float(values["host_link_bps"] if rate_bps is None else rate_bps)
    segment = values["segment_bytes"] if segment_bytes is None else segment_bytes
    overhead = values["packet_overhead_bytes"] if overhead_bytes is None else overhead_bytes
    def source(option: str, value: object, key: str) -> str:
        return option if value is not None else f"{meta_path}: {key}"

    if not (rate.is_integer() and rate > 0):
        raise AnalysisError(f"{source('--rate-bps', rate_bps, 'host_link_bps')}: must be a "
                            f"positive whole number of bit/s, got {rate:g}")
    if int(segment) != segment or segment < 1:
        raise AnalysisError(f"{source('--segment-bytes', segment_bytes, 'segment_bytes')}: "
                            f"must be a positive integer, got {segment}")
    if int(overhead) != overhead or overhead < 0:
        raise AnalysisError(f"{source('--overhead-bytes', overhead_bytes, 'packet_overhead_bytes')}"
                            f": must be a non-negative integer, got {overhead}")
    return Link(int(rate), int(segment), int(overhead))


# --- outputs --------------------------------------------------------------------------------

def ideal_meta(fabric_meta: dict, flow_list: Path, source: dict, link: Link, result: Schedule,
               wall_time_s: float, command_line: str) -> dict:
    """The fabric's meta.json (a packet run's or --idealOnly's), relabelled as the Ideal run on
    its flows.

    Keeping its parameters (but scheme) lets Ideal runs sit next to the packet runs in a
    sweep; fields that described the packet simulation are replaced or dropped."""
    meta = json.loads(json.dumps(fabric_meta))
    meta["program"] = "pfabric-analysis ideal"
    meta["command_line"] = command_line
    meta["parameters"]["scheme"] = IDEAL_SCHEME
    meta["flow_list"] = recorded_path(flow_list)
    meta.update(source)
    meta["host_link_bps"] = int(link.rate_bps)
    meta["segment_bytes"] = link.segment_bytes
    meta["packet_overhead_bytes"] = link.overhead_bytes
    meta.update(module_provenance())
    meta["wall_time_s"] = wall_time_s
    meta["simulated_time_s"] = float(result.finish_s.max()) if result.finish_s.size else 0.0
    meta["events"] = result.events
    meta["ideal_events"] = result.events
    meta["ideal_preemptions"] = result.preemptions
    meta["peak_rss_bytes"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    n = len(result.finish_s)
    meta["flows_total"] = n
    meta["flows_completed"] = n
    meta["flows_unfinished"] = 0
    meta["flows_started_before_connected"] = 0
    for key in PACKET_SIMULATION_KEYS:
        meta.pop(key, None)
    return meta


def write_outputs(out_dir: Path, fct: pd.DataFrame, meta: dict) -> None:
    """Write fct.csv and meta.json: both, or neither and no OUT_DIR we created (write_files)."""
    write_files(out_dir, {"fct.csv": fct.to_csv(index=False),  # floats as repr: round-trip
                          "meta.json": json.dumps(meta, indent=2) + "\n"})


def run_ideal(flow_list: Path, out_dir: Path, *, like_run: Path | None = None,
              program: Path | None = None, options: Sequence[str] = (), force: bool = False,
              rate_bps: float | None = None, segment_bytes: int | None = None,
              overhead_bytes: int | None = None, command_line: str = "",
              window: Window | None = None) -> Schedule:
    """The `ideal` sub-command: read and check everything, schedule, then write.

    The flows' ideal FCTs come from a packet run of the same flows (like_run) or from the
    program's --idealOnly mode with `options` (program); exactly one of the two. With a
    window, the whole list is scheduled and the run the window describes is cut from it
    (`window_cut`)."""
    if (like_run is None) == (program is None):
        raise AnalysisError("ideal: give either a like run (--like) or a fabric (--preset)")
    if (out_dir / "fct.csv").exists() and not force:
        raise AnalysisError(f"{out_dir}: already holds fct.csv (use --force to replace it)")
    began = time.perf_counter()
    text = read_flow_list_text(flow_list)
    flows = parse_flow_list(text, flow_list)
    if like_run is not None:
        fabric = like_run_ideal(like_run)
    else:
        assert program is not None  # exactly one of the two, checked above
        fabric = program_ideal(program, flow_list, options, text)
    ideal = match_like_run(flows, flow_list, fabric.fct, fabric.fct_label)
    link = link_from_meta(fabric.meta, fabric.meta_label, rate_bps, segment_bytes,
                          overhead_bytes)
    fct, result = ideal_fct(flows, ideal, link)
    cut = None if window is None else window_cut(result, window, flow_list,
                                                 flows["size_bytes"].to_numpy())
    meta = ideal_meta(fabric.meta, flow_list, fabric.source, link, result,
                      time.perf_counter() - began, command_line)
    if window is not None and cut is not None:
        fct = windowed_fct(fct, window, cut)
        meta = window_meta(meta, window, cut, len(flows))
    write_outputs(out_dir, fct, meta)
    return result


# --- benchmark ------------------------------------------------------------------------------

def read_cdf(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """A workload CDF file: lines 'size_bytes cumulative_probability', '#' comments; every value
    a finite number (a bad one refused naming its line)."""
    try:
        text = read_text(path)
    except (OSError, UnicodeDecodeError) as error:
        raise AnalysisError(f"{path}: not a CDF file ({error})".splitlines()[0]) from error
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        try:
            if len(fields) != 2:
                raise BadValue(line.strip(), "'size_bytes cumulative_probability'")
            rows.append([FINITE(field) for field in fields])
        except BadValue as error:
            raise AnalysisError(f"{path}:{number}: {error}") from error
    if len(rows) < 2:
        raise AnalysisError(f"{path}: expected lines 'size_bytes cumulative_probability'")
    table = np.array(rows, dtype=np.float64)
    sizes, cdf = table[:, 0], table[:, 1]
    if cdf[0] != 0 or cdf[-1] != 1 or (np.diff(cdf) < 0).any() or (np.diff(sizes) < 0).any():
        raise AnalysisError(f"{path}: the CDF must rise from 0 to 1 with the sizes")
    if sizes[0] <= 0:
        raise AnalysisError(f"{path}: the sizes must be positive, not {sizes[0]:g}")
    return sizes, cdf


def sample_sizes(sizes: np.ndarray, cdf: np.ndarray, count: int, rng: np.random.Generator,
                 segment_bytes: int = DEFAULT_SEGMENT_BYTES) -> np.ndarray:
    """Flow sizes as ns-2 sampled them: u in (0,1], the first row with cdf >= u, linear in
    packets from the row before, rounded up to whole packets."""
    u = 1.0 - rng.random(count)
    i = np.searchsorted(cdf, u, side="left")
    packets = sizes / segment_bytes
    lo, hi = packets[i - 1], packets[i]
    fraction = (u - cdf[i - 1]) / (cdf[i] - cdf[i - 1])
    return (np.ceil(lo + fraction * (hi - lo)) * segment_bytes).astype(np.int64)


def synthetic_flows(count: int, load: float, hosts: int, seed: int, cdf_path: Path,
                    link: Link = Link(), base_latency_s: float = 12e-6) -> pd.DataFrame:
    """Poisson arrivals per host at rate load * C / (8 * mean wire bytes), destinations uniform
    over the other hosts, ideal FCT = base latency + wire time; a benchmark input."""
    if count < 1 or hosts < 2 or not LOAD.contains(load):
        raise AnalysisError("ideal-bench: needs --flows >= 1, --hosts >= 2, 0 < --load < 1")
    rng = np.random.default_rng(seed)
    sizes, cdf = read_cdf(cdf_path)
    size = sample_sizes(sizes, cdf, count, rng, link.segment_bytes)
    wire = wire_bytes(size, link)
    per_host = load * link.rate_bps / (8 * wire.mean())
    start = np.cumsum(rng.exponential(1 / (per_host * hosts), count))
    src = rng.integers(0, hosts, count)
    dst = rng.integers(0, hosts - 1, count)
    dst += dst >= src
    return pd.DataFrame({"src": src, "dst": dst, "size_bytes": size, "start_s": start,
                         "ideal_fct_s": base_latency_s + wire * 8 / link.rate_bps})


def bench(count: int, load: float, hosts: int, seed: int, cdf_path: Path) -> dict:
    """Time the scheduler on a synthetic web search flow set."""
    flows = synthetic_flows(count, load, hosts, seed, cdf_path)
    began = time.perf_counter()
    fct, result = ideal_fct(flows, flows["ideal_fct_s"].to_numpy(), Link())
    wall = time.perf_counter() - began
    slowdown = fct["fct_s"] / fct["ideal_fct_s"]
    return {"flows": count, "hosts": hosts, "load": load, "events": result.events,
            "preemptions": result.preemptions, "peak_active": result.peak_active,
            "wall_time_s": wall, "flows_per_s": count / wall,
            "mean_slowdown": float(slowdown.mean())}


def default_cdf() -> Path:
    """The shipped web search CDF, found from the package (analysis/ next to workloads/)."""
    return Path(__file__).resolve().parents[2] / "workloads" / "websearch.cdf"


def command_line() -> str:
    """This process's command line, for provenance."""
    return " ".join(sys.argv)
