"""Shared input checks and seeding used by every estimator."""

from __future__ import annotations

import numbers
import threading
from collections.abc import Callable

import numpy as np
from scipy import sparse
from sklearn.utils import check_random_state
from sklearn.utils.validation import validate_data

from weakfs._labels import _as_1d, check_y_given
from weakfs._words import counted

__all__ = [
    "N_FEATURES_TO_SELECT_DOC",
    "as_pandas_if_table",
    "check_budget_and_costs",
    "check_n_features_to_select",
    "check_n_neighbors",
    "n_features_to_select_constraint",
    "spawn_random_states",
    "spawn_seeds",
    "validate_X",
    "validate_X_y",
]


# the estimators that accept scipy sparse matrices, named in the error of those that do not
SPARSE_ALTERNATIVES = (
    "PUExtraTreesClassifier, SemiJMISelector or MRMRSelector (PU labels), SEWILSelector, "
    "SelfLearningClassifier, SemiFisherSelector, SSLSSelector, SSelectSelector or RLSRSelector "
    "(semi-supervised) or "
    "UFVSSelector (unsupervised)"
)


def as_pandas_if_table(X):
    """An Arrow table or record batch, or a Polars DataFrame, as a pandas DataFrame (its
    column names and per-column types kept); anything else as it is.

    scikit-learn's ``validate_data`` already reads these tables and their feature names (through
    narwhals from scikit-learn 1.9, the dataframe interchange protocol before), so every
    estimator keeps the names; the readers that look at each column's type
    (:class:`~weakfs.preprocessing.TablePreparer`, :class:`~weakfs.unsupervised.UFVSSelector`)
    convert them first, to read them as they read pandas ones.

    Examples
    --------
    >>> import pyarrow as pa
    >>> frame = as_pandas_if_table(pa.table({"a": [1.0, 2.0], "b": ["x", "y"]}))
    >>> type(frame).__name__, list(frame.columns), str(frame["a"].dtype)
    ('DataFrame', ['a', 'b'], 'float64')
    """
    module = type(X).__module__.split(".")[0]
    if module == "pyarrow" and hasattr(X, "num_columns") and hasattr(X, "to_pandas"):
        return X.to_pandas()
    if module == "polars" and type(X).__name__ == "DataFrame":
        return X.to_pandas()
    return X


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
    The input is never modified: callers must copy before writing.  A sparse matrix given to an
    estimator that needs dense input gets a ``TypeError`` naming the estimators that take one.
    """
    if accept_sparse is False and sparse.issparse(X):
        raise TypeError(
            f"{type(estimator).__name__} needs dense X but got a sparse matrix; convert it with "
            f"X.toarray() if it fits in memory, or use {SPARSE_ALTERNATIVES}, which take sparse "
            "matrices as they are"
        )
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


def validate_X_y(estimator, X, y, **check_params):
    """Validate ``X`` (resetting ``n_features_in_``) and check ``y`` has one entry per row.

    ``check_params`` are :func:`validate_X`'s keyword arguments (``accept_sparse``, ``dtype``,
    ``ensure_min_features``, ``ensure_min_samples``, ``ensure_all_finite``).  A missing ``y``
    raises and a column-vector ``y`` warns (:func:`weakfs._labels.check_y_given`).  Labels are
    returned as given (1-D numpy): their coding is checked by ``weakfs._labels``.
    """
    check_y_given(estimator, y, stacklevel=4)
    X = validate_X(estimator, X, reset=True, **check_params)
    y = _as_1d(y)
    if y.shape[0] != X.shape[0]:
        raise ValueError(
            f"X and y have inconsistent numbers of samples: X has {counted(X.shape[0], 'row')}, y "
            "has "
            f"{y.shape[0]}"
        )
    return X, y


N_FEATURES_TO_SELECT_DOC = """\
        How many features to keep; one meaning everywhere in weakfs:

        - int ``k >= 1``: exactly ``k`` (an error if the data has fewer features);
        - float in ``(0, 1]``: that fraction of the features, rounded up (at least 1);
        - ``None``: half of the features, rounded up (scikit-learn's RFE convention);
        - ``"auto"``: the method's own default from its paper, stated with the parameter (only
          where the method has one)."""


def check_n_features_to_select(
    n_features_to_select,
    n_features: int,
    *,
    auto: Callable[[int], int] | None = None,
) -> int:
    """Resolve ``n_features_to_select`` to a number of features (the one resolver of weakfs).

    Parameters
    ----------
    n_features_to_select : int, float, None or "auto"
        See ``N_FEATURES_TO_SELECT_DOC``: int = exactly that many; float in (0, 1] = that
        fraction rounded up; None = half, rounded up; ``"auto"`` = ``auto(n_features)``.
    n_features : int
        Number of features of the data.
    auto : callable, optional
        The method's paper default as a function of ``n_features``; without it ``"auto"`` is an
        error.

    Returns
    -------
    k : int
        ``1 <= k <= n_features``; otherwise a ``ValueError`` naming both numbers.

    Examples
    --------
    >>> check_n_features_to_select(None, 5), check_n_features_to_select(0.3, 10)
    (3, 3)
    >>> check_n_features_to_select("auto", 27, auto=lambda d: round(d ** (2 / 3)))
    9
    """
    value = n_features_to_select
    if isinstance(value, bool | np.bool_):
        raise ValueError(
            f"n_features_to_select must be a number of features or a fraction; got {value!r} "
            "(a boolean is neither)"
        )
    if value is None:
        k = max(1, int(np.ceil(0.5 * n_features)))
    elif isinstance(value, str) and value == "auto" and auto is not None:
        k = int(auto(n_features))
    elif isinstance(value, numbers.Integral):
        k = int(value)
    elif isinstance(value, numbers.Real) and 0 < value <= 1:
        k = max(1, int(np.ceil(float(value) * n_features)))
    else:
        allowed = "None, 'auto', " if auto is not None else "None, "
        raise ValueError(
            f"n_features_to_select must be {allowed}a positive int or a fraction in (0, 1]; got "
            f"{value!r}"
        )
    if k < 1:
        raise ValueError(f"n_features_to_select must be at least 1; got {k}")
    if k > n_features:
        raise ValueError(
            f"n_features_to_select={k} is larger than the number of features ({n_features}); "
            "too few features to select from"
        )
    return k


def n_features_to_select_constraint(*, auto: bool = False) -> list:
    """The ``_parameter_constraints`` entry matching :func:`check_n_features_to_select`."""
    from sklearn.utils._param_validation import Interval, StrOptions

    entry = [
        None,
        Interval(numbers.Integral, 1, None, closed="left"),
        Interval(numbers.Real, 0, 1, closed="right"),
    ]
    return [StrOptions({"auto"}), *entry] if auto else entry


def spawn_seeds(random_state, n: int) -> np.ndarray:
    """Draw ``n`` independent integer seeds from ``random_state``.

    The seeds depend only on ``random_state``, never on how work is later split across jobs, so
    results are the same for every ``n_jobs``.
    """
    rng = check_random_state(random_state)
    return rng.randint(np.iinfo(np.int32).max, size=n, dtype=np.int64)


_thread_random_state = threading.local()


def transient_random_state(random_state) -> np.random.RandomState:
    """``check_random_state``, except that an integer seed reseeds this thread's one
    ``RandomState`` instead of building a new one: the same stream (numpy's legacy seeding,
    which ``RandomState(seed)`` also applies, resets the whole state), for a caller that uses it
    at once and keeps no reference.  ``RandomState(seed)`` first seeds a fresh bit generator
    from the OS's entropy, about 100 µs, which a mixture fitted in a millisecond per candidate
    pays thousands of times in a search; reseeding takes 3 µs.
    """
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        rng = getattr(_thread_random_state, "rng", None)
        if rng is None:
            rng = _thread_random_state.rng = np.random.RandomState()
        rng.seed(int(random_state))
        return rng
    return check_random_state(random_state)


def spawn_random_states(random_state, n: int) -> list[np.random.RandomState]:
    """``n`` independent ``RandomState`` objects derived from ``random_state``."""
    return [np.random.RandomState(int(s)) for s in spawn_seeds(random_state, n)]


def check_n_neighbors(n_neighbors: int, n_samples: int) -> int:
    """``n_neighbors`` for a k-nearest-neighbour graph on ``n_samples`` rows: a ``ValueError``
    when there are not more rows than neighbours (each row needs ``n_neighbors`` others)."""
    if n_neighbors >= n_samples:
        raise ValueError(
            f"n_neighbors={n_neighbors} needs more than {counted(n_neighbors, 'row')} (each row's "
            "neighbours "
            f"are other rows); X has {n_samples}"
        )
    return int(n_neighbors)


def check_budget_and_costs(
    budget, costs, n_features: int, *, costs_name: str = "costs"
) -> tuple[float | None, np.ndarray]:
    """Validate a cost budget and the per-feature costs it bounds (FSCPU, the compact GA).

    Parameters
    ----------
    budget : float or None
        Total cost allowed; ``None`` passes through (each caller says what it means).
    costs : array-like of shape (n_features,) or None
        Positive finite cost of each feature; ``None``: 1 each.
    n_features : int
        Number of features.
    costs_name : str, default="costs"
        The costs' parameter name in error messages.

    Returns
    -------
    budget : float or None
    costs : ndarray of shape (n_features,)
        A ``ValueError`` for costs of another shape, not finite or not positive, and for a budget
        below the cheapest feature (nothing could be selected).
    """
    costs = np.ones(n_features) if costs is None else np.asarray(costs, dtype=float)
    if costs.shape != (n_features,):
        raise ValueError(f"{costs_name} must have shape ({n_features},); got {costs.shape}")
    if not np.all(np.isfinite(costs)) or np.any(costs <= 0):
        raise ValueError(
            f"{costs_name} must be finite and positive (no negative costs); got min {costs.min()}"
        )
    if budget is None:
        return None, costs
    budget = float(budget)
    if budget < costs.min():
        raise ValueError(
            f"budget {budget} is below the cheapest feature cost {costs.min()}: "
            "no feature can be selected"
        )
    return budget, costs
