"""Class-prior estimation for PU data under SCAR, with a bootstrap interval.

**Assumption (SCAR, "selected completely at random")**: the labeled positives are a random sample
of the positives, independent of ``x``: ``P(s=1 | x, y=1) = c`` for a constant label frequency
``c``.  Four estimators (``method=``), implemented in ``_prior_estimators.py``:

* ``"bbe"`` — Best Bin Estimation (Garg, Wu, Smola, Balakrishnan & Lipton, "Mixture Proportion
  Estimation and PU Learning: A Modern Approach", NeurIPS 2021, Algorithm 1).  A classifier of
  labeled vs unlabeled rows scores every row out-of-fold; ``q_P(z)`` and ``q_U(z)`` are the shares
  of labeled / unlabeled rows scoring ``>= z``.  Each ratio ``q_U/q_P`` bounds the share ``α`` of
  positives among the unlabeled rows from above, tightly on a "top bin" holding no negatives; the
  threshold minimising the ratio's upper confidence bound is kept and ``α̂ = q_U/q_P`` there.
  It needs only *some* region of pure positives, so it is far less biased than Elkan–Noto when
  the classes overlap elsewhere.  Deviation: the paper fits the classifier on one half and scores
  the other; scoring every row out-of-fold uses all labeled rows (spambase, 10 % labeled: MAE
  0.032 instead of 0.080).
* ``"dedpul"`` — DEDPUL (Ivanov, "DEDPUL: Difference-of-Estimated-Densities-based Positive-
  Unlabeled Learning", ICMLA 2020) on the same out-of-fold scores: the densities of the scores of
  the labeled and of the unlabeled rows are estimated (Gaussian kernels on the logit scale), their
  ratio ``r = f_P/f_U`` bounds ``α`` by ``α r <= 1``, and ``α`` is read where the mean posterior
  ``E_U[min(1, α r)]`` bends away from ``α``.  Deviations: the ratio is made monotone in the score
  by isotonic regression instead of the authors' rolling medians and trend smoothing, and the
  estimate is the sharpest bend alone (the paper also runs an EM iteration and keeps one of the
  two by a heuristic).  It reads the whole top of the score distribution rather than one bin:
  less biased than BBE when the classes overlap everywhere (no clean top bin, where every
  estimator overestimates the prior), noisier than BBE when a clean top bin exists.
* ``"elkan-noto"`` — Elkan & Noto (2008), estimator ``e1``: on the positives
  ``P(s=1 | x) = c`` exactly, so ``ĉ`` is the mean out-of-fold ``g(x) ≈ P(s=1 | x)`` over the
  labeled rows.  Biased upwards in ``π`` when the classes overlap: ``g(x) = c · P(y=1 | x)`` is
  below ``c`` on positives that look like negatives, so ``ĉ`` is too small.
* ``"tice"`` — TIcE (Bekker & Davis, "Estimating the class prior in positive and unlabeled data
  through decision tree induction", AAAI 2018): the labeled share of any subset of the data is a
  lower bound on ``c`` (up to a confidence margin); a decision tree grown on one fold looks for
  subsets rich in labeled rows, the best bound is measured on the other folds, averaged over
  folds.  No classifier is involved (``estimator`` must stay ``None``).  Checked against the
  authors' released script: given the same folds and labels, the estimates are identical to it
  once one line of that script is set right.  Below the root it measures every subset on the
  tree's own fold, not on the held-out folds that it carries along for this purpose and that the
  paper prescribes; a subset chosen for its labeled share and scored on the same rows gives an
  optimistic bound.  Here every bound is measured on held-out rows.  That script (min-max
  features, the same 4 intervals) estimates no better: MAE of the prior over 10/30/50 % labeled
  × 3 seeds on spambase, ionosphere and mushrooms is 0.389, 0.200 and 0.135 for it and 0.381,
  0.154 and 0.140 here.  TIcE is inaccurate on columns whose values are heavily skewed, because
  equal-width intervals put nearly every row in one interval (spambase: 55 of 57 columns hold at
  least 95 % of the rows in one).  As the authors do, one-hot encode multi-valued categorical
  columns first: ordinal codes would be cut into intervals.

**The default rule (``estimator=None``, ``cv="auto"``): the classifier and the folds follow
the table's size.**  Tables of at least ``SMALL_TABLE_ROWS`` (1000) rows: damped gradient
boosting, 5 folds (the rule of the earlier releases, unchanged).  Smaller tables: an L2 logistic
regression (``C = 0.1`` on standardised columns), 10 folds.  With a few dozen labeled rows the
boosted trees rank the hidden positives poorly, which pushes every estimate up, and each of 5
folds leaves out a fifth of the few labeled rows.  The default ``method`` stays ``"bbe"``.  The
rule was chosen on development tables that are not in the benchmark (subsets of 300 rows of
ecoli, user knowledge, energy efficiency, ada, gina, fashion-MNIST, isolet, accelerometer, and
synthetic Gaussians): BBE's mean absolute error 0.19 with the boosted trees, 0.18 with the
logistic regression, and 0.084 and 0.057 on the five tables where some estimator is usable.
DEDPUL had the lower error over all of them (0.13), because it overestimates less on the tables
where no estimator is usable (errors of 0.15–0.5); where the prior can be estimated BBE was as
good or better (DEDPUL 0.069), and the first benchmark run agreed, so BBE stayed the default (a
choice made after that run: ``docs/class_prior.md``).  ``benchmarks/bench_class_prior.py``
measures both.

**Conventions and conversions.**  ``n`` rows, ``n_l`` labeled, ``n_u = n − n_l`` unlabeled.

* single training set (``unlabeled="all"``: the labeled rows are part of the sample whose positive
  share is ``π``): from ``c``, ``π = (n_l / n) / ĉ``; from BBE's or DEDPUL's ``α`` (the positive
  share among the unlabeled rows, which under SCAR are a mixture of unlabeled positives and
  negatives), ``π = (n_l + α n_u) / n``;
* case-control (``unlabeled="unlabeled"``: the ``n_u`` unlabeled rows are a separate sample of the
  marginal and the ``n_l`` labeled rows were drawn apart; ``π`` is the positive share of the
  unlabeled rows): from ``c``, the pooled rows behave like a single training set with prior
  ``π' = (n_l + n_u π) / n``, so ``π = (π' n − n_l) / n_u``; from ``α``, ``π = α``.

BBE and DEDPUL score the labeled rows (as ``P``) against the unlabeled rows only (as ``U``), never
against all rows, so that ``P`` and ``U`` are disjoint samples as their derivations assume.  The
estimate is clipped to ``[min_prior, 1 − min_prior]``.

**The interval** (``return_interval=True``) is a percentile bootstrap over rows: the labeled and
the unlabeled rows are resampled with replacement, each group keeping its size, and the whole
estimate is repeated on each resample; a copy of a row stays in the row's fold, so no row is scored
by a model that saw it.  On tables under ``SMALL_TABLE_ROWS`` rows, and for TIcE, which has no
scores, the classifier is refitted on every resample; on larger tables the out-of-fold scores are
computed once and the resamples draw rows of (score, label), leaving out the classifier's own
variability, which is small once it is trained on thousands of rows.  The interval is widened to
hold the point estimate if it falls outside.  A bootstrap measures how much the estimate moves
with the sample, not its bias: when the positives have no region free of negatives, every
estimator overestimates the prior and the interval can miss it (``benchmarks/bench_class_prior.py``
reports the coverage).  Every method, and the interval, is wrong when SCAR fails; see
:func:`weakfs.pu.check_scar`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from numbers import Integral, Real
from types import MappingProxyType

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import PredefinedSplit, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions, validate_params

from weakfs._labels import check_pu_labels
from weakfs._validation import spawn_seeds
from weakfs._words import counted
from weakfs.pu._prior_estimators import (
    bbe_mixture_proportion,
    dedpul_mixture_proportion,
    elkan_noto_c,
    out_of_fold_proba,
    tice_c,
)

__all__ = ["ClassPriorEstimate", "WidePriorIntervalWarning", "estimate_class_prior"]

#: the estimators ``method=`` names
METHODS = ("bbe", "dedpul", "elkan-noto", "tice")
#: tables with fewer rows get the small-table rule (logistic scores, 10 folds)
SMALL_TABLE_ROWS = 1000
SMALL_TABLE_FOLDS = 10
LARGE_TABLE_FOLDS = 5
#: TIcE grows a tree on one fold and measures on the others: always 5 folds, as published
TICE_FOLDS = 5
#: an interval wider than this (more than ±0.1 around the prior) raises WidePriorIntervalWarning
WIDE_INTERVAL = 0.2
#: fewest labeled (and unlabeled) rows an interval is computed from
MIN_ROWS_FOR_INTERVAL = 10
MIN_BOOTSTRAP = 10
#: estimate_class_prior's defaults, the one place they are written: its signature, the shared
#: inner entry points and resolve_class_prior (``prior="auto"``) read them from here
PRIOR_DEFAULTS = MappingProxyType(
    {
        "method": "bbe",
        "unlabeled": "all",
        "estimator": None,
        "cv": "auto",
        "min_prior": 1e-3,
        "confidence": 0.9,
        "n_bootstrap": 100,
    }
)


class WidePriorIntervalWarning(UserWarning):
    """The bootstrap interval of the class prior is wider than ``WIDE_INTERVAL`` (0.2).

    Raised by :func:`estimate_class_prior` with ``return_interval=True``: the data pin the prior
    down to no better than ±0.1, so every PU result that reads it (risk weights, thresholds,
    corrected scores) can move materially within the interval.  Give the prior if it is known,
    label more positives, or read results at both ends of the interval.
    """


@dataclass(frozen=True, eq=False)
class ClassPriorEstimate:
    """A class prior with its bootstrap interval (:func:`estimate_class_prior`'s
    ``return_interval=True``).

    Unpacks as the tuple ``prior, (low, high)``.

    Attributes
    ----------
    prior : float
        The point estimate (the same number as ``return_interval=False`` gives).
    low, high : float
        The ends of the interval; ``low <= prior <= high``.
    confidence : float
        Nominal coverage of the interval.
    method : str
        The estimator used.
    interval_method : str
        How the interval was computed.
    n_bootstrap : int
        Number of bootstrap resamples.
    bootstrap_estimates : ndarray of shape (n_bootstrap,)
        The estimate on each resample.
    """

    prior: float
    low: float
    high: float
    confidence: float
    method: str
    interval_method: str
    n_bootstrap: int
    bootstrap_estimates: np.ndarray = field(repr=False)

    def __iter__(self):
        """Unpack as ``prior, (low, high) = estimate_class_prior(..., return_interval=True)``."""
        return iter((self.prior, (self.low, self.high)))

    @property
    def interval(self) -> tuple[float, float]:
        """``(low, high)``."""
        return (self.low, self.high)

    @property
    def width(self) -> float:
        """``high - low``."""
        return self.high - self.low

    @property
    def is_wide(self) -> bool:
        """Whether the interval is wider than ``WIDE_INTERVAL`` (the warning's rule)."""
        return self.width > WIDE_INTERVAL

    def summary(self) -> str:
        """One line: the prior, the interval and the estimator."""
        return (
            f"{self.prior:.2f} ({_percent(self.confidence)} interval {self.low:.2f}–"
            f"{self.high:.2f}, method {self.method!r})"
        )


def _percent(confidence: float) -> str:
    return f"{100 * confidence:.4g} %"


def _default_estimator(random_state) -> HistGradientBoostingClassifier:
    """Gradient boosting of ``P(s=1 | x)``, damped (smaller steps, fewer leaves, an L2 penalty):
    the classifier of tables of at least ``SMALL_TABLE_ROWS`` rows.

    With few labeled rows scikit-learn's defaults (learning rate 0.1, 31 leaves) overfit the
    labeled-vs-unlabeled split; the damped model ranks the unlabeled positives better (spambase,
    10 % labeled: AUC 0.92 -> 0.95) and halves the BBE and Elkan-Noto errors there
    (``benchmarks/bench_class_prior.py``).
    """
    return HistGradientBoostingClassifier(
        max_iter=100,
        learning_rate=0.05,
        max_leaf_nodes=15,
        l2_regularization=1.0,
        random_state=random_state,
    )


def _small_table_estimator(X):
    """L2 logistic regression (``C = 0.1``) on standardised columns (missing values, if any,
    imputed by the median): the classifier of tables under ``SMALL_TABLE_ROWS`` rows.  A linear
    score with a strong penalty ranks hidden positives more reliably than trees when a few dozen
    rows are labeled."""
    sparse = hasattr(X, "tocsr")
    missing = np.isnan(X.data if sparse else X).any()
    steps = [SimpleImputer(strategy="median", keep_empty_features=True)] if missing else []
    return make_pipeline(
        *steps, StandardScaler(with_mean=not sparse), LogisticRegression(C=0.1, max_iter=1000)
    )


@validate_params(
    {
        "X": ["array-like", "sparse matrix"],
        "y": ["array-like"],
        "method": [StrOptions(set(METHODS))],
        "unlabeled": [StrOptions({"all", "unlabeled"})],
        "estimator": [HasMethods(["fit", "predict_proba"]), None],
        "cv": [Interval(Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "min_prior": [Interval(Real, 0, 0.5, closed="neither")],
        "return_interval": ["boolean"],
        "confidence": [Interval(Real, 0, 1, closed="neither")],
        "n_bootstrap": [Interval(Integral, MIN_BOOTSTRAP, None, closed="left")],
        "random_state": ["random_state"],
    },
    # it fits estimators the caller chose or configured: their parameters are checked too
    prefer_skip_nested_validation=False,
)
def estimate_class_prior(
    X,
    y,
    *,
    method: str = PRIOR_DEFAULTS["method"],
    unlabeled: str = PRIOR_DEFAULTS["unlabeled"],
    estimator=PRIOR_DEFAULTS["estimator"],
    cv=PRIOR_DEFAULTS["cv"],
    min_prior: float = PRIOR_DEFAULTS["min_prior"],
    return_interval: bool = False,
    confidence: float = PRIOR_DEFAULTS["confidence"],
    n_bootstrap: int = PRIOR_DEFAULTS["n_bootstrap"],
    random_state=None,
):
    """Estimate the class prior ``π = P(y = +1)`` from PU data (SCAR), optionally with an interval.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Every row once (labeled and unlabeled), numeric.
    y : array-like of shape (n_samples,)
        PU labels: 1 = labeled positive; 0, -1 or False = unlabeled.
    method : {"bbe", "dedpul", "elkan-noto", "tice"}, default="bbe"
        ``"bbe"``: Best Bin Estimation (Garg et al., 2021) on out-of-fold scores of a
        labeled-vs-unlabeled classifier; the most accurate where the positives have a region free
        of negatives.  ``"dedpul"``: DEDPUL (Ivanov, 2020), the ratio of the estimated score
        densities on the same scores; less biased than BBE when the classes overlap everywhere.
        ``"elkan-noto"``: Elkan & Noto (2008) ``e1`` with the same classifier; biased upwards when
        the classes overlap.  ``"tice"``: TIcE (Bekker & Davis, 2018), decision-tree subsets, no
        classifier.
    unlabeled : {"all", "unlabeled"}, default="all"
        ``"all"``: single training set, ``π`` is the positive share of all rows (the convention of
        :class:`PUExtraTreesClassifier`).  ``"unlabeled"``: case-control, ``π`` is the positive
        share of the unlabeled rows only.
    estimator : classifier with ``predict_proba``, optional
        Model of ``P(s=1 | x)`` for ``"bbe"``, ``"dedpul"`` and ``"elkan-noto"`` (``"tice"`` uses
        none and rejects it).  Default, by the table's size: under 1000 rows an L2 logistic
        regression (``C = 0.1``) on standardised columns (median-imputed); otherwise
        ``HistGradientBoostingClassifier`` (100 iterations, learning rate 0.05, 15 leaves, L2
        penalty 1).  Both use log-loss, so their probabilities are close to calibrated, which
        Elkan–Noto needs; BBE only uses their order.
    cv : int or "auto", default="auto"
        Number of stratified folds: of the out-of-fold probabilities, or TIcE's folds (a tree is
        grown on each fold and evaluated on the others).  ``"auto"``: 10 under 1000 rows, 5
        otherwise; always 5 for TIcE.  At most the number of labeled (and of unlabeled) rows.
    min_prior : float, default=1e-3
        The estimate is clipped to ``[min_prior, 1 - min_prior]``.
    return_interval : bool, default=False
        Also compute a bootstrap interval (see the module notes) and return a
        :class:`ClassPriorEstimate`.  Warns with :class:`WidePriorIntervalWarning` when the
        interval is wider than 0.2.  Needs at least 10 labeled and 10 unlabeled rows.
    confidence : float in (0, 1), default=0.9
        Nominal coverage of the interval (the bootstrap's ``(1 ± confidence) / 2`` quantiles).
    n_bootstrap : int, default=100
        Number of bootstrap resamples (at least 10).  Each costs one estimate on tables under
        1000 rows or with ``method="tice"``, next to nothing on larger tables.
    random_state : int, RandomState or None
        Seed of the folds, of the default estimator and of the bootstrap (its resamples' seeds
        are drawn from it up front, after the point estimate, so the point estimate is the same
        with or without the interval).

    Returns
    -------
    float or ClassPriorEstimate
        The estimated class prior; with ``return_interval=True`` a :class:`ClassPriorEstimate`,
        which unpacks as ``prior, (low, high)``.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.datasets import load, make_pu_labels
    >>> from weakfs.pu import estimate_class_prior
    >>> X, y = load("spambase")
    >>> pu = make_pu_labels(y, positive=1, labeled_fraction=0.5, random_state=0)
    >>> pi = estimate_class_prior(X, pu.s, random_state=0)
    >>> abs(pi - pu.prior) < 0.05
    True
    >>> pi_tice = estimate_class_prior(X, pu.s, method="tice", random_state=0)
    >>> 0 < pi_tice < 1
    True

    On a small table (logistic scores, 10 folds), with its 90 % interval (20 bootstrap resamples
    here to keep the example quick; the default is 100); a warning says when the interval is
    wider than 0.2:

    >>> import warnings
    >>> X, y = load("ionosphere")
    >>> pu = make_pu_labels(y, positive="g", labeled_fraction=0.5, random_state=0)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     est = estimate_class_prior(
    ...         X, pu.s, return_interval=True, n_bootstrap=20, random_state=0
    ...     )
    >>> prior, (low, high) = est
    >>> low <= prior <= high, low <= pu.prior <= high, est.is_wide == bool(caught)
    (True, True, True)
    """
    if method == "tice" and estimator is not None:
        raise ValueError("method='tice' uses no classifier; leave estimator=None")
    return _estimate_class_prior(
        X,
        check_pu_labels(y),
        method=method,
        unlabeled=unlabeled,
        estimator=estimator,
        cv=cv,
        min_prior=min_prior,
        random_state=random_state,
        return_interval=return_interval,
        confidence=confidence,
        n_bootstrap=n_bootstrap,
    )


def _estimate_class_prior(X, s, *, return_interval=False, random_state=None, **settings):
    """:func:`estimate_class_prior` for PU labels ``s`` that :func:`check_pu_labels` (or
    ``check_pu_target``) has already returned, and ``settings`` (any of ``PRIOR_DEFAULTS``) it
    has already checked; the others are its defaults."""
    settings = {**PRIOR_DEFAULTS, **settings}
    (result,) = _estimate_many(
        X,
        s,
        [settings.pop("method")],
        random_state=random_state,
        return_interval=return_interval,
        **settings,
    ).values()
    if isinstance(result, ClassPriorEstimate) and result.is_wide:
        warnings.warn(_wide_warning(result, s), stacklevel=3)
    return result


def _completed(settings: dict) -> tuple:
    """``(unlabeled, estimator, cv, min_prior, confidence, n_bootstrap)``: ``settings`` (any of
    ``PRIOR_DEFAULTS`` but ``method``) completed by ``PRIOR_DEFAULTS``."""
    unknown = (set(settings) - set(PRIOR_DEFAULTS)) | ({"method"} & set(settings))
    if unknown:
        raise TypeError(f"unknown settings of the class prior's estimate: {sorted(unknown)}")
    full = {**PRIOR_DEFAULTS, **settings}
    keys = ("unlabeled", "estimator", "cv", "min_prior", "confidence", "n_bootstrap")
    return tuple(full[key] for key in keys)


def _estimate_many(X, s, methods, *, random_state=None, return_interval=False, **settings) -> dict:
    """``{method: estimate}`` for several methods at the cost of one: the methods that read the
    same out-of-fold scores (same classifier, same folds) share them, and share the bootstrap's
    resamples.  Each entry is exactly what :func:`estimate_class_prior` gives for that method
    with the same settings (the benchmark's shortcut); no warning is raised here.  ``settings``:
    any of ``PRIOR_DEFAULTS`` but ``method``, the others at their defaults."""
    unlabeled, estimator, cv, min_prior, confidence, n_bootstrap = _completed(settings)
    X = np.asarray(X, dtype=np.float64) if not hasattr(X, "tocsr") else X.tocsr()
    if X.ndim != 2:
        raise ValueError(f"X must be 2-dimensional; got shape {X.shape}")
    if X.shape[0] != s.shape[0]:
        raise ValueError(f"X has {counted(X.shape[0], 'row')} but y has {s.shape[0]}")
    spread = (X.max(axis=0) - X.min(axis=0)).toarray() if sparse_input(X) else np.ptp(X, axis=0)
    if X.shape[1] == 0 or not np.any(np.asarray(spread) > 0):
        raise ValueError(
            "every column of X is constant: no classifier can tell labeled from unlabeled rows, "
            "so the class prior cannot be estimated from them; give the prior if it is known"
        )
    n = s.shape[0]
    n_l = int(s.sum())
    n_u = n - n_l
    small = n < SMALL_TABLE_ROWS
    # the methods grouped by the folds they use (TIcE apart: no scores)
    groups: dict = {}
    for method in dict.fromkeys(methods):
        folds_wanted = cv
        if cv == "auto":
            folds_wanted = SMALL_TABLE_FOLDS if small else LARGE_TABLE_FOLDS
            if method == "tice":
                folds_wanted = TICE_FOLDS
        n_splits = min(int(folds_wanted), n_l, n_u)
        if n_splits < 2:
            raise ValueError(
                f"estimate_class_prior needs at least 2 labeled and 2 unlabeled rows (and "
                f"cv >= 2); got {n_l} labeled, {n_u} unlabeled, cv={folds_wanted!r}"
            )
        groups.setdefault((method == "tice", n_splits), []).append(method)
    if return_interval and min(n_l, n_u) < MIN_ROWS_FOR_INTERVAL:
        raise ValueError(
            f"the interval needs at least {MIN_ROWS_FOR_INTERVAL} labeled and "
            f"{MIN_ROWS_FOR_INTERVAL} unlabeled rows (a bootstrap of fewer says little about "
            f"the spread); got {n_l} labeled, {n_u} unlabeled. Call with return_interval=False "
            "for the point estimate alone"
        )
    single_thread = estimator is None
    if estimator is None:
        estimator = _small_table_estimator(X) if small else _default_estimator(random_state)
    out: dict = {}
    for (is_tice, n_splits), members in groups.items():
        # one fold per row, drawn as before from random_state: the point estimate and every
        # bootstrap resample use it (a resampled copy of a row stays in the row's fold)
        fold_of = np.empty(n, dtype=np.intp)
        splitter = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
        for k, (_, test) in enumerate(splitter.split(np.zeros(n), s)):
            fold_of[test] = k

        def estimates(rows, scores=None, is_tice=is_tice, fold_of=fold_of, members=members):
            """``(scores, {method: estimate})`` on the rows ``rows`` (None: all rows), scoring
            them out-of-fold unless their ``scores`` are given (TIcE: no scores)."""
            if rows is None:
                X_r, s_r, fold_r = X, s, fold_of
            else:
                X_r, s_r, fold_r = X[rows], s[rows], fold_of[rows]
            if is_tice:
                c = tice_c(X_r, s_r, PredefinedSplit(fold_r))
                return None, {m: _prior_from_c(c, n, n_l, unlabeled, min_prior) for m in members}
            if scores is None:
                scores = out_of_fold_proba(
                    X_r, s_r, estimator, PredefinedSplit(fold_r), single_thread=single_thread
                )
            return scores, {
                m: _prior_from_scores(m, scores, s_r, unlabeled, min_prior) for m in members
            }

        proba, points = estimates(None)
        if not return_interval:
            out.update(points)
            continue
        # small tables and TIcE: the estimate is repeated on each resample; larger tables: the
        # resamples draw rows of (out-of-fold score, label)
        refit = small or is_tice
        boot = {m: np.empty(n_bootstrap) for m in members}
        for b, rows in enumerate(_bootstrap_rows(s, random_state, n_bootstrap)):
            _, values = estimates(rows) if refit else estimates(rows, proba[rows])
            for m, value in values.items():
                boot[m][b] = value
        how = f"percentile bootstrap over rows, {counted(n_bootstrap, 'resample')}, " + (
            "estimate repeated on each (classifier refitted)"
            if refit
            else "out-of-fold scores computed once and resampled"
        )
        tail = (1.0 - confidence) / 2.0
        for method in members:
            prior = points[method]
            out[method] = ClassPriorEstimate(
                prior=prior,
                low=min(float(np.quantile(boot[method], tail)), prior),
                high=max(float(np.quantile(boot[method], 1.0 - tail)), prior),
                confidence=float(confidence),
                method=method,
                interval_method=how,
                n_bootstrap=int(n_bootstrap),
                bootstrap_estimates=boot[method],
            )
    return {method: out[method] for method in methods}


def sparse_input(X) -> bool:
    return hasattr(X, "tocsr")


def _bootstrap_rows(s, random_state, n_bootstrap):
    """The rows of each bootstrap resample: the labeled and the unlabeled rows drawn with
    replacement, each group keeping its size; one seed per resample, drawn up front from
    ``random_state`` (the same resamples for every method)."""
    labeled, unlabeled = np.flatnonzero(s == 1), np.flatnonzero(s == 0)
    for seed in spawn_seeds(random_state, n_bootstrap):
        rng = np.random.RandomState(seed)
        yield np.concatenate(
            [
                labeled[rng.randint(labeled.shape[0], size=labeled.shape[0])],
                unlabeled[rng.randint(unlabeled.shape[0], size=unlabeled.shape[0])],
            ]
        )


def _wide_warning(result: ClassPriorEstimate, s) -> WidePriorIntervalWarning:
    return WidePriorIntervalWarning(
        f"the class prior is poorly determined: {_percent(result.confidence)} interval "
        f"{result.low:.2f}–{result.high:.2f} around {result.prior:.2f} (wider than "
        f"{WIDE_INTERVAL}; method {result.method!r}, {int(s.sum())} labeled of {s.shape[0]} "
        "rows). Results that depend on the prior can change materially within it; give the "
        "prior if it is known"
    )


def _prior_from_scores(method, proba, s, unlabeled, min_prior) -> float:
    """The prior from out-of-fold scores ``proba`` of the rows with PU labels ``s``."""
    n = s.shape[0]
    n_l = int(s.sum())
    if method in ("bbe", "dedpul"):
        mpe = bbe_mixture_proportion if method == "bbe" else dedpul_mixture_proportion
        alpha = mpe(proba[s == 1], proba[s == 0])
        prior = alpha if unlabeled == "unlabeled" else (n_l + alpha * (n - n_l)) / n
        return float(np.clip(prior, min_prior, 1.0 - min_prior))
    return _prior_from_c(elkan_noto_c(proba, s), n, n_l, unlabeled, min_prior)


def _prior_from_c(c, n, n_l, unlabeled, min_prior) -> float:
    """The prior from the label frequency ``c``: single training set, then case-control via the
    pooled prior."""
    pooled = min(1.0, (n_l / n) / c) if c > 0 else 1.0
    prior = pooled if unlabeled == "all" else (pooled * n - n_l) / (n - n_l)
    return float(np.clip(prior, min_prior, 1.0 - min_prior))
