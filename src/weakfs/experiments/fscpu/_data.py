"""The open data of the FSCPU paper's Table 3, built and split as its §6.2.1 describes."""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import MinMaxScaler

from weakfs.datasets import load, make_pu_labels
from weakfs.experiments.fscpu._protocol import LABELED_RATE, RT_IOT_IDENTIFIERS

__all__ = ["load_table3", "spambase_split", "table3_split"]


def load_table3(name: str) -> tuple[np.ndarray, np.ndarray]:
    """Features and binary truth as the paper's §6.2.1 builds them."""
    X, y = load(name)
    if name == "spambase":
        return X.to_numpy(dtype=float), (y.to_numpy() == 1).astype(int)
    if name == "ionosphere":
        return X.to_numpy(dtype=float), (y.to_numpy() == "b").astype(int)  # "bad" = positive
    if name == "rt_iot2022":
        keep = (y != "DOS_SYN_Hping").to_numpy()
        # the two port numbers identify connections, they do not measure them: with a few
        # dozen labels a model memorises ports that do not carry over to the test split
        num = X.loc[keep].select_dtypes("number").drop(columns=list(RT_IOT_IDENTIFIERS))
        yy = y[keep].to_numpy()
        return num.to_numpy(dtype=float), np.isin(yy, ["NMAP_TCP_scan", "DDOS_Slowloris"]).astype(
            int
        )
    raise ValueError(f"unknown Table-3 dataset {name!r}")


def table3_split(name: str, seed: int):
    """A Table-3 split: ``(X_train, PU labels, X_test, y_test)``.

    As the counts of the paper's Table 2 imply: 75/25 stratified on the true class (the test
    part holds ``floor(P / 4)`` of the ``P`` positives: 453, 31, 384), min-max scaled on the
    training part, and ``floor(rate x training positives)`` positives labeled (40, 9, 23).
    """
    X, y = load_table3(name)
    test_pos = int(y.sum()) // 4
    test_size = test_pos + (len(y) - int(y.sum())) // 4
    X_tr, X_te, y_tr, y_te = train_test_split(
        X, y, test_size=test_size, stratify=y, random_state=seed
    )
    scaler = MinMaxScaler().fit(X_tr)
    n_labeled = int(np.floor(LABELED_RATE[name] * int(y_tr.sum())))
    s = make_pu_labels(y_tr, positive=1, n_labeled=n_labeled, random_state=seed).s
    return scaler.transform(X_tr), s, np.clip(scaler.transform(X_te), 0, None), y_te


def spambase_split(seed: int = 0):
    """Spambase as in Table 3: (X_train scaled, PU labels, X_test scaled, y_test)."""
    return table3_split("spambase", seed)
