"""Semi-supervised baselines of SEW-IL's Table 4: Semi-Fisher score, SSLS, RLSR and CoT-FSS.

All read scikit-learn's ``-1`` = unlabeled and select ``n_features_to_select`` features
(``"auto"``: ``ceil(d ** (2/3))``, the paper's choice).  Settings follow the SEW-IL authors'
reference code:

* **Semi-Fisher score** (Yang et al. 2010): symmetric 0/1 20-NN graph over all rows, unnormalised
  Laplacian ``L``, ``lambda = delta = 1``; score ``(S_between + delta var) / (S_within +
  lambda 2 f^T L f)``, larger is better.  Class means/scatters use the labeled rows, the overall
  mean and variance all rows.
* **SSLS** (Zhao et al. 2008): 20-NN heat kernel with ``sigma = sqrt(median non-zero squared
  distance)``; the within graph has its labeled block replaced by "same label", the between graph
  links labeled pairs with different labels (weight 1); score ``f^T L_w f / f^T L_b f``, smaller is
  better.
* **RLSR** (Chen et al. 2017): rescaled linear square regression, ``gamma = 0.1``, at most 100 outer
  and 10 inner iterations, unlabeled targets start at ``1/c`` and are projected on the simplex;
  score = row norms of ``W``.
* **CoT-FSS** (Ren et al. 2008): forward selection with co-training: fitness = 5-fold CV accuracy
  of a decision tree (``min_samples_leaf=5``), ``10 %`` of ``d`` added per step, 5 resamples of
  ``50 %`` of the unlabeled rows per step.
"""

from __future__ import annotations

import numbers
import warnings
from typing import ClassVar

import numpy as np
from joblib import Parallel, delayed
from scipy import sparse
from sklearn.base import _fit_context
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.neighbors import kneighbors_graph
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions

from weakfs._docstrings import fill_doc
from weakfs._labels import check_semi_supervised_labels
from weakfs._selection import RankingSelector
from weakfs._validation import (
    check_n_features_to_select,
    check_n_neighbors,
    n_features_to_select_constraint,
    spawn_seeds,
    validate_X_y,
)

__all__ = [
    "CoTFSSSelector",
    "RLSRSelector",
    "SSLSSelector",
    "SemiFisherSelector",
    "rlsr_scores",
    "semi_fisher_scores",
    "ssls_scores",
]


def _dense64(X) -> np.ndarray:
    if sparse.issparse(X):
        X = X.toarray()
    return np.asarray(X, dtype=np.float64)


def _knn_mask(X: np.ndarray, n_neighbors: int) -> sparse.csr_matrix:
    """Symmetric 0/1 k-NN graph (self excluded): ``i~j`` if either is among the other's k-NN."""
    k = check_n_neighbors(n_neighbors, X.shape[0])
    g = kneighbors_graph(X, k, mode="connectivity", include_self=False)
    return ((g + g.T) > 0).astype(np.float64).tocsr()


def _quadratic_laplacian(W, X: np.ndarray) -> np.ndarray:
    """``f^T (D - W) f`` for every column ``f`` of ``X`` (W symmetric, sparse or dense)."""
    deg = np.asarray(W.sum(axis=1)).ravel()
    WX = W @ X
    return (deg[:, None] * X * X).sum(axis=0) - (X * np.asarray(WX)).sum(axis=0)


def semi_fisher_scores(X, y_codes, *, n_neighbors=20, lam=1.0, delta=1.0) -> np.ndarray:
    """Semi-Fisher scores (larger is better); ``y_codes`` has ``-1`` for unlabeled rows."""
    X = _dense64(X)
    y_codes = np.asarray(y_codes)
    lab = y_codes >= 0
    mean = X.mean(axis=0)
    var = X.var(axis=0)
    s_between = np.zeros(X.shape[1])
    s_within = np.zeros(X.shape[1])
    for c in np.unique(y_codes[lab]):
        Xc = X[y_codes == c]
        s_between += Xc.shape[0] * (Xc.mean(axis=0) - mean) ** 2
        s_within += Xc.shape[0] * Xc.var(axis=0)
    S = _knn_mask(X, n_neighbors)
    J = 2.0 * _quadratic_laplacian(S, X)
    with np.errstate(divide="ignore", invalid="ignore"):
        score = (s_between + delta * var) / (s_within + lam * J)
    return np.nan_to_num(score, nan=-np.inf, posinf=np.inf)


def _median_sq_distance(X: np.ndarray) -> float:
    """Median of the non-zero pairwise squared distances (over distinct pairs; float32 chunks)."""
    n = X.shape[0]
    sq = (X * X).sum(axis=1)
    parts = []
    step = max(1, 2_000_000 // max(n, 1))
    for start in range(0, n, step):
        stop = min(n, start + step)
        block = sq[start:stop, None] + sq[None, :] - 2.0 * X[start:stop] @ X.T
        rows = np.arange(start, stop)[:, None]
        upper = np.arange(n)[None, :] > rows
        vals = np.maximum(block[upper], 0.0).astype(np.float32)
        parts.append(vals[vals > 1e-12 * max(1.0, float(sq.max()))])
    allv = np.concatenate(parts) if parts else np.array([1.0], dtype=np.float32)
    if allv.size == 0:
        return 1.0
    return float(np.median(allv))


def ssls_scores(X, y_codes, *, n_neighbors=20, sigma=None) -> np.ndarray:
    """Semi-supervised Laplacian scores (smaller is better); ``-1`` marks unlabeled rows."""
    X = _dense64(X)
    y_codes = np.asarray(y_codes)
    lab_idx = np.flatnonzero(y_codes >= 0)
    if sigma is None:
        sigma = np.sqrt(_median_sq_distance(X))
    two_s2 = 2.0 * float(sigma) ** 2
    mask = _knn_mask(X, n_neighbors).tocoo()
    rows, cols = mask.row, mask.col
    is_lab = y_codes >= 0
    keep = ~(is_lab[rows] & is_lab[cols])  # labeled block replaced below
    rows, cols = rows[keep], cols[keep]
    d2 = ((X[rows] - X[cols]) ** 2).sum(axis=1)
    W = sparse.csr_matrix((np.exp(-d2 / two_s2), (rows, cols)), shape=(X.shape[0],) * 2)
    Xl = X[lab_idx]
    yl = y_codes[lab_idx]
    sql = (Xl * Xl).sum(axis=1)
    d2l = np.maximum(sql[:, None] + sql[None, :] - 2.0 * Xl @ Xl.T, 0.0)
    same = (yl[:, None] == yl[None, :]).astype(float)
    block_w = np.exp(-d2l / two_s2) * same
    num = _quadratic_laplacian(W, X) + _quadratic_laplacian(block_w, Xl)
    block_b = (yl[:, None] != yl[None, :]).astype(float)
    den = _quadratic_laplacian(block_b, Xl)
    with np.errstate(divide="ignore", invalid="ignore"):
        score = num / den
    return np.nan_to_num(score, nan=np.inf, posinf=np.inf)


def _project_rows_simplex(V: np.ndarray) -> np.ndarray:
    """Euclidean projection of every row on the probability simplex (sort-based, vectorised)."""
    n, c = V.shape
    U = -np.sort(-V, axis=1)
    css = np.cumsum(U, axis=1) - 1.0
    ind = np.arange(1, c + 1)
    cond = U - css / ind > 0
    rho = c - 1 - np.argmax(cond[:, ::-1], axis=1)
    theta = css[np.arange(n), rho] / (rho + 1)
    return np.maximum(V - theta[:, None], 0.0)


def rlsr_scores(X, y_codes, *, gamma=0.1, max_iter=100, max_inner=10, epsilon=1e-5):
    """RLSR feature scores (row norms of ``W``, normalised to sum 1; larger is better).

    Returns ``(scores, n_iter)`` with the number of outer iterations run.
    """
    X = _dense64(X)
    y_codes = np.asarray(y_codes)
    lab = y_codes >= 0
    n, d = X.shape
    classes = np.unique(y_codes[lab])
    c = classes.size
    Y = np.full((n, c), 1.0 / c)
    Y[lab] = (y_codes[lab][:, None] == classes[None, :]).astype(float)
    Xc = X - X.mean(axis=0)
    q_inv = np.full(d, float(d))  # Q = I/d at start; q_inv = diag(Q)^-1
    use_dual = d > n
    XtX = None if use_dual else Xc.T @ Xc
    best_obj, best_W = np.inf, None
    prev = None
    n_iter = 0
    for _ in range(max_iter):
        n_iter += 1
        Yc = Y - Y.mean(axis=0)
        obj_w_old = None
        for _inner in range(max_inner):
            if use_dual:
                K = (Xc * q_inv) @ Xc.T + gamma * np.eye(n)
                W = q_inv[:, None] * (Xc.T @ np.linalg.solve(K, Yc))
            else:
                W = np.linalg.solve(XtX + gamma * np.diag(1.0 / q_inv), Xc.T @ Yc)
            temp = np.sqrt((W * W).sum(axis=1) + epsilon)
            q_inv = temp / temp.sum()
            resid = Xc @ W - Yc
            obj_w = float((resid * resid).sum() + gamma * np.sum((W * W).sum(axis=1) / q_inv))
            if obj_w_old is not None and abs(obj_w_old - obj_w) / max(obj_w_old, 1e-300) < 1e-7:
                break
            obj_w_old = obj_w
        b = (Y.sum(axis=0) - (X @ W).sum(axis=0)) / n
        Y[~lab] = _project_rows_simplex(X[~lab] @ W + b)
        res = X @ W + b - Y
        obj = float((res * res).sum() + gamma * np.sqrt((W * W).sum(axis=1)).sum() ** 2)
        if np.isfinite(obj) and obj <= best_obj:
            best_obj, best_W = obj, W
        if prev is not None and abs((prev - obj) / obj) < 1e-8:
            break
        prev = obj
    W = best_W if best_W is not None else W
    theta = np.sqrt((W * W).sum(axis=1))
    return theta / theta.sum(), n_iter


def paper_default_k(d: int) -> int:
    """``ceil(d ** (2/3))``: the number of features SEW-IL's paper selects with its baselines."""
    return int(np.ceil(d ** (2.0 / 3.0)))


_K_CONSTRAINT = n_features_to_select_constraint(auto=True)


class _ScoreSelector(RankingSelector):
    """Shared fit: validate, check labels, score, keep the top ``k`` (``_larger_is_better``)."""

    _larger_is_better = True
    # every SEW-IL baseline has these two; subclasses add their own
    _parameter_constraints: ClassVar[dict] = {
        "n_features_to_select": _K_CONSTRAINT,
        "allow_fully_labeled": ["boolean"],
    }

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Score every feature from labeled and unlabeled (``-1``) rows and keep the best."""
        X, y = validate_X_y(self, X, y, accept_sparse=["csr", "csc"])
        labels = check_semi_supervised_labels(y, require_unlabeled=not self.allow_fully_labeled)
        d = X.shape[1]
        k = check_n_features_to_select(self.n_features_to_select, d, auto=paper_default_k)
        scores = np.asarray(self._scores(X, labels.y_encoded), dtype=float)
        key = -scores if self._larger_is_better else scores
        self._keep_first(np.argsort(key, kind="stable"), k, d, scores=scores)
        self.classes_ = labels.classes
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


@fill_doc
class SemiFisherSelector(_ScoreSelector):
    """Semi-Fisher score selector (Yang et al. 2010), SEW-IL's SFS baseline.

    Parameters
    ----------
    %(sewil_n_features_to_select)s
    n_neighbors : int, default=20
        Neighbours of the symmetric 0/1 k-NN graph over all rows (labeled and unlabeled).
    lam, delta : float, default=1.0
        Weights of the graph term ``2 f^T L f`` in the denominator (``lam``) and of the variance
        in the numerator (``delta``) of the score.
    %(allow_fully_labeled)s

    Attributes
    ----------
    scores_ : ndarray (larger is better)
    ranking_ : ndarray of feature indices, best first
    support_ : ndarray of bool

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.semi_supervised import SemiFisherSelector
    >>> rng = np.random.RandomState(0); X = rng.randn(60, 5); y = (X[:, 0] > 0).astype(int)
    >>> y[20:] = -1
    >>> int(SemiFisherSelector(n_features_to_select=1).fit(X, y).ranking_[0])
    0
    """

    _parameter_constraints: ClassVar[dict] = {
        **_ScoreSelector._parameter_constraints,
        "n_neighbors": [Interval(numbers.Integral, 1, None, closed="left")],
        "lam": [Interval(numbers.Real, 0, None, closed="left")],
        "delta": [Interval(numbers.Real, 0, None, closed="left")],
    }

    def __init__(
        self,
        n_features_to_select="auto",
        *,
        n_neighbors: int = 20,
        lam: float = 1.0,
        delta: float = 1.0,
        allow_fully_labeled: bool = False,
    ):
        self.n_features_to_select = n_features_to_select
        self.n_neighbors = n_neighbors
        self.lam = lam
        self.delta = delta
        self.allow_fully_labeled = allow_fully_labeled

    def _scores(self, X, y_codes):
        return semi_fisher_scores(
            X, y_codes, n_neighbors=self.n_neighbors, lam=self.lam, delta=self.delta
        )


@fill_doc
class SSLSSelector(_ScoreSelector):
    """Semi-supervised Laplacian score selector (Zhao et al. 2008), SEW-IL's SSLS baseline.

    Parameters
    ----------
    %(sewil_n_features_to_select)s
    n_neighbors : int, default=20
        Neighbours of the k-NN graph that carries the heat-kernel weights.
    sigma : float or None, default=None
        Heat-kernel width (``None``: square root of the median non-zero squared distance).
    %(allow_fully_labeled)s

    Attributes
    ----------
    scores_ : ndarray (smaller is better)
    ranking_, support_ : as in :class:`SemiFisherSelector`

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.semi_supervised import SSLSSelector
    >>> rng = np.random.RandomState(0); X = rng.randn(60, 5); y = (X[:, 2] > 0).astype(int)
    >>> y[20:] = -1
    >>> int(SSLSSelector(n_features_to_select=1).fit(X, y).ranking_[0])
    2
    """

    _larger_is_better = False
    _parameter_constraints: ClassVar[dict] = {
        **_ScoreSelector._parameter_constraints,
        "n_neighbors": [Interval(numbers.Integral, 1, None, closed="left")],
        "sigma": [None, Interval(numbers.Real, 0, None, closed="neither")],
    }

    def __init__(
        self,
        n_features_to_select="auto",
        *,
        n_neighbors: int = 20,
        sigma: float | None = None,
        allow_fully_labeled: bool = False,
    ):
        self.n_features_to_select = n_features_to_select
        self.n_neighbors = n_neighbors
        self.sigma = sigma
        self.allow_fully_labeled = allow_fully_labeled

    def _scores(self, X, y_codes):
        return ssls_scores(X, y_codes, n_neighbors=self.n_neighbors, sigma=self.sigma)


@fill_doc
class RLSRSelector(_ScoreSelector):
    """Rescaled linear square regression selector (Chen et al. 2017), SEW-IL's RLSR baseline.

    Parameters
    ----------
    %(sewil_n_features_to_select)s
    gamma : float, default=0.1
        Weight of the rescaled row-sparsity penalty on ``W`` (Chen et al.'s ``gamma``).
    max_iter : int, default=100
        Outer iterations (unlabeled targets update).
    max_inner : int, default=10
        Inner iterations (W and the rescaling update).
    %(allow_fully_labeled)s

    Attributes
    ----------
    scores_ : ndarray (larger is better; sums to 1)
    ranking_, support_
    n_iter_ : int
        Outer iterations run.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.semi_supervised import RLSRSelector
    >>> rng = np.random.RandomState(0); X = rng.randn(60, 5); y = (X[:, 1] > 0).astype(int)
    >>> y[20:] = -1
    >>> int(RLSRSelector(n_features_to_select=1).fit(X, y).ranking_[0])
    1
    """

    _parameter_constraints: ClassVar[dict] = {
        **_ScoreSelector._parameter_constraints,
        "gamma": [Interval(numbers.Real, 0, None, closed="neither")],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_inner": [Interval(numbers.Integral, 1, None, closed="left")],
    }

    def __init__(
        self,
        n_features_to_select="auto",
        *,
        gamma: float = 0.1,
        max_iter: int = 100,
        max_inner: int = 10,
        allow_fully_labeled: bool = False,
    ):
        self.n_features_to_select = n_features_to_select
        self.gamma = gamma
        self.max_iter = max_iter
        self.max_inner = max_inner
        self.allow_fully_labeled = allow_fully_labeled

    def _scores(self, X, y_codes):
        scores, self.n_iter_ = rlsr_scores(
            X, y_codes, gamma=self.gamma, max_iter=self.max_iter, max_inner=self.max_inner
        )
        return scores


def _cv_accuracy(X, y, cols, seed, n_splits):
    tree = DecisionTreeClassifier(min_samples_leaf=5, random_state=seed)
    cv = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return float(cross_val_score(tree, X[:, cols], y, cv=cv).mean())


def _forward_new(X, y, exclude, n_add, seed, n_splits, n_jobs):
    """Forward ranking (``n_add`` per step) until ``n_add`` features outside ``exclude`` are ranked.

    The ranking is built from scratch (as the reference co-training wrapper does); only its first
    ``n_add`` features outside ``exclude`` are used, so the search stops once they are known.
    """
    d = X.shape[1]
    chosen: list[int] = []
    current = np.zeros(d, dtype=bool)
    new: list[int] = []
    with Parallel(n_jobs=n_jobs, prefer="threads") as par:
        while len(new) < n_add:
            remaining = np.flatnonzero(~current)
            if remaining.size == 0:
                break
            if remaining.size <= n_add:
                step = remaining
            else:
                base = np.flatnonzero(current)
                scores = np.array(
                    par(
                        delayed(_cv_accuracy)(X, y, np.append(base, f), seed, n_splits)
                        for f in remaining
                    )
                )
                step = remaining[np.argsort(-scores, kind="stable")[:n_add]]
            chosen.extend(step.tolist())
            current[step] = True
            new.extend(int(f) for f in step if f not in exclude)
    return new[:n_add]


@fill_doc
class CoTFSSSelector(RankingSelector):
    """Co-training forward sequential selection (Ren et al. 2008), SEW-IL's CoT-FSS baseline.

    Starts from ``n_start`` features (at most ``k``) that the forward search picks on the labeled
    rows (``start="labeled"``; the authors' code draws them at random, ``start="random"``); at each
    step a decision tree trained on the labeled
    rows pseudo-labels the unlabeled rows; on each of ``n_resamples`` random halves of the
    unlabeled rows (with their pseudo-labels, plus the labeled rows) a forward search proposes the
    ``n_add`` best new features; the ``n_add`` most often proposed are added.

    Parameters
    ----------
    %(sewil_n_features_to_select)s
    n_add : int or None, default=None
        Features per step (``None``: ``max(1, floor(0.1 d))``).
    n_start : int, default=5
        Features the search starts from (never more than ``k``).
    start : {"labeled", "random"}, default="labeled"
        ``"labeled"``: the ``n_start`` best features of one forward step on the labeled rows
        alone (a start that depends on the data); ``"random"``: drawn at random, as the authors'
        code does (then, for ``k <= n_start``, the answer is those random features).
    n_resamples : int, default=5
        Random subsets of the pseudo-labeled unlabeled rows per step; each proposes ``n_add``
        features and the most often proposed are added.
    resample_fraction : float, default=0.5
        Share of the unlabeled rows in each resample.
    n_splits : int, default=5
        Folds of the decision-tree CV fitness.
    %(allow_fully_labeled)s
    %(random_state)s
        It seeds the starting features, the resamples, the trees and the CV folds.
    %(n_jobs)s
        Jobs score the candidate features of a forward step.

    Attributes
    ----------
    ranking_ : ndarray, features in the order they were added
    support_ : ndarray of bool

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.semi_supervised import CoTFSSSelector
    >>> rng = np.random.RandomState(0); X = rng.randn(80, 10); y = (X[:, 0] > 0).astype(int)
    >>> y[30:] = -1
    >>> sel = CoTFSSSelector(n_features_to_select=6, n_start=2, n_add=2, n_resamples=2,
    ...                      random_state=0).fit(X, y)
    >>> int(sel.get_support().sum()), sel.ranking_.shape
    (6, (6,))
    """

    _parameter_constraints: ClassVar[dict] = {
        "n_features_to_select": _K_CONSTRAINT,
        "n_add": [None, Interval(numbers.Integral, 1, None, closed="left")],
        "n_start": [Interval(numbers.Integral, 0, None, closed="left")],
        "start": [StrOptions({"labeled", "random"})],
        "n_resamples": [Interval(numbers.Integral, 1, None, closed="left")],
        "resample_fraction": [Interval(numbers.Real, 0, 1, closed="right")],
        "n_splits": [Interval(numbers.Integral, 2, None, closed="left")],
        "allow_fully_labeled": ["boolean"],
        "random_state": ["random_state"],
        "n_jobs": [None, numbers.Integral],
    }

    def __init__(
        self,
        n_features_to_select="auto",
        *,
        n_add: int | None = None,
        n_start: int = 5,
        start: str = "labeled",
        n_resamples: int = 5,
        resample_fraction: float = 0.5,
        n_splits: int = 5,
        allow_fully_labeled: bool = False,
        random_state=None,
        n_jobs: int | None = None,
    ):
        self.n_features_to_select = n_features_to_select
        self.n_add = n_add
        self.n_start = n_start
        self.start = start
        self.n_resamples = n_resamples
        self.resample_fraction = resample_fraction
        self.n_splits = n_splits
        self.allow_fully_labeled = allow_fully_labeled
        self.random_state = random_state
        self.n_jobs = n_jobs

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Run the co-training forward search."""
        X, y = validate_X_y(self, X, y, accept_sparse=["csr", "csc"])
        labels = check_semi_supervised_labels(y, require_unlabeled=not self.allow_fully_labeled)
        X = _dense64(X)
        d = X.shape[1]
        k = check_n_features_to_select(self.n_features_to_select, d, auto=paper_default_k)
        n_add = max(1, int(0.1 * d)) if self.n_add is None else int(self.n_add)
        seed = int(spawn_seeds(self.random_state, 1)[0])
        rng = check_random_state(seed)
        lab = labels.labeled
        Xl, yl, Xu = X[lab], labels.y_encoded[lab], X[~lab]
        n_u = Xu.shape[0]
        n_take = max(1, int(self.resample_fraction * n_u)) if n_u else 0
        n_splits = max(2, min(self.n_splits, int(np.bincount(yl).min()) or 2))
        n_start = min(self.n_start, k, d)
        if self.start == "random" or n_start == 0:
            variables = [int(f) for f in rng.choice(d, n_start, replace=False)]
        else:
            variables = _forward_new(Xl, yl, set(), n_start, seed, n_splits, self.n_jobs)
        while len(variables) < k:
            remaining = np.setdiff1d(np.arange(d), variables)
            if remaining.size <= n_add:
                variables.extend(remaining.tolist())
                break
            if n_u == 0:
                Xt, yt = Xl, yl
                proposals = _forward_new(Xt, yt, set(variables), n_add, seed, n_splits, self.n_jobs)
            else:
                cols = np.asarray(variables if variables else remaining[:1], dtype=np.intp)
                tree = DecisionTreeClassifier(min_samples_leaf=5, random_state=seed)
                tree.fit(Xl[:, cols], yl)
                pseudo = tree.predict(Xu[:, cols])
                proposals = []
                for _ in range(self.n_resamples):
                    idx = rng.choice(n_u, n_take, replace=False)
                    Xt = np.vstack([Xl, Xu[idx]])
                    yt = np.concatenate([yl, pseudo[idx]])
                    proposals += _forward_new(
                        Xt, yt, set(variables), n_add, seed, n_splits, self.n_jobs
                    )
            if not proposals:
                variables.extend(remaining[:n_add].tolist())
                continue
            feats, counts = np.unique(np.asarray(proposals, dtype=np.intp), return_counts=True)
            variables.extend(feats[np.argsort(-counts, kind="stable")][:n_add].tolist())
        self._keep_first(variables, k, d)
        self.classes_ = labels.classes
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
