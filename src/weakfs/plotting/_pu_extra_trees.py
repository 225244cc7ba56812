"""Plots of PU Extra Trees: the MNIST importance images (paper Figure 2) and the top-k accuracy
curves of Appendix M.  matplotlib is imported inside the functions."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from weakfs._docstrings import fill_doc
from weakfs._words import counted
from weakfs.plotting._common import pyplot, save_figure

__all__ = ["plot_pu_extra_trees_importance_images", "plot_pu_extra_trees_topk_curve"]


@fill_doc
def plot_pu_extra_trees_importance_images(
    top: Sequence[np.ndarray],
    bottom: Sequence[np.ndarray] | None = None,
    *,
    image_shape: tuple[int, int] | None = None,
    labels: tuple[str, str] = ("PU ET", "PN ET"),
    path: str | Path | None = None,
    shape: tuple[int, int] | None = None,
):
    """Draw importance vectors as images (one column per vector; lighter = more important).

    Parameters
    ----------
    top, bottom : sequences of arrays or fitted estimators
        One image per vector (or per estimator's ``feature_importances_``), top row and
        (optionally) bottom row; a single array or estimator is one image.
    image_shape : (int, int), optional
        ``(height, width)`` of the images, with ``height * width`` equal to the number of
        features; by default the square root when the number of features is a square.
    labels : (str, str)
        Row titles.
    shape : (int, int), optional
        Former name of ``image_shape``.
    %(plot_path)s

    %(returns_figure)s
    """
    plt = pyplot(headless=path is not None)

    rows = [_importance_vectors(top)]
    if bottom is not None:
        rows.append(_importance_vectors(bottom))
    n_features = rows[0][0].shape[0]
    image_shape = _image_shape(n_features, image_shape if image_shape is not None else shape)
    ncol = max(len(r) for r in rows)
    cell = 1.3 if ncol > 3 else 2.6  # one or a few images are drawn larger
    fig, axes = plt.subplots(
        len(rows), ncol, figsize=(cell * ncol, (cell + 0.2) * len(rows)), squeeze=False
    )
    for i, row in enumerate(rows):
        for j in range(ncol):
            ax = axes[i][j]
            ax.set_xticks([])
            ax.set_yticks([])
            if j < len(row):
                if row[j].shape[0] != n_features:
                    raise ValueError(
                        f"every importance vector must have {n_features} entries; image {j} "
                        f"has {row[j].shape[0]}"
                    )
                ax.imshow(row[j].reshape(image_shape), cmap="gray")
                if i == 0:
                    ax.set_title(str(j), fontsize=9)
        axes[i][0].set_ylabel(labels[i], fontsize=9)
    fig.tight_layout()
    return save_figure(fig, path)


def _importance_vectors(images) -> list[np.ndarray]:
    """A list of 1-D float vectors from arrays, fitted estimators, or one of either."""
    if hasattr(images, "feature_importances_") or (
        isinstance(images, np.ndarray) and images.ndim == 1
    ):
        images = [images]
    vectors = [np.asarray(getattr(v, "feature_importances_", v), dtype=float) for v in images]
    if not vectors or any(v.ndim != 1 for v in vectors):
        raise ValueError("give one or more 1-D importance vectors (or fitted estimators)")
    return vectors


def _image_shape(n_features: int, image_shape) -> tuple[int, int]:
    if image_shape is None:
        side = round(float(np.sqrt(n_features)))
        if side * side != n_features:
            raise ValueError(
                f"{counted(n_features, 'feature')} are not a square image: pass "
                "image_shape=(height, width)"
            )
        return side, side
    height, width = (int(v) for v in image_shape)
    if height * width != n_features:
        raise ValueError(
            f"image_shape={tuple(image_shape)} holds {height * width} pixels but the importance "
            f"vectors have {n_features} entries"
        )
    return height, width


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
