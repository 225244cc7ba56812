"""Binary-mask optimisers, kept apart from the objectives they optimise.

An objective is any callable ``f(mask) -> float`` (higher is better) over boolean masks of length
``n_features``; a search strategy proposes masks, calls the objective and keeps its history.
"""

# --- compact GA / IGO with cost repair (issue 4) ---
from weakfs.search._compact_ga import (
    CompactGA,
    CompactGAResult,
    repair_mask,
    top_theta,
)

# isort: split
# --- FSGA, classic GA, forward sequential search (issue 6) ---
from weakfs.search._classic_ga import ClassicGA
from weakfs.search._forward import ForwardSearch
from weakfs.search._fsga import FSGA, SearchResult, WeightedMaskObjective

# isort: split
from weakfs.search._base import CachedObjective, MaskObjective

__all__: list[str] = ["CachedObjective", "MaskObjective"]
__all__ += ["FSGA", "ClassicGA", "ForwardSearch", "SearchResult", "WeightedMaskObjective"]
__all__ += ["CompactGA", "CompactGAResult", "repair_mask", "top_theta"]  # (issue 4)
