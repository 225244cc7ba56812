"""Numba kernels of the Gaussian-mixture EM over row nonzeros (sparse or mostly-zero data), the
shared Cholesky/precision terms and the M-step update (``weakfs.pu._fscpu._gmm``)."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

_LOG_2PI = math.log(2.0 * math.pi)
# relative margin about the condition-number limit inside which dense_terms computes the exact
# value: its bounds' rounding is below d * 1e-16
_COND_MARGIN = 1e-6


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


@njit(cache=True, nogil=True, inline="always")
def dot_chunks(tidx, tval, start, end, table, n_chunks, const, acc):
    """``acc[c] = const[c] + row . table[:, c]`` for every lane, three chunks at a time."""
    q = 0
    while q + 3 <= n_chunks:
        _dot12(tidx, tval, start, end, table[q], table[q + 1], table[q + 2], const, 4 * q, acc)
        q += 3
    while q < n_chunks:
        _dot4(tidx, tval, start, end, table[q], const, 4 * q, acc)
        q += 1


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
            dot_chunks(tidx, tval, start, end, table, n_chunks, const, acc)
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
def _precision_factor(cov, Lt, U, Ut, t):
    """Cholesky ``cov = L L^T`` (its transpose into ``Lt``) and ``U = (L^-1)^T`` (upper
    triangular, ``U U^T`` the precision) into ``U`` and its transpose into ``Ut``; ``t`` is a
    work vector of length d.  Returns ``log det U`` (NaN if ``cov`` is not positive definite).

    Each entry is the textbook dot product, its terms subtracted in ascending order:
    ``L[r, j] = (cov[r, j] - sum_{c<j} L[r, c] L[j, c]) / L[j, j]`` and ``U[j, r] = -sum_{j<=c<r}
    L[r, c] U[j, c] / L[r, r]``.  The loops run across the independent entries (all ``r`` of a
    column of ``L``, all ``j`` of a column of ``U``) in the innermost loop, so they vectorise
    while every entry keeps its order of operations: the results are bit-identical to the
    entry-by-entry loops.
    """
    d = cov.shape[0]
    # The inner loops run over views from index 0 to their length, so LLVM can drop numba's
    # negative-index checks and vectorise them (1.7x faster at d = 100 than indexing from j).
    # column j of L (row j of Lt): t[r] = cov[r, j] - sum_{c<j} L[r, c] L[j, c], r >= j
    for j in range(d):
        tail = t[j:]
        n_tail = tail.shape[0]
        cov_col = cov[j:, j]
        for r in range(n_tail):
            tail[r] = cov_col[r]
        for c in range(j):
            ljc = Lt[c, j]
            lrow = Lt[c, j:]
            for r in range(n_tail):
                tail[r] -= lrow[r] * ljc
        s = tail[0]
        if not s > 0.0:
            return np.nan
        ljj = math.sqrt(s)
        lcol = Lt[j, j:]
        lcol[0] = ljj
        for r in range(1, n_tail):
            lcol[r] = tail[r] / ljj
    log_det = 0.0
    for j in range(d):
        log_det -= math.log(Lt[j, j])
    # row r of Ut (column r of U): t[j] = -sum_{j<=c<r} L[r, c] U[j, c], j < r
    for r in range(d):
        head = t[:r]
        for j in range(r):
            head[j] = 0.0
        for c in range(r):
            lrc = Lt[c, r]
            urow = Ut[c, : c + 1]
            for j in range(c + 1):
                head[j] -= lrc * urow[j]
        lrr = Lt[r, r]
        ut_row = Ut[r]
        for j in range(r):
            u = head[j] / lrr
            ut_row[j] = u
            U[j, r] = u
        Ut[r, r] = 1.0 / lrr
        U[r, r] = Ut[r, r]
    return log_det


@njit(cache=True, nogil=True)
def dense_terms(cov, means, weights, stack_out, const_out, cond_out, cond_limit):
    """E-step coefficients of :func:`dense_em_block` from full covariances ``cov`` (K, d, d).

    With ``U_k = (L_k^-1)^T`` (:func:`_precision_factor`; ``U_k U_k^T`` is the precision):
    ``stack_out[k*d + l, :d]`` = column ``l`` of ``U_k``, ``stack_out[k*d + l, d] = -(U_k^T
    mu_k)_l`` (so ``stack_out @ [x, 1] = U_k^T (x - mu_k)``, cast to the dtype of
    ``stack_out``), ``const_out[k] = -d log(2 pi) / 2 + log det U_k + log w_k``, and
    ``cond_out[k]`` the condition number of ``cov_k`` in the infinity norm (``>=`` the 2-norm
    one), or a bound on it that lies on the same side of ``cond_limit`` (only that side is
    used: it picks the moments' precision).  Returns False (outputs incomplete) if a covariance
    is not positive definite.
    """
    K, d, _ = cov.shape
    Lt = np.zeros((d, d))
    U = np.zeros((d, d))
    Ut = np.zeros((d, d))
    work = np.empty(d)
    inv = np.empty((d, d))
    for k in range(K):
        log_det = _precision_factor(cov[k], Lt, U, Ut, work)
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
        norm = 0.0
        for a in range(d):
            row_sum = 0.0
            for b in range(d):
                row_sum += abs(cov[k, a, b])
            norm = max(norm, row_sum)
        # Bounds on ||cov^-1||_inf from U alone (O(d^2)) settle the side of cond_limit without
        # the O(d^3) product U U^T, unless the condition number lies within a margin far wider
        # than their rounding: below, the largest diagonal entry of cov^-1 = U U^T (a row's
        # squared norm); above, ||U||_inf ||U^T||_inf.  (Rank-deficient covariances, fewer
        # rows than columns, are far above the limit; well-sampled ones are often far below.)
        diag_max = 0.0
        row_abs_max = 0.0
        for a in range(d):
            sq = 0.0
            row_abs = 0.0
            for c in range(a, d):
                u = U[a, c]
                sq += u * u
                row_abs += abs(u)
            diag_max = max(diag_max, sq)
            row_abs_max = max(row_abs_max, row_abs)
        col_abs_max = 0.0
        for c in range(d):
            col_abs = 0.0
            for a in range(c + 1):
                col_abs += abs(U[a, c])
            col_abs_max = max(col_abs_max, col_abs)
        lower = norm * diag_max
        upper = norm * row_abs_max * col_abs_max
        if lower > cond_limit * (1.0 + _COND_MARGIN):
            cond_out[k] = lower
            continue
        if upper < cond_limit * (1.0 - _COND_MARGIN):
            cond_out[k] = upper
            continue
        # ||cov^-1||_inf with cov^-1 = U U^T, row a by rows of U^T: an inner loop that
        # vectorises (a sum over c inside it did not, and cost as much as the Cholesky factor
        # and its inverse together; a BLAS product is slower on small matrices when its
        # threads contend)
        for a in range(d):
            row = inv[a]
            row[:] = 0.0
            for c in range(a, d):
                u = U[a, c]
                urow = Ut[c]
                for b in range(c + 1):
                    row[b] += u * urow[b]
        inv_norm = 0.0
        for a in range(d):
            inv_sum = 0.0
            for b in range(d):
                inv_sum += abs(inv[a, b])
            inv_norm = max(inv_norm, inv_sum)
        cond_out[k] = norm * inv_norm
    return True


@njit(cache=True, nogil=True)
def dense_covariances(acc, s1, centers, nk, shift, reg_covar, cov_out):
    """The dense EM's covariances from moments about the centers, in one pass (``_DenseEM``).

    ``cov_k = sym((W_k^T X - s1_k c_k^T) / nk_k - shift_k shift_k^T) + reg_covar I`` with
    ``W_k^T X`` in ``acc[k*d:(k+1)*d, :d]`` and ``sym(A) = (A + A^T) / 2``: numpy's
    elementwise steps on whole (K, d, d) arrays, with the same operations in the same order for
    every entry (bit-identical), without their four temporaries of K d^2 values.
    """
    K, d = s1.shape
    tmp = np.empty((d, d))
    for k in range(K):
        n_k = nk[k]
        for a in range(d):
            arow = acc[k * d + a]
            s1a = s1[k, a]
            sa = shift[k, a]
            trow = tmp[a]
            crow = centers[k]
            srow = shift[k]
            for b in range(d):
                trow[b] = (arow[b] - s1a * crow[b]) / n_k - sa * srow[b]
        for a in range(d):
            out = cov_out[k, a]
            trow = tmp[a]
            for b in range(d):
                out[b] = 0.5 * (trow[b] + tmp[b, a])
            out[a] += reg_covar


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
    Lt = np.zeros((d, d))
    U = np.zeros((d, d))  # U = (L^-1)^T, upper triangular: U[a, c] = L^-1[c, a]
    Ut = np.zeros((d, d))
    work = np.empty(d)
    lam = np.empty((d, d))
    for k in range(K):
        log_det = _precision_factor(cov[k], Lt, U, Ut, work)
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
