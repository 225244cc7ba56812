"""Metrics for weakly supervised feature selection and PU classification."""

from __future__ import annotations

import numpy as np

from weakfs._labels import _as_1d, check_pu_labels

__all__ = [
    "feature_selection_recall",
    "pu_precision_recall",
    "puf_score",
]


def _as_index_set(features, n_features: int | None, name: str) -> set[int]:
    arr = np.asarray(features)
    if arr.dtype == bool:
        if n_features is not None and arr.shape[0] != n_features:
            raise ValueError(f"{name} mask has {arr.shape[0]} entries, expected {n_features}")
        return set(np.flatnonzero(arr).tolist())
    return set(arr.astype(int).ravel().tolist())


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
        raise ValueError(f"s has {s.shape[0]} rows but y_pred has {pred.shape[0]}")
    positive = pred > 0 if pred.dtype.kind in "iuf" else pred.astype(bool)
    recall = positive[s == 1].mean()
    unlabeled = s == 0
    share = max(positive[unlabeled].mean(), 1.0 / unlabeled.sum())
    return float(recall**2 / share)


def pu_precision_recall(s, y_pred, prior: float) -> tuple[float, float]:
    """PU-corrected precision and recall under SCAR with a known class prior ``pi``.

    Recall is estimated on the labeled positives; precision as ``recall * pi / P[f(x) = 1]`` with
    ``P[f(x) = 1]`` over all rows (Bayes' rule), clipped to [0, 1].
    """
    if not 0 < prior < 1:
        raise ValueError(f"prior must be in (0, 1); got {prior}")
    s = check_pu_labels(s, name="s")
    pred = _as_1d(y_pred, "y_pred")
    positive = pred > 0 if pred.dtype.kind in "iuf" else pred.astype(bool)
    recall = float(positive[s == 1].mean())
    rate = float(positive.mean())
    precision = 0.0 if rate == 0 else min(1.0, recall * prior / rate)
    return precision, recall
