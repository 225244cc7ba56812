"""
Tuning a PU pipeline with PU-only scores
========================================

Tuning a PU pipeline: grid search over a selector and a PU classifier with PU-only scores.

scikit-learn's ``GridSearchCV`` scores a model against the ``y`` it is given; with PU labels
that would reward separating labeled from unlabeled rows.  ``make_pu_scorer`` turns the PU
labels and the class prior into an estimate of the ROC AUC of positives against negatives
(under SCAR), and ``PUStratifiedKFold`` spreads the labeled positives evenly over the folds.

Run:  ``python examples/tune_pu_pipeline.py [--quick] [--plot grid.png]``
"""

from __future__ import annotations

import argparse
import os

import pandas as pd
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.pipeline import Pipeline

from weakfs.datasets import load, make_pu_labels
from weakfs.model_selection import PUStratifiedKFold, make_pu_scorer
from weakfs.pu import MRMRSelector, PUExtraTreesClassifier, estimate_class_prior

#: the documentation build runs the examples without arguments, in their quick mode
QUICK = os.environ.get("WEAKFS_EXAMPLES_QUICK") == "1"


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--quick", action="store_true", default=QUICK, help="small data and a small grid"
    )
    ap.add_argument("--plot", help="save the grid's scores to this png")
    args = ap.parse_args(argv)

    X, y = load("spambase")  # bundled with weakfs
    if args.quick:
        rows = X.sample(1500, random_state=1).index
        X, y = X.loc[rows], y.loc[rows]
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.3, stratify=y, random_state=0
    )
    pu = make_pu_labels(y_train, positive=1, labeled_fraction=0.5, random_state=0)
    prior = estimate_class_prior(X_train, pu.s, random_state=0)
    print(f"{pu.summary()}\nestimated prior {prior:.3f}")

    pipe = Pipeline(
        [
            ("select", MRMRSelector()),
            ("clf", PUExtraTreesClassifier(n_estimators=30, prior=prior, random_state=0)),
        ]
    )
    grid = {
        "select__n_features_to_select": [5, 15] if args.quick else [5, 10, 20, 40],
        "clf__min_samples_leaf": [1, 10] if args.quick else [1, 5, 20],
    }
    search = GridSearchCV(
        pipe,
        grid,
        scoring={
            "auc": make_pu_scorer("roc_auc", prior=prior),
            "f1": make_pu_scorer("f1", prior=prior),
        },
        refit="auc",
        cv=PUStratifiedKFold(4, shuffle=True, random_state=0),
    ).fit(X_train, pu.s)

    table = pd.DataFrame(search.cv_results_)[
        ["params", "mean_test_auc", "std_test_auc", "mean_test_f1"]
    ].sort_values("mean_test_auc", ascending=False)
    with pd.option_context("display.width", 120, "display.max_colwidth", 70):
        print(table.to_string(index=False))
    best = search.best_estimator_
    true_auc = roc_auc_score(y_test, best.predict_proba(X_test)[:, 1])
    print(f"best {search.best_params_}: PU-corrected CV AUC {search.best_score_:.3f}")
    print(f"test AUC of the refitted pipeline on the hidden labels: {true_auc:.3f}")
    print("selected:", ", ".join(best[:-1].get_feature_names_out()))

    # the grid's PU-corrected AUC, one line per leaf size, against the number of features
    import matplotlib.pyplot as plt

    results = pd.DataFrame(search.cv_results_)
    fig, ax = plt.subplots(figsize=(6, 4))
    for leaf, rows in results.groupby("param_clf__min_samples_leaf"):
        ax.errorbar(
            rows["param_select__n_features_to_select"].astype(int),
            rows["mean_test_auc"],
            yerr=rows["std_test_auc"],
            marker="o",
            capsize=3,
            label=f"min_samples_leaf={leaf}",
        )
    ax.set_xlabel("features selected by mRMR")
    ax.set_ylabel("PU-corrected CV ROC AUC")
    ax.set_title("Grid search scored from the PU labels alone")
    ax.legend()
    fig.tight_layout()
    if args.plot:
        fig.savefig(args.plot, dpi=120)
        print(f"the grid's scores saved to {args.plot}")


if __name__ == "__main__":
    main()
