"""GKF-PUAL past 10,000 rows: the graph system (eq. 25) factored vs by conjugate gradients.

Each fit runs in its own child process (one BLAS thread) that reports its wall time and its peak
resident memory (``ru_maxrss``, the "Maximum resident set size" of ``/usr/bin/time -v``).  Data:
``m`` N(0, 1) columns, positive when ``x0² + x1² > 1.5``, half of the positives labeled;
``GKFPUALClassifier(lambda1=1, C2=0.05)`` with its other defaults (K = 5 k-NN graph).  Where both
solvers run, the objective's relative difference and the iteration counts are compared.

    python benchmarks/bench_gkf_pual_graph.py [--rows 560 2240 5000] [--large 20000] [--m 8]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CHILD = """
import json, resource, sys, time
import numpy as np
from weakfs.pu import GKFPUALClassifier
n, m, solver = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = np.random.RandomState(0)
X = rng.normal(size=(n, m))
y = (X[:, 0] ** 2 + X[:, 1] ** 2 > 1.5).astype(int)
s = y * (rng.uniform(size=n) < 0.5)
t0 = time.perf_counter()
clf = GKFPUALClassifier(lambda1=1.0, C2=0.05, graph_solver=solver).fit(X, s)
seconds = time.perf_counter() - t0
print(json.dumps({"seconds": seconds, "n_iter": clf.n_iter_, "objective": clf.objective_,
                  "converged": bool(clf.converged_), "support": int(clf.support_.sum()),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def fit_in_child(n: int, m: int, solver: str) -> dict:
    """One fit in a fresh process with one BLAS thread: its time, peak memory and solution."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(n), str(m), solver],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, nargs="+", default=[560, 2240, 5000])
    ap.add_argument("--large", type=int, nargs="*", default=[20000])
    ap.add_argument("--m", type=int, default=8)
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    print("rows x m | direct: s, peak MB, iterations | cg: s, peak MB, iterations | "
          "ratio | objective rel. diff")  # fmt: skip
    for n in args.rows:
        d = fit_in_child(n, args.m, "direct")
        c = fit_in_child(n, args.m, "cg")
        gap = abs(c["objective"] - d["objective"]) / abs(d["objective"])
        print(
            f"{n} x {args.m} | {d['seconds']:.2f}, {d['peak_mb']:.0f}, {d['n_iter']} | "
            f"{c['seconds']:.2f}, {c['peak_mb']:.0f}, {c['n_iter']} | "
            f"{d['seconds'] / c['seconds']:.1f}x | {gap:.1e}"
        )
    for n in args.large:
        c = fit_in_child(n, args.m, "cg")
        print(
            f"{n} x {args.m} | (not run) | {c['seconds']:.2f}, {c['peak_mb']:.0f}, "
            f"{c['n_iter']} (converged: {c['converged']}, {c['support']} features kept)"
        )
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
