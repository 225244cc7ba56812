"""Binary-mask optimisers, kept apart from the objectives they optimise.

An objective is any callable ``f(mask) -> float`` (higher is better) over boolean masks of length
``n_features``; a search strategy proposes masks, calls the objective and keeps its history.
"""

# --- compact GA / IGO with cost repair (issue 4) ---
# --- FSGA, classic GA, forward sequential search (issue 6) ---

from weakfs.search._base import CachedObjective, MaskObjective

__all__: list[str] = ["CachedObjective", "MaskObjective"]
