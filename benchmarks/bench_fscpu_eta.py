"""FSCPU with fewer compact-GA iterations: the default learning rate against one scaled so that
``eta * n_iter`` stays the default's (the benchmark's reduced setting).

Run:  OMP_NUM_THREADS=1 python benchmarks/bench_fscpu_eta.py

Truth AUC (logistic regression on the true training labels, test rows) of FSCPU's k = 20 columns
on the training rows of a benchmark cell (seed 0, PU at 30 % of the positives labeled), at the
iterations the benchmark's size rule gives these tables.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).parent))
from bench_benchmark_settings import cell_data, truth_auc
from weakfs.pu import FSCPUSelector

CASES = [("basehock", 303), ("mnist-even", 203), ("spambase", 203)]


def main() -> None:
    with threadpool_limits(1):
        for name, n_iter in CASES:
            X, weak, y, X_test, y_test = cell_data(name, "pu-scar-0.3")
            d = X.shape[1]
            for label, eta in (
                ("default eta", None),
                ("eta * 3000 / n_iter", 3000 / (2 * d * n_iter)),
            ):
                sel = FSCPUSelector(20, n_iter=n_iter, eta=eta, n_jobs=1, random_state=0)
                sel.set_params(verbose=False).fit(X, weak)
                auc = truth_auc(np.flatnonzero(sel.get_support()), X, y, X_test, y_test)
                print(f"{name:12s} n_iter={n_iter:4d} {label:20s} truth AUC {auc:.3f}", flush=True)


if __name__ == "__main__":
    main()
