"""The univariate screen of wide tables: the columns whose values differ most between the
labeled classes (or the labeled positives and the other rows), used before the slow parts of a
comparison and of the class prior's estimate."""

from __future__ import annotations

import numpy as np

__all__ = ["screen_columns"]


def screen_columns(X, y, n_keep: int) -> np.ndarray:
    """The ``n_keep`` columns (sorted indices) whose values differ most between the labeled
    positives and the other rows (PU), or between the labeled classes (semi-supervised), by a
    standardised mean difference (largest over the classes); ties kept in column order.  A
    univariate screen: it keeps columns that matter alone and may drop those that matter only
    together."""
    X = np.asarray(X, dtype=float)
    classes = [c for c in np.unique(y) if c != -1] if np.any(y == -1) else [1]
    sd = X.std(axis=0) + 1e-12
    score = np.zeros(X.shape[1])
    for c in classes:
        inside = y == c
        other = (y != c) & ((y != -1) if np.any(y == -1) else True)
        if inside.any() and other.any():
            gap = np.abs(X[inside].mean(axis=0) - X[other].mean(axis=0)) / sd
            score = np.maximum(score, gap)
    return np.sort(np.argsort(-score, kind="stable")[:n_keep])
