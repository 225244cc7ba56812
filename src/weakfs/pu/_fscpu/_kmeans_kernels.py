"""Numba kernels of k-means over row nonzeros, the start of the mixture EM (``_fscpu._gmm``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from weakfs.pu._fscpu._gmm_kernels import dot_chunks


@njit(cache=True, nogil=True)
def sq_distances_csr(indptr, indices, data, x_sq, centers, out):
    """``out[i, k] = max(||x_i||^2 - 2 x_i . c_k + ||c_k||^2, 0)`` over the nonzeros of ``x_i``.

    ``indptr`` and ``indices`` unsigned (``uint64``).  The dot products are summed in registers
    over planes of four centers, as :func:`em_pass_terms` (the same order of operations as a
    plain loop).
    """
    n = indptr.shape[0] - 1
    m, d = centers.shape
    n_chunks = (m + 3) // 4
    planes = np.zeros((n_chunks, d, 4))
    c_sq = np.zeros(4 * n_chunks)
    for k in range(m):
        for j in range(d):
            planes[k // 4, j, k % 4] = centers[k, j]
            c_sq[k] += centers[k, j] * centers[k, j]
    zero = np.zeros(4 * n_chunks)
    dot = np.empty(4 * n_chunks)
    for i in range(n):
        start = indptr[i]
        end = indptr[i + 1]
        dot_chunks(indices, data, start, end, planes, n_chunks, zero, dot)
        for k in range(m):
            v = x_sq[i] - 2.0 * dot[k] + c_sq[k]
            out[i, k] = v if v > 0.0 else 0.0


@njit(cache=True, nogil=True)
def sq_distances_from_dot(dot, x_sq, centers, out):
    """``out[i, k] = max(x_sq[i] - 2 dot[i, k] + ||c_k||^2, 0)`` from ``dot = X @ centers.T``."""
    n, m = dot.shape
    c_sq = np.zeros(m)
    for k in range(m):
        for j in range(centers.shape[1]):
            c_sq[k] += centers[k, j] * centers[k, j]
    for i in range(n):
        for k in range(m):
            v = x_sq[i] - 2.0 * dot[i, k] + c_sq[k]
            out[i, k] = v if v > 0.0 else 0.0


@njit(cache=True, nogil=True)
def lloyd_step(indptr, indices, data, dist, centers, labels):
    """One Lloyd step from the squared distances ``dist`` (n, K) of the rows to ``centers``.

    Rows in CSR (``indptr`` and ``indices`` unsigned, as :func:`sq_distances_csr`).  Same rules
    as scikit-learn's ``KMeans`` Lloyd loop: assign to the nearest center (lowest index on ties),
    move each center to the mean of its rows, relocate empty clusters to the rows farthest from
    their center.  Writes the new labels into ``labels``; returns ``(new_centers, shift, same)``:
    the total squared center shift and whether no label changed.
    """
    n = indptr.shape[0] - 1
    K, d = centers.shape
    sums = np.zeros((K, d))
    counts = np.zeros(K, dtype=np.int64)
    same = True
    for i in range(n):
        best = 0
        for k in range(1, K):
            if dist[i, k] < dist[i, best]:
                best = k
        if best != labels[i]:
            same = False
        labels[i] = best
        counts[best] += 1
        for p in range(indptr[i], indptr[i + 1]):
            sums[best, indices[p]] += data[p]
    new_centers = centers.copy()
    n_empty = 0
    for k in range(K):
        if counts[k] > 0:
            for j in range(d):
                new_centers[k, j] = sums[k, j] / counts[k]
        else:
            n_empty += 1
    if n_empty > 0:  # relocate empty clusters to the farthest rows, as scikit-learn
        own = np.empty(n)
        for i in range(n):
            own[i] = -dist[i, labels[i]]
        far = np.argsort(own)
        r = 0
        for k in range(K):
            if counts[k] == 0:
                row = far[r]
                r += 1
                for j in range(d):
                    new_centers[k, j] = 0.0
                for p in range(indptr[row], indptr[row + 1]):
                    new_centers[k, indices[p]] = data[p]
    shift = 0.0
    for k in range(K):
        for j in range(d):
            diff = new_centers[k, j] - centers[k, j]
            shift += diff * diff
    return new_centers, shift, same


@njit(cache=True, nogil=True)
def nearest_center(dist, labels):
    """Labels of the nearest centers (lowest index on ties) into ``labels``; returns the inertia."""
    n, K = dist.shape
    inertia = 0.0
    for i in range(n):
        best = 0
        for k in range(1, K):
            if dist[i, k] < dist[i, best]:
                best = k
        labels[i] = best
        inertia += dist[i, best]
    return inertia


@njit(cache=True, nogil=True)
def lloyd_csr(indptr, indices, data, x_sq, centers, max_iter, tol_abs):
    """Lloyd iterations of ``weakfs.pu._fscpu._gmm.kmeans`` on the nonzeros of the rows.

    ``indptr`` and ``indices`` unsigned (``uint64``, as :func:`sq_distances_csr`); the steps are
    :func:`lloyd_step` (scikit-learn's rules); stop when the labels no longer change or the total
    squared center shift is at most ``tol_abs``.  Returns ``(labels, centers, inertia)`` of the
    final assignment to the final centers.
    """
    n = indptr.shape[0] - 1
    dist = np.empty((n, centers.shape[0]))
    labels = np.full(n, -1, dtype=np.int64)
    for _ in range(max_iter):
        sq_distances_csr(indptr, indices, data, x_sq, centers, dist)
        centers, shift, same = lloyd_step(indptr, indices, data, dist, centers, labels)
        if same or shift <= tol_abs:
            break
    sq_distances_csr(indptr, indices, data, x_sq, centers, dist)
    inertia = nearest_center(dist, labels)
    return labels, centers, inertia
