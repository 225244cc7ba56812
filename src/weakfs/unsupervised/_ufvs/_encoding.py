"""UFVS value encoding: input columns -> integer value codes (-1 = absent), counts and bitsets.

Numeric columns are cut into equal-width bins (or keep their few distinct values), categorical
columns keep their sorted categories.  Value ``c`` of column ``j`` is the global value id
``offsets[j] + c``; :class:`_Encoded` holds the codes (dense, Fortran order, or CSC for sparse
input), the number of rows holding each value and builds one ``uint64`` bitset per value on
demand.  The functions here take the encoding parameters explicitly, so the selector and the
threshold path share them without touching each other's state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import scipy.sparse as sp

from weakfs._information import bin_equal_width
from weakfs._words import counted
from weakfs.unsupervised._ufvs import _kernels as K

_CHUNK_ENTRIES = 4_000_000  # entries per block when binning dense numeric data


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


def _discrete_column(uniq: np.ndarray, zero_absent: bool) -> _Column:
    """A numeric column that keeps its (few) distinct values ``uniq`` as codes."""
    return _Column(
        "discrete",
        uniq.shape[0],
        zero_absent=zero_absent,
        categories=uniq,
        labels=[_fmt_number(u) for u in uniq],
    )


def _bins_column(lo: float, hi: float, n_bins: int, zero_absent: bool, n_codes: int) -> _Column:
    """A numeric column cut into ``n_bins`` equal-width bins over ``[lo, hi]``."""
    return _Column(
        "bins",
        n_codes,
        zero_absent=zero_absent,
        lo=lo,
        hi=hi,
        labels=_bin_labels(lo, hi, n_bins),
    )


def _is_categorical_dtype(dtype) -> bool:
    return not (pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype))


def _array_is_categorical(X) -> bool:
    dtype = getattr(X, "dtype", None)
    if dtype is None:
        dtype = np.asarray(X).dtype
    return dtype.kind in "OUSb"


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


def _boolean_columns(X, d: int) -> np.ndarray:
    """Which columns have a boolean dtype (their two values are never binned)."""
    if hasattr(X, "dtypes"):
        return np.array([pd.api.types.is_bool_dtype(t) for t in X.dtypes], dtype=bool)
    dtype = getattr(X, "dtype", None)
    if dtype is None:
        dtype = np.asarray(X).dtype
    return np.full(d, dtype.kind == "b", dtype=bool)


def categorical_mask(spec, X, d: int, names) -> np.ndarray:
    """Which of the ``d`` columns of ``X`` are categorical, from ``categorical_features``;
    boolean columns always are (5 equal-width bins of False/True would name them as intervals)."""
    if isinstance(spec, str):  # "auto"
        if hasattr(X, "dtypes"):
            return np.array([_is_categorical_dtype(t) for t in X.dtypes], dtype=bool)
        return np.full(d, _array_is_categorical(X), dtype=bool)
    return _listed_columns(spec, d, names) | _boolean_columns(X, d)


def _listed_columns(spec, d: int, names) -> np.ndarray:
    """The columns ``categorical_features`` lists (names, indices or a boolean mask)."""
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
                raise ValueError(
                    f"categorical_features index {j} out of range for {counted(d, 'column')}"
                )
            mask[j] = True
    return mask


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


def _finish_encoding(n, columns, *, dense_codes=None, csc=None) -> _Encoded:
    sizes = np.array([c.n_codes for c in columns], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    total = int(sizes.sum())
    if dense_codes is not None:
        counts = K.dense_value_counts(dense_codes, offsets, total)
    else:
        counts = K.sparse_value_counts(csc[0], csc[2], offsets, total)
    return _Encoded(n, columns, offsets, counts, dense_codes=dense_codes, csc=csc)


# ----------------------------------------------------------------------------------------------
# encoding the training data
# ----------------------------------------------------------------------------------------------


def encode_fit(
    table: _Table,
    mask: np.ndarray,
    *,
    zero_absent: bool,
    n_bins: int,
    keep_discrete_up_to: int | None,
    names: list[str],
) -> _Encoded:
    """Encode validated training data (``mask``: categorical columns; ``names``: column names)."""
    if table.kind == "sparse" and zero_absent and not mask.any():
        return _encode_sparse_fit(
            table.data, n_bins=n_bins, keep_discrete_up_to=keep_discrete_up_to
        )
    # otherwise (0 a genuine value, or categorical columns) encode densely, block by block
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
    largest = max([n_bins] + [c.n_codes for c in columns if c is not None])
    dtype = np.int8 if largest < 127 else np.int16 if largest < 32767 else np.int32
    codes = np.empty((n, d), dtype=dtype, order="F")
    for j, c in cat_codes.items():
        codes[:, j] = c
    numeric = np.flatnonzero(~mask)
    step = max(1, _CHUNK_ENTRIES // max(n, 1))
    for start in range(0, numeric.shape[0], step):
        ids = numeric[start : start + step]
        _bin_block_fit(
            block(ids),
            ids,
            codes,
            columns,
            zero_absent=zero_absent,
            n_bins=n_bins,
            keep_discrete_up_to=keep_discrete_up_to,
            names=names,
        )
    return _finish_encoding(n, columns, dense_codes=codes)


def _bin_block_fit(
    block: np.ndarray,
    block_ids: np.ndarray,
    codes: np.ndarray,
    columns: list,
    *,
    zero_absent: bool,
    n_bins: int,
    keep_discrete_up_to: int | None,
    names: list[str],
) -> None:
    """Bin the numeric columns ``block_ids`` (given as ``block``) into ``codes`` and ``columns``."""
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
    binned = bin_equal_width(block, lo, hi, n_bins)
    if zero_absent:
        binned[~present] = -1
    for i, j in enumerate(block_ids):
        if keep_discrete_up_to is not None:
            uniq = np.unique(block[present[:, i], i])
            if uniq.shape[0] <= keep_discrete_up_to:
                disc = np.searchsorted(uniq, block[:, i])
                disc[~present[:, i]] = -1
                codes[:, j] = disc
                columns[j] = _discrete_column(uniq, zero_absent)
                continue
        codes[:, j] = binned[:, i]
        n_codes = 1 if hi[i] == lo[i] else n_bins
        columns[j] = _bins_column(float(lo[i]), float(hi[i]), n_bins, zero_absent, n_codes)


def _encode_sparse_fit(
    Xc: sp.csc_matrix, *, n_bins: int, keep_discrete_up_to: int | None
) -> _Encoded:
    """Encode sparse data whose zeros are absent, without densifying it."""
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
    codes = bin_equal_width(data, lo[col_of], hi[col_of], n_bins)
    columns: list[_Column] = []
    for j in range(d):
        if keep_discrete_up_to is not None and has[j]:
            seg = data[indptr[j] : indptr[j + 1]]
            uniq = np.unique(seg)
            if uniq.shape[0] <= keep_discrete_up_to:
                codes[indptr[j] : indptr[j + 1]] = np.searchsorted(uniq, seg)
                columns.append(_discrete_column(uniq, True))
                continue
        n_codes = (1 if hi[j] == lo[j] else n_bins) if has[j] else 0
        columns.append(_bins_column(float(lo[j]), float(hi[j]), n_bins, True, n_codes))
    csc = (indptr, Xc.indices.astype(np.int64), codes.astype(np.int32))
    return _finish_encoding(n, columns, csc=csc)


# ----------------------------------------------------------------------------------------------
# encoding new data with fitted columns
# ----------------------------------------------------------------------------------------------


def encode_column(col: _Column, values: np.ndarray, name: str, n_bins: int) -> np.ndarray:
    """Codes of new ``values`` of a fitted column (-1: the row holds no fitted value)."""
    if col.kind == "categories":
        if pd.isna(values).any():
            raise ValueError(f"column {name!r} contains missing values (NaN/None)")
        return _encode_categories(values, col.categories)
    x = _as_float(values, name)
    if col.kind == "bins":
        codes = bin_equal_width(x, col.lo, col.hi, n_bins)
        if col.n_codes == 1:
            codes = np.zeros_like(codes)
    else:
        pos = np.searchsorted(col.categories, x)
        pos = np.minimum(pos, col.categories.shape[0] - 1)
        codes = np.where(col.categories[pos] == x, pos, -1)
    if col.zero_absent:
        codes = np.where(x == 0, -1, codes)
    return codes
