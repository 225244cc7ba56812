"""Feature selection around any PU classifier: permutation importance under a PU-only score.

The classifier is fitted on part of the rows; each feature's columns are then shuffled in the
held-out rows and the drop of a PU metric (prior-corrected ROC AUC by default) is its importance
(Breiman's permutation importance, scored as :func:`~weakfs.model_selection.make_pu_scorer`
scores PU labels).  Works with weakfs's PU classifiers and with others that follow
scikit-learn's API (pulearn's, for instance).
"""

from __future__ import annotations

import numbers
import warnings
from typing import ClassVar

import numpy as np
from sklearn import config_context
from sklearn.base import BaseEstimator, MetaEstimatorMixin, _fit_context, clone
from sklearn.feature_selection import SelectorMixin
from sklearn.inspection import permutation_importance
from sklearn.model_selection import train_test_split
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils import _safe_indexing, check_random_state
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import check_is_fitted

from weakfs._labels import check_pu_labels
from weakfs._validation import check_n_features_to_select
from weakfs._words import counted
from weakfs.feature_selection._common import TiedScoresWarning, check_meta_input, pu_scorer
from weakfs.model_selection import PUScorer

__all__ = ["PUPermutationSelector"]


class PUPermutationSelector(SelectorMixin, MetaEstimatorMixin, BaseEstimator):
    """Keep the features whose shuffling hurts a PU classifier's PU-only score the most.

    Parameters
    ----------
    estimator : classifier or None, default=None
        A PU classifier (fitted on PU labels, 1 = labeled) with ``predict_proba`` or
        ``decision_function`` (``predict`` for ``scoring="f1"``, ``"accuracy"``, ``"puf"``).
        ``None``: :func:`~weakfs.feature_selection.default_model` (standardised logistic
        regression, whose scores rank rows as ``P(y = 1 | x)`` under SCAR).
    n_features_to_select : int, float or None, default=None
        Features to keep: an int, a fraction in (0, 1] or ``None`` (half).
    scoring : {"roc_auc", "f1", "accuracy", "puf"}, default="roc_auc"
        PU metric whose drop is the importance.
    prior : float or "auto", default="auto"
        Class prior of the metric; ``"auto"``: estimated.
    test_size : float, default=0.3
        Share of rows held out (stratified on the PU labels) for the permutations.
    n_repeats : int, default=5
        Shuffles per feature.
    n_jobs : int or None, default=None
        Parallel permutations (joblib).
    random_state : int, RandomState or None, default=None
        Seeds the split, the shuffles and the prior estimate.

    Attributes
    ----------
    estimator_ : classifier
        The classifier fitted on the training part.
    scores_ : ndarray of shape (n_features,)
        Mean drop of the score when the feature is shuffled (``importances_mean``).
    scores_std_ : ndarray of shape (n_features,)
        Its sd over the shuffles.
    prior_ : float
        The prior the metric used.
    support_ : ndarray of bool
        The selected features.
    n_tied_selected_ : int
        Selected features whose score is not above zero: ties filled in column order, not
        chosen by the data (a :class:`TiedScoresWarning` says so when there are any).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=(400, 5)); y = (X[:, 3] > 0).astype(int)
    >>> s = y * (rng.rand(400) < 0.5)
    >>> sel = PUPermutationSelector(LogisticRegression(), 1, prior=0.5, random_state=0)
    >>> sel.fit(X, s).get_support(indices=True).tolist()
    [3]
    """

    _parameter_constraints: ClassVar[dict] = {
        "estimator": [HasMethods("fit"), None],
        "n_features_to_select": [
            Interval(numbers.Integral, 1, None, closed="left"),
            Interval(numbers.Real, 0, 1, closed="right"),
            None,
        ],
        "scoring": [StrOptions({"roc_auc", "f1", "accuracy", "puf"})],
        "prior": [Interval(numbers.Real, 0, 1, closed="neither"), StrOptions({"auto"})],
        "test_size": [Interval(numbers.Real, 0, 1, closed="neither")],
        "n_repeats": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_jobs": [numbers.Integral, None],
        "random_state": ["random_state"],
    }

    #: what ``scores_`` is, for printed rankings and plots
    SCORE_LABEL = "drop of the PU-corrected score when the feature is shuffled"

    def __init__(
        self,
        estimator=None,
        n_features_to_select=None,
        *,
        scoring: str = "roc_auc",
        prior="auto",
        test_size: float = 0.3,
        n_repeats: int = 5,
        n_jobs=None,
        random_state=None,
    ):
        self.estimator = estimator
        self.n_features_to_select = n_features_to_select
        self.scoring = scoring
        self.prior = prior
        self.test_size = test_size
        self.n_repeats = n_repeats
        self.n_jobs = n_jobs
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y):
        """Fit the classifier on part of ``(X, y)`` and rank features by permutation."""
        X = check_meta_input(self, X, y, y_required=True, accept_sparse=False, finite=True)
        X = np.asarray(X) if not hasattr(X, "iloc") else X
        s = check_pu_labels(y, name="y").astype(int)
        k = check_n_features_to_select(self.n_features_to_select, X.shape[1])
        from weakfs.pu import resolve_class_prior

        resolved = resolve_class_prior(X, s, self.prior, random_state=self.random_state)
        self.prior_, self.prior_how_ = resolved.value, resolved.how
        if s.sum() < 2:  # the held-out part and the fitted part each need a labeled row
            raise ValueError(
                "PU permutation importance needs at least 2 labeled positives (one to fit on, "
                f"one held out to permute on); got {int(s.sum())}"
            )
        seed = check_random_state(self.random_state).randint(2**31 - 1)
        train, test = train_test_split(
            np.arange(X.shape[0]), test_size=self.test_size, stratify=s, random_state=seed
        )
        from weakfs.feature_selection._common import default_model

        inner = default_model() if self.estimator is None else self.estimator
        self.estimator_ = clone(inner).fit(_safe_indexing(X, train), s[train])
        self.scores_, self.scores_std_ = permutation_importances(
            self.estimator_,
            _safe_indexing(X, test),
            s[test],
            pu_scorer(self.scoring, self.prior_),
            n_repeats=self.n_repeats,
            n_jobs=self.n_jobs,
            random_state=seed,
        )
        self.support_ = np.zeros(X.shape[1], dtype=bool)
        self.support_[np.argsort(-self.scores_, kind="stable")[:k]] = True
        self.n_tied_selected_ = max(0, k - int(np.count_nonzero(self.scores_ > 0)))
        if self.n_tied_selected_:
            # few held-out labeled rows: most shuffles move no labeled row past an unlabeled one,
            # the drops are all zero and the stable sort fills the selection in column order
            warnings.warn(
                f"only {k - self.n_tied_selected_} of {counted(X.shape[1], 'feature')} lowered "
                "the PU "
                f"score when shuffled (held-out part: {counted(len(test), 'row')}, "
                f"{int(s[test].sum())} "
                f"labeled); {self.n_tied_selected_} of the {k} selected are in column order, "
                "not chosen by the data. More labeled rows or a larger test_size give the "
                "shuffles something to measure.",
                TiedScoresWarning,
                stacklevel=3,
            )
        return self

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_


def permutation_importances(
    estimator, X, y, scorer, *, n_repeats: int, n_jobs, random_state: int
) -> tuple[np.ndarray, np.ndarray]:
    """Mean and sd of the score's drop per shuffled column: the numbers of scikit-learn's
    ``permutation_importance`` (same shuffles, same arithmetic, equal bit for bit), faster.

    scikit-learn copies ``X`` once per column and sends every shuffle through the whole pipeline
    and the scorer's input checks.  Here a leading ``StandardScaler`` is applied once (it scales
    each column on its own, so the scaled shuffled column equals the shuffled scaled column
    exactly) and the shuffles go to the rest of the pipeline; each worker shuffles the columns of
    one copy in place and puts each column back; the scorer checks the labels once and the
    estimator skips the finiteness check of shuffles of an array already checked finite.
    DataFrames (whose column names the estimator may use) go through scikit-learn's function.
    """
    if hasattr(X, "iloc") or not isinstance(scorer, PUScorer):
        result = permutation_importance(
            estimator,
            X,
            y,
            scoring=scorer,
            n_repeats=n_repeats,
            n_jobs=n_jobs,
            random_state=random_state,
        )
        return result.importances_mean, result.importances_std
    # scikit-learn draws one seed and restarts every column's shuffles from it
    seed = check_random_state(random_state).randint(np.iinfo(np.int32).max + 1)
    model, X_model = _after_column_wise_scaling(estimator, np.asarray(X))
    score = scorer._bound_to(y)
    columns = np.arange(X_model.shape[1])
    n_chunks = min(len(columns), _effective_n_jobs(n_jobs))
    with config_context(assume_finite=True):
        baseline = score(model, X_model)
        parts = Parallel(n_jobs=n_chunks)(
            delayed(_shuffled_column_scores)(model, X_model, chunk, score, seed, n_repeats)
            for chunk in np.array_split(columns, n_chunks)
        )
    importances = baseline - np.concatenate(parts)
    return np.mean(importances, axis=1), np.std(importances, axis=1)


def _effective_n_jobs(n_jobs) -> int:
    from joblib import effective_n_jobs

    return max(1, effective_n_jobs(n_jobs))


def _after_column_wise_scaling(estimator, X: np.ndarray):
    """``(rest of the model, X as the rest sees it)`` when the model starts with a
    ``StandardScaler``; else ``(estimator, X)``."""
    if (
        isinstance(estimator, Pipeline)
        and len(estimator.steps) > 1
        and type(estimator.steps[0][1]) is StandardScaler
    ):
        rest = estimator[1:] if len(estimator.steps) > 2 else estimator.steps[-1][1]
        return rest, estimator.steps[0][1].transform(X)
    return estimator, X


def _shuffled_column_scores(model, X, columns, score, seed: int, n_repeats: int) -> np.ndarray:
    """Scores with each of ``columns`` shuffled ``n_repeats`` times, as scikit-learn shuffles
    them (each column's shuffles start again from ``seed`` and compound)."""
    X_work = np.array(X, copy=True)
    scores = np.empty((len(columns), n_repeats))
    order = np.empty(X.shape[0], dtype=np.intp)
    for i, column in enumerate(columns):
        random_state = np.random.RandomState(seed)
        order[:] = np.arange(X.shape[0])
        for repeat in range(n_repeats):
            random_state.shuffle(order)
            X_work[:, column] = X_work[order, column]
            scores[i, repeat] = score(model, X_work)
        X_work[:, column] = X[:, column]
    return scores
