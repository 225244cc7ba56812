"""Pieces shared by every mask search: the objective protocol and an evaluation cache."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["CachedObjective", "MaskObjective"]

MaskObjective = Callable[[np.ndarray], float]
"""An objective maps a boolean mask of shape (n_features,) to a float; higher is better."""


class CachedObjective:
    """Wrap an objective so that a mask already evaluated is not evaluated again.

    Masks are keyed by their packed bits, so memory is ``n_features / 8`` bytes per distinct mask.
    ``n_calls`` counts requests and ``n_evaluations`` the evaluations actually run.

    Examples
    --------
    >>> import numpy as np
    >>> f = CachedObjective(lambda m: float(m.sum()))
    >>> f(np.array([True, False])), f(np.array([True, False])), f.n_evaluations
    (1.0, 1.0, 1)
    """

    def __init__(self, objective: MaskObjective, *, enabled: bool = True):
        self.objective = objective
        self.enabled = enabled
        self.cache: dict[bytes, float] = {}
        self.n_calls = 0
        self.n_evaluations = 0

    @staticmethod
    def key(mask: np.ndarray) -> bytes:
        return np.packbits(np.asarray(mask, dtype=bool)).tobytes() + bytes([len(mask) % 8])

    def __call__(self, mask: np.ndarray) -> float:
        self.n_calls += 1
        if not self.enabled:
            self.n_evaluations += 1
            return float(self.objective(mask))
        k = self.key(mask)
        value = self.cache.get(k)
        if value is None:
            self.n_evaluations += 1
            value = float(self.objective(mask))
            self.cache[k] = value
        return value
