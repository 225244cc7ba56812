"""Meta-selectors around any weakfs selector: selection by source column."""

from weakfs.feature_selection._per_column import SelectPerColumn, source_columns

__all__ = ["SelectPerColumn", "source_columns"]
