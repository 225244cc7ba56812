"""The board at a size the user names (``compare_selectors(X, y, k=20)``, ``weakfs compare -k
20``): at each named size, the recommendation is the selection of that size with the highest
posterior of the size guide (:class:`~weakfs.compare.SizeGuide`: the weak score shrunk toward
the benchmark's record of that selector at that size); all features stays on the board as the
reference and is never recommended.  Without a named size, the default board's abstention gains
one line saying what it would recommend at the board's size nearest 20."""

from __future__ import annotations

import numpy as np
import pandas as pd

from weakfs.compare._size_guide import SizeGuide, load_size_guide

__all__ = ["FEWER_COLUMNS_SIZE", "named_size_rows", "recommend_at_sizes", "smaller_board_line"]

ALL_FEATURES = "all features"
RANDOM = "random"
#: a selector that chooses its own number of columns: its rows hold the same columns whatever
#: their k, so it is not a candidate at a named size
OWN_SIZE = ("sewil",)
#: the size the default board's extra line answers for ("if you must keep fewer columns")
FEWER_COLUMNS_SIZE = 20


def named_size_rows(board: pd.DataFrame, size: int) -> pd.Index:
    """The board's selections of exactly ``size`` columns (no reference, no own-size selector)."""
    keep = (
        (board["k"] == size)
        & ~board["method"].isin([ALL_FEATURES, RANDOM, *OWN_SIZE])
        & board["score"].notna()
    )
    return board.index[keep]


def recommend_at_sizes(
    board: pd.DataFrame,
    sizes,
    *,
    n_labeled: int,
    kind: str,
    n_columns: int,
    guide: SizeGuide | None = None,
) -> tuple[pd.DataFrame, list[str]]:
    """``board`` with one recommendation per named size, and a sentence per size.

    Adds ``posterior`` (the guide's, on the rows of a named size), sets ``tied`` (within the
    weak scores' noise of the recommended row at that size) and ``recommended`` (exactly one row
    per size that has selections; all features never) and ``k_rule = "named"`` on those rows.
    """
    guide = load_size_guide() if guide is None else guide
    board = board.copy()
    board["posterior"] = np.nan
    board["recommended"] = False
    board["tied"] = False
    sentences = []
    margin = float(guide.tie_margin(kind, n_labeled)[0])
    share = float(guide.weight(n_labeled))
    for size in sorted({int(s) for s in sizes}):
        rows = named_size_rows(board, size)
        if not len(rows):
            sentences.append(f"No selector ran at k = {size}: there is no recommendation there.")
            continue
        posterior = guide.posterior(
            board.loc[rows, "method"],
            board.loc[rows, "score"],
            kind=kind,
            n_columns=n_columns,
            k=size,
            n_labeled=n_labeled,
        )
        board.loc[rows, "posterior"] = posterior
        board.loc[rows, "k_rule"] = "named"
        best = rows[int(np.argmax(posterior))]
        board.loc[rows, "tied"] = posterior.max() - posterior <= margin
        board.loc[best, "recommended"] = True
        sentences.append(_sentence(board, best, rows, size, n_labeled, share))
    return board, sentences


def _sentence(board, best, rows, size: int, n_labeled: int, share: float) -> str:
    row = board.loc[best]
    tied = [m for m in board.loc[rows][board.loc[rows, "tied"]]["method"] if m != row["method"]]
    rows_word = "row" if n_labeled == 1 else "rows"
    text = (
        f"At k = {size} the board recommends {row['method']}: with {n_labeled} labeled "
        f"{rows_word} its weak scores weigh {share:.0%} and the benchmark's record of each "
        f"selector at this size the rest."
    )
    if tied:
        text += f" Within noise of it: {', '.join(tied)}."
    if np.isfinite(row.get("stability", np.nan)):
        text += (
            f" Its columns across folds: stability {row['stability']:.2f} "
            f"[{row['stability_low']:.2f}, {row['stability_high']:.2f}] (1 = the same columns "
            "in every fold)."
        )
    return text


def smaller_board_line(
    board: pd.DataFrame, *, n_labeled: int, kind: str, n_columns: int, guide=None
) -> str | None:
    """The default board's extra line when it abstains: what the named-size rule recommends at
    the board's size nearest :data:`FEWER_COLUMNS_SIZE` (None when no selection has a size
    below every column)."""
    selections = ~board["method"].isin([ALL_FEATURES, RANDOM, *OWN_SIZE])
    sizes = sorted({int(k) for k in board.loc[selections, "k"] if 0 < k < n_columns})
    if not sizes:
        return None
    size = min(sizes, key=lambda k: abs(np.log(k) - np.log(FEWER_COLUMNS_SIZE)))
    picked, _ = recommend_at_sizes(
        board, [size], n_labeled=n_labeled, kind=kind, n_columns=n_columns, guide=guide
    )
    chosen = picked.loc[picked["recommended"], "method"]
    if chosen.empty:
        return None
    return (
        f"If you must keep fewer columns: at k = {size} the recommendation is {chosen.iloc[0]} "
        f"(`weakfs compare -k {size}` compares the selectors at exactly that size)."
    )
