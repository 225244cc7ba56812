"""The UFVS experiment's cells: one UFVS run per (dataset, mode, cut-off)."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from weakfs.experiments._registry import RunConfig
from weakfs.experiments.ufvs._protocol import (
    DATASETS,
    DISCRETE_DATASETS,
    DISCRETE_MAX_VALUES,
    DISCRETE_MODE,
    MODES,
)

__all__ = ["VERSION", "make_cells", "run_cell"]

#: raised whenever a change here alters a cell's result
VERSION = 1
FRACTIONS = [0, 0.001, 0.0025, 0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.25, 0.3,
             0.35, 0.4, 0.45, 0.5]  # fmt: skip
QUICK_FRACTIONS = [0, 0.01, 0.05, 0.2]


def make_cells(config: RunConfig) -> list[dict]:
    datasets = config.keep("datasets", DATASETS)
    modes = config.keep("methods", [*MODES, DISCRETE_MODE])
    fractions = QUICK_FRACTIONS if config.quick else FRACTIONS
    if "fractions" in config.options:
        fractions = [float(f) for f in str(config.options["fractions"]).split(",")]
    cells = []
    for d in datasets:
        for mode in modes:
            if mode == DISCRETE_MODE:
                # on ADA and HIVA, or on the datasets named
                if config.datasets is None and d not in DISCRETE_DATASETS:
                    continue
                keep = {"keep_discrete_up_to": DISCRETE_MAX_VALUES}
            else:
                keep = {}
            cells += [{"dataset": d, "mode": mode, "fraction": float(f), **keep} for f in fractions]
    return cells


def _binary_labels(name: str, y: pd.Series) -> np.ndarray:
    if name == "kddcup99_10pct":
        return (y.to_numpy() == "normal.").astype(int)  # the paper: normal vs anomalous
    return y.to_numpy()


@functools.lru_cache(maxsize=2)
def _prepared(dataset: str, mode: str, keep_discrete_up_to: int | None = None):
    """Encoded data of one dataset (kept per worker process: cells of a dataset reuse it)."""
    import scipy.sparse as sp

    from weakfs.datasets import load
    from weakfs.unsupervised import UFVSPath

    X, y = load(dataset)
    shape = X.shape
    runner = UFVSPath(
        X,
        _binary_labels(dataset, y),
        zero_as_absent=(mode == "zero_absent"),
        keep_discrete_up_to=keep_discrete_up_to,
    )
    return runner, shape, sp.issparse(X)


@functools.lru_cache(maxsize=4)
def _n_kept_columns(dataset: str, keep_discrete_up_to: int) -> int:
    """Columns with at most ``keep_discrete_up_to`` distinct values (0 counted as a value)."""
    from weakfs.datasets import load

    X, _ = load(dataset)
    if hasattr(X, "tocsc"):
        X = pd.DataFrame.sparse.from_spmatrix(X)
    return int((X.nunique() <= keep_discrete_up_to).sum())


def run_cell(cell: dict) -> dict:
    keep = cell.get("keep_discrete_up_to")
    runner, shape, sparse = _prepared(cell["dataset"], cell["mode"], keep)
    n = shape[0]
    count = int(np.floor(cell["fraction"] * n))
    row = runner.run(counts=[count]).iloc[0].to_dict()
    selected = row.pop("selected")
    row["selected_values"] = "; ".join(selected) if len(selected) <= 12 else ""
    row.update(
        {
            "n_rows": n,
            "n_features": shape[1],
            "sparse_input": bool(sparse),
            "encode_seconds": runner.encode_seconds,
        }
    )
    if keep is not None:
        row["n_unbinned_columns"] = _n_kept_columns(cell["dataset"], keep)
    return row
