"""Shared input checks, seeding and progress helpers used by every estimator."""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Iterable

import numpy as np
from sklearn.exceptions import DataConversionWarning
from sklearn.utils import check_random_state
from sklearn.utils.validation import validate_data

__all__ = [
    "check_n_features_to_select",
    "check_y_given",
    "progress",
    "spawn_random_states",
    "spawn_seeds",
    "validate_X",
    "validate_X_y",
]


def validate_X(
    estimator,
    X,
    *,
    reset: bool = True,
    accept_sparse: bool | str | list = False,
    dtype="numeric",
    ensure_min_features: int = 1,
    ensure_min_samples: int = 1,
    ensure_all_finite: bool | str = True,
):
    """``validate_data`` with weakfs defaults: a copy-free numeric array, NaN/inf rejected.

    scikit-learn's messages already name the problem ("Input X contains NaN", "Sparse data was
    passed ... but dense data is required", "0 feature(s) ... while a minimum of 1 is required").
    The input is never modified: callers must copy before writing.
    """
    return validate_data(
        estimator,
        X,
        reset=reset,
        accept_sparse=accept_sparse,
        dtype=dtype,
        ensure_min_features=ensure_min_features,
        ensure_min_samples=ensure_min_samples,
        ensure_all_finite=ensure_all_finite,
    )


def check_y_given(estimator, y, *, stacklevel: int = 3) -> None:
    """scikit-learn's error for a missing ``y`` and its warning for a column-vector ``y``.

    The wording is the one scikit-learn's estimator checks look for.
    """
    if y is None:
        raise ValueError(
            f"{type(estimator).__name__} requires y to be passed, but the target y is None"
        )
    shape = getattr(y, "shape", None)
    if shape is not None and len(shape) == 2 and shape[1] == 1:
        warnings.warn(
            "A column-vector y was passed when a 1d array was expected; it is raveled",
            DataConversionWarning,
            stacklevel=stacklevel,
        )


def validate_X_y(
    estimator,
    X,
    y,
    *,
    accept_sparse: bool | str | list = False,
    dtype="numeric",
    ensure_min_features: int = 1,
    ensure_min_samples: int = 1,
    ensure_all_finite: bool | str = True,
):
    """Validate ``X`` (resetting ``n_features_in_``) and check ``y`` has one entry per row.

    A missing ``y`` raises and a column-vector ``y`` warns (:func:`check_y_given`).  Labels are
    returned as given (1-D numpy): their coding is checked by ``weakfs._labels``.
    """
    check_y_given(estimator, y, stacklevel=4)
    X = validate_X(
        estimator,
        X,
        reset=True,
        accept_sparse=accept_sparse,
        dtype=dtype,
        ensure_min_features=ensure_min_features,
        ensure_min_samples=ensure_min_samples,
        ensure_all_finite=ensure_all_finite,
    )
    from weakfs._labels import _as_1d

    y = _as_1d(y)
    if y.shape[0] != X.shape[0]:
        raise ValueError(
            f"X and y have inconsistent numbers of samples: X has {X.shape[0]} rows, y has "
            f"{y.shape[0]}"
        )
    return X, y


def check_n_features_to_select(n_features_to_select, n_features: int, *, default_fraction=0.5):
    """Resolve ``n_features_to_select`` (None, int or a fraction in (0, 1]) to an int.

    Raises a ``ValueError`` naming both numbers when more features are requested than exist.
    """
    if n_features_to_select is None:
        k = max(1, int(np.ceil(default_fraction * n_features)))
    elif isinstance(n_features_to_select, numbers.Integral) and not isinstance(
        n_features_to_select, bool
    ):
        k = int(n_features_to_select)
    elif isinstance(n_features_to_select, numbers.Real) and 0 < n_features_to_select <= 1:
        k = max(1, int(np.ceil(n_features_to_select * n_features)))
    else:
        raise ValueError(
            "n_features_to_select must be None, a positive int or a fraction in (0, 1]; got "
            f"{n_features_to_select!r}"
        )
    if k < 1:
        raise ValueError(f"n_features_to_select must be at least 1; got {k}")
    if k > n_features:
        raise ValueError(
            f"n_features_to_select={k} is larger than the number of features ({n_features}); "
            "too few features to select from"
        )
    return k


def spawn_seeds(random_state, n: int) -> np.ndarray:
    """Draw ``n`` independent integer seeds from ``random_state``.

    The seeds depend only on ``random_state``, never on how work is later split across jobs, so
    results are the same for every ``n_jobs``.
    """
    rng = check_random_state(random_state)
    return rng.randint(np.iinfo(np.int32).max, size=n, dtype=np.int64)


def spawn_random_states(random_state, n: int) -> list[np.random.RandomState]:
    """``n`` independent ``RandomState`` objects derived from ``random_state``."""
    return [np.random.RandomState(int(s)) for s in spawn_seeds(random_state, n)]


def progress(iterable: Iterable, *, enabled: bool, total: int | None = None, desc: str = ""):
    """Wrap ``iterable`` in a tqdm bar when ``enabled`` (library calls default to off)."""
    if not enabled:
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, total=total, desc=desc, leave=False)
