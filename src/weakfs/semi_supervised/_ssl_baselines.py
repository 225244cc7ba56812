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
* **CoT-FSS** (Ren et al. 2008): in ``_cot_fss``.
"""

from __future__ import annotations

import numbers
from typing import ClassVar

import numpy as np
from scipy import sparse
from sklearn.base import _fit_context
from sklearn.utils._param_validation import Interval

from weakfs._docstrings import fill_doc
from weakfs._graph import knn_mask, laplacian_quadratic_form
from weakfs._labels import check_semi_supervised_labels
from weakfs._selection import RankingSelector
from weakfs._validation import (
    check_n_features_to_select,
    n_features_to_select_constraint,
    validate_X_y,
)

__all__ = [
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
    S = knn_mask(X, n_neighbors)
    J = 2.0 * laplacian_quadratic_form(S, X)
    with np.errstate(divide="ignore", invalid="ignore"):
        score = (s_between + delta * var) / (s_within + lam * J)
    return np.nan_to_num(score, nan=-np.inf, posinf=np.inf)


def _pair_sq_distances(X: np.ndarray):
    """The non-zero squared distances of the distinct pairs of rows, as float32, block by block
    (about 2,000,000 pairs each)."""
    n = X.shape[0]
    sq = (X * X).sum(axis=1)
    floor = 1e-12 * max(1.0, float(sq.max())) if n else 0.0
    step = max(1, 2_000_000 // max(n, 1))
    for start in range(0, n, step):
        stop = min(n, start + step)
        block = sq[start:stop, None] + sq[None, :] - 2.0 * X[start:stop] @ X.T
        rows = np.arange(start, stop)[:, None]
        upper = np.arange(n)[None, :] > rows
        vals = np.maximum(block[upper], 0.0).astype(np.float32)
        yield vals[vals > floor]


def _median_sq_distance(X: np.ndarray) -> float:
    """Median of the non-zero pairwise squared distances (over distinct pairs, in float32).

    Exact, in memory bounded by one block of pairs rather than all n²/2 of them (2.6 GB at
    20,000 rows): a radix selection on the float32 bit patterns, which order non-negative floats
    as their values.  One pass counts the pairs per upper 16 bits, a second counts the lower 16
    bits inside the one or two upper groups holding the middle ranks; the middle value(s) then
    give ``np.median``'s result bit for bit.
    """
    high = np.zeros(1 << 16, dtype=np.int64)
    for vals in _pair_sq_distances(X):
        high += np.bincount(vals.view(np.uint32) >> 16, minlength=1 << 16)
    total = int(high.sum())
    if total == 0:
        return 1.0
    ranks = [total // 2] if total % 2 else [total // 2 - 1, total // 2]
    cum = np.cumsum(high)
    groups = [int(np.searchsorted(cum, r, side="right")) for r in ranks]
    low = {g: np.zeros(1 << 16, dtype=np.int64) for g in set(groups)}
    for vals in _pair_sq_distances(X):
        bits = vals.view(np.uint32)
        for g, counts in low.items():
            counts += np.bincount(bits[(bits >> 16) == g] & 0xFFFF, minlength=1 << 16)
    middle = []
    for r, g in zip(ranks, groups):
        below = int(cum[g - 1]) if g > 0 else 0
        lo = int(np.searchsorted(np.cumsum(low[g]), r - below, side="right"))
        middle.append(np.uint32((g << 16) | lo).view(np.float32))
    return float(np.median(np.array(middle, dtype=np.float32)))


def ssls_scores(X, y_codes, *, n_neighbors=20, sigma=None) -> np.ndarray:
    """Semi-supervised Laplacian scores (smaller is better); ``-1`` marks unlabeled rows."""
    X = _dense64(X)
    y_codes = np.asarray(y_codes)
    lab_idx = np.flatnonzero(y_codes >= 0)
    if sigma is None:
        sigma = np.sqrt(_median_sq_distance(X))
    two_s2 = 2.0 * float(sigma) ** 2
    mask = knn_mask(X, n_neighbors).tocoo()
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
    num = laplacian_quadratic_form(W, X) + laplacian_quadratic_form(block_w, Xl)
    block_b = (yl[:, None] != yl[None, :]).astype(float)
    den = laplacian_quadratic_form(block_b, Xl)
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
    mean = X.mean(axis=0)
    Xc = X - mean
    q_inv = np.full(d, float(d))  # Q = I/d at start; q_inv = diag(Q)^-1
    use_dual = d > n
    XtX = None if use_dual else Xc.T @ Xc
    # Text data is ~1-2 % non-zero: there the n x n product is formed from the sparse rows
    # (the same matrix up to rounding, several times faster than the dense BLAS product).
    X_sparse = None
    if use_dual and np.count_nonzero(X) < _SPARSE_PRODUCT_DENSITY * X.size:
        X_sparse = sparse.csr_matrix(X)
    best_obj, best_W = np.inf, None
    prev = None
    n_iter = 0
    for _ in range(max_iter):
        n_iter += 1
        Yc = Y - Y.mean(axis=0)
        obj_w_old = None
        for _inner in range(max_inner):
            if use_dual:
                K = _scaled_gram(Xc, q_inv, X_sparse, mean)
                K[np.diag_indices(n)] += gamma
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


#: below this share of non-zeros RLSR's n x n product uses the sparse rows
_SPARSE_PRODUCT_DENSITY = 0.1


def _scaled_gram(Xc, q, X_sparse, mean) -> np.ndarray:
    """``Xc diag(q) Xc^T`` with ``Xc = X - mean``, from sparse ``X`` when it is given."""
    if X_sparse is None:
        return (Xc * q) @ Xc.T
    # (X - 1 m^T) Q (X - 1 m^T)^T = X Q X^T - v 1^T - 1 v^T + (m^T Q m) 1 1^T, v = X Q m
    XQ = X_sparse.multiply(q).tocsr()
    v = XQ @ mean
    K = (XQ @ X_sparse.T).toarray()
    K -= v[:, None]
    K -= v[None, :]
    K += float(mean @ (q * mean))
    return K


def paper_default_k(d: int) -> int:
    """``ceil(d ** (2/3))``: the number of features SEW-IL's paper selects with its baselines."""
    return int(np.ceil(d ** (2.0 / 3.0)))


_K_CONSTRAINT = n_features_to_select_constraint(auto=True)


class _ScoreSelector(RankingSelector):
    """Shared fit: validate, check labels, score, keep the top ``k`` (``_larger_is_better``)."""

    _larger_is_better = True
    _accepts_sparse = True

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
        self._keep_first(np.argsort(key, kind="stable"), k, d, scores, labels.classes)
        return self


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
    scores_ : ndarray of shape (n_features,)
        Semi-Fisher scores (larger is better).
    %(ranking_attributes)s

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
    scores_ : ndarray of shape (n_features,)
        Constraint scores (smaller is better).
    %(ranking_attributes)s

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
    scores_ : ndarray of shape (n_features,)
        Feature weights (larger is better; they sum to 1).
    %(ranking_attributes)s
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
