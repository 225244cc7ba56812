"""One picture for every selector: its per-feature scores with the feature names, the selected
features highlighted."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from weakfs._docstrings import fill_doc
from weakfs.plotting._common import pyplot, save_figure

__all__ = ["feature_scores", "plot_feature_scores"]


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
    (['x0', 'x2'], 'score')
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


@fill_doc
def plot_feature_scores(
    estimator,
    *,
    top: int = 20,
    ax=None,
    title: str | None = None,
    path: str | Path | None = None,
):
    """Horizontal bars of a fitted selector's ``top`` best-scored features, named.

    Selected features are drawn in colour, the others in grey; features a method did not score
    (``-inf``, e.g. beyond semi-JMI's ``k``) are left out.  UFVS's selected values come first
    (it selects for coverage, not by entropy alone), then the other values by entropy.  See
    :func:`feature_scores` for which attribute is drawn.

    Parameters
    ----------
    estimator : fitted estimator
        Any weakfs selector or classifier with per-feature scores.
    top : int, default=20
        Number of features shown (the highest scores).
    ax : matplotlib Axes, optional
        Where to draw (a new figure otherwise).
    title : str, optional
        Defaults to the estimator's class name.
    %(plot_path)s

    %(returns_figure)s

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.plotting import plot_feature_scores
    >>> from weakfs.pu import MRMRSelector
    >>> rng = np.random.RandomState(0)
    >>> X = rng.rand(200, 6); s = (X[:, 1] > 0.7).astype(int)
    >>> fig = plot_feature_scores(MRMRSelector(n_features_to_select=3).fit(X, s), top=5)
    >>> fig.axes[0].get_yticklabels()[-1].get_text()
    'x1'
    """
    if isinstance(top, bool) or not isinstance(top, (int, np.integer)) or top < 1:
        raise ValueError(f"top must be a positive integer; got {top!r}")
    fs = feature_scores(estimator)
    plt = pyplot(headless=path is not None)
    finite = np.flatnonzero(np.isfinite(fs.scores))
    key = -fs.scores[finite]
    if fs.selected_first:
        key = np.lexsort((key, ~fs.selected[finite]))
    else:
        key = np.argsort(key, kind="stable")
    order = finite[key][:top][::-1]  # best on top
    if ax is None:
        fig, ax = plt.subplots(figsize=(6.4, 0.8 + 0.28 * max(len(order), 1)))
    else:
        fig = ax.figure
    colours = np.where(fs.selected[order], "tab:blue", "0.7")
    ax.barh(np.arange(len(order)), fs.scores[order], color=colours)
    ax.set_yticks(np.arange(len(order)))
    ax.set_yticklabels([str(name) for name in fs.names[order]], fontsize=8)
    ax.set_xlabel(fs.label)
    n_selected = int(fs.selected.sum())
    shown = f"top {len(order)} of {fs.scores.shape[0]}"
    ax.set_title(
        title or f"{type(estimator).__name__}: {shown}, {n_selected} selected (blue)",
        fontsize=9,
    )
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return save_figure(fig, path)
