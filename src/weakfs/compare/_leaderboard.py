"""``compare_selectors``: which selector works on this table, judged from its own weak labels.

Every applicable selector runs on the training part of each fold (the folds repeated with other
shuffles when labels are few), a downstream model is fitted on the selected columns, and a score
that needs only the weak labels (PU: the prior-corrected ROC AUC, with the raw AUC of labeled
against unlabeled rows beside it; semi-supervised: accuracy on the labeled test rows) judges it
on the fold's test rows.  Two reference rows come with every leaderboard: random selection of
the same k, and all features.  The steps: validate the input, plan the folds and the budget's
deadline, score the references, the rankers (one fit per fold gives every k) and the wrappers
(one fit per fold and k, at settings the budget allows), then build the board (``_board.py``:
intervals, automatic k, top group, recommendation) and refit the recommended candidates on all
rows.  Every step checks the deadline; what cannot run in the budget is left out with a note.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

from weakfs._scores import feature_order
from weakfs._validation import spawn_seeds
from weakfs.compare._board import (
    ALL_FEATURES,
    RANDOM,
    build_board,
    n_repeats_for,
)
from weakfs.compare._folds import (
    SCREEN_COLUMNS,
    Failed,
    Scorer,
    Skipped,
    add_method_records,
    first_line,
    method_fold,
    reference_fold,
)
from weakfs.compare._methods import METHODS, applicable_methods
from weakfs.feature_selection import default_k_grid, default_model
from weakfs.model_selection import PUStratifiedKFold

__all__ = ["ALL_FEATURES", "RANDOM", "compare_selectors"]

#: the smallest budget a comparison can run in
_MIN_SECONDS = 5.0
#: columns and largest k of the rankers' probe fit (its cost is scaled to the table's columns,
#: and for a greedy ranking to its k)
PROBE_COLUMNS = 100
PROBE_K = 10
#: the least share of the budget a wrapper's trial fit is started with
_MIN_WRAPPER_SHARE = 0.2
#: the largest k of the default grid
MAX_DEFAULT_K = 200
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


@dataclass
class _Plan:
    """What the steps of a comparison share, fixed before any fit."""

    X: np.ndarray
    y: np.ndarray
    names: list[str]
    kind: str
    methods: list[str]
    ks: list[int]
    splits: list
    seeds: list[int]
    scorer: Scorer
    prior: float | None
    deadline: float | None
    started: float
    n_jobs: object
    progress: bool
    notes: list

    @property
    def n_features(self) -> int:
        return self.X.shape[1]


def _validate(X, y, methods, ks, budget, y_true):
    """``(X, names, y, kind, methods, ks, y_true)`` checked."""
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
    # the default grid stops at MAX_DEFAULT_K on wide tables (a greedy ranker's cost grows
    # with k d; "all features" is a row of its own)
    ks = default_k_grid(min(d, MAX_DEFAULT_K), 8) if ks is None else sorted({int(k) for k in ks})
    if ks[0] < 1 or ks[-1] > d:
        raise ValueError(f"k must lie in [1, {d}] (the number of columns); got {ks}")
    if budget is not None and not (np.isfinite(budget) and budget >= _MIN_SECONDS):
        raise ValueError(
            f"a budget of {budget!r} s cannot be met: give a number of seconds, at least "
            f"{_MIN_SECONDS:g} (or None for no budget)"
        )
    if y_true is not None:
        y_true = np.asarray(y_true)
        if y_true.shape[0] != X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} rows but y_true has {y_true.shape[0]}")
        if kind == "pu":
            if not set(np.unique(y_true).tolist()) <= {0, 1}:
                raise ValueError(
                    "y_true of PU labels must hold the true classes as 0/1 (1 = positive); got "
                    f"{sorted(map(str, np.unique(y_true)))[:6]}"
                )
            y_true = y_true.astype(int)
    return X, names, y, kind, chosen, ks, y_true


def _folds(X, y, kind: str, cv: int, n_repeats: int, random_state) -> list:
    """``cv`` stratified folds, repeated ``n_repeats`` times with other shuffles."""
    splits = []
    for seed in spawn_seeds(random_state, n_repeats) if n_repeats > 1 else [random_state]:
        folds = (PUStratifiedKFold if kind == "pu" else StratifiedKFold)(
            cv, shuffle=True, random_state=seed
        )
        splits += list(folds.split(X, y))
    return splits


def _plan(plan: _Plan, rankers: list[str], n_random: int, cv: int) -> tuple[list[str], int]:
    """Fit the references and rankers to the budget before running them: one probe each on the
    first fold's training rows (the downstream model on every column; each ranker's fit) gives
    their cost per fold; the random draws, then the repeated folds, are lowered, then the
    costliest rankers left out, until references and rankers fit in 60 % of the time left
    (the rest is for the wrappers and the refits).  Returns the rankers kept and the draws
    per k."""
    if plan.deadline is None:
        return rankers, n_random
    tr, te = plan.splits[0]
    start = time.perf_counter()
    plan.scorer(plan.X, plan.y, tr, te, np.arange(plan.n_features))
    per_column = (time.perf_counter() - start) / plan.n_features
    # the rankers' probe: a column subsample, its cost scaled to the columns they will read
    # (a greedy ranker's cost grows about linearly with the columns at a given k)
    n_read = min(plan.n_features, SCREEN_COLUMNS)
    probe_cols = np.sort(
        np.random.RandomState(plan.seeds[0]).choice(
            plan.n_features, size=min(plan.n_features, PROBE_COLUMNS), replace=False
        )
    )
    X_probe = plan.X[:, probe_cols]
    ks_probe = [k for k in plan.ks if k <= PROBE_K] or [1]
    k_fit = max([k for k in plan.ks if k < n_read], default=1)
    labeled = tr[plan.y[tr] != plan.y[tr].min()][:15]
    warm_train = np.concatenate([labeled, tr[plan.y[tr] == plan.y[tr].min()][:30]])
    cost_of = {}
    for m in rankers:
        if time.time() > plan.deadline:
            break
        # a first fit on a few rows and columns compiles what a method compiles (numba), so
        # that the timed probe measures the work only
        method_fold(
            m,
            METHODS[m].settings,
            plan.prior,
            plan.seeds[0],
            X_probe[:, :5],
            plan.y,
            warm_train,
            te,
            [1, 2],
            plan.scorer,
            plan.deadline,
        )
        t0 = time.perf_counter()
        result = method_fold(
            m,
            METHODS[m].settings,
            plan.prior,
            plan.seeds[0],
            X_probe,
            plan.y,
            tr,
            te,
            ks_probe,
            plan.scorer,
            plan.deadline,
        )
        seconds = time.perf_counter() - t0
        scale = n_read / probe_cols.size
        if METHODS[m].greedy:
            scale *= max(1.0, k_fit / max(ks_probe))
        if isinstance(result, Failed):
            plan.notes.append(f"{m} left out: its fit failed on fold 1 ({result.error})")
            continue
        cost_of[m] = seconds * scale if isinstance(result, list) else np.inf
    allowed = 0.6 * (plan.deadline - time.time())

    def references(draws: int) -> float:
        # all features once, and each k's draws at about k / d of that fit's cost (at least a
        # quarter of it: a fit has a fixed cost)
        per_fold = plan.n_features + draws * sum(max(k, plan.n_features / 4) for k in plan.ks)
        return per_fold * per_column

    kept = [m for m in rankers if np.isfinite(cost_of.get(m, np.inf))]
    draws, folds = n_random, len(plan.splits)

    def cost() -> float:
        return folds * (references(draws) + sum(cost_of[m] for m in kept))

    while draws > 1 and cost() > allowed:
        draws = max(1, draws // 2)
    while folds > cv and cost() > allowed:
        folds -= cv
    while kept and cost() > allowed:
        dropped = max(kept, key=cost_of.get)
        kept.remove(dropped)
        plan.notes.append(
            f"{dropped} left out for the budget: about {folds * cost_of[dropped]:.0f} s on "
            f"{folds} folds (one fold's fit: {cost_of[dropped]:.1f} s)"
        )
    failed = [
        m
        for m in rankers
        if m not in cost_of and any(m + " left out: its fit" in n for n in plan.notes)
    ]
    for m in rankers:
        if m not in failed and (m not in cost_of or not np.isfinite(cost_of[m])):
            plan.notes.append(f"{m} left out for the budget: its trial fit did not finish in time")
    if draws < n_random:
        plan.notes.append(f"random reference: {draws} draw(s) per fold and k to fit the budget")
    if folds < len(plan.splits):
        plan.notes.append(
            f"folds: {folds // cv} repetition(s) of the {cv} folds instead of "
            f"{len(plan.splits) // cv}, to fit the budget"
        )
        del plan.splits[folds:]
    return kept, draws


def _score_references(plan: _Plan, n_random: int, records: list) -> None:
    """Random columns and all features on every fold; the folds the deadline cut are dropped
    for every row (all rows are compared on the same folds)."""
    tasks = [
        (
            reference_fold,
            (
                n_random,
                plan.seeds[f],
                plan.X,
                plan.y,
                tr,
                te,
                plan.ks,
                plan.scorer,
                plan.n_features,
                plan.deadline,
            ),
        )
        for f, (tr, te) in enumerate(plan.splits)
    ]
    results = _run(tasks, plan.n_jobs, plan.progress, "references")
    done = [i for i, r in enumerate(results) if not isinstance(r, Skipped)]
    if len(done) < 2:
        raise ValueError(
            "the budget ran out before the references (random columns, all features) were "
            "scored on two folds: give a larger --budget"
        )
    if len(done) < len(results):
        plan.notes.append(
            f"folds: {len(done)} of {len(results)} scored in the budget; every row is compared "
            "on those"
        )
        plan.splits[:] = [plan.splits[i] for i in done]
        results = [results[i] for i in done]
    for f, fold_rows in enumerate(results):
        records += [(row[0], f, *row[1:]) for row in fold_rows]


def _method_tasks(plan: _Plan, m: str, settings: dict) -> list:
    return [
        (
            method_fold,
            (
                m,
                settings,
                plan.prior,
                plan.seeds[f],
                plan.X,
                plan.y,
                tr,
                te,
                plan.ks,
                plan.scorer,
                plan.deadline,
            ),
        )
        for f, (tr, te) in enumerate(plan.splits)
    ]


def _score_rankers(plan: _Plan, rankers: list[str], records: list) -> None:
    tasks = [task for m in rankers for task in _method_tasks(plan, m, METHODS[m].settings)]
    results = _run(tasks, plan.n_jobs, plan.progress, "selectors")
    n = len(plan.splits)
    for i, m in enumerate(rankers):
        add_method_records(records, plan.notes, m, results[i * n : (i + 1) * n])


def _score_wrappers(plan: _Plan, wrappers: list[str], records: list) -> None:
    """Each wrapper at the settings the time left allows (a probe fit on the first fold's
    training rows times the whole run), or left out with a note."""
    for i, m in enumerate(wrappers):
        settings = dict(METHODS[m].settings)
        if plan.deadline is not None:
            left = _BUDGET_SHARE * (plan.deadline - time.time())
            share = left / (len(wrappers) - i)
            if share <= _MIN_WRAPPER_SHARE * (plan.deadline - plan.started):
                # no probe: a trial fit alone would overrun the budget
                plan.notes.append(f"{m} left out: the steps before it used the whole budget")
                continue
            tr0, _ = plan.splits[0]
            ks = plan.ks
            # the probe fits the middle k once; a wrapper's cost grows about linearly with k
            k_probe = ks[-1] if METHODS[m].ranker else ks[len(ks) // 2]
            ks_run = [ks[-1]] if METHODS[m].ranker else ks
            fits_per_unit = len(plan.splits) * sum(ks_run) / k_probe

            def probe(trial, m=m, tr0=tr0, k_probe=k_probe):
                t0 = time.perf_counter()
                build = METHODS[m].build(k_probe, trial, plan.prior, plan.seeds[0])
                build.fit(plan.X[tr0], plan.y[tr0])
                return time.perf_counter() - t0

            try:
                settings, need = _budgeted_settings(m, share, fits_per_unit, probe)
            except Exception as exc:  # as a failed fold: left out, with why
                plan.notes.append(f"{m} left out: its trial fit failed ({first_line(exc)})")
                continue
            if settings is None:
                plan.notes.append(
                    f"{m} left out: at its cheapest setting it needs about {need:.0f} s, the "
                    f"budget leaves {max(share, 0):.0f} s"
                )
                continue
            param = METHODS[m].budget_param
            if param is not None and settings[param] < METHODS[m].settings[param]:
                plan.notes.append(
                    f"{m}: {param}={settings[param]} (default {METHODS[m].settings[param]}) to "
                    "fit the budget"
                )
        results = _run(_method_tasks(plan, m, settings), plan.n_jobs, plan.progress, m)
        add_method_records(records, plan.notes, m, results)


def _refit_candidates(plan: _Plan, board: pd.DataFrame, settings_of: dict) -> pd.DataFrame:
    """``features``: for each method's automatic-k row, the columns a refit on all rows selects
    (what ``weakfs select`` with the same method and k returns), when the budget leaves time
    for it (about one fold's fit); else the columns chosen in the most folds
    (``features_from`` says which)."""
    features = list(board["features_in_folds"])
    origin = ["chosen in the most folds"] * len(board)
    for i, row in board.iterrows():
        if row["method"] == ALL_FEATURES:
            features[i], origin[i] = list(plan.names), "every column"
            continue
        if row["method"] == RANDOM or row["k_rule"] != "auto":
            continue
        if plan.deadline is not None and time.time() + 1.5 * row["seconds"] > plan.deadline:
            continue
        spec = METHODS[row["method"]]
        try:
            est = spec.build(int(row["k"]), settings_of[row["method"]], plan.prior, plan.seeds[0])
            est.fit(plan.X, plan.y)
        except Exception:  # the folds' sets stand; the fit's failure is theirs to report
            continue
        if spec.ranker:
            cols = feature_order(est)[: int(row["k"])]
        else:
            cols = np.flatnonzero(est.get_support())
        features[i], origin[i] = [plan.names[j] for j in cols], "refit on all rows"
    return board.assign(features=features, features_from=origin)


def compare_selectors(
    X,
    y,
    *,
    methods=None,
    ks=None,
    model=None,
    cv: int = 5,
    n_repeats="auto",
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
    n_repeats : int or "auto", default="auto"
        Repetitions of the ``cv`` folds with other shuffles; ``"auto"``: 3 under 50 labeled
        rows, 2 under 200, else 1.  Every row is scored on the same folds.
    prior : float or "auto", default="auto"
        Class prior of the PU score; ``"auto"``: estimated once on all rows
        (:func:`weakfs.pu.resolve_class_prior`).
    prior_interval : bool, default=False
        With an estimated prior, also its bootstrap interval (``attrs["prior_resolved"]``;
        about a hundred more estimates on tables under 1,000 rows).
    n_random : int, default=10
        Random draws per fold and k for the random reference.
    y_true : array-like, optional
        The true labels (known when the weak labels were simulated): adds a ``truth`` column,
        the same model scored against them, to check the weak-label ranking.
    budget : float or None, default=300
        Seconds for the whole comparison, a wall-clock deadline every step checks: the
        wrappers (FSCPU, SEW-IL, GKF-PUAL) get the time the references and rankers leave, their
        iterations scaled to fit (the settings chosen are reported in ``notes``); a method that
        cannot finish in time is left out with a note.  ``None``: every method at its defaults.
    n_jobs : int or None
        Parallel (method, fold) jobs through joblib (a Dask backend works inside
        ``joblib.parallel_config(backend="dask")``).
    random_state : int, default=0
        Seeds the folds, the random reference and the selectors.
    progress : bool, default=False
        Progress bars on stderr.
    notes : list, optional
        Receives sentences about what was done (the prior, budgeted settings, skipped methods,
        and whether the labels can tell the selectors apart).

    Returns
    -------
    leaderboard : DataFrame
        One row per method and k: ``method``, ``k``, ``k_rule`` (``"auto"`` on the k the
        method's automatic rule picks, else ``"fixed"``), ``score`` (mean over the folds),
        ``score_sd``, ``score_low`` and ``score_high`` (its 90 % interval, corrected for the
        folds' overlap), ``raw_score`` (PU: the AUC of labeled against unlabeled rows, which
        needs no prior; semi-supervised: the score), ``truth`` and ``truth_sd`` (with
        ``y_true``), ``stability`` with ``stability_low``/``stability_high``, ``seconds`` (per
        fold), ``tied`` (in the top group: not found worse than the best candidate),
        ``recommended`` (exactly one row), ``features`` and ``features_from`` (the columns a
        refit on all rows selects for the automatic-k rows, else those chosen in the most
        folds), ``features_in_folds`` and ``auto_k`` (``k_rule == "auto"``).  ``attrs`` holds the
        prior, its source (``prior_how``), the :class:`~weakfs.pu.ResolvedPrior`
        (``prior_resolved``, None for semi-supervised labels), the notes, ``verdict`` (the
        sentence when the labels cannot tell the candidates apart, else None) and ``folds``.

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
    >>> int(board["recommended"].sum())
    1
    """
    started = time.time()
    deadline = None if budget is None else started + float(budget)
    notes = [] if notes is None else notes
    X, names, y, kind, chosen, ks, y_true = _validate(X, y, methods, ks, budget, y_true)
    n_labeled = int(np.sum(y == 1)) if kind == "pu" else int(np.sum(y != -1))
    repeats = n_repeats_for(n_labeled) if n_repeats == "auto" else int(n_repeats)
    if repeats < 1:
        raise ValueError(f"n_repeats must be at least 1 or 'auto'; got {n_repeats!r}")
    resolved = None
    if kind == "pu":
        from weakfs.pu import resolve_class_prior

        resolved = resolve_class_prior(
            X, y, prior, interval=prior_interval, random_state=random_state
        )
        notes.append(f"class prior used: {resolved.value:.4g} ({resolved.how})")
    splits = _folds(X, y, kind, cv, repeats, random_state)
    plan = _Plan(
        X=X,
        y=y,
        names=names,
        kind=kind,
        methods=chosen,
        ks=ks,
        splits=splits,
        seeds=[int(s) for s in spawn_seeds(random_state, len(splits))],
        scorer=Scorer(
            kind,
            default_model() if model is None else model,
            None if resolved is None else resolved.value,
            y_true,
        ),
        prior=None if resolved is None else resolved.value,
        deadline=deadline,
        started=started,
        n_jobs=n_jobs,
        progress=progress,
        notes=notes,
    )
    records: list = []
    # references and rankers first, planned from probes: their cost tells what is left for
    # the wrappers
    rankers = [m for m in chosen if METHODS[m].ranker and METHODS[m].budget_param is None]
    planned, draws = _plan(plan, rankers, n_random, cv)
    _score_references(plan, draws, records)
    _score_rankers(plan, planned, records)
    _score_wrappers(plan, [m for m in chosen if m not in rankers], records)
    labeled_per_fold = min(
        int(np.sum(y[te] == 1)) if kind == "pu" else int(np.sum(y[te] != -1)) for _, te in splits
    )
    board, verdict = build_board(
        records,
        names,
        X.shape[1],
        n_folds=len(splits),
        test_share=1.0 / cv,
        min_labeled_per_fold=labeled_per_fold,
        with_truth=y_true is not None,
        method_order=list(METHODS),
    )
    if verdict is not None:
        notes.append(verdict)
    board = _refit_candidates(plan, board, {m: METHODS[m].settings for m in chosen})
    board["auto_k"] = board["k_rule"] == "auto"
    board.attrs.update(
        prior=plan.prior,
        prior_how=None if resolved is None else resolved.how,
        prior_resolved=resolved,
        notes=list(notes),
        labels=kind,
        folds=len(splits),
        repeats=len(splits) // cv,
        verdict=verdict,
    )
    return board
