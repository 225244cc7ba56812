"""The binary tasks of the GKF-PUAL paper's Table 1 as far as the staged data allows, and its
§4.1-4.2 preprocessing and PU split."""

from __future__ import annotations

import numpy as np
import pandas as pd

from weakfs.datasets import load
from weakfs.experiments.gkf_pual._protocol import DATASETS

__all__ = ["build_task", "make_split"]


def _draw(rng: np.random.RandomState, y: np.ndarray, counts: dict) -> np.ndarray:
    """Row indices of ``counts[c]`` rows of each class ``c`` (all its rows when it has fewer),
    drawn without replacement class after class in the order given."""
    parts = []
    for label, k in counts.items():
        rows = np.flatnonzero(y == label)
        parts.append(rng.choice(rows, size=min(k, rows.size), replace=False))
    return np.concatenate(parts)


def build_task(name: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``(X, y)`` of one Table-1 task (y = 1 positive class, 0 negative), unscaled."""
    rng = np.random.RandomState(seed)
    if name == "OD":
        X, y, split = load("occupancy", return_split=True)
        tr = (split == "train").to_numpy()
        X, y = X.to_numpy(float)[tr], y.to_numpy()[tr]
        idx = _draw(rng, y, {1: 100, 0: 300})
        return X[idx], (y[idx] == 1).astype(int)
    if name == "OR1":
        X, y = load("online_retail_sample40k")
        keep = (X["Quantity"] > 0).to_numpy() & y.isin(["United Kingdom", "Germany"]).to_numpy()
        X, y = X[keep], y[keep].to_numpy()
        when = pd.to_datetime(X["InvoiceDate"])
        F = np.column_stack(
            [
                X["Quantity"].to_numpy(float),
                X["UnitPrice"].to_numpy(float),
                (when.dt.hour + when.dt.minute / 60.0).to_numpy(float),
                when.dt.dayofweek.to_numpy(float),
            ]
        )
        idx = _draw(rng, y, {"United Kingdom": 301, "Germany": 301})
        return F[idx], (y[idx] == "United Kingdom").astype(int)
    if name == "UMD":
        X, y, split = load("user_knowledge", return_split=True)
        keep = ((split == "train") & y.isin(["Low", "High"])).to_numpy()
        return X.to_numpy(float)[keep], (y.to_numpy()[keep] == "Low").astype(int)
    if name == "Acc":
        X, y = load("accelerometer")
        X, y = X.to_numpy(float), y.to_numpy()
        idx = _draw(rng, y, {1: 100, 2: 100})
        return X[idx], (y[idx] == 1).astype(int)
    if name == "Ecoli":
        X, y = load("ecoli")
        X = X.drop(columns=["chg"]).to_numpy(float)
        y = y.to_numpy()
        keep = np.isin(y, ["im", "imU", "imS", "imL", "pp", "cp", "om", "omL"])
        return X[keep], np.isin(y[keep], ["im", "imU", "imS", "imL", "pp"]).astype(int)
    if name == "ENB":
        X, _ = load("energy_efficiency")
        keep = X["X8"].isin([2, 3]).to_numpy()
        return X.drop(columns=["X8"]).to_numpy(float)[keep], (X["X8"].to_numpy()[keep] == 2).astype(
            int
        )
    if name == "HD":
        X, y = load("heart_statlog")
        return X.to_numpy(float), (y.to_numpy() == 1).astype(int)
    if name == "Pen":
        X, y = load("pendigits")
        X, y = X.to_numpy(float), y.to_numpy()
        idx = _draw(rng, y, {1: 200, 8: 200, 4: 400})
        return X[idx], np.isin(y[idx], [1, 8]).astype(int)
    if name == "LD":
        X, y = load("liver_bupa")
        return X.to_numpy(float), (y.to_numpy() == 1).astype(int)
    if name == "SSMCR":
        X, y = load("sepsis_study")
        return X.to_numpy(float)[:500], (y.to_numpy()[:500] == 1).astype(int)
    if name == "Seeds":
        X, y = load("seeds")
        keep = np.isin(y.to_numpy(), [1, 2])
        return X.to_numpy(float)[keep], (y.to_numpy()[keep] == 1).astype(int)
    if name == "RD":
        X, y = load("raisin")
        return X.to_numpy(float), (y.to_numpy() == "Kecimen").astype(int)
    raise KeyError(f"unknown task {name!r}; known: {DATASETS}")


def make_split(name: str, gamma: float, seed: int):
    """The paper's §4.1–4.2 preprocessing and PU split. Returns a dict of arrays."""
    X, y = build_task(name, seed)
    rng = np.random.RandomState(10_000 + seed)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    d = X.shape[1]
    X = np.concatenate([X, rng.normal(size=(X.shape[0], 2 * d))], axis=1)
    gamma_prime = 0.7 * gamma / (1.0 - 0.3 * gamma)
    pos = np.flatnonzero(y == 1)
    labeled = rng.choice(pos, size=round(gamma_prime * pos.size), replace=False)
    unl = np.setdiff1d(np.arange(y.size), labeled)
    unl = rng.permutation(unl)
    n_tr_u = round(0.7 * unl.size)
    train = np.r_[labeled, unl[:n_tr_u]]
    test = unl[n_tr_u:]
    s = np.r_[np.ones(labeled.size, int), np.zeros(n_tr_u, int)]
    return {
        "X_train": X[train],
        "s_train": s,
        "y_train": y[train],
        "X_test": X[test],
        "y_test": y[test],
        "n_relevant": d,
    }
