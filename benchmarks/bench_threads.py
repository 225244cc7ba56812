"""Thread limits: small fits alone and beside one busy process, with and without the limit.

The problem is ``bench_gkf_pual.py``'s (pendigits, 560 training rows x 32 features, half of the
training positives labeled).  Fits: GKF-PUAL (its benchmark settings), PUAL (RBF kernel) and
nnPU (prior 0.5).  Each runs ``--repeats`` times (median reported) in four conditions:

* threads: weakfs's limit (``weakfs._threads.limit_threads``: one BLAS/OpenMP thread for these
  sizes) or the libraries' default (the limit switched off, every core);
* alone, or beside one other busy process (a pure-Python loop on one core, started here and
  stopped after the measurement).

The target is "beside a busy process, at most twice the time alone".  The load average is printed
before and after: on a shared machine "alone" means "without our extra process".

    WEAKFS_DATA=/path/to/data python benchmarks/bench_threads.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np

import weakfs._threads as threads
from bench_gkf_pual import PARAMS, problem
from weakfs.pu import GKFPUALClassifier, NNPUClassifier, PUALClassifier

FITS: dict[str, Callable] = {
    "GKF-PUAL": lambda: GKFPUALClassifier(standardize=False, **PARAMS),
    "PUAL (RBF)": lambda: PUALClassifier(standardize=False),
    "nnPU": lambda: NNPUClassifier(prior=0.5, standardize=False, random_state=0),
}


def median_seconds(make, X, s, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        make().fit(X, s)
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def measure(X, s, repeats: int) -> dict:
    """Median seconds per fit, with the limit and with the libraries' default threads."""
    limit = threads.ENTRIES_PER_THREAD
    out = {}
    for name, make in FITS.items():
        make().fit(X, s)  # warm-up: imports, numba, caches
        out[name, "limit"] = median_seconds(make, X, s, repeats)
        threads.ENTRIES_PER_THREAD = 1  # every operand "large": no limit
        try:
            out[name, "default"] = median_seconds(make, X, s, repeats)
        finally:
            threads.ENTRIES_PER_THREAD = limit
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    X, s = problem()
    print(f"problem: {X.shape[0]} x {X.shape[1]}, {int(s.sum())} labeled; cores {os.cpu_count()}")
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    alone = measure(X, s, args.repeats)
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(1.0)  # let the busy process take its core
        beside = measure(X, s, args.repeats)
    finally:
        busy.kill()
        busy.wait()
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    print("fit | threads | alone (s) | beside a busy process (s) | ratio")
    for name in FITS:
        for mode in ("limit", "default"):
            a, b = alone[name, mode], beside[name, mode]
            print(f"{name} | {mode} | {a:.3f} | {b:.3f} | {b / a:.2f}")


if __name__ == "__main__":
    main()
