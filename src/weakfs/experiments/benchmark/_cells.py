"""The benchmark's cells: one (dataset, label regime, repetition) each.

A cell draws a train/test split, hides labels of the training rows as its regime says, runs
``compare_selectors`` on the training rows (every selector that reads those labels, each at the
fixed numbers of features and at its automatic k, at settings fixed by the table's size), and
then scores every selection with the truth: two models fitted on the *true* labels of the
training rows, restricted to the selected columns (a logistic regression and extra trees), are
scored on the test rows (ROC AUC, and F1 of the logistic regression), so every selection is
judged by what its columns carry, whatever labels chose them.  Random columns of every size
judged are the reference of each selection.
"""

from __future__ import annotations

import functools
import json
import math
import time

import numpy as np
from scipy import sparse
from sklearn.ensemble import ExtraTreesClassifier
from sklearn.metrics import f1_score, roc_auc_score
from sklearn.model_selection import train_test_split
from threadpoolctl import threadpool_limits

from weakfs.compare import (
    ALL_FEATURES,
    METHODS,
    MIN_LABELED,
    RANDOM,
    compare_selectors,
    rarest_labeled_group,
)
from weakfs.datasets import load, make_informative_noise, make_pu_labels
from weakfs.experiments._registry import RunConfig
from weakfs.experiments.benchmark._protocol import (
    CANNOT_RUN,
    DATASETS,
    FIXED_KS,
    FSCPU_SEARCH_ROWS,
    FSCPU_SEARCH_ROWS_TABLES,
    MAX_ROWS,
    PU_REGIMES,
    REGIMES,
    TEST_SIZE,
    method_settings,
)
from weakfs.feature_selection import default_k_grid, default_model
from weakfs.metrics import feature_selection_recall

__all__ = [
    "PU_VERSION",
    "SEARCH_ROWS_VERSION",
    "VERSION",
    "cell_split",
    "cell_version",
    "make_cells",
    "run_cell",
    "training_rows",
]

#: raised whenever a change here, or in compare_selectors, alters a cell's result (2: the board
#: with repeated folds, intervals, top group and recommendation, its flags recorded per row; 3:
#: compare's probes and its abstaining recommendation changed; 4: no time budget, settings fixed
#: by the table's size, fixed k beside automatic k, a second judge, wide tables)
VERSION = 4
#: the version of the PU regimes' cells (5: the board's model on PU labels has its C chosen on
#: the weak labels; the semi-supervised and unlabeled cells are unchanged)
PU_VERSION = 5
# Not raised for the board's rule that keeps all features when a test fold holds fewer than five
# labeled rows even where the paired test finds it worse: it changes a cell only where its notes
# read "but all features scores below them" beside that reason; among the committed cells that
# was semi-supervised nci9, seed 1, alone, recomputed with the rule.  Nor for the rule that an
# abstaining board recommends all features even where it scores below the best (it used to
# recommend the top group's largest selection then): that changes a cell only where its notes
# read "but all features scores below them"; among the committed cells those were SCAR seed 1
# of synth-informative and synth-xor, SCAR seed 2 of DEXTER and semi-supervised ADA seed 4, all
# recomputed with the rule.
# Nor for ``fscpu_search_rows``, the benchmark's setting since all its cells were computed apart:
# a cell without it runs the settings it ran before (``--set fscpu_search_rows=None`` asks for
# those), and a cell with it has a key and a version of its own (SEARCH_ROWS_VERSION).
# Nor for cells that cannot run (fewer than two labeled positives): they used to raise and were
# never recorded, so no committed cell changes.
#: the version of the PU cells run with ``fscpu_search_rows`` (6: FSCPU-MI's search reads those
#: rows too; the first 20 such cells, OCCUPANCY's at version 5, had FSCPU's alone read them)
SEARCH_ROWS_VERSION = 6
#: the unsupervised baseline of the no-label regime
VARIANCE = "variance (range-scaled)"
#: random draws per size judged (the reference of every selection of that size)
RANDOM_DRAWS = 5


def cell_version(cell: dict) -> int:
    """The version of the code computing ``cell``: its regime's."""
    if "fscpu_search_rows" in cell:
        return SEARCH_ROWS_VERSION
    return PU_VERSION if cell["regime"] in PU_REGIMES else VERSION


def make_cells(config: RunConfig) -> list[dict]:
    datasets = config.keep("datasets", list(DATASETS))
    regimes = config.keep("methods", list(REGIMES))
    seeds = config.options.get("seeds")
    if seeds is None:
        seeds = range(config.n_runs(1 if config.quick else 5))
    elif isinstance(seeds, int):
        seeds = [seeds]
    if "fscpu_search_rows" in config.options:
        # None: the paper's search on every row, in every cell (the cells before the setting);
        # a number: only the cells it changes, the PU cells of the tables with more training rows
        search_rows = config.options["fscpu_search_rows"]
        searched: set = set()
        if search_rows is not None:
            if isinstance(search_rows, bool) or not isinstance(search_rows, int) or search_rows < 2:
                raise ValueError(
                    f"fscpu_search_rows must be an int of at least 2, got {search_rows!r}"
                )
            regimes = [r for r in regimes if r in PU_REGIMES]
            datasets = [d for d in datasets if training_rows(d) > search_rows]
            searched = set(datasets)
    else:  # the benchmark's setting (docs/benchmark.md, "FSCPU's search on 1,500 rows")
        search_rows, searched = FSCPU_SEARCH_ROWS, set(FSCPU_SEARCH_ROWS_TABLES)
    return [
        {
            "dataset": d,
            "regime": r,
            "seed": int(seed),
            **({"fscpu_search_rows": search_rows} if d in searched and r in PU_REGIMES else {}),
        }
        for seed in seeds
        for d in datasets
        for r in regimes
    ]


def training_rows(dataset: str) -> int:
    """The training rows of every cell of ``dataset`` (its rows capped at ``MAX_ROWS``, less the
    test share, as ``train_test_split`` rounds)."""
    n_rows = min(_table(dataset)[0].shape[0], MAX_ROWS)
    return n_rows - math.ceil(TEST_SIZE * n_rows)


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


class _Judges:
    """The truth's two judges on one split: a logistic regression (ROC AUC and F1) and extra
    trees (ROC AUC), each fitted on the true training labels of a selection's columns."""

    def __init__(self, X_tr, y_tr, X_te, y_te, seed: int):
        self.X_tr, self.y_tr, self.X_te, self.y_te, self.seed = X_tr, y_tr, X_te, y_te, seed

    def __call__(self, cols) -> tuple[float, float, float]:
        """``(AUC of the logistic regression, its F1, AUC of the extra trees)``."""
        if len(cols) == 0:
            return 0.5, 0.0, 0.5
        A, B = self.X_tr[:, cols], self.X_te[:, cols]
        proba = default_model().fit(A, self.y_tr).predict_proba(B)[:, 1]
        trees = ExtraTreesClassifier(n_estimators=100, n_jobs=1, random_state=self.seed)
        tree_proba = trees.fit(A, self.y_tr).predict_proba(B)[:, 1]
        return (
            float(roc_auc_score(self.y_te, proba)),
            float(f1_score(self.y_te, proba >= 0.5)),
            float(roc_auc_score(self.y_te, tree_proba)),
        )


def _ufvs_columns(X) -> tuple[list[int], float]:
    """UFVS (no labels): the columns its selected values come from."""
    from weakfs.unsupervised import UFVSSelector

    start = time.perf_counter()
    sel = UFVSSelector().fit(X)
    columns = sorted({int(name[1:]) for name, _ in sel.selected_values_})  # names x0, x1, ...
    return columns, time.perf_counter() - start


def _board_kind(regime: str) -> str:
    """How the board reads a regime's weak labels: "pu" (biased labeling too) or "semi"."""
    return "semi" if REGIMES[regime][0] == "semi" else "pu"


def board_ks(d: int) -> list[int]:
    """The numbers of features the board runs: the fixed ones below ``d``, and on a table with
    fewer than three of them compare's default grid too (its automatic k picks among these)."""
    fixed = [k for k in FIXED_KS if k < d]
    if len(fixed) >= 3:
        return fixed
    return sorted(set(fixed) | set(default_k_grid(d, 8)) - {d}) or [1]


def run_cell(cell: dict) -> dict:
    with threadpool_limits(1):  # one core per cell: the same numbers on any machine and load
        return _run_cell(cell)


def cell_split(dataset: str, regime: str, seed: int) -> tuple:
    """A cell's data: ``(X, y, columns, train rows, test rows, weak labels of the train rows)``.

    Rows are subsampled (at most ``MAX_ROWS``, stratified on the truth) and split per
    repetition; ``X`` keeps only the columns not constant on the training rows, whose indices in
    the table are ``columns``.  The scripts in ``benchmarks/`` that study one cell use this too.
    """
    X, y, _ = _table(dataset)
    rows = np.arange(X.shape[0])
    if rows.size > MAX_ROWS:  # a random subset per repetition, stratified on the truth
        rows, _ = train_test_split(rows, train_size=MAX_ROWS, stratify=y, random_state=seed)
    tr, te = train_test_split(rows, test_size=TEST_SIZE, stratify=y[rows], random_state=seed)
    keep = X[tr].std(axis=0) > 0  # constant training columns carry nothing
    Xs = X[:, keep]
    kind, parameter = REGIMES[regime]
    weak = _weak_labels(kind, parameter, Xs[tr], y[tr], seed)
    return Xs, y, np.flatnonzero(keep), tr, te, weak


def _run_cell(cell: dict) -> dict:
    X, _, relevant = _table(cell["dataset"])  # cached: the table's width, its relevant columns
    seed = int(cell["seed"])
    Xs, y, names, tr, te, weak = cell_split(cell["dataset"], cell["regime"], seed)
    d = Xs.shape[1]
    judge = _Judges(Xs[tr], y[tr], Xs[te], y[te], seed)
    keys = ("method", "k", "k_rule", "weak_score", "truth_auc", "truth_f1", "truth_auc_trees")
    keys += ("tied", "recommended", "select_seconds", "features", "fsr")
    out: dict = {key: [] for key in keys}
    out["n_features"] = int(X.shape[1])
    random_of_size: dict[int, tuple[float, float]] = {}
    draws = np.random.RandomState(seed + 1000)

    def random_reference(k: int) -> tuple[float, float]:
        """Mean truth AUCs (both judges) of random columns of size k, drawn once per size."""
        if k not in random_of_size:
            scores = [judge(np.sort(draws.choice(d, size=k, replace=False))) for _ in range(5)]
            random_of_size[k] = (
                float(np.mean([s[0] for s in scores])),
                float(np.mean([s[2] for s in scores])),
            )
        return random_of_size[k]

    def add(method, cols, weak_score, seconds, k_rule, tied=False, recommended=False):
        auc, f1, auc_trees = judge(cols)
        original = [int(names[c]) for c in cols]
        values = (method, len(cols), k_rule, float(weak_score), auc, f1, auc_trees)
        values += (bool(tied), bool(recommended), float(seconds), original)
        fsr = np.nan if relevant is None else feature_selection_recall(original, relevant)
        values += (float(fsr),)
        for key, value in zip(keys, values):
            out[key].append(value)

    if weak is None:
        cols, seconds = _ufvs_columns(Xs[tr])
        add("ufvs", cols, np.nan, seconds, "auto")
        # the simplest unsupervised rule: the largest variances of the columns scaled by their
        # range (so units do not decide), at UFVS's number of columns and at the fixed ks
        start = time.perf_counter()
        spread = (Xs[tr] / np.ptp(Xs[tr], axis=0)).var(axis=0)
        order = np.argsort(-spread, kind="stable")
        seconds = time.perf_counter() - start
        add(VARIANCE, np.sort(order[: max(1, len(cols))]), np.nan, seconds, "auto")
        for k in [k for k in FIXED_KS if k < d]:
            add(VARIANCE, np.sort(order[:k]), np.nan, seconds, "fixed")
        add(ALL_FEATURES, np.arange(d), np.nan, 0.0, "fixed")
        settings: dict = {}
        out.update(notes="", prior=None)
    elif (n_labeled := rarest_labeled_group(weak, _board_kind(cell["regime"]))) < MIN_LABELED:
        # a regime's share of a handful of training positives: nothing to compare selectors on
        # (the board raises); recorded, so the grid knows the cell is final, with no rows
        settings = {}
        out.update(
            notes=f"{CANNOT_RUN}: {n_labeled} labeled training row(s) in the rarest labeled "
            f"group, the board needs at least {MIN_LABELED} (two folds)",
            prior=None,
        )
    else:
        n_train = len(tr)
        ks = board_ks(d)
        settings = method_settings(n_train, d, ks, cell.get("fscpu_search_rows"))
        board = compare_selectors(
            Xs[tr],
            weak,
            ks=ks,
            budget=None,
            settings=settings,
            n_random=5,
            random_state=seed,
        )
        notes = board.attrs["notes"]
        settings = board.attrs["settings"]
        index = {f"x{j}": j for j in range(d)}
        fixed_ks = set(FIXED_KS)
        for _, row in board.iterrows():
            if row["method"] == RANDOM:
                continue
            cols = np.array(sorted(index[f] for f in row["features"]), dtype=int)
            flags = (bool(row["tied"]), bool(row["recommended"]))
            if row["method"] == ALL_FEATURES:
                add(ALL_FEATURES, cols, row["score"], row["seconds"], "fixed", *flags)
                continue
            if row["k_rule"] == "auto":
                add(row["method"], cols, row["score"], row["seconds"], "auto", *flags)
            # also the fixed row of the same k (SEW-IL chooses its own number: no fixed k)
            if int(row["k"]) in fixed_ks and METHODS[row["method"]].k_param is not None:
                fold_cols = np.array(sorted(index[f] for f in row["features_in_folds"]), dtype=int)
                add(row["method"], fold_cols, row["score"], row["seconds"], "fixed", *flags)
        out["notes"] = "; ".join(notes)
        out["prior"] = board.attrs.get("prior")
    out["random_auc"] = [random_reference(k)[0] for k in out["k"]]
    out["random_auc_trees"] = [random_reference(k)[1] for k in out["k"]]
    out["settings"] = json.dumps(settings, sort_keys=True)
    return out
