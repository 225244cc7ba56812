"""A GitHub markdown table from a DataFrame, for every report the library writes (the
leaderboards of ``compare`` and the papers' experiments alike)."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["markdown_table"]


def markdown_table(frame: pd.DataFrame) -> str:
    """A GitHub markdown table (no optional dependency such as tabulate needed); floats with
    four significant digits, NaN as ``–``."""
    cols = [str(c) for c in frame.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(_fmt(v) for v in row) + " |")
    return "\n".join(lines)


def _fmt(value) -> str:
    if isinstance(value, float):
        if np.isnan(value):
            return "–"
        return f"{value:.4g}"
    return str(value)
