"""One row per (cell, method, fixed k or automatic k) that both the committed benchmark and the
option's cells hold: the row's k, truth AUCs and board flags on each side."""

from __future__ import annotations

import pandas as pd

from weakfs.experiments.benchmark_fscpu_rows._protocol import PU_REGIMES, SIDES, TABLES

__all__ = ["COLUMNS", "KEY", "records"]

#: a row of the board within a cell: a method's row at a fixed k, or its automatic-k row
#: (``slot`` -1), whose k may differ between the sides
KEY = ["dataset", "regime", "seed", "method", "k_rule", "slot"]
#: what each side's row carries
VALUES = ["k", "truth_auc", "truth_auc_trees", "recommended", "tied"]
COLUMNS = [*KEY, *(f"{v}_{side}" for side in ("paper", "option") for v in VALUES)]


def _rows(cells: pd.DataFrame, side: str) -> pd.DataFrame:
    """A side's cells, one row per board row (a cell stores its rows as lists)."""
    mine = cells[cells["experiment"].map(SIDES) == side]
    if mine.empty:
        return pd.DataFrame(columns=[*KEY, *VALUES])
    lists = ["method", "k_rule", *VALUES]
    rows = mine[["dataset", "regime", "seed", *lists]].explode(lists, ignore_index=True)
    rows = rows.astype({"k": int, "truth_auc": float, "truth_auc_trees": float})
    rows = rows.astype({"recommended": bool, "tied": bool, "seed": int})
    rows["slot"] = rows["k"].where(rows["k_rule"] == "fixed", -1)
    if rows.duplicated(KEY).any():
        raise ValueError(f"a cell of the {side} side has two rows of one (method, k rule, k)")
    return rows


def records(cells: pd.DataFrame) -> pd.DataFrame:
    """The rows both sides hold, paired, in the benchmark's order of tables and regimes."""
    if cells.empty:
        return pd.DataFrame(columns=COLUMNS)
    paper, option = _rows(cells, "paper"), _rows(cells, "option")
    table = paper.merge(option, on=KEY, suffixes=("_paper", "_option"))
    table = table.assign(
        _table=table["dataset"].map(TABLES.index), _regime=table["regime"].map(PU_REGIMES.index)
    )
    table = table.sort_values(["_table", "_regime", "seed", "method", "k_rule", "slot"])
    return table[COLUMNS].reset_index(drop=True)
