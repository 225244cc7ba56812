"""What the FSCPU reports share: method labels, timing and runs tables, the protocol line."""

from __future__ import annotations

import pandas as pd

from weakfs.experiments._report import markdown_table

__all__ = ["LABEL", "protocol_line", "timing_table"]

LABEL = {
    "fscpu": "FSCPU",
    "fscpu-mi": "FSCPU-MI",
    "semi-jmi": "semi-JMI",
    "kbest": "K-Best",
    "lasso": "Lasso",
    "mrmr": "mRMR",
    "mrmr-raw": "mRMR (raw values)",
    "dt-rfe": "DT-RFE",
    "lgbm-opt": "LGBM-OPT",
    "sselect": "sSelect",
    "jsfs": "JSFS",
}


def timing_table(table: pd.DataFrame) -> str:
    t = table.groupby("method")["select_seconds"].agg(["mean", "max", "count"]).reset_index()
    t["method"] = [LABEL.get(m, m) for m in t["method"]]
    t.columns = ["method", "mean selection s", "max selection s", "cells"]
    return "Wall time of the feature selection per run (one process, 1 thread each):\n\n" + (
        markdown_table(t)
    )


def _runs_per_cell(table: pd.DataFrame) -> str:
    """The runs per cell: one number, or each method's runs where they differ (long runs accrue)."""
    column = "condition" if "condition" in table else "dataset"
    runs = table.groupby(["method", column])["seed"].nunique()
    n_columns = table[column].nunique()
    # one number only when every method also ran everywhere (else the gaps would go unsaid)
    if runs.nunique() == 1 and (runs.groupby(level="method").size() == n_columns).all():
        return f"{runs.iloc[0]} run(s) per cell"
    parts = []
    for method, counts in runs.groupby(level="method"):
        low, high = int(counts.min()), int(counts.max())
        text = f"{LABEL.get(method, method)} {low}" + (f"-{high}" if high > low else "")
        if len(counts) < n_columns:
            text += f" ({len(counts)} of {n_columns} {column}s run)"
        parts.append(text)
    return "run(s) per cell: " + ", ".join(parts)


def protocol_line(table: pd.DataFrame) -> str:
    first = table.iloc[0]
    ran_lgbm = "lgbm-opt" in set(table["method"])
    lgbm = f"LGBM-OPT n_iter={first['lgbm_opt_iter']}, " if ran_lgbm else ""
    return (
        f"Protocol settings of this run: {_runs_per_cell(table)} (paper: 5 for Table 1, 3 for "
        f"Table 3), FSCPU/FSCPU-MI n_iter={first['n_iter']}, "
        f"clustering={first['clustering']!r}, {lgbm}DT-RFE "
        f"step={first['rfe_step']}; paper: n_iter=3000, Gaussian mixture K=10, RFE step 1.  "
        "Baselines see the PU labels with unlabeled rows as negatives: K-Best = SelectKBest(chi2), "
        "Lasso(alpha=5e-5) ranked by |coef|, mRMR = MIQ on 5 equal-width bins (our "
        "implementation, not pymrmr), DT-RFE = RFE with a 100-tree random forest, semi-JMI = JMI "
        "on 5 equal-width bins; sSelect (lam=0.1, 5 neighbours) and JSFS (5 neighbours, "
        "gamma=1e-11, mu=9.95e-3) read the same 1/0 labels as two classes.  Not run: MRMR-UFS "
        "and ES-MCRFS, whose algorithms are described nowhere we could read beyond the FSCPU "
        "paper's paragraph (only their titles and abstracts are public), and we do not invent "
        "them.  See docs/fscpu.md and "
        "docs/fscpu_baselines.md for every deviation."
    )
