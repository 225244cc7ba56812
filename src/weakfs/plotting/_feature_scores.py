"""One picture for every selector: its per-feature scores with the feature names, the selected
features highlighted."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from weakfs._docstrings import fill_doc
from weakfs._scores import feature_scores
from weakfs.plotting._common import pyplot, save_figure

__all__ = ["feature_scores", "plot_feature_scores"]


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
