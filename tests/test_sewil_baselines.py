"""Semi-Fisher, SSLS, RLSR and CoT-FSS selectors: brute force on tiny data and behaviour."""

import numpy as np
import pytest

from weakfs.semi_supervised import CoTFSSSelector, RLSRSelector, SemiFisherSelector, SSLSSelector
from weakfs.semi_supervised._ssl_baselines import (
    _median_sq_distance,
    _project_rows_simplex,
    rlsr_scores,
    semi_fisher_scores,
    ssls_scores,
)


def _tiny(seed=0, n=30, d=4):
    rng = np.random.RandomState(seed)
    X = rng.randn(n, d)
    y = (X[:, 0] > 0).astype(int)
    y_semi = y.copy()
    y_semi[12:] = -1
    return X, y, y_semi


def _knn_dense(X, k):
    D = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    np.fill_diagonal(D, np.inf)
    S = np.zeros_like(D)
    for i in range(len(X)):
        S[i, np.argsort(D[i], kind="stable")[:k]] = 1
    return np.maximum(S, S.T), D


def test_semi_fisher_brute_force():
    X, _, y = _tiny()
    S, _ = _knn_dense(X, 5)
    L = np.diag(S.sum(1)) - S
    lab = y >= 0
    expected = []
    for f in X.T:
        mu = f.mean()
        sb = sum((y == c).sum() * (f[y == c].mean() - mu) ** 2 for c in (0, 1))
        sw = sum((y == c).sum() * f[y == c].var() for c in (0, 1))
        expected.append((sb + f.var()) / (sw + 2 * f @ L @ f))
    assert lab.sum() == 12
    np.testing.assert_allclose(semi_fisher_scores(X, y, n_neighbors=5), expected, rtol=1e-10)


def test_ssls_brute_force():
    X, _, y = _tiny(1)
    S, D = _knn_dense(X, 5)
    np.fill_diagonal(D, 0)
    off = D[np.triu_indices(len(X), 1)]
    sigma2 = np.median(off[off > 0])
    K = np.exp(-D / (2 * sigma2))
    lab = np.flatnonzero(y >= 0)
    mask = S.copy()
    same = (y[lab][:, None] == y[lab][None, :]).astype(float)
    mask[np.ix_(lab, lab)] = same
    Ww = K * mask
    Wb = np.zeros_like(Ww)
    Wb[np.ix_(lab, lab)] = 1 - same
    Lw = np.diag(Ww.sum(1)) - Ww
    Lb = np.diag(Wb.sum(1)) - Wb
    expected = [(f @ Lw @ f) / (f @ Lb @ f) for f in X.T]
    np.testing.assert_allclose(ssls_scores(X, y, n_neighbors=5), expected, rtol=1e-6)


@pytest.mark.parametrize(
    "X",
    [
        np.array([[0.0], [1.0], [3.0], [7.0]]),  # even count, middle pair far apart: 12.5
        np.array([[0.0], [1.0], [3.0]]),  # odd count
        np.random.RandomState(0).randint(0, 2, size=(120, 5)).astype(float),  # many ties
        np.random.RandomState(1).normal(size=(1500, 2)),  # two blocks of pairs
        np.zeros((6, 2)),  # no non-zero distance: width 1
    ],
)
def test_ssls_width_is_numpys_median_of_all_pairs(X):
    # the median is selected from counts (bounded memory), not from all n²/2 values
    sq = (X * X).sum(axis=1)
    d2 = np.maximum(sq[:, None] + sq[None, :] - 2.0 * X @ X.T, 0.0)
    pairs = d2[np.triu_indices(len(X), 1)].astype(np.float32)
    pairs = pairs[pairs > 1e-12 * max(1.0, sq.max())]
    expected = float(np.median(pairs)) if pairs.size else 1.0
    assert _median_sq_distance(X) == expected


def test_simplex_projection():
    V = np.array([[0.2, 0.3, 0.5], [2.0, 0.0, 0.0], [-1.0, 0.4, 0.4]])
    P = _project_rows_simplex(V)
    np.testing.assert_allclose(P.sum(1), 1)
    assert (P >= 0).all()
    np.testing.assert_allclose(P[0], V[0])
    np.testing.assert_allclose(P[1], [1, 0, 0])
    np.testing.assert_allclose(P[2], [0, 0.5, 0.5])


@pytest.mark.parametrize("cls", [SemiFisherSelector, SSLSSelector, RLSRSelector])
def test_score_selectors_rank_the_informative_feature_first(cls):
    rng = np.random.RandomState(0)
    X = rng.randn(120, 6)
    y = (X[:, 3] > 0).astype(int)
    y_semi = y.copy()
    y_semi[40:] = -1
    sel = cls(n_features_to_select=2).fit(X, y_semi)
    assert sel.ranking_[0] == 3
    assert sel.support_.sum() == 2


def test_auto_number_of_features_and_dual_rlsr():
    rng = np.random.RandomState(0)
    X = rng.randn(30, 50)  # d > n: RLSR uses the n x n (push-through) system
    y = (X[:, 7] > 0).astype(int)
    y_semi = y.copy()
    y_semi[12:] = -1
    sel = RLSRSelector(max_iter=10).fit(X, y_semi)
    assert sel.support_.sum() == int(np.ceil(50 ** (2 / 3)))
    np.testing.assert_allclose(sel.scores_.sum(), 1)


def test_rlsr_on_sparse_rows_follows_the_dense_iterations(monkeypatch):
    # text-like data (5 % non-zero, d > n): the n x n product is formed from the sparse rows
    rng = np.random.RandomState(1)
    X = rng.rand(40, 120) * (rng.rand(40, 120) < 0.05)
    y = (X[:, :10].sum(axis=1) > np.median(X[:, :10].sum(axis=1))).astype(int)
    y_semi = y.copy()
    y_semi[15:] = -1
    sparse_scores, sparse_iter = rlsr_scores(X, y_semi, max_iter=30)
    monkeypatch.setattr("weakfs.semi_supervised._ssl_baselines._SPARSE_PRODUCT_DENSITY", 0.0)
    dense_scores, dense_iter = rlsr_scores(X, y_semi, max_iter=30)
    assert sparse_iter == dense_iter
    np.testing.assert_allclose(sparse_scores, dense_scores, rtol=1e-9, atol=1e-12)


def test_cotfss_is_reproducible_and_selects_k():
    X, _, y = _tiny(2, n=60, d=6)
    kw = dict(n_features_to_select=3, n_start=1, n_add=1, n_resamples=2, n_splits=3)
    a = CoTFSSSelector(random_state=0, **kw).fit(X, y)
    b = CoTFSSSelector(random_state=0, n_jobs=2, **kw).fit(X, y)
    np.testing.assert_array_equal(a.ranking_, b.ranking_)
    assert a.support_.sum() == 3
    assert 0 in a.ranking_[:3]


@pytest.mark.parametrize("cls", [SemiFisherSelector, SSLSSelector, RLSRSelector, CoTFSSSelector])
def test_bad_labels(cls):
    X = np.random.RandomState(0).randn(40, 3)
    with pytest.raises(ValueError, match="no labeled row"):
        cls().fit(X, np.full(40, -1))
    with pytest.raises(ValueError, match="1 class"):
        cls().fit(X, np.r_[np.zeros(10, int), np.full(30, -1)])
    with pytest.raises(ValueError, match="no unlabeled row"):
        cls().fit(X, np.r_[np.zeros(20, int), np.ones(20, int)])
    with pytest.raises(ValueError, match="larger than the number of features"):
        cls(n_features_to_select=9).fit(
            X, np.r_[np.zeros(5, int), np.ones(5, int), np.full(30, -1)]
        )
