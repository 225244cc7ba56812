"""FSCPU's speed options against the paper's search, in one process: seconds per search, EM
iterations per fit, the share of fits that end at EM's cap of 100 iterations, and FSR.

Each variant runs the same search (same condition, data seed and ``random_state``) with one
BLAS/OpenMP thread; the ratio is the paper's search's seconds over the variant's.  Variants:
the paper's (every row, k-means seeds), ``warm_start=True``, ``search_rows=1500``, both,
``shared_start=True``, and it with ``search_rows=1500``.
A short search (``--n-iter``) gives the per-iteration cost; the quality at the paper's T = 3000
is the business of ``weakfs reproduce fscpu-table1 --methods fscpu-rows1500,...``.

Run:  python benchmarks/bench_fscpu_options.py [--condition ca-10-8-2] [--n-iter 300] [--seed 0]
      [--objective cluster+mi] [--variants 0,3]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from sklearn.preprocessing import MinMaxScaler
from threadpoolctl import threadpool_limits

from weakfs.datasets import make_fscpu_synthetic
from weakfs.pu import FSCPUSelector

VARIANTS = {
    "paper (every row, k-means seeds)": {},
    "warm_start=True": {"warm_start": True},
    "search_rows=1500": {"search_rows": 1500},
    "search_rows=1500, warm_start=True": {"search_rows": 1500, "warm_start": True},
    "shared_start=True": {"shared_start": True},
    "search_rows=1500, shared_start=True": {"search_rows": 1500, "shared_start": True},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--condition", default="ca-10-8-2")
    parser.add_argument("--n-iter", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--objective", default="cluster", choices=["cluster", "cluster+mi"])
    parser.add_argument(
        "--variants",
        default=",".join(str(i) for i in range(len(VARIANTS))),
        help="which variants, by position in the table (default: all; the ratio is to the first)",
    )
    args = parser.parse_args()
    chosen = [list(VARIANTS)[int(i)] for i in args.variants.split(",")]
    data = make_fscpu_synthetic(args.condition, random_state=args.seed)
    X = MinMaxScaler().fit_transform(data.X)
    relevant = np.zeros(X.shape[1], dtype=bool)
    relevant[data.relevant] = True
    print(
        f"{args.condition}, data seed {args.seed}, {X.shape[0]} x {X.shape[1]}, objective "
        f"{args.objective}, T = {args.n_iter}, load average before: {os.getloadavg()[0]:.2f}"
    )
    # compile the kernels outside the timings
    FSCPUSelector(25, n_iter=3, random_state=0, verbose=False).fit(X[:400], data.s[:400])
    print(
        "| variant | seconds | ratio | fits | EM iterations per fit (mean) "
        "| fits at the cap | FSR at T |"
    )
    print("|---|---|---|---|---|---|---|")
    base = None
    with threadpool_limits(1):
        for name in chosen:
            options = VARIANTS[name]
            sel = FSCPUSelector(
                25,
                n_iter=args.n_iter,
                objective=args.objective,
                random_state=args.seed,
                verbose=False,
                **options,
            )
            start = time.perf_counter()
            sel.fit(X, data.s)
            seconds = time.perf_counter() - start
            base = base or seconds
            capped = 1.0 - sel.em_converged_.mean()
            fsr = (sel.support_ & relevant).sum() / relevant.sum()
            print(
                f"| {name} | {seconds:.1f} | {base / seconds:.1f}x | {sel.em_iterations_.size} "
                f"| {sel.em_iterations_.mean():.1f} | {capped:.1%} | {fsr:.2f} |"
            )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
