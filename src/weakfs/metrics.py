"""Metrics for weakly supervised feature selection and PU classification."""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, validate_params

from weakfs._docstrings import fill_doc
from weakfs._estimator_scores import pu_corrected_roc_auc
from weakfs._labels import (
    _as_1d,
    check_prior_against_labels,
    check_pu_labels,
    prior_of_unlabeled,
)
from weakfs._words import counted

__all__ = [
    "StabilityEstimate",
    "feature_selection_recall",
    "pu_accuracy_score",
    "pu_f1_score",
    "pu_precision_recall",
    "pu_roc_auc_score",
    "puf_score",
    "selection_stability",
]


#: a class prior given as a number: the share of positives, strictly between 0 and 1
_PRIOR = Interval(Real, 0, 1, closed="neither")


def _as_index_set(features, n_features: int | None, name: str) -> set[int]:
    arr = np.asarray(features)
    if arr.dtype == bool:
        if n_features is not None and arr.shape[0] != n_features:
            raise ValueError(f"{name} mask has {arr.shape[0]} entries, expected {n_features}")
        return set(np.flatnonzero(arr).tolist())
    return set(arr.astype(int).ravel().tolist())


@validate_params(
    {
        "selected": ["array-like"],
        "relevant": ["array-like"],
        "n_features": [Interval(Integral, 1, None, closed="left"), None],
    },
    prefer_skip_nested_validation=True,
)
def feature_selection_recall(selected, relevant, *, n_features: int | None = None) -> float:
    """FSR = (correctly selected relevant features) / (all relevant features).

    ``selected`` and ``relevant`` are boolean masks or lists of column positions.

    Examples
    --------
    >>> feature_selection_recall([0, 1, 7], relevant=[0, 1, 2, 3])
    0.5
    """
    rel = _as_index_set(relevant, n_features, "relevant")
    if not rel:
        raise ValueError("relevant is empty: FSR is undefined without relevant features")
    sel = _as_index_set(selected, n_features, "selected")
    return len(sel & rel) / len(rel)


@validate_params(
    {"s": ["array-like"], "y_pred": ["array-like"]}, prefer_skip_nested_validation=True
)
def puf_score(s, y_pred) -> float:
    """PUF-score ``recall^2 / P[f(x) = 1]`` (Lee & Liu 2003), computable from PU labels alone.

    ``recall`` is the share of labeled positives predicted positive; ``P[f(x) = 1]`` is the share
    of unlabeled rows predicted positive (as the GKF-PUAL paper's tuning uses it).  Returns 0 when
    nothing unlabeled is predicted positive and recall is 0; ``inf`` never occurs because a positive
    recall with no positive unlabeled prediction is scored with the denominator floored at 1/n_u.

    Parameters
    ----------
    s : array-like of shape (n_samples,)
        PU labels (1 labeled positive; 0, -1 or False unlabeled).
    y_pred : array-like of shape (n_samples,)
        Predictions; positive means ``1`` or ``True`` (``-1``/``0`` negative).

    Examples
    --------
    >>> puf_score([1, 1, 0, 0, 0, 0], [1, 1, 1, 0, 0, 0])
    4.0
    """
    s = check_pu_labels(s, name="s")
    pred = _as_1d(y_pred, "y_pred")
    if pred.shape[0] != s.shape[0]:
        raise ValueError(f"s has {counted(s.shape[0], 'row')} but y_pred has {pred.shape[0]}")
    positive = pred > 0 if pred.dtype.kind in "iuf" else pred.astype(bool)
    recall = positive[s == 1].mean()
    unlabeled = s == 0
    share = max(positive[unlabeled].mean(), 1.0 / unlabeled.sum())
    return float(recall**2 / share)


def _positive_predictions(s: np.ndarray, y_pred) -> np.ndarray:
    pred = _as_1d(y_pred, "y_pred")
    if pred.shape[0] != s.shape[0]:
        raise ValueError(f"s has {counted(s.shape[0], 'row')} but y_pred has {pred.shape[0]}")
    return pred > 0 if pred.dtype.kind in "iuf" else pred.astype(bool)


@validate_params(
    {"s": ["array-like"], "y_pred": ["array-like"], "prior": [_PRIOR]},
    prefer_skip_nested_validation=True,
)
@fill_doc
def pu_precision_recall(s, y_pred, prior: float) -> tuple[float, float]:
    """PU-corrected precision and recall under SCAR with a known class prior ``pi``.

    Recall is estimated on the labeled positives (under SCAR they are a random sample of the
    positives); precision as ``recall * pi / P[f(x) = 1]`` with ``P[f(x) = 1]`` over all rows
    (Bayes' rule), clipped to [0, 1].

    Parameters
    ----------
    %(pu_metric_parameters)s

    Returns
    -------
    precision, recall : float

    Examples
    --------
    >>> pu_precision_recall([1, 0, 0, 0], [1, 1, 0, 0], prior=0.5)
    (1.0, 1.0)
    """
    s = check_pu_labels(s, name="s")
    prior = check_prior_against_labels(prior, s)
    positive = _positive_predictions(s, y_pred)
    recall = float(positive[s == 1].mean())
    rate = float(positive.mean())
    precision = 0.0 if rate == 0 else min(1.0, recall * prior / rate)
    return precision, recall


@validate_params(
    {"s": ["array-like"], "y_pred": ["array-like"], "prior": [_PRIOR]},
    prefer_skip_nested_validation=True,
)
@fill_doc
def pu_f1_score(s, y_pred, prior: float) -> float:
    """F1 of the positive class estimated from PU labels and the class prior (SCAR).

    The harmonic mean of :func:`pu_precision_recall`'s precision and recall.

    Parameters
    ----------
    %(pu_metric_parameters)s

    Examples
    --------
    >>> pu_f1_score([1, 1, 0, 0, 0, 0], [1, 1, 1, 0, 0, 0], prior=0.5)
    1.0
    """
    precision, recall = pu_precision_recall(s, y_pred, prior)
    return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)


@validate_params(
    {"s": ["array-like"], "y_pred": ["array-like"], "prior": [_PRIOR]},
    prefer_skip_nested_validation=True,
)
@fill_doc
def pu_accuracy_score(s, y_pred, prior: float) -> float:
    """Accuracy estimated from PU labels and the class prior (SCAR).

    With ``TPR`` measured on the labeled positives and ``r = P[f(x) = 1]`` over all rows,
    ``r = pi TPR + (1 - pi) FPR``, so accuracy ``pi TPR + (1 - pi)(1 - FPR)`` equals
    ``1 - pi - r + 2 pi TPR`` (clipped to [0, 1]).

    Parameters
    ----------
    %(pu_metric_parameters)s

    Examples
    --------
    >>> pu_accuracy_score([1, 1, 0, 0, 0, 0], [1, 1, 1, 0, 0, 0], prior=0.5)
    1.0
    """
    s = check_pu_labels(s, name="s")
    prior = check_prior_against_labels(prior, s)
    positive = _positive_predictions(s, y_pred)
    recall = float(positive[s == 1].mean())
    rate = float(positive.mean())
    return float(min(1.0, max(0.0, 1.0 - prior - rate + 2.0 * prior * recall)))


@validate_params(
    {"s": ["array-like"], "y_score": ["array-like"], "prior": [_PRIOR]},
    prefer_skip_nested_validation=True,
)
def pu_roc_auc_score(s, y_score, prior: float) -> float:
    """ROC AUC of positives against negatives, estimated from PU labels and the class prior.

    Under SCAR the unlabeled rows are a mixture with positive share
    ``pi_u = (pi - l) / (1 - l)`` (``l`` the share of labeled rows), so the AUC of labeled
    against unlabeled rows is ``AUC(P vs U) = pi_u / 2 + (1 - pi_u) AUC(P vs N)``; this function
    returns ``(AUC(P vs U) - pi_u / 2) / (1 - pi_u)``.  The estimate is unbiased and not clipped,
    so on small folds it can leave [0, 1] slightly; averages over folds stay unbiased.

    Parameters
    ----------
    s : array-like of shape (n_samples,)
        PU labels (1 labeled positive; 0, -1 or False unlabeled).
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    prior : float
        Share of positives among all rows (labeled ones included).

    Examples
    --------
    >>> s = [1, 1, 0, 0, 0, 0]
    >>> round(pu_roc_auc_score(s, [0.9, 0.8, 0.85, 0.7, 0.1, 0.2], prior=0.5), 3)
    1.0
    """
    s = check_pu_labels(s, name="s")
    prior = check_prior_against_labels(prior, s)
    score = _as_1d(y_score, "y_score")
    if score.shape[0] != s.shape[0]:
        raise ValueError(f"s has {counted(s.shape[0], 'row')} but y_score has {score.shape[0]}")
    score = np.asarray(score, dtype=float)
    if not np.isfinite(score).all():
        raise ValueError("y_score contains NaN or infinite values")
    return pu_corrected_roc_auc(s, score, prior_of_unlabeled(s, prior))


@dataclass(frozen=True)
class StabilityEstimate:
    """The stability of a feature selection procedure over repeated runs, with its interval."""

    value: float
    low: float
    high: float
    confidence: float
    n_runs: int


@validate_params(
    {
        "supports": ["array-like", "sparse matrix"],
        "confidence": [Interval(Real, 0, 1, closed="neither")],
    },
    prefer_skip_nested_validation=True,
)
def selection_stability(supports, *, confidence: float = 0.95) -> StabilityEstimate:
    """Stability of feature selection over runs (Nogueira, Sechidis & Brown, JMLR 2018).

    ``Φ = 1 - mean_f s_f^2 / (k̄/d (1 - k̄/d))`` with ``s_f^2 = M/(M-1) p_f (1 - p_f)`` the unbiased
    variance of feature ``f``'s selection over the ``M`` runs and ``k̄`` the mean number selected:
    1 when every run selects the same features, about 0 for random selection of the same size
    (it is corrected for chance), negative when worse than chance.  The interval is the paper's
    asymptotic normal one, from the estimator's variance (its Theorem 9).

    Parameters
    ----------
    supports : array-like of bool, shape (M, d)
        One row per run: the features it selected (``M >= 2``).
    confidence : float, default=0.95
        Level of the interval.

    Returns
    -------
    StabilityEstimate
        ``value``, ``low``, ``high``, ``confidence`` and ``n_runs``; the bounds are NaN when every
        run selected no feature or all of them (the index is then undefined).

    Examples
    --------
    >>> same = [[1, 1, 0, 0]] * 5
    >>> selection_stability(same).value
    1.0
    >>> import numpy as np
    >>> rng = np.random.RandomState(0)
    >>> random = [rng.permutation(40) < 10 for _ in range(200)]
    >>> abs(selection_stability(random).value) < 0.05
    True
    """
    from scipy.stats import norm

    Z = np.asarray(supports, dtype=float)
    if Z.ndim != 2 or Z.shape[0] < 2:
        raise ValueError(
            f"supports must hold at least 2 runs (rows) of d features; got shape {Z.shape}"
        )
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1); got {confidence}")
    M, d = Z.shape
    p = Z.mean(axis=0)
    kbar = p.sum()
    denom = (kbar / d) * (1 - kbar / d)
    if denom <= 0:  # no feature ever chosen, or every feature always: Φ is undefined
        return StabilityEstimate(np.nan, np.nan, np.nan, confidence, M)
    value = 1 - (M / (M - 1)) * np.mean(p * (1 - p)) / denom
    k = Z.sum(axis=1)
    # each run's contribution to the estimator (the paper's φ_i), then its variance
    phi = (
        (Z @ p) / d - k * kbar / d**2 + (value / 2) * (2 * k * kbar / d**2 - k / d - kbar / d + 1)
    ) / denom
    variance = 4 / M**2 * np.sum((phi - phi.mean()) ** 2)
    half = norm.ppf(0.5 + confidence / 2) * np.sqrt(variance)
    # the normal interval can cross the index's range; Φ itself lies in [-1, 1]
    low, high = max(-1.0, value - half), min(1.0, value + half)
    return StabilityEstimate(float(value), float(low), float(high), confidence, M)
