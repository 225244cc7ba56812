"""GKF-PUAL as a feature selector: the features whose group-lasso group is non-zero, or exactly
``k`` of them chosen along the λ1 path."""

from __future__ import annotations

import numbers
import time
from typing import ClassVar

import numpy as np
import pandas as pd
from sklearn.base import _fit_context, clone
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions

from weakfs._docstrings import fill_doc
from weakfs._information import EncodedColumns, discretize
from weakfs._selection import SupportSelector
from weakfs._validation import validate_X_y
from weakfs._words import counted
from weakfs.pu._gkf_pual._classifier import (
    GKFPUALClassifier,
    largest_quadratic_model,
)
from weakfs.pu._gkf_pual._path import _collect, _lambda_grid
from weakfs.pu._gkf_pual._path_solver import _path_solver

__all__ = ["GKFPUALSelector"]


def _check_k(k, n_features: int) -> int | None:
    """``n_features_to_select`` as an int in ``[1, n_features]`` (None passes through)."""
    if k is None:
        return None
    if isinstance(k, bool | np.bool_) or not isinstance(k, numbers.Integral):
        raise ValueError(
            "n_features_to_select must be None (the group lasso decides) or an int number of "
            f"features in [1, {n_features}]; got {k!r}"
        )
    if not 1 <= int(k) <= n_features:
        raise ValueError(
            f"n_features_to_select={k} is out of range: X has {counted(n_features, 'feature')}, "
            "so it must "
            f"be in [1, {n_features}]"
        )
    return int(k)


#: ``prefilter="auto"`` keeps at most this many features (a quadratic model of 32 features has
#: 560 coefficients; 135 would have 9,315 and take hours)
AUTO_PREFILTER_MAX = 32


class GKFPUALSelector(SupportSelector):
    """Feature selection by GKF-PUAL's group lasso: the features whose group is non-zero.

    With ``n_features_to_select=None`` it fits a :class:`GKFPUALClassifier` and keeps its
    ``support_``: the group lasso at the estimator's λ1 decides how many features stay.  With an
    int ``k`` it computes the λ1 path (:func:`gkf_pual_path`, the other parameters as configured
    or tuned), takes the largest λ1 at which exactly ``k`` groups are non-zero — bisecting
    between neighbouring λ1 when the path jumps over ``k`` — and refits the classifier there.
    Groups often leave the path together (the interaction coefficients tie them); when no λ1
    leaves exactly ``k`` groups, the λ1 with the fewest groups above ``k`` is used and its ``k``
    largest groups (by norm) are kept.

    Parameters
    ----------
    estimator : GKFPUALClassifier or PUGridGreedySearch, optional
        The configured classifier (default: ``GKFPUALClassifier()``), or a
        :class:`~weakfs.model_selection.PUGridGreedySearch` over a ``GKFPUALClassifier``, which
        first tunes the classifier's parameters by PUF-score cross-validation (the paper's
        procedure; its ``selection`` may apply the one-standard-error rule to λ1).  It is cloned.
        With ``n_features_to_select`` the path replaces λ1; the other parameters are kept.
    n_features_to_select : int or None, default=None
        ``None``: the features whose group is non-zero at the estimator's λ1.  An int ``k`` in
        ``[1, n_features]``: exactly ``k`` features, chosen along the λ1 path.  Unlike most weakfs
        selectors there is no fraction and no "half" default: ``None`` leaves the choice to the
        group lasso.
    n_lambdas : int, default=50
        Number of λ1 values of the path searched for ``k`` (log-spaced from ``λ1_max``).
    eps : float, default=1e-2
        Smallest λ1 of that path as a fraction of ``λ1_max``; the path is continued below it
        when fewer than ``k`` groups are non-zero there.
    prefilter : int, "auto" or None, default=None
        Screening before the quadratic model, which needs memory quadratic in the number of
        its coefficients (``m (m + 3) / 2`` for ``m`` features: 256 features need about 30 GB).
        ``None`` (the paper): no screening.  An int ``m``: only the ``m`` features of largest
        PU relevance ``I(X_j; s)`` (5 equal-width bins, nats; as semi-JMI's first step) enter
        the group lasso.  ``"auto"``: screen only when there are more than 32 features, to 32
        (to ``n_features_to_select`` when it is larger; to the most whose design fits the
        estimator's ``memory_limit_mb``, if fewer; the paper's tasks have at most 16).
        Not in the paper: a screening step of ours (sure
        independence screening, Fan & Lv, JRSS-B 2008, with mutual information).

    Attributes
    ----------
    estimator_ : GKFPUALClassifier
        The fitted classifier (refitted at ``lambda1_`` when ``n_features_to_select`` is set;
        on a tie its own ``support_`` may hold a few more than ``k`` features).
    support_ : ndarray of bool
        Selected features.
    lambda1_ : float
        The group-lasso weight of ``estimator_``.
    path_ : GKFPUALPath or None
        The λ1 path searched (None without ``n_features_to_select``; over the screened
        features with ``prefilter``).
    screened_ : ndarray of bool or None
        The features that passed the ``prefilter`` screening (None without screening).
    search_ : PUGridGreedySearch or None
        The fitted search, when ``estimator`` is one.
    n_features_in_ : int
        Number of features seen during ``fit``.
    feature_names_in_ : ndarray of str
        Column names of ``X`` (only when they are all strings).

    See Also
    --------
    gkf_pual_path : the solutions along λ1 that the selector searches.
    weakfs.plotting.plot_gkf_pual_path : the group norms along the path, named.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.pu import GKFPUALClassifier, GKFPUALSelector
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=(200, 6))
    >>> y_true = (X[:, 0] ** 2 + X[:, 1] ** 2 > 1.4).astype(int)
    >>> s = y_true * (rng.uniform(size=200) < 0.6)
    >>> est = GKFPUALClassifier(C2=0.3, lambda2=0.01, sigma=1e-3)
    >>> sel = GKFPUALSelector(est, n_features_to_select=2, n_lambdas=20).fit(X, s)
    >>> sel.get_support(indices=True).tolist()
    [0, 1]
    >>> GKFPUALSelector(est).fit(X, s).transform(X).shape  # λ1 = 0.1 keeps every feature
    (200, 6)
    """

    _parameter_constraints: ClassVar[dict] = {
        "estimator": [GKFPUALClassifier, HasMethods(["fit", "predict"]), None],
        "n_features_to_select": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "n_lambdas": [Interval(numbers.Integral, 1, None, closed="left")],
        "eps": [Interval(numbers.Real, 0, 1, closed="neither")],
        "prefilter": [
            Interval(numbers.Integral, 1, None, closed="left"),
            StrOptions({"auto"}),
            None,
        ],
    }

    def __init__(
        self,
        estimator: GKFPUALClassifier | None = None,
        *,
        n_features_to_select: int | None = None,
        n_lambdas: int = 50,
        eps: float = 1e-2,
        prefilter: int | str | None = None,
    ):
        self.estimator = estimator
        self.n_features_to_select = n_features_to_select
        self.n_lambdas = n_lambdas
        self.eps = eps
        self.prefilter = prefilter

    def _classifier(self, X, y) -> GKFPUALClassifier:
        """The configured classifier, or the search's tuned one (sets ``search_``)."""
        self.search_ = None
        if self.estimator is None:
            return GKFPUALClassifier()
        if isinstance(self.estimator, GKFPUALClassifier):
            return clone(self.estimator)
        inner = getattr(self.estimator, "estimator", None)
        if not isinstance(inner, GKFPUALClassifier):
            raise ValueError(
                "estimator must be a GKFPUALClassifier or a PUGridGreedySearch over one; got "
                f"{type(self.estimator).__name__}"
                + (f" over {type(inner).__name__}" if inner is not None else "")
            )
        self.search_ = clone(self.estimator).fit(X, y)
        return clone(inner).set_params(**self.search_.best_params_)

    def _screen(self, X, y, k: int | None) -> np.ndarray | None:
        """The features kept by ``prefilter`` (None: no screening)."""
        if self.prefilter is None:
            return None
        n, d = X.shape
        if self.prefilter == "auto":  # 32, or k when more are asked for, as memory allows
            wanted = max(AUTO_PREFILTER_MAX, 0 if k is None else int(k))
            m = min(wanted, largest_quadratic_model(n, self._memory_limit_mb()))
        else:
            m = int(self.prefilter)
        if m >= d:
            return None
        if k is not None and k > m:
            raise ValueError(
                f"n_features_to_select={k} is more than the {counted(m, 'feature')} the prefilter "
                "keeps"
            )
        s = np.asarray(y).ravel() == 1
        relevance = EncodedColumns(discretize(X, 5)).mutual_information(s.astype(int))
        keep = np.zeros(d, dtype=bool)
        keep[np.argsort(-relevance, kind="stable")[:m]] = True
        return keep

    def _memory_limit_mb(self) -> float:
        est = self.estimator if self.estimator is not None else GKFPUALClassifier()
        inner = est if isinstance(est, GKFPUALClassifier) else getattr(est, "estimator", est)
        return float(getattr(inner, "memory_limit_mb", GKFPUALClassifier().memory_limit_mb))

    def _fit_screened(self, X, y):
        """Fit on the screened features only; support and names map back to X's columns."""
        keep = self.screened_
        inner = clone(self).set_params(prefilter=None)
        columns = np.flatnonzero(keep)
        X_kept = X[:, columns]
        if hasattr(self, "feature_names_in_"):
            X_kept = pd.DataFrame(X_kept, columns=self.feature_names_in_[columns])
        inner.fit(X_kept, y)
        self.estimator_, self.lambda1_ = inner.estimator_, inner.lambda1_
        self.path_, self.search_ = inner.path_, inner.search_
        support = np.zeros(X.shape[1], dtype=bool)
        support[columns[inner.support_]] = True
        self.support_ = support
        return self

    @_fit_context(prefer_skip_nested_validation=False)
    @fill_doc
    def fit(self, X, y):
        """Fit the classifier on PU data ``(X, y)`` and keep its support (or ``k`` features).

        %(pu_fit_parameters)s
        """
        X, y = validate_X_y(self, X, y, ensure_min_samples=2)
        # y is checked once, by the classifier (or the search) that reads it first
        k = _check_k(self.n_features_to_select, X.shape[1])
        self.screened_ = self._screen(X, y, k)
        if self.screened_ is not None:
            return self._fit_screened(X, y)
        est = self._classifier(X, y)
        self.path_ = None
        if k is None:
            self.estimator_ = est.fit(X, y)
            self.support_ = self.estimator_.support_.copy()
            self.lambda1_ = float(self.estimator_.lambda1)
            return self
        t0 = time.perf_counter()
        est._validate_params()
        solver, names = _path_solver(est, X, y)
        lam_max, _ = solver.lambda1_max()
        grid = _lambda_grid(lam_max, None, self.n_lambdas, self.eps)
        lam = solver.lambda_for_k(k, grid)
        # the path as searched: the grid, its bisection points and any continuation below it
        solved = np.unique(np.r_[grid, [v for v in solver.solutions if v <= lam_max]])[::-1]
        names = getattr(self, "feature_names_in_", names)  # X was validated to an array
        self.path_ = _collect(
            solver, solved, names, est.mean_, est.scale_, time.perf_counter() - t0
        )
        self.lambda1_ = float(lam)
        self.estimator_ = clone(est).set_params(lambda1=self.lambda1_).fit(X, y)
        # the k largest groups of the refit; if the refit (a cold start) keeps fewer than k,
        # rank by the path's solution at the same λ1
        norms = self.estimator_.group_norms_
        if (norms > 0).sum() < k:
            norms = solver.solve(lam).group_norms
        support = np.zeros(X.shape[1], dtype=bool)
        support[np.argsort(-norms, kind="stable")[:k]] = True
        self.support_ = support
        return self
