"""``weakfs reproduce benchmark-fscpu-rows1500 --out FOLDER``: the benchmark's PU cells with FSCPU's
search on 1,500 rows against the committed ones, paired (FOLDER:
``results/other-settings/benchmark-fscpu-rows1500``, where the option's cells are).

It runs no selector: it reads the committed benchmark (``results/benchmark.csv``) and the
option's cells beside its report (``weakfs reproduce benchmark --set fscpu_search_rows=1500
--out ...``), the PU cells of the eight tables with more than 1,500 training rows.  Same cell,
same split, labels, folds and seeds: only the rows of FSCPU and FSCPU-MI may differ, and the
board's flags that read them.  Writes ``benchmark-fscpu-rows1500.csv`` (one row per board row
both hold) and ``.md`` (every other method's rows identical or not; the truth AUC of FSCPU and
FSCPU-MI per table against their seed-to-seed sd; the board's recommendations changed).
"""

from weakfs.experiments._registry import Experiment
from weakfs.experiments.benchmark_fscpu_rows._cells import SOURCES, VERSION, make_cells, run_cell
from weakfs.experiments.benchmark_fscpu_rows._derive import records
from weakfs.experiments.benchmark_fscpu_rows._report import write_report

__all__ = ["EXPERIMENT"]

EXPERIMENT = Experiment(
    "benchmark-fscpu-rows1500",
    "The benchmark's PU cells with FSCPU's search on 1,500 rows, against the committed cells",
    make_cells,
    run_cell,
    write_report,
    default_runs=1,
    description="computes no selection: the benchmark's PU cells with and without FSCPU's "
    "search_rows=1500, paired",
    version=VERSION,
    sources=SOURCES,
    derive=records,
)
