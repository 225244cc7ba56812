"""The board-at-k experiment's cells: none.  It reads the benchmark's committed cells
(``Experiment.derive``) at the settings of the benchmark's report."""

from __future__ import annotations

from weakfs.experiments._registry import RunConfig

__all__ = ["SOURCES", "VERSION", "make_cells", "run_cell"]

VERSION = 1
#: the benchmark at the settings of results/benchmark.md (``weakfs reproduce benchmark``)
SOURCES = {"benchmark": RunConfig()}


def make_cells(config: RunConfig) -> list[dict]:
    """No cell: the experiment reads the benchmark's finished cells."""
    return []


def run_cell(cell: dict) -> dict:
    raise RuntimeError("board-at-k computes no selection; it has no cell to run")
