"""Accuracy, interval coverage and cost of the class-prior estimators of
``weakfs.pu.estimate_class_prior``, under SCAR and under feature-driven labelings.

Tables: the large ones of the earlier benchmark (spambase, mushrooms, pen digits, occupancy,
UNSW-NB15 capped at 20 000 rows, MNIST; ionosphere, 351 rows, is now a small table) and small ones
of 200–500 rows (a random subset per seed where the dataset is larger: spambase, mushrooms and
raisin; ionosphere, heart statlog, liver disorders and seeds whole).  PU labels come from
``make_pu_labels`` with a share of the positives labeled (10/30/50 %) and a labeling ``mechanism``:
``"scar"`` (the assumption of every estimator), ``"score"`` (the labeling probability grows with a
logistic model's score, strength 1) or ``"features"`` (it grows with the column most correlated
with the class, Bekker et al.'s propensity attributes).  Every method estimates the prior in the
single-training-set convention (``unlabeled="all"``) with its 90 % bootstrap interval
(``return_interval=True``, 100 resamples) and is compared with the true positive share of the rows.

Reported per mechanism and method: mean absolute error (MAE) and mean signed error (bias) on the
small tables, on the large ones and overall; the share of runs whose interval covers the truth,
the mean interval width, the share of intervals wider than 0.2 (the warning's rule), and mean
seconds per estimate with its interval.  Every method uses the default classifier, which follows
the table's size (a logistic regression with 10 folds under 1000 rows, damped gradient boosting
with 5 folds above); ``bbe`` is the default method.  bbe, dedpul and elkan-noto read the same
out-of-fold scores and bootstrap resamples, so they are computed in one call
(``weakfs.pu._prior._estimate_many``: what each method's own call returns, at the cost of one);
their seconds are that call's.  TIcE has no scores: its interval repeats the estimate on every
resample, too slow on the large tables, where it gets the point estimate alone
(``--tice-interval`` to compute it anyway).  An interval needs 10 labeled rows: runs with fewer
have a point estimate and no interval (counted in the MAE, not in the coverage).

One process; BLAS/OpenMP pools limited to one thread (the default classifiers run single-threaded
anyway).

Run:  WEAKFS_DATA=/path/to/data python benchmarks/bench_class_prior.py
      [--seeds 3] [--nonscar-seeds 2] [--fractions 0.1,0.3,0.5] [--mechanisms scar,score,features]
      [--large spambase,...] [--small spambase,...] [--methods bbe,dedpul,elkan-noto,tice]
      [--n-bootstrap 100] [--cells] [--quick]
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections import defaultdict

import numpy as np
from sklearn.preprocessing import OrdinalEncoder
from threadpoolctl import threadpool_limits

from weakfs.datasets import load, make_pu_labels
from weakfs.pu._prior import METHODS, MIN_ROWS_FOR_INTERVAL, WIDE_INTERVAL, _estimate_many

# benchmark name -> (weakfs dataset, positive label, what the positive class is)
CASES = {
    "spambase": ("spambase", 1, "spam"),
    "mushrooms": ("mushrooms", 1, "poisonous"),
    "ionosphere": ("ionosphere", "b", "bad"),
    "pendigits": ("pendigits", 0, "digit 0 vs rest"),
    "occupancy": ("occupancy", 1, "occupied"),
    "unsw": ("unsw_nb15_82332", 1, "attack"),
    "mnist": ("mnist_test10k", lambda y: np.asarray(y).astype(int) % 2 == 0, "even digits"),
    "heart_statlog": ("heart_statlog", 2, "heart disease"),
    "liver_bupa": ("liver_bupa", 1, "selector 1"),
    "raisin": ("raisin", "Besni", "Besni"),
    "seeds": ("seeds", 1, "Kama vs rest"),
}
LARGE = ("spambase", "mushrooms", "pendigits", "occupancy", "unsw", "mnist")
# small tables: dataset -> rows (a random subset per seed when the dataset is larger)
SMALL = {
    "spambase": 300,
    "ionosphere": 351,
    "mushrooms": 300,
    "heart_statlog": 270,
    "liver_bupa": 345,
    "raisin": 400,
    "seeds": 210,
}
# UNSW-NB15 is capped (a fixed random subset) to keep one estimate around a few seconds.
UNSW_ROWS = 20_000
SCORE_METHODS = ("bbe", "dedpul", "elkan-noto")

_loaded: dict = {}


def dataset(name: str, max_rows: int | None = None, seed: int = 0):
    """``(X float64, y, positive label, description)``; ``max_rows`` caps it by a random subset
    (drawn with ``seed``; UNSW's cap is one fixed subset)."""
    if name not in CASES:
        raise ValueError(f"unknown dataset {name!r}; known: {', '.join(CASES)}")
    source, pos, what = CASES[name]
    if source not in _loaded:
        X, y = load(source)
        cat = [c for c in X.columns if X[c].dtype.kind not in "biuf"]
        if cat:  # UNSW's protocol / service / state strings
            X = X.copy()
            X[cat] = OrdinalEncoder().fit_transform(X[cat].astype(str))
        X, y = X.to_numpy(np.float64), np.asarray(y)
        if name == "unsw":
            keep = np.sort(np.random.RandomState(0).choice(X.shape[0], UNSW_ROWS, replace=False))
            X, y = X[keep], y[keep]
            what += f", {UNSW_ROWS} random rows"
        _loaded[source] = (X, y, what)
    X, y, what = _loaded[source]
    if max_rows is not None and X.shape[0] > max_rows:
        keep = np.sort(np.random.RandomState(seed).choice(X.shape[0], max_rows, replace=False))
        X, y = X[keep], y[keep]
        what += f", {max_rows} random rows"
    return X, y, pos, what


def run_one(X, s, methods, seed, n_bootstrap, interval: dict) -> dict:
    """``{method: (estimate, low, high, seconds)}`` (low/high None without an interval)."""
    out = {}
    n_l = int(s.sum())
    enough = min(n_l, s.shape[0] - n_l) >= MIN_ROWS_FOR_INTERVAL
    groups = [[m for m in methods if m in SCORE_METHODS], [m for m in methods if m == "tice"]]
    for group in groups:
        if not group:
            continue
        with_interval = enough and interval[group[0]]
        t = time.perf_counter()
        got = _estimate_many(
            X,
            s,
            group,
            random_state=seed,
            return_interval=with_interval,
            n_bootstrap=n_bootstrap,
        )
        seconds = time.perf_counter() - t
        for m, est in got.items():
            if with_interval:
                out[m] = (est.prior, est.low, est.high, seconds)
            else:
                out[m] = (float(est), None, None, seconds)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3, help="seeds of the SCAR runs")
    ap.add_argument("--nonscar-seeds", type=int, default=2, help="seeds of the other mechanisms")
    ap.add_argument("--fractions", default="0.1,0.3,0.5")
    ap.add_argument("--mechanisms", default="scar,score,features")
    ap.add_argument("--large", default=",".join(LARGE))
    ap.add_argument("--small", default=",".join(SMALL))
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--n-bootstrap", type=int, default=100)
    ap.add_argument("--tice-interval", action="store_true", help="TIcE intervals on large tables")
    ap.add_argument("--cells", action="store_true", help="print every (table, share) cell")
    ap.add_argument(
        "--quick", action="store_true", help="tiny run: 2 small tables, 1 seed, 30 %%, SCAR"
    )
    args = ap.parse_args()
    if args.quick:
        args.seeds, args.nonscar_seeds, args.fractions = 1, 0, "0.3"
        args.mechanisms, args.large, args.small = "scar", "", "ionosphere,seeds"
    fractions = [float(f) for f in args.fractions.split(",")]
    mechanisms = [m for m in args.mechanisms.split(",") if m]
    methods = [m for m in args.methods.split(",") if m]
    tables = [(n, "small", SMALL[n]) for n in args.small.split(",") if n] + [
        (n, "large", None) for n in args.large.split(",") if n
    ]

    # (mechanism, size, table, fraction, method) -> list of (error, low, high, truth, seconds)
    runs = defaultdict(list)
    start = time.perf_counter()
    with threadpool_limits(limits=1), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the wide-interval warnings: counted below instead
        for mechanism in mechanisms:
            n_seeds = args.seeds if mechanism == "scar" else args.nonscar_seeds
            for name, size, rows in tables:
                interval = {
                    m: size == "small" or m != "tice" or args.tice_interval for m in methods
                }
                for frac in fractions:
                    for seed in range(n_seeds):
                        X, y, pos, what = dataset(name, rows, seed)
                        pu = make_pu_labels(
                            y,
                            positive=pos,
                            labeled_fraction=frac,
                            mechanism=mechanism,
                            X=None if mechanism == "scar" else X,
                            random_state=seed,
                        )
                        for m, (est, lo, hi, sec) in run_one(
                            X, pu.s, methods, seed, args.n_bootstrap, interval
                        ).items():
                            runs[mechanism, size, name, frac, m].append(
                                (est - pu.prior, lo, hi, pu.prior, sec)
                            )
                    if args.cells:
                        cells = " | ".join(
                            _cell(runs[mechanism, size, name, frac, m]) for m in methods
                        )
                        print(
                            f"| {mechanism} | {name} ({what}) | {X.shape[0]} x {X.shape[1]} | "
                            f"{frac:.1f} | {pu.prior:.3f} | {cells} |",
                            flush=True,
                        )
                print(f"# {mechanism} {name}: {time.perf_counter() - start:.0f} s", flush=True)
    print()
    print(f"Total {time.perf_counter() - start:.0f} s.")
    print()
    report(runs, mechanisms, methods)


def _cell(rows) -> str:
    err = np.mean([abs(r[0]) for r in rows])
    cov = [r[1] <= r[3] <= r[2] for r in rows if r[1] is not None]
    c = f", cov {np.mean(cov):.2f}" if cov else ""
    return f"{err:.3f}{c}"


def _summary(rows) -> dict:
    """MAE, bias, coverage, width, share of wide intervals, seconds and counts of some runs."""
    if not rows:
        return {}
    err = np.array([r[0] for r in rows])
    with_iv = [r for r in rows if r[1] is not None]
    out = {
        "mae": np.mean(np.abs(err)),
        "bias": np.mean(err),
        "secs": np.mean([r[4] for r in rows]),
        "runs": len(rows),
        "intervals": len(with_iv),
    }
    if with_iv:
        out["cov"] = np.mean([r[1] <= r[3] <= r[2] for r in with_iv])
        out["width"] = np.mean([r[2] - r[1] for r in with_iv])
        out["wide"] = np.mean([r[2] - r[1] > WIDE_INTERVAL for r in with_iv])
    return out


def _fmt(summary: dict, key: str, fmt: str = "{:.3f}") -> str:
    return fmt.format(summary[key]) if key in summary else "–"


def report(runs, mechanisms, methods) -> None:
    """One markdown table: every labeling × method, small / large / overall."""
    print(
        "| labeling | method | MAE small | MAE large | MAE overall | bias small | bias large | "
        "coverage small | coverage large | coverage overall (intervals) | mean width small | "
        "wide small | wide large | s small | s large |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for mechanism in mechanisms:
        for m in methods:

            def rows(size, m=m, mechanism=mechanism):
                return [
                    r
                    for key, v in runs.items()
                    if key[0] == mechanism and key[1] == size and key[4] == m
                    for r in v
                ]

            small, large = _summary(rows("small")), _summary(rows("large"))
            both = _summary(rows("small") + rows("large"))
            if not both:
                continue
            label = "**bbe (default)**" if m == "bbe" else m
            print(
                f"| {mechanism} | {label} | {_fmt(small, 'mae')} | {_fmt(large, 'mae')} | "
                f"{_fmt(both, 'mae')} | {_fmt(small, 'bias', '{:+.3f}')} | "
                f"{_fmt(large, 'bias', '{:+.3f}')} | {_fmt(small, 'cov', '{:.2f}')} | "
                f"{_fmt(large, 'cov', '{:.2f}')} | {_fmt(both, 'cov', '{:.2f}')} "
                f"({both['intervals']} of {both['runs']}) | {_fmt(small, 'width', '{:.2f}')} | "
                f"{_fmt(small, 'wide', '{:.2f}')} | {_fmt(large, 'wide', '{:.2f}')} | "
                f"{_fmt(small, 'secs', '{:.1f}')} | {_fmt(large, 'secs', '{:.1f}')} |"
            )


if __name__ == "__main__":
    main()
