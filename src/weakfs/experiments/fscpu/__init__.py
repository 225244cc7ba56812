"""FSCPU paper reproductions (Uchikoshi & Akimoto, GECCO 2025): Table 1 (artificial data, FSR),
Table 3 (open data, AUC) and Figure 1 (theta over the iterations).

``weakfs reproduce fscpu-table1`` / ``fscpu-table3`` / ``fscpu-figure1``.  Options (``--set
k=v``): ``n_iter`` (compact-GA iterations of FSCPU / FSCPU-MI / LGBM-OPT, default 3000 as the
paper), ``clustering`` ("gmm" as the paper, or the faster "gmm-diag" / "kmeans"),
``lgbm_opt_iter`` (default = ``n_iter``), ``rfe_step`` (RFE step of DT-RFE, default 1 =
scikit-learn's default as in the paper), ``n_jobs`` (threads of one FSCPU search, default 1).
``--quick`` runs the real code on a reduced protocol (n_iter=20, rfe_step=5) for smoke tests.

Table 3 also holds its ablations: datasets ``rt_iot2022-<build>`` (builds ``79``, ``67``,
``67-discrete``, ``81``, ``onehot``; Lasso and K-Best by default, any method when named) at fixed
``n_select`` (34, 40, ceil(d/2)), and the methods ``all-features`` (LightGBM on every column) and
``all-features-pn`` (the same on the true training labels).
"""

from weakfs.experiments._registry import Experiment
from weakfs.experiments.fscpu._cells import (
    VERSIONS,
    lgbm_auc,
    make_cells_f1,
    make_cells_t1,
    make_cells_t3,
    run_cell_f1,
    run_cell_t1,
    run_cell_t3,
    select_features,
)
from weakfs.experiments.fscpu._data import load_table3, spambase_split, table3_split
from weakfs.experiments.fscpu._figure1_report import write_report_f1
from weakfs.experiments.fscpu._protocol import FIGURE1_CONDITIONS, RT_IOT_IDENTIFIERS
from weakfs.experiments.fscpu._scoreboard_report import scoreboard_rows
from weakfs.experiments.fscpu._table1_report import write_report_t1
from weakfs.experiments.fscpu._table3_report import write_report_t3

__all__ = [
    "EXPERIMENTS",
    "FIGURE1_CONDITIONS",
    "RT_IOT_IDENTIFIERS",
    "lgbm_auc",
    "load_table3",
    "scoreboard_rows",
    "select_features",
    "spambase_split",
    "table3_split",
]

TITLES = {
    "fscpu-figure1": "FSCPU Figure 1: theta over the iterations on the artificial data",
    "fscpu-table1": "FSCPU Table 1: feature-selection recall on the artificial PU data",
    "fscpu-table3": "FSCPU Table 3: LightGBM AUC after PU feature selection on open data",
}
EXPERIMENTS = {
    name: Experiment(name, TITLES[name], *functions, default_runs=runs, version=VERSIONS[name])
    for name, functions, runs in [
        ("fscpu-figure1", (make_cells_f1, run_cell_f1, write_report_f1), 1),
        ("fscpu-table1", (make_cells_t1, run_cell_t1, write_report_t1), 5),
        ("fscpu-table3", (make_cells_t3, run_cell_t3, write_report_t3), 3),
    ]
}
