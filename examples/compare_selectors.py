"""
Choosing a selector with compare_selectors
==========================================

Which selector works on my data?  A leaderboard from the weak labels alone.

Spambase with 10 % of the spam rows labeled (the rest hidden): every PU selector of weakfs runs
at several k under PU-aware cross-validation, a logistic regression on the selected columns is
scored by the prior-corrected ROC AUC of the PU labels, and the leaderboard sets each selector
beside random selection and all features.  Because the labels were simulated here, the same
model is also scored against the hidden truth, to check the weak-label ranking.

Run:  ``python examples/compare_selectors.py [--quick] [--plot board.png]``
"""

from __future__ import annotations

import argparse
import os

from weakfs import compare_selectors
from weakfs.compare import leaderboard_summary, plot_leaderboard
from weakfs.datasets import load, make_pu_labels

#: the documentation build runs the examples without arguments, in their quick mode
QUICK = os.environ.get("WEAKFS_EXAMPLES_QUICK") == "1"


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--quick", action="store_true", default=QUICK, help="three selectors, three folds"
    )
    ap.add_argument("--plot", help="save the board's plot to this png")
    args = ap.parse_args(argv)

    X, y = load("spambase")  # bundled with weakfs
    pu = make_pu_labels(y, positive=1, labeled_fraction=0.1, random_state=0)
    board = compare_selectors(
        X,
        pu.s,
        y_true=pu.y_true,
        methods=["semi_jmi", "mrmr", "pu_extra_trees"] if args.quick else None,
        ks=[3, 10, 30] if args.quick else None,
        cv=3 if args.quick else 5,
        n_random=3 if args.quick else 10,
        budget=60 if args.quick else 300,
    )
    print("\n".join(board.attrs["notes"]))
    summary = leaderboard_summary(board)
    print(summary[["method", "k", "score", "truth", "stability"]].round(3).to_string(index=False))
    best = summary.iloc[0]
    first = ", ".join(best["features"][:5])
    print(f"best from the weak labels: {best['method']} with k={best['k']}: {first}")

    # left: each selector's weak-label score against k, beside random columns and all features;
    # right: the stability of each selector's selection across folds at its chosen k
    plot_leaderboard(board, path=args.plot)
    if args.plot:
        print(f"the board's plot saved to {args.plot}")


if __name__ == "__main__":
    main()
