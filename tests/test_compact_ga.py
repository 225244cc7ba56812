"""Compact GA / IGO with hard-constraint repair (FSCPU paper Algorithms 2-3)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weakfs.search import CompactGA, repair_mask, top_theta
from weakfs.search._compact_ga import running_std_compare


@settings(max_examples=60, deadline=None)
@given(
    d=st.integers(1, 12),
    seed=st.integers(0, 10_000),
    budget_share=st.floats(0.05, 1.5),
    unit=st.booleans(),
)
def test_repair_is_feasible_and_maximal(d, seed, budget_share, unit):
    rng = np.random.RandomState(seed)
    costs = np.ones(d) if unit else rng.uniform(0.5, 3.0, d)
    budget = max(costs.min(), budget_share * costs.sum())
    theta = rng.uniform(0.05, 0.95, d)
    mask = rng.rand(d) < 0.5
    m = repair_mask(mask, theta, costs, budget, rng)
    cost = costs[m].sum()
    assert cost <= budget + 1e-9
    # filled as far as the costs allow: no unselected feature still fits
    assert not np.any(~m & (costs <= budget - cost + 1e-9))
    if mask.sum() and costs[mask].sum() <= budget:  # a feasible mask is only extended
        assert np.all(m[mask])


def _repair_with_choice(mask, theta, costs, budget, rng):
    """Algorithm 3 written with ``rng.choice`` (the reference the fast draw must equal)."""
    m = np.array(mask, dtype=bool)
    tol = 1e-9 * max(1.0, float(budget))
    cost = float(costs[m].sum())
    while cost > budget + tol:
        p = np.where(m, 1.0 - theta, 0.0)
        j = rng.choice(m.shape[0], p=p / p.sum())
        m[j] = False
        cost -= costs[j]
    remaining = budget - cost
    while True:
        fits = ~m & (costs <= remaining + tol)
        if not fits.any():
            break
        p = np.where(fits, theta, 0.0)
        j = rng.choice(m.shape[0], p=p / p.sum())
        m[j] = True
        remaining -= costs[j]
    return m


@settings(max_examples=200, deadline=None)
@given(
    d=st.integers(1, 40),
    seed=st.integers(0, 2**31 - 1),
    budget_share=st.floats(0.01, 1.2),
    unit=st.booleans(),
    density=st.floats(0.0, 1.0),
)
def test_repair_draws_as_rng_choice(d, seed, budget_share, unit, density):
    # the repair's weighted draw skips rng.choice's checks: same masks, same generator state
    data = np.random.RandomState(seed)
    costs = np.ones(d) if unit else data.uniform(0.1, 3.0, d)
    budget = max(costs.min(), budget_share * costs.sum())
    theta = data.uniform(0.001, 0.999, d)
    mask = data.rand(d) < density
    fast, reference = np.random.RandomState(seed), np.random.RandomState(seed)
    got = repair_mask(mask, theta, costs, budget, fast)
    assert np.array_equal(got, _repair_with_choice(mask, theta, costs, budget, reference))
    assert fast.random_sample() == reference.random_sample()


@pytest.mark.filterwarnings("ignore:invalid value encountered")
def test_repair_with_zero_weights_raises_as_rng_choice():
    # eps = 0 lets theta reach 1: nothing left to switch off by 1 - theta
    with pytest.raises(ValueError, match="probabilities"):
        repair_mask(np.ones(3, bool), np.ones(3), np.ones(3), 1, np.random.RandomState(0))


def test_repair_removes_low_theta_first():
    rng = np.random.RandomState(0)
    theta = np.array([0.95, 0.95, 0.05, 0.05])
    kept = np.zeros(4)
    for _ in range(300):
        kept += repair_mask(np.ones(4, bool), theta, np.ones(4), 2, rng)
    assert kept[0] > 250 and kept[1] > 250 and kept[2] < 50 and kept[3] < 50


def test_top_theta_rule():
    theta = np.array([0.2, 0.9, 0.9, 0.5])
    assert top_theta(theta, np.ones(4), 2).tolist() == [False, True, True, False]
    # costs: greedy by theta while it fits
    costs = np.array([1.0, 3.0, 1.0, 1.0])
    assert top_theta(theta, costs, 2.5).tolist() == [False, False, True, True]


def test_separable_objective_converges_to_optimum():
    rng = np.random.RandomState(1)
    w = rng.normal(size=12)
    ga = CompactGA(n_iter=600, budget=4)
    res = ga.run(lambda m: float(w[m].sum()), n_features=12, random_state=0)
    best = np.zeros(12, bool)
    best[np.argsort(-w)[:4]] = True
    assert np.array_equal(res.support, best)
    # theta sits at (or one step from) the bounds [1/d, 1 - 1/d]
    assert res.theta[best].min() >= 0.8 and res.theta[~best].max() <= 0.2
    assert res.theta_history.shape == (601, 12)
    assert np.allclose(res.theta_history[0], 4 / 12)
    assert res.masks.sum(axis=2).max() == 4 == res.masks.sum(axis=2).min()


def test_costs_budget_respected_and_stop_when_converged():
    costs = np.array([1.0, 2.0, 1.0, 3.0, 1.0, 2.0])
    w = np.array([1.0, 3.0, 0.5, 2.0, -1.0, 0.2])
    ga = CompactGA(n_iter=2000, budget=4, costs=costs, stop_when_converged=True)
    res = ga.run(lambda m: float(w[m].sum()), n_features=6, random_state=0)
    assert res.converged and res.n_iter < 2000
    assert (res.masks * costs).sum(axis=2).max() <= 4
    assert costs[res.support].sum() <= 4


def test_cache_counts_and_reproducible_with_threads():
    calls = []

    def f(m):
        calls.append(1)
        return float(m[0]) - float(m[1])

    r1 = CompactGA(n_iter=200, budget=2).run(f, n_features=5, random_state=3)
    n1 = len(calls)
    assert r1.n_evaluations[0] == n1 < 400  # repeated masks come from the cache
    r2 = CompactGA(n_iter=200, budget=2, n_jobs=2).run(f, n_features=5, random_state=3)
    assert np.array_equal(r1.theta_history, r2.theta_history)
    r3 = CompactGA(n_iter=200, budget=2, cache=False).run(f, n_features=5, random_state=3)
    assert r3.n_evaluations[0] == 400
    assert np.array_equal(r1.theta_history, r3.theta_history)  # deterministic objective


def test_running_std_combination():
    # two terms on different scales: each is normalised by the std of its own log
    log = [[1.0, 3.0], [100.0, 100.0]]
    assert running_std_compare(log, np.array([3.0, 100.0]), np.array([1.0, 100.0])) == 2.0
    # all-equal log: the term contributes nothing (first iterations)
    assert running_std_compare([[5.0, 5.0]], np.array([5.0]), np.array([5.0])) == 0.0
    w1 = np.array([1.0, 0, 0, 0, 0])
    w2 = np.array([0, 0, 0, 0, 1000.0])
    res = CompactGA(n_iter=300, budget=2).run(
        [lambda m: float(w1[m].sum()), lambda m: float(w2[m].sum())], n_features=5, random_state=0
    )
    assert res.values.shape == (300, 2, 2)
    assert res.support[0] and res.support[4]  # both terms count despite the 1000x scale


def test_running_std_over_array_log_equals_list_log():
    # the search keeps each term's log in a preallocated array: the same Std as over a list
    rng = np.random.RandomState(0)
    values = rng.normal(size=(2, 501)) * [[1.0], [1e4]]
    va, vb = np.array([0.3, -2.0]), np.array([0.1, 5.0])
    as_lists = [list(row) for row in values]
    assert running_std_compare(list(values), va, vb) == running_std_compare(as_lists, va, vb)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"budget": None}, "budget is required"),
        ({"budget": 0.5}, "below the cheapest"),
        ({"budget": 2, "costs": [1, -1, 1]}, "positive"),
        ({"budget": 2, "costs": [1, 1]}, "shape"),
        ({"budget": 2, "eta": 0}, "eta"),
        ({"budget": 2, "n_iter": 0}, "n_iter"),
    ],
)
def test_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        CompactGA(**kwargs).run(lambda m: 0.0, n_features=3)
    with pytest.raises(TypeError):
        CompactGA(budget=1).run([], n_features=3)


def test_parallel_candidates_are_kept_only_when_they_are_faster():
    """n_jobs=2 used to make FSCPU slower when one evaluation is short: the search times a few
    iterations each way and keeps the faster."""
    from joblib import parallel_config

    from weakfs.search._compact_ga import _ParallelChooser

    with parallel_config(backend="threading"):
        chooser = _ParallelChooser(2)
        assert chooser.adaptive and chooser.parallel(0) is False
        for t in range(1, 2 * chooser.TRIAL + 1):
            assert chooser.parallel(t) is (t > chooser.TRIAL)
            chooser.record(t, 1.0 if t <= chooser.TRIAL else 1.5)  # parallel slower
        assert chooser.choice is False and chooser.parallel(50) is False
        fast = _ParallelChooser(2)
        for t in range(1, 2 * fast.TRIAL + 1):
            fast.record(t, 1.0 if t <= fast.TRIAL else 0.6)
        assert fast.choice is True
    assert _ParallelChooser(1).parallel(10) is False
