"""Compiled kernels of weakfs's random forest: Gini classification trees on binned columns.

The algorithm is Breiman's random forest as scikit-learn's ``RandomForestClassifier`` grows it:
bootstrap rows, at each node ``max_features`` features drawn without replacement (known-constant
ones skipped), the best Gini split of each (the midpoint between two consecutive distinct values
of the node), no depth limit, a node is a leaf when it holds one row or one class.  What differs
is the data layout, chosen for SEW-IL, which grows thousands of forests on the same rows:

* every column is **binned once** into the codes ``0..n_bins - 1`` of its sorted distinct values
  (exact: one bin per distinct value), so a split search never compares floats;
* at a node, a feature's split is found from a **class histogram over its bins** when the node is
  large compared with the feature's range of codes, otherwise by **sorting the node's codes**;
  both sweep the distinct values in order and give the same split;
* weights are floats (bootstrap count times sample weight), class sums are accumulated per node,
  and the split score ``sum_c L_c^2 / W_L + sum_c R_c^2 / W_R`` (the Gini decrease up to
  constants) is updated in O(1) per row;
* out-of-bag rows are routed to their leaf inside the kernel (by their codes), and each node's
  weighted impurity decrease is added to its feature's importance.

A tree is the flat arrays ``feature`` (-1 at leaves), ``threshold`` (float64 midpoint: go left when
``x <= threshold``), ``threshold_code`` (the last bin that goes left), ``left``, ``right`` and
``value`` (class fractions of the node, one row per node).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from weakfs._tree._shared import leaf_of, new_stack, new_state, push_node, randint, swap

# impurities at or below this count as pure (scikit-learn's EPSILON is the float64 epsilon)
_PURE = 1e-12


@njit(cache=True, nogil=True, inline="always")
def _gini_terms(sums, n_classes):
    """``(W, sum_c w_c^2)`` of a class-sum vector."""
    total = 0.0
    sq = 0.0
    for c in range(n_classes):
        total += sums[c]
        sq += sums[c] * sums[c]
    return total, sq


@njit(cache=True, nogil=True, inline="always")
def _move_left(h, c, tot, lsum, sql, sqr, wl):
    """Move weight ``h`` of class ``c`` from the right side of a sweep to the left: updates
    ``lsum`` and returns the new ``(sum_c L_c^2, sum_c R_c^2, W_L)`` (O(1), no class loop)."""
    lc = lsum[c]
    rc = tot[c] - lc
    lsum[c] = lc + h
    return sql + h * (2.0 * lc + h), sqr + h * (h - 2.0 * rc), wl + h


@njit(cache=True, nogil=True, inline="always")
def _keep_best(score, f, code, next_code, best_score, best_f, best_code, best_next):
    """The better of a candidate split (``score``, feature, last code left, first code right)
    and the best so far (ties keep the earlier one, as scikit-learn)."""
    if score > best_score:
        return score, f, code, next_code
    return best_score, best_f, best_code, best_next


@njit(cache=True, nogil=True)
def _grown(a, size, fill):
    """``a`` copied into a longer 1-D array, the new tail set to ``fill``."""
    b = np.empty(size, dtype=a.dtype)
    b[: a.shape[0]] = a
    b[a.shape[0] :] = fill
    return b


@njit(cache=True, nogil=True)
def _grown_rows(a, size):
    """``a`` copied into a 2-D array with ``size`` rows (new rows uninitialised)."""
    b = np.empty((size, a.shape[1]), dtype=a.dtype)
    b[: a.shape[0]] = a
    return b


@njit(cache=True, nogil=True, inline="always")
def _partition(col, threshold, rows, w, cls, pos, start, end, lsum, rsum):
    """:func:`weakfs._tree._shared.partition` moving weights and classes with the rows, keeping
    ``pos`` (each row's place) up to date and adding the class sums of both sides to
    ``lsum``/``rsum``."""
    i = start
    j = end
    while i < j:
        if col[rows[i]] <= threshold:
            lsum[cls[i]] += w[i]
            i += 1
        else:
            j -= 1
            rows[i], rows[j] = rows[j], rows[i]
            w[i], w[j] = w[j], w[i]
            cls[i], cls[j] = cls[j], cls[i]
            pos[rows[i]] = i
            pos[rows[j]] = j
            rsum[cls[j]] += w[j]
    return i


@njit(cache=True, nogil=True)
def _sort_keys(a, m, stack):
    """Sort ``a[:m]`` in place: quicksort (median of three) with insertion sort below 16;
    ``stack`` is a work array of 128 int64 (the pending ranges; the smaller part is pushed)."""
    top = 0
    lo = 0
    hi = m - 1
    while True:
        while hi - lo > 16:
            mid = (lo + hi) >> 1
            if a[mid] < a[lo]:
                a[mid], a[lo] = a[lo], a[mid]
            if a[hi] < a[lo]:
                a[hi], a[lo] = a[lo], a[hi]
            if a[hi] < a[mid]:
                a[hi], a[mid] = a[mid], a[hi]
            pivot = a[mid]
            i = lo
            j = hi
            while i <= j:
                while a[i] < pivot:
                    i += 1
                while a[j] > pivot:
                    j -= 1
                if i <= j:
                    a[i], a[j] = a[j], a[i]
                    i += 1
                    j -= 1
            # recurse into the smaller part later (bounded stack), loop on the other
            if j - lo < hi - i:
                stack[top] = i
                stack[top + 1] = hi
                hi = j
            else:
                stack[top] = lo
                stack[top + 1] = j
                lo = i
            top += 2
        for i in range(lo + 1, hi + 1):
            v = a[i]
            j = i - 1
            while j >= lo and a[j] > v:
                a[j + 1] = a[j]
                j -= 1
            a[j + 1] = v
        if top == 0:
            return
        top -= 2
        lo = stack[top]
        hi = stack[top + 1]


@njit(cache=True, nogil=True)
def build_gini_tree(
    codes,
    n_bins,
    bin_values,
    bin_offsets,
    mode_code,
    other_start,
    other_rows,
    y,
    sample_weight,
    n_classes,
    rows_in,
    max_features,
    bootstrap,
    seed,
):
    """Grow one tree on the rows ``rows_in`` of the binned matrix ``codes``.

    Parameters: ``codes`` int32 (n, k) Fortran-ordered bins; ``n_bins`` (k,); ``bin_values`` the
    sorted distinct values of every column, column ``j`` from ``bin_offsets[j]``; ``mode_code``
    the most frequent code of each column and ``other_rows[other_start[j]:other_start[j+1]]`` the
    rows whose code differs from it (read instead of the node's rows when fewer);
    ``y`` class indices (n,); ``sample_weight`` positive floats (n,); ``rows_in`` the training rows;
    ``bootstrap``: draw ``len(rows_in)`` rows with replacement (weights multiplied by the counts).

    Returns ``(feature, threshold, threshold_code, left, right, value, importance, oob_rows,
    oob_leaves)``: the tree, the weighted impurity decrease per column (not normalised), and the
    out-of-bag rows with the leaf each reaches (empty without bootstrap).

    One loop nest over the node stack, longer than the size rule's 100 lines: split into
    functions, numba would pass the stack, the row partition and the split search's buffers
    through a dozen arguments at every node.
    """
    n_train = rows_in.shape[0]
    k = codes.shape[1]
    state = new_state(seed)

    # ---- in-bag rows and their weights ----
    if bootstrap:
        counts = np.zeros(n_train, dtype=np.int64)
        for _ in range(n_train):
            counts[randint(state, 0, n_train)] += 1
        n = 0
        for q in range(n_train):
            if counts[q] > 0:
                n += 1
        rows = np.empty(n, dtype=np.int64)
        w = np.empty(n, dtype=np.float64)
        n_oob = n_train - n
        oob_rows = np.empty(n_oob, dtype=np.int64)
        a = 0
        b = 0
        for q in range(n_train):
            r = rows_in[q]
            if counts[q] > 0:
                rows[a] = r
                w[a] = counts[q] * sample_weight[r]
                a += 1
            else:
                oob_rows[b] = r
                b += 1
    else:
        n = n_train
        rows = rows_in.astype(np.int64)
        w = np.empty(n, dtype=np.float64)
        for q in range(n):
            w[q] = sample_weight[rows[q]]
        oob_rows = np.empty(0, dtype=np.int64)

    cls = np.empty(n, dtype=np.int64)  # travels with rows, as w does
    pos = np.full(codes.shape[0], -1, dtype=np.int64)  # where each in-bag row sits in rows
    for q in range(n):
        cls[q] = y[rows[q]]
        pos[rows[q]] = q
    other_sum = np.zeros(n_classes, dtype=np.float64)

    # node arrays and the DFS stack start small and double when full: a tree rarely needs its
    # worst case (2n + 1 nodes, depth n), and large fresh allocations cost page faults
    cap = min(2 * n + 1, 256)
    feature = np.full(cap, -1, dtype=np.int32)
    threshold = np.zeros(cap, dtype=np.float64)
    threshold_code = np.zeros(cap, dtype=np.int32)
    left = np.full(cap, -1, dtype=np.int32)
    right = np.full(cap, -1, dtype=np.int32)
    value = np.empty((cap, n_classes), dtype=np.float64)  # every node row is written
    importance = np.zeros(k, dtype=np.float64)

    max_bins = 1
    for j in range(k):
        max_bins = max(max_bins, n_bins[j])
    hist = np.zeros(max_bins * n_classes, dtype=np.float64)
    bin_rows = np.zeros(max_bins, dtype=np.int64)
    keys = np.empty(n, dtype=np.int64)
    ordered = np.empty(n, dtype=np.int64)
    sort_stack = np.empty(128, dtype=np.int64)
    tot = np.zeros(n_classes, dtype=np.float64)
    lsum = np.zeros(n_classes, dtype=np.float64)
    rsum = np.zeros(n_classes, dtype=np.float64)
    features = np.arange(k).astype(np.int32)
    constant_features = np.arange(k).astype(np.int32)

    stack = push_node(new_stack(5), 0, 0, n, -1, 0, 0)
    st_sums = np.zeros((64, n_classes), dtype=np.float64)  # class sums of the pending nodes
    for q in range(n):
        st_sums[0, cls[q]] += w[q]
    sp = 1
    node_count = 0

    while sp > 0:
        sp -= 1
        start, end, parent, is_left, n_known = stack[sp]
        node = node_count
        node_count += 1
        if node_count > cap:
            cap *= 2
            feature = _grown(feature, cap, -1)
            threshold = _grown(threshold, cap, 0)
            threshold_code = _grown(threshold_code, cap, 0)
            left = _grown(left, cap, -1)
            right = _grown(right, cap, -1)
            value = _grown_rows(value, cap)
        if parent >= 0:
            if is_left:
                left[parent] = node
            else:
                right[parent] = node

        for c in range(n_classes):  # class sums of the node, counted by its parent's partition
            tot[c] = st_sums[sp, c]
        W, sq = _gini_terms(tot, n_classes)
        for c in range(n_classes):
            value[node, c] = tot[c] / W
        impurity = 1.0 - sq / (W * W)
        m = end - start
        if m < 2 or impurity <= _PURE:
            continue

        # ---- best split over max_features non-constant features drawn without replacement ----
        parent_score = sq / W
        sort_cost = 1.5 * m * np.log2(m)
        best_f = -1
        best_score = -np.inf
        best_code = 0
        best_next = 0
        # scikit-learn's feature draws (BestSplitter): every draw counts towards max_features,
        # known constants included, but at least one drawn feature must be non-constant
        n_found = 0
        n_drawn_constants = 0
        n_visited = 0
        f_i = k
        while f_i > n_known + n_found and (
            n_visited < max_features or n_visited <= n_found + n_drawn_constants
        ):
            n_visited += 1
            j = randint(state, n_drawn_constants, f_i - n_found)
            if j < n_known:  # a constant known from an ancestor
                features[n_drawn_constants], features[j] = features[j], features[n_drawn_constants]
                n_drawn_constants += 1
                continue
            j += n_found
            f = features[j]
            col = codes[:, f]
            nb = n_bins[f]
            for c in range(n_classes):
                lsum[c] = 0.0
            wl = 0.0
            sql = 0.0
            sqr = sq
            n_other = other_start[f + 1] - other_start[f]
            # a sparse column's split comes from a class histogram of its few rows off the most
            # frequent value (that value's bin gets the node's totals minus theirs), when that
            # is cheaper than sorting the node's codes; a column with few bins gets a class
            # histogram of the node's rows
            sparse_cost = n_other + nb + min(n_other + 1, nb) * n_classes
            use_sparse = n_other < m and nb <= 4 * m and sparse_cost <= sort_cost
            use_hist = use_sparse or nb * n_classes <= m
            lo = nb
            hi = -1
            if use_hist and not use_sparse:
                for q in range(start, end):
                    cq = np.int64(col[rows[q]])
                    hist[cq * n_classes + cls[q]] += w[q]
                    bin_rows[cq] += 1
                    lo = min(lo, cq)
                    hi = max(hi, cq)
            if use_sparse:
                for c in range(n_classes):
                    other_sum[c] = 0.0
                n_in = 0
                for idx in range(other_start[f], other_start[f + 1]):
                    r = other_rows[idx]
                    p = pos[r]
                    if p >= start and p < end:
                        cq = np.int64(col[r])
                        hist[cq * n_classes + cls[p]] += w[p]
                        other_sum[cls[p]] += w[p]
                        bin_rows[cq] += 1
                        n_in += 1
                        lo = min(lo, cq)
                        hi = max(hi, cq)
                if n_in < m:
                    cq = np.int64(mode_code[f])
                    for c in range(n_classes):
                        hist[cq * n_classes + c] = max(tot[c] - other_sum[c], 0.0)
                    bin_rows[cq] += m - n_in
                    lo = min(lo, cq)
                    hi = max(hi, cq)
            if use_hist:
                constant = hi <= lo
                prev = -1
                for bcode in range(lo, hi + 1):  # visits the bins in order, clearing them
                    if bin_rows[bcode] == 0:
                        continue
                    bin_rows[bcode] = 0
                    base = bcode * n_classes
                    if prev >= 0:
                        best_score, best_f, best_code, best_next = _keep_best(
                            sql / wl + sqr / (W - wl), f, prev, bcode, best_score, best_f,
                            best_code, best_next,
                        )  # fmt: skip
                    for c in range(n_classes):
                        h = hist[base + c]
                        if h != 0.0:
                            hist[base + c] = 0.0
                            sql, sqr, wl = _move_left(h, c, tot, lsum, sql, sqr, wl)
                    prev = bcode
            else:
                # the node's (code, position) pairs packed in one int64, sorted by a counting
                # sort when the codes span a short range, else by a comparison sort
                lo = np.int64(col[rows[start]])
                hi = lo
                for q in range(start, end):
                    cq = np.int64(col[rows[q]])
                    keys[q - start] = (cq << 32) | (q - start)
                    lo = min(lo, cq)
                    hi = max(hi, cq)
                constant = hi <= lo
                if not constant:
                    if 2 * (hi - lo + 1) <= sort_cost:
                        for q in range(m):
                            bin_rows[keys[q] >> 32] += 1
                        first = 0
                        for bcode in range(lo, hi + 1):
                            n_b = bin_rows[bcode]
                            bin_rows[bcode] = first
                            first += n_b
                        for q in range(m):
                            bcode = keys[q] >> 32
                            ordered[bin_rows[bcode]] = keys[q]
                            bin_rows[bcode] += 1
                        for bcode in range(lo, hi + 1):
                            bin_rows[bcode] = 0
                        pairs = ordered
                    else:
                        _sort_keys(keys, m, sort_stack)
                        pairs = keys
                    prev = -1
                    for q in range(m):
                        cq = pairs[q] >> 32
                        o = start + (pairs[q] & 0xFFFFFFFF)
                        if q > 0 and cq != prev:
                            best_score, best_f, best_code, best_next = _keep_best(
                                sql / wl + sqr / (W - wl), f, prev, cq, best_score, best_f,
                                best_code, best_next,
                            )  # fmt: skip
                        sql, sqr, wl = _move_left(w[o], cls[o], tot, lsum, sql, sqr, wl)
                        prev = cq
            if constant:  # constant in this node: move it to the constant block
                swap(features, j, n_known + n_found)
                n_found += 1
                continue
            f_i -= 1
            swap(features, j, f_i)

        # the draws above shuffled the known constants; put them back in their saved order
        # and save the newly found ones behind them (scikit-learn's invariant)
        for q in range(n_known):
            features[q] = constant_features[q]
        for q in range(n_known, n_known + n_found):
            constant_features[q] = features[q]
        if best_f < 0:  # every feature is constant in this node
            continue

        off = bin_offsets[best_f]
        feature[node] = best_f
        t = 0.5 * (bin_values[off + best_code] + bin_values[off + best_next])
        threshold[node] = t
        # codes between the two are absent from this node but not from other rows (out of bag,
        # say): route them as the float threshold does, by the last code whose value is <= t
        lo_c = best_code
        hi_c = best_next  # bin_values[off + lo_c] <= t < bin_values[off + hi_c]
        while hi_c - lo_c > 1:
            mid_c = (lo_c + hi_c) >> 1
            if bin_values[off + mid_c] <= t:
                lo_c = mid_c
            else:
                hi_c = mid_c
        threshold_code[node] = lo_c
        for c in range(n_classes):
            lsum[c] = 0.0
            rsum[c] = 0.0
        mid = _partition(codes[:, best_f], best_code, rows, w, cls, pos, start, end, lsum, rsum)
        # weighted impurity decrease W i - W_L i_L - W_R i_R = (score - parent score) in these
        # units, from the children's exact class sums
        wl, sql = _gini_terms(lsum, n_classes)
        wr, sqr = _gini_terms(rsum, n_classes)
        importance[best_f] += sql / wl + sqr / wr - parent_score

        nconst_child = n_known + n_found
        if sp + 2 > st_sums.shape[0]:
            st_sums = _grown_rows(st_sums, 2 * st_sums.shape[0])
        # right first, so that the left child is grown first
        stack = push_node(stack, sp, mid, end, node, 0, nconst_child)
        st_sums[sp, :] = rsum
        sp += 1
        stack = push_node(stack, sp, start, mid, node, 1, nconst_child)
        st_sums[sp, :] = lsum
        sp += 1

    m_nodes = node_count
    oob_leaves = np.empty(oob_rows.shape[0], dtype=np.int32)
    for q in range(oob_rows.shape[0]):
        oob_leaves[q] = leaf_of(codes, oob_rows[q], 0, feature, threshold_code, left, right)
    # views, not copies: the arrays are at most twice as long (they double when full), and a
    # copy per tree is an allocation the threads would contend for
    return (
        feature[:m_nodes],
        threshold[:m_nodes],
        threshold_code[:m_nodes],
        left[:m_nodes],
        right[:m_nodes],
        value[:m_nodes],
        importance,
        oob_rows,
        oob_leaves,
    )


@njit(cache=True, nogil=True)
def add_leaf_values(leaves, value, rows, out, counts):
    """``out[rows[q]] += value[leaves[q]]`` and ``counts[rows[q]] += 1`` (one tree's votes)."""
    for q in range(rows.shape[0]):
        r = rows[q]
        nd = leaves[q]
        for c in range(value.shape[1]):
            out[r, c] += value[nd, c]
        counts[r] += 1


@njit(cache=True, nogil=True)
def tree_proba(X, feature, threshold, left, right, value, row_start, row_end, out):
    """``out[i] +=`` the leaf class fractions of one tree, for rows ``row_start:row_end`` of the
    float ``X``."""
    for i in range(row_start, row_end):
        nd = leaf_of(X, i, 0, feature, threshold, left, right)
        for c in range(value.shape[1]):
            out[i, c] += value[nd, c]
