"""The kernel PUAL family, baselines of GKF-PUAL: PUAL and GLLC (linear or RBF kernel).

**PUAL** (GKF-PUAL paper eq. 2): score ``f(x) = βᵀφ(x) + β0``, objective
``λ/2 ‖β‖² + C1 Σ_P [1 − f(x_i)]₊ + C2 Σ_U (1 + f(x_i))² + fᵀRf`` with ``R`` the
K-nearest-neighbour graph Laplacian of GKF-PUAL.  **GLLC** is the same with the squared loss
``C1 Σ_P (1 − f(x_i))²`` on the labeled positives (PUAL "replaces the squared loss of GLLC by the
hinge loss").  With ``kernel="rbf"``, ``φ`` is the RBF feature map, represented exactly on the
training rows by the empirical kernel map ``Z = U Λ^{1/2}`` of the kernel matrix ``K = UΛUᵀ``
(representer theorem: ``β = Σ_i c_i φ(x_i)``, ``‖β‖² = cᵀKc``).  Both problems are convex and
solved to optimality: GLLC by one linear solve, PUAL through the box-constrained dual QP of its
hinge term.

Reference: X. Wang, R. Zhu, J.-H. Xue, "GKF-PUAL: A group kernel-free approach to
positive-unlabeled learning with variable selection", Information Sciences 690 (2025) 121574,
which compares GKF-PUAL with these baselines (eq. 2 there is PUAL).
"""

from __future__ import annotations

import numbers
from typing import ClassVar

import numpy as np
import scipy.linalg
import scipy.optimize
from sklearn.base import _fit_context
from sklearn.metrics.pairwise import euclidean_distances
from sklearn.utils._param_validation import Interval, StrOptions

from weakfs._graph import knn_laplacian
from weakfs._labels import check_pu_target
from weakfs._threads import limit_threads
from weakfs._validation import validate_X_y
from weakfs.pu._base import _fit_predict_example, _StandardizedPUClassifier

__all__ = ["GLLCClassifier", "PUALClassifier"]


def _rbf(A: np.ndarray, B: np.ndarray, width: float) -> np.ndarray:
    d2 = euclidean_distances(A, B, squared=True)
    with np.errstate(under="ignore"):
        return np.exp(-d2 / (2.0 * width**2))


def _solve_pual_family(
    Z: np.ndarray,
    s: np.ndarray,
    R,
    *,
    C1: float,
    C2: float,
    lam: float,
    loss: str,
    tol: float = 1e-12,
    max_iter: int = 20000,
) -> tuple[np.ndarray, float, dict]:
    """Exact minimiser ``(w, β0)`` of the PUAL (hinge) or GLLC (squared) objective on features Z.

    Smooth part ``½θᵀHθ + gᵀθ`` with ``θ = (w, β0)``, ``E = [Z, 1]``:
    ``H = λ diag(I, 0) + 2 C2 E_Uᵀ E_U + 2 EᵀRE`` and ``g = 2 C2 E_Uᵀ1``.  GLLC adds the squared
    positive loss and solves ``Hθ = −g``; PUAL solves the dual of the hinge term
    ``min ½γᵀPγ − cᵀγ, 0 ≤ γ ≤ C1`` with ``P = E_P H⁻¹ E_Pᵀ``, ``c = 1 + E_P H⁻¹ g``, then
    ``θ = H⁻¹(E_Pᵀγ − g)``.
    """
    n, r = Z.shape
    E = np.concatenate([Z, np.ones((n, 1))], axis=1)
    pos = s == 1
    Ep, Eu = E[pos], E[~pos]
    H = 2.0 * C2 * (Eu.T @ Eu) + 2.0 * (E.T @ (R @ E))
    H[np.arange(r), np.arange(r)] += lam
    g = 2.0 * C2 * Eu.sum(axis=0)
    info: dict = {}
    if loss == "squared":
        H += 2.0 * C1 * (Ep.T @ Ep)
        g = g - 2.0 * C1 * Ep.sum(axis=0)
        theta = scipy.linalg.solve(H, -g, assume_a="pos")
        info["n_iter"] = 1
    else:
        chol = scipy.linalg.cho_factor(H)
        HiEp = scipy.linalg.cho_solve(chol, Ep.T)  # H⁻¹ E_Pᵀ
        P = Ep @ HiEp
        P = 0.5 * (P + P.T)
        c = 1.0 + HiEp.T @ g

        def fun(gam):
            Pg = P @ gam
            return 0.5 * gam @ Pg - c @ gam, Pg - c

        n_pos = Ep.shape[0]
        res = scipy.optimize.minimize(
            fun,
            np.full(n_pos, 0.5 * C1),
            jac=True,
            method="L-BFGS-B",
            bounds=[(0.0, C1)] * n_pos,
            options={"maxiter": max_iter, "ftol": tol, "gtol": tol * 1e2, "maxcor": 30},
        )
        gam = np.clip(res.x, 0.0, C1)
        theta = scipy.linalg.cho_solve(chol, Ep.T @ gam - g)
        info["n_iter"] = int(res.nit)
        info["dual"] = gam
    return theta[:r], float(theta[r]), info


class _PUALFamily(_StandardizedPUClassifier):
    _loss = "hinge"

    _parameter_constraints: ClassVar[dict] = {
        "C1": [Interval(numbers.Real, 0, None, closed="neither")],
        "C2": [Interval(numbers.Real, 0, None, closed="neither")],
        "lam": [Interval(numbers.Real, 0, None, closed="neither")],
        "kernel": [StrOptions({"rbf", "linear"})],
        "kernel_width": [Interval(numbers.Real, 0, None, closed="neither"), None],
        "n_neighbors": [Interval(numbers.Integral, 1, None, closed="left")],
        "sigma": [Interval(numbers.Real, 0, None, closed="neither")],
        "standardize": ["boolean"],
    }

    def __init__(
        self,
        C1: float = 1.0,
        C2: float = 0.1,
        lam: float = 0.1,
        *,
        kernel: str = "rbf",
        kernel_width: float | None = None,
        n_neighbors: int = 5,
        sigma: float = 1.0,
        standardize: bool = True,
    ):
        self.C1 = C1
        self.C2 = C2
        self.lam = lam
        self.kernel = kernel
        self.kernel_width = kernel_width
        self.n_neighbors = n_neighbors
        self.sigma = sigma
        self.standardize = standardize

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit on PU data (``y``: 1 labeled positive; 0, -1 or False unlabeled)."""
        X, y = validate_X_y(self, X, y, ensure_min_samples=2)
        s = check_pu_target(self, y)
        Xs = self._fit_scaling(np.asarray(X, dtype=float))
        n = Xs.shape[0]
        # small dense algebra (the kernel, the dual QP's n_P × n_P matrix in L-BFGS-B's loop):
        # threads from the problem's size, so that it does not oversubscribe a busy machine
        shapes = [(n, n) if self.kernel == "rbf" else Xs.shape, (int(s.sum()),) * 2]
        with limit_threads(*shapes):
            self._fit_solution(Xs, s)
        self.classes_ = np.array([0, 1])
        return self

    def _fit_solution(self, Xs: np.ndarray, s: np.ndarray) -> None:
        R = knn_laplacian(Xs, self.n_neighbors, self.sigma)
        if self.kernel == "rbf":
            self.kernel_width_ = self.sigma if self.kernel_width is None else self.kernel_width
            K = _rbf(Xs, Xs, self.kernel_width_)
            vals, vecs = np.linalg.eigh(K)
            keep = vals > 1e-10 * max(vals.max(), 1e-300)
            self._proj = vecs[:, keep] / np.sqrt(vals[keep])  # x -> k(x, X) U Λ^{-1/2}
            Z = K @ self._proj
            self.X_fit_ = Xs
        else:
            Z = Xs
        w, b0, info = _solve_pual_family(
            Z, s, R, C1=self.C1, C2=self.C2, lam=self.lam, loss=self._loss
        )
        self.coef_ = w
        self.intercept_ = b0
        self.n_iter_ = info["n_iter"]

    def _features(self, X) -> np.ndarray:
        Xs = self._scaled(X)
        if self.kernel == "rbf":
            return _rbf(Xs, self.X_fit_, self.kernel_width_) @ self._proj
        return Xs

    def decision_function(self, X) -> np.ndarray:
        """Score ``f(x)``; positive means predicted positive."""
        return self._features(X) @ self.coef_ + self.intercept_


def _family_doc(summary: str, name: str) -> str:
    """Docstring of a member of the family: its summary, the shared parameters, an example."""
    return (
        summary
        + """
    Parameters
    ----------
    C1 : float, default=1.0
        Weight of the loss on labeled positives (the paper fixes it to 1).
    C2 : float, default=0.1
        Weight of the squared loss on unlabeled rows (treated as negatives).
    lam : float, default=0.1
        Ridge weight ``λ/2 ‖β‖²`` (``‖β‖²_RKHS = cᵀKc`` with the RBF kernel).
    kernel : {"rbf", "linear"}, default="rbf"
        The paper applies the RBF kernel to both baselines; "linear" is eq. 2 itself.
    kernel_width : float, optional
        RBF width ``s`` of ``exp(−‖x − x'‖² / (2s²))``; default: ``sigma`` (one width tuned for both
        the kernel and the graph, as the paper tunes a single ``σ``).
    n_neighbors : int, default=5
        ``K`` of the nearest-neighbour graph of the manifold term ``fᵀRf``.
    sigma : float, default=1.0
        Width of the Gaussian edge weights of that graph.
    standardize : bool, default=True
        Standardise features with the training mean and standard deviation first.

    Attributes
    ----------
    coef_ : ndarray
        ``β`` (linear) or the weights on the empirical kernel map (RBF).
    intercept_ : float
        ``β0``.
    classes_ : ndarray
        ``[0, 1]``.
"""
        + _fit_predict_example(name, 80, 0.5, 0.6, "C2=0.05")
    )


class PUALClassifier(_PUALFamily):
    __doc__ = _family_doc(
        """PU classifier with asymmetric loss (PUAL, Zhang et al.; GKF-PUAL paper eq. 2).

    Hinge loss on the labeled positives, squared loss on the unlabeled rows, ridge and manifold
    regularisers; convex, solved to optimality through the dual of the hinge term (box QP).
""",
        "PUALClassifier",
    )
    _loss = "hinge"


class GLLCClassifier(_PUALFamily):
    __doc__ = _family_doc(
        """Global and local learning consistency PU classifier (GLLC, Ke et al.).

    PUAL with the squared loss ``C1 Σ_P (1 − f(x_i))²`` on labeled positives; one linear solve.
""",
        "GLLCClassifier",
    )
    _loss = "squared"
