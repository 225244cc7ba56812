"""GKF-PUAL as a feature selector: the features whose group-lasso group is non-zero."""

from __future__ import annotations

from typing import ClassVar

from sklearn.base import _fit_context, clone

from weakfs._labels import check_pu_target
from weakfs._selection import SupportSelector
from weakfs._validation import validate_X_y
from weakfs.pu._gkf_pual._classifier import GKFPUALClassifier

__all__ = ["GKFPUALSelector"]


class GKFPUALSelector(SupportSelector):
    """Feature selection by GKF-PUAL's group lasso: keep the features whose group is non-zero.

    A thin wrapper that fits a :class:`GKFPUALClassifier` and exposes its ``support_``.

    Parameters
    ----------
    estimator : GKFPUALClassifier, optional
        The configured classifier (default: ``GKFPUALClassifier()``).  It is cloned.

    Attributes
    ----------
    estimator_ : GKFPUALClassifier
        The fitted classifier.
    support_ : ndarray of bool
        Selected features.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.pu import GKFPUALClassifier, GKFPUALSelector
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=(100, 4))
    >>> s = ((X[:, 0] ** 2 > 1) & (rng.uniform(size=100) < 0.6)).astype(int)
    >>> sel = GKFPUALSelector(GKFPUALClassifier(lambda1=5.0, C2=0.05)).fit(X, s)
    >>> sel.transform(X).shape[0]
    100
    """

    _parameter_constraints: ClassVar[dict] = {"estimator": [GKFPUALClassifier, None]}

    def __init__(self, estimator: GKFPUALClassifier | None = None):
        self.estimator = estimator

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y):
        """Fit the classifier on PU data ``(X, y)`` and keep its support."""
        est = GKFPUALClassifier() if self.estimator is None else clone(self.estimator)
        X, y = validate_X_y(self, X, y, ensure_min_samples=2)
        check_pu_target(self, y)
        self.estimator_ = est.fit(X, y)
        self.support_ = self.estimator_.support_.copy()
        return self
