"""weakfs's random forest: Breiman's forest of Gini trees, grown by the compiled kernels of
:mod:`weakfs._tree._gini` on columns binned once.

:class:`RandomForest` is a scikit-learn classifier (``fit(X, y, sample_weight)``,
``predict_proba``, ``oob_decision_function_``, ``feature_importances_``) with the defaults of
``sklearn.ensemble.RandomForestClassifier``.  :class:`BinnedMatrix` is the prepared data: SEW-IL
bins its training rows once and grows every candidate forest on a subset of the binned columns
(:meth:`RandomForest.fit_binned`), so no forest sorts or bins anything again.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from itertools import pairwise
from typing import ClassVar

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from weakfs._labels import check_finite_target
from weakfs._tree._gini import add_leaf_values, build_gini_tree, tree_proba
from weakfs._tree._shared import resolve_max_features
from weakfs._validation import spawn_seeds, validate_X, validate_X_y

__all__ = ["BinnedMatrix", "RandomForest"]


@dataclass(frozen=True)
class BinnedMatrix:
    """Columns as codes of their sorted distinct values (exact binning: one bin per value).

    ``codes`` ``(n, k)`` Fortran-ordered unsigned integers (uint8, uint16 or int32: the smallest
    that holds them); column ``j`` has ``n_bins[j]`` distinct values
    ``bin_values[bin_starts[j] : bin_starts[j] + n_bins[j]]`` (float64 of the float32 inputs, as
    scikit-learn's trees see them).
    """

    codes: np.ndarray
    n_bins: np.ndarray
    bin_values: np.ndarray
    bin_starts: np.ndarray
    mode_code: np.ndarray
    other_start: np.ndarray
    other_rows: np.ndarray

    @classmethod
    def from_array(cls, X) -> BinnedMatrix:
        """Bin every column of a dense ``X`` (cast to float32 first)."""
        X = np.asarray(X, dtype=np.float32)
        n, k = X.shape
        # the smallest integer type that holds every code: less memory traffic per node
        most = max((len(np.unique(X[:, j])) for j in range(k)), default=1) if n else 1
        dtype = np.uint8 if most <= 256 else np.uint16 if most <= 65536 else np.int32
        codes = np.empty((n, k), dtype=dtype, order="F")
        n_bins = np.empty(k, dtype=np.int32)
        values = []
        order = np.argsort(X, axis=0, kind="stable")
        for j in range(k):
            sorted_col = X[order[:, j], j]
            new_value = np.empty(n, dtype=bool)
            new_value[:1] = True
            np.not_equal(sorted_col[1:], sorted_col[:-1], out=new_value[1:])
            rank = np.cumsum(new_value, dtype=np.int64) - 1
            codes[order[:, j], j] = rank
            n_bins[j] = rank[-1] + 1 if n else 0
            values.append(sorted_col[new_value].astype(np.float64))
        starts = np.zeros(k, dtype=np.int64)
        if k:
            starts[1:] = np.cumsum(n_bins[:-1])
        bin_values = np.concatenate(values) if values else np.zeros(0)
        return cls._with_sparse_index(codes, n_bins, bin_values, starts)

    @classmethod
    def _with_sparse_index(cls, codes, n_bins, bin_values, bin_starts) -> BinnedMatrix:
        """Add each column's most frequent code and the rows off it (a CSC-like index that
        lets a node read only those rows of a sparse column)."""
        k = codes.shape[1]
        mode = np.zeros(k, dtype=np.int64)
        rows_off = []
        for j in range(k):
            mode[j] = np.argmax(np.bincount(codes[:, j], minlength=1))
            rows_off.append(np.flatnonzero(codes[:, j] != mode[j]))
        start = np.zeros(k + 1, dtype=np.int64)
        start[1:] = np.cumsum([r.size for r in rows_off])
        other = np.concatenate(rows_off) if rows_off else np.zeros(0, dtype=np.int64)
        return cls(codes, n_bins, bin_values, bin_starts, mode, start, other.astype(np.int64))

    @property
    def shape(self) -> tuple[int, int]:
        return self.codes.shape

    def columns(self, columns, *, row_orders=None) -> BinnedMatrix:
        """The binned matrix of ``columns`` (same bins); ``row_orders[i]``, when given and not
        ``None``, permutes the rows of the ``i``-th selected column (a permuted copy)."""
        columns = np.asarray(columns, dtype=np.intp)
        codes = np.asfortranarray(self.codes[:, columns])
        if row_orders is not None:
            for i, perm in enumerate(row_orders):
                if perm is not None:
                    codes[:, i] = codes[perm, i]
        return BinnedMatrix._with_sparse_index(
            codes, self.n_bins[columns], self.bin_values, self.bin_starts[columns]
        )


@dataclass(frozen=True)
class _Tree:
    feature: np.ndarray
    threshold: np.ndarray
    threshold_code: np.ndarray
    left: np.ndarray
    right: np.ndarray
    value: np.ndarray

    @property
    def node_count(self) -> int:
        return int(self.feature.shape[0])


def _grow(binned: BinnedMatrix, y, sample_weight, n_classes, rows, max_features, bootstrap, seed):
    out = build_gini_tree(
        binned.codes,
        binned.n_bins,
        binned.bin_values,
        binned.bin_starts,
        binned.mode_code,
        binned.other_start,
        binned.other_rows,
        y,
        sample_weight,
        n_classes,
        rows,
        max_features,
        bootstrap,
        np.uint64(seed),
    )
    return _Tree(*out[:6]), out[6], out[7], out[8]


def _add_tree_votes(X, trees, row_start, row_end, out) -> None:
    """Add every tree's leaf class fractions of rows ``row_start:row_end``, tree by tree (the
    same order for any chunking of the rows, so results do not depend on ``n_jobs``)."""
    for tree in trees:
        walk = (tree.feature, tree.threshold, tree.left, tree.right, tree.value)
        tree_proba(X, *walk, row_start, row_end, out)


def _grow_block(args, seeds) -> list:
    return [_grow(*args, seed) for seed in seeds]


class RandomForest(ClassifierMixin, BaseEstimator):
    """Random forest of Gini trees (bootstrap, best split among ``max_features`` features).

    The algorithm of ``sklearn.ensemble.RandomForestClassifier`` with its defaults
    (``min_samples_leaf=1``, no depth limit, ``max_features="sqrt"``), grown by compiled kernels
    on exactly binned columns; out-of-bag votes and impurity importances are computed while the
    trees grow.  Trees are grown in joblib threads, each from its own seed, so results do not
    depend on ``n_jobs``.

    Parameters
    ----------
    n_estimators : int, default=100
        Number of trees.
    max_features : "sqrt", int, float or None, default="sqrt"
        Features drawn per node: ``"sqrt"`` = ``max(1, floor(sqrt(k)))`` as scikit-learn, an int,
        a fraction of ``k`` (rounded down, at least 1), or None = all.
    bootstrap : bool, default=True
        Grow each tree on a bootstrap sample of the rows (``n`` draws with replacement).
    oob_score : bool, default=False
        Also store ``oob_score_`` (accuracy of the out-of-bag votes); ``oob_decision_function_``
        is stored whenever ``bootstrap`` is on.
    random_state : int, RandomState instance or None, default=None
        Seeds of the trees, spawned up front.
    n_jobs : int or None, default=None
        Threads growing trees and predicting.  Results do not depend on it.

    Attributes
    ----------
    classes_ : ndarray
    trees_ : list
        Flat arrays of every tree (``feature``, ``threshold``, ``left``, ``right``, ``value``).
    feature_importances_ : ndarray of shape (``n_features_in_``,)
        Mean decrease in Gini impurity, normalised per tree and overall (scikit-learn's rule).
    oob_decision_function_ : ndarray of shape (n_samples, n_classes)
        Mean class fractions over the trees for which a row is out of bag (all zero for a row
        that is in every bootstrap, as scikit-learn leaves it).

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs._tree import RandomForest
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=(200, 4)); y = (X[:, 0] > 0).astype(int)
    >>> forest = RandomForest(50, random_state=0).fit(X, y)
    >>> float(forest.score(X, y))
    1.0
    >>> int(np.argmax(forest.feature_importances_))
    0
    """

    _parameter_constraints: ClassVar[dict] = {
        "n_estimators": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_features": [
            StrOptions({"sqrt"}),
            Interval(numbers.Integral, 1, None, closed="left"),
            Interval(numbers.Real, 0, 1, closed="right"),
            None,
        ],
        "bootstrap": ["boolean"],
        "oob_score": ["boolean"],
        "random_state": ["random_state"],
        "n_jobs": [numbers.Integral, None],
    }

    def __init__(
        self,
        n_estimators: int = 100,
        *,
        max_features="sqrt",
        bootstrap: bool = True,
        oob_score: bool = False,
        random_state=None,
        n_jobs: int | None = None,
    ):
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _n_split_features(self, k: int) -> int:
        # rounded down ("sqrt" = floor(sqrt(k))), as scikit-learn's RandomForestClassifier does:
        # this forest reproduces it.  PU Extra Trees rounds up, as its authors' code does
        return resolve_max_features(self.max_features, k, rounding="floor")

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None, check_input: bool = True):
        """Bin ``X`` and grow the forest on every row.

        ``check_input=False`` skips the input checks, as scikit-learn's trees allow, for a caller
        that checked the data once and refits many times (self-learning, every round): ``X`` a
        dense float32 array of finite values, ``y`` class indices ``0..K-1`` with every class
        present, ``sample_weight`` a float64 array or None.  The forest is then the one the
        checked path grows from the same values.
        """
        if check_input:
            X, y = validate_X_y(self, X, y, dtype=np.float32, accept_sparse=["csr", "csc"])
            if sparse.issparse(X):  # the binning reads every value; sparse text fits dense here
                X = X.toarray()
            check_finite_target(y)
            check_classification_targets(y)
            classes, y_codes = np.unique(y, return_inverse=True)
            sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64)
        else:
            y_codes = y
            classes = np.arange(int(y_codes.max()) + 1)
            if sample_weight is None:
                sample_weight = np.ones(X.shape[0])
            self.n_features_in_ = X.shape[1]
        self._grow_forest(BinnedMatrix.from_array(X), y_codes, sample_weight, classes.shape[0])
        self.classes_ = classes
        return self

    def fit_binned(self, binned: BinnedMatrix, y_codes, sample_weight=None, *, n_classes=None):
        """Grow the forest on prepared data: ``y_codes`` are class indices ``0..n_classes-1``.

        ``classes_`` is then ``arange(n_classes)`` (a class absent from ``y_codes`` keeps a
        column of zeros in the votes).  No input validation: the caller prepared the data.
        """
        y_codes = np.asarray(y_codes, dtype=np.intp)
        n_classes = int(y_codes.max()) + 1 if n_classes is None else int(n_classes)
        n = binned.shape[0]
        sw = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        self._validate_params()
        self._grow_forest(binned, y_codes, sw, n_classes)
        self.classes_ = np.arange(n_classes)
        self.n_features_in_ = binned.shape[1]
        return self

    def _grow_forest(self, binned, y_codes, sample_weight, n_classes):
        n, k = binned.shape
        keep = np.flatnonzero(sample_weight > 0)  # zero-weight rows take no part (as sklearn)
        if keep.size == 0:
            raise ValueError("every sample weight is zero: nothing to fit")
        max_features = self._n_split_features(k)
        seeds = spawn_seeds(self.random_state, self.n_estimators)
        args = (binned, y_codes, sample_weight, n_classes, keep, max_features, self.bootstrap)
        n_jobs = min(effective_n_jobs(self.n_jobs), self.n_estimators)
        # one task per thread, each growing a contiguous block of trees: a tree takes a few
        # milliseconds, so per-tree tasks would spend a noticeable share in dispatching
        blocks = np.array_split(np.asarray(seeds), n_jobs)
        grown = [
            tree
            for block in Parallel(n_jobs=n_jobs, prefer="threads")(
                delayed(_grow_block)(args, block) for block in blocks
            )
            for tree in block
        ]
        self.trees_ = [tree for tree, _, _, _ in grown]
        self.n_classes_ = n_classes
        # scikit-learn's importances: each tree's decrease normalised to sum 1, then the mean
        # over the trees that split at all, normalised again
        per_tree = [imp / imp.sum() for _, imp, _, _ in grown if imp.sum() > 0]
        importances = np.mean(per_tree, axis=0) if per_tree else np.zeros(k)
        total = importances.sum()
        self.feature_importances_ = importances / total if total > 0 else importances
        if self.bootstrap:
            votes = np.zeros((n, n_classes))
            counts = np.zeros(n, dtype=np.int64)
            for tree, _, oob_rows, oob_leaves in grown:  # tree order: independent of n_jobs
                add_leaf_values(oob_leaves, tree.value, oob_rows, votes, counts)
            seen = counts > 0
            votes[seen] /= counts[seen, None]
            self.oob_decision_function_ = votes
            if self.oob_score:
                used = seen[keep]
                rows = keep[used]
                self.oob_score_ = float(np.mean(votes[rows].argmax(axis=1) == y_codes[rows]))
        elif self.oob_score:
            raise ValueError("Out of bag estimation only available if bootstrap=True")

    def predict_proba(self, X, check_input: bool = True):
        """Mean over trees of the leaf class fractions (columns in the order of ``classes_``);
        ``check_input=False`` (as :meth:`fit`'s): ``X`` a C-contiguous float32 array of finite
        values with the fitted columns, unchecked."""
        check_is_fitted(self, "trees_")
        if check_input:
            X = validate_X(self, X, reset=False, dtype=np.float32, accept_sparse=["csr", "csc"])
            X = np.ascontiguousarray(X.toarray() if sparse.issparse(X) else X)
        out = np.zeros((X.shape[0], self.n_classes_))
        n_jobs = min(effective_n_jobs(self.n_jobs), max(1, X.shape[0] // 256))
        bounds = np.linspace(0, X.shape[0], n_jobs + 1).astype(int)
        chunks = list(pairwise(bounds))
        # the chunks add into ``out`` in place: shared-memory threads whatever joblib backend
        # is configured (a Dask or process worker would add into its own copy)
        Parallel(n_jobs=n_jobs, prefer="threads", require="sharedmem")(
            delayed(_add_tree_votes)(X, self.trees_, lo, hi, out) for lo, hi in chunks
        )
        return out / len(self.trees_)

    def predict(self, X):
        """Class with the largest mean vote."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        tags.input_tags.sparse = True
        return tags
