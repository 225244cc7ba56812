"""Run an experiment's cells, cache each as it finishes, and write the report.

Cells run in parallel on joblib's process pool by default, or on a Dask cluster
(``scheduler="local"`` starts a ``LocalCluster``; ``"tcp://host:port"`` connects to a running one).
Every finished cell is written at once to ``OUT/.cache/NAME/<hash>.json``; a later run with the same
cells reads them back instead of recomputing, so an interrupted run resumes where it stopped.
A failing cell is reported (with its traceback) and not cached, so it is retried next time.

The committed ``OUT/NAME.csv`` is the long-lived store of finished cells (``_store.py``): the cache
directory is not committed, so a later session (or a fresh clone) reads the cells it needs back
from the CSV (matched by the ``cell_key`` column).  An invocation adds the cells it computed and
keeps every row already there, so a run of one dataset never drops the cells of another, a
reproduction too long for one session accumulates over several, and a run that computes nothing
(``--cached-only``) changes no committed file.
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import shlex
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd

from weakfs.experiments._derived import run_derived, stored_table
from weakfs.experiments._registry import Experiment, ReportContext, RunConfig, get
from weakfs.experiments._report_files import (
    keep_figures,
    report_cells,
    report_command,
    report_header,
    same_report,
)
from weakfs.experiments._store import CellCache, CsvCells, cell_key, jsonable, records_table

__all__ = [
    "cell_grid",
    "cell_key",
    "execute_cell",
    "run_experiment",
    "stored_table",
]


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
    return {"cell": cell, "result": jsonable(result), "seconds": time.perf_counter() - start}


class RunInterrupted(KeyboardInterrupt):
    """A run stopped by SIGINT or SIGTERM; its finished cells are saved, its workers stopped."""


def _stop_local_workers() -> None:
    """Kill joblib's reusable worker processes (a cell in progress is abandoned, not saved)."""
    try:
        from joblib.externals.loky import get_reusable_executor
        from joblib.externals.loky.backend.process import LokyProcess
    except ImportError:  # pragma: no cover - joblib always vendors loky
        return
    try:
        get_reusable_executor().shutdown(wait=False, kill_workers=True)
    except RuntimeError:
        # a signal that lands while the pool starts its manager thread leaves a pool that cannot
        # be shut down ("cannot join thread before it is started"); its processes end below
        pass
    # the pool kills its workers from its manager thread; a signal that lands while the pool
    # starts can stop that thread from ever running, so end the pool's processes here too
    for child in multiprocessing.active_children():
        if isinstance(child, LokyProcess):
            child.terminate()


def _interrupt_behind(exc: BaseException) -> KeyboardInterrupt | None:
    """The interrupt ``exc`` is, or arose while handling: a pool whose start-up an interrupt cut
    short can fail in its own clean-up and replace the interrupt with that error."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return exc
        seen.add(id(exc))
        exc = exc.__context__
    return None


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
    except BaseException as exc:
        interrupt = _interrupt_behind(exc)
        if interrupt is None:
            raise
        _stop_local_workers()
        raise RunInterrupted(str(interrupt) or "interrupted") from exc
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


def _cells_and_keys(experiment: Experiment, config: RunConfig) -> tuple[list[dict], list[str]]:
    """The versioned cells of this configuration and their keys; an error when the run reads
    none of an ``--set`` option, has no cell, or makes two cells alike."""
    name = experiment.name
    options = _ReadOptions(config.options)
    cells = [
        experiment.versioned(c)
        for c in experiment.make_cells(dataclasses.replace(config, options=options))
    ]
    ignored = sorted(set(config.options) - options.read)
    if ignored:
        reads = ", ".join(sorted(options.read)) or "none"
        raise ValueError(
            f"{name} ignores --set {', '.join(ignored)} (the options this run reads: {reads})"
        )
    if not cells:
        raise ValueError(f"experiment {name!r} has no cell for this configuration")
    keys = [cell_key(c) for c in cells]
    if len(set(keys)) != len(keys):
        raise ValueError(f"experiment {name!r} produced duplicate cells")
    return cells, keys


def run_experiment(
    name: str,
    config: RunConfig | None = None,
    *,
    out_dir: str | Path | None = None,
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
    out_dir : path, optional
        Where the report, CSV, figures and the cell cache (``.cache/NAME``) go (default:
        ``results``, or a temporary folder for the runner's smoke test, ``demo``).
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
        One row per cell: the cell's keys, its result keys and ``seconds``.  A derived
        experiment (``Experiment.derive``: the scoreboard) runs nothing: it returns the cells
        it read from the other experiments' committed CSVs, and writes ``OUT/NAME.csv`` (its
        own table) and ``OUT/NAME.md``.
    """
    config = config or RunConfig()
    experiment: Experiment = get(name)
    name = experiment.name  # an alias writes under the experiment's own name
    out = Path(out_dir if out_dir is not None else experiment.default_out())
    if experiment.derive is not None:  # computes nothing: reads other experiments' stores
        return run_derived(experiment, config, out, log or (lambda msg: None))
    cells, keys = _cells_and_keys(experiment, config)
    store = CellCache(out / ".cache" / name)
    archive = CsvCells(out / f"{name}.csv")
    say = log or (lambda msg: None)

    records: dict[str, dict] = archive.records(cells, keys)
    archived = set(records)
    todo = []
    for cell, key in zip(cells, keys):
        cached = store.load(cell)
        if cached is not None and "result" in cached:
            records[key] = cached  # the cache is at least as new as the CSV
        elif key not in records:
            todo.append(cell)
    say(
        f"{name}: {len(cells)} cells, {len(records)} done before ({len(archived)} in "
        f"{name}.csv), {len(todo)} to run"
    )
    report = out / f"{name}.md"
    if cached_only and not records:
        # nothing to report: say what the committed cells were made with, change no file
        made_with = report_command(report)
        raise ValueError(
            f"no finished cell of {name} matches these options (0 of {len(cells)} found in "
            f"{out / (name + '.csv')} or its cache)"
            + (f"; {report} was made with `{made_with}`" if made_with else "")
        )
    n_missing = len(todo) if cached_only else 0
    if cached_only:
        todo = []

    started = time.perf_counter()
    failures: list[dict] = []
    with _stop_workers_on_signal():
        _run_cells(name, todo, scheduler, n_jobs, progress, store, records, failures, say)
    wall = time.perf_counter() - started

    table, row_keys = records_table(records, keys)
    out.mkdir(parents=True, exist_ok=True)
    fresh = table.assign(**{CsvCells.KEY: row_keys})
    fresh = fresh[[k not in archived for k in row_keys]]
    n_other_rows, n_superseded = archive.write(fresh, row_keys, experiment.cell_version)

    committed = report_cells(report)
    partial = committed > len(table)  # never replace a report by one with fewer cells
    ctx = ReportContext(
        out_dir=out,
        name=f"{name}.partial" if partial else name,  # figures go beside the report too
        config=config,
        command=command or "weakfs " + " ".join(shlex.quote(a) for a in sys.argv[1:]),
        failures=failures,
        stage_figures=True,
    )
    body = experiment.write_report(table, ctx) if len(table) else "No cell finished."
    header = report_header(
        experiment.title,
        ctx.command,
        cells=(len(table), len(cells), len(cells) - len(todo) - n_missing, len(failures)),
        n_missing=n_missing if cached_only else None,
        seconds=(wall, float(table["seconds"].sum()) if len(table) else 0.0),
        raw=(f"{name}.csv", n_other_rows, n_superseded),
    )
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
    text = "\n".join(header) + "\n" + body.rstrip() + "\n"
    changed = not (report.exists() and same_report(report.read_text(), text))
    if changed:
        report.write_text(text)
    keep_figures(out, replace=changed)
    return table


class _ReadOptions(dict):
    """An experiment's options that remember which ones ``make_cells`` looked at: an option it
    never reads is a mistake to report, not to ignore."""

    def __init__(self, options):
        super().__init__(options)
        self.read: set = set()

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key):
        self.read.add(key)
        return super().__contains__(key)


class DataMissingError(FileNotFoundError):
    """A dataset an experiment needs is not staged (weakfs never downloads data)."""


def _missing_dataset(error: str) -> str | None:
    """The message of a :class:`~weakfs.datasets.DatasetNotFoundError` in a cell's traceback."""
    for line in reversed(error.strip().splitlines()):
        if "DatasetNotFoundError" in line:
            return line.split(":", 1)[1].strip() if ":" in line else line
    return None


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
