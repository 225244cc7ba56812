"""Entropy and mutual information on discrete arrays, vectorised.

Shared by UFVS, JMI/semi-JMI, mRMR and FSCPU-MI (whose JMI pieces, :func:`discretize`,
:func:`jmi_pair_matrix` and :func:`jmi_subset_score`, live here).  Every function takes discrete
data (any hashable values, or the integer codes returned by :func:`encode`) and a ``base`` (2 for
bits, ``np.e`` for nats).  Plug-in (maximum-likelihood) estimates are used throughout, as in the
papers.

Columns are handled without per-row Python: several columns are combined into one integer code
(mixed radix, re-compressed with ``np.unique`` when the radix would overflow), and per-column
statistics of a whole matrix are computed with one ``np.bincount`` over column-offset codes.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

import numpy as np
from scipy import sparse

from weakfs._information_kernels import (
    COLUMN_MAJOR,
    PIVOT_MAJOR,
    SINGLE,
    compress_codes,
    contingency_counts,
    equal_width_codes,
)

__all__ = [
    "EncodedColumns",
    "bin_equal_width",
    "conditional_mutual_information",
    "discretize",
    "encode",
    "entropy",
    "equal_width_bins",
    "jmi_pair_matrix",
    "jmi_subset_score",
    "joint_codes",
    "joint_entropy",
    "joint_mutual_information_columns",
    "mutual_information",
    "mutual_information_columns",
    "normalized_mutual_information",
    "remembered_jmi_pair_matrix",
]

_INT64_SAFE = np.iinfo(np.int64).max // 2
# columns per block in the whole-matrix statistics: bounds the int64 temporaries to ~32 MB
_BLOCK_ENTRIES = 1 << 22
# a contingency table above _BLOCK_ENTRIES cells and this many times the data is counted sparse
_SPARSE_RATIO = 16
# the largest contingency table (cells) counted by the compiled pass
_COMPILED_CELLS = 1 << 24


def _column_blocks(n_rows: int, n_cols: int):
    """Column slices whose ``n_rows x width`` int64 temporaries stay near ``_BLOCK_ENTRIES``."""
    width = max(1, _BLOCK_ENTRIES // max(n_rows, 1))
    for start in range(0, n_cols, width):
        yield slice(start, min(start + width, n_cols))


def _log(base: float) -> float:
    if base <= 0 or base == 1:
        raise ValueError(f"base must be positive and not 1 (2 for bits, e for nats); got {base}")
    return float(np.log(base))


def encode(x) -> tuple[np.ndarray, int]:
    """Integer codes ``0..k-1`` of a 1-D discrete array and the number ``k`` of distinct values.

    Examples
    --------
    >>> encode(["b", "a", "b"])
    (array([1, 0, 1]), 2)
    """
    arr = np.asarray(x)
    if arr.ndim != 1:
        raise ValueError(f"expected a 1-D array, got shape {arr.shape}")
    if arr.dtype == bool:  # as 0/1, so that it indexes like the integers it stands for
        arr = arr.view(np.uint8)
    if arr.dtype.kind in "iu" and arr.size and arr.min() >= 0 and arr.max() < 4 * arr.size + 16:
        # already small non-negative ints: compress without sorting the data
        present = np.zeros(int(arr.max()) + 1, dtype=bool)
        present[arr] = True
        remap = np.cumsum(present) - 1
        return remap[arr].astype(np.int64), int(present.sum())
    uniq, codes = np.unique(arr, return_inverse=True)
    return codes.reshape(-1).astype(np.int64), int(uniq.shape[0])


def _encode_columns(X) -> tuple[np.ndarray, np.ndarray]:
    """Per-column integer codes of a 2-D discrete array and each column's number of values."""
    arr = np.asarray(X)
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2:
        raise ValueError(f"expected a 2-D array, got shape {arr.shape}")
    codes = np.empty(arr.shape, dtype=np.int64)
    sizes = np.empty(arr.shape[1], dtype=np.int64)
    for j in range(arr.shape[1]):  # per column, each step vectorised over rows
        codes[:, j], sizes[j] = encode(arr[:, j])
    return codes, sizes


def joint_codes(X) -> tuple[np.ndarray, int]:
    """One integer code per row for the joint value of all columns of ``X``.

    Examples
    --------
    >>> joint_codes([[0, 1], [0, 1], [1, 0]])
    (array([0, 0, 1]), 2)
    """
    codes, sizes = _encode_columns(X)
    if codes.shape[1] == 0:
        return np.zeros(codes.shape[0], dtype=np.int64), 1
    joint = codes[:, 0].copy()
    radix = int(sizes[0])
    for j in range(1, codes.shape[1]):
        if radix * int(sizes[j]) >= _INT64_SAFE:
            joint, radix = encode(joint)
        joint = joint * int(sizes[j]) + codes[:, j]
        radix *= int(sizes[j])
    return encode(joint)


def _entropy_from_counts(counts: np.ndarray, n: int, base: float) -> float:
    p = counts[counts > 0] / n
    return float(-(p * np.log(p)).sum() / _log(base))


def entropy(x, *, base: float = 2) -> float:
    """Plug-in entropy ``H(x)`` of a 1-D discrete array.

    Examples
    --------
    >>> entropy([0, 1, 0, 1])
    1.0
    """
    codes, k = encode(np.asarray(x).ravel())
    return _entropy_from_counts(np.bincount(codes, minlength=k), codes.shape[0], base)


def joint_entropy(X, *, base: float = 2) -> float:
    """Joint entropy of the columns of a 2-D discrete array (the entropy of its row patterns)."""
    codes, k = joint_codes(X)
    return _entropy_from_counts(np.bincount(codes, minlength=k), codes.shape[0], base)


def _as_joint(x) -> np.ndarray:
    arr = np.asarray(x)
    return joint_codes(arr)[0] if arr.ndim == 2 else encode(arr)[0]


def mutual_information(x, y, *, base: float = 2) -> float:
    """``I(x; y) = H(x) + H(y) - H(x, y)``; ``x`` or ``y`` may be 2-D (a joint variable)."""
    cx, cy = _as_joint(x), _as_joint(y)
    _check_same_length(cx, cy)
    hxy = joint_entropy(np.column_stack([cx, cy]), base=base)
    return max(0.0, entropy(cx, base=base) + entropy(cy, base=base) - hxy)


def conditional_mutual_information(x, y, z, *, base: float = 2) -> float:
    """``I(x; y | z) = H(x,z) + H(y,z) - H(x,y,z) - H(z)``; each argument may be 2-D."""
    cx, cy, cz = _as_joint(x), _as_joint(y), _as_joint(z)
    _check_same_length(cx, cy, cz)
    h = lambda *cols: joint_entropy(np.column_stack(cols), base=base)  # noqa: E731
    return max(0.0, h(cx, cz) + h(cy, cz) - h(cx, cy, cz) - entropy(cz, base=base))


def normalized_mutual_information(x, y, *, base: float = 2) -> float:
    """``NMI(x; y) = 2 I(x; y) / (H(x) + H(y))`` (1.0 when both are constant, as scikit-learn)."""
    cx, cy = _as_joint(x), _as_joint(y)
    hx, hy = entropy(cx, base=base), entropy(cy, base=base)
    if hx + hy == 0:
        return 1.0
    return 2.0 * mutual_information(cx, cy, base=base) / (hx + hy)


def _check_same_length(*arrays: np.ndarray) -> None:
    lengths = {a.shape[0] for a in arrays}
    if len(lengths) > 1:
        raise ValueError(f"arrays have different numbers of rows: {sorted(lengths)}")


def _columnwise_mi(codes: np.ndarray, sizes: np.ndarray, y_codes: np.ndarray, k_y: int, base):
    """MI of each column of ``codes`` (values ``< sizes[j]``) with ``y``: one bincount in all.

    The contingency table is dense unless it would dwarf the data (many categories on both
    sides, e.g. raw floats against raw floats: 50 columns of 4,500 distinct values against
    another such column is a billion cells): then only its non-zero cells are counted."""
    n, d = codes.shape
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    total = int(sizes.sum())
    flat = (codes + offsets[None, :]) * k_y + y_codes[:, None]
    if total * k_y > max(_BLOCK_ENTRIES, _SPARSE_RATIO * flat.size):
        return _columnwise_mi_sparse(flat.ravel(), n, d, sizes, total, y_codes, k_y, base)
    counts = np.bincount(flat.ravel(), minlength=total * k_y)
    return _mi_from_counts(counts, sizes, y_codes, k_y, base)


def _mi_from_counts(counts, sizes, y_codes, k_y: int, base) -> np.ndarray:
    """:func:`_columnwise_mi` from the counts of its contingency table (the same float steps,
    so the same numbers)."""
    return _mi_from_table(counts, sizes, np.bincount(y_codes, minlength=k_y), base)


def _mi_from_table(counts, sizes, y_counts, base) -> np.ndarray:
    """:func:`_mi_from_counts` from the table and the counts of ``y``'s values alone (what a
    streamed fit adds up over chunks); ``n`` is their sum."""
    n, d, total, k_y = int(y_counts.sum()), sizes.shape[0], int(sizes.sum()), y_counts.shape[0]
    joint = counts.reshape(total, k_y) / n
    p_x = joint.sum(axis=1, keepdims=True)
    p_y = y_counts / n
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(joint > 0, joint * np.log(joint / (p_x * p_y[None, :])), 0.0)
    per_value = terms.sum(axis=1)
    owner = np.repeat(np.arange(d), sizes)
    mi = np.bincount(owner, weights=per_value, minlength=d) / _log(base)
    return np.maximum(mi, 0.0)


def _columnwise_mi_sparse(flat, n, d, sizes, total, y_codes, k_y, base) -> np.ndarray:
    """:func:`_columnwise_mi` from the non-zero cells of the contingency table only."""
    cells, counts = np.unique(flat, return_counts=True)
    x_of, y_of = np.divmod(cells, k_y)
    joint = counts / n
    p_x = np.bincount(x_of, weights=joint, minlength=total)
    p_y = np.bincount(y_codes, minlength=k_y) / n
    terms = joint * np.log(joint / (p_x[x_of] * p_y[y_of]))
    per_value = np.bincount(x_of, weights=terms, minlength=total)
    owner = np.repeat(np.arange(d), sizes)
    mi = np.bincount(owner, weights=per_value, minlength=d) / _log(base)
    return np.maximum(mi, 0.0)


def mutual_information_columns(X, y, *, base: float = 2) -> np.ndarray:
    """``I(X[:, j]; y)`` for every column ``j`` of a discrete matrix, in one vectorised pass.

    Examples
    --------
    >>> mutual_information_columns([[0, 1], [1, 1], [0, 0], [1, 0]], [0, 1, 0, 1])
    array([1., 0.])
    """
    arr = np.asarray(X)
    if arr.ndim == 1:
        arr = arr[:, None]
    y_codes, k_y = encode(np.asarray(y).ravel())
    _check_same_length(arr, y_codes)
    out = np.empty(arr.shape[1])
    for block in _column_blocks(*arr.shape):
        codes, sizes = _encode_columns(arr[:, block])
        out[block] = _columnwise_mi(codes, sizes, y_codes, k_y, base)
    return out


def joint_mutual_information_columns(X, j: int, y, *, base: float = 2) -> np.ndarray:
    """``I(X[:, k], X[:, j]; y)`` for every column ``k`` (pairs taken as joint variables).

    This is the inner step of JMI: the joint MI of each candidate with one already-selected feature.
    """
    arr = np.asarray(X)
    if arr.ndim == 1:
        arr = arr[:, None]
    y_codes, k_y = encode(np.asarray(y).ravel())
    _check_same_length(arr, y_codes)
    code_j, size_j = encode(arr[:, j])
    out = np.empty(arr.shape[1])
    for block in _column_blocks(*arr.shape):
        codes, sizes = _encode_columns(arr[:, block])
        pair_codes = codes * size_j + code_j[:, None]
        out[block] = _columnwise_mi(pair_codes, sizes * size_j, y_codes, k_y, base)
    return out


def bin_equal_width(values, lo, hi, n_bins: int) -> np.ndarray:
    """Equal-width bin index of ``values`` for the range ``[lo, hi]`` cut into ``n_bins``.

    ``lo``/``hi`` may be arrays broadcasting over columns, so fitted edges can be applied to new
    data: values outside ``[lo, hi]`` fall into the end bins; a constant column (``hi == lo``) is
    bin 0.  This is the formula of :func:`equal_width_bins` (and of UFVS's ``transform``).

    Examples
    --------
    >>> bin_equal_width([-1.0, 0.0, 0.49, 0.5, 1.0, 7.0], 0.0, 1.0, 2)
    array([0, 0, 0, 1, 1, 1])
    """
    values = np.asarray(values, dtype=float)
    lo = np.asarray(lo, dtype=float)
    width = np.asarray(hi, dtype=float) - lo
    safe = np.where(width == 0, 1.0, width)
    with np.errstate(invalid="ignore", over="ignore"):
        raw = (values - lo) / safe * n_bins
    codes = np.clip(raw, 0, n_bins - 1).astype(np.int64)
    return np.where(width == 0, 0, codes)


def equal_width_bins(
    X, n_bins: int = 5, *, keep_discrete_up_to: int | None = None
) -> tuple[np.ndarray, list[np.ndarray | None]]:
    """Discretise each numeric column into ``n_bins`` equal-width intervals over its range.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Numeric data without NaN.
    n_bins : int, default=5
        Number of intervals (the UFVS and JMI papers use 5).
    keep_discrete_up_to : int or None
        Columns with at most this many distinct values keep their values (as codes) instead of
        being binned; ``None`` bins every column.

    Returns
    -------
    codes : ndarray of shape (n_samples, n_features), dtype int64
        Bin index per entry (``0 .. n_bins-1``; a constant column is all 0).
    edges : list of ndarray or None
        The ``n_bins + 1`` edges per column, or ``None`` for columns kept as they are.

    Examples
    --------
    >>> codes, _ = equal_width_bins([[0.0], [0.5], [1.0]], n_bins=2)
    >>> codes.ravel()
    array([0, 1, 1])
    """
    if n_bins < 1:
        raise ValueError(f"n_bins must be at least 1; got {n_bins}")
    arr = np.asarray(X, dtype=float)
    if arr.ndim == 1:
        arr = arr[:, None]
    if np.isnan(arr).any():
        raise ValueError("X contains NaN; impute or drop missing values before discretising")
    codes = np.empty(arr.shape, dtype=np.int64)
    edges: list[np.ndarray | None] = []
    lo, hi = arr.min(axis=0), arr.max(axis=0)
    for j in range(arr.shape[1]):
        col = arr[:, j]
        if keep_discrete_up_to is not None:
            uniq = np.unique(col)
            if uniq.shape[0] <= keep_discrete_up_to:
                codes[:, j] = np.searchsorted(uniq, col)
                edges.append(None)
                continue
        codes[:, j] = bin_equal_width(col, lo[j], hi[j], n_bins)
        edges.append(np.linspace(lo[j], hi[j], n_bins + 1))
    return codes, edges


# ----------------------------------------------------------------------------------------------
# JMI (joint mutual information) pieces: semi-JMI and FSCPU-MI
# ----------------------------------------------------------------------------------------------


def discretize(X, n_bins: int = 5) -> np.ndarray:
    """Equal-width codes; columns with at most ``n_bins`` distinct values are kept as they are.

    A sparse matrix is coded one column at a time (implicit zeros are values like any other),
    into the smallest unsigned integer type that holds ``n_bins`` codes, so that only the code
    matrix (one byte per entry for ``n_bins <= 256``) is ever held; the codes equal those of the
    dense matrix.
    """
    if not sparse.issparse(X):
        arr = np.ascontiguousarray(X, dtype=float)
        if arr.ndim == 1:
            arr = arr[:, None]
        if arr.size == 0 or np.isnan(arr).any():  # the reference path says what is wrong
            codes, _ = equal_width_bins(arr, n_bins=n_bins, keep_discrete_up_to=n_bins)
            return codes.astype(_code_dtype(n_bins))
        codes = np.empty(arr.shape, dtype=_code_dtype(n_bins))
        equal_width_codes(arr, n_bins, n_bins, codes)
        return codes
    X = sparse.csc_matrix(X)
    codes = np.empty(X.shape, dtype=np.min_scalar_type(max(n_bins - 1, 1)))
    for j in range(X.shape[1]):
        column = X[:, [j]].toarray()
        codes[:, j] = equal_width_bins(column, n_bins=n_bins, keep_discrete_up_to=n_bins)[0][:, 0]
    return codes


class EncodedColumns:
    """The columns of a discrete matrix encoded once (codes ``0..size-1``), for the repeated
    passes of a greedy selector: each pass is one bincount over a block of columns, with no
    per-column Python and no re-encoding.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Discrete data (any values; typically the codes of :func:`discretize`).
    """

    def __init__(self, X):
        arr = np.asarray(X)
        if arr.ndim == 1:
            arr = arr[:, None]
        if arr.dtype.kind == "u" and arr.itemsize <= 2 and arr.size:  # discretize's codes
            limit = int(arr.max()) + 1
            self.codes = np.empty(arr.shape, dtype=_code_dtype(limit))
            self.sizes = np.empty(arr.shape[1], dtype=np.int64)
            compress_codes(np.ascontiguousarray(arr), limit, self.codes, self.sizes)
        else:
            self.codes, self.sizes = _encode_columns(arr)

    @property
    def shape(self) -> tuple[int, int]:
        return self.codes.shape

    def mutual_information(self, y, *, base: float = np.e) -> np.ndarray:
        """``I(X_k; y)`` of every column ``k``."""
        y_codes, k_y = encode(np.asarray(y).ravel())
        _check_same_length(self.codes, y_codes)
        if self._compiled(self.sizes, k_y):
            return _mi_from_counts(
                self._counts(self.sizes, y_codes, k_y), self.sizes, y_codes, k_y, base
            )
        out = np.empty(self.shape[1])
        for block in _column_blocks(*self.shape):
            out[block] = _columnwise_mi(self.codes[:, block], self.sizes[block], y_codes, k_y, base)
        return out

    def _compiled(self, sizes, k_y) -> bool:
        """Small codes and a contingency table that fits: count in one compiled pass."""
        return self.codes.itemsize <= 2 and int(sizes.sum()) * k_y <= _COMPILED_CELLS

    def _counts(self, sizes, y_codes, k_y, pivot=None, pivot_size=1, mode=SINGLE) -> np.ndarray:
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        out = np.zeros(int(offsets[-1]) * k_y, dtype=np.int64)
        pivot = np.zeros(1, dtype=self.codes.dtype) if pivot is None else pivot
        contingency_counts(self.codes, offsets, y_codes, k_y, pivot, pivot_size, mode, out)
        return out

    def joint_mutual_information(self, j: int, y, *, base: float = np.e, major: str = "column"):
        """``I(X_k, X_j; y)`` of every column ``k``, the pair coded ``k``-major (``major=
        "column"``, as :func:`joint_mutual_information_columns`) or ``j``-major (``"pivot"``).

        The two codings give the same number up to the order of a float sum."""
        y_codes, k_y = encode(np.asarray(y).ravel())
        _check_same_length(self.codes, y_codes)
        code_j, size_j = self.codes[:, j], int(self.sizes[j])
        if self._compiled(self.sizes * size_j, k_y):
            mode = COLUMN_MAJOR if major == "column" else PIVOT_MAJOR
            counts = self._counts(self.sizes * size_j, y_codes, k_y, code_j, size_j, mode)
            return _mi_from_counts(counts, self.sizes * size_j, y_codes, k_y, base)
        out = np.empty(self.shape[1])
        for block in _column_blocks(*self.shape):
            codes, sizes = self.codes[:, block], self.sizes[block]
            if major == "column":
                pair = codes * size_j + code_j[:, None]
            else:
                pair = code_j[:, None] * sizes[None, :] + codes
            out[block] = _columnwise_mi(pair, sizes * size_j, y_codes, k_y, base)
        return out

    def jmi_pair_column(self, j: int, y, relevance: np.ndarray) -> np.ndarray:
        """Column ``j`` of :func:`jmi_pair_matrix`, bit for bit, in two passes instead of the
        matrix's ``d``: ``M[k, j]`` is the mean of the two codings of the pair (the matrix is
        symmetrised so), ``M[j, j] = relevance[j]``."""
        column = 0.5 * (
            self.joint_mutual_information(j, y, major="column")
            + self.joint_mutual_information(j, y, major="pivot")
        )
        column[j] = relevance[j]
        return column


def _code_dtype(n_values: int):
    """The smallest unsigned integer type holding ``n_values`` codes."""
    return np.min_scalar_type(max(n_values - 1, 1))


def jmi_pair_matrix(codes: np.ndarray, y) -> np.ndarray:
    """``M[i, j] = I(X_i, X_j; y)`` in nats for ``i != j`` and ``M[i, i] = I(X_i; y)``."""
    encoded = EncodedColumns(codes)
    d = encoded.shape[1]
    M = np.empty((d, d))
    for j in range(d):
        M[:, j] = encoded.joint_mutual_information(j, y)
    M = 0.5 * (M + M.T)
    M[np.arange(d), np.arange(d)] = encoded.mutual_information(y)
    return M


#: how many (codes, labels) pairs :func:`remembered_jmi_pair_matrix` keeps (a 2,000-column
#: matrix is 32 MB)
_REMEMBERED_PAIR_MATRICES = 2
_remembered: OrderedDict[bytes, np.ndarray] = OrderedDict()
_remembered_lock = threading.Lock()


def remembered_jmi_pair_matrix(codes: np.ndarray, y) -> np.ndarray:
    """:func:`jmi_pair_matrix`, remembered for the last few ``(codes, y)`` (read-only).

    The matrix depends on the discretised training rows and the labels alone, not on the
    number of columns to select nor on a seed; a model selection fits FSCPU-MI at several k on
    the same training rows, and on 1,000–2,000 columns the matrix costs 5–20 s a fit.  The key is
    a hash of the codes' bytes, shape and dtype and of the labels; the same inputs give the same
    matrix, bit for bit, whether it is computed or remembered.
    """
    codes = np.ascontiguousarray(codes)
    y_arr = np.ascontiguousarray(np.asarray(y).ravel())
    digest = hashlib.blake2b(digest_size=20)
    for part in (codes, y_arr):
        digest.update(repr((part.shape, part.dtype.str)).encode())
        digest.update(part.tobytes())
    key = digest.digest()
    with _remembered_lock:
        found = _remembered.get(key)
        if found is not None:
            _remembered.move_to_end(key)
            return found
    matrix = jmi_pair_matrix(codes, y_arr)
    matrix.setflags(write=False)
    with _remembered_lock:
        _remembered[key] = matrix
        _remembered.move_to_end(key)
        while len(_remembered) > _REMEMBERED_PAIR_MATRICES:
            _remembered.popitem(last=False)
    return matrix


def jmi_subset_score(pair_matrix: np.ndarray, mask) -> float:
    """JMI value of a subset: ``sum_{i<j in S} I(X_i, X_j; y)``; ``I(X_i; y)`` if ``|S| = 1``."""
    idx = np.flatnonzero(np.asarray(mask, dtype=bool))
    if idx.shape[0] == 0:
        return 0.0
    if idx.shape[0] == 1:
        return float(pair_matrix[idx[0], idx[0]])
    sub = pair_matrix[np.ix_(idx, idx)]
    return float(np.triu(sub, 1).sum())
