"""Plots of PU Extra Trees: the MNIST importance images (paper Figure 2) and the top-k accuracy
curves of Appendix M.  matplotlib is imported inside the functions."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from weakfs._docstrings import fill_doc
from weakfs.plotting._common import pyplot, save_figure

__all__ = ["plot_pu_extra_trees_importance_images", "plot_pu_extra_trees_topk_curve"]


@fill_doc
def plot_pu_extra_trees_importance_images(
    top: Sequence[np.ndarray],
    bottom: Sequence[np.ndarray] | None = None,
    *,
    shape: tuple[int, int] = (28, 28),
    labels: tuple[str, str] = ("PU ET", "PN ET"),
    path: str | Path | None = None,
):
    """Draw importance vectors as images (one column per vector; lighter = more important).

    Parameters
    ----------
    top, bottom : sequences of arrays of length ``shape[0] * shape[1]``
        One image per vector, top row and (optionally) bottom row.
    shape : (int, int), default=(28, 28)
    labels : (str, str)
        Row titles.
    %(plot_path)s

    %(returns_figure)s
    """
    plt = pyplot(headless=path is not None)

    rows = [list(top)] + ([list(bottom)] if bottom is not None else [])
    ncol = max(len(r) for r in rows)
    fig, axes = plt.subplots(len(rows), ncol, figsize=(1.3 * ncol, 1.5 * len(rows)), squeeze=False)
    for i, row in enumerate(rows):
        for j in range(ncol):
            ax = axes[i][j]
            ax.set_xticks([])
            ax.set_yticks([])
            if j < len(row):
                ax.imshow(np.asarray(row[j], dtype=float).reshape(shape), cmap="gray")
                if i == 0:
                    ax.set_title(str(j), fontsize=9)
        axes[i][0].set_ylabel(labels[i], fontsize=9)
    fig.tight_layout()
    return save_figure(fig, path)


@fill_doc
def plot_pu_extra_trees_topk_curve(
    ks: Sequence[int],
    acc_risk_reduction: np.ndarray,
    acc_gini: np.ndarray,
    *,
    path: str | Path | None = None,
):
    """Accuracy against the number of top features (Appendix M), mean over runs with ±1 sd.

    Parameters
    ----------
    ks : sequence of int
        Numbers of features.
    acc_risk_reduction, acc_gini : arrays of shape (n_runs, len(ks))
        Accuracies when the features are ranked by risk-reduction or Gini importance.
    %(plot_path)s

    %(returns_figure)s
    """
    plt = pyplot(headless=path is not None)

    fig, ax = plt.subplots(figsize=(6, 4))
    for acc, label in ((acc_risk_reduction, "risk reduction"), (acc_gini, "Gini impurity")):
        acc = np.atleast_2d(np.asarray(acc, dtype=float))
        mean, sd = acc.mean(0), acc.std(0)
        ax.plot(ks, mean, marker="o", label=label)
        ax.fill_between(ks, mean - sd, mean + sd, alpha=0.2)
    ax.set_xlabel("number of top features")
    ax.set_ylabel("test accuracy (%)")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return save_figure(fig, path)
