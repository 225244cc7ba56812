"""PUF-score cross-validation and the grid-then-greedy tuning of the GKF-PUAL paper (§4.3).

1. Grid search: every combination of ``param_grid`` scored by the mean PUF-score
   (``recall² / P[f(x) = 1]``, Lee & Liu 2003) over ``cv`` folds (paper: 4).
2. Greedy refinement from the best grid point: each round tries, for every parameter of
   ``greedy_params`` in turn, ``value × (1 + step)`` and ``value × (1 − step)`` (paper: ±10 %)
   with the others unchanged; the best of these neighbours is accepted if it beats the current
   score; rounds repeat until no neighbour improves (or ``max_greedy_rounds``).
3. The best parameters are refitted on all the data.
"""

from __future__ import annotations

import itertools
import numbers
import time
from collections.abc import Mapping, Sequence

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, MetaEstimatorMixin, clone
from sklearn.model_selection import StratifiedKFold
from sklearn.utils.validation import check_is_fitted

from weakfs._labels import check_pu_labels
from weakfs._validation import progress, spawn_seeds
from weakfs.metrics import puf_score

__all__ = ["PUGridGreedySearch", "make_puf_scorer", "puf_scorer"]


def puf_scorer(estimator, X, y) -> float:
    """Scorer ``(estimator, X, y) -> PUF-score`` usable as ``scoring=`` in scikit-learn searches.

    ``y`` holds PU labels; recall is measured on the labeled positives of ``X`` and
    ``P[f(x) = 1]`` on its unlabeled rows (the case-control estimate the paper uses).
    """
    return puf_score(y, estimator.predict(X))


def make_puf_scorer():
    """Return :func:`puf_scorer` (for symmetry with ``sklearn.metrics.make_scorer``)."""
    return puf_scorer


def _fit_score(estimator, params, X, s, train, test, scoring):
    est = clone(estimator).set_params(**params)
    t0 = time.perf_counter()
    try:
        est.fit(X[train], s[train])
        score = float(scoring(est, X[test], s[test]))
    except (ValueError, np.linalg.LinAlgError):
        score = float("nan")
    return score, time.perf_counter() - t0


def _key(params: Mapping) -> tuple:
    return tuple(
        (k, round(float(v), 12) if isinstance(v, numbers.Real) else v)
        for k, v in sorted(params.items())
    )


class PUGridGreedySearch(MetaEstimatorMixin, BaseEstimator):
    """Tune a PU estimator by PUF-score CV on a grid, then greedy ±``step`` moves (GKF-PUAL §4.3).

    Parameters
    ----------
    estimator : estimator
        A PU classifier (``fit(X, s)`` with 1 = labeled, 0 = unlabeled; ``predict`` -> 1/0).
    param_grid : dict of str -> list
        Grid of the first stage (paper: ``λ1, λ2, σ ∈ {1e-4, …, 1e4}``, ``C2 ∈ {0.5, 0.3, 0.1,
        0.05, 0.01}``).
    greedy_params : list of str, optional
        Parameters refined by the greedy stage (default: every numeric grid parameter with more
        than one value).  ``[]`` skips the stage.
    step : float, default=0.1
        Relative move of the greedy stage (paper: 10 %).
    max_greedy_rounds : int or None, default=None
        Cap on greedy rounds (None: until no improvement, as the paper).
    cv : int, default=4
        Stratified folds on the PU labels (paper: 4).
    scoring : callable, default=puf_scorer
        ``scoring(estimator, X, s) -> float``; higher is better.
    refit : bool, default=True
        Refit the best parameters on all the data (``best_estimator_``).
    n_jobs : int, optional
        Parallel fits (joblib) within each stage.
    random_state : int, RandomState or None
        Seeds the fold shuffling (results do not depend on ``n_jobs``).
    verbose : bool, default=False
        tqdm progress over the grid.

    Attributes
    ----------
    best_params_, best_score_ : dict, float
    best_estimator_ : estimator
    cv_results_ : list of dict
        Every evaluated parameter set with its mean score, fold scores, stage and fit seconds.
    greedy_path_ : list of dict
        Accepted greedy moves (params and score).
    n_evaluations_ : int
        Number of distinct parameter sets evaluated (each costs ``cv`` fits).
    tuning_seconds_, refit_seconds_ : float
        Wall time of the search (both stages) and of the final refit, reported apart.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.model_selection import PUGridGreedySearch
    >>> from weakfs.pu import GLLCClassifier
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=(120, 3))
    >>> s = ((X[:, 0] > 0) & (rng.uniform(size=120) < 0.5)).astype(int)
    >>> search = PUGridGreedySearch(GLLCClassifier(kernel="linear"),
    ...                             {"C2": [0.1, 0.01], "lam": [0.1, 1.0]},
    ...                             max_greedy_rounds=2, random_state=0).fit(X, s)
    >>> sorted(search.best_params_)
    ['C2', 'lam']
    """

    def __init__(
        self,
        estimator,
        param_grid: Mapping[str, Sequence],
        *,
        greedy_params: Sequence[str] | None = None,
        step: float = 0.1,
        max_greedy_rounds: int | None = None,
        cv: int = 4,
        scoring=puf_scorer,
        refit: bool = True,
        n_jobs: int | None = None,
        random_state=None,
        verbose: bool = False,
    ):
        self.estimator = estimator
        self.param_grid = param_grid
        self.greedy_params = greedy_params
        self.step = step
        self.max_greedy_rounds = max_greedy_rounds
        self.cv = cv
        self.scoring = scoring
        self.refit = refit
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    def _evaluate(self, candidates: list[dict], stage: str) -> list[float]:
        todo = [c for c in candidates if _key(c) not in self._cache]
        tasks = [(c, tr, te) for c in todo for tr, te in self._folds]
        out = Parallel(n_jobs=self.n_jobs)(
            delayed(_fit_score)(self.estimator, c, self._X, self._s, tr, te, self.scoring)
            for c, tr, te in progress(
                tasks, enabled=bool(self.verbose), total=len(tasks), desc=stage
            )
        )
        k = len(self._folds)
        for i, c in enumerate(todo):
            chunk = out[i * k : (i + 1) * k]
            scores = np.array([sc for sc, _ in chunk])
            mean = float(np.mean(scores)) if np.all(np.isfinite(scores)) else float("-inf")
            self._cache[_key(c)] = mean
            self.cv_results_.append(
                {
                    "params": dict(c),
                    "mean_score": mean,
                    "fold_scores": scores.tolist(),
                    "stage": stage,
                    "fit_seconds": float(sum(t for _, t in chunk)),
                }
            )
        return [self._cache[_key(c)] for c in candidates]

    def fit(self, X, y):
        """Run the search on PU data and refit the best estimator."""
        X = np.asarray(X, dtype=float) if not hasattr(X, "iloc") else X.to_numpy(dtype=float)
        s = check_pu_labels(y)
        if not self.param_grid:
            raise ValueError("param_grid is empty: give at least one parameter to tune")
        if s.sum() < self.cv or (s == 0).sum() < self.cv:
            raise ValueError(
                f"{self.cv}-fold CV needs at least {self.cv} labeled and {self.cv} unlabeled rows; "
                f"got {int(s.sum())} labeled and {int((s == 0).sum())} unlabeled"
            )
        seed = int(spawn_seeds(self.random_state, 1)[0])
        self._folds = list(StratifiedKFold(self.cv, shuffle=True, random_state=seed).split(X, s))
        self._X, self._s = X, s
        self._cache: dict = {}
        self.cv_results_: list[dict] = []
        t0 = time.perf_counter()
        names = sorted(self.param_grid)
        grid = [
            dict(zip(names, vals))
            for vals in itertools.product(*(self.param_grid[n] for n in names))
        ]
        scores = self._evaluate(grid, "grid")
        best_i = int(np.argmax(scores))
        best, best_score = dict(grid[best_i]), scores[best_i]
        greedy = self.greedy_params
        if greedy is None:
            greedy = [
                n
                for n in names
                if len(self.param_grid[n]) > 1
                and all(isinstance(v, numbers.Real) for v in self.param_grid[n])
            ]
        self.greedy_path_ = [{"params": dict(best), "score": best_score, "round": 0}]
        rounds = 0
        while greedy and (self.max_greedy_rounds is None or rounds < self.max_greedy_rounds):
            rounds += 1
            neigh = []
            for name in greedy:
                for factor in (1.0 + self.step, 1.0 - self.step):
                    cand = dict(best)
                    cand[name] = best[name] * factor
                    neigh.append(cand)
            nscores = self._evaluate(neigh, f"greedy {rounds}")
            j = int(np.argmax(nscores))
            if not nscores[j] > best_score:
                break
            best, best_score = neigh[j], nscores[j]
            self.greedy_path_.append({"params": dict(best), "score": best_score, "round": rounds})
        self.greedy_rounds_ = rounds
        self.tuning_seconds_ = time.perf_counter() - t0
        self.best_params_ = best
        self.best_score_ = best_score
        self.n_evaluations_ = len(self._cache)
        self.refit_seconds_ = 0.0
        if self.refit:
            t1 = time.perf_counter()
            self.best_estimator_ = clone(self.estimator).set_params(**best).fit(X, s)
            self.refit_seconds_ = time.perf_counter() - t1
        del self._X, self._s, self._folds, self._cache
        return self

    def predict(self, X):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict(X)

    def decision_function(self, X):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.decision_function(X)
