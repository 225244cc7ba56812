"""Numba kernels of the dense-data EM (``precision="mixed"`` or ``"float64"``): E-step from one
BLAS product for all components, fused softmax, M-step moments (``weakfs.pu._fscpu._gmm``)."""

from __future__ import annotations

import ctypes
import math

import numpy as np
from numba import njit
from numba.extending import get_cython_function_address

_LOG_2PI = math.log(2.0 * math.pi)


@njit(cache=True, nogil=True, inline="always")
def _softmax_row(resp_out, log_norm_out, i, mx):
    """Turn row ``i`` of log-densities into responsibilities; its log-sum-exp goes to log_norm."""
    K = resp_out.shape[1]
    tot = 0.0
    for k in range(K):
        tot += math.exp(resp_out[i, k] - mx)
    ln = mx + math.log(tot)
    log_norm_out[i] = ln
    for k in range(K):
        resp_out[i, k] = math.exp(resp_out[i, k] - ln)


_LOG2E = 1.4426950408889634
_LN2_HI = 6.93147180369123816490e-01  # fdlibm's split of ln 2: n * _LN2_HI is exact
_LN2_LO = 1.90821492927058770002e-10


@njit(cache=True, nogil=True, inline="always")
def _exp_shifted(row, mx, bits, tot):
    """``row[i] = exp(row[i] - mx[i])`` (``row <= mx``), ``tot[i] += row[i]``, vectorised.

    ``math.exp`` is a scalar library call (numba has no vector math library here); this is
    ``exp(x) = 2^n exp(t)``, ``n = round(x / ln 2)``, ``|t| <= ln 2 / 2``, ``exp(t)`` by its
    Taylor polynomial of degree 14 (truncation below 1e-17) and ``2^n`` built in the exponent
    bits (``bits``, an int64 work row): within 1 ulp of ``math.exp``.  Below ``x = -708``
    (``exp(x) < 1e-307``, subnormal) the result is 0.
    """
    scale = bits.view(np.float64)
    B = row.shape[0]
    for i in range(B):
        x = row[i] - mx[i]
        xc = max(x, -708.0)
        n = math.floor(xc * _LOG2E + 0.5)
        t = xc - n * _LN2_HI - n * _LN2_LO
        p = 1.0 / 87178291200.0
        p = p * t + 1.0 / 6227020800.0
        p = p * t + 1.0 / 479001600.0
        p = p * t + 1.0 / 39916800.0
        p = p * t + 1.0 / 3628800.0
        p = p * t + 1.0 / 362880.0
        p = p * t + 1.0 / 40320.0
        p = p * t + 1.0 / 5040.0
        p = p * t + 1.0 / 720.0
        p = p * t + 1.0 / 120.0
        p = p * t + 1.0 / 24.0
        p = p * t + 1.0 / 6.0
        p = p * t + 0.5
        p = p * t + 1.0
        p = p * t + 1.0
        bits[i] = (np.int64(n) + 1023) << 52
        row[i] = p if x >= -708.0 else 0.0
    for i in range(B):
        e = row[i] * scale[i]
        row[i] = e
        tot[i] += e


@njit(cache=True, nogil=True, inline="always")
def _gemm(gemm, A, B, C, ints, scalars):
    """``C = A @ B`` for row-major 2-D arrays with unit inner strides, by Fortran BLAS ``gemm``.

    Row-major ``C = A B`` is column-major ``C^T = B^T A^T``, so ``gemm("N", "N", ...)`` with the
    operands swapped; leading dimensions from the row strides (views of larger arrays work).
    ``ints`` (int32, 7) and ``scalars`` (``[1, 0]`` of the operands' dtype) are work arrays.
    """
    item = C.itemsize
    ints[0] = 78  # "N"
    ints[1] = C.shape[1]
    ints[2] = C.shape[0]
    ints[3] = A.shape[1]
    ints[4] = B.strides[0] // item
    ints[5] = A.strides[0] // item
    ints[6] = C.strides[0] // item
    p = ints.ctypes.data
    gemm(
        p, p, p + 4, p + 8, p + 12, scalars.ctypes.data,
        B.ctypes.data, p + 16, A.ctypes.data, p + 20,
        scalars.ctypes.data + item, C.ctypes.data, p + 24,
    )  # fmt: skip


#: Rows whose responsibility for a component is at most this are left out of its M-step sums
#: (with many well-separated components most are): they would change them by less than 1e-35.
TINY_RESP = 1e-40


@njit(cache=True, nogil=True)
def dense_em_pass(
    e_gemm, m_gemm, X1t, X1, Xt, stack_t, const, centers, estep, stats, resp, zbuf, wbuf, acc, nk
):
    """One pass of the dense full-covariance EM over all rows, in blocks, without the GIL.

    ``X1t`` = ``[X, 1]^T`` (d + 1, n) in the dtype of the E-step product and ``e_gemm`` the
    Fortran BLAS ``gemm`` of that dtype; ``X1`` = ``[X, 1]`` (n, d + 1) in the dtype of the
    M-step products and ``m_gemm`` its ``gemm`` (:func:`blas_gemm`); ``Xt`` = ``X^T`` (float64).
    Per block of ``B = zbuf.size // (K d)`` rows:

    * E-step (``estep``): ``Z^T = stack_t @ [X_b, 1]^T`` (one product for all ``K``
      components, :func:`dense_terms`) into ``zbuf``, then :func:`dense_em_block`
      (log-densities and responsibilities into ``resp``, in float64);
    * statistics (``stats``; from ``resp`` as given when not ``estep``): ``acc`` (K d, d + 1),
      float64 across blocks, row ``k*d + j``: ``sum_i r_ik (x_ij - c_kj) [x_i, 1]``, the second
      and first moments about the centers ``c_k`` (the current means); ``nk`` the float64 sums
      of the responsibilities.  When most responsibilities of the block exceed
      :data:`TINY_RESP`, one product ``W^T [X_b, 1]`` for all components, ``W^T = [r_1 (X_b -
      c_1), ..., r_K (X_b - c_K)]^T`` (:func:`_weighted_rows`); otherwise one product per
      component over its rows above :data:`TINY_RESP` only (:func:`_gathered_moments`).

    Returns the sum of the log-likelihoods of all rows (0 without ``estep``).
    """
    n = Xt.shape[1]
    Kd, d1 = acc.shape
    K = const.shape[0]
    B = zbuf.shape[0] // Kd
    ints = np.empty(7, dtype=np.int32)
    e_scalars = np.zeros(2, dtype=zbuf.dtype)
    e_scalars[0] = 1.0
    m_scalars = np.zeros(2, dtype=wbuf.dtype)
    m_scalars[0] = 1.0
    acc_block = np.empty((Kd, d1), dtype=wbuf.dtype)
    gathered = np.empty((B, d1), dtype=wbuf.dtype)
    rows_k = np.empty(B, dtype=np.int64)
    if stats:
        acc[:] = 0.0
        nk[:] = 0.0
    total = 0.0
    for start in range(0, n, B):
        rows = min(start + B, n) - start
        Zt = zbuf[: Kd * rows].reshape((Kd, rows))
        if estep:
            _gemm(e_gemm, stack_t, X1t[:, start : start + rows], Zt, ints, e_scalars)
            total += dense_em_block(Zt, const, start, resp)
        if not stats:
            continue
        active = 0
        for i in range(start, start + rows):
            for k in range(K):
                nk[k] += resp[i, k]
                if resp[i, k] > TINY_RESP:
                    active += 1
        if 2 * active >= K * rows:
            Wt = wbuf[: Kd * rows].reshape((Kd, rows))
            _weighted_rows(Wt, resp, Xt, start, centers)
            _gemm(m_gemm, Wt, X1[start : start + rows], acc_block, ints, m_scalars)
            for a in range(Kd):
                for b in range(d1):
                    acc[a, b] += acc_block[a, b]
        else:
            _gathered_moments(
                m_gemm, resp, Xt, X1, start, rows, centers, wbuf, gathered, rows_k, acc_block,
                acc, ints, m_scalars,
            )  # fmt: skip
    return total


@njit(cache=True, nogil=True)
def dense_em_block(Zt, const, start, resp):
    """E-step of rows ``start .. start + B`` of :func:`dense_em_pass`, rows along the last axis.

    ``Zt[k*d + j, i] = (U_k^T (x_i - mu_k))_j`` (float32 or float64), ``log p_k(x_i) = const[k]
    - ||z||^2 / 2`` (float64); responsibilities (:func:`_exp_shifted`) into ``resp[start + i]``.
    Every inner loop runs along the rows (contiguous), so LLVM vectorises it.  Returns the
    block's sum of log-likelihoods (float64).
    """
    K = const.shape[0]
    Kd, B = Zt.shape
    d = Kd // K
    total = 0.0
    r = np.empty((K, B))
    for k in range(K):
        rk = r[k]
        for i in range(B):
            rk[i] = 0.0
        for j in range(d):
            zj = Zt[k * d + j]
            for i in range(B):
                v = np.float64(zj[i])
                rk[i] += v * v
        c = const[k]
        for i in range(B):
            rk[i] = c - 0.5 * rk[i]
    mx = r[0].copy()
    for k in range(1, K):
        rk = r[k]
        for i in range(B):
            mx[i] = max(mx[i], rk[i])
    tot = np.zeros(B)
    bits = np.empty(B, dtype=np.int64)
    for k in range(K):
        _exp_shifted(r[k], mx, bits, tot)
    for i in range(B):
        total += mx[i] + math.log(tot[i])
        tot[i] = 1.0 / tot[i]
    for k in range(K):
        rk = r[k]
        for i in range(B):
            resp[start + i, k] = rk[i] * tot[i]
    return total


@njit(cache=True, nogil=True)
def _weighted_rows(Wt, resp, Xt, start, centers):
    """``Wt[k*d + j, i] = r_ik (x_ij - c_kj)`` for rows ``start .. start + B`` (rows along the
    last axis: vectorised)."""
    K, d = centers.shape
    B = Wt.shape[1]
    r = np.empty(B)
    for k in range(K):
        for i in range(B):
            r[i] = resp[start + i, k]
        for j in range(d):
            xj = Xt[j, start : start + B]
            cj = centers[k, j]
            wj = Wt[k * d + j]
            for i in range(B):
                wj[i] = r[i] * (xj[i] - cj)


@njit(cache=True, nogil=True)
def _gathered_moments(
    m_gemm, resp, Xt, X1, start, rows, centers, wbuf, gathered, rows_k, acc_block, acc, ints,
    scalars,
):  # fmt: skip
    """:func:`dense_em_pass`'s moments of one block, component by component, over the rows
    whose responsibility exceeds :data:`TINY_RESP`: ``acc[k*d:(k+1)*d] += W_k^T [X, 1]_k``."""
    K, d = centers.shape
    d1 = d + 1
    for k in range(K):
        m = 0
        for i in range(start, start + rows):
            if resp[i, k] > TINY_RESP:
                rows_k[m] = i
                m += 1
        if m == 0:
            continue
        Wk = wbuf[: d * m].reshape((d, m))
        Xk = gathered[:m]
        for q in range(m):
            i = rows_k[q]
            for j in range(d1):
                Xk[q, j] = X1[i, j]
        for j in range(d):
            cj = centers[k, j]
            xj = Xt[j]
            wj = Wk[j]
            for q in range(m):
                i = rows_k[q]
                wj[q] = resp[i, k] * (xj[i] - cj)
        out = acc_block[:d]
        _gemm(m_gemm, Wk, Xk, out, ints, scalars)
        for a in range(d):
            for b in range(d1):
                acc[k * d + a, b] += out[a, b]


_GEMM_TYPE = ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * 13))
_GEMMS: dict = {}


def blas_gemm(dtype):
    """scipy's Fortran BLAS ``sgemm`` / ``dgemm`` for ``dtype`` (float32 / float64), callable
    from numba (passed as an argument, so the compiled kernels stay cacheable)."""
    name = "sgemm" if np.dtype(dtype) == np.float32 else "dgemm"
    if name not in _GEMMS:
        address = get_cython_function_address("scipy.linalg.cython_blas", name)
        _GEMMS[name] = _GEMM_TYPE(address)
    return _GEMMS[name]


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
        _softmax_row(resp_out, log_norm_out, i, mx)
