"""GKF-PUAL as the authors' R code solves it (github.com/tkks22123/GKF-PUAL): a fixed number of
iterations, the group threshold on the L1 norm, the R code's start, its zero test through t and
its dense graph.  Checked against a literal transcription of the R loop; the defaults are
untouched (the other GKF-PUAL tests)."""

import warnings

import numpy as np
import pytest

from weakfs.pu import GKFPUALClassifier, gkf_pual_path
from weakfs.pu._gkf_pual._admm import _ADMMProblem, _final_coefficients, _group_threshold
from weakfs.pu._gkf_pual._design import (
    _kernel_free_gram,
    _quadratic_features,
    dense_gaussian_laplacian,
    quadratic_design,
)

R_CODE = {
    "mu": 0.01,
    "adaptive_mu": False,
    "stopping": "none",
    "group_norm": "l1",
    "init": "r-code",
    "zero_tol": 1e-6,
    "n_neighbors": None,
    "standardize": False,
}


def _problem(n=40, m=3, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, m))
    y = (X[:, 0] ** 2 + X[:, 1] ** 2 > 1.4).astype(int)
    s = (y.astype(bool) & (rng.uniform(size=n) < 0.5)).astype(int)
    return X, s


def _r_loop(X_lu, n_l, *, C1, C2, lambda1, lambda2, iters, mu=0.01, theta_K=1.0):
    """The authors' R loop written out line by line with dense matrices (their ``D*``, ``G``,
    ``W``, ``solve``, ``block_update`` with R's default one-norm and ``cons_ver``).  Returns
    ``(A, b, β0)``."""
    n, m = X_lu.shape
    rows, cols = np.triu_indices(m)
    nq = rows.size
    mm = nq + m
    pos = {}
    for k, (j, l) in enumerate(zip(rows, cols)):
        pos[j, l] = pos[l, j] = k
    S = np.zeros((n, mm))  # f(x) = S α* + β0 = ½xᵀAx + bᵀx + β0
    for i, x in enumerate(X_lu):
        for k, (j, l) in enumerate(zip(rows, cols)):
            S[i, k] = 0.5 * x[j] ** 2 if j == l else x[j] * x[l]
        S[i, nq:] = x
    G = np.zeros((mm, mm))  # α*ᵀGα* = Σ_i ‖A x_i + b‖²
    for x in X_lu:
        M = np.zeros((m, mm))
        for j in range(m):
            for l in range(m):
                M[j, pos[j, l]] += x[l]
            M[j, nq + j] = 1.0
        G += M.T @ M
    D = np.zeros((m * (m + 1), mm))  # group j = (A_j1 … A_jm, b_j)
    for j in range(m):
        for l in range(m):
            D[j * (m + 1) + l, pos[j, l]] = 1.0
        D[j * (m + 1) + m, nq + j] = 1.0
    W = np.array([[np.exp(-np.sum((xi - xj) ** 2) / 2 / theta_K) for xj in X_lu] for xi in X_lu])
    np.fill_diagonal(W, 0.0)
    L = np.diag(W.sum(axis=1)) - W
    S_l, S_u = S[:n_l], S[n_l:]
    one_l, one_u = np.ones(n_l), np.ones(n - n_l)
    alpha, beta_0 = np.full(mm, 0.01), 0.0
    h = one_l - (S_l @ alpha + beta_0)
    a = one_u + (S_u @ alpha + beta_0)
    t = D @ alpha
    f = S @ alpha + beta_0
    v, u_h, u_a, q = np.full(m * (m + 1), 10.0), np.full(n_l, 0.5), np.zeros(n - n_l), np.zeros(n)

    def star(Z):
        return np.column_stack([Z, np.ones(len(Z))])

    S_s, S_l_s, S_u_s = star(S), star(S_l), star(S_u)
    D0 = np.zeros((D.shape[0] + 1, mm + 1))
    D0[:-1, :-1] = D
    G0 = np.zeros((mm + 1, mm + 1))
    G0[:-1, :-1] = G
    for _ in range(iters):
        M111 = (
            mu * D0.T @ D0
            + lambda2 * G0
            + mu * S_l_s.T @ S_l_s
            + mu * S_u_s.T @ S_u_s
            + mu * S_s.T @ S_s
        )
        M222 = (
            S_l_s.T @ u_h
            - S_u_s.T @ u_a
            - D0.T @ np.append(v, 0.0)
            - S_s.T @ q
            + mu * S_l_s.T @ (one_l - h)
            - mu * S_u_s.T @ (one_u - a)
            + mu * D0.T @ np.append(t, 0.0)
            + mu * S_s.T @ f
        )
        sol = np.linalg.solve(M111, M222)
        alpha, beta_0 = sol[:mm], sol[mm]
        om = one_l + u_h / mu - (S_l @ alpha + beta_0)
        h = np.where(om > C1 / mu, om - C1 / mu, np.where(om < 0, om, 0.0))
        a = (u_a + mu * (one_u + S_u @ alpha + beta_0)) / (2 * C2 + mu)
        w = D @ alpha + v / mu
        t = np.concatenate(
            [max(1 - lambda1 / (2 * mu * np.abs(blk).sum()), 0) * blk for blk in np.split(w, m)]
        )
        f = np.linalg.solve(2 * L + mu * np.eye(n), q + mu * (S @ alpha + beta_0))
        u_h = u_h + mu * (one_l - (S_l @ alpha + beta_0) - h)
        u_a = u_a + mu * (one_u + (S_u @ alpha + beta_0) - a)
        v = v + mu * (D @ alpha - t)
        q = q + mu * (S @ alpha + beta_0 - f)
    for r in np.flatnonzero(np.abs(t) < 1e-6):  # cons_ver
        alpha[D[r] == 1] = 0.0
    A = np.zeros((m, m))
    A[rows, cols] = alpha[:nq]
    A[cols, rows] = alpha[:nq]
    return A, alpha[nq:], beta_0


@pytest.mark.parametrize(("lambda1", "support"), [(0.5, [1, 1, 1]), (3.0, [1, 0, 0])])
def test_r_code_variant_is_the_authors_loop(lambda1, support):
    X, s = _problem()
    order = np.r_[np.flatnonzero(s == 1), np.flatnonzero(s == 0)]
    kw = {"C1": 1.0, "C2": 0.1, "lambda1": lambda1, "lambda2": 0.1}
    A, b, beta0 = _r_loop(X[order], int(s.sum()), iters=300, **kw)
    clf = GKFPUALClassifier(max_iter=300, **kw, **R_CODE).fit(X, s)
    np.testing.assert_allclose(clf.A_, A, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(clf.b_, b, rtol=1e-8, atol=1e-12)
    assert clf.intercept_ == pytest.approx(beta0, rel=1e-10)
    np.testing.assert_array_equal(clf.support_, np.array(support, dtype=bool))


def test_no_stopping_test_runs_exactly_max_iter_without_a_warning():
    X, s = _problem()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf = GKFPUALClassifier(lambda1=1.0, max_iter=37, **R_CODE).fit(X, s)
    assert clf.n_iter_ == 37 and not clf.converged_
    assert clf.history_[-1]["iteration"] == 37
    # with a stopping rule the same start stops on its own test
    stops = GKFPUALClassifier(lambda1=1.0, max_iter=5000, **{**R_CODE, "stopping": "paper"})
    assert stops.fit(X, s).n_iter_ < 5000


def test_l1_group_threshold_zeroes_exactly_the_groups_with_small_l1_norm():
    y = np.array([[0.3, 0.3, 0.3], [0.6, 0.0, 0.0], [1.0, 1.0, 0.5], [0.0, 0.0, 0.0]])
    thr = 0.8  # L1 norms 0.9, 0.6, 2.5, 0; L2 norms 0.52, 0.6, 1.5, 0
    t, shrink = _group_threshold(y, thr, "l1")
    t = t.reshape(y.shape)
    np.testing.assert_array_equal(shrink > 0, [True, False, True, False])
    np.testing.assert_allclose(t[0], y[0] * (1 - thr / 0.9))
    np.testing.assert_allclose(t[2], y[2] * (1 - thr / 2.5))
    assert not t[[1, 3]].any()
    # the Euclidean step (eq. 30, the default) zeroes the first group as well
    _, shrink2 = _group_threshold(y, thr, "l2")
    np.testing.assert_array_equal(shrink2 > 0, [False, False, True, False])


def test_zero_test_through_t_zeroes_every_coefficient_with_a_small_copy():
    d = quadratic_design(3)
    z = np.r_[np.arange(1.0, d.n_coef + 1), 0.5]
    t = z[d.groups.ravel()].copy()
    # A_01 sits in group 0 and group 1: its copy in group 1 below 1e-6 zeroes it
    t[1 * (d.m + 1) + 0] = 5e-7
    t[2 * (d.m + 1) :] = 0.0  # group 2 zero
    alpha, beta0, support = _final_coefficients(z, t, d, 1e-6)
    assert alpha[d.pair[0, 1]] == 0 and beta0 == 0.5
    assert not alpha[d.groups[2]].any()
    others = np.setdiff1d(np.arange(d.n_coef), np.r_[d.pair[0, 1], d.groups[2]])
    np.testing.assert_array_equal(alpha[others], z[others])
    np.testing.assert_array_equal(support, [True, True, False])
    # the default removes only the group that is exactly zero and keeps A_01
    alpha0, _, support0 = _final_coefficients(z, t, d)
    assert alpha0[d.pair[0, 1]] != 0
    np.testing.assert_array_equal(support0, support)


def test_r_code_start_and_dense_graph():
    X, s = _problem(n=12)
    d = quadratic_design(3)
    R = dense_gaussian_laplacian(X, 1.0)
    d2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    W = np.exp(-d2 / 2)
    np.fill_diagonal(W, 0)
    np.testing.assert_allclose(R, np.diag(W.sum(1)) - W, atol=1e-12)
    S = _quadratic_features(X, d)
    problem = _ADMMProblem(
        S, int(s.sum()), _kernel_free_gram(X, d), R, d, C1=1.0, C2=0.1, lambda2=0.1
    )
    st = problem.initial_state("r-code")
    assert np.all(st.z[:-1] == 0.01) and st.z[-1] == 0.0
    assert np.all(st.u_h == 0.5) and not st.u_a.any() and np.all(st.v == 10) and not st.q.any()
    f = problem.St @ st.z
    np.testing.assert_allclose(st.b, f)
    np.testing.assert_allclose(st.t, st.z[d.groups.ravel()])


def test_r_code_options_are_opt_in_and_refused_along_a_path():
    defaults = GKFPUALClassifier().get_params()
    assert (defaults["stopping"], defaults["group_norm"], defaults["init"]) == (
        "primal-dual",
        "l2",
        "paper",
    )
    assert defaults["zero_tol"] == 0.0 and defaults["n_neighbors"] == 5
    X, s = _problem()
    with pytest.raises(ValueError, match="R-code option"):
        gkf_pual_path(X, s, n_lambdas=3, group_norm="l1")
    with pytest.raises(ValueError, match="group_norm"):
        GKFPUALClassifier(group_norm="l3").fit(X, s)


def test_r_code_cells_are_opt_in_and_log_the_predicted_positive_share():
    from weakfs.experiments._registry import RunConfig
    from weakfs.experiments.gkf_pual import R_CODE as METHOD
    from weakfs.experiments.gkf_pual._cells import make_cells, run_cell

    default = make_cells(RunConfig(runs=1, quick=True, datasets=["Seeds"]))
    assert METHOD not in {c["method"] for c in default}
    cells = make_cells(RunConfig(runs=1, quick=True, datasets=["Seeds"], methods=[METHOD]))
    out = run_cell(next(c for c in cells if c["gamma"] == 0.5))
    assert out["n_iter"] == 1300  # the R code's fixed count, no stopping test
    assert 0 <= out["predicted_positive_share"] <= 100
    assert 0 < out["test_positive_share"] < 100
    assert 0 <= out["irrelevant_removed"] <= 100 and 0 <= out["relevant_kept"] <= 100
