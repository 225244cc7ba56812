"""Why one table's benchmark cells take 1 to 3 times as long from one repetition to another.

Reads the committed cells (``results/benchmark.csv``, the benchmark's cells as its report reads
them; computes nothing).
For every table and regime with at least two repetitions, each selector's selection seconds in
a cell (its automatic k and its fixed ks together) are divided by that selector's median over
the table's repetitions.  If the spread came from the data (a search that runs longer on one
split), the selectors of a cell would disagree; if it came from the machine (its speed or load
while the cell ran), they would share one factor.  Printed: the per-cell common factor (median
of the selectors' log-ratios), how far the selectors lie around it (standard deviation of the
log-ratios within the cell, median over cells), how far the common factors spread across
cells, and their correlation with the cell's wall time against its table's median.  PU Extra
Trees is left out of the factor: its first fit in a fresh process compiles its numba kernels
(seconds on a table that otherwise takes milliseconds), a one-off, not the machine.

Run:  python benchmarks/bench_cell_times.py
"""

from __future__ import annotations

import pathlib

import numpy as np
import pandas as pd

from weakfs._markdown import markdown_table
from weakfs.experiments._registry import RunConfig
from weakfs.experiments._runner import stored_table
from weakfs.experiments.benchmark._report_cells import long_table

ROOT = pathlib.Path(__file__).resolve().parents[1]
#: the selectors timed in (nearly) every labeled cell, PU Extra Trees aside (see above)
TIMED = ("fscpu", "fscpu_mi", "gkf_pual", "semi_jmi", "mrmr")


def _cells() -> pd.DataFrame:
    table = stored_table("benchmark", RunConfig(), ROOT / "results")
    seconds = long_table(table).groupby(["dataset", "regime", "seed", "method"])["select_seconds"]
    per_cell = seconds.sum().unstack()
    per_cell["cell"] = table.groupby(["dataset", "regime", "seed"])["seconds"].first()
    return per_cell.reset_index()


def main() -> None:
    cells = _cells()
    timed = [m for m in TIMED if m in cells]
    rows = []
    for (dataset, regime), group in cells.groupby(["dataset", "regime"]):
        if len(group) < 2:
            continue
        log_ratio = np.log(group[timed] / group[timed].median())
        common = log_ratio.median(axis=1)
        around = log_ratio.sub(common, axis=0).std(axis=1, ddof=0)
        cell = np.log(group["cell"] / group["cell"].median())
        for i in group.index:
            rows.append((dataset, regime, common[i], around[i], cell[i]))
    found = pd.DataFrame(rows, columns=["dataset", "regime", "common", "around", "cell"])
    found = found.dropna()
    summary = pd.DataFrame(
        [
            {
                "cells": len(found),
                "selectors around their cell's common factor (sd of log)": found["around"].median(),
                "common factors across cells (sd of log)": found["common"].std(),
                "cells' wall time across repetitions (sd of log)": found["cell"].std(),
                "corr(common factor, cell time)": np.corrcoef(found["common"], found["cell"])[0, 1],
            }
        ]
    )
    print(markdown_table(summary.round(3)))
    print()
    per_table = found.groupby("regime").agg(
        cells=("cell", "size"),
        largest_common_factor=("common", lambda s: float(np.exp(s.max() - s.min()))),
        median_sd_around=("around", "median"),
    )
    print(markdown_table(per_table.round(2).reset_index()))


if __name__ == "__main__":
    main()
