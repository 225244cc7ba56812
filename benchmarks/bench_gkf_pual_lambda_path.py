"""GKF-PUAL regularisation path: share of irrelevant columns removed vs λ1 (diagnostic for Table 3).

On the first split (γ = 0.5, repetition 0) of several gkf_pual-tables tasks, fit GKF-PUAL with
λ2 = 0.1, C2 = 0.1, σ = 1 for a range of λ1, once solved to the optimum (weakfs defaults) and once
with the paper's literal stopping rule (fixed μ = 0.01, ε_rel = 1e-3, ε_abs = 0.25), and print the
share of irrelevant columns removed, of relevant columns kept, and the test F1.

    WEAKFS_DATA=/path/to/data python benchmarks/bench_gkf_pual_lambda_path.py
"""

from __future__ import annotations

import argparse

from sklearn.metrics import f1_score
from threadpoolctl import threadpool_limits

from weakfs.experiments.gkf_pual import make_split
from weakfs.pu import GKFPUALClassifier

SOLVERS = {
    "optimum": {},
    "paper rule": {"adaptive_mu": False, "tol": 1e-3, "abs_tol": 0.25, "max_iter": 100000},
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default="Acc,UMD,OD,Seeds,Ecoli,ENB,HD,RD")
    ap.add_argument("--lambdas", default="0.1,1,3,10,20,30,50,100")
    args = ap.parse_args()
    print("| dataset | λ1 | solver | irrelevant removed % | relevant kept % | test F1 % | iters |")
    print("|---|---|---|---|---|---|---|")
    with threadpool_limits(1):
        for d in args.datasets.split(","):
            data = make_split(d, 0.5, 0)
            m = data["n_relevant"]
            for lam in (float(v) for v in args.lambdas.split(",")):
                for name, kw in SOLVERS.items():
                    clf = GKFPUALClassifier(
                        lambda1=lam, lambda2=0.1, C2=0.1, sigma=1.0, standardize=False, **kw
                    ).fit(data["X_train"], data["s_train"])
                    sup = clf.support_
                    f1 = 100 * f1_score(data["y_test"], clf.predict(data["X_test"]))
                    print(
                        f"| {d} | {lam:g} | {name} | {100 * (~sup[m:]).mean():.0f} | "
                        f"{100 * sup[:m].mean():.0f} | {f1:.1f} | {clf.n_iter_} |",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
