"""Compact GA / IGO on Bernoulli masks with a hard cost constraint (FSCPU paper, Algorithms 2-3).

The search keeps one Bernoulli parameter ``theta_l`` per feature.  Each iteration draws two masks,
repairs them so that their total cost is at most the budget and as close to it as the costs allow
(Algorithm 3), evaluates them, and moves ``theta`` towards the better one:
``theta += eta * sign(f(a) - f(b)) * (a - b)``, clipped to ``[eps, 1 - eps]``.  The result is the
set of features with the largest final ``theta`` that fits the budget (the paper's rule).

The objective is any ``f(mask) -> float`` (higher is better), or a list of such terms combined by
running-standard-deviation normalisation (FSCPU-MI: ``sum_j f_j(m) / Std[f_j]`` where each Std is
over every value of that term logged so far in the run).
"""

from __future__ import annotations

import numbers
import time
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field

import numpy as np
from joblib import Parallel, delayed
from numpy.typing import ArrayLike
from sklearn.utils import check_random_state

from weakfs._progress import progress
from weakfs._validation import check_budget_and_costs
from weakfs.search._base import CachedObjective, MaskSearch, SearchResult, as_objective

__all__ = ["CompactGA", "CompactGAResult", "repair_mask", "running_std_compare", "top_theta"]


class _ParallelChooser:
    """Whether an iteration's two evaluations go to two threads.

    Iteration 0 is serial (it may compile kernels); iterations 1 to ``TRIAL`` are timed serial,
    the next ``TRIAL`` in parallel, and the rest run the faster way.  Only with a thread backend
    and more than one job: another backend (Dask) is used as asked.
    """

    TRIAL = 5

    def __init__(self, n_jobs):
        from joblib import effective_n_jobs
        from joblib.parallel import get_active_backend

        threads = bool(getattr(get_active_backend(prefer="threads")[0], "uses_threads", False))
        self.adaptive = threads and effective_n_jobs(n_jobs) > 1
        self.fixed = effective_n_jobs(n_jobs) > 1
        self.times: dict[bool, list[float]] = {False: [], True: []}
        self.choice: bool | None = None if self.adaptive else self.fixed

    def parallel(self, t: int) -> bool:
        if not self.adaptive:
            return self.fixed
        if self.choice is not None:
            return self.choice
        return t > self.TRIAL

    def record(self, t: int, seconds: float) -> None:
        if not self.adaptive or self.choice is not None or t == 0:
            return
        self.times[t > self.TRIAL].append(seconds)
        if len(self.times[True]) == self.TRIAL:
            serial, parallel = (float(np.median(self.times[k])) for k in (False, True))
            self.choice = parallel < 0.9 * serial


@dataclass(kw_only=True)
class CompactGAResult(SearchResult):
    """Outcome of :meth:`CompactGA.run`: a :class:`~weakfs.search.SearchResult` plus the IGO state.

    ``support``: the final mask (top-theta within the budget; ``best_mask`` is the same mask and
    ``best_fitness`` is ``nan``: the answer itself is not evaluated); ``theta``: final parameters;
    ``theta_history``: ``(n_iter + 1, d)`` parameters after each iteration (row 0 = start);
    ``values``: ``(n_iter, 2, n_terms)`` objective term values of the two candidates;
    ``masks``: ``(n_iter, 2, d)`` the repaired candidates; ``n_evaluations``: objective calls
    actually run per term (cache misses); ``converged``: every theta within ``margin`` of a bound;
    ``parallel``: whether the candidates ran in two threads after the timed trial (None: the
    search ended before the trial did).
    """

    theta: np.ndarray
    theta_history: np.ndarray
    values: np.ndarray
    masks: np.ndarray
    n_iter: int
    n_evaluations: list[int] = field(default_factory=list)
    converged: bool = False
    parallel: bool | None = None


def _weighted_index(weights: np.ndarray, rng) -> int:
    """``rng.choice(len(weights), p=weights / weights.sum())`` without its per-call checks.

    For a legacy ``RandomState`` this repeats the operations of its ``choice`` (normalised
    cumulative sum, one ``random_sample``, ``searchsorted`` to the right), so it returns the same
    index and leaves the generator in the same state; a generator of another kind, or weights
    that do not sum to a positive number, go to ``rng.choice`` itself (which raises on the
    latter).
    """
    p = weights / weights.sum()
    if type(rng) is not np.random.RandomState or not np.isfinite(p[0]):
        return int(rng.choice(weights.shape[0], p=p))
    cdf = p.cumsum()
    cdf /= cdf[-1]
    return int(cdf.searchsorted(rng.random_sample(), side="right"))


def repair_mask(
    mask: np.ndarray, theta: np.ndarray, costs: np.ndarray, budget: float, rng
) -> np.ndarray:
    """Paper Algorithm 3: make ``mask`` feasible, then fill the remaining budget.

    While the cost exceeds ``budget``, switch off a selected feature drawn with probability
    proportional to ``1 - theta``; then, while some unselected feature still fits the remaining
    budget, switch on one of those drawn with probability proportional to ``theta``.
    """
    m = np.array(mask, dtype=bool)
    tol = 1e-9 * max(1.0, float(budget))
    cost = float(costs[m].sum())
    while cost > budget + tol:
        j = _weighted_index(np.where(m, 1.0 - theta, 0.0), rng)
        m[j] = False
        cost -= costs[j]
    remaining = budget - cost
    while True:
        fits = ~m & (costs <= remaining + tol)
        if not fits.any():
            break
        j = _weighted_index(np.where(fits, theta, 0.0), rng)
        m[j] = True
        remaining -= costs[j]
    return m


def top_theta(theta: np.ndarray, costs: np.ndarray, budget: float) -> np.ndarray:
    """The paper's final rule: features by decreasing ``theta`` (ties: lower index) while they fit.

    With unit costs and an integer budget this is exactly the ``budget`` largest ``theta``.
    """
    order = np.argsort(-theta, kind="stable")
    m = np.zeros(theta.shape[0], dtype=bool)
    remaining = float(budget)
    tol = 1e-9 * max(1.0, float(budget))
    for j in order:
        if costs[j] <= remaining + tol:
            m[j] = True
            remaining -= costs[j]
    return m


def running_std_compare(
    log: list[list[float]] | list[np.ndarray], va: np.ndarray, vb: np.ndarray
) -> float:
    """``sum_j (va_j - vb_j) / Std_j`` with ``Std_j`` over the values of term ``j`` logged so far.

    ``log[j]`` already holds the two new values.  A term whose logged values all coincide
    (``Std_j = 0``, e.g. the first iterations) has no scale yet and contributes 0; with a single
    term the result has the sign of ``va - vb`` whenever ``Std > 0``.
    """
    total = 0.0
    for j, values in enumerate(log):
        sd = float(np.std(values))  # an array is read as is; a list is copied into one first
        if sd > 0:
            total += (va[j] - vb[j]) / sd
    return total


@dataclass(eq=False)
class CompactGA(MaskSearch):
    """Compact genetic algorithm (IGO on Bernoulli masks) with hard-constraint repair.

    Parameters
    ----------
    n_iter : int, default=3000
        Iterations ``T`` (two candidate evaluations each).
    budget : float, optional
        Cost bound ``c_bar``.  Required (with unit costs: the number of features to select).
    costs : array-like of shape (d,), optional
        Feature costs ``c_l > 0`` (default 1).
    eta : float, optional
        Learning rate; default ``1 / (2 d)`` (paper).
    eps : float, optional
        Clip rate, ``theta`` stays in ``[eps, 1 - eps]``; default ``1 / d`` (paper), at most 0.5.
    stop_when_converged : bool, default=False
        Stop early once every ``theta`` is within ``margin`` of 0 or 1 (the paper runs all ``T``).
    margin : float, default=0.1
        Convergence margin (paper §6.3 counts ``[0, 0.1] U [0.9, 1]`` as converged); when
        ``eps > margin`` the clip bounds themselves count as converged.
    cache : bool, default=True
        Evaluate each distinct mask once per term (``weakfs.search.CachedObjective``).
    n_jobs : int or None, default=None
        The two candidates of an iteration are evaluated by ``joblib.Parallel(n_jobs,
        prefer="threads")``: 2 (or -1) evaluates them in two threads (the objective must release
        the GIL to gain, as FSCPU's numba/BLAS mixture fits do); None follows the active
        ``joblib.parallel_config`` (e.g. ``backend="dask"`` sends them to a cluster).  Results do
        not depend on it.  Parallelism must not lose: with threads, a few iterations are timed
        each way after the first and the rest run the faster way (two short evaluations cost
        less than handing them to two threads); the result's ``parallel`` says which won.
    progress : bool or "auto", default=False
        Show a tqdm bar (``"auto"``: when the search is estimated to take over a minute).

    Examples
    --------
    >>> import numpy as np
    >>> w = np.array([3.0, -1.0, 2.0, -2.0, 1.0])
    >>> ga = CompactGA(n_iter=300, budget=2)
    >>> res = ga.run(lambda m: float(w[m].sum()), n_features=5, random_state=0)
    >>> np.flatnonzero(res.support).tolist()
    [0, 2]
    """

    n_iter: int = 3000
    _: KW_ONLY
    budget: float | None = None
    costs: ArrayLike | None = None
    eta: float | None = None
    eps: float | None = None
    stop_when_converged: bool = False
    margin: float = 0.1
    cache: bool = True
    n_jobs: int | None = None
    progress: bool | str = False

    def resolve(self, n_features: int) -> tuple[np.ndarray, float, float, float]:
        """Validated ``(costs, budget, eta, eps)`` for ``n_features`` features."""
        if not isinstance(n_features, numbers.Integral) or n_features < 1:
            raise ValueError(f"n_features must be a positive int; got {n_features!r}")
        if not isinstance(self.n_iter, numbers.Integral) or self.n_iter < 1:
            raise ValueError(f"n_iter must be a positive int; got {self.n_iter!r}")
        d = int(n_features)
        budget, costs = check_budget_and_costs(self.budget, self.costs, d)
        if budget is None:
            raise ValueError("budget is required (the number of features when costs are 1)")
        eta = 1.0 / (2 * d) if self.eta is None else float(self.eta)
        eps = min(1.0 / d, 0.5) if self.eps is None else float(self.eps)
        if not 0 < eta <= 1:
            raise ValueError(f"eta must be in (0, 1]; got {eta}")
        if not 0 <= eps <= 0.5:
            raise ValueError(f"eps must be in [0, 0.5]; got {eps}")
        return costs, budget, eta, eps

    def run(
        self,
        objective,
        n_features: int | None = None,
        *,
        random_state=None,
        on_iteration: Callable[[int, np.ndarray, np.ndarray, float], None] | None = None,
    ) -> CompactGAResult:
        """Maximise ``objective`` over masks of ``n_features`` bits within the budget.

        Parameters
        ----------
        objective : MaskObjective, callable or list of them
            One objective, or a list of term objectives combined by running-std normalisation.
        n_features : int, optional
            Mask length; required when no objective has ``n_features``.
        random_state : int, RandomState instance or None, default=None
            Seed of every random draw of the search.
        on_iteration : callable, optional
            ``on_iteration(t, mask_a, mask_b, comparison)`` is called after each update (FSCPU
            uses it to warm-start its next clustering from the winner's).

        Returns
        -------
        result : CompactGAResult
        """
        items = list(objective) if isinstance(objective, list | tuple) else [objective]
        if not items:
            raise TypeError("objective must be a callable or a non-empty list of callables")
        if n_features is None:
            n_features = next(
                (getattr(t, "n_features", None) for t in items if hasattr(t, "n_features")), None
            )
        terms = [as_objective(t, n_features) for t in items]
        return self._search(terms, check_random_state(random_state), on_iteration=on_iteration)

    def _search(self, objective, rng, *, on_iteration=None) -> CompactGAResult:
        terms = objective if isinstance(objective, list) else [objective]
        d = int(terms[0].n_features)
        costs, budget, eta, eps = self.resolve(d)
        cached = [CachedObjective(t, enabled=self.cache) for t in terms]
        theta = np.clip(np.full(d, budget / costs.sum()), eps, 1 - eps)
        T = int(self.n_iter)
        history = np.empty((T + 1, d), dtype=np.float64)
        history[0] = theta
        values = np.full((T, 2, len(terms)), np.nan)
        masks = np.zeros((T, 2, d), dtype=bool)
        # each term's values so far, in evaluation order (a, b per iteration): one preallocated
        # row per term, so that the running Std reads an array (a growing list was converted
        # anew at every iteration, quadratic in T); same values in the same order, same Std
        log = np.empty((len(terms), 2 * T), dtype=np.float64)
        # batch_size=1: joblib's automatic batching would run two short evaluations as one task
        parallel = Parallel(n_jobs=self.n_jobs, prefer="threads", batch_size=1)

        def evaluate(mask):
            return np.array([f(mask) for f in cached])

        chooser = _ParallelChooser(self.n_jobs)

        t_done = 0
        converged = False
        lo = max(float(self.margin), eps) + 1e-12  # within margin of 0/1 (or at the clip bound)
        with parallel:
            for t in progress(range(T), enabled=self.progress, total=T, desc="compact GA"):
                draws = rng.random_sample((2, d)) < theta
                ma = repair_mask(draws[0], theta, costs, budget, rng)
                mb = repair_mask(draws[1], theta, costs, budget, rng)
                started = time.perf_counter()
                if not np.array_equal(ma, mb) and chooser.parallel(t):
                    va, vb = parallel(delayed(evaluate)(m) for m in (ma, mb))
                else:
                    va, vb = evaluate(ma), evaluate(mb)
                chooser.record(t, time.perf_counter() - started)
                log[:, 2 * t], log[:, 2 * t + 1] = va, vb
                if len(terms) == 1:
                    comparison = float(va[0] - vb[0])
                else:
                    comparison = running_std_compare(list(log[:, : 2 * t + 2]), va, vb)
                theta = theta + eta * np.sign(comparison) * (ma.astype(float) - mb)
                np.clip(theta, eps, 1 - eps, out=theta)
                history[t + 1] = theta
                values[t, 0], values[t, 1] = va, vb
                masks[t, 0], masks[t, 1] = ma, mb
                t_done = t + 1
                if on_iteration is not None:
                    on_iteration(t, ma, mb, comparison)
                converged = bool(np.all((theta <= lo) | (theta >= 1 - lo)))
                if self.stop_when_converged and converged:
                    break
        support = top_theta(theta, costs, budget)
        return CompactGAResult(
            support=support,
            best_mask=support.copy(),
            best_fitness=np.nan,
            theta=theta,
            theta_history=history[: t_done + 1],
            values=values[:t_done],
            masks=masks[:t_done],
            n_iter=t_done,
            n_evaluations=[c.n_evaluations for c in cached],
            converged=converged,
            parallel=chooser.choice,
        )
