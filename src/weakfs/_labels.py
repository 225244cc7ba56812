"""One place that normalises and checks weak labels.

Two label conventions are used throughout weakfs:

* **PU labels** (positive-unlabeled): ``1`` (or ``True``) marks a labeled positive; ``0``, ``-1`` or
  ``False`` marks an unlabeled row.  :func:`check_pu_labels` returns them as an ``int8``
  array of 1/0; :func:`check_pu_target` is the same check for a PU estimator's ``fit``, in the
  wording of scikit-learn's estimator checks.
* **Semi-supervised labels**: scikit-learn's convention, ``-1`` marks an unlabeled row and any other
  value is a class.  :func:`check_semi_supervised_labels` returns the labeled mask and the classes.

Every problem raises a ``ValueError`` (or ``TypeError``) that says what was found and what is
expected.  This module imports nothing from weakfs: ``weakfs._validation`` builds on it.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse
from sklearn.exceptions import DataConversionWarning
from sklearn.utils import assert_all_finite
from sklearn.utils.multiclass import type_of_target

from weakfs._words import counted

__all__ = [
    "PU_LABEL_HELP",
    "SemiSupervisedLabels",
    "check_finite_target",
    "check_prior_against_labels",
    "check_prior_value",
    "check_pu_labels",
    "check_pu_target",
    "check_semi_supervised_labels",
    "check_weak_labels",
    "check_y_given",
    "prior_of_unlabeled",
    "pu_one_class_error",
]

PU_LABEL_HELP = "PU labels must be 1 or True (labeled positive) and 0, -1 or False (unlabeled)"
UNLABELED = -1


def _as_1d(y, name: str = "y") -> np.ndarray:
    """Return ``y`` as a 1-D numpy array (a copy is never needed: callers do not write to it)."""
    if y is None:
        raise ValueError(f"{name} is required: got None")
    if sparse.issparse(y):
        raise TypeError(f"{name} must be a 1-D array-like, got a sparse matrix")
    if isinstance(y, pd.DataFrame):
        if y.shape[1] != 1:
            raise ValueError(
                f"{name} must be 1-D, got a DataFrame with {counted(y.shape[1], 'column')}"
            )
        y = y.iloc[:, 0]
    if isinstance(y, pd.Series):
        y = y.to_numpy()
    arr = np.asarray(y)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr.ravel()
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got an array of shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty: 0 samples")
    return arr


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


def _describe_values(values: np.ndarray, limit: int = 8) -> str:
    shown = ", ".join(repr(v.item() if hasattr(v, "item") else v) for v in values[:limit])
    more = f", ... ({len(values)} distinct)" if len(values) > limit else ""
    return f"[{shown}{more}]"


def _refuse_semi_supervised_coding(arr: np.ndarray, name: str) -> None:
    """1, 0 and -1 together are scikit-learn's semi-supervised coding (-1 = unlabeled, 0 = a
    labeled negative); a PU method would silently read the labeled negatives as unlabeled."""
    if arr.dtype == bool or arr.dtype.kind not in "iufO":
        return
    try:
        present = set(pd.unique(pd.Series(arr, dtype=object)).tolist())
    except TypeError:  # unhashable objects: the checks below report them
        return
    if {1, 0, -1} <= present:
        raise ValueError(
            f"{name} holds 1, 0 and -1: that is semi-supervised coding (-1 = unlabeled, 0 = a "
            "labeled negative), and a PU method would read the labeled negatives as unlabeled. "
            "For PU labels use 1 = labeled positive and 0 (or -1) = unlabeled; to use the "
            "labeled negatives, use a semi-supervised method"
        )


def check_pu_labels(
    y,
    *,
    require_labeled: bool = True,
    require_unlabeled: bool = True,
    name: str = "y",
) -> np.ndarray:
    """Normalise PU labels to an ``int8`` array with 1 = labeled positive, 0 = unlabeled.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        ``1``/``True`` for labeled positives; ``0``, ``-1`` or ``False`` for unlabeled rows.
        Floats are accepted when they hold exactly these values.
    require_labeled : bool, default=True
        Raise if no row is labeled positive.
    require_unlabeled : bool, default=True
        Raise if every row is labeled.
    name : str, default="y"
        Name used in error messages.

    Returns
    -------
    s : ndarray of shape (n_samples,), dtype int8
        1 for labeled positives, 0 for unlabeled rows.

    Examples
    --------
    >>> from weakfs._labels import check_pu_labels
    >>> check_pu_labels([1, -1, -1, 1])
    array([1, 0, 0, 1], dtype=int8)

    Labels holding 1, 0 *and* -1 are semi-supervised coding (0 = a labeled negative), not PU:

    >>> check_pu_labels([1, 0, -1, 1])
    Traceback (most recent call last):
    ...
    ValueError: y holds 1, 0 and -1: ...
    """
    arr = _as_1d(y, name)
    _refuse_semi_supervised_coding(arr, name)
    if arr.dtype == bool:
        s = arr.astype(np.int8)
    elif arr.dtype.kind in "iu":
        bad = ~np.isin(arr, (-1, 0, 1))
        if bad.any():
            raise ValueError(
                f"{PU_LABEL_HELP}; {name} has the values {_describe_values(np.unique(arr[bad]))}"
            )
        s = (arr == 1).astype(np.int8)
    elif arr.dtype.kind == "f":
        if np.isnan(arr).any():
            raise ValueError(
                f"{name} contains NaN ({counted(int(np.isnan(arr).sum()), 'row')}); {PU_LABEL_HELP}"
            )
        bad = ~np.isin(arr, (-1.0, 0.0, 1.0))
        if bad.any():
            raise ValueError(
                f"{PU_LABEL_HELP}; {name} has the values {_describe_values(np.unique(arr[bad]))}"
            )
        s = (arr == 1.0).astype(np.int8)
    else:
        # object arrays: accept only Python bools/ints in the allowed set (never strings)
        values = pd.unique(pd.Series(arr, dtype=object))
        allowed = {-1, 0, 1}
        for v in values:
            if isinstance(v, str) or v is None or (isinstance(v, float) and np.isnan(v)):
                raise ValueError(
                    f"{PU_LABEL_HELP}; {name} has non-numeric values {_describe_values(values)}. "
                    "Turn a class column into PU labels with weakfs.datasets.make_pu_labels."
                )
            if v not in allowed:
                raise ValueError(
                    f"{PU_LABEL_HELP}; {name} has the values {_describe_values(values)}"
                )
        s = np.fromiter((int(v == 1) for v in arr), dtype=np.int8, count=arr.shape[0])
    n_labeled = int(s.sum())
    if require_labeled and n_labeled == 0:
        raise ValueError(
            f"{name} has no labeled positive row (no 1 among {counted(s.shape[0], 'row')}); "
            "PU learning needs at least one labeled positive"
        )
    if require_unlabeled and n_labeled == s.shape[0]:
        raise ValueError(
            f"{name} has no unlabeled row: all {counted(s.shape[0], 'row')} are labeled positive; "
            "PU learning needs unlabeled rows (0, -1 or False)"
        )
    return s


def check_finite_target(y, *, name: str = "y") -> None:
    """Reject NaN or infinite labels with scikit-learn's message, before any cast to int."""
    y_array = np.asarray(y)
    if y_array.dtype.kind in "fc":
        assert_all_finite(y_array, input_name=name)


def check_pu_target(estimator, y, *, name: str = "y", allow_one_class: bool = False) -> np.ndarray:
    """:func:`check_pu_labels` for the ``fit`` of a PU estimator, with scikit-learn's messages.

    A missing ``y`` gets scikit-learn's "requires y to be passed" error (and a column vector its
    warning); a continuous target says "Unknown label type", a target with more than two values
    other than ``-1``/``0``/``1`` "Only binary classification is supported", and a target with a
    single value (nothing labeled, or nothing unlabeled) "one class only": the wording
    scikit-learn's estimator checks look for.

    Parameters
    ----------
    estimator : estimator instance
        The estimator being fitted (named in the message for a missing ``y``).
    y : array-like of shape (n_samples,)
        PU labels: ``1``/``True`` labeled positive; ``0``, ``-1`` or ``False`` unlabeled.
    name : str, default="y"
        Name used in error messages.
    allow_one_class : bool, default=False
        Accept a single class: a chunk of a streamed fit may hold one, and the caller checks
        the whole data with :func:`pu_one_class_error`.

    Returns
    -------
    s : ndarray of shape (n_samples,), dtype int8
        As :func:`check_pu_labels` returns it.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from weakfs._labels import check_pu_target
    >>> check_pu_target(LogisticRegression(), [1, -1, -1, 1])
    array([1, 0, 0, 1], dtype=int8)
    """
    check_y_given(estimator, y)
    check_finite_target(y, name=name)
    kind = type_of_target(y, input_name=name)
    if kind in ("continuous", "continuous-multioutput", "multilabel-indicator"):
        raise ValueError(f"Unknown label type: {kind}. {PU_LABEL_HELP}")
    if kind not in ("binary", "unknown"):
        values = np.unique(np.asarray(y))
        if not np.isin(values, (-1, 0, 1)).all():
            raise ValueError(
                f"Only binary classification is supported. The type of the target is {kind} "
                f"(values {values.tolist()[:10]}); {PU_LABEL_HELP}"
            )
    s = check_pu_labels(y, require_labeled=False, require_unlabeled=False, name=name)
    if s.min() == s.max() and not allow_one_class:
        raise pu_one_class_error(s.shape[0], labeled=bool(s[0]), name=name)
    return s


def pu_one_class_error(n_rows: int, *, labeled: bool, name: str = "y") -> ValueError:
    """The error of :func:`check_pu_target` for PU labels of one class: all ``n_rows`` rows
    labeled (``labeled=True``) or all unlabeled."""
    found = "labeled positive" if labeled else "unlabeled"
    missing = "unlabeled row" if labeled else "labeled positive row"
    return ValueError(
        f"{name} has one class only: all {counted(n_rows, 'row')} are {found} (no {missing}); "
        "PU learning needs labeled positive (1) and unlabeled (0, -1 or False) rows"
    )


@dataclass(frozen=True)
class SemiSupervisedLabels:
    """Checked semi-supervised labels.

    Attributes
    ----------
    y : ndarray
        The labels as given (``-1`` for unlabeled rows).
    labeled : ndarray of bool
        Which rows carry a class.
    classes : ndarray
        The sorted distinct classes of the labeled rows.
    y_encoded : ndarray of int
        Class index into ``classes`` for labeled rows, ``-1`` for unlabeled rows.
    """

    y: np.ndarray
    labeled: np.ndarray
    classes: np.ndarray
    y_encoded: np.ndarray

    @property
    def n_labeled(self) -> int:
        return int(self.labeled.sum())

    @property
    def n_unlabeled(self) -> int:
        return int((~self.labeled).sum())


def check_semi_supervised_labels(
    y,
    *,
    require_unlabeled: bool = True,
    min_classes: int = 2,
    name: str = "y",
) -> SemiSupervisedLabels:
    """Check scikit-learn style semi-supervised labels (``-1`` = unlabeled).

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels; ``-1`` marks unlabeled rows.  String classes are accepted (their unlabeled
        marker is still the integer ``-1`` or the string ``"-1"``).
    require_unlabeled : bool, default=True
        Raise if no row is unlabeled.
    min_classes : int, default=2
        Minimum number of distinct classes among the labeled rows.
    name : str, default="y"
        Name used in error messages.

    Returns
    -------
    SemiSupervisedLabels

    Examples
    --------
    >>> from weakfs._labels import check_semi_supervised_labels
    >>> lab = check_semi_supervised_labels([0, 1, -1, 2, -1])
    >>> lab.classes, lab.n_unlabeled
    (array([0, 1, 2]), 2)
    """
    arr = _as_1d(y, name)
    if arr.dtype.kind == "f":
        if np.isnan(arr).any():
            raise ValueError(
                f"{name} contains NaN ({counted(int(np.isnan(arr).sum()), 'row')}); "
                "mark unlabeled rows with -1"
            )
        labeled = arr != UNLABELED
        fractional = labeled & (arr != np.round(arr))
        if fractional.any():
            raise ValueError(
                f"{name} holds continuous values ({_describe_values(np.unique(arr[fractional]))}"
                "): a classifier or semi-supervised selector needs class labels, with -1 for "
                "unlabeled rows"
            )
    elif arr.dtype.kind in "iub":
        labeled = arr != UNLABELED
    else:
        obj = arr.astype(object)
        missing = pd.isna(pd.Series(obj)).to_numpy()
        if missing.any():
            raise ValueError(
                f"{name} contains missing values ({counted(int(missing.sum()), 'row')}); mark "
                "unlabeled rows "
                "with -1"
            )
        labeled = np.array([not (v == UNLABELED or v == "-1") for v in obj], dtype=bool)
    if not labeled.any():
        raise ValueError(
            f"{name} has no labeled row: all {counted(arr.shape[0], 'row')} are -1 (unlabeled); "
            "semi-supervised learning needs some labeled rows"
        )
    if require_unlabeled and labeled.all():
        raise ValueError(
            f"{name} has no unlabeled row (no -1 among {counted(arr.shape[0], 'row')}); "
            "mark unlabeled rows with -1"
        )
    classes, codes = np.unique(arr[labeled], return_inverse=True)
    if classes.shape[0] < min_classes:
        raise ValueError(
            f"{name} has {classes.shape[0]} class among its labeled rows "
            f"({_describe_values(classes)}); at least {min_classes} are needed"
        )
    y_encoded = np.full(arr.shape[0], -1, dtype=np.intp)
    y_encoded[labeled] = codes
    return SemiSupervisedLabels(y=arr, labeled=labeled, classes=classes, y_encoded=y_encoded)


#: the two kinds of weak labels a reader of either (weakfs compare) accepts
WEAK_LABEL_HELP = (
    "PU labels (1 = labeled positive, 0 or -1 = unlabeled) or semi-supervised labels "
    "(-1 = unlabeled, at least two classes among the labeled rows)"
)


def check_weak_labels(y, *, name: str = "y") -> tuple[str, np.ndarray]:
    """Tell PU from semi-supervised labels and check them as such.

    Labels with ``-1`` (unlabeled) beside at least two other classes are semi-supervised;
    otherwise they must be PU labels (:func:`check_pu_labels`).

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        PU or semi-supervised labels.
    name : str, default="y"
        Name used in error messages.

    Returns
    -------
    kind : {"pu", "semi"}
        Which labels ``y`` holds.
    labels : ndarray of int
        PU: 1 labeled positive, 0 unlabeled; semi-supervised: the class index (in sorted
        order), -1 unlabeled.

    Examples
    --------
    >>> from weakfs._labels import check_weak_labels
    >>> check_weak_labels([1, -1, 0, -1])
    ('semi', array([ 1, -1,  0, -1]))
    >>> check_weak_labels([1, 0, 0, 1])
    ('pu', array([1, 0, 0, 1]))
    """
    arr = _as_1d(y, name)
    if arr.dtype.kind in "fiu" or arr.dtype == bool:
        numeric = arr.astype(float) if arr.dtype.kind == "f" else arr
        others = np.unique(numeric[numeric != UNLABELED])
        if np.any(numeric == UNLABELED) and others.shape[0] >= 2:
            return "semi", check_semi_supervised_labels(arr, name=name).y_encoded
    values = pd.unique(arr)
    if not all(_is_pu_value(v) for v in values):
        raise ValueError(f"{name} must hold {WEAK_LABEL_HELP}; it holds {_describe_values(values)}")
    return "pu", check_pu_labels(arr, name=name).astype(int)


def _is_pu_value(value) -> bool:
    """Whether ``value`` is one of PU labels' values (1, 0, -1 or a bool; not "1")."""
    return isinstance(value, (bool, int, float, np.bool_, np.number)) and value in (-1, 0, 1)


def check_prior_value(prior) -> float:
    """A class prior given as a number must be a real in (0, 1); returns it as a float."""
    if isinstance(prior, bool) or not isinstance(prior, (int, float, np.floating, np.integer)):
        raise TypeError(f"prior must be a float in (0, 1); got {type(prior).__name__}")
    prior = float(prior)
    if not 0 < prior < 1:
        raise ValueError(f"prior must be in (0, 1); got {prior}")
    return prior


def check_prior_against_labels(prior, s: np.ndarray) -> float:
    """The class prior (share of positives among *all* rows) must exceed the labeled share."""
    prior = check_prior_value(prior)
    labeled_share = float(s.mean())
    if prior < labeled_share:
        raise ValueError(
            f"prior={prior:.4g} is below the share of labeled positives among the rows "
            f"({labeled_share:.4g}); the prior is the share of positives among all rows, labeled "
            "ones included"
        )
    return prior


def prior_of_unlabeled(s: np.ndarray, prior: float) -> float:
    """``pi_u = (pi - l) / (1 - l)``, the positive share of the unlabeled rows (``l`` the labeled
    share), from checked labels and prior."""
    labeled_share = float(s.mean())
    prior_unlabeled = (prior - labeled_share) / (1.0 - labeled_share)
    if prior_unlabeled >= 1.0:
        raise ValueError("prior=1 leaves no negatives: the AUC is undefined")
    return prior_unlabeled
