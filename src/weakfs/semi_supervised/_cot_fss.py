"""CoT-FSS (Ren et al. 2008), a semi-supervised baseline of SEW-IL's Table 4: forward selection
with co-training.  Fitness = 5-fold CV accuracy of a decision tree (``min_samples_leaf=5``),
``10 %`` of ``d`` added per step, 5 resamples of ``50 %`` of the unlabeled rows per step, as in
the SEW-IL authors' reference code."""

from __future__ import annotations

import numbers
import warnings
from typing import ClassVar

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import _fit_context
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions

from weakfs._docstrings import fill_doc
from weakfs._labels import check_semi_supervised_labels
from weakfs._selection import RankingSelector
from weakfs._validation import (
    check_n_features_to_select,
    spawn_seeds,
    validate_X_y,
)
from weakfs.semi_supervised._ssl_baselines import _K_CONSTRAINT, _dense64, paper_default_k

__all__ = ["CoTFSSSelector"]


def _folds(y, seed, n_splits) -> list:
    """The stratified folds of ``y`` (they depend on the labels only, not on the columns)."""
    cv = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a class with fewer rows than folds
        return list(cv.split(np.zeros((y.shape[0], 1)), y))


def _cv_accuracy(X, y, cols, seed, folds) -> float:
    """Mean accuracy of a decision tree (``min_samples_leaf=5``) on the columns ``cols`` over
    ``folds``: what ``cross_val_score`` returns for them, without its per-call machinery (the
    same trees and fold scores to the bit, in about half the time on CoT-FSS's small trees)."""
    Xc = X[:, cols]
    scores = np.empty(len(folds))
    for i, (train, test) in enumerate(folds):
        tree = DecisionTreeClassifier(min_samples_leaf=5, random_state=seed)
        tree.fit(Xc[train], y[train])
        scores[i] = np.mean(tree.predict(Xc[test]) == y[test])
    return float(scores.mean())


def _forward_new(X, y, exclude, n_add, seed, n_splits, n_jobs):
    """Forward ranking (``n_add`` per step) until ``n_add`` features outside ``exclude`` are ranked.

    The ranking is built from scratch (as the reference co-training wrapper does); only its first
    ``n_add`` features outside ``exclude`` are used, so the search stops once they are known.
    """
    d = X.shape[1]
    chosen: list[int] = []
    current = np.zeros(d, dtype=bool)
    new: list[int] = []
    folds = _folds(y, seed, n_splits)
    with Parallel(n_jobs=n_jobs, prefer="threads") as par:
        while len(new) < n_add:
            remaining = np.flatnonzero(~current)
            if remaining.size == 0:
                break
            if remaining.size <= n_add:
                step = remaining
            else:
                base = np.flatnonzero(current)
                scores = np.array(
                    par(
                        delayed(_cv_accuracy)(X, y, np.append(base, f), seed, folds)
                        for f in remaining
                    )
                )
                step = remaining[np.argsort(-scores, kind="stable")[:n_add]]
            chosen.extend(step.tolist())
            current[step] = True
            new.extend(int(f) for f in step if f not in exclude)
    return new[:n_add]


@fill_doc
class CoTFSSSelector(RankingSelector):
    """Co-training forward sequential selection (Ren et al. 2008), SEW-IL's CoT-FSS baseline.

    Starts from ``n_start`` features (at most ``k``) that the forward search picks on the labeled
    rows (``start="labeled"``; the authors' code draws them at random, ``start="random"``); at each
    step a decision tree trained on the labeled
    rows pseudo-labels the unlabeled rows; on each of ``n_resamples`` random halves of the
    unlabeled rows (with their pseudo-labels, plus the labeled rows) a forward search proposes the
    ``n_add`` best new features; the ``n_add`` most often proposed are added.

    Parameters
    ----------
    %(sewil_n_features_to_select)s
    n_add : int or None, default=None
        Features per step (``None``: ``max(1, floor(0.1 d))``).
    n_start : int, default=5
        Features the search starts from (never more than ``k``).
    start : {"labeled", "random"}, default="labeled"
        ``"labeled"``: the ``n_start`` best features of one forward step on the labeled rows
        alone (a start that depends on the data); ``"random"``: drawn at random, as the authors'
        code does (then, for ``k <= n_start``, the answer is those random features).
    n_resamples : int, default=5
        Random subsets of the pseudo-labeled unlabeled rows per step; each proposes ``n_add``
        features and the most often proposed are added.
    resample_fraction : float, default=0.5
        Share of the unlabeled rows in each resample.
    n_splits : int, default=5
        Folds of the decision-tree CV fitness.
    %(allow_fully_labeled)s
    %(random_state)s
        It seeds the starting features, the resamples, the trees and the CV folds.
    %(n_jobs)s
        Jobs score the candidate features of a forward step.

    Attributes
    ----------
    %(ranking_attributes)s

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from weakfs.semi_supervised import CoTFSSSelector
    >>> X, y = make_classification(80, 10, n_informative=3, random_state=0)
    >>> y[30:] = -1  # 30 labeled rows, 50 unlabeled
    >>> sel = CoTFSSSelector(n_features_to_select=6, n_start=2, n_add=2, n_resamples=2,
    ...                      random_state=0).fit(X, y)
    >>> int(sel.get_support().sum()), sel.ranking_.shape
    (6, (6,))
    """

    _accepts_sparse = True

    _parameter_constraints: ClassVar[dict] = {
        "n_features_to_select": _K_CONSTRAINT,
        "n_add": [None, Interval(numbers.Integral, 1, None, closed="left")],
        "n_start": [Interval(numbers.Integral, 0, None, closed="left")],
        "start": [StrOptions({"labeled", "random"})],
        "n_resamples": [Interval(numbers.Integral, 1, None, closed="left")],
        "resample_fraction": [Interval(numbers.Real, 0, 1, closed="right")],
        "n_splits": [Interval(numbers.Integral, 2, None, closed="left")],
        "allow_fully_labeled": ["boolean"],
        "random_state": ["random_state"],
        "n_jobs": [None, numbers.Integral],
    }

    def __init__(
        self,
        n_features_to_select="auto",
        *,
        n_add: int | None = None,
        n_start: int = 5,
        start: str = "labeled",
        n_resamples: int = 5,
        resample_fraction: float = 0.5,
        n_splits: int = 5,
        allow_fully_labeled: bool = False,
        random_state=None,
        n_jobs: int | None = None,
    ):
        self.n_features_to_select = n_features_to_select
        self.n_add = n_add
        self.n_start = n_start
        self.start = start
        self.n_resamples = n_resamples
        self.resample_fraction = resample_fraction
        self.n_splits = n_splits
        self.allow_fully_labeled = allow_fully_labeled
        self.random_state = random_state
        self.n_jobs = n_jobs

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Run the co-training forward search."""
        X, y = validate_X_y(self, X, y, accept_sparse=["csr", "csc"])
        labels = check_semi_supervised_labels(y, require_unlabeled=not self.allow_fully_labeled)
        X = _dense64(X)
        d = X.shape[1]
        k = check_n_features_to_select(self.n_features_to_select, d, auto=paper_default_k)
        n_add = max(1, int(0.1 * d)) if self.n_add is None else int(self.n_add)
        seed = int(spawn_seeds(self.random_state, 1)[0])
        rng = check_random_state(seed)
        lab = labels.labeled
        Xl, yl, Xu = X[lab], labels.y_encoded[lab], X[~lab]
        n_u = Xu.shape[0]
        n_take = max(1, int(self.resample_fraction * n_u)) if n_u else 0
        n_splits = max(2, min(self.n_splits, int(np.bincount(yl).min()) or 2))
        n_start = min(self.n_start, k, d)
        if self.start == "random" or n_start == 0:
            variables = [int(f) for f in rng.choice(d, n_start, replace=False)]
        else:
            variables = _forward_new(Xl, yl, set(), n_start, seed, n_splits, self.n_jobs)
        while len(variables) < k:
            remaining = np.setdiff1d(np.arange(d), variables)
            if remaining.size <= n_add:
                variables.extend(remaining.tolist())
                break
            if n_u == 0:
                Xt, yt = Xl, yl
                proposals = _forward_new(Xt, yt, set(variables), n_add, seed, n_splits, self.n_jobs)
            else:
                cols = np.asarray(variables if variables else remaining[:1], dtype=np.intp)
                tree = DecisionTreeClassifier(min_samples_leaf=5, random_state=seed)
                tree.fit(Xl[:, cols], yl)
                pseudo = tree.predict(Xu[:, cols])
                proposals = []
                for _ in range(self.n_resamples):
                    idx = rng.choice(n_u, n_take, replace=False)
                    Xt = np.vstack([Xl, Xu[idx]])
                    yt = np.concatenate([yl, pseudo[idx]])
                    proposals += _forward_new(
                        Xt, yt, set(variables), n_add, seed, n_splits, self.n_jobs
                    )
            if not proposals:
                variables.extend(remaining[:n_add].tolist())
                continue
            feats, counts = np.unique(np.asarray(proposals, dtype=np.intp), return_counts=True)
            variables.extend(feats[np.argsort(-counts, kind="stable")][:n_add].tolist())
        return self._keep_first(variables, k, d, classes=labels.classes)
