"""Does FSCPU's objective point its search towards the relevant columns on ca-10-8-2?

On ca-10-8-2 the paper's every-row search ends at FSR 0.76 (two stored runs; paper .89 ± .07)
while the search on 1,500 rows (``search_rows=1500``) ends at 0.96 on the same data.  The
compact GA moves by comparing two candidate masks, so what it can find depends on how often
the objective ranks a mask with one more relevant column above its neighbour.  For pairs of
masks of 25 columns that differ by one swap (an irrelevant column replaced by a relevant one),
this counts the share where the objective prefers the mask with more relevant columns, at
several counts of relevant columns, on every row and on the 1,500 rows the option clusters
(every labeled row and a sample of the rest, as ``FSCPUSelector(search_rows=1500)`` draws
them); ca-10-8-1, where our every-row FSR matches the paper's, is the control.  0.5 is no
signal.  Each mask's mixture is seeded by the mask, as in the search.

Command (about 10 minutes on one core)::

    OMP_NUM_THREADS=1 python benchmarks/fid_fscpu_search_signal.py
"""

from __future__ import annotations

import argparse

import numpy as np
from sklearn.preprocessing import MinMaxScaler

from weakfs.datasets import make_fscpu_synthetic
from weakfs.pu import FSCPUSelector
from weakfs.pu._fscpu._selector import ClusterAssumptionObjective

CONDITIONS = ("ca-10-8-2", "ca-10-8-1")
N_RELEVANT = (13, 16, 19, 22, 24)


def _pairs(rng, relevant, irrelevant, n_relevant, n_pairs):
    """Masks of 25 columns with ``n_relevant`` relevant ones, and each with one irrelevant
    column swapped for a relevant one."""
    d = relevant.size + irrelevant.size
    for _ in range(n_pairs):
        rel = rng.choice(relevant, n_relevant, replace=False)
        irr = rng.choice(irrelevant, relevant.size - n_relevant, replace=False)
        a = np.zeros(d, dtype=bool)
        a[rel] = a[irr] = True
        b = a.copy()
        b[rng.choice(irr)] = False
        b[rng.choice(np.setdiff1d(relevant, rel))] = True
        yield a, b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=20)
    args = parser.parse_args()
    print(
        "share of one-swap pairs where the objective prefers the mask with one more relevant "
        f"column ({args.pairs} pairs per cell, seeds 0-{args.seeds - 1} pooled; ties count half)"
    )
    print(f"| condition | rows | {' | '.join(f'{k} → {k + 1}' for k in N_RELEVANT)} |")
    print(f"|---|---|{'---|' * len(N_RELEVANT)}")
    for condition in CONDITIONS:
        shares = {"every row": {k: [] for k in N_RELEVANT}, "1,500": {k: [] for k in N_RELEVANT}}
        for seed in range(args.seeds):
            data = make_fscpu_synthetic(condition, random_state=seed)
            X = MinMaxScaler().fit_transform(data.X)
            relevant = np.asarray(data.relevant)
            irrelevant = np.setdiff1d(np.arange(X.shape[1]), relevant)
            rows = FSCPUSelector(25, search_rows=1500)._search_rows(data.s, seed)
            objectives = {
                "every row": ClusterAssumptionObjective(X, data.s, 10, seed=seed),
                "1,500": ClusterAssumptionObjective(X[rows], data.s[rows], 10, seed=seed),
            }
            for k in N_RELEVANT:
                rng = np.random.default_rng([seed, k])
                for a, b in _pairs(rng, relevant, irrelevant, k, args.pairs):
                    for name, f in objectives.items():
                        fa, fb = f(a), f(b)
                        shares[name][k].append(1.0 if fb > fa else 0.5 if fb == fa else 0.0)
        for name, by_k in shares.items():
            cells = " | ".join(f"{np.mean(by_k[k]):.2f}" for k in N_RELEVANT)
            print(f"| {condition} | {name} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
