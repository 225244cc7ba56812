"""Selecting source columns, not encoded features: ``k`` counts the table's columns.

A one-hot encoded table has several features per text column (``Sex=male``, ``Sex=female``); a
selector asked for five features may spend two of them on one column.  :class:`SelectPerColumn`
scores each source column from its features and keeps ``k`` columns, with all their features.
"""

from __future__ import annotations

import numbers
from typing import ClassVar

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, MetaEstimatorMixin, _fit_context, clone
from sklearn.feature_selection import SelectorMixin
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from weakfs._scores import feature_scores
from weakfs._validation import check_n_features_to_select
from weakfs._words import counted
from weakfs.feature_selection._common import inherit_tags

__all__ = ["SelectPerColumn", "source_columns"]

#: the separator weakfs's table preparation puts between a column and a value
VALUE_SEPARATOR = "="


def source_columns(feature_names, columns=None) -> np.ndarray:
    """The source column of each feature.

    ``columns`` is a mapping feature -> column, a sequence with one column label per feature,
    or ``None``: the name up to the first ``=`` (how :class:`~weakfs.preprocessing.TablePreparer`
    and ``pandas.get_dummies(prefix_sep="=")`` name one-hot features).

    Examples
    --------
    >>> source_columns(["age", "sex=f", "sex=m"]).tolist()
    ['age', 'sex', 'sex']
    """
    names = [str(n) for n in feature_names]
    if columns is None:
        return np.asarray([n.split(VALUE_SEPARATOR, 1)[0] for n in names], dtype=object)
    if isinstance(columns, dict):
        missing = [n for n in names if n not in columns]
        if missing:
            raise ValueError(f"columns gives no source column for {missing[:5]}")
        return np.asarray([str(columns[n]) for n in names], dtype=object)
    groups = np.asarray(columns, dtype=object)
    if groups.shape != (len(names),):
        raise ValueError(
            f"columns has {groups.shape[0]} entries; give one source column per feature "
            f"({len(names)})"
        )
    return groups.astype(str).astype(object)


class SelectPerColumn(SelectorMixin, MetaEstimatorMixin, BaseEstimator):
    """Keep ``n_columns_to_select`` source columns of a table, with all their features.

    Greedy rankers (those with ``n_features_to_select`` and a ``ranking_``, such as semi-JMI and
    mRMR) take the columns in the order their features are first chosen, asking the ranker for
    more features until ``k`` columns are covered (a greedy prefix does not change when more
    features are asked for).  Other selectors and models are fitted once; a column scores the
    ``aggregate`` of its features' scores (``scores_``, ``feature_importances_``, ``theta_``,
    ...), and the best ``k`` columns are kept.

    Parameters
    ----------
    estimator : estimator
        A weakfs selector, or a model with per-feature scores (``feature_importances_``).
    n_columns_to_select : int, float or None, default=None
        Source columns to keep: an int, a fraction of the columns in (0, 1] (rounded up), or
        ``None`` (half, rounded up).
    columns : mapping, sequence or None, default=None
        The source column of each feature (see :func:`source_columns`); ``None``: the feature
        name up to its first ``=``.
    aggregate : {"max", "sum"}, default="max"
        How a column's feature scores combine (score-based path): ``"max"`` does not favour
        columns with many values, ``"sum"`` adds up importances.

    Attributes
    ----------
    estimator_ : estimator
        The fitted clone of ``estimator``.
    groups_ : ndarray of str
        Source column of each feature.
    column_scores_ : pandas.Series
        Each source column's score, best first (greedy path: how early its first feature was
        chosen, ``k`` for the first; score-based path: the aggregated score).
    columns_ : list of str
        The selected source columns, best first.
    support_ : ndarray of bool
        Features of the selected columns.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from weakfs.pu import SemiJMISelector
    >>> rng = np.random.RandomState(0)
    >>> X = pd.DataFrame({"a": rng.rand(300), "b=x": rng.rand(300) > 0.5,
    ...                   "b=y": rng.rand(300) > 0.5, "c": rng.rand(300)}).astype(float)
    >>> s = ((X["b=x"] + X["b=y"] > 1) & (rng.rand(300) < 0.5)).astype(int)
    >>> sel = SelectPerColumn(SemiJMISelector(), n_columns_to_select=1).fit(X, s)
    >>> sel.columns_, sel.get_feature_names_out().tolist()
    (['b'], ['b=x', 'b=y'])
    """

    _parameter_constraints: ClassVar[dict] = {
        "estimator": [HasMethods("fit")],
        "n_columns_to_select": [
            Interval(numbers.Integral, 1, None, closed="left"),
            Interval(numbers.Real, 0, 1, closed="right"),
            None,
        ],
        "columns": ["array-like", dict, None],
        "aggregate": [StrOptions({"max", "sum"})],
    }

    def __init__(self, estimator, n_columns_to_select=None, *, columns=None, aggregate="max"):
        self.estimator = estimator
        self.n_columns_to_select = n_columns_to_select
        self.columns = columns
        self.aggregate = aggregate

    def __sklearn_tags__(self):
        return inherit_tags(super().__sklearn_tags__(), self.estimator)

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y=None, **fit_params):
        """Fit the inner estimator on ``X`` (all features) and keep the best source columns."""
        # shape and column checks; the inner estimator gets X as it is (a DataFrame stays one)
        validate_data(self, X, accept_sparse=True, dtype=None, ensure_all_finite=False)
        names = (
            list(self.feature_names_in_)
            if hasattr(self, "feature_names_in_")
            else [f"x{j}" for j in range(self.n_features_in_)]
        )
        groups = source_columns(names, self.columns)
        order = list(dict.fromkeys(groups))  # columns in table order
        k = check_n_features_to_select(self.n_columns_to_select, len(order))
        if self._is_greedy_ranker():
            ranked, self.estimator_ = self._greedy_columns(X, y, groups, k, fit_params)
            scores = {c: float(len(ranked) - i) for i, c in enumerate(ranked)}
        else:
            self.estimator_ = clone(self.estimator).fit(X, y, **fit_params)
            scores = self._aggregated_scores(groups)
            ranked = sorted(scores, key=lambda c: (-scores[c], order.index(c)))
        self.groups_ = groups
        self.column_scores_ = pd.Series({c: scores[c] for c in ranked}, dtype=float)
        self.columns_ = ranked[:k]
        self.support_ = np.isin(groups, self.columns_)
        return self

    def _is_greedy_ranker(self) -> bool:
        params = self.estimator.get_params(deep=False)
        return "n_features_to_select" in params and hasattr(self.estimator, "_keep_first")

    def _greedy_columns(self, X, y, groups, k, fit_params):
        """Columns in the order the ranker first chooses one of their features; the ranker is
        asked for twice as many features until ``k`` columns are covered."""
        d = groups.shape[0]
        m = min(d, k)
        while True:
            est = clone(self.estimator).set_params(n_features_to_select=m)
            est.fit(X, y, **fit_params)
            ranked = list(dict.fromkeys(groups[np.asarray(est.ranking_)[:m]]))
            if len(ranked) >= k or m == d:
                return ranked, est
            m = min(d, 2 * m)

    def _aggregated_scores(self, groups) -> dict[str, float]:
        found = feature_scores(self.estimator_)
        if found.scores.shape[0] != groups.shape[0]:
            raise ValueError(
                f"{type(self.estimator_).__name__} scores "
                f"{counted(found.scores.shape[0], 'feature')}, not "
                f"the {groups.shape[0]} of X (a value-level selector such as UFVS has no "
                "per-column scores)"
            )
        per_column = pd.Series(np.where(np.isfinite(found.scores), found.scores, -np.inf))
        combined = per_column.groupby(groups, sort=False).agg(self.aggregate)
        return {str(c): float(v) for c, v in combined.items()}

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_
