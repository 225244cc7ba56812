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
import datetime as _dt
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

from weakfs.experiments._registry import STAGING, Experiment, ReportContext, RunConfig, get
from weakfs.experiments._store import CellCache, CsvCells, cell_key, jsonable

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
        return _run_derived(experiment, config, out, log or (lambda msg: None))
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
        made_with = _report_command(report)
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

    table, row_keys = _table(records, keys)
    out.mkdir(parents=True, exist_ok=True)
    fresh = table.assign(**{CsvCells.KEY: row_keys})
    fresh = fresh[[k not in archived for k in row_keys]]
    n_other_rows, n_superseded = archive.write(fresh, row_keys, experiment.cell_version)

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
    header = _report_header(
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
    changed = not (report.exists() and _same_report(report.read_text(), text))
    if changed:
        report.write_text(text)
    _keep_figures(out, replace=changed)
    return table


def _keep_figures(out: Path, *, replace: bool) -> None:
    """Move the figures a report drew (in its staging folder) beside it: all of them when the
    report was written, else only those not there yet."""
    staging = out / STAGING
    if not staging.is_dir():
        return
    for figure in staging.iterdir():
        target = out / figure.name
        if replace or not target.exists():
            figure.replace(target)
        else:
            figure.unlink()
    staging.rmdir()


def _table(records: dict[str, dict], keys: list[str]) -> tuple[pd.DataFrame, list[str]]:
    """One row per finished cell (its keys, its results, ``seconds``) in the order of ``keys``,
    and the keys of those rows."""
    found = [key for key in keys if key in records]
    rows = [
        {**records[k]["cell"], **records[k]["result"], "seconds": records[k]["seconds"]}
        for k in found
    ]
    return pd.DataFrame(rows), found


def stored_table(name: str, config: RunConfig, out_dir: str | Path = "results") -> pd.DataFrame:
    """The finished cells of experiment ``name`` at ``config`` that its committed
    ``OUT/NAME.csv`` holds, one row each as its report reads them; rows of an older version of
    the code are left out, the uncommitted cache is not read and nothing is run (an absent CSV
    gives an empty table)."""
    experiment = get(name)
    cells = [experiment.versioned(c) for c in experiment.make_cells(config)]
    keys = [cell_key(c) for c in cells]
    records = CsvCells(Path(out_dir) / f"{experiment.name}.csv").records(cells, keys)
    return _table(records, keys)[0]


def _options_text(config: RunConfig) -> str:
    """The command-line options of ``config`` (`` --runs 5 --set grid=reduced``)."""
    parts = [] if config.runs is None else [f"--runs {config.runs}"]
    for flag, values in (("--datasets", config.datasets), ("--methods", config.methods)):
        if values is not None:
            parts.append(f"{flag} {','.join(values)}")
    parts += ["--quick"] if config.quick else []
    parts += [f"--set {key}={value}" for key, value in config.options.items()]
    return "".join(f" {part}" for part in parts)


def _write_if_changed(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` (atomic rename) unless the file already says exactly that."""
    if path.exists() and path.read_text() == text:
        return
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)


def _run_derived(experiment: Experiment, config: RunConfig, out: Path, say) -> pd.DataFrame:
    """A derived experiment: read its sources' committed cells, write OUT/NAME.csv (its table)
    and OUT/NAME.md; no date or timing in either, so the same stores give the same files byte
    for byte.  Returns the cells read (column ``experiment``: their source)."""
    name = experiment.name
    if config != RunConfig():
        raise ValueError(
            f"{name} computes nothing and takes no --runs, --datasets, --methods, --quick or "
            f"--set: it reads the committed cells of {', '.join(experiment.sources)} at the "
            "settings of their reports"
        )
    frames, read = [], []
    for source, settings in experiment.sources.items():
        cells = stored_table(source, settings, out)
        frames.append(cells.assign(experiment=source))
        read.append(
            f"  - `{source}.csv`: {len(cells)} cells, those of `weakfs reproduce {source}"
            f"{_options_text(settings)}`"
        )
    cells = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    table = experiment.derive(cells)
    where = "" if out == experiment.default_out() else f" --out {out}"
    ctx = ReportContext(
        out_dir=out, name=name, config=config, command=f"weakfs reproduce {name}{where}"
    )
    body = experiment.write_report(table, ctx)
    header = [
        f"# {experiment.title}",
        "",
        f"- Command: `{ctx.command}` (computes nothing; the same stores give the same files)",
        "- Read from the committed stores in this folder (rows of older code, marked "
        "`superseded`, left out; the uncommitted cache not read):",
        *read,
        f"- Table: `{name}.csv`, {len(table)} rows",
        "",
    ]
    out.mkdir(parents=True, exist_ok=True)
    # ten significant digits: the last digits of a mean depend on the summation order of the
    # installed numpy and pandas, and would change the file without changing a result
    _write_if_changed(out / f"{name}.csv", table.to_csv(index=False, float_format="%.10g"))
    _write_if_changed(out / f"{name}.md", "\n".join(header) + "\n" + body.rstrip() + "\n")
    say(
        f"{name}: computes nothing; read {len(cells)} cells of {len(frames)} experiments, "
        f"wrote {name}.csv ({len(table)} rows) and {name}.md"
    )
    return cells


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


def _report_gist(text: str) -> str:
    """A report without what only says how it was made: the command, date, wall time, library
    versions and machine of its run, and where its cells were read from (a ``--cached-only``
    rewrite of the same cells on another installation says the same)."""
    text = re.sub(
        r"^- (Command|Date|Wall time of this invocation|Versions|Machine): .*$",
        "",
        text,
        flags=re.M,
    )
    return re.sub(r"^(- Cells: \d+ finished of \d+) .*$", r"\1", text, flags=re.M)


def _same_report(old: str, new: str) -> bool:
    """Whether two reports say the same (a ``--cached-only`` rewrite of an unchanged store
    leaves the committed report alone)."""
    return _report_gist(old) == _report_gist(new)


def _report_command(path: Path) -> str | None:
    """The command an existing report was made with."""
    if not path.exists():
        return None
    match = re.search(r"^- Command: `(.*)`$", path.read_text(), flags=re.MULTILINE)
    return match.group(1) if match else None


def _report_header(title, command, *, cells, n_missing, seconds, raw) -> list[str]:
    """The lines above a report's body: how it was made and where its raw cells are."""
    finished, total, read, failed = cells
    csv_name, n_other_rows, n_superseded = raw
    wall, cell_seconds = seconds
    return [
        f"# {title}",
        "",
        f"- Command: `{command}`",
        f"- Date: {_dt.datetime.now(_dt.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- Cells: {finished} finished of {total} ({read} read from the cache or {csv_name}, "
        f"{failed} failed"
        + (f", {n_missing} not run: report from the cache only" if n_missing is not None else "")
        + ")",
        f"- Wall time of this invocation: {wall:.1f} s; summed cell time: {cell_seconds:.1f} s",
        f"- Versions: {_versions()}",
        f"- Machine: {platform.machine()}, {_cpu_count()} cores",
        f"- Raw cells: `{csv_name}`"
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
