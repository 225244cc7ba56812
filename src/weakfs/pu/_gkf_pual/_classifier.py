"""GKF-PUAL: group kernel-free PU classifier with asymmetric loss.

The estimator: input checks, standardisation, the pieces of the objective and the ADMM
(``_admm.py``), and the fitted quadratic score.

Reference: X. Wang, R. Zhu, J.-H. Xue, "GKF-PUAL: A group kernel-free approach to
positive-unlabeled learning with variable selection", Information Sciences 690 (2025) 121574
(the authors' reference code: github.com/tkks22123/GKF-PUAL).
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from scipy import sparse
from sklearn.base import _fit_context, clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions

from weakfs._docstrings import fill_doc
from weakfs._graph import knn_laplacian
from weakfs._labels import check_pu_target
from weakfs._validation import validate_X_y
from weakfs._words import counted
from weakfs.pu._base import _StandardizedPUClassifier
from weakfs.pu._gkf_pual import _fit_cache
from weakfs.pu._gkf_pual._admm import GRAPH_SOLVERS, _admm, _final_coefficients, gkf_pual_objective
from weakfs.pu._gkf_pual._design import (
    QuadraticDesign,
    _kernel_free_gram,
    _quadratic_features,
    dense_gaussian_laplacian,
    quadratic_design,
)
from weakfs.pu._gkf_pual._path_solver import _path_solver

__all__ = ["GKFPUALClassifier"]


@dataclass(frozen=True)
class _FitData:
    """The pieces of the objective for one training set (rows: labeled positives first)."""

    design: QuadraticDesign
    S: np.ndarray
    G: np.ndarray
    R: sparse.csr_matrix
    s: np.ndarray  # PU labels in the solver's row order
    n_pos: int
    m: int


def _warn_not_converged(history: list[dict], n_iter: int) -> None:
    """A ConvergenceWarning naming the residuals at the stop (and whether they grew)."""
    last = history[-1] if history else {}
    grew = len(history) >= 3 and history[-1]["primal_residual"] > 10 * min(
        h["primal_residual"] for h in history
    )
    warnings.warn(
        f"the ADMM did not converge in {n_iter} iterations (primal residual "
        f"{last.get('primal_residual', float('nan')):.3g}, dual residual "
        f"{last.get('dual_residual', float('nan')):.3g})"
        + (
            "; the residuals grew, so the problem may be badly scaled (standardize=True)"
            if grew
            else "; raise max_iter or keep adaptive_mu=True"
        ),
        ConvergenceWarning,
        stacklevel=3,
    )


def quadratic_design_mb(n: int, m: int) -> float:
    """Memory (MB) of the dense quadratic design of ``m`` features on ``n`` rows: the
    ``p = m (m + 3) / 2 + 1`` coefficients' Gram matrices and the design itself."""
    p = m * (m + 3) // 2 + 1
    return 8.0 * (3 * p * p + 2 * n * p) / 2**20


def largest_quadratic_model(n: int, memory_limit_mb: float) -> int:
    """The most features whose quadratic design on ``n`` rows fits in ``memory_limit_mb``."""
    m = 1
    while quadratic_design_mb(n, m + 1) <= memory_limit_mb:
        m += 1
    return m


class GKFPUALClassifier(_StandardizedPUClassifier):
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
    n_neighbors : int or None, default=5
        ``K`` of the nearest-neighbour graph of the manifold term.  ``None``: the Gaussian graph
        over all pairs of rows, as the authors' R code builds it (dense ``n × n``).
    sigma : float, default=1.0
        Width of the Gaussian similarity ``exp(−‖x_i − x_j‖² / (2σ²))`` on graph edges.
    graph_solver : {"auto", "direct", "cg"} or int, default="auto"
        How the ADMM's graph system (eq. 25, ``(2R + μ4 I) b = …``, ``n × n``) is solved.
        ``"direct"``: factored once per penalty (sparse LU for the k-NN graph, Cholesky for the
        dense graph); exact, but the LU factors of a k-NN Laplacian fill in towards a dense
        ``n × n`` matrix (27 s per fit at 5,000 × 8).  ``"cg"``: Jacobi-preconditioned conjugate
        gradients started from the previous iterate, to a relative residual of 1e-12; memory
        O(n k), the same iterations as ``"direct"`` up to rounding.  ``"auto"``: ``"direct"``
        for the dense graph and for at most 500 training rows, ``"cg"`` above (where it is
        faster: 3x at 2,000 × 8, one thread).  An integer: ``"auto"`` with that many rows
        instead of 500 (``2000`` reproduces results computed before the switch moved: the two
        solvers agree to ~1e-13, but a λ1 path's bisection can land on a slightly other λ1).
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
        stops far from the optimum.
    stopping : {"primal-dual", "paper", "none"}, default="primal-dual"
        ``"primal-dual"``: stop when the four primal and the four dual residuals are below
        their tolerances (Boyd et al. 2011, §3.3.1).  ``"paper"``: the dual residuals only, as
        the paper's eq. 31 tests them; with ``adaptive_mu=False,
        tol=1e-3, abs_tol=0.25`` this is the paper's rule (it stops after a few iterations,
        far from the optimum).  ``"none"``: no test, exactly ``max_iter`` iterations, as the
        authors' R code runs (``converged_`` is then False and no warning is given).
    group_norm : {"l2", "l1"}, default="l2"
        Norm of the group threshold (eq. 30): each group of ``t`` is scaled by
        ``max(1 − λ1 / (2μ3‖w_j‖), 0)``.  ``"l2"``: the Euclidean norm, the proximal step of
        the group lasso (the paper).  ``"l1"``: the L1 norm, as the authors' R code computes it;
        a group is then zero when ``‖w_j‖₁ ≤ λ1 / (2μ3)``.  That step is not the group lasso's
        proximal operator, so the iterations no longer converge to the optimum of eq. 11.
    init : {"paper", "r-code"}, default="paper"
        Start of the ADMM.  ``"paper"``: Algorithm 1's (A = 0, β = 1, β0 = 1, duals 1).
        ``"r-code"``: the authors' R code's (every entry of A and β 0.01, β0 = 0, duals
        u_h = 0.5, u_a = 0, v = 10, q = 0).
    zero_tol : float, default=0.0
        After the last iteration, set to 0 every coefficient whose copy in the group block ``t``
        is below ``zero_tol`` in absolute value, and remove the features whose coefficients are
        then all 0 (the authors' R code: 1e-6).  ``0``: remove the groups whose ``t`` block is
        exactly zero.
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
    A_ : ndarray of shape (``n_features_in_``, ``n_features_in_``)
        Symmetric quadratic coefficients (in the standardised space when ``standardize``).
    b_ : ndarray of shape (``n_features_in_``,)
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

    Notes
    -----
    The authors' R code (github.com/tkks22123/GKF-PUAL) differs from the paper's text in its
    solver.  ``GKFPUALClassifier(mu=0.01, adaptive_mu=False, stopping="none", max_iter=1300,
    group_norm="l1", init="r-code", zero_tol=1e-6, n_neighbors=None)`` follows it: fixed
    penalties, a fixed number of iterations, the L1-norm group threshold, its start, its
    per-coefficient zero test and its dense graph (``docs/gkf_pual.md``, "The authors' R
    code").

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

    #: the parameter :meth:`_fit_path` varies (``PUGridGreedySearch(path_param=...)``)
    _path_param: ClassVar[str] = "lambda1"

    _parameter_constraints: ClassVar[dict] = {
        "C1": [Interval(numbers.Real, 0, None, closed="neither")],
        "C2": [Interval(numbers.Real, 0, None, closed="neither")],
        "lambda1": [Interval(numbers.Real, 0, None, closed="left")],
        "lambda2": [Interval(numbers.Real, 0, None, closed="left")],
        "n_neighbors": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "sigma": [Interval(numbers.Real, 0, None, closed="neither")],
        "graph_solver": [
            StrOptions(set(GRAPH_SOLVERS)),
            Interval(numbers.Integral, 0, None, closed="left"),
        ],
        "mu": [Interval(numbers.Real, 0, None, closed="neither"), tuple, list],
        "adaptive_mu": ["boolean"],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "abs_tol": [Interval(numbers.Real, 0, None, closed="left")],
        "stopping": [StrOptions({"primal-dual", "paper", "none"})],
        "group_norm": [StrOptions({"l2", "l1"})],
        "init": [StrOptions({"paper", "r-code"})],
        "zero_tol": [Interval(numbers.Real, 0, None, closed="left")],
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
        graph_solver: str | int = "auto",
        mu=0.01,
        adaptive_mu: bool = True,
        max_iter: int = 20000,
        tol: float = 1e-4,
        abs_tol: float = 1e-6,
        stopping: str = "primal-dual",
        group_norm: str = "l2",
        init: str = "paper",
        zero_tol: float = 0.0,
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
        self.graph_solver = graph_solver
        self.mu = mu
        self.adaptive_mu = adaptive_mu
        self.max_iter = max_iter
        self.tol = tol
        self.abs_tol = abs_tol
        self.stopping = stopping
        self.group_norm = group_norm
        self.init = init
        self.zero_tol = zero_tol
        self.standardize = standardize
        self.memory_limit_mb = memory_limit_mb
        self.verbose = verbose

    # -- helpers -------------------------------------------------------------------------------
    def _mu_tuple(self) -> tuple[float, float, float, float]:
        if isinstance(self.mu, numbers.Real):
            return (float(self.mu),) * 4
        mu = tuple(float(x) for x in self.mu)
        if len(mu) != 4 or min(mu) <= 0:
            raise ValueError(f"mu must be a positive float or 4 positive floats; got {self.mu!r}")
        return mu  # type: ignore[return-value]

    def _check_memory(self, n: int, m: int) -> None:
        need_mb = quadratic_design_mb(n, m)
        if need_mb > self.memory_limit_mb:
            fits = largest_quadratic_model(n, self.memory_limit_mb)
            raise ValueError(
                f"too many features for the quadratic model: {counted(m, 'feature')} give "
                f"{m * (m + 3) // 2} coefficients and need about {need_mb:.0f} MB "
                f"(> memory_limit_mb={self.memory_limit_mb:g}); screen them first with "
                f"GKFPUALSelector(prefilter={fits}) (or prefilter='auto'; on the command line "
                "--set prefilter=auto), or raise memory_limit_mb"
            )

    def _prepare(self, X, y) -> _FitData:
        """Validate ``(X, y)``, set the scaling and build the pieces of the objective (rows in
        the solver's order: labeled positives first)."""
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
        Xs = self._fit_scaling(X)
        order = np.concatenate([np.flatnonzero(s == 1), np.flatnonzero(s == 0)])
        Xo = Xs[order]
        n_pos = int(s.sum())
        design = quadratic_design(m)
        S = _quadratic_features(Xo, design)
        G = _kernel_free_gram(Xo, design)
        if self.n_neighbors is None:
            R = dense_gaussian_laplacian(Xo, self.sigma)
        else:
            R = knn_laplacian(Xo, self.n_neighbors, self.sigma)
        return _FitData(design, S, G, R, s[order], n_pos, m)

    @_fit_context(prefer_skip_nested_validation=True)
    @fill_doc
    def fit(self, X, y):
        """Fit on PU data.

        %(pu_fit_parameters)s
        """
        data = self._prepare(X, y)
        design, S, G, R, n_pos, m = data.design, data.S, data.G, data.R, data.n_pos, data.m
        # the same problem fitted a moment ago (e.g. another σ whose graph weights all
        # underflow to 0): its solution, equal to what the ADMM below would compute
        key, arrays = _fit_cache.problem_key(self, S[:, design.n_quad :], data.s, R, ("fit",))
        hit = _fit_cache.lookup(key, arrays)
        if hit is not None:
            alpha, beta0, support, n_iter, converged, history, objective = hit
            if not converged and self.stopping != "none":
                _warn_not_converged(history, n_iter)
            self._set_solution(
                design, alpha.copy(), beta0, support.copy(), n_iter, converged,
                [dict(h) for h in history], objective,
            )  # fmt: skip
            self._report(m)
            return self
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
            graph_solver=self.graph_solver,
            mu=self._mu_tuple(),
            max_iter=self.max_iter,
            tol=self.tol,
            abs_tol=self.abs_tol,
            stopping=self.stopping,
            record_every=10,
            adapt=self.adaptive_mu,
            group_norm=self.group_norm,
            init=self.init,
        )
        alpha, beta0, support = _final_coefficients(z, t, design, float(self.zero_tol))
        if self.lambda1 == 0:
            support = np.ones(m, dtype=bool)
        if not converged and self.stopping != "none":
            _warn_not_converged(history, n_iter)
        objective = gkf_pual_objective(
            alpha,
            beta0,
            S,
            data.s,
            G,
            R,
            design,
            C1=self.C1,
            C2=self.C2,
            lambda1=self.lambda1,
            lambda2=self.lambda2,
        )
        _fit_cache.store(
            key, arrays,
            (alpha.copy(), beta0, support.copy(), n_iter, converged,
             [dict(h) for h in history], objective),
        )  # fmt: skip
        self._set_solution(design, alpha, beta0, support, n_iter, converged, history, objective)
        self._report(m)
        return self

    def _report(self, m: int) -> None:
        if self.verbose:
            print(
                f"GKF-PUAL: {self.n_iter_} ADMM iterations, converged={self.converged_}, "
                f"{int(self.support_.sum())}/{counted(m, 'feature')} kept, objective "
                f"{self.objective_:.6g}"
            )

    def _set_solution(
        self, design, alpha, beta0, support, n_iter, converged, history, objective
    ) -> None:
        """The fitted attributes of a solution ``(α*, β0)`` of the ADMM."""
        m = design.m
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
        self.objective_ = objective
        self.classes_ = np.array([0, 1])

    def _fit_path(self, X, y, lambdas) -> list[GKFPUALClassifier]:
        """Copies of this classifier fitted at every λ1 of ``lambdas`` along one path.

        The λ1 values are solved from the largest down, each warm-started from the nearest one
        already solved, with the linear systems factored once (:func:`gkf_pual_path`'s solver);
        each copy equals a cold ``fit`` at its λ1 within the solver's tolerance.  Returned in the
        order of ``lambdas``.
        """
        self._validate_params()
        data = self._prepare(X, y)
        design = data.design
        order = sorted({float(v) for v in lambdas}, reverse=True)
        # the same path solved a moment ago (another σ giving the same graph): its solutions
        key, arrays = _fit_cache.problem_key(
            self, data.S[:, design.n_quad :], data.s, data.R, ("path", tuple(order))
        )
        solutions = _fit_cache.lookup(key, arrays)
        if solutions is None:
            solver, _ = _path_solver(self, X, y, data=data)
            solutions = {lam: solver.solve(lam) for lam in order}
            _fit_cache.store(key, arrays, solutions)
        solved = {}
        for lam in order:
            sol = solutions[lam]
            est = clone(self).set_params(lambda1=lam)
            for name in ("mean_", "scale_", "n_features_in_", "feature_names_in_"):
                if hasattr(self, name):
                    setattr(est, name, getattr(self, name))
            est._set_solution(
                design, sol.alpha, sol.beta0, sol.support.copy(), sol.n_iter, sol.converged, [],
                sol.objective,
            )  # fmt: skip
            solved[lam] = est
        return [solved[float(v)] for v in lambdas]

    def decision_function(self, X) -> np.ndarray:
        """The quadratic score ``f(x)``; positive means predicted positive."""
        Xs = self._scaled(X)
        return 0.5 * np.einsum("ij,jk,ik->i", Xs, self.A_, Xs) + Xs @ self.b_ + self.intercept_
