"""The scoreboard's cells: none.  It computes nothing; the runner reads the finished cells of the
experiments in ``_protocol.SOURCES`` from their committed CSVs (``Experiment.derive``)."""

from __future__ import annotations

from weakfs.experiments._registry import RunConfig

__all__ = ["VERSION", "make_cells", "run_cell"]

#: the scoreboard has no cell of its own, so nothing to version
VERSION = 1


def make_cells(config: RunConfig) -> list[dict]:
    """No cell: the scoreboard reads the other experiments' finished cells."""
    return []


def run_cell(cell: dict) -> dict:
    raise RuntimeError("the scoreboard computes nothing; it has no cell to run")
