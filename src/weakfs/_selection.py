"""The one base of selectors that rank features and keep the first ``k``.

Modelled on scikit-learn's ``feature_selection._univariate_selection._BaseFilter``: a subclass
computes a ranking (and, where it has them, per-feature scores) and calls
:meth:`RankingSelector._keep_first`; support, transform and feature names follow.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.validation import check_is_fitted

__all__ = ["RankingSelector", "SupportSelector"]


class SupportSelector(SelectorMixin, BaseEstimator):
    """Base of supervised (PU or semi-supervised) selectors that store a boolean ``support_``.

    Subclasses set ``support_`` in ``fit``; ``transform``, ``get_support`` and
    ``get_feature_names_out`` follow from scikit-learn's ``SelectorMixin``.  A subclass whose
    ``fit`` takes scipy sparse matrices as they are sets ``_accepts_sparse = True``.
    """

    _accepts_sparse: ClassVar[bool] = False

    def _get_support_mask(self):
        check_is_fitted(self)
        return self.support_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.sparse = self._accepts_sparse
        return tags


class RankingSelector(SupportSelector):
    """Base of ranking selectors: sets ``ranking_``, ``scores_`` and ``support_``.

    Fitted attributes
    -----------------
    ranking_ : ndarray of int
        Features in the order the method ranks them (best first; may hold only the first
        ``k`` for greedy forward methods).
    scores_ : ndarray of float, shape (n_features,)
        Per-feature scores, where the method has them.
    support_ : ndarray of bool, shape (n_features,)
        The first ``k`` features of ``ranking_``.
    """

    def _keep_first(
        self, ranking, k: int, n_features: int, scores=None, classes=None
    ) -> RankingSelector:
        """Store ``ranking`` and keep its first ``k`` features (of ``n_features``); ``classes``
        (of a supervised or semi-supervised fit) become ``classes_``."""
        self.ranking_ = np.asarray(ranking, dtype=np.intp)
        if classes is not None:
            self.classes_ = classes
        if scores is not None:
            self.scores_ = np.asarray(scores, dtype=float)
        support = np.zeros(n_features, dtype=bool)
        support[self.ranking_[:k]] = True
        self.support_ = support
        return self
