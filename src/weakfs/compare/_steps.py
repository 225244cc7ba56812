"""The steps of a comparison on its plan: probes that fit the references and rankers to the
budget, the references, the rankers, the budgeted wrappers and the refits of the board's
candidates on all rows.  Every step reads and extends a :class:`Plan` and its notes."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from weakfs._scores import feature_order
from weakfs._screen import screen_columns
from weakfs.compare._board import ALL_FEATURES, RANDOM
from weakfs.compare._folds import (
    SCREEN_COLUMNS,
    Failed,
    Scorer,
    Skipped,
    add_method_records,
    first_line,
    has_tied_note,
    method_fold,
    reference_fold,
    tied_fit,
    tied_note,
)
from weakfs.compare._methods import METHODS, settings_at

__all__ = [
    "Plan",
    "plan_budget",
    "plan_references",
    "probe_wrappers",
    "refit_candidates",
    "refit_seconds",
    "score_deferred_rankers",
    "score_rankers",
    "score_references",
    "score_wrappers",
]

#: columns and largest k of the rankers' probe fit (its cost is scaled to the table's columns,
#: and for a greedy ranking to its k)
PROBE_COLUMNS = 100
PROBE_K = 10
#: the least share of the budget a wrapper's trial fit is started with
_MIN_WRAPPER_SHARE = 0.2
#: the share of the budget planned for: estimates from one probe fit are rough
_BUDGET_SHARE = 0.85


def _run(tasks, n_jobs, progress: bool, desc: str):
    from joblib import Parallel, delayed

    from weakfs._progress import progress as bar

    calls = [delayed(func)(*args) for func, args in tasks]
    stream = Parallel(n_jobs=n_jobs, return_as="generator")(calls)
    return list(bar(stream, enabled=progress, total=len(calls), desc=desc))


def _budgeted_settings(name, budget_left, fits_per_unit: float, probe: Callable[..., float]):
    """A wrapper's settings scaled to ``budget_left`` seconds, from the time of one probe fit at
    its smallest setting; ``fits_per_unit`` converts that probe into the whole run (folds, and
    the ks relative to the probe's k).  Returns ``(settings, None)``, or ``(None, seconds
    needed)`` when even the smallest setting does not fit."""
    spec = METHODS[name]
    settings = dict(spec.settings)
    if spec.budget_param is None:
        need = probe(settings, budget_left / fits_per_unit) * fits_per_unit
        return (settings, None) if need <= budget_left else (None, need)
    low, high = spec.budget_range
    need_low = probe({**settings, spec.budget_param: low}, budget_left / fits_per_unit)
    need_low *= fits_per_unit
    units = int(low * budget_left / max(need_low, 1e-9))
    if units < low:
        return None, need_low
    settings[spec.budget_param] = min(high, units)
    return settings, None


@dataclass
class Plan:
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
    #: settings the caller fixed per method (never scaled by the budget)
    fixed_settings: dict = field(default_factory=dict)
    #: the settings each method ran with (a wrapper's as the budget scaled them)
    settings_used: dict = field(default_factory=dict)
    #: rankers the plan left out for the budget -> their estimated cost per fold (seconds);
    #: tried again with the time the wrappers leave
    deferred: dict = field(default_factory=dict)
    #: wrappers the plan probed -> seconds of their whole run at their cheapest setting
    wrapper_need: dict = field(default_factory=dict)
    #: wrapper -> {its probe's settings: seconds of the probe fit, scaled to the columns read}
    wrapper_probes: dict = field(default_factory=dict)
    #: the first fold's columns the probes sample from, in a random order (set on first use)
    probe_pool: np.ndarray | None = None
    #: wrappers whose warm-up fit has run (:func:`warm_up_wrapper`)
    warmed: set = field(default_factory=set)
    #: the first fold's all-features ``(score, raw score, truth, seconds)``, scored by the
    #: references' plan (its cost probe) and not fitted again
    first_all_features: tuple | None = None
    #: the references' estimated seconds per fold (0 without a budget)
    reference_seconds: float = 0.0

    def settings_for(self, m: str) -> dict:
        """The settings ``m`` runs (or ran) with: the budget's, else the caller's, else its
        defaults."""
        if m in self.settings_used:
            return self.settings_used[m]
        return {**METHODS[m].settings, **self.fixed_settings.get(m, {})}

    @property
    def n_features(self) -> int:
        return self.X.shape[1]


def _probe_columns(plan: Plan, size: int = PROBE_COLUMNS) -> np.ndarray:
    """The columns a probe fit reads: a fixed random subsample of at most ``size`` of the
    columns the selectors read on the first fold (on a wide table the screen's: a random
    column of a bag of words is mostly zeros, where the screened ones are not, and some
    selectors' cost follows); a smaller size gives a prefix of a larger one."""
    if plan.probe_pool is None:
        tr, _ = plan.splits[0]
        pool = np.arange(plan.n_features)
        if plan.n_features > SCREEN_COLUMNS:
            pool = screen_columns(plan.X[tr], plan.y[tr], SCREEN_COLUMNS)
        plan.probe_pool = np.random.RandomState(plan.seeds[0]).permutation(pool)
    return plan.probe_pool[: min(size, plan.probe_pool.size)]


#: the share of the time left that the rankers' probes may take
PROBE_SHARE = 0.25
#: the share of the time left that the references (run first) may take
REFERENCE_SHARE = 0.3
#: the fewest folds a budget lowers the folds to (of the first repetition: every row is scored
#: on the same folds, and fewer folds give wider intervals, so a larger top group)
MIN_FOLDS = 3
#: rows of a wrapper's largest probe fit on a larger fold (a quarter and half of them before
#: it), and the range of the power of the rows its time is extrapolated with
PROBE_ROWS = 1000
_GROWTH_EXPONENT = (1.0, 2.5)
#: rows of each label value (the lowest and highest) and columns of a wrapper's warm-up fit
_WARM_UP_ROWS = 30
_WARM_UP_COLUMNS = 5
#: a probe fit shorter than this is read as growing linearly (its timing is mostly noise)
_LINEAR_BELOW = 0.1
#: the power of the columns a refit on all of them is costed with, from a fold's fit on the
#: screened ones: PU permutation importance's refit on ARCENE (10,000 columns, 200 rows) took
#: 116 s against 12 s for a fold's fit on 2,000 (160 rows), the 1.3th power of the columns
#: after the rows, where the linear cost assumed before let it run the board 1.9 times past its
#: budget
REFIT_COLUMN_EXPONENT = 1.5
#: the largest share of the time left the plan keeps for the wrappers
_WRAPPER_RESERVE = 0.4


def plan_references(plan: Plan, n_random: int) -> int:
    """The random draws per fold and k for the references, fitted to the budget before they
    run (first: a board needs them, and a ranker's first fit may compile for many seconds):
    one fit of the downstream model on every column of the first fold gives their cost, and
    the draws are halved, then the folds lowered to MIN_FOLDS, until the references fit in
    REFERENCE_SHARE of the time left.  Returns the draws."""
    if plan.deadline is None:
        return n_random
    tr, te = plan.splits[0]
    start = time.perf_counter()
    scores = plan.scorer(plan.X, plan.y, tr, te, np.arange(plan.n_features))
    seconds = time.perf_counter() - start
    plan.first_all_features = (*scores, seconds)
    per_column = seconds / plan.n_features

    def references(draws: int, folds: int) -> float:
        # all features once, and each k's draws at about k / d of that fit's cost (at least a
        # quarter of it: a fit has a fixed cost)
        per_fold = plan.n_features + draws * sum(max(k, plan.n_features / 4) for k in plan.ks)
        return folds * per_fold * per_column

    draws, folds = n_random, len(plan.splits)

    def too_long() -> bool:
        return references(draws, folds) > REFERENCE_SHARE * (plan.deadline - time.time())

    while draws > 1 and too_long():
        draws = max(1, draws // 2)
    if draws < n_random:
        plan.notes.append(f"random reference: {draws} draw(s) per fold and k to fit the budget")
    while folds > MIN_FOLDS and too_long():
        folds -= 1
    _keep_folds(plan, folds, None)  # nothing scored yet
    plan.reference_seconds = references(draws, 1)
    return draws


def _keep_folds(plan: Plan, folds: int, records: list | None) -> None:
    """Keep the first ``folds`` folds (with a note), and only their records: every row is
    compared on the same folds."""
    if folds >= len(plan.splits):
        return
    plan.notes.append(f"folds: {folds} of {len(plan.splits)}, to fit the budget")
    del plan.splits[folds:]
    if records is not None:
        records[:] = [r for r in records if r[1] < folds]


def plan_budget(
    plan: Plan, rankers: list[str], cv: int, wrappers: list[str] = (), records: list | None = None
) -> list[str]:
    """Fit the rankers to the budget before running them (the references have run): one probe
    each on the first fold's training rows gives their cost per fold; the repeated folds are
    lowered, then the folds of the first repetition down to MIN_FOLDS (the references' records
    of the folds dropped go too), then the costliest rankers left out (and the folds raised
    again as far as the rankers kept allow), until the rankers fit in the time left less what
    the wrappers kept by :func:`probe_wrappers` need at their cheapest setting (at most 40 % of
    it; 40 % when a wrapper was not probed) and a margin for the refits.  Returns the rankers
    kept."""
    if plan.deadline is None:
        return rankers
    tr, te = plan.splits[0]
    # the rankers' probes: column subsamples, their cost extrapolated to the columns they will
    # read; on a wide table two nested ones (PROBE_COLUMNS and twice that) give the growth
    n_read = min(plan.n_features, SCREEN_COLUMNS)
    wide = n_read > 2 * PROBE_COLUMNS
    chosen = _probe_columns(plan, PROBE_COLUMNS * (2 if wide else 1))
    sizes = [PROBE_COLUMNS, 2 * PROBE_COLUMNS] if wide else [chosen.size]
    X_probes = {n: plan.X[:, np.sort(chosen[:n])] for n in sizes}
    ks_probe = [k for k in plan.ks if k <= PROBE_K] or [1]
    k_fit = max([k for k in plan.ks if k < n_read], default=1)
    labeled = tr[plan.y[tr] != plan.y[tr].min()][:15]
    warm_train = np.concatenate([labeled, tr[plan.y[tr] == plan.y[tr].min()][:30]])
    cost_of = {}
    # the probes themselves get at most a quarter of the time left (a cold numba cache or a busy
    # machine can make them slow): the rankers they keep must still run on every kept fold
    probes_end = time.time() + PROBE_SHARE * (plan.deadline - time.time())
    for m in rankers:
        if time.time() > probes_end:
            break
        # a first fit on a few rows and columns compiles what a method compiles (numba), so
        # that the timed probe measures the work only
        method_fold(
            m,
            plan.settings_for(m),
            plan.prior,
            plan.seeds[0],
            X_probes[sizes[0]][:, :5],
            plan.y,
            warm_train,
            te,
            [1, 2],
            plan.scorer,
            plan.deadline,
        )
        fits = []  # (columns, fit seconds, all seconds) of the probes
        for n_cols in sizes:
            t0 = time.perf_counter()
            result = method_fold(
                m,
                plan.settings_for(m),
                plan.prior,
                plan.seeds[0],
                X_probes[n_cols],
                plan.y,
                tr,
                te,
                ks_probe,
                plan.scorer,
                plan.deadline,
            )
            if not isinstance(result, list):
                break
            fits.append((n_cols, float(result[0][-2]), time.perf_counter() - t0))
        if isinstance(result, Failed):
            plan.notes.append(f"{m} left out: its fit failed on fold 1 ({result.error})")
            continue
        if not isinstance(result, list):
            cost_of[m] = np.inf
            continue
        # the fit's time grows with the columns along the power law through the two probes
        # (RLSR's about as their square; a probe under 0.1 s is read as linear, its timing
        # being noise), and a greedy ranking's with its k; scoring each k of the grid costs
        # about what scoring the probe's ks did, per k
        n_cols, fit, seconds = fits[-1]
        exponent = 1.0
        if len(fits) == 2 and fit >= _LINEAR_BELOW:
            growth = np.log(fit / max(fits[0][1], 1e-6)) / np.log(n_cols / fits[0][0])
            exponent = float(np.clip(growth, *_GROWTH_EXPONENT))
        # a growth that sets in beyond the probes' columns is the method's to declare
        exponent = max(exponent, METHODS[m].column_exponent or 1.0)
        scale = (n_read / n_cols) ** exponent
        if METHODS[m].greedy:
            scale *= max(1.0, k_fit / max(ks_probe))
        scoring = max(seconds - fit, 0.0) * len(plan.ks) / len(ks_probe)
        cost_of[m] = fit * scale + scoring
    left = plan.deadline - time.time()
    if any(m not in plan.wrapper_need for m in wrappers):
        # a wrapper not probed (settings fixed by the caller, a short budget): its need is
        # unknown, and it gets the whole reserve
        reserve = _WRAPPER_RESERVE * left
    else:
        reserve = min(_WRAPPER_RESERVE * left, sum(plan.wrapper_need.get(m, 0) for m in wrappers))
    allowed = max((1 - _WRAPPER_RESERVE) * left, _BUDGET_SHARE * left - reserve)
    kept = [m for m in rankers if np.isfinite(cost_of.get(m, np.inf))]
    folds = len(plan.splits)

    def cost() -> float:
        return folds * sum(cost_of[m] for m in kept)

    while folds > cv and cost() > allowed:
        folds -= cv  # a whole repetition first
    while folds > MIN_FOLDS and cost() > allowed:
        folds -= 1
    while kept and cost() > allowed:
        dropped = max(kept, key=cost_of.get)
        kept.remove(dropped)
        plan.deferred[dropped] = cost_of[dropped]
        plan.notes.append(
            f"{dropped} left out for the budget: about {folds * cost_of[dropped]:.0f} s on "
            f"{folds} folds (one fold's fit: {cost_of[dropped]:.1f} s)"
        )
    # the rankers kept may afford more folds than the ones dropped left room for
    while kept and folds < len(plan.splits) and (folds + 1) * cost() / folds <= allowed:
        folds += 1
    failed = [
        m
        for m in rankers
        if m not in cost_of and any(m + " left out: its fit" in n for n in plan.notes)
    ]
    for m in rankers:
        if m not in failed and (m not in cost_of or not np.isfinite(cost_of[m])):
            plan.notes.append(f"{m} left out for the budget: its trial fit did not finish in time")
    _keep_folds(plan, folds, records)
    return kept


def score_references(plan: Plan, n_random: int, records: list) -> None:
    """Random columns and all features on every fold; the folds the deadline cut are dropped
    for every row (all rows are compared on the same folds).  A fold after the first two (a
    board needs two) is not started when its estimated cost would end it past the deadline: on
    a loaded machine the plan's floor of MIN_FOLDS folds can outlast a short budget."""
    tasks = [
        (
            functools.partial(
                reference_fold,
                expected=plan.reference_seconds if f >= 2 else 0.0,
                all_features=plan.first_all_features if f == 0 else None,
            ),
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


def _method_tasks(plan: Plan, m: str, settings: dict) -> list:
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


def score_rankers(plan: Plan, rankers: list[str], records: list) -> None:
    for m in rankers:
        plan.settings_used[m] = plan.settings_for(m)
    tasks = [task for m in rankers for task in _method_tasks(plan, m, plan.settings_used[m])]
    results = _run(tasks, plan.n_jobs, plan.progress, "selectors")
    n = len(plan.splits)
    for i, m in enumerate(rankers):
        add_method_records(records, plan.notes, m, results[i * n : (i + 1) * n])


#: the share of the whole budget kept back for the refits on all rows when the rankers left out
#: by the plan are tried again
_REFIT_SHARE = 0.1


def score_deferred_rankers(plan: Plan, records: list) -> None:
    """The rankers the plan left out for the budget, cheapest first, each run on every kept fold
    when its estimated cost fits in the time the wrappers left (the plan keeps 40 % of the time
    for wrappers, which may leave most of it when none can run)."""
    if plan.deadline is None or not plan.deferred:
        return
    folds = len(plan.splits)
    for m in sorted(plan.deferred, key=plan.deferred.get):
        left = plan.deadline - time.time() - _REFIT_SHARE * (plan.deadline - plan.started)
        # twice its estimate: run last, an under-estimated ranker has no later step to give
        # time back, and a started fold is not interrupted
        if 2 * folds * plan.deferred[m] > _BUDGET_SHARE * left:
            continue
        plan.notes[:] = [n for n in plan.notes if not n.startswith(f"{m} left out for the budget")]
        plan.notes.append(f"{m}: run after the wrappers, in the time they left")
        score_rankers(plan, [m], records)


def _probe_rows(plan: Plan) -> tuple[np.ndarray, ...] | None:
    """Nested row subsamples of the first fold's training rows (PROBE_ROWS / 4, PROBE_ROWS / 2
    and PROBE_ROWS rows, each label value in its share), or None when the fold is no larger."""
    tr0, _ = plan.splits[0]
    if tr0.size <= PROBE_ROWS:
        return None
    rng = np.random.RandomState(plan.seeds[0])
    order = rng.permutation(tr0.size)
    # stratified: the rows of each label value keep their share in every subsample
    y0 = plan.y[tr0][order]
    ranks = np.empty(tr0.size)
    for value in np.unique(y0):
        where = np.flatnonzero(y0 == value)
        ranks[where] = (np.arange(where.size) + 0.5) / where.size
    by_rank = order[np.argsort(ranks, kind="stable")]
    return tuple(np.sort(tr0[by_rank[: PROBE_ROWS // part]]) for part in (4, 2, 1))


def _cheapest(m: str) -> dict:
    """A wrapper's default settings at the low end of its budgeted parameter."""
    spec = METHODS[m]
    settings = dict(spec.settings)
    if spec.budget_param is not None:
        settings[spec.budget_param] = spec.budget_range[0]
    return settings


def warm_up_wrapper(plan: Plan, m: str, trial: dict) -> None:
    """A wrapper's first fit, on a few rows and columns, untimed and once: it compiles what the
    wrapper compiles (numba: FSCPU's loops take about 18 s on a fresh install), so that a
    timed probe measures the work only, and the time left for the wrapper is read after it.
    It may fail on so few rows (the timed probe then says why)."""
    if m in plan.warmed:
        return
    plan.warmed.add(m)
    tr0, _ = plan.splits[0]
    rows = tr0[np.argsort(plan.y[tr0], kind="stable")]
    rows = np.unique(np.concatenate([rows[:_WARM_UP_ROWS], rows[-_WARM_UP_ROWS:]]))
    cols = np.sort(_probe_columns(plan)[:_WARM_UP_COLUMNS])
    try:
        METHODS[m].build(1, trial, plan.prior, plan.seeds[0]).fit(
            plan.X[np.ix_(rows, cols)], plan.y[rows]
        )
    except Exception:
        pass


def _wrapper_probe(plan: Plan, m: str):
    """A wrapper's probe: fits on the first fold's training rows at the given settings, timed,
    and the factor that turns it into the whole run (folds and ks).  On a fold of more than
    PROBE_ROWS rows the probe fits nested row subsamples (a quarter, half and all of
    PROBE_ROWS) and extrapolates to the fold's rows along the power law through the last two
    times (exponent clipped to [1, 2.5]): a wrapper whose cost grows faster than the rows
    (GKF-PUAL) is not fitted on every row just to learn that it cannot run.  ``probe(trial,
    limit)`` stops early when a fit's time, scaled linearly to the fold's rows (a lower bound),
    already exceeds ``limit`` seconds, and returns that bound.  A probe made by the plan is not
    repeated: its time is read back for the same settings."""
    tr0, _ = plan.splits[0]
    ks = plan.ks
    # the probe fits the middle k once; a wrapper's cost grows about linearly with k
    k_probe = ks[-1] if METHODS[m].ranker else ks[len(ks) // 2]
    ks_run = [ks[-1]] if METHODS[m].ranker else ks
    fits_per_unit = len(plan.splits) * sum(ks_run) / k_probe
    # on a wide table the probe reads a column subsample, its time scaled to the columns the
    # wrapper reads and to the probe's k (a conservative estimate)
    n_read = min(plan.n_features, SCREEN_COLUMNS)
    cols = np.sort(_probe_columns(plan))
    k_sub = max(1, min(k_probe, cols.size - 1))
    scale = (n_read / cols.size) * (k_probe / k_sub)
    subsamples = _probe_rows(plan)
    timed: dict = plan.wrapper_probes.setdefault(m, {})

    def fit_seconds(trial: dict, rows: np.ndarray) -> float:
        t0 = time.perf_counter()
        build = METHODS[m].build(k_sub, trial, plan.prior, plan.seeds[0])
        build.fit(plan.X[np.ix_(rows, cols)], plan.y[rows])
        return time.perf_counter() - t0

    def extrapolated(trial: dict, limit: float) -> float:
        if subsamples is None:
            return fit_seconds(trial, tr0)
        times = []
        for rows in subsamples:
            times.append(fit_seconds(trial, rows))
            lower = times[-1] * (tr0.size / rows.size) * scale
            if lower > limit:  # too slow even if it grew only linearly: no larger fit
                return lower / scale
        growth = np.log(max(times[-1], 1e-6) / max(times[-2], 1e-6)) / np.log(2.0)
        exponent = 1.0
        if times[-1] >= _LINEAR_BELOW:
            exponent = float(np.clip(growth, *_GROWTH_EXPONENT))
        return times[-1] * (tr0.size / subsamples[-1].size) ** exponent

    def probe(trial: dict, limit: float = np.inf) -> float:
        key = repr(sorted(trial.items()))
        if key not in timed:
            warm_up_wrapper(plan, m, trial)
            timed[key] = extrapolated(trial, limit) * scale
        return timed[key]

    return probe, fits_per_unit


#: budgets shorter than this probe the wrappers only when their turn comes, after the
#: references and rankers: a first fit compiles what a wrapper compiles (FSCPU's loops, about
#: 18 s on a fresh install), which would take the references' time from a short budget
UPFRONT_PROBE_BUDGET = 100.0


def _too_slow_note(m: str, need: float, left: float) -> str:
    return (
        f"{m} left out: at its cheapest setting it needs about {need:.0f} s, the budget leaves "
        f"{max(left, 0):.0f} s"
    )


def probe_wrappers(plan: Plan, wrappers: list[str]) -> list[str]:
    """Each budgeted wrapper's cost at its cheapest setting, from one probe fit, before any
    ranker runs (on budgets of UPFRONT_PROBE_BUDGET seconds or more, and while the probes
    have used less than PROBE_SHARE of the time left): a wrapper that cannot fit in the time
    left is left out at once (with a note) and reserves nothing.  Returns the wrappers kept;
    ``plan.wrapper_need`` holds the cost of those probed."""
    if plan.deadline is None or plan.deadline - plan.started < UPFRONT_PROBE_BUDGET:
        return wrappers
    kept = []
    probes_end = time.time() + PROBE_SHARE * (plan.deadline - time.time())
    for m in wrappers:
        if m in plan.fixed_settings or time.time() > probes_end:
            kept.append(m)  # probed, if at all, when its turn comes
            continue
        left = _BUDGET_SHARE * (plan.deadline - time.time())
        probe, fits_per_unit = _wrapper_probe(plan, m)
        try:
            need = probe(_cheapest(m), left / fits_per_unit) * fits_per_unit
        except Exception as exc:  # as a failed fold: left out, with why
            plan.notes.append(f"{m} left out: its trial fit failed ({first_line(exc)})")
            continue
        if need > left:
            plan.notes.append(_too_slow_note(m, need, left))
            continue
        plan.wrapper_need[m] = need
        kept.append(m)
    return kept


def score_wrappers(plan: Plan, wrappers: list[str], records: list) -> None:
    """Each wrapper at the settings the time left allows (a probe fit on the first fold's
    training rows times the whole run), or left out with a note."""
    for i, m in enumerate(wrappers):
        settings = plan.settings_for(m)
        if plan.deadline is not None and m not in plan.fixed_settings:
            left = _BUDGET_SHARE * (plan.deadline - time.time())
            share = left / (len(wrappers) - i)
            probed = m in plan.wrapper_need  # its cost is known: no trial fit is needed
            if not probed and share <= _MIN_WRAPPER_SHARE * (plan.deadline - plan.started):
                # no probe: a trial fit alone would overrun the budget
                plan.notes.append(
                    f"{m} left out for the budget: about {max(share, 0):.0f} s left for it, too "
                    "little to try it"
                )
                continue
            if not probed:  # its compiling fit first: the time left is read after it
                warm_up_wrapper(plan, m, _cheapest(m))
                share = _BUDGET_SHARE * (plan.deadline - time.time()) / (len(wrappers) - i)
            probe, fits_per_unit = _wrapper_probe(plan, m)
            try:
                settings, need = _budgeted_settings(m, share, fits_per_unit, probe)
            except Exception as exc:  # as a failed fold: left out, with why
                plan.notes.append(f"{m} left out: its trial fit failed ({first_line(exc)})")
                continue
            if settings is None:
                plan.notes.append(_too_slow_note(m, need, share))
                continue
            param = METHODS[m].budget_param
            if param is not None and settings[param] < METHODS[m].settings[param]:
                plan.notes.append(
                    f"{m}: {param}={settings[param]} (default {METHODS[m].settings[param]}) to "
                    "fit the budget"
                )
        plan.settings_used[m] = settings
        results = _run(_method_tasks(plan, m, settings), plan.n_jobs, plan.progress, m)
        add_method_records(records, plan.notes, m, results)


def refit_seconds(method: str, fold_seconds: float, n_features: int) -> float:
    """About the seconds of one fit of ``method`` on all rows and all ``n_features`` columns,
    from its mean fit on a fold (which reads at most ``SCREEN_COLUMNS`` of them): a margin of
    1.5, and the columns' growth at the power ``REFIT_COLUMN_EXPONENT`` (or the method's own
    ``column_exponent`` when larger)."""
    exponent = max(REFIT_COLUMN_EXPONENT, METHODS[method].column_exponent or 1.0)
    return 1.5 * fold_seconds * max(1.0, n_features / SCREEN_COLUMNS) ** exponent


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
        if row["method"] == RANDOM or row["k_rule"] != "auto":
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
