"""Numba kernels of the fast Gaussian-mixture EM (``weakfs.pu._fscpu._gmm``)."""

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


@njit(cache=True, nogil=True)
def csr_rows(X):
    """Row-compressed nonzeros of a dense ``X``: ``(indptr, indices, data, n_pairs)``.

    ``n_pairs`` is the number of nonzero products ``x_a x_b`` (``a <= b``) over all rows,
    ``sum_i nnz_i (nnz_i + 1) / 2``: the work of the sparse full-covariance EM pass.
    """
    n, d = X.shape
    nnz = 0
    for i in range(n):
        for j in range(d):
            if X[i, j] != 0.0:
                nnz += 1
    indptr = np.empty(n + 1, dtype=np.int64)
    indices = np.empty(nnz, dtype=np.int64)
    data = np.empty(nnz)
    p = 0
    pairs = 0
    indptr[0] = 0
    for i in range(n):
        for j in range(d):
            v = X[i, j]
            if v != 0.0:
                indices[p] = j
                data[p] = v
                p += 1
        m = p - indptr[i]
        pairs += m * (m + 1) // 2
        indptr[i + 1] = p
    return indptr, indices, data, pairs


@njit(cache=True, nogil=True)
def row_terms(indptr, indices, data, n_features):
    """Per row, the products the fused EM pass needs, with their slot in a coefficient table.

    The table has ``d (d + 1) / 2 + d`` rows: the upper triangle ``a <= b`` packed row by row
    (slot ``a (2d - a - 1) / 2 + b``, the order of ``numpy.triu_indices(d)``), then one slot per
    feature.  For the nonzeros of a row: the product ``x_a x_b`` in its pair slot and ``x_a``
    in its feature slot.  Returns ``(tptr, tidx, tval)`` in CSR layout, the indices unsigned
    (``uint64``: numba then indexes without negative-index wraparound checks).
    """
    n = indptr.shape[0] - 1
    d = n_features
    n_pairs = d * (d + 1) // 2
    count = 0
    for i in range(n):
        m = indptr[i + 1] - indptr[i]
        count += m * (m + 1) // 2 + m
    tptr = np.empty(n + 1, dtype=np.uint64)
    tidx = np.empty(count, dtype=np.uint64)
    tval = np.empty(count)
    t = 0
    tptr[0] = 0
    for i in range(n):
        start = indptr[i]
        end = indptr[i + 1]
        for p in range(start, end):
            a = indices[p]
            xa = data[p]
            tidx[t] = n_pairs + a
            tval[t] = xa
            t += 1
            row = a * (2 * d - a - 1) // 2
            for q in range(p, end):
                tidx[t] = row + indices[q]
                tval[t] = xa * data[q]
                t += 1
        tptr[i + 1] = t
    return tptr, tidx, tval


@njit(cache=True, nogil=True, inline="always")
def _dot12(tidx, tval, start, end, t0, t1, t2, const, c, acc):
    """``acc[c:c+12] = const[c:c+12] + sum_t tval[t] * table[tidx[t], c:c+12]`` (3 chunks).

    Twelve scalar accumulators stay in registers for the whole row (numba does not SLP-vectorise
    by default, so the lanes are spelled out, and :func:`_dot4` repeats the pattern for one chunk:
    a loop over lanes would keep the sums in memory); the chunks ``t0``, ``t1``, ``t2`` are
    C-contiguous (slots, 4) planes and the indices unsigned, so no wraparound checks.
    """
    a0 = const[c]
    a1 = const[c + 1]
    a2 = const[c + 2]
    a3 = const[c + 3]
    a4 = const[c + 4]
    a5 = const[c + 5]
    a6 = const[c + 6]
    a7 = const[c + 7]
    a8 = const[c + 8]
    a9 = const[c + 9]
    a10 = const[c + 10]
    a11 = const[c + 11]
    for t in range(start, end):
        j = tidx[t]
        v = tval[t]
        a0 += v * t0[j, 0]
        a1 += v * t0[j, 1]
        a2 += v * t0[j, 2]
        a3 += v * t0[j, 3]
        a4 += v * t1[j, 0]
        a5 += v * t1[j, 1]
        a6 += v * t1[j, 2]
        a7 += v * t1[j, 3]
        a8 += v * t2[j, 0]
        a9 += v * t2[j, 1]
        a10 += v * t2[j, 2]
        a11 += v * t2[j, 3]
    acc[c] = a0
    acc[c + 1] = a1
    acc[c + 2] = a2
    acc[c + 3] = a3
    acc[c + 4] = a4
    acc[c + 5] = a5
    acc[c + 6] = a6
    acc[c + 7] = a7
    acc[c + 8] = a8
    acc[c + 9] = a9
    acc[c + 10] = a10
    acc[c + 11] = a11


@njit(cache=True, nogil=True, inline="always")
def _dot4(tidx, tval, start, end, t0, const, c, acc):
    """:func:`_dot12` for one chunk of four components."""
    a0 = const[c]
    a1 = const[c + 1]
    a2 = const[c + 2]
    a3 = const[c + 3]
    for t in range(start, end):
        j = tidx[t]
        v = tval[t]
        a0 += v * t0[j, 0]
        a1 += v * t0[j, 1]
        a2 += v * t0[j, 2]
        a3 += v * t0[j, 3]
    acc[c] = a0
    acc[c + 1] = a1
    acc[c + 2] = a2
    acc[c + 3] = a3


@njit(cache=True, nogil=True)
def em_pass_terms(tptr, tidx, tval, table, const, mode, resp, stats_out, nk_out):
    """One fused pass of EM over precomputed row products (see :func:`row_terms`).

    Row ``i``'s log-density under component ``k`` is
    ``const[k] + sum_t tval[t] * table[k // 4, tidx[t], k % 4]`` over the row's terms (``tptr``
    and ``tidx`` unsigned); ``table`` holds ``-Lambda_k[a, a] / 2`` / ``-Lambda_k[a, b]``
    (``a < b``) in the pair slots and ``(Lambda_k mu_k)[a]`` in the feature slots
    (:func:`gaussian_terms`), in planes of four components: shape ``(Kp / 4, slots, 4)``, with
    ``Kp`` the number ``K`` of components rounded up to a multiple of 4 (the padding components
    have ``const = -inf``-like values, so zero responsibility).  The sums of a row are kept in
    registers, twelve components at a time, then four.

    ``mode`` 0: E-step only (responsibilities into ``resp``); 1: E-step, then accumulate the
    M-step statistics ``stats_out[slot, k] = sum_i r_ik * term`` (shape ``(slots, Kp)``) and
    ``nk_out[k] = sum_i r_ik`` (zeroed first); 2: statistics only, from the given ``resp``.
    Returns the sum over rows of the log-likelihood (0 in mode 2).
    """
    n = tptr.shape[0] - 1
    K = resp.shape[1]
    n_chunks = table.shape[0]
    Kp = 4 * n_chunks
    total = 0.0
    acc = np.zeros(Kp)
    if mode != 0:
        stats_out[:] = 0.0
        nk_out[:] = 0.0
    for i in range(n):
        start = tptr[i]
        end = tptr[i + 1]
        if mode != 2:
            q = 0
            while q + 3 <= n_chunks:
                _dot12(
                    tidx, tval, start, end, table[q], table[q + 1], table[q + 2], const, 4 * q, acc
                )
                q += 3
            while q < n_chunks:
                _dot4(tidx, tval, start, end, table[q], const, 4 * q, acc)
                q += 1
            mx = acc[0]
            for k in range(1, K):
                if acc[k] > mx:
                    mx = acc[k]
            tot = 0.0
            for k in range(Kp):
                diff = acc[k] - mx
                # exp underflows to exactly 0 below -745.2: skip the call (same result)
                e = math.exp(diff) if diff > -746.0 else 0.0
                acc[k] = e
                tot += e
            total += mx + math.log(tot)
            inv = 1.0 / tot
            for k in range(Kp):
                acc[k] *= inv
            for k in range(K):
                resp[i, k] = acc[k]
        else:
            for k in range(K):
                acc[k] = resp[i, k]
        if mode != 0:
            for k in range(K):
                nk_out[k] += acc[k]
            # the terms of a row have distinct slots: a plain loop over the components of a
            # contiguous stats row, which LLVM's loop vectoriser handles
            for t in range(start, end):
                srow = stats_out[tidx[t]]
                v = tval[t]
                for k in range(Kp):
                    srow[k] += v * acc[k]
    return total


@njit(cache=True, nogil=True, inline="always")
def _precision_factor(cov, L, U):
    """Cholesky ``cov = L L^T`` into ``L`` and ``U = (L^-1)^T`` (upper triangular, ``U U^T`` the
    precision) into ``U``; returns ``log det U`` (NaN if ``cov`` is not positive definite)."""
    d = cov.shape[0]
    # Cholesky, lower triangle of L (row-oriented: inner loops run along rows of L)
    for j in range(d):
        s = cov[j, j]
        for c in range(j):
            s -= L[j, c] * L[j, c]
        if not s > 0.0:
            return np.nan
        ljj = math.sqrt(s)
        L[j, j] = ljj
        for r in range(j + 1, d):
            t = cov[r, j]
            for c in range(j):
                t -= L[r, c] * L[j, c]
            L[r, j] = t / ljj
    # column j of L^-1 (row j of U) by forward substitution
    log_det = 0.0
    for j in range(d):
        log_det -= math.log(L[j, j])
        U[j, j] = 1.0 / L[j, j]
        for r in range(j + 1, d):
            t = 0.0
            for c in range(j, r):
                t -= L[r, c] * U[j, c]
            U[j, r] = t / L[r, r]
    return log_det


@njit(cache=True, nogil=True)
def dense_terms(cov, means, weights, stack_out, const_out, cond_out):
    """E-step coefficients of :func:`dense_em_block` from full covariances ``cov`` (K, d, d).

    With ``U_k = (L_k^-1)^T`` (:func:`_precision_factor`; ``U_k U_k^T`` is the precision):
    ``stack_out[k*d + l, :d]`` = column ``l`` of ``U_k``, ``stack_out[k*d + l, d] = -(U_k^T
    mu_k)_l`` (so ``stack_out @ [x, 1] = U_k^T (x - mu_k)``, cast to the dtype of
    ``stack_out``), ``const_out[k] = -d log(2 pi) / 2 + log det U_k + log w_k``, and
    ``cond_out[k]`` the condition number of ``cov_k`` in the infinity norm (``>=`` the 2-norm
    one).  Returns False (outputs incomplete) if a covariance is not positive definite.
    """
    K, d, _ = cov.shape
    L = np.zeros((d, d))
    U = np.zeros((d, d))
    for k in range(K):
        log_det = _precision_factor(cov[k], L, U)
        if math.isnan(log_det):
            return False
        for col in range(d):
            row = k * d + col
            shift = 0.0
            for j in range(d):
                u = U[j, col] if j <= col else 0.0
                stack_out[row, j] = u
                shift += u * means[k, j]
            stack_out[row, d] = -shift
        const_out[k] = -0.5 * d * _LOG_2PI + log_det + math.log(weights[k])
        # ||cov||_inf ||cov^-1||_inf, cov^-1 = U U^T: (U U^T)[a, b] = sum_{c >= max(a, b)} ...
        norm = 0.0
        inv_norm = 0.0
        for a in range(d):
            row_sum = 0.0
            inv_sum = 0.0
            for b in range(d):
                row_sum += abs(cov[k, a, b])
                t = 0.0
                for c in range(max(a, b), d):
                    t += U[a, c] * U[b, c]
                inv_sum += abs(t)
            norm = max(norm, row_sum)
            inv_norm = max(inv_norm, inv_sum)
        cond_out[k] = norm * inv_norm
    return True


@njit(cache=True, nogil=True)
def gaussian_terms(cov, means, weights, table_out, const_out):
    """Coefficients of :func:`em_pass_terms` from full covariances ``cov`` (K, d, d).

    Cholesky ``cov_k = L L^T``, ``Lambda_k = L^-T L^-1``, log-determinant from ``diag(L)``;
    writes ``-Lambda_k / 2`` (diagonal) and ``-Lambda_k[a, b]`` (``a < b``) into the packed pair
    slots of ``table_out`` (chunked: component ``k`` at ``[k // 4, slot, k % 4]``),
    ``Lambda_k mu_k`` into its feature slots, and
    ``-(d log 2 pi + mu_k^T Lambda_k mu_k) / 2 + log det Lambda_k^(1/2) + log w_k`` into
    ``const_out``.  Returns False (outputs incomplete) if a covariance is not positive definite.
    """
    K, d, _ = cov.shape
    n_pairs = d * (d + 1) // 2
    L = np.zeros((d, d))
    U = np.zeros((d, d))  # U = (L^-1)^T, upper triangular: U[a, c] = L^-1[c, a]
    lam = np.empty((d, d))
    for k in range(K):
        log_det = _precision_factor(cov[k], L, U)
        if math.isnan(log_det):
            return False
        # Lambda[a, b] = sum_c U[a, c] U[b, c] over c >= max(a, b)
        slot = 0
        for a in range(d):
            for b in range(a, d):
                t = 0.0
                for c in range(b, d):
                    t += U[a, c] * U[b, c]
                lam[a, b] = t
                lam[b, a] = t
                table_out[k // 4, slot, k % 4] = -0.5 * t if a == b else -t
                slot += 1
        mlm = 0.0
        for a in range(d):
            t = 0.0
            for b in range(d):
                t += lam[a, b] * means[k, b]
            table_out[k // 4, n_pairs + a, k % 4] = t
            mlm += t * means[k, a]
        const_out[k] = -0.5 * d * _LOG_2PI - 0.5 * mlm + log_det + math.log(weights[k])
    return True


@njit(cache=True, nogil=True)
def m_step_terms(stats, nk_raw, n, reg_covar, eps, diag, weights_out, means_out, cov_out):
    """Mixture parameters from the statistics of :func:`em_pass_terms` (the dense M-step).

    ``nk = nk_raw + eps``, ``weights = nk / n``, ``means = s1 / nk``; full: ``cov = S / nk -
    mu mu^T`` symmetrised from the packed upper triangle, plus ``reg_covar`` on the diagonal;
    diagonal model (``cov_out`` of shape (K, d)): ``max(s2 / nk - mu^2 + reg_covar, reg_covar)``.
    """
    K = nk_raw.shape[0]
    d = means_out.shape[1]
    n_pairs = d if diag else d * (d + 1) // 2
    for k in range(K):
        nk = nk_raw[k] + eps
        weights_out[k] = nk / n
        for a in range(d):
            means_out[k, a] = stats[n_pairs + a, k] / nk
        if diag:
            for a in range(d):
                v = stats[a, k] / nk - means_out[k, a] * means_out[k, a] + reg_covar
                cov_out[k, a, 0] = v if v > reg_covar else reg_covar
        else:
            slot = 0
            for a in range(d):
                for b in range(a, d):
                    v = stats[slot, k] / nk - means_out[k, a] * means_out[k, b]
                    cov_out[k, a, b] = v
                    cov_out[k, b, a] = v
                    slot += 1
                cov_out[k, a, a] += reg_covar


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
        q = 0
        while q + 3 <= n_chunks:
            _dot12(
                indices, data, start, end, planes[q], planes[q + 1], planes[q + 2], zero, 4 * q, dot
            )
            q += 3
        while q < n_chunks:
            _dot4(indices, data, start, end, planes[q], zero, 4 * q, dot)
            q += 1
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


@njit(cache=True, nogil=True)
def row_terms_diag(indptr, indices, data, n_features):
    """:func:`row_terms` for a diagonal model: ``x_a^2`` in slot ``a``, ``x_a`` in ``d + a``."""
    n = indptr.shape[0] - 1
    nnz = indptr[n]
    tptr = (2 * indptr).astype(np.uint64)
    tidx = np.empty(2 * nnz, dtype=np.uint64)
    tval = np.empty(2 * nnz)
    for p in range(nnz):
        a = indices[p]
        v = data[p]
        tidx[2 * p] = n_features + a
        tval[2 * p] = v
        tidx[2 * p + 1] = a
        tval[2 * p + 1] = v * v
    return tptr, tidx, tval


@njit(cache=True, nogil=True)
def gaussian_terms_diag(var, means, weights, table_out, const_out):
    """:func:`gaussian_terms` for diagonal covariances ``var`` (K, d) (always positive)."""
    K, d = var.shape
    for k in range(K):
        c = -0.5 * d * _LOG_2PI + math.log(weights[k])
        for a in range(d):
            prec = 1.0 / var[k, a]
            table_out[k // 4, a, k % 4] = -0.5 * prec
            table_out[k // 4, d + a, k % 4] = means[k, a] * prec
            c += -0.5 * means[k, a] * means[k, a] * prec + 0.5 * math.log(prec)
        const_out[k] = c
