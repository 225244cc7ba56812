"""UFVS speed: the search on a GISETTE-sized problem, a 20-cut-off sweep over KDD Cup 99 (10 %),
and the ratio against straightforward implementations of Algorithm 1 on the same data.

Run:  WEAKFS_DATA=/path/to/data python benchmarks/bench_ufvs.py [--repeats 21] [--skip-kdd]

1. GISETTE-sized synthetic data (GISETTE itself is not available here): 6000 rows x 5000
   integer features in 0..999, about 87 % zeros (GISETTE's density is ~13 %), per-feature
   densities spread between 1 % and 30 %; half the features depend on a hidden class, half are
   probes.  5 equal-width bins, every value a candidate except the cut-off.  Times the search
   alone (what the paper's Figure 5 reports), and separately the binning and the bitsets.
2. The same search against (a) a plain NumPy version of Algorithm 1 (boolean one-hot matrix,
   binary search, coverage recomputed with ``any`` at every test), at GISETTE size and smaller,
   and (b) the literal pure-Python version used in the tests, on small data, with the ratio.
3. kddcup99_10pct (494,021 rows): ``ufvs_path(..., measures=False)`` over 20 count cut-offs,
   including validation and discretisation (CSV loading excluded), and the same with every
   information measure of the paper's figures.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from weakfs.unsupervised import UFVSSelector, ufvs_path
from weakfs.unsupervised._ufvs import _selector as U

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))


def gisette_like(n=6000, d=5000, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    density = rng.uniform(0.01, 0.30, d)
    relevant = rng.random(d) < 0.5
    shift = np.where(relevant, rng.uniform(-0.5, 0.5, d), 0.0)
    p = np.clip(density[None, :] * (1 + shift[None, :] * (2 * y[:, None] - 1)), 0, 1)
    nonzero = rng.random((n, d)) < p
    values = np.minimum((rng.beta(2, 5, (n, d)) * 1000).astype(np.int16), 999)
    X = np.where(nonzero, np.maximum(values, 1), 0).astype(np.int16)
    return X, y


def numpy_algorithm1(onehot: np.ndarray, order: np.ndarray) -> list[int]:
    """Algorithm 1 with a boolean (values x rows) matrix and no precomputed suffixes."""
    rows = onehot[order]
    big_n = rows.shape[0]
    target = rows.any(axis=0)
    kept: list[int] = []

    def covers(j):
        cov = rows[j:].any(axis=0)
        if kept:
            cov |= rows[kept].any(axis=0)
        return np.array_equal(cov, target)

    ell = 0
    while ell < big_n:
        if covers(big_n):
            break
        lo, hi = ell, big_n
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if covers(mid):
                lo = mid
            else:
                hi = mid
        kept.append(lo)
        ell = lo + 1
    return [int(order[k]) for k in kept]


def median_ms(fn, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(1000 * (time.perf_counter() - t))
    return statistics.median(times), min(times)


def bench_gisette(repeats: int) -> None:
    X, _ = gisette_like()
    print(f"\n## GISETTE-sized search: X {X.shape}, {100 * (X != 0).mean():.1f} % non-zero")
    sel = UFVSSelector()
    t = time.perf_counter()
    enc = sel._encode_fit(X)
    t_encode = time.perf_counter() - t
    n = enc.n_rows
    entropies = U.binary_entropy_of_counts(enc.counts, n)
    present = enc.counts > 0
    print(f"binning + value counts: {1000 * t_encode:.0f} ms; {int(present.sum())} values")
    print("| min_count | candidates | selected | bitsets ms | search ms median | search ms min |")
    print("|---:|---:|---:|---:|---:|---:|")
    all_medians = []
    for m in [0, 30, 60, 150, 300, 600, 1500, 3000]:
        _, ids = U.select_candidates(enc.counts, entropies, n, m, None)
        t = time.perf_counter()
        bits = enc.bitsets(ids)
        t_bits = time.perf_counter() - t
        kept, _, _ = U._search(bits)  # also compiles on the first call
        med, best = median_ms(lambda b=bits: U._search(b), repeats)
        all_medians.append(med)
        print(
            f"| {m} | {ids.shape[0]} | {kept.shape[0]} | {1000 * t_bits:.1f} | {med:.2f} | "
            f"{best:.2f} |"
        )
    print(f"largest median search time over the cut-offs: {max(all_medians):.2f} ms")
    t = time.perf_counter()
    UFVSSelector(min_count=60).fit(X)
    print(f"whole UFVSSelector(min_count=60).fit: {1000 * (time.perf_counter() - t):.0f} ms")


def bench_peers(repeats: int) -> None:
    from test_ufvs import literal_ufvs

    print("\n## Against plain implementations of Algorithm 1 (same data, same answer checked)")
    print("| data | implementation | median ms | ratio |")
    print("|---|---|---:|---:|")
    cases = [(6000, 5000, 30, "numpy"), (2000, 1000, 20, "numpy"), (120, 25, 1, "literal")]
    for n, d, m, peer in cases:
        X, _ = gisette_like(n, d, seed=1)
        sel = UFVSSelector(min_count=m).fit(X)
        enc = sel._encode_fit(X)
        entropies = U.binary_entropy_of_counts(enc.counts, n)
        _, ids = U.select_candidates(enc.counts, entropies, n, m, None)
        bits = enc.bitsets(ids)
        ours, _ = median_ms(lambda b=bits: U._search(b), repeats)
        if peer == "numpy":
            onehot = np.unpackbits(bits.view(np.uint8), axis=1, bitorder="little")[:, :n]
            onehot = onehot.astype(bool)
            order = np.arange(ids.shape[0])
            got = numpy_algorithm1(onehot, order)
            assert [int(i) for i in ids[got]] == [int(i) for i in sel._selected_ids]
            reps = 1 if n * d > 10**7 else 3
            theirs, _ = median_ms(lambda o=onehot, r=order: numpy_algorithm1(o, r), reps)
            label = "NumPy bool one-hot, binary search"
        else:
            codes = enc.dense_codes.astype(int)
            literal, _ = literal_ufvs(codes, min_count=m)
            assert len(literal) == len(sel.selected_values_)
            theirs, _ = median_ms(lambda c=codes, k=m: literal_ufvs(c, min_count=k), 1)
            label = "literal pure Python (tests)"
        print(f"| {n} x {d}, min_count={m} | weakfs (bitsets, numba) | {ours:.3f} | 1 |")
        print(f"| {n} x {d}, min_count={m} | {label} | {theirs:.1f} | {theirs / ours:.0f} |")


def bench_kdd() -> None:
    from weakfs.datasets import load

    t = time.perf_counter()
    X, y = load("kddcup99_10pct")
    t_load = time.perf_counter() - t
    n = X.shape[0]
    counts = np.unique(np.linspace(0, n // 2, 20).round().astype(int))
    print(f"\n## kddcup99_10pct: X {X.shape} (CSV load {t_load:.1f} s, not counted)")
    ufvs_path(X.iloc[:1000], counts=[0], measures=False)  # compile the kernels first
    t = time.perf_counter()
    sweep = ufvs_path(X, counts=counts, measures=False)
    t_sweep = time.perf_counter() - t
    print(
        f"20-cut-off sweep incl. validation + discretisation: {t_sweep:.2f} s "
        f"(search only: {sweep['search_ms'].sum():.1f} ms in all, "
        f"max {sweep['search_ms'].max():.1f} ms per cut-off)"
    )
    t = time.perf_counter()
    full = ufvs_path(X, (y == "normal.").to_numpy(), counts=counts)
    t_full = time.perf_counter() - t
    print(f"same sweep with H(S), H(F), I(S;C), I(F;C), NMI: {t_full:.2f} s")
    print(full[["min_count", "n_candidates", "n_selected", "search_ms"]].to_string(index=False))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=21)
    parser.add_argument("--skip-kdd", action="store_true")
    args = parser.parse_args()
    print(
        f"# bench_ufvs  ({platform.processor() or platform.machine()}, Python "
        f"{platform.python_version()}, numpy {np.__version__})"
    )
    bench_gisette(args.repeats)
    bench_peers(args.repeats)
    if not args.skip_kdd:
        bench_kdd()


if __name__ == "__main__":
    main()
