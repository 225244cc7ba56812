"""A fast Gaussian-mixture EM for FSCPU's objective (thousands of fits per search).

The algorithm is scikit-learn's ``GaussianMixture`` (EM, ``tol=1e-3`` on the change of the mean
log-likelihood, ``max_iter=100``, ``reg_covar=1e-6``, k-means initialisation, hard labels from a
final E-step), written for speed.  Two implementations of the same EM iteration:

* **sparse** (chosen automatically when most entries are zero, as in Spambase's word
  frequencies): the log-density of component ``k`` is expanded as
  ``-x^T Lambda_k x / 2 + x^T Lambda_k mu_k + c_k``, so only the products ``x_a x_b`` of the
  nonzero entries of a row enter; they are formed once per fit.  One fused numba pass per EM
  iteration computes the E-step of a row (twelve components at a time in registers, the
  coefficients in planes of four components; log-sum-exp) and immediately accumulates the
  M-step statistics ``sum_i r_ik x_i x_i^T`` and ``sum_i r_ik x_i`` over the same products.
  The precisions come from a numba Cholesky and triangular inverse of the ``K`` covariances.
  On Spambase (29 columns, about 6 nonzeros per row) a row costs about 30 products per
  component instead of ``d^2 = 841``;
* **dense** (:class:`_DenseEM`; one numba pass per EM iteration over blocks of rows that stay
  in cache, BLAS called from numba, no GIL): the E-step of all ``K`` components is one matrix
  product ``[P_1 ... P_K]^T [x, 1]`` with the stacked Cholesky factors of the precisions, the
  M-step one product for all ``K`` second moments about the current means (or, where most
  responsibilities are negligible, one product per component over its rows that count).  By
  default (``precision="mixed"``) the E-step product runs in float32, and the M-step product
  too while the covariances are well conditioned; everything else (Cholesky factors,
  log-densities, log-likelihood sums, responsibilities, accumulation across blocks) in float64.

Both give the same parameters up to rounding (tested against each other and against
scikit-learn from the same start; the mixed-precision dense fits within 1e-6 of the float64 ones
in mean log-likelihood per row on the FSCPU benchmarks).  Also:

* the k-means initialisation (k-means++ with ``2 + floor(ln K)`` local trials, then Lloyd
  iterations as in scikit-learn's ``KMeans(n_init=1)``) runs in numba over the nonzeros of the
  rows, or with BLAS distances on dense rows (tested equal to scikit-learn's Lloyd from the same
  seeds);
* ``resp_init`` starts EM from given responsibilities or hard labels (a *warm start*);
* BLAS is limited to one thread inside a fit (small matrices: more threads only add overhead and
  oversubscribe a shared machine); parallelism comes from fitting candidates in parallel threads
  (the numba kernels release the GIL).

Options: ``covariance_type="diag"`` (a coarser model) and :func:`kmeans` clustering (the
fastest; FSCPU's ``clustering="kmeans"``).  Quality and speed against scikit-learn: see
``benchmarks/bench_fscpu.py`` (mean log-likelihood per mask, same masks, one run).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import nullcontext
from dataclasses import dataclass

import numpy as np

from weakfs._validation import transient_random_state
from weakfs.pu._fscpu._gmm_dense_kernels import (
    blas_gemm,
    dense_em_pass,
    estep_from_sq,
)
from weakfs.pu._fscpu._gmm_kernels import (
    csr_rows,
    dense_covariances,
    dense_terms,
    em_pass_terms,
    gaussian_terms,
    gaussian_terms_diag,
    m_step_terms,
    row_terms,
    row_terms_diag,
)
from weakfs.pu._fscpu._kmeans import _kmeans

__all__ = ["MixtureFit", "fit_gaussian_mixture"]

_EPS10 = 10 * np.finfo(np.float64).eps
_LOG_2PI = np.log(2 * np.pi)
_SINGULAR = "a mixture component has a singular covariance; increase reg_covar"
# beyond this magnitude, sums of squared entries overflow float64 (1e308)
_OVERFLOW_SCALE = 1e150
#: "auto" uses the sparse full-covariance EM when the nonzero pairs of the rows are at most this
#: share of all pairs (measured crossover, see ``docs/fscpu.md``).
SPARSE_PAIR_FRACTION = 0.3


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


def _m_step_diag(X, resp, reg_covar):
    n = X.shape[0]
    nk = resp.sum(0) + _EPS10
    means = (resp.T @ X) / nk[:, None]
    avg_x2 = (resp.T @ (X * X)) / nk[:, None]
    cov = avg_x2 - means * means + reg_covar
    np.maximum(cov, reg_covar, out=cov)
    return nk / n, means, cov


def _precision_diag(var):
    """Precisions and ``log det`` of their square roots for diagonal covariances ``var`` (K, d)."""
    prec = 1.0 / var
    return prec, 0.5 * np.log(prec).sum(1)


def _e_step_diag(X, weights, means, prec, log_det, resp_out):
    """Responsibilities (written into ``resp_out``) and per-row log-likelihoods."""
    log_norm = np.empty(X.shape[0])
    sq = (X * X) @ prec.T - 2.0 * (X @ (means * prec).T) + (means * means * prec).sum(1)
    estep_from_sq(sq, log_det, np.log(weights), X.shape[1], resp_out, log_norm)
    return log_norm, resp_out


def _run_dense_diag(X, resp, reg_covar, tol, max_iter):
    """Diagonal-covariance EM on dense rows (the pieces returned as :meth:`_SparseEM.run`)."""
    weights, means, cov = _m_step_diag(X, resp, reg_covar)
    resp = np.empty_like(resp)
    lower = -np.inf
    converged = False
    n_iter = 0
    for n_iter in range(1, max_iter + 1):  # noqa: B007  (n_iter is reported)
        prec, log_det = _precision_diag(cov)
        log_norm, resp = _e_step_diag(X, weights, means, prec, log_det, resp)
        new_lower = float(log_norm.mean())
        weights, means, cov = _m_step_diag(X, resp, reg_covar)
        change = new_lower - lower
        lower = new_lower
        if abs(change) < tol:
            converged = True
            break
    prec, log_det = _precision_diag(cov)
    log_norm, resp = _e_step_diag(X, weights, means, prec, log_det, resp)
    return resp, float(log_norm.mean()), n_iter, converged, weights, means, cov


#: "mixed" precision runs the M-step's product in float32 while no covariance has an
#: infinity-norm condition number above this (float32 moments then move a log-determinant by
#: about 2e-8 times it, measured; beyond, e.g. near-collinear columns, float64).
FLOAT32_MOMENTS_COND = 1e4
#: Values per block of the dense EM pass (rows x K d): a float32 block stays in a core's L2
#: cache between the two matrix products and the numba pass over it.
_BLOCK_VALUES = 1 << 17


class _EMLoop(ABC):
    """The EM iteration both passes share (scikit-learn's: stop when the mean log-likelihood
    changes by less than ``tol``); a subclass supplies the statistics of the initial
    responsibilities, the M-step, the parameters' log-density terms and one E-step pass."""

    n: int
    K: int

    @abstractmethod
    def _start(self, resp: np.ndarray) -> None:
        """Accumulate the M-step statistics of the initial responsibilities ``resp``."""

    @abstractmethod
    def _e_step(self, resp: np.ndarray, stats: bool) -> float:
        """Fill ``resp``; return the summed log-likelihood (and, with ``stats``, accumulate the
        M-step statistics in the same pass)."""

    @abstractmethod
    def m_step(self) -> tuple:
        """``(weights, means, covariances)`` from the accumulated statistics."""

    @abstractmethod
    def set_parameters(self, weights, means, cov) -> None:
        """Write the E-step terms of the given parameters."""

    def run(self, resp, tol, max_iter):
        """EM from initial responsibilities; returns
        ``(resp, log_lik, n_iter, converged, weights, means, cov)``."""
        self._start(np.ascontiguousarray(resp, dtype=np.float64))
        weights, means, cov = self.m_step()
        resp = np.empty((self.n, self.K))
        lower = -np.inf
        converged = False
        n_iter = 0
        for n_iter in range(1, max_iter + 1):  # noqa: B007  (n_iter is reported)
            self.set_parameters(weights, means, cov)
            new_lower = self._e_step(resp, stats=True) / self.n
            weights, means, cov = self.m_step()
            change = new_lower - lower
            lower = new_lower
            if abs(change) < tol:
                converged = True
                break
        self.set_parameters(weights, means, cov)
        log_lik = self._e_step(resp, stats=False) / self.n
        return resp, log_lik, n_iter, converged, weights, means, cov


class _DenseEM(_EMLoop):
    """Full-covariance EM on dense rows: one numba pass (BLAS inside, no GIL) per EM iteration.

    Per block of rows (:func:`dense_em_pass`): E-step ``Z^T = S^T [X_b, 1]^T`` with ``S`` the
    stacked ``[[U_1 ... U_K], [-U_1^T mu_1 ... -U_K^T mu_K]]`` (``U_k`` the Cholesky factor of
    the precision, :func:`dense_terms`: one product for all ``K`` components), then the
    log-densities and responsibilities; M-step statistics ``sum_i r_ik (x_i - c_k) [x_i, 1]``
    about the current means ``c_k`` (one product ``W^T [X_b, 1]`` for all components, or one per
    component over its rows with a responsibility above ``TINY_RESP``), accumulated in float64
    across blocks.

    Precision (``precision="mixed"``): the E-step product in float32 changes a mean
    log-likelihood by about 1e-7 (measured; ``z`` only enters through ``||z||^2`` and the errors
    of the rows average out).  The moments are the delicate part: their float32 rounding moves
    the small eigenvalues of an ill-conditioned covariance (RT-IoT2022's near-collinear
    columns: condition numbers 1e5-1e6, log-determinants off by 1e-3), so they run in float32
    only while every covariance has a condition number of at most ``FLOAT32_MOMENTS_COND``
    (log-determinants then within about 2e-8 times it), else in float64.  Centring them on
    ``c_k`` avoids the cancellation of ``E[xx'] - mu mu'`` for a component far from the origin.
    """

    def __init__(self, X: np.ndarray, n_components: int, reg_covar: float, precision: str):
        self.n, self.d = X.shape
        self.K = n_components
        self.reg_covar = reg_covar
        n, d, Kd = self.n, self.d, self.K * self.d
        dtype = np.float32 if precision == "mixed" else np.float64
        self.e_gemm = blas_gemm(dtype)
        self.X = X
        self.Xt = np.ascontiguousarray(X.T)
        self.X1t = np.ones((d + 1, n), dtype=dtype)  # [X, 1]^T for the E-step
        self.X1t[:d] = self.Xt
        rows = max(64, min(n, _BLOCK_VALUES // Kd))
        self.zbuf = np.empty(Kd * rows, dtype=dtype)
        # M-step operands ([X, 1], the W buffer, gemm) per dtype: float32 only in "mixed"
        self.m_parts = {}
        for m_dtype in {dtype, np.float64}:
            X1 = np.ones((n, d + 1), dtype=m_dtype)
            X1[:, :d] = X
            self.m_parts[m_dtype] = (blas_gemm(m_dtype), X1, np.empty(Kd * rows, dtype=m_dtype))
        self.m_dtype = np.float64  # until the covariances are known
        self.stack_t = np.empty((Kd, d + 1), dtype=dtype)
        self.acc = np.empty((Kd, d + 1))
        self.nk = np.empty(self.K)
        self.const = np.empty(self.K)
        self.cond = np.empty(self.K)
        self.centers = np.zeros((self.K, d))

    def set_parameters(self, weights, means, cov) -> None:
        """Precision factors, shifts and constants of the E-step; the means become the centers."""
        if not dense_terms(
            cov, means, weights, self.stack_t, self.const, self.cond, FLOAT32_MOMENTS_COND
        ):
            raise np.linalg.LinAlgError(_SINGULAR)
        self.centers[:] = means
        well_conditioned = self.cond.max() <= FLOAT32_MOMENTS_COND
        self.m_dtype = np.float32 if well_conditioned and np.float32 in self.m_parts else np.float64

    def run_pass(self, resp, estep: bool, stats: bool) -> float:
        """One pass over the rows (numba, no GIL); returns the sum of the log-likelihoods."""
        m_gemm, X1, wbuf = self.m_parts[self.m_dtype]
        return dense_em_pass(
            self.e_gemm,
            m_gemm,
            self.X1t,
            X1,
            self.Xt,
            self.stack_t,
            self.const,
            self.centers,
            estep,
            stats,
            resp,
            self.zbuf,
            wbuf,
            self.acc,
            self.nk,
        )

    def m_step(self):
        """Parameters from the statistics of the last pass (about the centers ``c_k``)."""
        K, d = self.K, self.d
        nk = self.nk + _EPS10
        s1 = self.acc[:, d].reshape(K, d)  # sum_i r_ik (x_i - c_k)
        shift = s1 / nk[:, None]  # mean minus center
        # sum_i r_ik (x_i - c_k)(x_i - c_k)^T = W^T X - s1_k c_k^T
        cov = np.empty((K, d, d))
        dense_covariances(self.acc, s1, self.centers, nk, shift, self.reg_covar, cov)
        return nk / self.n, self.centers + shift, cov

    def _start(self, resp):
        # centers for the statistics of resp_init: their means
        self.centers[:] = (resp.T @ self.X) / (resp.sum(0) + _EPS10)[:, None]
        self.run_pass(resp, estep=False, stats=True)

    def _e_step(self, resp, stats):
        return self.run_pass(resp, estep=True, stats=stats)


class _SparseEM(_EMLoop):
    """EM on the nonzeros of ``X`` (one fused numba pass per EM iteration).

    The log-density of component ``k`` is expanded as ``-x^T Lambda_k x / 2 + x^T Lambda_k mu_k
    + const_k``, so a row costs ``nnz_i (nnz_i + 1) / 2 + nnz_i`` products per component instead
    of ``d^2`` (full covariance; ``2 nnz_i`` instead of ``2 d`` for the diagonal model); the
    products are formed once per fit, and the M-step statistics ``sum_i r_ik x_i x_i^T`` (or its
    diagonal) and ``sum_i r_ik x_i`` are accumulated in the same pass over the same products.
    The same EM as the dense path, the same parameters up to rounding.
    """

    def __init__(self, X: np.ndarray, csr, n_components: int, reg_covar: float, diag: bool):
        self.n, self.d = X.shape
        self.K = n_components
        self.reg_covar = reg_covar
        self.diag = diag
        d, K = self.d, self.K
        self.n_pairs = d if diag else d * (d + 1) // 2
        self.terms = (row_terms_diag if diag else row_terms)(*csr, d)
        Kp = -(-K // 4) * 4  # the kernel works on 4 components at a time
        # coefficients in planes of 4 components (contiguous lanes for the register sums);
        # statistics one contiguous row of Kp per slot (a vectorisable update per term)
        self.table = np.zeros((Kp // 4, self.n_pairs + d, 4))
        self.stats = np.zeros((self.n_pairs + d, Kp))
        self.const = np.full(Kp, -1e300)  # padding components: zero responsibility
        self.nk = np.zeros(K)

    def _pass(self, mode, resp):
        return em_pass_terms(*self.terms, self.table, self.const, mode, resp, self.stats, self.nk)

    def m_step(self):
        """Parameters from the statistics of the last pass (``_m_step`` of the dense path)."""
        K, d = self.K, self.d
        weights, means = np.empty(K), np.empty((K, d))
        cov = np.empty((K, d, 1 if self.diag else d))
        m_step_terms(
            self.stats, self.nk, self.n, self.reg_covar, _EPS10, self.diag, weights, means, cov
        )
        return weights, means, cov[:, :, 0].copy() if self.diag else cov

    def set_parameters(self, weights, means, cov):
        """Write the log-density coefficients of the given parameters into the table."""
        if self.diag:
            gaussian_terms_diag(cov, means, weights, self.table, self.const)
        elif not gaussian_terms(cov, means, weights, self.table, self.const):
            raise np.linalg.LinAlgError(_SINGULAR)

    def _start(self, resp):
        self._pass(2, resp)  # statistics of resp_init

    def _e_step(self, resp, stats):
        return self._pass(1 if stats else 0, resp)


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
    algorithm: str = "auto",
    precision: str = "mixed",
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
    algorithm : {"auto", "dense", "sparse"}, default="auto"
        How the full-covariance EM iterates (the same EM, the same fit up to rounding):
        "dense" with matrix products over all entries, "sparse" with one fused pass over the
        nonzero pairs of every row (much faster on sparse data such as word frequencies);
        "auto" takes "sparse" when the nonzero pairs ``x_a x_b`` (``a <= b``; the nonzero
        entries for ``covariance_type="diag"``) are at most ``SPARSE_PAIR_FRACTION`` of all.
    precision : {"mixed", "float64"}, default="mixed"
        Arithmetic of the dense full-covariance EM.  "mixed": the E-step's matrix product
        (``U_k^T (x - mu_k)`` for all components) in float32, the M-step's (the second moments)
        in float32 while every covariance has a condition number (infinity norm) of at most
        ``FLOAT32_MOMENTS_COND`` and in float64 otherwise; everything else in float64 (Cholesky
        factors, log-densities, log-likelihood sums, responsibilities, the accumulation of the
        moments across row blocks); a fit whose float32 products make a covariance singular
        (nearly collinear columns of large magnitude) is redone in float64 from the same start.
        "float64": all in float64 (the reference; scikit-learn's fit to rounding).  The
        sparse kernel and the diagonal model always run in float64.

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

    X = np.ascontiguousarray(X, dtype=np.float64)
    n = X.shape[0]
    if covariance_type not in ("full", "diag"):
        raise ValueError(f"covariance_type must be 'full' or 'diag'; got {covariance_type!r}")
    largest = float(np.abs(X).max()) if X.size else 0.0
    if largest > _OVERFLOW_SCALE:
        raise ValueError(
            f"X has values up to {largest:.3g}: their squares overflow float64 in the EM's "
            "moments; standardise X"
        )
    if algorithm not in ("auto", "dense", "sparse"):
        raise ValueError(f"algorithm must be 'auto', 'dense' or 'sparse'; got {algorithm!r}")
    if precision not in ("mixed", "float64"):
        raise ValueError(f"precision must be 'mixed' or 'float64'; got {precision!r}")
    if n_components > n:
        raise ValueError(
            f"n_components={n_components} is larger than the number of rows ({n}); "
            "a mixture needs at least one row per component"
        )
    limiter = threadpool_limits(limits=1, user_api="blas") if limit_blas_threads else nullcontext()
    with limiter:
        csr, pairs = None, None
        if algorithm != "dense" or resp_init is None:
            *csr, pairs = csr_rows(X)
        if resp_init is None:
            # a candidate's mixture is seeded by an int: reseed, not build, the generator
            rng = transient_random_state(random_state)
            labels = _kmeans(X, csr, n_components, 300, 1e-4, rng)[0]
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
        em = None
        if algorithm != "dense":
            d = X.shape[1]
            diag = covariance_type == "diag"
            if diag:
                share = len(csr[2]) / (n * d)
            else:
                share = pairs / (n * d * (d + 1) / 2)
            if algorithm == "sparse" or share <= SPARSE_PAIR_FRACTION:
                em = _SparseEM(X, csr, n_components, reg_covar, diag)
        offset = 0.0
        if em is None:
            # A translation changes neither the fit nor its likelihood; centring keeps the raw
            # moments of the data (and their float32 copies) small.
            offset = X.mean(axis=0)
            X = X - offset
            if covariance_type == "full":
                em = _DenseEM(X, n_components, reg_covar, precision)
        if em is None:
            out = _run_dense_diag(X, resp, reg_covar, tol, max_iter)
        elif isinstance(em, _DenseEM) and precision == "mixed":
            try:
                out = em.run(resp.copy(), tol, max_iter)
            except np.linalg.LinAlgError:
                # float32 products lose nearly collinear columns of large magnitude (two
                # areas in the 1e5s, r = 0.9999) where float64 and scikit-learn still fit:
                # the same EM from the same start, in float64
                out = _DenseEM(X, n_components, reg_covar, "float64").run(resp, tol, max_iter)
        else:
            out = em.run(resp, tol, max_iter)
    resp, log_lik, n_iter, converged, weights, means, cov = out
    if not (np.isfinite(log_lik) and np.isfinite(resp).all()):
        raise FloatingPointError(
            f"the EM's log-likelihood is not finite ({log_lik}): the data overflow float64 "
            f"arithmetic (largest |x| = {np.abs(X).max():.3g}); standardise X"
        )
    return MixtureFit(
        labels=np.argmax(resp, axis=1),
        resp=resp,
        log_likelihood=float(log_lik),
        n_iter=n_iter,
        converged=converged,
        weights=weights,
        means=means + offset,
        covariances=cov,
    )
