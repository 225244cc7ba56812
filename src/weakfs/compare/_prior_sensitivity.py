"""How much a PU leaderboard's selections move with the class prior.

Every PU selector that reads the prior (PU Extra Trees' risk, the PU permutation scorer) is
refitted on all rows at its board k with the prior at each end of its interval; the Jaccard
overlap of the chosen columns with those at the prior used says whether the prior's uncertainty
matters for the selection (1: the same columns).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from weakfs._scores import feature_order
from weakfs.compare._methods import METHODS

__all__ = ["PRIOR_READERS", "prior_sensitivity"]

#: the compare methods whose selection depends on the class prior
PRIOR_READERS = ("pu_extra_trees", "pu_permutation")


def _chosen(name: str, k: int, prior: float, seed: int, X, y) -> set[int]:
    spec = METHODS[name]
    est = spec.build(k, spec.settings, prior, seed).fit(X, y)
    if spec.ranker:
        return {int(j) for j in feature_order(est)[:k]}
    return {int(j) for j in np.flatnonzero(est.get_support())}


def _jaccard(a: set[int], b: set[int]) -> float:
    union = a | b
    return len(a & b) / len(union) if union else 1.0


def prior_sensitivity(
    X, y, board: pd.DataFrame, prior: float, ends: tuple[float, float], random_state: int = 0
) -> pd.DataFrame:
    """Re-select with the prior at each end of its interval.

    Parameters
    ----------
    X, y : the rows and PU labels the board was made from (all rows are used here).
    board : DataFrame
        ``compare_selectors``'s board; its rows with ``auto_k`` give each method's k.
    prior : float
        The prior the board used.
    ends : (float, float)
        The interval's low and high ends.
    random_state : int
        Seed of the refits (the same at every prior).

    Returns
    -------
    DataFrame
        One row per prior-reading method of the board: ``method``, ``k``, ``prior_low``,
        ``jaccard_low``, ``prior_high``, ``jaccard_high``.
    """
    rows = []
    chosen_k = board[board["auto_k"]].set_index("method")["k"]
    for name in [m for m in PRIOR_READERS if m in chosen_k.index]:
        k = int(chosen_k[name])
        at_prior = _chosen(name, k, prior, random_state, X, y)
        low, high = (_chosen(name, k, end, random_state, X, y) for end in ends)
        rows.append(
            {
                "method": name,
                "k": k,
                "prior_low": float(ends[0]),
                "jaccard_low": _jaccard(at_prior, low),
                "prior_high": float(ends[1]),
                "jaccard_high": _jaccard(at_prior, high),
            }
        )
    return pd.DataFrame(rows)
