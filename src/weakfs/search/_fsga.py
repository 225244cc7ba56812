"""FSGA: the feature-selection genetic algorithm of SEW-IL (Feofanov, Devijver & Amini, 2022, §3.3).

A search strategy only (see :mod:`weakfs.search._base` for the contract): it proposes boolean
masks and asks a :class:`~weakfs.search.MaskObjective` for their fitness (higher is better) and
feature weights.  Beyond the contract FSGA needs

* ``evaluate(masks)`` to return weights ``(m, d)`` (0 for unselected features), and
* ``relevance_importances(best_mask, suspects, seed) -> (imp_suspects, imp_copies)``: importances of
  the suspect features and of independently permuted copies of them in one model fit on
  ``[best subset, suspects, permuted suspects]`` (only needed when ``relevance_test=True``).

Constants, as in the authors' reference code: population 40, 8 elite parents, 20 generations,
initial subsets of ``floor(sqrt(d))`` random features, crossover proportions ``{0.2, ..., 0.8}``,
swap mutation of ``1..floor(n0/2)`` features, suspects at or below ``1/(5 n0)`` of the normalised
mean weight, relevance threshold ``1e-4``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from weakfs._docstrings import fill_doc
from weakfs._progress import progress
from weakfs.search._base import (
    CROSSOVER_PROPORTIONS,
    GeneticSearch,
    MaskObjective,
    SearchResult,
    ensure_nonempty,
    evaluate_masks,
    generation_record,
)

__all__ = ["FSGA", "weighted_crossover"]


def _backfill(parents, parent_w, removed, targets, rng) -> None:
    """Give each parent random features it lacks (never removed ones, weight 1e-10) until it has
    ``targets[r]`` features (in place; a parent already that large is left alone)."""
    for r in range(parents.shape[0]):
        pool = np.flatnonzero(~parents[r] & ~removed)
        quota = min(int(targets[r]) - int(parents[r].sum()), pool.size)
        if quota > 0:
            fill = rng.choice(pool, quota, replace=False)
            parents[r, fill] = True
            parent_w[r, fill] = 1e-10


def weighted_crossover(
    w0: np.ndarray, m0: np.ndarray, w1: np.ndarray, m1: np.ndarray, proportion: float, length: int
) -> np.ndarray:
    """Child of two parents: the ``floor(p L)`` highest-weighted features of the first parent, then
    the highest-weighted features of the second not yet taken, then (if the second parent runs
    out) the next features of the first parent, up to ``L`` features."""
    d = m0.shape[0]
    child = np.zeros(d, dtype=bool)
    first = np.flatnonzero(m0)
    first = first[np.argsort(-w0[first], kind="stable")]
    second = np.flatnonzero(m1)
    second = second[np.argsort(-w1[second], kind="stable")]
    n_first = min(int(np.floor(length * proportion)), first.size)
    child[first[:n_first]] = True
    rest = second[~child[second]][: max(length - n_first, 0)]
    child[rest] = True
    missing = length - int(child.sum())
    if missing > 0:
        more = first[~child[first]][:missing]
        child[more] = True
    return child


@dataclass(kw_only=True, eq=False)
@fill_doc
class FSGA(GeneticSearch):
    """Feature-selection genetic algorithm with weighted crossover and a permutation relevance test.

    Parameters
    ----------
    %(ga_population)s
    initial_size : int or None, default=None
        Features per initial candidate (``None``: ``floor(sqrt(d))``).
    max_mutations : int or None, default=None
        Swap mutation draws ``1..max_mutations`` features (``None``: ``floor(initial_size / 2)``).
    mutation_prob : float, default=1.0
        Probability that a child is mutated ((ref) experiments use 1).
    length_mutation : bool, default=False
        Also mutate the subset length: grow, shrink or keep (one third each) by
        ``1..max_mutations`` random features (mentioned in paper §3.3 without details; not in the
        reference code).  Off by default: with CBIL it let subsets collapse to 2 features on
        Protein (see docs/sewil.md).
    max_length_change : int or None, default=None
        Only with ``length_mutation=True``: bounds the length mutation.  ``None``: a child grows
        or shrinks by ``1..max_mutations`` features and may shrink to one feature.  An int ``b``:
        it grows or shrinks by ``1..b`` features, and a shrink never leaves fewer than
        ``max(1, initial_size - b)`` features, so lengths cannot drift down to a handful of
        features over the generations (a child already below that floor may only grow or keep).
    relevance_test : bool, default=True
    relevance_threshold : float, default=1e-4
    weight_threshold : float or None, default=None
        Suspect threshold on the normalised mean weight (``None``: ``1 / (5 initial_size)``).
    strip_removed : bool, default=False
        What the features removed by the relevance test leave behind.  ``False`` (the authors'
        code): they are only barred from mutation and back-filling; the elite keep them and pass
        them on, and each generation the elite are topped up to ``initial_size`` features with
        random non-removed ones.  ``True``: they are also struck from the elite (refilled with
        random features to their former size) and from every child.
    final : {"vote", "best"}, default="vote"
        ``"vote"``: features chosen by at least ``vote_threshold`` of the final population (the
        paper's rule: its text describes it, and its reported feature counts exceed what one
        candidate can hold); ``"best"``: the best candidate of the final population (the
        authors' published code).
    vote_threshold : float, default=0.1
        Only for ``final="vote"``: the paper gives no threshold; 0.1 is our reading.
    %(verbose)s

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.search import FSGA
    >>> class Obj:
    ...     n_features = 16
    ...     def evaluate(self, masks):
    ...         good = np.zeros(16); good[:3] = 1
    ...         fit = masks @ good - 0.1 * masks.sum(1)
    ...         return fit, masks * (good + 0.01)
    >>> fsga = FSGA(n_generations=5, relevance_test=False, final="best")
    >>> res = fsga.run(Obj(), random_state=0)
    >>> res.support.shape
    (16,)
    """

    initial_size: int | None = None
    mutation_prob: float = 1.0
    length_mutation: bool = False
    max_length_change: int | None = None
    relevance_test: bool = True
    relevance_threshold: float = 1e-4
    weight_threshold: float | None = None
    strip_removed: bool = False
    final: str = "vote"
    vote_threshold: float = 0.1

    def _check(self, d: int):
        self._check_parents()
        if self.final not in ("vote", "best"):
            raise ValueError(f"final must be 'vote' or 'best'; got {self.final!r}")
        if d < 2:
            raise ValueError(f"FSGA needs at least 2 features; got {d}")
        n0 = int(np.floor(np.sqrt(d))) if self.initial_size is None else int(self.initial_size)
        if not 1 <= n0 <= d:
            raise ValueError(f"initial_size must be in [1, {d}]; got {n0}")
        max_mut = n0 // 2 if self.max_mutations is None else int(self.max_mutations)
        if self.max_length_change is not None and int(self.max_length_change) < 1:
            raise ValueError(
                f"max_length_change must be None or at least 1; got {self.max_length_change}"
            )
        w_thr = 1.0 / (5 * n0) if self.weight_threshold is None else float(self.weight_threshold)
        return n0, max_mut, w_thr

    def _mutate(
        self, child: np.ndarray, allowed: np.ndarray, max_mut: int, rng, n0: int = 1
    ) -> np.ndarray:
        """Swap mutation, then (``length_mutation=True``) grow, shrink or keep the length."""
        child = child.copy()
        if max_mut >= 1 and rng.uniform() <= self.mutation_prob:
            ones = np.flatnonzero(child)
            zeros = np.flatnonzero(~child & allowed)
            n_mut = int(rng.randint(1, max_mut + 1))
            n_mut = min(n_mut, ones.size, zeros.size)
            if n_mut > 0:
                child[rng.choice(zeros, n_mut, replace=False)] = True
                child[rng.choice(ones, n_mut, replace=False)] = False
        if self.max_length_change is None:  # up to max_mutations features, down to one
            limit, floor = max_mut, 1
        else:  # bounded: 1..b features, never below initial_size - b
            limit = int(self.max_length_change)
            floor = max(1, n0 - limit)
        if self.length_mutation and limit >= 1:
            move = int(rng.randint(3))  # 0 keep, 1 grow, 2 shrink
            amount = int(rng.randint(1, limit + 1))
            if move == 1:
                zeros = np.flatnonzero(~child & allowed)
                amount = min(amount, zeros.size)
                if amount > 0:
                    child[rng.choice(zeros, amount, replace=False)] = True
            elif move == 2:
                ones = np.flatnonzero(child)
                amount = min(amount, ones.size - floor)
                if amount > 0:
                    child[rng.choice(ones, amount, replace=False)] = False
        return child

    def _search(self, objective: MaskObjective, rng: np.random.RandomState) -> SearchResult:
        d = int(objective.n_features)
        n0, max_mut, w_thr = self._check(d)
        pop_size, n_par = self.population_size, self.n_parents
        removed = np.zeros(d, dtype=bool)
        population = np.zeros((pop_size, d), dtype=bool)
        for r in range(pop_size):
            population[r, rng.choice(d, n0, replace=False)] = True
        pairs = np.array(list(combinations(range(n_par), 2)))
        history: list[dict] = []
        gens = progress(range(self.n_generations), enabled=self.verbose, desc="FSGA")
        for g in gens:
            fitness, weights = evaluate_masks(objective, population)
            if weights is None:
                raise TypeError("FSGA needs an objective whose evaluate() returns feature weights")
            weights = np.where(population, weights, 0.0)
            order = np.argsort(-fitness, kind="stable")
            best = order[0]
            history.append(generation_record(g, population, fitness, n_removed=int(removed.sum())))
            parents = population[order[:n_par]].copy()
            parent_w = weights[order[:n_par]].copy()
            if self.relevance_test:
                total = weights.sum()
                avg = weights.sum(axis=0) / total if total > 0 else np.zeros(d)
                suspects = np.flatnonzero((avg <= w_thr) & ~removed & population.any(axis=0))
                if suspects.size:
                    seed = int(rng.randint(np.iinfo(np.int32).max))
                    imp_s, imp_c = objective.relevance_importances(population[best], suspects, seed)
                    newly = suspects[
                        np.abs(np.asarray(imp_s) - np.asarray(imp_c)) < self.relevance_threshold
                    ]
                    removed[newly] = True
                if not self.strip_removed:  # reference: elite kept as they are, topped up to n0
                    _backfill(parents, parent_w, removed, np.full(n_par, n0), rng)
                elif removed.any():  # refill stripped parents to their size before stripping
                    targets = parents.sum(axis=1)
                    parents[:, removed] = False
                    parent_w[:, removed] = 0.0
                    _backfill(parents, parent_w, removed, targets, rng)
            allowed = ~removed
            n_children = pop_size - n_par
            props = rng.choice(CROSSOVER_PROPORTIONS, n_children)
            which = pairs[rng.choice(len(pairs), n_children)]
            dominant = rng.randint(2, size=n_children)
            children = np.zeros((n_children, d), dtype=bool)
            for c in range(n_children):
                a, b = which[c]
                # the reference counts the dominant parent's features with non-zero weight
                length = int(np.count_nonzero(parent_w[a if dominant[c] == 0 else b]))
                child = weighted_crossover(
                    parent_w[a], parents[a], parent_w[b], parents[b], props[c], length
                )
                children[c] = self._mutate(child, allowed, max_mut, rng, n0)
            population = np.vstack([parents, children])
            if self.strip_removed:
                population[:, removed] = False
            population = ensure_nonempty(population, allowed, rng)
        fitness, weights = evaluate_masks(objective, population)
        order = np.argsort(-fitness, kind="stable")
        best = order[0]
        history.append(
            generation_record(self.n_generations, population, fitness, n_removed=int(removed.sum()))
        )
        if self.final == "vote":
            freq = population.mean(axis=0)
            support = (freq >= self.vote_threshold) & ~removed
            if not support.any():
                support = population[best].copy()
        else:
            support = population[best].copy()
        return SearchResult(
            support=support,
            best_mask=population[best].copy(),
            best_fitness=float(fitness[best]),
            history=history,
            population=population,
            fitness=fitness,
            weights=weights,
            removed=removed,
        )
