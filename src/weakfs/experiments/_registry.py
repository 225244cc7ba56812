"""The registry of paper experiments run by ``weakfs reproduce``.

An experiment is a grid of independent *cells* (typically dataset x method x seed).  Each cell is a
JSON-serialisable dict; ``run_cell(cell)`` is a top-level function (picklable, so Dask workers can
import it) returning a JSON-serialisable dict of numbers.  The runner stores every finished cell at
once, so an interrupted run resumes, and finally calls ``write_report(table, ctx)`` with one row per
cell (cell keys + result keys + ``seconds``) to produce the markdown body of ``results/NAME.md``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

__all__ = ["EXPERIMENT_MODULES", "Experiment", "ReportContext", "RunConfig", "get", "names"]


@dataclass
class RunConfig:
    """What the user asked for on the command line.

    ``runs`` is the number of seeds (None: the experiment's default); ``datasets``/``methods``
    restrict
    the grid (None: all); ``quick`` asks for a reduced protocol that still runs the real code (for
    smoke tests); ``options`` holds experiment-specific ``--set key=value`` pairs.
    """

    runs: int | None = None
    datasets: list[str] | None = None
    methods: list[str] | None = None
    quick: bool = False
    options: dict = field(default_factory=dict)

    def n_runs(self, default: int) -> int:
        return self.runs if self.runs is not None else default

    def keep(self, kind: str, values: list[str]) -> list[str]:
        wanted = self.datasets if kind == "datasets" else self.methods
        if wanted is None:
            return list(values)
        unknown = sorted(set(wanted) - set(values))
        if unknown:
            raise ValueError(f"unknown {kind} {unknown}; this experiment has {list(values)}")
        return [v for v in values if v in wanted]


#: the folder, inside a report's folder, where its figures are drawn before they are kept
STAGING = ".figures"


@dataclass
class ReportContext:
    """Where a report writes its figures and what it may say about the run."""

    out_dir: Path
    name: str
    config: RunConfig
    command: str
    failures: list[dict] = field(default_factory=list)
    stage_figures: bool = False

    def figure_path(self, stem: str) -> Path:
        """Path for a figure ``NAME_STEM.png`` (the markdown should link it by name).  With
        ``stage_figures`` (the runner) it is drawn into a staging folder and moved beside the
        report only when the report is written (or the figure is new), so a report left
        unchanged keeps its figures byte for byte, whatever matplotlib draws them."""
        folder = self.out_dir / STAGING if self.stage_figures else self.out_dir
        folder.mkdir(parents=True, exist_ok=True)
        return folder / f"{self.name}_{stem}.png"


@dataclass
class Experiment:
    """A paper experiment: its cells, how one runs, and how the report reads the finished ones.

    ``version`` (an int, or a function of a cell giving its int) is raised whenever a change of
    the code alters a cell's result.  A version above 1 enters the cell (and so its cache key):
    cells computed by older code are not read back, and their rows in the committed CSV are
    marked ``superseded`` instead of being mixed into the tables.
    """

    name: str
    title: str
    make_cells: Callable[[RunConfig], list[dict]]
    run_cell: Callable[[dict], dict]
    write_report: Callable[[pd.DataFrame, ReportContext], str]
    default_runs: int = 5
    description: str = ""
    version: int | Callable[[dict], int] = 1
    #: False for a smoke test: its results are not kept in ``results/`` (see :meth:`default_out`)
    committed: bool = True
    #: a derived experiment (the scoreboard) computes nothing: ``sources`` maps the experiments
    #: whose committed cells it reads to the settings it reads them at (those of their reports
    #: in ``results/``), and ``derive`` turns those cells (one frame, the source's name in column
    #: ``experiment``) into its table, written to OUT/NAME.csv and given to ``write_report``
    sources: dict[str, RunConfig] = field(default_factory=dict)
    derive: Callable[[pd.DataFrame], pd.DataFrame] | None = None

    def default_out(self) -> Path:
        """Where the results go unless told: ``results``, or, for an experiment whose results
        are not kept, a folder in the system's temporary directory."""
        if self.committed:
            return Path("results")
        import tempfile

        return Path(tempfile.gettempdir()) / "weakfs-reproduce"

    def cell_version(self, cell: dict) -> int:
        """The version of the code that computes ``cell``."""
        return int(self.version(cell) if callable(self.version) else self.version)

    def versioned(self, cell: dict) -> dict:
        """``cell`` with its ``version`` entry (none at version 1, so that the keys of cells
        computed before versions existed stay valid)."""
        cell = {k: v for k, v in cell.items() if k != "version"}
        version = self.cell_version(cell)
        return {**cell, "version": version} if version > 1 else cell


# name -> module defining ``EXPERIMENT`` (imported lazily so that one experiment's optional
# dependencies never break another)
EXPERIMENT_MODULES: dict[str, str] = {
    "benchmark": "weakfs.experiments.benchmark",
    "demo": "weakfs.experiments.demo",
    "ufvs": "weakfs.experiments.ufvs",
    "pu_extra_trees-tables": "weakfs.experiments.pu_extra_trees",
    "fscpu-table1": "weakfs.experiments.fscpu",
    "fscpu-table3": "weakfs.experiments.fscpu",
    "fscpu-figure1": "weakfs.experiments.fscpu",
    "gkf_pual-tables": "weakfs.experiments.gkf_pual",
    "sewil-tables": "weakfs.experiments.sewil",
    "scoreboard": "weakfs.experiments.scoreboard",
    "board-at-k": "weakfs.experiments.board_at_k",
    "fscpu-options": "weakfs.experiments.fscpu_options",
    "fscpu-benchmark-sample": "weakfs.experiments.fscpu_benchmark_sample",
    "benchmark-fscpu-rows1500": "weakfs.experiments.benchmark_fscpu_rows",
}


# earlier names of experiments, still accepted (their results are written under the new name)
ALIASES: dict[str, str] = {
    "puet-tables": "pu_extra_trees-tables",
    "gkfpual-tables": "gkf_pual-tables",
}


def names() -> list[str]:
    return sorted(EXPERIMENT_MODULES)


def canonical_name(name: str) -> str:
    """The experiment's name, resolving an alias; a ``KeyError`` naming the known ones."""
    name = ALIASES.get(name, name)
    if name not in EXPERIMENT_MODULES:
        raise KeyError(f"unknown experiment {name!r}; known: {', '.join(names())}")
    return name


def get(name: str) -> Experiment:
    name = canonical_name(name)
    module = importlib.import_module(EXPERIMENT_MODULES[name])
    experiments = getattr(module, "EXPERIMENTS", None)
    if experiments is not None:
        return experiments[name]
    return module.EXPERIMENT
