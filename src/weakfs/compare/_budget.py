"""The budget of a comparison, planned before and between its steps: probe fits that give each
method's cost, the references' random draws and the folds fitted to the time left, the rankers
kept, the wrappers' settings scaled to their share, and the cost of a refit on every column.
Every function reads and extends a :class:`~weakfs.compare._plan.Plan` and its notes."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from weakfs._screen import screen_columns
from weakfs.compare._folds import SCREEN_COLUMNS, Failed, first_line, method_fold
from weakfs.compare._methods import METHODS
from weakfs.compare._plan import Plan

__all__ = [
    "MIN_FOLDS",
    "deferred_ranker_fits",
    "more_folds_fit",
    "plan_budget",
    "plan_references",
    "probe_wrappers",
    "refit_seconds",
    "wrapper_settings",
]

#: columns and largest k of the rankers' probe fit (its cost is scaled to the table's columns,
#: and for a greedy ranking to its k)
PROBE_COLUMNS = 100
PROBE_K = 10
#: the least share of the budget a wrapper's trial fit is started with
_MIN_WRAPPER_SHARE = 0.2
#: the share of the budget planned for: estimates from one probe fit are rough
_BUDGET_SHARE = 0.85


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


#: the share of the whole budget kept back for the refits on all rows when the rankers left out
#: by the plan are tried again
_REFIT_SHARE = 0.1


#: budgets shorter than this probe the wrappers only when their turn comes, after the
#: references and rankers: a first fit compiles what a wrapper compiles (FSCPU's loops, about
#: 18 s on a fresh install), which would take the references' time from a short budget
UPFRONT_PROBE_BUDGET = 100.0


def _budgeted_settings(
    name, budget_left, fits_per_unit: float, probe: Callable[..., float], base: dict
):
    """A wrapper's settings ``base`` scaled to ``budget_left`` seconds, from the time of one
    probe fit at its smallest setting; ``fits_per_unit`` converts that probe into the whole run
    (folds, and the ks relative to the probe's k).  Returns ``(settings, None)``, or ``(None,
    seconds needed)`` when even the smallest setting does not fit."""
    spec = METHODS[name]
    settings = dict(base)
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


def _row_capped_settings(plan: Plan, m: str) -> dict:
    """A wrapper's default settings, its search on ``budget_rows`` of a fold's training rows
    when the folds are larger and hold at most half that many labeled rows (with a note)."""
    spec = METHODS[m]
    settings = dict(spec.settings)
    if spec.budget_rows is None:
        return settings
    param, rows = spec.budget_rows
    tr0, _ = plan.splits[0]
    if tr0.size > rows and np.count_nonzero(plan.y[tr0] == 1) <= rows // 2:
        settings[param] = rows
        plan.notes.append(
            f"{m}: {param}={rows} (its search's fits on {rows:,} of a fold's {tr0.size:,} training "
            "rows, every labeled one kept) to fit the budget"
        )
    return settings


def _target_rows(m: str, trial: dict, fold_rows: int) -> int:
    """The rows a wrapper's fit works on: the fold's, or its ``budget_rows`` when set."""
    spec = METHODS[m]
    capped = trial.get(spec.budget_rows[0]) if spec.budget_rows is not None else None
    return fold_rows if capped is None else min(fold_rows, int(capped))


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
    plan.dropped_splits[:0] = plan.splits[folds:]
    del plan.splits[folds:]
    if records is not None:
        records[:] = [r for r in records if r.fold < folds]


def _ranker_costs(plan: Plan, rankers: list[str]) -> dict[str, float]:
    """Each ranker's estimated seconds per fold (infinite when its probe did not finish in
    time; absent when its fit failed, with a note, or the probes ran out of time), from probe
    fits on the first fold's training rows: column subsamples, their cost extrapolated to the
    columns the ranker will read; on a wide table two nested ones (PROBE_COLUMNS and twice
    that) give the growth."""
    tr, _ = plan.splits[0]
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
        method_fold(plan.fold_task(m, 0, X=X_probes[sizes[0]][:, :5], train=warm_train, ks=[1, 2]))
        fits = []  # (columns, fit seconds, all seconds) of the probes
        for n_cols in sizes:
            t0 = time.perf_counter()
            result = method_fold(plan.fold_task(m, 0, X=X_probes[n_cols], ks=ks_probe))
            if not isinstance(result, list):
                break
            fits.append((n_cols, result[0].seconds, time.perf_counter() - t0))
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
    return cost_of


def plan_budget(
    plan: Plan, rankers: list[str], cv: int, wrappers: list[str] = (), records: list | None = None
) -> list[str]:
    """Fit the rankers to the budget before running them (the references have run): one probe
    each on the first fold's training rows gives their cost per fold (:func:`_ranker_costs`);
    the repeated folds are lowered, then the folds of the first repetition down to MIN_FOLDS
    (the references' records of the folds dropped go too), then the costliest rankers left out
    (and the folds raised again as far as the rankers kept allow), until the rankers fit in the
    time left less what the wrappers kept by :func:`probe_wrappers` need at their cheapest
    setting (at most 40 % of it; 40 % when a wrapper was not probed) and a margin for the
    refits.  Returns the rankers kept."""
    if plan.deadline is None:
        return rankers
    cost_of = _ranker_costs(plan, rankers)
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
    if not kept and np.isfinite(list(cost_of.values()) or [np.inf]).any():
        # no ranker in the plan: the cheapest runs if it fits in the time left at all (the
        # wrappers' reserve then shrinks), so that the board compares at least one selector
        cheapest = min((m for m in cost_of if np.isfinite(cost_of[m])), key=cost_of.get)
        if folds * cost_of[cheapest] <= _BUDGET_SHARE * left:
            kept.append(cheapest)
            del plan.deferred[cheapest]
            plan.notes[:] = [n for n in plan.notes if not n.startswith(f"{cheapest} left out")]
            plan.notes.append(
                f"{cheapest}: run although the plan left little time for it, the cheapest "
                "selector, so that the board compares one"
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
        target = _target_rows(m, trial, tr0.size)
        times = []
        for rows in subsamples:
            times.append(fit_seconds(trial, rows))
            lower = times[-1] * (target / rows.size) * scale
            if lower > limit:  # too slow even if it grew only linearly: no larger fit
                return lower / scale
        growth = np.log(max(times[-1], 1e-6) / max(times[-2], 1e-6)) / np.log(2.0)
        exponent = 1.0
        if times[-1] >= _LINEAR_BELOW:
            exponent = float(np.clip(growth, *_GROWTH_EXPONENT))
        return times[-1] * (target / subsamples[-1].size) ** exponent

    def probe(trial: dict, limit: float = np.inf) -> float:
        key = repr(sorted(trial.items()))
        if key not in timed:
            warm_up_wrapper(plan, m, trial)
            timed[key] = extrapolated(trial, limit) * scale
        return timed[key]

    return probe, fits_per_unit


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


def wrapper_settings(plan: Plan, m: str, n_left: int) -> dict | None:
    """The settings wrapper ``m`` runs with, the first of ``n_left`` wrappers still to run:
    the caller's or, under a budget, its budgeted parameter scaled to its share of the time left
    (a probe fit on the first fold's training rows times the whole run); None, with a note,
    when it cannot run in its share."""
    settings = plan.settings_for(m)
    if plan.deadline is None or m in plan.fixed_settings:
        return settings
    share = _BUDGET_SHARE * (plan.deadline - time.time()) / n_left
    probed = m in plan.wrapper_need  # its cost is known: no trial fit is needed
    if not probed and share <= _MIN_WRAPPER_SHARE * (plan.deadline - plan.started):
        # no probe: a trial fit alone would overrun the budget
        plan.notes.append(
            f"{m} left out for the budget: about {max(share, 0):.0f} s left for it, too "
            "little to try it"
        )
        return None
    if not probed:  # its compiling fit first: the time left is read after it
        warm_up_wrapper(plan, m, _cheapest(m))
        share = _BUDGET_SHARE * (plan.deadline - time.time()) / n_left
    probe, fits_per_unit = _wrapper_probe(plan, m)
    base = _row_capped_settings(plan, m)
    try:
        settings, need = _budgeted_settings(m, share, fits_per_unit, probe, base)
    except Exception as exc:  # as a failed fold: left out, with why
        plan.notes.append(f"{m} left out: its trial fit failed ({first_line(exc)})")
        return None
    if settings is None:
        plan.notes.append(_too_slow_note(m, need, share))
        return None
    param = METHODS[m].budget_param
    if param is not None and settings[param] < METHODS[m].settings[param]:
        plan.notes.append(
            f"{m}: {param}={settings[param]} (default {METHODS[m].settings[param]}) to "
            "fit the budget"
        )
    return settings


def deferred_ranker_fits(plan: Plan, m: str) -> bool:
    """Whether ranker ``m``, left out by :func:`plan_budget`, fits in the time the wrappers left
    (less a share kept for the refits) on every kept fold."""
    left = plan.deadline - time.time() - _REFIT_SHARE * (plan.deadline - plan.started)
    # twice its estimate: run last, an under-estimated ranker has no later step to give
    # time back, and a started fold is not interrupted
    return 2 * len(plan.splits) * plan.deferred[m] <= _BUDGET_SHARE * left


def more_folds_fit(plan: Plan, seconds_per_fold: float) -> int:
    """How many of the folds the plan left out (``plan.dropped_splits``) fit in the time left,
    less the share kept for the refits, at ``seconds_per_fold`` (every row's fits on one fold,
    as measured) with a margin of 1.5."""
    if plan.deadline is None or not plan.dropped_splits:
        return 0
    left = plan.deadline - time.time() - _REFIT_SHARE * (plan.deadline - plan.started)
    fit = int(_BUDGET_SHARE * left / max(1.5 * seconds_per_fold, 1e-9))
    return max(0, min(fit, len(plan.dropped_splits)))


def refit_seconds(method: str, fold_seconds: float, n_features: int) -> float:
    """About the seconds of one fit of ``method`` on all rows and all ``n_features`` columns,
    from its mean fit on a fold (which reads at most ``SCREEN_COLUMNS`` of them): a margin of
    1.5, and the columns' growth at the power ``REFIT_COLUMN_EXPONENT`` (or the method's own
    ``column_exponent`` when larger)."""
    exponent = max(REFIT_COLUMN_EXPONENT, METHODS[method].column_exponent or 1.0)
    return 1.5 * fold_seconds * max(1.0, n_features / SCREEN_COLUMNS) ** exponent
