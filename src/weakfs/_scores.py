"""The per-feature scores of any fitted selector, with names and what the scores are.

Shared by the plots (:func:`weakfs.plotting.plot_feature_scores`), the command line's printed
ranking and the meta-selectors that aggregate scores (per source column, over resamples).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["FeatureScores", "feature_order", "feature_scores"]


@dataclass(frozen=True)
class FeatureScores:
    """Per-feature (or per-value) scores of a fitted selector, as :func:`plot_feature_scores`
    draws them."""

    names: np.ndarray
    scores: np.ndarray
    selected: np.ndarray
    label: str
    selected_first: bool = False


def _feature_names(estimator, n: int) -> np.ndarray:
    names = getattr(estimator, "feature_names_in_", None)
    if names is not None and len(names) == n:
        return np.asarray(names, dtype=object)
    return np.asarray([f"x{i}" for i in range(n)], dtype=object)


def _support(estimator, n: int) -> np.ndarray:
    """The selected features: ``get_support()`` where there is one (scikit-learn's
    ``SelectFromModel`` has no ``support_``), else ``support_``, else none."""
    support = None
    if hasattr(estimator, "get_support"):
        try:
            support = estimator.get_support()
        except (AttributeError, ValueError, TypeError):  # not fitted, or no support to give
            support = None
    if support is None:
        support = getattr(estimator, "support_", None)
    if support is None or np.asarray(support).shape != (n,):
        return np.zeros(n, dtype=bool)
    return np.asarray(support, dtype=bool)


# fitted attribute -> axis label, in the order they are looked for
_SCORE_ATTRIBUTES = (
    ("scores_", "score"),
    ("feature_importances_", "importance"),
    ("theta_", r"$\theta$ (selection probability)"),
    ("group_norms_", r"group norm $\|\alpha_j\|$"),
    ("vote_share_", "share of the final population selecting it"),
)


def feature_scores(estimator) -> FeatureScores:
    """The per-feature scores a fitted weakfs estimator exposes, with names and selection.

    Looks, in order, for ``scores_``, ``feature_importances_``, ``theta_``, ``group_norms_`` (also
    on ``estimator_``), ``vote_share_`` and ``ranking_``; a UFVS selector gives its feature
    values (``name=value``) scored by entropy.

    Parameters
    ----------
    estimator : fitted estimator

    Returns
    -------
    FeatureScores
        ``names``, ``scores`` (``-inf`` where a method did not score a feature), ``selected``
        and the axis ``label``.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.pu import SemiJMISelector
    >>> rng = np.random.RandomState(0)
    >>> X = rng.rand(200, 4); s = (X[:, 2] > 0.7).astype(int)
    >>> fs = feature_scores(SemiJMISelector(n_features_to_select=2).fit(X, s))
    >>> fs.names[fs.selected].tolist(), fs.label
    (['x0', 'x2'], 'JMI criterion when chosen (nats; it grows along the selection)')
    """
    values = getattr(estimator, "values_", None)
    if values is not None and {"entropy", "selected"} <= set(getattr(values, "columns", [])):
        return FeatureScores(
            np.asarray(values.index, dtype=object),
            values["entropy"].to_numpy(dtype=float),
            values["selected"].to_numpy(dtype=bool),
            "entropy of the feature value (bits)",
            # UFVS picks values for coverage, not by entropy alone: show its picks first
            selected_first=True,
        )
    sources = [estimator, getattr(estimator, "estimator_", None)]
    for attribute, label in _SCORE_ATTRIBUTES:
        for source in sources:
            scores = getattr(source, attribute, None) if source is not None else None
            if scores is not None and np.ndim(scores) == 1:
                scores = np.asarray(scores, dtype=float)
                n = scores.shape[0]
                # an estimator says what its scores are (SCORE_LABEL) where "score" says nothing
                label = getattr(source, "SCORE_LABEL", None) or label
                return FeatureScores(
                    _feature_names(estimator, n), scores, _support(estimator, n), label
                )
    ranking = getattr(estimator, "ranking_", None)
    if ranking is not None:
        ranking = np.asarray(ranking)
        n = getattr(estimator, "n_features_in_", ranking.shape[0])
        scores = np.full(n, -np.inf)
        scores[ranking] = np.arange(ranking.shape[0], 0, -1)  # first added scores highest
        return FeatureScores(
            _feature_names(estimator, n),
            scores,
            _support(estimator, n),
            "order of selection (higher = earlier)",
        )
    raise TypeError(
        f"{type(estimator).__name__} exposes no per-feature scores (scores_, "
        "feature_importances_, theta_, group_norms_, vote_share_ or ranking_); is it fitted?"
    )


def feature_order(estimator) -> np.ndarray:
    """The features of a fitted selector or model, best first.

    A ``ranking_`` (the order a greedy or ranking selector chose them) comes first, then the
    remaining features by score; a selector without a ranking is ordered by its scores, its
    selected features first (ties by index).  Features a method did not score come last.
    """
    found = feature_scores(estimator)
    d = found.scores.shape[0]
    scores = np.where(np.isfinite(found.scores), found.scores, -np.inf)
    ranking = getattr(estimator, "ranking_", None)
    head = [] if ranking is None else [int(i) for i in np.asarray(ranking).ravel() if i < d]
    rest = np.setdiff1d(np.arange(d), head)
    # selected first, then by score (higher first), then by index
    keys = np.lexsort((rest, -scores[rest], ~found.selected[rest]))
    return np.r_[np.asarray(head, dtype=np.intp), rest[keys]].astype(np.intp)
