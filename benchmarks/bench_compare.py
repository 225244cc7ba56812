"""`compare_selectors` measured: its time on Spambase and how well the weak-label ranking, the
stability index and the automatic k agree with the truth.

Run:  python benchmarks/bench_compare.py [--skip-spambase]

1. Spambase, 10 % of the spam labeled, the default comparison (every PU selector, 5 folds,
   budget 5 minutes): wall time, and the Spearman correlation between the weak-label score and
   the hidden-truth AUC over the methods at their automatic k.
2. Synthetic PU data with 5 relevant of 30 features: stability of each selector at k = 5 (and of
   random selection), feature-selection recall, and whether each method's automatic k lies in
   the one-standard-error band of the k best against the truth.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.stats import spearmanr

from weakfs import compare_selectors
from weakfs.datasets import load, make_pu_labels
from weakfs.metrics import feature_selection_recall


def spambase() -> None:
    X, y = load("spambase")
    pu = make_pu_labels(y, positive=1, labeled_fraction=0.1, random_state=0)
    notes: list[str] = []
    start = time.perf_counter()
    board = compare_selectors(X, pu.s, y_true=pu.y_true, notes=notes)
    seconds = time.perf_counter() - start
    auto = board[board["auto_k"]]
    rho = spearmanr(auto["score"], auto["truth"]).statistic
    first = auto.loc[auto["score"].idxmax()]
    print(f"spambase: {seconds:.0f} s; " + "; ".join(notes))
    print(auto[["method", "k", "score", "truth", "stability"]].round(3).to_string(index=False))
    print(
        f"Spearman(weak-label score, truth) = {rho:.2f}; first: {first['method']} "
        f"(truth {first['truth']:.3f}, best truth {auto['truth'].max():.3f})"
    )


def synthetic() -> None:
    rng = np.random.RandomState(0)
    n, d = 1500, 30
    X = rng.normal(size=(n, d))
    y = (X[:, :5].sum(axis=1) + 0.5 * rng.normal(size=n) > 0).astype(int)
    s = y * (rng.rand(n) < 0.2)
    methods = ["semi_jmi", "mrmr", "pu_extra_trees", "pu_permutation"]
    board = compare_selectors(
        X, s, y_true=y, methods=methods, ks=[1, 2, 3, 5, 8, 12, 20, 30], budget=None
    )
    for method, g in board.groupby("method", sort=False):
        if method == "all features":
            continue
        auto = g[g["auto_k"]].iloc[0]
        best = g.loc[g["truth"].idxmax()]
        band = set(g.loc[g["truth"] >= best["truth"] - best["truth_sd"] / np.sqrt(5), "k"])
        at5 = g[g["k"] == 5].iloc[0]
        fsr = (
            feature_selection_recall([int(f[1:]) for f in at5["features"]], range(5))
            if method != "random"
            else float("nan")
        )
        print(
            f"{method:15s} stability at k=5 {at5['stability']:.2f} [{at5['stability_low']:.2f}, "
            f"{at5['stability_high']:.2f}], FSR {fsr:.2f}; automatic k {auto['k']}, best k "
            f"against the truth {best['k']}, in its 1-SE band: {auto['k'] in band}"
        )


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skip-spambase", action="store_true")
    args = ap.parse_args()
    synthetic()
    if not args.skip_spambase:
        spambase()
