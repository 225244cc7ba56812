"""The benchmark's cells: one (dataset, label regime, repetition) each.

A cell draws a train/test split, hides labels of the training rows as its regime says, runs
``compare_selectors`` on the training rows (every selector that reads those labels, within a time
budget, each at its automatic k), and then scores every selection with the truth: a logistic
regression fitted on the *true* labels of the training rows, restricted to the selected columns,
is scored on the test rows (ROC AUC and F1), so every selection is judged by what its columns
carry, whatever labels chose them.
"""

from __future__ import annotations

import functools
import time

import numpy as np
from scipy import sparse
from sklearn.metrics import f1_score, roc_auc_score
from sklearn.model_selection import train_test_split

from weakfs.compare import ALL_FEATURES, RANDOM, compare_selectors
from weakfs.datasets import load, make_informative_noise, make_pu_labels
from weakfs.experiments._registry import RunConfig
from weakfs.experiments.benchmark._protocol import DATASETS, MAX_ROWS, REGIMES, TEST_SIZE
from weakfs.feature_selection import default_model
from weakfs.metrics import feature_selection_recall

__all__ = ["VERSION", "make_cells", "run_cell"]

#: raised whenever a change here, or in compare_selectors, alters a cell's result (2: the board
#: with repeated folds, intervals, top group and recommendation, its flags recorded per row; 3:
#: compare's probes and its abstaining recommendation changed after the version-2 cells ran)
VERSION = 3
#: the unsupervised baseline of the no-label regime
VARIANCE = "variance (range-scaled)"


def make_cells(config: RunConfig) -> list[dict]:
    datasets = config.keep("datasets", list(DATASETS))
    regimes = config.keep("methods", list(REGIMES))
    budget = float(config.options.get("budget", 20 if config.quick else 60))
    runs = config.n_runs(1 if config.quick else 5)
    return [
        {"dataset": d, "regime": r, "seed": seed, "budget": budget}
        for seed in range(runs)
        for d in datasets
        for r in regimes
    ]


@functools.lru_cache(maxsize=4)
def _table(name: str):
    """``(X dense float, y 0/1, relevant columns or None)`` of a benchmark dataset."""
    source, positive = DATASETS[name]
    if source == "synth":
        if positive == "informative":
            X, y, relevant = make_informative_noise(
                2000, n_informative=5, n_redundant=5, n_noise=40, as_frame=False, random_state=7
            )
            return X, y, relevant
        rng = np.random.RandomState(7)  # a second-order task: the class is x0 * x1 > 0
        X = rng.normal(size=(2000, 30))
        y = (X[:, 0] * X[:, 1] > 0).astype(int)
        return X, y, np.array([0, 1])
    X, y = load(source)
    X = X.toarray() if sparse.issparse(X) else np.asarray(X, dtype=float)
    values = np.asarray(y)
    y01 = (values % 2 == 0) if positive == "even" else (values == positive)
    return np.asarray(X, dtype=float), y01.astype(int), None


def _weak_labels(kind: str, parameter, X, y, seed: int):
    if kind == "pu":
        return make_pu_labels(y, positive=1, labeled_fraction=parameter, random_state=seed).s
    if kind == "pu-biased":
        # the labeling probability grows with a positive's logistic score (not SCAR)
        pu = make_pu_labels(
            y, positive=1, labeled_fraction=parameter, mechanism="score", X=X, random_state=seed
        )
        return pu.s
    if kind == "semi":
        rng = np.random.RandomState(seed)
        labels = np.full(y.shape[0], -1)
        for c in (0, 1):  # a few labels per class: the share of the rows, at least 3 each
            rows = np.flatnonzero(y == c)
            take = max(3, round(parameter * rows.size))
            labels[rng.choice(rows, size=min(take, rows.size), replace=False)] = c
        return labels
    return None


def _truth_scores(X_tr, y_tr, X_te, y_te, cols) -> tuple[float, float]:
    """ROC AUC and F1 on the test rows of a model fitted on the true training labels."""
    if len(cols) == 0:
        return 0.5, 0.0
    model = default_model().fit(X_tr[:, cols], y_tr)
    proba = model.predict_proba(X_te[:, cols])[:, 1]
    return float(roc_auc_score(y_te, proba)), float(f1_score(y_te, proba >= 0.5))


def _ufvs_columns(X, seed: int) -> tuple[list[int], float]:
    """UFVS (no labels): the columns its selected values come from."""
    from weakfs.unsupervised import UFVSSelector

    start = time.perf_counter()
    sel = UFVSSelector().fit(X)
    columns = sorted({int(name[1:]) for name, _ in sel.selected_values_})  # names x0, x1, ...
    return columns, time.perf_counter() - start


def run_cell(cell: dict) -> dict:
    X, y, relevant = _table(cell["dataset"])
    seed = int(cell["seed"])
    rows = np.arange(X.shape[0])
    if rows.size > MAX_ROWS:  # a random subset per repetition, stratified on the truth
        rows, _ = train_test_split(rows, train_size=MAX_ROWS, stratify=y, random_state=seed)
    tr, te = train_test_split(rows, test_size=TEST_SIZE, stratify=y[rows], random_state=seed)
    keep = X[tr].std(axis=0) > 0  # constant training columns carry nothing
    Xs = X[:, keep]
    names = np.flatnonzero(keep)
    kind, parameter = REGIMES[cell["regime"]]
    weak = _weak_labels(kind, parameter, Xs[tr], y[tr], seed)
    out: dict = {"method": [], "k": [], "weak_score": [], "truth_auc": [], "truth_f1": []}
    out.update(k_rule=[], tied=[], recommended=[])
    out.update(random_auc=[], select_seconds=[], features=[], fsr=[], n_features=int(X.shape[1]))
    draws = np.random.RandomState(seed + 1000)

    def add(method, cols, weak_score, seconds, flags=("fixed", False, False)):
        auc, f1 = _truth_scores(Xs[tr], y[tr], Xs[te], y[te], cols)
        # random selection of the same number of columns, the fair reference of this selection
        same_size = [draws.choice(Xs.shape[1], size=len(cols), replace=False) for _ in range(5)]
        random_auc = np.mean(
            [_truth_scores(Xs[tr], y[tr], Xs[te], y[te], np.sort(c))[0] for c in same_size]
        )
        out["random_auc"].append(float(random_auc))
        original = [int(names[c]) for c in cols]
        out["method"].append(method)
        out["k"].append(len(cols))
        for key, flag in zip(("k_rule", "tied", "recommended"), flags):
            out[key].append(flag)
        out["weak_score"].append(float(weak_score))
        out["truth_auc"].append(auc)
        out["truth_f1"].append(f1)
        out["select_seconds"].append(float(seconds))
        out["features"].append(original)
        fsr = np.nan if relevant is None else feature_selection_recall(original, relevant)
        out["fsr"].append(float(fsr))

    if weak is None:
        cols, seconds = _ufvs_columns(Xs[tr], seed)
        add("ufvs", cols, np.nan, seconds)
        d, k = Xs.shape[1], max(1, len(cols))
        # the simplest unsupervised rule at UFVS's number of columns: the largest variances
        # of the standardised-by-range columns (so units do not decide)
        start = time.perf_counter()
        spread = (Xs[tr] / np.ptp(Xs[tr], axis=0)).var(axis=0)
        top = np.sort(np.argsort(-spread, kind="stable")[:k])
        add(VARIANCE, top, np.nan, time.perf_counter() - start)
        rng = np.random.RandomState(seed)
        add(RANDOM, np.sort(rng.choice(d, size=k, replace=False)), np.nan, 0.0)
        add(ALL_FEATURES, np.arange(d), np.nan, 0.0)
        out.update(notes="", prior=None)
        return out
    notes: list[str] = []
    board = compare_selectors(
        Xs[tr], weak, budget=cell["budget"], n_random=5, random_state=seed, notes=notes
    )
    index = {f"x{j}": j for j in range(Xs.shape[1])}
    for _, row in board[board["auto_k"] | (board["method"] == ALL_FEATURES)].iterrows():
        if row["method"] == RANDOM:
            rng = np.random.RandomState(seed)
            cols = np.sort(rng.choice(Xs.shape[1], size=int(row["k"]), replace=False))
        else:
            cols = np.array(sorted(index[f] for f in row["features"]), dtype=int)
        flags = (row["k_rule"], bool(row["tied"]), bool(row["recommended"]))
        add(row["method"], cols, row["score"], row["seconds"], flags)
    out["notes"] = "; ".join(notes)
    out["prior"] = board.attrs.get("prior")
    return out
