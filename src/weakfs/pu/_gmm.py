"""A fast Gaussian-mixture EM for FSCPU's objective (thousands of fits per search).

The algorithm is scikit-learn's ``GaussianMixture`` (EM, ``tol=1e-3`` on the change of the mean
log-likelihood, ``max_iter=100``, ``reg_covar=1e-6``, k-means initialisation, hard labels from a
final E-step), written for speed:

* the E-step of all ``K`` full-covariance components is one matrix product
  ``X @ [P_1 ... P_K]`` with the stacked Cholesky factors of the precisions (batched
  ``numpy.linalg.cholesky`` / ``inv`` on a ``(K, d, d)`` stack), instead of ``K`` triangular solves;
* the k-means initialisation (k-means++ with ``2 + floor(ln K)`` local trials, then Lloyd
  iterations as in scikit-learn's ``KMeans(n_init=1)``) is a few matrix products per iteration;
* ``resp_init`` starts EM from given responsibilities or hard labels (a *warm start*): FSCPU
  starts each fit from the clustering of the previous search step, whose masks differ by a few
  features, so EM converges in a few iterations;
* BLAS is limited to one thread inside a fit (small matrices: more threads only add overhead and
  oversubscribe a shared machine); parallelism comes from fitting candidates in parallel threads.

Options: ``covariance_type="diag"`` (faster, a coarser model) and :func:`kmeans` clustering (the
fastest; FSCPU's ``clustering="kmeans"``).  Quality against scikit-learn: see
``benchmarks/bench_fscpu.py`` (mean log-likelihood per mask, same masks, one run).
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass

import numpy as np
from sklearn.utils import check_random_state

from weakfs.pu._gmm_kernels import estep_from_sq, estep_full, weighted_rows

__all__ = ["MixtureFit", "fit_gaussian_mixture", "kmeans"]

_EPS10 = 10 * np.finfo(np.float64).eps
_LOG_2PI = np.log(2 * np.pi)


@dataclass
class MixtureFit:
    """Result of :func:`fit_gaussian_mixture`.

    ``labels`` are the hard assignments (argmax of the final E-step, as ``fit(X).predict(X)``);
    ``resp`` the final responsibilities; ``log_likelihood`` the mean log-likelihood per row of the
    final parameters (scikit-learn's ``score(X)``); ``n_iter`` EM iterations run.
    """

    labels: np.ndarray
    resp: np.ndarray
    log_likelihood: float
    n_iter: int
    converged: bool
    weights: np.ndarray
    means: np.ndarray
    covariances: np.ndarray


def _squared_distances(X: np.ndarray, centers: np.ndarray, x_sq: np.ndarray) -> np.ndarray:
    d = x_sq[:, None] - 2.0 * (X @ centers.T) + (centers * centers).sum(1)[None, :]
    np.maximum(d, 0.0, out=d)
    return d


def _kmeans_plusplus(X: np.ndarray, k: int, x_sq: np.ndarray, rng) -> np.ndarray:
    """Greedy k-means++ seeding (scikit-learn's: ``2 + floor(ln k)`` local trials per center)."""
    n = X.shape[0]
    n_trials = 2 + int(np.log(k))
    centers = np.empty((k, X.shape[1]))
    first = rng.randint(n)
    centers[0] = X[first]
    closest = _squared_distances(X, centers[:1], x_sq)[:, 0]
    pot = closest.sum()
    for c in range(1, k):
        if pot <= 0:  # fewer distinct rows than clusters: duplicate rows
            candidates = rng.randint(n, size=n_trials)
        else:
            rand_vals = rng.random_sample(n_trials) * pot
            candidates = np.searchsorted(np.cumsum(closest), rand_vals)
            np.clip(candidates, None, n - 1, out=candidates)
        dist = _squared_distances(X, X[candidates], x_sq)  # (n, trials)
        np.minimum(closest[:, None], dist, out=dist)
        pots = dist.sum(0)
        best = int(np.argmin(pots))
        pot = pots[best]
        closest = dist[:, best]
        centers[c] = X[candidates[best]]
    return centers


def kmeans(
    X: np.ndarray, n_clusters: int, *, max_iter: int = 300, tol: float = 1e-4, random_state=None
) -> tuple[np.ndarray, np.ndarray, float]:
    """Lloyd's k-means from k-means++ seeds (scikit-learn's ``KMeans(n_init=1)`` algorithm).

    Stops when the labels no longer change or the total squared center shift is at most
    ``tol * mean(var(X, axis=0))``.  Returns ``(labels, centers, inertia)``.
    """
    X = np.asarray(X, dtype=np.float64)
    rng = check_random_state(random_state)
    x_sq = (X * X).sum(1)
    tol_abs = tol * float(np.mean(np.var(X, axis=0)))
    centers = _kmeans_plusplus(X, n_clusters, x_sq, rng)
    labels = np.full(X.shape[0], -1, dtype=np.intp)
    for _ in range(max_iter):
        dist = _squared_distances(X, centers, x_sq)
        new_labels = np.argmin(dist, axis=1)
        counts = np.bincount(new_labels, minlength=n_clusters)
        sums = _row_sums(new_labels, X, n_clusters)
        new_centers = centers.copy()
        nonempty = counts > 0
        new_centers[nonempty] = sums[nonempty] / counts[nonempty, None]
        if not nonempty.all():  # relocate empty clusters to the farthest rows, as scikit-learn
            far = np.argsort(-dist[np.arange(X.shape[0]), new_labels])[: (~nonempty).sum()]
            new_centers[~nonempty] = X[far]
        shift = float(((new_centers - centers) ** 2).sum())
        centers = new_centers
        if np.array_equal(new_labels, labels):
            break
        labels = new_labels
        if shift <= tol_abs:
            break
    dist = _squared_distances(X, centers, x_sq)
    labels = np.argmin(dist, axis=1)
    inertia = float(dist[np.arange(X.shape[0]), labels].sum())
    return labels, centers, inertia


def _row_sums(labels: np.ndarray, X: np.ndarray, k: int) -> np.ndarray:
    onehot = np.zeros((X.shape[0], k))
    onehot[np.arange(X.shape[0]), labels] = 1.0
    return onehot.T @ X


def _m_step(X, resp, reg_covar, covariance_type, work=None):
    n, d = X.shape
    K = resp.shape[1]
    nk = resp.sum(0) + _EPS10
    means = (resp.T @ X) / nk[:, None]
    if covariance_type == "full":
        # all K second moments in one product: [r_1 X, ..., r_K X]^T X, then centre
        weighted = np.empty((n, K * d)) if work is None else work
        weighted_rows(X, resp, weighted)
        cov = (weighted.T @ X).reshape(K, d, d) / nk[:, None, None]
        cov -= means[:, :, None] * means[:, None, :]
        cov = 0.5 * (cov + cov.transpose(0, 2, 1))
        cov[:, np.arange(d), np.arange(d)] += reg_covar
    else:  # diag
        avg_x2 = (resp.T @ (X * X)) / nk[:, None]
        cov = avg_x2 - means * means + reg_covar
        np.maximum(cov, reg_covar, out=cov)
    return nk / n, means, cov


def _precision_cholesky(cov, covariance_type):
    if covariance_type == "full":
        try:
            chol = np.linalg.cholesky(cov)
        except np.linalg.LinAlgError as exc:
            raise np.linalg.LinAlgError(
                "a mixture component has a singular covariance; increase reg_covar"
            ) from exc
        d = cov.shape[1]
        prec_chol = np.linalg.inv(chol).transpose(0, 2, 1)  # upper triangular, P P^T = Sigma^-1
        log_det = np.log(prec_chol[:, np.arange(d), np.arange(d)]).sum(1)
        return prec_chol, log_det
    prec = 1.0 / cov
    return prec, 0.5 * np.log(prec).sum(1)


def _e_step(X, weights, means, prec, log_det, covariance_type, resp_out=None):
    """Responsibilities (written into ``resp_out``) and per-row log-likelihoods."""
    n, d = X.shape
    K = means.shape[0]
    resp = np.empty((n, K)) if resp_out is None else resp_out
    log_norm = np.empty(n)
    if covariance_type == "full":
        stacked = np.ascontiguousarray(prec.transpose(1, 0, 2).reshape(d, K * d))
        shift = np.einsum("kd,kde->ke", means, prec).reshape(K * d)
        estep_full(X @ stacked, shift, log_det, np.log(weights), d, resp, log_norm)
    else:
        sq = (X * X) @ prec.T - 2.0 * (X @ (means * prec).T) + (means * means * prec).sum(1)
        estep_from_sq(sq, log_det, np.log(weights), d, resp, log_norm)
    return log_norm, resp


def fit_gaussian_mixture(
    X,
    n_components: int = 10,
    *,
    covariance_type: str = "full",
    tol: float = 1e-3,
    max_iter: int = 100,
    reg_covar: float = 1e-6,
    resp_init=None,
    random_state=None,
    limit_blas_threads: bool = True,
) -> MixtureFit:
    """Fit a Gaussian mixture by EM (scikit-learn's algorithm and defaults, faster).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    n_components : int, default=10
    covariance_type : {"full", "diag"}, default="full"
    tol : float, default=1e-3
        Stop when the mean log-likelihood changes by less than this.
    max_iter : int, default=100
    reg_covar : float, default=1e-6
        Added to the covariance diagonals.
    resp_init : ndarray of shape (n_samples, n_components) or (n_samples,), optional
        Initial responsibilities, or hard labels ``0..n_components-1`` (a warm start).  Default:
        hard labels of k-means (k-means++ seeds, as scikit-learn's ``init_params="kmeans"``).
    random_state : int, RandomState or None
        Seeds the k-means initialisation.
    limit_blas_threads : bool, default=True
        Run with one BLAS thread (``threadpoolctl``; entering the limit costs milliseconds, so a
        caller fitting many mixtures sets the limit once around all of them and passes False).

    Returns
    -------
    MixtureFit

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.RandomState(0)
    >>> X = np.vstack([rng.normal(0, 1, (50, 2)), rng.normal(8, 1, (50, 2))])
    >>> fit = fit_gaussian_mixture(X, 2, random_state=0)
    >>> sorted(np.bincount(fit.labels).tolist())
    [50, 50]
    """
    from threadpoolctl import threadpool_limits

    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    if covariance_type not in ("full", "diag"):
        raise ValueError(f"covariance_type must be 'full' or 'diag'; got {covariance_type!r}")
    if n_components > n:
        raise ValueError(
            f"n_components={n_components} is larger than the number of rows ({n}); "
            "a mixture needs at least one row per component"
        )
    limiter = threadpool_limits(limits=1, user_api="blas") if limit_blas_threads else nullcontext()
    with limiter:
        if resp_init is None:
            labels, _, _ = kmeans(X, n_components, random_state=random_state)
            resp = np.zeros((n, n_components))
            resp[np.arange(n), labels] = 1.0
        else:
            resp_init = np.asarray(resp_init)
            if resp_init.ndim == 1:
                resp = np.zeros((n, n_components))
                resp[np.arange(n), resp_init.astype(np.intp)] = 1.0
            else:
                resp = np.asarray(resp_init, dtype=np.float64)
            if resp.shape != (n, n_components):
                raise ValueError(
                    f"resp_init has shape {resp.shape}; expected ({n}, {n_components})"
                )
        work = np.empty((n, n_components * X.shape[1])) if covariance_type == "full" else None
        weights, means, cov = _m_step(X, resp, reg_covar, covariance_type, work)
        resp = np.empty((n, n_components))
        lower = -np.inf
        converged = False
        n_iter = 0
        for n_iter in range(1, max_iter + 1):  # noqa: B007  (n_iter is reported)
            prec, log_det = _precision_cholesky(cov, covariance_type)
            log_norm, resp = _e_step(X, weights, means, prec, log_det, covariance_type, resp)
            new_lower = float(log_norm.mean())
            weights, means, cov = _m_step(X, resp, reg_covar, covariance_type, work)
            change = new_lower - lower
            lower = new_lower
            if abs(change) < tol:
                converged = True
                break
        prec, log_det = _precision_cholesky(cov, covariance_type)
        log_norm, resp = _e_step(X, weights, means, prec, log_det, covariance_type, resp)
    return MixtureFit(
        labels=np.argmax(resp, axis=1),
        resp=resp,
        log_likelihood=float(log_norm.mean()),
        n_iter=n_iter,
        converged=converged,
        weights=weights,
        means=means,
        covariances=cov,
    )
