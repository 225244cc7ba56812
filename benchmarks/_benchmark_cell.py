"""A benchmark cell's data as its cell code builds it, for the scripts that study one cell."""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import train_test_split

from weakfs.experiments.benchmark._cells import _table, _weak_labels
from weakfs.experiments.benchmark._protocol import MAX_ROWS, REGIMES, TEST_SIZE


def cell_split(name: str, regime: str, seed: int = 0):
    """``(X, y, train rows, test rows, weak labels of the train rows)`` of a benchmark cell:
    rows subsampled and split as the cell does, its training-constant columns dropped."""
    X, y, _ = _table(name)
    rows = np.arange(X.shape[0])
    if rows.size > MAX_ROWS:
        rows, _ = train_test_split(rows, train_size=MAX_ROWS, stratify=y, random_state=seed)
    tr, te = train_test_split(rows, test_size=TEST_SIZE, stratify=y[rows], random_state=seed)
    X = X[:, X[tr].std(axis=0) > 0]
    kind, parameter = REGIMES[regime]
    return X, y, tr, te, _weak_labels(kind, parameter, X[tr], y[tr], seed)
