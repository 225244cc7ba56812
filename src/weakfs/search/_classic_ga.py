"""CGA: the classic genetic algorithm used as a search baseline by SEW-IL (paper §3.2, Table 3).

Binary candidates drawn uniformly (each feature with probability 1/2), ``n_parents`` elite
candidates kept, children by single-point crossover of two random elite parents (the cut at a
proportion ``p`` in ``{0.2, ..., 0.8}`` of the feature vector, paper Figure 2) followed by
mutation (flip ``1..max_mutations`` random bits); the best candidate of the last population is
returned.  It needs only fitness values: any ``f(mask) -> float`` objective (e.g. a
:class:`~weakfs.search.CachedObjective`) or an object with ``evaluate(masks)``.
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

__all__ = ["ClassicGA"]


@dataclass(kw_only=True, eq=False)
@fill_doc
class ClassicGA(GeneticSearch):
    """Classic genetic algorithm over feature masks (CGA).

    Parameters
    ----------
    init_prob : float, default=0.5
        Probability that a feature is in an initial candidate.
    %(ga_population)s
    max_mutations : int or None, default=None
        Bits flipped per child: ``1..max_mutations`` (``None``: ``floor(sqrt(d) / 2)``, the same
        scale as FSGA's swap mutation).
    %(verbose)s

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.search import ClassicGA
    >>> res = ClassicGA(n_generations=3).run(lambda m: float(m[:2].sum()))
    Traceback (most recent call last):
    ...
    TypeError: the objective must have n_features or be called through run(objective, n_features)
    >>> res = ClassicGA(n_generations=3).run(lambda m: float(m[:2].sum()), 10, random_state=0)
    >>> res.support.shape
    (10,)
    """

    init_prob: float = 0.5

    def _search(self, objective: MaskObjective, rng: np.random.RandomState) -> SearchResult:
        d = int(objective.n_features)
        self._check_parents()
        max_mut = (
            max(1, int(np.floor(np.sqrt(d))) // 2)
            if self.max_mutations is None
            else int(self.max_mutations)
        )
        allowed = np.ones(d, dtype=bool)
        population = rng.uniform(size=(self.population_size, d)) < self.init_prob
        population = ensure_nonempty(population, allowed, rng)
        pairs = np.array(list(combinations(range(self.n_parents), 2)))
        history: list[dict] = []
        n_children = self.population_size - self.n_parents
        for g in progress(range(self.n_generations), enabled=self.verbose, desc="CGA"):
            fitness, _ = evaluate_masks(objective, population)
            order = np.argsort(-fitness, kind="stable")
            history.append(generation_record(g, population, fitness))
            parents = population[order[: self.n_parents]]
            which = pairs[rng.choice(len(pairs), n_children)]
            swap = rng.randint(2, size=n_children).astype(bool)
            cuts = np.floor(rng.choice(CROSSOVER_PROPORTIONS, n_children) * d).astype(int)
            first = np.where(swap, which[:, 1], which[:, 0])
            second = np.where(swap, which[:, 0], which[:, 1])
            left = np.arange(d)[None, :] < cuts[:, None]
            children = np.where(left, parents[first], parents[second])
            n_flip = rng.randint(1, max_mut + 1, size=n_children)
            for c in range(n_children):
                flip = rng.choice(d, min(int(n_flip[c]), d), replace=False)
                children[c, flip] = ~children[c, flip]
            population = np.vstack([parents, children])
            population = ensure_nonempty(population, allowed, rng)
        fitness, _ = evaluate_masks(objective, population)
        order = np.argsort(-fitness, kind="stable")
        best = order[0]
        history.append(generation_record(self.n_generations, population, fitness))
        return SearchResult(
            support=population[best].copy(),
            best_mask=population[best].copy(),
            best_fitness=float(fitness[best]),
            history=history,
            population=population,
            fitness=fitness,
        )
