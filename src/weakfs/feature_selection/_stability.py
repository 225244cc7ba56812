"""Stability selection for weak labels: a selector refitted on resamples of the rows.

Meinshausen & Bühlmann (JRSS-B 2010) keep the features a selector picks on most subsamples;
Nogueira, Sechidis & Brown (JMLR 2018) measure how much those picks agree.  With weak labels the
few labels are precious, so the rows can be resampled among the unlabeled ones only.
"""

from __future__ import annotations

import numbers
from typing import ClassVar

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, MetaEstimatorMixin, _fit_context, clone
from sklearn.feature_selection import SelectorMixin
from sklearn.utils import _safe_indexing
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.validation import _num_samples, check_is_fitted

from weakfs._validation import check_n_features_to_select, spawn_seeds
from weakfs.feature_selection._common import check_meta_input, inherit_tags
from weakfs.metrics import selection_stability

__all__ = ["StabilitySelection", "labeled_rows"]


def labeled_rows(y) -> np.ndarray:
    """The rows whose label a resample must keep: PU labels' 1s, or semi-supervised labels other
    than ``-1``; none without labels."""
    if y is None:
        return np.zeros(0, dtype=bool)
    values = np.asarray(y)
    if values.dtype.kind in "iuf" and np.any(values == -1) and len(np.unique(values)) > 2:
        return values != -1  # semi-supervised: several classes and -1 = unlabeled
    if values.dtype.kind in "iuf" and np.any(values == -1) and set(np.unique(values)) <= {-1, 1}:
        return values == 1  # PU coded 1 / -1
    if values.dtype.kind in "iufb":
        return values == 1
    # other labels (text): compared as text, elementwise under every numpy
    return values.astype(str) != "-1"


def _resample(rng, n: int, labeled: np.ndarray, how: str) -> np.ndarray:
    if how == "half":
        return np.sort(rng.choice(n, size=max(2, n // 2), replace=False))
    if how == "bootstrap" or not labeled.any():
        return np.sort(rng.randint(0, n, size=n))
    keep = np.flatnonzero(labeled)
    others = np.flatnonzero(~labeled)
    drawn = others[rng.randint(0, others.size, size=others.size)]
    return np.sort(np.r_[keep, drawn])


def _fit_support(estimator, X, y, rows, fit_params) -> np.ndarray:
    est = clone(estimator)
    Xr = _safe_indexing(X, rows)
    if y is None:
        est.fit(Xr, **fit_params)
    else:
        est.fit(Xr, _safe_indexing(y, rows), **fit_params)
    return np.asarray(est.get_support(), dtype=bool)


class StabilitySelection(SelectorMixin, MetaEstimatorMixin, BaseEstimator):
    """Keep the features a selector picks on most resamples of the rows.

    The selector is refitted ``n_resamples`` times; ``selection_frequency_`` is how often each
    feature was selected, ``stability_`` how much the picks agree (1 = always the same set, about
    0 = no better than random picks of the same size), and ``support_`` the features selected at
    least ``threshold`` of the time (or the ``n_features_to_select`` most frequent).

    Parameters
    ----------
    estimator : selector
        Any selector with ``fit`` and ``get_support`` (PU, semi-supervised or unsupervised).
    n_resamples : int, default=50
        Number of refits.
    resample : {"unlabeled", "bootstrap", "half"}, default="unlabeled"
        ``"unlabeled"``: every labeled row kept, the unlabeled rows drawn with replacement (no
        scarce label is ever left out); ``"bootstrap"``: all rows drawn with replacement;
        ``"half"``: half the rows without replacement (Meinshausen & Bühlmann's subsampling).
    threshold : float, default=0.6
        Selection frequency a feature needs (Meinshausen & Bühlmann suggest 0.6 to 0.9); not
        used with ``n_features_to_select``.
    n_features_to_select : int, float or None, default=None
        Keep this many most frequently selected features instead (an int or a fraction).
    confidence : float, default=0.95
        Level of ``stability_interval_``.
    n_jobs : int or None, default=None
        Parallel refits (joblib).  The seeds of the resamples are drawn up front, so the result
        is the same for any ``n_jobs``.
    random_state : int, RandomState or None, default=None
        Seeds the resamples.

    Attributes
    ----------
    estimator_ : selector
        The selector refitted on all rows.
    supports_ : ndarray of bool, shape (n_resamples, n_features)
        Each refit's selection.
    selection_frequency_ : ndarray of shape (n_features,)
        Share of refits selecting each feature.
    stability_ : float
        Stability index of the refits (:func:`weakfs.metrics.selection_stability`).
    stability_interval_ : tuple of float
        Its interval at ``confidence``.
    support_ : ndarray of bool
        The selected features.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.pu import SemiJMISelector
    >>> rng = np.random.RandomState(0)
    >>> X = rng.rand(300, 6); s = ((X[:, 0] > 0.6) & (rng.rand(300) < 0.5)).astype(int)
    >>> sel = StabilitySelection(SemiJMISelector(1), n_resamples=20, random_state=0).fit(X, s)
    >>> sel.get_support().tolist(), round(sel.stability_, 2)
    ([True, False, False, False, False, False], 1.0)
    """

    _parameter_constraints: ClassVar[dict] = {
        "estimator": [HasMethods(["fit", "get_support"])],
        "n_resamples": [Interval(numbers.Integral, 2, None, closed="left")],
        "resample": [StrOptions({"unlabeled", "bootstrap", "half"})],
        "threshold": [Interval(numbers.Real, 0, 1, closed="both")],
        "n_features_to_select": [
            Interval(numbers.Integral, 1, None, closed="left"),
            Interval(numbers.Real, 0, 1, closed="right"),
            None,
        ],
        "confidence": [Interval(numbers.Real, 0, 1, closed="neither")],
        "n_jobs": [numbers.Integral, None],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        estimator,
        *,
        n_resamples: int = 50,
        resample: str = "unlabeled",
        threshold: float = 0.6,
        n_features_to_select=None,
        confidence: float = 0.95,
        n_jobs=None,
        random_state=None,
    ):
        self.estimator = estimator
        self.n_resamples = n_resamples
        self.resample = resample
        self.threshold = threshold
        self.n_features_to_select = n_features_to_select
        self.confidence = confidence
        self.n_jobs = n_jobs
        self.random_state = random_state

    def __sklearn_tags__(self):
        return inherit_tags(super().__sklearn_tags__(), self.estimator)

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y=None, **fit_params):
        """Refit the selector on resamples of ``(X, y)`` and keep the frequent features."""
        inner = self.estimator.__sklearn_tags__()
        X = check_meta_input(
            self,
            X,
            y,
            y_required=inner.target_tags.required,
            accept_sparse=inner.input_tags.sparse,
        )
        y = None if y is None else np.asarray(y)
        n, d = _num_samples(X), self.n_features_in_
        labeled = labeled_rows(y) if y is not None else np.zeros(n, dtype=bool)
        seeds = spawn_seeds(self.random_state, self.n_resamples)
        rows = [_resample(np.random.RandomState(s), n, labeled, self.resample) for s in seeds]
        supports = Parallel(n_jobs=self.n_jobs)(
            delayed(_fit_support)(self.estimator, X, y, r, fit_params) for r in rows
        )
        self.supports_ = np.vstack(supports)
        self.selection_frequency_ = self.supports_.mean(axis=0)
        estimate = selection_stability(self.supports_, confidence=self.confidence)
        self.stability_ = estimate.value
        self.stability_interval_ = (estimate.low, estimate.high)
        if self.n_features_to_select is not None:
            k = check_n_features_to_select(self.n_features_to_select, d)
            order = np.argsort(-self.selection_frequency_, kind="stable")
            self.support_ = np.zeros(d, dtype=bool)
            self.support_[order[:k]] = True
        else:
            self.support_ = self.selection_frequency_ >= self.threshold
        self.estimator_ = clone(self.estimator)
        self.estimator_.fit(X, **fit_params) if y is None else self.estimator_.fit(
            X, y, **fit_params
        )
        return self

    @property
    def scores_(self) -> np.ndarray:
        """The selection frequencies (for printed rankings and plots)."""
        check_is_fitted(self, "selection_frequency_")
        return self.selection_frequency_

    #: what ``scores_`` is, for printed rankings and plots
    SCORE_LABEL = "share of the resamples that selected the feature"

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_
