"""What every weakfs tree uses: a per-tree random stream, the row partition, the leaf walk, and
the number of features drawn per node.

The kernels are numba ``nopython`` functions with ``nogil=True`` (trees grow in parallel joblib
threads) and ``inline="always"`` where they sit in a hot loop; :func:`resolve_max_features` is
plain Python, run once per fit.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from numba import njit


def resolve_max_features(max_features, n_features: int, *, rounding: str) -> int:
    """Number of features drawn per node for a forest's ``max_features``.

    Parameters
    ----------
    max_features : "sqrt", int, float in (0, 1] or None
        ``"sqrt"``: the square root of ``n_features``; an int: that many (at most
        ``n_features``); a float: that fraction of ``n_features``; None: all.
    n_features : int
        Features of the data.
    rounding : {"floor", "ceil"}
        How ``"sqrt"`` and a fraction are rounded to an int (at least 1 either way).

    Returns
    -------
    int
        In ``[1, n_features]``; an int larger than ``n_features`` is a ``ValueError``.
    """
    if rounding not in ("floor", "ceil"):
        raise ValueError(f"rounding must be 'floor' or 'ceil'; got {rounding!r}")
    if max_features is None:
        return n_features
    if isinstance(max_features, numbers.Integral):
        if max_features > n_features:
            raise ValueError(
                f"max_features={max_features} is larger than the number of features ({n_features})"
            )
        return int(max_features)
    if isinstance(max_features, str):  # "sqrt", the only string the forests accept
        value = math.sqrt(n_features)
    else:
        value = float(max_features) * n_features
    return max(1, math.floor(value) if rounding == "floor" else math.ceil(value))


# splitmix64: one uint64 state per tree, so a tree's draws depend on its seed only (not on
# threads or on numba's global generator)
@njit(cache=True, nogil=True, inline="always")
def next_u64(state):
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True, inline="always")
def uniform(state):
    """Uniform float64 on [0, 1)."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True, inline="always")
def randint(state, lo, hi):
    """Uniform integer on [lo, hi) (hi > lo)."""
    return lo + np.int64(next_u64(state) % np.uint64(hi - lo))


@njit(cache=True, nogil=True, inline="always")
def new_state(seed):
    """A fresh stream for one tree."""
    state = np.empty(1, dtype=np.uint64)
    state[0] = np.uint64(seed)
    next_u64(state)
    return state


@njit(cache=True, nogil=True, inline="always")
def swap(a, i, j):
    """Exchange ``a[i]`` and ``a[j]`` (the feature draws keep their blocks in place this way)."""
    a[i], a[j] = a[j], a[i]


@njit(cache=True, nogil=True, inline="always")
def partition(col, threshold, rows, payload, start, end):
    """Reorder ``rows[start:end]`` (and ``payload`` with them) so that the rows with
    ``col[row] <= threshold`` come first; returns the first index of the right part."""
    i = start
    j = end
    while i < j:
        if col[rows[i]] <= threshold:
            i += 1
        else:
            j -= 1
            tmp = rows[i]
            rows[i] = rows[j]
            rows[j] = tmp
            tp = payload[i]
            payload[i] = payload[j]
            payload[j] = tp
    return i


@njit(cache=True, nogil=True, inline="always")
def leaf_of(X, i, node, feature, threshold, left, right):
    """Id of the leaf that row ``i`` of ``X`` reaches from ``node`` (left: ``x <= threshold``)."""
    while left[node] >= 0:
        if X[i, feature[node]] <= threshold[node]:
            node = left[node]
        else:
            node = right[node]
    return node


@njit(cache=True, nogil=True)
def new_stack(width):
    """The depth-first work stack of a tree: one int64 row per pending node, ``(start, end,
    parent, is_left, n_constant)`` then ``width - 5`` fields of the kernel's own."""
    return np.empty((64, width), dtype=np.int64)


@njit(cache=True, nogil=True)
def push_node(stack, sp, start, end, parent, is_left, n_constant):
    """Write a pending node at row ``sp`` (doubling the stack when full); returns the stack."""
    if sp == stack.shape[0]:
        bigger = np.empty((2 * sp, stack.shape[1]), dtype=np.int64)
        bigger[:sp] = stack
        stack = bigger
    stack[sp, 0] = start
    stack[sp, 1] = end
    stack[sp, 2] = parent
    stack[sp, 3] = is_left
    stack[sp, 4] = n_constant
    return stack
