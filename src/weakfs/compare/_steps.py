"""The steps of a comparison on its plan: the references, the rankers, the budgeted wrappers
and the refits of the board's candidates on all rows (the budget each step keeps to is planned
in ``_budget``).  Every step reads and extends a :class:`~weakfs.compare._plan.Plan` and its
notes."""

from __future__ import annotations

import functools
import time

import numpy as np
import pandas as pd

from weakfs._scores import feature_order
from weakfs.compare._board import ALL_FEATURES, RANDOM
from weakfs.compare._budget import (
    deferred_ranker_fits,
    more_folds_fit,
    refit_seconds,
    wrapper_settings,
)
from weakfs.compare._folds import (
    Skipped,
    add_method_records,
    has_tied_note,
    method_fold,
    reference_fold,
    tied_fit,
    tied_note,
)
from weakfs.compare._methods import METHODS, settings_at
from weakfs.compare._plan import Plan

__all__ = [
    "refit_candidates",
    "score_deferred_rankers",
    "score_more_folds",
    "score_rankers",
    "score_references",
    "score_wrappers",
]


def _run(tasks, n_jobs, progress: bool, desc: str):
    from joblib import Parallel, delayed

    from weakfs._progress import progress as bar

    calls = [delayed(func)(task) for func, task in tasks]
    stream = Parallel(n_jobs=n_jobs, return_as="generator")(calls)
    return list(bar(stream, enabled=progress, total=len(calls), desc=desc))


def score_references(plan: Plan, n_random: int, records: list) -> None:
    """Random columns and all features on every fold; the folds the deadline cut are dropped
    for every row (all rows are compared on the same folds).  A fold after the first two (a
    board needs two) is not started when its estimated cost would end it past the deadline: on
    a loaded machine the plan's floor of MIN_FOLDS folds can outlast a short budget."""
    tasks = [
        (
            functools.partial(
                reference_fold,
                n_random=n_random,
                expected=plan.reference_seconds if f >= 2 else 0.0,
                all_features=plan.first_all_features if f == 0 else None,
            ),
            plan.fold_task(None, f),
        )
        for f in range(len(plan.splits))
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
    for f, fold_rows in enumerate(results):  # the folds kept, numbered again
        records += [row._replace(fold=f) for row in fold_rows]


def _method_tasks(plan: Plan, m: str, settings: dict) -> list:
    return [(method_fold, plan.fold_task(m, f, settings)) for f in range(len(plan.splits))]


def score_rankers(plan: Plan, rankers: list[str], records: list) -> None:
    for m in rankers:
        plan.settings_used[m] = plan.settings_for(m)
    tasks = [task for m in rankers for task in _method_tasks(plan, m, plan.settings_used[m])]
    results = _run(tasks, plan.n_jobs, plan.progress, "selectors")
    n = len(plan.splits)
    for i, m in enumerate(rankers):
        add_method_records(records, plan.notes, m, results[i * n : (i + 1) * n])


def score_deferred_rankers(plan: Plan, records: list) -> None:
    """The rankers the plan left out for the budget, cheapest first, each run on every kept fold
    when its estimated cost fits in the time the wrappers left (the plan keeps 40 % of the time
    for wrappers, which may leave most of it when none can run)."""
    if plan.deadline is None or not plan.deferred:
        return
    for m in sorted(plan.deferred, key=plan.deferred.get):
        if not deferred_ranker_fits(plan, m):
            continue
        plan.notes[:] = [n for n in plan.notes if not n.startswith(f"{m} left out for the budget")]
        plan.notes.append(f"{m}: run after the wrappers, in the time they left")
        score_rankers(plan, [m], records)


def score_wrappers(plan: Plan, wrappers: list[str], records: list) -> None:
    """Each wrapper at the settings the time left allows (``_budget.wrapper_settings``: a probe
    fit on the first fold's training rows times the whole run), or left out with a note."""
    for i, m in enumerate(wrappers):
        settings = wrapper_settings(plan, m, len(wrappers) - i)
        if settings is None:
            continue
        plan.settings_used[m] = settings
        results = _run(_method_tasks(plan, m, settings), plan.n_jobs, plan.progress, m)
        add_method_records(records, plan.notes, m, results)


def score_more_folds(plan: Plan, n_random: int, records: list, seconds_per_fold: float) -> None:
    """The folds the plan left out for the budget, as many as the time left allows
    (``_budget.more_folds_fit``): the references and every row that ran, at the settings it ran
    with.  The folds every row completed are kept (the rows are compared on the same folds);
    the note on the folds says how many."""
    n_more = more_folds_fit(plan, seconds_per_fold)
    if n_more == 0:
        return
    first = len(plan.splits)
    plan.splits += plan.dropped_splits[:n_more]
    del plan.dropped_splits[:n_more]
    folds = range(first, len(plan.splits))
    ran = list(dict.fromkeys(r.method for r in records if r.method not in (RANDOM, ALL_FEATURES)))
    tasks = [
        (functools.partial(reference_fold, n_random=n_random), plan.fold_task(None, f))
        for f in folds
    ]
    tasks += [
        (method_fold, plan.fold_task(m, f, plan.settings_used[m])) for m in ran for f in folds
    ]
    results = _run(tasks, plan.n_jobs, plan.progress, "more folds")
    by_fold: dict[int, list] = {f: [] for f in folds}
    for result in results:
        for row in result if isinstance(result, list) else []:
            by_fold[row.fold].append(row)
    complete = first
    for f in folds:  # the references and each row that ran, on every fold up to f
        if len({r.method for r in by_fold[f]}) < len(ran) + 2:
            break
        complete = f + 1
    for f in range(first, complete):
        records += by_fold[f]
    plan.dropped_splits[:0] = plan.splits[complete:]
    del plan.splits[complete:]
    if complete > first:
        total = len(plan.splits) + len(plan.dropped_splits)
        plan.notes[:] = [n for n in plan.notes if not n.startswith("folds: ")]
        plan.notes.append(
            f"folds: {len(plan.splits)} of {total}, {complete - first} of them scored with the "
            "time the plan's estimates left"
        )


def refit_candidates(plan: Plan, board: pd.DataFrame) -> pd.DataFrame:
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
        if row["method"] == RANDOM:  # a reference: other columns in every draw
            origin[i] = "none: random columns, drawn anew in every fold"
            continue
        # the automatic-k rows, and the recommendation at a size the user named
        if row["k_rule"] != "auto" and not (row["k_rule"] == "named" and row["recommended"]):
            continue
        # the refit reads every column, as weakfs select does
        need = refit_seconds(row["method"], row["seconds"], plan.n_features)
        if plan.deadline is not None and time.time() + need > plan.deadline:
            continue
        spec = METHODS[row["method"]]
        try:
            settings = settings_at(plan.settings_for(row["method"]), int(row["k"]))
            est = spec.build(int(row["k"]), settings, plan.prior, plan.seeds[0])
            tied_fit(est, plan.X, plan.y)
        except Exception:  # the folds' sets stand; the fit's failure is theirs to report
            continue
        tied = getattr(est, "n_tied_selected_", 0)
        if tied and not has_tied_note(plan.notes, row["method"]):  # unless its folds said so
            plan.notes.append(tied_note(row["method"], "refit on all rows", tied))
        if spec.ranker:
            cols = feature_order(est)[: int(row["k"])]
        else:
            cols = np.flatnonzero(est.get_support())
        features[i], origin[i] = [plan.names[j] for j in cols], "refit on all rows"
    return board.assign(features=features, features_from=origin)
