"""The FSCPU Table-3 report: LightGBM AUC beside the paper, verdicts, the spread over splits."""

from __future__ import annotations

import numpy as np
import pandas as pd

from weakfs.experiments._registry import ReportContext
from weakfs.experiments._report import markdown_table, ours_paper_grid, paper_mean, verdict_lines
from weakfs.experiments.fscpu._paper import PAPER_T3
from weakfs.experiments.fscpu._protocol import DATASETS_T3, METHODS_T3
from weakfs.experiments.fscpu._report import LABEL, protocol_line, timing_table
from weakfs.experiments.fscpu._table3_ablation_report import ablation_sections, main_cells

__all__ = ["write_report_t3"]

# what is known to make a dataset's numbers differ from the paper's
T3_REASONS = {
    "spambase": "Known: the AUC varies a lot from split to split with 40 labeled rows (see the "
    "10-split spread below); the paper's 3 splits are not ours.",
    "rt_iot2022": "Known: our build keeps 79 numeric columns (the paper does not say which it "
    "dropped to reach 67) and leaves out the two port identifiers.",
}


def _paper_t3(method: str, dataset: str) -> str:
    """The paper's Table-3 value ``"mean±sd"`` of one method and dataset."""
    return PAPER_T3[method][DATASETS_T3.index(dataset)]


def write_report_t3(table: pd.DataFrame, ctx: ReportContext) -> str:
    ablation = ablation_sections(table)
    table = main_cells(table)  # the paper's table; the ablations' cells are in their sections
    if table.empty:
        return "\n".join(ablation)
    dsets = [d for d in DATASETS_T3 if d in set(table["dataset"])]
    grid = ours_paper_grid(
        table, ("method", METHODS_T3), ("dataset", DATASETS_T3), "auc", _paper_t3, LABEL, runs=True
    )
    info = table.groupby("dataset")[["n_features", "k", "n_labeled"]].first()
    lines = [
        "75/25 split stratified on the true class (the test parts hold 453 / 31 / 384 positives,",
        "as the paper's Table 2), min-max scaling fitted on the training split, floor(rate x",
        "training positives) labeled (Spambase 3 % = 40, Ionosphere 10 % of 'b' = 9, RT-IoT2022",
        "2 % of NMAP_TCP_scan + DDOS_Slowloris = 23; DOS_SYN_Hping rows excluded, numeric columns",
        "only, the port identifiers id.orig_p and id.resp_p left out: with 23 labels LightGBM",
        "memorises port numbers that do not carry over to the test split), ceil(d/2) features,",
        "LightGBM (100 trees) on the PU labels, test AUC against the true labels.  Each cell: ours",
        "(mean ± sd, its number of splits in brackets: 10, 3 or 1) / paper (3 splits).",
        "",
        markdown_table(grid),
        "",
        verdict_lines(
            [
                (
                    d,
                    LABEL[m],
                    table.loc[(table["method"] == m) & (table["dataset"] == d), "auc"],
                    _paper_t3(m, d),
                )
                for d in dsets
                for m in METHODS_T3
            ],
            T3_REASONS,
        ),
        "",
        "Per dataset (features d, selected k, labeled rows in the training split):",
        "",
        markdown_table(info.reset_index()),
        "",
        _spread(table),
        "",
        timing_table(table),
        "",
        protocol_line(table),
    ]
    if ablation:
        lines += ["", *ablation]
    return "\n".join(lines)


def _spread(table: pd.DataFrame) -> str:
    """Where the paper's mean sits among our splits, for methods run on at least 5 splits."""
    rows = []
    for (m, d), g in table.groupby(["method", "dataset"]):
        if len(g) < 5:
            continue
        auc = g["auc"].to_numpy()
        paper = paper_mean(_paper_t3(m, d))
        rows.append(
            {
                "dataset": d,
                "method": LABEL[m],
                "splits": len(auc),
                "min": f"{auc.min():.3f}",
                "median": f"{np.median(auc):.3f}",
                "max": f"{auc.max():.3f}",
                "paper mean": f"{paper:.3f}",
                "splits at or above the paper": f"{int((auc >= paper).sum())} of {len(auc)}",
            }
        )
    if not rows:
        return ""
    return (
        "AUC over many splits (methods run on at least 5; a split changes the test part and "
        "which positives are labeled):\n\n" + markdown_table(pd.DataFrame(rows))
    )
