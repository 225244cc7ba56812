"""One fold of a comparison: a selector fitted on the fold's training rows and the downstream
model scored on its test rows (``_Scorer``), and the references (random columns, all features).
Each task checks the budget's wall-clock deadline before it starts."""

from __future__ import annotations

import time
import warnings
from typing import NamedTuple

import numpy as np
from sklearn.base import clone
from sklearn.metrics import accuracy_score
from sklearn.utils import _safe_indexing

from weakfs._estimator_scores import binary_roc_auc, positive_scores
from weakfs._scores import feature_order
from weakfs._screen import screen_columns
from weakfs.compare._board import ALL_FEATURES, RANDOM
from weakfs.compare._methods import METHODS, settings_at
from weakfs.feature_selection import TiedScoresWarning
from weakfs.metrics import pu_roc_auc_score

__all__ = [
    "SCREEN_COLUMNS",
    "Failed",
    "FoldRow",
    "FoldRows",
    "FoldTask",
    "Scorer",
    "Skipped",
    "add_method_records",
    "first_line",
    "has_tied_note",
    "method_fold",
    "past",
    "reference_fold",
    "screen_columns",
    "tied_fit",
    "tied_note",
]


class Scorer:
    """Fits the downstream model on selected columns and scores it on a fold's test rows:
    ``(score, raw score, truth)``."""

    def __init__(self, kind: str, model, prior, y_true):
        self.kind, self.model, self.prior, self.y_true = kind, model, prior, y_true

    def __call__(self, X, y, train, test, cols) -> tuple[float, float, float]:
        return self.fit_score(X, y, train, test, cols)[0]

    def fit_score(self, X, y, train, test, cols) -> tuple[tuple[float, float, float], object]:
        """``((score, raw score, truth), the fitted model)``."""
        Xtr = _safe_indexing(_safe_indexing(X, train), cols, axis=1)
        Xte = _safe_indexing(_safe_indexing(X, test), cols, axis=1)
        ytr, yte = y[train], y[test]
        truth = np.nan
        if self.kind == "pu":
            fitted = clone(self.model).fit(Xtr, ytr)
            scores = positive_scores(fitted, Xte)
            raw = binary_roc_auc(yte, scores)
            score = pu_roc_auc_score(yte, scores, prior=self.prior)
            if self.y_true is not None:
                truth = binary_roc_auc(self.y_true[test], scores)
            return (float(score), float(raw), float(truth)), fitted
        labeled = ytr != -1
        fitted = clone(self.model).fit(_safe_indexing(Xtr, np.flatnonzero(labeled)), ytr[labeled])
        known = yte != -1
        score = accuracy_score(
            yte[known], fitted.predict(_safe_indexing(Xte, np.flatnonzero(known)))
        )
        if self.y_true is not None:
            truth = accuracy_score(self.y_true[test], fitted.predict(Xte))
        return (float(score), float(score), float(truth)), fitted

    def keeping_choices_of(self, fitted) -> Scorer:
        """This scorer with the model's data-chosen setting fixed (the weak-label model's C:
        ``with_chosen_c``), for random draws of one size on one fold: they are exchangeable, so
        the C chosen on the first serves the others without its search."""
        fixed = getattr(fitted, "with_chosen_c", None)
        return self if fixed is None else Scorer(self.kind, fixed(), self.prior, self.y_true)


class FoldTask(NamedTuple):
    """What one fold's task reads: a method (its settings, the prior it reads and its seed) on
    the training and test rows of ``(X, y)`` at the sizes ``ks``, scored by ``scorer``, and not
    started past the wall-clock ``deadline``.  The references' task has ``method`` None."""

    method: str | None
    fold: int
    settings: dict
    prior: float | None
    seed: int
    X: np.ndarray
    y: np.ndarray
    train: np.ndarray
    test: np.ndarray
    ks: list[int]
    scorer: Scorer
    deadline: float | None


class FoldRow(NamedTuple):
    """One row's result on one fold: the board's record."""

    method: str
    fold: int
    k: int
    score: float
    raw_score: float
    truth: float
    seconds: float
    columns: np.ndarray


class Skipped(NamedTuple):
    """A task that found the budget's deadline passed before it started."""


class Failed(NamedTuple):
    """A method's fit that raised on one fold: the board leaves the method out and says why."""

    error: str


class FoldRows(list):
    """A method's :class:`FoldRow` on one fold; ``tied`` is the most selected columns that were
    ties filled in column order rather than chosen (a selector's ``n_tied_selected_``), for the
    notes."""

    tied = 0


def tied_fit(estimator, X, y):
    """``estimator.fit(X, y)`` without its :class:`TiedScoresWarning`: the board says it once,
    in its notes, rather than once per fold and k."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TiedScoresWarning)
        return estimator.fit(X, y)


def past(deadline: float | None) -> bool:
    """Whether the wall-clock ``deadline`` has passed (wall clock: the tasks may run in other
    processes, whose monotonic clocks differ)."""
    return deadline is not None and time.time() > deadline


def method_fold(task: FoldTask) -> FoldRows | Skipped | Failed:
    """One method on one fold: its :class:`FoldRow` per k; a :class:`Skipped` past the deadline,
    a :class:`Failed` when the fit raises (one selector failing on a table leaves it out instead
    of ending the comparison)."""
    if past(task.deadline):
        return Skipped()
    try:
        return _fit_and_score(task)
    except Exception as exc:  # any selector's failure is reported, not raised
        return Failed(first_line(exc))


#: tables with more columns are screened, on each fold's training rows, to this many columns
#: before a selector runs (the references use every column)
SCREEN_COLUMNS = 2000


def _fit_and_score(task: FoldTask) -> FoldRows:
    name, settings, prior, seed, ks = task.method, task.settings, task.prior, task.seed, task.ks
    X, y, train, test, scorer = task.X, task.y, task.train, task.test, task.scorer
    spec = METHODS[name]
    Xtr, ytr = _safe_indexing(X, train), y[train]
    d = Xtr.shape[1]
    kept = np.arange(d)
    start = time.perf_counter()
    if d > SCREEN_COLUMNS:
        kept = screen_columns(Xtr, ytr, SCREEN_COLUMNS)
        Xtr = Xtr[:, kept]
    screen_seconds = time.perf_counter() - start
    rows = FoldRows()
    if spec.ranker:
        # every column is the same set in any order: a greedy ranker (cost ~ k d) stops at the
        # largest smaller k
        k_fit = max([k for k in ks if k < Xtr.shape[1]], default=1)
        start = time.perf_counter()
        est = tied_fit(spec.build(k_fit, settings, prior, seed), Xtr, ytr)
        rows.tied = getattr(est, "n_tied_selected_", 0)
        order = kept[feature_order(est)]
        seconds = time.perf_counter() - start + screen_seconds
        for k in ks:
            cols = np.arange(d) if k == d else np.sort(order[:k])
            scores = scorer(X, y, train, test, cols)
            rows.append(FoldRow(name, task.fold, k, *scores, seconds, cols))
        return rows
    fitted = {}  # a method that chooses its own number of features (SEW-IL) ignores k: one fit
    for k in ks:
        k_fit = min(k, Xtr.shape[1]) if spec.k_param is not None else None
        at_k = settings_at(settings, k) if k_fit is not None else settings
        if at_k is None:  # its settings leave this k out
            continue
        if k_fit not in fitted:
            start = time.perf_counter()
            est = tied_fit(spec.build(k_fit, at_k, prior, seed), Xtr, ytr)
            rows.tied = max(rows.tied, getattr(est, "n_tied_selected_", 0))
            cols = kept[np.flatnonzero(est.get_support())]
            fitted[k_fit] = (cols, time.perf_counter() - start + screen_seconds)
        cols, seconds = fitted[k_fit]
        scores = scorer(X, y, train, test, cols)
        rows.append(FoldRow(name, task.fold, k, *scores, seconds, cols))
    return rows


def first_line(exc: Exception) -> str:
    """``"TypeName: first line of the message"`` (at most 200 characters of it)."""
    return f"{type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:200]}"


def add_method_records(records: list, notes: list, m: str, results: list) -> None:
    """Add a method's :class:`FoldRow` on every fold to ``records``, or none of them (with a
    note) when a fold failed or was not reached in the budget: a method is compared only on every
    fold."""
    failed = [(f, r) for f, r in enumerate(results) if isinstance(r, Failed)]
    if failed:
        f, r = failed[0]
        notes.append(f"{m} left out: its fit failed on fold {f + 1} ({r.error})")
        return
    if any(isinstance(r, Skipped) for r in results):
        done = sum(not isinstance(r, Skipped) for r in results)
        notes.append(f"{m} left out for the budget: {done} of {len(results)} folds ran in time")
        return
    for fold_rows in results:
        records += fold_rows
    tied = [getattr(fold_rows, "tied", 0) for fold_rows in results]
    if any(tied):
        notes.append(tied_note(m, f"on {sum(map(bool, tied))} of {len(tied)} folds", max(tied)))


def tied_note(m: str, where: str, most: int) -> str:
    """The note for a method whose selections were partly ties in column order."""
    return (
        f"{m}: {where}, up to {most} of its selected columns scored no higher than zero and "
        "were taken in column order, not chosen by the data (too few labeled rows where it "
        "measures importance)"
    )


def has_tied_note(notes: list, m: str) -> bool:
    """Whether ``notes`` already hold :func:`tied_note`'s note for method ``m``."""
    return any(n.startswith(f"{m}: ") and "taken in column order" in n for n in notes)


def reference_fold(
    task: FoldTask, n_random: int, *, expected: float = 0.0, all_features: tuple | None = None
) -> list[FoldRow] | Skipped:
    """Random selection (mean of ``n_random`` draws per k) and all features on one fold.

    :class:`Skipped` when the fold cannot end by the task's deadline: it has passed, or is
    nearer than the fold's ``expected`` seconds (a started fold is not interrupted).
    ``all_features``: this fold's ``(score, raw score, truth, seconds)`` of every column when
    already scored (by the budget's plan), not fitted again.
    """
    deadline, f = task.deadline, task.fold
    if past(None if deadline is None else deadline - expected):
        return Skipped()
    X, y, train, test, ks, scorer = task.X, task.y, task.train, task.test, task.ks, task.scorer
    d = X.shape[1]
    rng = np.random.RandomState(task.seed)
    rows = []
    start = time.perf_counter()
    if all_features is None:
        score, raw, truth = scorer(X, y, train, test, np.arange(d))
        all_features = (score, raw, truth, time.perf_counter() - start)
    rows.append(FoldRow(ALL_FEATURES, f, d, *all_features, np.arange(d)))
    for k in ks:
        draws = [np.sort(rng.choice(d, size=k, replace=False)) for _ in range(n_random)]
        start = time.perf_counter()
        first, fitted = scorer.fit_score(X, y, train, test, draws[0])
        same_size = scorer.keeping_choices_of(fitted)
        results = [first] + [same_size(X, y, train, test, cols) for cols in draws[1:]]
        seconds = (time.perf_counter() - start) / n_random
        rows.append(FoldRow(RANDOM, f, k, *np.mean(results, axis=0), seconds, draws[0]))
    return rows
