"""``weakfs reproduce benchmark``: the first benchmark of feature selection from weak labels.

Every staged tabular, text and image dataset with a binary task (or a one-vs-rest reading), plus
synthetic data with known relevant features (informative, redundant and noise columns; a
second-order task), under PU labels (SCAR at 10, 30 and 50 % of the positives, and a biased
labeling), a few labels per class, and no labels; every selector that reads those labels at its
automatic k, with random selection and all features as references; five repetitions per cell.
Options: ``--set budget=SECONDS`` per cell (default 60); ``--methods`` chooses regimes.
"""

from weakfs.experiments._registry import Experiment
from weakfs.experiments.benchmark._cells import VERSION, make_cells, run_cell
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
    version=VERSION,
)
