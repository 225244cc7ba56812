"""
Estimating the class prior from PU labels
=========================================

Every PU method needs the class prior, the share of positives among all rows, and PU labels do
not give it.  ``estimate_class_prior`` estimates it from the labeled positives and the
unlabeled rows, with a bootstrap interval.  Here Spambase's spam rows are labeled at several
fractions (under SCAR: every spam message equally likely to be labeled) and once by a biased
mechanism (the easier positives more likely to be labeled), and each estimate, with its 90 %
interval, is drawn beside the true prior, which the simulation knows.

Run:  ``python examples/class_prior.py [--quick] [--plot prior.png]``
"""

from __future__ import annotations

import argparse
import os

import matplotlib.pyplot as plt

from weakfs.datasets import load, make_pu_labels
from weakfs.pu import estimate_class_prior

#: the documentation build runs the examples without arguments, in their quick mode
QUICK = os.environ.get("WEAKFS_EXAMPLES_QUICK") == "1"


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--quick", action="store_true", default=QUICK, help="1500 rows, 20 bootstrap resamples"
    )
    ap.add_argument("--plot", help="save the estimates' plot to this png")
    args = ap.parse_args(argv)

    X, y = load("spambase")  # bundled with weakfs
    if args.quick:
        rows = X.sample(1500, random_state=0).index
        X, y = X.loc[rows], y.loc[rows]

    settings = [("scar", 0.1), ("scar", 0.3), ("scar", 0.5), ("score", 0.3)]
    names, estimates = [], []
    for mechanism, fraction in settings:
        pu = make_pu_labels(
            y,
            positive=1,
            labeled_fraction=fraction,
            mechanism=mechanism,
            X=X,  # the biased mechanism reads the features
            random_state=0,
        )
        estimate = estimate_class_prior(
            X,
            pu.s,
            return_interval=True,
            n_bootstrap=20 if args.quick else 100,
            random_state=0,
        )
        names.append(f"{mechanism}, {fraction:.0%} labeled")
        estimates.append(estimate)
        print(
            f"{names[-1]:>18s}: estimated prior {estimate.prior:.3f} "
            f"(90 % interval {estimate.low:.3f}-{estimate.high:.3f}), true prior {pu.prior:.3f}"
        )

    # each estimate with its interval; the dashed line is the truth the labels do not show
    fig, ax = plt.subplots(figsize=(6.5, 3.5))
    for i, e in enumerate(estimates):
        ax.errorbar(e.prior, i, xerr=[[e.prior - e.low], [e.high - e.prior]], fmt="o", capsize=4)
    ax.axvline(pu.prior, color="black", ls="--", label=f"true prior {pu.prior:.3f}")
    ax.set_yticks(range(len(names)), names)
    ax.invert_yaxis()
    ax.set_xlabel("class prior (share of spam among all rows)")
    ax.set_title("estimate_class_prior: estimate and 90 % bootstrap interval")
    ax.legend(loc="lower right")
    fig.tight_layout()
    if args.plot:
        fig.savefig(args.plot, dpi=120)
        print(f"the estimates' plot saved to {args.plot}")


if __name__ == "__main__":
    main()
