"""
Selection without labels on sparse text with UFVS
=================================================

Unsupervised selection of feature values on sparse text (no labels at all).

BASEHOCK (20 Newsgroups, baseball vs hockey) as a bag of term counts, a scipy sparse matrix.
UFVS picks the feature *values* (term counts, binned; zeros count as absent) of lowest entropy
that still cover every document, without a label, in about a second.  The hidden newsgroup label
then shows what that coverage criterion keeps: a logistic regression on the selected values is
compared with the presence of as many randomly drawn terms.  On this corpus the random terms
predict the topic better: UFVS keeps rare, specific values that together describe every
document, which summarises the data rather than any one label.

Run:  ``python examples/ufvs_sparse_text.py [--quick] [--plot values.png]``
(needs the staged BASEHOCK file)
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score

from weakfs.datasets import load
from weakfs.unsupervised import UFVSSelector

#: the documentation build runs the examples without arguments, in their quick mode
QUICK = os.environ.get("WEAKFS_EXAMPLES_QUICK") == "1"


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--quick", action="store_true", default=QUICK, help="the first 1500 columns only"
    )
    ap.add_argument("--plot", help="save the selected values' plot to this png")
    args = ap.parse_args(argv)

    X, y = load("BASEHOCK")  # sparse CSR term counts; y kept aside for the check only
    if args.quick:
        X = X[:, :1500]
    print(f"{X.shape[0]} documents x {X.shape[1]} terms, {X.nnz} non-zeros (sparse)")

    t0 = time.perf_counter()
    ufvs = UFVSSelector().fit(X)  # sparse: zeros are "absent", only present terms are candidates
    seconds = time.perf_counter() - t0
    print(
        f"UFVS: {len(ufvs.selected_values_)} values of "
        f"{len({c for c, _ in ufvs.selected_values_})} terms selected "
        f"from {ufvs.n_candidate_values_} candidates in {seconds * 1000:.0f} ms; "
        f"{ufvs.n_uncoverable_rows_} documents cannot be covered"
    )
    print("first values:", ", ".join(f"{c}={v}" for c, v in ufvs.selected_values_[:8]))

    # the check the user cannot do without labels: do the chosen terms carry the topic?
    indicators = ufvs.transform(X)  # one 0/1 column per selected value
    m = indicators.shape[1]
    clf = LogisticRegression(max_iter=2000)
    acc = cross_val_score(clf, indicators, y, cv=5).mean()
    rng = np.random.RandomState(0)
    present = (X > 0).astype(np.float64).tocsc()
    random_acc = np.mean(
        [
            cross_val_score(clf, present[:, rng.choice(X.shape[1], m, False)], y, cv=5).mean()
            for _ in range(3)
        ]
    )
    print(
        f"5-fold accuracy of the hidden label from the {m} UFVS values: {acc:.3f} "
        f"(presence of {m} random terms: {random_acc:.3f})"
    )

    # the selected values first (UFVS selects for coverage), then the others by entropy
    from weakfs.plotting import plot_feature_scores

    plot_feature_scores(
        ufvs, top=20, title="UFVS on BASEHOCK: selected term values", path=args.plot
    )
    if args.plot:
        print(f"the selected values' plot saved to {args.plot}")


if __name__ == "__main__":
    main()
