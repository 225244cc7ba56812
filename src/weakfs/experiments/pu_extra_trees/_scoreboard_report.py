"""PU Extra Trees' scoreboard rows: Tables 2-5 (accuracy and F1 in %)."""

from __future__ import annotations

import pandas as pd

from weakfs.experiments._report import NOT_STAGED, NOT_YET, cell_values, scoreboard_row
from weakfs.experiments.pu_extra_trees._paper import PAPER as PU_ET_PAPER
from weakfs.experiments.pu_extra_trees._protocol import PU_METHODS
from weakfs.experiments.pu_extra_trees._report import TREE_BASELINES

__all__ = ["PU_ET_DATASETS", "scoreboard_rows"]

#: the PU Extra Trees paper's datasets (Tables 2-5), in its order, as weakfs names the staged
#: ones; the others are not staged
PU_ET_DATASETS = ["Epsilon", "20News", "Covtype", "mushrooms", "mnist", "CIFAR-10", "unsw_nb15"]
PU_ET_LABEL = {"nnPU-quadratic": "PU ET (nnPU, quadratic)"}


def scoreboard_rows(cells: pd.DataFrame) -> list[dict]:
    """PU Extra Trees Tables 2-5 (accuracy and F1 in %); the paper's sds are not recorded
    here, so the rule falls back on ours."""
    run = cells[cells["experiment"] == "pu_extra_trees-tables"]
    run = run[run["part"] == "table"] if "part" in run else run
    tables = [
        ("Table 2", "accuracy", 0, PU_METHODS),
        ("Table 3", "f1", 1, PU_METHODS),
        ("Table 4", "accuracy", 0, TREE_BASELINES),
        ("Table 5", "f1", 1, TREE_BASELINES),
    ]
    rows = []
    for table, metric, column, methods in tables:
        for m in methods:
            for d in PU_ET_DATASETS:
                paper = PU_ET_PAPER.get((d, m))
                printed = paper[column] if paper is not None else None
                values = cell_values(run, metric, method=m, dataset=d)
                label = f"{PU_ET_LABEL.get(m, m)} · {d}"
                reason = NOT_YET if paper is not None else NOT_STAGED
                name = "accuracy %" if metric == "accuracy" else "F1 %"
                rows.append(
                    scoreboard_row("PU Extra Trees", table, label, name, values, printed, 5, reason)
                )
    return rows
