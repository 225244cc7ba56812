"""PU permutation importance: weakfs's loop against scikit-learn's ``permutation_importance``.

``PUPermutationSelector`` ranks columns by the drop of the prior-corrected ROC AUC when each
column of the held-out rows is shuffled.  Its loop scales the held-out rows once (the pipeline's
leading ``StandardScaler`` works column by column), shuffles one copy in place and checks the
fold's labels once; the shuffles and the arithmetic are scikit-learn's.  This script fits the
selector as the benchmark does (standardised logistic regression, 3 shuffles per column, the
known prior) on the training rows of one benchmark cell per table, once through scikit-learn's
function and once through the loop, checks that the importances are equal bit for bit, and
prints the seconds of each and their ratio.

Run:  python benchmarks/bench_permutation.py [--datasets colon,glioma,...] [--regime R]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

import weakfs.feature_selection._permutation as permutation_module
from weakfs._markdown import markdown_table
from weakfs.experiments.benchmark._cells import cell_split
from weakfs.feature_selection import PUPermutationSelector, default_model

DATASETS = "colon,glioma,madelon,relathe,dexter,basehock"


class _PlainScorer:
    """The PU scorer behind a plain callable: the selector then calls scikit-learn's function."""

    def __init__(self, inner):
        self.inner = inner

    def __call__(self, estimator, X, y) -> float:
        return self.inner(estimator, X, y)


def _fit(X, s, prior, *, through_scikit_learn: bool) -> tuple[np.ndarray, np.ndarray, float]:
    scorer_of = permutation_module.pu_scorer
    if through_scikit_learn:
        permutation_module.pu_scorer = lambda metric, p: _PlainScorer(scorer_of(metric, p))
    try:
        start = time.perf_counter()
        selector = PUPermutationSelector(
            default_model(), 10, prior=prior, n_repeats=3, random_state=0
        ).fit(X, s)
        return selector.scores_, selector.scores_std_, time.perf_counter() - start
    finally:
        permutation_module.pu_scorer = scorer_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default=DATASETS)
    parser.add_argument("--regime", default="pu-scar-0.5")
    args = parser.parse_args()
    rows = []
    for dataset in args.datasets.split(","):
        X, y, _, train, _, weak = cell_split(dataset, args.regime, 0)
        s, prior = np.asarray(weak), float(y[train].mean())
        old_mean, old_sd, old_seconds = _fit(X[train], s, prior, through_scikit_learn=True)
        new_mean, new_sd, new_seconds = _fit(X[train], s, prior, through_scikit_learn=False)
        equal = np.array_equal(old_mean, new_mean) and np.array_equal(old_sd, new_sd)
        rows.append(
            [
                dataset,
                f"{X[train].shape[0]} x {X.shape[1]}",
                "yes" if equal else "NO",
                f"{old_seconds:.1f}",
                f"{new_seconds:.1f}",
                f"{old_seconds / new_seconds:.1f}",
            ]
        )
        print(rows[-1], flush=True)
    header = ["table", "training rows x columns", "equal", "scikit-learn s", "weakfs s", "ratio"]
    print(markdown_table(pd.DataFrame(rows, columns=header)))


if __name__ == "__main__":
    main()
