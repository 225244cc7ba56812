"""Meta-selectors around any weakfs selector: selection by source column, stability selection,
automatic k from PU labels, and permutation importance around any PU classifier."""

from weakfs.feature_selection._auto_k import SelectKByCV, default_k_grid
from weakfs.feature_selection._common import TiedScoresWarning, default_model
from weakfs.feature_selection._per_column import SelectPerColumn, source_columns
from weakfs.feature_selection._permutation import PUPermutationSelector
from weakfs.feature_selection._stability import StabilitySelection

__all__ = [
    "PUPermutationSelector",
    "SelectKByCV",
    "SelectPerColumn",
    "StabilitySelection",
    "TiedScoresWarning",
    "default_k_grid",
    "default_model",
    "source_columns",
]
