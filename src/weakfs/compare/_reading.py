"""How a board is read, in the words the command line and the written boards share: whether any
selector ran, the abstention whenever it applies, which score is the primary one, and an
interval or why there is none."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = [
    "NO_SELECTOR_RAN",
    "board_headline",
    "interval_text",
    "primary_score_reason",
    "stated_verdict",
]

#: the first line of a board on which every selector was left out
NO_SELECTOR_RAN = (
    "No selector ran: every one was left out (the notes say why), so this board holds only the "
    "references (all features, random columns) and recommends no selection"
)
#: what stands for an interval from fewer than two distinct fold scores
TOO_FEW_FOLDS = "too few folds for an interval"


def board_headline(board: pd.DataFrame) -> str | None:
    """:data:`NO_SELECTOR_RAN` when no selector has a row on ``board``, else None."""
    ran = board.attrs.get("selectors_ran")
    return NO_SELECTOR_RAN if ran is not None and not ran else None


def _candidates(board: pd.DataFrame) -> pd.DataFrame:
    """The rows a board chooses among: each method at its automatic k and all features, or, at
    a size the user named, the selections of that size."""
    if board.attrs.get("sizes"):
        return board[board["k_rule"] == "named"]
    return board[(board["k_rule"] == "auto") | (board["method"] == "all features")]


def stated_verdict(board: pd.DataFrame) -> str | None:
    """The board's abstention (``attrs["verdict"]``), also when the top group holds every
    candidate although the board's rule counts too few of them to abstain (two of two tied):
    the labels cannot tell the candidates apart there either, and the recommendation is all
    features."""
    if board.attrs.get("verdict"):
        return board.attrs["verdict"]
    if board.attrs.get("sizes"):  # at a named size the board picks a selection: no abstention
        return None
    candidates = _candidates(board)
    if len(candidates) < 2 or not candidates["tied"].all():
        return None
    return (
        f"The labels cannot tell these selectors apart (all {len(candidates)} candidates are "
        "within noise of the best): the board recommends all features, the robust default, "
        "rather than a confident first place."
    )


def primary_score_reason(board: pd.DataFrame) -> str | None:
    """Why the raw PU AUC (labeled against unlabeled rows, no prior) is the primary score of a
    PU board: the estimated prior's interval is wide, or a candidate's prior-corrected AUC
    leaves [0, 1] (the prior is off); None when the prior-corrected AUC stays the primary."""
    if board.attrs.get("labels") != "pu":
        return None
    resolved = board.attrs.get("prior_resolved")
    if resolved is not None and resolved.is_wide and resolved.interval is not None:
        low, high = resolved.interval
        return (
            f"the class prior's interval is wide ({low:.2f}–{high:.2f}), so the prior-corrected "
            "AUC beside it is unreliable"
        )
    scores = _candidates(board)["score"]
    if ((scores > 1) | (scores < 0)).any():
        return "a prior-corrected AUC beside it leaves [0, 1], so the class prior it reads is off"
    return None


def interval_text(low: float, high: float, digits: int = 3) -> str:
    """``[low, high]``, or the words for a row without one (fewer than two distinct fold
    scores: an interval of zero width would claim a certainty the folds cannot give)."""
    if low is None or high is None or np.isnan(low) or np.isnan(high):
        return f"[{TOO_FEW_FOLDS}]"
    return f"[{low:.{digits}f}, {high:.{digits}f}]"
