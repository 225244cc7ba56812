"""The benchmark cells where the board's recommendation lies more than 0.03 below the best.

Reads the committed cells (``results/benchmark.csv``, the benchmark's cells as its report reads
them) and lists every
labeled cell whose recommended candidate (each selector at its automatic k, and all features)
is more than ``--margin`` truth AUC (logistic judge) below the truly best candidate, with

- whether the board said it cannot tell (abstained), and why (few labeled rows per test fold);
- the cell's test rows: positives and negatives, rebuilt with the cell's own split;
- ``pairs``: the regret as a count of (positive, negative) pairs of test rows the two
  candidates order differently (an AUC is the share of such pairs ordered right);
- ``se``: the standard error of one truth AUC at the recommendation's value on those test rows
  (Hanley & McNeil, *Radiology* 1982): how finely the judge itself measures the truth there, if
  the best candidate were no better than the recommendation.

A regret within about one ``se`` is within the judge's own error on that cell.  Then, over the
cells where the board abstains (and those with fewer than 5 labeled rows per test fold), the
mean regret of each candidate taken always: what the abstaining board's default is measured
against.  Last, the mean regrets split by how finely the judge measures a cell: ``se`` of all
features' truth AUC at most ``--precise`` (default 0.05) or above it.  Last, what the top group
holds: its mean size beside the board's candidates, the share of cells where the board
abstained, and the mean regret of its best member picked with the truth (a bound for any rule
that picks within the top group, not a rule: the board has no truth), beside the board's and all
features'.  Computes no selection; reads the data only to count the test rows.

Run:  WEAKFS_DATA=/path/to/data python benchmarks/bench_calibration_misses.py [--margin 0.03]
"""

from __future__ import annotations

import argparse
import functools
import math
import pathlib

import numpy as np
import pandas as pd

from weakfs._markdown import markdown_table
from weakfs.compare import ALL_FEATURES, RANDOM
from weakfs.experiments._registry import RunConfig
from weakfs.experiments._runner import stored_table
from weakfs.experiments.benchmark._cells import cell_split
from weakfs.experiments.benchmark._report_cells import candidates, long_table

RESULTS = pathlib.Path(__file__).resolve().parents[1] / "results" / "benchmark.csv"
CELL = ["dataset", "regime", "seed"]


def hanley_mcneil_se(auc: float, n_positive: int, n_negative: int) -> float:
    """Standard error of an ROC AUC from the counts alone (Hanley & McNeil, 1982)."""
    q1, q2 = auc / (2 - auc), 2 * auc**2 / (1 + auc)
    variance = auc * (1 - auc) + (n_positive - 1) * (q1 - auc**2) + (n_negative - 1) * (q2 - auc**2)
    return math.sqrt(max(variance, 0.0) / (n_positive * n_negative))


def board_candidates(cells: pd.DataFrame) -> pd.DataFrame:
    """One row per (cell, candidate) as the report reads them (each selector at its automatic
    k, and all features), with the cell's regret of each and whether its board abstained."""
    long = candidates(long_table(cells))
    long = long[long["method"] != RANDOM].copy()
    long["regret"] = long.groupby(CELL)["truth_auc"].transform("max") - long["truth_auc"]
    notes = cells[CELL].assign(notes=cells["notes"].astype(str))
    long = long.merge(notes, on=CELL, how="left", validate="many_to_one")
    long["abstained"] = long["notes"].str.contains("cannot tell", regex=False)
    long["few labels per fold"] = long["notes"].str.contains("fewer than 5", regex=False)
    return long


def default_regrets(long: pd.DataFrame) -> pd.DataFrame:
    """Mean regret of always taking each candidate, over the abstaining cells per label kind."""
    parts = []
    for subset, label in (
        ("abstained", "abstained"),
        ("few labels per fold", "fewer than 5 labeled per test fold"),
    ):
        rows = long[long[subset]].assign(cells=label)
        rows["labels"] = np.where(rows["regime"].str.startswith("pu"), "PU", "semi")
        parts.append(rows)
    frame = pd.concat(parts)
    table = frame.groupby(["cells", "labels", "method"]).agg(
        mean_regret=("regret", "mean"), n_cells=("regret", "size")
    )
    table = table.reset_index().rename(columns={"method": "always"})
    return table.sort_values(["cells", "labels", "mean_regret"]).round(4)


def recommended_row(cell: pd.DataFrame) -> pd.Series:
    """The candidate the cell's board recommended (exactly one per cell)."""
    return cell[cell["recommended"].astype(bool)].iloc[0]


@functools.cache
def test_counts(dataset: str, regime: str, seed: int) -> tuple[int, int]:
    """Positive and negative test rows of a cell, from the cell's own split."""
    _, y, _, _, test, _ = cell_split(dataset, regime, seed)
    positives = int(y[test].sum())
    return positives, test.size - positives


def by_judge_precision(long: pd.DataFrame, precise: float) -> pd.DataFrame:
    """Mean regret of the board and of always all features, per regime, over the cells where the
    judge's standard error of all features' truth AUC is at most ``precise`` and over the rest."""
    rows = []
    for (dataset, regime, seed), cell in long.groupby(CELL, sort=False):
        everything = cell[cell["method"] == ALL_FEATURES].iloc[0]
        se = hanley_mcneil_se(everything["truth_auc"], *test_counts(dataset, regime, int(seed)))
        rows.append(
            {
                "regime": regime,
                "judge se": f"<= {precise}" if se <= precise else f"> {precise}",
                "board": recommended_row(cell)["regret"],
                "all features": everything["regret"],
                "dataset": dataset,
            }
        )
    frame = pd.DataFrame(rows)
    table = frame.groupby(["regime", "judge se"]).agg(
        cells=("board", "size"),
        datasets=("dataset", "nunique"),
        board=("board", "mean"),
        all_features=("all features", "mean"),
    )
    return table.reset_index().round(4)


def top_group_bound(long: pd.DataFrame) -> pd.DataFrame:
    """Per regime: candidates and tied candidates per cell, the share of cells where the board
    abstained (said the labels cannot tell the candidates apart), and the mean regret of the
    board, of always all features and of the top group's truly best member (a within-group
    rule's bound)."""
    tied = long[long["tied"].astype(bool)]
    per_cell = pd.DataFrame(
        {
            "candidates": long.groupby(CELL).size(),
            "tied": tied.groupby(CELL).size(),
            "abstained": long.groupby(CELL)["abstained"].first(),
            "board": long[long["recommended"].astype(bool)].set_index(CELL)["regret"],
            "all_features": long[long["method"] == ALL_FEATURES].set_index(CELL)["regret"],
            "top_group_best": tied.groupby(CELL)["regret"].min(),
        }
    )
    table = per_cell.groupby(level="regime").agg(
        cells=("board", "size"),
        candidates=("candidates", "mean"),
        tied=("tied", "mean"),
        abstained=("abstained", "mean"),
        board=("board", "mean"),
        all_features=("all_features", "mean"),
        top_group_best=("top_group_best", "mean"),
    )
    return table.reset_index().round(4)


def misses(long: pd.DataFrame, margin: float) -> pd.DataFrame:
    rows = []
    for (dataset, regime, seed), cell in long.groupby(CELL, sort=False):
        best = cell.loc[cell["truth_auc"].idxmax()]
        chosen = recommended_row(cell)
        if chosen["regret"] <= margin:
            continue
        positives, negatives = test_counts(dataset, regime, int(seed))
        rows.append(
            {
                "regime": regime,
                "dataset": dataset,
                "seed": int(seed),
                "recommended": f"{chosen['method']} ({chosen['k']})",
                "best": f"{best['method']} ({best['k']})",
                "regret": round(chosen["regret"], 3),
                "abstained": chosen["abstained"],
                "few labels per fold": chosen["few labels per fold"],
                "test +/-": f"{positives}/{negatives}",
                "pairs": f"{round(chosen['regret'] * positives * negatives)}"
                f" of {positives * negatives}",
                "se": round(hanley_mcneil_se(chosen["truth_auc"], positives, negatives), 3),
            }
        )
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--margin", type=float, default=0.03)
    parser.add_argument("--precise", type=float, default=0.05)
    args = parser.parse_args()
    cells = stored_table("benchmark", RunConfig(), RESULTS.parent)  # lists per candidate
    cells = cells[cells.regime != "none"]
    long = board_candidates(cells)
    table = misses(long, args.margin)
    print(f"{len(table)} of {len(cells)} labeled cells more than {args.margin} below the best")
    if len(table):
        table = table.sort_values(["regime", "dataset", "seed"])
        print(markdown_table(table))
        within = int(np.sum(table.regret <= table.se))
        print(f"\nregret within one se of the judge: {within} of {len(table)}")
    print("\nalways one candidate, where the board abstains:")
    print(markdown_table(default_regrets(long)))
    print("\nmean regret by the judge's precision (se of all features' truth AUC):")
    print(markdown_table(by_judge_precision(long, args.precise)))
    print("\nwhat the top group holds (top_group_best: its truly best member, a bound, no rule):")
    print(markdown_table(top_group_bound(long)))


if __name__ == "__main__":
    main()
