"""GKF-PUAL along a path of group-lasso weights λ1, from the smallest λ1 that removes every group
down to a small fraction of it: :func:`gkf_pual_path` and its result :class:`GKFPUALPath`, solved
by the warm-started solver of ``_path_solver``.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from weakfs._docstrings import fill_doc
from weakfs.pu._gkf_pual._classifier import GKFPUALClassifier
from weakfs.pu._gkf_pual._path_solver import _path_solver, _PathSolver

__all__ = ["GKFPUALPath", "gkf_pual_path"]


# ----------------------------------------------------------------------------------------------
# the public path
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GKFPUALPath:
    """GKF-PUAL solutions along a decreasing sequence of group-lasso weights λ1.

    Returned by :func:`gkf_pual_path`; row ``i`` of every array belongs to ``lambdas[i]``.
    Coefficients are in the standardised space when the path standardised ``X``
    (``mean``/``scale``).

    Attributes
    ----------
    lambdas : ndarray of shape (n_lambdas,)
        The λ1 values, decreasing.
    lambda1_max : float
        The smallest λ1 at which every group is zero.
    lambda1_max_exact : bool
        True when ``lambda1_max`` is the closed form of the KKT conditions; False when it was
        bracketed by bisection to a relative width of 1e-2 (labeled positives at the hinge's
        kink; see :func:`gkf_pual_path`).
    support : ndarray of bool, shape (n_lambdas, n_features)
        Features whose group is non-zero.
    group_norms : ndarray of shape (n_lambdas, n_features)
        ``‖α*_[j]‖₂`` per feature.
    coefs : ndarray of shape (n_lambdas, n_features * (n_features + 3) // 2)
        ``α*``: the upper triangle of ``A`` row by row, then ``b``.
    intercepts : ndarray of shape (n_lambdas,)
        ``β0``.
    objectives : ndarray of shape (n_lambdas,)
        Objective value (paper eq. 11) at each solution.
    n_iter : ndarray of int, shape (n_lambdas,)
        ADMM iterations per λ1 (0 where the all-zero solution is certified).
    converged : ndarray of bool, shape (n_lambdas,)
    feature_names : ndarray of str, shape (n_features,)
        Column names of ``X`` (``x0``, ``x1``, … for arrays).
    mean, scale : ndarray of shape (n_features,)
        The standardisation applied before fitting (0 and 1 without ``standardize``).
    seconds : float
        Wall time of the path.
    n_factorizations : int
        How often the ADMM's linear systems were factored.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.pu import gkf_pual_path
    >>> rng = np.random.RandomState(1)
    >>> X = rng.normal(size=(150, 4))
    >>> s = ((X[:, 0] ** 2 > 1) & (rng.uniform(size=150) < 0.6)).astype(int)
    >>> path = gkf_pual_path(X, s, n_lambdas=6, C2=0.3, lambda2=0.01, sigma=1e-3)
    >>> path.n_nonzero.tolist()[0], path.group_norms.shape
    (0, (6, 4))
    >>> A, b, beta0 = path.quadratic(-1)  # the least regularised solution
    >>> bool(np.allclose(A, A.T))
    True
    """

    lambdas: np.ndarray
    lambda1_max: float
    lambda1_max_exact: bool
    support: np.ndarray
    group_norms: np.ndarray
    coefs: np.ndarray
    intercepts: np.ndarray
    objectives: np.ndarray
    n_iter: np.ndarray
    converged: np.ndarray
    feature_names: np.ndarray
    mean: np.ndarray
    scale: np.ndarray
    seconds: float
    n_factorizations: int

    @property
    def n_nonzero(self) -> np.ndarray:
        """Number of non-zero groups per λ1."""
        return self.support.sum(axis=1)

    def quadratic(self, i: int) -> tuple[np.ndarray, np.ndarray, float]:
        """``(A, b, β0)`` of the ``i``-th solution (``f(x) = ½xᵀAx + bᵀx + β0``)."""
        m = self.support.shape[1]
        rows, cols = np.triu_indices(m)
        A = np.zeros((m, m))
        A[rows, cols] = self.coefs[i, : rows.size]
        A[cols, rows] = self.coefs[i, : rows.size]
        return A, self.coefs[i, rows.size :].copy(), float(self.intercepts[i])

    def exit_lambdas(self) -> np.ndarray:
        """Per feature, the largest λ1 of the path at which its group is non-zero (0 if never):
        the features that leave the path last (as λ1 grows) have the largest values."""
        hit = self.support.any(axis=0)
        first = np.argmax(self.support, axis=0)
        return np.where(hit, self.lambdas[first], 0.0)


def _lambda_grid(lambda1_max: float, lambdas, n_lambdas: int, eps: float) -> np.ndarray:
    if lambdas is not None:
        grid = np.sort(np.asarray(lambdas, dtype=float).ravel())[::-1]
        if grid.size == 0 or not np.all(np.isfinite(grid)) or grid.min() < 0:
            raise ValueError(f"lambdas must be finite and non-negative; got {lambdas!r}")
        return grid
    if isinstance(n_lambdas, bool) or not isinstance(n_lambdas, (int, np.integer)):
        raise ValueError(f"n_lambdas must be a positive integer; got {n_lambdas!r}")
    if n_lambdas < 1:
        raise ValueError(f"n_lambdas must be a positive integer; got {n_lambdas!r}")
    if not 0 < eps < 1:
        raise ValueError(f"eps must be in (0, 1); got {eps!r}")
    if lambda1_max == 0.0:
        return np.zeros(1)
    return lambda1_max * np.logspace(0.0, np.log10(eps), int(n_lambdas))


def _collect(solver: _PathSolver, grid, names, mean, scale, seconds: float) -> GKFPUALPath:
    sols = [solver.solve(lam) for lam in grid]
    lam_max, exact = solver.lambda1_max()
    stuck = [lam for lam, sol in zip(grid, sols) if not sol.converged]
    if stuck:
        warnings.warn(
            f"the ADMM did not converge in {solver.max_iter} iterations at {len(stuck)} of "
            f"{len(sols)} λ1 values (largest {max(stuck):.4g}); raise max_iter",
            ConvergenceWarning,
            stacklevel=3,
        )
    return GKFPUALPath(
        lambdas=np.asarray(grid, dtype=float),
        lambda1_max=float(lam_max),
        lambda1_max_exact=bool(exact),
        support=np.array([s.support for s in sols]),
        group_norms=np.array([s.group_norms for s in sols]),
        coefs=np.array([s.alpha for s in sols]),
        intercepts=np.array([s.beta0 for s in sols]),
        objectives=np.array([s.objective for s in sols]),
        n_iter=np.array([s.n_iter for s in sols], dtype=int),
        converged=np.array([s.converged for s in sols], dtype=bool),
        feature_names=names,
        mean=np.asarray(mean, dtype=float).copy(),
        scale=np.asarray(scale, dtype=float).copy(),
        seconds=seconds,
        n_factorizations=int(solver.problem.n_factorizations),
    )


@fill_doc
def gkf_pual_path(
    X,
    y,
    lambdas=None,
    *,
    n_lambdas: int = 50,
    eps: float = 1e-2,
    **params,
) -> GKFPUALPath:
    """GKF-PUAL solutions along a path of group-lasso weights λ1 (the lasso-path picture).

    By default ``n_lambdas`` values log-spaced from ``λ1_max`` — the smallest λ1 at which every
    group is zero — down to ``eps · λ1_max``.  Each λ1 is warm-started from the previous
    solution, and the ADMM's linear systems, which do not depend on λ1 once the penalties μ are
    fixed, are factored once and reused; a 50-value path costs a few single fits.

    ``λ1_max`` comes from the KKT conditions of the all-zero solution: in closed form (up to an
    m-dimensional concave maximisation that splits the interaction coefficients shared by two
    groups) when ``C1·n_P < 4·C2·n_U``; otherwise every labeled positive sits at the hinge's kink,
    the hinge's subgradient is not unique, and ``λ1_max`` is found by bisection with the solver to
    a relative width of 1e-2 (``lambda1_max_exact`` says which).

    Parameters
    ----------
    %(pu_X_y)s
    lambdas : array-like of float, optional
        The λ1 values to solve (sorted decreasing).  Default: the log-spaced grid above.
    n_lambdas : int, default=50
        Number of λ1 values of the default grid.
    eps : float, default=1e-2
        Smallest λ1 of the default grid as a fraction of ``λ1_max``.
    **params
        Parameters of :class:`GKFPUALClassifier` (``C1``, ``C2``, ``lambda2``, ``n_neighbors``,
        ``sigma``, ``graph_solver``, ``mu``, ``adaptive_mu``, ``max_iter``, ``tol``,
        ``abs_tol``, ``stopping``, ``standardize``), with its defaults; not ``lambda1``, which is
        what the path varies.

    Returns
    -------
    path : GKFPUALPath
        Per λ1: support, group norms, coefficients, intercept, objective, ADMM iterations.

    See Also
    --------
    GKFPUALSelector : keeps exactly ``n_features_to_select`` features by searching this path.
    weakfs.plotting.plot_gkf_pual_path : group norms against λ1, with the feature names.

    Notes
    -----
    Along the path the ADMM solves eq. 18 with the explicit inverse of its (constant) matrix
    instead of back-substituting its Cholesky factor every iteration; solutions agree with
    :class:`GKFPUALClassifier` fitted at the same λ1 within the solver's tolerance.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.pu import gkf_pual_path
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=(200, 5))
    >>> y_true = (X[:, 0] ** 2 + X[:, 1] ** 2 > 1.4).astype(int)
    >>> s = y_true * (rng.uniform(size=200) < 0.6)
    >>> path = gkf_pual_path(X, s, n_lambdas=10, C2=0.3, lambda2=0.01, sigma=1e-3)
    >>> path.support.shape, int(path.n_nonzero[0])
    ((10, 5), 0)
    >>> bool(path.lambdas[0] == path.lambda1_max), int(path.n_nonzero[-1])
    (True, 5)
    """
    t0 = time.perf_counter()
    if "lambda1" in params:
        raise TypeError("gkf_pual_path varies lambda1 itself; pass lambdas= instead of lambda1=")
    est = GKFPUALClassifier(**params)
    est._validate_params()
    solver, names = _path_solver(est, X, y)
    lam_max, _ = solver.lambda1_max()
    grid = _lambda_grid(lam_max, lambdas, n_lambdas, eps)
    return _collect(solver, grid, names, est.mean_, est.scale_, time.perf_counter() - t0)
