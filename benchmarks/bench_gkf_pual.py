"""GKF-PUAL: one fit on 560 rows x 32 features vs a generic convex solver (cvxpy + Clarabel).

The problem is the one the authors' R script fits (342 s + 27 s setup there): pendigits 'one' and
'eight' (positive) vs 'four', 800 rows, 16 pixel features + 16 N(0,1) columns, standardised, 70 %
of the rows for training (560), half of the training positives labeled.  Both solvers minimise the
same objective (paper eq. 11); we report wall time, the ratio and the objective values.

    WEAKFS_DATA=/path/to/data python benchmarks/bench_gkf_pual.py [--repeats 3] [--no-cvxpy]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from threadpoolctl import threadpool_limits

from weakfs._graph import knn_laplacian
from weakfs.datasets import load
from weakfs.pu import GKFPUALClassifier
from weakfs.pu._gkf_pual._admm import gkf_pual_objective
from weakfs.pu._gkf_pual._design import _kernel_free_gram, _quadratic_features, quadratic_design

PARAMS = {"C1": 1.0, "C2": 0.01, "lambda1": 1.0, "lambda2": 0.17, "sigma": 1.0}


def problem(seed: int = 0):
    X, y = load("pendigits")
    X, y = X.to_numpy(float), y.to_numpy()
    rng = np.random.RandomState(seed)
    idx = np.r_[
        rng.choice(np.flatnonzero(y == 1), 200, replace=False),
        rng.choice(np.flatnonzero(y == 8), 200, replace=False),
        rng.choice(np.flatnonzero(y == 4), 400, replace=False),
    ]
    X, yt = X[idx], np.isin(y[idx], [1, 8]).astype(int)
    X = np.c_[X, rng.normal(size=(800, 16))]
    X = (X - X.mean(0)) / X.std(0)
    tr = rng.permutation(800)[:560]
    s = (yt[tr] * (rng.uniform(size=560) < 0.5)).astype(int)
    return X[tr], s


def cvxpy_fit(X, s):
    import cvxpy as cp

    order = np.r_[np.flatnonzero(s == 1), np.flatnonzero(s == 0)]
    Xo, so = X[order], s[order]
    t0 = time.perf_counter()
    d = quadratic_design(X.shape[1])
    S, G = _quadratic_features(Xo, d), _kernel_free_gram(Xo, d)
    R = knn_laplacian(Xo, 5, PARAMS["sigma"])
    w, V = np.linalg.eigh(G)
    M = (V * np.sqrt(np.clip(w, 0, None))).T
    Rc = R.tocoo()
    e = Rc.row < Rc.col
    alpha, b0 = cp.Variable(d.n_coef), cp.Variable()
    f = S @ alpha + b0
    pos = so == 1
    obj = (
        0.5 * PARAMS["lambda2"] * cp.sum_squares(M @ alpha)
        + PARAMS["C1"] * cp.sum(cp.pos(1 - f[pos]))
        + PARAMS["C2"] * cp.sum_squares(1 + f[~pos])
        + cp.sum(cp.multiply(-Rc.data[e], cp.square(f[Rc.row[e]] - f[Rc.col[e]])))
        + 0.5 * PARAMS["lambda1"] * sum(cp.norm(alpha[g], 2) for g in d.groups)
    )
    prob = cp.Problem(cp.Minimize(obj))
    prob.solve(solver="CLARABEL")
    seconds = time.perf_counter() - t0
    value = gkf_pual_objective(
        alpha.value,
        float(b0.value),
        S,
        so,
        G,
        R,
        d,
        C1=PARAMS["C1"],
        C2=PARAMS["C2"],
        lambda1=PARAMS["lambda1"],
        lambda2=PARAMS["lambda2"],
    )
    support = np.linalg.norm(alpha.value[d.groups], axis=1) > 1e-6
    return seconds, value, int(support.sum())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-cvxpy", action="store_true")
    args = ap.parse_args()
    X, s = problem()
    print(f"problem: {X.shape[0]} rows x {X.shape[1]} features, {int(s.sum())} labeled")
    variants = {
        "weakfs default (residual balancing, tol 1e-4/1e-6)": {},
        "paper's rule (fixed mu=0.01, tol 1e-3, abs 0.25)": {
            "adaptive_mu": False,
            "tol": 1e-3,
            "abs_tol": 0.25,
            "max_iter": 100000,
        },
        "fixed mu=0.01, tol 1e-4/1e-6": {"adaptive_mu": False, "max_iter": 100000},
    }
    rows = {}
    with threadpool_limits(1):
        for name, kw in variants.items():
            times = []
            for _ in range(args.repeats):
                t0 = time.perf_counter()
                clf = GKFPUALClassifier(standardize=False, **PARAMS, **kw).fit(X, s)
                times.append(time.perf_counter() - t0)
            rows[name] = (min(times), clf.objective_, clf.n_iter_, int(clf.support_.sum()))
            print(
                f"{name}: best of {args.repeats} {min(times):.2f} s, {clf.n_iter_} iterations, "
                f"objective {clf.objective_:.6f}, {int(clf.support_.sum())} features kept"
            )
        if not args.no_cvxpy:
            sec, val, kept = cvxpy_fit(X, s)
            print(f"cvxpy + Clarabel: {sec:.2f} s, objective {val:.6f}, {kept} features kept")
            ours = rows["weakfs default (residual balancing, tol 1e-4/1e-6)"]
            print(
                f"ratio cvxpy / weakfs default: {sec / ours[0]:.1f}x; relative objective gap "
                f"{(ours[1] - val) / abs(val):.2e}"
            )


if __name__ == "__main__":
    main()
