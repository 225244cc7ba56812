"""sSelect (Zhao and Liu 2007): the score against a dense brute force, and behaviour."""

import numpy as np
import pandas as pd
import pytest
from scipy import sparse
from sklearn.metrics import normalized_mutual_info_score

from weakfs.semi_supervised._sselect import (
    SSelectSelector,
    binary_indicator_nmi,
    sselect_scores,
)


def _blobs(seed=0, n=60, d=5, informative=2, shift=4.0, labeled=0.25):
    """Two classes apart along column ``informative``; the other columns are noise."""
    rng = np.random.RandomState(seed)
    y = np.repeat([0, 1], n // 2)
    X = rng.randn(n, d)
    X[:, informative] += shift * y
    y_semi = np.where(rng.rand(n) < labeled, y, -1)
    y_semi[[0, n - 1]] = [0, 1]  # both classes labeled
    return X, y, y_semi


def _brute_force(X, y_codes, k, lam, average_method="arithmetic"):
    """The paper's formula with dense matrices and one feature at a time."""
    n = len(X)
    D2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    nn = np.full((n, n), False)
    for i in range(n):
        others = np.argsort(np.where(np.arange(n) == i, np.inf, D2[i]), kind="stable")[:k]
        nn[i, others] = True
    nn = nn | nn.T
    edges = D2[nn]
    sigma2 = np.median(edges[edges > 0])
    W = np.where(nn, np.exp(-D2 / (2 * sigma2)), 0.0)
    deg = W.sum(1)
    Dm, L = np.diag(deg), np.diag(deg) - W
    lab = y_codes >= 0
    out = []
    for f in X.T:
        ft = f - (f @ deg) / deg.sum()
        laplacian = (ft @ L @ ft) / (ft @ Dm @ ft)
        nmi = normalized_mutual_info_score(
            y_codes[lab], (ft[lab] >= 0).astype(int), average_method=average_method
        )
        out.append(lam * laplacian + (1 - lam) * (1 - nmi))
    return np.array(out)


@pytest.mark.parametrize("lam", [0.0, 0.1, 0.7, 1.0])
def test_scores_match_dense_brute_force(lam):
    X, _, y = _blobs(seed=1, n=24, d=4, shift=1.5, labeled=0.5)
    got = sselect_scores(X, y, n_neighbors=3, lam=lam)["scores"]
    np.testing.assert_allclose(got, _brute_force(X, y, 3, lam), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("average_method", ["min", "geometric", "arithmetic", "max"])
def test_nmi_matches_scikit_learn(average_method):
    rng = np.random.RandomState(0)
    for n_classes in (1, 2, 3):
        y = rng.randint(n_classes, size=15)
        B = rng.rand(15, 12) < 0.5
        B[:, 0] = True  # one cluster only
        B[:, 1] = y == y[0]  # a perfect split when there are two classes
        got = binary_indicator_nmi(y, B, average_method=average_method)
        expected = [
            normalized_mutual_info_score(y, B[:, j].astype(int), average_method=average_method)
            for j in range(B.shape[1])
        ]
        np.testing.assert_allclose(got, expected, atol=1e-12)


def test_lam_endpoints_are_the_two_terms():
    X, _, y = _blobs(seed=2)
    lap = sselect_scores(X, y, lam=1.0)
    lab_only = sselect_scores(X, y, lam=0.0)
    np.testing.assert_allclose(lap["scores"], lap["laplacian"])
    np.testing.assert_allclose(lab_only["scores"], 1 - lab_only["nmi"])
    assert np.all((lap["laplacian"] >= 0) & (lap["laplacian"] <= 2 + 1e-12))


def test_informative_feature_ranks_first_semi_supervised_and_pu():
    X, y, y_semi = _blobs(seed=3, d=8, informative=5, shift=6.0)
    sel = SSelectSelector(n_features_to_select=1).fit(X, y_semi)
    assert sel.ranking_[0] == 5
    assert sel.get_support().tolist() == [i == 5 for i in range(8)]
    # positive-unlabeled labels: one labeled class, -1 elsewhere
    s = np.where((y == 1) & (np.arange(len(y)) % 3 == 0), 1, -1)
    with pytest.raises(ValueError, match="at least 2"):
        SSelectSelector().fit(X, s)
    pu = SSelectSelector(n_features_to_select=2, allow_single_class=True).fit(X, s)
    assert pu.ranking_[0] == 5
    assert pu.label_consistency_[5] == 1.0  # every labeled positive in one cluster
    assert pu.classes_.tolist() == [1]


def test_row_and_column_permutations():
    X, _, y = _blobs(seed=4, d=6)
    base = SSelectSelector().fit(X, y)
    rng = np.random.RandomState(0)
    rows, cols = rng.permutation(len(X)), rng.permutation(X.shape[1])
    by_rows = SSelectSelector().fit(X[rows], y[rows])
    np.testing.assert_allclose(by_rows.scores_, base.scores_, rtol=1e-10)
    by_cols = SSelectSelector().fit(X[:, cols], y)
    np.testing.assert_allclose(by_cols.scores_, base.scores_[cols], rtol=1e-10)
    np.testing.assert_array_equal(cols[by_cols.ranking_], base.ranking_)


def test_constant_feature_ranks_last_and_input_untouched():
    X, _, y = _blobs(seed=5, d=4)
    X[:, 1] = 3.0
    X_copy, y_copy = X.copy(), y.copy()
    sel = SSelectSelector(n_features_to_select=3).fit(X, y)
    assert sel.ranking_[-1] == 1 and np.isinf(sel.scores_[1])
    np.testing.assert_array_equal(X, X_copy)
    np.testing.assert_array_equal(y, y_copy)


def test_sparse_dataframe_and_string_classes():
    X, y, y_semi = _blobs(seed=6, d=4)
    dense = SSelectSelector(n_features_to_select=2).fit(X, y_semi)
    sp = SSelectSelector(n_features_to_select=2).fit(sparse.csr_matrix(X), y_semi)
    np.testing.assert_allclose(sp.scores_, dense.scores_)
    df = pd.DataFrame(X, columns=[f"c{i}" for i in range(4)])
    names = np.where(y_semi == -1, "-1", np.where(y == 1, "pos", "neg"))
    sel = SSelectSelector(n_features_to_select=2).set_output(transform="pandas").fit(df, names)
    np.testing.assert_allclose(sel.scores_, dense.scores_)
    assert list(sel.feature_names_in_) == list(df.columns)
    out = sel.transform(df)
    assert isinstance(out, pd.DataFrame)
    assert list(out.columns) == list(sel.get_feature_names_out())
    assert sel.classes_.tolist() == ["neg", "pos"]


def test_explicit_sigma_and_fraction():
    X, _, y = _blobs(seed=7, d=6)
    sel = SSelectSelector(n_features_to_select=0.5, sigma=2.0).fit(X, y)
    assert sel.sigma_ == 2.0 and sel.get_support().sum() == 3
    assert SSelectSelector().fit(X, y).get_support().sum() == 3  # None: half


@pytest.mark.parametrize(
    "params, y_change, match",
    [
        ({"n_neighbors": 60}, None, "n_neighbors=60"),
        ({"n_neighbors": 0}, None, "n_neighbors"),
        ({"n_features_to_select": 9}, None, "larger than the number of features"),
        ({"lam": 1.5}, None, "lam"),
        ({"average_method": "median"}, None, "average_method"),
        ({}, "all_unlabeled", "no labeled row"),
        ({}, "fully_labeled", "no unlabeled row"),
    ],
)
def test_errors(params, y_change, match):
    X, y, y_semi = _blobs(seed=8, d=4)
    target = {"all_unlabeled": np.full_like(y, -1), "fully_labeled": y, None: y_semi}[y_change]
    with pytest.raises(ValueError, match=match):
        SSelectSelector(**params).fit(X, target)


def test_fully_labeled_allowed_and_bad_inputs():
    X, y, _ = _blobs(seed=9, d=4)
    assert SSelectSelector(allow_fully_labeled=True).fit(X, y).ranking_.shape == (4,)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        SSelectSelector().fit(X, y[:-1])
    X_nan = X.copy()
    X_nan[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        SSelectSelector().fit(X_nan, y)
