"""A leaderboard written as markdown, CSV, JSON or HTML, and its two plots."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from weakfs._markdown import markdown_table
from weakfs._words import singular_counts
from weakfs.compare._reading import (
    board_headline,
    interval_text,
    primary_score_reason,
    stated_verdict,
)

__all__ = ["leaderboard_summary", "plot_leaderboard", "write_leaderboard"]

FORMATS = {".md": "md", ".csv": "csv", ".json": "json", ".html": "html"}


def leaderboard_summary(board: pd.DataFrame) -> pd.DataFrame:
    """The candidates: one row per method at its automatic k, and all features (random
    selection, a reference, at the k of the best candidate), best score first; at the sizes the
    user named, every selection of those sizes by size, highest posterior first, and all
    features as the reference."""
    if board.attrs.get("sizes"):
        rows = board[(board["k_rule"] == "named") | (board["method"] == "all features")]
        order = rows.assign(_all=rows["method"] == "all features", _p=rows["posterior"].fillna(0))
        order = order.sort_values(["_all", "k", "_p"], ascending=[True, True, False], kind="stable")
        return order.drop(columns=["_all", "_p"]).reset_index(drop=True)
    rows = board[board["auto_k"] | (board["method"] == "all features")]
    return rows.sort_values("score", ascending=False, kind="stable").reset_index(drop=True)


def _flag(row) -> str:
    """``"*"`` on the recommended row, ``"="`` on the others of the top group."""
    return "*" if row.get("recommended", False) else ("=" if row.get("tied", False) else "")


def _fmt(row, column: str, digits: int = 3) -> str:
    value = row.get(column, np.nan)
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "–"
    sd = row.get(f"{column}_sd", np.nan)
    text = f"{value:.{digits}f}"
    return text if sd is None or np.isnan(sd) else f"{text} ± {sd:.{digits}f}"


def _markdown(board: pd.DataFrame) -> str:
    truth = "truth" in board
    head = ["rank", "", "method", "k", "score (weak labels) [90 % interval]"]
    head += ["raw PU AUC [90 % interval]"]
    head += ["score (true labels)"] if truth else []
    head += ["stability [interval]", "seconds/fold", "features"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for rank, (_, row) in enumerate(leaderboard_summary(board).iterrows(), 1):
        stab = (
            "–"
            if np.isnan(row["stability"])
            else f"{row['stability']:.2f} [{row['stability_low']:.2f}, {row['stability_high']:.2f}]"
        )
        score = f"{row['score']:.3f} {interval_text(row['score_low'], row['score_high'])}"
        raw = interval_text(row.get("raw_score_low", np.nan), row.get("raw_score_high", np.nan))
        cells = [str(rank), _flag(row), row["method"], str(row["k"]), score]
        cells += [f"{row['raw_score']:.3f} {raw}"]
        cells += [_fmt(row, "truth")] if truth else []
        features = ", ".join(row["features"][:8]) + (" …" if len(row["features"]) > 8 else "")
        cells += [stab, f"{row['seconds']:.2f}", features]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _reading(attrs: dict) -> str:
    """What the rows, ``=`` and ``*`` mean on this board."""
    sizes = attrs.get("sizes")
    if sizes:
        return (
            f"every selection of the size you named (k = {', '.join(map(str, sizes))}). `*`: the "
            "recommendation at each size, the highest posterior (the weak score shrunk toward "
            "the weak-label benchmark's record of that selector at that size); `=`: within the "
            "weak scores' noise of it. All features is the reference, never recommended here."
        )
    return (
        "each method at its automatic k. `=`: in the top group (not found worse than the best); "
        "`*`: the recommendation (all features when they are in the top group, else its "
        "simplest member)."
    )


def _header(board: pd.DataFrame) -> list[str]:
    attrs = board.attrs
    what = (
        "the prior-corrected ROC AUC of the PU labels (an estimate of the AUC on the true "
        "labels; above 1 when the prior is over-estimated), beside the raw AUC of labeled "
        "against unlabeled rows (needs no prior)"
        if attrs.get("labels") == "pu"
        else "accuracy on the labeled test rows"
    )
    headline = board_headline(board)
    raw_first = primary_score_reason(board)
    lines = [
        "# Which selector works on this table",
        "",
        *([f"**{headline}.**", ""] if headline else []),
        *(
            [f"**Read the raw PU AUC, the primary score here: {raw_first}.**", ""]
            if raw_first
            else []
        ),
        f"Score: a standardised logistic regression on the selected columns, {what}, over "
        f"{attrs.get('folds', '?')} folds ({attrs.get('repeats', 1)} repetition(s) of the "
        f"folds), with its 90 % interval corrected for the folds' overlap; {_reading(attrs)} "
        "Stability: Nogueira et al.'s index of the sets chosen in "
        "the folds (1 = always the same, 0 = no better than random). Features: a refit on all "
        "rows at the row's k (the columns `weakfs select` gives). References: random selection "
        "of the same k, and all features.",
        "",
    ]
    for note in attrs.get("notes", []):
        lines.append(f"- {singular_counts(note)}")  # stored as written
    verdict = stated_verdict(board)
    if verdict and verdict not in attrs.get("notes", []):
        lines.append(f"- {singular_counts(verdict)}")
    if verdict and attrs.get("if_fewer_columns"):
        lines.append(f"- {attrs['if_fewer_columns']}")
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
    table = board.assign(
        features=board["features"].map(lambda f: ";".join(f)),
        features_in_folds=board["features_in_folds"].map(lambda f: ";".join(f)),
    )
    if fmt == "csv":
        table.to_csv(path, index=False)
    elif fmt == "json":
        payload = {
            "prior": board.attrs.get("prior"),
            "prior_how": board.attrs.get("prior_how"),
            "notes": board.attrs.get("notes", []),
            "verdict": board.attrs.get("verdict"),
            "rows": json.loads(board.to_json(orient="records")),
        }
        path.write_text(json.dumps(payload, indent=2) + "\n")
    elif fmt == "md":
        full = table.drop(columns=["features", "features_in_folds"]).round(4)
        body = [*_header(board), _markdown(board), "", "## Every k", "", markdown_table(full)]
        path.write_text("\n".join(body) + "\n")
    else:
        summary = leaderboard_summary(board).assign(
            features=lambda f: f["features"].map(lambda v: ", ".join(v[:8]))
        )
        notes = "".join(f"<li>{singular_counts(n)}</li>" for n in board.attrs.get("notes", []))
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
