"""SEW-IL: semi-supervised wrapper feature selection with imperfect labels.

Feofanov, Devijver & Amini, "Semi-supervised Wrapper Feature Selection by Modeling Imperfect
Labels", arXiv:1911.04841, 2019.  Steps:

1. self-learning (SLA, :mod:`weakfs.semi_supervised._self_learning`) pseudo-labels the unlabeled
   rows whose vote passes the automatic per-class threshold;
2. each candidate feature subset is scored by a random forest fit on labeled + pseudo-labeled rows
   and a criterion (default CBIL; also CB, OOB, TB) -- :class:`ForestSubsetObjective`;
3. a search strategy (default FSGA; also the classic GA and forward search) minimises it.
"""

from __future__ import annotations

import numbers
import warnings
from typing import ClassVar

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from scipy import sparse
from sklearn.base import _fit_context
from sklearn.utils._param_validation import Interval, StrOptions

from weakfs._docstrings import fill_doc
from weakfs._labels import check_semi_supervised_labels
from weakfs._selection import SupportSelector
from weakfs._tree import BinnedMatrix
from weakfs._validation import (
    check_n_features_to_select,
    n_features_to_select_constraint,
    spawn_seeds,
    validate_X_y,
)
from weakfs.search import FSGA, CachedObjective, ClassicGA, ForwardSearch, SearchResult
from weakfs.semi_supervised._criteria import CRITERIA, ForestEvidence, get_criterion
from weakfs.semi_supervised._self_learning import (
    FORESTS,
    decode_labels,
    make_forest,
    self_learn,
    warn_if_nothing_pseudo_labeled,
)
from weakfs.semi_supervised._ssl_baselines import paper_default_k

__all__ = ["ForestSubsetObjective", "SEWILSelector"]


def _as_float32(X) -> np.ndarray:
    if sparse.issparse(X):
        X = X.toarray()
    return np.ascontiguousarray(X, dtype=np.float32)


class ForestSubsetObjective:
    """Fitness of feature subsets: ``-criterion`` of a forest fit on labeled + pseudo-labeled rows.

    Implements the search protocol of :mod:`weakfs.search` (``n_features``, ``evaluate(masks)``,
    ``relevance_importances(best, suspects, seed)``) and is also a plain ``f(mask) -> float``
    callable.  Every forest uses the same seed, so a mask's value is a function of the mask and the
    cache (a :class:`~weakfs.search.CachedObjective`) is exact.  Candidates are fit in parallel with
    joblib threads (scikit-learn's tree building releases the GIL).

    Parameters
    ----------
    X : ndarray (n_train, d)
        Labeled and pseudo-labeled rows.
    y : ndarray of int (n_train,)
        Class indices (true or pseudo).
    is_true_label : ndarray of bool (n_train,)
    criterion : criterion object or name
    X_unlabeled : ndarray or None
        Unlabeled training rows (the transductive bound needs their votes).
    n_estimators, seed, n_jobs : forest size, forest seed, parallel jobs over candidates.
    forest : {"weakfs", "sklearn"}
        weakfs's forest (the rows are binned once here and every candidate's forest is grown on
        a subset of the binned columns) or scikit-learn's ``RandomForestClassifier``.
    """

    def __init__(
        self,
        X,
        y,
        is_true_label,
        criterion="cbil",
        *,
        X_unlabeled=None,
        n_estimators: int = 200,
        seed: int = 0,
        n_jobs: int | None = None,
        forest: str = "weakfs",
    ):
        self.X = _as_float32(X)
        self.y = np.asarray(y, dtype=np.intp)
        self.is_true_label = np.asarray(is_true_label, dtype=bool)
        self.X_unlabeled = None if X_unlabeled is None else _as_float32(X_unlabeled)
        self.criterion = get_criterion(criterion)
        self.n_estimators = n_estimators
        self.seed = int(seed)
        self.n_jobs = n_jobs
        self.forest = forest
        make_forest(forest, 1, 0, 1)  # rejects an unknown kind now, not inside a search
        self._binned = BinnedMatrix.from_array(self.X) if forest == "weakfs" else None
        self.n_features = self.X.shape[1]
        self.n_classes = int(self.y.max()) + 1
        # one forest per distinct mask: the cache keeps its (fitness, importances) pair
        self._cached = CachedObjective(self._fit_masks, batch=True)

    @property
    def n_evaluations(self) -> int:
        """Distinct masks evaluated (forest fits of :meth:`evaluate`)."""
        return self._cached.n_evaluations

    @property
    def n_calls(self) -> int:
        """Masks asked for through :meth:`evaluate` (cached or not)."""
        return self._cached.n_calls

    def _fit(self, columns, *, n_jobs=1, row_orders=None):
        """A forest on ``columns`` (with the objective's seed); ``row_orders`` permutes columns."""
        forest = make_forest(self.forest, self.n_estimators, self.seed, n_jobs, oob_score=False)
        if self._binned is not None:
            binned = self._binned.columns(columns, row_orders=row_orders)
            return forest.fit_binned(binned, self.y, n_classes=self.n_classes)
        data = self.X[:, columns]
        for i, order in enumerate(row_orders or ()):
            if order is not None:
                data[:, i] = data[order, i]
        with warnings.catch_warnings():
            # a few rows may never be out of bag with few trees: the criteria drop them
            warnings.simplefilter("ignore", UserWarning)
            return forest.set_params(oob_score=True).fit(data, self.y)

    def _subset_evidence(self, columns, unlabeled: bool):
        """One forest on ``columns``: the evidence every criterion reads, and its importances."""
        forest = self._fit(columns)
        classes = forest.classes_.astype(np.intp)
        oob = np.full((self.X.shape[0], self.n_classes), np.nan)
        oob[:, classes] = forest.oob_decision_function_
        unl_votes = None
        if unlabeled and self.X_unlabeled is not None:
            unl_votes = np.zeros((self.X_unlabeled.shape[0], self.n_classes))
            unl_votes[:, classes] = forest.predict_proba(self.X_unlabeled[:, columns])
        evidence = ForestEvidence(oob, self.y, self.is_true_label, unl_votes)
        return evidence, forest.feature_importances_

    def _score(self, columns):
        unlabeled = getattr(self.criterion, "needs_unlabeled_votes", False)
        evidence, importances = self._subset_evidence(columns, unlabeled)
        return float(self.criterion(evidence)), importances

    def _run(self, columns_list):
        jobs = (delayed(self._score)(cols) for cols in columns_list)
        return Parallel(n_jobs=self.n_jobs, prefer="threads")(jobs)

    def _fit_masks(self, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Fitness and full-length importance vectors of new masks: one forest each, in parallel."""
        results = self._run([np.flatnonzero(m) for m in masks])
        weights = np.zeros(masks.shape)
        for w, mask, (_, imp) in zip(weights, masks, results):
            w[np.flatnonzero(mask)] = imp
        return np.array([-value for value, _ in results]), weights

    def evaluate(self, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Fitness (``-criterion``) and full-length importance vectors of a batch of masks."""
        return self._cached.evaluate(masks)

    def __call__(self, mask) -> float:
        return float(self.evaluate(np.asarray(mask, dtype=bool)[None, :])[0][0])

    def evidence(self, mask) -> ForestEvidence:
        """The evidence every criterion reads (OOB votes, labels, votes on the unlabeled rows) of
        the forest fit on ``mask``, with the objective's seed; not cached, not counted.

        Lets one forest serve several criteria (the paper's Table 2 compares them per subset).
        """
        columns = np.flatnonzero(np.asarray(mask, dtype=bool))
        return self._subset_evidence(columns, True)[0]

    def details(self, mask) -> dict:
        """Criterion value, importances and mislabeling matrix of one mask (evaluated if new).

        The mislabeling matrix comes from the mask's forest fit again (the same forest: same
        seed), which is not counted as an evaluation.
        """
        mask = np.asarray(mask, dtype=bool)
        fitness, weights = self.evaluate(mask[None, :])
        evidence, _ = self._subset_evidence(np.flatnonzero(mask), False)
        return {
            "value": float(-fitness[0]),
            "weights": weights[0],
            "mislabeling_matrix": evidence.mislabeling(),
        }

    def relevance_importances(self, best_mask, suspects, seed):
        """Importances of suspects and of their permuted copies in one forest (FSGA's test)."""
        rng = np.random.RandomState(seed)
        best_cols = np.flatnonzero(best_mask)
        suspects = np.asarray(suspects, dtype=np.intp)
        nb, ns = best_cols.size, suspects.size
        n = self.X.shape[0]
        orders = [None] * (nb + ns) + [rng.permutation(n) for _ in range(ns)]
        columns = np.concatenate([best_cols, suspects, suspects])
        forest = self._fit(columns, n_jobs=self.n_jobs, row_orders=orders)
        imp = forest.feature_importances_
        return imp[nb : nb + ns], imp[nb + ns :]


@fill_doc
class SEWILSelector(SupportSelector):
    """SEW-IL: semi-supervised wrapper feature selection by modeling imperfect labels.

    Unlabeled rows carry ``-1`` (scikit-learn's convention).  Self-learning pseudo-labels the
    confident unlabeled rows; a genetic search then minimises the C-bound with imperfect labels
    (CBIL) of a random forest trained on labeled + pseudo-labeled rows.

    Parameters
    ----------
    criterion : str or callable, default="cbil"
        Subset criterion (lower is better): ``"cbil"``, CBIL with Theorem 2.4's gamma (the
        paper's), ``"cbil-beta"`` with Proposition 2.3's beta, ``"cbil-labels"`` with the
        margins read at the training rows' own (pseudo-)labels, ``"cb"`` the plain C-bound,
        ``"oob"`` the out-of-bag error, ``"tb"`` / ``"tb-printed"`` the transductive bound with
        its sums over the rows predicted ``k`` or over all rows (as printed); see
        :func:`~weakfs.semi_supervised.get_criterion`.  A callable receives a
        :class:`~weakfs.semi_supervised.ForestEvidence`.
    search : {"fsga", "cga", "fss"}, default="fsga"
        Search strategy: feature-selection GA, classic GA, forward search (10 % per step).
    n_estimators : int, default=200
        Trees of every forest (self-learning and subset evaluation).
    %(forest)s
    n_generations, population_size, n_parents : int, default=20, 40, 8
        Genetic-algorithm sizes ((ref) constants).
    final : {"vote", "best"}, default="vote"
        FSGA output: a vote over the final population (the paper's rule) or its best candidate
        (the authors' published code).
    vote_threshold : float, default=0.1
        Only for ``final="vote"``: features present in at least this fraction of the final
        population are kept.
    length_mutation : bool, default=False
        FSGA also mutates subset lengths (paper §3.3, no details given; absent from the reference
        code, and harmful with CBIL -- see docs/sewil.md).
    max_length_change : int or None, default=None
        Only with ``length_mutation=True``: a length mutation changes a child's length by at
        most this many features and never shrinks it below ``floor(sqrt(d)) - max_length_change``
        (``None``: by up to half the initial size, down to one feature).
    relevance_test : bool, default=True
        FSGA's permutation-based relevance test.
    relevance_threshold : float, default=1e-4
        A suspect is removed when its importance differs from its permuted copy's by less.
    n_features_to_select : "auto", int, float or None, default="auto"
        Only for ``search="fss"``: features to keep (checked, but ignored, by the genetic
        searches).  ``"auto"``: ``ceil(d ** (2/3))``, the
        paper's Table 3; int, fraction in (0, 1] or ``None`` (half) as everywhere in weakfs.
    %(allow_fully_labeled)s
        ``criterion="tb"`` and ``"tb-printed"`` always need unlabeled rows.
    %(random_state)s
        It seeds self-learning, the subset forests and the search.
    %(n_jobs)s
        Jobs run over candidates (and trees of the self-learning forest).
    %(verbose)s

    Attributes
    ----------
    support_ : ndarray of bool (n_features,)
    history_ : DataFrame
        One row per generation: ``best_fitness`` (minus the best criterion value), ``mean_fitness``,
        sizes, features removed so far.
    pseudo_labels_ : ndarray (n_samples,)
        Labels after self-learning (true, pseudo, or ``-1`` if never pseudo-labeled).
    labeled_iter_ : ndarray (n_samples,)
        Self-learning round that labeled each row (0 given, -1 never).
    mislabeling_matrix_ : ndarray (n_classes, n_classes)
        ``P(Yhat = i | Y = j)`` estimated from out-of-bag predictions on the labeled rows for the
        forest of the returned subset.
    criterion_value_ : float
        Criterion of the returned subset.
    removed_features_ : ndarray of int
        Features dropped by FSGA's relevance test.
    ranking_ : ndarray of int or None
        Features in the order a sequential search (``search="forward"``) added them.
    vote_share_ : ndarray of float (n_features,) or None
        Share of the genetic search's last population that selects each feature (what
        :func:`weakfs.plotting.plot_feature_scores` draws); ``None`` for sequential searches.
    n_evaluations_ : int
        Distinct subsets evaluated (forest fits).
    classes_ : ndarray

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import make_classification
    >>> from weakfs.semi_supervised import SEWILSelector
    >>> X, y = make_classification(150, 9, n_informative=3, random_state=0)
    >>> y_semi = y.copy(); y_semi[30:] = -1
    >>> sel = SEWILSelector(n_estimators=10, n_generations=2, population_size=10, n_parents=4,
    ...                     random_state=0).fit(X, y_semi)
    >>> sel.transform(X).shape[0]
    150
    """

    _parameter_constraints: ClassVar[dict] = {
        "criterion": [StrOptions(set(CRITERIA)), callable],
        "search": [StrOptions({"fsga", "cga", "fss"})],
        "n_estimators": [Interval(numbers.Integral, 1, None, closed="left")],
        "forest": [StrOptions(set(FORESTS))],
        "n_generations": [Interval(numbers.Integral, 0, None, closed="left")],
        "population_size": [Interval(numbers.Integral, 3, None, closed="left")],
        "n_parents": [Interval(numbers.Integral, 2, None, closed="left")],
        "final": [StrOptions({"vote", "best"})],
        "vote_threshold": [Interval(numbers.Real, 0, 1, closed="right")],
        "length_mutation": ["boolean"],
        "max_length_change": [None, Interval(numbers.Integral, 1, None, closed="left")],
        "relevance_test": ["boolean"],
        "relevance_threshold": [Interval(numbers.Real, 0, None, closed="left")],
        "n_features_to_select": n_features_to_select_constraint(auto=True),
        "allow_fully_labeled": ["boolean"],
        "random_state": ["random_state"],
        "n_jobs": [None, numbers.Integral],
        "verbose": ["verbose", StrOptions({"auto"})],
    }

    def __init__(
        self,
        criterion="cbil",
        search: str = "fsga",
        *,
        n_estimators: int = 200,
        forest: str = "weakfs",
        n_generations: int = 20,
        population_size: int = 40,
        n_parents: int = 8,
        final: str = "vote",
        vote_threshold: float = 0.1,
        length_mutation: bool = False,
        max_length_change: int | None = None,
        relevance_test: bool = True,
        relevance_threshold: float = 1e-4,
        n_features_to_select="auto",
        allow_fully_labeled: bool = False,
        random_state=None,
        n_jobs: int | None = None,
        verbose: bool | str = "auto",
    ):
        self.criterion = criterion
        self.search = search
        self.n_estimators = n_estimators
        self.forest = forest
        self.n_generations = n_generations
        self.population_size = population_size
        self.n_parents = n_parents
        self.final = final
        self.vote_threshold = vote_threshold
        self.length_mutation = length_mutation
        self.max_length_change = max_length_change
        self.relevance_test = relevance_test
        self.relevance_threshold = relevance_threshold
        self.n_features_to_select = n_features_to_select
        self.allow_fully_labeled = allow_fully_labeled
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _strategy(self, d: int):
        if self.search == "fsga":
            return FSGA(
                n_generations=self.n_generations,
                population_size=self.population_size,
                n_parents=self.n_parents,
                length_mutation=self.length_mutation,
                max_length_change=self.max_length_change,
                relevance_test=self.relevance_test,
                relevance_threshold=self.relevance_threshold,
                final=self.final,
                vote_threshold=self.vote_threshold,
                verbose=self.verbose,
            )
        if self.search == "cga":
            return ClassicGA(
                n_generations=self.n_generations,
                population_size=self.population_size,
                n_parents=self.n_parents,
                verbose=self.verbose,
            )
        k = check_n_features_to_select(self.n_features_to_select, d, auto=paper_default_k)
        return ForwardSearch(n_features_to_select=k, verbose=self.verbose)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Self-learn pseudo-labels, then search the subset minimising the criterion."""
        X, y = validate_X_y(self, X, y, accept_sparse=["csr", "csc"])
        labels = check_semi_supervised_labels(y, require_unlabeled=not self.allow_fully_labeled)
        criterion = get_criterion(self.criterion)
        if getattr(criterion, "needs_unlabeled_votes", False) and labels.n_unlabeled == 0:
            raise ValueError(
                f"criterion={self.criterion!r} needs unlabeled rows (-1) in y: the transductive "
                "bound is computed from the forest's votes on them; y has none"
            )
        d = X.shape[1]
        # checked whatever the search, so that an impossible k fails before any work (the
        # genetic searches choose the size themselves and ignore it)
        check_n_features_to_select(self.n_features_to_select, d, auto=paper_default_k)
        if self.search in ("fsga", "cga") and self.n_parents > self.population_size:
            raise ValueError(
                f"n_parents={self.n_parents} is larger than population_size={self.population_size}"
            )
        Xf = _as_float32(X)
        sla_seed, forest_seed, search_seed = (int(s) for s in spawn_seeds(self.random_state, 3))

        def make_estimator():
            return make_forest(self.forest, self.n_estimators, sla_seed, self.n_jobs)

        sla = self_learn(Xf, labels.y_encoded, make_estimator=make_estimator)
        codes = sla["y_codes"]
        warn_if_nothing_pseudo_labeled(codes, labels.labeled)
        train = codes >= 0
        objective = ForestSubsetObjective(
            Xf[train],
            codes[train],
            labels.labeled[train],
            criterion,
            X_unlabeled=Xf[~labels.labeled] if (~labels.labeled).any() else None,
            n_estimators=self.n_estimators,
            seed=forest_seed,
            n_jobs=self.n_jobs,
            forest=self.forest,
        )
        if d == 1:  # nothing to search: the single feature is the selection
            one = np.ones(1, bool)
            result = SearchResult(support=one, best_mask=one, best_fitness=-objective(one))
        else:
            result = self._strategy(d).run(objective, random_state=search_seed)
        support = np.asarray(result.support, dtype=bool)
        info = objective.details(support)
        self.support_ = support
        self.history_ = pd.DataFrame(result.history)
        self.classes_ = labels.classes
        self.pseudo_labels_ = decode_labels(labels.classes, codes)
        self.labeled_iter_ = sla["labeled_iter"]
        self.sla_thresholds_ = sla["thresholds"]
        self.mislabeling_matrix_ = info["mislabeling_matrix"]
        self.criterion_value_ = info["value"]
        self.removed_features_ = (
            np.flatnonzero(result.removed) if result.removed is not None else np.array([], int)
        )
        self.ranking_ = result.ranking
        # per-feature score of a genetic search: the share of its last population that selects
        # each feature (None for sequential searches, which give ranking_)
        self.vote_share_ = (
            None if result.population is None else np.asarray(result.population).mean(axis=0)
        )
        self.n_evaluations_ = objective.n_evaluations
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
