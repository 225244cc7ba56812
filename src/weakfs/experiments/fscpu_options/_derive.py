"""One row per Table-1 run of the paper's FSCPU / FSCPU-MI and of their speed options."""

from __future__ import annotations

import pandas as pd

from weakfs.experiments.fscpu._protocol import CONDITIONS, FSCPU_OPTION_METHODS
from weakfs.experiments.fscpu_options._protocol import DEFAULTS

__all__ = ["COLUMNS", "base_method", "records"]

COLUMNS = [
    *["method", "base", "condition", "seed", "fsr", "seconds"],
    *["em_fits", "em_iterations_mean", "em_at_cap_share"],
]


def base_method(method: str) -> str:
    """The paper's search an option speeds up (``fscpu`` or ``fscpu-mi``)."""
    if method in DEFAULTS:
        return method
    return "fscpu" if FSCPU_OPTION_METHODS[method][0] == "cluster" else "fscpu-mi"


def records(cells: pd.DataFrame) -> pd.DataFrame:
    """The runs, sorted: the selection's wall time as ``seconds`` (one process, one thread)."""
    if cells.empty:
        return pd.DataFrame(columns=COLUMNS)
    table = cells.assign(
        base=cells["method"].map(base_method), seconds=cells["select_seconds"].astype(float)
    )
    for column in COLUMNS:
        if column not in table:
            table[column] = float("nan")
    order = {m: i for i, m in enumerate([*DEFAULTS, *FSCPU_OPTION_METHODS])}
    place = {c: i for i, c in enumerate(CONDITIONS)}
    table = table.assign(_order=table["method"].map(order), _place=table["condition"].map(place))
    table = table.sort_values(["_order", "_place", "seed"], kind="stable")
    return table[COLUMNS].reset_index(drop=True)
