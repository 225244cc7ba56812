"""``weakfs reproduce pu_extra_trees-tables``: PU Extra Trees (Wilton et al., NeurIPS 2022),
Tables 2-5, Appendix M and Figure 2 on the datasets available locally.

Protocol (paper §5): on each run a train/test split; ``P`` = 1000 positives drawn at random
from the training split (all of them if fewer); ``U`` = the whole training split (labeled rows
included); ``π`` = the positive share of the training split; 100 trees, no depth limit,
``ceil(sqrt(d))`` features, one threshold; accuracy and F1 (positive class, %) on the test split.
"""

from weakfs.experiments._registry import Experiment
from weakfs.experiments.pu_extra_trees._cells import VERSION, make_cells, run_cell
from weakfs.experiments.pu_extra_trees._report import write_report
from weakfs.experiments.pu_extra_trees._scoreboard_report import scoreboard_rows

__all__ = ["EXPERIMENT", "scoreboard_rows"]

TITLE = "PU Extra Trees: Tables 2-5, Appendix M and Figure 2"
DESCRIPTION = "PU ET risk estimators/losses, tree baselines, top-k features, MNIST importances"
EXPERIMENT = Experiment(
    "pu_extra_trees-tables",
    TITLE,
    make_cells,
    run_cell,
    write_report,
    description=DESCRIPTION,
    version=VERSION,
)
