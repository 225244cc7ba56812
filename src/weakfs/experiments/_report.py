"""What the experiments' reports share: tables of means and sds, the papers' numbers, and the
one-line verdict per dataset against the paper's mean and sd."""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import pandas as pd

__all__ = [
    "markdown_table",
    "mean_sd",
    "ours_paper_grid",
    "paper_mean",
    "paper_rows",
    "paper_value",
    "paper_verdict",
    "summarize",
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
) -> pd.DataFrame:
    """The grid "ours (mean ± sd over the runs) / paper" of one value.

    ``rows`` and ``columns`` name a column of ``table`` and its entries in report order (those
    absent from the table are left out); ``paper(row, column)`` gives the paper's printed value,
    ``labels`` the row names shown.  A pair without runs shows ``–`` for ours.
    """
    row, row_order = rows
    column, column_order = columns
    ours = summarize(table, [row, column], [value], digits=digits)
    present = [c for c in column_order if c in set(table[column])]
    grid = []
    for r in [r for r in row_order if r in set(table[row])]:
        cells = [(labels or {}).get(r, r)]
        for c in present:
            hit = ours[(ours[row] == r) & (ours[column] == c)][value]
            cells.append(f"{hit.iloc[0] if len(hit) else '–'} / {paper(r, c)}")
        grid.append(cells)
    return pd.DataFrame(grid, columns=[row, *present])


def markdown_table(frame: pd.DataFrame) -> str:
    """A GitHub markdown table (no optional dependency such as tabulate needed)."""
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


def paper_verdict(values, paper) -> str:
    """Where our mean sits against a paper's value ``"mean ± sd"`` (or a bare number).

    ``"within"`` when the difference is at most the paper's sd (or, where the paper gives no sd,
    our own sd over the runs), else ``"above"`` or ``"below"``; ``"not run"`` without finite
    values and ``"no paper value"`` when ``paper`` holds no number (``"NA"``, ``None``).
    """
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return "not run"
    value = _paper_value(paper)
    if value is None:
        return "no paper value"
    their_mean, spread = value
    if spread is None:
        spread = float(v.std(ddof=1)) if v.size > 1 else 0.0
    diff = float(v.mean()) - their_mean
    if abs(diff) <= spread + TIE_TOLERANCE:
        return "within"
    return "above" if diff > 0 else "below"


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
