"""semi-JMI and mRMR (MIQ) on PU labels."""

import numpy as np
import pytest

from weakfs._information import discretize, jmi_pair_matrix, jmi_subset_score, mutual_information
from weakfs.pu import MRMRSelector, SemiJMISelector


def _data(seed=0, n=300, d=6):
    rng = np.random.RandomState(seed)
    X = rng.rand(n, d)
    s = ((X[:, 1] + 0.5 * X[:, 3] + 0.2 * rng.rand(n)) > 1.1).astype(int)
    return X, s


def naive_jmi(codes, s, k):
    d = codes.shape[1]
    rel = [mutual_information(codes[:, j], s, base=np.e) for j in range(d)]
    order = [int(np.argmax(rel))]
    while len(order) < k:
        best, best_j = -np.inf, None
        for j in range(d):
            if j in order:
                continue
            v = sum(
                mutual_information(np.column_stack([codes[:, j], codes[:, i]]), s, base=np.e)
                for i in order
            )
            if v > best + 1e-12:
                best, best_j = v, j
        order.append(best_j)
    return order


def naive_mrmr(codes, s, k, eps=0.01):
    d = codes.shape[1]
    rel = [mutual_information(codes[:, j], s, base=np.e) for j in range(d)]
    order = [int(np.argmax(rel))]
    while len(order) < k:
        best, best_j = -np.inf, None
        for j in range(d):
            if j in order:
                continue
            red = np.mean([mutual_information(codes[:, j], codes[:, i], base=np.e) for i in order])
            v = rel[j] / (red + eps)
            if v > best + 1e-12:
                best, best_j = v, j
        order.append(best_j)
    return order


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_semi_jmi_equals_naive_greedy(seed):
    X, s = _data(seed)
    sel = SemiJMISelector(n_features_to_select=4).fit(X, s)
    assert sel.ranking_.tolist() == naive_jmi(discretize(X), s, 4)
    assert sel.ranking_[0] == 1


@pytest.mark.parametrize("seed", [0, 1])
def test_mrmr_equals_naive_greedy(seed):
    X, s = _data(seed)
    sel = MRMRSelector(n_features_to_select=4).fit(X, s)
    assert sel.ranking_.tolist() == naive_mrmr(discretize(X), s, 4)


def test_discretisation_keeps_few_valued_columns_and_uses_nats():
    X = np.column_stack([np.repeat([0.0, 10.0, 20.0], 10), np.linspace(0, 1, 30)])
    codes = discretize(X)
    assert sorted(set(codes[:, 0])) == [0, 1, 2] and codes[:, 1].max() == 4
    s = (X[:, 0] > 5).astype(int)
    M = jmi_pair_matrix(codes, s)
    # I(X0; s) = H(s) in nats for a deterministic relation
    p = s.mean()
    assert M[0, 0] == pytest.approx(-(p * np.log(p) + (1 - p) * np.log(1 - p)))
    assert jmi_subset_score(M, [True, True]) == pytest.approx(M[0, 1])
    assert jmi_subset_score(M, [True, False]) == pytest.approx(M[0, 0])
    assert jmi_subset_score(M, [False, False]) == 0.0


def test_ties_go_to_lower_index():
    X = np.tile(np.linspace(0, 1, 20)[:, None], (1, 3))  # three identical columns
    s = (X[:, 0] > 0.5).astype(int)
    assert SemiJMISelector(n_features_to_select=1).fit(X, s).ranking_.tolist() == [0]
    assert MRMRSelector(n_features_to_select=2).fit(X, s).ranking_.tolist() == [0, 1]


@pytest.mark.parametrize("cls", [SemiJMISelector, MRMRSelector])
def test_bad_input(cls):
    X, s = _data()
    with pytest.raises(ValueError, match="larger than the number of features"):
        cls(n_features_to_select=7).fit(X, s)
    with pytest.raises(ValueError, match="labeled"):
        cls(n_features_to_select=2).fit(X, np.zeros(300, int))
    with pytest.raises(ValueError, match="PU labels"):
        cls(n_features_to_select=2).fit(X, s + 2)
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        cls(n_features_to_select=2).fit(X, s)


def test_semi_jmi_computes_only_the_pair_columns_it_needs(monkeypatch):
    """JMI needs I(X_i, X_j; s) only for the selected j: 2 passes (both codings of the pair, as
    the symmetric matrix averages them) per selected feature, never the d x d matrix."""
    from weakfs import _information

    rng = np.random.RandomState(0)
    X = rng.rand(60, 400)
    s = (X[:, 7] > 0.6).astype(int)
    passes = []
    real = _information.EncodedColumns.joint_mutual_information

    def counting(self, j, y, **kwargs):
        passes.append(j)
        return real(self, j, y, **kwargs)

    monkeypatch.setattr(_information.EncodedColumns, "joint_mutual_information", counting)
    monkeypatch.setattr(_information, "jmi_pair_matrix", None)  # the whole matrix is not used
    sel = SemiJMISelector(n_features_to_select=5).fit(X, s)
    assert len(passes) == 2 * 5 and sel.pair_columns_.shape == (400, 5)


@pytest.mark.parametrize("seed", [0, 1])
def test_semi_jmi_pair_columns_are_the_pair_matrix_columns_bit_for_bit(seed):
    X, s = _data(seed, d=9)
    sel = SemiJMISelector(n_features_to_select=4).fit(X, s)
    M = jmi_pair_matrix(discretize(X), s)
    np.testing.assert_array_equal(sel.pair_columns_, M[:, sel.ranking_])
    np.testing.assert_array_equal(sel.relevance_, np.diag(M))


def test_mrmr_without_binning_takes_every_distinct_value_as_a_category():
    X, s = _data(0, n=80, d=5)
    X = np.round(X, 1)  # a handful of distinct values per column
    sel = MRMRSelector(n_features_to_select=3, n_bins=None).fit(X, s)
    assert sel.ranking_.tolist() == naive_mrmr(X, s, 3)
    # with floats every row is its own category: the plug-in relevance is H(s) for every column
    rng = np.random.RandomState(1)
    Xf = rng.rand(80, 4)
    rel = MRMRSelector(n_features_to_select=2, n_bins=None).fit(Xf, s).relevance_
    np.testing.assert_allclose(rel, rel[0])


def test_remembered_pair_matrix_is_the_computed_one_and_read_only():
    # FSCPU-MI at several k on the same training rows reuses the matrix: the same numbers, bit
    # for bit, a read-only array, a new matrix for new labels, the oldest forgotten
    from weakfs._information import (
        _REMEMBERED_PAIR_MATRICES,
        _remembered,
        jmi_pair_matrix,
        remembered_jmi_pair_matrix,
    )

    rng = np.random.RandomState(0)
    codes = rng.randint(0, 4, size=(60, 7))
    y = rng.randint(0, 2, size=60)
    first = remembered_jmi_pair_matrix(codes, y)
    np.testing.assert_array_equal(first, jmi_pair_matrix(codes, y))
    assert remembered_jmi_pair_matrix(codes.copy(), list(y)) is first
    with pytest.raises(ValueError, match="read-only"):
        first[0, 0] = 1.0
    other = remembered_jmi_pair_matrix(codes, 1 - y[::-1])
    assert other is not first
    np.testing.assert_array_equal(other, jmi_pair_matrix(codes, 1 - y[::-1]))
    for shift in range(1, _REMEMBERED_PAIR_MATRICES + 1):
        remembered_jmi_pair_matrix(codes + shift, y)
    assert len(_remembered) == _REMEMBERED_PAIR_MATRICES
    assert remembered_jmi_pair_matrix(codes, y) is not first
