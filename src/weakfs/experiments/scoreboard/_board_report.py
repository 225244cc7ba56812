"""The scoreboard's table: one row per paper entry, built from the experiments' finished cells
and their own records of the papers' numbers (each experiment's ``_paper.py``); nothing retyped.

Every verdict follows from the row's own columns (:func:`verdict`): *within* when
``|ours_mean - paper_mean| <= paper_sd`` (where the paper's sd is empty, our own sd over the
runs, 0 with one run), else *above* or *below*; *not run* without a finished cell, *no paper
value* where the paper prints no usable number, each with its reason after a colon.  This is
:func:`weakfs.experiments._report.paper_verdict`, the rule of every report's verdict lines.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from weakfs.experiments._report import TIE_TOLERANCE, paper_value
from weakfs.experiments.fscpu._paper import PAPER_T1, PAPER_T3
from weakfs.experiments.fscpu._protocol import CONDITIONS, DATASETS_T3
from weakfs.experiments.fscpu._report import LABEL as FSCPU_LABEL
from weakfs.experiments.fscpu._table3_ablation_report import main_cells
from weakfs.experiments.gkf_pual._paper import PAPER_F1_TEXT, PAPER_REMOVED_TEXT
from weakfs.experiments.gkf_pual._protocol import DATASETS as GKF_DATASETS
from weakfs.experiments.gkf_pual._protocol import METHODS as GKF_METHODS
from weakfs.experiments.pu_extra_trees._paper import PAPER as PU_ET_PAPER
from weakfs.experiments.pu_extra_trees._protocol import PU_METHODS
from weakfs.experiments.pu_extra_trees._report import TREE_BASELINES
from weakfs.experiments.scoreboard._protocol import (
    FSCPU_NOT_DESCRIBED,
    GKF_NOT_STAGED,
    NOT_DESCRIBED,
    NOT_STAGED,
    NOT_YET,
    PU_ET_DATASETS,
    SEWIL_NOT_STAGED,
)
from weakfs.experiments.sewil._paper import PAPER_T2, PAPER_T34
from weakfs.experiments.sewil._protocol import CRITERIA_ORDER, SPLITS, T3_METHODS, T4_METHODS
from weakfs.experiments.ufvs._paper import PAPER_DATASETS as UFVS_PAPER_DATASETS
from weakfs.experiments.ufvs._paper import paper_says
from weakfs.experiments.ufvs._protocol import DATASETS as UFVS_DATASETS
from weakfs.experiments.ufvs._protocol import MODES as UFVS_MODES
from weakfs.experiments.ufvs._report import CLAIMS, claim_verdicts

__all__ = ["COLUMNS", "board", "verdict"]

COLUMNS = [
    "paper",
    "table",
    "row",
    "metric",
    "paper_mean",
    "paper_sd",
    "ours_mean",
    "ours_sd",
    "ours_runs",
    "paper_runs",
    "verdict",
]
#: the table name of the UFVS claims (the paper gives its results as plots)
UFVS_TABLE = "Figures 5-10 (claims)"
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
PU_ET_LABEL = {"nnPU-quadratic": "PU ET (nnPU, quadratic)"}


def verdict(paper_mean: float, paper_sd: float, ours_mean: float, ours_sd: float) -> str:
    """The verdict of one row from its columns (NaN = empty), without its reason."""
    if not np.isfinite(ours_mean):
        return "not run"
    if not np.isfinite(paper_mean):
        return "no paper value"
    spread = paper_sd if np.isfinite(paper_sd) else (ours_sd if np.isfinite(ours_sd) else 0.0)
    diff = ours_mean - paper_mean
    if abs(diff) <= spread + TIE_TOLERANCE:
        return "within"
    return "above" if diff > 0 else "below"


def _row(paper, table, row, metric, values, printed, paper_runs, reason=NOT_YET) -> dict:
    """One entry: our finite ``values`` over the runs against the paper's ``printed`` value
    (``"mean ± sd"``, a bare number, a ``(mean, sd)`` pair or None)."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    value = printed if isinstance(printed, tuple) else paper_value(printed)
    p_mean, p_sd = value if value is not None else (np.nan, None)
    p_sd = np.nan if p_sd is None else float(p_sd)
    ours_mean = float(v.mean()) if v.size else np.nan
    ours_sd = float(v.std(ddof=1)) if v.size > 1 else np.nan
    said = verdict(float(p_mean), p_sd, ours_mean, ours_sd)
    if said == "not run":
        said += f": {reason}"
    elif said == "no paper value":
        said += f": the paper prints {printed}"
    return {
        "paper": paper,
        "table": table,
        "row": row,
        "metric": metric,
        "paper_mean": float(p_mean),
        "paper_sd": p_sd,
        "ours_mean": ours_mean,
        "ours_sd": ours_sd,
        "ours_runs": int(v.size),
        "paper_runs": paper_runs,
        "verdict": said,
    }


def _values(frame: pd.DataFrame, column: str, **match) -> pd.Series:
    """``column`` of the rows of ``frame`` whose entries equal ``match`` (none if a column of
    the match, or ``column``, is absent)."""
    if frame.empty or column not in frame or any(k not in frame for k in match):
        return pd.Series(dtype=float)
    keep = np.ones(len(frame), dtype=bool)
    for key, value in match.items():
        keep &= (frame[key] == value).to_numpy()
    return frame.loc[keep, column]


def _fscpu(cells: pd.DataFrame) -> list[dict]:
    """FSCPU Table 1 (FSR; the paper's settings) and Table 3 (AUC; its rows, not the
    ablations)."""
    rows = []
    t1 = cells[cells["experiment"] == "fscpu-table1"]
    for m in [*PAPER_T1, *FSCPU_NOT_DESCRIBED]:
        for i, c in enumerate(CONDITIONS):
            printed = PAPER_T1[m].split()[i] if m in PAPER_T1 else None
            values = _values(t1, "fsr", method=m, condition=c)
            label = f"{FSCPU_LABEL.get(m, m)} · {c}"
            reason = NOT_DESCRIBED if m in FSCPU_NOT_DESCRIBED else NOT_YET
            rows.append(_row("FSCPU", "Table 1", label, "FSR", values, printed, 5, reason))
    t3 = cells[cells["experiment"] == "fscpu-table3"]
    t3 = main_cells(t3) if len(t3) else t3
    for m in [*PAPER_T3, *FSCPU_NOT_DESCRIBED]:
        for i, d in enumerate(DATASETS_T3):
            printed = PAPER_T3[m][i] if m in PAPER_T3 else None
            values = _values(t3, "auc", method=m, dataset=d)
            label = f"{FSCPU_LABEL.get(m, m)} · {d}"
            reason = NOT_DESCRIBED if m in FSCPU_NOT_DESCRIBED else NOT_YET
            rows.append(_row("FSCPU", "Table 3", label, "AUC", values, printed, 3, reason))
    return rows


def _ufvs(cells: pd.DataFrame) -> list[dict]:
    """The UFVS paper's claims about its Figures 5-10, one row per claim, dataset and mode:
    1 = the claim holds (ours: as the UFVS report finds; the paper: as its text says), sd 0."""
    run = cells[cells["experiment"] == "ufvs"]
    found = claim_verdicts(run) if len(run) else pd.DataFrame(columns=["dataset", "mode"])
    holds = {(r.dataset, r.mode, r.claim): r.holds for r in found.itertuples()}
    rows = []
    for claim in CLAIMS:
        for d in UFVS_PAPER_DATASETS:
            for mode in UFVS_MODES:
                ours = holds.get((d, mode, claim))
                values = [] if ours is None else [float(ours)]
                reason = NOT_YET if d in UFVS_DATASETS else NOT_STAGED
                printed = (float(paper_says(claim, d)), 0.0)
                row = f"{d} ({mode})"
                rows.append(_row("UFVS", UFVS_TABLE, row, claim, values, printed, None, reason))
    return rows


def _pu_extra_trees(cells: pd.DataFrame) -> list[dict]:
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
                values = _values(run, metric, method=m, dataset=d)
                label = f"{PU_ET_LABEL.get(m, m)} · {d}"
                reason = NOT_YET if paper is not None else NOT_STAGED
                name = "accuracy %" if metric == "accuracy" else "F1 %"
                rows.append(_row("PU Extra Trees", table, label, name, values, printed, 5, reason))
    return rows


def _sewil(cells: pd.DataFrame) -> list[dict]:
    """SEW-IL Tables 2, 3 and 4, ACC-U (entries the paper prints as NA are not rows)."""
    run = cells[cells["experiment"] == "sewil-tables"]
    rows = []

    def add(table, name, dataset, values, printed, reason=NOT_YET):
        label = f"{SEWIL_LABEL[name]} · {dataset}"
        rows.append(_row("SEW-IL", table, label, "ACC-U", values, printed, 20, reason))

    for dataset in SPLITS:
        for i, name in enumerate(["gt", *CRITERIA_ORDER]):
            values = _values(run, f"{name}_acc_u", method="criteria", dataset=dataset)
            add("Table 2", name, dataset, values, PAPER_T2[dataset][i])
    for table, methods in (("Table 3", T3_METHODS), ("Table 4", T4_METHODS)):
        for name in methods:
            method = "fsga" if name == "sewil" else name
            for dataset in SPLITS:
                printed = PAPER_T34.get(method, {}).get(dataset, ("NA",))[0]
                if paper_value(printed) is None:
                    continue  # the paper did not run it there
                values = _values(run, "acc_u", method=method, dataset=dataset)
                add(table, name, dataset, values, printed)
    for dataset, tables in SEWIL_NOT_STAGED.items():
        for table, names in tables.items():
            for name in names:
                add(table, name, dataset, [], None, NOT_STAGED)
    order = {"Table 2": 0, "Table 3": 1, "Table 4": 2}
    return sorted(rows, key=lambda r: order[r["table"]])  # stable: each table's rows in order


def _gkf_pual(cells: pd.DataFrame) -> list[dict]:
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
                values = _values(run, "f1", method=m, dataset=d, gamma=g)
                reason = NOT_YET if staged else NOT_STAGED
                label = f"{m} · {d} γ={g:g}"
                rows.append(_row("GKF-PUAL", "Table 2", label, "F1 %", values, printed, 10, reason))
    for d in datasets:
        staged = d not in GKF_NOT_STAGED
        for g in (0.25, 0.5):
            printed = PAPER_REMOVED_TEXT[d][g] if staged else None
            values = _values(run, "irrelevant_removed", method="GKF-PUAL", dataset=d, gamma=g)
            reason = NOT_YET if staged else NOT_STAGED
            label = f"GKF-PUAL · {d} γ={g:g}"
            metric = "% irrelevant removed"
            rows.append(_row("GKF-PUAL", "Table 3", label, metric, values, printed, 10, reason))
    return rows


def board(cells: pd.DataFrame) -> pd.DataFrame:
    """The scoreboard: one row per paper entry (:data:`COLUMNS`), from the finished cells of
    the sources (column ``experiment``: the experiment each came from)."""
    if "experiment" not in cells:
        cells = cells.assign(experiment=pd.Series(dtype=object))
    rows = [
        *_fscpu(cells),
        *_ufvs(cells),
        *_pu_extra_trees(cells),
        *_sewil(cells),
        *_gkf_pual(cells),
    ]
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame["paper_runs"] = frame["paper_runs"].astype("Int64")
    return frame
