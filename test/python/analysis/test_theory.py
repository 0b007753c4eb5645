"""M/G/1 SRPT and PS mean response times: hand-computed values, limits, and an exact event
simulation of a single preemptive SRPT server written here."""

from __future__ import annotations

import heapq

import numpy as np
import pandas as pd
import pytest
from scipy import integrate

from pfabric_analysis.ideal import Link, ideal_fct
from pfabric_analysis.theory import (SizeDistribution, bin_means, load, ps_response_time,
                                     ps_sample_path, srpt_parts, srpt_response_time)

# Two-point sizes: 1 with probability 0.9, 10 with 0.1. E[S] = 0.9 + 1 = 1.9, E[S^2] = 0.9 + 10
# = 10.9; lam = 0.5 / 1.9 = 5/19 gives rho = 0.5.
TWO_POINT = SizeDistribution(np.array([1.0, 10.0]), np.array([0.9, 0.1]))
LAM = 5 / 19


def srpt_simulation(arrival: list[float], size: list[float]) -> np.ndarray:
    """Response times under preemptive SRPT on one server of rate 1, ties (equal remaining size)
    to the earlier arrival: the job in service is preempted only by a strictly smaller one."""
    n = len(size)
    finish = np.empty(n)
    waiting: list[tuple[float, int]] = []  # (remaining, job): job order breaks ties
    current: list | None = None            # [remaining, job]
    now = 0.0

    def serve(until: float) -> None:
        nonlocal current, now
        while True:
            if current is None:
                if not waiting:
                    break
                current = list(heapq.heappop(waiting))
            if now + current[0] <= until:
                now += current[0]
                finish[current[1]] = now
                current = None
                continue
            current[0] -= until - now
            break
        now = until

    for job in range(n):
        serve(arrival[job])
        if current is not None and size[job] < current[0]:
            heapq.heappush(waiting, (current[0], current[1]))
            current = [size[job], job]
        else:
            heapq.heappush(waiting, (size[job], job))
    serve(float("inf"))
    return finish - np.asarray(arrival)


def test_two_point_distribution_by_hand() -> None:
    # T(1): rho(1) = lam * 0.9 = 9/38, rho(1-) = 0, E[min(S,1)^2] = 1.
    #   wait = (5/19) * 1 / (2 * (1 - 9/38) * 1) = (5/19) * 38/58 = 5/29
    #   residence = int_0^1 dt / (1 - 0) = 1          -> T(1) = 34/29 = 1.1724
    # T(10): rho(10) = 1/2, rho(10-) = 9/38, E[min(S,10)^2] = 10.9.
    #   wait = (5/19) * 10.9 / (2 * (1/2) * (29/38)) = 5 * 10.9 * 2 / 29 = 109/29
    #   residence = 1 + int_1^10 dt / (1 - 9/38) = 1 + 9 * 38/29 = 371/29
    #                                                  -> T(10) = 480/29 = 16.5517
    assert load(LAM, TWO_POINT) == pytest.approx(0.5)
    waiting, residence = srpt_parts(np.array([1.0, 10.0]), LAM, TWO_POINT)
    assert waiting == pytest.approx([5 / 29, 109 / 29])
    assert residence == pytest.approx([1.0, 371 / 29])
    assert srpt_response_time(np.array([1.0, 10.0]), LAM, TWO_POINT) == pytest.approx(
        [34 / 29, 480 / 29])
    # Between and beyond the atoms: x = 5 sees rho(5) = rho(5-) = 9/38, E[min(S,5)^2] = 0.9 + 2.5
    # = 3.4: wait = (5/19) * 3.4 / (2 (29/38)^2) = 0.76837..., residence 1 + 4 * 38/29.
    assert srpt_response_time(np.array([5.0]), LAM, TWO_POINT)[0] == pytest.approx(
        (5 / 19) * 3.4 / (2 * (29 / 38) ** 2) + 1 + 4 * 38 / 29)
    # PS: x / (1 - 1/2).
    assert ps_response_time(np.array([1.0, 10.0]), LAM, TWO_POINT) == pytest.approx([2.0, 20.0])


def test_a_point_mass_is_fcfs_the_m_d_1_queue() -> None:
    # All jobs of size d: no job is ever preempted (the one in service has less left), so SRPT
    # with ties to the earlier arrival is FCFS: Pollaczek-Khinchine T = d + lam d^2 / (2(1-rho)).
    # This is what the atom convention rho(x) vs rho(x-) decides: (1 - rho(d))^2 would be wrong.
    d, lam = 3.0, 0.2  # rho = 0.6
    point = SizeDistribution(np.array([d]), np.array([1.0]))
    assert srpt_response_time(np.array([d]), lam, point)[0] == pytest.approx(
        d + lam * d * d / (2 * (1 - 0.6)))


def test_light_load_limit_is_the_size_itself() -> None:
    x = np.array([0.5, 1.0, 3.0, 10.0, 12.0])
    for lam in (1e-6, 1e-9):
        assert srpt_response_time(x, lam, TWO_POINT) == pytest.approx(x, rel=1e-5)
        assert ps_response_time(x, lam, TWO_POINT) == pytest.approx(x, rel=1e-5)
    assert srpt_response_time(x, 0.0, TWO_POINT).tolist() == x.tolist()


def test_ps_formula_and_instability() -> None:
    x = np.array([1.0, 2.0, 10.0])
    lam = 0.3  # rho = 0.57
    assert ps_response_time(x, lam, TWO_POINT) == pytest.approx(x / (1 - 0.3 * 1.9))
    # rho = 1.9 * 0.6 = 1.14: PS is unstable for everyone, SRPT only for the large jobs
    # (rho(1) = 0.54 < 1 <= rho(10)).
    assert np.isinf(ps_response_time(x, 0.6, TWO_POINT)).all()
    srpt = srpt_response_time(np.array([1.0, 10.0]), 0.6, TWO_POINT)
    assert np.isfinite(srpt[0]) and np.isinf(srpt[1])


def test_a_fine_discretisation_approaches_the_continuous_formula() -> None:
    # Exp(1) sizes on a grid of step h (mass of ((k-1)h, kh] at kh): for continuous F the
    # textbook T(x) = lam/2 (int_0^x t^2 dF + x^2 (1-F(x))) / (1-rho(x))^2 + int_0^x dt/(1-rho(t)).
    h, lam = 1e-3, 0.7
    grid = np.arange(1, 40_001) * h
    mass = np.exp(-(grid - h)) * -np.expm1(-h)  # P((k-1)h < S <= kh), never rounded to 0
    fine = SizeDistribution(grid, mass / mass.sum())

    def rho(t: float) -> float:  # lam * int_0^t s e^-s ds
        return lam * (1 - np.exp(-t) * (1 + t))

    for x in (0.2, 1.0, 3.0):
        second = 2 - np.exp(-x) * (x * x + 2 * x + 2) + x * x * np.exp(-x)
        exact = (lam / 2 * second / (1 - rho(x)) ** 2
                 + integrate.quad(lambda t: 1 / (1 - rho(t)), 0, x)[0])
        assert srpt_response_time(np.array([x]), lam, fine)[0] == pytest.approx(exact, rel=2e-3)


def test_monte_carlo_single_server_srpt_and_ps() -> None:
    rng = np.random.default_rng(7)
    n = 300_000
    arrival = np.cumsum(rng.exponential(1 / LAM, n))
    size = np.where(rng.random(n) < 0.9, 1.0, 10.0)
    keep = slice(2_000, None)  # warm-up
    srpt = srpt_simulation(arrival.tolist(), size.tolist())[keep]
    ps = ps_sample_path(arrival, size)[keep]
    kept = size[keep]
    for x, tolerance in ((1.0, 0.01), (10.0, 0.03)):
        theory = srpt_response_time(np.array([x]), LAM, TWO_POINT)[0]
        assert srpt[kept == x].mean() == pytest.approx(theory, rel=tolerance)
        assert ps[kept == x].mean() == pytest.approx(x / 0.5, rel=tolerance)
    # The simulation tells the atom conventions apart: (1 - rho(1))^2 in the waiting time
    # would predict 5% more for the size-1 jobs.
    naive = 1 + LAM / (2 * (1 - 9 / 38) ** 2)
    assert abs(srpt[kept == 1.0].mean() / naive - 1) > 0.03


def test_the_simulation_here_is_the_ideal_scheduler_on_one_link() -> None:
    # All flows into one host: Ideal is preemptive SRPT on that host's downlink with the same
    # tie rule. 1 byte per second, no overhead: sizes are service times.
    rng = np.random.default_rng(3)
    n = 2_000
    start = np.cumsum(rng.integers(1, 30, n)).astype(float)  # whole seconds: exact ties
    size = rng.choice([1, 4, 10, 25], n, p=[0.5, 0.3, 0.15, 0.05])
    link = Link(rate_bps=8, segment_bytes=1000, overhead_bytes=0)
    flows = pd.DataFrame({"src": rng.integers(1, 6, n), "dst": 0, "size_bytes": size,
                          "start_s": start})
    fct, _ = ideal_fct(flows, size.astype(float), link)
    ours = srpt_simulation(start.tolist(), size.astype(float).tolist())
    np.testing.assert_allclose(fct["fct_s"].to_numpy(), ours, rtol=0, atol=1e-6)


def test_ps_sample_path_by_hand() -> None:
    # A(2) and B(1) at 0 share: at t=1 each has had 0.5 when C(1) arrives; B (0.5 left) ends
    # at 1 + 3 * 0.5 = 2.5; C (0.5 left) at 2.5 + 2 * 0.5 = 3.5; A (0.5 left) at 4.
    out = ps_sample_path(np.array([0.0, 0.0, 1.0]), np.array([2.0, 1.0, 1.0]))
    assert out.tolist() == pytest.approx([4.0, 2.5, 2.5])


def test_empirical_distribution_and_bad_input() -> None:
    dist = SizeDistribution.from_samples(np.array([10.0, 1.0, 1.0, 1.0]))
    assert dist.atoms.tolist() == [1.0, 10.0] and dist.probabilities.tolist() == [0.75, 0.25]
    assert dist.mean() == pytest.approx(3.25) and dist.second_moment() == pytest.approx(25.75)
    for atoms, probabilities in (([1.0, 1.0], [0.5, 0.5]), ([0.0, 1.0], [0.5, 0.5]),
                                 ([1.0, 2.0], [0.5, 0.6]), ([1.0], [1.0, 0.0]), ([], [])):
        with pytest.raises(ValueError):
            SizeDistribution(np.array(atoms), np.array(probabilities))
    with pytest.raises(ValueError):
        srpt_response_time(np.array([1.0]), -1.0, TWO_POINT)
    with pytest.raises(ValueError):
        srpt_response_time(np.array([-1.0]), 0.1, TWO_POINT)


def test_bin_means_per_size_bin() -> None:
    sizes = np.array([100_000, 1_000, 100_001, 10_000_000, 10_000_001])
    table = bin_means(sizes, np.array([1.0, 3.0, 5.0, 7.0, 11.0]))
    assert table["bin"].tolist() == ["(0,100KB]", "(100KB,10MB]", "(10MB,inf)", "all"]
    assert table["flows"].tolist() == [2, 2, 1, 5]
    assert table["mean"].tolist() == [2.0, 6.0, 11.0, 5.4]
    empty = bin_means(np.array([5]), np.array([2.0]))
    assert empty["flows"].tolist() == [1, 0, 0, 1] and np.isnan(empty["mean"][1])
