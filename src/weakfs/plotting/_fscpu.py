"""The FSCPU paper's Figure 1: the Bernoulli parameters ``theta`` over the compact-GA iterations."""

from __future__ import annotations

import numpy as np

from weakfs._docstrings import fill_doc
from weakfs.plotting._common import pyplot

__all__ = ["plot_theta_history"]


@fill_doc
def plot_theta_history(
    theta_history, *, relevant=None, ax=None, title: str | None = None, every: int = 1
):
    """Draw every ``theta_i`` against the iteration (paper Figure 1).

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
    plt = pyplot()

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
    for j in order:
        colour = "0.5" if is_rel is None else ("tab:red" if is_rel[j] else "tab:blue")
        ax.plot(steps, hist[::every, j], color=colour, lw=0.8, alpha=0.8)
    ax.set_xlabel("iteration")
    ax.set_ylabel(r"$\theta_i$")
    ax.set_ylim(-0.02, 1.02)
    if is_rel is not None:
        from matplotlib.lines import Line2D

        ax.legend(
            [Line2D([], [], color="tab:red"), Line2D([], [], color="tab:blue")],
            ["relevant", "irrelevant"],
            loc="center right",
            fontsize=8,
        )
    if title:
        ax.set_title(title)
    fig.tight_layout()
    return fig
