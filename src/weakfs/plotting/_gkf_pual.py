"""GKF-PUAL's λ1 path: group norms against the group-lasso weight, one named line per feature."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from weakfs._docstrings import fill_doc
from weakfs.plotting._common import pyplot, save_figure

__all__ = ["plot_gkf_pual_path"]


def _as_mask(highlight, n: int) -> np.ndarray | None:
    if highlight is None:
        return None
    values = np.asarray(highlight)
    if values.dtype == bool:
        if values.shape != (n,):
            raise ValueError(f"highlight must hold {n} booleans; got shape {values.shape}")
        return values
    mask = np.zeros(n, dtype=bool)
    mask[values.astype(int)] = True
    return mask


@fill_doc
def _label_line_ends(ax, lambdas, norms, names, mask, label_top) -> None:
    """Names at the right end of the ``label_top`` largest lines (highlighted ones first),
    spread vertically so that they do not overlap."""
    end = norms[-1]
    order = np.lexsort((-end, ~mask))  # highlighted features first, then by size
    top = [int(j) for j in order[: max(int(label_top), 0)] if end[j] > 0]
    if top:
        ymax = max(float(norms.max()), 1e-12)
        slots = np.sort(end[top])[::-1]
        gap = 0.045 * ymax
        placed = []
        for y in slots:  # push each label below the previous one if they collide
            placed.append(min(y, placed[-1] - gap) if placed else y)
        shift = max(0.0, -min(placed))
        for j, y in zip(sorted(top, key=lambda j: -end[j]), placed):
            ax.annotate(
                str(names[j]),
                (lambdas[-1], end[j]),
                xytext=(lambdas[-1] / 1.08, y + shift),
                textcoords="data",
                fontsize=7,
                va="center",
                color="k" if mask[j] else "0.45",
                arrowprops={"arrowstyle": "-", "color": "0.75", "lw": 0.5},
            )
        ax.set_xlim(lambdas.max() * 1.05, lambdas.min() / 2.2)


def plot_gkf_pual_path(
    lambda_path,
    *,
    feature_names=None,
    highlight=None,
    label_top: int = 12,
    ax=None,
    title: str | None = None,
    path: str | Path | None = None,
):
    """Group norms ``‖α*_[j]‖`` against λ1 (the lasso-path picture of GKF-PUAL), named.

    λ1 decreases to the right on a log axis, so features enter the model from left to right;
    the upper panel counts the non-zero groups.  λ1_max (every group zero) and, for a selector,
    the chosen λ1 are marked.  Each line is labelled with its feature name at the right end
    (the highlighted features first, then the largest groups there, ``label_top`` in all).

    Parameters
    ----------
    lambda_path : GKFPUALPath or GKFPUALSelector
        The output of :func:`weakfs.pu.gkf_pual_path`, or a selector fitted with
        ``n_features_to_select`` (its ``path_``).
    feature_names : sequence of str, optional
        Line labels (default: the path's feature names).
    highlight : array-like of bool or of int, optional
        Features drawn in colour, the others in grey (e.g. the truly relevant columns).  Default:
        a selector's selected features, or every feature.
    label_top : int, default=12
        Number of features named at the right end: the highlighted ones first, then the largest
        group norms there.
    ax : matplotlib Axes, optional
        Where to draw the norms (a new two-panel figure otherwise; then no count panel).
    title : str, optional
        Figure title.
    %(plot_path)s

    %(returns_figure)s

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.pu import gkf_pual_path
    >>> from weakfs.plotting import plot_gkf_pual_path
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=(150, 4))
    >>> s = ((X[:, 0] ** 2 > 1) & (rng.uniform(size=150) < 0.6)).astype(int)
    >>> lp = gkf_pual_path(X, s, n_lambdas=8, C2=0.3, lambda2=0.01, sigma=1e-3)
    >>> fig = plot_gkf_pual_path(lp, highlight=[0], title="toy")
    >>> len(fig.axes)
    2
    """
    if isinstance(label_top, bool) or not isinstance(label_top, (int, np.integer)):
        raise ValueError(f"label_top must be a non-negative integer; got {label_top!r}")
    chosen = None
    selector_support = None
    if hasattr(lambda_path, "path_"):
        if lambda_path.path_ is None:
            raise ValueError(
                "this GKFPUALSelector has no path: fit it with n_features_to_select to plot one"
            )
        chosen = float(lambda_path.lambda1_)
        selector_support = np.asarray(lambda_path.support_, dtype=bool)
        lambda_path = lambda_path.path_
    lambdas = np.asarray(lambda_path.lambdas, dtype=float)
    norms = np.asarray(lambda_path.group_norms, dtype=float)
    n = norms.shape[1]
    names = np.asarray(
        lambda_path.feature_names if feature_names is None else feature_names, dtype=object
    )
    if names.shape != (n,):
        raise ValueError(f"feature_names must hold {n} names; got {names.shape[0]}")
    mask = _as_mask(highlight, n)
    if mask is None:
        mask = selector_support if selector_support is not None else np.ones(n, dtype=bool)
    keep = lambdas > 0  # λ1 = 0 has no place on a log axis
    lambdas, norms = lambdas[keep], norms[keep]

    plt = pyplot(headless=path is not None)
    if ax is None:
        fig, (ax_count, ax) = plt.subplots(
            2, 1, sharex=True, figsize=(7.5, 5.2), gridspec_kw={"height_ratios": [1, 3]}
        )
        ax_count.step(lambdas, (norms > 0).sum(axis=1), where="post", color="0.3")
        ax_count.set_ylabel("non-zero\ngroups")
        ax_count.grid(alpha=0.3)
        ax_count.set_ylim(-0.5, n + 0.5)
    else:
        fig = ax.figure
        ax_count = None
    n_colours = 10 if mask.sum() <= 10 else 20
    colours = plt.get_cmap("tab10" if n_colours == 10 else "tab20")
    coloured = 0
    for j in np.argsort(mask, kind="stable"):  # grey lines first, coloured on top
        if mask[j]:
            ax.plot(lambdas, norms[:, j], lw=1.6, color=colours(coloured % n_colours))
            coloured += 1
        else:
            ax.plot(lambdas, norms[:, j], lw=0.8, color="0.65", alpha=0.8)
    ax.set_xscale("log")
    ax.set_xlim(lambdas.max() * 1.05, lambdas.min() / 1.05)  # λ1 decreasing to the right
    ax.set_xlabel(r"$\lambda_1$ (group-lasso weight; decreasing $\rightarrow$)")
    ax.set_ylabel(r"group norm $\|\alpha^*_{[j]}\|_2$")
    ax.grid(alpha=0.3)
    for a in (ax, ax_count):
        if a is None:
            continue
        a.axvline(lambda_path.lambda1_max, color="k", ls=":", lw=1)
        if chosen is not None:
            a.axvline(chosen, color="tab:red", ls="--", lw=1)
    ax.annotate(
        r"$\lambda_{1,\max}$",
        (lambda_path.lambda1_max, 1.0),
        xycoords=("data", "axes fraction"),
        xytext=(3, -12),
        textcoords="offset points",
        fontsize=8,
    )
    if chosen is not None:
        ax.annotate(
            f"chosen λ1 = {chosen:.3g}",
            (chosen, 1.0),
            xycoords=("data", "axes fraction"),
            xytext=(3, -24),
            textcoords="offset points",
            fontsize=8,
            color="tab:red",
        )
    _label_line_ends(ax, lambdas, norms, names, mask, label_top)
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return save_figure(fig, path)
