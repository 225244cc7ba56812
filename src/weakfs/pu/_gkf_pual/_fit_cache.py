"""The last few GKF-PUAL fits, keyed on everything their result depends on.

A fit is a function of the ordered, scaled training rows, their PU labels, the graph Laplacian
``R`` and the parameters other than ``sigma`` and ``n_neighbors`` (which act only through ``R``).
On a tuning grid ``sigma`` often does not act at all: when every k-NN edge is much longer than σ
its weight ``exp(−d²/2σ²)`` underflows to exactly 0, ``R`` is the zero matrix and the paper's
σ ∈ {1e-4, 1e-3, 1e-2} give the same problem (on every fold of all 12 tasks of the GKF-PUAL
reproduction, seed 0, both γ; σ = 0.1 too on HD and Pen).  Such a fit is computed once and copied.

A kept fit is reused only when the rows, labels, scaling and ``R`` are equal element by element
(and the parameters equal), so results do not depend on the cache; like
:func:`weakfs._graph._kneighbors`, it holds at most ``FIT_CACHE_BYTES`` of inputs.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

import numpy as np
from scipy import sparse

#: bytes of kept inputs (rows, labels, R) over all entries
FIT_CACHE_BYTES = 16 * 2**20
#: and at most this many entries (a grid's duplicates are a few paths apart: the σ values of
#: one setting of the other parameters, fold after fold)
FIT_CACHE_ENTRIES = 64
_cache: OrderedDict = OrderedDict()
_lock = threading.Lock()

#: parameters that act only through R (or not on the solution at all)
_THROUGH_R = ("sigma", "n_neighbors", "verbose")


def _arrays(Xo, s, R, mean, scale) -> tuple:
    if sparse.issparse(R):
        R = R.tocsr()
        r_parts = (R.data, R.indices, R.indptr, np.asarray(R.shape))
    else:
        r_parts = (np.asarray(R),)
    parts = [np.ascontiguousarray(Xo), np.ascontiguousarray(s), *r_parts]
    for a in (mean, scale):
        parts.append(np.asarray([]) if a is None else np.ascontiguousarray(a))
    return tuple(np.ascontiguousarray(p) for p in parts)


def problem_key(estimator, Xo, s, R, extra=()) -> tuple[tuple, tuple]:
    """``(key, arrays)``: a hashable key of the fit's inputs and the arrays to compare on a hit."""
    arrays = _arrays(
        Xo, s, R, getattr(estimator, "mean_", None), getattr(estimator, "scale_", None)
    )
    h = hashlib.blake2b(digest_size=16)
    for a in arrays:
        h.update(str((a.dtype.str, a.shape)).encode())
        h.update(a.tobytes())
    params = tuple(
        (k, repr(v))
        for k, v in sorted(estimator.get_params(deep=False).items())
        if k not in _THROUGH_R
    )
    return (h.digest(), params, tuple(extra)), arrays


def lookup(key, arrays):
    with _lock:
        hit = _cache.get(key)
        if hit is None:
            return None
        kept, value, _ = hit
        if len(kept) != len(arrays) or not all(
            a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)
            for a, b in zip(kept, arrays)
        ):
            return None
        _cache.move_to_end(key)
        return value


def store(key, arrays, value) -> None:
    size = sum(a.nbytes for a in arrays)
    if size > FIT_CACHE_BYTES:
        return
    with _lock:
        _cache[key] = (tuple(a.copy() for a in arrays), value, size)
        _cache.move_to_end(key)
        while len(_cache) > FIT_CACHE_ENTRIES or (
            sum(entry[2] for entry in _cache.values()) > FIT_CACHE_BYTES
        ):
            _cache.popitem(last=False)


def clear() -> None:
    with _lock:
        _cache.clear()
