"""GKF-PUAL's graph system (eq. 25): sparse LU vs conjugate gradients vs ``"auto"``, by size.

Times ``GKFPUALClassifier(lambda1=1, C2=0.05)`` (K = 5 k-NN graph, its other defaults) with
``graph_solver="direct"`` (sparse LU), ``"cg"`` and ``"auto"`` over a grid of rows x columns, in
one process with one BLAS thread (best of ``--repeats``; a fit the grid marks too slow for
``"direct"`` is skipped).  Data: ``m`` N(0, 1) columns, positive when ``x0² + x1² > 1.5``, half of
the positives labeled.  Where ``"direct"`` and ``"cg"`` both run it checks that the fits agree:
the number of ADMM iterations, the support, the largest absolute coefficient difference and the
share of test rows given the same prediction.  It also reports the share of a ``"cg"`` fit spent
building the k-NN graph, the conjugate-gradient steps per ADMM iteration and, with
``--cg-rtol``, the same checks for looser conjugate-gradient tolerances (against the direct
solve, or the 1e-12 ``"cg"`` fit where the direct one is not run).  With ``--grid-rows N`` it
times a ``PUGridGreedySearch`` of GKF-PUAL (2 σ x 2 λ1, 4 folds, one greedy round) on ``N`` x 8
rows with the k-NN search kept per fold (``weakfs._graph.KNN_CACHE_BYTES``) and without it.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/bench_gkf_pual_graph_solver.py \
        [--rows 250 500 1000 2000 5000 20000] [--cols 8 20] [--max-direct-rows 5000] \
        [--repeats 2] [--cg-rtol 1e-8 1e-10] [--grid-rows 5000]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from threadpoolctl import threadpool_limits

from weakfs._graph import knn_laplacian
from weakfs.pu import GKFPUALClassifier
from weakfs.pu._gkf_pual import _admm


def make_data(n: int, m: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Synthetic PU data: training ``(X, s)`` and ``n`` test rows from the same distribution."""
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(2 * n, m))
    y = (X[:, 0] ** 2 + X[:, 1] ** 2 > 1.5).astype(int)
    s = y[:n] * (rng.uniform(size=n) < 0.5)
    return X[:n], s, X[n:]


def timed_fit(X, s, solver: str, repeats: int) -> tuple[float, GKFPUALClassifier, int]:
    """Best wall time of ``repeats`` fits, the last fit, and its conjugate-gradient steps."""
    steps = {"n": 0}
    original = _admm._ConjugateGradient.solve

    def counting_solve(self, rhs, x0=None):  # counts the steps of every solve of the fit
        before = self.n_steps
        out = original(self, rhs, x0)
        steps["n"] += self.n_steps - before
        return out

    best = np.inf
    _admm._ConjugateGradient.solve = counting_solve
    try:
        for _ in range(repeats):
            steps["n"] = 0
            t0 = time.perf_counter()
            clf = GKFPUALClassifier(lambda1=1.0, C2=0.05, graph_solver=solver).fit(X, s)
            best = min(best, time.perf_counter() - t0)
    finally:
        _admm._ConjugateGradient.solve = original
    return best, clf, steps["n"]


def agreement(a: GKFPUALClassifier, b: GKFPUALClassifier, X_test: np.ndarray) -> str:
    """Same iterations / same support / max |coefficient difference| / prediction agreement."""
    coef = max(
        np.abs(a.A_ - b.A_).max(), np.abs(a.b_ - b.b_).max(), abs(a.intercept_ - b.intercept_)
    )
    same_pred = (a.predict(X_test) == b.predict(X_test)).mean()
    return (
        f"{'yes' if a.n_iter_ == b.n_iter_ else f'NO ({a.n_iter_} vs {b.n_iter_})'} | "
        f"{'yes' if np.array_equal(a.support_, b.support_) else 'NO'} | {coef:.1e} | "
        f"{100 * same_pred:.2f} %"
    )


def time_grid(n: int) -> None:
    """A small tuning grid with and without the kept k-NN searches: time and same result."""
    from weakfs import _graph
    from weakfs.model_selection import PUGridGreedySearch

    X, s, _ = make_data(n, 8)
    grid = {"sigma": [0.5, 1.0], "lambda1": [0.1, 1.0]}
    out = {}
    for name, budget in (("kept", _graph.KNN_CACHE_BYTES), ("not kept", 0)):
        old, _graph.KNN_CACHE_BYTES = _graph.KNN_CACHE_BYTES, budget
        _graph._knn_cache.clear()
        try:
            t0 = time.perf_counter()
            search = PUGridGreedySearch(
                GKFPUALClassifier(C2=0.05), grid, max_greedy_rounds=1, cv=4, random_state=0
            ).fit(X, s)
            out[name] = (time.perf_counter() - t0, search.best_params_, search.best_score_)
        finally:
            _graph.KNN_CACHE_BYTES = old
    (tk, pk, sk), (tn, pn, sn) = out["kept"], out["not kept"]
    print(
        f"grid search {n} x 8 ({search.n_evaluations_} settings x 4 folds + refit): "
        f"k-NN searches kept {tk:.2f} s, not kept {tn:.2f} s ({tn / tk:.2f}x); same result: "
        f"{pk == pn and sk == sn}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, nargs="+", default=[250, 500, 1000, 2000, 5000, 20000])
    ap.add_argument("--cols", type=int, nargs="+", default=[8, 20])
    ap.add_argument("--max-direct-rows", type=int, default=5000)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--cg-rtol", type=float, nargs="*", default=[])
    ap.add_argument("--grid-rows", type=int, nargs="*", default=[])
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f}; auto switch at "
          f"{_admm.GRAPH_SOLVER_AUTO_ROWS} rows")  # fmt: skip
    print(
        "rows x m | direct s | cg s | auto s (picks) | direct/cg | iterations | same iterations "
        "| same support | max coef diff | same predictions | CG steps/iteration | graph share"
    )
    with threadpool_limits(1):
        for m in args.cols:
            for n in args.rows:
                X, s, X_test = make_data(n, m)
                repeats = args.repeats if n <= 5000 else 1
                tc, cg, steps = timed_fit(X, s, "cg", repeats)
                ta, _, _ = timed_fit(X, s, "auto", repeats)
                picks = _admm.resolve_graph_solver("auto", n, dense_graph=False)
                t0 = time.perf_counter()
                knn_laplacian(cg._scaled(X), 5, 1.0)  # the graph the fit builds
                graph_share = (time.perf_counter() - t0) / tc
                if n <= args.max_direct_rows:
                    td, direct, _ = timed_fit(X, s, "direct", repeats)
                    same = agreement(direct, cg, X_test)
                    ratio = f"{td / tc:.2f}x"
                    td_s = f"{td:.3f}"
                else:
                    direct, same, ratio, td_s = None, "– | – | – | –", "–", "not run"
                print(
                    f"{n} x {m} | {td_s} | {tc:.3f} | {ta:.3f} ({picks}) | {ratio} | "
                    f"{cg.n_iter_} | {same} | {steps / cg.n_iter_:.1f} | {100 * graph_share:.0f} %"
                )
                # looser tolerances against the direct fit (the 1e-12 "cg" one where it is not run)
                reference, name = (cg, "cg 1e-12") if direct is None else (direct, "direct")
                for rtol in args.cg_rtol:
                    old, _admm.CG_RTOL = _admm.CG_RTOL, rtol
                    try:
                        tl, loose, steps_l = timed_fit(X, s, "cg", 1)
                    finally:
                        _admm.CG_RTOL = old
                    print(
                        f"  cg rtol {rtol:g}: {tl:.3f} s, {steps_l / loose.n_iter_:.1f} "
                        f"steps/iteration; vs {name}: {agreement(reference, loose, X_test)}"
                    )
        for n in args.grid_rows:
            time_grid(n)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
