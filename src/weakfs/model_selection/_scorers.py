"""Scorers that need only PU labels and the class prior, for ``cross_validate`` and searches.

A PU pipeline's cross-validation sees PU labels as ``y``: scikit-learn's own scorers would then
measure how well the model separates *labeled* from *unlabeled* rows.  Under SCAR (labeled
positives are a random sample of the positives) the usual metrics of positives against negatives
follow from the PU labels and the prior (see :mod:`weakfs.metrics`), and these scorers compute
them.
"""

from __future__ import annotations

from collections.abc import Callable
from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions, validate_params

from weakfs._estimator_scores import positive_scores, pu_corrected_roc_auc
from weakfs._labels import (
    check_prior_against_labels,
    check_prior_value,
    check_pu_labels,
    prior_of_unlabeled,
)
from weakfs._words import counted
from weakfs.metrics import pu_accuracy_score, pu_f1_score, pu_roc_auc_score, puf_score

__all__ = ["PUScorer", "make_pu_scorer"]

_METRICS = {
    "roc_auc": (pu_roc_auc_score, "score"),
    "f1": (pu_f1_score, "predict"),
    "accuracy": (pu_accuracy_score, "predict"),
    "puf": (puf_score, "predict"),
}


class PUScorer:
    """A scorer ``(estimator, X, s) -> float`` computed from PU labels and the class prior.

    Built by :func:`make_pu_scorer`; usable as ``scoring=`` in ``cross_validate``,
    ``GridSearchCV`` and :class:`~weakfs.model_selection.PUGridGreedySearch` (greater is better).

    Parameters
    ----------
    metric : {"roc_auc", "f1", "accuracy", "puf"}
        The metric to estimate.
    prior : float or None
        Share of positives among all rows; ``None`` only for ``"puf"``, which needs no prior.
    """

    def __init__(self, metric: str, prior: float | None):
        self.metric = metric
        self.prior = prior

    def __call__(self, estimator, X, y) -> float:
        func, response = _METRICS[self.metric]
        if response == "score":
            values = positive_scores(estimator, X)
        else:
            values = estimator.predict(X)
        if self.metric == "puf":
            return float(func(y, values))
        return float(func(y, values, prior=self.prior))

    def _bound_to(self, y) -> Callable[[object, object], float]:
        """``(estimator, X) -> self(estimator, X, y)`` for many ``X`` of one fold, the labels and
        the prior checked once: permutation importance scores thousands of shuffles of the same
        held-out rows, and the checks would cost more than the ROC AUC itself."""
        if self.metric != "roc_auc":
            return lambda estimator, X: self(estimator, X, y)
        s = check_pu_labels(y, name="s")
        prior_unlabeled = prior_of_unlabeled(s, check_prior_against_labels(self.prior, s))

        def score(estimator, X) -> float:
            values = positive_scores(estimator, X)
            if values.shape != s.shape:
                raise ValueError(
                    f"s has {counted(s.shape[0], 'row')} but the scores have {values.shape}"
                )
            if not np.isfinite(values).all():
                raise ValueError("y_score contains NaN or infinite values")
            return float(pu_corrected_roc_auc(s, values, prior_unlabeled))

        return score

    def __repr__(self) -> str:
        return f"make_pu_scorer({self.metric!r}, prior={self.prior!r})"


@validate_params(
    {
        "metric": [StrOptions({*_METRICS, "puf"})],
        "prior": [Interval(Real, 0, 1, closed="neither"), None],
    },
    prefer_skip_nested_validation=True,
)
def make_pu_scorer(metric: str = "roc_auc", *, prior: float | None = None) -> PUScorer:
    """Make a scorer that evaluates a classifier of positives against negatives from PU labels.

    Parameters
    ----------
    metric : {"roc_auc", "f1", "accuracy", "puf"}, default="roc_auc"
        ``"roc_auc"``: prior-corrected ROC AUC, ``(AUC(P vs U) - pi_u / 2) / (1 - pi_u)`` with
        ``pi_u`` the positive share of the unlabeled rows (from ``decision_function`` or
        ``predict_proba``); ``"f1"`` and ``"accuracy"``: prior-corrected F1 and accuracy of
        ``predict``; ``"puf"``: the PUF-score ``recall^2 / P[f(x) = 1]`` of Lee & Liu (ICML 2003),
        which needs no prior and only ranks models.
    prior : float, optional
        Share of positives among all rows (labeled ones included); required unless
        ``metric="puf"``.  It must exceed the labeled share of every test fold.

    Returns
    -------
    scorer : PUScorer

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> from weakfs.datasets import make_pu_labels
    >>> from weakfs.model_selection import PUStratifiedKFold, make_pu_scorer
    >>> from sklearn.datasets import make_classification
    >>> X, y = make_classification(n_samples=400, random_state=0)
    >>> s = make_pu_labels(y, labeled_fraction=0.5, random_state=0).s
    >>> scores = cross_val_score(LogisticRegression(), X, s, cv=PUStratifiedKFold(4),
    ...                          scoring=make_pu_scorer("roc_auc", prior=y.mean()))
    >>> bool(0.8 < scores.mean() <= 1.05)
    True
    """
    if metric not in _METRICS:
        raise ValueError(f"metric must be one of {sorted(_METRICS)}; got {metric!r}")
    if metric != "puf":
        if prior is None:
            raise ValueError(f"metric={metric!r} needs the class prior: pass prior=")
        prior = check_prior_value(prior)
    return PUScorer(metric, prior)
