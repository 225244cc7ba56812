"""A leaderboard written as markdown, CSV, JSON or HTML, and its two plots."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from weakfs._markdown import markdown_table

__all__ = ["leaderboard_summary", "plot_leaderboard", "write_leaderboard"]

FORMATS = {".md": "md", ".csv": "csv", ".json": "json", ".html": "html"}


def leaderboard_summary(board: pd.DataFrame) -> pd.DataFrame:
    """One row per method at the k its one-standard-error rule picks, best score first (the
    references included)."""
    rows = board[board["auto_k"] | (board["method"] == "all features")]
    return rows.sort_values("score", ascending=False, kind="stable").reset_index(drop=True)


def _fmt(row, column: str, digits: int = 3) -> str:
    value = row.get(column, np.nan)
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "–"
    sd = row.get(f"{column}_sd", np.nan)
    text = f"{value:.{digits}f}"
    return text if sd is None or np.isnan(sd) else f"{text} ± {sd:.{digits}f}"


def _markdown(board: pd.DataFrame) -> str:
    truth = "truth" in board
    head = ["rank", "method", "k", "score (weak labels)"] + (
        ["score (hidden truth)"] if truth else []
    )
    head += ["stability [interval]", "seconds/fold", "features (chosen in the most folds)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for rank, (_, row) in enumerate(leaderboard_summary(board).iterrows(), 1):
        stab = (
            "–"
            if np.isnan(row["stability"])
            else f"{row['stability']:.2f} [{row['stability_low']:.2f}, {row['stability_high']:.2f}]"
        )
        cells = [str(rank), row["method"], str(row["k"]), _fmt(row, "score")]
        cells += [_fmt(row, "truth")] if truth else []
        features = ", ".join(row["features"][:8]) + (" …" if len(row["features"]) > 8 else "")
        cells += [stab, f"{row['seconds']:.2f}", features]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _header(board: pd.DataFrame) -> list[str]:
    attrs = board.attrs
    what = (
        "prior-corrected ROC AUC of the PU labels"
        if attrs.get("labels") == "pu"
        else "accuracy on the labeled test rows"
    )
    lines = [
        "# Which selector works on this table",
        "",
        f"Score: a standardised logistic regression on the selected columns, {what}, over "
        f"{attrs.get('folds', '?')} folds; each method at the k its one-standard-error rule "
        "picks (the smallest k within one standard error of its best). Stability: Nogueira et "
        "al.'s index of the sets chosen in the folds (1 = always the same, 0 = no better than "
        "random). References: random selection of the same k, and all features.",
        "",
    ]
    for note in attrs.get("notes", []):
        lines.append(f"- {note}")
    return [*lines, ""]


def write_leaderboard(board: pd.DataFrame, path, fmt: str | None = None) -> str:
    """Write ``board`` as ``.md``, ``.csv``, ``.json`` or ``.html`` (by ``fmt`` or the suffix);
    returns the format."""
    path = Path(path)
    fmt = fmt or FORMATS.get(path.suffix.lower())
    if fmt not in FORMATS.values():
        raise ValueError(
            f"cannot tell the format of {path.name}: name it .md, .csv, .json or .html"
        )
    table = board.assign(features=board["features"].map(lambda f: ";".join(f)))
    if fmt == "csv":
        table.to_csv(path, index=False)
    elif fmt == "json":
        payload = {
            "prior": board.attrs.get("prior"),
            "prior_how": board.attrs.get("prior_how"),
            "notes": board.attrs.get("notes", []),
            "rows": json.loads(board.to_json(orient="records")),
        }
        path.write_text(json.dumps(payload, indent=2) + "\n")
    elif fmt == "md":
        full = table.drop(columns="features").round(4)
        body = [*_header(board), _markdown(board), "", "## Every k", "", markdown_table(full)]
        path.write_text("\n".join(body) + "\n")
    else:
        summary = leaderboard_summary(board).assign(
            features=lambda f: f["features"].map(lambda v: ", ".join(v[:8]))
        )
        notes = "".join(f"<li>{n}</li>" for n in board.attrs.get("notes", []))
        path.write_text(
            "<html><body><h1>Which selector works on this table</h1>"
            f"<ul>{notes}</ul>{summary.round(4).to_html(index=False)}"
            f"<h2>Every k</h2>{table.round(4).to_html(index=False)}</body></html>\n"
        )
    return fmt


def plot_leaderboard(board: pd.DataFrame, path=None):
    """Score against k per method (with the references), and stability against score at each
    method's chosen k; returns the figure."""
    from weakfs._matplotlib import pyplot

    plt = pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    for method, g in board.groupby("method", sort=False):
        if method == "all features":
            left.axhline(g["score"].iloc[0], color="black", ls=":", label=method)
            continue
        style = {"color": "grey", "ls": "--"} if method == "random" else {}
        left.errorbar(
            g["k"], g["score"], yerr=g["score_sd"], marker="o", ms=3, label=method, **style
        )
    left.set_xscale("log")
    ks = sorted(board["k"].unique())
    left.minorticks_off()
    left.set_xticks(ks)
    left.set_xticklabels([str(k) for k in ks])
    left.set_xlabel("k (features selected)")
    left.set_ylabel("score from the weak labels")
    left.legend(fontsize=7)
    summary = leaderboard_summary(board)
    summary = summary[summary["method"] != "all features"]
    right.scatter(summary["score"], summary["stability"])
    for _, row in summary.iterrows():
        right.annotate(
            f"{row['method']} (k={row['k']})", (row["score"], row["stability"]), fontsize=7
        )
    right.set_xlabel("score at the chosen k")
    right.set_ylabel("stability across folds")
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=110)
    return fig
