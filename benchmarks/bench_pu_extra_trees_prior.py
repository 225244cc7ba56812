"""How close ``estimate_class_prior`` (Elkan-Noto e1, SCAR) gets to the true class prior.

PU labels are drawn under SCAR with ``make_pu_labels`` on bundled data; the estimate is compared
with the true positive share of all rows (the ``unlabeled="all"`` convention).

Run:  python benchmarks/bench_pu_extra_trees_prior.py [--seeds 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from weakfs.datasets import load, make_pu_labels
from weakfs.pu import estimate_class_prior

CASES = {"spambase": 1, "mushrooms": 2, "ionosphere": "g"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--fractions", default="0.1,0.3,0.5")
    args = ap.parse_args()
    print(
        "| dataset | labeled share of positives | true prior | estimate mean (sd) | "
        "mean abs error | seconds per estimate |"
    )
    print("|---|---|---|---|---|---|")
    for name, pos in CASES.items():
        X, y = load(name)
        for frac in [float(f) for f in args.fractions.split(",")]:
            est, secs = [], []
            for seed in range(args.seeds):
                pu = make_pu_labels(y, positive=pos, labeled_fraction=frac, random_state=seed)
                t = time.perf_counter()
                est.append(estimate_class_prior(X, pu.s, random_state=seed))
                secs.append(time.perf_counter() - t)
            est = np.array(est)
            print(
                f"| {name} | {frac:.1f} | {pu.prior:.3f} | {est.mean():.3f} ({est.std(ddof=1):.3f})"
                f" | {np.abs(est - pu.prior).mean():.3f} | {np.mean(secs):.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
