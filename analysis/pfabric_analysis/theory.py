"""Queueing-theory yardsticks for a single bottleneck: mean response times of an M/G/1 queue under
preemptive shortest-remaining-processing-time (SRPT, what pFabric approximates) and processor
sharing (PS, what fair-sharing TCP approximates), for a discrete job-size distribution.

Units: job sizes are amounts of work in any unit, served at rate 1 (for a link: wire bytes * 8 / C
seconds), and `lam` is the arrival rate per the same time unit; then the load is lam * E[S].

Size distributions are discrete (`SizeDistribution`: atoms and their probabilities; flow sizes
are whole packets), and every formula here is exact for them, see `srpt_response_time`.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pfabric_analysis.runs import BIN_NAMES, size_bins


@dataclass(frozen=True)
class SizeDistribution:
    """A discrete job-size distribution: strictly increasing positive atoms and their
    probabilities (positive, summing to 1)."""

    atoms: np.ndarray
    probabilities: np.ndarray

    def __post_init__(self) -> None:
        atoms = np.asarray(self.atoms, dtype=np.float64)
        probabilities = np.asarray(self.probabilities, dtype=np.float64)
        if atoms.ndim != 1 or atoms.shape != probabilities.shape or atoms.size == 0:
            raise ValueError("atoms and probabilities must be non-empty 1-d arrays of one length")
        if not (np.isfinite(atoms).all() and (atoms > 0).all() and (np.diff(atoms) > 0).all()):
            raise ValueError("atoms must be finite, positive and strictly increasing")
        if not (np.isfinite(probabilities).all() and (probabilities > 0).all()
                and abs(probabilities.sum() - 1.0) <= 1e-9):
            raise ValueError("probabilities must be positive and sum to 1")
        object.__setattr__(self, "atoms", atoms)
        object.__setattr__(self, "probabilities", probabilities / probabilities.sum())

    @classmethod
    def from_samples(cls, sizes: np.ndarray) -> SizeDistribution:
        """The empirical distribution of sampled sizes (each distinct size an atom)."""
        sizes = np.asarray(sizes, dtype=np.float64)
        if sizes.size == 0:
            raise ValueError("no sizes")
        atoms, counts = np.unique(sizes, return_counts=True)
        return cls(atoms, counts / counts.sum())

    def mean(self) -> float:
        return float(self.atoms @ self.probabilities)

    def second_moment(self) -> float:
        return float(self.atoms**2 @ self.probabilities)


def load(lam: float, distribution: SizeDistribution) -> float:
    """rho = lam * E[S]."""
    return lam * distribution.mean()


def _check_rate(lam: float) -> None:
    if not (np.isfinite(lam) and lam >= 0):
        raise ValueError(f"arrival rate must be finite and non-negative, got {lam}")


def _check_sizes(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    if not (np.isfinite(x).all() and (x >= 0).all()):
        raise ValueError("job sizes must be finite and non-negative")
    return x


def _divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, +inf where the denominator is not positive (an unstable class)."""
    out = np.full(np.broadcast(numerator, denominator).shape, np.inf)
    return np.divide(numerator, denominator, out=out, where=denominator > 0)


def srpt_parts(x: np.ndarray, lam: float, distribution: SizeDistribution
               ) -> tuple[np.ndarray, np.ndarray]:
    """Mean waiting time (arrival to first service) and mean residence time (first service to
    completion) of a job of size x under M/G/1 preemptive SRPT; see `srpt_response_time`."""
    _check_rate(lam)
    x = _check_sizes(x)
    a = distribution.atoms
    p = distribution.probabilities
    # Prefix sums over the atoms: index k = "the first k atoms".
    load_upto = np.concatenate(([0.0], np.cumsum(lam * a * p)))      # lam E[S; S <= a_k]
    square_upto = np.concatenate(([0.0], np.cumsum(a * a * p)))      # E[S^2; S <= a_k]
    mass_upto = np.concatenate(([0.0], np.cumsum(p)))                # F(a_k)
    at_or_below = np.searchsorted(a, x, side="right")  # atoms <= x
    below = np.searchsorted(a, x, side="left")         # atoms <  x
    rho_x = load_upto[at_or_below]       # rho(x): includes the atom at x
    rho_x_minus = load_upto[below]       # rho(x-): excludes it
    truncated_square = square_upto[at_or_below] + x * x * (1.0 - mass_upto[at_or_below])
    # rho(x-) <= rho(x): the product is positive exactly when the class is stable.
    stable = rho_x < 1.0
    waiting = _divide(lam * truncated_square / 2.0,
                      np.where(stable, (1.0 - rho_x) * (1.0 - rho_x_minus), 0.0))
    # Residence: integral_0^x dt / (1 - rho(t)). Between atoms rho(t) is constant: on
    # (a_k, a_{k+1}) it is load_upto[k+1] (k atoms below, a_0 = 0); the atoms themselves are
    # single points and do not count.
    edges = np.concatenate(([0.0], a))
    with np.errstate(divide="ignore"):
        pieces = np.where(load_upto[:-1] < 1.0, np.diff(edges) / (1.0 - load_upto[:-1]), np.inf)
    residence_at_atom = np.concatenate(([0.0], np.cumsum(pieces)))   # integral_0^{a_k}
    tail = _divide(x - edges[at_or_below], 1.0 - load_upto[at_or_below])
    tail = np.where(x == edges[at_or_below], 0.0, tail)
    residence = residence_at_atom[at_or_below] + tail
    return waiting, residence


def srpt_response_time(x: np.ndarray, lam: float, distribution: SizeDistribution) -> np.ndarray:
    """Mean response time T(x) of a job of size x in an M/G/1 queue under preemptive SRPT
    (Schrage & Miller 1966; Harchol-Balter, Performance Modeling and Design of Computer
    Systems, ch. 33), exact for a discrete size distribution:

        T(x) = lam/2 * E[min(S, x)^2] / ((1 - rho(x)) (1 - rho(x-)))  +  int_0^x dt / (1 - rho(t))

    with F(x) = P(S <= x) (right-continuous), E[min(S, x)^2] = int_[0,x] t^2 dF(t) + x^2 (1 - F(x)),
    rho(x) = lam * int_[0,x] t dF(t) (the atom at x included) and rho(x-) = lam * E[S; S < x].

    Convention for ties (jobs of the same remaining size): the earlier arrival is served first
    (once served, its remaining size is smaller, so it keeps the server); this is the order the
    Ideal scheduler uses (key: remaining, start). Then, for a tagged job of size x:
    - the work it finds that must be done before it starts is that of the jobs with remaining
      size <= x, including earlier jobs of size exactly x. Its mean is
      lam E[min(S, x)^2] / (2 (1 - rho(x))): jobs of size <= x add their whole size while that
      work is positive (load rho(x), atom included), larger jobs enter it with remaining x
      when it is empty;
    - while it waits, only later arrivals strictly smaller than x overtake it (later jobs of
      size x queue behind it): the wait is a busy period of load rho(x-);
    - once started with remaining t, only arrivals smaller than t preempt it: the integral.
      The integrand's value at the atoms does not matter (single points).
    For a continuous F, rho(x-) = rho(x) and this is the textbook (1 - rho(x))^2. With a
    point mass the difference is real: if every job has size d, SRPT with these ties is FCFS
    and T(d) = d + lam d^2 / (2 (1 - rho)), the M/D/1 value, where (1 - rho(d))^2 would be
    wrong. (Breaking ties the other way, later arrival first, swaps the two factors and gives
    the same mean.)

    x may be any size (not only an atom); a size class that is not stable (rho(x) >= 1) gets
    +inf."""
    waiting, residence = srpt_parts(x, lam, distribution)
    return waiting + residence


def ps_response_time(x: np.ndarray, lam: float, distribution: SizeDistribution) -> np.ndarray:
    """Mean response time of a job of size x in an M/G/1 processor-sharing queue: x / (1 - rho)
    (insensitive to the size distribution beyond its mean); +inf if rho >= 1."""
    _check_rate(lam)
    x = _check_sizes(x)
    rho = load(lam, distribution)
    return _divide(x, np.full(x.shape, 1.0 - rho))


def ps_sample_path(arrival: np.ndarray, size: np.ndarray) -> np.ndarray:
    """Response times of jobs under egalitarian processor sharing (one server of rate 1) on the
    given arrival times and sizes: the sample-path counterpart of `ps_response_time`.

    Every active job has received the same service since the last event, so a job's finish
    is when the shared attained service V reaches its attained-at-arrival + size."""
    arrival = np.asarray(arrival, dtype=np.float64)
    size = _check_sizes(size)
    if arrival.shape != size.shape:
        raise ValueError("arrival and size must have one length")
    order = np.argsort(arrival, kind="stable")
    finish = np.empty(arrival.size)
    active: list[tuple[float, int]] = []  # (V at which the job is done, job)
    now = 0.0
    attained = 0.0  # V: service received by each job active throughout

    def advance(until: float) -> None:
        nonlocal now, attained
        while active:
            target, job = active[0]
            done_at = now + (target - attained) * len(active)
            if done_at > until:
                break
            heapq.heappop(active)
            now, attained = done_at, target
            finish[job] = done_at
        if active:
            attained += (until - now) / len(active)
        now = until

    for job in order.tolist():
        advance(float(arrival[job]))
        heapq.heappush(active, (attained + float(size[job]), job))
    advance(np.inf)
    return finish - arrival


def bin_means(size_bytes: np.ndarray, values: np.ndarray, kb: int = 1000) -> pd.DataFrame:
    """Mean of per-flow values per size bin (runs.BIN_NAMES) of the payload
    size, and over all flows: columns bin, flows, mean."""
    sizes = pd.Series(np.asarray(size_bytes))
    values = np.asarray(values, dtype=np.float64)
    if sizes.size != values.size:
        raise ValueError("size_bytes and values must have one length")
    bins = size_bins(sizes, kb).to_numpy()
    rows = []
    for name in BIN_NAMES + ["all"]:
        chosen = values if name == "all" else values[bins == name]
        rows.append({"bin": name, "flows": int(chosen.size),
                     "mean": float(chosen.mean()) if chosen.size else float("nan")})
    return pd.DataFrame(rows)
