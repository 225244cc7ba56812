"""GKF-PUAL's optimisation: the quadratic design, the kernel-free Gram matrix, the objective and
the five-block ADMM (the K-NN graph Laplacian ``R`` is :func:`weakfs._graph.knn_laplacian`).

Score ``f(x) = ½ xᵀAx + bᵀx + β0`` (``A`` symmetric).  With ``α*`` = (upper triangle of ``A``,
``b``) and the quadratic feature map ``s(x)`` such that ``f(x) = s(x)ᵀα* + β0``, the objective
(paper eq. 11) is

    λ1/2 Σ_j ‖α*_[j]‖₂ + λ2/2 α*ᵀGα* + fᵀRf + C1 Σ_P [1 − f(x_i)]₊ + C2 Σ_U (1 + f(x_i))²

where ``α*ᵀGα* = Σ_i ‖A x_i + b‖²`` (kernel-free regulariser), ``R`` is the graph Laplacian of a
K-nearest-neighbour similarity graph over all training rows and group ``j`` holds every entry of
``A`` in row/column ``j`` plus ``b_j`` (groups overlap through the off-diagonal entries).  It is
solved by the paper's five-block ADMM (§3.2) with the closed-form block updates (eq. 18, 21, 23, 25,
30); the two constant linear systems are factored once, and iterations stop on Boyd's primal/dual
residual test (``stopping="paper"``: the dual residuals only, as the paper's eq. 31).  Past a few
thousand rows, eq. 25 (``(2R + μ4 I) b = …``, ``n × n``) is solved by warm-started conjugate
gradients instead (``graph_solver``): its LU factors fill in towards a dense ``n × n`` matrix,
while the k-NN Laplacian itself holds O(n k) entries.

Opt-in pieces of the authors' R code (docs/gkf_pual.md, "The authors' R code"): a fixed number of
iterations (``stopping="none"``), the group threshold on the L1 norm (``group_norm="l1"``), the
R code's start (``init="r-code"``), its dense Gaussian graph over all pairs
(:func:`dense_gaussian_laplacian`) and its per-coefficient zero test (``zero_tol``).

Reference: X. Wang, R. Zhu, J.-H. Xue, "GKF-PUAL: A group kernel-free approach to
positive-unlabeled learning with variable selection", Information Sciences 690 (2025) 121574
(the authors' reference code: github.com/tkks22123/GKF-PUAL).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.linalg
from scipy import sparse

from weakfs._threads import limit_threads
from weakfs.pu._gkf_pual._design import QuadraticDesign

# the graph system's solvers, imported from here by the classifier, the tests and benchmarks
from weakfs.pu._gkf_pual._graph_system import (  # noqa: F401
    CG_MAX_ITER,
    CG_RTOL,
    GRAPH_SOLVER_AUTO_ROWS,
    GRAPH_SOLVERS,
    _ConjugateGradient,
    _DenseFactor,
    _SparseFactor,
    resolve_graph_solver,
)

# not used here: still imported from this module by benchmarks/bench_gkf_pual.py

__all__ = [
    "gkf_pual_objective",
]

#: the R code's zero test when it maps the solution back through ``t`` (``cons_ver``)
R_CODE_ZERO_TOL = 1e-6


_ZERO = np.zeros(1)


def _pair(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``np.column_stack((x, y))`` of two vectors (the same C-ordered array, without its
    per-call overhead)."""
    out = np.empty((x.shape[0], 2))
    out[:, 0] = x
    out[:, 1] = y
    return out


def _norm(x: np.ndarray) -> float:
    """``np.linalg.norm`` of a real vector, as it computes it (``sqrt(x·x)`` of the raveled
    vector), without its per-call checks: bitwise the same value, several times cheaper on the
    short vectors of the stopping test."""
    x = x.ravel(order="K")
    return math.sqrt(x.dot(x))


# ----------------------------------------------------------------------------------------------
# design of the quadratic model
# ----------------------------------------------------------------------------------------------
def _group_threshold(y: np.ndarray, thr: float, norm: str = "l2") -> tuple[np.ndarray, np.ndarray]:
    """The ``t`` update (eq. 30) of the groups ``y`` (one row per group): ``(t, shrink)``.

    Every row is scaled by ``max(1 − thr / ‖y_j‖, 0)``: the Euclidean group soft-threshold of
    eq. 30 with ``norm="l2"``; with ``norm="l1"`` the same formula with ``‖y_j‖₁``, as the
    authors' R code computes it (R's ``norm()`` of a column defaults to the one-norm), so a
    group is zero exactly when ``‖y_j‖₁ ≤ thr``.
    """
    norms = np.abs(y).sum(axis=1) if norm == "l1" else np.linalg.norm(y, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        shrink = np.where(norms > thr, 1.0 - thr / norms, 0.0)
    return (y * shrink[:, None]).ravel(), shrink


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
@dataclass
class _ADMMState:
    """Primal blocks and scaled duals of the ADMM (paper eq. 12-16); a warm start for the next
    λ1 of a path."""

    z: np.ndarray  # (α*, β0)
    h: np.ndarray  # hinge slack of the labeled positives
    a: np.ndarray  # slack of the unlabeled rows
    t: np.ndarray  # duplicated groups t = D*α*
    b: np.ndarray  # manifold copy of f
    u_h: np.ndarray
    u_a: np.ndarray
    v: np.ndarray
    q: np.ndarray

    def copy(self) -> _ADMMState:
        return _ADMMState(*(np.array(x, copy=True) for x in self.astuple()))

    def astuple(self) -> tuple:
        return (self.z, self.h, self.a, self.t, self.b, self.u_h, self.u_a, self.v, self.q)


@dataclass
class _ADMMResult:
    state: _ADMMState
    n_iter: int
    converged: bool
    history: list
    mu: tuple


class _ADMMProblem:
    """The pieces of the ADMM that do not depend on λ1, built once per data set.

    Rows of ``S`` are the labeled positives first, then the unlabeled.  λ1 enters only the group
    soft-threshold ``λ1/(2μ3)`` (eq. 30), so with the penalties μ fixed the two linear systems
    (eq. 18 and eq. 25) are the same for every λ1: they are factored once per μ and kept.
    ``graph_solver="cg"`` solves eq. 25 by conjugate gradients instead of factoring it
    (:class:`_ConjugateGradient`; ``"auto"`` chooses by size, :func:`resolve_graph_solver`).
    """

    def __init__(
        self,
        S: np.ndarray,
        n_pos: int,
        G: np.ndarray,
        R: sparse.csr_matrix,
        design: QuadraticDesign,
        *,
        C1: float,
        C2: float,
        lambda2: float,
        graph_solver: str | int = "direct",
    ):
        n, p = S.shape
        self.n, self.p, self.n_pos = n, p, n_pos
        self.graph_solver = resolve_graph_solver(graph_solver, n, not sparse.issparse(R))
        self.C1, self.C2, self.lambda2 = C1, C2, lambda2
        self.G, self.design = G, design
        self.St = np.concatenate([S, np.ones((n, 1))], axis=1)  # [S, 1]: f = St @ z
        self.Sp, self.Su = self.St[:n_pos], self.St[n_pos:]
        self.gflat = design.groups.ravel()
        self.counts = np.append(design.group_counts, 0.0)  # D0ᵀD0 (β0 is in no group)
        with limit_threads(self.St.shape):  # see solve()
            self.SpTSp, self.SuTSu = self.Sp.T @ self.Sp, self.Su.T @ self.Su
        self.StTSt = self.SpTSp + self.SuTSu
        if sparse.issparse(R):
            self.eye_n = sparse.identity(n, format="csc")
            self.R2 = (2.0 * R).tocsc()
        else:  # the R code's dense graph over all pairs
            self.eye_n = np.eye(n)
            self.R2 = 2.0 * np.asarray(R, dtype=float)
        self._factors: tuple | None = None  # (μ, (cholesky of eq. 18, LU of eq. 25))
        self.n_factorizations = 0

    def Dt(self, t: np.ndarray) -> np.ndarray:
        """``D0ᵀ t``: the sum of a group vector's copies of every coefficient (0 for β0)."""
        return np.concatenate((np.bincount(self.gflat, weights=t, minlength=self.p), _ZERO))

    def factor(self, mu, *, inverse: bool = False) -> tuple:
        """The two constant systems (eq. 18 and eq. 25) for the penalties ``mu``: the Cholesky
        factor of eq. 18's matrix (or, with ``inverse``, its explicit inverse) and a solver of
        eq. 25's (its LU or Cholesky factors, or conjugate gradients with ``graph_solver="cg"``).
        The last factorisation is kept and reused while ``mu`` does not change."""
        key = (tuple(mu), inverse)
        if self._factors is not None and self._factors[0] == key:
            return self._factors[1]
        mu1, mu2, mu3, mu4 = mu
        p = self.p
        K = mu1 * self.SpTSp + mu2 * self.SuTSu + mu4 * self.StTSt
        K[:p, :p] += self.lambda2 * self.G
        K[np.diag_indices(p + 1)] += mu3 * self.counts
        chol = scipy.linalg.cho_factor(K, lower=False, check_finite=False)
        if inverse:
            # the inverse from the Cholesky factor (LAPACK potri) once per μ saves a triangular
            # solve per iteration: a matrix-vector product is 3x faster than potrs for one
            # right-hand side
            inv, info = scipy.linalg.lapack.dpotri(np.asfortranarray(chol[0]), lower=0)
            if info != 0:  # pragma: no cover - K is positive definite
                raise np.linalg.LinAlgError(f"LAPACK potri failed (info={info})")
            upper = np.triu(inv)
            chol = upper + np.triu(upper, 1).T
        K_graph = self.R2 + mu4 * self.eye_n
        if self.graph_solver == "cg":
            lu = _ConjugateGradient(K_graph)
        elif sparse.issparse(K_graph):
            lu = _SparseFactor(K_graph)
        else:
            lu = _DenseFactor(K_graph)
        self._factors = (key, (chol, lu))
        self.n_factorizations += 1
        return chol, lu

    def initial_state(self, init: str = "paper") -> _ADMMState:
        """The start of the ADMM.

        ``"paper"``: Algorithm 1's start: A = 0, β = 1, β0 = 1; slacks from the constraints;
        duals = 1.  ``"r-code"``: the authors' R code's: every entry of α* (A and β) = 0.01,
        β0 = 0; slacks from the constraints; duals u_h = 0.5, u_a = 0, v = 10, q = 0.
        """
        n, p, n_pos = self.n, self.p, self.n_pos
        z = np.zeros(p + 1)
        if init == "r-code":
            z[:p] = 0.01
            duals = (np.full(n_pos, 0.5), np.zeros(n - n_pos), 10.0, np.zeros(n))
        else:
            z[self.design.n_quad : p] = 1.0
            z[p] = 1.0
            duals = (np.ones(n_pos), np.ones(n - n_pos), 1.0, np.ones(n))
        f = self.St @ z
        return _ADMMState(
            z=z,
            h=1.0 - f[:n_pos],
            a=1.0 + f[n_pos:],
            t=z[self.gflat],
            b=f.copy(),
            u_h=duals[0],
            u_a=duals[1],
            v=np.full(self.gflat.shape[0], duals[2]),
            q=duals[3],
        )

    def solve(self, lambda1: float, state: _ADMMState | None = None, **options) -> _ADMMResult:
        """:meth:`_solve` under a BLAS thread limit from the problem's size: the loop's
        products with ``[S, 1]`` (n × (p+1)) and eq. 18's (p+1) × (p+1) matrix take well under
        a millisecond on small data, less than two threads take to meet."""
        with limit_threads(self.St.shape, (self.p + 1, self.p + 1)):
            return self._solve(lambda1, state, **options)

    def _dual_block(self, k, changes, duals, mu, *, tol, abs_tol, fast):
        """Block ``k``'s (h, a, t, b) dual residual and its tolerance (eq. 31, Boyd et al.
        §3.3.1), from the block's ``changes`` this iteration and its dual; ``fast`` applies Sᵀ
        to the change and the dual in one product."""
        change, dual = changes[k], duals[k]
        sqrt_dual = np.sqrt(self.p + 1)
        if k == 2:  # t: its copies of every coefficient, summed
            return (
                mu[2] * _norm(self.Dt(change)),
                sqrt_dual * abs_tol + tol * _norm(self.Dt(dual)),
            )
        S = (self.Sp, self.Su, None, self.St)[k]
        if fast:
            both = S.T @ _pair(change, dual)
            return mu[k] * _norm(both[:, 0]), sqrt_dual * abs_tol + tol * _norm(both[:, 1])
        return mu[k] * _norm(S.T @ change), sqrt_dual * abs_tol + tol * _norm(S.T @ dual)

    def _primal_block(self, k, blocks, primal_parts, *, tol, abs_tol):
        """Block ``k``'s primal residual and its tolerance, from the ``blocks``
        ``(f, h, a, t, b, Dα)`` and the primal residuals ``primal_parts``."""
        n, n_pos = self.n, self.n_pos
        f, h, a, t, b, Dalpha = blocks
        if k == 0:
            size, scale = n_pos, max(_norm(f[:n_pos]), _norm(h), np.sqrt(n_pos))
        elif k == 1:
            size, scale = n - n_pos, max(_norm(f[n_pos:]), _norm(a), np.sqrt(n - n_pos))
        elif k == 2:
            size, scale = t.shape[0], max(_norm(Dalpha), _norm(t))
        else:
            size, scale = n, max(_norm(f), _norm(b))
        return _norm(primal_parts[k]), np.sqrt(size) * abs_tol + tol * scale

    def _residuals(self, changes, duals, blocks, primal_parts, mu, *, tol, abs_tol, fast):
        """The stopping test's norms (eq. 31, Boyd et al. §3.3.1), block by block (h, a, t, b):
        ``(primal, dual, e_pri, e_dual)`` from each block's ``changes`` this iteration, the
        ``duals`` (u_h, u_a, v, q), the ``blocks`` ``(f, h, a, t, b, Dα)`` and the primal
        residuals ``primal_parts``."""
        dual_tests = [
            self._dual_block(k, changes, duals, mu, tol=tol, abs_tol=abs_tol, fast=fast)
            for k in range(4)
        ]
        primal_tests = [
            self._primal_block(k, blocks, primal_parts, tol=tol, abs_tol=abs_tol) for k in range(4)
        ]
        primal, e_pri = zip(*primal_tests)
        dual, e_dual = zip(*dual_tests)
        return primal, dual, e_pri, e_dual

    def _converged(
        self, changes, duals, blocks, primal_parts, mu, *, tol, abs_tol, fast, stopping
    ) -> bool:
        """The stopping test of :meth:`_residuals` (every dual residual within its tolerance,
        and with ``stopping="primal-dual"`` every primal one), evaluated block by block up to
        the first that fails: each norm is computed by the same expression as there, so the
        decision is the same to the bit, without the norms a failing test does not need."""
        for k in range(4):
            dual, e_dual = self._dual_block(
                k, changes, duals, mu, tol=tol, abs_tol=abs_tol, fast=fast
            )
            if not dual <= e_dual:
                return False
        if stopping == "paper":
            return True
        for k in range(4):
            primal, e_pri = self._primal_block(k, blocks, primal_parts, tol=tol, abs_tol=abs_tol)
            if not primal <= e_pri:
                return False
        return True

    def _solve(
        self,
        lambda1: float,
        state: _ADMMState | None = None,
        *,
        mu: tuple[float, float, float, float],
        max_iter: int,
        tol: float,
        abs_tol: float,
        record_every: int,
        adapt: bool = False,
        stopping: str = "primal-dual",
        max_refactor: int = 30,
        fast: bool = False,
        first_adapt: int = 10,
        group_norm: str = "l2",
        init: str = "paper",
    ) -> _ADMMResult:
        """Paper Algorithm 1 from ``state`` (the start ``init`` of :meth:`initial_state` when
        None; a given state is updated in place).

        ``stopping="none"`` runs exactly ``max_iter`` iterations (the authors' R code: no
        stopping test); the residuals are then computed only for ``history`` and residual
        balancing.  ``group_norm`` is the norm of the group threshold (:func:`_group_threshold`).

        ``fast`` solves eq. 18 with the explicit inverse of its matrix and computes the residual
        norms of the stopping test two vectors per matrix product: the same iterations up to
        rounding (about 2x cheaper), used along λ1 paths.  The default keeps the classifier's
        arithmetic unchanged.  Residual balancing (``adapt``) is considered at iterations
        ``first_adapt``, twice that, four times, …"""
        n, p, n_pos = self.n, self.p, self.n_pos
        C1, C2 = self.C1, self.C2
        St = self.St
        groups = self.design.groups
        gflat = self.gflat
        Dt = self.Dt
        mu = list(mu)
        chol, lu = self.factor(mu, inverse=fast)
        n_refactor = 0
        next_adapt = first_adapt

        if state is None:
            state = self.initial_state(init)
        z, h, a, t, b = state.z, state.h, state.a, state.t, state.b
        u_h, u_a, v, q = state.u_h, state.u_a, state.v, state.q

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
            if fast:
                z = chol @ rhs
            else:
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
            b_new = lu.solve(q + mu4 * f, b)  # b: the start of an iterative solve
            # t: eq. 30 (Euclidean group soft-threshold; the R code's L1 norm with "l1")
            y = (alpha[gflat] + v / mu3).reshape(groups.shape)
            t_new, shrink = _group_threshold(y, thr_t, group_norm)
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
            record = record_every and (it % record_every == 0 or it == max_iter)
            balance = adapt and it == next_adapt
            blocks = (f, h, a, t, b, Dalpha)
            residual_args = ((dh, da, dt_, db), (u_h, u_a, v, q), blocks, (r_h, r_a, r_t, r_b), mu)
            tols = {"tol": tol, "abs_tol": abs_tol, "fast": fast}
            if not record and not balance:
                # nothing needs every norm: test block by block, stopping at the first failure
                if stopping == "none" or not self._converged(
                    *residual_args, **tols, stopping=stopping
                ):
                    continue
                if not record_every:  # converged, and no history to write
                    converged = True
                    break
            primal, dual, e_pri, e_dual = self._residuals(*residual_args, **tols)
            # the paper's eq. 31 tests the four dual residuals only; "none" tests nothing
            done = (
                stopping != "none"
                and all(dv <= de for dv, de in zip(dual, e_dual))
                and (stopping == "paper" or all(pv <= pe for pv, pe in zip(primal, e_pri)))
            )
            if record_every and (it % record_every == 0 or done or it == max_iter):
                history.append(_history_entry(it, primal, dual, shrink))
            if done:
                converged = True
                break
            # residual balancing (Boyd et al. §3.4.1; multiplicative step as in Wohlberg 2017),
            # optional: the penalties change the path, not the solution.  Each change refactors
            # the two constant systems, so it is only considered at iterations 10, 20, 40, 80, …
            # (from ``first_adapt``)
            if adapt and it == next_adapt and n_refactor < max_refactor:
                next_adapt *= 2
                if _balance_penalties(mu, primal, dual, e_pri, e_dual):
                    chol, lu = self.factor(mu, inverse=fast)
                    n_refactor += 1
        state = _ADMMState(z, h, a, t, b, u_h, u_a, v, q)
        return _ADMMResult(state, it, converged, history, tuple(mu))


def _history_entry(it: int, primal, dual, shrink: np.ndarray) -> dict:
    """One line of the solver's ``history``: the residuals' norms over the four blocks."""
    return {
        "iteration": it,
        "primal_residual": float(np.sqrt(sum(x * x for x in primal))),
        "dual_residual": float(np.sqrt(sum(x * x for x in dual))),
        "n_nonzero_groups": int((shrink > 0).sum()),
    }


def _balance_penalties(mu: list, primal, dual, e_pri, e_dual) -> bool:
    """Residual balancing: each penalty ``mu[k]`` (changed in place) moved by the square root of
    its block's primal-to-dual residual ratio (relative to their tolerances) when that ratio is
    above 10 or below 0.1, clipped to [0.01, 100]; whether any changed."""
    changed = False
    for k in range(4):
        ratio = (primal[k] / e_pri[k]) / max(dual[k] / e_dual[k], 1e-300)
        if ratio > 10.0 or ratio < 0.1:
            mu[k] *= float(np.clip(np.sqrt(ratio), 0.01, 100.0))
            changed = True
    return changed


def _admm(
    *data,
    C1: float,
    C2: float,
    lambda1: float,
    lambda2: float,
    graph_solver: str = "direct",
    **solve_options,
):
    """Paper Algorithm 1 from its own start.  ``data`` is :class:`_ADMMProblem`'s
    ``(S, n_pos, G, R, design)``: rows of ``S`` are the labeled positives first, then the
    unlabeled; ``graph_solver`` is how eq. 25 is solved (:func:`resolve_graph_solver`);
    ``solve_options`` go to :meth:`_ADMMProblem.solve` (``mu``, ``max_iter``, ``tol``,
    ``abs_tol``, ``record_every``, ...).
    Returns ``(z, t, n_iter, converged, history)``."""
    problem = _ADMMProblem(*data, C1=C1, C2=C2, lambda2=lambda2, graph_solver=graph_solver)
    res = problem.solve(lambda1, **solve_options)
    return res.state.z, res.state.t, res.n_iter, res.converged, res.history


def _final_coefficients(
    z: np.ndarray, t: np.ndarray, design: QuadraticDesign, zero_tol: float = 0.0
):
    """``(α*, β0, support)``: α* from the (α*, β0) block, groups that are zero in ``t`` set to 0.

    At convergence ``t = D*α*``; a group whose ``t`` block is exactly zero is removed, i.e. every
    entry of ``A`` in its row/column and its ``b_j`` are set to zero.  With ``zero_tol > 0`` the
    authors' R code's rule (``cons_ver``): every coefficient with a copy in ``t`` below
    ``zero_tol`` in absolute value is set to 0 (an interaction ``A_jk`` when its copy in group
    ``j`` or in group ``k`` is), and a feature is removed when every coefficient of its group is 0.
    """
    p = design.n_coef
    alpha = z[:p].copy()
    if zero_tol > 0:
        alpha[design.groups.ravel()[np.abs(t) < zero_tol]] = 0.0
        return alpha, float(z[p]), np.any(alpha[design.groups] != 0.0, axis=1)
    tg = t.reshape(design.groups.shape)
    support = np.any(tg != 0.0, axis=1)
    if not support.all():
        alpha[design.groups[~support].ravel()] = 0.0
    return alpha, float(z[p]), support
