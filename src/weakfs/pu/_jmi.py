"""Information-theoretic PU baselines: semi-JMI and mRMR (MIQ) (SPEC §6).

Both treat the unlabeled rows as negatives (in the PU case semi-JMI of Sechidis & Brown 2018 is
exactly JMI on the labels "labeled / unlabeled").  Features are discretised into 5 equal-width bins
(columns with at most 5 distinct values keep their values); mutual information is the plug-in
estimate in nats (``weakfs._information``); ties go to the lower column index.
"""

from __future__ import annotations

import numbers
from typing import ClassVar

import numpy as np
from sklearn.base import BaseEstimator, _fit_context
from sklearn.feature_selection import SelectorMixin
from sklearn.utils._param_validation import Interval

from weakfs._information import (
    equal_width_bins,
    joint_mutual_information_columns,
    mutual_information_columns,
)
from weakfs._labels import check_pu_labels
from weakfs._validation import check_n_features_to_select, validate_X_y

__all__ = ["MRMRSelector", "SemiJMISelector", "discretize", "jmi_pair_matrix", "jmi_subset_score"]


def discretize(X, n_bins: int = 5) -> np.ndarray:
    """Equal-width codes; columns with at most ``n_bins`` distinct values are kept as they are."""
    codes, _ = equal_width_bins(X, n_bins=n_bins, keep_discrete_up_to=n_bins)
    return codes


def jmi_pair_matrix(codes: np.ndarray, y) -> np.ndarray:
    """``M[i, j] = I(X_i, X_j; y)`` in nats for ``i != j`` and ``M[i, i] = I(X_i; y)``."""
    d = codes.shape[1]
    M = np.empty((d, d))
    for j in range(d):
        M[:, j] = joint_mutual_information_columns(codes, j, y, base=np.e)
    M = 0.5 * (M + M.T)
    M[np.arange(d), np.arange(d)] = mutual_information_columns(codes, y, base=np.e)
    return M


def jmi_subset_score(pair_matrix: np.ndarray, mask) -> float:
    """JMI value of a subset: ``sum_{i<j in S} I(X_i, X_j; y)``; ``I(X_i; y)`` if ``|S| = 1``."""
    idx = np.flatnonzero(np.asarray(mask, dtype=bool))
    if idx.shape[0] == 0:
        return 0.0
    if idx.shape[0] == 1:
        return float(pair_matrix[idx[0], idx[0]])
    sub = pair_matrix[np.ix_(idx, idx)]
    return float(np.triu(sub, 1).sum())


def _argmax_low(values: np.ndarray, allowed: np.ndarray) -> int:
    v = np.where(allowed, values, -np.inf)
    return int(np.flatnonzero(v == v.max())[0])


class _InfoSelector(SelectorMixin, BaseEstimator):
    _parameter_constraints: ClassVar[dict] = {
        "n_features_to_select": [
            Interval(numbers.Integral, 1, None, closed="left"),
            Interval(numbers.Real, 0, 1, closed="right"),
            None,
        ],
        "n_bins": [Interval(numbers.Integral, 2, None, closed="left")],
    }

    def _prepare(self, X, y):
        X, y = validate_X_y(self, X, y)
        s = check_pu_labels(y)
        k = check_n_features_to_select(self.n_features_to_select, X.shape[1])
        return discretize(X, self.n_bins), s, k

    def _finish(self, order: list[int], scores: np.ndarray, d: int):
        self.ranking_ = np.asarray(order, dtype=np.intp)
        self.scores_ = scores
        support = np.zeros(d, dtype=bool)
        support[self.ranking_] = True
        self.support_ = support
        return self

    def _get_support_mask(self):
        return self.support_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags


class SemiJMISelector(_InfoSelector):
    """Semi-JMI for PU data: JMI with the unlabeled rows as negatives (SPEC §6).

    First the feature with the largest ``I(X; s)``, then repeatedly the feature maximising
    ``sum_{j in S} I(X_k, X_j; s)``; ties go to the lower index.

    Parameters
    ----------
    n_features_to_select : int or None, default=None
        Number of features (default half, rounded up).
    n_bins : int, default=5
        Equal-width bins; columns with at most ``n_bins`` distinct values keep their values.

    Attributes
    ----------
    ranking_ : ndarray of int
        Selected features in selection order.
    scores_ : ndarray of shape (n_features,)
        The criterion value at which each selected feature was chosen (``-inf`` for the rest).
    pair_matrix_ : ndarray of shape (n_features, n_features)
        ``I(X_i, X_j; s)`` (diagonal ``I(X_i; s)``), nats.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.RandomState(0)
    >>> X = rng.rand(200, 4); s = (X[:, 2] > 0.7).astype(int)
    >>> SemiJMISelector(n_features_to_select=1).fit(X, s).get_support().tolist()
    [False, False, True, False]
    """

    def __init__(self, n_features_to_select: int | None = None, *, n_bins: int = 5):
        self.n_features_to_select = n_features_to_select
        self.n_bins = n_bins

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        codes, s, k = self._prepare(X, y)
        d = codes.shape[1]
        M = jmi_pair_matrix(codes, s)
        self.pair_matrix_ = M
        scores = np.full(d, -np.inf)
        chosen = np.zeros(d, dtype=bool)
        first = _argmax_low(np.diag(M).copy(), ~chosen)
        order = [first]
        chosen[first] = True
        scores[first] = M[first, first]
        acc = M[:, first].copy()
        acc[first] = 0.0
        for _ in range(k - 1):
            j = _argmax_low(acc, ~chosen)
            order.append(j)
            chosen[j] = True
            scores[j] = acc[j]
            acc += M[:, j]
        return self._finish(order, scores, d)


class MRMRSelector(_InfoSelector):
    """mRMR with the MIQ criterion (Peng et al. 2005) on PU labels (unlabeled as negatives).

    First the feature with the largest ``I(X; s)``; then repeatedly the feature maximising
    ``I(X_k; s) / (mean_{j in S} I(X_k; X_j) + miq_eps)``; ties go to the lower index.

    Parameters
    ----------
    n_features_to_select : int or None, default=None
    n_bins : int, default=5
    miq_eps : float, default=0.01
        Added to the redundancy to guard the quotient against a zero redundancy (the reference
        MATLAB code of mRMR adds 0.01).

    Attributes
    ----------
    ranking_, scores_ : as :class:`SemiJMISelector`
    relevance_ : ndarray of shape (n_features,)
        ``I(X_i; s)`` in nats.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.RandomState(0)
    >>> X = rng.rand(200, 4); s = (X[:, 1] > 0.7).astype(int)
    >>> MRMRSelector(n_features_to_select=1).fit(X, s).get_support().tolist()
    [False, True, False, False]
    """

    _parameter_constraints: ClassVar[dict] = {
        **_InfoSelector._parameter_constraints,
        "miq_eps": [Interval(numbers.Real, 0, None, closed="left")],
    }

    def __init__(
        self, n_features_to_select: int | None = None, *, n_bins: int = 5, miq_eps: float = 0.01
    ):
        self.n_features_to_select = n_features_to_select
        self.n_bins = n_bins
        self.miq_eps = miq_eps

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        codes, s, k = self._prepare(X, y)
        d = codes.shape[1]
        rel = mutual_information_columns(codes, s, base=np.e)
        self.relevance_ = rel
        scores = np.full(d, -np.inf)
        chosen = np.zeros(d, dtype=bool)
        first = _argmax_low(rel, ~chosen)
        order = [first]
        chosen[first] = True
        scores[first] = rel[first]
        red_sum = mutual_information_columns(codes, codes[:, first], base=np.e)
        for step in range(1, k):
            quotient = rel / (red_sum / step + self.miq_eps) if self.miq_eps > 0 else None
            if quotient is None:
                with np.errstate(divide="ignore", invalid="ignore"):
                    quotient = np.where(red_sum > 0, rel / (red_sum / step), np.inf)
            j = _argmax_low(quotient, ~chosen)
            order.append(j)
            chosen[j] = True
            scores[j] = quotient[j]
            red_sum += mutual_information_columns(codes, codes[:, j], base=np.e)
        return self._finish(order, scores, d)
