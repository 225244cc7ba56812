"""Seconds of FSCPU and FSCPU-MI fits at the benchmark's settings on narrow tables, where the
compact GA's own bookkeeping (mask repair, the running standard deviations of FSCPU-MI's terms)
weighs against fast mixture fits.

Run:  OMP_NUM_THREADS=1 PYTHONPATH=src python benchmarks/bench_compact_ga_overhead.py \
          heart,ionosphere,liver

Each fit is at the iterations the benchmark's size rule gives its cell (``method_settings``,
seed 0, PU at 30 % of the positives labeled), k = 5 and 10, one core, after an untimed warm-up
fit that compiles the kernels.  Run it in two checkouts to compare implementations; the printed
sum of the probabilities' history must agree between them when the change is for speed only.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).parent))
from bench_benchmark_settings import cell_data
from weakfs.experiments.benchmark._protocol import method_settings
from weakfs.pu import FSCPUSelector


def main(names: list[str]) -> None:
    with threadpool_limits(1):
        X0, weak0, *_ = cell_data(names[0], "pu-scar-0.3")
        FSCPUSelector(3, n_iter=20, n_jobs=1, random_state=0, verbose=False).fit(X0, weak0)
        total = 0.0
        for name in names:
            X, weak, *_ = cell_data(name, "pu-scar-0.3")
            settings = method_settings(X.shape[0], X.shape[1], [5, 10])
            for objective, key in (("cluster", "fscpu"), ("cluster+mi", "fscpu_mi")):
                for k in [k for k in (5, 10) if k < X.shape[1]]:
                    n_iter = settings[key]["n_iter"][k]
                    eta = settings[key]["eta"][k]
                    sel = FSCPUSelector(
                        k, n_iter=n_iter, eta=eta, objective=objective, n_jobs=1,
                        random_state=0, verbose=False,
                    )  # fmt: skip
                    start = time.perf_counter()
                    sel.fit(X, weak)
                    seconds = time.perf_counter() - start
                    total += seconds
                    checksum = float(sel.theta_history_.sum())
                    print(
                        f"{name:12s} {key:9s} k={k:3d} n_iter={n_iter:5d} {seconds:7.2f} s "
                        f"theta sum {checksum!r}",
                        flush=True,
                    )
        print(f"total {total:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1].split(",") if len(sys.argv) > 1 else ["heart", "ionosphere", "liver"])
