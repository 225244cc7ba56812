"""The newcomer's performance cliffs, measured: semi-JMI on a wide table and FSCPU's n_jobs.

Run:  python benchmarks/bench_cliffs.py [--old-src PATH]

1. semi-JMI, k = 10, on a 102 x 5,968 table shaped like a gene-expression export (continuous
   columns, 20 labeled positives).  With ``--old-src`` (a checkout's ``src`` of the version before
   the k x p pair columns) the old implementation runs on the first 800 columns in a subprocess
   for the ratio (its cost grows with d^2, so the full table would take about 10 minutes).
2. FSCPU with n_jobs = 1 and 2, back to back, on Spambase (10 % labeled; n_iter = 200; the full
   mixture and k-means) and on a 9,298 x 256 table (10 Gaussian blobs; n_iter = 10): n_jobs = 2
   must never be slower (the compact GA times a few iterations each way and keeps the faster).
3. With ``--counting``: semi-JMI and mRMR, k = 10, on 1,000,000 x 50 (one thread).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import numpy as np

from weakfs.datasets import load, make_pu_labels
from weakfs.pu import FSCPUSelector

WIDE = """
import time, numpy as np
from weakfs.pu import SemiJMISelector
rng = np.random.RandomState(0)
X = rng.lognormal(size=(102, {d})); s = np.zeros(102, int); s[:20] = 1
X[:20, :5] += 2.0
t = time.perf_counter(); SemiJMISelector(10).fit(X, s); print(time.perf_counter() - t)
"""


def _wide(d: int, src: str | None = None) -> float:
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    if src:
        env["PYTHONPATH"] = src
    done = subprocess.run(
        [sys.executable, "-c", WIDE.format(d=d)], capture_output=True, text=True, env=env
    )
    return float(done.stdout.strip().splitlines()[-1])


def semi_jmi(old_src: str | None) -> None:
    print(f"semi-JMI k=10 on 102 x 5968: {_wide(5968):.2f} s")
    if old_src:
        new, old = _wide(800), _wide(800, old_src)
        print(f"semi-JMI k=10 on 102 x 800: {new:.2f} s now, {old:.2f} s before ({old / new:.0f}x)")


def _fscpu_pair(X, s, **params) -> str:
    times = {}
    for n_jobs in (1, 2, 1, 2):
        start = time.perf_counter()
        sel = FSCPUSelector(random_state=0, n_jobs=n_jobs, verbose=False, **params).fit(X, s)
        times.setdefault(n_jobs, []).append(time.perf_counter() - start)
    one, two = min(times[1]), min(times[2])
    ratio = one / two
    return f"n_jobs=1 {one:.2f} s, n_jobs=2 {two:.2f} s ({ratio:.2f}x; threads: {sel.parallel_})"


def fscpu() -> None:
    from sklearn.datasets import make_blobs

    X, y = load("spambase")
    X = X.to_numpy(float)
    s = make_pu_labels(y, positive=1, labeled_fraction=0.1, random_state=0).s
    FSCPUSelector(n_iter=3, random_state=0, verbose=False).fit(X, s)  # compile
    FSCPUSelector(n_iter=3, clustering="kmeans", random_state=0, verbose=False).fit(X, s)
    print("FSCPU spambase, gmm, n_iter=200:", _fscpu_pair(X, s, n_iter=200))
    print("FSCPU spambase, kmeans, n_iter=200:", _fscpu_pair(X, s, n_iter=200, clustering="kmeans"))
    Xb, yb = make_blobs(n_samples=9298, n_features=256, centers=10, random_state=0)
    sb = ((yb < 3) & (np.random.RandomState(0).rand(len(yb)) < 0.2)).astype(int)
    print("FSCPU 9298 x 256 blobs, gmm, n_iter=10:", _fscpu_pair(Xb, sb, n_iter=10))


def counting() -> None:
    """semi-JMI and mRMR, k = 10, on 1,000,000 x 50 uniform columns (one thread)."""
    from weakfs._information import EncodedColumns, discretize
    from weakfs.pu import MRMRSelector, SemiJMISelector

    rng = np.random.RandomState(0)
    X = rng.rand(1_000_000, 50)
    s = ((X[:, 0] + X[:, 1] > 1.2) & (rng.rand(X.shape[0]) < 0.3)).astype(int)
    for name, step in [
        ("discretise", lambda: discretize(X, 5)),
        ("encode", lambda: EncodedColumns(discretize(X, 5))),
        ("semi-JMI", lambda: SemiJMISelector(10).fit(X, s)),
        ("mRMR", lambda: MRMRSelector(10).fit(X, s)),
    ]:
        start = time.perf_counter()
        step()
        print(f"1,000,000 x 50, {name}: {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old-src", help="src/ of the version before, for the semi-JMI ratio")
    ap.add_argument("--counting", action="store_true", help="also the 1,000,000-row selectors")
    args = ap.parse_args()
    semi_jmi(args.old_src)
    fscpu()
    if args.counting:
        counting()
