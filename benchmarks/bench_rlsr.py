"""RLSR on SEW-IL's text splits: the n x n product from sparse rows against the dense product.

RLSR (Chen et al. 2017) solves, at every inner iteration, the push-through system
``(Xc Q Xc^T + gamma I) z = Yc`` when there are more features than rows.  On the text sets
(1-2 % non-zero) ``rlsr_scores`` forms ``Xc Q Xc^T`` from the sparse rows of ``X`` plus rank-one
mean corrections; ``--dense`` forces the dense BLAS product for every run (the code before the
sparse form; the same matrix up to rounding).  Both run the same iterations; the script prints
their times, the iteration counts, the largest relative difference of the scores and whether the
selected ``ceil(d^(2/3))`` features come out in the same order.  One BLAS thread; the load average
is printed.

    WEAKFS_DATA=/path/to/data python benchmarks/bench_rlsr.py [--datasets RELATHE,PCMAC]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from threadpoolctl import threadpool_limits

import weakfs.semi_supervised._ssl_baselines as baselines
from weakfs.experiments.sewil import load_split


def _timed(X, y_semi, density: float | None):
    saved = baselines._SPARSE_PRODUCT_DENSITY
    if density is not None:
        baselines._SPARSE_PRODUCT_DENSITY = density
    try:
        t0 = time.perf_counter()
        scores, n_iter = baselines.rlsr_scores(X, y_semi)
        return scores, n_iter, time.perf_counter() - t0
    finally:
        baselines._SPARSE_PRODUCT_DENSITY = saved


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default="RELATHE,PCMAC,BASEHOCK")
    ap.add_argument("--split", type=int, default=0)
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(
        "| data | rows x features | non-zero | dense product | sparse rows | ratio | outer "
        "iterations | max rel. score diff | same top-k order |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    with threadpool_limits(1):
        for name in args.datasets.split(","):
            X, y_semi, *_ = load_split(name, args.split)
            k = int(np.ceil(X.shape[1] ** (2.0 / 3.0)))
            dense, it_d, t_d = _timed(X, y_semi, 0.0)
            sparse, it_s, t_s = _timed(X, y_semi, None)
            diff = float(np.max(np.abs(dense - sparse)) / dense.max())
            same = bool(
                np.array_equal(
                    np.argsort(-dense, kind="stable")[:k], np.argsort(-sparse, kind="stable")[:k]
                )
            )
            print(
                f"| {name} | {X.shape[0]} x {X.shape[1]} | {np.count_nonzero(X) / X.size:.1%} | "
                f"{t_d:.1f} s | {t_s:.1f} s | {t_d / t_s:.1f}x | {it_d} / {it_s} | {diff:.1e} | "
                f"{same} |",
                flush=True,
            )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
