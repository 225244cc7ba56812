"""Scores of a fitted classifier and their ROC AUC: the ground floor that the PU metrics, the PU
scorers and ``compare`` share."""

from __future__ import annotations

import numpy as np

__all__ = ["average_ranks", "binary_roc_auc", "positive_scores", "pu_corrected_roc_auc"]


def positive_scores(estimator, X) -> np.ndarray:
    """Continuous positive-class scores: ``decision_function`` if present, else
    ``predict_proba[:, positive column]``."""
    if hasattr(estimator, "decision_function"):
        scores = np.asarray(estimator.decision_function(X), dtype=float)
        if scores.ndim == 1:
            return scores
    if hasattr(estimator, "predict_proba"):
        proba = np.asarray(estimator.predict_proba(X), dtype=float)
        classes = list(getattr(estimator, "classes_", [0, 1]))
        positive = classes.index(1) if 1 in classes else proba.shape[1] - 1
        return proba[:, positive]
    raise TypeError(
        f"{type(estimator).__name__} has neither decision_function nor predict_proba: "
        "the PU ROC AUC needs continuous scores"
    )


def binary_roc_auc(y, score) -> float:
    """ROC AUC of 0/1 labels ``y`` from finite scores: scikit-learn's ``roc_auc_score`` through
    the Mann-Whitney statistic (ties counted one half), without its input checks, which cost
    most of its time on the thousands of small folds of a comparison.

    Examples
    --------
    >>> binary_roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    y = np.asarray(y) == 1
    n_pos = int(y.sum())
    n_neg = y.size - n_pos
    if n_pos == 0 or n_neg == 0:
        raise ValueError("ROC AUC needs both classes among the labels")
    ranks = average_ranks(np.asarray(score, dtype=float))
    return float((ranks[y].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))


def average_ranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n of a 1-d float array, ties sharing their mean rank: ``scipy.stats.rankdata``'s
    numbers exactly (half-integers, exact in float64), without its overhead, which dominates on
    the small folds that permutation importance scores thousands of times."""
    if values.size == 0 or not np.isfinite(values).all():
        from scipy.stats import rankdata

        return rankdata(values)
    order = np.argsort(values, kind="mergesort")
    ordered = values[order]
    starts_group = np.empty(values.size, dtype=bool)
    starts_group[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=starts_group[1:])
    starts = np.flatnonzero(starts_group)
    ends = np.append(starts[1:], values.size)
    # positions start..end-1 hold ranks start+1..end, whose mean is (start + 1 + end) / 2
    group_rank = (starts + 1 + ends) / 2.0
    ranks = np.empty(values.size)
    ranks[order] = group_rank[np.cumsum(starts_group) - 1]
    return ranks


def pu_corrected_roc_auc(s: np.ndarray, score: np.ndarray, prior_unlabeled: float) -> float:
    """``(AUC(P vs U) - pi_u / 2) / (1 - pi_u)`` on checked inputs: the PU ROC AUC of
    :func:`weakfs.metrics.pu_roc_auc_score`, whose checks a scorer bound to one fold does once."""
    auc_pu = binary_roc_auc(s, score)
    return (auc_pu - prior_unlabeled / 2.0) / (1.0 - prior_unlabeled)
