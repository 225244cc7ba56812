"""The UFVS paper's scoreboard rows: its claims about Figures 5-10, one row per claim, dataset
and mode."""

from __future__ import annotations

import pandas as pd

from weakfs.experiments._report import NOT_STAGED, NOT_YET, scoreboard_row
from weakfs.experiments.ufvs._paper import PAPER_DATASETS as UFVS_PAPER_DATASETS
from weakfs.experiments.ufvs._paper import paper_says
from weakfs.experiments.ufvs._protocol import DATASETS as UFVS_DATASETS
from weakfs.experiments.ufvs._protocol import MODES as UFVS_MODES
from weakfs.experiments.ufvs._report import CLAIMS, claim_verdicts

__all__ = ["UFVS_TABLE", "scoreboard_rows"]

#: the table name of the UFVS claims (the paper gives its results as plots)
UFVS_TABLE = "Figures 5-10 (claims)"


def scoreboard_rows(cells: pd.DataFrame) -> list[dict]:
    """The UFVS paper's claims about its Figures 5-10, one row per claim, dataset and mode:
    1 = the claim holds (ours: as the UFVS report finds; the paper: as its text says), sd 0."""
    run = cells[cells["experiment"] == "ufvs"]
    found = claim_verdicts(run) if len(run) else pd.DataFrame(columns=["dataset", "mode"])
    holds = {(r.dataset, r.mode, r.claim): r.holds for r in found.itertuples()}
    rows = []
    for claim in CLAIMS:
        for d in UFVS_PAPER_DATASETS:
            for mode in UFVS_MODES:
                ours = holds.get((d, mode, claim))
                values = [] if ours is None else [float(ours)]
                reason = NOT_YET if d in UFVS_DATASETS else NOT_STAGED
                printed = (float(paper_says(claim, d)), 0.0)
                row = f"{d} ({mode})"
                rows.append(
                    scoreboard_row("UFVS", UFVS_TABLE, row, claim, values, printed, None, reason)
                )
    return rows
