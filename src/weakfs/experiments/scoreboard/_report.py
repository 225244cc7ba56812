"""The scoreboard's report: the counts of verdicts per paper and table, how the rows are made,
then every row."""

from __future__ import annotations

import numpy as np
import pandas as pd

from weakfs.experiments._registry import ReportContext
from weakfs.experiments._report import markdown_table
from weakfs.experiments.ufvs._scoreboard_report import UFVS_TABLE

__all__ = ["VERDICTS", "counts", "write_report"]

VERDICTS = ["within", "above", "below", "not run", "no paper value"]
#: the report of each paper's experiment, in results/
REPORTS = {
    "FSCPU": ["fscpu-table1.md", "fscpu-table3.md"],
    "UFVS": ["ufvs.md"],
    "PU Extra Trees": ["pu_extra_trees-tables.md"],
    "SEW-IL": ["sewil-tables.md"],
    "GKF-PUAL": ["gkf_pual-tables.md"],
}


def _kind(verdict: str) -> str:
    """A verdict without its reason."""
    return verdict.split(":", 1)[0]


def counts(board: pd.DataFrame) -> pd.DataFrame:
    """The number of rows of each verdict per paper and table (first-seen order), and in all."""
    kinds = board["verdict"].map(_kind)
    rows = []
    # iterating the groups keeps their first-seen order (``.groups`` is sorted by older pandas)
    for (paper, table), group in board.groupby(["paper", "table"], sort=False):
        index = group.index
        got = kinds[index].value_counts()
        rows.append(
            {"paper": paper, "table": table, "rows": len(index)}
            | {v: int(got.get(v, 0)) for v in VERDICTS}
        )
    got = kinds.value_counts()
    rows.append(
        {"paper": "all", "table": "", "rows": len(board)}
        | {v: int(got.get(v, 0)) for v in VERDICTS}
    )
    return pd.DataFrame(rows)


def _num(value: float, digits: int = 4) -> str:
    return f"{value:.{digits}g}" if np.isfinite(value) else "–"


def _value(mean: float, sd: float, *, claim: bool, sd_digits: int = 2) -> str:
    if claim and np.isfinite(mean):
        return "holds" if mean == 1 else "does not hold"
    if not np.isfinite(sd):
        return _num(mean)
    return f"{_num(mean)} ± {_num(sd, sd_digits)}"


def _rows_table(rows: pd.DataFrame) -> str:
    claim = bool((rows["table"] == UFVS_TABLE).all())
    shown = pd.DataFrame(
        {
            "row": rows["row"],
            "metric": rows["metric"],
            "paper": [
                _value(m, s, claim=claim, sd_digits=4)
                for m, s in zip(rows["paper_mean"], rows["paper_sd"])
            ],
            "ours": [_value(m, s, claim=claim) for m, s in zip(rows["ours_mean"], rows["ours_sd"])],
            "runs (ours / paper)": [
                f"{o} / {'–' if pd.isna(p) else p}"
                for o, p in zip(rows["ours_runs"], rows["paper_runs"])
            ],
            "verdict": rows["verdict"],
        }
    )
    return markdown_table(shown)


def _reasons(board: pd.DataFrame) -> str:
    """How many rows are not run for each reason."""
    reasons = board.loc[board["verdict"].map(_kind) == "not run", "verdict"]
    got = reasons.map(lambda v: v.split(":", 1)[1].strip()).value_counts()
    return "; ".join(f"{reason}: {n}" for reason, n in got.items())


def _gkf_sd_note(board: pd.DataFrame) -> str:
    gkf = board[board["paper"] == "GKF-PUAL"]
    if gkf["paper_sd"].notna().any():
        return "the paper's means and sds as printed"
    return (
        "the paper prints an sd beside each mean, but the GKF-PUAL experiment's record of its "
        "numbers holds the means only, so paper_sd is empty there and the rule uses our sd"
    )


def _sewil_splits_note(board: pd.DataFrame) -> str:
    """The splits SEW-IL's rows have (they accrue toward the paper's 20), read from the board."""
    runs = board.loc[
        board["paper"].str.startswith("SEW-IL") & (board["ours_runs"] > 0), "ours_runs"
    ]
    if runs.empty:
        return "no split run yet"
    low, high = int(runs.min()), int(runs.max())
    return f"{low} to {high} splits" if high > low else f"{low} splits"


def write_report(board: pd.DataFrame, ctx: ReportContext) -> str:
    reports = ", ".join(f"[{r}]({r})" for files in REPORTS.values() for r in files)
    lines = [
        "Every entry of the papers' tables that weakfs reproduces, beside ours, read from the "
        "committed cell stores at the settings of the reports in this folder (the README's "
        f"map): {reports}.  `scoreboard.csv` holds the same rows (columns paper, table, row, "
        "metric, paper_mean, paper_sd, ours_mean, ours_sd, ours_runs, paper_runs, verdict).",
        "",
        "**Verdict**, from each row's own columns: *within* when |ours_mean − paper_mean| ≤ "
        "paper_sd; where paper_sd is empty (the paper prints no sd, or weakfs does not record "
        "it), the rule of the reports' verdict lines uses our own sd over the runs instead (0 "
        "with one run: such a row is *within* only where our value equals the paper's); else "
        "*above* or *below*.  Rows are means over different numbers of runs (FSCPU's Table 3 "
        "over 10, 3 or 1 splits): the column runs (ours / paper) gives each row's.  *not "
        "run*: no finished cell, with the reason "
        "(data not staged; method not described anywhere we could read; not run yet).  *no "
        "paper value*: the paper prints no usable number there.  ours_sd is the sd over our "
        "runs (ddof 1).",
        "",
        "How the rows are made:",
        "",
        "- **FSCPU** (Uchikoshi & Akimoto, GECCO 2025): Table 1, FSR, at the paper's settings "
        "(T = 3000, Gaussian mixture K = 10); Table 3, AUC, the paper's rows (ceil(d/2) "
        "features), not the ablations on the RT-IoT2022 builds or without selection.  ES-MCRFS "
        "and MRMR-UFS are described nowhere we could read beyond the paper's paragraph (only "
        "their titles and abstracts are public), so they are not run.",
        "- **UFVS** (Shin et al., ICAART 2020): the paper gives its results as plots only, so "
        "the rows are the claims its §5 makes about Figures 5-10, for each of its eleven "
        "datasets and each of our two readings of its definitions (mode `paper`: 0 is a value; "
        "`zero_absent`: 0 means absent).  ours_mean is 1 where the UFVS report finds the claim "
        "holding on that dataset and mode, 0 where not; paper_mean is 1 where the paper's text "
        "has it hold, with sd 0.  The paper says its affinities appear on nine of its eleven "
        "datasets without naming the other two; they are expected here on every dataset but "
        "the exceptions it names (on KDD H(S) stays around half of H(F); NMI(S;C) exceeds "
        "NMI(F;C) only on KDD and ADA).  So *within* = our runs agree with the paper's text, "
        "*below* = the claim does not hold here where the paper says it does, *above* = it "
        "holds here where the paper says it does not.  The search-time claim is checked at "
        "every cut-off, where the paper excepts 'very small thresholds'.",
        "- **PU Extra Trees** (Wilton et al., NeurIPS 2022): Tables 2-5, accuracy and F1 in %, "
        "on the three of its seven datasets that are staged (MNIST and UNSW-NB15 are not the "
        "paper's splits: see its report); the paper's means and sds as printed (over its 5 "
        "replications).  Mushroom's uPU-quadratic accuracy is printed 0.607 (0.48) and read so, "
        "though beside its F1 of 39.02 it is likely 60.7 with a misplaced decimal point.",
        "- **SEW-IL** (Feofanov, Devijver & Amini, arXiv:1911.04841, 2019): ACC-U of Tables 2, "
        "3 and 4; entries the paper prints as NA are not rows.  "
        + _sewil_splits_note(board)
        + " (the paper: 20); ours_runs gives each row's.",
        "- **GKF-PUAL** (Wang, Zhu & Xue, Information Sciences 690, 2025): Tables 2 and 3 at "
        "the paper's protocol (its full tuning grid, greedy rounds until no improvement) at 5 "
        "repetitions (the paper: 10); " + _gkf_sd_note(board) + ".",
        "",
        "## Counts",
        "",
        markdown_table(counts(board)),
        "",
        f"Not run, by reason: {_reasons(board) or 'none'}.",
        "",
        "## Every row",
        "",
    ]
    for (paper, table), rows in board.groupby(["paper", "table"], sort=False):
        lines += [f"### {paper} · {table}", "", _rows_table(rows), ""]
    return "\n".join(lines)
