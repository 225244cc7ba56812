"""The fscpu-options experiment's cells: none.  It reads Table 1's committed cells of the paper's
FSCPU / FSCPU-MI and of their speed options (``Experiment.derive``)."""

from __future__ import annotations

from weakfs.experiments._registry import RunConfig
from weakfs.experiments.fscpu_options._protocol import DEFAULTS, SOURCES

__all__ = ["DEFAULTS", "SOURCES", "VERSION", "make_cells", "run_cell"]

VERSION = 1


def make_cells(config: RunConfig) -> list[dict]:
    """No cell: the experiment reads Table 1's finished cells."""
    return []


def run_cell(cell: dict) -> dict:
    raise RuntimeError("fscpu-options computes no selection; it has no cell to run")
