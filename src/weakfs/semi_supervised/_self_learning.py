"""Self-learning (SLA) with the automatic, bound-minimising per-class threshold.

Feofanov, Devijver & Amini, "Transductive Bounds for the Multi-class Majority Vote Classifier"
(AAAI 2019), as used by SEW-IL (Feofanov, Devijver & Amini, arXiv:1911.04841, 2019, §3.1).
A random forest is fit on the labeled rows; at each round the votes on the remaining unlabeled rows
give, for each class ``k``, the threshold ``theta_k`` that minimises an upper bound on the
conditional Bayes risk of the pseudo-labels; every unlabeled row whose top vote reaches the
threshold of its predicted class is pseudo-labeled and moved to the training set (weights ``1/l``
for true labels and ``1/s`` for the ``s`` pseudo-labels), until nothing passes or nothing is left.

The threshold search is vectorised: for one class ``k`` the rows are sorted by their class-``k``
vote once, so every sum over ``theta <= v_k < gamma`` is a difference of two prefix sums, and the
whole ``theta x gamma`` grid for every other class is evaluated with array operations.  The early
stopping of the (ref) loops ("stop once the value has risen twice in a row, checked from the 5th
point") is applied afterwards to the full grid, which gives the same minimiser as the loops.
"""

from __future__ import annotations

import numbers
import warnings
from numbers import Integral, Real
from typing import ClassVar

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context, clone
from sklearn.ensemble import RandomForestClassifier
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions, validate_params
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_array, check_is_fitted

from weakfs._docstrings import fill_doc
from weakfs._labels import check_semi_supervised_labels
from weakfs._tree import RandomForest
from weakfs._validation import spawn_seeds, validate_X, validate_X_y
from weakfs._words import counted

__all__ = [
    "SelfLearningClassifier",
    "early_stopped_argmin",
    "make_forest",
    "optimal_thresholds",
    "optimal_thresholds_reference",
]

#: the random forests a semi-supervised estimator can grow (``forest=``)
FORESTS = ("weakfs", "sklearn")


def make_forest(kind: str, n_estimators: int, seed: int, n_jobs: int | None, **params):
    """The random forest SEW-IL grows, for :func:`self_learn`'s ``make_estimator``.

    Parameters
    ----------
    kind : {"weakfs", "sklearn"}
        weakfs's own forest (scikit-learn's algorithm on binned columns, faster) or
        scikit-learn's ``RandomForestClassifier``.
    n_estimators : int
        Number of trees.
    seed : int
        ``random_state`` of the forest.
    n_jobs : int or None
        Threads growing the trees (the same trees for any value).
    **params
        Further parameters of the forest (scikit-learn's defaults otherwise).

    Returns
    -------
    forest : classifier
        An unfitted forest with ``fit(X, y, sample_weight)`` and ``predict_proba``.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.semi_supervised import make_forest, self_learn
    >>> X = np.r_[np.zeros((20, 2)), np.ones((20, 2))] + np.arange(40)[:, None] * 0.01
    >>> y = np.full(40, -1)
    >>> y[[0, 1, 20, 21]] = [0, 0, 1, 1]
    >>> out = self_learn(X, y, make_estimator=lambda: make_forest("weakfs", 20, 0, 1))
    >>> out["y_codes"][:20].tolist() == [0] * 20, out["y_codes"][20:].tolist() == [1] * 20
    (True, True)
    """
    if kind == "weakfs":
        return RandomForest(n_estimators, random_state=seed, n_jobs=n_jobs, **params)
    if kind == "sklearn":
        return RandomForestClassifier(
            n_estimators=n_estimators, random_state=seed, n_jobs=n_jobs, **params
        )
    raise ValueError(f"forest must be one of {FORESTS}; got {kind!r}")


_FLOOR = 1e-15


def early_stopped_argmin(values: np.ndarray) -> np.ndarray:
    """Index of the minimum seen by a loop that stops once the value rose twice in a row.

    The loop (ref) visits ``values[0], values[1], ...`` and stops after index ``n >= 4`` when
    ``values[n] > values[n-1] >= values[n-2]``; the answer is the first minimiser among the visited
    points.  Works along the last axis of an array of any shape.
    """
    v = np.asarray(values, dtype=float)
    m = v.shape[-1]
    stop = np.full(v.shape[:-1], m - 1, dtype=np.intp)
    if m >= 5:
        rose = (v[..., 4:] > v[..., 3:-1]) & (v[..., 3:-1] >= v[..., 2:-2])
        any_rose = rose.any(axis=-1)
        first = np.argmax(rose, axis=-1) + 4
        stop = np.where(any_rose, first, stop)
    idx = np.arange(m)
    visited = idx <= stop[..., None]
    masked = np.where(visited, v, np.inf)
    return np.argmin(masked, axis=-1)


def _class_threshold(votes: np.ndarray, pred: np.ndarray, k: int, n_grid: int) -> float:
    """Bound-minimising threshold for class ``k`` (vectorised over the whole grid)."""
    n_u, n_classes = votes.shape
    vk = votes[:, k]
    u_mass = votes.sum(axis=0)  # u_i = sum_x v_i(x)
    if u_mass[k] <= 0:
        return 1.0
    others = np.array([i for i in range(n_classes) if i != k and u_mass[i] > 0], dtype=np.intp)
    theta_min, theta_max = float(vk.min()), float(vk.max())
    thetas = theta_min + np.arange(n_grid) * (theta_max - theta_min) / n_grid
    pred_k = pred == k
    # P(v_k >= theta and pred = k)
    sorted_pred_k = np.sort(vk[pred_k])
    p_sel = (sorted_pred_k.shape[0] - np.searchsorted(sorted_pred_k, thetas, side="left")) / n_u
    p_sel = np.where(p_sel == 0, _FLOOR, p_sel)
    if others.size == 0:
        risk = np.zeros(n_grid) / p_sel
        return float(thetas[early_stopped_argmin(risk)])
    order = np.argsort(vk, kind="stable")
    vk_sorted = vk[order]
    vo = votes[order][:, others]  # (n_u, m)
    # prefix sums with a leading 0: P[t] = sum of the first t rows in sorted order
    zeros = np.zeros((1, others.size))
    pref_i = np.vstack([zeros, np.cumsum(vo, axis=0)]) / u_mass[others]
    pref_m = np.vstack([zeros, np.cumsum(vo * vk_sorted[:, None], axis=0)]) / u_mass[others]
    k_term = (votes[pred_k][:, others] * vk[pred_k][:, None]).sum(axis=0) / u_mass[others]
    # gammas: (n_grid theta, n_grid gamma)
    steps = (np.arange(n_grid) + 1) / n_grid
    gammas = thetas[:, None] + (1.0 - thetas[:, None]) * steps[None, :]
    lo = np.searchsorted(vk_sorted, thetas, side="left")  # rows with v_k < theta
    hi = np.searchsorted(vk_sorted, gammas.ravel(), side="left").reshape(gammas.shape)
    # (m, theta, gamma)
    i_term = pref_i.T[:, hi] - pref_i.T[:, lo][:, :, None]
    m_term = pref_m.T[:, hi] - pref_m.T[:, lo][:, :, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        bound = i_term + np.maximum(k_term[:, None, None] - m_term, 0.0) / gammas[None, :, :]
    # gammas can be 0 only when theta = 1 = gamma grid start; keep a finite value there
    bound = np.where(np.isfinite(bound), bound, np.inf)
    best_gamma = early_stopped_argmin(bound)  # (m, theta)
    inf_bound = np.take_along_axis(bound, best_gamma[..., None], axis=-1)[..., 0]
    risk = (u_mass[others][:, None] * inf_bound).sum(axis=0) / n_u / p_sel
    return float(thetas[early_stopped_argmin(risk)])


def optimal_thresholds(votes: np.ndarray, pred: np.ndarray | None = None, *, n_grid: int = 50):
    """Per-class thresholds minimising the bound on the conditional Bayes risk (SEW-IL §3.1).

    Parameters
    ----------
    votes : ndarray of shape (n_unlabeled, n_classes)
        Class votes (``predict_proba``) of the current classifier on the unlabeled rows.
    pred : ndarray of shape (n_unlabeled,), optional
        Predicted class indices (default ``votes.argmax(axis=1)``).
    n_grid : int, default=50
        Size of the theta grid and of the gamma grid.

    Returns
    -------
    thresholds : ndarray of shape (n_classes,)
    """
    votes = np.asarray(votes, dtype=float)
    if pred is None:
        pred = votes.argmax(axis=1)
    return np.array([_class_threshold(votes, pred, k, n_grid) for k in range(votes.shape[1])])


def optimal_thresholds_reference(votes: np.ndarray, pred=None, *, n_grid: int = 50) -> np.ndarray:
    """Plain-loop version of :func:`optimal_thresholds` (slow; kept to test the vectorised one)."""
    votes = np.asarray(votes, dtype=float)
    if pred is None:
        pred = votes.argmax(axis=1)
    n_u, n_classes = votes.shape
    u_mass = votes.sum(axis=0)
    out = []
    for k in range(n_classes):
        if u_mass[k] <= 0:
            out.append(1.0)
            continue
        vk = votes[:, k]
        tmin, tmax = vk.min(), vk.max()
        thetas = tmin + np.arange(n_grid) * (tmax - tmin) / n_grid
        risks = []
        for n, theta in enumerate(thetas):
            total = 0.0
            for i in range(n_classes):
                if i == k or u_mass[i] <= 0:
                    continue
                vi = votes[:, i]
                kk = np.sum(vi[pred == k] * vk[pred == k]) / u_mass[i]
                best, seen = np.inf, []
                for m in range(n_grid):
                    gamma = theta + (1 - theta) * (m + 1) / n_grid
                    sel = (vk >= theta) & (vk < gamma)
                    ii = np.sum(vi[sel]) / u_mass[i]
                    mm = np.sum(vi[sel] * vk[sel]) / u_mass[i]
                    b = ii + max(kk - mm, 0.0) / gamma if gamma > 0 else np.inf
                    seen.append(b)
                    best = min(best, b)
                    if m >= 4 and seen[-1] > seen[-2] and seen[-2] >= seen[-3]:
                        break
                total += u_mass[i] * best
            p = np.sum((vk >= theta) & (pred == k)) / n_u
            p = p if p > 0 else _FLOOR
            risks.append(total / n_u / p)
            if n >= 4 and risks[-1] > risks[-2] and risks[-2] >= risks[-3]:
                break
        out.append(thetas[int(np.argmin(risks))])
    return np.array(out)


@fill_doc
class SelfLearningClassifier(ClassifierMixin, BaseEstimator):
    """Self-learning with an automatic, bound-minimising threshold per class (SLA).

    Rows labeled ``-1`` are unlabeled (scikit-learn's convention).  At each round the forest votes
    on the remaining unlabeled rows; for each class a threshold minimising the transductive bound
    on the conditional Bayes risk of the pseudo-labels is found on a 50-point grid; rows whose top
    vote reaches the threshold of their predicted class are pseudo-labeled.  True labels weigh
    ``1/l`` each and the ``s`` pseudo-labels ``1/s`` each.

    Parameters
    ----------
    estimator : classifier, default=None
        Base classifier with ``predict_proba`` and ``sample_weight`` support.  ``None`` means a
        random forest of ``n_estimators`` trees (the paper's choice; see ``forest``).
    n_estimators : int, default=200
        Trees of the default forest.
    %(forest)s
    threshold : "auto" or float in (0, 1], default="auto"
        ``"auto"``: the bound-minimising per-class threshold; a float: a fixed vote threshold.
    n_grid : int, default=50
        Grid size of the threshold search.
    max_iter : int or None, default=None
        Maximum number of pseudo-labeling rounds (``None``: until nothing passes or is left).
    %(allow_fully_labeled)s
    %(random_state)s
        It seeds the default forest (one seed drawn from it serves every round); unused with
        a user ``estimator``, which keeps its own.
    %(n_jobs)s
        Jobs of the default forest.

    Attributes
    ----------
    classes_ : ndarray
    estimator_ : classifier
        The final classifier, fit on labeled and pseudo-labeled rows.
    transduction_ : ndarray of shape (n_samples,)
        Labels after self-learning: the true label, the pseudo-label, or ``-1`` if a row was never
        pseudo-labeled.
    labeled_iter_ : ndarray of shape (n_samples,)
        Round in which a row got its label (0 for the given labels, -1 never).
    thresholds_ : list of ndarray
        The per-class thresholds of every round.
    n_iter_ : int
        Classifier fits: 1 + the rounds that pseudo-labeled at least one row.
    termination_condition_ : {"no_change", "all_labeled", "max_iter"}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import make_classification
    >>> from weakfs.semi_supervised import SelfLearningClassifier
    >>> X, y = make_classification(200, 6, random_state=0)
    >>> y_semi = y.copy(); y_semi[20:] = -1
    >>> clf = SelfLearningClassifier(n_estimators=20, random_state=0).fit(X, y_semi)
    >>> clf.predict(X[:3]).shape
    (3,)
    """

    _parameter_constraints: ClassVar[dict] = {
        "estimator": [None, HasMethods(["fit", "predict_proba"])],
        "n_estimators": [Interval(numbers.Integral, 1, None, closed="left")],
        "forest": [StrOptions(set(FORESTS))],
        "threshold": [StrOptions({"auto"}), Interval(numbers.Real, 0, 1, closed="right")],
        "n_grid": [Interval(numbers.Integral, 2, None, closed="left")],
        "max_iter": [None, Interval(numbers.Integral, 1, None, closed="left")],
        "allow_fully_labeled": ["boolean"],
        "random_state": ["random_state"],
        "n_jobs": [None, numbers.Integral],
    }

    def __init__(
        self,
        estimator=None,
        *,
        n_estimators: int = 200,
        forest: str = "weakfs",
        threshold="auto",
        n_grid: int = 50,
        max_iter: int | None = None,
        allow_fully_labeled: bool = False,
        random_state=None,
        n_jobs: int | None = None,
    ):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.forest = forest
        self.threshold = threshold
        self.n_grid = n_grid
        self.max_iter = max_iter
        self.allow_fully_labeled = allow_fully_labeled
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _make_estimator(self, seed: int):
        if self.estimator is None:
            return make_forest(self.forest, self.n_estimators, seed, self.n_jobs)
        return clone(self.estimator)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit on labeled rows, then pseudo-label unlabeled rows (``y == -1``) round by round."""
        X, y = validate_X_y(self, X, y, accept_sparse=["csr", "csc"])
        labels = check_semi_supervised_labels(y, require_unlabeled=not self.allow_fully_labeled)
        # the labeled rows' targets, as a classifier checks y (not the array of distinct
        # classes, which looks like a regression target whenever there are over 20 classes)
        check_classification_targets(labels.y[labels.labeled])
        seed = int(spawn_seeds(self.random_state, 1)[0])
        result = self_learn(
            X,
            labels.y_encoded,
            make_estimator=lambda: self._make_estimator(seed),
            threshold=self.threshold,
            n_grid=self.n_grid,
            max_iter=self.max_iter,
        )
        self.classes_ = labels.classes
        self.estimator_ = result["estimator"]
        self.transduction_ = decode_labels(labels.classes, result["y_codes"])
        self.labeled_iter_ = result["labeled_iter"]
        self.thresholds_ = result["thresholds"]
        self.n_iter_ = result["n_iter"] + 1
        self.termination_condition_ = result["termination"]
        self.sample_weight_ = result["sample_weight"]
        warn_if_nothing_pseudo_labeled(result["y_codes"], labels.labeled)
        return self

    def predict_proba(self, X):
        """Class votes of the final classifier (columns in the order of ``classes_``)."""
        check_is_fitted(self)
        X = validate_X(self, X, reset=False, accept_sparse=["csr", "csc"])
        proba = self.estimator_.predict_proba(X)
        full = np.zeros((X.shape[0], self.classes_.shape[0]))
        full[:, self.estimator_.classes_.astype(np.intp)] = proba
        return full

    def decision_function(self, X):
        """Votes (``predict_proba``); for two classes the vote of ``classes_[1]`` minus 0.5."""
        proba = self.predict_proba(X)
        if proba.shape[1] == 2:
            return proba[:, 1] - 0.5
        return proba

    def predict(self, X):
        """Class with the largest vote."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


def warn_if_nothing_pseudo_labeled(y_codes: np.ndarray, labeled: np.ndarray) -> None:
    """A UserWarning when there were unlabeled rows and self-learning labeled none of them: the
    classifier is then the supervised one on the labeled rows."""
    unlabeled = ~np.asarray(labeled, dtype=bool)
    if unlabeled.any() and not (np.asarray(y_codes)[unlabeled] >= 0).any():
        warnings.warn(
            "self-learning pseudo-labeled none of the "
            f"{counted(int(unlabeled.sum()), 'unlabeled row')} (no "
            "vote reached its class threshold): the result is the supervised fit on the labeled "
            "rows",
            UserWarning,
            stacklevel=3,
        )


def decode_labels(classes: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Class labels for codes ``0..K-1`` and ``-1`` for ``-1`` (dtype kept when it can hold -1)."""
    codes = np.asarray(codes)
    ok = codes >= 0
    if classes.dtype.kind in "iuf":
        out = np.full(codes.shape[0], -1, dtype=np.result_type(classes.dtype, np.int8))
    else:
        out = np.full(codes.shape[0], -1, dtype=object)
    out[ok] = classes[codes[ok]]
    return out


@validate_params(
    {
        "X": ["array-like", "sparse matrix"],
        "y_codes": ["array-like"],
        "make_estimator": [callable],
        "threshold": [Interval(Real, 0, 1, closed="both"), StrOptions({"auto"})],
        "n_grid": [Interval(Integral, 1, None, closed="left")],
        "max_iter": [Interval(Integral, 0, None, closed="left"), None],
    },
    # it fits estimators the caller chose or configured: their parameters are checked too
    prefer_skip_nested_validation=False,
)
def self_learn(
    X,
    y_codes: np.ndarray,
    *,
    make_estimator,
    threshold="auto",
    n_grid: int = 50,
    max_iter: int | None = None,
) -> dict:
    """The SLA loop on encoded labels (``-1`` unlabeled); returns the fitted pieces as a dict.

    ``y_codes`` holds class indices ``0..K-1`` for labeled rows.  The result has ``estimator`` (the
    final fit), ``y_codes`` (labels after self-learning, ``-1`` never labeled), ``labeled_iter``,
    ``thresholds``, ``n_iter``, ``termination`` and ``sample_weight`` (per row, 0 if never labeled).
    """
    y_codes = np.asarray(y_codes, dtype=np.intp).copy()
    labeled = y_codes >= 0
    n_lab = int(labeled.sum())
    labeled_iter = np.where(labeled, 0, -1).astype(np.intp)
    weight = np.where(labeled, 1.0 / n_lab, 0.0)
    n_classes = int(y_codes.max()) + 1
    thresholds: list[np.ndarray] = []
    train = labeled.copy()
    est = make_estimator()
    # weakfs's forest on a dense table: X checked once here, every round's refit and
    # prediction then skips the forest's input checks (the same forests, bit for bit)
    checked = isinstance(est, RandomForest) and isinstance(X, np.ndarray)
    if checked:
        X = check_array(X, dtype=np.float32, order="C")
    fit_options = {"check_input": False} if checked else {}
    est.fit(X[train], y_codes[train], sample_weight=weight[train], **fit_options)
    n_iter = 0
    termination = "all_labeled"
    while True:
        rest = np.flatnonzero(~train)
        if rest.size == 0:
            termination = "all_labeled"
            break
        if max_iter is not None and n_iter >= max_iter:
            termination = "max_iter"
            break
        proba = est.predict_proba(X[rest], **fit_options)
        votes = np.zeros((rest.size, n_classes))
        votes[:, est.classes_.astype(np.intp)] = proba
        pred = votes.argmax(axis=1)
        if threshold == "auto":
            theta = optimal_thresholds(votes, pred, n_grid=n_grid)
        else:
            theta = np.full(n_classes, float(threshold))
        thresholds.append(theta)
        passed = votes[np.arange(rest.size), pred] >= theta[pred]
        if not passed.any():
            termination = "no_change"
            break
        n_iter += 1
        new = rest[passed]
        y_codes[new] = pred[passed]
        labeled_iter[new] = n_iter
        train[new] = True
        n_pseudo = int((train & ~labeled).sum())
        weight = np.where(labeled, 1.0 / n_lab, np.where(train, 1.0 / n_pseudo, 0.0))
        est = make_estimator()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            est.fit(X[train], y_codes[train], sample_weight=weight[train], **fit_options)
    return {
        "estimator": est,
        "y_codes": y_codes,
        "labeled_iter": labeled_iter,
        "thresholds": thresholds,
        "n_iter": n_iter,
        "termination": termination,
        "sample_weight": weight,
    }
