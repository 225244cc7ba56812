"""The benchmark-fscpu-rows1500 experiment's cells: none.  It reads the benchmark's committed
cells with and without FSCPU's ``search_rows`` option (``Experiment.derive``)."""

from __future__ import annotations

from weakfs.experiments._registry import RunConfig
from weakfs.experiments.benchmark_fscpu_rows._protocol import SOURCES

__all__ = ["SOURCES", "VERSION", "make_cells", "run_cell"]

VERSION = 1


def make_cells(config: RunConfig) -> list[dict]:
    """No cell: the experiment reads the benchmark's finished cells."""
    return []


def run_cell(cell: dict) -> dict:
    raise RuntimeError("benchmark-fscpu-rows1500 computes no selection; it has no cell to run")
