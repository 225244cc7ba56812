"""``weakfs reproduce board-at-k``: which selector the board recommends at a size the user names
(k = 10, 20, 50), in every labeled cell of the weak-label benchmark, evaluated leave one dataset
out; and the guide the package ships for it (``weakfs/compare/size_guide.json``).

It runs no selector: it reads the benchmark's committed cells and re-derives each cell's labeled
count from its split (so it reads the staged datasets).  Writes ``results/board-at-k.csv`` (one
row per labeled cell, k and selection: its posterior, ``recommended_at_k``, ``tied_at_k``),
``results/board-at-k.md`` and the guide.
"""

from weakfs.experiments._registry import Experiment
from weakfs.experiments.board_at_k._cells import SOURCES, VERSION, make_cells, run_cell
from weakfs.experiments.board_at_k._derive import records
from weakfs.experiments.board_at_k._report import write_report

__all__ = ["EXPERIMENT"]

EXPERIMENT = Experiment(
    "board-at-k",
    "The board at a size the user names: its recommendation against every fixed selector",
    make_cells,
    run_cell,
    write_report,
    default_runs=1,
    description="computes no selection: the benchmark's cells at k = 10, 20, 50, leave one "
    "dataset out, and the size guide the package ships",
    version=VERSION,
    sources=SOURCES,
    derive=records,
)
