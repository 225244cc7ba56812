"""The benchmark cells where the board's recommendation lies more than 0.03 below the best.

Reads the committed cells (``results/benchmark.csv``, current versions only) and lists every
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
against.  Computes no selection; reads the data only to count the test rows.

Run:  WEAKFS_DATA=/path/to/data python benchmarks/bench_calibration_misses.py [--margin 0.03]
"""

from __future__ import annotations

import argparse
import ast
import math
import pathlib

import numpy as np
import pandas as pd

from weakfs._markdown import markdown_table
from weakfs.compare import ALL_FEATURES
from weakfs.experiments.benchmark._cells import cell_split

RESULTS = pathlib.Path(__file__).resolve().parents[1] / "results" / "benchmark.csv"


def hanley_mcneil_se(auc: float, n_positive: int, n_negative: int) -> float:
    """Standard error of an ROC AUC from the counts alone (Hanley & McNeil, 1982)."""
    q1, q2 = auc / (2 - auc), 2 * auc**2 / (1 + auc)
    variance = auc * (1 - auc) + (n_positive - 1) * (q1 - auc**2) + (n_negative - 1) * (q2 - auc**2)
    return math.sqrt(max(variance, 0.0) / (n_positive * n_negative))


def _listed(value):
    return ast.literal_eval(value.replace("nan", "None")) if isinstance(value, str) else value


def _candidates(cell) -> tuple[list, list, list, list[int]]:
    """``(methods, ks, truth AUCs, indices of the board's candidates)`` of a cell: each
    selector at its automatic k, and all features."""
    method, k, rule = _listed(cell.method), _listed(cell.k), _listed(cell.k_rule)
    auc = _listed(cell.truth_auc)
    candidates = [i for i in range(len(method)) if rule[i] == "auto" or method[i] == ALL_FEATURES]
    return method, k, auc, candidates


def default_regrets(cells: pd.DataFrame) -> pd.DataFrame:
    """Mean regret of always taking each candidate, over the abstaining cells per regime kind."""
    rows = []
    for _, cell in cells.iterrows():
        method, _, auc, candidates = _candidates(cell)
        best = max(auc[i] for i in candidates)
        notes = str(cell.notes)
        for i in candidates:
            for subset, member in (
                ("abstained", "cannot tell" in notes),
                ("fewer than 5 labeled per test fold", "fewer than 5" in notes),
            ):
                if member:
                    kind = "PU" if cell.regime.startswith("pu") else "semi"
                    rows.append((subset, kind, method[i], best - auc[i], cell.cell_key))
    frame = pd.DataFrame(rows, columns=["cells", "labels", "always", "regret", "cell"])
    table = frame.groupby(["cells", "labels", "always"]).agg(
        mean_regret=("regret", "mean"), n_cells=("cell", "nunique")
    )
    return table.reset_index().sort_values(["cells", "labels", "mean_regret"]).round(4)


def misses(cells: pd.DataFrame, margin: float) -> pd.DataFrame:
    rows = []
    for _, cell in cells.iterrows():
        method, k, auc, candidates = _candidates(cell)
        recommended = _listed(cell.recommended)
        best = max(candidates, key=lambda i: auc[i])
        chosen = next(i for i in candidates if recommended[i])
        if auc[best] - auc[chosen] <= margin:
            continue
        _, y, _, _, test, _ = cell_split(cell.dataset, cell.regime, int(cell.seed))
        positives = int(y[test].sum())
        negatives = test.size - positives
        notes = str(cell.notes)
        rows.append(
            {
                "regime": cell.regime,
                "dataset": cell.dataset,
                "seed": int(cell.seed),
                "recommended": f"{method[chosen]} ({k[chosen]})",
                "best": f"{method[best]} ({k[best]})",
                "regret": round(auc[best] - auc[chosen], 3),
                "abstained": "cannot tell" in notes,
                "few labels per fold": "fewer than 5" in notes,
                "test +/-": f"{positives}/{negatives}",
                "pairs": f"{round((auc[best] - auc[chosen]) * positives * negatives)}"
                f" of {positives * negatives}",
                "se": round(hanley_mcneil_se(auc[chosen], positives, negatives), 3),
            }
        )
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--margin", type=float, default=0.03)
    args = parser.parse_args()
    cells = pd.read_csv(RESULTS)
    cells = cells[cells.superseded.isna() & (cells.regime != "none")]
    table = misses(cells, args.margin)
    print(f"{len(table)} of {len(cells)} labeled cells more than {args.margin} below the best")
    if len(table):
        table = table.sort_values(["regime", "dataset", "seed"])
        print(markdown_table(table))
        within = int(np.sum(table.regret <= table.se))
        print(f"\nregret within one se of the judge: {within} of {len(table)}")
    print("\nalways one candidate, where the board abstains:")
    print(markdown_table(default_regrets(cells)))


if __name__ == "__main__":
    main()
