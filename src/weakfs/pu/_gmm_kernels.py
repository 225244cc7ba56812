"""Numba kernels of the fast Gaussian-mixture EM (``weakfs.pu._gmm``)."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

_LOG_2PI = math.log(2.0 * math.pi)


@njit(cache=True, nogil=True)
def estep_full(Y, shift, log_det, log_weights, n_features, resp_out, log_norm_out):
    """Finish the full-covariance E-step from ``Y = X @ [P_1 ... P_K]``.

    Row ``i``, component ``k``: ``sq = ||Y[i, k*d:(k+1)*d] - shift[k*d:(k+1)*d]||^2``,
    ``log p = -(d log 2 pi + sq) / 2 + log_det[k] + log_weights[k]``; writes the responsibilities
    into ``resp_out`` and the per-row log-likelihood (log-sum-exp) into ``log_norm_out``.
    """
    n = Y.shape[0]
    K = log_det.shape[0]
    d = n_features
    const = -0.5 * d * _LOG_2PI
    for i in range(n):
        mx = -np.inf
        for k in range(K):
            s = 0.0
            base = k * d
            for j in range(d):
                v = Y[i, base + j] - shift[base + j]
                s += v * v
            lp = const - 0.5 * s + log_det[k] + log_weights[k]
            resp_out[i, k] = lp
            if lp > mx:
                mx = lp
        tot = 0.0
        for k in range(K):
            tot += math.exp(resp_out[i, k] - mx)
        ln = mx + math.log(tot)
        log_norm_out[i] = ln
        for k in range(K):
            resp_out[i, k] = math.exp(resp_out[i, k] - ln)


@njit(cache=True, nogil=True)
def estep_from_sq(sq, log_det, log_weights, n_features, resp_out, log_norm_out):
    """The same from precomputed squared Mahalanobis distances ``sq`` (n, K) (diagonal model)."""
    n, K = sq.shape
    const = -0.5 * n_features * _LOG_2PI
    for i in range(n):
        mx = -np.inf
        for k in range(K):
            lp = const - 0.5 * sq[i, k] + log_det[k] + log_weights[k]
            resp_out[i, k] = lp
            if lp > mx:
                mx = lp
        tot = 0.0
        for k in range(K):
            tot += math.exp(resp_out[i, k] - mx)
        ln = mx + math.log(tot)
        log_norm_out[i] = ln
        for k in range(K):
            resp_out[i, k] = math.exp(resp_out[i, k] - ln)


@njit(cache=True, nogil=True)
def weighted_rows(X, resp, out):
    """``out[i, k*d + j] = resp[i, k] * X[i, j]`` (for one matrix product of all second moments)."""
    n, d = X.shape
    K = resp.shape[1]
    for i in range(n):
        for k in range(K):
            r = resp[i, k]
            base = k * d
            for j in range(d):
                out[i, base + j] = r * X[i, j]
