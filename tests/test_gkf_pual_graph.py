"""GKF-PUAL's graph system solved by conjugate gradients (``graph_solver="cg"``, the path past a
few thousand rows) gives the factored solve's iterations and solution."""

import numpy as np
import pytest
from scipy import sparse
from scipy.sparse.linalg import spsolve

from weakfs._graph import knn_laplacian
from weakfs.pu import GKFPUALClassifier, gkf_pual_path
from weakfs.pu._gkf_pual._admm import (
    GRAPH_SOLVER_AUTO_ROWS,
    _ConjugateGradient,
    resolve_graph_solver,
)


def _problem(n=160, m=4, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, m))
    y = (X[:, 0] ** 2 + X[:, 1] ** 2 > 1.4).astype(int)
    s = (y.astype(bool) & (rng.uniform(size=n) < 0.5)).astype(int)
    return X, s


def test_conjugate_gradient_solves_the_graph_system():
    X, _ = _problem(n=300)
    K = (2.0 * knn_laplacian(X, 5, 1.0) + 0.01 * sparse.identity(300)).tocsc()
    rhs = np.random.RandomState(1).normal(size=300)
    exact = spsolve(K, rhs)
    cg = _ConjugateGradient(K)
    x = cg.solve(rhs)
    assert np.linalg.norm(x - exact) <= 1e-9 * np.linalg.norm(exact)
    steps = cg.n_steps
    # started at the answer it stops at once; the start is copied, not overwritten
    start = exact.copy()
    assert np.allclose(cg.solve(rhs, start), exact, rtol=1e-9, atol=1e-12)
    assert cg.n_steps == steps
    assert np.array_equal(start, exact)
    # a dense matrix (the graph over all pairs) works the same way
    assert np.allclose(_ConjugateGradient(K.toarray()).solve(rhs), exact, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("n_neighbors", [5, None])
def test_cg_fit_equals_the_factored_fit(n_neighbors):
    X, s = _problem()
    params = dict(C2=0.05, lambda1=2.0, lambda2=0.1, n_neighbors=n_neighbors)
    direct = GKFPUALClassifier(graph_solver="direct", **params).fit(X, s)
    cg = GKFPUALClassifier(graph_solver="cg", **params).fit(X, s)
    # the same iterations up to rounding: same count, same support, same surface
    assert cg.n_iter_ == direct.n_iter_
    assert np.array_equal(cg.support_, direct.support_)
    assert abs(cg.objective_ - direct.objective_) <= 1e-9 * abs(direct.objective_)
    assert np.allclose(cg.A_, direct.A_, rtol=1e-6, atol=1e-8)
    assert np.allclose(cg.decision_function(X), direct.decision_function(X), atol=1e-7)


def test_auto_keeps_the_factored_solve_on_small_data():
    X, s = _problem()
    auto = GKFPUALClassifier(lambda1=1.0).fit(X, s)
    direct = GKFPUALClassifier(lambda1=1.0, graph_solver="direct").fit(X, s)
    assert auto.objective_ == direct.objective_  # bit for bit: committed results unchanged
    assert np.array_equal(auto.A_, direct.A_)
    n = GRAPH_SOLVER_AUTO_ROWS
    assert resolve_graph_solver("auto", n, dense_graph=False) == "direct"
    assert resolve_graph_solver("auto", n + 1, dense_graph=False) == "cg"
    assert resolve_graph_solver("auto", 10 * n, dense_graph=True) == "direct"
    assert resolve_graph_solver("cg", 10, dense_graph=True) == "cg"


def test_auto_picks_as_documented():
    """``"auto"``: the sparse LU up to 500 rows (the docstring's figure), conjugate gradients
    above; a fit above the switch is the ``"cg"`` fit, bit for bit."""
    assert GRAPH_SOLVER_AUTO_ROWS == 500
    assert resolve_graph_solver("auto", 500, dense_graph=False) == "direct"
    assert resolve_graph_solver("auto", 501, dense_graph=False) == "cg"
    X, s = _problem(n=520, m=3)
    auto = GKFPUALClassifier(lambda1=1.0, C2=0.05).fit(X, s)
    cg = GKFPUALClassifier(lambda1=1.0, C2=0.05, graph_solver="cg").fit(X, s)
    direct = GKFPUALClassifier(lambda1=1.0, C2=0.05, graph_solver="direct").fit(X, s)
    assert np.array_equal(auto.A_, cg.A_) and auto.intercept_ == cg.intercept_
    # and the two solvers agree: same iterations, support and predictions
    assert cg.n_iter_ == direct.n_iter_
    assert np.array_equal(cg.support_, direct.support_)
    assert np.array_equal(cg.predict(X), direct.predict(X))
    assert np.allclose(cg.A_, direct.A_, rtol=1e-7, atol=1e-9)
    # an integer moves the switch: 2000 is the rule before it moved (the experiments pin it)
    assert resolve_graph_solver(2000, 2000, dense_graph=False) == "direct"
    assert resolve_graph_solver(2000, 2001, dense_graph=False) == "cg"
    assert resolve_graph_solver(0, 10, dense_graph=True) == "direct"
    old_rule = GKFPUALClassifier(lambda1=1.0, C2=0.05, graph_solver=2000).fit(X, s)
    assert np.array_equal(old_rule.A_, direct.A_) and old_rule.intercept_ == direct.intercept_


def test_cg_path_equals_the_factored_path():
    X, s = _problem(n=140)
    params = dict(n_lambdas=5, C2=0.3, lambda2=0.01, sigma=1e-3)
    direct = gkf_pual_path(X, s, graph_solver="direct", **params)
    cg = gkf_pual_path(X, s, graph_solver="cg", **params)
    assert np.allclose(cg.lambdas, direct.lambdas, rtol=1e-9)
    assert np.array_equal(cg.support, direct.support)
    assert np.allclose(cg.objectives, direct.objectives, rtol=1e-8)


def test_bad_graph_solver():
    X, s = _problem(n=40)
    with pytest.raises(ValueError, match="graph_solver"):
        GKFPUALClassifier(graph_solver="sparse").fit(X, s)
    with pytest.raises(ValueError, match="graph_solver must be one of"):
        resolve_graph_solver("iterative", 100, dense_graph=False)
    with pytest.raises(ValueError, match="graph_solver"):
        GKFPUALClassifier(graph_solver=-1).fit(X, s)
