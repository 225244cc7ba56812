"""What the experiments' reports share: tables of means and sds, the papers' numbers, and the
one-line verdict per dataset against the paper's mean and sd."""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import pandas as pd

from weakfs.utils import markdown_table

__all__ = [
    "SCOREBOARD_COLUMNS",
    "cell_values",
    "markdown_table",
    "mean_sd",
    "ours_paper_grid",
    "paper_mean",
    "paper_rows",
    "paper_value",
    "paper_verdict",
    "scoreboard_row",
    "summarize",
    "verdict",
    "verdict_lines",
]


def summarize(
    table: pd.DataFrame, by: list[str], values: list[str], *, digits: int = 3
) -> pd.DataFrame:
    """``mean ± sd`` strings of ``values`` grouped by ``by`` (sd over seeds with ddof=1)."""
    grouped = table.groupby(by, sort=False)[values]
    mean, std, count = grouped.mean(), grouped.std(ddof=1), grouped.count()
    out = pd.DataFrame(index=mean.index)
    for col in values:
        out[col] = [
            f"{m:.{digits}f} ± {s:.{digits}f}" if n > 1 else f"{m:.{digits}f}"
            for m, s, n in zip(mean[col], std[col], count[col])
        ]
    return out.reset_index()


def ours_paper_grid(
    table: pd.DataFrame,
    rows: tuple[str, list],
    columns: tuple[str, list],
    value: str,
    paper: Callable[[str, str], str],
    labels: dict | None = None,
    *,
    digits: int = 3,
    runs: bool = False,
) -> pd.DataFrame:
    """The grid "ours (mean ± sd over the runs) / paper" of one value.

    ``rows`` and ``columns`` name a column of ``table`` and its entries in report order (those
    absent from the table are left out); ``paper(row, column)`` gives the paper's printed value,
    ``labels`` the row names shown.  A pair without runs shows ``–`` for ours.  ``runs``: each
    of ours followed by its number of runs in brackets (where pairs differ in it).
    """
    row, row_order = rows
    column, column_order = columns
    ours = summarize(table, [row, column], [value], digits=digits)
    counts = table.groupby([row, column])[value].count()
    present = [c for c in column_order if c in set(table[column])]
    grid = []
    for r in [r for r in row_order if r in set(table[row])]:
        cells = [(labels or {}).get(r, r)]
        for c in present:
            hit = ours[(ours[row] == r) & (ours[column] == c)][value]
            shown = hit.iloc[0] if len(hit) else "–"
            if runs and len(hit):
                shown += f" ({counts.get((r, c), 0)})"
            cells.append(f"{shown} / {paper(r, c)}")
        grid.append(cells)
    return pd.DataFrame(grid, columns=[row, *present])


def paper_rows(text: str) -> list[list[str]]:
    """The rows of a paper's numbers written as a ``|``-separated table, cells stripped (the
    first row names the columns)."""
    return [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in text.strip().splitlines()
    ]


def mean_sd(values, *, digits: int = 3, style: str = "±") -> str:
    """``"mean ± sd"`` of the finite values (sd with ddof=1; ``style="()"`` gives
    ``"mean (sd)"``); one value alone, ``"–"`` for none."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return "–"
    if v.size == 1:
        return f"{v[0]:.{digits}f}"
    mean, sd = f"{v.mean():.{digits}f}", f"{v.std(ddof=1):.{digits}f}"
    return f"{mean} ({sd})" if style == "()" else f"{mean} ± {sd}"


_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)"
_PAPER_VALUE = re.compile(rf"^\s*({_NUMBER})\s*(?:±\s*({_NUMBER}))?\s*$")
# float noise when comparing means of rounded values with a paper's two-decimal bounds:
# 0.80 - 0.78 is 0.020000000000000018, which must still count as "at most .02"
TIE_TOLERANCE = 1e-9


def _paper_value(paper) -> tuple[float, float | None] | None:
    """``(mean, sd)`` of a paper's value ``"mean ± sd"`` (sd None for a bare number), or None
    where it holds no number (``"NA"``, ``None``)."""
    match = _PAPER_VALUE.match(str(paper)) if paper is not None else None
    if match is None:
        return None
    return float(match[1]), (float(match[2]) if match[2] is not None else None)


def paper_value(paper) -> tuple[float, float | None] | None:
    """``(mean, sd)`` of a paper's value ``"mean ± sd"`` (sd None for a bare number), or None
    where it holds no number (``"NA"``, ``None``, ``"0.607 (as printed)"``)."""
    return _paper_value(paper)


def paper_mean(paper: str) -> float:
    """The mean of a paper's value ``"mean ± sd"`` (or a bare number)."""
    value = _paper_value(paper)
    if value is None:
        raise ValueError(f"no paper value in {paper!r}")
    return value[0]


def verdict(paper_mean: float, paper_sd: float, ours_mean: float, ours_sd: float) -> str:
    """The one verdict rule of every report and of the scoreboard (NaN = empty).

    ``"within"`` when ``|ours_mean - paper_mean|`` is at most the paper's sd (where the paper
    gives none, our own sd over the runs, 0 with one run), else ``"above"`` or ``"below"``;
    ``"not run"`` without our mean and ``"no paper value"`` without the paper's.
    """
    if not np.isfinite(ours_mean):
        return "not run"
    if not np.isfinite(paper_mean):
        return "no paper value"
    spread = paper_sd if np.isfinite(paper_sd) else (ours_sd if np.isfinite(ours_sd) else 0.0)
    diff = ours_mean - paper_mean
    if abs(diff) <= spread + TIE_TOLERANCE:
        return "within"
    return "above" if diff > 0 else "below"


def paper_verdict(values, paper) -> str:
    """:func:`verdict` of our finite ``values`` over the runs against a paper's value
    ``"mean ± sd"`` (or a bare number; ``"NA"`` or ``None``: no paper value)."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    value = _paper_value(paper)
    p_mean, p_sd = value if value is not None else (np.nan, None)
    ours_mean = float(v.mean()) if v.size else np.nan
    ours_sd = float(v.std(ddof=1)) if v.size > 1 else np.nan
    return verdict(float(p_mean), np.nan if p_sd is None else float(p_sd), ours_mean, ours_sd)


def verdict_lines(
    entries, reasons: dict | None = None, *, digits: int = 3, note: str | None = None
) -> str:
    """One markdown line per group (dataset, condition): for every method, our mean, the paper's
    value and :func:`paper_verdict`; then the known reason for that group, if any.

    ``entries`` holds ``(group, method_label, values, paper)``; groups keep their first order.
    ``note`` replaces the sentence above the lines that says what *within* means (by default:
    the paper's sd, or our own where the paper gives none).
    """
    groups: dict[str, list[str]] = {}
    for group, label, values, paper in entries:
        verdict = paper_verdict(values, paper)
        if verdict in ("not run", "no paper value"):
            continue
        mean = float(np.nanmean(np.asarray(values, dtype=float)))
        groups.setdefault(group, []).append(f"{label} {mean:.{digits}f} vs {paper}: {verdict}")
    sd_note = note or (
        "Against the paper: *within* = our mean differs from the paper's by at most its sd (our "
        "own sd where the paper gives none), else *above* or *below*."
    )
    lines = [sd_note, ""]
    for group, parts in groups.items():
        reason = (reasons or {}).get(group)
        lines.append(f"- {group}: " + "; ".join(parts) + (f". {reason}" if reason else ""))
    return "\n".join(lines) if groups else ""


# ---------------------------------------------------------------------------------------------
# the scoreboard's rows: each paper's experiment package builds its own (``_scoreboard.py``)

#: the columns of a scoreboard row
SCOREBOARD_COLUMNS = [
    "paper",
    "table",
    "row",
    "metric",
    "paper_mean",
    "paper_sd",
    "ours_mean",
    "ours_sd",
    "ours_runs",
    "paper_runs",
    "verdict",
]
#: the reasons a paper entry has no cell
NOT_STAGED = "data not staged"
NOT_DESCRIBED = "method not described anywhere we could read"
NOT_YET = "not run yet"


def scoreboard_row(paper, table, row, metric, values, printed, paper_runs, reason=NOT_YET) -> dict:
    """One scoreboard entry: our finite ``values`` over the runs against the paper's ``printed``
    value (``"mean ± sd"``, a bare number, a ``(mean, sd)`` pair or None), with the
    :func:`verdict` (and, for *not run* or *no paper value*, its reason after a colon)."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    value = printed if isinstance(printed, tuple) else paper_value(printed)
    p_mean, p_sd = value if value is not None else (np.nan, None)
    p_sd = np.nan if p_sd is None else float(p_sd)
    ours_mean = float(v.mean()) if v.size else np.nan
    ours_sd = float(v.std(ddof=1)) if v.size > 1 else np.nan
    said = verdict(float(p_mean), p_sd, ours_mean, ours_sd)
    if said == "not run":
        said += f": {reason}"
    elif said == "no paper value":
        said += f": the paper prints {printed}"
    return {
        "paper": paper,
        "table": table,
        "row": row,
        "metric": metric,
        "paper_mean": float(p_mean),
        "paper_sd": p_sd,
        "ours_mean": ours_mean,
        "ours_sd": ours_sd,
        "ours_runs": int(v.size),
        "paper_runs": paper_runs,
        "verdict": said,
    }


def cell_values(frame: pd.DataFrame, column: str, **match) -> pd.Series:
    """``column`` of the rows of ``frame`` whose entries equal ``match`` (none if a column of
    the match, or ``column``, is absent)."""
    if frame.empty or column not in frame or any(k not in frame for k in match):
        return pd.Series(dtype=float)
    keep = np.ones(len(frame), dtype=bool)
    for key, value in match.items():
        keep &= (frame[key] == value).to_numpy()
    return frame.loc[keep, column]
