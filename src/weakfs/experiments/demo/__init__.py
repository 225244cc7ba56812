"""A small real experiment on bundled data, used to smoke-test the runner (locally and on Dask).

PU labels are made from the true classes of ionosphere and spambase (SCAR, 20 % of positives
labeled); k features are chosen by mutual information with the PU labels or at random; a logistic
regression trained on the PU labels is scored by ROC AUC against the true labels of a test split.
"""

from weakfs.experiments._registry import Experiment
from weakfs.experiments.demo._cells import VERSION, make_cells, run_cell
from weakfs.experiments.demo._report import write_report

__all__ = ["EXPERIMENT"]

TITLE = "Demo: mutual-information selection on PU labels (runner smoke test)"
# a smoke test of the runner: its results are not kept in results/
EXPERIMENT = Experiment(
    "demo",
    TITLE,
    make_cells,
    run_cell,
    write_report,
    default_runs=3,
    version=VERSION,
    committed=False,
)
