"""numba kernels of UFVS: value counts, one bitset per feature value, and Algorithm 1's search.

Rows are packed into ``uint64`` words (row ``r`` is bit ``r & 63`` of word ``r >> 6``), so a
coverage test of a set of values is a word-parallel OR/compare over ``ceil(n / 64)`` words.
"""

from __future__ import annotations

import numpy as np
from numba import njit

ONE = np.uint64(1)


@njit(cache=True, nogil=True)
def dense_value_counts(codes, offsets, n_total):  # pragma: no cover - compiled
    """Rows holding each value ``offsets[j] + code`` of a (n, d) code matrix (-1 = absent)."""
    n, d = codes.shape
    counts = np.zeros(n_total, dtype=np.int64)
    for j in range(d):
        base = offsets[j]
        for r in range(n):
            c = codes[r, j]
            if c >= 0:
                counts[base + c] += 1
    return counts


@njit(cache=True, nogil=True)
def sparse_value_counts(indptr, codes, offsets, n_total):  # pragma: no cover - compiled
    """Same as :func:`dense_value_counts` for CSC entries (absent entries are not stored)."""
    counts = np.zeros(n_total, dtype=np.int64)
    for j in range(indptr.shape[0] - 1):
        base = offsets[j]
        for p in range(indptr[j], indptr[j + 1]):
            c = codes[p]
            if c >= 0:
                counts[base + c] += 1
    return counts


@njit(cache=True, nogil=True)
def dense_bitsets(codes, offsets, slot, n_slots, n_words):  # pragma: no cover - compiled
    """``bits[slot[v]]`` = the rows holding value ``v`` (values with ``slot[v] < 0`` skipped)."""
    n, d = codes.shape
    bits = np.zeros((n_slots, n_words), dtype=np.uint64)
    for j in range(d):
        base = offsets[j]
        for r in range(n):
            c = codes[r, j]
            if c >= 0:
                s = slot[base + c]
                if s >= 0:
                    bits[s, r >> 6] |= ONE << np.uint64(r & 63)
    return bits


@njit(cache=True, nogil=True)
def sparse_bitsets(indptr, rows, codes, offsets, slot, n_slots, n_words):  # pragma: no cover
    """:func:`dense_bitsets` for CSC entries."""
    bits = np.zeros((n_slots, n_words), dtype=np.uint64)
    for j in range(indptr.shape[0] - 1):
        base = offsets[j]
        for p in range(indptr[j], indptr[j + 1]):
            c = codes[p]
            if c >= 0:
                s = slot[base + c]
                if s >= 0:
                    r = rows[p]
                    bits[s, r >> 6] |= ONE << np.uint64(r & 63)
    return bits


@njit(cache=True, nogil=True, inline="always")
def _covers(kept, suffix_row, target):  # pragma: no cover - compiled
    for w in range(target.shape[0]):
        if (kept[w] | suffix_row[w]) != target[w]:
            return False
    return True


@njit(cache=True, nogil=True)
def ufvs_search(bits):  # pragma: no cover - compiled
    """Algorithm 1 of the UFVS paper on values already sorted by entropy, descending.

    ``bits`` has one row per candidate value ``v_1 .. v_N``.  With ``suffix[j]`` the rows covered
    by ``v_{j+1} .. v_N`` and ``kept`` the rows covered by the values kept so far, the set
    ``S \\ {v_{l+1} .. v_j}`` covers every coverable row iff ``kept | suffix[j] == target``; that
    test is monotone in ``j``, so the largest valid ``k`` is found by binary search, ``v_{l+1..k}``
    are removed and ``v_{k+1}`` is kept.

    Returns the 0-based positions (in ``bits``) of the kept values, increasing, and the bitset
    of the rows the candidates can cover.
    """
    n_values, n_words = bits.shape
    suffix = np.empty((n_values + 1, n_words), dtype=np.uint64)
    suffix[n_values] = 0
    for i in range(n_values - 1, -1, -1):
        for w in range(n_words):
            suffix[i, w] = suffix[i + 1, w] | bits[i, w]
    target = suffix[0].copy()
    kept = np.zeros(n_words, dtype=np.uint64)
    out = np.empty(n_values, dtype=np.int64)
    n_out = 0
    lo_start = 0
    while lo_start < n_values:
        if _covers(kept, suffix[n_values], target):
            break  # every remaining value can go: k = N
        lo = lo_start  # S itself covers (invariant)
        hi = n_values  # removing everything after l does not
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if _covers(kept, suffix[mid], target):
                lo = mid
            else:
                hi = mid
        out[n_out] = lo  # v_{k+1} (0-based position k) must stay
        n_out += 1
        for w in range(n_words):
            kept[w] |= bits[lo, w]
        lo_start = lo + 1
    return out[:n_out], target


@njit(cache=True, nogil=True)
def popcount_words(words):  # pragma: no cover - compiled
    """Number of set bits in a uint64 array."""
    total = 0
    for w in range(words.shape[0]):
        x = words[w]
        while x:
            x &= x - ONE
            total += 1
    return total
