"""The one owner of ``prior="auto"``: what value a PU method uses, how it was obtained, its
interval, and how much a selection moves within that interval.

Every caller that turns ``prior="auto"`` into a number goes through :func:`resolve_class_prior`
(PU Extra Trees' own fit, the meta-selectors' PU scorers, ``compare_selectors`` and the command
line), so that one rule holds everywhere:

* a given prior is used as it is (``how="given"``);
* ``"auto"`` is :func:`~weakfs.pu.estimate_class_prior` with its defaults (best-bin estimation);
  under the single-training-set convention the estimate cannot lie below the share of labeled
  positives, and where it equals that share (no unlabeled positive found) it is raised to just
  above it (``labeled share + 0.01``): a prior equal to the labeled share gives the unlabeled
  rows no positive mass, which makes the PU risk and the prior-corrected scores degenerate.

:func:`selection_at_interval_ends` is the one re-selection at the interval's ends (the Jaccard
overlap of the columns chosen there with those chosen at the prior used).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions, validate_params

from weakfs._labels import check_pu_labels
from weakfs._screen import screen_columns
from weakfs.pu._prior import (
    MIN_BOOTSTRAP,
    MIN_ROWS_FOR_INTERVAL,
    PRIOR_DEFAULTS,
    SMALL_TABLE_ROWS,
    WidePriorIntervalWarning,
    _estimate_class_prior,
)

__all__ = ["ResolvedPrior", "resolve_class_prior", "selection_at_interval_ends"]

#: the estimator ``prior="auto"`` uses (estimate_class_prior's default method)
DEFAULT_PRIOR_METHOD = PRIOR_DEFAULTS["method"]
#: how far above the labeled share an estimate that fell onto it is raised
LABELED_SHARE_MARGIN = 0.01
#: with ``screen=True``, a table of at least ``SMALL_TABLE_ROWS`` rows (where the estimator is
#: boosted trees, whose cost grows with rows x columns) and more columns than this is screened
#: to this many before the estimate
PRIOR_SCREEN_COLUMNS = 500
#: bootstrap resamples of the prior's interval, estimate_class_prior's default (a time limit may
#: leave fewer, down to its MIN_BOOTSTRAP)
N_BOOTSTRAP = PRIOR_DEFAULTS["n_bootstrap"]


@dataclass(frozen=True)
class ResolvedPrior:
    """A class prior as a PU method uses it.

    Attributes
    ----------
    value : float
        The prior used.
    how : str
        How it was obtained (``"given"``, or the estimator and any adjustment).
    interval : (float, float) or None
        The bootstrap interval's ends, when one was asked for and the labels allow it.
    confidence : float or None
        The interval's nominal coverage.
    is_wide : bool
        The interval is wider than :data:`weakfs.pu._prior.WIDE_INTERVAL`.
    no_interval : str or None
        Why there is no interval, when one was asked for and there is none.
    """

    value: float
    how: str
    interval: tuple[float, float] | None = None
    confidence: float | None = None
    is_wide: bool = False
    no_interval: str | None = None

    @property
    def estimated(self) -> bool:
        return self.how != "given"

    def describe(self) -> str:
        """One clause for people: the interval (or why none) and how the prior was obtained,
        with enough digits to see the estimate inside its interval."""
        if not self.estimated:
            return "given"
        if self.interval is not None:
            low, high = self.interval
            digits = _digits(self.value, low, high)
            interval = (
                f"{round(100 * self.confidence)} % interval {low:.{digits}f}–{high:.{digits}f}"
                + (", wide" if self.is_wide else "")
            )
            return f"{interval}, {self.how}"
        if self.no_interval is not None:
            return f"{self.no_interval}, {self.how}"
        return self.how

    def value_text(self) -> str:
        """The value with as many digits as :meth:`describe` gives its interval."""
        if self.interval is None:
            return f"{self.value:.2f}"
        return f"{self.value:.{_digits(self.value, *self.interval)}f}"


def _digits(value: float, low: float, high: float) -> int:
    """The fewest decimals (at least 2) at which ``low``, ``value`` and ``high`` print apart
    (where they differ at all)."""
    for digits in range(2, 6):
        printed = {f"{v:.{digits}f}" for v in (low, value, high)}
        if len(printed) == len({low, value, high}):
            return digits
    return 6


@validate_params(
    {
        "X": ["array-like", "sparse matrix"],
        "s": ["array-like"],
        "prior": [Interval(Real, 0, 1, closed="neither"), StrOptions({"auto"})],
        "unlabeled": [StrOptions({"all", "unlabeled"})],
        "interval": ["boolean"],
        "screen": ["boolean"],
        "interval_seconds": [Interval(Real, 0, None, closed="left"), None],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def resolve_class_prior(
    X,
    s,
    prior="auto",
    *,
    unlabeled: str = "all",
    interval: bool = False,
    screen: bool = False,
    interval_seconds: float | None = None,
    random_state=None,
) -> ResolvedPrior:
    """The class prior a PU method uses: ``prior`` itself, or the estimate for ``"auto"``.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        The rows, as the estimator should read them (callers pass what they fit on).
    s : array-like of shape (n_samples,)
        PU labels (1 = labeled positive).
    prior : float or "auto", default="auto"
        A given prior, or ``"auto"``.
    unlabeled : {"all", "unlabeled"}, default="all"
        The convention of the prior (:func:`~weakfs.pu.estimate_class_prior`).
    interval : bool, default=False
        Also the 90 % bootstrap interval; with fewer than 10 labeled or unlabeled rows the
        point estimate alone and a clause saying why (``no_interval``).
    screen : bool, default=False
        On a table of at least 1,000 rows and more than ``PRIOR_SCREEN_COLUMNS`` (500)
        columns, estimate on the 500 columns whose means differ most between the labeled and
        the unlabeled rows (the comparison's univariate screen).  The estimator there is
        boosted trees, whose cost grows with rows x columns: on BASEHOCK (1,993 x 4,862, 30 %
        of the positives labeled) 7 s instead of 100 s, estimate 0.489 instead of 0.542 (true
        0.499); on PCMAC (1,943 x 3,289) 0.451 instead of 0.563 (true 0.505).  What
        ``weakfs compare`` and ``weakfs select`` use; the estimators' own ``"auto"`` reads
        every column.
    interval_seconds : float or None, default=None
        Time the interval may take (a comparison's budget): the point estimate is timed
        first, and the interval's bootstrap resamples (100 at most) are as many as fit; when
        fewer than 10 fit, no interval, and ``no_interval`` says so.  None: 100 resamples.
    random_state : int, RandomState or None
        Seed of the estimate (the point estimate is the same with or without the interval).

    Returns
    -------
    ResolvedPrior
    """
    if not (isinstance(prior, str) and prior == "auto"):
        return ResolvedPrior(float(prior), "given")
    s = check_pu_labels(s)
    n_labeled = int(s.sum())
    fewest = min(n_labeled, s.shape[0] - n_labeled)
    how = f"estimated by estimate_class_prior, method {DEFAULT_PRIOR_METHOD!r}"
    n_rows, n_columns = getattr(X, "shape", None) or np.shape(X)
    if screen and n_rows >= SMALL_TABLE_ROWS and n_columns > PRIOR_SCREEN_COLUMNS:
        dense = X.toarray() if hasattr(X, "toarray") else np.asarray(X, dtype=float)
        X = dense[:, screen_columns(dense, s, PRIOR_SCREEN_COLUMNS)]
        how += (
            f" on the {PRIOR_SCREEN_COLUMNS} columns that differ most between labeled "
            "and unlabeled rows"
        )
    # every other setting at estimate_class_prior's default (PRIOR_DEFAULTS)
    settings = {"unlabeled": unlabeled, "random_state": random_state}
    ends, confidence, wide, why_none = None, None, False, None
    n_bootstrap = N_BOOTSTRAP
    if interval and fewest >= MIN_ROWS_FOR_INTERVAL and interval_seconds is not None:
        start = time.perf_counter()
        value = float(_estimate_class_prior(X, s, **settings))
        per_estimate = max(time.perf_counter() - start, 1e-6)
        # the interval's call estimates the point again, then each resample
        n_bootstrap = min(N_BOOTSTRAP, int(interval_seconds / per_estimate) - 1)
        if n_bootstrap < MIN_BOOTSTRAP:
            interval = False
            why_none = (
                f"no interval: the budget leaves time for {max(n_bootstrap, 0)} bootstrap "
                f"resamples of about {per_estimate:.1f} s each ({MIN_BOOTSTRAP} needed)"
            )
    if interval and fewest >= MIN_ROWS_FOR_INTERVAL:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", WidePriorIntervalWarning)
            estimate = _estimate_class_prior(
                X, s, **settings, return_interval=True, n_bootstrap=n_bootstrap
            )
        value = float(estimate.prior)
        ends = (float(estimate.low), float(estimate.high))
        confidence, wide = float(estimate.confidence), bool(estimate.is_wide)
    elif why_none is None:
        value = float(_estimate_class_prior(X, s, **settings))
        if interval:
            why_none = (
                f"no interval: it needs {MIN_ROWS_FOR_INTERVAL} labeled and "
                f"{MIN_ROWS_FOR_INTERVAL} unlabeled rows, there are {n_labeled} labeled"
            )
    labeled_share = n_labeled / s.shape[0]
    if unlabeled == "all" and value <= labeled_share:
        value = min(0.999, labeled_share + LABELED_SHARE_MARGIN)
        how += ", raised to just above the labeled share"
    return ResolvedPrior(value, how, ends, confidence, wide, why_none)


def selection_at_interval_ends(
    select_at: Callable[[float], set[int]],
    chosen: set[int],
    ends: tuple[float, float],
    n_features: int,
) -> list[dict] | None:
    """Re-select with the prior at each end of its interval.

    Parameters
    ----------
    select_at : callable
        ``select_at(prior) -> set of column indices``: the same selection at another prior.
    chosen : set of int
        The columns chosen at the prior used.
    ends : (float, float)
        The interval's ends.
    n_features : int
        The number of columns; a selection of all of them (or of none) is the same at every
        prior, so it is not refitted.

    Returns
    -------
    list of dict or None
        ``[{"prior": low, "jaccard": ...}, {"prior": high, "jaccard": ...}]`` (1 = the same
        columns), or None when the answer is trivial (every column or none chosen).
    """
    if len(chosen) in (0, n_features):
        return None
    out = []
    for end in ends:
        again = select_at(float(end))
        union = chosen | again
        jaccard = len(chosen & again) / len(union) if union else 1.0
        out.append({"prior": float(end), "jaccard": jaccard})
    return out
