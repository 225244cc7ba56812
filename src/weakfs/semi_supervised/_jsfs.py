"""JSFS: joint semi-supervised feature selection and classification by a Bayesian approach.

B. Jiang, X. Wu, K. Yu and H. Chen, "Joint Semi-Supervised Feature Selection and Classification
through Bayesian Approach", Proceedings of the AAAI Conference on Artificial Intelligence 33
(2019), 3983-3990.  One of the semi-supervised baselines of FSCPU (Uchikoshi & Akimoto, GECCO
2025), run there with 5 nearest neighbours, ``gamma = 1e-11`` and ``mu = 9.95e-3``.

The model (binary classes coded 0/1; ``sigma`` the logistic function):

* labeled rows: ``p(y_i | x_i, w) = sigma(x_i w)^y_i (1 - sigma(x_i w))^(1 - y_i)``;
* unlabeled rows carry a pseudo label ``yhat_j`` from label propagation (Zhou et al. 2004) and a
  weight ``lambda_j >= 0``: their log-likelihood ``mu * log p(yhat_j | lambda_j x_j w)``;
* feature weights ``w``: Gaussian prior of precision ``A + gamma X^T L X`` (``A = diag(alpha)``,
  one automatic-relevance precision per feature; ``L`` the Laplacian of the k-NN graph of all
  rows);
* sample weights: left-truncated Gaussian prior ``N+(lambda_j | 0, 1/c_j)``, its step at 0
  smoothed by ``sigma(beta lambda_j)`` so that the posterior is differentiable.

Each iteration finds the posterior mode in ``w`` then in ``lambda`` (Newton steps: the Laplace
approximation), re-estimates ``alpha`` and ``c`` (type-II maximum likelihood, EM fixed point)
and removes the features and unlabeled rows whose weight has vanished, so that the work shrinks
as the iterations go.  docs/baselines_fscpu_jsfs_esmcrfs.md says which parts of this come from
where and what was chosen.
"""

from __future__ import annotations

import numbers
from typing import ClassVar

import numpy as np
from scipy import linalg
from scipy.special import expit, log_expit
from sklearn.base import _fit_context
from sklearn.semi_supervised import LabelSpreading
from sklearn.utils._param_validation import Interval, StrOptions
from threadpoolctl import threadpool_limits

from weakfs._docstrings import fill_doc
from weakfs._graph import knn_mask
from weakfs._labels import check_semi_supervised_labels
from weakfs._progress import progress
from weakfs._selection import RankingSelector
from weakfs._threads import limit_threads
from weakfs._validation import (
    check_n_features_to_select,
    check_n_neighbors,
    n_features_to_select_constraint,
    validate_X_y,
)

__all__ = ["JSFSSelector", "graph_laplacian_gram"]

# starting point of every fit (the public re-implementation's values): all weights 0.5, weak
# priors (precision 1e-3) on every feature weight and sample weight
_W_INIT = 0.5
_LAMBDA_INIT = 0.5
_PRECISION_INIT = 1e-3
_NEWTON_STEPS = 50  # per mode search; warm starts need few
_HALVINGS = 40  # backtracking of a Newton step


def graph_laplacian_gram(X: np.ndarray, n_neighbors: int) -> np.ndarray:
    """``X^T L X`` with ``L = D - W`` the Laplacian of the symmetric 0/1 k-NN graph of the rows.

    ``W_ij = 1`` when ``j`` is among the ``n_neighbors`` nearest rows of ``i`` or ``i`` among
    those of ``j``.  ``f^T L f = sum over edges of (f_i - f_j)^2``, so the prior
    ``exp(-gamma/2 w^T X^T L X w)`` favours weights whose scores ``X w`` are smooth on the graph.
    """
    W = knn_mask(X, n_neighbors)
    deg = np.asarray(W.sum(axis=1)).ravel()
    G = (X * deg[:, None]).T @ X - X.T @ np.asarray(W @ X)
    return 0.5 * (G + G.T)  # exact symmetry for the Cholesky factorisations


def _binary_loglik(z: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``y log sigma(z) + (1 - y) log sigma(-z)``, elementwise and overflow-free."""
    return y * log_expit(z) + (1.0 - y) * log_expit(-z)


def w_log_posterior(w, XL, yL, XU, yU, lam, mu, P) -> float:
    """Log posterior in ``w`` (up to a constant) for fixed sample weights ``lam``.

    ``P`` is the prior precision ``diag(alpha) + gamma X^T L X`` of the active features.
    """
    value = _binary_loglik(XL @ w, yL).sum() - 0.5 * w @ P @ w
    if XU.shape[0]:
        value += mu * _binary_loglik(lam * (XU @ w), yU).sum()
    return float(value)


def w_gradient_precision(w, XL, yL, XU, yU, lam, mu, P):
    """Gradient of :func:`w_log_posterior` and minus its Hessian (the posterior precision)."""
    sL = expit(XL @ w)
    grad = XL.T @ (yL - sL) - P @ w
    prec = (XL * (sL * (1.0 - sL))[:, None]).T @ XL + P
    if XU.shape[0]:
        sU = expit(lam * (XU @ w))
        grad += mu * (XU.T @ (lam * (yU - sU)))
        prec += mu * (XU * (lam * lam * sU * (1.0 - sU))[:, None]).T @ XU
    return grad, prec


def maximise_w(w, XL, yL, XU, yU, lam, mu, P):
    """Newton's method with backtracking for the mode of :func:`w_log_posterior` (concave).

    Returns the mode and the Cholesky factor of the posterior precision there.
    """
    args = (XL, yL, XU, yU, lam, mu, P)
    value = w_log_posterior(w, *args)
    for _ in range(_NEWTON_STEPS):
        grad, prec = w_gradient_precision(w, *args)
        factor = linalg.cho_factor(prec, lower=True, check_finite=False)
        step = linalg.cho_solve(factor, grad, check_finite=False)
        t = 1.0
        for _ in range(_HALVINGS):
            candidate = w + t * step
            new = w_log_posterior(candidate, *args)
            if new >= value - 1e-12 * abs(value):
                break
            t *= 0.5
        else:
            break
        w, value = candidate, new
        if np.max(np.abs(t * step)) <= 1e-10 * (1.0 + np.max(np.abs(w))):
            break
    _, prec = w_gradient_precision(w, *args)
    return w, linalg.cho_factor(prec, lower=True, check_finite=False)


def lambda_log_posterior(lam, a, yU, c, mu, beta) -> np.ndarray:
    """Per unlabeled row: ``mu log p(yhat | sigma(lam a)) - c lam^2 / 2 + log sigma(beta lam)``.

    ``a = x w`` is the row's score; the last term is the smoothed step of the left truncation.
    """
    return mu * _binary_loglik(lam * a, yU) - 0.5 * c * lam * lam + log_expit(beta * lam)


def lambda_gradient_precision(lam, a, yU, c, mu, beta):
    """Derivative of :func:`lambda_log_posterior` and minus its second derivative."""
    s = expit(lam * a)
    t = expit(beta * lam)
    grad = mu * a * (yU - s) - c * lam + beta * (1.0 - t)
    prec = mu * a * a * s * (1.0 - s) + c + beta * beta * t * (1.0 - t)
    return grad, prec


def maximise_lambda(lam, a, yU, c, mu, beta):
    """Elementwise Newton's method for the sample weights (each objective is concave in its own
    ``lambda_j``; the rows do not interact given ``w``).  Returns the modes and the precisions."""
    lam = lam.copy()
    value = lambda_log_posterior(lam, a, yU, c, mu, beta)
    for _ in range(_NEWTON_STEPS):
        grad, prec = lambda_gradient_precision(lam, a, yU, c, mu, beta)
        step = grad / prec
        moving = np.abs(step) > 1e-10 * (1.0 + np.abs(lam))
        if not moving.any():
            break
        t = np.where(moving, 1.0, 0.0)
        for _ in range(_HALVINGS):
            new = lambda_log_posterior(lam + t * step, a, yU, c, mu, beta)
            worse = new < value - 1e-12 * np.abs(value)
            if not worse.any():
                break
            t = np.where(worse, 0.5 * t, t)
        else:
            t = np.where(worse, 0.0, t)
            new = lambda_log_posterior(lam + t * step, a, yU, c, mu, beta)
        lam += t * step
        value = new
    _, prec = lambda_gradient_precision(lam, a, yU, c, mu, beta)
    return lam, prec


def feature_precision_update(w, posterior_factor, alpha, B) -> np.ndarray:
    """EM fixed point of the feature precisions ``alpha`` under the prior of precision ``A + B``.

    ``alpha_i = 1 / (w_i^2 + Sigma_ii + [A^-1 - (A + B)^-1]_ii)`` with ``Sigma`` the Laplace
    posterior covariance; the last term, written ``[A^-1 B (A + B)^-1]_ii`` to avoid a
    cancellation, vanishes without the graph prior (``B = 0``: the relevance vector machine's
    update).
    """
    d = w.shape[0]
    sigma_diag = np.diag(linalg.cho_solve(posterior_factor, np.eye(d), check_finite=False))
    prior_cov = linalg.cho_solve(
        linalg.cho_factor(np.diag(alpha) + B, lower=True, check_finite=False),
        np.eye(d),
        check_finite=False,
    )
    graph_term = np.einsum("ik,ki->i", B, prior_cov) / alpha
    return 1.0 / (w * w + sigma_diag + np.maximum(graph_term, 0.0))


def _pseudo_labels(X, y01, n_neighbors: int) -> np.ndarray:
    """Labels of the unlabeled rows by label spreading (Zhou et al. 2004) on the k-NN graph."""
    spreading = LabelSpreading(kernel="knn", n_neighbors=n_neighbors, max_iter=1000)
    with limit_threads((X.shape[0], X.shape[0])):  # its neighbour search, as weakfs._graph's
        return spreading.fit(X, y01).transduction_.astype(np.float64)


@fill_doc
class JSFSSelector(RankingSelector):
    """Joint semi-supervised feature selection and classification (JSFS, Jiang et al. 2019).

    A Bayesian logistic classifier on the features, fit to the labeled rows and to the unlabeled
    rows with pseudo labels from label propagation; every feature weight has its own
    automatic-relevance prior (and the weights share a k-NN graph-Laplacian prior), every
    unlabeled row a self-adjusting weight with a left-truncated Gaussian prior.  The
    iterations drive the weights of irrelevant features and unreliable unlabeled rows to zero
    and drop them.  Features are ranked by how long they stayed in the model, then by the
    magnitude of their final weight; the first ``n_features_to_select`` are kept.

    The model is binary (Jiang et al.'s); with more classes one model is fit per class against
    the others and a feature counts by its best model (a weakfs extension).  The weights are
    compared across features, so give features comparable scales (FSCPU min-max scales them).

    Parameters
    ----------
    %(n_features_to_select)s
    n_neighbors : int, default=5
        Neighbours of the k-NN graph (its Laplacian prior and the label propagation).
    gamma : float, default=1e-11
        Weight of the graph-Laplacian prior ``gamma/2 w^T X^T L X w`` on the feature weights.
    mu : float, default=9.95e-3
        Weight of the unlabeled rows' log-likelihood against the labeled rows'.
    beta : float, default=5.0
        Steepness of the logistic step ``sigma(beta lambda)`` that smooths the truncation at
        zero of the sample weights' prior.
    max_iter : int, default=50
        Iterations (mode search, hyperparameter update, pruning).
    tol : float, default=1e-3
        Stop when no feature weight moved by more than ``tol`` in an iteration.
    prune_tol : float, default=1e-3
        A feature whose weight has ``|w| < prune_tol``, or an unlabeled row whose weight has
        ``lambda < prune_tol``, leaves the model.
    fit_intercept : bool, default=True
        Add an intercept to the classifier (weak fixed prior, never removed).  ``False`` is the
        public re-implementation's model, in which other features stand in for the missing
        intercept.
    %(allow_fully_labeled)s
    %(verbose)s

    Attributes
    ----------
    scores_ : ndarray of shape (n_features,)
        ``|w|`` of the features still in the model at the end, 0 for removed ones (with more than
        two classes the largest over the per-class models).
    ranking_ : ndarray of feature indices, best first
    support_ : ndarray of bool
    coef_ : ndarray of shape (n_features,) or (n_classes, n_features)
        Final posterior-mode feature weights (0 for removed features); one row per class with
        more than two classes.
    intercept_ : float or ndarray of shape (n_classes,)
        Final intercept (0.0 without ``fit_intercept``).
    alpha_ : ndarray of shape (n_features,) or (n_classes, n_features)
        Final relevance precisions (``inf`` for removed features).
    unlabeled_weights_ : ndarray of shape (n_unlabeled,) or (n_classes, n_unlabeled)
        Final sample weights ``lambda`` of the unlabeled rows, in row order (0 = eliminated).
    iteration_removed_ : ndarray of int, shape (n_features,)
        Iteration at which each feature was removed (``max_iter + 1`` if it never was; with more
        than two classes the latest over the per-class models).
    n_iter_ : int
        Iterations run (the most over the per-class models).
    classes_ : ndarray
        The classes; with two, the second is the model's ``y = 1``.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.semi_supervised._jsfs import JSFSSelector
    >>> rng = np.random.RandomState(0)
    >>> X = rng.uniform(size=(80, 4)); y = (X[:, 2] > 0.5).astype(int); y[30:] = -1
    >>> sel = JSFSSelector(n_features_to_select=1).fit(X, y)
    >>> sel.get_support().tolist()
    [False, False, True, False]
    >>> bool(sel.coef_[2] > 0)  # the class y = 1 grows with feature 2
    True
    """

    _parameter_constraints: ClassVar[dict] = {
        "n_features_to_select": n_features_to_select_constraint(),
        "n_neighbors": [Interval(numbers.Integral, 1, None, closed="left")],
        "gamma": [Interval(numbers.Real, 0, None, closed="left")],
        "mu": [Interval(numbers.Real, 0, None, closed="left")],
        "beta": [Interval(numbers.Real, 0, None, closed="neither")],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "prune_tol": [Interval(numbers.Real, 0, None, closed="left")],
        "fit_intercept": ["boolean"],
        "allow_fully_labeled": ["boolean"],
        "verbose": ["verbose", StrOptions({"auto"})],
    }

    def __init__(
        self,
        n_features_to_select=None,
        *,
        n_neighbors: int = 5,
        gamma: float = 1e-11,
        mu: float = 9.95e-3,
        beta: float = 5.0,
        max_iter: int = 50,
        tol: float = 1e-3,
        prune_tol: float = 1e-3,
        fit_intercept: bool = True,
        allow_fully_labeled: bool = False,
        verbose: bool | int | str = "auto",
    ):
        self.n_features_to_select = n_features_to_select
        self.n_neighbors = n_neighbors
        self.gamma = gamma
        self.mu = mu
        self.beta = beta
        self.max_iter = max_iter
        self.tol = tol
        self.prune_tol = prune_tol
        self.fit_intercept = fit_intercept
        self.allow_fully_labeled = allow_fully_labeled
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit the Bayesian model on labeled and unlabeled (``-1``) rows and rank the features."""
        X, y = validate_X_y(self, X, y, dtype=np.float64)
        X = np.ascontiguousarray(X)  # row-major: the Gram products below are ~30x slower on F-order
        labels = check_semi_supervised_labels(y, require_unlabeled=not self.allow_fully_labeled)
        n, d = X.shape
        k = check_n_features_to_select(self.n_features_to_select, d)
        check_n_neighbors(self.n_neighbors, n)
        lab = labels.labeled
        codes = labels.y_encoded
        XL, XU = X[lab], X[~lab]
        pseudo = _pseudo_labels(X, codes, self.n_neighbors)[~lab] if XU.shape[0] else codes[:0]
        B = self.gamma * graph_laplacian_gram(X, self.n_neighbors)
        n_classes = labels.classes.shape[0]
        # the paper's model is binary (class index 1 is y = 1); more classes: one model per class
        # against the others (a weakfs extension), a feature ranked by its best model
        targets = [1] if n_classes == 2 else range(n_classes)
        # n x d by d x d products with small d: one BLAS thread is as fast and does not fight
        # other work for the cores (as in FSCPUSelector)
        with threadpool_limits(limits=1, user_api="blas"):
            fits = [
                self._iterate(XL, (codes[lab] == t) * 1.0, XU, (pseudo == t) * 1.0, B)
                for t in targets
            ]
        w, b, alpha, lam, removed_at, last_abs, n_iter = (np.array(v) for v in zip(*fits))
        # longest-surviving features first; among those of one iteration the larger |w|
        ranking = np.lexsort((-last_abs.max(axis=0), -removed_at.max(axis=0)))
        self._keep_first(ranking, k, d, scores=np.abs(w).max(axis=0))
        binary = n_classes == 2
        self.coef_ = w[0] if binary else w
        self.intercept_ = (b[0, 0] if binary else b[:, 0]) if self.fit_intercept else 0.0
        self.alpha_ = alpha[0] if binary else alpha
        self.unlabeled_weights_ = lam[0] if binary else lam
        self.iteration_removed_ = removed_at.max(axis=0)
        self.n_iter_ = int(n_iter.max())
        self.classes_ = labels.classes
        return self

    def _iterate(self, XL, yL, XU, yU, B):
        """The fit's iterations; returns the final parameters and the removal record."""
        d = XL.shape[1]
        w = np.full(d, _W_INIT)
        alpha = np.full(d, _PRECISION_INIT)
        lam = np.full(XU.shape[0], _LAMBDA_INIT)
        c = np.full(XU.shape[0], _PRECISION_INIT)
        feat = np.ones(d, dtype=bool)
        kept = np.ones(XU.shape[0], dtype=bool)
        removed_at = np.zeros(d, dtype=np.intp)
        last_abs = np.zeros(d)
        # the intercept: one more weight on a column of ones, its prior fixed and weak, never
        # removed and outside the graph prior (a constant score is smooth on any graph)
        n_b = int(self.fit_intercept)
        b = np.zeros(n_b)
        ones_L, ones_U = np.ones((XL.shape[0], n_b)), np.ones((XU.shape[0], n_b))
        n_iter = 0
        for it in progress(range(1, self.max_iter + 1), enabled=self.verbose, desc="JSFS"):
            n_iter = it
            w_old = w.copy()
            F = np.flatnonzero(feat)
            nF = F.shape[0]
            BF = np.zeros((nF + n_b, nF + n_b))
            BF[:nF, :nF] = B[np.ix_(F, F)]
            alpha_F = np.r_[alpha[F], np.full(n_b, _PRECISION_INIT)]
            P = BF + np.diag(alpha_F)
            XLa = np.ascontiguousarray(np.hstack([XL[:, F], ones_L]))
            XUa = np.ascontiguousarray(np.hstack([XU[np.ix_(kept, F)], ones_U[kept]]))
            v, factor = maximise_w(np.r_[w[F], b], XLa, yL, XUa, yU[kept], lam[kept], self.mu, P)
            w[F], b = v[:nF], v[nF:]
            if XUa.shape[0]:
                lam[kept], prec = maximise_lambda(
                    lam[kept], XUa @ v, yU[kept], c[kept], self.mu, self.beta
                )
                c[kept] = 1.0 / (lam[kept] ** 2 + 1.0 / prec)
            alpha[F] = feature_precision_update(v, factor, alpha_F, BF)[:nF]
            last_abs[F] = np.abs(w[F])
            # drop what has vanished: the "amount of data to be computed decreases"
            gone = F[np.abs(w[F]) < self.prune_tol]
            feat[gone], w[gone], alpha[gone], removed_at[gone] = False, 0.0, np.inf, it
            drop = np.flatnonzero(kept)[lam[kept] < self.prune_tol]
            kept[drop], lam[drop] = False, 0.0
            if not feat.any() or np.max(np.abs(w - w_old)) < self.tol:
                break
        removed_at[feat] = self.max_iter + 1  # one value for every per-class model
        return w, b, alpha, lam, removed_at, last_abs, n_iter
