"""weakfs's random forest (SEW-IL's engine) against scikit-learn's ``RandomForestClassifier``.

1. Speed on SEW-IL's shapes: a 200-tree forest with out-of-bag votes, fit on the training rows of
   Table-1 split 0 (true labels) restricted to as many random columns as a SEW-IL candidate
   holds; one thread against one thread in this process (BLAS limited to one thread), median of
   ``--repeats`` fits.  MNIST also with ``n_jobs=2`` against ``n_jobs=1``.
2. Equivalence over ``--seeds`` seeds: out-of-bag and test accuracy of both forests (mean ± sd,
   Mann-Whitney U p-value) and the Spearman correlation of their importances with
   scikit-learn's, next to scikit-learn's own seed-to-seed correlation.

Run::

    WEAKFS_DATA=/path/to/data python benchmarks/bench_random_forest.py
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from scipy.stats import mannwhitneyu, spearmanr
from sklearn.ensemble import RandomForestClassifier
from threadpoolctl import threadpool_limits

from weakfs._tree import RandomForest
from weakfs.experiments.sewil import load_split

# dataset -> columns of a candidate subset (about the subsets SEW-IL evaluates there); MNIST as
# SEW-IL uses it (pixels binarised, as the authors do) and with its grey levels
SHAPES = {"Protein": 8, "Isolet": 25, "MNIST (x > 0)": 28, "MNIST (grey)": 28, "PCMAC": 57}


def _data(name: str, seed: int = 0):
    X, _, y, X_test, y_test = load_split(name.split(" ")[0], seed, binarise="grey" not in name)
    cols = np.random.RandomState(0).choice(X.shape[1], SHAPES[name], replace=False)
    return X[:, cols], y, X_test[:, cols], y_test


def _fit_times(makers, X, y, repeats: int) -> list[float]:
    """Median fit time of each maker; the makers take turns, so a slow spell of this shared
    machine hits them alike."""
    times: list[list[float]] = [[] for _ in makers]
    for _ in range(repeats):
        for k, make in enumerate(makers):
            t0 = time.perf_counter()
            make().fit(X, y)
            times[k].append(time.perf_counter() - t0)
    return [float(np.median(t)) for t in times]


def bench_speed(repeats: int) -> None:
    print("| data | rows × columns | weakfs | scikit-learn | ratio |")
    print("|---|---|---|---|---|")
    for name in SHAPES:
        X, y, _, _ = _data(name)
        RandomForest(5, random_state=0).fit(X, y)  # compile outside the timing
        with threadpool_limits(1):
            t_ours, t_peer = _fit_times(
                [
                    lambda: RandomForest(200, oob_score=True, random_state=0, n_jobs=1),
                    lambda: RandomForestClassifier(200, oob_score=True, random_state=0, n_jobs=1),
                ],
                X,
                y,
                repeats,
            )
        print(
            f"| {name} | {X.shape[0]} × {X.shape[1]} | {t_ours:.3f} s | {t_peer:.3f} s | "
            f"{t_peer / t_ours:.1f}× |"
        )
    for name in ("MNIST (x > 0)", "MNIST (grey)"):
        X, y, _, _ = _data(name)
        with threadpool_limits(1):
            one, two = _fit_times(
                [
                    lambda: RandomForest(200, oob_score=True, random_state=0, n_jobs=1),
                    lambda: RandomForest(200, oob_score=True, random_state=0, n_jobs=2),
                ],
                X,
                y,
                repeats,
            )
        print(f"\n{name}: n_jobs=1 {one:.3f} s, n_jobs=2 {two:.3f} s, speed-up {one / two:.2f}×")


def bench_equivalence(seeds: int) -> None:
    print(
        "\n| data | OOB acc. weakfs | OOB acc. sklearn | p | test acc. weakfs | "
        "test acc. sklearn | p | Spearman(weakfs, sklearn) | Spearman(sklearn, sklearn) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name in ("Protein", "Isolet", "PCMAC"):
        X, y, X_test, y_test = _data(name)
        rows = {"oob": ([], []), "test": ([], [])}
        imps: tuple[list, list] = ([], [])
        for seed in range(seeds):
            with threadpool_limits(1):
                for k, forest in enumerate(
                    (
                        RandomForest(200, oob_score=True, random_state=seed, n_jobs=2),
                        RandomForestClassifier(200, oob_score=True, random_state=seed, n_jobs=2),
                    )
                ):
                    forest.fit(X, y)
                    rows["oob"][k].append(forest.oob_score_)
                    rows["test"][k].append(forest.score(X_test, y_test))
                    imps[k].append(forest.feature_importances_)
        cross = np.mean([spearmanr(a, b)[0] for a, b in zip(imps[0], imps[1])])
        own = np.mean([spearmanr(a, b)[0] for a, b in zip(imps[1][:-1], imps[1][1:])])
        cells = []
        for key in ("oob", "test"):
            a, b = np.array(rows[key][0]), np.array(rows[key][1])
            p = mannwhitneyu(a, b).pvalue
            cells += [
                f"{a.mean():.3f} ± {a.std():.3f}",
                f"{b.mean():.3f} ± {b.std():.3f}",
                f"{p:.2f}",
            ]
        print(f"| {name} | " + " | ".join(cells) + f" | {cross:.3f} | {own:.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seeds", type=int, default=20, help="0 skips the equivalence part")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"load average before the run: {load:.2f} ({os.cpu_count()} cores)\n")
    bench_speed(args.repeats)
    if args.seeds > 0:
        bench_equivalence(args.seeds)


if __name__ == "__main__":
    main()
