"""GKF-PUAL: group kernel-free PU classifier with asymmetric loss (Ye, Li & Jin; ``gkf-pual.txt``).

Score ``f(x) = ½ xᵀAx + bᵀx + β0`` (``A`` symmetric).  With ``α*`` = (upper triangle of ``A``,
``b``) and the quadratic feature map ``s(x)`` such that ``f(x) = s(x)ᵀα* + β0``, the objective
(paper eq. 11) is

    λ1/2 Σ_j ‖α*_[j]‖₂ + λ2/2 α*ᵀGα* + fᵀRf + C1 Σ_P [1 − f(x_i)]₊ + C2 Σ_U (1 + f(x_i))²

where ``α*ᵀGα* = Σ_i ‖A x_i + b‖²`` (kernel-free regulariser), ``R`` is the graph Laplacian of a
K-nearest-neighbour similarity graph over all training rows and group ``j`` holds every entry of
``A`` in row/column ``j`` plus ``b_j`` (groups overlap through the off-diagonal entries).  It is
solved by the paper's five-block ADMM (§3.2) with the closed-form block updates (eq. 18, 21, 23, 25,
30); the two constant linear systems are factored once, and iterations stop on Boyd's primal/dual
residual test.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import scipy.linalg
from scipy import sparse
from scipy.sparse.linalg import splu
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.feature_selection import SelectorMixin
from sklearn.neighbors import NearestNeighbors
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted

from weakfs._labels import PU_LABEL_HELP, check_pu_labels
from weakfs._validation import check_y_given, validate_X, validate_X_y

__all__ = [
    "GKFPUALClassifier",
    "GKFPUALSelector",
    "check_pu_target",
    "gkf_pual_objective",
    "knn_laplacian",
    "quadratic_design",
]


def check_pu_target(estimator, y) -> np.ndarray:
    """PU labels for the classifiers of this module, with scikit-learn's standard messages.

    ``None``, continuous and multiclass targets get the wording scikit-learn's checks expect; a
    target with a single value (nothing labeled, or nothing unlabeled) says "one class".
    """
    from sklearn.utils.multiclass import type_of_target

    check_y_given(estimator, y)
    kind = type_of_target(y, input_name="y")
    if kind == "continuous":
        raise ValueError(f"Unknown label type: continuous. {PU_LABEL_HELP}")
    if kind not in ("binary", "unknown") and np.unique(np.asarray(y)).size > 2:
        raise ValueError(
            f"Only binary classification is supported. The type of the target is {kind}; "
            f"{PU_LABEL_HELP}"
        )
    try:
        return check_pu_labels(y)
    except ValueError as err:
        if "no labeled" in str(err) or "no unlabeled" in str(err):
            raise ValueError(f"y holds only one class: {err}") from err
        raise


# ----------------------------------------------------------------------------------------------
# design of the quadratic model
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class QuadraticDesign:
    """Index bookkeeping of ``α* = (upper triangle of A row by row, b)`` for ``m`` features.

    ``pair[j, k]`` is the position of ``A_jk`` (= ``A_kj``) in ``α*``; ``groups[j]`` lists the
    ``m + 1`` positions of group ``j`` (``A_j1 … A_jm, b_j``), i.e. the rows of the paper's ``D*``.
    """

    m: int
    n_quad: int  # m (m + 1) / 2
    n_coef: int  # n_quad + m
    rows: np.ndarray  # j of each quadratic coefficient (j <= k)
    cols: np.ndarray  # k of each quadratic coefficient
    pair: np.ndarray  # (m, m)
    groups: np.ndarray  # (m, m + 1)
    group_counts: np.ndarray  # diag(D*ᵀD*): 2 for off-diagonal A entries, 1 otherwise


def quadratic_design(m: int) -> QuadraticDesign:
    """Index bookkeeping for ``m`` features (see :class:`QuadraticDesign`)."""
    rows, cols = np.triu_indices(m)
    n_quad = rows.shape[0]
    pair = np.empty((m, m), dtype=np.int64)
    pair[rows, cols] = np.arange(n_quad)
    pair[cols, rows] = np.arange(n_quad)
    groups = np.concatenate([pair, (n_quad + np.arange(m))[:, None]], axis=1)
    counts = np.bincount(groups.ravel(), minlength=n_quad + m).astype(float)
    return QuadraticDesign(m, n_quad, n_quad + m, rows, cols, pair, groups, counts)


def _quadratic_features(X: np.ndarray, design: QuadraticDesign) -> np.ndarray:
    """Rows ``s(x)`` with ``f(x) = s(x)ᵀα* + β0``: ½x_j² on the diagonal, x_j x_k off it, then x."""
    quad = X[:, design.rows] * X[:, design.cols]
    quad[:, design.rows == design.cols] *= 0.5
    return np.concatenate([quad, X], axis=1)


def _kernel_free_gram(X: np.ndarray, design: QuadraticDesign) -> np.ndarray:
    """``G`` with ``α*ᵀGα* = Σ_i ‖A x_i + b‖²`` (paper eq. 8), built from ``XᵀX`` in O(m³)."""
    m, nq = design.m, design.n_quad
    n = X.shape[0]
    C = X.T @ X
    s = X.sum(axis=0)
    G = np.zeros((design.n_coef, design.n_coef))
    # Σ_i (A_j· x_i)² = A_j· C A_j·ᵀ  for every row j of A
    P = design.pair
    r = np.broadcast_to(P[:, :, None], (m, m, m)).ravel()
    c = np.broadcast_to(P[:, None, :], (m, m, m)).ravel()
    np.add.at(G, (r, c), np.broadcast_to(C[None, :, :], (m, m, m)).ravel())
    # cross terms 2 b_j A_j· s and n b_j²
    bj = np.broadcast_to((nq + np.arange(m))[:, None], (m, m)).ravel()
    np.add.at(G, (P.ravel(), bj), np.broadcast_to(s[None, :], (m, m)).ravel())
    np.add.at(G, (bj, P.ravel()), np.broadcast_to(s[None, :], (m, m)).ravel())
    G[nq + np.arange(m), nq + np.arange(m)] += n
    return G


def knn_laplacian(X: np.ndarray, n_neighbors: int = 5, sigma: float = 1.0) -> sparse.csr_matrix:
    """Unnormalised Laplacian ``R = D − W`` of the symmetrised K-nearest-neighbour graph.

    ``W_ij = exp(−‖x_i − x_j‖² / (2σ²))`` when ``j`` is among the ``K`` nearest neighbours of ``i``
    or ``i`` among those of ``j`` (0 otherwise).
    """
    n = X.shape[0]
    k = min(n_neighbors, n - 1)
    if k < 1:
        return sparse.csr_matrix((n, n))
    dist, ind = NearestNeighbors(n_neighbors=k + 1).fit(X).kneighbors(X)
    dist, ind = dist[:, 1:], ind[:, 1:]
    with np.errstate(under="ignore"):
        w = np.exp(-(dist**2) / (2.0 * sigma**2))
    W = sparse.csr_matrix((w.ravel(), (np.repeat(np.arange(n), k), ind.ravel())), shape=(n, n))
    W = W.maximum(W.T).tocsr()
    deg = np.asarray(W.sum(axis=1)).ravel()
    return (sparse.diags(deg) - W).tocsr()


def gkf_pual_objective(
    alpha: np.ndarray,
    beta0: float,
    S: np.ndarray,
    s: np.ndarray,
    G: np.ndarray,
    R,
    design: QuadraticDesign,
    *,
    C1: float,
    C2: float,
    lambda1: float,
    lambda2: float,
) -> float:
    """Value of the GKF-PUAL objective (paper eq. 11) at ``(α*, β0)``; ``s`` is 1/0 per row of S."""
    f = S @ alpha + beta0
    pos = s == 1
    group = np.linalg.norm(alpha[design.groups], axis=1).sum()
    return float(
        0.5 * lambda1 * group
        + 0.5 * lambda2 * alpha @ G @ alpha
        + f @ (R @ f)
        + C1 * np.maximum(0.0, 1.0 - f[pos]).sum()
        + C2 * ((1.0 + f[~pos]) ** 2).sum()
    )


# ----------------------------------------------------------------------------------------------
# the five-block ADMM
# ----------------------------------------------------------------------------------------------
def _admm(
    S: np.ndarray,
    n_pos: int,
    G: np.ndarray,
    R: sparse.csr_matrix,
    design: QuadraticDesign,
    *,
    C1: float,
    C2: float,
    lambda1: float,
    lambda2: float,
    mu: tuple[float, float, float, float],
    max_iter: int,
    tol: float,
    abs_tol: float,
    record_every: int,
    adapt: bool = False,
    max_refactor: int = 30,
):
    """Paper Algorithm 1.  Rows of ``S`` are the labeled positives first, then the unlabeled."""
    n, p = S.shape
    mu = list(mu)
    St = np.concatenate([S, np.ones((n, 1))], axis=1)  # [S, 1]: f = St @ z
    Sp, Su = St[:n_pos], St[n_pos:]
    groups = design.groups
    gflat = groups.ravel()
    counts = np.append(design.group_counts, 0.0)  # D0ᵀD0 (β0 is in no group)
    SpTSp, SuTSu = Sp.T @ Sp, Su.T @ Su
    StTSt = SpTSp + SuTSu
    eye_n = sparse.identity(n, format="csc")
    R2 = (2.0 * R).tocsc()

    def Dt(t):  # D0ᵀ t
        return np.append(np.bincount(gflat, weights=t, minlength=p), 0.0)

    def factor(mu):
        """The two constant systems (eq. 18 and eq. 25), factored once per penalty setting."""
        mu1, mu2, mu3, mu4 = mu
        K = mu1 * SpTSp + mu2 * SuTSu + mu4 * StTSt
        K[:p, :p] += lambda2 * G
        K[np.diag_indices(p + 1)] += mu3 * counts
        chol = scipy.linalg.cho_factor(K, lower=False, check_finite=False)
        lu = splu((R2 + mu4 * eye_n).tocsc())
        return chol, lu

    chol, lu = factor(mu)
    n_refactor = 0
    next_adapt = 10

    # initialisation (Algorithm 1): A = 0, β = 1, β0 = 1; slacks from the constraints; duals = 1
    z = np.zeros(p + 1)
    z[design.n_quad : p] = 1.0
    z[p] = 1.0
    f = St @ z
    h = 1.0 - f[:n_pos]
    a = 1.0 + f[n_pos:]
    t = z[gflat]
    b = f.copy()
    u_h = np.ones(n_pos)
    u_a = np.ones(n - n_pos)
    v = np.ones(t.shape[0])
    q = np.ones(n)

    sqrt_dual = np.sqrt(p + 1)
    history: list[dict] = []
    converged = False
    it = 0
    for it in range(1, max_iter + 1):
        mu1, mu2, mu3, mu4 = mu
        thr_h = C1 / mu1
        thr_t = lambda1 / (2.0 * mu3)
        # (α*, β0): eq. 18
        r = np.empty(n)
        r[:n_pos] = u_h + mu1 * (1.0 - h)
        r[n_pos:] = -u_a - mu2 * (1.0 - a)
        r += mu4 * b - q
        rhs = St.T @ r + Dt(mu3 * t - v)
        z = scipy.linalg.cho_solve(chol, rhs, check_finite=False)
        f = St @ z
        fp, fu = f[:n_pos], f[n_pos:]
        alpha = z[:p]
        # h: eq. 21 (threshold function S_c of eq. 20)
        d = 1.0 - fp + u_h / mu1
        h_new = np.where(d > thr_h, d - thr_h, np.where(d < 0.0, d, 0.0))
        # a: eq. 23
        a_new = (u_a + mu2 * (1.0 + fu)) / (2.0 * C2 + mu2)
        # b: eq. 25
        b_new = lu.solve(q + mu4 * f)
        # t: eq. 30 (Euclidean group soft-threshold)
        y = (alpha[gflat] + v / mu3).reshape(groups.shape)
        norms = np.linalg.norm(y, axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            shrink = np.where(norms > thr_t, 1.0 - thr_t / norms, 0.0)
        t_new = (y * shrink[:, None]).ravel()
        # duals: eq. 16
        Dalpha = alpha[gflat]
        r_h = 1.0 - fp - h_new
        r_a = 1.0 + fu - a_new
        r_t = Dalpha - t_new
        r_b = f - b_new
        u_h += mu1 * r_h
        u_a += mu2 * r_a
        v += mu3 * r_t
        q += mu4 * r_b
        # stopping rule (eq. 31, Boyd et al. §3.3.1), checked block by block
        dh, da, dt_, db = h_new - h, a_new - a, t_new - t, b_new - b
        h, a, t, b = h_new, a_new, t_new, b_new
        s_h = mu1 * np.linalg.norm(Sp.T @ dh)
        s_a = mu2 * np.linalg.norm(Su.T @ da)
        s_t = mu3 * np.linalg.norm(Dt(dt_))
        s_b = mu4 * np.linalg.norm(St.T @ db)
        e_dual = (
            sqrt_dual * abs_tol + tol * np.linalg.norm(Sp.T @ u_h),
            sqrt_dual * abs_tol + tol * np.linalg.norm(Su.T @ u_a),
            sqrt_dual * abs_tol + tol * np.linalg.norm(Dt(v)),
            sqrt_dual * abs_tol + tol * np.linalg.norm(St.T @ q),
        )
        nf, nfp, nfu = np.linalg.norm(f), np.linalg.norm(fp), np.linalg.norm(fu)
        e_pri = (
            np.sqrt(n_pos) * abs_tol + tol * max(nfp, np.linalg.norm(h), np.sqrt(n_pos)),
            np.sqrt(n - n_pos) * abs_tol + tol * max(nfu, np.linalg.norm(a), np.sqrt(n - n_pos)),
            np.sqrt(t.shape[0]) * abs_tol + tol * max(np.linalg.norm(Dalpha), np.linalg.norm(t)),
            np.sqrt(n) * abs_tol + tol * max(nf, np.linalg.norm(b)),
        )
        primal = (
            np.linalg.norm(r_h),
            np.linalg.norm(r_a),
            np.linalg.norm(r_t),
            np.linalg.norm(r_b),
        )
        dual = (s_h, s_a, s_t, s_b)
        done = all(pv <= pe for pv, pe in zip(primal, e_pri)) and all(
            dv <= de for dv, de in zip(dual, e_dual)
        )
        if record_every and (it % record_every == 0 or done or it == max_iter):
            history.append(
                {
                    "iteration": it,
                    "primal_residual": float(np.sqrt(sum(x * x for x in primal))),
                    "dual_residual": float(np.sqrt(sum(x * x for x in dual))),
                    "n_nonzero_groups": int((shrink > 0).sum()),
                }
            )
        if done:
            converged = True
            break
        # residual balancing (Boyd et al. §3.4.1; multiplicative step as in Wohlberg 2017),
        # optional: the penalties change the path, not the solution.  Each change refactors the
        # two constant systems, so it is only considered at iterations 10, 20, 40, 80, …
        if adapt and it == next_adapt and n_refactor < max_refactor:
            next_adapt *= 2
            changed = False
            for k in range(4):
                ratio = (primal[k] / e_pri[k]) / max(dual[k] / e_dual[k], 1e-300)
                if ratio > 10.0 or ratio < 0.1:
                    mu[k] *= float(np.clip(np.sqrt(ratio), 0.01, 100.0))
                    changed = True
            if changed:
                chol, lu = factor(mu)
                n_refactor += 1
    return z, t, it, converged, history


def _final_coefficients(z: np.ndarray, t: np.ndarray, design: QuadraticDesign):
    """``(α*, β0, support)``: α* from the (α*, β0) block, groups that are zero in ``t`` set to 0.

    At convergence ``t = D*α*``; a group whose ``t`` block is exactly zero is removed, i.e. every
    entry of ``A`` in its row/column and its ``b_j`` are set to zero (as the authors' code does when
    it maps the solution back through ``t``).
    """
    p = design.n_coef
    alpha = z[:p].copy()
    tg = t.reshape(design.groups.shape)
    support = np.any(tg != 0.0, axis=1)
    if not support.all():
        alpha[design.groups[~support].ravel()] = 0.0
    return alpha, float(z[p]), support


# ----------------------------------------------------------------------------------------------
# estimator
# ----------------------------------------------------------------------------------------------
class GKFPUALClassifier(ClassifierMixin, BaseEstimator):
    """Group kernel-free PU classifier with asymmetric loss (GKF-PUAL).

    A quadratic score ``f(x) = ½xᵀAx + bᵀx + β0`` fitted on positive-unlabeled data: hinge loss
    on the labeled positives, squared loss on the unlabeled rows (treated as negatives), the
    kernel-free regulariser ``Σ_i ‖A x_i + b‖²``, a K-nearest-neighbour manifold term ``fᵀRf`` and
    a group lasso whose group ``j`` holds every coefficient involving feature ``j``.  Features whose
    group is zero are removed from the model (``support_``).  ``lambda1=0`` gives KF-PUAL (no
    variable selection).

    Parameters
    ----------
    C1 : float, default=1.0
        Weight of the hinge loss on labeled positives (the paper fixes it to 1).
    C2 : float, default=0.1
        Weight of the squared loss on unlabeled rows.
    lambda1 : float, default=0.1
        Group-lasso weight (the objective holds ``lambda1 / 2 · Σ_j ‖α*_[j]‖₂``, paper eq. 11).
        ``0`` gives KF-PUAL.
    lambda2 : float, default=0.1
        Weight of the kernel-free regulariser (``lambda2 / 2 · Σ_i ‖A x_i + b‖²``).
    n_neighbors : int, default=5
        ``K`` of the nearest-neighbour graph of the manifold term.
    sigma : float, default=1.0
        Width of the Gaussian similarity ``exp(−‖x_i − x_j‖² / (2σ²))`` on graph edges.
    mu : float or tuple of 4 floats, default=0.01
        ADMM penalties ``(μ1, μ2, μ3, μ4)`` (paper: all 0.01).  They change the number of
        iterations, not the solution.
    adaptive_mu : bool, default=True
        Residual balancing (Boyd et al. 2011, §3.4.1) starting from ``mu``: at iterations 10, 20,
        40, 80, … a penalty whose (tolerance-scaled) primal and dual residuals are more than 10×
        apart is multiplied by the square root of their ratio (each change refactors the two
        constant systems).  Same optimum, 10–100× fewer iterations than
        the paper's fixed 0.01; ``False`` keeps the penalties fixed as in the paper.
    max_iter : int, default=20000
        Maximum number of ADMM iterations.
    tol : float, default=1e-4
        Relative tolerance ``ε_rel`` of the residual stopping rule.  The paper uses 1e-3, which
        stops about 0.1–0.5 % above the optimal objective; 1e-4 reaches ~1e-4 or better
        (``docs/gkf_pual.md``).
    abs_tol : float, default=1e-6
        Absolute tolerance ``ε_abs``.  The paper states 0.25, which with Boyd's ``√dim`` scaling
        stops far from the optimum; ``tol=1e-3, abs_tol=0.25`` reproduces the paper's rule.
    standardize : bool, default=True
        Standardise every feature with the training mean and standard deviation first (the paper
        standardises its data before fitting).
    memory_limit_mb : float, default=2048
        Refuse problems whose dense quadratic design needs more memory than this (the model has
        ``m(m+3)/2`` coefficients for ``m`` features; about ``m ≈ 140`` at the default).
    verbose : int, default=0
        Print the convergence summary when > 0.

    Attributes
    ----------
    A_ : ndarray of shape (n_features_in_, n_features_in_)
        Symmetric quadratic coefficients (in the standardised space when ``standardize``).
    b_ : ndarray of shape (n_features_in_,)
        Linear coefficients.
    intercept_ : float
        ``β0``.
    support_ : ndarray of bool
        Features whose group is non-zero.
    group_norms_ : ndarray
        ``‖α*_[j]‖₂`` per feature (0 for removed features).
    feature_importances_ : ndarray
        ``group_norms_`` divided by their sum (usable with ``SelectFromModel``).
    n_iter_ : int
        ADMM iterations run.
    converged_ : bool
        Whether the residual stopping rule was met before ``max_iter``.
    history_ : list of dict
        Primal/dual residual norms and number of non-zero groups every 10 iterations.
    objective_ : float
        Objective value (eq. 11) at the returned coefficients.
    classes_ : ndarray
        ``[0, 1]``: ``predict`` returns 1 for predicted positives, 0 otherwise.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.pu import GKFPUALClassifier
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=(120, 4))
    >>> y_true = (X[:, 0] ** 2 + X[:, 1] ** 2 > 1.5).astype(int)
    >>> s = y_true * (rng.uniform(size=120) < 0.5)
    >>> clf = GKFPUALClassifier(lambda1=1.0, C2=0.05).fit(X, s)
    >>> clf.A_.shape, bool(np.allclose(clf.A_, clf.A_.T)), clf.converged_
    ((4, 4), True, True)
    >>> clf.support_.tolist()
    [True, True, True, True]
    """

    _parameter_constraints: ClassVar[dict] = {
        "C1": [Interval(numbers.Real, 0, None, closed="neither")],
        "C2": [Interval(numbers.Real, 0, None, closed="neither")],
        "lambda1": [Interval(numbers.Real, 0, None, closed="left")],
        "lambda2": [Interval(numbers.Real, 0, None, closed="left")],
        "n_neighbors": [Interval(numbers.Integral, 1, None, closed="left")],
        "sigma": [Interval(numbers.Real, 0, None, closed="neither")],
        "mu": [Interval(numbers.Real, 0, None, closed="neither"), tuple, list],
        "adaptive_mu": ["boolean"],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "abs_tol": [Interval(numbers.Real, 0, None, closed="left")],
        "standardize": ["boolean"],
        "memory_limit_mb": [Interval(numbers.Real, 0, None, closed="neither")],
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        C1: float = 1.0,
        C2: float = 0.1,
        lambda1: float = 0.1,
        lambda2: float = 0.1,
        *,
        n_neighbors: int = 5,
        sigma: float = 1.0,
        mu=0.01,
        adaptive_mu: bool = True,
        max_iter: int = 20000,
        tol: float = 1e-4,
        abs_tol: float = 1e-6,
        standardize: bool = True,
        memory_limit_mb: float = 2048.0,
        verbose: int = 0,
    ):
        self.C1 = C1
        self.C2 = C2
        self.lambda1 = lambda1
        self.lambda2 = lambda2
        self.n_neighbors = n_neighbors
        self.sigma = sigma
        self.mu = mu
        self.adaptive_mu = adaptive_mu
        self.max_iter = max_iter
        self.tol = tol
        self.abs_tol = abs_tol
        self.standardize = standardize
        self.memory_limit_mb = memory_limit_mb
        self.verbose = verbose

    # -- helpers shared with the baselines ------------------------------------------------------
    def _mu_tuple(self) -> tuple[float, float, float, float]:
        if isinstance(self.mu, numbers.Real):
            return (float(self.mu),) * 4
        mu = tuple(float(x) for x in self.mu)
        if len(mu) != 4 or min(mu) <= 0:
            raise ValueError(f"mu must be a positive float or 4 positive floats; got {self.mu!r}")
        return mu  # type: ignore[return-value]

    def _check_memory(self, n: int, m: int) -> None:
        p = m * (m + 3) // 2 + 1
        need_mb = 8.0 * (3 * p * p + 2 * n * p) / 2**20
        if need_mb > self.memory_limit_mb:
            raise ValueError(
                f"too many features for the quadratic model: {m} features give {p - 1} "
                f"coefficients and need about {need_mb:.0f} MB (> memory_limit_mb="
                f"{self.memory_limit_mb:g}); select fewer features first or raise memory_limit_mb"
            )

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit on PU data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            1 for labeled positives; 0, -1 or False for unlabeled rows.

        Returns
        -------
        self
        """
        X, y = validate_X_y(self, X, y, ensure_min_samples=2)
        s = check_pu_target(self, y)
        X = np.asarray(X, dtype=float)
        n, m = X.shape
        self._check_memory(n, m)
        std = X.std(axis=0)
        constant = np.flatnonzero(std <= 1e-12 * np.maximum(1.0, np.abs(X).max(axis=0)))
        if constant.size:
            raise ValueError(
                f"X has constant columns {constant.tolist()[:10]}"
                f"{' ...' if constant.size > 10 else ''}: remove them first (e.g. "
                "sklearn.feature_selection.VarianceThreshold); they carry no information and make "
                "the quadratic design singular"
            )
        if self.standardize:
            self.mean_, self.scale_ = X.mean(axis=0), std
            Xs = (X - self.mean_) / self.scale_
        else:
            self.mean_, self.scale_ = np.zeros(m), np.ones(m)
            Xs = X
        order = np.concatenate([np.flatnonzero(s == 1), np.flatnonzero(s == 0)])
        Xo = Xs[order]
        n_pos = int(s.sum())
        design = quadratic_design(m)
        S = _quadratic_features(Xo, design)
        G = _kernel_free_gram(Xo, design)
        R = knn_laplacian(Xo, self.n_neighbors, self.sigma)
        z, t, n_iter, converged, history = _admm(
            S,
            n_pos,
            G,
            R,
            design,
            C1=self.C1,
            C2=self.C2,
            lambda1=self.lambda1,
            lambda2=self.lambda2,
            mu=self._mu_tuple(),
            max_iter=self.max_iter,
            tol=self.tol,
            abs_tol=self.abs_tol,
            record_every=10,
            adapt=self.adaptive_mu,
        )
        alpha, beta0, support = _final_coefficients(z, t, design)
        if self.lambda1 == 0:
            support = np.ones(m, dtype=bool)
        A = np.zeros((m, m))
        A[design.rows, design.cols] = alpha[: design.n_quad]
        A[design.cols, design.rows] = alpha[: design.n_quad]
        self.A_ = A
        self.b_ = alpha[design.n_quad :].copy()
        self.intercept_ = beta0
        self.support_ = support
        self.group_norms_ = np.linalg.norm(alpha[design.groups], axis=1)
        total = self.group_norms_.sum()
        self.feature_importances_ = self.group_norms_ / total if total > 0 else self.group_norms_
        self.n_iter_ = n_iter
        self.converged_ = converged
        self.history_ = history
        s_o = s[order]
        self.objective_ = gkf_pual_objective(
            alpha,
            beta0,
            S,
            s_o,
            G,
            R,
            design,
            C1=self.C1,
            C2=self.C2,
            lambda1=self.lambda1,
            lambda2=self.lambda2,
        )
        self.classes_ = np.array([0, 1])
        if self.verbose:
            print(
                f"GKF-PUAL: {n_iter} ADMM iterations, converged={converged}, "
                f"{int(support.sum())}/{m} features kept, objective {self.objective_:.6g}"
            )
        return self

    def decision_function(self, X) -> np.ndarray:
        """The quadratic score ``f(x)``; positive means predicted positive."""
        check_is_fitted(self)
        X = validate_X(self, X, reset=False)
        Xs = (np.asarray(X, dtype=float) - self.mean_) / self.scale_
        return 0.5 * np.einsum("ij,jk,ik->i", Xs, self.A_, Xs) + Xs @ self.b_ + self.intercept_

    def predict(self, X) -> np.ndarray:
        """1 where ``f(x) > 0`` (predicted positive), else 0."""
        return (self.decision_function(X) > 0).astype(int)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


class GKFPUALSelector(SelectorMixin, BaseEstimator):
    """Feature selection by GKF-PUAL's group lasso: keep the features whose group is non-zero.

    A thin wrapper that fits a :class:`GKFPUALClassifier` and exposes its ``support_``.

    Parameters
    ----------
    estimator : GKFPUALClassifier, optional
        The configured classifier (default: ``GKFPUALClassifier()``).  It is cloned.

    Attributes
    ----------
    estimator_ : GKFPUALClassifier
        The fitted classifier.
    support_ : ndarray of bool
        Selected features.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.pu import GKFPUALClassifier, GKFPUALSelector
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=(100, 4))
    >>> s = ((X[:, 0] ** 2 > 1) & (rng.uniform(size=100) < 0.6)).astype(int)
    >>> sel = GKFPUALSelector(GKFPUALClassifier(lambda1=5.0, C2=0.05)).fit(X, s)
    >>> sel.transform(X).shape[0]
    100
    """

    _parameter_constraints: ClassVar[dict] = {"estimator": [GKFPUALClassifier, None]}

    def __init__(self, estimator: GKFPUALClassifier | None = None):
        self.estimator = estimator

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y):
        """Fit the classifier on PU data ``(X, y)`` and keep its support."""
        from sklearn.base import clone

        est = GKFPUALClassifier() if self.estimator is None else clone(self.estimator)
        X, y = validate_X_y(self, X, y, ensure_min_samples=2)
        check_pu_target(self, y)
        self.estimator_ = est.fit(X, y)
        self.support_ = self.estimator_.support_.copy()
        return self

    def _get_support_mask(self):
        check_is_fitted(self)
        return self.support_
