"""UFVS: unsupervised feature *value* selection under full coverage.

Every feature is categorical (numeric columns are cut into equal-width bins, 5 by default as in
the paper); each value ``v`` of feature ``f`` is a binary feature ``v@f``.  UFVS looks for a small
set ``S`` of values, of low entropy, such that every row holds at least one value of ``S``.  The
paper's Algorithm 1 approximates it: drop the values with ``H(v) <= t``, sort the others by ``H``
descending and, by binary search, drop the longest run of leading values whose removal keeps every
row covered; keep the next value; repeat.

The search runs on bitsets (one ``uint64`` word per 64 rows) in a numba kernel, so one coverage
test costs ``ceil(n / 64)`` word operations.  The cut-off (:func:`resolve_cutoff`) and the choice
and order of the candidate values (:func:`select_candidates`) are pure functions shared with the
threshold path (``_path.py``); the value encoding lives in ``_encoding.py``.

Reference: K. Shin, K. Okumoto, D. L. Shepard, T. Kuboyama, T. Hashimoto, H. Ohshima, "A Fast
Algorithm for Unsupervised Feature Value Selection", ICAART 2020.
"""

from __future__ import annotations

import numbers
import time
import warnings
from typing import ClassVar

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin, _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import _check_feature_names_in, check_is_fitted, validate_data

from weakfs._information import entropy
from weakfs._validation import as_pandas_if_table
from weakfs.unsupervised._ufvs import _kernels as K
from weakfs.unsupervised._ufvs._encoding import (
    _array_is_categorical,
    _bitset_patterns,
    _Encoded,
    _Table,
    categorical_mask,
    encode_column,
    encode_fit,
)

__all__ = ["UFVSSelector", "binary_entropy_of_counts", "resolve_cutoff", "select_candidates"]


# ----------------------------------------------------------------------------------------------
# entropies, cut-off and candidates (pure functions shared with the path)
# ----------------------------------------------------------------------------------------------


def binary_entropy_of_counts(counts, n_rows: int) -> np.ndarray:
    """Entropy in bits of ``Pr(v@f = 1) = count / n_rows`` for each count.

    Computed from ``min(count, n_rows - count)`` so that ``H`` is exactly symmetric and strictly
    increasing in that minimum: the cut-off ``H(v) <= t`` and the count form "held by at most
    ``m`` or at least ``n_rows - m`` rows" then select exactly the same values.

    Examples
    --------
    >>> binary_entropy_of_counts([0, 1, 2, 3, 4], 4)
    array([0.        , 0.81127812, 1.        , 0.81127812, 0.        ])
    """
    c = np.asarray(counts, dtype=np.int64)
    m = np.minimum(c, n_rows - c).astype(float)
    p = m / n_rows
    q = 1.0 - p
    out = np.zeros(m.shape, dtype=float)
    pos = m > 0
    out[pos] = -(p[pos] * np.log2(p[pos]) + q[pos] * np.log2(q[pos]))
    return out


def _count_for_threshold(threshold: float, n_rows: int) -> int:
    """Largest ``m <= n_rows // 2`` with ``H(m / n_rows) <= threshold`` (count form of ``t``)."""
    table = binary_entropy_of_counts(np.arange(n_rows // 2 + 1), n_rows)
    return int(np.searchsorted(table, threshold, side="right") - 1)


def resolve_cutoff(threshold, min_count, n_rows: int) -> tuple[int | None, float, int]:
    """The cut-off of :class:`UFVSSelector` for ``n_rows`` rows.

    Parameters
    ----------
    threshold : float or None
        Cut-off in bits (``None`` with ``min_count=None`` means 0).
    min_count : int, float in (0, 1) or None
        Cut-off as a row count, or as a fraction of the rows.
    n_rows : int
        Number of training rows.

    Returns
    -------
    m : int or None
        The count to test values against (``None`` when the cut-off is given in bits).
    threshold : float
        The cut-off in bits.
    min_count : int
        The cut-off as a row count.

    Examples
    --------
    >>> resolve_cutoff(None, 1, 4)
    (1, 0.8112781244591328, 1)
    >>> resolve_cutoff(0.9, None, 4)
    (None, 0.9, 1)
    """
    if threshold is not None and min_count is not None:
        raise ValueError(
            "give either threshold (bits) or min_count (rows), not both; got "
            f"threshold={threshold!r} and min_count={min_count!r}"
        )
    half = n_rows // 2
    if min_count is not None:
        m = min_count
        if isinstance(m, numbers.Integral):
            m = int(m)
        else:
            m = int(np.floor(float(m) * n_rows))
        bits = float(binary_entropy_of_counts([min(m, half)], n_rows)[0])
        return m, bits, m
    t = 0.0 if threshold is None else float(threshold)
    return None, t, _count_for_threshold(t, n_rows)


def select_candidates(
    counts: np.ndarray, entropies: np.ndarray, n_rows: int, m: int | None, threshold: float
) -> tuple[np.ndarray, np.ndarray]:
    """Candidate values of a cut-off and the order in which Algorithm 1 considers them.

    Parameters
    ----------
    counts : ndarray of shape (n_values,)
        Rows holding each value.
    entropies : ndarray of shape (n_values,)
        ``binary_entropy_of_counts(counts, n_rows)``.
    n_rows : int
        Number of rows.
    m, threshold
        As returned by :func:`resolve_cutoff`: with ``m`` given, a value is a candidate when
        held by more than ``m`` and fewer than ``n_rows - m`` rows; otherwise when
        ``H > threshold``.

    Returns
    -------
    candidate : ndarray of bool of shape (n_values,)
        Which values are candidates (a value held by no row never is).
    order : ndarray of int
        The candidate ids sorted by entropy descending (ties: by id).
    """
    present = counts > 0
    if m is not None:
        small = np.minimum(counts, n_rows - counts)
        candidate = present & (small > m)
    else:
        candidate = present & (entropies > threshold)
    ids = np.flatnonzero(candidate)
    return candidate, ids[np.argsort(-entropies[ids], kind="stable")]


def _search(bits: np.ndarray):
    """Algorithm 1 on candidate bitsets: (kept positions, covered rows, seconds)."""
    start = time.perf_counter()
    kept, covered = K.ufvs_search(bits)
    return kept, covered, time.perf_counter() - start


def _names(est) -> list[str]:
    if hasattr(est, "feature_names_in_"):
        return [str(c) for c in est.feature_names_in_]
    return [f"x{j}" for j in range(est.n_features_in_)]


# ----------------------------------------------------------------------------------------------
# the estimator
# ----------------------------------------------------------------------------------------------


class UFVSSelector(TransformerMixin, BaseEstimator):
    """Unsupervised feature value selection (UFVS) under full coverage.

    Each value ``v`` of each (discretised) feature ``f`` becomes a binary feature ``f=v``.  After
    dropping the values whose entropy ``H(v)`` is at most ``threshold`` bits (equivalently: held by
    at most ``min_count`` rows or by at least ``n_rows - min_count`` rows), the values are sorted
    by ``H`` descending and removed greedily by the paper's binary search as long as every
    coverable row still holds at least one selected value.  The result is minimal: removing any
    selected value leaves some row uncovered.

    Because the output columns are *values* (indicator columns), not a subset of the input
    columns, this is a ``TransformerMixin`` rather than a ``SelectorMixin``: ``transform`` returns
    the 0/1 indicator of each selected value and ``get_feature_names_out`` names them
    ``"feature=value"``.

    Parameters
    ----------
    threshold : float or None, default=None
        Entropy cut-off ``t >= 0`` in bits: values with ``H(v) <= t`` are not candidates.  ``None``
        (with ``min_count=None``) means ``t = 0``: only constant values are dropped.
    min_count : int, float or None, default=None
        The same cut-off as a row count ``m`` (the paper's x-axis): values held by at most ``m``
        rows or by at least ``n_rows - m`` rows are not candidates.  A float in ``(0, 1)`` is a
        fraction of the rows (``m = floor(min_count * n_rows)``).  Give ``threshold`` or
        ``min_count``, not both.
    n_bins : int, default=5
        Equal-width intervals per numeric column (the paper uses 5).
    keep_discrete_up_to : int or None, default=None
        Numeric columns with at most this many distinct values keep their values instead of being
        binned.  ``None`` bins every numeric column, as the paper does: a 0/1 column then holds
        the first and the last bin, named ``[0, 0.2)`` and ``[0.8, 1]`` (the same two values,
        so the same selection); ``keep_discrete_up_to=2`` names them ``0`` and ``1``.
    zero_as_absent : bool or None, default=None
        If true, the value 0 is "absent": it is never a candidate and a row with 0 holds no value
        of that feature (the remaining non-zero values are binned over their own range; for 0/1
        data only the value 1 is a candidate).  ``None`` means true for sparse input and false for
        dense input.
    categorical_features : "auto" or array-like, default="auto"
        Columns used as they are (no binning).  ``"auto"``: non-numeric DataFrame columns
        (object, string, category, bool) and every column of a non-numeric array.  Otherwise a
        list of column names or indices, or a boolean mask; boolean columns are used as they
        are in any case (``False`` and ``True``, never binned).

    Attributes
    ----------
    selected_values_ : list of tuple (str, str)
        The selected ``(feature, value)`` pairs, in the search order (entropy descending).
    selected_entropies_ : ndarray of shape (n_selected,)
        ``H(v)`` in bits of each selected value.
    selected_counts_ : ndarray of shape (n_selected,)
        Number of training rows holding each selected value.
    values_ : DataFrame
        Every feature value of the training data (index ``"feature=value"``) with its
        ``feature``, ``value``, ``count``, ``entropy``, ``candidate`` and ``selected`` flags.
    n_values_ : int
        Number of feature values (one-hot columns) of the training data.
    n_candidate_values_ : int
        Values left after the entropy cut-off.
    n_uncoverable_rows_ : int
        Rows holding no candidate value (so no selection can cover them); coverage is required
        only of the other rows.
    threshold_ : float
        The cut-off in bits actually used.
    min_count_ : int
        The same cut-off as a row count.
    entropy_ : float
        Joint entropy ``H(S)`` in bits of the selected indicator columns (of the row patterns).
    search_time_ : float
        Seconds spent in Algorithm 1 (sorting, suffix coverage and binary searches).
    timings_ : dict
        Seconds per stage: ``"encode"`` (validation, binning), ``"bitsets"``, ``"search"``.
    bin_edges_ : list of ndarray or None
        The ``n_bins + 1`` edges of each binned column (``None`` for the others).
    n_features_in_ : int
        Number of input columns.
    feature_names_in_ : ndarray of str
        Input column names (when given as a DataFrame).

    See Also
    --------
    ufvs_path : the selection and its information measures over a range of thresholds.
    UFVSPath : the same, with the data encoded once for any number of later cut-offs.

    Notes
    -----
    Entropies are in bits.  Ties in ``H`` are broken by column order, then value order (sorted
    categories, increasing bins).  Memory: the search keeps one bitset per candidate value plus
    their suffix unions, about ``2 * n_candidates * n_rows / 8`` bytes.

    References
    ----------
    K. Shin, K. Okumoto, D. L. Shepard, T. Kuboyama, T. Hashimoto, H. Ohshima, "A Fast Algorithm
    for Unsupervised Feature Value Selection", ICAART 2020.

    Examples
    --------
    >>> import pandas as pd
    >>> from weakfs.unsupervised import UFVSSelector
    >>> X = pd.DataFrame({"f0": [0, 0, 0, 1, 2], "f1": [2, 1, 0, 0, 0]}).astype("category")
    >>> sel = UFVSSelector(min_count=1).fit(X)
    >>> sel.selected_values_
    [('f0', '0'), ('f1', '0')]
    >>> sel.transform(X)
    array([[1, 0],
           [1, 0],
           [1, 1],
           [0, 1],
           [0, 1]], dtype=uint8)
    >>> sel.get_feature_names_out()
    array(['f0=0', 'f1=0'], dtype=object)
    """

    _parameter_constraints: ClassVar[dict] = {
        "threshold": [Interval(numbers.Real, 0, None, closed="left"), None],
        "min_count": [
            Interval(numbers.Integral, 0, None, closed="left"),
            Interval(numbers.Real, 0, 1, closed="neither"),
            None,
        ],
        "n_bins": [Interval(numbers.Integral, 1, None, closed="left")],
        "keep_discrete_up_to": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "zero_as_absent": ["boolean", None],
        "categorical_features": [StrOptions({"auto"}), "array-like"],
    }

    def __init__(
        self,
        *,
        threshold: float | None = None,
        min_count: int | float | None = None,
        n_bins: int = 5,
        keep_discrete_up_to: int | None = None,
        zero_as_absent: bool | None = None,
        categorical_features="auto",
    ):
        self.threshold = threshold
        self.min_count = min_count
        self.n_bins = n_bins
        self.keep_discrete_up_to = keep_discrete_up_to
        self.zero_as_absent = zero_as_absent
        self.categorical_features = categorical_features

    # -- input handling ------------------------------------------------------------------------

    def _validate_input(self, X, reset: bool) -> tuple[str, _Table, np.ndarray]:
        """Validated X as ("sparse" or "dense", a column accessor, categorical mask)."""
        spec = self.categorical_features
        X = as_pandas_if_table(X)  # Arrow and Polars tables: their columns' types, as pandas
        if hasattr(X, "iloc") and hasattr(X, "dtypes"):
            validate_data(self, X, reset=reset, skip_check_array=True)
            if X.shape[0] == 0:
                raise ValueError(
                    f"Found array with 0 sample(s) (shape={X.shape}) while a minimum of 1 is "
                    "required by UFVSSelector."
                )
            if X.shape[1] == 0:
                raise ValueError(
                    f"Found array with 0 feature(s) (shape={X.shape}) while a minimum of 1 is "
                    "required by UFVSSelector."
                )
            mask = categorical_mask(spec, X, X.shape[1], list(X.columns))
            return "dense", _Table(X, "frame"), mask
        if sp.issparse(X):
            Xv = validate_data(
                self, X, reset=reset, accept_sparse=["csc", "csr", "coo"], dtype="numeric"
            )
            mask = categorical_mask(spec, Xv, Xv.shape[1], None)
            return "sparse", _Table(sp.csc_matrix(Xv), "sparse"), mask
        categorical = _array_is_categorical(X)
        Xv = validate_data(
            self,
            X,
            reset=reset,
            dtype=None if categorical else "numeric",
            ensure_all_finite=not categorical,
        )
        mask = categorical_mask(spec, Xv, Xv.shape[1], None)
        return "dense", _Table(Xv, "array"), mask

    def _zero_absent(self, kind: str) -> bool:
        if self.zero_as_absent is None:
            return kind == "sparse"
        return bool(self.zero_as_absent)

    # -- fitting -------------------------------------------------------------------------------

    def _encode_fit(self, X) -> _Encoded:
        """Validate ``X`` (resetting ``n_features_in_``) and encode it with this estimator's
        parameters."""
        kind, table, mask = self._validate_input(X, reset=True)
        return encode_fit(
            table,
            mask,
            zero_absent=self._zero_absent(kind),
            n_bins=self.n_bins,
            keep_discrete_up_to=self.keep_discrete_up_to,
            names=_names(self),
        )

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Select the feature values of ``X`` (``y`` is ignored: UFVS is unsupervised).

        Parameters
        ----------
        X : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_features)
            Numeric columns are binned; categorical ones used as they are; no missing values.
        y : ignored

        Returns
        -------
        self : UFVSSelector
        """
        start = time.perf_counter()
        enc = self._encode_fit(X)
        t_encode = time.perf_counter() - start
        m, threshold, min_count = resolve_cutoff(self.threshold, self.min_count, enc.n_rows)
        entropies = binary_entropy_of_counts(enc.counts, enc.n_rows)
        candidate, ids = select_candidates(enc.counts, entropies, enc.n_rows, m, threshold)
        start = time.perf_counter()
        bits = enc.bitsets(ids)
        t_bits = time.perf_counter() - start
        kept, covered, t_search = _search(bits)
        self.threshold_ = threshold
        self.min_count_ = int(min_count)
        present = enc.counts > 0
        self._store(enc, entropies, present, candidate, ids[kept], bits[kept], covered)
        self.search_time_ = t_search
        self.timings_ = {"encode": t_encode, "bitsets": t_bits, "search": t_search}
        return self

    def _store(self, enc, entropies, present, candidate, sel_ids, sel_bits, covered) -> None:
        names = _names(self)
        value_ids = np.flatnonzero(present)
        value_cols = enc.value_columns()
        labels = enc.value_labels(value_ids)
        selected = np.zeros(enc.counts.shape[0], dtype=bool)
        selected[sel_ids] = True
        feats = [names[c] for c in value_cols[value_ids]]
        self.values_ = pd.DataFrame(
            {
                "feature": feats,
                "value": labels,
                "count": enc.counts[value_ids],
                "entropy": entropies[value_ids],
                "candidate": candidate[value_ids],
                "selected": selected[value_ids],
            },
            index=pd.Index([f"{f}={v}" for f, v in zip(feats, labels)], name="name"),
        )
        self._selected_ids = sel_ids
        self._selected_cols = value_cols[sel_ids]
        self._selected_codes = sel_ids - enc.offsets[self._selected_cols]
        sel_labels = enc.value_labels(sel_ids)
        self.selected_values_ = [(names[c], v) for c, v in zip(self._selected_cols, sel_labels)]
        self.selected_entropies_ = entropies[sel_ids]
        self.selected_counts_ = enc.counts[sel_ids]
        self.n_values_ = int(present.sum())
        self.n_candidate_values_ = int(candidate.sum())
        self.n_uncoverable_rows_ = int(enc.n_rows - K.popcount_words(covered))
        self.entropy_ = max(0.0, float(entropy(_bitset_patterns(sel_bits, enc.n_rows))))
        self.bin_edges_ = [
            np.linspace(c.lo, c.hi, self.n_bins + 1) if c.kind == "bins" else None
            for c in enc.columns
        ]
        self._columns = enc.columns
        if not sel_ids.size:
            warnings.warn(
                "UFVS selected no value: the cut-off removed every value "
                f"(threshold={self.threshold_:.4g} bits, min_count={self.min_count_}). "
                "Lower the cut-off.",
                UserWarning,
                stacklevel=3,
            )

    # -- transform -----------------------------------------------------------------------------

    def _column_codes(self, values: np.ndarray, j: int) -> np.ndarray:
        return encode_column(self._columns[j], values, _names(self)[j], self.n_bins)

    def transform(self, X):
        """0/1 indicator of each selected value (dense ``uint8``; CSR for sparse input).

        Parameters
        ----------
        X : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_features)

        Returns
        -------
        X_new : ndarray or sparse matrix of shape (n_samples, n_selected)
        """
        check_is_fitted(self)
        kind, table, _ = self._validate_input(X, reset=False)
        out = np.zeros((table.shape[0], len(self._selected_cols)), dtype=np.uint8)
        for j in np.unique(self._selected_cols):
            codes = self._column_codes(table.column(int(j)), int(j))
            for i in np.flatnonzero(self._selected_cols == j):
                out[:, i] = codes == self._selected_codes[i]
        if kind == "sparse":
            return sp.csr_matrix(out)
        return out

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        """``"feature=value"`` for each selected value, in the order of ``transform``'s columns."""
        check_is_fitted(self)
        names = _check_feature_names_in(self, input_features)
        labels = [v for _, v in self.selected_values_]
        return np.asarray(
            [f"{names[j]}={v}" for j, v in zip(self._selected_cols, labels)], dtype=object
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.transformer_tags.preserves_dtype = []
        tags.target_tags.required = False
        return tags
