"""``weakfs reproduce sewil-tables``: SEW-IL Tables 2, 3 and 4 on the datasets available locally.

Protocol (paper §4, Table 1): per split, a stratified test set of ``n_t`` rows, then ``l`` labeled
and ``u`` unlabeled training rows (stratified); a selector runs on the training rows (unlabeled
ones coded ``-1``); self-learning (SLA, 200 trees) is retrained on the selected features and scored
on the unlabeled training rows (ACC-U) and on the test rows (ACC-T).

Cells are (table, dataset, method, seed):

* ``t2``: method ``criteria`` -- 40 random subsets of ``floor(sqrt(d))`` features (the FSGA
  initialisation); each criterion (OOB, TB, CB, CBIL) picks its best subset; GT is the best ACC-U
  among the 40 subsets (SLA run on each).
* ``t3``: ``fss``, ``cga``, ``fsga`` -- SEW-IL (CBIL) with the three search strategies.
* ``t4``: ``rlsr``, ``sfs``, ``ssls``, ``cotfss``, ``sewil`` (= FSGA with CBIL, shared with t3).

Only when asked for with ``--methods``: ``fsga_lenmut`` and ``fsga_best`` (Table 3 variants); the
FSGA arms ``fsga-cbil``, ``fsga-cbil-beta``, ``fsga-cb``, ``fsga-oob``, ``fsga-lenmut-bounded``,
``fsga-lenmut-unbounded``, ``fsga-cbil-labels`` (one wrapper choice changed per arm, recording the
criterion value and the pseudo-labels' accuracy) and the diagnostic ``fsga-oracle`` (the criterion:
out-of-bag error against the true labels, the unlabeled rows' hidden ones included);
``criteria-tb-printed`` (Table 2's subsets with the transductive bound as printed); ``sla-all``
(self-learning on every feature, no selection) and ``fsga-votes`` (the ``fsga`` cell's selector
recording its final votes, scored at the top-m features by votes: rows ``fsga-top-own``,
``fsga-top-paper``, ``fsga-top-d23``).

Options (``--set key=value``): ``n_jobs`` (inside a cell, default 1), ``n_estimators`` (default
200), ``tables`` (e.g. ``t3,t4``; default all three), ``runs_by_method`` (e.g. ``rlsr:20,sfs:20``:
those methods get their own number of splits, the others ``--runs``).
"""

from weakfs.experiments._registry import Experiment
from weakfs.experiments.sewil._cells import VERSION, load_split, make_cells, run_cell
from weakfs.experiments.sewil._protocol import SPLITS
from weakfs.experiments.sewil._report import write_report
from weakfs.experiments.sewil._scoreboard_report import scoreboard_rows

__all__ = ["EXPERIMENT", "SPLITS", "load_split", "scoreboard_rows"]

TITLE = "SEW-IL: Tables 2, 3 and 4 (criteria, search strategies, state of the art)"
EXPERIMENT = Experiment(
    "sewil-tables",
    TITLE,
    make_cells,
    run_cell,
    write_report,
    20,
    __doc__ or "",
    version=VERSION,
)
