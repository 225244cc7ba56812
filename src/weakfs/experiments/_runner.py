"""Run an experiment's cells, cache each as it finishes, and write the report.

Cells run in parallel on joblib's process pool by default, or on a Dask cluster
(``scheduler="local"`` starts a ``LocalCluster``; ``"tcp://host:port"`` connects to a running one).
Every finished cell is written at once to ``OUT/.cache/NAME/<hash>.json``; a later run with the same
cells reads them back instead of recomputing, so an interrupted run resumes where it stopped.
A failing cell is reported (with its traceback) and not cached, so it is retried next time.

The committed ``OUT/NAME.csv`` is the long-lived store of finished cells: the cache directory is
not committed, so a later session (or a fresh clone) reads the cells it needs back from the CSV
(matched by the ``cell_key`` column).  Each invocation rewrites the CSV with its own cells *and*
every other row already there, so a run of one dataset never drops the cells of another, and a
reproduction too long for one session accumulates over several.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import platform
import re
import shlex
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd

from weakfs.experiments._registry import Experiment, ReportContext, RunConfig, get

__all__ = [
    "cell_grid",
    "cell_key",
    "execute_cell",
    "run_experiment",
]


#: Cell entries that change how a cell is computed but not its result (every weakfs estimator
#: gives the same result for any ``n_jobs``), so they are left out of the cache key: a cell run
#: with ``n_jobs=2`` is read back by a run that asks for ``n_jobs=1``.
NOT_IN_KEY = frozenset({"n_jobs"})


def cell_key(cell: dict) -> str:
    """A stable file name for a cell: the hash of its canonical JSON (without ``NOT_IN_KEY``)."""
    canonical = json.dumps(
        {k: v for k, v in cell.items() if k not in NOT_IN_KEY}, sort_keys=True, default=str
    )
    return hashlib.sha1(canonical.encode()).hexdigest()[:16]


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value


def execute_cell(experiment_name: str, cell: dict) -> dict:
    """Run one cell in whatever process this is (a joblib or Dask worker) and time it.

    Looks the experiment up by name so that only names and dicts cross process boundaries.
    """
    experiment = get(experiment_name)
    start = time.perf_counter()
    try:
        result = experiment.run_cell(dict(cell))
    except Exception:  # a cell's failure must not kill the whole run; it is reported instead
        return {
            "cell": cell,
            "error": traceback.format_exc(),
            "seconds": time.perf_counter() - start,
        }
    return {"cell": cell, "result": _jsonable(result), "seconds": time.perf_counter() - start}


class _CellStore:
    def __init__(self, directory: Path):
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)

    def path(self, cell: dict) -> Path:
        return self.directory / f"{cell_key(cell)}.json"

    def load(self, cell: dict) -> dict | None:
        path = self.path(cell)
        if not path.exists():
            return None
        try:
            return json.loads(path.read_text())
        except json.JSONDecodeError:  # a cell cut off mid-write is simply recomputed
            return None

    def save(self, record: dict) -> None:
        path = self.path(record["cell"])
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(record, sort_keys=True))
        tmp.replace(path)  # atomic, so an interrupted run never leaves half a cell


def _canonical(value) -> str:
    """A cell value as text that survives a CSV round trip (1 == 1.0, True == "True")."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, float, np.integer, np.floating)):
        return repr(float(value))
    text = str(value)
    try:
        return repr(float(text))
    except ValueError:
        return text


class _CsvCells:
    """The finished cells kept in a committed ``NAME.csv`` (one row per cell).

    Rows carry the ``cell_key`` of their cell.  Rows of CSVs written before that column existed
    are matched on the cell's own entries (``n_jobs`` excluded) and on the absence of the entries
    that other cells of the same run have.
    """

    KEY = "cell_key"

    def __init__(self, path: Path):
        self.path = path
        self.frame = pd.read_csv(path) if path.exists() else pd.DataFrame()
        self.stamp = self._stamp()
        self.read_rows: set = set()  # index labels of the rows read back as cells of this run

    def _stamp(self) -> tuple[int, int] | None:
        try:
            stat = self.path.stat()
        except FileNotFoundError:
            return None
        return stat.st_mtime_ns, stat.st_size

    def _frame_now(self) -> tuple[pd.DataFrame, set]:
        """The CSV as it is now, and the labels of its rows that this run read back.

        A long run and a shorter one (or a ``--cached-only`` report) may share a store: rows
        another invocation wrote since this one started must survive this one's rewrite.
        """
        if self._stamp() == self.stamp:
            return self.frame, self.read_rows
        now = pd.read_csv(self.path) if self.path.exists() else pd.DataFrame()
        read = self.frame.loc[list(self.read_rows)]
        keyed = read[self.KEY] if self.KEY in read else pd.Series(np.nan, index=read.index)
        legacy = {self._identity(row) for _, row in read[keyed.isna()].iterrows()}
        now_keys = now[self.KEY] if self.KEY in now else pd.Series(np.nan, index=now.index)
        mine = now_keys.isin(set(keyed.dropna()))
        if legacy:
            unkeyed = now_keys.isna()
            mine |= unkeyed & now.apply(lambda row: self._identity(row) in legacy, axis=1)
        return now, set(now.index[mine])

    @classmethod
    def _identity(cls, row: pd.Series) -> frozenset:
        """A row without a cell key, recognised by its values (whatever columns the file has)."""
        return frozenset(
            (col, _canonical(value))
            for col, value in row.items()
            if col not in (cls.KEY, cls.SUPERSEDED) and not pd.isna(value)
        )

    def records(self, cells: list[dict], keys: list[str]) -> dict[str, dict]:
        """Records (as the cache stores them) of those ``cells`` that have a row."""
        frame = self.frame
        if frame.empty or "seconds" not in frame:
            return {}
        keyed = frame[self.KEY] if self.KEY in frame else pd.Series(np.nan, index=frame.index)
        rows: dict[str, object] = {}
        by_key = {k: label for label, k in keyed.items() if isinstance(k, str)}
        legacy = frame[keyed.isna()]
        cell_columns = {k for c in cells for k in c} - NOT_IN_KEY
        lookups: dict[tuple, dict[tuple, object]] = {}
        for cell, key in zip(cells, keys):
            if key in by_key:
                rows[key] = by_key[key]
                continue
            names = tuple(sorted(set(cell) - NOT_IN_KEY))
            if legacy.empty or not set(names) <= set(legacy.columns):
                continue
            if names not in lookups:
                absent = [c for c in cell_columns - set(names) if c in legacy.columns]
                candidates = legacy[legacy[absent].isna().all(axis=1)] if absent else legacy
                lookups[names] = {}
                for label, values in zip(
                    candidates.index, candidates[list(names)].itertuples(index=False)
                ):
                    lookups[names].setdefault(tuple(_canonical(v) for v in values), label)
            label = lookups[names].get(tuple(_canonical(cell[n]) for n in names))
            if label is not None:
                rows[key] = label
        self.read_rows = set(rows.values())
        return {
            key: self._record(cell, frame.loc[rows[key]])
            for cell, key in zip(cells, keys)
            if key in rows
        }

    @staticmethod
    def _record(cell: dict, row: pd.Series) -> dict:
        result = {
            col: _jsonable(value)
            for col, value in row.items()
            if col not in cell
            and col not in ("seconds", _CsvCells.KEY, _CsvCells.SUPERSEDED)
            and not (isinstance(value, float) and np.isnan(value))
        }
        return {"cell": cell, "result": result, "seconds": float(row["seconds"])}

    SUPERSEDED = "superseded"

    def write(
        self, table: pd.DataFrame, keys: list[str], current_version: Callable[[dict], int]
    ) -> tuple[int, int]:
        """This run's rows first, then every other row already there, those computed by an older
        version of the code marked ``superseded``; returns (other rows, superseded rows)."""
        frame, read_rows = self._frame_now()
        if frame.empty:
            others = frame
        else:
            keep = ~frame.index.isin(list(read_rows))
            if self.KEY in frame:
                keep &= ~frame[self.KEY].isin(set(keys))
            others = frame[keep].copy()
        if len(others):
            versions = others["version"] if "version" in others else pd.Series(1, others.index)
            row_version = versions.fillna(1).astype(int)
            wanted = pd.Series(
                [current_version(row.dropna().to_dict()) for _, row in others.iterrows()],
                index=others.index,
            )
            old = row_version < wanted
            previous = (
                others[self.SUPERSEDED].fillna(False).astype(bool)
                if self.SUPERSEDED in others
                else pd.Series(False, others.index)
            )
            others[self.SUPERSEDED] = previous | old
        merged = pd.concat([table.assign(**{self.KEY: keys}), others], ignore_index=True)
        tmp = self.path.with_suffix(".csv.tmp")
        merged.to_csv(tmp, index=False)
        tmp.replace(self.path)
        n_superseded = int(others[self.SUPERSEDED].sum()) if len(others) else 0
        return len(others) - n_superseded, n_superseded


class RunInterrupted(KeyboardInterrupt):
    """A run stopped by SIGINT or SIGTERM; its finished cells are saved, its workers stopped."""


def _stop_local_workers() -> None:
    """Kill joblib's reusable worker processes (a cell in progress is abandoned, not saved)."""
    try:
        from joblib.externals.loky import get_reusable_executor
    except ImportError:  # pragma: no cover - joblib always vendors loky
        return
    get_reusable_executor().shutdown(wait=False, kill_workers=True)


@contextmanager
def _stop_workers_on_signal():
    """Turn SIGTERM into an interrupt, and on any interrupt stop the worker processes.

    Without this a terminated run leaves its joblib workers computing cells nobody will save.
    """
    previous = None
    if threading.current_thread() is threading.main_thread():

        def on_sigterm(signum, frame):
            raise RunInterrupted(f"signal {signum}")

        previous = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        yield
    except KeyboardInterrupt as exc:
        _stop_local_workers()
        raise RunInterrupted(str(exc) or "interrupted") from exc
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _run_local(name: str, cells: list[dict], n_jobs: int) -> Iterator[dict]:
    if n_jobs == 1 or len(cells) <= 1:
        for cell in cells:
            yield execute_cell(name, cell)
        return
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=n_jobs, return_as="generator_unordered")
    yield from parallel(delayed(execute_cell)(name, cell) for cell in cells)


def _run_dask(name: str, cells: list[dict], scheduler: str, n_jobs: int) -> Iterator[dict]:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "the Dask scheduler needs dask[distributed]: pip install 'weakfs[experiments]'"
        ) from exc
    cluster = None
    if scheduler == "local":
        cluster = LocalCluster(
            n_workers=max(1, n_jobs), threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    else:
        client = Client(scheduler)
    try:
        futures = client.map(execute_cell, [name] * len(cells), cells, pure=False)
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _run_cells(name, todo, scheduler, n_jobs, progress, store, records, failures, say) -> None:
    """Run the cells of ``todo``; save each finished cell at once (a stopped run resumes)."""
    if not todo:
        return
    stream = (
        _run_local(name, todo, n_jobs)
        if scheduler is None
        else _run_dask(name, todo, scheduler, n_jobs)
    )
    if progress:
        from tqdm.auto import tqdm

        stream = tqdm(stream, total=len(todo), desc=name)
    for record in stream:
        if "error" in record:
            missing = _missing_dataset(record["error"])
            if missing:
                # every cell of that dataset would fail the same way: stop now, one line
                stream.close()
                raise DataMissingError(missing)
            failures.append(record)
            say(f"cell failed: {record['cell']}\n{record['error']}")
            continue
        store.save(record)
        records[cell_key(record["cell"])] = record


def _versions() -> str:
    import numba
    import scipy
    import sklearn

    import weakfs

    return (
        f"weakfs {weakfs.__version__}, Python {platform.python_version()}, numpy {np.__version__}, "
        f"scipy {scipy.__version__}, scikit-learn {sklearn.__version__}, numba {numba.__version__}"
    )


def run_experiment(
    name: str,
    config: RunConfig | None = None,
    *,
    out_dir: str | Path = "results",
    scheduler: str | None = None,
    n_jobs: int = 1,
    command: str | None = None,
    progress: bool = False,
    log: Callable[[str], None] | None = None,
    cached_only: bool = False,
) -> pd.DataFrame:
    """Run (or resume) experiment ``name`` and write ``OUT/NAME.md`` and ``OUT/NAME.csv``.

    Parameters
    ----------
    name : str
        A registered experiment (``weakfs reproduce --list``).
    config : RunConfig, optional
        Runs, dataset/method filters, quick mode and experiment options.
    out_dir : path, default="results"
        Where the report, CSV, figures and the cell cache (``.cache/NAME``) go.
    scheduler : None, "local" or "tcp://host:port"
        None runs cells with joblib processes (``n_jobs``); otherwise on Dask.
    n_jobs : int, default=1
        Parallel cells (local processes, or workers of the Dask ``LocalCluster``).
    command : str, optional
        The command line recorded in the report (default: this process's argv).
    progress : bool, default=False
        Show a progress bar over cells.
    cached_only : bool, default=False
        Run nothing: write the report from the cells already in the cache (a long reproduction
        run over several sessions reports what it has so far; the header counts the missing
        cells).

    Returns
    -------
    table : DataFrame
        One row per cell: the cell's keys, its result keys and ``seconds``.
    """
    config = config or RunConfig()
    experiment: Experiment = get(name)
    name = experiment.name  # an alias writes under the experiment's own name
    out = Path(out_dir)
    cells = [experiment.versioned(c) for c in experiment.make_cells(config)]
    if not cells:
        raise ValueError(f"experiment {name!r} has no cell for this configuration")
    keys = [cell_key(c) for c in cells]
    if len(set(keys)) != len(keys):
        raise ValueError(f"experiment {name!r} produced duplicate cells")
    store = _CellStore(out / ".cache" / name)
    archive = _CsvCells(out / f"{name}.csv")
    say = log or (lambda msg: None)

    records: dict[str, dict] = archive.records(cells, keys)
    n_archived = len(records)
    todo = []
    for cell, key in zip(cells, keys):
        cached = store.load(cell)
        if cached is not None and "result" in cached:
            records[key] = cached  # the cache is at least as new as the CSV
        elif key not in records:
            todo.append(cell)
    say(
        f"{name}: {len(cells)} cells, {len(records)} done before ({n_archived} in {name}.csv), "
        f"{len(todo)} to run"
    )
    n_missing = len(todo) if cached_only else 0
    if cached_only:
        todo = []

    started = time.perf_counter()
    failures: list[dict] = []
    with _stop_workers_on_signal():
        _run_cells(name, todo, scheduler, n_jobs, progress, store, records, failures, say)
    wall = time.perf_counter() - started

    rows, row_keys = [], []
    for key in keys:
        if key in records:
            rec = records[key]
            rows.append({**rec["cell"], **rec["result"], "seconds": rec["seconds"]})
            row_keys.append(key)
    table = pd.DataFrame(rows)
    out.mkdir(parents=True, exist_ok=True)
    n_other_rows, n_superseded = archive.write(table, row_keys, experiment.cell_version)

    report = out / f"{name}.md"
    committed = _report_cells(report)
    partial = committed > len(table)  # never replace a report by one with fewer cells
    ctx = ReportContext(
        out_dir=out,
        name=f"{name}.partial" if partial else name,  # figures go beside the report too
        config=config,
        command=command or "weakfs " + " ".join(shlex.quote(a) for a in sys.argv[1:]),
        failures=failures,
    )
    body = experiment.write_report(table, ctx) if len(table) else "No cell finished."
    cell_seconds = float(table["seconds"].sum()) if len(table) else 0.0
    header = [
        f"# {experiment.title}",
        "",
        f"- Command: `{ctx.command}`",
        f"- Date: {_dt.datetime.now(_dt.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- Cells: {len(table)} finished of {len(cells)} ({len(cells) - len(todo) - n_missing} "
        f"read from the cache or {name}.csv, {len(failures)} failed"
        + (f", {n_missing} not run: report from the cache only" if cached_only else "")
        + ")",
        f"- Wall time of this invocation: {wall:.1f} s; summed cell time: {cell_seconds:.1f} s",
        f"- Versions: {_versions()}",
        f"- Machine: {platform.machine()}, {_cpu_count()} cores",
        f"- Raw cells: `{name}.csv`"
        + (
            f" (also holds {n_other_rows} cells of runs with other settings, not in this report)"
            if n_other_rows
            else ""
        )
        + (
            f"; {n_superseded} rows computed by an older version of the code are kept there, "
            "marked `superseded`, and left out"
            if n_superseded
            else ""
        ),
        "",
    ]
    if failures:
        header += ["## Failed cells", ""]
        for rec in failures:
            last = rec["error"].strip().splitlines()[-1]
            header.append(f"- `{json.dumps(rec['cell'], sort_keys=True)}`: {last}")
        header.append("")
    if partial:
        report = out / f"{name}.partial.md"
        header.insert(
            2,
            f"- Partial: `{name}.md` reports {committed} cells, this invocation {len(table)}; so "
            f"this report is written beside it as `{report.name}` and `{name}.md` is unchanged.",
        )
        say(f"{name}.md holds {committed} cells, this run {len(table)}: wrote {report.name}")
    report.write_text("\n".join(header) + "\n" + body.rstrip() + "\n")
    return table


def _report_cells(path: Path) -> int:
    """How many cells an existing report says it holds (0 if there is none)."""
    if not path.exists():
        return 0
    match = re.search(r"^- Cells: (\d+) finished", path.read_text(), flags=re.MULTILINE)
    return int(match.group(1)) if match else 0


class DataMissingError(FileNotFoundError):
    """A dataset an experiment needs is not staged (weakfs never downloads data)."""


def _missing_dataset(error: str) -> str | None:
    """The message of a :class:`~weakfs.datasets.DatasetNotFoundError` in a cell's traceback."""
    for line in reversed(error.strip().splitlines()):
        if "DatasetNotFoundError" in line:
            return line.split(":", 1)[1].strip() if ":" in line else line
    return None


def _cpu_count() -> int:
    import os

    return os.cpu_count() or 1


def cell_grid(config: RunConfig, n_runs: int, first: tuple[str, list], methods: list, **fixed):
    """The cells ``{first: value, "method": m, "seed": r, **fixed}`` for every value of the
    first axis (e.g. ``("dataset", [...])``), every method and ``config.n_runs(n_runs)`` seeds."""
    name, values = first
    return [
        {name: value, "method": m, "seed": r, **fixed}
        for value in values
        for m in methods
        for r in range(config.n_runs(n_runs))
    ]
