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
from weakfs.compare._budget import refit_seconds
from weakfs.compare._methods import METHODS
from weakfs.pu import selection_at_interval_ends

__all__ = ["PRIOR_READERS", "prior_sensitivity", "prior_sensitivity_seconds"]

#: the compare methods whose selection depends on the class prior
PRIOR_READERS = tuple(name for name, spec in METHODS.items() if spec.reads_prior)


def _chosen(name: str, k: int, prior: float, seed: int, X, y) -> set[int]:
    spec = METHODS[name]
    est = spec.build(k, spec.settings, prior, seed).fit(X, y)
    if spec.ranker:
        return {int(j) for j in feature_order(est)[:k]}
    return {int(j) for j in np.flatnonzero(est.get_support())}


def prior_sensitivity_seconds(board: pd.DataFrame, n_features: int) -> float:
    """About the seconds :func:`prior_sensitivity` takes on ``board`` (four fits per prior-reading
    method at its automatic k, each on every row and column: the board's folds read a screen of
    a wide table's columns, so a fold's fit is scaled up to them)."""
    readers = board[board["auto_k"] & board["method"].isin(PRIOR_READERS)]
    readers = readers[readers["k"] < n_features]  # every column: not refitted
    return 4 * sum(refit_seconds(m, s, n_features) for m, s in zip(readers.method, readers.seconds))


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
        ``jaccard_low``, ``prior_high``, ``jaccard_high``.  A method whose board k is every
        column is left out: its selection is the same at every prior.
    """
    rows = []
    chosen_k = board[board["auto_k"]].set_index("method")["k"]
    n_features = X.shape[1]
    for name in [m for m in PRIOR_READERS if m in chosen_k.index]:
        k = int(chosen_k[name])
        if k >= n_features:  # every column at every prior: nothing to refit
            continue
        at_prior = _chosen(name, k, prior, random_state, X, y)
        ends_found = selection_at_interval_ends(
            lambda p, name=name, k=k: _chosen(name, k, p, random_state, X, y),
            at_prior,
            ends,
            n_features,
        )
        if ends_found is None:
            continue
        low, high = ends_found
        rows.append(
            {
                "method": name,
                "k": k,
                "prior_low": low["prior"],
                "jaccard_low": low["jaccard"],
                "prior_high": high["prior"],
                "jaccard_high": high["jaccard"],
            }
        )
    columns = ["method", "k", "prior_low", "jaccard_low", "prior_high", "jaccard_high"]
    return pd.DataFrame(rows, columns=columns)
