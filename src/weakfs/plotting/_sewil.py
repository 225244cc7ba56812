"""SEW-IL plots: the fitness history of the wrapper's search."""

from __future__ import annotations

import pandas as pd

from weakfs._docstrings import fill_doc
from weakfs.plotting._common import pyplot

__all__ = ["plot_sewil_history"]


@fill_doc
def plot_sewil_history(history, *, title: str | None = None, ax=None):
    """Best and mean fitness (minus the criterion) per generation, with subset sizes.

    Parameters
    ----------
    history : DataFrame or SEWILSelector
        ``SEWILSelector.history_`` (or the fitted selector itself).
    title : str, optional
    ax : matplotlib Axes, optional
        Where to draw the fitness curves (a new figure otherwise); sizes go on a twin axis.

    %(returns_figure)s

    Examples
    --------
    >>> import pandas as pd
    >>> from weakfs.plotting import plot_sewil_history
    >>> h = pd.DataFrame({"generation": [0, 1, 2], "best_fitness": [-.5, -.4, -.4],
    ...                   "mean_fitness": [-.7, -.6, -.5], "best_size": [8, 9, 9]})
    >>> fig = plot_sewil_history(h, title="toy")
    >>> len(fig.axes)
    2
    """
    plt = pyplot()

    if hasattr(history, "history_"):
        history = history.history_
    history = pd.DataFrame(history)
    x = history["generation"] if "generation" in history else history.get("step", history.index)
    if ax is None:
        fig, ax = plt.subplots(figsize=(6, 3.5))
    else:
        fig = ax.figure
    ax.plot(x, -history["best_fitness"], "o-", label="best criterion (lower is better)")
    if "mean_fitness" in history:
        ax.plot(x, -history["mean_fitness"], "s--", label="population mean")
    ax.set_xlabel("generation")
    ax.set_ylabel("criterion")
    ax2 = ax.twinx()
    size_col = "best_size" if "best_size" in history else "n_selected"
    if size_col in history:
        ax2.plot(x, history[size_col], color="grey", alpha=0.6, label="size of the best subset")
        ax2.set_ylabel("features")
    lines = ax.get_lines() + ax2.get_lines()
    ax.legend(lines, [ln.get_label() for ln in lines], fontsize=8, loc="best")
    if title:
        ax.set_title(title)
    fig.tight_layout()
    return fig
