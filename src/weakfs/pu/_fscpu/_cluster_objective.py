"""The cluster-assumption objective of FSCPU (Uchikoshi & Akimoto, GECCO 2025, eq. 5 and
Algorithm 1).

For a clustering of all rows, cluster ``k`` holds ``a_k`` labeled positives among ``c_k`` rows and
``L = sum(a_k)`` rows are labeled.  A union ``S`` of clusters scores

    J(S) = A^2 / (L * C),   A = sum_{k in S} a_k,  C = sum_{k in S} c_k,

the recall times the precision of "the row falls in S" for predicting "the row is labeled".
``max_S J(S)`` is found in linear time after sorting (Proposition 4.1): the largest optimal union
is a prefix of the clusters ordered by ``a_k / c_k`` descending, so every prefix is scanned and the
best (the longest on ties) kept.  The paper's Algorithm 1 stops at the first decrease instead; that
reading is the ``early_stop=True`` option (it can miss the maximum).  Empty clusters are
skipped.  Ties in the ratio are ordered by the larger ``a_k`` first, then by the lower index.
"""

from __future__ import annotations

from functools import cmp_to_key

import numpy as np

__all__ = ["best_cluster_union", "cluster_counts", "cluster_objective"]


def cluster_counts(labels, s, n_clusters: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``a`` (labeled rows) and ``c`` (rows) per cluster from hard cluster labels and PU labels."""
    labels = np.asarray(labels, dtype=np.intp)
    s = np.asarray(s)
    k = int(labels.max()) + 1 if n_clusters is None else int(n_clusters)
    c = np.bincount(labels, minlength=k)
    a = np.bincount(labels, weights=(s == 1).astype(np.float64), minlength=k).astype(np.int64)
    return a, c


def best_cluster_union(a, c, *, early_stop: bool = False) -> tuple[float, np.ndarray]:
    """Maximise ``J(S) = A^2 / (L C)`` over unions of clusters (paper eq. 5, Algorithm 1).

    By Proposition 4.1 the largest optimal union is a prefix of the clusters sorted by
    ``a_k / c_k`` (descending).  The default scans *every* prefix and keeps the best, the longest on
    ties: this is the exact maximum over all ``2^K`` unions.  ``early_stop=True`` is the paper's
    literal Algorithm 1, which stops at the first prefix whose value decreases; the prefix values
    are not always unimodal, so it can stop early (e.g. ``a = (3, 1, 1)``, ``c = (10, 8, 8)``: the
    prefix values are 0.18, 0.178, 0.192; see ``docs/fscpu.md``).

    Parameters
    ----------
    a : array-like of int, shape (K,)
        Labeled positives per cluster.
    c : array-like of int, shape (K,)
        Rows per cluster (``c_k >= a_k``; empty clusters, ``c_k = 0``, are never chosen).
    early_stop : bool, default=False
        Stop at the first decrease (paper's Algorithm 1 read literally).

    Returns
    -------
    value : float
        ``max_S J(S)`` (0.0 when no row is labeled).
    chosen : ndarray of bool, shape (K,)
        The largest optimal union.

    Examples
    --------
    >>> value, chosen = best_cluster_union([3, 1, 0], [4, 10, 6])
    >>> round(value, 4), chosen.tolist()
    (0.5625, [True, False, False])
    >>> round(best_cluster_union([3, 1, 1], [10, 8, 8])[0], 4)
    0.1923
    >>> round(best_cluster_union([3, 1, 1], [10, 8, 8], early_stop=True)[0], 4)
    0.18
    """
    a_arr = np.asarray(a)
    c_arr = np.asarray(c)
    if a_arr.shape != c_arr.shape or a_arr.ndim != 1:
        raise ValueError(
            f"a and c must be 1-D of equal length; got {a_arr.shape} and {c_arr.shape}"
        )
    if np.any(a_arr < 0) or np.any(a_arr > c_arr):
        raise ValueError("cluster counts must satisfy 0 <= a_k <= c_k")
    K = a_arr.shape[0]
    chosen = np.zeros(K, dtype=bool)
    # exact integer arithmetic: J values are compared as A^2 * C' versus A'^2 * C
    ai = [int(v) for v in a_arr]
    ci = [int(v) for v in c_arr]
    total = sum(ai)
    if total == 0:
        return 0.0, chosen
    idx = [k for k in range(K) if ci[k] > 0]

    # descending ratio a/c (exact via cross products), then larger a, then lower index
    def cmp(k, j):
        lhs, rhs = ai[k] * ci[j], ai[j] * ci[k]
        if lhs != rhs:
            return -1 if lhs > rhs else 1
        if ai[k] != ai[j]:
            return -1 if ai[k] > ai[j] else 1
        return -1 if k < j else 1

    order = sorted(idx, key=cmp_to_key(cmp))
    big_a = big_c = 0
    best_a, best_c, best_len = 0, 1, 0
    for pos, k in enumerate(order):
        prev_a, prev_c = big_a, big_c
        big_a, big_c = big_a + ai[k], big_c + ci[k]
        if early_stop and pos > 0 and big_a * big_a * prev_c < prev_a * prev_a * big_c:
            break
        if best_len == 0 or big_a * big_a * best_c >= best_a * best_a * big_c:
            best_a, best_c, best_len = big_a, big_c, pos + 1
    chosen[order[:best_len]] = True
    return best_a * best_a / (total * best_c), chosen


def cluster_objective(
    labels, s, n_clusters: int | None = None, *, early_stop: bool = False
) -> float:
    """FSCPU's ``f(m)`` for one clustering: ``max_S J(S)`` of its cluster counts."""
    a, c = cluster_counts(labels, s, n_clusters)
    return best_cluster_union(a, c, early_stop=early_stop)[0]
