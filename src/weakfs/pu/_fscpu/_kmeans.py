"""The k-means start of FSCPU's mixture: k-means++ seeding and Lloyd iterations, on dense rows
or on the row-nonzero passes of a sparse matrix (kernels in ``_kmeans_kernels.py``)."""

from __future__ import annotations

import numpy as np

from weakfs._validation import transient_random_state
from weakfs.pu._fscpu._gmm_kernels import csr_rows
from weakfs.pu._fscpu._kmeans_kernels import (
    lloyd_csr,
    lloyd_step,
    nearest_center,
    sq_distances_csr,
    sq_distances_from_dot,
)

__all__ = ["DENSE_KMEANS_FRACTION", "_kmeans", "_kmeans_plusplus", "kmeans"]

#: k-means takes its distances from BLAS products ``X @ C^T`` when more than this share of the
#: entries are nonzero, else from numba sums over the nonzeros of each row (same distances).
DENSE_KMEANS_FRACTION = 0.3


def _squared_distances(csr, x_sq: np.ndarray, centers: np.ndarray, X=None) -> np.ndarray:
    """Squared distances of the rows to ``centers``: over the nonzeros, or by BLAS given ``X``."""
    out = np.empty((x_sq.shape[0], centers.shape[0]))
    centers = np.ascontiguousarray(centers)
    if X is None:
        sq_distances_csr(*csr, x_sq, centers, out)
    else:
        sq_distances_from_dot(X @ centers.T, x_sq, centers, out)
    return out


def _kmeans_plusplus(
    X: np.ndarray, csr, k: int, x_sq: np.ndarray, rng, *, dense: bool = False
) -> np.ndarray:
    """Greedy k-means++ seeding (scikit-learn's: ``2 + floor(ln k)`` local trials per center).

    ``dense``: distances by BLAS products instead of over the nonzeros of the rows.
    """
    n = X.shape[0]
    Xd = X if dense else None
    n_trials = 2 + int(np.log(k))
    centers = np.empty((k, X.shape[1]))
    first = rng.randint(n)
    centers[0] = X[first]
    closest = _squared_distances(csr, x_sq, centers[:1], Xd)[:, 0]
    pot = closest.sum()
    for c in range(1, k):
        if pot <= 0:  # fewer distinct rows than clusters: duplicate rows
            candidates = rng.randint(n, size=n_trials)
        else:
            rand_vals = rng.random_sample(n_trials) * pot
            candidates = np.searchsorted(np.cumsum(closest), rand_vals)
            np.clip(candidates, None, n - 1, out=candidates)
        dist = _squared_distances(csr, x_sq, X[candidates], Xd)  # (n, trials)
        np.minimum(closest[:, None], dist, out=dist)
        pots = dist.sum(0)
        best = int(np.argmin(pots))
        pot = pots[best]
        closest = dist[:, best]
        centers[c] = X[candidates[best]]
    return centers


def kmeans(
    X: np.ndarray, n_clusters: int, *, max_iter: int = 300, tol: float = 1e-4, random_state=None
) -> tuple[np.ndarray, np.ndarray, float]:
    """Lloyd's k-means from k-means++ seeds (scikit-learn's ``KMeans(n_init=1)`` algorithm).

    Stops when the labels no longer change or the total squared center shift is at most
    ``tol * mean(var(X, axis=0))``.  Returns ``(labels, centers, inertia)``.  The distances
    are computed over the nonzero entries of each row (numba), which is exact and fast on
    sparse data, or by BLAS products when more than ``DENSE_KMEANS_FRACTION`` of the entries
    are nonzero.
    """
    X = np.ascontiguousarray(X, dtype=np.float64)
    rng = transient_random_state(random_state)  # FSCPU seeds every candidate by an int
    return _kmeans(X, csr_rows(X)[:3], n_clusters, max_iter, tol, rng)


def _kmeans(X, csr, n_clusters, max_iter, tol, rng):
    # unsigned indices: the numba distance kernel then indexes without wraparound checks
    csr = (csr[0].astype(np.uint64), csr[1].astype(np.uint64), csr[2])
    x_sq = (X * X).sum(1)
    tol_abs = tol * float(np.mean(np.var(X, axis=0)))
    dense = len(csr[2]) > DENSE_KMEANS_FRACTION * X.size
    centers = _kmeans_plusplus(X, csr, n_clusters, x_sq, rng, dense=dense)
    if dense:
        labels, centers, inertia = _lloyd_dense(X, csr, x_sq, centers, max_iter, tol_abs)
    else:
        labels, centers, inertia = lloyd_csr(*csr, x_sq, centers, max_iter, tol_abs)
    return labels.astype(np.intp), centers, float(inertia)


def _lloyd_dense(X, csr, x_sq, centers, max_iter, tol_abs):
    """:func:`lloyd_csr` with the distances from one BLAS product ``X @ C^T`` per step."""
    n = X.shape[0]
    dot = np.empty((n, centers.shape[0]))
    dist = np.empty_like(dot)
    labels = np.full(n, -1, dtype=np.int64)
    for _ in range(max_iter):
        sq_distances_from_dot(np.matmul(X, centers.T, out=dot), x_sq, centers, dist)
        centers, shift, same = lloyd_step(*csr, dist, centers, labels)
        if same or shift <= tol_abs:
            break
    sq_distances_from_dot(np.matmul(X, centers.T, out=dot), x_sq, centers, dist)
    return labels, centers, nearest_center(dist, labels)
