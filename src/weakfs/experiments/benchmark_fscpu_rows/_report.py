"""The benchmark-fscpu-rows1500 report: the rows of FSCPU and FSCPU-MI with their search on 1,500
rows against the committed benchmark's, table by table, with each one's own seed-to-seed spread
as the yardstick."""

from __future__ import annotations

import numpy as np
import pandas as pd

from weakfs.experiments._registry import ReportContext
from weakfs.experiments._report import markdown_table
from weakfs.experiments.benchmark_fscpu_rows._protocol import PU_REGIMES, TABLES

__all__ = ["JUDGES", "changed_recommendations", "per_table", "write_report"]

#: the benchmark's judges of the truth, by their column
JUDGES = {"truth_auc": "logistic regression", "truth_auc_trees": "extra trees"}
#: the methods the option changes, by their names in the report
SEARCHED = {"fscpu": "FSCPU", "fscpu_mi": "FSCPU-MI"}
CELL = ["dataset", "regime", "seed"]


def _pooled_sd(rows: pd.DataFrame, column: str) -> float:
    """The seed-to-seed sd of one board row (regime, a fixed k or the automatic k), pooled over
    those rows (each weighted by its seeds minus one); NaN with no row of two seeds."""
    groups = rows.groupby(["regime", "k_rule", "slot"])[column]
    dof, var = groups.count() - 1, groups.var(ddof=1)
    keep = dof > 0
    return float(np.sqrt((var[keep] * dof[keep]).sum() / dof[keep].sum())) if keep.any() else np.nan


def per_table(table: pd.DataFrame, judge: str = "truth_auc", method: str = "fscpu") -> pd.DataFrame:
    """Per table: ``method``'s mean truth AUC on each side over its rows, the mean paired
    difference, and its verdict against the paper's side's pooled seed-to-seed sd (*within*,
    *above*, *below*)."""
    rows = []
    fscpu = table[table["method"] == method]
    for name in TABLES:
        mine = fscpu[fscpu["dataset"] == name]
        if mine.empty:
            continue
        paper, option = mine[f"{judge}_paper"], mine[f"{judge}_option"]
        diff = float((option - paper).mean())
        sd = _pooled_sd(mine, f"{judge}_paper")
        verdict = "–" if np.isnan(sd) else "within" if abs(diff) <= sd else "above"
        if verdict == "above" and diff < 0:
            verdict = "below"
        rows.append(
            {
                "table": name,
                "cells": mine[CELL].drop_duplicates().shape[0],
                "rows changed": f"{int((option != paper).sum())} of {len(mine)}",
                "paper's search": f"{paper.mean():.3f}",
                "option": f"{option.mean():.3f}",
                "paired difference": f"{diff:+.4f}",
                "sd (seed to seed)": "–" if np.isnan(sd) else f"{sd:.4f}",  # one seed per row
                "verdict": verdict,
            }
        )
    return pd.DataFrame(rows)


def changed_recommendations(table: pd.DataFrame) -> pd.DataFrame:
    """The cells whose recommended rows differ between the sides, with both."""

    def chosen(rows: pd.DataFrame, side: str) -> str:
        picked = rows[rows[f"recommended_{side}"].astype(bool)]
        columns = ["method", f"k_{side}", "k_rule"]
        return ", ".join(f"{m} (k = {k}, {rule})" for m, k, rule in picked[columns].values)

    out = []
    for cell, rows in table.groupby(CELL, sort=False):
        paper, option = chosen(rows, "paper"), chosen(rows, "option")
        if paper != option:
            out.append(dict(zip(CELL, cell)) | {"paper's search": paper, "option": option})
    return pd.DataFrame(out, columns=[*CELL, "paper's search", "option"])


def write_report(table: pd.DataFrame, ctx: ReportContext) -> str:
    cells = table[CELL].drop_duplicates()
    n_expected = len(TABLES) * len(PU_REGIMES) * 5
    others = table[~table["method"].isin(list(SEARCHED))]
    same = (others["truth_auc_paper"] == others["truth_auc_option"]) & (
        others["truth_auc_trees_paper"] == others["truth_auc_trees_option"]
    )
    per_dataset = cells.groupby("dataset", sort=False).size()
    lines = [
        "The benchmark's PU cells of the eight tables with more than 1,500 training rows, run "
        "with the searches of FSCPU and FSCPU-MI on 1,500 rows (`--set fscpu_search_rows=1500`: "
        "every labeled row kept, their iterations planned for 1,500 rows), against the "
        "committed cells run with the paper's search on every row.  A cell of each side has the "
        "same split, PU labels, folds and seeds, so only the rows of FSCPU and FSCPU-MI may "
        "differ, and the board's flags that read them.  *within*: a method's mean paired "
        "difference in truth AUC on that table is at most the paper's search's seed-to-seed sd "
        "there (per board row, pooled).",
        "",
        f"Cells paired: {len(cells)} of {n_expected}"
        + (" (" + ", ".join(f"{t} {n}" for t, n in per_dataset.items()) + ")" if len(cells) else "")
        + ".",
        "",
        f"Every other method's rows: {int(same.sum())} of {len(others)} identical on both sides "
        "(truth AUC by both judges).",
        "",
    ]
    for method, shown in SEARCHED.items():
        for judge, name in JUDGES.items():
            lines += [f"## {shown}'s truth AUC by the {name}", ""]
            verdicts = per_table(table, judge, method)
            lines += [markdown_table(verdicts) if len(verdicts) else "No cell paired yet.", ""]
    changed = changed_recommendations(table)
    searched = table[table["method"].isin(list(SEARCHED))]
    tied = searched[searched["tied_paper"] != searched["tied_option"]]
    lines += [
        "## The board",
        "",
        f"The recommendation differs in {len(changed)} of {len(cells)} cells; rows of FSCPU or "
        f"FSCPU-MI enter or leave the top group in {tied[CELL].drop_duplicates().shape[0]} cells "
        f"({len(tied)} rows).",
        "",
    ]
    if len(changed):
        lines += [markdown_table(changed), ""]
    return "\n".join(lines)
