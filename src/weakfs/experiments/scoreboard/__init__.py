"""``weakfs reproduce scoreboard``: every paper entry weakfs reproduces beside ours, with a
verdict, written from the committed cell stores (it computes nothing).

One row per entry of the papers' tables: FSCPU Tables 1 and 3, the UFVS paper's claims about
its Figures 5-10, PU Extra Trees Tables 2-5, SEW-IL Tables 2-4 (ACC-U), GKF-PUAL Tables 2 and 3;
each at the settings of its report in ``results/``.  Writes ``results/scoreboard.csv`` and
``results/scoreboard.md`` (the counts per paper and table, then every row); the same stores give
the same files byte for byte.
"""

from weakfs.experiments._registry import Experiment
from weakfs.experiments.scoreboard._board_report import board
from weakfs.experiments.scoreboard._cells import VERSION, make_cells, run_cell
from weakfs.experiments.scoreboard._protocol import SOURCES
from weakfs.experiments.scoreboard._report import write_report

__all__ = ["EXPERIMENT"]

TITLE = "Scoreboard: every reproduced paper entry against the paper"
EXPERIMENT = Experiment(
    "scoreboard",
    TITLE,
    make_cells,
    run_cell,
    write_report,
    default_runs=1,
    description="computes nothing: the committed cells of the paper experiments, row by row",
    version=VERSION,
    sources=SOURCES,
    derive=board,
)
