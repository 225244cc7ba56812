"""Accuracy and cost of the class-prior estimators of ``weakfs.pu.estimate_class_prior``.

PU labels are drawn under SCAR with ``make_pu_labels`` (a share of the positives labeled, 5 seeds
by default); every method estimates the prior in the single-training-set convention
(``unlabeled="all"``) and is compared with the true positive share of all rows (``pu.prior``).
Reported: mean absolute error (MAE) and mean seconds per estimate, per dataset and labeled share,
then overall.  One process; BLAS/OpenMP pools limited to one thread (the default classifier runs
single-threaded anyway).

pulearn's score-based estimators (histogram matching and SCAR-EM, with pulearn's default
logistic-regression scorer, on standardised columns) run beside them as ``pulearn-histogram``
and ``pulearn-scar-em`` when pulearn is installed (it is not a weakfs dependency).

Run:  WEAKFS_DATA=/path/to/data python benchmarks/bench_class_prior.py
      [--seeds 5] [--fractions 0.1,0.3,0.5] [--datasets spambase,...] [--methods bbe,...]
      [--quick]
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

import numpy as np
from sklearn.preprocessing import OrdinalEncoder
from threadpoolctl import threadpool_limits

from weakfs.datasets import load, make_pu_labels
from weakfs.pu import estimate_class_prior
from weakfs.pu._prior import METHODS

# benchmark name -> (weakfs dataset, positive label, what the positive class is)
CASES = {
    "spambase": ("spambase", 1, "spam"),
    "mushrooms": ("mushrooms", 1, "poisonous"),
    "ionosphere": ("ionosphere", "b", "bad"),
    "pendigits": ("pendigits", 0, "digit 0 vs rest"),
    "occupancy": ("occupancy", 1, "occupied"),
    "unsw": ("unsw_nb15_82332", 1, "attack"),
    "mnist": ("mnist_test10k", lambda y: np.asarray(y).astype(int) % 2 == 0, "even digits"),
}
# UNSW-NB15 is capped (a fixed random subset) to keep one estimate around a few seconds.
UNSW_ROWS = 20_000


def dataset(name: str, max_rows: int | None = None):
    """``(X float64, y, positive label, description)``; ``max_rows`` caps it by a fixed subset."""
    if name not in CASES:
        raise ValueError(f"unknown dataset {name!r}; known: {', '.join(CASES)}")
    source, pos, what = CASES[name]
    X, y = load(source)
    cat = [c for c in X.columns if X[c].dtype.kind not in "biuf"]
    if cat:  # UNSW's protocol / service / state strings
        X = X.copy()
        X[cat] = OrdinalEncoder().fit_transform(X[cat].astype(str))
    if name == "unsw":
        max_rows = min(max_rows or UNSW_ROWS, UNSW_ROWS)
    X, y = X.to_numpy(np.float64), np.asarray(y)
    if max_rows is not None and X.shape[0] > max_rows:
        keep = np.sort(np.random.RandomState(0).choice(X.shape[0], max_rows, replace=False))
        X, y = X[keep], y[keep]
        what += f", {max_rows} random rows"
    return X, y, pos, what


def _pulearn_methods() -> dict:
    """pulearn's prior estimators by benchmark name (empty when pulearn is not installed)."""
    try:
        import pulearn
    except ImportError:
        return {}
    return {
        "pulearn-histogram": pulearn.HistogramMatchPriorEstimator,
        "pulearn-scar-em": pulearn.ScarEMPriorEstimator,
    }


PULEARN = _pulearn_methods()


def estimate(method: str, X, s, seed: int) -> float:
    """One prior estimate (share of positives among all rows) by a weakfs or pulearn method."""
    if method in PULEARN:
        from sklearn.preprocessing import StandardScaler

        # pulearn's default scorer (a logistic regression) on standardised columns
        Xs = StandardScaler().fit_transform(X)
        return float(PULEARN[method]().estimate(Xs, s).pi)
    return estimate_class_prior(X, s, method=method, random_state=seed)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--fractions", default="0.1,0.3,0.5")
    ap.add_argument("--datasets", default=",".join(CASES))
    ap.add_argument("--methods", default=",".join([*METHODS, *PULEARN]))
    ap.add_argument("--max-rows", type=int, default=None, help="cap every dataset (random rows)")
    ap.add_argument(
        "--quick", action="store_true", help="tiny run: 2 datasets of <= 1500 rows, 1 seed, 30 %%"
    )
    args = ap.parse_args()
    if args.quick:
        args.seeds, args.fractions, args.max_rows = 1, "0.3", 1500
        args.datasets = "ionosphere,spambase"
    fractions = [float(f) for f in args.fractions.split(",")]
    methods = args.methods.split(",")
    names = args.datasets.split(",")

    err = defaultdict(list)  # (dataset, fraction, method) -> absolute errors
    secs = defaultdict(list)
    rows = []
    with threadpool_limits(limits=1):
        for name in names:
            X, y, pos, what = dataset(name, args.max_rows)
            for frac in fractions:
                truth = []
                for seed in range(args.seeds):
                    pu = make_pu_labels(y, positive=pos, labeled_fraction=frac, random_state=seed)
                    truth.append(pu.prior)
                    for m in methods:
                        t = time.perf_counter()
                        est = estimate(m, X, pu.s, seed)
                        secs[name, frac, m].append(time.perf_counter() - t)
                        err[name, frac, m].append(abs(est - pu.prior))
                rows.append((name, what, frac, X.shape, float(np.mean(truth))))
                cells = " | ".join(
                    f"{np.mean(err[name, frac, m]):.3f} ({np.mean(secs[name, frac, m]):.1f} s)"
                    for m in methods
                )
                if len(rows) == 1:
                    print(
                        "| dataset (positive class) | rows x features | labeled share of "
                        "positives | true prior | "
                        + " | ".join(f"{m} MAE (s/estimate)" for m in methods)
                        + " |"
                    )
                    print("|---|---|---|---|" + "---|" * len(methods))
                print(
                    f"| {name} ({what}) | {X.shape[0]} x {X.shape[1]} | {frac:.1f} | "
                    f"{np.mean(truth):.3f} | {cells} |",
                    flush=True,
                )

    print()
    print("| method | overall MAE | worst cell MAE | spambase @ 0.1 MAE | mean s/estimate |")
    print("|---|---|---|---|---|")
    for m in methods:
        cells = [np.mean(err[n, f, m]) for n in names for f in fractions]
        allerr = [e for n in names for f in fractions for e in err[n, f, m]]
        spam = f"{np.mean(err['spambase', 0.1, m]):.3f}" if ("spambase", 0.1, m) in err else "-"
        allsec = [t for n in names for f in fractions for t in secs[n, f, m]]
        print(
            f"| {m} | {np.mean(allerr):.3f} | {max(cells):.3f} | {spam} | {np.mean(allsec):.2f} |"
        )


if __name__ == "__main__":
    main()
