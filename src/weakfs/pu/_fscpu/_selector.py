"""FSCPU and FSCPU-MI: PU feature selection from the cluster assumption.

Uchikoshi & Akimoto, "Feature selection based on cluster assumption in PU learning", GECCO 2025.
A mask ``m`` is scored by clustering all rows on the selected columns
(Gaussian mixture, K = 10) and taking the best union of clusters as a detector of the labeled rows
(recall x precision, :mod:`weakfs.pu._fscpu._cluster_objective`); the compact GA of
:mod:`weakfs.search._compact_ga` maximises the score under a cost budget.  FSCPU-MI adds the
semi-JMI value of the subset, each term divided by the standard deviation of all its values so far.
"""

from __future__ import annotations

import numbers
import threading
import zlib
from collections import OrderedDict
from typing import ClassVar

import numpy as np
from joblib.parallel import get_active_backend
from sklearn.base import _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from threadpoolctl import threadpool_limits

from weakfs._docstrings import fill_doc
from weakfs._information import discretize, jmi_subset_score, remembered_jmi_pair_matrix
from weakfs._labels import check_pu_target
from weakfs._selection import SupportSelector
from weakfs._validation import (
    check_budget_and_costs,
    check_n_features_to_select,
    spawn_seeds,
    validate_X_y,
)
from weakfs.pu._fscpu._cluster_objective import cluster_objective
from weakfs.pu._fscpu._gmm import fit_gaussian_mixture
from weakfs.pu._fscpu._kmeans import kmeans
from weakfs.search import CachedObjective, CompactGA

__all__ = ["ClusterAssumptionObjective", "FSCPUSelector"]

CLUSTERINGS = ("gmm", "gmm-diag", "kmeans")


def _thread_backend() -> bool:
    """Whether joblib evaluates the candidates in threads of this process (``CompactGA``'s
    ``n_jobs``: ``prefer="threads"``, unless a ``joblib.parallel_config`` says otherwise)."""
    return bool(getattr(get_active_backend(prefer="threads")[0], "uses_threads", False))


class ClusterAssumptionObjective:
    """FSCPU's ``f(m)``: cluster every row on ``X[:, m]`` and score the best cluster union.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    s : ndarray of shape (n_samples,)
        PU labels, 1 = labeled.
    n_clusters : int, default=10
    clustering : {"gmm", "gmm-diag", "kmeans"}, default="gmm"
        Full-covariance Gaussian mixture (the paper), diagonal-covariance mixture, or k-means.
    warm_start : bool, default=False
        Start each mixture fit from the hard clustering of the previous iteration's winning mask
        (set through :meth:`notify`); the first fit and ``warm_start=False`` use k-means seeds.
    shared_start : bool, default=False
        Start every mixture fit from one k-means clustering of the rows on *all* columns, run
        once (seeded by ``seed``), instead of a k-means on each mask's columns.  A mask's value
        still depends on the mask alone, so cached values stay valid.
    seed : int, default=0
        Base seed; the k-means seed of a mask is derived from it and the mask's bits, so a mask's
        value does not depend on evaluation order or threads.
    tol, max_iter, reg_covar : EM settings (scikit-learn's defaults).

    Attributes
    ----------
    log_likelihoods : list of float
        Mean log-likelihood of every mixture fit run (for quality checks).
    n_em_iter : list of int
        EM iterations of every fit.
    em_converged : list of bool
        Whether each fit stopped by the tolerance (False: at ``max_iter``).
    """

    def __init__(
        self,
        X,
        s,
        n_clusters: int = 10,
        *,
        clustering: str = "gmm",
        warm_start: bool = False,
        shared_start: bool = False,
        seed: int = 0,
        tol: float = 1e-3,
        max_iter: int = 100,
        reg_covar: float = 1e-6,
        keep_recent: int = 64,
    ):
        if clustering not in CLUSTERINGS:
            raise ValueError(f"clustering must be one of {CLUSTERINGS}; got {clustering!r}")
        self.X = np.ascontiguousarray(X, dtype=np.float64)
        self.s = np.asarray(s)
        self.n_clusters = int(n_clusters)
        self.clustering = clustering
        self.warm_start = warm_start
        self.shared_start = shared_start
        self.seed = int(seed)
        self.tol = tol
        self.max_iter = max_iter
        self.reg_covar = reg_covar
        self.keep_recent = keep_recent
        self.log_likelihoods: list[float] = []
        self.n_em_iter: list[int] = []
        self.em_converged: list[bool] = []
        self._warm: np.ndarray | None = None
        self._shared: np.ndarray | None = None
        self._recent: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def __getstate__(self) -> dict:
        # joblib backends other than threads (e.g. dask) evaluate pickled copies
        state = self.__dict__.copy()
        del state["_lock"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def _mask_seed(self, key: bytes) -> int:
        return (self.seed + zlib.crc32(key)) % (2**31 - 1)

    def shared_labels(self) -> np.ndarray:
        """The k-means clustering on every column that ``shared_start`` starts each fit from
        (computed on first use: a k-means seeded by ``seed``)."""
        with self._lock:
            if self._shared is None:
                self._shared = kmeans(self.X, self.n_clusters, random_state=self.seed)[0]
            return self._shared

    def _start(self) -> np.ndarray | None:
        """The responsibilities a mixture fit starts from (None: a k-means on its columns)."""
        if self.warm_start and self._warm is not None:
            return self._warm
        return self.shared_labels() if self.shared_start else None

    def cluster(self, mask) -> np.ndarray:
        """Hard cluster labels of every row on the selected columns."""
        mask = np.asarray(mask, dtype=bool)
        key = CachedObjective.key(mask)
        Z = self.X[:, mask]
        seed = self._mask_seed(key)
        if self.clustering == "kmeans":
            labels = kmeans(Z, self.n_clusters, random_state=seed)[0]
        else:
            fit = fit_gaussian_mixture(
                Z,
                self.n_clusters,
                covariance_type="full" if self.clustering == "gmm" else "diag",
                tol=self.tol,
                max_iter=self.max_iter,
                reg_covar=self.reg_covar,
                resp_init=self._start(),
                random_state=seed,
                limit_blas_threads=False,
            )
            labels = fit.labels
            with self._lock:
                self.log_likelihoods.append(fit.log_likelihood)
                self.n_em_iter.append(fit.n_iter)
                self.em_converged.append(fit.converged)
        with self._lock:
            self._recent[key] = labels
            self._recent.move_to_end(key)
            while len(self._recent) > self.keep_recent:
                self._recent.popitem(last=False)
        return labels

    def __call__(self, mask) -> float:
        if not np.any(mask):
            return 0.0
        return cluster_objective(self.cluster(mask), self.s, self.n_clusters)

    def notify(self, t: int, mask_a, mask_b, comparison: float) -> None:
        """Remember the winner's clustering as the next warm start (``CompactGA`` callback)."""
        winner = mask_b if comparison < 0 else mask_a
        labels = self._recent.get(CachedObjective.key(winner))
        if labels is not None:
            self._warm = labels


@fill_doc
class FSCPUSelector(SupportSelector):
    """FSCPU / FSCPU-MI feature selection for PU data (Uchikoshi & Akimoto 2025).

    Parameters
    ----------
    n_features_to_select : int, float in (0, 1] or None, default=None
        Number (or share) of features; default half, rounded up.  Sets a unit-cost budget.  Give
        either this or ``budget``.
    budget : float, optional
        Cost bound ``c_bar`` for ``feature_costs`` (the selected features cost at most this).
    feature_costs : array-like of shape (n_features,), optional
        Positive cost per feature (default 1 each).
    n_clusters : int, default=10
        Mixture components ``K`` (paper: 10).
    n_iter : int, default=3000
        Compact-GA iterations ``T`` (two objective evaluations each; paper: 3000).
    objective : {"cluster", "cluster+mi"}, default="cluster"
        FSCPU, or FSCPU-MI: ``f(m) / Std[f] + I(m) / Std[I]`` with ``I`` the semi-JMI value of
        the subset and each Std over every value of that term so far in the run (a term whose
        values so far are all equal contributes 0; in the first iteration both candidates' values
        are already in the logs).
    clustering : {"gmm", "gmm-diag", "kmeans"}, default="gmm"
        "gmm" is the paper's full-covariance Gaussian mixture (EM, tol 1e-3, at most 100
        iterations, reg_covar 1e-6, k-means seeds); "gmm-diag" and "kmeans" are faster options.
    warm_start : bool, default=False
        Start each mixture fit from the clustering of the previous iteration's winner instead of
        k-means seeds: fewer EM iterations, but in our benchmark a lower mean log-likelihood than
        scikit-learn's fits (see ``docs/fscpu.md``), so it is an option, not the default.
    shared_start : bool, default=False
        Start every mixture fit from one k-means clustering of the search's rows on all
        columns, computed once per fit, instead of the paper's k-means on each candidate's
        columns (about a tenth of a fit).  Unlike ``warm_start``, a mask's value does not
        depend on the search's path, so repeated masks are still served from the cache.  A
        speed option, not the paper's method: on Table 1's data it held the paper's FSR on
        fewer conditions than ``search_rows`` alone (see ``docs/fscpu.md``).
    search_rows : int, float in (0, 1] or None, default=None
        Rows the search clusters (a number, or a share of the rows): every labeled row and a
        random sample of the unlabeled ones, drawn once per fit, so each candidate's fit costs
        about ``search_rows / n_samples`` of one on every row.  None (the paper): every row.
        A speed option, not the paper's method: besides the cost it changes the objective, whose
        cluster unions are then scored on a sample richer in labeled rows than the table (and
        the mixture fitted on it); fewer rows than the labeled ones (plus ``n_clusters``) are
        refused.
    eta, eps : float, optional
        Learning rate and clip rate of the compact GA (defaults ``1/(2d)`` and ``1/d``).
    n_bins : int, default=5
        Equal-width bins of the semi-JMI term ("cluster+mi" only).
    stop_when_converged : bool, default=False
        Stop when every ``theta`` is within 0.1 of 0 or 1.
    cache : bool, default=True
        Evaluate each distinct mask once.
    %(n_jobs)s
        The two candidates of an iteration are clustered through ``joblib.Parallel(n_jobs,
        prefer="threads")``: 2 (or -1) fits them in two threads when that is faster (timed on
        a few iterations; ``parallel_`` says which way ran); inside ``with
        joblib.parallel_config(backend="dask"):`` (``n_jobs=None``) they go to the dask cluster.
        The result does not depend on it.  With a backend that runs them in other processes,
        ``n_evaluations_`` and ``log_likelihoods_`` count only the fits run in this process, and
        ``warm_start=True`` is refused.
    %(random_state)s
        It seeds the compact GA's draws and every mixture fit's k-means start.
    %(verbose)s

    Attributes
    ----------
    theta_ : ndarray of shape (n_features,)
        Final Bernoulli parameters (``scores_`` is the same array).
    theta_history_ : ndarray of shape (``n_iter_`` + 1, n_features)
    history_ : dict of ndarray
        ``"cluster_a"``, ``"cluster_b"`` (and ``"mi_a"``, ``"mi_b"``): term values per iteration.
    support_ : ndarray of bool
    candidates_ : ndarray of bool, shape (``n_iter_``, 2, n_features)
        The two repaired candidate masks of every iteration.
    n_iter_ : int
    n_evaluations_ : int
        Clusterings actually run (cache misses).
    converged_ : bool
        Every ``theta`` within 0.1 of 0 or 1 at the end.
    parallel_ : bool or None
        Whether the candidates were clustered in two threads after the timed trial (``n_jobs``
        > 1 with threads), the faster way on this data; None when the search ended first.
    search_rows_ : ndarray of int or None
        The rows the search clustered (``search_rows``); None: every row.
    log_likelihoods_ : ndarray of float
        Mean log-likelihood of every mixture fit run in this process.
    em_iterations_ : ndarray of int
        EM iterations of the same fits.
    em_converged_ : ndarray of bool
        Whether each of them stopped by EM's tolerance (False: at its cap of 100 iterations).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.RandomState(0)
    >>> X = rng.rand(300, 6); X[:60, :2] += 3.0
    >>> s = np.zeros(300, int); s[:20] = 1
    >>> sel = FSCPUSelector(2, n_clusters=3, n_iter=60, random_state=0).fit(X, s)
    >>> np.flatnonzero(sel.get_support()).tolist()
    [0, 1]
    """

    _parameter_constraints: ClassVar[dict] = {
        "n_features_to_select": [
            Interval(numbers.Integral, 1, None, closed="left"),
            Interval(numbers.Real, 0, 1, closed="right"),
            None,
        ],
        "budget": [Interval(numbers.Real, 0, None, closed="neither"), None],
        "feature_costs": ["array-like", None],
        "n_clusters": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "objective": [StrOptions({"cluster", "cluster+mi"})],
        "clustering": [StrOptions(set(CLUSTERINGS))],
        "warm_start": ["boolean"],
        "shared_start": ["boolean"],
        "search_rows": [
            Interval(numbers.Integral, 1, None, closed="left"),
            Interval(numbers.Real, 0, 1, closed="right"),
            None,
        ],
        "eta": [Interval(numbers.Real, 0, 1, closed="right"), None],
        "eps": [Interval(numbers.Real, 0, 0.5, closed="both"), None],
        "n_bins": [Interval(numbers.Integral, 2, None, closed="left")],
        "stop_when_converged": ["boolean"],
        "cache": ["boolean"],
        "n_jobs": [numbers.Integral, None],
        "random_state": ["random_state"],
        "verbose": ["verbose", StrOptions({"auto"})],
    }

    #: what ``scores_`` (= ``theta_``) is, for printed rankings and plots
    SCORE_LABEL = "theta: probability the search selects the feature (ties at 1 - eps: converged)"

    def __init__(
        self,
        n_features_to_select=None,
        *,
        budget=None,
        feature_costs=None,
        n_clusters: int = 10,
        n_iter: int = 3000,
        objective: str = "cluster",
        clustering: str = "gmm",
        warm_start: bool = False,
        shared_start: bool = False,
        search_rows=None,
        eta=None,
        eps=None,
        n_bins: int = 5,
        stop_when_converged: bool = False,
        cache: bool = True,
        n_jobs=None,
        random_state=None,
        verbose="auto",
    ):
        self.n_features_to_select = n_features_to_select
        self.budget = budget
        self.feature_costs = feature_costs
        self.n_clusters = n_clusters
        self.n_iter = n_iter
        self.objective = objective
        self.clustering = clustering
        self.warm_start = warm_start
        self.shared_start = shared_start
        self.search_rows = search_rows
        self.eta = eta
        self.eps = eps
        self.n_bins = n_bins
        self.stop_when_converged = stop_when_converged
        self.cache = cache
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    def _budget_and_costs(self, d: int) -> tuple[float, np.ndarray]:
        if self.budget is not None and self.n_features_to_select is not None:
            raise ValueError("give n_features_to_select or budget, not both")
        budget, costs = check_budget_and_costs(
            self.budget, self.feature_costs, d, costs_name="feature_costs"
        )
        if budget is None:
            if self.feature_costs is not None:
                raise ValueError("feature_costs need a budget (the total cost allowed)")
            return float(check_n_features_to_select(self.n_features_to_select, d)), costs
        return budget, costs

    def _search_rows(self, s: np.ndarray, seed: int) -> np.ndarray | None:
        """The rows the search clusters: None (every row), or every labeled row and a random
        sample of the unlabeled ones, sorted."""
        n = s.shape[0]
        if self.search_rows is None:
            return None
        size = self.search_rows
        size = int(size) if isinstance(size, numbers.Integral) else int(np.ceil(size * n))
        labeled = np.flatnonzero(s == 1)
        if size >= n:
            return None
        if size < labeled.size + self.n_clusters:
            raise ValueError(
                f"search_rows={self.search_rows} keeps {size} rows, fewer than the "
                f"{labeled.size} labeled rows plus n_clusters={self.n_clusters}: every labeled "
                "row is kept, so give more rows (or None for every row)"
            )
        unlabeled = np.flatnonzero(s != 1)
        drawn = np.random.RandomState(seed).choice(unlabeled, size - labeled.size, replace=False)
        return np.sort(np.concatenate([labeled, drawn]))

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Run the compact GA on PU data ``X``, ``y`` (1 = labeled positive, 0/-1 = unlabeled)."""
        X, y = validate_X_y(self, X, y)
        s = check_pu_target(self, y)
        n, d = X.shape
        budget, costs = self._budget_and_costs(d)
        if self.n_clusters > n:
            raise ValueError(
                f"n_clusters={self.n_clusters} is larger than the number of rows ({n})"
            )
        if np.all(X == X[:1]):
            raise ValueError(
                "every column of X is constant: the cluster objective cannot tell features apart "
                "(any selection would be by position)"
            )
        if self.warm_start and self.n_jobs != 1 and not _thread_backend():
            raise ValueError(
                "warm_start=True needs the candidates evaluated in this process: use n_jobs=1 "
                "or a thread-based joblib backend (its state is the previous winner's clustering)"
            )
        if self.shared_start and self.clustering == "kmeans":
            raise ValueError(
                "shared_start=True starts the mixture fits; clustering='kmeans' fits no mixture"
            )
        seed_ga, seed_cluster = spawn_seeds(self.random_state, 2)
        rows = self._search_rows(s, int(seed_cluster))
        self.search_rows_ = rows
        cluster = ClusterAssumptionObjective(
            X if rows is None else X[rows],
            s if rows is None else s[rows],
            self.n_clusters,
            clustering=self.clustering,
            warm_start=self.warm_start,
            shared_start=self.shared_start,
            seed=int(seed_cluster),
        )
        terms = [cluster]
        if self.objective == "cluster+mi":
            pair = remembered_jmi_pair_matrix(discretize(X, self.n_bins), s)
            terms.append(lambda m: jmi_subset_score(pair, m))
        ga = CompactGA(
            self.n_iter,
            budget=budget,
            costs=costs,
            eta=self.eta,
            eps=self.eps,
            stop_when_converged=self.stop_when_converged,
            cache=self.cache,
            n_jobs=self.n_jobs,
            progress=self.verbose,
        )
        # one BLAS thread for the many small matrix products (set once: entering costs ms)
        with threadpool_limits(limits=1, user_api="blas"):
            res = ga.run(terms, d, random_state=int(seed_ga), on_iteration=cluster.notify)
        self.theta_ = res.theta
        self.scores_ = res.theta
        self.theta_history_ = res.theta_history
        self.history_ = {"cluster_a": res.values[:, 0, 0], "cluster_b": res.values[:, 1, 0]}
        if self.objective == "cluster+mi":
            self.history_["mi_a"] = res.values[:, 0, 1]
            self.history_["mi_b"] = res.values[:, 1, 1]
        self.support_ = res.support
        self.candidates_ = res.masks
        self.n_iter_ = res.n_iter
        self.n_evaluations_ = res.n_evaluations[0]
        self.converged_ = res.converged
        self.parallel_ = res.parallel
        self.budget_ = budget
        self.log_likelihoods_ = np.asarray(cluster.log_likelihoods)
        self.em_iterations_ = np.asarray(cluster.n_em_iter, dtype=int)
        self.em_converged_ = np.asarray(cluster.em_converged, dtype=bool)
        return self
