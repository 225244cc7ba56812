"""The PU Extra Trees experiment's cells: the data of each dataset, the tree baselines, and one
fit per (part, dataset, method, seed)."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pandas as pd
from sklearn.ensemble import ExtraTreesClassifier
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import OrdinalEncoder

from weakfs.datasets import load, make_pu_labels
from weakfs.experiments._registry import RunConfig
from weakfs.experiments.pu_extra_trees._protocol import (
    ABLATION_DATASETS,
    ABLATION_METHODS,
    APPENDIX_M_K,
    BAG_TREES,
    DATASETS,
    EXTRA,
    METHODS,
    PU_METHODS,
    U_SETS,
)
from weakfs.pu import PUExtraTreesClassifier

__all__ = ["VERSION", "make_cells", "naive_pu_et", "run_cell"]

#: raised whenever a change here alters a cell's result
VERSION = 1


# ------------------------------------------------------------------------------------------ data
def _ordinal(X: pd.DataFrame, columns) -> pd.DataFrame:
    X = X.copy()
    X[list(columns)] = OrdinalEncoder().fit_transform(X[list(columns)].astype(str))
    return X


@lru_cache(maxsize=2)
def _dataset(name: str):
    """(X float32, y 1 = positive, predefined split or None)."""
    split = None
    if name == "mushrooms":
        X, y = load("mushrooms")
        y = (y.to_numpy() == 2).astype(np.int8)  # edible, the most prominent class (4208)
    elif name == "mnist":
        X, y = load("mnist_test10k")
        y = (y.to_numpy() % 2 == 0).astype(np.int8)  # even vs odd
    elif name == "unsw_nb15":
        X, y = load("unsw_nb15_82332")
        X = _ordinal(X, ["proto", "service", "state"])
        y = (y.to_numpy() == 1).astype(np.int8)  # attacks are P
    elif name == "kddcup99":
        X, y = load("kddcup99_10pct")
        X = _ordinal(X, ["protocol_type", "service", "flag"])
        y = (y.to_numpy() != "normal.").astype(np.int8)  # attacks are P
    elif name == "pendigits":
        X, y, split = load("pendigits", return_split=True)
        y = (y.to_numpy() % 2 == 0).astype(np.int8)  # even vs odd
        split = split.to_numpy()
    else:
        raise ValueError(f"unknown dataset {name!r}")
    return np.ascontiguousarray(X.to_numpy(dtype=np.float32)), y, split


def _split(name: str, seed: int):
    X, y, split = _dataset(name)
    if split is not None:
        tr, te = split == "train", split == "test"
        return X[tr], X[te], y[tr], y[te]
    return train_test_split(X, y, test_size=0.2, random_state=seed)


def _pu(y_tr, n_labeled: int, seed: int):
    k = min(n_labeled, int(y_tr.sum()))
    return make_pu_labels(y_tr, positive=1, n_labeled=k, random_state=seed)


# --------------------------------------------------------------------------------------- methods
def _n_features(d: int) -> int:
    return math.ceil(math.sqrt(d))


def _u_rows(s, u_with_p: bool) -> np.ndarray:
    """The rows of U: the whole training split (the paper's P/U sets: the labeled rows appear
    once with each label) or only its unlabeled rows."""
    return np.arange(s.shape[0]) if u_with_p else np.flatnonzero(s == 0)


def naive_pu_et(X_tr, s, n_estimators: int, seed: int, *, u_with_p: bool = True):
    """NaivePUET: ExtraTrees on P (label 1) against U (label 0); U = the whole training split
    (``u_with_p``, the paper's P/U sets) or its unlabeled rows only."""
    U = X_tr[_u_rows(s, u_with_p)]
    Xa = np.vstack([X_tr[s == 1], U])
    ya = np.r_[np.ones(int(s.sum())), np.zeros(U.shape[0])]
    et = ExtraTreesClassifier(
        n_estimators, max_features=_n_features(X_tr.shape[1]), random_state=seed
    )
    return et.fit(Xa, ya)


class _Bagging:
    """PUBaggingET (Mordelet & Vert 2014 with an ExtraTrees base): ``n_bags`` times, an ExtraTrees
    on all of P (label 1) against a bootstrap sample of U (label 0) of the size of U
    (``bag_size="U"``; U = the whole training split unless ``u_with_p`` is false) or of P
    (``bag_size="P"``); the forest probabilities are averaged over bags."""

    def __init__(
        self,
        n_bags: int,
        trees_per_bag: int,
        seed: int,
        *,
        u_with_p: bool = True,
        bag_size: str = "U",
    ):
        self.n_bags, self.trees_per_bag, self.seed = n_bags, trees_per_bag, seed
        self.u_with_p, self.bag_size = u_with_p, bag_size

    def fit(self, X_tr, s):
        rng = np.random.RandomState(self.seed)
        P = X_tr[s == 1]
        u_rows = _u_rows(s, self.u_with_p)
        size = u_rows.shape[0] if self.bag_size == "U" else P.shape[0]
        self.models_ = []
        for _ in range(self.n_bags):
            idx = u_rows[rng.randint(0, u_rows.shape[0], size=size)]
            Xa = np.vstack([P, X_tr[idx]])
            ya = np.r_[np.ones(P.shape[0]), np.zeros(idx.shape[0])]
            et = ExtraTreesClassifier(
                self.trees_per_bag,
                max_features=_n_features(X_tr.shape[1]),
                random_state=rng.randint(2**31 - 1),
            )
            self.models_.append(et.fit(Xa, ya))
        return self

    def predict(self, X):
        p = np.mean([m.predict_proba(X)[:, 1] for m in self.models_], axis=0)
        return (p > 0.5).astype(int)


def _fit_method(method, X_tr, y_tr, s, prior, n_estimators, seed):
    if method in PU_METHODS:
        risk, loss = method.split("-")
        clf = PUExtraTreesClassifier(
            n_estimators, risk=risk, loss=loss, prior=prior, random_state=seed
        )
        return clf.fit(X_tr, s)
    if method == "SupervisedET":
        clf = PUExtraTreesClassifier(n_estimators, risk="PN", loss="quadratic", random_state=seed)
        return clf.fit(X_tr, y_tr)
    if method == "NaivePUET":
        return naive_pu_et(X_tr, s, n_estimators, seed)
    if method == "PUBaggingET":
        return _Bagging(10, max(1, n_estimators // 10), seed).fit(X_tr, s)
    if method.startswith("NaivePUET-"):  # the ablation: NaivePUET-<u>
        u = method.split("-")[1]
        return naive_pu_et(X_tr, s, n_estimators, seed, u_with_p=U_SETS[u])
    if method.startswith("PUBaggingET-"):  # the ablation: PUBaggingET-<u>-<size>-<trees>
        _, u, size, trees = method.split("-")
        n_bags, per_bag = BAG_TREES[trees]
        bagging = _Bagging(n_bags, per_bag, seed, u_with_p=U_SETS[u], bag_size=size[3:])
        return bagging.fit(X_tr, s)
    raise ValueError(f"unknown method {method!r}")


# ----------------------------------------------------------------------------------------- cells
def make_cells(config: RunConfig) -> list[dict]:
    datasets = config.keep("datasets", DATASETS)
    methods = config.keep("methods", METHODS + ABLATION_METHODS)
    quick = config.quick
    n_est = int(config.options.get("n_estimators", 10 if quick else 100))
    n_lab = int(config.options.get("n_labeled", 1000))
    runs = config.n_runs(1 if quick else 5)
    big_runs = int(config.options.get("kdd_runs", runs))
    cells = []
    for d in datasets:
        for m in methods:
            if m in EXTRA or (m in ABLATION_METHODS and d not in ABLATION_DATASETS):
                continue
            for seed in range(big_runs if d == "kddcup99" else runs):
                cells.append(
                    {
                        "part": "table",
                        "dataset": d,
                        "method": m,
                        "seed": seed,
                        "n_estimators": n_est,
                        "n_labeled": n_lab,
                    }
                )
    if "appendix-m" in methods and "unsw_nb15" in datasets:
        m_runs = int(config.options.get("appendix_m_runs", runs))
        ks = [1, 5, 42] if quick else APPENDIX_M_K
        for seed in range(m_runs):
            cells.append(
                {
                    "part": "appendix-m",
                    "dataset": "unsw_nb15",
                    "method": "appendix-m",
                    "seed": seed,
                    "n_estimators": n_est,
                    "n_labeled": n_lab,
                    "ks": ks,
                }
            )
    if "figure-2" in methods and "mnist" in datasets:
        for digit in range(2 if quick else 10):
            for model in ("PU", "PN"):
                cells.append(
                    {
                        "part": "figure-2",
                        "dataset": "mnist",
                        "method": f"figure-2-{model}",
                        "seed": digit,
                        "digit": digit,
                        "n_estimators": n_est,
                    }
                )
    return cells


def run_cell(cell: dict) -> dict:
    if cell["part"] == "table":
        return _run_table(cell)
    if cell["part"] == "appendix-m":
        return _run_appendix_m(cell)
    return _run_figure2(cell)


def _run_table(cell):
    seed = cell["seed"]
    X_tr, X_te, y_tr, y_te = _split(cell["dataset"], seed)
    pu = _pu(y_tr, cell["n_labeled"], seed)
    prior = float(y_tr.mean())
    model = _fit_method(cell["method"], X_tr, y_tr, pu.s, prior, cell["n_estimators"], seed)
    pred = np.asarray(model.predict(X_te)).astype(int)
    out = {
        "accuracy": 100 * accuracy_score(y_te, pred),
        "f1": 100 * f1_score(y_te, pred, zero_division=0),
        "n_train": int(X_tr.shape[0]),
        "n_labeled": int(pu.s.sum()),
        "prior": prior,
    }
    if isinstance(model, PUExtraTreesClassifier):
        out["mean_leaves"] = float(model.get_n_leaves().mean())
    return out


def _run_appendix_m(cell):
    seed, n_est = cell["seed"], cell["n_estimators"]
    X_tr, X_te, y_tr, y_te = _split("unsw_nb15", seed)
    pu = _pu(y_tr, cell["n_labeled"], seed)
    prior = float(y_tr.mean())
    full = PUExtraTreesClassifier(n_est, prior=prior, random_state=seed).fit(X_tr, pu.s)
    gini = naive_pu_et(X_tr, pu.s, n_est, seed).feature_importances_
    rankings = {
        "risk_reduction": np.argsort(-full.feature_importances_, kind="stable"),
        "gini": np.argsort(-gini, kind="stable"),
    }
    out = {}
    for name, order in rankings.items():
        accs = []
        for k in cell["ks"]:
            cols = np.sort(order[:k])
            clf = PUExtraTreesClassifier(
                n_est, max_features=_n_features(k), prior=prior, random_state=seed
            ).fit(X_tr[:, cols], pu.s)
            accs.append(100 * accuracy_score(y_te, clf.predict(X_te[:, cols])))
        out[f"acc_{name}"] = accs
        out[f"order_{name}"] = order.tolist()
    return out


def _run_figure2(cell):
    X, y_digit = load("mnist_test10k")
    X = X.to_numpy(dtype=np.float32)
    y = (y_digit.to_numpy() == cell["digit"]).astype(np.int8)
    n_est = cell["n_estimators"]
    if cell["method"].endswith("PU"):
        # half of the digit's rows labeled (the set has ~1000 per digit), U = all rows
        pu = make_pu_labels(y, positive=1, labeled_fraction=0.5, random_state=cell["digit"])
        clf = PUExtraTreesClassifier(n_est, prior=float(y.mean()), random_state=cell["digit"])
        clf.fit(X, pu.s)
    else:
        clf = PUExtraTreesClassifier(n_est, risk="PN", random_state=cell["digit"]).fit(X, y)
    return {
        "importance": clf.feature_importances_.tolist(),
        "importance_normalized": clf.risk_reduction_importances(True).tolist(),
    }
