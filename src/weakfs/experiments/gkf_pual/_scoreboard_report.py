"""GKF-PUAL's scoreboard rows: Table 2 (F1 %) and Table 3 (% of the irrelevant columns
removed), the paper's ``mean ± sd`` as printed."""

from __future__ import annotations

import pandas as pd

from weakfs.experiments._report import NOT_STAGED, NOT_YET, cell_values, scoreboard_row
from weakfs.experiments.gkf_pual._paper import PAPER_F1_TEXT, PAPER_REMOVED_TEXT
from weakfs.experiments.gkf_pual._protocol import DATASETS as GKF_DATASETS
from weakfs.experiments.gkf_pual._protocol import METHODS as GKF_METHODS

__all__ = ["GKF_NOT_STAGED", "scoreboard_rows"]

#: the GKF-PUAL paper's dataset that is not staged (Online Retail II), and the one it follows
#: in the paper's tables
GKF_NOT_STAGED = {"OR2": "OR1"}


def scoreboard_rows(cells: pd.DataFrame) -> list[dict]:
    """GKF-PUAL Table 2 (F1 %) and Table 3 (% of the irrelevant columns removed), the paper's
    ``mean ± sd`` as printed."""
    run = cells[cells["experiment"] == "gkf_pual-tables"]
    datasets = []
    for d in GKF_DATASETS:
        datasets.append(d)
        datasets += [missing for missing, after in GKF_NOT_STAGED.items() if after == d]
    rows = []
    for d in datasets:
        staged = d not in GKF_NOT_STAGED
        for g in (0.5, 0.25):
            for i, m in enumerate(GKF_METHODS):
                printed = PAPER_F1_TEXT[d][g][i] if staged else None
                values = cell_values(run, "f1", method=m, dataset=d, gamma=g)
                reason = NOT_YET if staged else NOT_STAGED
                label = f"{m} · {d} γ={g:g}"
                rows.append(
                    scoreboard_row(
                        "GKF-PUAL", "Table 2", label, "F1 %", values, printed, 10, reason
                    )
                )
    for d in datasets:
        staged = d not in GKF_NOT_STAGED
        for g in (0.25, 0.5):
            printed = PAPER_REMOVED_TEXT[d][g] if staged else None
            values = cell_values(run, "irrelevant_removed", method="GKF-PUAL", dataset=d, gamma=g)
            reason = NOT_YET if staged else NOT_STAGED
            label = f"GKF-PUAL · {d} γ={g:g}"
            metric = "% irrelevant removed"
            rows.append(
                scoreboard_row("GKF-PUAL", "Table 3", label, metric, values, printed, 10, reason)
            )
    return rows
