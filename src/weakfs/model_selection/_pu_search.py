"""PUF-score cross-validation and the grid-then-greedy tuning of the GKF-PUAL paper (§4.3).

1. Grid search: every combination of ``param_grid`` scored by the mean PUF-score
   (``recall² / P[f(x) = 1]``, Lee & Liu 2003) over ``cv`` folds (paper: 4).
2. Greedy refinement from the best grid point: each round tries, for every parameter of
   ``greedy_params`` in turn, ``value × (1 + step)`` and ``value × (1 − step)`` (paper: ±10 %)
   with the others unchanged; the best of these neighbours is accepted if it beats the current
   score; rounds repeat until no neighbour improves (or ``max_greedy_rounds``).
3. The best parameters are refitted on all the data.

Optionally (``selection={"lambda1": "1se"}``) step 3 refits, instead of the best parameters, the
evaluated parameter set with the largest value of one parameter whose mean score is within one
standard error of the best: the one-standard-error rule (Breiman, Friedman, Olshen & Stone,
*Classification and Regression Trees*, 1984; Hastie, Tibshirani & Friedman, *The Elements of
Statistical Learning*, 2nd ed. 2009, §7.10), over every point of the grid and greedy stages, as
caret's ``oneSE`` does over its tuning grid.
"""

from __future__ import annotations

import copy
import itertools
import numbers
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, MetaEstimatorMixin, _fit_context, clone
from sklearn.model_selection import StratifiedKFold
from sklearn.utils import get_tags
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from weakfs._docstrings import fill_doc
from weakfs._labels import check_pu_target
from weakfs._progress import progress
from weakfs._validation import spawn_seeds, validate_X, validate_X_y
from weakfs._words import counted
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


#: what a fold's fit or scoring may raise on a bad setting: the fold scores NaN
_FIT_ERRORS = (ValueError, np.linalg.LinAlgError)


def _score_fold(model, X, s, test, scoring) -> float:
    """``scoring`` of a fitted ``model`` on the fold's test rows (NaN when it fails or no model
    was fitted)."""
    if model is None:
        return float("nan")
    try:
        return float(scoring(model, X[test], s[test]))
    except _FIT_ERRORS:
        return float("nan")


def _fit_score(estimator, params, X, s, train, test, scoring):
    est = clone(estimator).set_params(**params)
    t0 = time.perf_counter()
    try:
        est.fit(X[train], s[train])
    except _FIT_ERRORS:
        est = None
    return _score_fold(est, X, s, test, scoring), time.perf_counter() - t0


def _fit_path_score(estimator, params, values, X, s, train, test, scoring) -> list[tuple]:
    """:func:`_fit_score` for every value of the estimator's path parameter, from one path;
    the path's time is shared equally among its values."""
    est = clone(estimator).set_params(**params)
    t0 = time.perf_counter()
    try:
        fitted = est._fit_path(X[train], s[train], values)
    except _FIT_ERRORS:
        fitted = [None] * len(values)
    scores = [_score_fold(model, X, s, test, scoring) for model in fitted]
    seconds = (time.perf_counter() - t0) / max(len(values), 1)
    return [(score, seconds) for score in scores]


def _key(params: Mapping) -> tuple:
    return tuple(
        (k, round(float(v), 12) if isinstance(v, numbers.Real) else v)
        for k, v in sorted(params.items())
    )


def _standard_error(results: list[dict], params: Mapping) -> float:
    """Standard error of the mean CV score of ``params`` (fold sd, ddof 1, over √folds)."""
    key = _key(params)
    for row in results:
        if _key(row["params"]) == key:
            folds = np.asarray(row["fold_scores"], dtype=float)
            if folds.size < 2 or not np.all(np.isfinite(folds)):
                return 0.0
            return float(folds.std(ddof=1) / np.sqrt(folds.size))
    return 0.0


def _one_standard_error(
    results: list[dict], name: str, threshold: float, best: dict, best_score: float
) -> tuple[dict, float]:
    """Among the evaluated parameter sets scoring at least ``threshold``, the one with the
    largest ``name`` (ties: the higher mean); ``(best, best_score)`` if none qualifies."""
    chosen, chosen_key = dict(best), (best[name], best_score)
    for row in results:
        score = row["mean_score"]
        if not np.isfinite(score) or score < threshold:
            continue
        key = (row["params"][name], score)
        if key > chosen_key:
            chosen, chosen_key = dict(row["params"]), key
    return chosen, float(chosen_key[1])


def _refit_estimator_has(attr: str):
    """``available_if`` test: the refitted estimator (or, before fit, ``estimator``) has
    ``attr``, and ``refit`` is on."""

    def check(self) -> bool:
        if not self.refit:
            raise AttributeError(
                f"This {type(self).__name__} has refit=False: {attr} is available only after "
                "refitting the best estimator (refit=True)"
            )
        if hasattr(self, "best_estimator_"):
            getattr(self.best_estimator_, attr)
        else:
            getattr(self.estimator, attr)
        return True

    return check


@dataclass
class _SearchState:
    """What one ``fit`` shares between its stages (kept off the estimator)."""

    X: np.ndarray
    s: np.ndarray
    folds: list
    cache: dict = field(default_factory=dict)
    results: list = field(default_factory=list)


@fill_doc
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
    selection : dict of str -> {"best", "1se"} or None, default=None
        How the final parameters are chosen.  ``None`` (or ``"best"``): the highest mean CV
        score, the paper's rule.  ``{name: "1se"}``, e.g. ``{"lambda1": "1se"}``: the
        one-standard-error rule on parameter ``name`` — among every evaluated parameter set whose
        mean score is at least the best mean minus one standard error of the best (its fold
        scores' standard deviation over ``√cv``), the one with the largest ``name`` (ties: the
        higher mean).  For a penalty such as GKF-PUAL's λ1 this prefers the sparsest model that
        CV cannot tell apart from the best.  One parameter at a time.
    path_param : str or None, default=None
        ``None``: every grid point is a separate fit (the paper's protocol).  A parameter name
        (``"lambda1"`` for :class:`~weakfs.pu.GKFPUALClassifier`): in the grid stage, per fold
        and per setting of the other parameters, all values of this parameter are fitted along
        one warm-started path (largest first), which costs a few fits instead of one per value.
        The solutions equal separate fits within the estimator's solver tolerance, so scores
        can differ where a fold's prediction flips on a point at the decision boundary.  Only
        for estimators that fit such a path; the greedy stage always fits separately.
    n_jobs : int or None, default=None
        Parallel fits (joblib) within each stage.
    random_state : int, RandomState or None, default=None
        Seeds the fold shuffling (results do not depend on ``n_jobs``).
    %(verbose)s

    Attributes
    ----------
    best_params_, best_score_ : dict, float
        The chosen parameters (by ``selection``) and their mean CV score.
    top_params_, top_score_ : dict, float
        The parameters with the highest mean CV score (the same as ``best_params_`` unless a
        one-standard-error rule chose others).
    top_score_se_ : float
        Standard error of ``top_score_`` (fold standard deviation over ``√cv``).
    best_estimator_ : estimator
        The best parameters refitted on all the data (only with ``refit=True``); ``predict``,
        ``decision_function``, ``predict_proba`` and ``score`` delegate to it.
    classes_ : ndarray
        ``best_estimator_.classes_``.
    cv_results_ : list of dict
        Every evaluated parameter set with its mean score, fold scores, stage and fit seconds.
    greedy_path_ : list of dict
        Accepted greedy moves (params and score).
    greedy_rounds_ : int
        Greedy rounds run.
    n_evaluations_ : int
        Number of distinct parameter sets evaluated (each costs ``cv`` fits).
    tuning_seconds_, refit_seconds_ : float
        Wall time of the search (both stages) and of the final refit, reported apart.
    n_features_in_ : int
        Number of features seen during ``fit``.
    feature_names_in_ : ndarray of str
        Column names of ``X`` (only when they are all strings).

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

    _parameter_constraints: ClassVar[dict] = {
        "estimator": [HasMethods(["fit", "predict"])],
        "param_grid": [dict],
        "greedy_params": [list, tuple, None],
        "step": [Interval(numbers.Real, 0, 1, closed="neither")],
        "max_greedy_rounds": [Interval(numbers.Integral, 0, None, closed="left"), None],
        "cv": [Interval(numbers.Integral, 2, None, closed="left")],
        "scoring": [callable],
        "refit": ["boolean"],
        "selection": [dict, None],
        "path_param": [str, None],
        "n_jobs": [numbers.Integral, None],
        "random_state": ["random_state"],
        "verbose": ["verbose", StrOptions({"auto"})],
    }

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
        selection: Mapping[str, str] | None = None,
        path_param: str | None = None,
        n_jobs: int | None = None,
        random_state=None,
        verbose: bool | int | str = "auto",
    ):
        self.estimator = estimator
        self.param_grid = param_grid
        self.greedy_params = greedy_params
        self.step = step
        self.max_greedy_rounds = max_greedy_rounds
        self.cv = cv
        self.scoring = scoring
        self.refit = refit
        self.selection = selection
        self.path_param = path_param
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    def _evaluate(
        self, state: _SearchState, candidates: list[dict], stage: str, *, path: bool = False
    ) -> list[float]:
        todo = [c for c in candidates if _key(c) not in state.cache]
        if path and self.path_param is not None:
            fold_results = self._fit_paths(state, todo, stage)
        else:
            tasks = [(c, tr, te) for c in todo for tr, te in state.folds]
            out = Parallel(n_jobs=self.n_jobs)(
                delayed(_fit_score)(self.estimator, c, state.X, state.s, tr, te, self.scoring)
                for c, tr, te in progress(tasks, enabled=self.verbose, total=len(tasks), desc=stage)
            )
            k = len(state.folds)
            fold_results = [out[i * k : (i + 1) * k] for i in range(len(todo))]
        for c, chunk in zip(todo, fold_results):
            scores = np.array([sc for sc, _ in chunk])
            mean = float(np.mean(scores)) if np.all(np.isfinite(scores)) else float("-inf")
            state.cache[_key(c)] = mean
            state.results.append(
                {
                    "params": dict(c),
                    "mean_score": mean,
                    "fold_scores": scores.tolist(),
                    "stage": stage,
                    "fit_seconds": float(sum(t for _, t in chunk)),
                }
            )
        return [state.cache[_key(c)] for c in candidates]

    def _fit_paths(self, state: _SearchState, todo: list[dict], stage: str) -> list[list]:
        """Per candidate, its ``(score, seconds)`` on every fold, from one path per fold and
        setting of the parameters other than ``path_param``."""
        name = self.path_param
        groups: dict[tuple, list[int]] = {}
        for i, c in enumerate(todo):
            rest = {p: v for p, v in c.items() if p != name}
            groups.setdefault(_key(rest), []).append(i)
        tasks = [
            ({p: v for p, v in todo[idx[0]].items() if p != name}, idx, f)
            for idx in groups.values()
            for f in range(len(state.folds))
        ]
        out = Parallel(n_jobs=self.n_jobs)(
            delayed(_fit_path_score)(
                self.estimator,
                rest,
                [todo[i][name] for i in idx],
                state.X,
                state.s,
                *state.folds[f],
                self.scoring,
            )
            for rest, idx, f in progress(
                tasks, enabled=self.verbose, total=len(tasks), desc=f"{stage} ({name} paths)"
            )
        )
        fold_results: list[list] = [[None] * len(state.folds) for _ in todo]
        for (_, idx, f), results in zip(tasks, out):
            for i, result in zip(idx, results):
                fold_results[i][f] = result
        return fold_results

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y):
        """Run the search on PU data and refit the best estimator.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data (converted to a float array; the folds index its rows).
        y : array-like of shape (n_samples,)
            PU labels: 1 = labeled positive; 0, -1 or False = unlabeled.

        Returns
        -------
        self : PUGridGreedySearch
        """
        X, y = validate_X_y(self, X, y, dtype=np.float64)
        s = check_pu_target(self, y)
        if not self.param_grid:
            raise ValueError("param_grid is empty: give at least one parameter to tune")
        rule = self._selection_rule()
        self._check_path_param()
        if s.sum() < self.cv or (s == 0).sum() < self.cv:
            raise ValueError(
                f"{self.cv}-fold CV needs at least {self.cv} labeled and "
                f"{counted(self.cv, 'unlabeled row')}; "
                f"got {int(s.sum())} labeled and {int((s == 0).sum())} unlabeled"
            )
        seed = int(spawn_seeds(self.random_state, 1)[0])
        folds = list(StratifiedKFold(self.cv, shuffle=True, random_state=seed).split(X, s))
        state = _SearchState(X=X, s=s, folds=folds)
        t0 = time.perf_counter()
        names = sorted(self.param_grid)
        grid = [
            dict(zip(names, vals))
            for vals in itertools.product(*(self.param_grid[n] for n in names))
        ]
        scores = self._evaluate(state, grid, "grid", path=True)
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
            nscores = self._evaluate(state, neigh, f"greedy {rounds}")
            j = int(np.argmax(nscores))
            if not nscores[j] > best_score:
                break
            best, best_score = neigh[j], nscores[j]
            self.greedy_path_.append({"params": dict(best), "score": best_score, "round": rounds})
        self.cv_results_ = state.results
        self.top_params_, self.top_score_ = dict(best), best_score
        self.top_score_se_ = _standard_error(state.results, best)
        if rule is not None:
            best, best_score = _one_standard_error(
                state.results, rule, best_score - self.top_score_se_, best, best_score
            )
        self.greedy_rounds_ = rounds
        self.tuning_seconds_ = time.perf_counter() - t0
        self.best_params_ = best
        self.best_score_ = best_score
        self.n_evaluations_ = len(state.cache)
        self.refit_seconds_ = 0.0
        if self.refit:
            t1 = time.perf_counter()
            self.best_estimator_ = clone(self.estimator).set_params(**best).fit(X, s)
            self.refit_seconds_ = time.perf_counter() - t1
        return self

    def _check_path_param(self) -> None:
        name = self.path_param
        if name is None:
            return
        if name not in self.param_grid:
            raise ValueError(
                f"path_param={name!r} is not a key of param_grid ({sorted(self.param_grid)})"
            )
        if getattr(self.estimator, "_path_param", None) != name:
            raise ValueError(
                f"path_param={name!r}: {type(self.estimator).__name__} cannot fit a path over "
                f"{name!r} (GKFPUALClassifier fits one over 'lambda1'); use path_param=None"
            )

    def _selection_rule(self) -> str | None:
        """The parameter of a one-standard-error rule (None for the best-score rule)."""
        rules = {k: v for k, v in (self.selection or {}).items() if v != "best"}
        bad = {k: v for k, v in rules.items() if v != "1se"}
        if bad:
            raise ValueError(
                f"selection values must be 'best' or '1se'; got {bad!r} (e.g. "
                "selection={'lambda1': '1se'})"
            )
        if len(rules) > 1:
            raise ValueError(
                f"selection applies the one-standard-error rule to one parameter; got {rules!r}"
            )
        if not rules:
            return None
        (name,) = rules
        values = self.param_grid.get(name)
        if values is None or not all(
            isinstance(v, numbers.Real) and not isinstance(v, bool) for v in values
        ):
            raise ValueError(
                f"selection names {name!r}, which must be a numeric parameter of param_grid "
                f"(its keys: {sorted(self.param_grid)})"
            )
        return name

    def _check_X(self, X):
        """``X`` checked against the training data (feature count and names)."""
        check_is_fitted(self)
        return validate_X(self, X, reset=False, dtype=np.float64)

    @property
    def classes_(self) -> np.ndarray:
        """Classes of the refitted estimator (``[0, 1]`` for a PU classifier)."""
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.classes_

    @available_if(_refit_estimator_has("predict"))
    def predict(self, X):
        """Predictions of the refitted best estimator.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        X = self._check_X(X)
        return self.best_estimator_.predict(X)

    @available_if(_refit_estimator_has("decision_function"))
    def decision_function(self, X):
        """Scores of the refitted best estimator (positive means predicted positive)."""
        X = self._check_X(X)
        return self.best_estimator_.decision_function(X)

    @available_if(_refit_estimator_has("predict_proba"))
    def predict_proba(self, X):
        """Class probabilities of the refitted best estimator."""
        X = self._check_X(X)
        return self.best_estimator_.predict_proba(X)

    @available_if(_refit_estimator_has("predict"))
    def score(self, X, y) -> float:
        """``scoring`` (default: the PUF-score) of the refitted best estimator on PU data."""
        X = self._check_X(X)
        return float(self.scoring(self.best_estimator_, X, y))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        sub = get_tags(self.estimator)
        tags.estimator_type = sub.estimator_type
        tags.classifier_tags = copy.deepcopy(sub.classifier_tags)
        tags.target_tags.required = True
        return tags
