"""What kind of values a table column holds, for the table preparation and the command line."""

from __future__ import annotations

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

__all__ = ["is_bool_column"]


def is_bool_column(column: pd.Series) -> bool:
    """A bool column, or an object column of booleans with missing values (as CSV reads it)."""
    if ptypes.is_bool_dtype(column):
        return True
    if column.dtype != object:
        return False
    present = column.dropna()
    return len(present) > 0 and all(isinstance(v, bool | np.bool_) for v in present)
