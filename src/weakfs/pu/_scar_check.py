"""A check of SCAR on the user's data: can a classifier tell the labeled positives from the
unlabeled rows that look most like positives?

Under SCAR (``P(s=1 | x, y=1) = c``) the labeled positives are a random sample of the positives,
so among rows that are all positive the labeled ones are exchangeable with the unlabeled ones: a
classifier's held-out score cannot rank the labeled ones higher.  The check

1. scores every row out-of-fold with the labeled-vs-unlabeled classifier of
   :func:`~weakfs.pu.estimate_class_prior` (same size rule, same folds);
2. keeps the *region* of rows scoring at least the ``1 - top_share`` quantile of the labeled
   rows' scores (default: the labeled median), lowered if needed so that it holds at least 10
   unlabeled rows — the labeled positives there and the unlabeled rows most like positives;
3. asks whether the held-out scores rank the labeled rows of the region above its unlabeled
   rows: the statistic is the ROC AUC within the region and the p-value the one-sided
   Mann–Whitney test of "labeled scores are not higher" (no refit; a row's held-out score never
   depends on its own label, so under SCAR in a region of positives the two groups' scores are
   exchangeable).

The idea follows Teisseyre, Furmańczyk & Mielniczuk ("Verifying the selected completely at
random assumption in positive-unlabeled learning", 2024): locate the positives, then compare the
labeled positives with them against what SCAR labels would give.  Here the positives are the top
of the score and the statistic the classifier's own held-out AUC there.

**What it can detect**: labeled positives that are the more typical ones — a labeling probability
that grows with a classifier's score (``make_pu_labels(mechanism="score")``) or with columns the
classifier also uses (``mechanism="features"``).  This is the direction that makes every prior
estimate too low.  On the development tables it flagged 33–92 % of ``mechanism="score"``
labelings (strength 1, 30–50 % labeled) and 75–100 % at strength 2.

**What it cannot detect**: (a) a labeling driven by something not in ``X``; (b) positives that are
never labeled *and* look like negatives (they fall outside the region; a PU sample cannot tell
them from negatives, and every prior estimate then comes out too low); (c) a labeling that
prefers the *atypical* positives (the test is one-sided: held-out scores of labeled rows are
slightly low under SCAR, since their own label is left out of training, so a two-sided test
would cry wolf); (d) a dependence on columns that barely move the score (``mechanism="features"``
on a column the classifier ignores) and weak dependence with few labeled rows: a large p-value is
no proof of SCAR.  **False alarms**: the p-value is valid when the region holds positives alone.
When the classes overlap so much that negatives score among the labeled positives, they pull the
unlabeled rows' scores down and the check can flag SCAR data (development tables with heavy
overlap: up to 25 % of SCAR labelings flagged at the 5 % level, none on separable ones); a small
p-value together with a wide prior interval points to overlap rather than to the labeling.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from scipy.stats import mannwhitneyu
from sklearn.model_selection import StratifiedKFold
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions, validate_params

from weakfs._labels import check_pu_labels
from weakfs._words import counted
from weakfs.pu._prior import (
    LARGE_TABLE_FOLDS,
    SMALL_TABLE_FOLDS,
    SMALL_TABLE_ROWS,
    _default_estimator,
    _small_table_estimator,
)
from weakfs.pu._prior_estimators import out_of_fold_proba

__all__ = ["SCARCheck", "check_scar"]

#: fewest labeled and unlabeled rows the region must hold
MIN_REGION_ROWS = 10


@dataclass(frozen=True)
class SCARCheck:
    """What :func:`check_scar` found; unpacks as ``p_value, message``.

    Attributes
    ----------
    p_value : float
        One-sided p-value of "within the region, the held-out scores do not rank the labeled
        rows above the unlabeled ones" (SCAR); small values speak against SCAR.
    auc : float
        ROC AUC of the held-out scores, labeled against unlabeled rows of the region (0.5: no
        better than chance; under SCAR slightly below 0.5 is usual).
    n_labeled, n_unlabeled : int
        Labeled and unlabeled rows in the region.
    threshold : float
        The held-out score (probability of "labeled") from which rows are in the region.
    alpha : float
        The level at which ``message`` calls the result evidence against SCAR.
    message : str
        One sentence saying what the check found.
    """

    p_value: float
    auc: float
    n_labeled: int
    n_unlabeled: int
    threshold: float
    alpha: float
    message: str

    def __iter__(self):
        """Unpack as ``p_value, message = check_scar(X, s)``."""
        return iter((self.p_value, self.message))

    def __str__(self) -> str:
        return self.message


@validate_params(
    {
        "X": ["array-like", "sparse matrix"],
        "y": ["array-like"],
        "top_share": [Interval(Real, 0, 1, closed="right")],
        "estimator": [HasMethods(["fit", "predict_proba"]), None],
        "cv": [Interval(Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "random_state": ["random_state"],
    },
    # it fits estimators the caller chose or configured: their parameters are checked too
    prefer_skip_nested_validation=False,
)
def check_scar(
    X,
    y,
    *,
    top_share: float = 0.5,
    estimator=None,
    cv="auto",
    alpha: float = 0.05,
    random_state=None,
) -> SCARCheck:
    """Test SCAR on PU data: can a classifier tell the labeled positives from the unlabeled rows
    most like positives?

    See the module notes for the procedure, what it can detect and what it cannot.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Every row once (labeled and unlabeled), numeric.
    y : array-like of shape (n_samples,)
        PU labels: 1 = labeled positive; 0, -1 or False = unlabeled.
    top_share : float in (0, 1], default=0.5
        Share of the labeled rows (the highest-scoring) that define the region: every row
        scoring at least as high as the lowest of them is in it.  Smaller: purer region (fewer
        false alarms when the classes overlap), fewer rows (less power).
    estimator : classifier with ``predict_proba``, optional
        The labeled-vs-unlabeled classifier.  Default: :func:`estimate_class_prior`'s (an L2
        logistic regression under 1000 rows, damped gradient boosting otherwise).
    cv : int or "auto", default="auto"
        Folds of the held-out scores (``"auto"``: 10 under 1000 rows, 5 otherwise).
    alpha : float in (0, 1), default=0.05
        Level at which the message calls the result evidence against SCAR.
    random_state : int, RandomState or None
        Seed of the folds and of the default classifier.

    Returns
    -------
    SCARCheck
        The p-value, the AUC, the region's size and a one-sentence message; unpacks as
        ``p_value, message``.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.datasets import make_pu_labels
    >>> from weakfs.pu import check_scar
    >>> rng = np.random.RandomState(0)
    >>> y = rng.rand(600) < 0.5
    >>> X = rng.normal(size=(600, 3)) + 4 * y[:, None]
    >>> scar = make_pu_labels(y, positive=True, labeled_fraction=0.4, random_state=0)
    >>> check_scar(X, scar.s, random_state=0).p_value > 0.05
    True
    >>> biased = make_pu_labels(y, positive=True, labeled_fraction=0.4, mechanism="score",
    ...                         X=X, strength=2, random_state=0)
    >>> p_value, message = check_scar(X, biased.s, random_state=0)
    >>> bool(p_value < 0.05), message.split(":")[0]
    (True, 'SCAR is doubtful')
    """
    s = check_pu_labels(y)
    X = np.asarray(X, dtype=np.float64) if not hasattr(X, "tocsr") else X.tocsr()
    if X.ndim != 2:
        raise ValueError(f"X must be 2-dimensional; got shape {X.shape}")
    if X.shape[0] != s.shape[0]:
        raise ValueError(f"X has {counted(X.shape[0], 'row')} but y has {s.shape[0]}")
    n, n_l = s.shape[0], int(s.sum())
    n_u = n - n_l
    needed = int(np.ceil(MIN_REGION_ROWS / top_share))
    if n_l < needed or n_u < MIN_REGION_ROWS:
        raise ValueError(
            f"check_scar needs at least {counted(needed, 'labeled row')} (so that the top "
            f"{top_share:g} of "
            f"them are {MIN_REGION_ROWS}) and {MIN_REGION_ROWS} unlabeled rows; got {n_l} "
            f"labeled, {n_u} unlabeled"
        )
    small = n < SMALL_TABLE_ROWS
    if cv == "auto":
        cv = SMALL_TABLE_FOLDS if small else LARGE_TABLE_FOLDS
    n_splits = min(int(cv), n_l, n_u)
    if n_splits < 2:
        raise ValueError(f"cv must be at least 2; got {cv!r}")
    folds = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
    single_thread = estimator is None
    if estimator is None:
        estimator = _small_table_estimator(X) if small else _default_estimator(random_state)
    score = out_of_fold_proba(X, s, estimator, folds, single_thread=single_thread)

    score_l, score_u = score[s == 1], score[s == 0]
    threshold = float(np.quantile(score_l, 1.0 - top_share))
    # at least MIN_REGION_ROWS unlabeled rows: lower the threshold to the 10th-highest if needed
    threshold = min(threshold, float(np.sort(score_u)[-MIN_REGION_ROWS]))
    in_l, in_u = score_l[score_l >= threshold], score_u[score_u >= threshold]
    test = mannwhitneyu(in_l, in_u, alternative="greater")
    p_value = float(test.pvalue)
    auc = float(test.statistic) / (in_l.shape[0] * in_u.shape[0])
    what = (
        f"held-out AUC {auc:.2f}, one-sided Mann–Whitney p = {p_value:.2g}, {in_l.shape[0]} "
        f"labeled vs {counted(in_u.shape[0], 'unlabeled row')} scoring at least {threshold:.2g}"
    )
    if np.ptp(np.r_[in_l, in_u]) == 0:
        # every row in the region scores the same: the test has nothing to rank (p = 1 would
        # read as "no evidence" where the check simply cannot see)
        message = (
            f"The SCAR check cannot decide: the labeled-vs-unlabeled classifier gives every row "
            f"the same score ({what}); the columns hold nothing that tells rows apart, so "
            "neither SCAR nor its failure can be seen"
        )
    elif p_value < alpha:
        message = (
            f"SCAR is doubtful: the labeled-vs-unlabeled classifier ranks the labeled positives "
            f"above the unlabeled rows most like positives ({what}); the labeled positives look "
            "more typical than the hidden ones, so class-prior estimates are likely too low, "
            "unless the classes overlap so much that negatives score among the labeled positives"
        )
    else:
        message = (
            f"No evidence against SCAR: the labeled-vs-unlabeled classifier does not rank the "
            f"labeled positives above the unlabeled rows most like positives ({what}); this does "
            "not prove SCAR (a labeling driven by unobserved factors, or positives that are never "
            "labeled and look like negatives, go unseen)"
        )
    return SCARCheck(
        p_value=p_value,
        auc=auc,
        n_labeled=int(in_l.shape[0]),
        n_unlabeled=int(in_u.shape[0]),
        threshold=threshold,
        alpha=float(alpha),
        message=message,
    )
