"""The panels of the UFVS paper's Figures 5-10, drawn from :func:`weakfs.unsupervised.ufvs_path`."""

from __future__ import annotations

import pandas as pd

from weakfs._docstrings import fill_doc
from weakfs.plotting._common import pyplot

__all__ = ["plot_ufvs_path"]

# the panels that draw a measure of the selection S against the same measure of all values F
# (its upper bound): panel -> (title, (column, label) for S, (column, label) for F)
_MEASURE_AND_BOUND: dict[str, tuple[str, tuple[str, str], tuple[str, str]]] = {
    "entropy": ("(a) entropy", ("H_S", "H(S)"), ("H_F", "H(F)")),
    "mi": ("(b) mutual information", ("I_S_C", "I(S;C)"), ("I_F_C", "I(F;C)")),
    "nmi": ("(c) NMI", ("NMI_S_C", "NMI(S;C)"), ("NMI_F_C", "NMI(F;C)")),
}


@fill_doc
def plot_ufvs_path(path: pd.DataFrame, *, title: str | None = None, x: str = "min_count"):
    """Draw the UFVS path panels against the cut-off.

    (a) ``H(S)`` and its upper bound ``H(F)``; (b) ``I(S;C)`` and ``I(F;C)``; (c) ``NMI(S;C)`` and
    ``NMI(F;C)``; (d) ``|S|`` against the number of candidates and of all values (log scale);
    (e) search time in ms.  Panels (b) and (c) are drawn only when the path has labels.

    Parameters
    ----------
    path : DataFrame
        The output of :func:`weakfs.unsupervised.ufvs_path`.
    title : str, optional
        Figure title (e.g. the dataset name).
    x : {"min_count", "threshold"}, default="min_count"
        The x-axis: the count form of the cut-off (the paper's axis) or the entropy in bits.

    %(returns_figure)s

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.unsupervised import ufvs_path
    >>> from weakfs.plotting import plot_ufvs_path
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.normal(size=(200, 5)), rng.integers(0, 2, 200)
    >>> fig = plot_ufvs_path(ufvs_path(X, y, counts=[0, 10, 20, 40]), title="random")
    >>> len(fig.axes)
    5
    """
    plt = pyplot()

    labelled = "I_S_C" in path.columns
    has_measures = "H_S" in path.columns
    panels = []
    if has_measures:
        panels.append("entropy")
    if labelled:
        panels += ["mi", "nmi"]
    panels += ["size", "time"]
    fig, axes = plt.subplots(1, len(panels), figsize=(3.3 * len(panels), 3.0), squeeze=False)
    xs = path[x].to_numpy()
    xlabel = "cut-off n (rows)" if x == "min_count" else "cut-off t (bits)"
    for ax, panel in zip(axes[0], panels):
        if panel in _MEASURE_AND_BOUND:
            panel_title, (of_s, s_label), (of_f, f_label) = _MEASURE_AND_BOUND[panel]
            ax.plot(xs, path[of_s], "o-", ms=3, label=s_label)
            ax.plot(xs, path[of_f], "--", label=f_label)
            if panel == "nmi":
                ax.set_ylim(0, 1.02)  # normalised: the bits of (a) and (b) do not apply
            else:
                ax.set_ylabel("bits")
            ax.set_title(panel_title)
        elif panel == "size":
            ax.plot(xs, path["n_selected"].clip(lower=0.8), "o-", ms=3, label="|S|")
            ax.plot(xs, path["n_candidates"].clip(lower=0.8), ":", label="candidates")
            ax.plot(xs, path["n_values"], "--", label="all values")
            ax.set_yscale("log")
            ax.set_title("(d) number of values")
        else:
            ax.plot(xs, path["search_ms"], "o-", ms=3, label="search")
            ax.set_ylabel("ms")
            ax.set_title("(e) search time")
        ax.set_xlabel(xlabel)
        ax.legend(fontsize=7)
        ax.grid(alpha=0.3)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig
