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

__all__ = [
    "FEWER_COLUMNS_SIZE",
    "checked_sizes",
    "named_size_rows",
    "named_sizes",
    "recommend_at_sizes",
    "settle_recommendation",
    "smaller_board_line",
]

ALL_FEATURES = "all features"
RANDOM = "random"
#: a selector that chooses its own number of columns: its rows hold the same columns whatever
#: their k, so it is not a candidate at a named size
OWN_SIZE = ("sewil",)
#: the weak score the guide reads: one that needs no class prior (PU: the AUC of labeled against
#: unlabeled rows; semi-supervised: the accuracy on the labeled rows, the same as ``score``)
_WEAK = "raw_score"
#: the size the default board's extra line answers for ("if you must keep fewer columns")
FEWER_COLUMNS_SIZE = 20


def checked_sizes(k) -> list[int]:
    """``k`` as a sorted list of whole sizes: at least one, each a whole number of columns."""
    values = np.atleast_1d(np.asarray(k, dtype=object)).tolist()
    if not values or any(isinstance(v, bool) or float(v) != int(v) for v in values):
        raise ValueError(f"k must name whole numbers of columns (one or several); got {k!r}")
    return sorted({int(v) for v in values})


def named_sizes(k, n_columns: int) -> list[int]:
    """The sizes the user named (``k``: an int or several), checked: each below the table's
    columns (every column is the all-features reference row, not a selection); [] without
    ``k``."""
    if k is None:
        return []
    sizes = checked_sizes(k)
    if sizes[0] < 1 or sizes[-1] >= n_columns:
        raise ValueError(
            f"k must name sizes from 1 to {n_columns - 1}, below the table's {n_columns} "
            f"columns (every column is the all-features reference row); got {k!r}"
        )
    return sizes


def named_size_rows(board: pd.DataFrame, size: int) -> pd.Index:
    """The board's selections of exactly ``size`` columns (no reference, no own-size selector)."""
    keep = (
        (board["k"] == size)
        & ~board["method"].isin([ALL_FEATURES, RANDOM, *OWN_SIZE])
        & board[_WEAK].notna()
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
            board.loc[rows, _WEAK],
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
        f"{rows_word} its weak scores weigh {100 * share:.0f} % and the benchmark's record of each "
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


def settle_recommendation(
    board: pd.DataFrame, verdict, sizes, n_labeled: int, kind: str, n_columns: int
) -> tuple[pd.DataFrame, str | None, list[str], str | None]:
    """The board's last word: at named sizes, one recommendation per size (the question is
    which selection of that size, not whether to select: no abstention); otherwise the
    board's own verdict.  Returns the board, the verdict, the sentences for the notes and,
    when the board abstains, the line for fewer columns (advice, kept apart from the notes of
    what was done)."""
    if sizes:
        board, said = recommend_at_sizes(
            board, sizes, n_labeled=n_labeled, kind=kind, n_columns=n_columns
        )
        return board, None, said, None
    if verdict is None:
        return board, None, [], None
    fewer = smaller_board_line(board, n_labeled=n_labeled, kind=kind, n_columns=n_columns)
    return board, verdict, [verdict], fewer
