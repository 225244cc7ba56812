"""Automatic k from PU labels: the prefixes of a selector's ranking scored by PU-aware CV.

Each fold's training rows rank the features; a downstream model fitted on the first ``k`` is
scored on the fold's test rows with a PU-only metric (prior-corrected ROC AUC).  The smallest
``k`` whose mean score is within one standard error of the best is kept (the one-standard-error
rule of Breiman et al., also used by :class:`~weakfs.model_selection.PUGridGreedySearch`).
"""

from __future__ import annotations

import numbers
from numbers import Integral
from typing import ClassVar

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, MetaEstimatorMixin, _fit_context, clone
from sklearn.feature_selection import SelectorMixin
from sklearn.utils import _safe_indexing
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions, validate_params
from sklearn.utils.validation import check_is_fitted

from weakfs._labels import check_pu_labels
from weakfs._scores import feature_order
from weakfs.feature_selection._common import (
    check_meta_input,
    default_model,
    pu_scorer,
)
from weakfs.model_selection import PUStratifiedKFold

__all__ = ["SelectKByCV", "default_k_grid"]


@validate_params(
    {
        "n_features": [Interval(Integral, 1, None, closed="left")],
        "n_values": [Interval(Integral, 1, None, closed="left")],
    },
    prefer_skip_nested_validation=True,
)
def default_k_grid(n_features: int, n_values: int = 10) -> list[int]:
    """About ``n_values`` numbers of features from 1 to ``n_features``, spaced geometrically.

    Examples
    --------
    >>> default_k_grid(57)
    [1, 2, 4, 6, 9, 15, 23, 36, 57]
    """
    grid = np.unique(np.round(np.geomspace(1, n_features, num=min(n_features, n_values))))
    return [int(k) for k in grid]


def _ranking(estimator, X, s, k_max: int) -> np.ndarray:
    """The features in the order a fitted clone of ``estimator`` ranks them (asked for
    ``k_max`` when it takes ``n_features_to_select``)."""
    est = clone(estimator)
    if "n_features_to_select" in est.get_params(deep=False):
        est.set_params(n_features_to_select=k_max)
    est.fit(X, s)
    return feature_order(est), est


class SelectKByCV(SelectorMixin, MetaEstimatorMixin, BaseEstimator):
    """Choose how many features a selector keeps, from PU labels alone.

    Parameters
    ----------
    estimator : selector or model with per-feature scores
        What ranks the features (any weakfs selector; a model's ``feature_importances_``).
    ks : list of int or None, default=None
        Candidate numbers of features; ``None``: :func:`default_k_grid`.
    model : classifier or None, default=None
        Downstream model scored on the selected columns (``predict_proba`` or
        ``decision_function``); ``None``: :func:`~weakfs.feature_selection.default_model`.
    cv : int, default=5
        Folds of :class:`~weakfs.model_selection.PUStratifiedKFold` (shuffled).
    scoring : {"roc_auc", "f1", "accuracy", "puf"}, default="roc_auc"
        PU metric (:func:`~weakfs.model_selection.make_pu_scorer`).
    prior : float or "auto", default="auto"
        Class prior of the scorer; ``"auto"``: estimated
        (:func:`~weakfs.pu.estimate_class_prior`).
    rule : {"1se", "best"}, default="1se"
        The smallest ``k`` within one standard error of the best mean score, or the best.
    random_state : int, RandomState or None, default=None
        Seeds the folds and the prior estimate.

    Attributes
    ----------
    k_ : int
        The chosen number of features.
    cv_scores_ : pandas.DataFrame
        Per ``k``: mean, sd and standard error of the fold scores.
    prior_ : float
        The prior the scorer used.
    estimator_ : estimator
        ``estimator`` fitted on all rows (its ranking gives ``support_``).
    support_ : ndarray of bool
        The first ``k_`` features of that ranking.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.pu import SemiJMISelector
    >>> rng = np.random.RandomState(0)
    >>> X = rng.rand(400, 8); y = (X[:, 0] + X[:, 1] > 1.1).astype(int)
    >>> s = y * (rng.rand(400) < 0.5)
    >>> sel = SelectKByCV(SemiJMISelector(), ks=[1, 2, 4, 8], prior=0.45, random_state=0)
    >>> sel.fit(X, s).k_
    2
    """

    _parameter_constraints: ClassVar[dict] = {
        "estimator": [HasMethods("fit")],
        "ks": ["array-like", None],
        "model": [HasMethods("fit"), None],
        "cv": [Interval(numbers.Integral, 2, None, closed="left")],
        "scoring": [StrOptions({"roc_auc", "f1", "accuracy", "puf"})],
        "prior": [Interval(numbers.Real, 0, 1, closed="neither"), StrOptions({"auto"})],
        "rule": [StrOptions({"1se", "best"})],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        estimator,
        *,
        ks=None,
        model=None,
        cv: int = 5,
        scoring: str = "roc_auc",
        prior="auto",
        rule: str = "1se",
        random_state=None,
    ):
        self.estimator = estimator
        self.ks = ks
        self.model = model
        self.cv = cv
        self.scoring = scoring
        self.prior = prior
        self.rule = rule
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.sparse = False
        return tags

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y):
        """Score every ``k`` by PU-aware CV and keep the chosen prefix of the ranking."""
        X = check_meta_input(
            self,
            X,
            y,
            y_required=True,
            accept_sparse=False,  # the default model standardises (centres) its columns
        )
        s = check_pu_labels(y, name="y").astype(int)
        d = self.n_features_in_
        ks = default_k_grid(d) if self.ks is None else sorted({int(k) for k in self.ks})
        if ks[0] < 1 or ks[-1] > d:
            raise ValueError(f"ks must lie in [1, n_features={d}]; got {ks}")
        from weakfs.pu import resolve_class_prior

        resolved = resolve_class_prior(X, s, self.prior, random_state=self.random_state)
        self.prior_, self.prior_how_ = resolved.value, resolved.how
        scorer = pu_scorer(self.scoring, self.prior_)
        model = default_model() if self.model is None else self.model
        folds = PUStratifiedKFold(self.cv, shuffle=True, random_state=self.random_state)
        scores = np.empty((self.cv, len(ks)))
        for f, (train, test) in enumerate(folds.split(X, s)):
            X_tr, X_te = _safe_indexing(X, train), _safe_indexing(X, test)
            order, _ = _ranking(self.estimator, X_tr, s[train], ks[-1])
            for j, k in enumerate(ks):
                cols = np.sort(order[:k])
                fitted = clone(model).fit(_safe_indexing(X_tr, cols, axis=1), s[train])
                scores[f, j] = scorer(fitted, _safe_indexing(X_te, cols, axis=1), s[test])
        mean, sd = scores.mean(axis=0), scores.std(axis=0, ddof=1)
        se = sd / np.sqrt(self.cv)
        best = int(np.argmax(mean))
        if self.rule == "best":
            chosen = best
        else:
            chosen = int(np.flatnonzero(mean >= mean[best] - se[best])[0])
        self.cv_scores_ = pd.DataFrame({"k": ks, "mean": mean, "sd": sd, "se": se})
        self.k_ = ks[chosen]
        order, self.estimator_ = _ranking(self.estimator, X, s, ks[-1])
        self.support_ = np.zeros(d, dtype=bool)
        self.support_[order[: self.k_]] = True
        return self

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_
