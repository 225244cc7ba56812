"""The demo's cells: (dataset, method, seed) with k features by mutual information or at random."""

from __future__ import annotations

import time

import numpy as np
from sklearn.feature_selection import mutual_info_classif
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from weakfs.datasets import load, make_pu_labels
from weakfs.experiments._registry import RunConfig
from weakfs.experiments._runner import cell_grid

__all__ = ["VERSION", "make_cells", "run_cell"]

#: raised whenever a change here alters a cell's result
VERSION = 1
POSITIVE = {"ionosphere": "g", "spambase": 1}
METHODS = ["mutual_info", "random"]


def make_cells(config: RunConfig) -> list[dict]:
    datasets = config.keep("datasets", list(POSITIVE))
    methods = config.keep("methods", METHODS)
    k = int(config.options.get("k", 5))
    # a pause per cell (seconds), only to test stopping a run: cells without it keep their keys
    delay = float(config.options.get("delay", 0))
    extra = {"delay": delay} if delay > 0 else {}
    return cell_grid(config, 3, ("dataset", datasets), methods, k=k, **extra)


def run_cell(cell: dict) -> dict:
    time.sleep(cell.get("delay", 0))
    X, y = load(cell["dataset"])
    X = X.to_numpy(dtype=float)
    y_true = (y.to_numpy() == POSITIVE[cell["dataset"]]).astype(int)
    X_tr, X_te, y_tr, y_te = train_test_split(
        X, y_true, test_size=0.25, stratify=y_true, random_state=cell["seed"]
    )
    s = make_pu_labels(y_tr, positive=1, labeled_fraction=0.2, random_state=cell["seed"]).s
    rng = np.random.RandomState(cell["seed"])
    if cell["method"] == "mutual_info":
        scores = mutual_info_classif(X_tr, s, random_state=cell["seed"])
        chosen = np.argsort(-scores, kind="stable")[: cell["k"]]
    else:
        chosen = rng.choice(X.shape[1], size=cell["k"], replace=False)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    model.fit(X_tr[:, chosen], s)
    auc = roc_auc_score(y_te, model.predict_proba(X_te[:, chosen])[:, 1])
    return {"auc": float(auc), "n_labeled": int(s.sum())}
