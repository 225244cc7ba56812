"""Where does the board's paired test leave all features, fold by fold?

The board (``compare_selectors``) keeps all features unless its paired test on the folds finds
them worse than the best candidate.  This runs a reduced board (semi-JMI and PU Extra Trees, the
rankers that led the benchmark's text-table boards, at the benchmark's ks and fixed settings,
no budget) on a benchmark cell's training rows, and prints, for each candidate against all
features, the fold-by-fold differences of

- ``raw``: the AUC of labeled against unlabeled rows (what the board's PU score is an affine
  function of, fold by fold, so its ties are the same);
- ``truth``: the board's own model (trained on the weak labels) scored on the true labels of the
  fold's test rows, i.e. what the weak-label score is meant to estimate;

with the board's corrected t statistic (Nadeau & Bengio, one-sided 5 %), and ``judge``: the
benchmark's truth of the candidate's features (a logistic regression trained on the true
labels, scored on the cell's test rows).  Also :func:`weakfs.pu.check_scar` on the training
rows.  A raw gain that the truth column does not show is a gain in finding the *labeled*
positives, not the positives.

Run:  PYTHONWARNINGS=ignore OMP_NUM_THREADS=1 WEAKFS_DATA=/path/to/data \\
          python benchmarks/bench_board_folds.py dexter:pu-biased-0.3:0 dexter:pu-scar-0.3:0 ...
"""

from __future__ import annotations

import sys
import time

import numpy as np
import pandas as pd
from scipy import stats
from threadpoolctl import threadpool_limits

from weakfs.compare import compare_selectors
from weakfs.experiments.benchmark._cells import _Judges, board_ks, cell_split
from weakfs.experiments.benchmark._protocol import method_settings
from weakfs.pu import check_scar

METHODS = ["semi_jmi", "pu_extra_trees"]


def paired(diff: np.ndarray, test_share: float) -> tuple[float, float]:
    """``(corrected t, one-sided 5 % critical value)`` of fold differences (the board's test)."""
    n = diff.size
    se = np.sqrt((1.0 / n + test_share / (1.0 - test_share)) * diff.var(ddof=1))
    return float(diff.mean() / se), float(stats.t.ppf(0.95, n - 1))


def run(name: str, regime: str, seed: int) -> None:
    X, y, _, tr, te, weak = cell_split(name, regime, seed)
    judge = _Judges(X[tr], y[tr], X[te], y[te], seed)
    ks = board_ks(X.shape[1])
    settings = method_settings(len(tr), X.shape[1], ks)
    start = time.time()
    board = compare_selectors(
        X[tr], weak, methods=METHODS, ks=ks, budget=None, n_random=1, random_state=seed,
        settings={m: settings[m] for m in METHODS if m in settings}, y_true=y[tr],
    )  # fmt: skip
    seconds = time.time() - start
    scar = check_scar(X[tr], weak, random_state=seed)
    folds = pd.DataFrame(board.attrs["fold_scores"])
    test_share = 1.0 / (board.attrs["folds"] // board.attrs["repeats"])
    is_candidate = (board.k_rule == "auto") | (board.method == "all features")
    candidates = board[(board.method != "random") & is_candidate]
    index = {f"x{j}": j for j in range(X.shape[1])}

    def fold_values(method, k, column):
        f = folds[(folds.method == method) & (folds.k == k)].sort_values("fold")
        return f[column].to_numpy(dtype=float)

    everything = candidates[candidates.method == "all features"].iloc[0]
    print(
        f"== {name} {regime} seed {seed}: {len(tr)} rows, {int(weak.sum())} labeled, "
        f"{board.attrs['folds']} folds, prior {board.attrs['prior']:.3f}; check_scar p = "
        f"{scar.p_value:.3f} (AUC {scar.auc:.3f}); {seconds:.0f} s"
    )
    for _, row in candidates.iterrows():
        cols = np.array(sorted(index[f] for f in row.features))
        line = (
            f"  {row.method:15s} k={row.k:<5d} score {row.score:6.3f} raw {row.raw_score:.3f} "
            f"truth {row.truth:.3f} judge {judge(cols)[0]:.3f} "
            f"{'tied' if row.tied else '    '} {'REC' if row.recommended else ''}"
        )
        if row.method != "all features":
            for column in ("raw_score", "truth"):
                diff = fold_values("all features", everything.k, column) - fold_values(
                    row.method, row.k, column
                )
                t, critical = paired(diff, test_share)
                line += (
                    f" | all−this {column.split('_')[0]} {diff.mean():+.3f} (t {t:+.2f}, "
                    f"all better on {int(np.sum(diff > 0))}/{diff.size})"
                )
            line += f" | t critical −{critical:.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    with threadpool_limits(1):
        for arg in sys.argv[1:]:
            dataset, regime, seed = [*arg.split(":"), "0"][:3]
            run(dataset, regime, int(seed))
