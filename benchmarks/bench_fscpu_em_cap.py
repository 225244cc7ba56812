"""How often FSCPU's mixture fits end at EM's iteration cap, and whether the cap or the tolerance
is the issue: the paper's fit (K = 10 full covariance, tol 1e-3, max_iter 100, k-means start) on
random masks of a Table-1 condition, then the same fits with a higher cap.  Counts only, no
timing (the machine's load does not matter).

For each mask: EM iterations at max_iter = 100, whether the fit converged, and, for the fits at
the cap, the iterations they need with max_iter = 1000, the gain in mean log-likelihood from
going on, and whether the hard clustering (and so FSCPU's objective) changes.

Run:  python benchmarks/bench_fscpu_em_cap.py [--condition ca-10-8-2] [--masks 40] [--k 25]
"""

from __future__ import annotations

import argparse

import numpy as np
from sklearn.preprocessing import MinMaxScaler
from threadpoolctl import threadpool_limits

from weakfs.datasets import make_fscpu_synthetic
from weakfs.pu._fscpu._cluster_objective import cluster_objective
from weakfs.pu._fscpu._gmm import fit_gaussian_mixture


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--condition", default="ca-10-8-2")
    parser.add_argument("--masks", type=int, default=40)
    parser.add_argument("--k", type=int, default=25)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    data = make_fscpu_synthetic(args.condition, random_state=args.seed)
    X = MinMaxScaler().fit_transform(data.X)
    rng = np.random.RandomState(args.seed)
    rows = []
    with threadpool_limits(1):
        for i in range(args.masks):
            mask = np.zeros(X.shape[1], bool)
            mask[rng.choice(X.shape[1], args.k, replace=False)] = True
            Z = np.ascontiguousarray(X[:, mask])
            capped = fit_gaussian_mixture(Z, 10, max_iter=100, random_state=i)
            row = {"n_iter": capped.n_iter, "converged": capped.converged}
            if not capped.converged:
                longer = fit_gaussian_mixture(Z, 10, max_iter=1000, random_state=i)
                f_capped = cluster_objective(capped.labels, data.s, 10)
                f_longer = cluster_objective(longer.labels, data.s, 10)
                row.update(
                    n_iter_1000=longer.n_iter,
                    converged_1000=longer.converged,
                    gain=longer.log_likelihood - capped.log_likelihood,
                    same_labels=float(np.mean(capped.labels == longer.labels)),
                    objective_change=f_longer - f_capped,
                )
            rows.append(row)
    capped_rows = [r for r in rows if not r["converged"]]
    n_iter = np.array([r["n_iter"] for r in rows])
    print(
        f"{args.condition}, {args.masks} random masks of {args.k} columns, {X.shape[0]} rows: "
        f"EM iterations median {np.median(n_iter):.0f}, at the cap of 100: "
        f"{len(capped_rows)} of {len(rows)} ({len(capped_rows) / len(rows):.0%})"
    )
    if capped_rows:
        more = np.array([r["n_iter_1000"] for r in capped_rows])
        gain = np.array([r["gain"] for r in capped_rows])
        change = np.array([abs(r["objective_change"]) for r in capped_rows])
        done = sum(r["converged_1000"] for r in capped_rows)
        print(
            f"the capped fits with max_iter = 1000: converged {done} "
            f"of {len(capped_rows)}, iterations median {np.median(more):.0f} "
            f"(range {more.min()}-{more.max()}); mean log-likelihood gained: median "
            f"{np.median(gain):.4f}, max {gain.max():.4f} (the tolerance is 1e-3 per iteration); "
            f"|change of FSCPU's objective|: median {np.median(change):.4f}, max "
            f"{change.max():.4f}"
        )


if __name__ == "__main__":
    main()
