"""A streamed semi-JMI fit on a Parquet file larger than memory allows, and the proof that
streaming changes nothing.

Run:  python benchmarks/bench_streaming.py [--rows 10_000_000] [--chunksize 100_000]

1. Writes, in a temporary folder (deleted at the end), a Parquet file of ``--rows`` x 50 float64
   columns (row groups of 1,000,000 rows, written one at a time: 4 GB for 10 million rows) with a
   PU target ``s`` (a third of the positives of a noisy rule on three columns labeled), and its
   first ``--slice`` rows as a second file.
2. ``weakfs select big.parquet --method semi_jmi -k 10 --chunksize N`` in a child process
   under ``/usr/bin/time -v``: wall time and peak resident memory (the target is 1.5 GB; the
   table alone would take 4 GB as float64).
3. On the slice: the same command streamed and in memory (no ``--chunksize``), their ``-o``
   outputs compared (names and scores); and in Python ``SemiJMISelector(10).fit`` against
   ``fit_chunks`` on the slice's row groups (scores and pair columns bit for bit).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

GROUP = 1_000_000  # rows per row group, as pyarrow writes by default
N_FEATURES = 50


def _group(index: int, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """One row group: uniform and normal columns, two with few values, and PU labels."""
    rng = np.random.default_rng(index)
    X = rng.random((rows, N_FEATURES))
    X[:, 5:15] = rng.normal(size=(rows, 10))
    X[:, 15] = rng.integers(0, 4, rows)
    X[:, 16] = rng.integers(0, 2, rows)
    X[:, 20] = X[:, 0] + 0.3 * rng.random(rows)  # redundant with column 0
    positive = (X[:, 0] + 0.5 * X[:, 7] + 0.3 * X[:, 15] + 0.5 * rng.random(rows)) > 1.6
    s = (positive & (rng.random(rows) < 1 / 3)).astype(np.int8)
    return X, s


def write_files(folder: Path, rows: int, slice_rows: int) -> tuple[Path, Path]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    names = [f"x{j}" for j in range(N_FEATURES)]
    schema = pa.schema([*(pa.field(n, pa.float64()) for n in names), pa.field("s", pa.int8())])
    big, small = folder / "big.parquet", folder / "slice.parquet"
    with pq.ParquetWriter(big, schema) as out, pq.ParquetWriter(small, schema) as part:
        for index, start in enumerate(range(0, rows, GROUP)):
            X, s = _group(index, min(GROUP, rows - start))
            table = pa.Table.from_arrays([*X.T, s], schema=schema)
            out.write_table(table, row_group_size=GROUP)
            if start < slice_rows:
                part.write_table(table.slice(0, slice_rows - start), row_group_size=GROUP)
    return big, small


def select(path: Path, out: Path, chunksize: int | None) -> dict:
    """``weakfs select`` in a child process under ``/usr/bin/time -v``."""
    argv = [sys.executable, "-m", "weakfs.cli", "select", str(path), "--target", "s"]
    argv += ["--positive", "1", "--method", "semi_jmi", "-k", "10", "--no-progress"]
    argv += ["-o", str(out)] + ([] if chunksize is None else ["--chunksize", str(chunksize)])
    start = time.perf_counter()
    done = subprocess.run(
        ["/usr/bin/time", "-v", *argv],
        capture_output=True,
        text=True,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    seconds = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(done.stdout + done.stderr)
    peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1))
    return {"seconds": seconds, "peak_gb": peak / 1e6, "selected": json.loads(out.read_text())}


def python_api(path: Path) -> bool:
    """``fit`` on the whole slice against ``fit_chunks`` on its row groups, bit for bit."""
    import pandas as pd
    import pyarrow.parquet as pq

    from weakfs.pu import SemiJMISelector

    frame = pd.read_parquet(path)
    X, s = frame.drop(columns="s"), frame["s"].to_numpy()
    in_memory = SemiJMISelector(10).fit(X, s)
    del frame, X

    def chunks():
        for batch in pq.ParquetFile(path).iter_batches(batch_size=300_000):
            yield batch.drop_columns(["s"]), batch.column("s")

    streamed = SemiJMISelector(10).fit_chunks(chunks)
    return (
        streamed.ranking_.tolist() == in_memory.ranking_.tolist()
        and np.array_equal(streamed.scores_, in_memory.scores_)
        and np.array_equal(streamed.pair_columns_, in_memory.pair_columns_)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--slice", type=int, default=1_000_000, dest="slice_rows")
    parser.add_argument("--chunksize", type=int, default=100_000)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory(prefix="weakfs-stream-") as tmp:
        folder = Path(tmp)
        start = time.perf_counter()
        big, small = write_files(folder, args.rows, args.slice_rows)
        print(
            f"wrote {args.rows:,} x {N_FEATURES} ({big.stat().st_size / 1e9:.2f} GB) in "
            f"{time.perf_counter() - start:.0f} s"
        )
        streamed = select(big, folder / "big.json", args.chunksize)
        print(
            f"streamed semi-JMI k=10 on {args.rows:,} x {N_FEATURES}, --chunksize "
            f"{args.chunksize:,}: {streamed['seconds']:.1f} s, peak {streamed['peak_gb']:.2f} GB"
        )
        print("  selected:", [r["feature"] for r in streamed["selected"]["selected"]])
        part = select(small, folder / "part.json", args.chunksize)
        whole = select(small, folder / "whole.json", None)
        same = part["selected"]["selected"] == whole["selected"]["selected"]
        print(
            f"slice {args.slice_rows:,} rows: streamed {part['seconds']:.1f} s, peak "
            f"{part['peak_gb']:.2f} GB; in memory {whole['seconds']:.1f} s, peak "
            f"{whole['peak_gb']:.2f} GB; identical selection and scores: {same}"
        )
        print(f"Python fit_chunks == fit on the slice, bit for bit: {python_api(small)}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
