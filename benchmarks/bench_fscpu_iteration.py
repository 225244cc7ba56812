"""Seconds per iteration of FSCPU and FSCPU-MI on benchmark tables, the constants of the
benchmark's size rule (``method_settings``).

Run:  OMP_NUM_THREADS=1 python benchmarks/bench_fscpu_iteration.py \
          colon,heart,gina,spambase,madelon,mnist-even,basehock,coil20

Each fit runs 30 iterations on the training rows of a benchmark cell (seed 0, PU at 30 % of the
positives labeled, columns screened to 2,000), at k = 5, 20, 50 (or the ks of an optional second
argument, e.g. ``50,100``); the time per iteration includes
a fit's one-time work (FSCPU-MI's mutual information, the first fit's compilation).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).parent))
from bench_benchmark_settings import cell_data
from weakfs.pu import FSCPUSelector

N_ITER = 30


def main(names: list[str], ks: tuple[int, ...] = (5, 20, 50)) -> None:
    with threadpool_limits(1):
        for name in names:
            X, weak, _, _, _ = cell_data(name, "pu-scar-0.3")
            for k in ks:
                if k >= X.shape[1]:
                    continue
                for objective in ("cluster", "cluster+mi"):
                    sel = FSCPUSelector(
                        k, n_iter=N_ITER, objective=objective, n_jobs=1, random_state=0,
                        verbose=False,
                    )  # fmt: skip
                    start = time.perf_counter()
                    sel.fit(X, weak)
                    per_iter = (time.perf_counter() - start) / N_ITER
                    print(
                        f"{name:12s} n={X.shape[0]:5d} d={X.shape[1]:5d} k={k:3d} "
                        f"{objective:10s} {per_iter * 1000:8.1f} ms/iter",
                        flush=True,
                    )


if __name__ == "__main__":
    ks = tuple(int(k) for k in sys.argv[2].split(",")) if len(sys.argv) > 2 else (5, 20, 50)
    main(sys.argv[1].split(","), ks)
