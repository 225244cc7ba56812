"""The FSCPU benchmark sample's cells: one FSCPU fit on a benchmark cell's split, judged."""

from __future__ import annotations

import time

import numpy as np
from sklearn.preprocessing import MinMaxScaler
from threadpoolctl import threadpool_limits

from weakfs.experiments._registry import RunConfig
from weakfs.experiments.benchmark._cells import _Judges, cell_split
from weakfs.experiments.benchmark._protocol import method_settings
from weakfs.experiments.fscpu_benchmark_sample._protocol import DATASETS, METHODS, REGIME, K
from weakfs.pu import FSCPUSelector

__all__ = ["VERSION", "make_cells", "run_cell"]

VERSION = 1


def make_cells(config: RunConfig) -> list[dict]:
    datasets = config.keep("datasets", DATASETS)
    methods = config.keep("methods", list(METHODS))
    runs = config.n_runs(1 if config.quick else 3)
    return [
        {"dataset": d, "method": m, "seed": seed, "quick": bool(config.quick)}
        for seed in range(runs)
        for d in datasets
        for m in methods
    ]


def run_cell(cell: dict) -> dict:
    with threadpool_limits(1):  # one core per cell, as the benchmark's cells
        return _run_cell(cell)


def _run_cell(cell: dict) -> dict:
    seed = int(cell["seed"])
    Xs, y, _, tr, te, weak = cell_split(cell["dataset"], REGIME, seed)
    scaler = MinMaxScaler().fit(Xs[tr])
    X_tr, X_te = scaler.transform(Xs[tr]), scaler.transform(Xs[te])
    d = Xs.shape[1]
    setting = method_settings(len(tr), d, [K])["fscpu"]
    n_iter, eta = setting["n_iter"][K], setting["eta"][K]
    if cell["quick"]:
        n_iter, eta = 10, None
    objective, options = METHODS[cell["method"]]
    sel = FSCPUSelector(
        K, n_iter=n_iter, eta=eta, objective=objective, random_state=seed, verbose=False, **options
    )
    start = time.perf_counter()
    sel.fit(X_tr, weak)
    seconds = time.perf_counter() - start
    cols = np.flatnonzero(sel.get_support())
    auc, _, auc_trees = _Judges(X_tr, y[tr], X_te, y[te], seed)(cols)
    return {
        "n_iter": int(n_iter),
        "n_train": len(tr),
        "n_features": int(d),
        "truth_auc": auc,
        "truth_auc_trees": auc_trees,
        "select_seconds": seconds,
        "em_iterations_mean": float(sel.em_iterations_.mean()),
        "em_at_cap_share": float(1.0 - sel.em_converged_.mean()),
        "features": cols.tolist(),
    }
