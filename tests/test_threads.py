"""Thread limits inside small fits: chosen from the operands' size, only ever lowered, and
results independent of them."""

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

import weakfs._threads as threads
from weakfs._threads import limit_threads, threads_for
from weakfs.pu import GKFPUALClassifier, NNPUClassifier, PUALClassifier


def test_threads_for_counts_entries_of_the_largest_operand():
    per = threads.ENTRIES_PER_THREAD
    assert threads_for((10, 10)) == 1
    assert threads_for((per, 1)) == 1
    assert threads_for((3 * per, 1), (5, 5)) == 3
    with pytest.raises(ValueError, match="at least one operand"):
        threads_for()


def test_limit_only_lowers():
    with threadpool_limits(1):  # the caller's limit stays in force under a larger one
        with limit_threads((10 * threads.ENTRIES_PER_THREAD, 1)) as n_threads:
            assert n_threads == 10
            assert all(pool["num_threads"] == 1 for pool in threadpool_info())


@pytest.mark.parametrize(
    "make",
    [
        lambda: GKFPUALClassifier(max_iter=200),
        lambda: PUALClassifier(),
        lambda: NNPUClassifier(prior=0.4, max_epochs=20, random_state=0),
    ],
    ids=["GKF-PUAL", "PUAL", "nnPU"],
)
def test_results_do_not_depend_on_the_limit(make, monkeypatch):
    rng = np.random.RandomState(0)
    X = rng.normal(size=(150, 6))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    s = y * (rng.uniform(size=150) < 0.5)
    limited = make().fit(X, s).decision_function(X)
    monkeypatch.setattr(threads, "ENTRIES_PER_THREAD", 1)  # every operand "large": no limit
    default = make().fit(X, s).decision_function(X)
    np.testing.assert_allclose(limited, default, rtol=1e-9, atol=1e-9)
