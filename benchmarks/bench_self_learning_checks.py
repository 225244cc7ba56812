"""Self-learning's rounds without the forest's input checks.

SEW-IL's self-learning (:func:`weakfs.semi_supervised.self_learn`) refits weakfs's forest and
predicts the rows left every round.  Through the forest's public ``fit`` and ``predict_proba``
each round re-validated ``X`` and ``y`` (dtype, finiteness, target type, classes, weights); the
loop now checks ``X`` once and calls them with ``check_input=False`` (as scikit-learn's trees
allow).  This times the loop both ways on the same data, in the same process, and checks that
the labels, rounds and forests are the same bit for bit.  The "checked" way wraps the forest
so that ``self_learn`` sees another estimator and takes the public path.

Run::

    python benchmarks/bench_self_learning_checks.py --dataset spambase --repeats 5
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from weakfs.datasets import load
from weakfs.semi_supervised import make_forest, self_learn


class PublicPath:
    """weakfs's forest behind its public, checked ``fit`` and ``predict_proba``."""

    def __init__(self, forest):
        self.forest = forest

    def fit(self, X, y, sample_weight=None):
        self.forest.fit(X, y, sample_weight=sample_weight)
        return self

    def predict_proba(self, X):
        return self.forest.predict_proba(X)

    @property
    def classes_(self):
        return self.forest.classes_


def run(X, y_semi, n_estimators: int, checked: bool) -> tuple[float, dict]:
    def make():
        forest = make_forest("weakfs", n_estimators, 0, 1)
        return PublicPath(forest) if checked else forest

    start = time.perf_counter()
    out = self_learn(X, y_semi, make_estimator=make)
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="spambase")
    parser.add_argument("--labeled", type=float, default=0.05, help="share of labeled rows")
    parser.add_argument("--n-estimators", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    X, y = load(args.dataset)
    X = np.asarray(X, dtype=np.float64)
    codes = np.unique(np.asarray(y), return_inverse=True)[1]
    rng = np.random.RandomState(0)
    y_semi = np.where(rng.rand(codes.size) < args.labeled, codes, -1)
    run(X, y_semi, args.n_estimators, checked=False)  # compile the kernels first
    times = {True: [], False: []}
    for _ in range(args.repeats):
        for checked in (True, False):  # interleaved: the machine's load hits both alike
            seconds, out = run(X, y_semi, args.n_estimators, checked)
            times[checked].append(seconds)
            if checked:
                reference = out
            else:
                assert np.array_equal(out["y_codes"], reference["y_codes"])
                assert out["n_iter"] == reference["n_iter"]
                assert np.array_equal(
                    out["estimator"].feature_importances_,
                    reference["estimator"].forest.feature_importances_,
                )
    before, after = np.median(times[True]), np.median(times[False])
    print(
        f"{args.dataset} {X.shape[0]} x {X.shape[1]}, {args.labeled:.0%} labeled, "
        f"{args.n_estimators} trees, {reference['n_iter']} rounds: checked every round "
        f"{before:.3f} s, checked once {after:.3f} s (median of {args.repeats}); "
        f"ratio {before / after:.2f}; the same labels and forests"
    )


if __name__ == "__main__":
    main()
