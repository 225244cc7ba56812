"""FSCPU's scoreboard rows: Table 1 (FSR at the paper's settings) and Table 3 (AUC, its rows,
not the ablations), each against the paper's printed value."""

from __future__ import annotations

import pandas as pd

from weakfs.experiments._report import NOT_DESCRIBED, NOT_YET, cell_values, scoreboard_row
from weakfs.experiments.fscpu._paper import PAPER_T1, PAPER_T3
from weakfs.experiments.fscpu._protocol import CONDITIONS, DATASETS_T3
from weakfs.experiments.fscpu._report import LABEL as FSCPU_LABEL
from weakfs.experiments.fscpu._table3_ablation_report import main_cells

__all__ = ["FSCPU_NOT_DESCRIBED", "scoreboard_rows"]

#: FSCPU's baselines whose algorithms are described nowhere we could read beyond the FSCPU
#: paper's paragraph (only their titles and abstracts are public), in its tables' labels
FSCPU_NOT_DESCRIBED = ["ES-MCRFS", "MRMR-UFS"]


def scoreboard_rows(cells: pd.DataFrame) -> list[dict]:
    """FSCPU Table 1 (FSR; the paper's settings) and Table 3 (AUC; its rows, not the
    ablations)."""
    rows = []
    t1 = cells[cells["experiment"] == "fscpu-table1"]
    for m in [*PAPER_T1, *FSCPU_NOT_DESCRIBED]:
        for i, c in enumerate(CONDITIONS):
            printed = PAPER_T1[m].split()[i] if m in PAPER_T1 else None
            values = cell_values(t1, "fsr", method=m, condition=c)
            label = f"{FSCPU_LABEL.get(m, m)} · {c}"
            reason = NOT_DESCRIBED if m in FSCPU_NOT_DESCRIBED else NOT_YET
            rows.append(
                scoreboard_row("FSCPU", "Table 1", label, "FSR", values, printed, 5, reason)
            )
    t3 = cells[cells["experiment"] == "fscpu-table3"]
    t3 = main_cells(t3) if len(t3) else t3
    for m in [*PAPER_T3, *FSCPU_NOT_DESCRIBED]:
        for i, d in enumerate(DATASETS_T3):
            printed = PAPER_T3[m][i] if m in PAPER_T3 else None
            values = cell_values(t3, "auc", method=m, dataset=d)
            label = f"{FSCPU_LABEL.get(m, m)} · {d}"
            reason = NOT_DESCRIBED if m in FSCPU_NOT_DESCRIBED else NOT_YET
            rows.append(
                scoreboard_row("FSCPU", "Table 3", label, "AUC", values, printed, 3, reason)
            )
    return rows
