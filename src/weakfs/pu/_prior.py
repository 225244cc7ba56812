"""Class-prior estimation for PU data under SCAR (Elkan & Noto, 2008).

**Assumption (SCAR, "selected completely at random")**: the labeled positives are a random sample
of the positives, independent of ``x``: ``P(s=1 | x, y=1) = c`` for a constant label frequency
``c``.  Then ``P(s=1 | x) = c · P(y=1 | x)``, and on the positives ``P(s=1 | x) = c`` exactly, so
``c`` is the mean of ``g(x) ≈ P(s=1 | x)`` over the labeled rows (Elkan–Noto's estimator ``e1``).
With ``g`` estimated out-of-fold (every row is scored by a model that did not see it) by a
probabilistic classifier trained to separate labeled from unlabeled rows:

* single training set (``unlabeled="all"``: the labeled rows are part of the sample whose positive
  share is ``π``): ``π = P(s=1) / c = (n_labeled / n) / ĉ``;
* case-control (``unlabeled="unlabeled"``: the ``n_u`` unlabeled rows are a separate sample of the
  marginal and the ``n_l`` labeled rows were drawn apart): the pooled rows behave like a single
  training set with prior ``π' = (n_l + n_u π) / n``, so ``π = (π' n − n_l) / n_u``.

The estimate is clipped to ``[min_prior, 1 − min_prior]``.  It is biased when SCAR fails, when the
classifier is miscalibrated, and when the classes overlap: ``g(x) = c · P(y=1 | x)`` is below ``c``
on positives that look like negatives, so ``ĉ`` is underestimated and ``π`` overestimated (the
bias vanishes for separable classes).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import clone
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from threadpoolctl import threadpool_limits

from weakfs._labels import check_pu_labels

__all__ = ["estimate_class_prior"]


def estimate_class_prior(
    X,
    y,
    *,
    unlabeled: str = "all",
    estimator=None,
    cv: int = 5,
    min_prior: float = 1e-3,
    random_state=None,
) -> float:
    """Estimate the class prior ``π = P(y = +1)`` from PU data (Elkan–Noto ``e1``, SCAR).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Every row once (labeled and unlabeled).
    y : array-like of shape (n_samples,)
        PU labels: 1 = labeled positive; 0, -1 or False = unlabeled.
    unlabeled : {"all", "unlabeled"}, default="all"
        ``"all"``: single training set, ``π`` is the positive share of all rows (the convention of
        :class:`PUExtraTreesClassifier`).  ``"unlabeled"``: case-control, ``π`` is the positive
        share of the unlabeled rows only.
    estimator : classifier with ``predict_proba``, optional
        Model of ``P(s=1 | x)``.  Default: ``HistGradientBoostingClassifier`` (100 iterations,
        log-loss, so its probabilities are close to calibrated).
    cv : int, default=5
        Number of stratified folds for the out-of-fold probabilities.
    min_prior : float, default=1e-3
        The estimate is clipped to ``[min_prior, 1 - min_prior]``.
    random_state : int, RandomState or None
        Seed of the folds and of the default estimator.

    Returns
    -------
    float
        The estimated class prior.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.datasets import load, make_pu_labels
    >>> from weakfs.pu import estimate_class_prior
    >>> X, y = load("spambase")
    >>> pu = make_pu_labels(y, positive=1, labeled_fraction=0.5, random_state=0)
    >>> pi = estimate_class_prior(X, pu.s, random_state=0)
    >>> abs(pi - pu.prior) < 0.1
    True
    """
    if not 0 < min_prior < 0.5:
        raise ValueError(
            f"min_prior must be in (0, 0.5) (the estimate is clipped to "
            f"[min_prior, 1 - min_prior]); got {min_prior!r}"
        )
    s = check_pu_labels(y)
    X = np.asarray(X, dtype=np.float64) if not hasattr(X, "tocsr") else X
    if X.shape[0] != s.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {s.shape[0]}")
    if unlabeled not in ("all", "unlabeled"):
        raise ValueError(f"unlabeled must be 'all' or 'unlabeled'; got {unlabeled!r}")
    n = s.shape[0]
    n_l = int(s.sum())
    n_u = n - n_l
    n_splits = min(int(cv), n_l, n_u)
    if n_splits < 2:
        raise ValueError(
            f"estimate_class_prior needs at least 2 labeled and 2 unlabeled rows; got {n_l} "
            f"labeled and {n_u} unlabeled"
        )
    default_model = estimator is None
    if default_model:
        estimator = HistGradientBoostingClassifier(max_iter=100, random_state=random_state)
    folds = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
    # The default model's OpenMP pool spins when the cores are busy (measured: 1.1 s per fit with
    # one thread, 125 s with two on a loaded 2-core machine); these fits are small, so one thread.
    with threadpool_limits(limits=1 if default_model else None, user_api="openmp"):
        proba = cross_val_predict(clone(estimator), X, s, cv=folds, method="predict_proba")[:, 1]
    c = float(np.mean(proba[s == 1]))
    if not c > 0:
        raise ValueError(
            "the classifier gave probability 0 to every labeled row; cannot estimate c"
        )
    pooled = min(1.0, (n_l / n) / c)
    prior = pooled if unlabeled == "all" else (pooled * n - n_l) / n_u
    return float(np.clip(prior, min_prior, 1.0 - min_prior))
