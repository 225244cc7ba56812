"""FSS: forward sequential search adding a block of features per step (SEW-IL Table 3 baseline).

At each step every remaining feature is tried as an addition to the current subset; the
``n_add`` best (default ``floor(0.1 d)``, "10 % of the features per step") are added.  This yields a
ranking; the first ``n_features_to_select`` features are the selection.  The search stops as soon
as the ranking holds ``n_features_to_select`` features: the later steps cannot change that prefix,
so the answer is the same as ranking all features (as the reference code does) at a fraction of
the cost.
"""

from __future__ import annotations

import numpy as np

from weakfs._progress import progress
from weakfs.search._base import MaskObjective, MaskSearch, SearchResult, evaluate_masks

__all__ = ["ForwardSearch"]


class ForwardSearch(MaskSearch):
    """Forward sequential selection, ``n_add`` features per step.

    Parameters
    ----------
    n_features_to_select : int or None, default=None
        Stop once this many features are ranked (``None``: rank them all).
    n_add : int or None, default=None
        Features added per step (``None``: ``max(1, floor(0.1 d))``).
    verbose : bool or "auto", default="auto"
        Progress: a bar (true), nothing (false), or a notice and a bar when the search is
        estimated to take more than a minute (``"auto"``; the number of steps is unknown up
        front, so it stays silent).

    The search is deterministic: ``run``'s ``random_state`` is accepted for the common contract
    and unused.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.search import ForwardSearch
    >>> w = np.array([0.1, 3.0, 0.2, 2.0])
    >>> ForwardSearch(n_features_to_select=2, n_add=1).run(lambda m: float(w @ m), 4).ranking
    array([1, 3])
    """

    def __init__(self, *, n_features_to_select=None, n_add=None, verbose: bool | str = "auto"):
        self.n_features_to_select = n_features_to_select
        self.n_add = n_add
        self.verbose = verbose

    def _search(self, objective: MaskObjective, rng: np.random.RandomState) -> SearchResult:
        d = int(objective.n_features)
        k = d if self.n_features_to_select is None else int(self.n_features_to_select)
        if not 1 <= k <= d:
            raise ValueError(f"n_features_to_select must be in [1, {d}]; got {k}")
        n_add = max(1, int(0.1 * d)) if self.n_add is None else int(self.n_add)
        ranking: list[int] = []
        history: list[dict] = []
        current = np.zeros(d, dtype=bool)
        step = 0
        bar = progress(iter(int, 1), enabled=self.verbose, desc="FSS")
        best_fit = np.nan
        for _ in bar:
            remaining = np.flatnonzero(~current)
            if len(ranking) >= k or remaining.size == 0:
                break
            if remaining.size <= n_add:
                ranking.extend(remaining.tolist())
                current[remaining] = True
                break
            masks = np.repeat(current[None, :], remaining.size, axis=0)
            masks[np.arange(remaining.size), remaining] = True
            fitness, _ = evaluate_masks(objective, masks)
            order = np.argsort(-fitness, kind="stable")[:n_add]
            chosen = remaining[order]
            ranking.extend(chosen.tolist())
            current[chosen] = True
            best_fit = float(fitness[order[0]])
            history.append(
                {
                    "step": step,
                    "best_fitness": best_fit,
                    "n_selected": int(current.sum()),
                    "n_evaluated": int(remaining.size),
                }
            )
            step += 1
        ranking_arr = np.asarray(ranking, dtype=np.intp)
        support = np.zeros(d, dtype=bool)
        support[ranking_arr[:k]] = True
        return SearchResult(
            support=support,
            best_mask=support.copy(),
            best_fitness=best_fit,
            history=history,
            ranking=ranking_arr,
        )
