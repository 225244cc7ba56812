"""SEW-IL's scoreboard rows: Tables 2, 3 and 4, ACC-U (entries the paper prints as NA are not
rows)."""

from __future__ import annotations

import pandas as pd

from weakfs.experiments._report import NOT_STAGED, NOT_YET, cell_values, paper_value, scoreboard_row
from weakfs.experiments.sewil._paper import PAPER_T2, PAPER_T34
from weakfs.experiments.sewil._protocol import CRITERIA_ORDER, SPLITS, T3_METHODS, T4_METHODS

__all__ = ["SEWIL_NOT_STAGED", "scoreboard_rows"]

SEWIL_LABEL = {
    "gt": "GT",
    "oob": "OOB",
    "tb": "TB",
    "cb": "CB",
    "cbil": "CBIL",
    "fss": "FSS",
    "cga": "CGA",
    "fsga": "FSGA",
    "rlsr": "RLSR",
    "sfs": "SFS",
    "ssls": "SSLS",
    "cotfss": "CoT-FSS",
    "sewil": "SEW-IL",
}
#: the SEW-IL paper's dataset that is not staged, and the methods it has a number for there,
#: per table (Table 2's criteria, Table 3's searches, Table 4's methods: FSS and CoT-FSS are NA)
SEWIL_NOT_STAGED = {
    "Gisette": {
        "Table 2": ["gt", "oob", "tb", "cb", "cbil"],
        "Table 3": ["cga", "fsga"],
        "Table 4": ["rlsr", "sfs", "ssls", "sewil"],
    }
}


def scoreboard_rows(cells: pd.DataFrame) -> list[dict]:
    """SEW-IL Tables 2, 3 and 4, ACC-U (entries the paper prints as NA are not rows)."""
    run = cells[cells["experiment"] == "sewil-tables"]
    rows = []

    def add(table, name, dataset, values, printed, reason=NOT_YET):
        label = f"{SEWIL_LABEL[name]} · {dataset}"
        rows.append(scoreboard_row("SEW-IL", table, label, "ACC-U", values, printed, 20, reason))

    for dataset in SPLITS:
        for i, name in enumerate(["gt", *CRITERIA_ORDER]):
            values = cell_values(run, f"{name}_acc_u", method="criteria", dataset=dataset)
            add("Table 2", name, dataset, values, PAPER_T2[dataset][i])
    for table, methods in (("Table 3", T3_METHODS), ("Table 4", T4_METHODS)):
        for name in methods:
            method = "fsga" if name == "sewil" else name
            for dataset in SPLITS:
                printed = PAPER_T34.get(method, {}).get(dataset, ("NA",))[0]
                if paper_value(printed) is None:
                    continue  # the paper did not run it there
                values = cell_values(run, "acc_u", method=method, dataset=dataset)
                add(table, name, dataset, values, printed)
    for dataset, tables in SEWIL_NOT_STAGED.items():
        for table, names in tables.items():
            for name in names:
                add(table, name, dataset, [], None, NOT_STAGED)
    order = {"Table 2": 0, "Table 3": 1, "Table 4": 2}
    return sorted(rows, key=lambda r: order[r["table"]])  # stable: each table's rows in order
