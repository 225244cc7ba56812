"""The scoreboard's table: one row per paper entry, each paper's experiment package building its
own rows (``scoreboard_rows`` of ``weakfs.experiments.<paper>``, from its cells and its own record
of the paper's numbers, ``_paper.py``); nothing retyped.

Every verdict follows from the row's own columns
(:func:`weakfs.experiments._report.verdict`, the one rule of every report): *within* when
``|ours_mean - paper_mean| <= paper_sd`` (where the paper's sd is empty, our own sd over the
runs, 0 with one run), else *above* or *below*; *not run* without a finished cell, *no paper
value* where the paper prints no usable number, each with its reason after a colon.
"""

from __future__ import annotations

import importlib

import pandas as pd

from weakfs.experiments._report import SCOREBOARD_COLUMNS as COLUMNS

__all__ = ["COLUMNS", "PAPERS", "board"]

#: the paper packages, in the scoreboard's order; each exports ``scoreboard_rows(cells)``
PAPERS = ("fscpu", "ufvs", "pu_extra_trees", "sewil", "gkf_pual")


def board(cells: pd.DataFrame) -> pd.DataFrame:
    """The scoreboard: one row per paper entry (:data:`COLUMNS`), from the finished cells of
    the sources (column ``experiment``: the experiment each came from)."""
    if "experiment" not in cells:
        cells = cells.assign(experiment=pd.Series(dtype=object))
    rows = []
    for paper in PAPERS:
        package = importlib.import_module(f"weakfs.experiments.{paper}")
        rows += package.scoreboard_rows(cells)
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame["paper_runs"] = frame["paper_runs"].astype("Int64")
    return frame
