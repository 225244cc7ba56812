"""Compiled kernels of PU Extra Trees: node risks, the tree growing loop and forest traversal.

Everything that touches rows runs here, in numba ``nopython`` mode with ``nogil=True`` (so joblib
threads grow trees in parallel) and ``cache=True``.

Data layout (like scikit-learn's trees):

* ``X`` is a float32 Fortran-ordered array, so one feature of the rows of a node is a gather from
  one contiguous column.
* Each row carries two integer multiplicities packed in one ``int64``: the low 32 bits count the row
  in ``P`` (labeled positives; positives in PN mode), the high 32 bits count it in ``U`` (unlabeled
  sample; negatives in PN mode).  Without bootstrap these are 0/1.  The sums over the rows left of a
  cut are then one integer addition per row, and ``W_p``/``W_n`` are exact functions of two counts.
* ``rows`` is an index array partitioned in place node by node (no presorting); the ``packed``
  weights travel with it so that the counting pass reads memory sequentially.
* A tree is a set of flat arrays: ``feature`` (-1 at leaves), ``threshold`` (go left when
  ``x <= threshold``), ``left``, ``right``, ``value`` (``v*`` of the node), ``risk`` (its minimal
  partial risk), ``weight`` (``W_p + W_n``), ``n_node`` (rows in the node), ``depth``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from weakfs._tree._shared import (
    leaf_of,
    new_stack,
    new_state,
    partition,
    push_node,
    randint,
    swap,
    uniform,
)

RISK_UPU = 0
RISK_NNPU = 1
RISK_PN = 2

LOSS_QUADRATIC = 0
LOSS_LOGISTIC = 1
LOSS_SIGMOID = 2
LOSS_SAVAGE = 3

LOW_MASK = np.int64(0xFFFFFFFF)
SHIFT = np.int64(32)
# |W_p - T| below this share of T counts as v* == 1 (floating-point ties of two exact counts)
_REL_TOL = 1e-12


# --------------------------------------------------------------------------------------------
# node risk (Wilton et al., NeurIPS 2022, §3): closed forms of the minimal partial empirical risk
# --------------------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def node_risk(cp, cu, risk_kind, loss, wp, wu):
    """Minimal partial risk, ``v*`` and total weight ``W_p + W_n`` of a node.

    ``cp`` counts P rows, ``cu`` counts U rows (PN mode: positives and negatives).  PU:
    ``W_p = cp * wp``, ``W_p + W_n = cu * wu``; PN: ``W_p = cp * wp``, ``W_n = cu * wu``.
    Returns ``(risk, v, total)``; ``v`` is ``+inf`` when the total weight is 0.
    """
    Wp = cp * wp
    if risk_kind == RISK_PN:
        Wn = cu * wu
        T = Wp + Wn
    else:
        T = cu * wu
        Wn = T - Wp
    if T == 0.0:
        # only P rows in a PU node: v* = +inf
        if risk_kind == RISK_NNPU:
            return 0.0, np.inf, T
        if loss == LOSS_SIGMOID:
            return min(Wp, Wn), np.inf, T
        if loss == LOSS_SAVAGE:
            # the savage loss is bounded: inf_v W_p l(v,+1) + W_n l(v,-1) = 4 W_n (v -> +inf)
            return 4.0 * Wn, np.inf, T
        return -np.inf, np.inf, T
    v = Wp / T
    if abs(Wp - T) <= _REL_TOL * T:
        v = 1.0
        Wn = 0.0
    if loss == LOSS_SAVAGE:
        if v > 1.0 and risk_kind == RISK_UPU:
            return 4.0 * Wn, v, T
        loss = LOSS_QUADRATIC  # Proposition 3: same minimal risk as quadratic otherwise
    if loss == LOSS_QUADRATIC:
        if v > 1.0 and risk_kind == RISK_NNPU:
            return 0.0, v, T
        r = 4.0 * Wp * Wn / T
        if risk_kind == RISK_NNPU and r < 0.0:
            r = 0.0
        return r, v, T
    if loss == LOSS_LOGISTIC:
        if v > 1.0:
            if risk_kind == RISK_UPU:
                return -np.inf, v, T
            return 0.0, v, T
        if v <= 0.0 or v >= 1.0:
            return 0.0, v, T
        h = -v * np.log(v) - (1.0 - v) * np.log(1.0 - v)
        return T * h, v, T
    # sigmoid: min(W_p, W_n) (uPU, Proposition 5); nnPU: max(0, min(W_p, W_n))
    r = min(Wp, Wn)
    if risk_kind == RISK_NNPU and r < 0.0:
        r = 0.0
    return r, v, T


@njit(cache=True, nogil=True, inline="always")
def _risk_reduction(s, cp, cu, r, risk_kind, loss, wp, wu):
    """Risk reduction ``r - R(left) - R(right)`` of a split whose left child holds the packed
    positive/unlabeled counts ``s`` of a node with counts ``cp``, ``cu`` and risk ``r``."""
    lcp = s & LOW_MASK
    lcu = s >> SHIFT
    rl, _vl, _tl = node_risk(lcp, lcu, risk_kind, loss, wp, wu)
    rr_, _vr, _tr = node_risk(cp - lcp, cu - lcu, risk_kind, loss, wp, wu)
    return r - rl - rr_


@njit(cache=True, nogil=True, inline="always")
def _is_pure(risk, T, risk_kind):
    if risk_kind == RISK_UPU:
        return risk == -np.inf
    return risk <= 1e-12 * T


# --------------------------------------------------------------------------------------------
# tree growing
# --------------------------------------------------------------------------------------------
@njit(cache=True, nogil=True, inline="always")
def _scatter_column(buffer, indptr, indices, data, f, fill):
    """Write column ``f`` of a CSC matrix into ``buffer`` (``fill``) or zero its entries again."""
    for q in range(indptr[f], indptr[f + 1]):
        buffer[indices[q]] = data[q] if fill else np.float32(0.0)


@njit(cache=True, nogil=True)
def build_tree(
    X,
    rows_in,
    packed_in,
    n_total_rows,
    risk_kind,
    loss,
    wp,
    wu,
    max_features,
    max_candidates,
    max_depth,
    min_samples_leaf,
    best_splitter,
    seed,
    csc_indptr,
    csc_indices,
    csc_data,
):
    """Grow one tree on the rows ``rows_in`` (weights ``packed_in``) of ``X``.

    A sparse matrix comes as CSC arrays ``(csc_indptr, csc_indices, csc_data)`` with ``X`` an
    empty ``(0, n_features)`` placeholder; a dense ``X`` comes with ``csc_indptr`` of length 0.
    A sparse column is scattered into one dense buffer of ``n_total_rows`` entries while it is
    read and cleared afterwards, so the trees are the same as on the dense matrix and memory
    stays at one column.

    Returns the flat arrays ``(feature, threshold, left, right, value, risk, weight, n_node,
    depth)`` trimmed to the number of nodes.

    One loop nest over the node stack, longer than the size rule's 100 lines: split into
    functions, numba would pass the stack, the row buffers and the candidate splits through a
    dozen arguments at every node.
    """
    n = rows_in.shape[0]
    d = X.shape[1]
    is_sparse = csc_indptr.shape[0] > 0
    colbuf = np.zeros(n_total_rows if is_sparse else 0, dtype=np.float32)
    rows = rows_in.copy()
    packed = packed_in.copy()
    state = new_state(seed)

    cap = 2 * n + 1
    feature = np.full(cap, -1, dtype=np.int32)
    threshold = np.zeros(cap, dtype=np.float64)
    left = np.full(cap, -1, dtype=np.int32)
    right = np.full(cap, -1, dtype=np.int32)
    value = np.zeros(cap, dtype=np.float64)
    risk = np.zeros(cap, dtype=np.float64)
    weight = np.zeros(cap, dtype=np.float64)
    n_node = np.zeros(cap, dtype=np.int32)
    depth_arr = np.zeros(cap, dtype=np.int32)

    features = np.arange(d).astype(np.int32)
    Xf = np.empty(n, dtype=np.float32)
    # best-splitter buffers
    sort_w = np.empty(n if best_splitter else 1, dtype=np.int64)

    # depth-first stack; own fields: depth, P count, U count
    stack = new_stack(8)

    tot = np.int64(0)
    for k in range(n):
        tot += packed[k]
    stack = push_node(stack, 0, 0, n, -1, 0, 0)
    stack[0, 5:8] = (0, tot & LOW_MASK, tot >> SHIFT)
    sp = 1
    node_count = 0

    while sp > 0:
        sp -= 1
        start, end, parent, is_left, n_known, depth, cp, cu = stack[sp]

        node = node_count
        node_count += 1
        if parent >= 0:
            if is_left:
                left[parent] = node
            else:
                right[parent] = node
        r, v, T = node_risk(cp, cu, risk_kind, loss, wp, wu)
        value[node] = v
        risk[node] = r
        weight[node] = T
        n_node[node] = end - start
        depth_arr[node] = depth

        n_rows = end - start
        if (
            n_rows < 2
            or n_rows <= min_samples_leaf
            or (max_depth >= 0 and depth >= max_depth)
            or _is_pure(r, T, risk_kind)
        ):
            continue

        # ---- find the split: features drawn without replacement among non-constant ones ----
        best_f = -1
        best_t = 0.0
        best_rr = -np.inf
        best_l = np.int64(0)
        n_found = 0
        n_visited = 0
        f_i = d
        while f_i > n_known + n_found and n_visited < max_features:
            j = randint(state, n_known + n_found, f_i)
            f = features[j]
            if is_sparse:
                _scatter_column(colbuf, csc_indptr, csc_indices, csc_data, f, True)
                col = colbuf
            else:
                col = X[:, f]
            # pass 1: gather the node's values and their min a and max e (branch-free)
            a = col[rows[start]]
            e = a
            for k in range(start, end):
                x = col[rows[k]]
                Xf[k] = x
                a = min(a, x)
                e = max(e, x)
            if is_sparse:
                _scatter_column(colbuf, csc_indptr, csc_indices, csc_data, f, False)
            if e <= a:  # constant in this node: move it to the constant block
                swap(features, j, n_known + n_found)
                n_found += 1
                continue
            f_i -= 1
            swap(features, j, f_i)
            n_visited += 1

            if best_splitter:
                # Appendix E: sort the node's values, sweep the midpoints of distinct values
                order = np.argsort(Xf[start:end])
                for q in range(n_rows):
                    sort_w[q] = packed[start + order[q]]
                s = np.int64(0)
                for q in range(n_rows - 1):
                    s += sort_w[q]
                    xq = Xf[start + order[q]]
                    xn = Xf[start + order[q + 1]]
                    if xq < xn:
                        rr = _risk_reduction(s, cp, cu, r, risk_kind, loss, wp, wu)
                        if best_f < 0 or rr > best_rr:
                            best_f = f
                            best_t = 0.5 * (np.float64(xq) + np.float64(xn))
                            best_rr = rr
                            best_l = s
            else:
                # pass 2 (contiguous, vectorised): second smallest b and second largest c of the
                # distinct values, so that a < b and c < e
                b = np.float32(np.inf)
                c = np.float32(-np.inf)
                for k in range(start, end):
                    x = Xf[k]
                    b = min(b, x if x > a else np.float32(np.inf))
                    c = max(c, x if x < e else np.float32(-np.inf))
                lo = np.float64(a) + 0.4 * (np.float64(b) - np.float64(a))
                hi = np.float64(c) + 0.6 * (np.float64(e) - np.float64(c))
                for _t in range(max_candidates):
                    t = lo + (hi - lo) * uniform(state)
                    s = np.int64(0)
                    for k in range(start, end):
                        if Xf[k] <= t:
                            s += packed[k]
                    rr = _risk_reduction(s, cp, cu, r, risk_kind, loss, wp, wu)
                    if best_f < 0 or rr > best_rr:
                        best_f = f
                        best_t = t
                        best_rr = rr
                        best_l = s

        if best_f < 0:
            # every feature is constant in this node
            continue

        # ---- partition rows[start:end] in place: x <= t to the left ----
        if is_sparse:
            _scatter_column(colbuf, csc_indptr, csc_indices, csc_data, best_f, True)
            mid = partition(colbuf, best_t, rows, packed, start, end)
            _scatter_column(colbuf, csc_indptr, csc_indices, csc_data, best_f, False)
        else:
            mid = partition(X[:, best_f], best_t, rows, packed, start, end)

        feature[node] = best_f
        threshold[node] = best_t
        nconst_child = n_known + n_found
        lcp = best_l & LOW_MASK
        lcu = best_l >> SHIFT
        # push right first so that the left child is grown first
        children = ((0, mid, end, cp - lcp, cu - lcu), (1, start, mid, lcp, lcu))
        for is_left_child, lo, hi, ccp, ccu in children:
            stack = push_node(stack, sp, lo, hi, node, is_left_child, nconst_child)
            stack[sp, 5:8] = (depth + 1, ccp, ccu)
            sp += 1

    m = node_count
    return (
        feature[:m].copy(),
        threshold[:m].copy(),
        left[:m].copy(),
        right[:m].copy(),
        value[:m].copy(),
        risk[:m].copy(),
        weight[:m].copy(),
        n_node[:m].copy(),
        depth_arr[:m].copy(),
    )


# --------------------------------------------------------------------------------------------
# prediction
# --------------------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def predict_forest(
    X, feature, threshold, left, right, value, roots, row_start, row_end, proba, votes
):
    """Accumulate, for rows ``row_start:row_end`` of the C-ordered float32 ``X``, the sum over
    trees of the leaf ``v*`` clipped to [0, 1] (``proba``) and the number of trees voting +1
    (``v* > 0.5``, ``votes``)."""
    for t in range(roots.shape[0]):
        root = roots[t]
        for i in range(row_start, row_end):
            node = leaf_of(X, i, root, feature, threshold, left, right)
            v = value[node]
            if v > 0.5:
                votes[i] += 1
            if v > 1.0:
                v = 1.0
            elif v < 0.0:
                v = 0.0
            proba[i] += v


@njit(cache=True, nogil=True)
def apply_forest(X, feature, threshold, left, right, roots, row_start, row_end, out):
    """Leaf index (global node id) of each row in each tree: ``out[i, t]``."""
    for t in range(roots.shape[0]):
        root = roots[t]
        for i in range(row_start, row_end):
            node = leaf_of(X, i, root, feature, threshold, left, right)
            out[i, t] = node - root
