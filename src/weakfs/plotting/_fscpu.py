"""The FSCPU paper's Figure 1: the Bernoulli parameters ``theta`` over the compact-GA iterations."""

from __future__ import annotations

import numpy as np

from weakfs._docstrings import fill_doc
from weakfs.plotting._common import pyplot, save_figure

__all__ = ["plot_theta_history"]


@fill_doc
def plot_theta_history(
    theta_history,
    *,
    relevant=None,
    ax=None,
    title: str | None = None,
    every: int = 1,
    label_selected: bool = True,
    path=None,
):
    """Draw every ``theta_i`` against the iteration (paper Figure 1).

    Given a fitted ``FSCPUSelector``, the selected features' lines are drawn thicker and named
    at their end (its ``feature_names_in_``, or ``x<i>``).

    Parameters
    ----------
    theta_history : array-like of shape (n_iter + 1, n_features), or a fitted ``FSCPUSelector``
        Parameters after each iteration (``FSCPUSelector.theta_history_``).
    relevant : array-like of int or bool, optional
        Ground truth when known: relevant features are drawn in red, the others in blue (the
        paper's colours); without it every line is grey.
    ax : matplotlib Axes, optional
        Where to draw (a new figure otherwise).
    title : str, optional
    every : int, default=1
        Plot every ``every``-th iteration (thinning long runs).
    label_selected : bool, default=True
        With a fitted selector: name the selected features at the right end of their lines.
    %(plot_path)s

    %(returns_figure)s

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.plotting import plot_theta_history
    >>> hist = np.linspace(0.5, 1.0, 11)[:, None] * np.array([[1.0, 0.2, 0.9]])
    >>> fig = plot_theta_history(hist, relevant=[0, 2])
    >>> len(fig.axes[0].lines)
    3
    """
    plt = pyplot(headless=path is not None)

    selector = theta_history if hasattr(theta_history, "theta_history_") else None
    hist = getattr(theta_history, "theta_history_", theta_history)
    hist = np.asarray(hist, dtype=float)
    if hist.ndim != 2:
        raise ValueError(f"theta_history must be 2-D (iterations x features); got {hist.shape}")
    d = hist.shape[1]
    is_rel = None
    if relevant is not None:
        rel = np.asarray(relevant)
        is_rel = rel.astype(bool) if rel.dtype == bool else np.isin(np.arange(d), rel)
        if is_rel.shape != (d,):
            raise ValueError(f"relevant mask must have {d} entries; got {is_rel.shape}")
    if ax is None:
        fig, ax = plt.subplots(figsize=(6, 3.5))
    else:
        fig = ax.figure
    steps = np.arange(hist.shape[0])[::every]
    order = np.arange(d) if is_rel is None else np.argsort(is_rel, kind="stable")  # red on top
    selected = np.zeros(d, dtype=bool)
    if selector is not None and getattr(selector, "support_", None) is not None:
        selected = np.asarray(selector.support_, dtype=bool)
    for j in order:
        if is_rel is None:
            colour = "tab:blue" if selected[j] else "0.6"
        else:
            colour = "tab:red" if is_rel[j] else "tab:blue"
        width = 1.6 if selected[j] else 0.8
        ax.plot(steps, hist[::every, j], color=colour, lw=width, alpha=0.8)
    if label_selected and selected.any():
        names = getattr(selector, "feature_names_in_", None)
        if names is None:
            names = [f"x{i}" for i in range(d)]
        # names at the last iteration, spread vertically so that close thetas stay readable
        ends = hist[-1, selected]
        positions = _spread(ends, gap=0.045)
        for name, end, y in zip(np.asarray(names)[selected], ends, positions):
            ax.annotate(
                str(name),
                (steps[-1], end),
                xytext=(steps[-1] * 1.02 + 1, y),
                textcoords="data",
                fontsize=7,
                va="center",
                arrowprops={"arrowstyle": "-", "lw": 0.4, "color": "0.4"},
            )
        ax.set_xlim(right=steps[-1] * 1.18 + 2)
    ax.set_xlabel("iteration")
    ax.set_ylabel(r"$\theta_i$")
    ax.set_ylim(-0.02, 1.02)
    if is_rel is not None:
        from matplotlib.lines import Line2D

        ax.legend(
            [Line2D([], [], color="tab:red"), Line2D([], [], color="tab:blue")],
            ["relevant", "irrelevant"],
            loc="upper left",  # theta starts mid-range, so that corner stays clear
            fontsize=8,
        )
    if title:
        ax.set_title(title)
    fig.tight_layout()
    return save_figure(fig, path)


def _spread(values: np.ndarray, gap: float) -> np.ndarray:
    """Label heights near ``values`` but at least ``gap`` apart (kept in [0, 1] where possible)."""
    order = np.argsort(values)
    placed = np.asarray(values, dtype=float)[order].copy()
    for i in range(1, placed.shape[0]):
        placed[i] = max(placed[i], placed[i - 1] + gap)
    overflow = placed[-1] - 1.0 if placed.shape[0] else 0.0
    if overflow > 0:
        placed -= overflow
    out = np.empty_like(placed)
    out[order] = placed
    return out
