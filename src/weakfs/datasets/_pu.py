"""Turning fully labeled data into PU data under SCAR (selected completely at random)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.utils import check_random_state

from weakfs._labels import _as_1d

__all__ = ["PULabeling", "make_pu_labels"]


@dataclass(frozen=True)
class PULabeling:
    """What :func:`make_pu_labels` did.

    Attributes
    ----------
    s : ndarray of int8
        PU labels: 1 = labeled positive, 0 = unlabeled.
    y_true : ndarray of int8
        The binary truth: 1 = positive class, 0 = negative.
    labeled_index : ndarray of int
        Row positions that were labeled (sorted).
    positive : tuple
        The original label values counted as positive.
    n_positive, n_labeled : int
        Number of true positives and of labeled rows.
    prior : float
        Share of positives among all rows (the class prior ``pi``).
    label_frequency : float
        ``n_labeled / n_positive`` (the SCAR constant ``c``).
    """

    s: np.ndarray
    y_true: np.ndarray
    labeled_index: np.ndarray
    positive: tuple
    n_positive: int
    n_labeled: int
    prior: float
    label_frequency: float

    def __iter__(self):
        """Unpack as ``s, y_true = make_pu_labels(...)``."""
        return iter((self.s, self.y_true))

    def summary(self) -> str:
        return (
            f"{self.n_labeled} of {self.n_positive} positives labeled "
            f"(label frequency {self.label_frequency:.3f}); class prior {self.prior:.3f}; "
            f"{self.s.shape[0] - self.n_labeled} unlabeled rows"
        )


def make_pu_labels(
    y,
    *,
    positive=1,
    labeled_fraction: float | None = None,
    n_labeled: int | None = None,
    random_state=None,
) -> PULabeling:
    """Hide the labels of all negatives and of a random share of the positives (SCAR).

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        True labels in any coding.
    positive : value, list of values, or callable, default=1
        Which labels form the positive class: one value, several values, or a function of the
        label array returning a boolean mask.
    labeled_fraction : float in (0, 1], optional
        Share of positives to label (rounded to the nearest count, at least 1).
    n_labeled : int, optional
        Number of positives to label.  Give exactly one of ``labeled_fraction`` and ``n_labeled``.
    random_state : int, RandomState or None
        Seed of the draw.

    Returns
    -------
    PULabeling
        ``s`` (1 labeled / 0 unlabeled), the binary truth and what was done.

    Examples
    --------
    >>> from weakfs.datasets import make_pu_labels
    >>> pu = make_pu_labels([0, 1, 1, 1, 0, 1], positive=1, n_labeled=2, random_state=0)
    >>> int(pu.s.sum()), pu.n_positive, round(pu.prior, 3)
    (2, 4, 0.667)
    """
    arr = _as_1d(y)
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise ValueError(
            f"y has {int(np.isnan(arr).sum())} missing (NaN) labels: a row's class must be known "
            "to simulate PU labels"
        )
    if isinstance(positive, Callable):
        is_pos = np.asarray(positive(arr), dtype=bool)
        pos_values: tuple = tuple(pd.unique(arr[is_pos]))
    else:
        pos_values = tuple(positive) if _is_listlike(positive) else (positive,)
        if arr.dtype.kind in "iub":
            # compare as the labels are stored: 1.5 must not become 1, "yes" must not crash
            bad = [v for v in pos_values if not _is_integer_value(v)]
            if bad:
                raise ValueError(
                    f"positive={bad[0]!r} is not an integer, but y holds integer labels: "
                    f"{sorted(pd.unique(arr).tolist())[:10]!r}"
                )
        is_pos = np.isin(
            arr, np.asarray(pos_values, dtype=arr.dtype if arr.dtype.kind != "O" else object)
        )
    n_pos = int(is_pos.sum())
    if n_pos == 0:
        found = pd.unique(arr)[:10]
        raise ValueError(
            f"no row has a positive label {list(pos_values)!r}; labels found: {list(found)!r}"
        )
    if n_pos == arr.shape[0]:
        raise ValueError("every row is positive: PU data needs negatives among the unlabeled rows")
    if (labeled_fraction is None) == (n_labeled is None):
        raise ValueError("give exactly one of labeled_fraction and n_labeled")
    if labeled_fraction is not None:
        if not 0 < labeled_fraction <= 1:
            raise ValueError(f"labeled_fraction must be in (0, 1]; got {labeled_fraction}")
        k = max(1, round(labeled_fraction * n_pos))
    else:
        k = int(n_labeled)
        if not 1 <= k <= n_pos:
            raise ValueError(f"n_labeled must be between 1 and the {n_pos} positives; got {k}")
    rng = check_random_state(random_state)
    labeled_index = np.sort(rng.choice(np.flatnonzero(is_pos), size=k, replace=False))
    s = np.zeros(arr.shape[0], dtype=np.int8)
    s[labeled_index] = 1
    return PULabeling(
        s=s,
        y_true=is_pos.astype(np.int8),
        labeled_index=labeled_index,
        positive=pos_values,
        n_positive=n_pos,
        n_labeled=k,
        prior=n_pos / arr.shape[0],
        label_frequency=k / n_pos,
    )


def _is_listlike(value) -> bool:
    return isinstance(value, Iterable) and not isinstance(value, (str, bytes))


def _is_integer_value(value) -> bool:
    """True for an int, a bool or a float with an integral value (1.0), False otherwise."""
    if isinstance(value, (bool, np.bool_, int, np.integer)):
        return True
    if isinstance(value, (float, np.floating)):
        return float(value).is_integer()
    return False
