"""GKF-PUAL's solver along a path of group-lasso weights λ1 (below the classifier, which uses it
for ``_fit_path``, and :mod:`._path`, which builds the public path with it).

**Where the path starts**: λ1_max, from the KKT conditions of the all-zero solution
(``_lambda_max``).

**Warm starts.**  λ1 enters the ADMM only through the group soft-threshold ``λ1/(2μ3)``, so with
the penalties μ fixed the two linear systems of the ADMM are the same for every λ1: they are
factored once and kept (re-factored only when residual balancing changes μ).  Each λ1 starts from
the primal and dual blocks of the nearest λ1 already solved; the first starts from the all-zero
solution with its dual certificate (``_lambda_max``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from weakfs.pu._gkf_pual._admm import (
    _ADMMProblem,
    _ADMMState,
    _final_coefficients,
    gkf_pual_objective,
)
from weakfs.pu._gkf_pual._lambda_max import _Certificate, _ZeroSolution

#: relative width to which λ1_max is bracketed when it has no closed form
LAMBDA_MAX_RTOL = 1e-2


# ----------------------------------------------------------------------------------------------
# solves along the path
# ----------------------------------------------------------------------------------------------
@dataclass
class _Solution:
    alpha: np.ndarray
    beta0: float
    support: np.ndarray
    group_norms: np.ndarray
    objective: float
    n_iter: int
    converged: bool


@dataclass
class _PathSolver:
    """Solves one problem for many λ1, each warm-started from the nearest λ1 already solved."""

    problem: _ADMMProblem
    S: np.ndarray
    s: np.ndarray
    R: object
    mu: tuple
    adaptive_mu: bool
    max_iter: int
    tol: float
    abs_tol: float
    stopping: str
    states: dict = field(default_factory=dict)
    solutions: dict = field(default_factory=dict)
    _lambda1_max: tuple | None = None

    def __post_init__(self):
        self.zero = _ZeroSolution(self.problem)

    # -- one λ1 -------------------------------------------------------------------------------
    def _nearest_state(self, lam: float) -> _ADMMState | None:
        if not self.states:
            return None
        if lam <= 0.0:
            key = min(self.states)
        else:
            keys = np.array(list(self.states))
            safe = np.where(keys > 0, keys, np.finfo(float).tiny)
            key = float(keys[np.argmin(np.abs(np.log(safe / lam)))])
        return self.states[key].copy()

    def _record(self, lam: float, z, t, n_iter: int, converged: bool) -> _Solution:
        design = self.problem.design
        alpha, beta0, support = _final_coefficients(z, t, design)
        if lam == 0:
            support = np.ones(design.m, dtype=bool)
        P = self.problem
        objective = gkf_pual_objective(
            alpha,
            beta0,
            self.S,
            self.s,
            P.G,
            self.R,
            design,
            C1=P.C1,
            C2=P.C2,
            lambda1=lam,
            lambda2=P.lambda2,
        )
        return _Solution(
            alpha,
            beta0,
            support,
            np.linalg.norm(alpha[design.groups], axis=1),
            objective,
            n_iter,
            converged,
        )

    def solve(self, lam: float) -> _Solution:
        """The solution at ``lam`` (the certified all-zero solution at and above λ1_max)."""
        lam = float(lam)
        if lam in self.solutions:
            return self.solutions[lam]
        lam_max, _ = self.lambda1_max()
        if lam >= lam_max and lam_max in self.states:
            state = self.states[lam_max].copy()
            sol = self._record(lam, state.z, state.t, 0, True)
            self.solutions[lam] = sol
            return sol
        return self._admm(lam)

    def _run(self, lam: float):
        """One ADMM solve at ``lam`` from the nearest state; keeps its state and penalties."""
        res = self.problem.solve(
            lam,
            self._nearest_state(lam),
            mu=self.mu,
            max_iter=self.max_iter,
            tol=self.tol,
            abs_tol=self.abs_tol,
            record_every=0,
            adapt=self.adaptive_mu,
            stopping=self.stopping,
            fast=True,
            # a warm start is usually done before the 30th iteration: balancing the penalties
            # only in the solves that need more saves most re-factorisations
            first_adapt=30,
        )
        self.mu = res.mu
        self.states[lam] = res.state.copy()
        return res

    def _admm(self, lam: float) -> _Solution:
        res = self._run(lam)
        sol = self._record(lam, res.state.z, res.state.t, res.n_iter, res.converged)
        self.solutions[lam] = sol
        return sol

    # -- where the path starts ----------------------------------------------------------------
    def lambda1_max(self) -> tuple[float, bool]:
        """``(λ1_max, exact)``: the smallest λ1 at which every group is zero (see the module
        docstring), and whether it is the closed form (True) or a bisection's upper end."""
        if self._lambda1_max is not None:
            return self._lambda1_max
        cert = self.zero.certificate()
        if self.zero.exact or cert.lam == 0.0:
            self._set_lambda1_max(cert, exact=True)
            return self._lambda1_max
        # labeled positives at the hinge's kink: bisection with the solver, each solve's hinge
        # duals tightening the certified upper end
        hi = cert
        self.states[hi.lam] = hi.state.copy()
        lo = 0.0
        for _ in range(40):
            if lo > 0.0 and hi.lam <= lo * (1.0 + LAMBDA_MAX_RTOL):
                break
            lam = 0.8 * hi.lam if lo == 0.0 else float(np.sqrt(lo * hi.lam))
            res = self._run(lam)
            found = self.zero.certificate_from(res.state)
            if found.lam < hi.lam:
                hi = found
                self.states[hi.lam] = hi.state.copy()
            if hi.lam <= lam:
                continue  # zero at lam is certified
            nonzero = np.any(res.state.t != 0.0)
            if nonzero:
                lo = max(lo, lam)
            else:  # the solver finds every group zero although the certificate is not tight
                hi = _Certificate(lam, res.state.copy())
            if lo >= hi.lam:  # a non-zero group the certificate excludes: solver round-off
                lo = hi.lam / (1.0 + LAMBDA_MAX_RTOL)
        self._set_lambda1_max(hi, exact=False)
        return self._lambda1_max

    def _set_lambda1_max(self, cert: _Certificate, *, exact: bool) -> None:
        self.states[cert.lam] = cert.state.copy()
        self._lambda1_max = (cert.lam, exact)

    # -- exactly k groups ---------------------------------------------------------------------
    def lambda_for_k(self, k: int, lambdas: np.ndarray, *, max_bisect: int = 30) -> float:
        """The largest λ1 on ``lambdas`` (solved already) where exactly ``k`` groups are
        non-zero; if the path jumps over ``k``, bisection between the neighbouring λ1 (log
        scale).  If no λ1 gives exactly ``k``, the λ1 with the fewest groups above ``k``."""
        counts = np.array([self.solve(lam).support.sum() for lam in lambdas])
        above = np.flatnonzero(counts >= k)
        grid = [float(v) for v in lambdas]
        lam_min = grid[-1]
        while above.size == 0:  # the path ends above k: continue it down, then λ1 = 0
            lam_min = lam_min * 0.1 if lam_min > 1e-8 * grid[0] else 0.0
            grid.append(lam_min)
            counts = np.append(counts, self.solve(lam_min).support.sum())
            above = np.flatnonzero(counts >= k)
        i = int(above[0])
        if counts[i] == k or i == 0:
            return grid[i]
        lo, hi = grid[i], grid[i - 1]  # lo: more than k groups, hi: fewer
        best_lo = lo
        for _ in range(max_bisect):
            mid = float(np.sqrt(lo * hi)) if lo > 0 else 0.5 * hi
            count = self.solve(mid).support.sum()
            if count == k:
                return mid
            if count > k:
                lo = best_lo = mid
            else:
                hi = mid
            if hi <= lo * (1.0 + 1e-6):
                break
        return best_lo


def _path_solver(estimator, X, y, *, data=None) -> tuple[_PathSolver, np.ndarray]:
    """A :class:`_PathSolver` for the (unfitted) classifier ``estimator``'s settings on
    ``(X, y)``; ``estimator`` gets ``mean_``, ``scale_``, ``n_features_in_`` (and feature names)
    set by the checks.  Also returns the feature names.

    The path's warm starts and λ1_max assume the group lasso's proximal step: the R-code options
    ``group_norm="l1"``, ``init="r-code"`` and ``zero_tol > 0`` are refused."""
    r_code = {
        "group_norm": getattr(estimator, "group_norm", "l2") != "l2",
        "init": getattr(estimator, "init", "paper") != "paper",
        "zero_tol": float(getattr(estimator, "zero_tol", 0.0)) > 0,
    }
    if any(r_code.values()):
        raise ValueError(
            "the λ1 path solves the group lasso (group_norm='l2', init='paper', zero_tol=0); "
            f"got the R-code option(s) {[k for k, v in r_code.items() if v]}: fit each λ1 "
            "separately instead"
        )
    if data is None:  # else: ``estimator._prepare(X, y)``, done by the caller
        data = estimator._prepare(X, y)
    problem = _ADMMProblem(
        data.S,
        data.n_pos,
        data.G,
        data.R,
        data.design,
        C1=float(estimator.C1),
        C2=float(estimator.C2),
        lambda2=float(estimator.lambda2),
        graph_solver=getattr(estimator, "graph_solver", "auto"),
    )
    solver = _PathSolver(
        problem,
        data.S,
        data.s,
        data.R,
        mu=estimator._mu_tuple(),
        adaptive_mu=bool(estimator.adaptive_mu),
        max_iter=int(estimator.max_iter),
        tol=float(estimator.tol),
        abs_tol=float(estimator.abs_tol),
        stopping=str(estimator.stopping),
    )
    names = getattr(estimator, "feature_names_in_", None)
    if names is None:
        names = np.array([f"x{i}" for i in range(data.m)], dtype=object)
    return solver, np.asarray(names, dtype=object)
