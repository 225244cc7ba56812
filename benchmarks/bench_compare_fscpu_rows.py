"""``compare_selectors`` under a budget with FSCPU's row cap (its search on 1,500 of a fold's
rows, the planner's default) and without it (every row), in one process: the iterations the
plan gives FSCPU, whether it ran on every fold, and the wall time.

Table 1's artificial data (one condition, min-max scaled, 4,500 × 50, k = 25).

Run:  python benchmarks/bench_compare_fscpu_rows.py [--condition ca-10-8-2] [--budget 90]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time

from sklearn.preprocessing import MinMaxScaler

from weakfs import compare_selectors
from weakfs.compare._methods import METHODS
from weakfs.datasets import make_fscpu_synthetic


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--condition", default="ca-10-8-2")
    parser.add_argument("--budget", type=float, default=90.0)
    args = parser.parse_args()
    data = make_fscpu_synthetic(args.condition, random_state=0)
    X = MinMaxScaler().fit_transform(data.X)
    print(f"{args.condition}, budget {args.budget:.0f} s, load {os.getloadavg()[0]:.2f}")
    capped = METHODS["fscpu"]
    for label, spec in (("every row", dataclasses.replace(capped, budget_rows=None)),
                        ("1,500 rows (default)", capped)):  # fmt: skip
        METHODS["fscpu"] = spec
        start = time.perf_counter()
        board = compare_selectors(
            X, data.s, methods=["fscpu"], ks=[25], budget=args.budget, prior=0.5,
            random_state=0, progress=False,
        )  # fmt: skip
        seconds = time.perf_counter() - start
        ran = "fscpu" in set(board["method"])
        notes = [n for n in board.attrs["notes"] if n.startswith("fscpu")]
        print(f"{label}: {seconds:.1f} s, FSCPU on the board: {ran}; " + "; ".join(notes))
    METHODS["fscpu"] = capped


if __name__ == "__main__":
    main()
