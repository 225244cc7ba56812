"""UFVS: unsupervised feature *value* selection under full coverage (Shin et al.; SPEC section 2).

Every feature is categorical (numeric columns are cut into equal-width bins, 5 by default as in
the paper); each value ``v`` of feature ``f`` is a binary feature ``v@f``.  UFVS looks for a small
set ``S`` of values, of low entropy, such that every row holds at least one value of ``S``.  The
paper's Algorithm 1 approximates it: drop the values with ``H(v) <= t``, sort the others by ``H``
descending and, by binary search, drop the longest run of leading values whose removal keeps every
row covered; keep the next value; repeat.

The search runs on bitsets (one ``uint64`` word per 64 rows) in a numba kernel, so one coverage
test costs ``ceil(n / 64)`` word operations.
"""

from __future__ import annotations

import numbers
import time
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin, _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import _check_feature_names_in, check_is_fitted, validate_data

from weakfs._information import bin_equal_width, entropy, mutual_information
from weakfs.unsupervised._ufvs import _kernels as K

__all__ = ["UFVSSelector", "binary_entropy_of_counts", "ufvs_path"]

_CHUNK_ENTRIES = 4_000_000  # entries per block when binning dense numeric data


# ----------------------------------------------------------------------------------------------
# entropies and thresholds
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


# ----------------------------------------------------------------------------------------------
# encoding: columns -> integer value codes (-1 = absent)
# ----------------------------------------------------------------------------------------------


@dataclass
class _Column:
    """How one input column becomes value codes; enough to encode new data the same way."""

    kind: str  # "bins", "categories" or "discrete"
    n_codes: int
    zero_absent: bool = False
    lo: float = 0.0
    hi: float = 0.0
    categories: np.ndarray | None = None
    labels: list[str] = field(default_factory=list)


def _fmt_number(x) -> str:
    return f"{float(x):g}"


def _bin_labels(lo: float, hi: float, n_bins: int) -> list[str]:
    if hi == lo:
        return [_fmt_number(lo)]
    edges = np.linspace(lo, hi, n_bins + 1)
    for spec in ("g", ".17g"):  # more digits only if the short form would repeat a label
        labels = []
        for b in range(n_bins):
            right = "]" if b == n_bins - 1 else ")"
            labels.append(f"[{edges[b]:{spec}}, {edges[b + 1]:{spec}}{right}")
        if len(set(labels)) == n_bins:
            break
    return labels


def _is_categorical_dtype(dtype) -> bool:
    return not (pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype))


def _factorize(values: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Codes of a categorical column, categories sorted (by their text when types are mixed)."""
    codes, uniq = pd.factorize(values, sort=False, use_na_sentinel=True)
    if (codes < 0).any():
        raise ValueError(
            f"column {name!r} contains missing values (NaN/None); UFVS needs every entry to have "
            "a value: impute or drop them first"
        )
    uniq = np.asarray(uniq, dtype=object if np.asarray(uniq).dtype.kind in "OUS" else None)
    try:
        order = np.argsort(uniq, kind="stable")
    except TypeError:  # mixed types: order by their text
        order = np.argsort(np.array([str(u) for u in uniq]), kind="stable")
    rank = np.empty(order.shape[0], dtype=np.int64)
    rank[order] = np.arange(order.shape[0])
    return rank[codes], uniq[order]


def _encode_categories(values: np.ndarray, cats: np.ndarray) -> np.ndarray:
    """Codes of known categories; an unseen category is -1 (the row holds no fitted value)."""
    return pd.Index(cats).get_indexer(values).astype(np.int64)


@dataclass
class _Encoded:
    """The training data as value codes, with counts and one bitset per value on demand."""

    n_rows: int
    columns: list[_Column]
    offsets: np.ndarray  # first global value id of each column
    counts: np.ndarray  # rows per global value id
    dense_codes: np.ndarray | None = None  # (n, d), Fortran order, -1 = absent
    csc: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # indptr, rows, codes

    @property
    def n_words(self) -> int:
        return (self.n_rows + 63) // 64

    def value_columns(self) -> np.ndarray:
        sizes = np.array([c.n_codes for c in self.columns], dtype=np.int64)
        return np.repeat(np.arange(len(self.columns)), sizes)

    def value_labels(self, ids: np.ndarray) -> list[str]:
        cols = np.searchsorted(self.offsets, ids, side="right") - 1
        return [self.columns[c].labels[i - self.offsets[c]] for c, i in zip(cols, ids)]

    def bitsets(self, ids: np.ndarray) -> np.ndarray:
        """``(len(ids), n_words)`` uint64 bitsets of the global values ``ids``, in that order."""
        slot = np.full(self.counts.shape[0], -1, dtype=np.int64)
        slot[ids] = np.arange(ids.shape[0])
        if self.dense_codes is not None:
            return K.dense_bitsets(self.dense_codes, self.offsets, slot, ids.shape[0], self.n_words)
        indptr, rows, codes = self.csc
        return K.sparse_bitsets(indptr, rows, codes, self.offsets, slot, ids.shape[0], self.n_words)

    def feature_patterns(self) -> np.ndarray:
        """One integer per row identifying its joint value over all features (for ``H(F)``)."""
        if self.dense_codes is not None:
            return _row_codes(np.ascontiguousarray(self.dense_codes))
        indptr, rows, codes = self.csc
        d = indptr.shape[0] - 1
        cols = np.repeat(np.arange(d, dtype=np.int64), np.diff(indptr))
        keep = codes >= 0
        rows, cols, vals = rows[keep], cols[keep], codes[keep] + 1
        order = np.lexsort((cols, rows))
        rows, cols, vals = rows[order], cols[order], vals[order]
        per_row = np.bincount(rows, minlength=self.n_rows)
        width = int(per_row.max()) if per_row.size else 0
        pad = np.full((self.n_rows, max(width, 1), 2), -1, dtype=np.int64)
        start = np.concatenate([[0], np.cumsum(per_row)[:-1]])
        pos = np.arange(rows.shape[0]) - start[rows]
        pad[rows, pos, 0] = cols
        pad[rows, pos, 1] = vals
        return _row_codes(pad.reshape(self.n_rows, -1))


def _row_codes(matrix: np.ndarray) -> np.ndarray:
    """Integer id of each distinct row of a 2-D integer or byte matrix (exact, vectorised)."""
    matrix = np.ascontiguousarray(matrix)
    n = matrix.shape[0]
    if matrix.size == 0 or matrix.shape[1] == 0:
        return np.zeros(n, dtype=np.int64)
    lo, hi = int(matrix.min()), int(matrix.max())
    if lo >= 0 and hi < 256:
        matrix = matrix.astype(np.uint8, copy=False)
    elif lo >= -32768 and hi < 32768:
        matrix = matrix.astype(np.int16, copy=False)
    raw = np.ascontiguousarray(matrix).view(np.uint8).reshape(n, -1)
    if raw.shape[1] <= 8:
        padded = np.zeros((n, 8), dtype=np.uint8)
        padded[:, : raw.shape[1]] = raw
        return np.unique(padded.view(np.uint64).ravel(), return_inverse=True)[1].ravel()
    void = raw.view(np.dtype((np.void, raw.shape[1]))).ravel()
    return np.unique(void, return_inverse=True)[1].ravel().astype(np.int64)


def _bitset_patterns(bits: np.ndarray, n_rows: int) -> np.ndarray:
    """Integer id of each row's pattern over the binary columns given as bitsets."""
    if bits.shape[0] == 0:
        return np.zeros(n_rows, dtype=np.int64)
    flags = np.unpackbits(bits.view(np.uint8), axis=1, bitorder="little")[:, :n_rows]
    packed = np.packbits(flags.T, axis=1)
    return _row_codes(packed)


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
        binned.  ``None`` bins every numeric column, as the paper does.
    zero_as_absent : bool or None, default=None
        If true, the value 0 is "absent": it is never a candidate and a row with 0 holds no value
        of that feature (the remaining non-zero values are binned over their own range; for 0/1
        data only the value 1 is a candidate).  ``None`` means true for sparse input and false for
        dense input.
    categorical_features : "auto" or array-like, default="auto"
        Columns used as they are (no binning).  ``"auto"``: non-numeric DataFrame columns
        (object, string, category, bool) and every column of a non-numeric array.  Otherwise a
        list of column names or indices, or a boolean mask.

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

    def _categorical_mask(self, X, d: int, names) -> np.ndarray:
        spec = self.categorical_features
        if isinstance(spec, str):  # "auto"
            if hasattr(X, "dtypes"):
                return np.array([_is_categorical_dtype(t) for t in X.dtypes], dtype=bool)
            return np.full(d, _array_is_categorical(X), dtype=bool)
        spec = np.asarray(spec)
        if spec.dtype == bool:
            if spec.shape != (d,):
                raise ValueError(
                    f"categorical_features as a boolean mask must have {d} entries; "
                    f"got {spec.shape[0] if spec.ndim else spec}"
                )
            return spec.copy()
        mask = np.zeros(d, dtype=bool)
        for item in spec.ravel():
            if isinstance(item, str):
                if names is None or item not in list(names):
                    raise ValueError(f"categorical_features names unknown column {item!r}")
                mask[list(names).index(item)] = True
            else:
                j = int(item)
                if not -d <= j < d:
                    raise ValueError(f"categorical_features index {j} out of range for {d} columns")
                mask[j] = True
        return mask

    def _validate_input(self, X, reset: bool) -> tuple[str, _Table, np.ndarray]:
        """Validated X as ("sparse" or "dense", a column accessor, categorical mask)."""
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
            mask = self._categorical_mask(X, X.shape[1], list(X.columns))
            return "dense", _Table(X, "frame"), mask
        if sp.issparse(X):
            Xv = validate_data(
                self, X, reset=reset, accept_sparse=["csc", "csr", "coo"], dtype="numeric"
            )
            mask = self._categorical_mask(Xv, Xv.shape[1], None)
            return "sparse", _Table(sp.csc_matrix(Xv), "sparse"), mask
        categorical = _array_is_categorical(X)
        Xv = validate_data(
            self,
            X,
            reset=reset,
            dtype=None if categorical else "numeric",
            ensure_all_finite=not categorical,
        )
        mask = self._categorical_mask(Xv, Xv.shape[1], None)
        return "dense", _Table(Xv, "array"), mask

    def _zero_absent(self, kind: str) -> bool:
        if self.zero_as_absent is None:
            return kind == "sparse"
        return bool(self.zero_as_absent)

    # -- fitting -------------------------------------------------------------------------------

    def _encode_fit(self, X) -> _Encoded:
        kind, table, mask = self._validate_input(X, reset=True)
        zero_absent = self._zero_absent(kind)
        names = _names(self)
        if kind == "sparse" and zero_absent and not mask.any():
            return self._encode_sparse_fit(table.data, names)
        # otherwise (0 a genuine value, or categorical columns) encode densely, block by block
        return self._encode_columns_fit(table, mask, zero_absent, names)

    def _encode_columns_fit(self, table, mask, zero_absent, names) -> _Encoded:
        n, d = table.shape
        column, block = table.column, table.block
        columns: list[_Column | None] = [None] * d
        cat_codes = {}
        for j in np.flatnonzero(mask):
            c, cats = _factorize(column(j), names[j])
            cat_codes[j] = c
            columns[j] = _Column(
                "categories", len(cats), categories=cats, labels=[str(v) for v in cats]
            )
        largest = max([self.n_bins] + [c.n_codes for c in columns if c is not None])
        dtype = np.int8 if largest < 127 else np.int16 if largest < 32767 else np.int32
        codes = np.empty((n, d), dtype=dtype, order="F")
        for j, c in cat_codes.items():
            codes[:, j] = c
        numeric = np.flatnonzero(~mask)
        step = max(1, _CHUNK_ENTRIES // max(n, 1))
        for start in range(0, numeric.shape[0], step):
            ids = numeric[start : start + step]
            self._bin_block_fit(block(ids), ids, zero_absent, codes, columns, names)
        return _finish_encoding(n, columns, dense_codes=codes)

    def _bin_block_fit(self, block, block_ids, zero_absent, codes, columns, names) -> None:
        finite = np.isfinite(block)
        if not finite.all():
            j = int(np.flatnonzero(~finite.all(axis=0))[0])
            _as_float(block[:, j], names[block_ids[j]])  # raises naming NaN or infinity
        if zero_absent:
            present = block != 0
            lo = np.where(present, block, np.inf).min(axis=0)
            hi = np.where(present, block, -np.inf).max(axis=0)
            empty = ~np.isfinite(lo)  # column with no present entry
            lo[empty], hi[empty] = 0.0, 0.0
        else:
            present = np.ones(block.shape, dtype=bool)
            lo, hi = block.min(axis=0), block.max(axis=0)
        binned = bin_equal_width(block, lo, hi, self.n_bins)
        if zero_absent:
            binned[~present] = -1
        for i, j in enumerate(block_ids):
            col_codes = binned[:, i]
            if self.keep_discrete_up_to is not None:
                uniq = np.unique(block[present[:, i], i])
                if uniq.shape[0] <= self.keep_discrete_up_to:
                    disc = np.searchsorted(uniq, block[:, i])
                    disc[~present[:, i]] = -1
                    codes[:, j] = disc
                    columns[j] = _Column(
                        "discrete",
                        uniq.shape[0],
                        zero_absent=zero_absent,
                        categories=uniq,
                        labels=[_fmt_number(u) for u in uniq],
                    )
                    continue
            codes[:, j] = col_codes
            n_codes = 1 if hi[i] == lo[i] else self.n_bins
            columns[j] = _Column(
                "bins",
                n_codes,
                zero_absent=zero_absent,
                lo=float(lo[i]),
                hi=float(hi[i]),
                labels=_bin_labels(float(lo[i]), float(hi[i]), self.n_bins),
            )

    def _encode_sparse_fit(self, Xc: sp.csc_matrix, names) -> _Encoded:
        Xc = Xc.copy()
        Xc.sum_duplicates()
        Xc.eliminate_zeros()
        n, d = Xc.shape
        data = np.asarray(Xc.data, dtype=float)
        if not np.isfinite(data).all():
            raise ValueError("Input X contains NaN or infinity")
        indptr = Xc.indptr.astype(np.int64)
        nnz = np.diff(indptr)
        lo = np.zeros(d)
        hi = np.zeros(d)
        has = nnz > 0
        if data.size:
            starts = indptr[:-1][has]
            lo[has] = np.minimum.reduceat(data, starts)
            hi[has] = np.maximum.reduceat(data, starts)
        col_of = np.repeat(np.arange(d), nnz)
        codes = bin_equal_width(data, lo[col_of], hi[col_of], self.n_bins)
        columns: list[_Column] = []
        for j in range(d):
            if self.keep_discrete_up_to is not None and has[j]:
                seg = data[indptr[j] : indptr[j + 1]]
                uniq = np.unique(seg)
                if uniq.shape[0] <= self.keep_discrete_up_to:
                    codes[indptr[j] : indptr[j + 1]] = np.searchsorted(uniq, seg)
                    columns.append(
                        _Column(
                            "discrete",
                            uniq.shape[0],
                            zero_absent=True,
                            categories=uniq,
                            labels=[_fmt_number(u) for u in uniq],
                        )
                    )
                    continue
            n_codes = 1 if hi[j] == lo[j] else self.n_bins
            columns.append(
                _Column(
                    "bins",
                    n_codes if has[j] else 0,
                    zero_absent=True,
                    lo=float(lo[j]),
                    hi=float(hi[j]),
                    labels=_bin_labels(float(lo[j]), float(hi[j]), self.n_bins),
                )
            )
        csc = (indptr, Xc.indices.astype(np.int64), codes.astype(np.int32))
        return _finish_encoding(n, columns, csc=csc)

    def _resolve_cutoff(self, n_rows: int) -> tuple[np.ndarray, float, int]:
        """(candidate test on counts, threshold in bits, count form)."""
        if self.threshold is not None and self.min_count is not None:
            raise ValueError(
                "give either threshold (bits) or min_count (rows), not both; got "
                f"threshold={self.threshold!r} and min_count={self.min_count!r}"
            )
        half = n_rows // 2
        if self.min_count is not None:
            m = self.min_count
            if isinstance(m, numbers.Integral):
                m = int(m)
            else:
                m = int(np.floor(float(m) * n_rows))
            threshold = float(binary_entropy_of_counts([min(m, half)], n_rows)[0])
            return m, threshold, m
        t = 0.0 if self.threshold is None else float(self.threshold)
        return None, t, _count_for_threshold(t, n_rows)

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
        m, threshold, min_count = self._resolve_cutoff(enc.n_rows)
        entropies = binary_entropy_of_counts(enc.counts, enc.n_rows)
        present = enc.counts > 0
        if m is not None:
            small = np.minimum(enc.counts, enc.n_rows - enc.counts)
            candidate = present & (small > m)
        else:
            candidate = present & (entropies > threshold)
        ids, bits, t_bits = _candidate_bitsets(enc, candidate, entropies)
        kept, covered, t_search = _search(bits)
        self.threshold_ = threshold
        self.min_count_ = int(min_count)
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
            import warnings

            warnings.warn(
                "UFVS selected no value: the cut-off removed every value "
                f"(threshold={self.threshold_:.4g} bits, min_count={self.min_count_}). "
                "Lower the cut-off.",
                UserWarning,
                stacklevel=3,
            )

    # -- transform -----------------------------------------------------------------------------

    def _column_codes(self, values: np.ndarray, j: int) -> np.ndarray:
        col = self._columns[j]
        name = _names(self)[j]
        if col.kind == "categories":
            if pd.isna(values).any():
                raise ValueError(f"column {name!r} contains missing values (NaN/None)")
            return _encode_categories(values, col.categories)
        x = _as_float(values, name)
        if col.kind == "bins":
            codes = bin_equal_width(x, col.lo, col.hi, self.n_bins)
            if col.n_codes == 1:
                codes = np.zeros_like(codes)
        else:
            pos = np.searchsorted(col.categories, x)
            pos = np.minimum(pos, col.categories.shape[0] - 1)
            codes = np.where(col.categories[pos] == x, pos, -1)
        if col.zero_absent:
            codes = np.where(x == 0, -1, codes)
        return codes

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


# ----------------------------------------------------------------------------------------------
# helpers shared by fit and ufvs_path
# ----------------------------------------------------------------------------------------------


class _Table:
    """Uniform column access to a validated DataFrame, array or CSC matrix."""

    def __init__(self, data, kind: str):
        self.data, self.kind = data, kind
        self.shape = data.shape

    def column(self, j: int) -> np.ndarray:
        if self.kind == "frame":
            return self.data.iloc[:, j].to_numpy()
        if self.kind == "sparse":
            return np.asarray(self.data[:, j].toarray()).ravel()
        return self.data[:, j]

    def block(self, ids: np.ndarray) -> np.ndarray:
        """Float copy of the columns ``ids`` (the input is never written to)."""
        if self.kind == "sparse":
            return np.asarray(self.data[:, ids].toarray(), dtype=float)
        if self.kind == "frame":
            part = self.data.iloc[:, ids]
            try:
                return part.to_numpy(dtype=float, na_value=np.nan)
            except (TypeError, ValueError):
                for j in ids:
                    _as_float(self.column(int(j)), str(self.data.columns[j]))
                raise
        return np.asarray(self.data[:, ids], dtype=float)


def _array_is_categorical(X) -> bool:
    dtype = getattr(X, "dtype", None)
    if dtype is None:
        dtype = np.asarray(X).dtype
    return dtype.kind in "OUSb"


def _names(est) -> list[str]:
    if hasattr(est, "feature_names_in_"):
        return [str(c) for c in est.feature_names_in_]
    return [f"x{j}" for j in range(est.n_features_in_)]


def _as_float(values: np.ndarray, name: str) -> np.ndarray:
    try:
        x = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"column {name!r} is not numeric; mark it in categorical_features to use its values "
            "as they are"
        ) from exc
    if np.isnan(x).any():
        raise ValueError(
            f"column {name!r} contains NaN; UFVS needs every entry to have a value: impute or "
            "drop missing values first"
        )
    if not np.isfinite(x).all():
        raise ValueError(f"column {name!r} contains infinity; equal-width bins need finite values")
    return x


def _finish_encoding(n, columns, *, dense_codes=None, csc=None) -> _Encoded:
    sizes = np.array([c.n_codes for c in columns], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    total = int(sizes.sum())
    if dense_codes is not None:
        counts = K.dense_value_counts(dense_codes, offsets, total)
    else:
        counts = K.sparse_value_counts(csc[0], csc[2], offsets, total)
    return _Encoded(n, columns, offsets, counts, dense_codes=dense_codes, csc=csc)


def _candidate_bitsets(enc: _Encoded, candidate: np.ndarray, entropies: np.ndarray):
    """Candidate value ids sorted by entropy descending (ties: value id) and their bitsets."""
    start = time.perf_counter()
    ids = np.flatnonzero(candidate)
    ids = ids[np.argsort(-entropies[ids], kind="stable")]
    bits = enc.bitsets(ids)
    return ids, bits, time.perf_counter() - start


def _search(bits: np.ndarray):
    start = time.perf_counter()
    kept, covered = K.ufvs_search(bits)
    return kept, covered, time.perf_counter() - start


# ----------------------------------------------------------------------------------------------
# the path over thresholds (the paper's Figures 5-10)
# ----------------------------------------------------------------------------------------------


def ufvs_path(
    X,
    y=None,
    *,
    thresholds=None,
    counts=None,
    n_bins: int = 5,
    keep_discrete_up_to: int | None = None,
    zero_as_absent: bool | None = None,
    categorical_features="auto",
    measures: bool = True,
) -> pd.DataFrame:
    """UFVS over a range of cut-offs and the information measures the paper plots.

    The data are encoded once; for each cut-off the search runs again on the surviving values.

    Parameters
    ----------
    X : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_features)
    y : array-like of shape (n_samples,), optional
        Class labels ``C`` (only used for the measures, never for the selection).
    thresholds : array-like of float, optional
        Cut-offs in bits.
    counts : array-like of int, optional
        Cut-offs as row counts (the paper's x-axis).  Default: 21 counts evenly spaced from 0 to
        ``n_samples // 2``.  Give ``thresholds`` or ``counts``, not both.
    n_bins, keep_discrete_up_to, zero_as_absent, categorical_features
        As in :class:`UFVSSelector`.
    measures : bool, default=True
        Compute the entropies and mutual informations; ``False`` leaves only the counts and
        times (a pure sweep of the search).

    Returns
    -------
    path : DataFrame
        One row per cut-off with ``min_count``, ``threshold`` (bits), ``n_values`` (all one-hot
        values), ``n_candidates``, ``n_selected`` (``|S|``), ``n_uncoverable``, ``H_S`` and
        ``H_F`` (joint entropies in bits of the selected indicator columns and of all discretised
        features), ``search_ms``; with ``y`` also ``H_C``, ``I_S_C``, ``I_F_C``, ``NMI_S_C`` and
        ``NMI_F_C`` (``NMI = 2 I / (H + H_C)``), and ``selected`` (the ``"feature=value"`` names
        of ``S``), ``largest_share`` (the fraction of rows holding the most common selected
        value).  ``path.attrs`` holds the seconds spent
        encoding (``"encode_seconds"``) and building the bitsets (``"bitsets_seconds"``).

    Examples
    --------
    >>> import pandas as pd
    >>> from weakfs.unsupervised import ufvs_path
    >>> X = pd.DataFrame({"f0": [0, 0, 0, 1, 2], "f1": [2, 1, 0, 0, 0]}).astype("category")
    >>> path = ufvs_path(X, [1, 1, 0, 2, 2], counts=[1])
    >>> path[["min_count", "n_selected", "H_S", "I_S_C", "NMI_S_C"]].round(3)
       min_count  n_selected    H_S  I_S_C  NMI_S_C
    0          1           2  1.522  1.522      1.0
    """
    if thresholds is not None and counts is not None:
        raise ValueError("give either thresholds (bits) or counts (rows), not both")
    runner = _UFVSPath(
        X,
        y,
        n_bins=n_bins,
        keep_discrete_up_to=keep_discrete_up_to,
        zero_as_absent=zero_as_absent,
        categorical_features=categorical_features,
        measures=measures,
    )
    return runner.run(thresholds=thresholds, counts=counts)


class _UFVSPath:
    """The encoded data and label statistics of a path, reusable for any cut-off."""

    def __init__(self, X, y=None, *, measures: bool = True, **params):
        est = UFVSSelector(**params)
        est._validate_params()
        start = time.perf_counter()
        enc = est._encode_fit(X)
        self.encode_seconds = time.perf_counter() - start
        self.est, self.enc, self.measures = est, enc, measures
        n = enc.n_rows
        self.names = _names(est)
        self.entropies = binary_entropy_of_counts(enc.counts, n)
        self.present = enc.counts > 0
        self.small = np.minimum(enc.counts, n - enc.counts)
        self.labels = None
        if y is not None:
            y_arr = np.asarray(y).ravel()
            if y_arr.shape[0] != n:
                raise ValueError(f"X has {n} rows but y has {y_arr.shape[0]} entries")
            if pd.isna(y_arr).any():
                raise ValueError("y contains missing values (NaN/None)")
            self.labels = np.unique(y_arr, return_inverse=True)[1].ravel()
        if measures:
            feature_codes = enc.feature_patterns()
            self.h_f = entropy(feature_codes)
            if self.labels is not None:
                self.h_c = entropy(self.labels)
                self.i_f = mutual_information(feature_codes, self.labels)
        self.all_ids = np.flatnonzero(self.present)
        start = time.perf_counter()
        self.all_bits = enc.bitsets(self.all_ids)  # once; each cut-off takes its candidates
        self.bitsets_seconds = time.perf_counter() - start
        self.position = np.full(enc.counts.shape[0], -1, dtype=np.int64)
        self.position[self.all_ids] = np.arange(self.all_ids.shape[0])

    def run(self, *, thresholds=None, counts=None) -> pd.DataFrame:
        n = self.enc.n_rows
        if thresholds is None and counts is None:
            counts = np.unique(np.linspace(0, n // 2, 21).round().astype(int))
        if thresholds is not None:
            cuts = [("threshold", float(t)) for t in np.atleast_1d(thresholds)]
            if any(t < 0 or not np.isfinite(t) for _, t in cuts):
                raise ValueError(f"thresholds must be finite and >= 0; got {list(thresholds)}")
        else:
            arr = np.atleast_1d(np.asarray(counts))
            if arr.size and (arr.min() < 0 or not np.all(arr == np.round(arr))):
                raise ValueError(f"counts must be non-negative integers; got {list(arr)}")
            cuts = [("min_count", int(c)) for c in arr]
        rows = [self._one(kind, value) for kind, value in cuts]
        path = pd.DataFrame(rows)
        path.attrs.update(
            {"encode_seconds": self.encode_seconds, "bitsets_seconds": self.bitsets_seconds}
        )
        return path

    def _one(self, kind: str, value) -> dict:
        est, enc, n = self.est, self.enc, self.enc.n_rows
        est.threshold, est.min_count = (value, None) if kind == "threshold" else (None, value)
        m, threshold, min_count = est._resolve_cutoff(n)
        candidate = self.present & (
            (self.small > m) if m is not None else (self.entropies > threshold)
        )
        ids = np.flatnonzero(candidate)
        ids = ids[np.argsort(-self.entropies[ids], kind="stable")]  # as _candidate_bitsets
        bits = self.all_bits[self.position[ids]]
        kept, covered, t_search = _search(bits)
        sel = ids[kept]
        cols = np.searchsorted(enc.offsets, sel, side="right") - 1
        row = {
            "min_count": min_count,
            "threshold": threshold,
            "n_values": int(self.present.sum()),
            "n_candidates": int(candidate.sum()),
            "n_selected": int(kept.shape[0]),
            "n_uncoverable": int(n - K.popcount_words(covered)),
            "search_ms": 1000.0 * t_search,
            "selected": [f"{self.names[c]}={v}" for c, v in zip(cols, enc.value_labels(sel))],
            "largest_share": float(enc.counts[sel].max() / n) if sel.size else 0.0,
        }
        if self.measures:
            patterns = _bitset_patterns(bits[kept], n)
            row["H_S"] = max(0.0, entropy(patterns))  # no -0.0
            row["H_F"] = self.h_f
            if self.labels is not None:
                i_s = mutual_information(patterns, self.labels)
                h_s, h_c, h_f, i_f = row["H_S"], self.h_c, self.h_f, self.i_f
                row.update(
                    {
                        "H_C": h_c,
                        "I_S_C": i_s,
                        "I_F_C": i_f,
                        "NMI_S_C": 2 * i_s / (h_s + h_c) if h_s + h_c > 0 else 1.0,
                        "NMI_F_C": 2 * i_f / (h_f + h_c) if h_f + h_c > 0 else 1.0,
                    }
                )
        return row
