"""
Semi-supervised selection of image pixels with SEW-IL
=====================================================

Semi-supervised feature selection on images: a handful of labels among many images.

COIL-20 (20 objects photographed from 72 angles, 32 x 32 grey pixels) with 10 % of the images
labeled.  SEW-IL self-labels the rest with a random forest, models the pseudo-label errors
with a C-bound, and searches pixel subsets with a genetic algorithm.  The selected pixels are
drawn as an image and judged, with the hidden labels, by a forest trained on the labeled images
only, against all pixels and against as many random pixels.

Run:  ``python examples/semi_supervised_images.py [--quick] [--plot pixels.png]``
(needs the staged COIL20 file)
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from sklearn.ensemble import RandomForestClassifier

from weakfs.datasets import load
from weakfs.semi_supervised import SEWILSelector

#: the documentation build runs the examples without arguments, in their quick mode
QUICK = os.environ.get("WEAKFS_EXAMPLES_QUICK") == "1"


def accuracy_on_unlabeled(X, y, labeled, columns) -> float:
    forest = RandomForestClassifier(n_estimators=200, random_state=0, n_jobs=1)
    forest.fit(X[labeled][:, columns], y[labeled])
    return float((forest.predict(X[~labeled][:, columns]) == y[~labeled]).mean())


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--quick", action="store_true", default=QUICK, help="16 x 16 images, a short search"
    )
    ap.add_argument("--plot", help="save the selected pixels as an image (png)")
    args = ap.parse_args(argv)

    X, y = load("COIL20")
    side = 32
    X, y = X.to_numpy(np.float64), np.asarray(y)
    if args.quick:  # every other pixel: 16 x 16 images, and half the images
        X = X.reshape(-1, 32, 32)[:, ::2, ::2].reshape(-1, 256)[::2]
        y = y[::2]
        side = 16
    rng = np.random.RandomState(0)
    labeled = np.zeros(y.shape[0], dtype=bool)
    for c in np.unique(y):  # 10 % of each object's images are labeled
        rows = np.flatnonzero(y == c)
        labeled[rng.choice(rows, max(2, round(0.1 * rows.size)), replace=False)] = True
    y_semi = np.where(labeled, y, -1)
    print(f"{X.shape[0]} images of {X.shape[1]} pixels, {labeled.sum()} labeled")

    t0 = time.perf_counter()
    sewil = SEWILSelector(
        n_estimators=20 if args.quick else 50,
        n_generations=3 if args.quick else 20,
        population_size=10 if args.quick else 40,
        n_parents=4 if args.quick else 16,
        random_state=0,
    ).fit(X, y_semi)
    columns = np.flatnonzero(sewil.get_support())
    print(f"SEW-IL kept {columns.size} of {X.shape[1]} pixels in {time.perf_counter() - t0:.0f} s")
    pseudo = sewil.pseudo_labels_[~labeled]
    done = pseudo != -1
    print(
        f"self-learning pseudo-labeled {done.mean():.0%} of the unlabeled images, "
        f"{(pseudo[done] == y[~labeled][done]).mean():.0%} of them correctly"
    )

    # judged with the hidden labels: a forest trained on the labeled images only
    all_acc = accuracy_on_unlabeled(X, y, labeled, np.arange(X.shape[1]))
    sel_acc = accuracy_on_unlabeled(X, y, labeled, columns)
    rand_acc = accuracy_on_unlabeled(
        X, y, labeled, rng.choice(X.shape[1], columns.size, replace=False)
    )
    print(
        f"accuracy on the unlabeled images: SEW-IL pixels {sel_acc:.3f}, all pixels "
        f"{all_acc:.3f}, {columns.size} random pixels {rand_acc:.3f}"
    )

    # the figure is always drawn (the documentation shows it), and saved with --plot
    from weakfs.plotting import plot_pu_extra_trees_importance_images

    share = sewil.vote_share_ if sewil.vote_share_ is not None else sewil.support_
    plot_pu_extra_trees_importance_images(
        [np.asarray(share, dtype=float)],
        image_shape=(side, side),
        labels=("SEW-IL", ""),
        path=args.plot,
    )
    if args.plot:
        print(f"selected pixels (share of the final population) saved to {args.plot}")


if __name__ == "__main__":
    main()
