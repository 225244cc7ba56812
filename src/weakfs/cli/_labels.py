"""The labels a command reads from the table's target column: PU labels from ``--positive``,
semi-supervised labels from ``--positive``/``--negative`` or the column's classes, or simulated
weak labels (``--labeled-fraction``); each with the line and notes it has for the user."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from weakfs._columns import is_bool_column
from weakfs._methods import METHODS
from weakfs._words import counted
from weakfs.cli._common import _fail, _names
from weakfs.cli._table import TableRequest

__all__ = ["Labels", "_positive_mask", "_prepare_labels"]


@dataclass(frozen=True)
class Labels:
    """The labels the selector is fitted with (None: it reads none), a line on stdout saying
    what they are, and notes."""

    values: np.ndarray | None
    lines: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def _label_kind(y: pd.Series) -> str:
    if is_bool_column(y):
        return "bool"
    if ptypes.is_integer_dtype(y):
        return "int"
    if ptypes.is_float_dtype(y):
        return "float"
    return "text"


def _equal(y: pd.Series, value) -> np.ndarray:
    """``y == value`` as a numpy bool array, missing entries False."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        match = y.notna() & (y == value)
    return match.fillna(False).to_numpy(dtype=bool)


def _positive_mask(
    y: pd.Series, text: str, *, option: str = "--positive"
) -> tuple[np.ndarray, object]:
    """Rows whose target equals ``text`` (``--positive`` or ``--negative``), read as the
    column's own type."""
    kind = _label_kind(y)
    value = None
    if kind == "bool":
        value = {"true": True, "1": True, "false": False, "0": False}.get(text.strip().lower())
    elif kind in ("int", "float"):
        try:
            number = float(text)
        except ValueError:
            number = None
        if number is not None:
            value = number if kind == "float" or not number.is_integer() else int(number)
    else:
        value = text
    if value is None:
        mask = np.zeros(len(y), dtype=bool)
    elif kind == "text":
        mask = (y.notna() & (y.astype(str) == value)).to_numpy(dtype=bool)
    else:
        mask = _equal(y, value)
    if not mask.any():
        counts = y.value_counts(dropna=False)
        found = _names([f"{v} ({n})" for v, n in counts.items()], limit=10)
        _fail(
            f"{option} {text!r} matches no row of the {kind} target column {y.name!r}; "
            f"its values: {found}"
        )
    return mask, value


def _other_values_note(y: pd.Series, mask: np.ndarray, method: str) -> str | None:
    """A note naming the target's other values, which PU methods read as unlabeled."""
    others = y[~mask & y.notna().to_numpy()]
    if not len(others):
        return None
    counts = others.astype(str).value_counts()
    listed = _names([f"{v!r} ({n})" for v, n in counts.items()], limit=6)
    first = str(counts.index[0])
    return (
        f"{y.name!r} also holds {listed}: {method} reads PU labels, so these rows are unlabeled "
        "like the blank ones; if they are confirmed negatives, a semi-supervised method can use "
        "them: "
        + (
            f"weakfs compare ... --positive ... --negative {first!r} (compares the "
            "semi-supervised selectors)"
            if method == "compare"
            else f"--method sewil --positive ... --negative {first!r}"
        )
    )


def _prepare_labels(request: TableRequest, y: pd.Series | None) -> Labels:
    kind, fraction = request.labels, request.labeled_fraction
    if kind == "none":
        if request.positive is not None or fraction is not None:
            ignored = "--positive and --labeled-fraction are ignored"
            return Labels(None, notes=(f"{request.method} reads no labels: {ignored}",))
        return Labels(None)
    if y is None:
        _fail(f"method {request.method!r} needs labels: give --target")
    if kind == "pu":
        if request.negative is not None:
            semi = [n for n, spec in METHODS.items() if spec.labels == "semi"]
            _fail(
                f"{request.method} reads PU labels (labeled positives, the rest unlabeled) and "
                f"no labeled negatives: drop --negative, or use a semi-supervised method "
                f"({', '.join(semi)})"
            )
        return _pu_labels(request, y)
    if request.negative is not None or request.positive is not None:
        return _two_class_labels(request, y)
    # semi-supervised: missing = unlabeled = -1; text or bool classes become codes 0, 1, ...
    n = len(y)
    if ptypes.is_numeric_dtype(y) and not is_bool_column(y):
        values = y.to_numpy(dtype=float, na_value=np.nan)
        labels = np.where(np.isnan(values), -1.0, values)
        if np.all(labels == np.round(labels)):
            labels = labels.astype(np.int64)
    else:
        labels, _ = pd.factorize(y, sort=True)
    classes = y[labels != -1].dropna().astype(str).value_counts()
    if len(classes) < 2:
        found = _names([f"{v!r} ({k})" for v, k in classes.items()]) or "none"
        _fail(
            f"{request.method} needs at least two labeled classes in {y.name!r}; it holds "
            f"{found} (blank rows are unlabeled); --positive and --negative choose two values"
        )
    if fraction is not None:
        rng = np.random.RandomState(request.random_state)
        labels = labels.copy()
        labels[rng.random_sample(n) >= fraction] = -1
    n_labeled = int((labels != -1).sum())
    line = f"semi-supervised labels: {n_labeled} labeled, {n - n_labeled} unlabeled"
    return Labels(labels, (line,))


def _two_class_labels(request: TableRequest, y: pd.Series) -> Labels:
    """Semi-supervised labels from ``--positive`` (1) and ``--negative`` (0); every other row
    (blank or another value) is unlabeled (-1).  ``--positive`` alone: every other value is
    a negative, blank rows are unlabeled."""
    if request.positive is None:
        _fail("--negative needs --positive (the two classes a semi-supervised method reads)")
    positive, value = _positive_mask(y, request.positive, option="--positive")
    if request.negative is None:  # one against the other labeled values
        negative, other = ~positive & y.notna().to_numpy(), f"not {value}"
    else:
        negative, other = _positive_mask(y, request.negative, option="--negative")
    if (positive & negative).any():
        _fail(f"--positive and --negative match the same rows ({value!r})")
    labels = np.full(len(y), -1, dtype=np.int64)
    labels[positive], labels[negative] = 1, 0
    if request.labeled_fraction is not None:
        rng = np.random.RandomState(request.random_state)
        labels[(labels != -1) & (rng.random_sample(len(y)) >= request.labeled_fraction)] = -1
    n_pos, n_neg = int((labels == 1).sum()), int((labels == 0).sum())
    line = (
        f"semi-supervised labels: {counted(n_pos, 'labeled positive')} ({y.name} = {value}), "
        f"{n_neg} "
        f"labeled negatives ({y.name} = {other}), {len(y) - n_pos - n_neg} unlabeled"
    )
    if not n_pos or not n_neg:
        _fail(f"no labeled {'positives' if not n_pos else 'negatives'} are left: {line}")
    return Labels(labels, (line,))


def _pu_labels(request: TableRequest, y: pd.Series) -> Labels:
    """PU labels: the rows equal to ``--positive`` labeled, or a share of them (SCAR)."""
    if request.positive is None:
        _fail("PU methods need --positive VALUE (the target value of labeled positives)")
    n = len(y)
    mask, value = _positive_mask(y, request.positive)
    if request.labeled_fraction is None:
        if mask.all():
            _fail(
                f"every row has {y.name} = {value}: PU data needs unlabeled rows (to "
                "simulate weak labels from a fully labelled target, give --labeled-fraction)"
            )
        line = (
            f"PU labels: {counted(int(mask.sum()), 'labeled positive')} ({y.name} = {value}), "
            f"{counted(n - int(mask.sum()), 'unlabeled row')}"
        )
        note = _other_values_note(y, mask, request.method)
        return Labels(mask.astype(np.int8), (line,), (note,) if note else ())
    if y.isna().any():
        _fail(
            f"--labeled-fraction simulates weak labels from a fully labelled target, but "
            f"{counted(int(y.isna().sum()), 'row')} of {y.name!r} have no value"
        )
    from weakfs.datasets import make_pu_labels

    pu = make_pu_labels(
        mask,
        positive=True,
        labeled_fraction=request.labeled_fraction,
        random_state=request.random_state,
    )
    line = (
        f"PU labels simulated from {y.name} = {value}: {pu.n_labeled} of {pu.n_positive} "
        f"positives labeled (label frequency {pu.label_frequency:.3f}), "
        f"{counted(n - pu.n_labeled, 'unlabeled row')}; true prior of the simulated labels "
        f"{pu.prior:.3f} (not used)"
    )
    return Labels(pu.s, (line,))
