"""Seconds of FSCPU-MI fitted at the benchmark's five ks on one cell's training rows (what a
board or a benchmark cell does on every fold), and the selected columns.

Run:  OMP_NUM_THREADS=1 python benchmarks/bench_fscpu_mi_ks.py colon,coil20,basehock [out.json]

Each fit runs 30 iterations (seed 0, PU at 30 % of the positives labeled, columns screened to
2,000); the optional JSON file receives the selections, to compare two versions of the code.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).parent))
from bench_benchmark_settings import cell_data
from weakfs.pu import FSCPUSelector

KS = (5, 10, 20, 50, 100)


def main(names: list[str], out: str | None = None) -> None:
    selections = {}
    with threadpool_limits(1):
        for name in names:
            X, weak, _, _, _ = cell_data(name, "pu-scar-0.3")
            start = time.perf_counter()
            for k in KS:
                sel = FSCPUSelector(
                    k, n_iter=30, objective="cluster+mi", n_jobs=1, random_state=0, verbose=False
                ).fit(X, weak)
                selections[f"{name}-{k}"] = np.flatnonzero(sel.get_support()).tolist()
            seconds = time.perf_counter() - start
            print(f"{name} {X.shape}: five ks, 30 iterations each, {seconds:.1f} s", flush=True)
    if out:
        Path(out).write_text(json.dumps(selections))


if __name__ == "__main__":
    main(sys.argv[1].split(","), sys.argv[2] if len(sys.argv) > 2 else None)
