"""GKF-PUAL's tuning on the paper's full grid, with and without the fit caches, in one process.

The search of a ``gkf_pual-tables`` cell at the paper's grid (λ1 along warm-started paths,
4-fold PUF-score CV, greedy rounds until no improvement) on one task's split, restricted to
the C2 values given (``--c2 all``: the whole grid, 3,645 settings).  First with the caches off
(a fit's and a λ1 path's solution, and the λ1_max certificate: ``weakfs.pu._gkf_pual._fit_cache``
and ``_lambda_max``), then on; every cache is cleared before each run.  Prints the seconds, the
ratio, and whether the two searches' CV tables are equal to the bit.

``--compare stopping``: instead, the ADMM's stopping test computing every residual norm at every
iteration (as before the test went block by block; ``_ADMMProblem._converged`` replaced by the
full ``_residuals``) against the block-by-block test, caches on in both.

``--compare profile``: one search, caches on, under cProfile; prints the functions by their own
time (a profile's fractions, not its seconds, are what to read).

Run:  python benchmarks/bench_gkf_pual_fullgrid.py [--task Seeds] [--gamma 0.5] [--c2 0.1]
      [--compare caches|stopping|profile]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import time

from threadpoolctl import threadpool_limits

from weakfs import _graph
from weakfs.experiments.gkf_pual import _cells
from weakfs.experiments.gkf_pual._tasks import make_split
from weakfs.model_selection import PUGridGreedySearch
from weakfs.pu._gkf_pual import _fit_cache, _lambda_max
from weakfs.pu._gkf_pual._admm import _ADMMProblem

_BLOCK_BY_BLOCK = _ADMMProblem._converged


def _every_norm(self, *args, tol, abs_tol, fast, stopping) -> bool:
    """The stopping test with every norm computed first (the test before it went block by
    block)."""
    primal, dual, e_pri, e_dual = self._residuals(*args, tol=tol, abs_tol=abs_tol, fast=fast)
    return all(dv <= de for dv, de in zip(dual, e_dual)) and (
        stopping == "paper" or all(pv <= pe for pv, pe in zip(primal, e_pri))
    )


def _caches(on: bool) -> None:
    _fit_cache.clear()
    _lambda_max._dual_norm_cache.clear()
    with _graph._knn_cache_lock:  # on in both runs, but empty at the start of each
        _graph._knn_cache.clear()
    _fit_cache.FIT_CACHE_BYTES = 16 * 2**20 if on else -1  # -1: nothing is kept
    _lambda_max.SPLIT_DUAL_NORM_CACHE = 64 if on else 0


def _search(task: str, gamma: float, c2, seed: int) -> tuple[float, list]:
    data = make_split(task, gamma, seed)
    grid = dict(_cells._grid_for("GKF-PUAL", "full"))
    if c2 is not None:
        grid["C2"] = c2
    search = PUGridGreedySearch(
        _cells._estimator("GKF-PUAL", seed, 0.0),
        grid,
        greedy_params=["C2", "lambda1", "lambda2", "sigma"],
        max_greedy_rounds=None,
        cv=4,
        random_state=seed,
        refit=False,
        path_param="lambda1",
        verbose=False,
    )
    start = time.perf_counter()
    with threadpool_limits(1):
        search.fit(data["X_train"], data["s_train"])
    rows = [
        (sorted(r["params"].items()), r["mean_score"], list(r["fold_scores"]), r["stage"])
        for r in search.cv_results_
    ]
    return time.perf_counter() - start, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="Seeds")
    parser.add_argument("--gamma", type=float, default=0.5)
    parser.add_argument("--c2", default="0.1", help="comma-separated C2 values, or 'all'")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--compare", choices=("caches", "stopping", "profile"), default="caches")
    args = parser.parse_args()
    c2 = None if args.c2 == "all" else [float(v) for v in args.c2.split(",")]
    print(f"{args.task}, γ = {args.gamma}, C2 = {args.c2}, load {os.getloadavg()[0]:.2f}")
    if args.compare == "profile":
        _caches(True)
        profile = cProfile.Profile()
        seconds, rows = profile.runcall(_search, args.task, args.gamma, c2, args.seed)
        print(f"{seconds:.1f} s under the profiler, {len(rows)} CV rows")
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
        return
    times, tables = {}, {}
    if args.compare == "caches":
        variants = (("caches off", False, _BLOCK_BY_BLOCK), ("caches on", True, _BLOCK_BY_BLOCK))
    else:
        variants = (("every norm", True, _every_norm), ("block by block", True, _BLOCK_BY_BLOCK))
    for label, on, test in variants:
        _caches(on)
        _ADMMProblem._converged = test
        times[label], tables[label] = _search(args.task, args.gamma, c2, args.seed)
        print(f"{label}: {times[label]:.1f} s, {len(tables[label])} CV rows")
    _caches(True)
    _ADMMProblem._converged = _BLOCK_BY_BLOCK
    (a, b) = (v[0] for v in variants)
    print(f"ratio {times[a] / times[b]:.2f}x; CV tables equal to the bit: "
          f"{tables[a] == tables[b]}")  # fmt: skip


if __name__ == "__main__":
    main()
