"""The SEW-IL experiment's cells: the splits of the paper's Table 1, one selector per (dataset,
method, split), self-learning on the selected features, and Table 2's criteria."""

from __future__ import annotations

import time
import warnings

import numpy as np
from scipy import sparse
from sklearn.model_selection import train_test_split

from weakfs.datasets import load
from weakfs.experiments._registry import RunConfig
from weakfs.experiments.sewil._protocol import (
    BINARISED,
    COTFSS_DATASETS,
    CRITERIA_ORDER,
    EXTRA_METHODS,
    METHODS,
    SPLITS,
)

__all__ = ["VERSION", "load_split", "make_cells", "run_cell"]


def _version(cell: dict) -> int:
    """2: weakfs's forest, FSGA's elite, back-filling and child length as the authors' code,
    MNIST/Fashion binarised; CoT-FSS 3: its start comes from the labeled rows, at most k
    features; criteria 3: their self-learning uses weakfs's forest too (it used
    scikit-learn's)."""
    return 3 if cell.get("method") in ("cotfss", "criteria") else 2


#: raised whenever a change here alters a cell's result (a function of the cell)
VERSION = _version


def _tables(config: RunConfig) -> list[str]:
    raw = config.options.get("tables", "t2,t3,t4")
    return [t.strip() for t in str(raw).split(",") if t.strip()]


def make_cells(config: RunConfig) -> list[dict]:
    datasets = config.keep("datasets", list(SPLITS))
    methods = config.keep("methods", METHODS + EXTRA_METHODS) if config.methods else METHODS
    tables = _tables(config)
    runs = config.n_runs(20)
    opts = {
        "n_jobs": int(config.options.get("n_jobs", 1)),
        "n_estimators": int(config.options.get("n_estimators", 200)),
    }
    if config.quick:
        opts["n_estimators"] = min(opts["n_estimators"], 20)
    # split-major order, cheap methods and SEW-IL first, Table 2 (40 SLA runs per split) last:
    # an interrupted run still has complete splits of the main tables (finished cells are cached)
    order = ["fsga", "rlsr", "sfs", "ssls", "fss", "cga", "cotfss", "criteria", *EXTRA_METHODS]
    # --set runs_by_method=rlsr:20,sfs:20 gives some methods their own number of splits
    per_method = {}
    for item in str(config.options.get("runs_by_method", "")).split(","):
        if item.strip():
            name, _, n = item.partition(":")
            per_method[name.strip()] = int(n)
    cells = []
    for seed in range(max([runs, *per_method.values()])):
        for m in [m for m in order if m in methods and seed < per_method.get(m, runs)]:
            for ds in datasets:
                if m == "criteria" and "t2" not in tables:
                    continue
                if m in ("fss", "cga", *EXTRA_METHODS) and "t3" not in tables:
                    continue
                if m == "fsga" and not {"t3", "t4"} & set(tables):
                    continue
                if m in ("rlsr", "sfs", "ssls", "cotfss") and "t4" not in tables:
                    continue
                if m == "cotfss" and ds not in COTFSS_DATASETS:
                    continue
                cells.append(
                    {"dataset": ds, "method": m, "seed": seed, "quick": config.quick, **opts}
                )
    return cells


def load_split(dataset: str, seed: int, *, binarise: bool = True):
    """``X_train, y_semi, y_train_true, X_test, y_test`` (classes encoded 0..K-1) for one split;
    MNIST and Fashion pixels binarised unless ``binarise=False``."""
    name, n_l, n_u, n_t = SPLITS[dataset]
    X, y = load(name)
    if sparse.issparse(X):
        X = X.toarray()
    else:
        X = X.to_numpy(dtype=float)
        if np.isnan(X).any():  # mice_protein: column means (the paper does not say)
            X = np.where(np.isnan(X), np.nanmean(X, axis=0), X)
    X = np.asarray(X, dtype=np.float32)
    if binarise and dataset in BINARISED:  # as the authors' code does: a pixel is on or off
        X = (X > 0).astype(np.float32)
    _, y = np.unique(np.asarray(y), return_inverse=True)
    idx = np.arange(X.shape[0])
    if n_l + n_u + n_t < X.shape[0]:  # MNIST/Fashion: a subset as in the paper
        idx, _ = train_test_split(idx, train_size=n_l + n_u + n_t, stratify=y, random_state=seed)
    tr, te = train_test_split(idx, test_size=n_t, stratify=y[idx], random_state=seed)
    lab, unl = train_test_split(tr, train_size=n_l, stratify=y[tr], random_state=seed)
    tr = np.concatenate([lab, unl])
    y_semi = y[tr].copy()
    y_semi[n_l:] = -1
    return X[tr], y_semi, y[tr], X[te], y[te]


def _evaluate(X, y_semi, y_true, X_te, y_te, support, seed, n_estimators, n_jobs):
    from weakfs.semi_supervised import SelfLearningClassifier

    cols = np.flatnonzero(support)
    sla = SelfLearningClassifier(n_estimators=n_estimators, random_state=seed, n_jobs=n_jobs)
    sla.fit(X[:, cols], y_semi)
    unl = y_semi == -1
    acc_u = float(np.mean(sla.predict(X[unl][:, cols]) == y_true[unl]))
    acc_t = float(np.mean(sla.predict(X_te[:, cols]) == y_te))
    return acc_u, acc_t


def _criteria_cell(X, y_semi, y_true, X_te, y_te, seed, n_estimators, n_jobs, quick):
    """Table 2: 40 random subsets, each criterion's pick, and the ground truth (best ACC-U)."""
    from joblib import Parallel, delayed

    from weakfs.semi_supervised import ForestSubsetObjective, get_criterion, make_forest, self_learn

    d = X.shape[1]
    rng = np.random.RandomState(seed)
    n_sub = 10 if quick else 40
    n0 = int(np.floor(np.sqrt(d)))
    masks = np.zeros((n_sub, d), dtype=bool)
    for r in range(n_sub):
        masks[r, rng.choice(d, n0, replace=False)] = True
    lab = y_semi >= 0
    codes = y_semi.astype(np.intp)
    sla = self_learn(
        X,
        codes,
        make_estimator=lambda: make_forest("weakfs", n_estimators, seed, n_jobs),
    )
    c = sla["y_codes"]
    train = c >= 0
    # one forest per subset gives the evidence for all four criteria (same seed as SEW-IL's)
    subsets = ForestSubsetObjective(
        X[train], c[train], lab[train], X_unlabeled=X[~lab], n_estimators=n_estimators, seed=seed
    )
    crits = [get_criterion(name) for name in CRITERIA_ORDER]

    def score_all(mask):
        evidence = subsets.evidence(mask)
        return [float(cr(evidence)) for cr in crits]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        values = np.array(
            Parallel(n_jobs=n_jobs, prefer="threads")(delayed(score_all)(m) for m in masks)
        )
    out = {name: int(np.argmin(values[:, j])) for j, name in enumerate(CRITERIA_ORDER)}
    accs = [
        _evaluate(X, y_semi, y_true, X_te, y_te, m, seed, n_estimators, n_jobs)[0] for m in masks
    ]
    res = {"gt_acc_u": float(np.max(accs))}
    for name, i in out.items():
        res[f"{name}_acc_u"] = float(accs[i])
    res["n_features"] = n0
    return res


def run_cell(cell: dict) -> dict:
    from weakfs.semi_supervised import (
        CoTFSSSelector,
        RLSRSelector,
        SemiFisherSelector,
        SEWILSelector,
        SSLSSelector,
    )

    X, y_semi, y_true, X_te, y_te = load_split(cell["dataset"], cell["seed"])
    seed, n_est, n_jobs = cell["seed"], cell["n_estimators"], cell["n_jobs"]
    method = cell["method"]
    t0, cpu0 = time.perf_counter(), time.process_time()
    if method == "criteria":
        res = _criteria_cell(X, y_semi, y_true, X_te, y_te, seed, n_est, n_jobs, cell["quick"])
        res["select_seconds"] = time.perf_counter() - t0
        res["select_cpu_seconds"] = time.process_time() - cpu0
        return res
    quick_ga = {"n_generations": 3, "population_size": 12, "n_parents": 4} if cell["quick"] else {}
    if method in ("fsga", "cga", "fss", *EXTRA_METHODS):
        sel = SEWILSelector(
            criterion="cbil",
            search="fsga" if method in EXTRA_METHODS else method,
            length_mutation=method == "fsga_lenmut",
            final="best" if method == "fsga_best" else "vote",
            n_estimators=n_est,
            random_state=seed,
            n_jobs=n_jobs,
            **quick_ga,
        )
    elif method == "rlsr":
        sel = RLSRSelector()
    elif method == "sfs":
        sel = SemiFisherSelector()
    elif method == "ssls":
        sel = SSLSSelector()
    elif method == "cotfss":
        sel = CoTFSSSelector(random_state=seed, n_jobs=n_jobs)
    else:
        raise ValueError(f"unknown method {method!r}")
    sel.fit(X, y_semi)
    select_seconds = time.perf_counter() - t0
    # CPU time of all threads: CPU / n_jobs is the wall time the selection needs on idle cores
    select_cpu_seconds = time.process_time() - cpu0
    support = sel.get_support()
    acc_u, acc_t = _evaluate(X, y_semi, y_true, X_te, y_te, support, seed, n_est, n_jobs)
    out = {
        "acc_u": acc_u,
        "acc_t": acc_t,
        "n_features": int(support.sum()),
        "select_seconds": select_seconds,
        "select_cpu_seconds": select_cpu_seconds,
    }
    if method in ("fsga", "cga", *EXTRA_METHODS):
        # best criterion value per generation, for the history figure
        out["history"] = ";".join(f"{-v:.6g}" for v in sel.history_["best_fitness"])
        out["n_evaluations"] = int(sel.n_evaluations_)
    return out
