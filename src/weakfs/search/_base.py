"""The search contract shared by every mask search: objective protocol, result, shared helpers.

A *search strategy* proposes boolean masks over ``n_features`` features and asks an *objective*
for their fitness (higher is better); it knows nothing about data.  An *objective* knows nothing
about the search.  Every strategy has the same entry point::

    result = strategy.run(objective, n_features=None, *, random_state=None)

where ``objective`` is either

* a :class:`MaskObjective`: an object with ``n_features`` and ``evaluate(masks) -> (fitness,
  weights)`` (``masks`` a ``(m, d)`` bool array, ``fitness`` shape ``(m,)``, ``weights`` shape
  ``(m, d)`` per-feature weights or ``None``), or
* a plain callable ``f(mask) -> float``, wrapped by :func:`as_objective` (then ``n_features`` must
  be given).

Strategies that need more than fitness ask for it explicitly: FSGA needs weights, and its
relevance test ``objective.relevance_importances(best_mask, suspects, seed)``.  ``run`` returns a
:class:`SearchResult`.  The model is scikit-learn's RFE, whose search is driven by a scoring
callback it does not inspect.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np
from sklearn.utils import check_random_state

__all__ = [
    "CROSSOVER_PROPORTIONS",
    "CachedObjective",
    "FunctionObjective",
    "MaskObjective",
    "MaskSearch",
    "SearchResult",
    "as_objective",
    "ensure_nonempty",
    "evaluate_masks",
    "generation_record",
]

CROSSOVER_PROPORTIONS = np.array([0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8])
"""Crossover proportions shared by SEW-IL's FSGA and the classic GA (Feofanov et al., 2022)."""


@runtime_checkable
class MaskObjective(Protocol):
    """What every search optimises: fitness (and optionally feature weights) of a batch of masks."""

    n_features: int

    def evaluate(self, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]: ...


class FunctionObjective:
    """A :class:`MaskObjective` made from a function ``f(mask) -> float`` (no feature weights).

    Examples
    --------
    >>> import numpy as np
    >>> f = FunctionObjective(lambda m: float(m.sum()), n_features=3)
    >>> f.evaluate(np.array([[True, False, True], [False, False, True]]))
    (array([2., 1.]), None)
    """

    def __init__(self, function: Callable[[np.ndarray], float], n_features: int):
        self.function = function
        self.n_features = int(n_features)

    def __call__(self, mask: np.ndarray) -> float:
        return float(self.function(mask))

    def evaluate(self, masks: np.ndarray) -> tuple[np.ndarray, None]:
        return np.array([float(self.function(m)) for m in np.asarray(masks, dtype=bool)]), None


def as_objective(objective, n_features: int | None = None) -> MaskObjective:
    """The :class:`MaskObjective` behind ``objective`` (an objective, or a callable on one mask).

    ``n_features`` is required for a plain callable and, when given, must agree with an
    objective's own ``n_features``.
    """
    if hasattr(objective, "evaluate"):
        own = getattr(objective, "n_features", None)
        if own is None:
            if n_features is None:
                raise TypeError("the objective has no n_features: pass n_features to run()")
            objective.n_features = int(n_features)
        elif n_features is not None and int(n_features) != int(own):
            raise ValueError(
                f"n_features={n_features} disagrees with the objective's n_features={own}"
            )
        return objective
    if not callable(objective):
        raise TypeError(
            "an objective is a callable f(mask) -> float or an object with n_features and "
            f"evaluate(masks); got {type(objective).__name__}"
        )
    if n_features is None:
        n_features = getattr(objective, "n_features", None)
    if n_features is None:
        raise TypeError(
            "the objective must have n_features or be called through run(objective, n_features)"
        )
    return FunctionObjective(objective, n_features)


def evaluate_masks(objective: MaskObjective, masks: np.ndarray):
    """``(fitness, weights)`` of a batch of masks as float arrays (``weights`` may be ``None``)."""
    fitness, weights = objective.evaluate(np.asarray(masks, dtype=bool))
    fitness = np.asarray(fitness, dtype=float)
    return fitness, None if weights is None else np.asarray(weights, dtype=float)


class CachedObjective:
    """Wrap an objective so that a mask already evaluated is not evaluated again.

    The cache holds the ``(fitness, weights)`` pair of every distinct mask (``weights`` is
    ``None`` for an objective that gives none), keyed by the mask's packed bits.  ``n_calls``
    counts the masks asked for and ``n_evaluations`` those actually evaluated.  The wrapper is
    itself a callable on one mask and a :class:`MaskObjective`.

    Parameters
    ----------
    objective : callable or MaskObjective
        ``f(mask) -> float``, asked one mask at a time (no weights); or an object with
        ``evaluate(masks) -> (fitness, weights)``; or, with ``batch=True``, a function
        ``f(masks) -> (fitness, weights)``.  The last two get the new masks of a batch in one
        call, in order of first appearance (so that they can evaluate them in parallel).
    enabled : bool, default=True
        Without the cache every mask asked for is evaluated (and counted).
    batch : bool, default=False
        Whether ``objective`` is a function of a batch of masks.

    Examples
    --------
    >>> import numpy as np
    >>> f = CachedObjective(lambda m: float(m.sum()))
    >>> f(np.array([True, False])), f(np.array([True, False])), f.n_evaluations
    (1.0, 1.0, 1)
    """

    def __init__(self, objective, *, enabled: bool = True, batch: bool = False):
        self.objective = objective
        self.enabled = enabled
        self.batch = batch
        self.cache: dict[bytes, tuple[float, np.ndarray | None]] = {}
        self.n_calls = 0
        self.n_evaluations = 0
        self.n_features = getattr(objective, "n_features", None)

    @staticmethod
    def key(mask: np.ndarray) -> bytes:
        return np.packbits(np.asarray(mask, dtype=bool)).tobytes() + bytes([len(mask) % 8])

    def _evaluate(self, masks: np.ndarray) -> list[tuple[float, np.ndarray | None]]:
        """``(fitness, weights)`` of each of ``masks`` from the wrapped objective (counted)."""
        self.n_evaluations += len(masks)
        if self.batch:
            fitness, weights = self.objective(masks)
        elif hasattr(self.objective, "evaluate") and not callable(self.objective):
            fitness, weights = evaluate_masks(self.objective, masks)
        else:
            return [(float(self.objective(m)), None) for m in masks]
        if weights is None:
            return [(float(f), None) for f in fitness]
        return [(float(f), w) for f, w in zip(fitness, weights)]

    def pairs(self, masks: np.ndarray) -> list[tuple[float, np.ndarray | None]]:
        """The ``(fitness, weights)`` pair of every mask, evaluating only the masks not cached."""
        masks = np.asarray(masks, dtype=bool)
        self.n_calls += len(masks)
        if not self.enabled:
            return self._evaluate(masks)
        keys = [self.key(m) for m in masks]
        new: dict[bytes, np.ndarray] = {}
        for k, m in zip(keys, masks):
            if k not in self.cache and k not in new:
                new[k] = m
        if new:
            self.cache.update(zip(new, self._evaluate(np.array(list(new.values())))))
        return [self.cache[k] for k in keys]

    def __call__(self, mask: np.ndarray) -> float:
        return self.pairs(np.asarray(mask, dtype=bool)[None, :])[0][0]

    def evaluate(self, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        pairs = self.pairs(masks)
        fitness = np.array([f for f, _ in pairs])
        if any(w is None for _, w in pairs):
            return fitness, None
        return fitness, np.array([w for _, w in pairs])


@dataclass(kw_only=True)
class SearchResult:
    """Outcome of a mask search (every strategy's ``run`` returns one).

    Attributes
    ----------
    support : ndarray of bool, shape (n_features,)
        The mask the strategy returns as its answer.
    best_mask : ndarray of bool, shape (n_features,)
        The best evaluated candidate of the last population or step (``support`` itself for
        strategies that do not evaluate their answer).
    best_fitness : float
        Its fitness (``nan`` where the answer was not evaluated).
    history : list of dict
        One record per generation, iteration block or step.
    population, fitness, weights : ndarray or None
        The last population with its fitness and feature weights (genetic searches).
    removed : ndarray of bool or None
        Features dropped by FSGA's relevance test.
    ranking : ndarray of int or None
        Features in the order a sequential search added them.
    """

    support: np.ndarray
    best_mask: np.ndarray
    best_fitness: float
    history: list[dict] = field(default_factory=list)
    population: np.ndarray | None = None
    fitness: np.ndarray | None = None
    weights: np.ndarray | None = None
    removed: np.ndarray | None = None
    ranking: np.ndarray | None = None


class MaskSearch(ABC):
    """Base of every search strategy: validates the objective and the seed, then searches.

    Subclasses implement ``_search(objective, rng) -> SearchResult`` with ``objective`` a
    :class:`MaskObjective` and ``rng`` a ``numpy.random.RandomState``.
    """

    def run(self, objective, n_features: int | None = None, *, random_state=None) -> SearchResult:
        """Maximise ``objective`` over masks of ``n_features`` bits.

        Parameters
        ----------
        objective : MaskObjective or callable
            An object with ``n_features`` and ``evaluate(masks)``, or ``f(mask) -> float``.
        n_features : int, optional
            Mask length; required when ``objective`` has no ``n_features``.
        random_state : int, RandomState instance or None, default=None
            Seed of every random draw of the search.

        Returns
        -------
        result : SearchResult
        """
        objective = as_objective(objective, n_features)
        return self._search(objective, check_random_state(random_state))

    @abstractmethod
    def _search(self, objective: MaskObjective, rng: np.random.RandomState) -> SearchResult: ...


@dataclass(kw_only=True, eq=False)
class GeneticSearch(MaskSearch):
    """Parameters shared by the generational GAs (FSGA, CGA): an elite of ``n_parents`` out of
    ``population_size`` candidates mated for ``n_generations`` generations."""

    n_generations: int = 20
    population_size: int = 40
    n_parents: int = 8
    max_mutations: int | None = None
    verbose: bool | str = "auto"

    def _check_parents(self) -> None:
        if self.n_parents < 2 or self.n_parents > self.population_size:
            raise ValueError(
                f"n_parents must be in [2, population_size={self.population_size}]; "
                f"got {self.n_parents}"
            )


def generation_record(
    generation: int, population: np.ndarray, fitness: np.ndarray, **extra
) -> dict:
    """One row of a GA's ``history``: best and mean fitness and subset size of a generation."""
    best = int(np.argmax(fitness))  # the first best, as the stable descending sort ranks it
    return {
        "generation": generation,
        "best_fitness": float(fitness[best]),
        "mean_fitness": float(np.mean(fitness)),
        "best_size": int(population[best].sum()),
        "mean_size": float(population.sum(axis=1).mean()),
        **extra,
    }


def ensure_nonempty(population: np.ndarray, allowed: np.ndarray, rng) -> np.ndarray:
    """Give every empty candidate one random allowed feature (in place; returns ``population``)."""
    for r in np.flatnonzero(~population.any(axis=1)):
        population[r, rng.choice(np.flatnonzero(allowed))] = True
    return population
