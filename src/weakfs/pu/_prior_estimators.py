"""The class-prior estimators behind :func:`weakfs.pu.estimate_class_prior`.

Each function works on already validated input (``s`` is a 0/1 array, both classes present) and
returns the raw quantity its paper estimates; ``_prior.py`` converts it to the class prior:

* :func:`elkan_noto_c` — label frequency ``c = P(s=1 | y=1)`` (Elkan & Noto, 2008, ``e1``);
* :func:`bbe_mixture_proportion` — share ``α`` of positives among the unlabeled rows (Garg, Wu,
  Smola, Balakrishnan & Lipton, "Mixture Proportion Estimation and PU Learning: A Modern
  Approach", NeurIPS 2021, Algorithm 1 "Best Bin Estimation");
* :func:`dedpul_mixture_proportion` — the same ``α`` from the ratio of the estimated densities of
  the scores (Ivanov, "DEDPUL: Difference-of-Estimated-Densities-based Positive-Unlabeled
  Learning", ICMLA 2020);
* :func:`tice_c` — label frequency ``c`` (Bekker & Davis, "Estimating the class prior in positive
  and unlabeled data through decision tree induction", AAAI 2018, "TIcE").
"""

from __future__ import annotations

import heapq
import math
import warnings

import numpy as np
from scipy.signal import fftconvolve
from sklearn.base import clone
from sklearn.isotonic import IsotonicRegression
from sklearn.model_selection import StratifiedKFold
from threadpoolctl import threadpool_limits

__all__ = [
    "bbe_mixture_proportion",
    "dedpul_mixture_proportion",
    "elkan_noto_c",
    "out_of_fold_proba",
    "tice_c",
]

# BBE's confidence level and slack (the paper's experiments use δ = 0.1, γ = 0.01).
BBE_DELTA = 0.1
BBE_GAMMA = 0.01

# DEDPUL: the density ratio is capped as in the authors' code (a ratio of 50 already means a
# share of positives of 2 % among the unlabeled rows); the kink is located on a grid of this step
# over (0, 1], as the paper's grid search; the densities are evaluated on a grid of this many
# points (linear binning, then a Gaussian kernel: exact to ~1e-4 at Silverman's bandwidth).
DEDPUL_RATIO_CAP = 50.0
DEDPUL_GRID_STEP = 1e-3
DEDPUL_KDE_POINTS = 4096

# TIcE's settings as published: max-bepp k = 5, at most 500 splits, subsets of fewer than 10 rows
# give no bound, two passes (the first with the variance guess c = 0.5).
TICE_K = 5
TICE_MAX_SPLITS = 500
TICE_MIN_ROWS = 10
TICE_ITERATIONS = 2
# each feature is cut into 4 equal-width intervals of its [min, max] range
_TICE_BORDERS = (0.25, 0.5, 0.75)
_TICE_BINS = len(_TICE_BORDERS) + 1


def out_of_fold_proba(X, s, estimator, folds, *, single_thread: bool) -> np.ndarray:
    """``P(s=1 | x)`` for every row from a model that did not see the row (cross-fitting)."""
    # The default models' thread pools spin when the cores are busy (measured: 1.1 s per fit with
    # one OpenMP thread, 125 s with two on a loaded 2-core machine); these fits are small, so one
    # thread in every pool (OpenMP for the boosting, BLAS for the logistic regression).
    # A plain loop over the folds (what cross_val_predict does, without its per-call overhead,
    # which is most of the cost of a small table's bootstrap).
    out = np.empty(s.shape[0], dtype=np.float64)
    with threadpool_limits(limits=1 if single_thread else None):
        for train, test in folds.split(np.zeros(s.shape[0]), s):
            model = clone(estimator).fit(X[train], s[train])
            column = list(model.classes_).index(1)
            out[test] = model.predict_proba(X[test])[:, column]
    return out


def elkan_noto_c(proba: np.ndarray, s: np.ndarray) -> float:
    """Elkan–Noto ``e1``: the mean of ``g(x) ≈ P(s=1 | x)`` over the labeled rows."""
    c = float(np.mean(proba[s == 1]))
    if not c > 0:
        raise ValueError(
            "the classifier gave probability 0 to every labeled row; cannot estimate c"
        )
    return c


def bbe_mixture_proportion(
    score_p: np.ndarray,
    score_u: np.ndarray,
    *,
    delta: float = BBE_DELTA,
    gamma: float = BBE_GAMMA,
) -> float:
    """Best Bin Estimation of the share ``α`` of positives in the unlabeled sample.

    ``score_p`` / ``score_u`` are held-out scores of a positive-vs-unlabeled classifier on the
    positive and the unlabeled sample.  With ``q_P(z)`` and ``q_U(z)`` the fractions of each
    sample scoring ``>= z``, ``q_U(z) = α q_P(z) + (1 − α) q_N(z) >= α q_P(z)``, so every ratio
    ``q_U/q_P`` bounds ``α`` from above and is tight on a "top bin" free of negatives.  The
    paper's Algorithm 1 picks the threshold minimising the upper confidence bound

        q_U(z)/q_P(z) + (1 + γ)/q_P(z) · (sqrt(log(4/δ)/(2 n_U)) + sqrt(log(4/δ)/(2 n_P)))

    (DKW deviations of both empirical tail fractions) and returns ``q_U(ẑ)/q_P(ẑ)``.
    """
    n_p, n_u = score_p.shape[0], score_u.shape[0]
    sorted_p, sorted_u = np.sort(score_p), np.sort(score_u)
    # the tail fractions only change at observed scores: those are all the thresholds to try
    thresholds = np.unique(np.concatenate([sorted_p, sorted_u]))
    q_p = (n_p - np.searchsorted(sorted_p, thresholds, side="left")) / n_p
    q_u = (n_u - np.searchsorted(sorted_u, thresholds, side="left")) / n_u
    keep = q_p > 0  # the bound is infinite where no positive is left
    q_p, q_u = q_p[keep], q_u[keep]
    slack = math.sqrt(math.log(4.0 / delta) / (2.0 * n_u)) + math.sqrt(
        math.log(4.0 / delta) / (2.0 * n_p)
    )
    upper = (q_u + (1.0 + gamma) * slack) / q_p
    best = int(np.argmin(upper))
    return float(min(1.0, q_u[best] / q_p[best]))


# ---------------------------------------------------------------------------------------------
# DEDPUL


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(np.asarray(p, dtype=np.float64), 1e-6, 1.0 - 1e-6)
    return np.log(p / (1.0 - p))


def _silverman_bandwidth(x: np.ndarray) -> float:
    """Silverman's rule for a 1-d Gaussian kernel: ``sd · (3n/4)^(-1/5)`` (scipy's
    ``gaussian_kde(bw_method="silverman")``); a sample without spread gets a narrow kernel."""
    sd = float(np.std(x, ddof=1)) if x.shape[0] > 1 else 0.0
    if not sd > 1e-6:  # (also rounding noise of identical values)
        sd = 1e-3
    return sd * (0.75 * x.shape[0]) ** -0.2


def _kde_on_grid(x: np.ndarray, grid: np.ndarray, bandwidth: float) -> np.ndarray:
    """Gaussian kernel density of the sample ``x`` at the points of the regular ``grid``.

    The sample is binned linearly onto the grid (each point's weight split between its two
    neighbouring grid points), then convolved with the kernel: ``O(n + G log G)`` instead of
    ``O(n · G)``, so that bootstrap resamples of large tables stay cheap.
    """
    g = grid.shape[0]
    step = grid[1] - grid[0]
    pos = np.clip((x - grid[0]) / step, 0.0, g - 1.000001)
    left = np.floor(pos).astype(np.intp)
    right_weight = pos - left
    counts = np.bincount(left, 1.0 - right_weight, minlength=g)
    counts += np.bincount(left + 1, right_weight, minlength=g)[:g]
    half = min(g - 1, int(np.ceil(5.0 * bandwidth / step)))
    offsets = np.arange(-half, half + 1) * step
    kernel = np.exp(-0.5 * (offsets / bandwidth) ** 2) / (math.sqrt(2.0 * math.pi) * bandwidth)
    return np.maximum(fftconvolve(counts, kernel, mode="same"), 0.0) / x.shape[0]


def dedpul_density_ratio(score_p: np.ndarray, score_u: np.ndarray) -> np.ndarray:
    """DEDPUL's ratio ``f_P/f_U`` of the score densities at every unlabeled row.

    Scores (probabilities of "labeled") are taken to the logit scale; each sample's density is a
    Gaussian kernel estimate with Silverman's bandwidth.  The ratio is capped at
    ``DEDPUL_RATIO_CAP``, made non-decreasing in the score by isotonic regression (under SCAR the
    ratio is ``P(y=1 | score) / α``, which a score ranking positives higher makes monotone) and
    scaled to mean 1 over the unlabeled rows (``E_U[f_P/f_U] = 1`` for any two densities).
    """
    lp, lu = _logit(score_p), _logit(score_u)
    hp, hu = _silverman_bandwidth(lp), _silverman_bandwidth(lu)
    lo = min(lp.min(), lu.min()) - 5.0 * max(hp, hu)
    hi = max(lp.max(), lu.max()) + 5.0 * max(hp, hu)
    grid = np.linspace(lo, hi, DEDPUL_KDE_POINTS)
    f_p = np.interp(lu, grid, _kde_on_grid(lp, grid, hp))
    f_u = np.interp(lu, grid, _kde_on_grid(lu, grid, hu))
    ratio = np.minimum(f_p / np.maximum(f_u, 1e-300), DEDPUL_RATIO_CAP)
    ratio = IsotonicRegression(increasing=True).fit(lu, ratio).predict(lu)
    mean = float(ratio.mean())
    return ratio / mean if mean > 0 else np.ones_like(ratio)


def dedpul_mixture_proportion(score_p: np.ndarray, score_u: np.ndarray) -> float:
    """DEDPUL estimate of the share ``α`` of positives in the unlabeled sample.

    ``score_p`` / ``score_u`` are held-out scores of a positive-vs-unlabeled classifier on the
    positive and the unlabeled sample.  With ``r(x) = f_P/f_U`` (:func:`dedpul_density_ratio`),
    the posterior of "positive" of an unlabeled row is ``α r(x)``, which cannot exceed 1, so
    ``α <= 1/max r``.  The paper picks ``α`` where the mean posterior ``E_U[min(1, a r)]`` stops
    following ``a``: the error ``e(a) = E_U[min(1, a r)] − a`` is 0 up to the first ``a`` at
    which posteriors are clipped, then bends down each time a group of rows reaches 1, and the
    estimate is the sharpest bend (the largest drop of the slope, ``Σ r/n_U`` over the rows
    reaching 1 within one grid step ``DEDPUL_GRID_STEP``).  A single outlying ratio moves this
    far less than ``1/max r``.
    """
    return _dedpul_kink(dedpul_density_ratio(score_p, score_u))


def _dedpul_kink(ratio: np.ndarray) -> float:
    """The ``a`` of the sharpest bend of ``e(a) = mean(min(1, a · ratio)) − a`` on (0, 1].

    The rows with ratio ``v`` are clipped from ``a = 1/v`` on, where the slope of ``e`` drops by
    ``v · count / n``; the drops are summed per grid cell of width ``DEDPUL_GRID_STEP`` and the
    estimate is the drop-weighted mean ``1/v`` of the cell with the largest sum (what the second
    differences of ``e`` on that grid locate, without evaluating it).
    """
    values, counts = np.unique(ratio, return_counts=True)
    keep = values >= 1.0 - 1e-9  # ratios below 1 are clipped only beyond a = 1
    if not keep.any():  # the ratios average 1, so this is rounding: every ratio is 1
        return 1.0
    values, counts = np.maximum(values[keep], 1.0), counts[keep]
    breaks = 1.0 / values
    drop = values * counts / ratio.shape[0]
    cell = np.ceil(breaks / DEDPUL_GRID_STEP - 1e-9).astype(np.intp)
    _, where = np.unique(cell, return_inverse=True)
    best = int(np.argmax(np.bincount(where, drop)))
    in_best = where == best
    return float(min(1.0, np.average(breaks[in_best], weights=drop[in_best])))


# ---------------------------------------------------------------------------------------------
# TIcE


def _tice_bins(X) -> np.ndarray:
    """Interval codes 0..3 (``uint8``, rows x features) of each feature scaled to [0, 1]."""
    n, d = X.shape
    codes = np.empty((n, d), dtype=np.uint8)
    sparse = hasattr(X, "tocsc")
    if sparse:
        X = X.tocsc()
    step = max(1, 2**22 // max(n, 1))  # densify a block of columns at a time (~32 MB)
    for j0 in range(0, d, step):
        block = X[:, j0 : j0 + step]
        block = block.toarray() if sparse else np.asarray(block, dtype=np.float64)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # an all-missing column: NaN bounds
            lo, hi = np.nanmin(block, axis=0), np.nanmax(block, axis=0)
        span = np.where(hi > lo, hi - lo, 1.0)  # a constant column falls in one interval
        with np.errstate(invalid="ignore"):
            scaled = (block - lo) / span
            code = np.zeros(block.shape, dtype=np.uint8)
            for border in _TICE_BORDERS:
                code += scaled >= border
        # a missing value goes to the last interval (the authors' code does the same: it fails
        # every "x < border" test)
        code[np.isnan(scaled)] = _TICE_BINS - 1
        codes[:, j0 : j0 + step] = code
    return codes


def _low_c(n_rows: int, n_labeled: int, delta: float, c_guess: float, min_rows: int) -> float:
    """TIcE's lower bound on ``c`` from a subset: ``L/T − sqrt(c(1−c)(1−δ)/(δT))``.

    Under SCAR the labeled share of any subset is at most ``c`` in expectation; the one-sided
    Chebyshev (Cantelli) inequality with the binomial variance ``c(1−c)/T`` turns it into a bound
    that holds with probability ``1 − δ``.
    """
    if n_rows < max(min_rows, 1):
        return 0.0
    return n_labeled / n_rows - math.sqrt(c_guess * (1 - c_guess) * (1 - delta) / (delta * n_rows))


def _bin_counts(codes: np.ndarray, rows: np.ndarray, labeled: np.ndarray, features: np.ndarray):
    """Rows and labeled rows per (interval, feature) for the given rows: two (4, k) arrays."""
    sub = codes[np.ix_(rows, features)]
    lab = sub[labeled[rows]]
    total = np.stack([(sub == b).sum(axis=0) for b in range(_TICE_BINS)])
    n_lab = np.stack([(lab == b).sum(axis=0) for b in range(_TICE_BINS)])
    return total, n_lab


def _tice_fold(
    codes: np.ndarray,
    labeled: np.ndarray,
    tree_rows: np.ndarray,
    est_rows: np.ndarray,
    *,
    c_guess: float,
    delta: float,
    k: int,
    max_splits: int,
    min_rows: int,
) -> float:
    """Best lower bound on ``c`` over the subsets of one decision tree (one fold)."""
    # the whole estimation set is a subset too (with δ = 1: its plain labeled share)
    best = _low_c(est_rows.size, int(labeled[est_rows].sum()), 1.0, c_guess, min_rows)
    min_labeled = 1.0  # a subset needs at least this many labeled rows to be worth splitting
    # Best-first induction: the node whose tree-building rows give the highest bound goes first
    # (then the one with more labeled rows; the counter keeps the heap from comparing arrays).
    counter = 0
    root = (tree_rows, est_rows, np.arange(codes.shape[1]))
    n_lab = int(labeled[tree_rows].sum())
    heap = [(-_low_c(tree_rows.size, n_lab, delta, c_guess, 0), -n_lab, counter, root)]
    n_splits = 0
    while heap and n_splits < max_splits:
        n_splits += 1
        *_, (t_rows, e_rows, available) = heapq.heappop(heap)
        if available.size == 0:
            continue
        t_total, t_lab = _bin_counts(codes, t_rows, labeled, available)
        _, e_lab = _bin_counts(codes, e_rows, labeled, available)
        # a feature none of whose intervals keeps enough labeled estimation rows is dropped
        useful = e_lab.max(axis=0) >= min_labeled
        if not useful.any():
            continue
        # max-bepp(k): the highest "biased estimate of the proportion of positives" L/(T + k)
        # among the children (an empty child scores 0)
        bepp = np.where(t_total > 0, t_lab / (t_total + k), 0.0).max(axis=0)
        bepp[~useful] = -1.0
        a = int(np.argmax(bepp))
        if bepp[a] <= 0:
            continue
        feature = available[a]
        t_code, e_code = codes[t_rows, feature], codes[e_rows, feature]
        children = [(t_rows[t_code == b], e_rows[e_code == b]) for b in range(_TICE_BINS)]
        if sum(e.size > 0 for _, e in children) <= 1:
            continue  # the split does not divide the estimation rows
        new_available = available[useful & (available != feature)]
        for _, e_child in children:
            e_lab_child = int(labeled[e_child].sum())
            best = max(best, _low_c(e_child.size, e_lab_child, delta, c_guess, min_rows))
        # a child can only raise the bound if it holds enough labeled rows: L > c(1−c)(1−δ) /
        # (δ (1 − best)²) (from L/T <= 1 in the bound above)
        if best < 1:
            min_labeled = c_guess * (1 - c_guess) * (1 - delta) / (delta * (1 - best) ** 2)
        for t_child, e_child in children:
            t_lab_child = int(labeled[t_child].sum())
            if (
                labeled[e_child].sum() > min_labeled
                and t_child.size > min_rows
                and 0 < t_lab_child < t_child.size  # stop at pure nodes
            ):
                counter += 1
                priority = -_low_c(t_child.size, t_lab_child, delta, c_guess, 0)
                node = (t_child, e_child, new_available)
                heapq.heappush(heap, (priority, -t_lab_child, counter, node))
    return best


def tice_c(
    X,
    s: np.ndarray,
    folds: StratifiedKFold,
    *,
    k: int = TICE_K,
    max_splits: int = TICE_MAX_SPLITS,
    min_rows: int = TICE_MIN_ROWS,
    n_iterations: int = TICE_ITERATIONS,
) -> float:
    """TIcE estimate of the label frequency ``c`` (Bekker & Davis, 2018).

    Every subset of the data reachable by a decision tree gives a lower bound on ``c`` (its
    labeled share, minus a confidence margin); TIcE grows a tree on one fold to find subsets rich
    in labeled rows, takes the highest bound measured on the other folds, and averages over the
    folds.  A second pass repeats this with the first estimate in the variance term.  Settings
    as published (``k = 5``, 500 splits, ``δ = max(0.025, 1/(1 + 0.004 T))`` for ``T`` estimation
    rows, features min-max scaled and cut into 4 equal-width intervals, each feature used once
    per path, best-first growth).  Differences from the authors' reference code: the folds are
    stratified on ``s`` (they draw a fold per row at random), and a node stops growing when *it*
    is pure (their check compares the parent's labeled count with the child's size), and below
    the root every subset's bound is measured on the held-out folds, as the paper prescribes
    (their script measures it on the tree's own fold, an optimistic bound; with that one line
    changed it gives our estimates to the bit).
    """
    codes = _tice_bins(X)
    labeled = s.astype(bool)
    splits = list(folds.split(np.zeros(s.shape[0]), s))
    c_estimate = 0.5
    for _ in range(n_iterations):
        per_fold = []
        # the tree is grown on one fold; the bounds are measured on the remaining folds
        for est_rows, tree_rows in splits:
            delta = max(0.025, 1.0 / (1.0 + 0.004 * est_rows.size))
            per_fold.append(
                _tice_fold(
                    codes,
                    labeled,
                    tree_rows,
                    est_rows,
                    c_guess=c_estimate,
                    delta=delta,
                    k=k,
                    max_splits=max_splits,
                    min_rows=min_rows,
                )
            )
        c_estimate = float(np.mean(per_fold))
    return c_estimate
