"""GKF-PUAL: the ADMM reaches the optimum of its convex objective (checked with cvxpy), removes
irrelevant variables, and rejects bad input."""

import numpy as np
import pandas as pd
import pytest

from weakfs._graph import knn_laplacian
from weakfs.pu import GKFPUALClassifier, GKFPUALSelector
from weakfs.pu._gkf_pual._admm import _admm, _final_coefficients, gkf_pual_objective
from weakfs.pu._gkf_pual._design import _kernel_free_gram, _quadratic_features, quadratic_design

cp = pytest.importorskip("cvxpy")


def _problem(n=70, m=4, n_noise=0, seed=0, rate=0.5):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, m + n_noise))
    y = (X[:, 0] ** 2 + X[:, 1] ** 2 > 1.4).astype(int)
    s = (y.astype(bool) & (rng.uniform(size=n) < rate)).astype(int)
    return X, y, s


def _pieces(X, s, sigma=1.0):
    order = np.r_[np.flatnonzero(s == 1), np.flatnonzero(s == 0)]
    Xo, so = X[order], s[order]
    d = quadratic_design(X.shape[1])
    return (
        Xo,
        so,
        d,
        _quadratic_features(Xo, d),
        _kernel_free_gram(Xo, d),
        knn_laplacian(Xo, 5, sigma),
    )


def _cvx_optimum(S, s, G, R, d, *, C1, C2, lambda1, lambda2):
    p = S.shape[1]
    alpha, b0 = cp.Variable(p), cp.Variable()
    f = S @ alpha + b0
    pos = s == 1
    w, V = np.linalg.eigh(G)
    M = (V * np.sqrt(np.clip(w, 0, None))).T
    Rc = R.tocoo()
    e = Rc.row < Rc.col
    obj = (
        0.5 * lambda2 * cp.sum_squares(M @ alpha)
        + C1 * cp.sum(cp.pos(1 - f[pos]))
        + C2 * cp.sum_squares(1 + f[~pos])
    )
    # a tiny sigma underflows every graph weight; cvxpy 1.4 cannot build an empty constant
    if e.any():
        obj = obj + cp.sum(cp.multiply(-Rc.data[e], cp.square(f[Rc.row[e]] - f[Rc.col[e]])))
    if lambda1 > 0:
        obj = obj + 0.5 * lambda1 * sum(cp.norm(alpha[g], 2) for g in d.groups)
    prob = cp.Problem(cp.Minimize(obj))
    prob.solve(solver="CLARABEL")
    return alpha.value, float(b0.value), prob.value


def test_design_matches_direct_formulas():
    rng = np.random.RandomState(3)
    X = rng.normal(size=(15, 5))
    d = quadratic_design(5)
    alpha = rng.normal(size=d.n_coef)
    A = np.zeros((5, 5))
    A[d.rows, d.cols] = alpha[: d.n_quad]
    A[d.cols, d.rows] = alpha[: d.n_quad]
    b = alpha[d.n_quad :]
    S = _quadratic_features(X, d)
    G = _kernel_free_gram(X, d)
    np.testing.assert_allclose(S @ alpha, 0.5 * np.einsum("ij,jk,ik->i", X, A, X) + X @ b)
    np.testing.assert_allclose(alpha @ G @ alpha, ((X @ A + b) ** 2).sum())
    # group j holds row j of A and b_j
    for j in range(5):
        np.testing.assert_allclose(np.sort(alpha[d.groups[j]]), np.sort(np.r_[A[j], b[j]]))


@pytest.mark.parametrize(
    ("lambda1", "lambda2", "C2", "sigma", "n_noise", "expect"),
    [
        (0.0, 0.1, 0.1, 1.0, 0, "all"),  # KF-PUAL
        (1.0, 0.3, 0.1, 1.0, 0, "all"),
        (20.0, 0.01, 0.3, 1e-3, 3, "mixed"),  # some groups exactly zero, others not
        (30.0, 0.01, 0.3, 1e-3, 3, "relevant"),  # exactly the irrelevant groups are zero
        (40.0, 0.1, 0.05, 1.0, 0, "none"),  # every group zero
    ],
)
def test_admm_reaches_cvxpy_optimum(lambda1, lambda2, C2, sigma, n_noise, expect):
    _check_against_cvxpy(lambda1, lambda2, C2, sigma, n_noise, expect, adaptive=True)


def _check_against_cvxpy(lambda1, lambda2, C2, sigma, n_noise, expect, adaptive):
    n, rate = (100, 0.8) if n_noise else (60, 0.5)
    X, _, s = _problem(n=n, m=2, n_noise=n_noise, seed=1, rate=rate)
    _, so, d, S, G, R = _pieces(X, s, sigma)
    kw = {"C1": 1.0, "C2": C2, "lambda1": lambda1, "lambda2": lambda2}
    a_ref, _, v_ref = _cvx_optimum(S, so, G, R, d, **kw)
    z, t, _, _, _ = _admm(
        S,
        int(so.sum()),
        G,
        R,
        d,
        mu=(0.01,) * 4,
        max_iter=60000,
        tol=1e-6,
        abs_tol=1e-8,
        record_every=0,
        adapt=adaptive,
        **kw,
    )
    alpha, beta0, support = _final_coefficients(z, t, d)
    ours = gkf_pual_objective(alpha, beta0, S, so, G, R, d, **kw)
    assert abs(ours - v_ref) / abs(v_ref) < 1e-4
    ref_support = np.linalg.norm(a_ref[d.groups], axis=1) > 1e-5
    if lambda1 > 0:
        np.testing.assert_array_equal(support, ref_support)
    if expect == "all":
        assert support.all()
    elif expect == "none":
        assert not support.any() and np.all(alpha == 0)
    elif expect == "relevant":
        np.testing.assert_array_equal(support, [True, True, False, False, False])
    else:
        assert support.any() and not support.all()


def test_paper_fixed_penalties_reach_the_same_optimum():
    # the paper's fixed μ = 0.01 (no residual balancing): slower, same optimum
    _check_against_cvxpy(1.0, 0.3, 0.1, 1.0, 0, "all", adaptive=False)


def test_irrelevant_gaussian_columns_get_zero_groups():
    X, y, s = _problem(n=400, m=2, n_noise=6, seed=4, rate=0.8)
    kw = {"lambda2": 0.01, "C2": 0.3, "sigma": 1e-3, "standardize": False}
    for lambda1 in (75.0, 90.0, 105.0):  # a range of λ1, not a single lucky value
        clf = GKFPUALClassifier(lambda1=lambda1, **kw).fit(X, s)
        np.testing.assert_array_equal(clf.support_, [True, True] + [False] * 6)
    # without the group term every noise column stays in the model
    assert GKFPUALClassifier(lambda1=0.0, **kw).fit(X, s).support_.all()
    # removed features have exactly zero rows/columns in A and zero b
    assert np.all(clf.A_[2:] == 0) and np.all(clf.A_[:, 2:] == 0) and np.all(clf.b_[2:] == 0)
    assert clf.converged_ and clf.history_
    # the quadratic boundary is learned: better than predicting everything positive
    assert (clf.predict(X) == y).mean() > max(y.mean(), 1 - y.mean()) + 0.1


def test_kf_pual_keeps_every_feature_and_matches_formula():
    X, _, s = _problem(n=80, m=3, seed=2)
    clf = GKFPUALClassifier(lambda1=0.0, standardize=False).fit(X, s)
    assert clf.support_.all()
    np.testing.assert_allclose(clf.A_, clf.A_.T)
    f = 0.5 * np.einsum("ij,jk,ik->i", X, clf.A_, X) + X @ clf.b_ + clf.intercept_
    np.testing.assert_allclose(clf.decision_function(X), f)
    np.testing.assert_array_equal(clf.predict(X), (f > 0).astype(int))


def test_standardize_is_equivalent_to_prestandardised_input():
    X, _, s = _problem(n=80, m=3, seed=5)
    X = X * [1.0, 10.0, 0.1] + 3.0
    Xs = (X - X.mean(0)) / X.std(0)
    a = GKFPUALClassifier(lambda1=1.0).fit(X, s)
    b = GKFPUALClassifier(lambda1=1.0, standardize=False).fit(Xs, s)
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(Xs), atol=1e-8)


def test_selector_and_dataframe_output():
    X, _, s = _problem(n=400, m=2, n_noise=6, seed=4, rate=0.8)
    df = pd.DataFrame(X, columns=[f"c{i}" for i in range(X.shape[1])])
    est = GKFPUALClassifier(lambda1=90.0, lambda2=0.01, C2=0.3, sigma=1e-3, standardize=False)
    sel = GKFPUALSelector(est).set_output(transform="pandas")
    out = sel.fit(df, s).transform(df)
    assert list(out.columns) == ["c0", "c1"]
    np.testing.assert_array_equal(sel.get_support(), sel.estimator_.support_)


def test_bad_input():
    X, _, s = _problem(n=40, m=3)
    with pytest.raises(ValueError, match="no labeled positive"):
        GKFPUALClassifier().fit(X, np.zeros(40, int))
    Xc = X.copy()
    Xc[:, 1] = 2.5
    with pytest.raises(ValueError, match=r"constant columns \[1\]"):
        GKFPUALClassifier().fit(Xc, s)
    with pytest.raises(ValueError, match="too many features for the quadratic model"):
        GKFPUALClassifier(memory_limit_mb=1e-4).fit(X, s)
    with pytest.raises(ValueError, match="too many features"):
        GKFPUALClassifier().fit(np.random.RandomState(0).normal(size=(10, 400)), [1] + [0] * 9)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        GKFPUALClassifier().fit(Xn, s)
    with pytest.raises(ValueError, match="PU labels"):
        GKFPUALClassifier().fit(X, np.r_[[2] * 5, [0] * 35])
    with pytest.raises(ValueError, match="mu"):
        GKFPUALClassifier(mu=(0.1, 0.1)).fit(X, s)


@pytest.mark.parametrize("stopping", ["primal-dual", "paper"])
@pytest.mark.parametrize("fast", [False, True])
def test_block_by_block_stopping_test_decides_as_every_norm(stopping, fast):
    """Without a history the stopping test stops at its first failing block; with one
    (``record_every=1``) every norm is computed each iteration: the same iterations, the same
    state to the bit."""
    X, _, s = _problem(n=80, m=2, n_noise=2, seed=3, rate=0.5)
    _, so, d, S, G, R = _pieces(X, s, 1.0)
    kw = {"C1": 1.0, "C2": 0.1, "lambda1": 0.5, "lambda2": 0.1, "mu": (0.1,) * 4}
    kw |= {"max_iter": 3000, "tol": 1e-4, "abs_tol": 1e-6, "stopping": stopping, "fast": fast}
    kw |= {"adapt": True}
    lazy = _admm(S, int(so.sum()), G, R, d, record_every=0, **kw)
    full = _admm(S, int(so.sum()), G, R, d, record_every=1, **kw)
    assert lazy[2] == full[2] and lazy[3] and full[3]  # n_iter, converged
    np.testing.assert_array_equal(lazy[0], full[0])
    np.testing.assert_array_equal(lazy[1], full[1])
    assert full[4][-1]["iteration"] == full[2]


def test_paper_stopping_tests_the_dual_residuals_only():
    """eq. 31 checks the four dual residuals; primal-dual also waits for the primal ones."""
    rng = np.random.RandomState(0)
    X = rng.normal(size=(200, 6))
    y = (X[:, 0] ** 2 + X[:, 1] > 1).astype(int)
    s = y * (rng.uniform(size=200) < 0.5)
    paper_rule = dict(adaptive_mu=False, tol=1e-3, abs_tol=0.25)
    both = GKFPUALClassifier(**paper_rule).fit(X, s)
    dual_only = GKFPUALClassifier(**paper_rule, stopping="paper").fit(X, s)
    assert dual_only.n_iter_ < both.n_iter_
    # the literal rule stops after a handful of iterations (the independent check saw 6-9)
    assert dual_only.n_iter_ <= 10
