"""The demo's report: mean ± sd AUC per dataset and method."""

from __future__ import annotations

import pandas as pd

from weakfs.experiments._registry import ReportContext
from weakfs.experiments._report import markdown_table, summarize

__all__ = ["write_report"]


def write_report(table: pd.DataFrame, ctx: ReportContext) -> str:
    summary = summarize(table, ["dataset", "method"], ["auc"])
    return (
        "PU labels (20 % of positives labeled), k features by mutual information with the PU "
        "labels "
        "or at random, logistic regression on PU labels, test ROC AUC against the true labels.\n\n"
        + markdown_table(summary)
    )
