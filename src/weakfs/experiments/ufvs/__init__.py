"""``weakfs reproduce ufvs``: the UFVS paper's Figures 5-10 on the datasets available here.

One cell per (dataset, mode, cut-off).  The cut-off is the paper's count form ``n`` (values held by
at most ``n`` rows, or by at least ``|D| - n``, are dropped), taken as fractions of the rows.
``mode`` is ``paper`` (every value, 0 included, is a candidate, as the paper's definitions read)
or ``zero_absent`` (0 means "absent": the library default for sparse input and, as far as the
authors' group's code is described, their treatment of sparse data; every dataset here but
MADELON has many zeros).  Labels ``C`` are binary as in the paper (KDD: normal vs attack) and
used only for the measures.  A third mode, ``discrete`` (0 a value, columns of at most 20
distinct values kept unbinned), runs on ADA and HIVA (or on the datasets named).  UFVS is
deterministic, so there is no seed axis.
"""

from weakfs.experiments._registry import Experiment
from weakfs.experiments.ufvs._cells import VERSION, make_cells, run_cell
from weakfs.experiments.ufvs._report import write_report
from weakfs.experiments.ufvs._scoreboard_report import scoreboard_rows

__all__ = ["EXPERIMENT", "scoreboard_rows"]

TITLE = "UFVS (Shin et al.): selection paths, Figures 5-10"
DESCRIPTION = "UFVS over a range of cut-offs on the NIPS 2003 / WCCI 2006 / KDD 99 datasets"
EXPERIMENT = Experiment(
    "ufvs",
    TITLE,
    make_cells,
    run_cell,
    write_report,
    default_runs=1,
    description=DESCRIPTION,
    version=VERSION,
)
