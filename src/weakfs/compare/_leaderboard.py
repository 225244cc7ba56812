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
from numbers import Integral, Real

import numpy as np
import pandas as pd
from scipy import sparse
from sklearn.model_selection import StratifiedKFold
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions, validate_params

from weakfs._labels import check_weak_labels
from weakfs._validation import spawn_seeds
from weakfs.compare._board import (
    ALL_FEATURES,
    RANDOM,
    build_board,
    n_repeats_for,
)
from weakfs.compare._budget import plan_budget, plan_references, probe_wrappers
from weakfs.compare._folds import (
    Scorer,
)
from weakfs.compare._methods import METHODS, applicable_methods
from weakfs.compare._model import WeakLabelLogisticRegression
from weakfs.compare._named_size import checked_sizes, named_sizes, settle_recommendation
from weakfs.compare._plan import Plan
from weakfs.compare._steps import (
    refit_candidates,
    score_deferred_rankers,
    score_more_folds,
    score_rankers,
    score_references,
    score_wrappers,
)
from weakfs.feature_selection import default_k_grid, default_model
from weakfs.model_selection import PUStratifiedKFold

__all__ = ["ALL_FEATURES", "MIN_BUDGET_SECONDS", "RANDOM", "compare_selectors"]

#: the smallest budget a comparison can run in
MIN_BUDGET_SECONDS = 5.0
#: the largest k of the default grid
MAX_DEFAULT_K = 200
#: the share of the budget the class prior's bootstrap interval may take (its resamples are
#: as many as fit, 100 at most)
PRIOR_INTERVAL_SHARE = 0.1


def _validate(X, y, methods, ks, budget, y_true):
    """``(X, names, y, kind, methods, ks, y_true)`` checked."""
    names = list(X.columns.astype(str)) if hasattr(X, "columns") else None
    if sparse.issparse(X):  # the folds' models and several selectors read dense columns
        X = X.toarray()
    X = X.to_numpy(dtype=float) if hasattr(X, "to_numpy") else np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] == 0:
        raise ValueError(f"X must be a table with at least one column; got shape {X.shape}")
    if X.shape[0] == 0:
        raise ValueError("the table has no rows: there is nothing to compare selectors on")
    missing = ~np.isfinite(X)
    if missing.any():
        columns = np.flatnonzero(missing.any(axis=0))
        shown = ", ".join((names or [f"x{j}" for j in range(X.shape[1])])[j] for j in columns[:5])
        raise ValueError(
            f"X holds {int(missing.sum())} missing or infinite values (NaN, inf) in "
            f"{columns.size} column(s) ({shown}{', ...' if columns.size > 5 else ''}): impute "
            "them or drop those rows or columns first"
        )
    names = names or [f"x{j}" for j in range(X.shape[1])]
    y = np.asarray(y)
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]}")
    d = X.shape[1]
    kind, y = check_weak_labels(y)
    chosen = applicable_methods(kind, methods)
    if not chosen:
        raise ValueError(f"no selector reads {kind} labels")
    # the default grid stops at MAX_DEFAULT_K on wide tables (a greedy ranker's cost grows
    # with k d; "all features" is a row of its own)
    ks = default_k_grid(min(d, MAX_DEFAULT_K), 8) if ks is None else sorted({int(k) for k in ks})
    if ks[0] < 1 or ks[-1] > d:
        raise ValueError(f"k must lie in [1, {d}] (the number of columns); got {ks}")
    if budget is not None and not (np.isfinite(budget) and budget >= MIN_BUDGET_SECONDS):
        raise ValueError(
            f"a budget of {budget!r} s cannot be met: give a number of seconds, at least "
            f"{MIN_BUDGET_SECONDS:g} (or None for no budget)"
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


#: the fewest rows the rarest labeled group may hold: one per fold of two folds
MIN_LABELED = 2


@validate_params(
    {"y": ["array-like"], "kind": [StrOptions({"pu", "semi"})]},
    prefer_skip_nested_validation=True,
)
def rarest_labeled_group(y, kind: str) -> int:
    """Rows in the board's rarest stratum: the labeled positives or the unlabeled rows of PU
    labels (``kind="pu"``), the rarest class (unlabeled rows included) of semi-supervised ones.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        PU labels (1 labeled positive, 0 unlabeled) or semi-supervised ones (-1 unlabeled).
    kind : {"pu", "semi"}
        How ``y`` is read.

    Returns
    -------
    int
        The board compares selectors only where this is at least ``MIN_LABELED``.

    Examples
    --------
    >>> rarest_labeled_group([1, 0, 0, 0, 1], "pu")
    2
    """
    y = np.asarray(y)
    if kind == "pu":
        return min(int(np.sum(y == 1)), int(np.sum(y == 0)))
    return min(int(np.sum(y == c)) for c in np.unique(y))


def _folds_for_labels(y, kind: str, cv: int, notes: list) -> int:
    """``cv``, or fewer folds when the rarest stratum (labeled positives; a labeled class) has
    fewer rows than ``cv``; at least ``MIN_LABELED`` (too few labels to compare anything is an
    error)."""
    rarest = rarest_labeled_group(y, kind)
    if rarest >= cv:
        return cv
    if rarest < MIN_LABELED:
        raise ValueError(
            f"too few labels to compare selectors: {rarest} row(s) in the rarest labeled group "
            f"(at least {MIN_LABELED} are needed for two folds)"
        )
    notes.append(
        f"only {rarest} rows in the rarest labeled group: {rarest} folds instead of {cv} (too "
        "few labels to tell the selectors apart; the board abstains)"
    )
    return rarest


def _validate_settings(settings) -> dict:
    """``settings`` checked: known methods, each a dict of its known settings."""
    if settings is None:
        return {}
    if not isinstance(settings, dict):
        raise TypeError(f"settings must be a dict {{method: {{setting: value}}}}; got {settings!r}")
    checked = {}
    for name, values in settings.items():
        if name not in METHODS or METHODS[name].build is None:
            raise ValueError(f"settings name an unknown method {name!r}; known: {sorted(METHODS)}")
        if not isinstance(values, dict):
            raise TypeError(f"settings[{name!r}] must be a dict of settings; got {values!r}")
        for key, value in values.items():  # a value per k is a dict {k: value}
            if isinstance(value, dict) and not all(isinstance(k, int) for k in value):
                raise ValueError(f"settings[{name!r}][{key!r}] per k must have int keys")
        unknown = set(values) - set(METHODS[name].settings)
        if unknown:
            raise ValueError(
                f"{name} has no setting {sorted(unknown)}; its settings: "
                f"{sorted(METHODS[name].settings) or 'none'}"
            )
        checked[name] = dict(values)
    return checked


def _one_row_for_their_own_size(board: pd.DataFrame) -> pd.DataFrame:
    """A method that chooses its own number of features (SEW-IL) fits the same selection at
    every k: its rows are the same columns, so only its automatic-k row stays."""
    own = [m for m in dict.fromkeys(board["method"]) if m in METHODS and not METHODS[m].k_param]
    same = board["method"].isin(own) & (board["k_rule"] != "auto")
    return board[~same].reset_index(drop=True)


def _resolve_prior(X, y, prior, with_interval: bool, budget, random_state):
    """The board's :class:`~weakfs.pu.ResolvedPrior`: its bootstrap interval gets a share of
    the budget (100 resamples of a 7,129-column estimate took 91 s on ALLAML)."""
    from weakfs.pu import resolve_class_prior

    return resolve_class_prior(
        X,
        y,
        prior,
        interval=with_interval,
        screen=True,
        interval_seconds=None if budget is None else PRIOR_INTERVAL_SHARE * budget,
        random_state=random_state,
    )


def _default_scoring_model(kind: str):
    """The board's model: on PU labels with its ``C`` chosen on them (see ``_model``); on
    semi-supervised labels, fitted on the few labeled rows, the standard model."""
    return WeakLabelLogisticRegression() if kind == "pu" else default_model()


def _folds(X, y, kind: str, cv: int, n_repeats: int, random_state) -> list:
    """``cv`` stratified folds, repeated ``n_repeats`` times with other shuffles."""
    splits = []
    for seed in spawn_seeds(random_state, n_repeats) if n_repeats > 1 else [random_state]:
        folds = (PUStratifiedKFold if kind == "pu" else StratifiedKFold)(
            cv, shuffle=True, random_state=seed
        )
        splits += list(folds.split(X, y))
    return splits


@validate_params(
    {
        "X": ["array-like", "sparse matrix"],
        "y": ["array-like"],
        "methods": ["array-like", None],
        "ks": ["array-like", None],
        "k": [Interval(Integral, 1, None, closed="left"), "array-like", None],
        "model": [HasMethods(["fit"]), None],
        "cv": [Interval(Integral, 2, None, closed="left")],
        "n_repeats": [Interval(Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "prior": [Interval(Real, 0, 1, closed="neither"), StrOptions({"auto"})],
        "prior_interval": ["boolean"],
        "n_random": [Interval(Integral, 1, None, closed="left")],
        "y_true": ["array-like", None],
        "budget": [Interval(Real, MIN_BUDGET_SECONDS, None, closed="left"), None],
        "settings": [dict, None],
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],
        "progress": ["boolean"],
    },
    # it fits estimators the caller chose or configured: their parameters are checked too
    prefer_skip_nested_validation=False,
)
def compare_selectors(
    X,
    y,
    *,
    methods=None,
    ks=None,
    k=None,
    model=None,
    cv: int = 5,
    n_repeats="auto",
    prior="auto",
    prior_interval: bool = False,
    n_random: int = 10,
    y_true=None,
    budget: float | None = 300.0,
    settings: dict | None = None,
    n_jobs=None,
    random_state=0,
    progress: bool = False,
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
    k : int or list of int, optional
        The size the user must keep (a gene panel, a sensor budget): the selectors are compared
        at exactly this size (or these sizes), and at each the recommendation is the selection
        of that size with the highest ``posterior``, the weak score shrunk toward the
        benchmark's record of that selector at that size (:class:`~weakfs.compare.SizeGuide`);
        all features stays as the reference row and is never recommended, and a selector that
        chooses its own size (SEW-IL) is no candidate.  Give ``k`` or ``ks``, not both.
    model : classifier, optional
        Downstream model fitted on a fold's weak labels and scored on its test rows (default:
        a standardised logistic regression; on PU labels its ``C`` chosen in 1e-4 ... 1 by an
        inner 3-fold CV of the fold's weak labels, as at ``C = 1`` it fits which positives
        happen to be labeled on a wide table and scores wide selections too low).
    cv : int, default=5
        Folds (PU: :class:`~weakfs.model_selection.PUStratifiedKFold`; semi-supervised:
        stratified on the labels, unlabeled rows a stratum of their own); fewer, with a note,
        when the rarest labeled group has fewer rows (at least 2 are needed).
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
        iterations scaled to fit (the settings chosen are in ``attrs["notes"]``); a method that
        cannot finish in time is left out with a note.  ``None``: every method at its defaults.
    settings : dict, optional
        ``{method: {setting: value}}``: settings that replace a method's defaults (e.g.
        ``{"fscpu": {"n_iter": 1000}}``, or per k: ``{"fscpu": {"n_iter": {5: 3000, 50: 800}}}``
        for the ks it runs at: a k the dict leaves out is not run for that method); a method
        given here runs at exactly these settings,
        never scaled by the budget (the benchmark fixes them from the table's size, so that a
        cell does not depend on the clock).  ``attrs["settings"]`` holds every method's.
    n_jobs : int or None
        Parallel (method, fold) jobs through joblib (a Dask backend works inside
        ``joblib.parallel_config(backend="dask")``).
    random_state : int, default=0
        Seeds the folds, the random reference and the selectors.
    progress : bool, default=False
        Progress bars on stderr.

    Returns
    -------
    leaderboard : DataFrame
        One row per method and k: ``method``, ``k``, ``k_rule`` (``"auto"`` on the k the
        method's automatic rule picks, else ``"fixed"``), ``score`` (mean over the folds),
        ``score_sd``, ``score_low`` and ``score_high`` (its 90 % interval, corrected for the
        folds' overlap), ``raw_score`` (PU: the AUC of labeled against unlabeled rows, which
        needs no prior; semi-supervised: the score) with ``raw_score_low`` and
        ``raw_score_high`` (an interval is NaN from fewer than two distinct fold scores: "too
        few folds"), ``truth`` and ``truth_sd`` (with
        ``y_true``), ``stability`` with ``stability_low``/``stability_high``, ``seconds`` (per
        fold), ``tied`` (in the top group: not found worse than the best candidate; with
        ``k``: within the weak scores' noise of the recommended row of that size),
        ``recommended`` (exactly one row; with ``k``, one per size: ``k_rule`` is then
        ``"named"`` on the rows of those sizes, with their ``posterior``), ``features`` and
        ``features_from`` (the columns a refit on all rows selects for the automatic-k rows and
        the recommended rows of a named size, else those chosen in the most folds),
        ``features_in_folds`` and ``auto_k`` (``k_rule == "auto"``).  ``attrs`` holds the
        prior, its source (``prior_how``), the :class:`~weakfs.pu.ResolvedPrior`
        (``prior_resolved``, None for semi-supervised labels), ``notes`` (sentences about what
        was done: the prior, budgeted settings, methods left out, and whether the labels can
        tell the selectors apart), ``selectors_ran`` (the selectors with rows: empty when every
        one was left out, and the board holds only the references), ``verdict`` (the
        sentence when the labels cannot tell the candidates apart, else None),
        ``if_fewer_columns`` (when the board abstains: the recommendation at its size nearest
        20, "If you must keep fewer columns: ..."), ``sizes`` (the named sizes), ``folds`` and
        ``fold_scores`` (every row's score, raw score and truth on each fold, as columns of a
        dict, ``pd.DataFrame(board.attrs["fold_scores"])``: one line per ``(method, k, fold)``,
        the folds numbered alike for every row, for paired comparisons of one's own).

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
    notes: list[str] = []
    if k is not None and ks is not None:
        raise ValueError("give k (the size you must keep) or ks (the sizes to try), not both")
    ks = ks if k is None else checked_sizes(k)
    X, names, y, kind, chosen, ks, y_true = _validate(X, y, methods, ks, budget, y_true)
    sizes = named_sizes(k, X.shape[1])
    fixed_settings = _validate_settings(settings)
    n_labeled = int(np.sum(y == 1)) if kind == "pu" else int(np.sum(y != -1))
    cv = _folds_for_labels(y, kind, cv, notes)
    repeats = n_repeats_for(n_labeled) if n_repeats == "auto" else int(n_repeats)
    resolved = None
    if kind == "pu":
        resolved = _resolve_prior(X, y, prior, prior_interval, budget, random_state)
        notes.append(f"class prior used: {resolved.value:.4g} ({resolved.how})")
    splits = _folds(X, y, kind, cv, repeats, random_state)
    plan = Plan(
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
            _default_scoring_model(kind) if model is None else model,
            None if resolved is None else resolved.value,
            y_true,
        ),
        prior=None if resolved is None else resolved.value,
        deadline=deadline,
        started=started,
        n_jobs=n_jobs,
        progress=progress,
        notes=notes,
        fixed_settings=fixed_settings,
    )
    records: list = []
    # references and rankers first, planned from probes: their cost tells what is left for
    # the wrappers
    rankers = [m for m in chosen if METHODS[m].ranker and METHODS[m].budget_param is None]
    # the wrappers' cheapest runs are probed first: one that cannot fit reserves no time
    wrappers = probe_wrappers(plan, [m for m in chosen if m not in rankers])
    # the references first: a board needs them, and a ranker's first fit may compile for long
    draws = plan_references(plan, n_random)
    scoring_started = time.time()
    score_references(plan, draws, records)
    planned = plan_budget(plan, rankers, cv, wrappers, records)
    score_rankers(plan, planned, records)
    score_wrappers(plan, wrappers, records)
    score_deferred_rankers(plan, records)
    # the time the estimates left unused goes to the folds the plan left out
    per_fold = (time.time() - scoring_started) / len(plan.splits)
    score_more_folds(plan, draws, records, per_fold)
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
        score_range=(-np.inf, np.inf) if kind == "pu" else (0.0, 1.0),
    )
    board, verdict, said, fewer = settle_recommendation(
        _one_row_for_their_own_size(board), verdict, sizes, n_labeled, kind, X.shape[1]
    )
    notes += said
    board = refit_candidates(plan, board)
    board["auto_k"] = board["k_rule"] == "auto"
    board.attrs.update(
        prior=plan.prior,
        prior_how=None if resolved is None else resolved.how,
        prior_resolved=resolved,
        notes=list(notes),
        labels=kind,
        folds=len(splits),
        repeats=max(1, len(splits) // cv),
        verdict=verdict,
        sizes=sizes,
        if_fewer_columns=fewer,
        settings={m: plan.settings_for(m) for m in chosen},
        selectors_ran=[m for m in chosen if m in set(board["method"])],
        # plain lists, not a frame: pandas compares and deep-copies attrs as boards are combined
        fold_scores={
            name: [getattr(record, name) for record in records]
            for name in ["method", "fold", "k", "score", "raw_score", "truth"]
        },
    )
    return board
