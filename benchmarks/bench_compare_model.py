"""Does the board's downstream model handicap all features on PU tables?

``compare_selectors`` scored every selection with a standardised logistic regression at
scikit-learn's default C = 1, fitted on the weak labels of a fold.  On a wide table that model can
fit the labeling itself (which of the positives happen to be labeled) and score all features
low, while the same columns are the best set when a model is trained on the true labels.  This
runs the board (semi-JMI, mRMR, PU Extra Trees and the references) on a benchmark cell's training
rows twice: with that model (``default_model()``, C = 1), and with the board's default on PU
labels since, the logistic regression's C chosen by an inner 3-fold CV on the weak labels (AUC of
labeled against unlabeled rows: no true label read), and judges each row's features as the
benchmark does (a logistic regression on the true labels of the cell's test rows: ``judge``).
``truth`` is the board's own view: its model, trained on the weak labels, scored against the true
labels of the folds' test rows.

Run:  PYTHONWARNINGS=ignore OMP_NUM_THREADS=1 WEAKFS_DATA=/path/to/data \\
          python benchmarks/bench_compare_model.py pcmac:pu-scar-0.3 gina:pu-scar-0.3 ...
"""

from __future__ import annotations

import sys
import time

import numpy as np
from threadpoolctl import threadpool_limits

from weakfs.compare import compare_selectors
from weakfs.experiments.benchmark._cells import _Judges, cell_split
from weakfs.feature_selection import default_model


def run(name: str, regime: str, seed: int = 0) -> None:
    X, y, _, tr, te, weak = cell_split(name, regime, seed)
    judge = _Judges(X[tr], y[tr], X[te], y[te], seed)
    methods = ["semi_jmi", "mrmr", "pu_extra_trees"]
    ks = [k for k in (5, 10, 20, 50, 100) if k < X.shape[1]]
    models = (("C = 1", default_model()), ("default: C by inner CV on the weak labels", None))
    for label, model in models:
        start = time.time()
        b = compare_selectors(
            X[tr], weak, methods=methods, ks=ks, model=model, budget=None, n_random=2,
            random_state=seed, y_true=y[tr],
        )  # fmt: skip
        b = b[(b.method != "random") & ((b.k_rule == "auto") | (b.method == "all features"))]
        index = {f"x{j}": j for j in range(X.shape[1])}
        b["judge"] = [judge(np.array(sorted(index[f] for f in fs)))[0] for fs in b.features]
        print(f"== {name} {regime} {label} ({time.time() - start:.0f} s)")
        columns = ["method", "k", "score", "score_low", "score_high", "truth", "judge"]
        print(b[[*columns, "tied", "recommended"]].round(3).to_string(index=False), flush=True)


if __name__ == "__main__":
    with threadpool_limits(1):
        for arg in sys.argv[1:]:
            dataset, regime = arg.split(":")
            run(dataset, regime)
