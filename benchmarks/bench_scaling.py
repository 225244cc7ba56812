"""Each method's cost at two table sizes, against its paper's complexity in the rows.

Data: ``m`` columns (5 informative, the rest noise; ``make_informative_noise``), PU labels with
30 % of the positives labeled (SCAR) for the PU methods, 5 % of each class labeled for the
semi-supervised ones, none for UFVS.  Every fit runs in its own child process (one BLAS/OpenMP
thread) at its defaults (k = 10 where it takes one), with a timeout; the child reports its wall
time and peak resident memory (``ru_maxrss``).  From the two sizes: the measured exponent
``log(t2 / t1) / log(n2 / n1)``, and the rows that would take one minute if that exponent held
(an extrapolation, stated as such; memory may bind first: see the peak).  Seconds exclude
numba's compilation (a warm-up fit on 200 rows first).

    python benchmarks/bench_scaling.py [--rows 2000 20000] [--m 50] [--timeout 180]
                                       [--methods semi_jmi,mrmr,...]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys

# method -> (labels, constructor expression, the paper's cost in the rows n)
METHODS = {
    "semi_jmi": ("pu", "weakfs.pu.SemiJMISelector(n_features_to_select=10)", "n k d (counts)"),
    "mrmr": ("pu", "weakfs.pu.MRMRSelector(n_features_to_select=10)", "n k d (counts)"),
    "ufvs": ("none", "weakfs.unsupervised.UFVSSelector()", "n d (value counts)"),
    "pu_extra_trees": (
        "pu",
        "weakfs.pu.PUExtraTreesClassifier(n_estimators=100, random_state=0, verbose=False)",
        "T n log n (trees)",
    ),
    "fscpu": (
        "pu",
        "weakfs.pu.FSCPUSelector(10, random_state=0, verbose=False)",
        "T n (one clustering per iteration)",
    ),
    "gkf_pual": ("pu", "weakfs.pu.GKFPUALClassifier()", "n (ADMM on a k-NN graph; CG past 2,000)"),
    "pual": ("pu", "weakfs.pu.PUALClassifier()", "n^2 to n^3 (kernel matrix)"),
    "nnpu": ("pu", "weakfs.pu.NNPUClassifier(prior=0.3, random_state=0)", "n (epochs)"),
    "sewil": (
        "semi",
        "weakfs.semi_supervised.SEWILSelector(random_state=0, verbose=False)",
        "G P T n log n (forests per candidate)",
    ),
    "rlsr": ("semi", "weakfs.semi_supervised.RLSRSelector(n_features_to_select=10)", "n d^2"),
}

CHILD = """
import json, resource, sys, time
import numpy as np
import weakfs.pu, weakfs.semi_supervised, weakfs.unsupervised
from weakfs.datasets import make_informative_noise, make_pu_labels
n, m, labels, expr = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
X, y, _ = make_informative_noise(n, n_informative=5, n_redundant=0, n_noise=m - 5,
                                 as_frame=False, random_state=0)
if labels == "pu":
    target = make_pu_labels(y, positive=1, labeled_fraction=0.3, random_state=0).s
elif labels == "semi":
    rng = np.random.RandomState(0)
    target = np.full(n, -1)
    for c in (0, 1):
        rows = np.flatnonzero(y == c)
        target[rng.choice(rows, max(3, round(0.05 * rows.size)), replace=False)] = c
else:
    target = None
from sklearn.base import clone
model = eval(expr)
# a first fit on a few rows compiles numba's kernels, which a user pays once per install
warm = slice(0, 200) if target is None or labels != "semi" else slice(None, None, max(1, n // 200))
try:
    clone(model).fit(X[warm]) if target is None else clone(model).fit(X[warm], target[warm])
except Exception:
    pass
t0 = time.perf_counter()
model.fit(X) if target is None else model.fit(X, target)
seconds = time.perf_counter() - t0
print(json.dumps({"seconds": seconds,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def fit_in_child(n: int, m: int, labels: str, expr: str, timeout: float) -> dict:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(n), str(m), labels, expr],
            capture_output=True,
            text=True,
            env=env,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return {"seconds": math.inf, "peak_mb": math.nan, "error": f"> {timeout:g} s"}
    if done.returncode != 0:
        return {"seconds": math.nan, "peak_mb": math.nan, "error": done.stderr.strip()[-200:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, nargs=2, default=[2000, 20000])
    ap.add_argument("--m", type=int, default=50)
    ap.add_argument("--timeout", type=float, default=180)
    ap.add_argument("--methods", default=",".join(METHODS))
    args = ap.parse_args()
    n1, n2 = args.rows
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    print(
        f"method | paper's cost | {n1:,} x {args.m}: s, peak MB | {n2:,} x {args.m}: s, peak MB"
        " | measured exponent | rows in 1 minute (extrapolated)"
    )
    for name in args.methods.split(","):
        labels, expr, cost = METHODS[name]
        small = fit_in_child(n1, args.m, labels, expr, args.timeout)
        large = (
            fit_in_child(n2, args.m, labels, expr, args.timeout)
            if math.isfinite(small["seconds"])
            else {"seconds": math.inf, "peak_mb": math.nan, "error": "not run"}
        )

        def cell(r):
            if "error" in r:
                return r["error"]
            return f"{r['seconds']:.2f}, {r['peak_mb']:.0f}"

        exponent = minute = "–"
        t1, t2 = small["seconds"], large["seconds"]
        if all(math.isfinite(t) and t > 0 for t in (t1, t2)):
            b = math.log(t2 / t1) / math.log(n2 / n1)
            exponent = f"{b:.2f}"
            if b > 0.05:
                rows = n2 * (60 / t2) ** (1 / b)
                minute = f"{rows:,.0f}" if rows < 1e7 else "> 10,000,000"
        print(f"{name} | {cost} | {cell(small)} | {cell(large)} | {exponent} | {minute}")
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
