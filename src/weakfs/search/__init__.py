"""Binary-mask optimisers, kept apart from the objectives they optimise.

Every strategy is run as ``strategy.run(objective, n_features=None, *, random_state=None)`` and
returns a :class:`SearchResult`.  An objective is a :class:`MaskObjective` (``n_features`` and
``evaluate(masks) -> (fitness, weights)``) or any callable ``f(mask) -> float`` (higher is better).
"""

from weakfs.search._base import (
    CachedObjective,
    FunctionObjective,
    MaskObjective,
    MaskSearch,
    SearchResult,
    as_objective,
)
from weakfs.search._classic_ga import ClassicGA
from weakfs.search._compact_ga import CompactGA, CompactGAResult, repair_mask, top_theta
from weakfs.search._forward import ForwardSearch
from weakfs.search._fsga import FSGA

__all__ = [
    "FSGA",
    "CachedObjective",
    "ClassicGA",
    "CompactGA",
    "CompactGAResult",
    "ForwardSearch",
    "FunctionObjective",
    "MaskObjective",
    "MaskSearch",
    "SearchResult",
    "as_objective",
    "repair_mask",
    "top_theta",
]
