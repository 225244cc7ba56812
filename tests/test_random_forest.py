"""weakfs's random forest (the engine of SEW-IL): exact best Gini splits, scikit-learn's contract,
results independent of n_jobs and of how the data reached the kernel."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.ensemble import RandomForestClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from weakfs._tree import BinnedMatrix, RandomForest


def _gini_score(y, w, n_classes):
    """``sum_c w_c^2 / W`` of a set of rows (larger after a split = larger Gini decrease)."""
    sums = np.bincount(y, weights=w, minlength=n_classes)
    return float((sums**2).sum() / sums.sum())


def _best_split_score(X, y, w, n_classes):
    """Brute force: the best split score over every feature and every cut between two
    consecutive distinct values."""
    best = -np.inf
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        for a, b in itertools.pairwise(values):
            go_left = X[:, j] <= (a + b) / 2
            score = _gini_score(y[go_left], w[go_left], n_classes) + _gini_score(
                y[~go_left], w[~go_left], n_classes
            )
            best = max(best, score)
    return best


def _mixed_columns(rng, n):
    """A continuous column, a column with 3 values, a mostly-zero column and a constant one."""
    return np.column_stack(
        [
            rng.normal(size=n),
            rng.randint(0, 3, size=n),
            np.where(rng.uniform(size=n) < 0.15, rng.randint(1, 5, size=n), 0),
            np.zeros(n),
        ]
    ).astype(np.float32)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n", [12, 60, 400])
def test_every_split_is_the_best_gini_split(seed, n):
    rng = np.random.RandomState(seed)
    X = _mixed_columns(rng, n)
    y = rng.randint(0, 3, size=n)
    y[:3] = [0, 1, 2]  # every class present: the leaf values have three columns
    w = rng.uniform(0.5, 2.0, size=n)
    forest = RandomForest(1, max_features=None, bootstrap=False, random_state=seed)
    forest.fit(X, y, sample_weight=w)
    tree = forest.trees_[0]
    n_checked = 0
    stack = [(0, np.arange(n))]
    while stack:
        node, rows = stack.pop()
        sums = np.bincount(y[rows], weights=w[rows], minlength=3)
        np.testing.assert_allclose(tree.value[node], sums / sums.sum())
        if tree.left[node] < 0:
            # a leaf: pure, one row, or no feature varies
            pure = (sums > 0).sum() == 1
            assert pure or rows.size == 1 or (np.ptp(X[rows], axis=0) == 0).all()
            continue
        f, t = tree.feature[node], tree.threshold[node]
        go_left = X[rows, f] <= t
        chosen = _gini_score(y[rows][go_left], w[rows][go_left], 3) + _gini_score(
            y[rows][~go_left], w[rows][~go_left], 3
        )
        best = _best_split_score(X[rows], y[rows], w[rows], 3)
        assert chosen == pytest.approx(best, rel=1e-9)
        n_checked += 1
        stack += [(tree.left[node], rows[go_left]), (tree.right[node], rows[~go_left])]
    assert n_checked > 0


@settings(max_examples=25, deadline=None)
@given(
    data=st.lists(
        st.tuples(st.integers(0, 4), st.integers(0, 9), st.integers(0, 2)), min_size=2, max_size=40
    ),
    seed=st.integers(0, 2**31 - 1),
)
def test_splits_fit_ties_and_few_values(data, seed):
    """Invariants on arbitrary small tables: fractions sum to 1, training rows land in a leaf
    holding their class, and a fully grown unbootstrapped tree separates rows with distinct X."""
    arr = np.array(data)
    X, y = arr[:, :2].astype(np.float32), arr[:, 2]
    forest = RandomForest(3, max_features=None, bootstrap=False, random_state=seed).fit(X, y)
    proba = forest.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    # rows whose X is unique get their own label back (a leaf holds only identical X's)
    keys, inverse, _counts = np.unique(X, axis=0, return_inverse=True, return_counts=True)
    labels_per_x = [set(y[inverse.ravel() == i]) for i in range(len(keys))]
    for i in range(len(y)):
        if len(labels_per_x[inverse.ravel()[i]]) == 1:
            assert forest.classes_[proba[i].argmax()] == y[i]


def test_same_forest_for_any_n_jobs_and_input_route():
    rng = np.random.RandomState(0)
    X = _mixed_columns(rng, 300)
    y = (X[:, 0] + X[:, 1] > 1).astype(int) + (X[:, 2] > 0)
    one = RandomForest(30, random_state=1, n_jobs=1, oob_score=True).fit(X, y)
    two = RandomForest(30, random_state=1, n_jobs=2, oob_score=True).fit(X, y)
    binned = RandomForest(30, random_state=1).fit_binned(BinnedMatrix.from_array(X), y)
    for other in (two, binned):
        np.testing.assert_array_equal(one.predict_proba(X), other.predict_proba(X))
        np.testing.assert_array_equal(one.oob_decision_function_, other.oob_decision_function_)
        np.testing.assert_array_equal(one.feature_importances_, other.feature_importances_)


def test_binned_columns_and_permuted_copies_match_binning_the_data():
    rng = np.random.RandomState(0)
    X = _mixed_columns(rng, 200)
    y = rng.randint(0, 2, 200)
    perm = rng.permutation(200)
    columns = np.array([2, 0, 0])
    data = X[:, columns].copy()
    data[:, 2] = data[perm, 2]
    direct = RandomForest(10, random_state=0).fit_binned(BinnedMatrix.from_array(data), y)
    sub = BinnedMatrix.from_array(X).columns(columns, row_orders=[None, None, perm])
    via_columns = RandomForest(10, random_state=0).fit_binned(sub, y)
    np.testing.assert_array_equal(direct.predict_proba(data), via_columns.predict_proba(data))
    np.testing.assert_array_equal(direct.feature_importances_, via_columns.feature_importances_)


def test_agrees_with_scikit_learn_within_seed_noise():
    """Same algorithm, other random draws: OOB accuracy and importances agree within noise."""
    rng = np.random.RandomState(0)
    X = rng.normal(size=(400, 6)).astype(np.float32)
    y = (X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.3 * rng.normal(size=400) > 0.5).astype(int)
    ours = [RandomForest(100, oob_score=True, random_state=s).fit(X, y) for s in range(3)]
    theirs = [
        RandomForestClassifier(100, oob_score=True, random_state=s).fit(X, y) for s in range(3)
    ]
    oob_ours = np.mean([f.oob_score_ for f in ours])
    assert abs(oob_ours - np.mean([f.oob_score_ for f in theirs])) < 0.03
    imp_ours = np.mean([f.feature_importances_ for f in ours], axis=0)
    imp_theirs = np.mean([f.feature_importances_ for f in theirs], axis=0)
    np.testing.assert_allclose(imp_ours, imp_theirs, atol=0.03)
    assert np.argsort(imp_ours)[-2:].tolist() == np.argsort(imp_theirs)[-2:].tolist()


def test_oob_votes_cover_rows_out_of_some_bootstrap():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(100, 3))
    y = (X[:, 0] > 0).astype(int)
    forest = RandomForest(50, random_state=0).fit(X, y)
    votes = forest.oob_decision_function_
    assert votes.shape == (100, 2)
    np.testing.assert_allclose(votes.sum(axis=1), 1.0)  # 50 trees: every row out of bag once
    one = RandomForest(1, random_state=0).fit(X, y)
    never = one.oob_decision_function_.sum(axis=1) == 0
    assert 0 < never.sum() < 100  # ~63 % of rows are in a bootstrap: their votes stay zero


def test_bad_input_is_rejected():
    X = np.ones((5, 2))
    with pytest.raises(ValueError, match="NaN"):
        RandomForest(2).fit(np.full((5, 2), np.nan), [0, 1, 0, 1, 0])
    with pytest.raises(ValueError, match="max_features"):
        RandomForest(2, max_features=3).fit(X, [0, 1, 0, 1, 0])
    with pytest.raises(ValueError, match=r"non-zero|every sample weight is zero"):
        RandomForest(2).fit(X, [0, 1, 0, 1, 0], sample_weight=np.zeros(5))


@parametrize_with_checks(
    [RandomForest(5, random_state=0)],
    expected_failed_checks=lambda est: {
        # as for scikit-learn's forests: a bootstrap draws rows, not weight
        "check_sample_weight_equivalence_on_dense_data": "bootstrap draws rows, not weight",
        "check_sample_weight_equivalence_on_sparse_data": "bootstrap draws rows, not weight",
    },
)
def test_scikit_learn_compatible(estimator, check):
    check(estimator)


def test_binned_walk_routes_every_row_as_the_float_thresholds():
    """Out-of-bag rows are routed by their codes: a code absent from a node's training rows must
    go where its value goes under the float threshold."""
    from weakfs._tree._shared import leaf_of

    rng = np.random.RandomState(0)
    X = np.round(rng.normal(size=(300, 3)), 1).astype(np.float32)
    y = rng.randint(0, 2, 300)
    weight = (np.arange(300) % 3 == 0).astype(float)  # a third of the rows train the trees
    binned = BinnedMatrix.from_array(X)
    forest = RandomForest(5, random_state=0).fit_binned(binned, y, sample_weight=weight)
    for tree in forest.trees_:
        for i in range(300):
            by_value = leaf_of(X, i, 0, tree.feature, tree.threshold, tree.left, tree.right)
            by_code = leaf_of(
                binned.codes, i, 0, tree.feature, tree.threshold_code, tree.left, tree.right
            )
            assert by_value == by_code
