"""PUAL / GLLC are solved to their convex optimum (checked with cvxpy); uPU / nnPU learn."""

import numpy as np
import pytest

from weakfs._graph import knn_laplacian
from weakfs.pu import GLLCClassifier, NNPUClassifier, PUALClassifier, UPUClassifier
from weakfs.pu._pual import _rbf, _solve_pual_family

cp = pytest.importorskip("cvxpy")


def _data(n=90, seed=1):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] ** 2 > 0.8).astype(int)
    s = (y.astype(bool) & (rng.uniform(size=n) < 0.5)).astype(int)
    return X, y, s


def _objective(f, w_norm2, s, R, *, C1, C2, lam, loss):
    pos = s == 1
    lp = np.maximum(0, 1 - f[pos]).sum() if loss == "hinge" else ((1 - f[pos]) ** 2).sum()
    return 0.5 * lam * w_norm2 + C1 * lp + C2 * ((1 + f[~pos]) ** 2).sum() + f @ (R @ f)


def _cvx(K_or_X, s, R, *, C1, C2, lam, loss, kernel):
    n = s.size
    Rc = R.tocoo()
    e = Rc.row < Rc.col
    b0 = cp.Variable()
    if kernel:
        c = cp.Variable(n)
        f = K_or_X @ c + b0
        reg = cp.quad_form(c, cp.psd_wrap(K_or_X))
    else:
        w = cp.Variable(K_or_X.shape[1])
        f = K_or_X @ w + b0
        reg = cp.sum_squares(w)
    pos = s == 1
    lp = cp.sum(cp.pos(1 - f[pos])) if loss == "hinge" else cp.sum_squares(1 - f[pos])
    obj = (
        0.5 * lam * reg
        + C1 * lp
        + C2 * cp.sum_squares(1 + f[~pos])
        + cp.sum(cp.multiply(-Rc.data[e], cp.square(f[Rc.row[e]] - f[Rc.col[e]])))
    )
    prob = cp.Problem(cp.Minimize(obj))
    prob.solve(solver="CLARABEL")
    return prob.value


@pytest.mark.parametrize("loss", ["hinge", "squared"])
def test_linear_solution_is_the_cvxpy_optimum(loss):
    X, _, s = _data()
    R = knn_laplacian(X, 5, 1.0)
    kw = {"C1": 1.0, "C2": 0.1, "lam": 0.3, "loss": loss}
    w, b0, _ = _solve_pual_family(X, s, R, **kw)
    ours = _objective(X @ w + b0, w @ w, s, R, **kw)
    ref = _cvx(X, s, R, kernel=False, **kw)
    assert abs(ours - ref) / ref < 1e-6


@pytest.mark.parametrize("cls", [PUALClassifier, GLLCClassifier])
def test_rbf_solution_is_the_cvxpy_optimum(cls):
    X, _, s = _data(n=60)
    clf = cls(C2=0.1, lam=0.5, sigma=1.5, standardize=False).fit(X, s)
    K = _rbf(X, X, 1.5)
    R = knn_laplacian(X, 5, 1.5)
    f = clf.decision_function(X)
    # representer form: f = K c + β0 with ‖β‖² = cᵀKc; c from the empirical kernel map weights
    c = clf._proj @ clf.coef_
    np.testing.assert_allclose(K @ c + clf.intercept_, f, atol=1e-6)
    kw = {"C1": 1.0, "C2": 0.1, "lam": 0.5, "loss": cls._loss}
    ours = _objective(f, c @ K @ c, s, R, **kw)
    ref = _cvx(K, s, R, kernel=True, **kw)
    assert abs(ours - ref) / ref < 1e-5


def test_pual_and_gllc_learn_a_nonlinear_boundary():
    X, y, s = _data(n=300, seed=3)
    kw = {"C2": 0.3, "lam": 0.01, "sigma": 0.5}
    majority = max(y.mean(), 1 - y.mean())
    for cls in (PUALClassifier, GLLCClassifier):
        clf = cls(**kw).fit(X, s)
        assert (clf.predict(X) == y).mean() > majority + 0.1
    # a linear score cannot describe x0² > 0.8: it does no better than the majority class
    lin = PUALClassifier(kernel="linear", **kw).fit(X, s)
    assert (lin.predict(X) == y).mean() <= majority + 0.02


@pytest.mark.parametrize("cls", [UPUClassifier, NNPUClassifier])
def test_pu_risk_mlps_learn_and_are_reproducible(cls):
    rng = np.random.RandomState(0)
    X = rng.normal(size=(400, 4))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    s = (y.astype(bool) & (rng.uniform(size=400) < 0.5)).astype(int)
    prior = y[s == 0].mean()
    a = cls(prior=prior, max_epochs=30, random_state=0).fit(X, s)
    b = cls(prior=prior, max_epochs=30, random_state=0).fit(X, s)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    assert (a.predict(X) == y).mean() > 0.85
    proba = a.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_nnpu_keeps_the_negative_risk_from_going_far_below_zero():
    # a flexible net on few labeled points: uPU's risk estimate goes negative (overfitting),
    # nnPU's non-negative correction keeps it near or above 0
    rng = np.random.RandomState(1)
    X = rng.normal(size=(200, 10))
    y = (X[:, 0] > 0.3).astype(int)
    s = (y.astype(bool) & (rng.uniform(size=200) < 0.3)).astype(int)
    prior = y[s == 0].mean()
    kw = {"prior": prior, "max_epochs": 200, "hidden_layer_sizes": (100, 100), "weight_decay": 0.0}
    u = UPUClassifier(random_state=0, **kw).fit(X, s)
    nn = NNPUClassifier(random_state=0, **kw).fit(X, s)
    assert min(u.loss_curve_[-20:]) < -0.05
    assert min(nn.loss_curve_[-20:]) > min(u.loss_curve_[-20:])


def test_bad_input():
    X, _, s = _data(n=40)
    for cls in (PUALClassifier, GLLCClassifier):
        with pytest.raises(ValueError, match="one class"):
            cls().fit(X, np.zeros(40, int))
    with pytest.raises(ValueError, match="prior"):
        NNPUClassifier(prior=1.5).fit(X, s)
    with pytest.raises(ValueError, match="Unknown label type"):
        PUALClassifier().fit(X, np.linspace(0, 1, 40))
