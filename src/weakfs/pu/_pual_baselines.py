"""Baselines of the GKF-PUAL paper: PUAL, GLLC (linear or RBF kernel), uPU and nnPU.

* **PUAL** (paper eq. 2): score ``f(x) = βᵀφ(x) + β0``, objective
  ``λ/2 ‖β‖² + C1 Σ_P [1 − f(x_i)]₊ + C2 Σ_U (1 + f(x_i))² + fᵀRf`` with ``R`` the
  K-nearest-neighbour graph Laplacian of GKF-PUAL.  **GLLC** is the same with the squared loss
  ``C1 Σ_P (1 − f(x_i))²`` on the labeled positives (PUAL "replaces the squared loss of GLLC by
  the hinge loss").  With
  ``kernel="rbf"``, ``φ`` is the RBF feature map, represented exactly on the training rows by the
  empirical kernel map ``Z = U Λ^{1/2}`` of the kernel matrix ``K = UΛUᵀ`` (representer theorem:
  ``β = Σ_i c_i φ(x_i)``, ``‖β‖² = cᵀKc``).  Both problems are convex and solved to optimality:
  GLLC by one linear solve, PUAL through the box-constrained dual QP of its hinge term.
* **uPU / nnPU** (du Plessis et al. 2015; Kiryo et al. 2017): a small ReLU MLP trained with Adam on
  the unbiased (uPU) or non-negative (nnPU, β = 0, γ = 1) PU risk with the sigmoid loss, in numpy.
"""

from __future__ import annotations

import numbers
from itertools import pairwise
from typing import ClassVar

import numpy as np
import scipy.linalg
import scipy.optimize
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.metrics.pairwise import euclidean_distances
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from weakfs._validation import validate_X, validate_X_y
from weakfs.pu._gkf_pual._classifier import check_pu_target, knn_laplacian

__all__ = ["GLLCClassifier", "NNPUClassifier", "PUALClassifier", "UPUClassifier"]


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


class _PUALFamily(ClassifierMixin, BaseEstimator):
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
        X = np.asarray(X, dtype=float)
        if self.standardize:
            std = X.std(axis=0)
            self.mean_, self.scale_ = X.mean(axis=0), np.where(std > 0, std, 1.0)
        else:
            self.mean_, self.scale_ = np.zeros(X.shape[1]), np.ones(X.shape[1])
        Xs = (X - self.mean_) / self.scale_
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
        self.classes_ = np.array([0, 1])
        return self

    def _features(self, X) -> np.ndarray:
        check_is_fitted(self)
        X = validate_X(self, X, reset=False)
        Xs = (np.asarray(X, dtype=float) - self.mean_) / self.scale_
        if self.kernel == "rbf":
            return _rbf(Xs, self.X_fit_, self.kernel_width_) @ self._proj
        return Xs

    def decision_function(self, X) -> np.ndarray:
        """Score ``f(x)``; positive means predicted positive."""
        return self._features(X) @ self.coef_ + self.intercept_

    def predict(self, X) -> np.ndarray:
        """1 where ``f(x) > 0``, else 0."""
        return (self.decision_function(X) > 0).astype(int)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


_FAMILY_PARAMS = """
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


class PUALClassifier(_PUALFamily):
    __doc__ = (
        """PU classifier with asymmetric loss (PUAL, Zhang et al.; GKF-PUAL paper eq. 2).

    Hinge loss on the labeled positives, squared loss on the unlabeled rows, ridge and manifold
    regularisers; convex, solved to optimality through the dual of the hinge term (box QP).
"""
        + _FAMILY_PARAMS
        + """
    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.pu import PUALClassifier
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=(80, 3))
    >>> s = ((X[:, 0] > 0.5) & (rng.uniform(size=80) < 0.6)).astype(int)
    >>> PUALClassifier(C2=0.05).fit(X, s).predict(X).shape
    (80,)
"""
    )
    _loss = "hinge"


class GLLCClassifier(_PUALFamily):
    __doc__ = (
        """Global and local learning consistency PU classifier (GLLC, Ke et al.).

    PUAL with the squared loss ``C1 Σ_P (1 − f(x_i))²`` on labeled positives; one linear solve.
"""
        + _FAMILY_PARAMS
        + """
    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.pu import GLLCClassifier
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=(80, 3))
    >>> s = ((X[:, 0] > 0.5) & (rng.uniform(size=80) < 0.6)).astype(int)
    >>> GLLCClassifier(C2=0.05).fit(X, s).predict(X).shape
    (80,)
"""
    )
    _loss = "squared"


# ----------------------------------------------------------------------------------------------
# uPU / nnPU with a small MLP
# ----------------------------------------------------------------------------------------------
def _sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))


class _PURiskMLP(ClassifierMixin, BaseEstimator):
    _non_negative = True

    _parameter_constraints: ClassVar[dict] = {
        "prior": [Interval(numbers.Real, 0, 1, closed="neither")],
        "hidden_layer_sizes": [tuple, list],
        "learning_rate": [Interval(numbers.Real, 0, None, closed="neither")],
        "weight_decay": [Interval(numbers.Real, 0, None, closed="left")],
        "batch_size": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_epochs": [Interval(numbers.Integral, 1, None, closed="left")],
        "beta": [Interval(numbers.Real, 0, None, closed="left")],
        "gamma": [Interval(numbers.Real, 0, None, closed="left")],
        "standardize": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        prior: float = 0.5,
        *,
        hidden_layer_sizes=(100, 100),
        learning_rate: float = 1e-3,
        weight_decay: float = 5e-3,
        batch_size: int = 64,
        max_epochs: int = 100,
        beta: float = 0.0,
        gamma: float = 1.0,
        standardize: bool = True,
        random_state=None,
    ):
        self.prior = prior
        self.hidden_layer_sizes = hidden_layer_sizes
        self.learning_rate = learning_rate
        self.weight_decay = weight_decay
        self.batch_size = batch_size
        self.max_epochs = max_epochs
        self.beta = beta
        self.gamma = gamma
        self.standardize = standardize
        self.random_state = random_state

    def _forward(self, X, params):
        acts = [X]
        h = X
        n_layers = len(params) // 2
        for i in range(n_layers):
            h = h @ params[2 * i] + params[2 * i + 1]
            if i < n_layers - 1:
                h = np.maximum(h, 0.0)
            acts.append(h)
        return acts

    def _backward(self, acts, params, grad_out):
        grads = [None] * len(params)
        g = grad_out[:, None]
        n_layers = len(params) // 2
        for i in reversed(range(n_layers)):
            grads[2 * i] = acts[i].T @ g + self.weight_decay * params[2 * i]
            grads[2 * i + 1] = g.sum(axis=0)
            if i > 0:
                g = (g @ params[2 * i].T) * (acts[i] > 0)
        return grads

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit on PU data (``y``: 1 labeled positive; 0, -1 or False unlabeled)."""
        X, y = validate_X_y(self, X, y, ensure_min_samples=2)
        s = check_pu_target(self, y)
        X = np.asarray(X, dtype=float)
        if self.standardize:
            std = X.std(axis=0)
            self.mean_, self.scale_ = X.mean(axis=0), np.where(std > 0, std, 1.0)
        else:
            self.mean_, self.scale_ = np.zeros(X.shape[1]), np.ones(X.shape[1])
        Xs = (X - self.mean_) / self.scale_
        rng = check_random_state(self.random_state)
        sizes = [X.shape[1], *[int(h) for h in self.hidden_layer_sizes], 1]
        params = []
        for a, b in pairwise(sizes):
            params.append(rng.normal(scale=np.sqrt(2.0 / a), size=(a, b)))
            params.append(np.zeros(b))
        m1 = [np.zeros_like(p) for p in params]
        m2 = [np.zeros_like(p) for p in params]
        b1, b2, eps = 0.9, 0.999, 1e-8
        pi = self.prior
        n = Xs.shape[0]
        step = 0
        self.loss_curve_ = []
        for _ in range(self.max_epochs):
            perm = rng.permutation(n)
            for start in range(0, n, self.batch_size):
                idx = perm[start : start + self.batch_size]
                sb = s[idx] == 1
                n_p, n_u = int(sb.sum()), int((~sb).sum())
                if n_p == 0 or n_u == 0:
                    continue
                acts = self._forward(Xs[idx], params)
                f = acts[-1].ravel()
                # sigmoid loss ℓ(z) = σ(−z); dℓ(z)/dz = −σ(z)σ(−z)
                lp_pos = _sigmoid(-f)  # ℓ(f) on positives
                lp_neg = _sigmoid(f)  # ℓ(−f)
                dl = lp_pos * lp_neg
                r_pos = pi * lp_pos[sb].mean()
                r_neg = lp_neg[~sb].mean() - pi * lp_neg[sb].mean()
                grad = np.zeros_like(f)
                sign = 1.0
                if self._non_negative and r_neg < -self.beta:
                    # Kiryo et al. Algorithm 1: step on −γ·R⁻ only
                    sign = -self.gamma
                    grad[~sb] = sign * dl[~sb] / n_u
                    grad[sb] = sign * (-pi) * dl[sb] / n_p
                else:
                    grad[sb] = pi * (-dl[sb]) / n_p - pi * dl[sb] / n_p
                    grad[~sb] = dl[~sb] / n_u
                grads = self._backward(acts, params, grad)
                step += 1
                for k, gk in enumerate(grads):
                    m1[k] = b1 * m1[k] + (1 - b1) * gk
                    m2[k] = b2 * m2[k] + (1 - b2) * gk * gk
                    mh = m1[k] / (1 - b1**step)
                    vh = m2[k] / (1 - b2**step)
                    params[k] = params[k] - self.learning_rate * mh / (np.sqrt(vh) + eps)
                self.loss_curve_.append(float(r_pos + r_neg))
        self.params_ = params
        self.n_iter_ = step
        self.classes_ = np.array([0, 1])
        return self

    def decision_function(self, X) -> np.ndarray:
        """Network output ``g(x)``; positive means predicted positive."""
        check_is_fitted(self)
        X = validate_X(self, X, reset=False)
        Xs = (np.asarray(X, dtype=float) - self.mean_) / self.scale_
        return self._forward(Xs, self.params_)[-1].ravel()

    def predict_proba(self, X) -> np.ndarray:
        """``σ(g(x))`` as the positive-class score (the sigmoid loss's link)."""
        p = _sigmoid(self.decision_function(X))
        return np.column_stack([1.0 - p, p])

    def predict(self, X) -> np.ndarray:
        """1 where ``g(x) > 0``, else 0."""
        return (self.decision_function(X) > 0).astype(int)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


_MLP_DOC = """
    Parameters
    ----------
    prior : float in (0, 1), default=0.5
        Class prior ``π`` of the unlabeled data (must be given; the paper's experiments use the
        true share).
    hidden_layer_sizes : tuple of int, default=(100, 100)
        ReLU hidden layers (Kiryo et al. use a 6-layer 300-unit MLP with batch norm on MNIST; a
        smaller network suits the paper's few-hundred-row tables).
    learning_rate : float, default=1e-3
        Adam step size.
    weight_decay : float, default=5e-3
        L2 penalty on the weights (Kiryo et al.'s default 0.005).
    batch_size : int, default=64
    max_epochs : int, default=100
    beta, gamma : float, default=0, 1
        nnPU's ``β`` and ``γ`` (Kiryo et al. Algorithm 1); unused by uPU.
    standardize : bool, default=True
    random_state : int, RandomState or None
        Seeds the initialisation and the mini-batches.

    Attributes
    ----------
    params_ : list of ndarray
        Weights and biases.
    loss_curve_ : list of float
        PU risk of each mini-batch.
    classes_ : ndarray
        ``[0, 1]``.
"""


class NNPUClassifier(_PURiskMLP):
    __doc__ = (
        """Non-negative PU learning (nnPU, Kiryo et al. 2017) with a small MLP and the sigmoid loss.
"""
        + _MLP_DOC
        + """
    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.pu import NNPUClassifier
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=(100, 3))
    >>> s = ((X[:, 0] > 0) & (rng.uniform(size=100) < 0.5)).astype(int)
    >>> NNPUClassifier(prior=0.5, max_epochs=5, random_state=0).fit(X, s).predict(X).shape
    (100,)
"""
    )
    _non_negative = True


class UPUClassifier(_PURiskMLP):
    __doc__ = (
        """Unbiased PU learning (uPU, du Plessis et al. 2015) with a small MLP and the sigmoid loss.
"""
        + _MLP_DOC
        + """
    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.pu import UPUClassifier
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=(100, 3))
    >>> s = ((X[:, 0] > 0) & (rng.uniform(size=100) < 0.5)).astype(int)
    >>> UPUClassifier(prior=0.5, max_epochs=5, random_state=0).fit(X, s).predict(X).shape
    (100,)
"""
    )
    _non_negative = False
