"""The benchmark report's reading of its cells: one row per (cell, method), the board's
candidates, and the cells' notes and settings in sentences."""

from __future__ import annotations

import numpy as np
import pandas as pd

from weakfs.experiments.benchmark._protocol import CANNOT_RUN, FAMILIES, REFERENCES

__all__ = ["PER_METHOD", "candidates", "cannot_run", "left_out", "long_table", "settings_text"]


#: the per-method lists of a cell
PER_METHOD = ("k", "weak_score", "truth_auc", "random_auc", "truth_f1", "select_seconds", "fsr")


#: per-method lists that cells from version 4 on also hold
PER_METHOD_V4 = ("truth_auc_trees", "random_auc_trees")


def long_table(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (cell, method)."""
    rows = []
    for _, cell in table.iterrows():
        for i, method in enumerate(cell["method"]):
            rows.append(
                {
                    "dataset": cell["dataset"],
                    "regime": cell["regime"],
                    "seed": cell["seed"],
                    "method": method,
                    **{key: cell[key][i] for key in PER_METHOD},
                    **{
                        key: cell[key][i] if isinstance(cell.get(key), list) else np.nan
                        for key in PER_METHOD_V4
                    },
                    "features": cell["features"][i],
                    **{
                        key: cell[key][i]
                        for key in ("k_rule", "tied", "recommended")
                        if isinstance(cell.get(key), list)
                    },
                    "n_features": cell["n_features"],
                }
            )
    long = pd.DataFrame(rows)
    if not long.empty:
        long["family"] = long["dataset"].map(FAMILIES)
    return long


def candidates(long: pd.DataFrame) -> pd.DataFrame:
    """The rows a leaderboard ranks: each selector at its automatic k, and the references (all
    features; random selection where a cell ran it as a row)."""
    if "k_rule" not in long:
        return long
    return long[(long["k_rule"] != "fixed") | long["method"].isin(REFERENCES)]


def left_out(table: pd.DataFrame) -> str:
    """How often each selector was left out of its cells, for the budget or because its fit
    failed (from the cells' notes)."""
    import re

    notes = table["notes"].fillna("").astype(str) if "notes" in table else pd.Series(dtype=str)
    budget: dict[str, int] = {}
    failed: dict[str, int] = {}
    for text in notes:
        for method, why in re.findall(r"(\w+) left out: (its (?:trial )?fit failed)?", text):
            counts = failed if why else budget
            counts[method] = counts.get(method, 0) + 1
    labeled = int((table["regime"] != "none").sum())
    lines = []
    timed = "budget" in table  # cells before version 4 ran within a time budget
    if timed and budget:
        parts = [f"{m} in {n} of {labeled}" for m, n in sorted(budget.items())]
        lines.append(
            "Left out for the time budget (at its cheapest setting it would not fit in what the "
            "references and rankers left), in cells with labels: " + "; ".join(parts) + "."
        )
    elif timed:
        lines.append("No selector was left out for the budget.")
    if failed:
        parts = [f"{m} in {n} of {labeled}" for m, n in sorted(failed.items())]
        lines.append(
            "Left out because its fit raised an error (the cell's notes give it): "
            + "; ".join(parts)
            + "."
        )
    return " ".join(lines)


def cannot_run(table: pd.DataFrame) -> tuple[pd.Series, str]:
    """Which cells cannot run (too few labels for the board: recorded with no rows), and a
    sentence naming them per regime and dataset."""
    notes = table["notes"].fillna("").astype(str) if "notes" in table else None
    if notes is None:
        return pd.Series(False, index=table.index), ""
    cannot = notes.str.startswith(CANNOT_RUN)
    if not cannot.any():
        return cannot, ""
    parts = []
    for regime, cells in table[cannot].groupby("regime", sort=False):
        per_dataset = [
            f"{dataset} seed{'s' if len(seeds) > 1 else ''} "
            + ", ".join(str(int(s)) for s in sorted(seeds))
            for dataset, seeds in cells.groupby("dataset")["seed"]
        ]
        parts.append(f"{regime}: {'; '.join(per_dataset)}")
    reason = notes[cannot].iloc[0].split(": ", 1)[-1]
    n = int(cannot.sum())
    text = (
        f"Cannot run: {n} cell{'s' if n > 1 else ''} ({' | '.join(parts)}), whose split leaves too "
        f"few labels (as in the first of them: {reason}); they are final, hold no rows and are "
        "left out of everything below."
    )
    return cannot, text


def settings_text(table: pd.DataFrame) -> str:
    """The settings the cells ran with (fixed by each table's size), per method: the range."""
    if "settings" not in table:
        return ""
    import json

    seen: dict = {}
    for text in table["settings"].dropna():
        for method, values in json.loads(text).items():
            for key, value in values.items():  # a value per k: each k's
                for one in value.values() if isinstance(value, dict) else [value]:
                    seen.setdefault((method, key), set()).add(one)
    parts = [
        f"{m} {key}={min(v)}" + (f"..{max(v)}" if len(v) > 1 else "")
        for (m, key), v in sorted(seen.items())
        if all(isinstance(x, (int, float)) for x in v)
    ]
    if not parts:
        return ""
    return "Settings run (fixed by each table's size, `method_settings`): " + "; ".join(parts) + "."
