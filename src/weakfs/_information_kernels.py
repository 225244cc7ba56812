"""Compiled passes over discrete columns: contingency counts, compression of small codes, and
equal-width binning, one pass over the data each (memory-bandwidth bound, no temporaries).

Each kernel reproduces the integer results of the numpy code it replaces exactly (the counts of
``np.bincount``, the codes of ``encode`` and ``bin_equal_width``); the floating-point parts of the
mutual information stay in numpy, so the estimates are bit-for-bit the same.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = [
    "column_summary",
    "compress_codes",
    "contingency_counts",
    "equal_width_codes",
    "fixed_width_codes",
]

#: pair coding of :func:`contingency_counts`: the column alone, column-major, pivot-major
SINGLE, COLUMN_MAJOR, PIVOT_MAJOR = 0, 1, 2


@njit(cache=True, nogil=True)
def contingency_counts(codes, offsets, y_codes, k_y, pivot, pivot_size, mode, out):
    """``out[(offsets[j] + v) * k_y + y] += 1`` for every row and column ``j``, ``v`` the
    column's code (``mode=SINGLE``) or its pair code with ``pivot``: ``v * pivot_size + p``
    (``COLUMN_MAJOR``) or ``p * size_j + v`` (``PIVOT_MAJOR``, ``size_j = (offsets[j+1] -
    offsets[j]) / pivot_size``).  ``out`` is zeroed by the caller; the counts equal
    ``np.bincount`` of the same flat codes."""
    n, d = codes.shape
    for i in range(n):
        y = y_codes[i]
        p = pivot[i] if mode != SINGLE else 0
        for j in range(d):
            v = np.int64(codes[i, j])
            if mode == COLUMN_MAJOR:
                v = v * pivot_size + p
            elif mode == PIVOT_MAJOR:
                size_j = (offsets[j + 1] - offsets[j]) // pivot_size
                v = p * size_j + v
            out[(offsets[j] + v) * k_y + y] += 1


@njit(cache=True, nogil=True)
def compress_codes(codes, limit, out, sizes):
    """Per column, the codes ``0..k-1`` of its values (in value order), as ``encode`` gives them
    for small non-negative integers; ``limit`` bounds the values.  Fills ``out`` and ``sizes``."""
    n, d = codes.shape
    present = np.zeros(limit, dtype=np.int64)
    for j in range(d):
        present[:] = 0
        for i in range(n):
            present[codes[i, j]] = 1
        k = 0
        for v in range(limit):
            if present[v]:
                present[v] = k
                k += 1
        sizes[j] = k
        for i in range(n):
            out[i, j] = present[codes[i, j]]


@njit(cache=True, nogil=True)
def equal_width_codes(X, n_bins, keep_discrete_up_to, out):
    """Each column cut into ``n_bins`` equal-width intervals over its range (a constant column
    all 0), or, with at most ``keep_discrete_up_to`` distinct values (``> 0``), the rank of its
    value: the codes of ``equal_width_bins`` exactly.  Two row-major passes (ranges and distinct
    values, then codes), so a C-ordered matrix is read in order."""
    n, d = X.shape
    limit = max(keep_discrete_up_to, 0)
    lo = X[0].copy()
    hi = X[0].copy()
    found = np.empty((d, max(limit, 1)), dtype=X.dtype)
    n_found = np.zeros(d, dtype=np.int64)
    few = np.full(d, limit > 0)
    column_summary(X, limit, lo, hi, found, n_found, few)
    for j in range(d):
        if few[j]:
            found[j, : n_found[j]].sort()
    for i in range(n):
        for j in range(d):
            v = X[i, j]
            if few[j]:
                out[i, j] = np.searchsorted(found[j, : n_found[j]], v)
                continue
            width = hi[j] - lo[j]
            if width == 0:
                out[i, j] = 0
                continue
            raw = (v - lo[j]) / width * n_bins
            if raw > n_bins - 1:
                raw = n_bins - 1
            elif not raw >= 0:
                raw = 0
            out[i, j] = np.int64(raw)


@njit(cache=True, nogil=True)
def column_summary(X, limit, lo, hi, found, n_found, few):
    """The first loop of :func:`equal_width_codes`, adding one chunk of rows into a running
    summary: each column's range (``lo``, ``hi``, started at +inf / -inf) and, while it has at
    most ``limit`` distinct values (``few``), those values (``found[j, :n_found[j]]``, in the
    order met).  Ranges and sets of values do not depend on the order of the rows, so the
    summary of all chunks is the one of the whole matrix."""
    n, d = X.shape
    for i in range(n):
        for j in range(d):
            v = X[i, j]
            if v < lo[j]:
                lo[j] = v
            if v > hi[j]:
                hi[j] = v
            if few[j]:
                k = n_found[j]
                seen = False
                for m in range(k):
                    if found[j, m] == v:
                        seen = True
                        break
                if not seen:
                    if k == limit:
                        few[j] = False
                    else:
                        found[j, k] = v
                        n_found[j] = k + 1


@njit(cache=True, nogil=True)
def fixed_width_codes(X, lo, hi, n_bins, values, n_values, few, code_map, out):
    """The second loop of :func:`equal_width_codes` with a summary given (:func:`column_summary`
    of all the data, ``values`` sorted per column): the rank of the value in a column with few
    values, else its equal-width bin over ``[lo, hi]``, then ``code_map[j, code]`` (the
    compression of :func:`compress_codes`, or the identity)."""
    n, d = X.shape
    for i in range(n):
        for j in range(d):
            v = X[i, j]
            if few[j]:
                code = np.searchsorted(values[j, : n_values[j]], v)
            else:
                width = hi[j] - lo[j]
                if width == 0:
                    code = 0
                else:
                    raw = (v - lo[j]) / width * n_bins
                    if raw > n_bins - 1:
                        raw = n_bins - 1
                    elif not raw >= 0:
                        raw = 0
                    code = np.int64(raw)
            out[i, j] = code_map[j, code]
