"""What the benchmark-fscpu-rows1500 experiment reads, shared by its derivation and its report."""

from weakfs.experiments._registry import RunConfig
from weakfs.experiments.benchmark._protocol import (
    FSCPU_SEARCH_ROWS,
    FSCPU_SEARCH_ROWS_TABLES,
    PU_REGIMES,
)

__all__ = ["OPTION", "PU_REGIMES", "SOURCES", "TABLES"]

#: the option compared: FSCPU's search on this many rows
OPTION = {"fscpu_search_rows": FSCPU_SEARCH_ROWS}
#: the tables whose cells the option changes (more than 1,500 training rows; a test checks this
#: against the benchmark's own rule, ``make_cells``, which needs the data to tell)
TABLES = list(FSCPU_SEARCH_ROWS_TABLES)
#: the committed benchmark in the results folder (two levels above this report) and the
#: option's cells beside this report (``name@folder``: a store relative to the output folder)
SOURCES = {
    "benchmark@../..": RunConfig(
        datasets=TABLES, methods=list(PU_REGIMES), options={"fscpu_search_rows": None}
    ),
    "benchmark": RunConfig(datasets=TABLES, methods=list(PU_REGIMES), options=dict(OPTION)),
}
#: the store of each side, by its key in ``SOURCES``
SIDES = {"benchmark@../..": "paper", "benchmark": "option"}
