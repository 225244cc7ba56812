"""What the score-based PU classifiers share: standardisation, ``predict`` and their tags.

GKF-PUAL, PUAL, GLLC, uPU and nnPU all fit on standardised features and score rows with a
``decision_function`` whose sign is the prediction (1 = predicted positive, 0 otherwise).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from weakfs._validation import validate_X


class _StandardizedPUClassifier(ClassifierMixin, BaseEstimator):
    """Base of the PU classifiers with a ``standardize`` parameter and a signed score.

    Subclasses define ``decision_function``; ``fit`` calls :meth:`_fit_scaling` on the validated
    training data, and scoring calls :meth:`_scaled` on new data.
    """

    def _fit_scaling(self, X: np.ndarray) -> np.ndarray:
        """Set ``mean_`` and ``scale_`` (training mean and standard deviation, 1 for a constant
        column; 0 and 1 without ``standardize``) and return the scaled ``X``."""
        if self.standardize:
            std = X.std(axis=0)
            self.mean_, self.scale_ = X.mean(axis=0), np.where(std > 0, std, 1.0)
        else:
            self.mean_, self.scale_ = np.zeros(X.shape[1]), np.ones(X.shape[1])
        return (X - self.mean_) / self.scale_

    def _scaled(self, X) -> np.ndarray:
        """New data validated against the fit and scaled like the training data."""
        check_is_fitted(self)
        X = validate_X(self, X, reset=False)
        return (np.asarray(X, dtype=float) - self.mean_) / self.scale_

    def predict(self, X) -> np.ndarray:
        """1 where the score ``decision_function(X)`` is positive (predicted positive), else 0."""
        return (self.decision_function(X) > 0).astype(int)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


def _fit_predict_example(name: str, n_rows: int, cut: float, rate: float, params: str) -> str:
    """The ``Examples`` section of a PU classifier's docstring: fit on a small problem, predict.

    ``X`` is ``n_rows`` x 3 standard normal; positives are the rows with ``X[:, 0] > cut``, each
    labeled with probability ``rate``; ``params`` are the constructor's keyword arguments.
    """
    return f"""
    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.pu import {name}
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=({n_rows}, 3))
    >>> s = ((X[:, 0] > {cut}) & (rng.uniform(size={n_rows}) < {rate})).astype(int)
    >>> {name}({params}).fit(X, s).predict(X).shape
    ({n_rows},)
"""
