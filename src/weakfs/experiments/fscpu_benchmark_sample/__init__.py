"""``weakfs reproduce fscpu-benchmark-sample``: FSCPU's speed options against the paper's search
on a sample of the weak-label benchmark's PU cells, judged by the truth.

One cell per (table, method, seed): the benchmark's split and PU labels of the cell
(``pu-scar-0.3``, at most 3,000 rows, 30 % held out), FSCPU or FSCPU-MI at the benchmark's
setting for k = 20 (its compact GA's iterations and learning rate for the table's size),
fitted directly on the min-max scaled training rows, with and without the speed option; the
selection's truth AUC by the benchmark's two judges (a logistic regression and extra trees
fitted on the true training labels of the selected columns).  Same seed, same split and
``random_state``: the option's cell is paired with the paper's search's.
"""

from weakfs.experiments._registry import Experiment
from weakfs.experiments.fscpu_benchmark_sample._cells import VERSION, make_cells, run_cell
from weakfs.experiments.fscpu_benchmark_sample._report import write_report

__all__ = ["EXPERIMENT"]

EXPERIMENT = Experiment(
    "fscpu-benchmark-sample",
    "FSCPU's speed options on a sample of the benchmark's PU cells (truth AUC, paired)",
    make_cells,
    run_cell,
    write_report,
    default_runs=3,
    description="FSCPU / FSCPU-MI with and without search_rows=1500 (and a shared k-means "
    "start) on six "
    "benchmark tables at k = 20",
    version=VERSION,
)
