"""``compare_selectors``: which selector works on this table, judged from its own weak labels.

Every applicable selector runs on the training part of each fold, a downstream model is fitted
on the selected columns, and a score that needs only the weak labels (PU: the prior-corrected
ROC AUC; semi-supervised: accuracy on the labeled test rows) judges it on the fold's test rows.
Two reference rows come with every leaderboard: random selection of the same k, and all
features.  Per selector and k: the score over folds, how stable the chosen sets are across folds
(Nogueira et al., JMLR 2018), the seconds, and the features chosen in most folds.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.metrics import accuracy_score
from sklearn.model_selection import StratifiedKFold
from sklearn.utils import _safe_indexing

from weakfs._estimator_scores import binary_roc_auc, positive_scores
from weakfs._scores import feature_order
from weakfs._validation import spawn_seeds
from weakfs.compare._methods import METHODS, applicable_methods
from weakfs.feature_selection import default_k_grid, default_model
from weakfs.metrics import selection_stability
from weakfs.model_selection import PUStratifiedKFold, make_pu_scorer

__all__ = ["ALL_FEATURES", "RANDOM", "compare_selectors"]

RANDOM = "random"
ALL_FEATURES = "all features"
#: the smallest budget a comparison can run in
_MIN_SECONDS = 5.0
#: the share of the budget planned for: estimates from one probe fit are rough
_BUDGET_SHARE = 0.85


def _label_kind(y) -> str:
    values = np.asarray(y)
    classes = set(np.unique(values[values != -1]).tolist()) if values.size else set()
    if np.any(values == -1) and len(classes) >= 2:
        return "semi"
    if classes <= {0, 1} and np.any(values == 1):
        return "pu"
    raise ValueError(
        "compare reads PU labels (1 = labeled positive, 0 = unlabeled) or semi-supervised labels "
        f"(-1 = unlabeled, at least two classes); y holds {sorted(map(str, classes))[:6]}"
    )


class _Scorer:
    """Fits the downstream model on selected columns and scores it on a fold's test rows."""

    def __init__(self, kind: str, model, prior, y_true):
        self.kind, self.model, self.y_true = kind, model, y_true
        self.pu = make_pu_scorer("roc_auc", prior=prior) if kind == "pu" else None

    def __call__(self, X, y, train, test, cols) -> tuple[float, float]:
        Xtr = _safe_indexing(_safe_indexing(X, train), cols, axis=1)
        Xte = _safe_indexing(_safe_indexing(X, test), cols, axis=1)
        ytr, yte = y[train], y[test]
        if self.kind == "pu":
            fitted = clone(self.model).fit(Xtr, ytr)
            score = self.pu(fitted, Xte, yte)
            truth = np.nan
            if self.y_true is not None:
                truth = binary_roc_auc(self.y_true[test], positive_scores(fitted, Xte))
            return float(score), float(truth)
        labeled = ytr != -1
        fitted = clone(self.model).fit(_safe_indexing(Xtr, np.flatnonzero(labeled)), ytr[labeled])
        known = yte != -1
        score = accuracy_score(
            yte[known], fitted.predict(_safe_indexing(Xte, np.flatnonzero(known)))
        )
        truth = np.nan
        if self.y_true is not None:
            truth = accuracy_score(self.y_true[test], fitted.predict(Xte))
        return float(score), float(truth)


def _method_fold(name, settings, prior, seed, X, y, train, test, ks, scorer, feature_names):
    """One method on one fold: rows of (k, score, truth, seconds, support)."""
    spec = METHODS[name]
    Xtr, ytr = _safe_indexing(X, train), y[train]
    rows = []
    if spec.ranker:
        d = Xtr.shape[1]
        # every column is the same set in any order: a greedy ranker (cost ~ k d) stops at the
        # largest smaller k
        k_fit = max([k for k in ks if k < d], default=1)
        start = time.perf_counter()
        est = spec.build(k_fit, settings, prior, seed).fit(Xtr, ytr)
        order = feature_order(est)
        seconds = time.perf_counter() - start
        for k in ks:
            cols = np.arange(d) if k == d else np.sort(order[:k])
            score, truth = scorer(X, y, train, test, cols)
            rows.append((k, score, truth, seconds, cols))
        return rows
    for k in ks:
        start = time.perf_counter()
        est = spec.build(k, settings, prior, seed).fit(Xtr, ytr)
        cols = np.flatnonzero(est.get_support())
        seconds = time.perf_counter() - start
        score, truth = scorer(X, y, train, test, cols)
        rows.append((k, score, truth, seconds, cols))
    return rows


def _first_line(exc: Exception) -> str:
    """``"TypeName: first line of the message"`` (at most 200 characters of it)."""
    return f"{type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:200]}"


class _Failed(NamedTuple):
    """A method's fit that raised on one fold: the board leaves the method out and says why."""

    error: str


def _method_fold_or_failure(*args):
    """:func:`_method_fold`, or the error it raised: one selector failing on a table (a singular
    mixture, a solver that cannot start) leaves it out of the board instead of ending the
    comparison."""
    try:
        return _method_fold(*args)
    except Exception as exc:  # any selector's failure is reported, not raised
        return _Failed(_first_line(exc))


def _add_method_records(records, notes, m, results) -> None:
    """Add a method's fold rows to ``records``, or none of them (with a note) when a fold failed:
    a method is compared only on every fold."""
    failed = [(f, r) for f, r in enumerate(results) if isinstance(r, _Failed)]
    if failed:
        f, r = failed[0]
        notes.append(f"{m} left out: its fit failed on fold {f + 1} ({r.error})")
        return
    for f, fold_rows in enumerate(results):
        records += [(m, f, k, sc, tr, sec, cols) for k, sc, tr, sec, cols in fold_rows]


def _reference_fold(n_random, seed, X, y, train, test, ks, scorer, d):
    """Random selection (mean of ``n_random`` draws per k) and all features on one fold."""
    rng = np.random.RandomState(seed)
    rows = []
    for k in ks:
        draws = [np.sort(rng.choice(d, size=k, replace=False)) for _ in range(n_random)]
        start = time.perf_counter()
        results = [scorer(X, y, train, test, cols) for cols in draws]
        seconds = (time.perf_counter() - start) / n_random
        rows.append((RANDOM, k, *np.mean(results, axis=0), seconds, draws[0]))
    start = time.perf_counter()
    score, truth = scorer(X, y, train, test, np.arange(d))
    rows.append((ALL_FEATURES, d, score, truth, time.perf_counter() - start, np.arange(d)))
    return rows


def _run(tasks, n_jobs, progress: bool, desc: str):
    from joblib import Parallel, delayed

    from weakfs._progress import progress as bar

    calls = [delayed(func)(*args) for func, args in tasks]
    stream = Parallel(n_jobs=n_jobs, return_as="generator")(calls)
    return list(bar(stream, enabled=progress, total=len(calls), desc=desc))


def _budgeted_settings(name, budget_left, fits_per_unit: float, probe: Callable[[dict], float]):
    """A wrapper's settings scaled to ``budget_left`` seconds, from the time of one probe fit at
    its smallest setting; ``fits_per_unit`` converts that probe into the whole run (folds, and
    the ks relative to the probe's k).  Returns ``(settings, None)``, or ``(None, seconds
    needed)`` when even the smallest setting does not fit."""
    spec = METHODS[name]
    settings = dict(spec.settings)
    if spec.budget_param is None:
        need = probe(settings) * fits_per_unit
        return (settings, None) if need <= budget_left else (None, need)
    low, high = spec.budget_range
    need_low = probe({**settings, spec.budget_param: low}) * fits_per_unit
    units = int(low * budget_left / max(need_low, 1e-9))
    if units < low:
        return None, need_low
    settings[spec.budget_param] = min(high, units)
    return settings, None


def compare_selectors(
    X,
    y,
    *,
    methods=None,
    ks=None,
    model=None,
    cv: int = 5,
    prior="auto",
    prior_interval: bool = False,
    n_random: int = 10,
    y_true=None,
    budget: float | None = 300.0,
    n_jobs=None,
    random_state=0,
    progress: bool = False,
    notes: list | None = None,
) -> pd.DataFrame:
    """Compare the weak-label selectors on ``(X, y)``, judged by a score of the weak labels alone.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Numeric features (a DataFrame keeps its column names).
    y : array-like of shape (n_samples,)
        PU labels (1 = labeled positive, 0 = unlabeled) or semi-supervised labels (-1 =
        unlabeled).
    methods : list of str, optional
        Selectors to run (default: every one that reads these labels).
    ks : list of int, optional
        Numbers of features to try (default: about 8 from 1 to the number of features).
    model : classifier, optional
        Downstream model (default: standardised logistic regression).
    cv : int, default=5
        Folds (PU: :class:`~weakfs.model_selection.PUStratifiedKFold`; semi-supervised:
        stratified on the labels, unlabeled rows a stratum of their own).
    prior : float or "auto", default="auto"
        Class prior of the PU score; ``"auto"``: estimated once on all rows
        (:func:`weakfs.pu.resolve_class_prior`).
    prior_interval : bool, default=False
        With an estimated prior, also its bootstrap interval (``attrs["prior_resolved"]``;
        about a hundred more estimates on tables under 1,000 rows).
    n_random : int, default=10
        Random draws per fold and k for the random reference.
    y_true : array-like, optional
        The hidden truth (known when the weak labels were simulated): adds a ``truth`` column,
        the same model scored against it, to check the weak-label ranking.
    budget : float or None, default=300
        Seconds for the whole comparison: the wrappers (FSCPU, SEW-IL, GKF-PUAL) get the time
        the references and rankers leave, their iterations scaled to fit (the settings chosen
        are reported in ``notes``); a wrapper that cannot fit at its smallest setting is left
        out with a note.  ``None``: every method at its default settings.
    n_jobs : int or None
        Parallel (method, fold) jobs through joblib (a Dask backend works inside
        ``joblib.parallel_config(backend="dask")``).
    random_state : int, default=0
        Seeds the folds, the random reference and the selectors.
    progress : bool, default=False
        Progress bars on stderr.
    notes : list, optional
        Receives sentences about what was done (the prior, budgeted settings, skipped methods).

    Returns
    -------
    leaderboard : DataFrame
        One row per method and k: ``method``, ``k``, ``score``, ``score_sd``, ``truth``,
        ``truth_sd`` (with ``y_true``), ``stability``, ``stability_low``, ``stability_high``,
        ``seconds`` (per fold), ``auto_k`` (True on the k the one-standard-error rule picks for
        the method) and ``features`` (the k features chosen in the most folds, most frequent
        first).  ``attrs`` holds the prior, its source (``prior_how``), the
        :class:`~weakfs.pu.ResolvedPrior` (``prior_resolved``, None for semi-supervised labels)
        and the notes.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=(300, 6)); y_true = (X[:, 0] + X[:, 1] > 0).astype(int)
    >>> s = y_true * (rng.rand(300) < 0.4)
    >>> board = compare_selectors(X, s, methods=["semi_jmi"], ks=[2, 6], prior=0.5,
    ...                           n_random=2, cv=3)
    >>> board[["method", "k"]].values.tolist()
    [['semi_jmi', 2], ['semi_jmi', 6], ['random', 2], ['random', 6], ['all features', 6]]
    """
    start = time.perf_counter()
    notes = [] if notes is None else notes
    names = list(X.columns.astype(str)) if hasattr(X, "columns") else None
    X = X.to_numpy(dtype=float) if hasattr(X, "to_numpy") else np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] == 0:
        raise ValueError(f"X must be a table with at least one column; got shape {X.shape}")
    names = names or [f"x{j}" for j in range(X.shape[1])]
    y = np.asarray(y)
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]}")
    d = X.shape[1]
    kind = _label_kind(y)
    y = y.astype(int)
    chosen = applicable_methods(kind, methods)
    if not chosen:
        raise ValueError(f"no selector reads {kind} labels")
    ks = default_k_grid(d, 8) if ks is None else sorted({int(k) for k in ks})
    if ks[0] < 1 or ks[-1] > d:
        raise ValueError(f"k must lie in [1, {d}] (the number of columns); got {ks}")
    if budget is not None and budget < _MIN_SECONDS:
        raise ValueError(
            f"a budget of {budget:g} s cannot be met: give at least {_MIN_SECONDS:g} s"
        )
    prior_value, prior_how, resolved = (None, None, None)
    if kind == "pu":
        from weakfs.pu import resolve_class_prior

        resolved = resolve_class_prior(
            X, y, prior, interval=prior_interval, random_state=random_state
        )
        prior_value, prior_how = resolved.value, resolved.how
        notes.append(f"class prior used: {prior_value:.4g} ({prior_how})")
        folds = PUStratifiedKFold(cv, shuffle=True, random_state=random_state)
        splits = list(folds.split(X, y))
    else:
        folds = StratifiedKFold(cv, shuffle=True, random_state=random_state)
        splits = list(folds.split(X, y))
    y_true = None if y_true is None else np.asarray(y_true)
    if y_true is not None and y_true.shape[0] != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y_true has {y_true.shape[0]}")
    if y_true is not None and kind == "pu":
        if not set(np.unique(y_true).tolist()) <= {0, 1}:
            raise ValueError(
                "y_true of PU labels must hold the true classes as 0/1 (1 = positive); got "
                f"{sorted(map(str, np.unique(y_true)))[:6]}"
            )
        y_true = y_true.astype(int)
    scorer = _Scorer(kind, default_model() if model is None else model, prior_value, y_true)
    seeds = [int(s) for s in spawn_seeds(random_state, len(splits))]
    records = []
    # references and rankers first: their cost is small and tells what is left for wrappers
    tasks = [
        (_reference_fold, (n_random, seeds[f], X, y, tr, te, ks, scorer, d))
        for f, (tr, te) in enumerate(splits)
    ]
    for f, fold_rows in enumerate(_run(tasks, n_jobs, progress, "references")):
        records += [(m, f, k, sc, tr, sec, cols) for m, k, sc, tr, sec, cols in fold_rows]
    rankers = [m for m in chosen if METHODS[m].ranker and METHODS[m].budget_param is None]
    wrappers = [m for m in chosen if m not in rankers]
    jobs = [(m, f) for m in rankers for f in range(len(splits))]
    tasks = [
        (
            _method_fold_or_failure,
            (m, METHODS[m].settings, prior_value, seeds[f], X, y, *splits[f], ks, scorer, names),
        )
        for m, f in jobs
    ]
    results = list(_run(tasks, n_jobs, progress, "selectors"))
    for m in rankers:
        _add_method_records(records, notes, m, [r for (j, _), r in zip(jobs, results) if j == m])
    for i, m in enumerate(wrappers):
        settings = dict(METHODS[m].settings)
        if budget is not None:
            left = _BUDGET_SHARE * budget - (time.perf_counter() - start)
            share = left / (len(wrappers) - i)
            if share <= 0:  # no probe: it alone would overrun the budget
                notes.append(f"{m} left out: the references and rankers used the whole budget")
                continue
            tr0, _ = splits[0]
            # the probe fits the middle k once; a wrapper's cost grows about linearly with k
            k_probe = ks[-1] if METHODS[m].ranker else ks[len(ks) // 2]
            ks_run = [ks[-1]] if METHODS[m].ranker else ks
            fits_per_unit = len(splits) * sum(ks_run) / k_probe

            def probe(trial, m=m, tr0=tr0, k_probe=k_probe):
                t0 = time.perf_counter()
                METHODS[m].build(k_probe, trial, prior_value, seeds[0]).fit(X[tr0], y[tr0])
                return time.perf_counter() - t0

            try:
                settings, need = _budgeted_settings(m, share, fits_per_unit, probe)
            except Exception as exc:  # as a failed fold: left out, with why
                notes.append(f"{m} left out: its trial fit failed ({_first_line(exc)})")
                continue
            if settings is None:
                notes.append(
                    f"{m} left out: at its cheapest setting it needs about {need:.0f} s, the "
                    f"budget leaves {max(share, 0):.0f} s"
                )
                continue
            param = METHODS[m].budget_param
            if param is not None and settings[param] < METHODS[m].settings[param]:
                notes.append(
                    f"{m}: {param}={settings[param]} (default {METHODS[m].settings[param]}) to "
                    "fit the budget"
                )
        tasks = [
            (
                _method_fold_or_failure,
                (m, settings, prior_value, seeds[f], X, y, tr, te, ks, scorer, names),
            )
            for f, (tr, te) in enumerate(splits)
        ]
        _add_method_records(records, notes, m, list(_run(tasks, n_jobs, progress, m)))
    board = _leaderboard(records, names, d, y_true is not None)
    board.attrs.update(
        prior=prior_value,
        prior_how=prior_how,
        prior_resolved=resolved,
        notes=list(notes),
        labels=kind,
        folds=len(splits),
    )
    return board


def _leaderboard(records, names, d: int, with_truth: bool) -> pd.DataFrame:
    frame = pd.DataFrame(records, columns=["method", "fold", "k", "score", "truth", "s", "cols"])
    order = {m: i for i, m in enumerate([*METHODS, RANDOM, ALL_FEATURES])}
    rows = []
    for (method, k), g in frame.groupby(["method", "k"], sort=False):
        supports = np.zeros((len(g), d), dtype=bool)
        for i, cols in enumerate(g["cols"]):
            supports[i, cols] = True
        stab = selection_stability(supports) if len(g) > 1 else None
        frequency = supports.mean(axis=0)
        size = round(float(supports.sum(axis=1).mean()))  # k, or a wrapper's mean size
        chosen = [names[j] for j in np.argsort(-frequency, kind="stable")[:size]]
        if method == RANDOM:  # random draws choose nothing in particular
            chosen = []
        row = {
            "method": method,
            "k": int(k),
            "score": g["score"].mean(),
            "score_sd": g["score"].std(ddof=1),
            "stability": np.nan if stab is None else stab.value,
            "stability_low": np.nan if stab is None else stab.low,
            "stability_high": np.nan if stab is None else stab.high,
            "seconds": g["s"].mean(),
            "features": chosen,
        }
        if with_truth:
            row.update(truth=g["truth"].mean(), truth_sd=g["truth"].std(ddof=1))
        rows.append(row)
    board = pd.DataFrame(rows)
    board["auto_k"] = False
    for method, g in board.groupby("method", sort=False):
        if method == ALL_FEATURES:
            continue
        se = g["score_sd"].fillna(0) / np.sqrt(frame["fold"].nunique())
        best = g["score"].idxmax()
        within = g[g["score"] >= g.loc[best, "score"] - se.loc[best]]
        board.loc[within["k"].idxmin(), "auto_k"] = True
    board["_order"] = board["method"].map(order)
    board = board.sort_values(["_order", "k"], kind="stable").drop(columns="_order")
    columns = ["method", "k", "score", "score_sd"]
    if with_truth:
        columns += ["truth", "truth_sd"]
    columns += ["stability", "stability_low", "stability_high", "seconds", "auto_k", "features"]
    return board[columns].reset_index(drop=True)
