"""JSFS (Jiang et al., AAAI 2019): its update equations against dense brute force, and behaviour."""

import numpy as np
import pandas as pd
import pytest
from scipy import linalg, optimize, sparse
from sklearn.utils._param_validation import InvalidParameterError

from weakfs.semi_supervised._jsfs import (
    JSFSSelector,
    feature_precision_update,
    graph_laplacian_gram,
    lambda_gradient_precision,
    lambda_log_posterior,
    maximise_lambda,
    maximise_w,
    w_gradient_precision,
    w_log_posterior,
)


def _problem(seed=0, nL=12, nU=20, d=4):
    """A tiny labeled / unlabeled problem with weights, priors and a graph prior."""
    rng = np.random.RandomState(seed)
    XL, XU = rng.randn(nL, d), rng.randn(nU, d)
    yL = (XL[:, 0] > 0).astype(float)
    yU = (XU[:, 0] + 0.3 * rng.randn(nU) > 0).astype(float)
    lam = rng.uniform(0.2, 1.5, nU)
    M = rng.randn(d, d)
    P = np.diag(rng.uniform(0.1, 2.0, d)) + 0.1 * M @ M.T
    return XL, yL, XU, yU, lam, 0.7, P


def _data(seed=0, n=150, d=6, n_labeled=40):
    """Two informative features (0 and 1) among ``d`` uniform ones; rows past ``n_labeled``
    unlabeled (-1)."""
    rng = np.random.RandomState(seed)
    X = rng.uniform(size=(n, d))
    y = (X[:, 0] + X[:, 1] > 1.0).astype(int)
    y_semi = y.copy()
    y_semi[n_labeled:] = -1
    return X, y, y_semi


def _numeric_grad(f, x, h=1e-6):
    e = np.eye(x.shape[0])
    return np.array([(f(x + h * e[i]) - f(x - h * e[i])) / (2 * h) for i in range(x.shape[0])])


def test_w_gradient_and_precision_are_the_derivatives_of_the_log_posterior():
    XL, yL, XU, yU, lam, mu, P = _problem()
    w = np.array([0.4, -0.3, 0.8, 0.1])
    args = (XL, yL, XU, yU, lam, mu, P)
    grad, prec = w_gradient_precision(w, *args)
    np.testing.assert_allclose(
        grad, _numeric_grad(lambda v: w_log_posterior(v, *args), w), atol=1e-6
    )
    hess = np.array(
        [_numeric_grad(lambda v, i=i: w_gradient_precision(v, *args)[0][i], w) for i in range(4)]
    )
    np.testing.assert_allclose(prec, -hess, atol=1e-5)


def test_w_log_posterior_brute_force():
    XL, yL, XU, yU, lam, mu, P = _problem(1)
    w = np.array([1.0, 0.5, -0.2, 0.3])
    expected = -0.5 * w @ P @ w
    for x, t in zip(XL, yL, strict=True):
        p = 1 / (1 + np.exp(-x @ w))
        expected += t * np.log(p) + (1 - t) * np.log(1 - p)
    for x, t, lj in zip(XU, yU, lam, strict=True):
        p = 1 / (1 + np.exp(-lj * (x @ w)))
        expected += mu * (t * np.log(p) + (1 - t) * np.log(1 - p))
    assert w_log_posterior(w, XL, yL, XU, yU, lam, mu, P) == pytest.approx(expected, rel=1e-12)


def test_maximise_w_finds_the_mode_a_generic_optimiser_finds():
    XL, yL, XU, yU, lam, mu, P = _problem(2)
    args = (XL, yL, XU, yU, lam, mu, P)
    w, factor = maximise_w(np.full(4, 0.5), *args)
    ref = optimize.minimize(
        lambda v: -w_log_posterior(v, *args),
        np.zeros(4),
        jac=lambda v: -w_gradient_precision(v, *args)[0],
        method="BFGS",
        options={"gtol": 1e-10},
    )
    np.testing.assert_allclose(w, ref.x, atol=1e-6)
    # the factor is the Cholesky factor of the precision at the mode
    L = np.tril(factor[0])
    np.testing.assert_allclose(L @ L.T, w_gradient_precision(w, *args)[1], atol=1e-10)


def test_lambda_step_matches_one_dimensional_brute_force():
    rng = np.random.RandomState(3)
    a = rng.randn(8) * 3
    yU = (rng.uniform(size=8) > 0.5).astype(float)
    c = rng.uniform(0.01, 3.0, 8)
    lam, prec = maximise_lambda(np.full(8, 0.5), a, yU, c, 0.8, 5.0)
    grid = np.linspace(-3, 10, 130001)
    for j in range(8):
        values = lambda_log_posterior(grid, a[j], yU[j], c[j], 0.8, 5.0)
        assert lam[j] == pytest.approx(grid[np.argmax(values)], abs=2e-4)
    g, _ = lambda_gradient_precision(lam, a, yU, c, 0.8, 5.0)
    np.testing.assert_allclose(g, 0.0, atol=1e-8)
    h = 1e-5
    second = (
        lambda_log_posterior(lam + h, a, yU, c, 0.8, 5.0)
        - 2 * lambda_log_posterior(lam, a, yU, c, 0.8, 5.0)
        + lambda_log_posterior(lam - h, a, yU, c, 0.8, 5.0)
    ) / h**2
    np.testing.assert_allclose(prec, -second, rtol=1e-3)


def test_a_sharp_truncation_zeroes_the_weight_of_a_contradicted_row():
    # the classifier says class 1 strongly (a = 6) for both rows; the first pseudo label agrees
    a, yU, c = np.array([6.0, 6.0]), np.array([1.0, 0.0]), np.array([1.0, 1.0])
    lam, _ = maximise_lambda(np.array([0.5, 0.5]), a, yU, c, 1.0, 1e4)
    assert lam[0] > 0.1
    assert 0 <= lam[1] < 1e-3


def test_feature_precision_update_dense_formula():
    rng = np.random.RandomState(4)
    d = 4
    alpha = rng.uniform(0.5, 3.0, d)
    M = rng.randn(d, d)
    B = 0.3 * M @ M.T
    H = np.diag(alpha) + B + np.eye(d) * 2.0
    w = rng.randn(d)
    factor = linalg.cho_factor(H, lower=True)
    Sigma = np.linalg.inv(H)
    graph = np.linalg.inv(np.diag(alpha)) - np.linalg.inv(np.diag(alpha) + B)
    expected = 1.0 / (w**2 + np.diag(Sigma) + np.diag(graph))
    np.testing.assert_allclose(feature_precision_update(w, factor, alpha, B), expected, rtol=1e-10)
    # without the graph prior: the relevance vector machine's 1 / (w^2 + Sigma_ii)
    factor0 = linalg.cho_factor(np.diag(alpha) + 2.0 * np.eye(d), lower=True)
    np.testing.assert_allclose(
        feature_precision_update(w, factor0, alpha, np.zeros((d, d))),
        1.0 / (w**2 + 1.0 / (alpha + 2.0)),
        rtol=1e-10,
    )


def test_graph_laplacian_gram_is_the_sum_over_knn_edges():
    rng = np.random.RandomState(5)
    X = rng.randn(15, 3)
    k = 3
    D = ((X[:, None] - X[None]) ** 2).sum(-1)
    np.fill_diagonal(D, np.inf)
    S = np.zeros_like(D)
    for i in range(len(X)):
        S[i, np.argsort(D[i], kind="stable")[:k]] = 1
    S = np.maximum(S, S.T)
    expected = np.zeros((3, 3))
    for i in range(len(X)):
        for j in range(i + 1, len(X)):
            if S[i, j]:
                diff = X[i] - X[j]
                expected += np.outer(diff, diff)
    np.testing.assert_allclose(graph_laplacian_gram(X, k), expected, atol=1e-10)


def test_the_informative_features_are_selected():
    X, _, y = _data()
    sel = JSFSSelector(n_features_to_select=2).fit(X, y)
    assert set(np.flatnonzero(sel.support_)) == {0, 1}
    assert set(sel.ranking_[:2]) == {0, 1}
    assert (sel.coef_[:2] > 0).all()  # both push towards the class y = 1


@pytest.mark.parametrize("k", [1, 3, 6])
def test_exactly_k_features_and_a_full_ranking(k):
    X, _, y = _data(1)
    sel = JSFSSelector(n_features_to_select=k).fit(X, y)
    assert sel.support_.sum() == k
    assert sorted(sel.ranking_) == list(range(6))
    assert set(np.flatnonzero(sel.support_)) == set(sel.ranking_[:k])
    assert sel.transform(X).shape == (150, k)


def test_removed_features_rank_after_the_kept_ones():
    X, _, y = _data(2)
    sel = JSFSSelector(n_features_to_select=2, mu=1.0, gamma=1.0, max_iter=100).fit(X, y)
    removed = np.isinf(sel.alpha_)
    assert removed.any() and not removed.all()
    assert (sel.coef_[removed] == 0).all() and (sel.scores_[removed] == 0).all()
    order = list(sel.ranking_)
    assert max(order.index(i) for i in np.flatnonzero(~removed)) < min(
        order.index(i) for i in np.flatnonzero(removed)
    )
    # removed later = ranked earlier
    later = sel.iteration_removed_[sel.ranking_]
    assert (np.diff(later) <= 0).all()


def test_without_unlabeled_weight_or_graph_the_unlabeled_rows_do_not_matter():
    X, _, y = _data(3)
    lab = y != -1
    full = JSFSSelector(mu=0.0, gamma=0.0).fit(X, y)
    only = JSFSSelector(mu=0.0, gamma=0.0, allow_fully_labeled=True).fit(X[lab], y[lab])
    np.testing.assert_allclose(full.coef_, only.coef_, rtol=1e-8, atol=1e-10)
    np.testing.assert_array_equal(full.ranking_, only.ranking_)


def test_unlabeled_weights_stay_nonnegative_and_zero_means_eliminated():
    X, _, y = _data(4)
    sel = JSFSSelector(mu=1.0).fit(X, y)
    lam = sel.unlabeled_weights_
    assert lam.shape == ((y == -1).sum(),)
    assert (lam >= 0).all()
    assert ((lam == 0) | (lam >= sel.prune_tol)).all()


def test_deterministic_dataframe_names_and_input_untouched():
    X, _, y = _data(5)
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(6)])
    before = frame.copy()
    a = JSFSSelector(n_features_to_select=2).fit(frame, y)
    b = JSFSSelector(n_features_to_select=2).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert list(a.get_feature_names_out()) == ["f0", "f1"]
    out = (
        JSFSSelector(n_features_to_select=2).set_output(transform="pandas").fit_transform(frame, y)
    )
    assert list(out.columns) == ["f0", "f1"]
    pd.testing.assert_frame_equal(frame, before)


def test_without_intercept_is_the_reference_model():
    X, _, y = _data(6)
    sel = JSFSSelector(fit_intercept=False, max_iter=5).fit(X, y)
    assert sel.intercept_ == 0.0 and sel.n_iter_ <= 5


def test_more_classes_fit_one_model_per_class():
    X, _, y = _data(8)
    X = np.c_[X, np.random.RandomState(0).uniform(size=150)]
    y3 = y.copy()
    y3[(y == 1) & (X[:, 6] > 0.6)] = 2  # class 2 is told apart by feature 6
    sel = JSFSSelector(n_features_to_select=3).fit(X, y3)
    assert sel.coef_.shape == (3, 7) and sel.unlabeled_weights_.shape == (3, 110)
    assert set(np.flatnonzero(sel.support_)) == {0, 1, 6}
    np.testing.assert_array_equal(sel.classes_, [0, 1, 2])


def test_errors():
    X, _, y = _data(7)
    with pytest.raises(ValueError, match="at least 2"):
        JSFSSelector().fit(X, np.where(y == 1, 1, -1))
    with pytest.raises(ValueError, match="no unlabeled row"):
        JSFSSelector().fit(X[:40], y[:40])
    with pytest.raises(TypeError, match="sparse"):
        JSFSSelector().fit(sparse.csr_matrix(X), y)
    with pytest.raises(ValueError, match="n_neighbors"):
        JSFSSelector(n_neighbors=150).fit(X, y)
    with pytest.raises(ValueError, match="larger than the number of features"):
        JSFSSelector(n_features_to_select=7).fit(X, y)
    with pytest.raises(InvalidParameterError):
        JSFSSelector(mu=-1.0).fit(X, y)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        JSFSSelector().fit(Xn, y)
