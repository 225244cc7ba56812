"""FSGA, classic GA and forward search on objectives with known answers."""

import numpy as np
import pytest

from weakfs.search import FSGA, CachedObjective, ClassicGA, ForwardSearch
from weakfs.search._fsga import weighted_crossover
from weakfs.semi_supervised import ForestSubsetObjective

GOOD = np.array([0, 3, 7])


class ToyObjective:
    """Fitness = good features chosen - 0.05 * size; weights = 1 for good, 0.001 for others."""

    def __init__(self, d=20):
        self.n_features = d
        self.good = np.zeros(d)
        self.good[GOOD[GOOD < d]] = 1.0
        self.calls = 0
        self.relevance_calls = []
        self.masks = []

    def evaluate(self, masks):
        self.calls += len(masks)
        self.masks.append(masks.copy())
        fitness = masks @ self.good - 0.05 * masks.sum(axis=1)
        return fitness, masks * np.where(self.good > 0, 1.0, 0.001)

    def relevance_importances(self, best, suspects, seed):
        self.relevance_calls.append(np.asarray(suspects))
        imp = np.where(np.isin(suspects, GOOD), 0.2, 0.01)
        copies = np.full(len(suspects), 0.01)
        return imp, copies


def test_weighted_crossover_by_hand():
    m0 = np.array([1, 1, 1, 0, 0, 0], bool)
    w0 = np.array([0.1, 0.5, 0.4, 0, 0, 0])
    m1 = np.array([0, 1, 0, 1, 1, 0], bool)
    w1 = np.array([0, 0.9, 0, 0.3, 0.6, 0])
    # L = 3, p = 0.4 -> floor(1.2) = 1 from parent 0 (feature 1, weight .5); then parent 1 by
    # weight skipping taken: 4 (.6), 3 (.3)
    child = weighted_crossover(w0, m0, w1, m1, 0.4, 3)
    np.testing.assert_array_equal(np.flatnonzero(child), [1, 3, 4])
    # parent 1 runs out -> back to parent 0's next best
    child = weighted_crossover(w0, m0, w1, m1, 0.2, 5)
    assert child.sum() == 5
    assert {1, 3, 4}.issubset(set(np.flatnonzero(child)))


def test_fsga_finds_the_good_features_and_is_reproducible():
    obj = ToyObjective()
    res = FSGA(n_generations=15, final="best", relevance_test=False).run(obj, random_state=0)
    assert set(GOOD).issubset(set(np.flatnonzero(res.best_mask)))
    assert len(res.history) == 16
    best = [h["best_fitness"] for h in res.history]
    assert best[-1] >= best[0]
    res2 = FSGA(n_generations=15, final="best", relevance_test=False).run(
        ToyObjective(), random_state=0
    )
    np.testing.assert_array_equal(res.support, res2.support)


def test_relevance_test_removes_suspects_equal_to_their_copies():
    obj = ToyObjective()
    res = FSGA(n_generations=4, strip_removed=True).run(obj, random_state=1)
    assert obj.relevance_calls, "suspects were never tested"
    removed = np.flatnonzero(res.removed)
    assert not set(GOOD) & set(removed)
    tested = np.unique(np.concatenate(obj.relevance_calls))
    bad_tested = np.setdiff1d(tested, GOOD)
    # suspects whose importance equals their permuted copy's (toy: all non-good ones) are removed
    assert set(bad_tested) <= set(removed)
    # removed features never come back
    assert not res.population[:, res.removed].any()
    assert not res.support[res.removed].any()


@pytest.mark.parametrize("strip_removed", [False, True])
def test_elite_keep_removed_features_unless_stripped(strip_removed):
    """The authors' code removes irrelevant features from future mutation and back-filling only:
    the best candidate of a generation is carried over as it is."""
    obj = ToyObjective()
    res = FSGA(n_generations=1, strip_removed=strip_removed).run(obj, random_state=0)
    first = obj.masks[0]
    best = first[np.argmax(first @ obj.good - 0.05 * first.sum(axis=1))]
    assert (best & res.removed).any(), "the toy must remove a feature of the best candidate"
    if strip_removed:
        assert not res.population[:, res.removed].any()
    else:
        np.testing.assert_array_equal(res.population[0], best)


class ZeroWeightToy(ToyObjective):
    """Irrelevant features get weight exactly 0 (a forest never splits on them)."""

    def evaluate(self, masks):
        fitness, _ = super().evaluate(masks)
        return fitness, masks * self.good


def test_child_length_counts_the_dominant_parents_nonzero_weights():
    res = FSGA(n_generations=1, relevance_test=False).run(ZeroWeightToy(), random_state=0)
    n0 = int(np.floor(np.sqrt(20)))
    children = res.population[8:]
    # at most the 3 good features carry weight; an empty child gets one random feature
    assert children.sum(axis=1).max() <= len(GOOD) < n0


def test_best_output_is_the_best_final_candidate():
    res = FSGA(n_generations=2, final="best").run(ToyObjective(), random_state=0)
    np.testing.assert_array_equal(res.support, res.best_mask)


def test_vote_output_thresholds_rare_features():
    obj = ToyObjective()
    res = FSGA(n_generations=5, vote_threshold=0.5).run(obj, random_state=0)
    freq = res.population.mean(axis=0)
    np.testing.assert_array_equal(res.support, (freq >= 0.5) & ~res.removed)


def _synthetic(seed, n=300):
    rng = np.random.RandomState(seed)
    X = rng.randn(n, 6)
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    X[:, 5] = 0.0  # carries nothing at all
    return X, y


@pytest.mark.parametrize("seed", [0, 1])
def test_permutation_relevance_on_synthetic_data(seed):
    """Forest-based test: informative feature 1 is kept; noise goes (1e-4 catches a feature
    without any importance; Gaussian noise needs a looser threshold)."""
    X, y = _synthetic(seed)
    obj = ForestSubsetObjective(X, y, np.ones(len(y), bool), "oob", n_estimators=100, seed=seed)
    best = np.zeros(6, bool)
    best[0] = True
    imp, cop = obj.relevance_importances(best, np.array([1, 4, 5]), seed)
    diff = np.abs(imp - cop)
    assert diff[0] >= 1e-4 and diff[2] < 1e-4  # informative kept, empty feature removed
    assert diff[0] > 0.1 and diff[1] < 0.02  # Gaussian noise: close to its permuted copy


def test_classic_ga_with_cached_plain_objective():
    d = 12
    w = np.r_[np.ones(3), -np.ones(d - 3) * 0.2]
    f = CachedObjective(lambda m: float(w @ m))
    res = ClassicGA(n_generations=15).run(f, d, random_state=0)
    assert res.support[:3].all()
    assert f.n_evaluations < f.n_calls  # elites re-used from the cache
    assert res.history[-1]["best_fitness"] >= res.history[0]["best_fitness"]


def test_forward_search_adds_blocks_and_stops_early():
    d = 30
    w = np.arange(d, dtype=float)[::-1]  # feature 0 best
    calls = []

    def f(m):
        calls.append(1)
        return float(w @ m)

    res = ForwardSearch(n_features_to_select=5).run(f, d)
    # n_add = floor(0.1 d) = 3 per step: two steps are enough for 5 features
    np.testing.assert_array_equal(res.ranking, [0, 1, 2, 3, 4, 5])
    np.testing.assert_array_equal(np.flatnonzero(res.support), [0, 1, 2, 3, 4])
    assert len(calls) == 30 + 27


def test_fsga_bad_parameters():
    with pytest.raises(ValueError, match="n_parents"):
        FSGA(n_parents=50).run(ToyObjective())
    with pytest.raises(ValueError, match="at least 2 features"):
        FSGA().run(ToyObjective(d=1))


def test_length_mutation_changes_subset_sizes_only_when_asked():
    fixed = FSGA(n_generations=3, relevance_test=False, final="best")
    res = fixed.run(ToyObjective(), random_state=0)
    n0 = int(np.floor(np.sqrt(20)))
    assert (res.population.sum(axis=1) == n0).all()  # reference behaviour: lengths stay n0
    grown = FSGA(n_generations=3, relevance_test=False, final="best", length_mutation=True).run(
        ToyObjective(), random_state=0
    )
    assert len(set(grown.population.sum(axis=1))) > 1


class SmallIsBetter(ToyObjective):
    """Fitness = -size: without a floor the length mutation shrinks every candidate to one."""

    def evaluate(self, masks):
        return -masks.sum(axis=1).astype(float), masks * 1.0


@pytest.mark.parametrize("bound", [1, 2, 3])
def test_bounded_length_mutation_changes_a_length_by_at_most_the_bound(bound):
    d, n0 = 30, 6
    fsga = FSGA(length_mutation=True, max_length_change=bound, mutation_prob=1.0)
    rng = np.random.RandomState(0)
    allowed = np.ones(d, dtype=bool)
    changes = set()
    for _ in range(300):
        child = np.zeros(d, dtype=bool)
        size = int(rng.randint(1, 12))
        child[rng.choice(d, size, replace=False)] = True
        out = fsga._mutate(child, allowed, 3, rng, n0)
        change = int(out.sum()) - size
        changes.add(change)
        assert abs(change) <= bound
        if change < 0:  # a shrink stops at the floor n0 - bound
            assert out.sum() >= max(1, n0 - bound)
    assert min(changes) < 0 < max(changes)  # it does grow and shrink


def test_bounded_length_mutation_cannot_collapse_the_population():
    d = 36
    n0 = int(np.floor(np.sqrt(d)))
    kw = dict(n_generations=8, relevance_test=False, final="best", length_mutation=True)
    free = FSGA(**kw).run(SmallIsBetter(d), random_state=0)
    assert free.population.sum(axis=1).min() == 1  # unbounded: collapses to one feature
    bounded = FSGA(**kw, max_length_change=2).run(SmallIsBetter(d), random_state=0)
    assert bounded.population.sum(axis=1).min() >= n0 - 2
    with pytest.raises(ValueError, match="max_length_change"):
        FSGA(max_length_change=0).run(ToyObjective())


def test_max_length_change_is_ignored_without_length_mutation():
    kw = dict(n_generations=3, relevance_test=False, final="best")
    a = FSGA(**kw).run(ToyObjective(), random_state=1)
    b = FSGA(**kw, max_length_change=2).run(ToyObjective(), random_state=1)
    np.testing.assert_array_equal(a.population, b.population)
