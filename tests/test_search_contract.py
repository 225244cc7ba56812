"""Every search strategy honours one contract: run(objective, n_features=None, *, random_state)."""

import inspect

import numpy as np
import pytest

from weakfs.search import (
    FSGA,
    CachedObjective,
    ClassicGA,
    CompactGA,
    ForwardSearch,
    FunctionObjective,
    MaskObjective,
    MaskSearch,
    SearchResult,
    as_objective,
)

D = 10
W = np.r_[np.ones(3), -0.2 * np.ones(D - 3)]


class WeightedLinear:
    """A MaskObjective with weights (FSGA needs them) and no relevance test."""

    n_features = D

    def evaluate(self, masks):
        masks = np.asarray(masks, dtype=bool)
        return masks @ W, masks * (np.abs(W) + 0.01)


STRATEGIES = [
    FSGA(n_generations=3, relevance_test=False, final="best"),
    ClassicGA(n_generations=3),
    CompactGA(n_iter=60, budget=3),
    ForwardSearch(n_features_to_select=3),
]


@pytest.mark.parametrize("strategy", STRATEGIES, ids=lambda s: type(s).__name__)
def test_one_run_signature_and_result(strategy):
    assert isinstance(strategy, MaskSearch)
    params = inspect.signature(strategy.run).parameters
    assert list(params)[:2] == ["objective", "n_features"]
    assert params["random_state"].kind is inspect.Parameter.KEYWORD_ONLY
    a = strategy.run(WeightedLinear(), random_state=0)
    b = strategy.run(WeightedLinear(), D, random_state=0)
    assert isinstance(a, SearchResult)
    assert a.support.dtype == bool and a.support.shape == (D,)
    np.testing.assert_array_equal(a.support, b.support)  # same seed, same answer


@pytest.mark.parametrize("strategy", STRATEGIES[1:], ids=lambda s: type(s).__name__)
def test_plain_callable_equals_its_objective(strategy):
    f = lambda m: float(W @ m)  # noqa: E731
    a = strategy.run(f, D, random_state=1)
    b = strategy.run(FunctionObjective(f, D), random_state=1)
    np.testing.assert_array_equal(a.support, b.support)


def test_fsga_needs_weights():
    with pytest.raises(TypeError, match="weights"):
        FSGA(n_generations=1, relevance_test=False).run(lambda m: float(m.sum()), D)


def test_as_objective_checks():
    assert isinstance(as_objective(WeightedLinear()), MaskObjective)
    assert isinstance(as_objective(lambda m: 0.0, 4), MaskObjective)
    with pytest.raises(TypeError, match="n_features"):
        as_objective(lambda m: 0.0)
    with pytest.raises(ValueError, match="disagrees"):
        as_objective(WeightedLinear(), D + 1)
    with pytest.raises(TypeError, match="callable"):
        as_objective(3, 4)


def test_cached_objective_is_an_objective():
    calls = []
    cached = CachedObjective(lambda m: calls.append(1) or float(m.sum()))
    masks = np.array([[True, False], [True, False], [False, True]])
    fitness, weights = cached.evaluate(masks)
    np.testing.assert_array_equal(fitness, [1.0, 1.0, 1.0])
    assert weights is None and len(calls) == 2
