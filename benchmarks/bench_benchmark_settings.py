"""The benchmark's fixed settings measured: each proposed method's fit time at the setting the
benchmark gives a table (``method_settings``), on one core, and the truth AUC it loses against
its default setting where the two differ.

Run:  OMP_NUM_THREADS=1 python benchmarks/bench_benchmark_settings.py [--datasets a,b] [--quality]

1. Time: one fit of FSCPU, FSCPU-MI and GKF-PUAL at k = 100 (their costliest fixed k, or the
   largest below the column count), PU Extra Trees, and SEW-IL, on the training rows of a
   benchmark cell (seed 0, pu-scar-0.3 for the PU methods, semi-5pc for SEW-IL), the columns
   screened to 2,000 per fit as ``compare_selectors`` does.  The benchmark asks for at most 60 s.
2. ``--quality``: where the benchmark's setting is below the default (FSCPU's iterations, SEW-IL's
   generations), the truth AUC (logistic regression on the true training labels, test rows) of
   the selection at each setting, per dataset, and the median loss.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.metrics import roc_auc_score
from threadpoolctl import threadpool_limits

from weakfs._scores import feature_order
from weakfs.compare import METHODS
from weakfs.compare._folds import SCREEN_COLUMNS, screen_columns
from weakfs.compare._methods import settings_at
from weakfs.experiments.benchmark._cells import cell_split
from weakfs.experiments.benchmark._protocol import (
    DATASETS,
    FIXED_KS,
    method_settings,
)
from weakfs.feature_selection import default_model

PU_METHODS = ("fscpu", "fscpu_mi", "gkf_pual", "pu_extra_trees")


def cell_data(name: str, regime: str, seed: int = 0):
    """The training and test rows of a benchmark cell, its weak labels, screened columns."""
    X, y, _, tr, te, weak = cell_split(name, regime, seed)
    if X.shape[1] > SCREEN_COLUMNS:
        X = X[:, screen_columns(X[tr], weak, SCREEN_COLUMNS)]
    return X[tr], weak, y[tr], X[te], y[te]


def fit_selection(method: str, k: int, settings: dict, X, weak, prior: float | None):
    """``(selected columns, seconds)`` of one fit."""
    spec = METHODS[method]
    est = spec.build(k, settings, prior, 0)
    start = time.perf_counter()
    est.fit(X, weak)
    seconds = time.perf_counter() - start
    if spec.ranker:
        return feature_order(est)[:k], seconds
    return np.flatnonzero(est.get_support()), seconds


def truth_auc(cols, X_tr, y_tr, X_te, y_te) -> float:
    model = default_model().fit(X_tr[:, cols], y_tr)
    return float(roc_auc_score(y_te, model.predict_proba(X_te[:, cols])[:, 1]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--methods", default=",".join((*PU_METHODS, "sewil")))
    parser.add_argument("--quality", action="store_true")
    parser.add_argument("--k", type=int, default=None, help="k of the timed fit (default: largest)")
    args = parser.parse_args()
    losses: dict[str, list[float]] = {}
    with threadpool_limits(1):
        for name in args.datasets.split(","):
            for method in args.methods.split(","):
                regime = "semi-5pc" if method == "sewil" else "pu-scar-0.3"
                X, weak, y_tr, X_te, y_te = cell_data(name, regime)
                n, d = X.shape
                k = max(k for k in FIXED_KS if k < d) if d > 5 else max(1, d - 1)
                k = min(k, args.k) if args.k else k
                at = method_settings(n, d, [k, 20]).get(method, {})
                fixed = {**METHODS[method].settings, **settings_at(at, k)}
                prior = float(np.mean(y_tr)) if method in PU_METHODS else None
                _, seconds = fit_selection(method, k, fixed, X, weak, prior)
                line = f"{name:18s} {n:5d}x{d:<5d} {method:15s} k={k:<3d} {fixed}: {seconds:7.1f} s"
                # quality at k = 20 (the timed k for SEW-IL, or on a table with fewer columns)
                kq = k if method == "sewil" else min(20, k)
                if args.quality and settings_at(at, kq) != {
                    key: METHODS[method].settings[key] for key in at
                }:
                    default_cols, default_s = fit_selection(
                        method, kq, METHODS[method].settings, X, weak, prior
                    )
                    fast = {**METHODS[method].settings, **settings_at(at, kq)}
                    fast_cols, _ = fit_selection(method, kq, fast, X, weak, prior)
                    a = truth_auc(default_cols, X, y_tr, X_te, y_te)
                    b = truth_auc(fast_cols, X, y_tr, X_te, y_te)
                    losses.setdefault(method, []).append(a - b)
                    line += (
                        f" | k={kq} truth AUC default {a:.3f} ({default_s:.0f} s), "
                        f"benchmark {b:.3f}"
                    )
                print(line, flush=True)
    for method, loss in losses.items():
        print(
            f"{method}: median truth-AUC loss {np.median(loss):+.4f} over {len(loss)} datasets "
            f"(max {np.max(loss):+.4f})"
        )


if __name__ == "__main__":
    main()
