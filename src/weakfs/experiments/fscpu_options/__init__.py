"""``weakfs reproduce fscpu-options --out results/other-settings/fscpu-options``: FSCPU's speed
options against the paper's search on Table 1's artificial data, paired by seed.

It runs no selector: it reads the Table-1 cells of the paper's FSCPU and FSCPU-MI (the committed
``results/fscpu-table1.csv``) and of the options (``fscpu-table1.csv`` in the output folder,
``weakfs reproduce fscpu-table1 --methods fscpu-rows1500,... --out ...``).  Writes
``fscpu-options.csv`` (one row per run: method, condition, seed, FSR, seconds and how its
mixture fits ended) and ``fscpu-options.md`` (each option against the default's seed-to-seed
spread, condition by condition, and its speed-up).
"""

from weakfs.experiments._registry import Experiment
from weakfs.experiments.fscpu_options._cells import SOURCES, VERSION, make_cells, run_cell
from weakfs.experiments.fscpu_options._derive import records
from weakfs.experiments.fscpu_options._report import write_report

__all__ = ["EXPERIMENT"]


EXPERIMENT = Experiment(
    "fscpu-options",
    "FSCPU's speed options against the paper's search (Table 1's data, paired by seed)",
    make_cells,
    run_cell,
    write_report,
    default_runs=1,
    description="computes no selection: Table 1's cells of the paper's FSCPU/FSCPU-MI and of "
    "their speed options, paired by seed",
    version=VERSION,
    sources=SOURCES,
    derive=records,
)
