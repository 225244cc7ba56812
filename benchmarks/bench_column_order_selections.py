"""How often a benchmark selection is the table's first columns: ties filled in column order.

A ranker whose scores are tied (PU permutation importance measures a drop of exactly zero for a
column when no shuffle moves a held-out labeled row past an unlabeled one) fills its k columns
by a stable sort, i.e. in column order.  Such a selection is not a choice the data made.

Reads the committed cells (``results/benchmark.csv``, the benchmark's cells as its report reads
them) and counts, per
method and table family, the candidate rows (k at most ``--max-k``, tables of at least
``--min-width`` columns) whose selection lies mostly (``--share``, default 80 %) among the
table's first 2k columns; a random selection lands there 2k / d of the time (at most 20 % here).

With ``--refit N``, it then refits PU permutation importance as the board refitted it (all
training rows of the cell, the cell's prior and the board's first seed) on N cells of those
tables at the automatic k, checks that it gives the committed selection, and prints how many of
its k columns scored no higher than zero (``n_tied_selected_``).

Run:  WEAKFS_DATA=/path/to/data python benchmarks/bench_column_order_selections.py [--refit 8]
"""

from __future__ import annotations

import argparse
import pathlib

import numpy as np
import pandas as pd

from weakfs._markdown import markdown_table
from weakfs.compare import RANDOM
from weakfs.compare._folds import tied_fit
from weakfs.experiments._registry import RunConfig
from weakfs.experiments._runner import stored_table
from weakfs.experiments.benchmark._report_cells import long_table

CELLS = pathlib.Path(__file__).resolve().parents[1] / "results" / "benchmark.csv"


def _in_first_columns(features, k: int) -> float:
    return float(np.mean(np.asarray(features) < 2 * k))


def column_order_rows(long: pd.DataFrame, *, min_width: int, max_k: int, share: float):
    rows = long[
        (long.method != RANDOM)
        & (long.method != "all features")
        & (long.n_features >= min_width)
        & (long.k <= max_k)
    ].copy()
    rows["first"] = [_in_first_columns(f, k) for f, k in zip(rows.features, rows.k)]
    rows["column_order"] = rows["first"] >= share
    return rows


def refit_check(rows: pd.DataFrame, cells: pd.DataFrame, n: int) -> pd.DataFrame:
    from weakfs._validation import spawn_seeds
    from weakfs.compare._methods import METHODS
    from weakfs.experiments.benchmark._cells import cell_split

    auto = rows[(rows.method == "pu_permutation") & (rows.k_rule == "auto")]
    auto = auto.drop_duplicates(["dataset", "regime"]).head(n)  # one cell per table and regime
    out = []
    for _, row in auto.iterrows():
        cell = cells[
            (cells.dataset == row.dataset) & (cells.regime == row.regime) & (cells.seed == row.seed)
        ].iloc[0]
        Xs, _, names, tr, _, weak = cell_split(row.dataset, row.regime, int(row.seed))
        seed = int(spawn_seeds(int(row.seed), 1)[0])
        est = METHODS["pu_permutation"].build(int(row.k), None, float(cell.prior), seed)
        tied_fit(est, Xs[tr], weak)  # the count is printed below, not warned
        chosen = sorted(int(names[j]) for j in np.flatnonzero(est.get_support()))
        out.append(
            {
                "table": row.dataset,
                "regime": row.regime,
                "seed": int(row.seed),
                "k": int(row.k),
                "labeled rows": int(weak.sum()),
                "same as committed": chosen == sorted(row.features),
                "tied in column order": int(est.n_tied_selected_),
            }
        )
    return pd.DataFrame(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-width", type=int, default=1000)
    parser.add_argument("--max-k", type=int, default=100)
    parser.add_argument("--share", type=float, default=0.8)
    parser.add_argument("--refit", type=int, default=0)
    args = parser.parse_args()
    cells = stored_table("benchmark", RunConfig(), CELLS.parent)
    long = long_table(cells)
    rows = column_order_rows(long, min_width=args.min_width, max_k=args.max_k, share=args.share)
    by = rows.groupby(["method", "family"]).column_order.agg(["size", "sum", "mean"])
    by = by.reset_index().rename(columns={"size": "rows", "sum": "in column order"})
    by["share"] = by.pop("mean").round(2)
    print(
        f"Rows (k <= {args.max_k}, tables of >= {args.min_width} columns) with at least "
        f"{args.share:.0%} of their columns among the table's first 2k:"
    )
    print(markdown_table(by[by["in column order"] > 0]))
    cells_hit = rows[rows.column_order].groupby(["dataset", "regime", "seed"]).ngroups
    n_cells = rows.groupby(["dataset", "regime", "seed"]).ngroups
    print(f"\ncells with such a row: {cells_hit} of {n_cells}")
    if args.refit:
        print()
        print(markdown_table(refit_check(rows, cells, args.refit)))


if __name__ == "__main__":
    main()
