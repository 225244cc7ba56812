"""``weakfs reproduce benchmark``: the benchmark of feature selection from weak labels.

Every staged narrow tabular table with a binary task (or a one-vs-rest reading), wide families of
gene expression, text and image tables (1,000 to 20,000 columns), and synthetic data with known
relevant features, under PU labels (SCAR at 10, 30 and 50 % of the positives, and a biased
labeling), a few labels per class, and no labels; every selector that reads those labels at the
fixed k in {5, 10, 20, 50, 100} and at its automatic k, at settings fixed by the table's size
(``method_settings``; no clock), judged by a logistic regression and extra trees on the true
labels, random selection of the same size and all features as references; five repetitions per
cell.  ``--methods`` chooses regimes; ``--set seeds=S`` (an int or a list) runs only those
repetitions, e.g. to recompute one committed cell.  The searches of FSCPU and FSCPU-MI read
1,500 rows in the PU cells of tables with more training rows (``FSCPU_SEARCH_ROWS``);
``--set fscpu_search_rows=None`` gives the paper's search on every row in every cell, ``--set
fscpu_search_rows=N`` the PU cells of the tables with more than N training rows, searched on N.
"""

from weakfs.experiments._registry import Experiment
from weakfs.experiments.benchmark._cells import cell_version, make_cells, run_cell
from weakfs.experiments.benchmark._report import write_report

__all__ = ["EXPERIMENT"]

TITLE = "Benchmark: feature selection from weak labels (PU, semi-supervised, none)"
EXPERIMENT = Experiment(
    "benchmark",
    TITLE,
    make_cells,
    run_cell,
    write_report,
    default_runs=5,
    description=__doc__ or "",
    version=cell_version,
)
