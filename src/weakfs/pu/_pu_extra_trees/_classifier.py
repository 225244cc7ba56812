"""PU Extra Trees: random forests that greedily minimise a PU risk estimate (Wilton et al., 2022).

See ``docs/pu_extra_trees.md`` for the method, the API and every deviation from the paper.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from numbers import Integral, Real
from typing import ClassVar

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted

import weakfs.pu._pu_extra_trees._kernels as _k
from weakfs._docstrings import fill_doc
from weakfs._labels import check_finite_target, check_pu_target
from weakfs._progress import progress
from weakfs._tree._shared import resolve_max_features
from weakfs._validation import spawn_seeds, validate_X, validate_X_y
from weakfs.pu._prior_resolution import resolve_class_prior

__all__ = ["PUExtraTreesClassifier", "PUTree"]

_RISKS = {"uPU": _k.RISK_UPU, "nnPU": _k.RISK_NNPU, "PN": _k.RISK_PN}
# savage gives the node risks of quadratic (paper Proposition 3) except under uPU when v* > 1,
# where its bounded loss gives 4 W_n instead of a risk that goes to -inf (docs/pu_extra_trees.md)
_LOSSES = {
    "quadratic": _k.LOSS_QUADRATIC,
    "savage": _k.LOSS_SAVAGE,
    "logistic": _k.LOSS_LOGISTIC,
    "sigmoid": _k.LOSS_SIGMOID,
}


@dataclass(frozen=True)
class PUTree:
    """One fitted tree, stored as flat arrays (node 0 is the root).

    Attributes
    ----------
    feature : ndarray of int32
        Split feature of each node, -1 at leaves.
    threshold : ndarray of float64
        Rows with ``x[feature] <= threshold`` go to the left child.
    left, right : ndarray of int32
        Child node ids, -1 at leaves.
    value : ndarray of float64
        ``v* = W_p / (W_p + W_n)`` of each node (``+inf`` if it holds no unlabeled row).
    risk : ndarray of float64
        Minimal partial risk of each node (may be ``-inf`` under uPU).
    weight : ndarray of float64
        ``W_p + W_n`` of each node.
    n_node_samples : ndarray of int32
        Number of distinct training rows in each node.
    depth : ndarray of int32
        Depth of each node (root 0).
    """

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    value: np.ndarray
    risk: np.ndarray
    weight: np.ndarray
    n_node_samples: np.ndarray
    depth: np.ndarray

    @property
    def node_count(self) -> int:
        return int(self.feature.shape[0])

    @property
    def n_leaves(self) -> int:
        return int(np.count_nonzero(self.left < 0))

    @property
    def max_depth(self) -> int:
        return int(self.depth.max())

    def risk_reduction(self, normalize: bool = False) -> np.ndarray:
        """Risk reduction ``risk[node] - risk[left] - risk[right]`` of each internal node (0 at
        leaves); divided by the node's total weight ``W_p + W_n`` when ``normalize``."""
        rr = np.zeros(self.node_count, dtype=np.float64)
        internal = self.left >= 0
        rr[internal] = (
            self.risk[internal] - self.risk[self.left[internal]] - self.risk[self.right[internal]]
        )
        if normalize:
            w = self.weight[internal]
            with np.errstate(divide="ignore", invalid="ignore"):
                rr[internal] = np.where(w > 0, rr[internal] / np.where(w > 0, w, 1.0), 0.0)
        return rr

    def feature_importances(self, n_features: int, normalize: bool = False) -> np.ndarray:
        """Risk-reduction importance of each feature in this tree (not normalised to sum 1)."""
        imp = np.zeros(n_features, dtype=np.float64)
        internal = self.left >= 0
        np.add.at(imp, self.feature[internal], self.risk_reduction(normalize)[internal])
        return imp


# "no sparse matrix" for the kernel: empty CSC arrays of the types a sparse matrix passes
_NO_CSC = (np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.float32))
_PREDICT_BLOCK_ROWS = 4096


def _dense_blocks(X):
    """``(start, dense float32 C-ordered block)`` over the rows of ``X``; a sparse matrix is
    densified only ``_PREDICT_BLOCK_ROWS`` rows at a time."""
    if not sparse.issparse(X):
        yield 0, np.ascontiguousarray(X, dtype=np.float32)
        return
    X = X.tocsr()
    for start in range(0, X.shape[0], _PREDICT_BLOCK_ROWS):
        block = X[start : start + _PREDICT_BLOCK_ROWS].toarray()
        yield start, np.ascontiguousarray(block, dtype=np.float32)


def _grow_one(X, rows, packed, bootstrap_spec, params, seed):
    """Grow one tree (runs in a joblib thread; the numba kernel releases the GIL)."""
    if bootstrap_spec is not None:
        p_idx, u_idx, n_rows = bootstrap_spec
        rng = np.random.RandomState(seed)
        p_count = np.bincount(rng.choice(p_idx, size=p_idx.shape[0]), minlength=n_rows)
        u_count = np.bincount(rng.choice(u_idx, size=u_idx.shape[0]), minlength=n_rows)
        keep = (p_count + u_count) > 0
        rows = np.flatnonzero(keep).astype(np.int64)
        packed = p_count[keep].astype(np.int64) + (u_count[keep].astype(np.int64) << 32)
    if sparse.issparse(X):
        placeholder = np.empty((0, X.shape[1]), dtype=np.float32, order="F")
        csc = (X.indptr.astype(np.int64), X.indices.astype(np.int64), X.data)
        out = _k.build_tree(placeholder, rows, packed, X.shape[0], *params, np.uint64(seed), *csc)
    else:
        out = _k.build_tree(X, rows, packed, X.shape[0], *params, np.uint64(seed), *_NO_CSC)
    return PUTree(*out)


def _check_pn_target(y) -> None:
    """Errors in scikit-learn's wording for regression targets, multiclass targets and a single
    class when ``risk="PN"`` (PU labels are checked by ``check_pu_target``)."""
    check_finite_target(y)
    y_type = type_of_target(y, input_name="y", raise_unknown=True)
    if y_type in ("continuous", "continuous-multioutput", "multilabel-indicator"):
        check_classification_targets(y)
    values = np.unique(y)
    if y_type == "multiclass":
        raise ValueError(
            f"Only binary classification is supported. The type of the target is {y_type} "
            f"(values {values.tolist()[:10]})"
        )
    if values.shape[0] < 2:
        raise ValueError(f"y has one class only ({values.tolist()}); risk='PN' needs two")


@fill_doc
class PUExtraTreesClassifier(ClassifierMixin, BaseEstimator):
    """PU Extra Trees: a forest of trees that greedily minimise a PU risk estimate.

    Each split maximises the risk reduction ``R*(node) - R*(left) - R*(right)`` of the uPU or nnPU
    risk estimator (Wilton et al., NeurIPS 2022), where ``R*`` is the closed-form minimal partial
    risk of a node holding ``p`` labeled positives and ``u`` unlabeled rows, with the global weights
    ``w_p = π / n_p`` and ``w_u = 1 / n_u``.  Extra-trees randomisation: at each node
    ``max_features`` features are drawn without replacement among those not constant in the node,
    with ``max_candidates`` random cut points each (``splitter="random"``); ``splitter="best"``
    scans every threshold (the paper's PU decision tree / random forest, Appendix E).

    Parameters
    ----------
    n_estimators : int, default=100
        Number of trees.
    risk : {"nnPU", "uPU", "PN"}, default="nnPU"
        Risk estimator.  ``"PN"`` grows ordinary trees on fully labeled binary data (quadratic loss
        = Gini, logistic = entropy), the paper's "PN ET".
    loss : {"quadratic", "logistic", "savage", "sigmoid"}, default="quadratic"
        Loss of the risk.  ``"savage"`` gives the trees of ``"quadratic"`` under nnPU and PN (paper
        Proposition 3); under uPU the two differ in nodes with ``v* > 1``.
    max_features : "sqrt", int, float or None, default="sqrt"
        Features drawn per node: ``"sqrt"`` = ``ceil(sqrt(d))``, an int, a fraction of ``d``
        (rounded up), or None = all.
    max_candidates : int, default=1
        Random cut points tried per drawn feature (``T`` in the paper); ignored by
        ``splitter="best"``.
    max_depth : int or None, default=None
        Maximum depth (root = 0).
    min_samples_leaf : int, default=1
        Reference meaning: a node holding at most this many rows is not split (it is *not*
        scikit-learn's minimum leaf size).
    prior : float in (0, 1) or "auto", default="auto"
        Class prior ``π = P(y = +1)`` of the unlabeled sample.  ``"auto"`` estimates it with
        :func:`weakfs.pu.resolve_class_prior` (best-bin estimation, SCAR; raised just above the
        labeled share if the estimate falls onto it).  In PN
        mode, ``"auto"`` uses the positive share of ``y`` (a float re-weights the classes).
    unlabeled : {"all", "unlabeled"}, default="all"
        How ``U`` is formed: ``"all"`` = every row of ``X`` including the labeled positives (the
        reference's single-training-set convention; ``π`` is the positive share of all rows);
        ``"unlabeled"`` = only the rows with ``y = 0`` (labeled positives sampled separately).
    splitter : {"random", "best"}, default="random"
        ``"random"``: extra trees.  ``"best"``: best threshold of each drawn feature by a sorted
        sweep over the midpoints of its distinct values.
    bootstrap : bool, default=False
        Grow each tree on bootstrap samples of ``P`` and of ``U`` (drawn separately, each of its
        own size).  PU ET uses no bootstrap; with ``splitter="best"`` this is the paper's PU random
        forest.
    importance : {"risk_reduction", "normalized"}, default="risk_reduction"
        ``feature_importances_``: total risk reduction per feature averaged over trees (the paper's
        risk-reduction importance, not normalised), or each node's reduction divided by its total
        weight ``W_p + W_n`` first.
    voting : {"hard", "soft"}, default="hard"
        ``predict``: majority vote of the trees' classes (``v* > 0.5``; ties go to the negative
        class, as in the reference), or mean clipped ``v*`` above 0.5.  ``predict_proba`` and
        ``decision_function`` follow the same rule (vote share or mean ``v*``).
    %(n_jobs)s
        Threads grow trees and predict.
    %(random_state)s
        Seeds of the trees are spawned from it up front, and it seeds the prior estimate.
    %(verbose)s

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        ``[0, 1]`` for PU data (1 = positive); the two labels of ``y`` in PN mode.
    prior_ : float
        The class prior used.
    trees_ : list of PUTree
        The fitted trees (flat arrays, inspectable).
    feature_importances_ : ndarray of shape (n_features,)
        Risk-reduction importance (see ``importance``).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.

    Examples
    --------
    >>> from weakfs.datasets import load, make_pu_labels
    >>> from weakfs.pu import PUExtraTreesClassifier
    >>> X, y = load("mushrooms")
    >>> pu = make_pu_labels(y, positive=2, n_labeled=1000, random_state=0)
    >>> clf = PUExtraTreesClassifier(n_estimators=20, prior=pu.prior, random_state=0)
    >>> clf = clf.fit(X, pu.s)
    >>> float((clf.predict(X) == pu.y_true).mean()) > 0.98
    True
    """

    _parameter_constraints: ClassVar[dict] = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "risk": [StrOptions(set(_RISKS))],
        "loss": [StrOptions(set(_LOSSES))],
        "max_features": [
            StrOptions({"sqrt"}),
            Interval(Integral, 1, None, closed="left"),
            Interval(Real, 0.0, 1.0, closed="right"),
            None,
        ],
        "max_candidates": [Interval(Integral, 1, None, closed="left")],
        "max_depth": [Interval(Integral, 0, None, closed="left"), None],
        "min_samples_leaf": [Interval(Integral, 1, None, closed="left")],
        "prior": [StrOptions({"auto"}), Interval(Real, 0.0, 1.0, closed="neither")],
        "unlabeled": [StrOptions({"all", "unlabeled"})],
        "splitter": [StrOptions({"random", "best"})],
        "bootstrap": ["boolean"],
        "importance": [StrOptions({"risk_reduction", "normalized"})],
        "voting": [StrOptions({"hard", "soft"})],
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],
        "verbose": ["verbose", StrOptions({"auto"})],
    }

    def __init__(
        self,
        n_estimators: int = 100,
        *,
        risk: str = "nnPU",
        loss: str = "quadratic",
        max_features="sqrt",
        max_candidates: int = 1,
        max_depth: int | None = None,
        min_samples_leaf: int = 1,
        prior="auto",
        unlabeled: str = "all",
        splitter: str = "random",
        bootstrap: bool = False,
        importance: str = "risk_reduction",
        voting: str = "hard",
        n_jobs: int | None = None,
        random_state=None,
        verbose: bool | int | str = "auto",
    ):
        self.n_estimators = n_estimators
        self.risk = risk
        self.loss = loss
        self.max_features = max_features
        self.max_candidates = max_candidates
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.prior = prior
        self.unlabeled = unlabeled
        self.splitter = splitter
        self.bootstrap = bootstrap
        self.importance = importance
        self.voting = voting
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    # ------------------------------------------------------------------ fitting
    def _resolve_max_features(self, d: int) -> int:
        # rounded up ("sqrt" = ceil(sqrt(d))), as the PU Extra Trees authors' code does; weakfs's
        # RandomForest rounds down, as scikit-learn's forests do
        return resolve_max_features(self.max_features, d, rounding="ceil")

    def _labels(self, X, y):
        """Check ``y``; return (classes, packed per-row weights, wp, wu, prior, P rows, U rows)."""
        n = X.shape[0]
        if self.risk == "PN":
            _check_pn_target(y)
            check_classification_targets(y)
            classes, yi = np.unique(y, return_inverse=True)
            if classes.shape[0] != 2:
                raise ValueError(
                    f"risk='PN' needs binary labels; y has {classes.shape[0]} class(es): "
                    f"{classes.tolist()[:10]}"
                )
            pos = yi == 1
            n_p = int(pos.sum())
            n_n = n - n_p
            prior = n_p / n if self.prior == "auto" else float(self.prior)
            packed = pos.astype(np.int64) + ((~pos).astype(np.int64) << 32)
            return classes, packed, prior / n_p, (1.0 - prior) / n_n, prior, pos, ~pos
        s_checked = check_pu_target(self, y)
        s = s_checked.astype(bool)
        n_l = int(s.sum())
        in_u = np.ones(n, dtype=bool) if self.unlabeled == "all" else ~s
        n_u = int(in_u.sum())
        if self.prior == "auto":
            prior = resolve_class_prior(
                X, s_checked, unlabeled=self.unlabeled, random_state=self.random_state
            ).value
        else:
            prior = float(self.prior)
            if self.unlabeled == "all" and prior < n_l / n:
                # U holds every row, labeled positives included: pi below their share makes the
                # negative weight exceed the positive one in every node (all rows negative)
                raise ValueError(
                    f"prior={prior:g} is below the share of labeled positives among the rows "
                    f"({n_l / n:.3g}); with unlabeled='all' the prior is the positive share of "
                    "all rows and cannot be smaller"
                )
        packed = s.astype(np.int64) + (in_u.astype(np.int64) << 32)
        return np.array([0, 1]), packed, prior / n_l, 1.0 / n_u, prior, s, in_u

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Grow the forest.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Every row once; converted to float32 (as scikit-learn's trees do).  A sparse matrix
            is read one CSC column at a time and gives the same trees as its dense version.
        y : array-like of shape (n_samples,)
            PU labels (1 = labeled positive; 0, -1 or False = unlabeled); binary labels when
            ``risk="PN"``.

        Returns
        -------
        self
        """
        X, y = validate_X_y(self, X, y, dtype=np.float32, accept_sparse=["csc", "csr"])
        classes, packed, wp, wu, prior, p_rows, u_rows = self._labels(X, y)
        self.classes_ = classes
        self.prior_ = float(prior)
        if sparse.issparse(X):
            # CSC columns are read one at a time by the kernel: the matrix is never densified
            Xf = sparse.csc_matrix(X, dtype=np.float32)
            Xf.sort_indices()
        else:
            Xf = np.asfortranarray(X, dtype=np.float32)
        n, d = Xf.shape
        params = (
            _RISKS[self.risk],
            _LOSSES[self.loss],
            float(wp),
            float(wu),
            self._resolve_max_features(d),
            int(self.max_candidates),
            -1 if self.max_depth is None else int(self.max_depth),
            int(self.min_samples_leaf),
            self.splitter == "best",
        )
        rows = np.arange(n, dtype=np.int64)
        boot = None
        if self.bootstrap:
            boot = (np.flatnonzero(p_rows), np.flatnonzero(u_rows), n)
        seeds = spawn_seeds(self.random_state, self.n_estimators)
        tasks = (delayed(_grow_one)(Xf, rows, packed, boot, params, int(sd)) for sd in seeds)
        n_jobs = effective_n_jobs(self.n_jobs)
        if n_jobs == 1:
            trees = [
                _grow_one(Xf, rows, packed, boot, params, int(sd))
                for sd in progress(seeds, enabled=self.verbose, desc="trees")
            ]
        else:
            runner = Parallel(n_jobs=n_jobs, prefer="threads", return_as="generator")
            trees = list(
                progress(runner(tasks), enabled=self.verbose, total=len(seeds), desc="trees")
            )
        self.trees_ = trees
        self._flatten()
        normalize = self.importance == "normalized"
        self.feature_importances_ = np.mean(
            [t.feature_importances(d, normalize) for t in trees], axis=0
        )
        return self

    def _flatten(self):
        sizes = np.array([t.node_count for t in self.trees_], dtype=np.int64)
        roots = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        off = np.repeat(roots, sizes).astype(np.int32)
        left = np.concatenate([t.left for t in self.trees_])
        right = np.concatenate([t.right for t in self.trees_])
        self._forest = (
            np.concatenate([t.feature for t in self.trees_]),
            np.concatenate([t.threshold for t in self.trees_]),
            np.where(left >= 0, left + off, -1).astype(np.int32),
            np.where(right >= 0, right + off, -1).astype(np.int32),
            np.concatenate([t.value for t in self.trees_]),
            roots,
        )

    # ------------------------------------------------------------------ prediction
    def _chunks(self, n: int):
        n_jobs = min(effective_n_jobs(self.n_jobs), max(1, n // 256))
        bounds = np.linspace(0, n, n_jobs + 1).astype(np.int64)
        return n_jobs, list(pairwise(bounds))

    def _accumulate(self, X):
        check_is_fitted(self, "trees_")
        X = validate_X(self, X, reset=False, dtype=np.float32, accept_sparse=["csr", "csc"])
        proba = np.zeros(X.shape[0], dtype=np.float64)
        votes = np.zeros(X.shape[0], dtype=np.int64)
        feature, threshold, left, right, value, roots = self._forest
        for offset, block in _dense_blocks(X):
            n = block.shape[0]
            block_proba = proba[offset : offset + n]
            block_votes = votes[offset : offset + n]
            n_jobs, chunks = self._chunks(n)

            def work(a, b, block=block, block_proba=block_proba, block_votes=block_votes):
                _k.predict_forest(
                    block,
                    feature,
                    threshold,
                    left,
                    right,
                    value,
                    roots,
                    a,
                    b,
                    block_proba,
                    block_votes,
                )

            if n_jobs == 1:
                work(0, n)
            else:
                # work() writes into this process's arrays: shared-memory threads whatever joblib
                # backend is configured (a Dask or process worker would fill its own copy)
                Parallel(n_jobs=n_jobs, prefer="threads", require="sharedmem")(
                    delayed(work)(a, b) for a, b in chunks
                )
        m = roots.shape[0]
        return proba / m, votes / m

    def predict_proba(self, X):
        """Positive-class score in column 1: the share of trees voting positive
        (``voting="hard"``) or the mean over trees of the leaf ``v*`` clipped to [0, 1]
        (``voting="soft"``), so that ``predict`` is always the argmax (ties negative)."""
        p, share = self._accumulate(X)
        p = share if self.voting == "hard" else p
        return np.column_stack([1.0 - p, p])

    def decision_function(self, X):
        """Share of trees voting positive minus 0.5 (``voting="hard"``), or the positive
        probability minus 0.5 (``voting="soft"``); positive means the positive class."""
        p, share = self._accumulate(X)
        return (share if self.voting == "hard" else p) - 0.5

    def predict(self, X):
        """Class of each row: majority vote of the trees (ties to the negative class)."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(np.intp)]

    def apply(self, X):
        """Leaf index (node id within its tree) of each row in each tree, shape (n, n_trees)."""
        check_is_fitted(self, "trees_")
        X = validate_X(self, X, reset=False, dtype=np.float32, accept_sparse=["csr", "csc"])
        feature, threshold, left, right, _value, roots = self._forest
        out = np.empty((X.shape[0], roots.shape[0]), dtype=np.int64)
        for offset, block in _dense_blocks(X):
            n = block.shape[0]
            _k.apply_forest(
                block, feature, threshold, left, right, roots, 0, n, out[offset : offset + n]
            )
        return out

    # ------------------------------------------------------------------ inspection
    def get_depth(self) -> np.ndarray:
        """Depth of each tree."""
        check_is_fitted(self, "trees_")
        return np.array([t.max_depth for t in self.trees_])

    def get_n_leaves(self) -> np.ndarray:
        """Number of leaves of each tree."""
        check_is_fitted(self, "trees_")
        return np.array([t.n_leaves for t in self.trees_])

    def risk_reduction_importances(self, normalize: bool = False) -> np.ndarray:
        """Risk-reduction importance per feature averaged over trees, unnormalised
        (``normalize=False``) or with each node's reduction divided by its weight."""
        check_is_fitted(self, "trees_")
        return np.mean(
            [t.feature_importances(self.n_features_in_, normalize) for t in self.trees_], axis=0
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.sparse = True
        return tags
