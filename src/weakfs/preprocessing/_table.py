"""Turning a real table into the feature matrix a selector reads, as ``weakfs select`` does.

IDs and date/time columns are left out (they describe rows, not what is measured), text columns
are one-hot encoded up to a number of distinct values, missing values are refused or imputed, and
every output column keeps the name of the table column it comes from (``Sex=male`` comes from
``Sex``), so that a selection can be read, and counted, by source column.
"""

from __future__ import annotations

import numbers
import re
import warnings
from typing import ClassVar

import numpy as np
import pandas as pd
from pandas.api import types as ptypes
from scipy import sparse
from sklearn.base import BaseEstimator, TransformerMixin, _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import _check_feature_names_in, check_is_fitted, validate_data

from weakfs._columns import is_bool_column
from weakfs._validation import as_pandas_if_table

__all__ = ["TablePreparer", "is_bool_column", "is_text_column"]

# a date/time string holds a 4-digit year, a clock time or a d/m/y triple
_DATE_SHAPE = re.compile(r"\d{4}|\d:\d\d|\d[-/.]\d{1,2}[-/.]\d")
# share of the (sampled) values of a text column that must parse as dates/times
_DATE_SHARE = 0.5
_DATE_SAMPLE = 500
#: the separator between a source column and a value in one-hot column names
VALUE_SEPARATOR = "="


def is_text_column(column: pd.Series) -> bool:
    """Neither numbers nor booleans: text, categories, mixed objects."""
    return not (ptypes.is_numeric_dtype(column) or is_bool_column(column))


def _looks_like_dates(values: pd.Series) -> bool:
    """Most (sampled) values of a text column are date/time strings pandas can parse."""
    if len(values) > _DATE_SAMPLE:
        values = values.sample(_DATE_SAMPLE, random_state=0)
    text = values.astype(str)
    shaped = text.str.contains(_DATE_SHAPE)
    if shaped.mean() <= _DATE_SHARE:
        return False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = pd.to_datetime(text[shaped], errors="coerce", format="mixed")
    return parsed.notna().sum() > _DATE_SHARE * len(text)


def _why_left_out(column: pd.Series) -> str | None:
    """Why a column is no feature (an ID, dates, no values), or None."""
    if column.isna().all():
        return "no values at all"
    if ptypes.is_datetime64_any_dtype(column) or ptypes.is_timedelta64_dtype(column):
        return "dates/times"
    if isinstance(column.dtype, pd.PeriodDtype):
        return "dates/times"
    present = column.dropna()
    if is_text_column(column) and _looks_like_dates(present):
        return "date/time strings"
    id_like = is_text_column(column) or ptypes.is_integer_dtype(column)
    if id_like and not is_bool_column(column) and len(present) > 1 and present.is_unique:
        return "a different value on every row, like an ID"
    return None


def _listed(values, limit: int = 20) -> str:
    values = [str(v) for v in values]
    more = f", … ({len(values) - limit} more)" if len(values) > limit else ""
    return ", ".join(values[:limit]) + more


class TablePreparer(TransformerMixin, BaseEstimator):
    """The feature matrix of a real table, prepared as ``weakfs select`` prepares it.

    Columns that are no features are left out: IDs (text or integers with a different value on
    every row), date/time columns and strings, and columns without any value (``keep`` uses a
    column anyway).  Text columns are one-hot encoded (``column=value``, as
    ``pandas.get_dummies``), refusing those with more than ``max_categories`` distinct values
    unless named in ``categorical``; booleans become 0/1.  Missing values are an error naming
    the columns, unless ``impute`` fills them with what the fit data give.  Every output column
    remembers its source column (``source_columns_``), which is what per-column selection counts.

    Parameters
    ----------
    drop : sequence of str, default=()
        Columns left out.
    categorical : sequence of str, default=()
        Columns one-hot encoded whatever their type or number of values.
    keep : sequence of str, default=()
        Columns used although they look like IDs or dates.
    max_categories : int, default=50
        Most distinct values of a text column (more is an error: ``drop`` it, or name it in
        ``categorical``).
    impute : {"median", "most_frequent"} or None, default=None
        How missing values are filled (text columns always take their most frequent value);
        ``None``: they are an error.
    one_hot : bool, default=True
        One-hot encode the text columns; ``False`` leaves them as text (for selectors that read
        categorical columns themselves, such as UFVS).

    Attributes
    ----------
    left_out_ : dict of str to str
        Each column left out and why.
    text_columns_ : list of str
        The text/categorical columns.
    categories_ : dict of str to list of str
        The values of each text column seen in the fit (one output column each).
    fill_values_ : dict of str to object
        What replaces a missing value, per column (with ``impute``).
    source_columns_ : dict of str to str
        Output column -> the table column it comes from.
    notes_ : list of str
        What was done, in sentences (columns left out, imputed, encoded).
    n_features_in_ : int
        Columns of the table.
    feature_names_in_ : ndarray of str
        The table's columns (a DataFrame's; defined only when fitted on one).

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"id": ["a1", "b2", "c3", "d4"], "age": [31, 45, 31, 28],
    ...                       "sex": ["m", "f", "f", "m"], "smoker": [True, False, True, False]})
    >>> prep = TablePreparer().fit(table)
    >>> prep.left_out_
    {'id': 'a different value on every row, like an ID'}
    >>> prep.get_feature_names_out().tolist()
    ['age', 'smoker', 'sex=f', 'sex=m']
    >>> prep.source_columns_["sex=f"]
    'sex'
    """

    _parameter_constraints: ClassVar[dict] = {
        "drop": ["array-like"],
        "categorical": ["array-like"],
        "keep": ["array-like"],
        "max_categories": [Interval(numbers.Integral, 1, None, closed="left")],
        "impute": [StrOptions({"median", "most_frequent"}), None],
        "one_hot": ["boolean"],
    }

    def __init__(
        self,
        *,
        drop=(),
        categorical=(),
        keep=(),
        max_categories: int = 50,
        impute: str | None = None,
        one_hot: bool = True,
    ):
        self.drop = drop
        self.categorical = categorical
        self.keep = keep
        self.max_categories = max_categories
        self.impute = impute
        self.one_hot = one_hot

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.string = True
        tags.input_tags.categorical = True
        tags.input_tags.allow_nan = self.impute is not None  # refused without impute
        tags.transformer_tags.preserves_dtype = []
        return tags

    def _frame(self, X, *, reset: bool) -> pd.DataFrame:
        """``X`` as a DataFrame of its own columns, after scikit-learn's checks (shape, empty,
        complex numbers, the number and names of the columns seen in fit)."""
        if sparse.issparse(X):
            raise TypeError(
                "TablePreparer reads a table (a DataFrame or a dense array), not a sparse matrix"
            )
        X = as_pandas_if_table(X)  # Arrow and Polars tables: their columns' types, as pandas
        validate_data(self, X, reset=reset, dtype=None, ensure_all_finite="allow-nan")
        if isinstance(X, pd.DataFrame):
            frame = X.copy()
        else:
            array = np.asarray(X)
            frame = pd.DataFrame(array, columns=[f"x{j}" for j in range(array.shape[1])])
            frame = frame.infer_objects()
        frame.columns = [str(c) for c in frame.columns]
        return frame

    def _check_names(self, columns: pd.Index) -> None:
        for option in ("drop", "categorical", "keep"):
            names = [str(n) for n in getattr(self, option)]
            unknown = [n for n in names if n not in columns]
            if unknown:
                raise ValueError(
                    f"{option}: no column {_listed(map(repr, unknown))}; columns: "
                    f"{_listed(columns)}"
                )
        both = sorted(set(map(str, self.drop)) & set(map(str, self.categorical)))
        if both:
            raise ValueError(f"drop and categorical both name {_listed(map(repr, both))}")

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Decide the columns, the categories and the fill values from the table ``X``."""
        frame = self._frame(X, reset=True)
        self._columns_in = list(frame.columns)
        self._check_names(frame.columns)
        forced, kept = set(map(str, self.categorical)), set(map(str, self.keep))
        frame = frame.drop(columns=[str(c) for c in self.drop])
        self.left_out_ = {}
        for name in frame.columns:
            if name in forced or (name in kept and not frame[name].isna().all()):
                continue
            why = _why_left_out(frame[name])
            if why is not None:
                self.left_out_[name] = why
        notes = []
        for name, why in self.left_out_.items():
            keep = "" if why == "no values at all" else f"; keep={name!r} uses it"
            notes.append(f"left out column {name!r} ({why}){keep}")
        frame = frame.drop(columns=list(self.left_out_))
        if frame.shape[1] == 0:
            reasons = _listed(f"{c!r} ({why})" for c, why in self.left_out_.items())
            raise ValueError(f"no feature column left; left out: {reasons}")
        text = [c for c in frame.columns if c in forced or is_text_column(frame[c])]
        counts = {c: frame[c].nunique() for c in text if c not in forced}
        too_many = {c: k for c, k in counts.items() if k > self.max_categories}
        if too_many and self.one_hot:
            listed = _listed(f"{c!r} ({k})" for c, k in too_many.items())
            raise ValueError(
                f"text column(s) with more than max_categories={self.max_categories} distinct "
                f"values: {listed}; drop them, or name them in categorical to one-hot encode "
                "anyway"
            )
        missing = frame.isna().sum()
        missing = missing[missing > 0]
        if len(missing) and self.impute is None:
            listed = ", ".join(f"{c!r} ({k})" for c, k in missing.items())
            raise ValueError(
                f"missing values (NaN) in {len(missing)} column(s): {listed}; fill them, drop the "
                "columns, or impute (median or most_frequent)"
            )
        self.fill_values_ = {}
        for name in missing.index:
            numeric = name not in text and self.impute == "median"
            column = frame[name].astype(float) if is_bool_column(frame[name]) else frame[name]
            self.fill_values_[name] = (
                column.median() if numeric else column.mode(dropna=True).iloc[0]
            )
        if len(missing):
            how = "median" if self.impute == "median" else "most frequent value"
            if self.impute == "median" and set(missing.index) & set(text):
                how += "; most frequent value in text columns"
            notes.append(
                f"imputed {int(missing.sum())} missing values in {len(missing)} column(s) ({how})"
            )
        self.text_columns_ = text
        self.numeric_columns_ = [c for c in frame.columns if c not in text]
        filled = frame.fillna(self.fill_values_) if self.fill_values_ else frame
        self.categories_ = {c: sorted(filled[c].astype(str).unique()) for c in text}
        if text and self.one_hot:
            notes.append(
                f"one-hot encoding {len(text)} text/categorical column(s): {_listed(text, 8)}"
            )
        self.notes_ = notes
        # each output column: (its table column, the value it indicates or None)
        if self.one_hot:
            spec = [(c, None) for c in self.numeric_columns_]
            spec += [(c, value) for c in text for value in self.categories_[c]]
        else:  # text columns stay where they are
            spec = [(str(c), None) for c in frame.columns]
        self._output_spec = spec
        self._names_out = self._output_names(self._columns_in)
        self.source_columns_ = {name: c for name, (c, _) in zip(self._names_out, spec)}
        return self

    def _output_names(self, input_names) -> list[str]:
        rename = dict(zip(self._columns_in, map(str, input_names)))
        return [
            rename[c] if value is None else f"{rename[c]}{VALUE_SEPARATOR}{value}"
            for c, value in self._output_spec
        ]

    def transform(self, X) -> pd.DataFrame:
        """The prepared feature table (a DataFrame; text columns as text when ``one_hot`` is
        false)."""
        check_is_fitted(self, "source_columns_")
        frame = self._frame(X, reset=False)
        frame.columns = self._columns_in  # same number (checked); an array's are positional
        used = self.numeric_columns_ + self.text_columns_
        frame = frame[used]
        if self.fill_values_:
            frame = frame.fillna(self.fill_values_)
        still = frame.columns[frame.isna().any()].tolist()
        if still:
            raise ValueError(
                f"missing values (NaN) in {_listed(map(repr, still))}, which had none in fit: fit "
                "with impute, or fill them"
            )
        if not self.one_hot:  # for selectors that read values: booleans stay two values
            flags = [c for c in self.numeric_columns_ if is_bool_column(frame[c])]
            numbers = [c for c in self.numeric_columns_ if c not in flags]
            parts = [frame[numbers].astype(float), frame[flags].astype(bool)]
            parts.append(frame[self.text_columns_].astype(str))
            return pd.concat(parts, axis=1)[self._names_out]
        numeric = frame[self.numeric_columns_].astype(float)
        parts = [numeric]
        for c in self.text_columns_:
            values = frame[c].astype(str).to_numpy()
            categories = np.asarray(self.categories_[c], dtype=object)
            dummies = (values[:, None] == categories[None, :]).astype(float)
            unseen = ~dummies.any(axis=1)
            if unseen.any():
                new = _listed(map(repr, pd.unique(values[unseen])[:5]))
                warnings.warn(
                    f"column {c!r} holds values never seen in fit ({new}; {int(unseen.sum())} "
                    "rows): their one-hot indicators are all zero",
                    stacklevel=2,
                )
            names = [f"{c}{VALUE_SEPARATOR}{v}" for v in self.categories_[c]]
            parts.append(pd.DataFrame(dummies, columns=names, index=frame.index))
        return pd.concat(parts, axis=1)

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        """Output column names: ``column`` or ``column=value`` (one-hot), from the table's
        columns or ``input_features``."""
        check_is_fitted(self, "source_columns_")
        input_features = _check_feature_names_in(self, input_features)
        return np.asarray(self._output_names(input_features), dtype=object)
