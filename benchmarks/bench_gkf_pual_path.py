"""GKF-PUAL λ1 path: 50 λ1 values on 560 rows x 32 features, warm-started, against cold fits.

The problem of ``bench_gkf_pual.py`` (pendigits one/eight vs four, 16 pixels + 16 N(0,1) columns,
560 training rows, C2 = 0.01, λ2 = 0.17, σ = 1).  ``gkf_pual_path`` computes λ1_max and solves
50 log-spaced λ1 values from λ1_max down to λ1_max / 100, each warm-started from the previous
solution with the ADMM's linear systems factored once per penalty setting.  The cold reference
fits ``GKFPUALClassifier`` from scratch at every λ1 of the path.  One BLAS thread; the load
average is printed with the times.

    WEAKFS_DATA=/path/to/data python benchmarks/bench_gkf_pual_path.py [--repeats 3] [--cold]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from threadpoolctl import threadpool_limits

from bench_gkf_pual import PARAMS, problem
from weakfs.pu import GKFPUALClassifier, gkf_pual_path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--n-lambdas", type=int, default=50)
    ap.add_argument("--cold", action="store_true", help="also fit every λ1 from scratch")
    args = ap.parse_args()
    X, s = problem()
    params = {k: v for k, v in PARAMS.items() if k != "lambda1"}
    print(f"problem: {X.shape[0]} rows x {X.shape[1]} features, {int(s.sum())} labeled; {params}")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with threadpool_limits(1):
        times, cpu = [], []
        for _ in range(args.repeats):
            t0, c0 = time.perf_counter(), time.process_time()
            path = gkf_pual_path(X, s, n_lambdas=args.n_lambdas, standardize=False, **params)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        print(
            f"path of {args.n_lambdas} λ1: best of {args.repeats} {min(times):.2f} s wall "
            f"({min(cpu):.2f} s CPU; all: {', '.join(f'{t:.2f}' for t in times)}), "
            f"{int(path.n_iter.sum())} ADMM iterations, {path.n_factorizations} factorisations, "
            f"λ1_max = {path.lambda1_max:.4g} "
            f"({'closed form' if path.lambda1_max_exact else 'bisection'})"
        )
        print(f"non-zero groups along the path: {path.n_nonzero.tolist()}")
        print(f"load average after: {os.getloadavg()[0]:.2f}")
        if args.cold:
            t0 = time.perf_counter()
            gaps, iters = [], 0
            for lam, objective in zip(path.lambdas, path.objectives):
                clf = GKFPUALClassifier(lambda1=lam, standardize=False, **params).fit(X, s)
                gaps.append((objective - clf.objective_) / abs(clf.objective_))
                iters += clf.n_iter_
            cold = time.perf_counter() - t0
            print(
                f"cold fits at the same λ1: {cold:.2f} s, {iters} iterations; warm path "
                f"{cold / min(times):.1f}x faster; relative objective gap path - cold: "
                f"max {max(np.abs(gaps)):.2e} (mean {np.mean(gaps):+.2e})"
            )


if __name__ == "__main__":
    main()
