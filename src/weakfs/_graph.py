"""Nearest-neighbour graphs over the rows of ``X`` and their Laplacians.

The graph helpers shared by the semi-supervised selectors (Semi-Fisher, SSLS, sSelect, JSFS) and
the PU classifiers with a graph regulariser (GKF-PUAL, PUAL, GLLC).  Every graph is symmetric:
``i ~ j`` when ``j`` is among the ``k`` nearest other rows of ``i`` or ``i`` among those of ``j``.
The neighbour searches run under :func:`weakfs._threads.limit_threads` for their ``n × n``
distances: one thread up to about 1,000 rows, where more only wait for each other.

:func:`knn_laplacian` keeps its last few neighbour searches (:func:`_kneighbors`): a tuning grid
refits the same training rows of a fold with other parameters (σ among them), and the neighbours
depend on the rows and ``K`` only.  A search is reused only for rows equal, element by element,
to the ones it was made on, so results do not depend on the cache.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

import numpy as np
from scipy import sparse
from sklearn.neighbors import NearestNeighbors, kneighbors_graph

from weakfs._threads import limit_threads
from weakfs._validation import check_n_neighbors

__all__ = ["heat_kernel_graph", "knn_laplacian", "knn_mask", "laplacian_quadratic_form"]


#: the neighbour searches :func:`_kneighbors` keeps (their rows, distances and indices), at most
#: this many bytes in all: a 4-fold search's folds and its refit at 20,000 x 20 fit in it
KNN_CACHE_BYTES = 32 * 2**20
_knn_cache: OrderedDict = OrderedDict()
_knn_cache_lock = threading.Lock()  # searches run in threads too (joblib's threading backend)


def _kneighbors(X: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Distances and indices of the ``k`` nearest other rows of every row of ``X`` (read-only).

    The ``KNN_CACHE_BYTES`` most recent searches are kept and reused for a ``X`` equal to the
    one searched (compared element by element, not only by its hash).
    """
    X = np.ascontiguousarray(X)
    n = X.shape[0]
    size = X.nbytes + n * (k + 1) * 16  # the kept copy of X, its distances and indices
    key = (X.shape, X.dtype.str, k, hashlib.blake2b(X, digest_size=16).digest())
    with _knn_cache_lock:
        hit = _knn_cache.get(key)
        if hit is not None and np.array_equal(hit[0], X):
            _knn_cache.move_to_end(key)
            return hit[1], hit[2]
    with limit_threads((n, n)):
        dist, ind = NearestNeighbors(n_neighbors=k + 1).fit(X).kneighbors(X)
    dist.flags.writeable = ind.flags.writeable = False
    if size <= KNN_CACHE_BYTES:
        with _knn_cache_lock:
            _knn_cache[key] = (X.copy(), dist, ind, size)
            while sum(entry[3] for entry in _knn_cache.values()) > KNN_CACHE_BYTES:
                _knn_cache.popitem(last=False)
    return dist, ind


def knn_mask(X: np.ndarray, n_neighbors: int) -> sparse.csr_matrix:
    """Symmetric 0/1 k-nearest-neighbour graph of the rows of ``X``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    n_neighbors : int
        Neighbours of each row (fewer than ``n_samples``).

    Returns
    -------
    W : sparse matrix of shape (n_samples, n_samples)
        ``W_ij = 1`` when ``j`` is among the ``n_neighbors`` nearest rows of ``i`` or ``i`` among
        those of ``j``, else 0 (zero diagonal).
    """
    k = check_n_neighbors(n_neighbors, X.shape[0])
    with limit_threads((X.shape[0], X.shape[0])):
        g = kneighbors_graph(X, k, mode="connectivity", include_self=False)
    return ((g + g.T) > 0).astype(np.float64).tocsr()


def laplacian_quadratic_form(W, X: np.ndarray) -> np.ndarray:
    """``f^T (D - W) f`` for every column ``f`` of ``X``.

    Parameters
    ----------
    W : sparse matrix or ndarray of shape (n_samples, n_samples)
        Symmetric edge weights; ``D`` is the diagonal of its row sums.
    X : ndarray of shape (n_samples, n_features)

    Returns
    -------
    q : ndarray of shape (n_features,)
        ``q_j = sum over edges (i, l) of W_il (X_ij - X_lj)^2 / 2``, without forming ``D - W``.
    """
    deg = np.asarray(W.sum(axis=1)).ravel()
    WX = W @ X
    return (deg[:, None] * X * X).sum(axis=0) - (X * np.asarray(WX)).sum(axis=0)


def heat_kernel_graph(
    X: np.ndarray, n_neighbors: int, sigma: float | None
) -> tuple[sparse.csr_matrix, float]:
    """Symmetric k-NN graph with heat-kernel weights ``exp(-||xi - xj||^2 / (2 sigma^2))``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    n_neighbors : int
        Neighbours of each row (the edges of :func:`knn_mask`).
    sigma : float or None
        Kernel width.  ``None``: the square root of the median non-zero squared length of the
        graph's edges (1.0 if every edge has length zero), a local scale that costs O(n k) rather
        than the O(n^2) of all pairs.

    Returns
    -------
    W : sparse matrix of shape (n_samples, n_samples)
    sigma : float
        The width used.
    """
    mask = knn_mask(X, n_neighbors).tocoo()
    diff = X[mask.row] - X[mask.col]
    d2 = np.einsum("ij,ij->i", diff, diff)
    if sigma is None:
        positive = d2[d2 > 0]
        sigma = float(np.sqrt(np.median(positive))) if positive.size else 1.0
    w = np.exp(-d2 / (2.0 * float(sigma) ** 2))
    return sparse.csr_matrix((w, (mask.row, mask.col)), shape=mask.shape), float(sigma)


def knn_laplacian(X: np.ndarray, n_neighbors: int = 5, sigma: float = 1.0) -> sparse.csr_matrix:
    """Unnormalised Laplacian ``R = D - W`` of the symmetrised heat-kernel k-NN graph.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    n_neighbors : int, default=5
        Neighbours ``K`` of each row.
    sigma : float, default=1.0
        Kernel width.

    Returns
    -------
    R : sparse matrix of shape (n_samples, n_samples)
        ``W_ij = exp(-||x_i - x_j||^2 / (2 sigma^2))`` when ``j`` is among the ``K`` nearest
        neighbours of ``i`` or ``i`` among those of ``j`` (0 otherwise); ``D`` its row sums.
    """
    n = X.shape[0]
    k = check_n_neighbors(n_neighbors, n)
    dist, ind = _kneighbors(X, k)
    dist, ind = dist[:, 1:], ind[:, 1:]
    with np.errstate(under="ignore"):
        w = np.exp(-(dist**2) / (2.0 * sigma**2))
    W = sparse.csr_matrix((w.ravel(), (np.repeat(np.arange(n), k), ind.ravel())), shape=(n, n))
    W = W.maximum(W.T).tocsr()
    deg = np.asarray(W.sum(axis=1)).ravel()
    return (sparse.diags(deg) - W).tocsr()
